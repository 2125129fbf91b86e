"""A repeated error's count read back from the history is the log's, whatever each start read of it.

The import counts a run of the same ERROR line from the log's start; the live view, started on
the same log, counts it from the tail it read. Composed: 540 repeats of one error, the last at
``LAST``; the live view, at three starts, read the last 166, 133 and 116 of them (the counts a
user saw change at each start). Answers by hand: 540 at ``LAST``, 541 after one more repeat.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.store import History, Observation, SourceKey
from app.store.records import EventRow

SRC = SourceKey("box", "/logs/iota", "miner")
LAST = int(time.mktime((2026, 11, 20, 12, 0, 0, 0, 0, -1)))
MESSAGE = "Error getting activations from orchestrator"


def error(at: float, count: int) -> Observation:
    return Observation(SRC, events=(EventRow(at, "error", f"{MESSAGE} (×{count})"),))


def shown(history: History) -> list[str]:
    return [e["text"] for e in history.chart(SRC, "1h", LAST + 60)["events"] if e["kind"] == "error"]


@pytest.mark.parametrize("tail", [166, 133, 116])
@pytest.mark.parametrize("import_first", [True, False])
def test_the_live_tail_recount_never_replaces_the_imported_count(tmp_path: Path, tail: int, import_first: bool) -> None:
    history = History(tmp_path / "data", clock=lambda: LAST + 60)
    history.start()
    try:
        batches = [error(LAST, 540), error(LAST, tail)]
        for obs in batches if import_first else batches[::-1]:
            assert history.submit(obs)
            assert history.flush(20)
        assert shown(history) == [f"{MESSAGE} (×540)"]
        if import_first:
            # The live view sees one more repeat: its ×(tail + 1) is the 541st of the log.
            assert history.submit(error(LAST + 10, tail + 1))
            assert history.flush(20)
            assert shown(history) == [f"{MESSAGE} (×541)"]
    finally:
        history.stop()
