"""The hub's machine page tells a silent log apart from idle and from no report, on its state strip.

Composed history (the machine's own tokwatch wrote it): training 3 h to 2 h ago, its log silent
2 h to 1 h ago (a live tokwatch writes that state every 30 s), training again to 5 min ago.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from app.store import History, Observation, Sample, SourceKey
from tests.conftest import RunningServer
from tests.hub.test_machine_history import HOUR, NAME, RATE, expect, hub, report_all
from tests.pages import wait_for_module

__all__ = ["hub"]  # the fixture, used by name


def test_the_machine_strip_shows_the_hour_its_log_was_silent(
    hub: tuple[RunningServer, str], tmp_path: Path, browser: Any
) -> None:
    data_dir = tmp_path / "machine"
    now = time.time()
    recent = int(now - 3 * HOUR) // 300 * 300
    history = History(data_dir, clock=lambda: now)
    history.start()
    samples = [Sample(t, RATE, "training", 1, 3200) for t in range(recent, recent + HOUR, 30)]
    samples += [Sample(t, None, "silent", 1, 3200) for t in range(recent + HOUR, recent + 2 * HOUR, 30)]
    samples += [Sample(t, RATE, "training", 1, 3200) for t in range(recent + 2 * HOUR, recent + 3 * HOUR - 300, 30)]
    assert history.submit(Observation(SourceKey(NAME, "/logs/miner", "miner"), samples=tuple(samples)))
    assert history.flush(30)
    history.stop()
    server, key = hub
    url = server.http_url.rstrip("/")
    report_all(url, key, data_dir, tmp_path / "spool.sqlite3")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{url}/fleet/{NAME}")
        expect()(page.locator("#status")).to_have_text("L1 · 720k tok/h")
        wait_for_module(page, "/static/machine-chart.js",
                        "(m) => m.inspectMachineChart()[0]?.bands.includes('silent') === true")
        bands = page.evaluate("import('/static/machine-chart.js').then((m) => m.inspectMachineChart())")[0]["bands"]
        silent = bands.index("silent")
        assert bands.count("silent") == 1 and bands[silent - 1] == bands[silent + 1] == "training"
        expect()(page.locator(".key-silent")).to_have_text("log silent")
    finally:
        context.close()
