"""Why it stopped, and whether the work lands, on the page: in a real Chromium, phone and desktop,
both themes. The snapshots are the real engine's over composed logs (tests/data/iota-undelivered.log,
tests/data/shell/*), with a power reading, pushed over the page's (mocked) websocket."""

from __future__ import annotations

import calendar
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats.iota import IotaParser
from app.ingest.formats.iota_shell import ShellParser
from app.snapshot import SourceView, to_dict
from app.stats.events import HardwareSample
from app.stats.iota.shell import ShellRecord
from app.stats.iota.tracker import IotaTracker
from app.stats.power import hardware_view
from tests.conftest import RunningServer
from tests.pages import watched_page
from tests.web.test_page import PHONE, Feed, expect, shot

# Times are worked out in UTC: this process reads local time as UTC (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("utc_zone")
DATA = Path(__file__).resolve().parents[1] / "data"
DESKTOP = {"width": 1280, "height": 900}


def utc(*wall: int) -> float:
    return float(calendar.timegm((*wall, 0, 0, 0)))


def undelivered_with_power() -> dict[str, Any]:
    lines = (DATA / "iota-undelivered.log").read_text(encoding="utf-8").splitlines()
    tracker = IotaTracker()
    tracker.apply_all(IotaParser(to_epoch=utc).feed(lines))
    now = utc(2026, 9, 30, 10, 30, 0)
    snap = tracker.snapshot(now, SourceView("/x/2026-09-30-cli.log", 1, 1, 0, now))
    samples = [HardwareSample(now - 3600 + 30 * i, 58.0 + (i % 9), 70.0, 80 <= i <= 90, ("thermal",) if 80 <= i <= 90 else ())
               for i in range(121)]
    view = hardware_view(samples, "nvidia-smi", None, snap)
    return to_dict(replace(snap, hardware=view, details=(*snap.details, view.text or "")))


def quit_and_silent() -> dict[str, Any]:
    tracker = IotaTracker()
    tracker.apply_all(IotaParser(to_epoch=utc).feed((DATA / "shell" / "worker-cli.log").read_text().splitlines()))
    parser, record = ShellParser(to_epoch=utc), ShellRecord("main.log")
    record.apply(parser.feed((DATA / "shell" / "main-quit.log").read_text().splitlines()), 1, 0)
    tracker.shell = record.figures()
    now = utc(2026, 9, 30, 2, 30, 0)
    return to_dict(tracker.snapshot(now, SourceView("/x/2026-09-30-cli.log", 1, 1, 0, now)))


@pytest.fixture(params=[("phone", PHONE), ("desktop", DESKTOP)], ids=["phone", "desktop"])
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    for page in watched_page(browser, console=False, viewport=request.param[1], device_scale_factor=1):  # (one page)
        page.size_name = request.param[0]
        yield page


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_dropped_forwards_and_the_power_strip(server: RunningServer, page: Any, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    feed = Feed(page)
    page.goto(server.http_url)
    snapshot = undelivered_with_power()
    feed.send(snapshot)
    expect()(page.locator("#status")).to_have_text("L2 · 230k tok/h")
    expect()(page.locator("#state")).to_have_attribute("data-level", "warning")
    expect()(page.locator("#explain")).to_have_text("training, but 33 % of forwards were not delivered in 10 min")
    expect()(page.locator("#power")).to_be_visible()
    expect()(page.locator("#power-text")).to_have_text(snapshot["hardware"]["text"])
    assert page.locator("#power-line .power-throttled").count() == 11  # the readings 80…90 of the hour
    # each said once: the sentence under the state, the power line under its strip, not again in the list
    expect()(page.locator("#details")).not_to_contain_text("training, but")
    expect()(page.locator("#details")).not_to_contain_text("Wh per million tokens")
    expect()(page.locator("#details")).to_contain_text("Forwards: 4 of 12 not delivered in 10 min (33 %)")
    assert page.locator("#power-line path").get_attribute("d", timeout=2000).startswith("M")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # nothing wider than the screen
    shot(page, f"whystop-undelivered-{page.size_name}-{scheme}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_silence_says_its_cause(server: RunningServer, page: Any, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    feed = Feed(page)
    page.goto(server.http_url)
    feed.send(quit_and_silent())
    expect()(page.locator("#status")).to_have_text("L2 · log silent 16 min — you quit the app at 02:14")
    expect()(page.locator("#power")).to_be_hidden()  # no --hardware: no strip
    expect()(page.locator("#explain")).to_be_hidden()  # the cause is known: no generic guess beside it
    expect()(page.locator("#events")).to_contain_text("log went silent — you quit the app at 02:14")
    expect()(page.locator("#events")).to_contain_text("app: quit by you")
    shot(page, f"whystop-quit-{page.size_name}-{scheme}")
