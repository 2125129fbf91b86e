"""A collaborator's page in a real Chromium: its averaging rounds as markers under the chart (ok and failed,
the group's size a line) and its peer table, open on the desktop, collapsed on a phone, both themes.

The log is the composed SN38 session of tests/stats/test_swarm_sessions.py moved to end a minute before
now (four rounds: ok with 3 peers, failed with 4, failed at checkpoint 2 with 2 and UID 55 banned, ok with
2; four peers, UID 55 failing twice). Screenshots go to test-artifacts/ (docs/ keeps copies).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.live.monitor import Monitor
from app.record.recorder import Recorder
from app.serve.process import Dashboard
from app.store import History
from tests import pages
from tests.conftest import RunningServer, start_server
from tests.stats.test_swarm_sessions import SESSION, local
from tests.web.test_browser import PHONE, expect, shot

DESKTOP = {"width": 1280, "height": 900}
_STAMP = re.compile(r"^2025-06-27 (\d\d:\d\d:\d\d\.\d{3})")


def moved_lines(session: list[str], last: str, end: float) -> str:
    """``session``'s lines (stamped on 2025-06-27) with their times moved so that its last line, stamped
    ``last``, is at ``end``."""
    last_at = local(last)
    lines = []
    for line in session:
        m = _STAMP.match(line)
        assert m is not None
        at = local(f"2025-06-27 {m.group(1)}") - last_at + end
        seconds, ms = divmod(round(at * 1000), 1000)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds)) + f".{ms:03d}"
        lines.append(stamp + line[m.end():])
    return "\n".join(lines) + "\n"


def moved_session(end: float) -> str:
    """The session's lines with their times moved so that its last line is at ``end``."""
    return moved_lines(SESSION, "2025-06-27 10:35:00.000", end)


@pytest.fixture
def swarm_server(tmp_path: Path) -> Iterator[RunningServer]:
    log = tmp_path / "miner.log"
    log.write_text(moved_session(time.time() - 60), encoding="utf-8")
    config = Config(log_path=log, port=0, config_dir=tmp_path / "config", history=False)
    running = start_server(config, Monitor(log))
    yield running
    running.dashboard.stop()


def open_page(browser: Any, url: str, viewport: dict[str, int], scheme: str) -> tuple[Any, Any, list[str]]:
    page = pages.open_page(browser, viewport=viewport, device_scale_factor=2, color_scheme=scheme)
    page.goto(url)
    return page.context, page, page.errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_rounds_and_peers_on_a_phone_and_a_desktop(browser: Any, swarm_server: RunningServer, scheme: str) -> None:
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        context, page, errors = open_page(browser, swarm_server.http_url, viewport, scheme)
        rounds = page.locator("#rounds")
        expect()(rounds).to_be_visible(timeout=15_000)
        # four rounds: two ok, two failed, each a marker; the group's size a line through them
        expect()(page.locator("#rounds-plot circle.round-ok")).to_have_count(2)
        expect()(page.locator("#rounds-plot circle.round-failed")).to_have_count(2)
        assert page.locator("#rounds-plot polyline.rounds-group").count() == 1
        titles = page.locator("#rounds-plot circle title").all_text_contents()
        assert any("failed at checkpoint 2" in title for title in titles)
        peers = page.locator("#peers")
        expect()(peers).to_be_visible()
        expect()(page.locator("#peers-count")).to_have_text("4")
        # collapsed on a phone, open on the desktop
        assert peers.evaluate("el => el.open") is (name == "desktop")
        if name == "phone":
            page.locator("#peers summary").click()
            expect()(page.locator("#peer-rows tr")).to_have_count(4)
        first = page.locator("#peer-rows tr").first
        assert first.get_attribute("data-failing") == "true"
        cells = first.locator("th, td").all_inner_texts()
        # the whole id as the mapping shortens it on the desktop, its end as the per-peer lines do on a phone
        shown_id = "12D3KooWHp4nRt8e...k2P" if name == "desktop" else "...k2P"
        assert [c.strip() for c in cells[:5]] == ["55", shown_id, "3", "2", "banned"]
        no_overflow = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert no_overflow, "the page scrolls sideways"
        page.locator("#rounds").scroll_into_view_if_needed()
        shot(page, f"swarm-{name}-{scheme}")
        context.close()
        assert not [e for e in errors if "WebSocket" not in e], errors


