"""A collaborator's page in a real Chromium: its averaging rounds as markers under the chart (ok and failed,
the group's size a line) and its peer table, open on the desktop, collapsed on a phone, both themes.

The log is the composed SN38 session of tests/stats/test_swarm_sessions.py moved to end a minute before
now (four rounds: ok with 3 peers, failed with 4, failed at checkpoint 2 with 2 and UID 55 banned, ok with
2; four peers, UID 55 failing twice). Screenshots go to test-artifacts/ (docs/ keeps copies).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.live.monitor import Monitor
from tests.conftest import RunningServer, start_server
from tests.stats.test_swarm_sessions import SESSION, local
from tests.web.test_browser import PHONE, expect, shot

DESKTOP = {"width": 1280, "height": 900}
_STAMP = re.compile(r"^2025-06-27 (\d\d:\d\d:\d\d\.\d{3})")


def moved_session(end: float) -> str:
    """The session's lines with their times moved so that its last line is at ``end``."""
    last = local("2025-06-27 10:35:00.000")
    lines = []
    for line in SESSION:
        m = _STAMP.match(line)
        assert m is not None
        at = local(f"2025-06-27 {m.group(1)}") - last + end
        seconds, ms = divmod(round(at * 1000), 1000)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds)) + f".{ms:03d}"
        lines.append(stamp + line[m.end():])
    return "\n".join(lines) + "\n"


@pytest.fixture
def swarm_server(tmp_path: Path) -> Iterator[RunningServer]:
    log = tmp_path / "miner.log"
    log.write_text(moved_session(time.time() - 60), encoding="utf-8")
    config = Config(log_path=log, port=0, config_dir=tmp_path / "config", history=False)
    running = start_server(config, Monitor(log))
    yield running
    running.dashboard.stop()


def open_page(browser: Any, url: str, viewport: dict[str, int], scheme: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=viewport, device_scale_factor=2, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(url)
    return context, page, errors


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
