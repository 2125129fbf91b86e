"""Figures a trainer prints in a field or shape the step reader did not know: a step's time under mmcv's JSON
``"time"`` key, a position said as a fraction of an epoch, a bar whose description is a bracketed list of losses.
Composed lines in those shapes (each cited in its real log's header under tests/data/real/), the answers worked out
by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


# --- mmcv's ``.log.json``: ``"time"`` beside ``"data_time"`` -------------------------------------------------------

@pytest.mark.parametrize(("record", "seconds"), [
    # mmdetection's record: the iteration took 1.43558 s, 0.05129 of them loading
    ('{"mode": "train", "epoch": 1, "iter": 50, "lr": 0.00198, "memory": 3729, "data_time": 0.05129, "loss": 1.63, '
     '"time": 1.43558}', 1.43558),
    # the key order mmdetection v1 wrote (``time`` before ``data_time``)
    ('{"mode": "train", "epoch": 1, "iter": 100, "lr": 0.00014, "time": 0.3997, "data_time": 0.01581, "loss": 5412.9}',
     0.3997),
    # a ``time`` with no loader's share beside it says no unit: no step's time
    ('{"epoch": 1, "iter": 100, "loss": 1.2, "time": 0.3997}', None),
])  # fmt: skip
def test_mmcv_s_json_time_beside_data_time_is_the_iteration_s_seconds(record: str, seconds: float | None) -> None:
    got = steps([record])
    assert len(got) == 1
    assert got[0].step_seconds == seconds
