"""The history's revision: it moves while the first-start import writes and once more when it is
done, and each move wakes the live feed, so an open page asks for its longer range again at once.

The log is a composed nanoGPT run (every step's loss written here), imported by the real child.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from app.live.feed import LiveFeed
from app.live.monitor import Monitor
from app.record.recorder import Recorder
from app.store import History

STEPS = 3000


def nanogpt_log(steps: int) -> str:
    """nanoGPT's own print (``iter N: loss X, time Yms, mfu Z%``), loss 10 − step/1000."""
    return "".join(f"iter {s}: loss {10 - s / 1000:.4f}, time 120.00ms, mfu 30.00%\n" for s in range(1, steps + 1))


def test_the_import_moves_the_revision_and_wakes_the_feed_once_the_whole_run_is_stored(tmp_path: Path) -> None:
    log_path = tmp_path / "train.log"
    log_path.write_text(nanogpt_log(STEPS))
    monitor = Monitor(log_path)
    recorder = Recorder(History(tmp_path / "data"), log_path, machine="revision-test")
    feed = LiveFeed(monitor, recorder=recorder)
    monitor.start()
    versions_before = feed.version
    recorder.start(monitor)
    try:
        assert recorder.progress is not None
        deadline = time.monotonic() + 60
        while not recorder.progress.done and time.monotonic() < deadline:
            time.sleep(0.05)
        assert recorder.progress.done and recorder.progress.problem is None
        # The last move comes once the last batch is written: then the whole run is there to ask for.
        while time.monotonic() < deadline:
            moved = recorder.revision
            feed.snapshot()  # the recorder learns the log's kind from the snapshot it decorates
            run = json.loads(recorder.chart_json("30d"))["steps"]
            if moved and run and run["loss"] and run["loss"][-1][0] == STEPS:
                break
            time.sleep(0.05)
        assert recorder.revision >= 1
        assert run["loss"][0][0] == 1 and run["loss"][-1][0] == STEPS
        assert feed.version > versions_before
        assert feed.snapshot().history_revision == recorder.revision
    finally:
        recorder.stop()
        monitor.stop()


def test_without_a_history_there_is_no_revision(tmp_path: Path) -> None:
    log_path = tmp_path / "train.log"
    log_path.write_text(nanogpt_log(10))
    monitor = Monitor(log_path)
    feed = LiveFeed(monitor, recorder=Recorder(History(None), log_path))
    assert feed.snapshot().history_revision is None
