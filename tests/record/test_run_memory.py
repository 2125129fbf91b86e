"""A trainer's run as a tokwatch without history holds it: composed losses (values computed here),
loss(step) = 4 + sin(step / 50), 9 at every multiple of 997, NaN at step 1234."""

from __future__ import annotations

import math

from app.record.memory import RunMemory
from app.stats.events import EvalResult, TrainStep
from app.store.losses import LOSS_BUCKETS


def loss(step: int) -> float:
    if step == 1234:
        return math.nan
    return 9.0 if step % 997 == 0 and step else 4.0 + math.sin(step / 50)


def run(steps: int, first: int = 0) -> list[TrainStep | EvalResult]:
    events: list[TrainStep | EvalResult] = []
    for s in range(first, steps):
        events.append(TrainStep(at=1000.0 + s, stage="train", step=s, loss=loss(s)))
        if s % 500 == 0:
            events.append(EvalResult(at=1000.0 + s, name="val", value=3.0 + 1 / (s + 1), step=s))
    return events


def test_a_long_run_in_memory_keeps_each_buckets_lowest_and_highest_every_evaluation_and_the_nan() -> None:
    memory = RunMemory()
    events = run(20_000)
    memory.take(events, 0.0)
    memory.take(events[-3000:], 0.0)  # lines read again (a re-read): counted once
    steps = memory.steps()
    assert steps is not None
    width = steps["loss_bucket_steps"]
    assert width == math.ceil(20_000 / LOSS_BUCKETS)
    drawn = dict(steps["loss"])
    for first in range(0, 20_000, width):
        values = [(loss(s), s) for s in range(first, min(first + width, 20_000)) if s != 1234]
        assert drawn[min(values)[1]] == min(values)[0] and drawn[max(values)[1]] == max(values)[0]
    assert all(drawn[s] == 9.0 for s in range(997, 20_000, 997))
    assert steps["not_finite"] == [1234]
    assert [s for s, _ in steps["evals"]["val"]] == list(range(0, 20_000, 500))
    assert steps["memory_text"].startswith("From memory: steps 0–19,999, the losses")


def test_memory_keeps_the_newest_losses_and_says_the_older_were_let_go() -> None:
    memory = RunMemory(max_losses=1000)
    memory.take(run(3000), 0.0)
    steps = memory.steps()
    assert steps is not None
    assert [s for s, _ in steps["loss"]] == list(range(2000, 3000))
    assert steps["memory_text"].startswith("From memory: steps 2,000–2,999, the losses this tokwatch read")
    assert "older ones were let go" in steps["memory_text"]
    assert RunMemory().steps() is None


def test_a_log_without_step_numbers_is_said_in_logged_records_not_steps() -> None:
    # HF dicts without a bar: the reader counts them (logged), and that count is the chart's x, no step.
    memory = RunMemory()
    memory.take([TrainStep(at=None, stage="train", step=n, loss=2.0 - n / 10, logged=True) for n in range(1, 11)],
                1000.0)
    steps = memory.steps()
    assert steps is not None
    assert steps["memory_text"].startswith("From memory: logged records 1–10, the losses this tokwatch read")
    assert "steps 1" not in steps["memory_text"]
