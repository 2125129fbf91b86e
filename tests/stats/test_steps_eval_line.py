"""modded-nanogpt's evaluation line, applied as the events it reads as: what it changes in the stage.

Its record scripts print ``step:N/M val_loss:… train_time:…ms step_avg:…ms`` at the step just trained,
after that step's own line (tests/data/real/modded-nanogpt-2024-10-10-muon.txt: ``step:6200/6200
train_loss:3.2533 train_time:1339065ms`` then ``step:6200/6200 val_loss:3.2785 train_time:1339067ms``),
its clock a little on (the validation's synchronize). What a bulk path that carries such a line inside a
run of steps must do as these events do, pinned here by hand: the line is that step printed again, so
it counts no line, no time of a line and nothing toward the warm-up; it is the stage's latest step and
its clock; its evaluation marks the next line's wait, and the next line's time is counted from its clock.
"""

from __future__ import annotations

import pytest

from app.ingest.formats import create_parser
from app.stats.steps.stage import Stage
from app.stats.steps.tracker import StepTracker
from tests.stats.test_steps_elided import bulk_and_one_by_one

END = 1_795_000_000.0


def _lines() -> list[str]:
    # Steps 1-30 each 100 ms of the trainer's clock; the evaluation at step 30 is 7 ms on (3007 ms);
    # step 31 at 3100 ms: 93 ms after the evaluation's clock.
    lines = [f"step:{s}/100 train_loss:3.{s % 10}000 train_time:{100 * s}ms step_avg:100.00ms" for s in range(1, 31)]
    lines.append("step:30/100 val_loss:3.4000 train_time:3007ms step_avg:100.23ms")
    lines.append("step:31/100 train_loss:3.1000 train_time:3100ms step_avg:100.00ms")
    return lines


def _stage(lines: list[str]) -> Stage:
    tracker = StepTracker("modded-nanogpt")
    tracker.apply_all(create_parser("modded-nanogpt").feed(lines), END + 60, arrival=END)
    stage = tracker.progress.stage
    assert stage is not None
    return stage


def test_an_evaluation_line_counts_no_line_and_the_next_is_timed_from_its_clock() -> None:
    stage = _stage(_lines())
    assert (stage.latest.step, stage.latest.loss) == (31, 3.1)
    assert stage.lines == 31 and stage.timed_lines == 31  # steps 1-31; the evaluation's line is none of them
    assert stage.line_durations[-1] == pytest.approx(0.093)  # 3.100 - 3.007 s, not step 30's 3.000
    assert stage.line_durations[-2] == pytest.approx(0.1)  # step 30's own line, before the evaluation
    assert list(stage.covered)[-2:] == [1, 1]
    assert list(stage.ended_wait)[-2:] == [False, True]  # step 31 ended the evaluation's wait
    assert stage.evals["val_loss"] == (3.4, 30)
    # Placed back from the end by the trainer's clock: step 31 at END, the evaluation 0.093 s before
    # it, step 30 0.007 s before that (its evaluation's clock on from its own). That clock stops while the
    # trainer evaluates, so step 31's line holds no evaluation's pause: the evaluation's time is forgotten.
    assert list(stage.eval_times) == [] and list(stage.eval_pauses) == []
    assert stage.pause is None


def test_until_the_next_step_the_evaluation_line_is_the_latest_and_the_run_waits() -> None:
    stage = _stage(_lines()[:-1])
    assert (stage.latest.step, stage.latest.loss, stage.latest.elapsed_seconds) == (30, None, 3.007)
    assert stage.step_time == END  # the log's last line: its time
    assert stage.lines == 30 and stage.timed_lines == 30 and len(stage.line_durations) == 21  # (the recent 21)
    assert stage.line_durations[-1] == pytest.approx(0.1)
    assert stage.pause == "evaluation" and stage.evaluated
    assert stage.loss == 3.0  # step 30's train loss still the loss shown


def test_an_evaluation_carried_in_a_run_that_the_stopped_clock_leaves_out_is_forgotten_alike_in_bulk() -> None:
    """The lines above, applied one by one and in bulk (the run's first step alone, then as much as ``run_end``
    allows, the evaluation line carried inside): step 31's line sits 93 ms of the stopped ``train_time`` after the
    evaluation, so neither keeps the evaluation's time nor a pause, and both read the same rate."""
    lines = [f"step:{s}/100 train_loss:3.{s % 10}000 train_time:{100 * s}ms step_avg:100.00ms" for s in range(1, 31)]
    lines.append("step:30/100 val_loss:3.4000 train_time:3007ms step_avg:100.23ms")
    lines += [f"step:{s}/100 train_loss:3.1000 train_time:{100 * s}ms step_avg:100.00ms" for s in range(31, 61)]
    single, bulk = bulk_and_one_by_one(lines, "modded-nanogpt")
    one, many = single.progress.stage, bulk.progress.stage
    assert one is not None and many is not None
    assert list(one.eval_times) == list(many.eval_times) == []
    assert list(one.eval_pauses) == list(many.eval_pauses) == []
    assert one.evals["val_loss"] == many.evals["val_loss"] == (3.4, 30)