# Pixels of one colour on the loss plot's canvas (within a small tolerance: antialiasing blends edges).
_COUNT_COLOUR = """(canvas, rgb) => {
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - rgb[0]) < 12 && Math.abs(data[i + 1] - rgb[1]) < 12 && Math.abs(data[i + 2] - rgb[2]) < 12
        && data[i + 3] > 200) n += 1;
  }
  return n;
}"""
_ROUND_COLOURS = {
    "light": {"ok": (0x15, 0x80, 0x3D), "failed": (0xB9, 0x1C, 0x1C), "group": (0x1D, 0x4E, 0xD8)},
    "dark": {"ok": (0x4A, 0xDE, 0x80), "failed": (0xF8, 0x71, 0x71), "group": (0x93, 0xC5, 0xFD)},
}


STEP_SECONDS = 30
ROUND_EVERY = 10
# Six rounds, one each 10 steps: (group, ok). Failed rounds print no group.
ROUNDS = [(6, True), (5, True), (None, False), (5, True), (None, False), (4, True)]


def step_loss(step: int) -> float:
    return 3.0 + 3.0 * math.exp(-step / 20)


def hivemind_session(end: float) -> str:
    """hivemind's example trainer: ``Step #N`` and its local loss every 30 s, steps 1 to 60; at each 10th
    step its optimizer begins a round, ok 20 s later (``Averaged gradients with N peers``) or failed."""
    first = end - 60 * STEP_SECONDS - 25
    lines = []

    def at(t: float, message: str) -> None:
        stamp = time.strftime("%b %d %H:%M:%S", time.localtime(t)) + f".{int(t * 1000) % 1000:03d}"
        lines.append(f"{stamp} [INFO] {message}")

    for step in range(1, 61):
        t = first + step * STEP_SECONDS
        at(t, f"Step #{step}")
        at(t + 0.001, f"Local loss: {step_loss(step):.5f}")
        if step % ROUND_EVERY == 0:
            group, ok = ROUNDS[step // ROUND_EVERY - 1]
            at(t + 5, f"Beginning optimizer step #{step // ROUND_EVERY}")
            if ok:
                at(t + 25, f"Averaged gradients with {group} peers")
            else:
                at(t + 25, "Averaging gradients failed with AllreduceException('peer 12D3KooWHp4n…k2P sent 0 parts, "
                           "but we expected 117')")
                at(t + 25.001, "Proceeding with local gradients")
    return "\n".join(lines) + "\n"


@pytest.fixture
def hivemind_server(tmp_path: Path) -> Iterator[str]:
    """A hivemind peer's log served with --no-history: the run's loss from what the server read."""
    log = tmp_path / "peer.log"
    log.write_text(hivemind_session(time.time() - 60), encoding="utf-8")
    config = Config(log_path=log, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(log)
    dashboard = Dashboard(config, monitor, recorder=Recorder(History(None), log, machine="swarm-test"))
    started = dashboard.start()
    deadline = time.monotonic() + 20
    while getattr(monitor.snapshot().training, "step", None) != 60 and time.monotonic() < deadline:
        time.sleep(0.2)
    yield f"http://127.0.0.1:{started.port}"
    dashboard.stop()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_rounds_are_drawn_on_the_loss_plot(browser: Any, hivemind_server: str, scheme: str) -> None:
    """Each round at the step it began on the loss plot itself: ok and failed markers in their colours,
    the group's size a line, keyed in the plot's caption; hovering a round reads its words."""
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        context, page, errors = open_page(browser, hivemind_server, viewport, scheme)
        caption = page.locator("#chart figcaption").first
        expect()(caption).to_contain_text("round failed", timeout=15_000)
        expect()(caption).to_contain_text("round ok")
        expect()(caption).to_contain_text("group size (peers)")
        canvas = page.locator("#chart canvas").first
        colours = _ROUND_COLOURS[scheme]
        for what in ("ok", "failed", "group"):
            assert canvas.evaluate(_COUNT_COLOUR, list(colours[what])) > 20, what
        page.locator("#history").scroll_into_view_if_needed()
        shot(page, f"swarm-chart-{name}-{scheme}")
        # a failed round's words when the cursor is on it (swept across the plot, as a reader's mouse would)
        box = page.locator("#chart .u-over").first.bounding_box()
        assert box is not None
        said = ""
        for x in range(int(box["x"]) + 1, int(box["x"] + box["width"]), 3):
            page.mouse.move(x, box["y"] + box["height"] / 2)
            said = page.locator("#chart-readout").inner_text()
            if "failed: Allreduce" in said:
                break
        assert "round" in said and "failed: AllreduceException('peer 12D3KooWHp4n…k2P sent 0 parts" in said, said
        page.mouse.move(0, 0)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
        context.close()
        assert not [e for e in errors if "WebSocket" not in e], errors
