"""An SN38 miner's loss plot in a real Chromium: one timeline across its outer steps (the inner step restarts at
each), the round markers each at its own place on it, on a phone and a desktop, both themes.

The log is the composed session of tests/stats/test_steps_timeline.py (three outer steps, a round failing at
checkpoint 3) moved to end a minute before now: its losses at x 0..9, its rounds at x 2 (ok, 3 peers),
4 (failed at checkpoint 3) and 6 (ok, 2 peers), counted by hand there.
"""

from __future__ import annotations

import itertools
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
from tests.stats.test_steps_timeline import SESSION
from tests.web.test_browser import PHONE, expect, shot
from tests.web.test_swarm_page import DESKTOP, moved_lines, open_page

_READ_STEP = re.compile(r"^step (\d+) · loss")
# Each round's words, told apart: where the cursor reads them is where its marker is.
ROUNDS = {2: "· 3 peers · ok", 4: "failed at checkpoint 3", 6: "· 2 peers · ok"}


def moved(end: float) -> str:
    """The session's lines with their times moved so that its last line is at ``end``."""
    return moved_lines(SESSION, "2025-06-27 10:10:00.000", end)


@pytest.fixture
def miner_server(tmp_path: Path) -> Iterator[str]:
    """The miner's log served with --no-history: the loss plot from what the server read."""
    log = tmp_path / "miner.log"
    log.write_text(moved(time.time() - 60), encoding="utf-8")
    config = Config(log_path=log, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(log)
    dashboard = Dashboard(config, monitor, recorder=Recorder(History(None), log, machine="sn38-test"))
    started = dashboard.start()
    deadline = time.monotonic() + 20
    while getattr(monitor.snapshot().training, "chart_x", None) != 9 and time.monotonic() < deadline:
        time.sleep(0.2)
    yield f"http://127.0.0.1:{started.port}"
    dashboard.stop()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_loss_plot_runs_on_across_outer_steps(browser: Any, miner_server: str, scheme: str) -> None:
    """Swept left to right, the cursor reads steps that only go up, 0 to 9, and each round's words at a place
    of its own, in the order the rounds came."""
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        context, page, errors = open_page(browser, miner_server, viewport, scheme)
        caption = page.locator("#chart figcaption").first
        expect()(caption).to_contain_text("round failed", timeout=15_000)
        expect()(caption).to_contain_text("steps counted on where the log's count restarts")
        page.locator("#history").scroll_into_view_if_needed()
        box = page.locator("#chart .u-over").first.bounding_box()
        assert box is not None
        read: list[int] = []
        where: dict[int, list[float]] = {step: [] for step in ROUNDS}
        for x in range(int(box["x"]) + 1, int(box["x"] + box["width"]), 2):
            page.mouse.move(x, box["y"] + box["height"] / 2)
            said = page.locator("#chart-readout").inner_text()
            m = _READ_STEP.match(said)
            if m is not None:
                read.append(int(m.group(1)))
            for step, words in ROUNDS.items():
                if words in said:
                    where[step].append(x)
        assert read == sorted(read) and read[0] == 0 and read[-1] == 9, read
        assert set(read) == set(range(10)), read
        assert all(where.values()), where
        spans = [(min(where[step]), max(where[step])) for step in sorted(ROUNDS)]
        assert all(a[1] < b[0] for a, b in itertools.pairwise(spans)), spans  # apart, in order
        page.mouse.move(box["x"] + box["width"] * 0.66, box["y"] + box["height"] / 2)
        shot(page, f"sn38-timeline-{name}-{scheme}")
        context.close()
        assert not [e for e in errors if "WebSocket" not in e], errors
