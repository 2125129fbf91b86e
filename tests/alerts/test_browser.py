"""Browser notifications in a real Chromium: asked for by a button only, then the same alerts as
the channels get. The Notification API is replaced by a recorder (a headless browser shows none)."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.live.monitor import Monitor
from tests.conftest import RunningServer, start_server
from tests.web.test_browser import (
    allow_errors,
    expect,
    page,  # noqa: F401 - the phone-sized page that fails on console errors
)

RECORDER = """
window.__notes = [];
window.__asked = 0;
window.__permission = "default";
window.Notification = class {
  constructor(title, options) { window.__notes.push({ title, body: options.body, tag: options.tag }); }
  static get permission() { return window.__permission; }
  static requestPermission() {
    window.__asked += 1;
    window.__permission = "granted";
    return Promise.resolve("granted");
  }
};
"""


def steps(first: int, last: int) -> str:
    return "".join(f"iter {i}: loss {4 - i / 1000:.4f}, time 250.00ms, mfu 30.00%\n" for i in range(first, last + 1))


@pytest.fixture
def stalled(tmp_path: Path) -> Path:
    log = tmp_path / "train.log"
    log.write_text("tokens per iteration will be: 491,520\n" + steps(0, 200))
    two_hours_ago = time.time() - 7200
    os.utime(log, (two_hours_ago, two_hours_ago))
    return log


def serve(config: Config) -> RunningServer:
    assert config.log_path is not None
    return start_server(config, Monitor(config.log_path))


def wait_for(condition: Any, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.05)


def test_the_button_asks_and_then_the_page_shows_new_alerts(
    page: Any, stalled: Path, tmp_path: Path  # noqa: F811 - the fixture above
) -> None:
    running = serve(Config(log_path=stalled, port=0, config_dir=tmp_path / "config", name="gpu-box"))
    try:
        alerts = running.dashboard.alerts
        assert alerts is not None
        wait_for(lambda: alerts.status()["recent"])  # the stall was told before the page opened
        page.add_init_script(RECORDER)
        page.goto(running.http_url + "/")
        button = page.locator("#alerts-button")
        button.wait_for(state="visible")
        assert button.text_content() == "Enable browser alerts"
        page.wait_for_timeout(500)
        assert page.evaluate("window.__asked") == 0  # nothing asked on load
        button.click()
        expect()(button).to_have_text("Browser alerts: on")
        assert page.evaluate("window.__asked") == 1
        with stalled.open("a") as f:
            f.write(steps(201, 240))
        wait_for(lambda: page.evaluate("window.__notes.length") >= 1)
        page.wait_for_timeout(1000)
        notes = page.evaluate("window.__notes")
        # Only what happened after the page opened: the resolution, not the stall before it.
        assert len(notes) == 1
        assert notes[0]["title"].startswith("gpu-box: ")
        # The stall ran from step 200 (two hours ago) to step 201, which the trainer's own step
        # times place 39 × 250 ms before the appended batch arrived: a little under two hours.
        assert notes[0]["body"].startswith(("Stalled resolved after 1 h 59 min", "Stalled resolved after 2 h 00 min"))
        assert notes[0]["tag"] == "tokwatch-stalled"
        # The choice is kept: a reload shows it on, and asks nothing.
        page.evaluate("window.__permission = 'granted'")  # what the browser remembers
        page.add_init_script("window.__permission = 'granted'")
        page.reload()
        expect()(page.locator("#alerts-button")).to_have_text("Browser alerts: on")
        assert page.evaluate("window.__asked") == 0
    finally:
        allow_errors(page, "ERR_CONNECTION")
        running.dashboard.stop()


def test_a_delivery_problem_shows_on_the_page_without_the_url(
    page: Any, stalled: Path, tmp_path: Path  # noqa: F811 - the fixture above
) -> None:
    config = Config(log_path=stalled, port=0, config_dir=tmp_path / "config")
    running = serve(replace(config, notify_urls=("nosuchservice://S3cretTopic",)))
    try:
        page.goto(running.http_url + "/")
        problem = page.locator("#alerts-problem")
        problem.wait_for(state="visible", timeout=20_000)
        assert "#1 nosuchservice://…" in (problem.text_content() or "")
        assert "S3cretTopic" not in page.content()
    finally:
        allow_errors(page, "ERR_CONNECTION")
        running.dashboard.stop()
