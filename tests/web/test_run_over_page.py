"""A run that is over, on the page in a real Chromium: its quiet log is no news.

Real logs (each file's header names its source): LitGPT's LoRA fine-tune that printed its end
(issue 1110) and nanochat's run that died of an OOM in its CORE evaluation. Each was last written
two hours before the page opens: the run stays done (crashed), and the freshness line says when
its log last moved, not a warning that no new line came.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.live.monitor import Monitor
from app.serve.process import Dashboard
from tests.reallogs import body
from tests.web.test_browser import expect
from tests.web.test_trainer_chart import desktop_page

__all__ = ["desktop_page"]

TWO_HOURS = 2 * 3600


@pytest.fixture
def written_two_hours_ago(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A dashboard on the real log named by the test's parameter, last written two hours ago."""
    log_path = tmp_path / "train.log"
    log_path.write_text("\n".join(body(request.param)) + "\n", encoding="utf-8")
    then = time.time() - TWO_HOURS
    os.utime(log_path, (then, then))
    monitor = Monitor(log_path)
    dashboard = Dashboard(Config(log_path=log_path, port=0, config_dir=tmp_path / "config"), monitor)
    started = dashboard.start()
    try:
        yield f"http://127.0.0.1:{started.port}"
    finally:
        dashboard.stop()


@pytest.mark.parametrize(("written_two_hours_ago", "status", "word"), [
    ("generic-litgpt-issue1110-lora-finished.log", "done · step 965", "done"),
    ("crash-nanochat-rtx4070-core-eval-oom-glued-traceback.log", "step 19999/200000 · crashed", "crashed"),
], indirect=["written_two_hours_ago"])
def test_a_run_that_is_over_wears_no_quiet_log_warning(
    written_two_hours_ago: str, status: str, word: str, desktop_page: Any,
) -> None:
    page = desktop_page
    try:
        page.goto(written_two_hours_ago)
        expect()(page.locator("#status")).to_have_text(status)
        expect()(page.locator("#state-word")).to_have_text(word)
        freshness = page.locator("#freshness")
        expect()(freshness).to_have_text(re.compile(r"^last log line 2 h 0\d min ago$"))
        expect()(freshness).not_to_have_class(re.compile(r"\bquiet\b"))
    finally:
        page.goto("about:blank")  # before the server stops: no refused reconnect logged
