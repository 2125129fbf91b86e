"""The steady pace kept beside the latest printed step time (stage.steady_step): the recent printed times of step
lines that held no pause, whether the steps are taken one at a time or in bulk, as the history import takes them."""

from __future__ import annotations

import pytest

from app.stats.steps.stage import Stage, steady_step
from tests.stats.test_steps_elided import bulk_and_one_by_one


def _lines(last_ms: float) -> list[str]:
    # iters 10-250 every 10 at 200 ms, but iter 50 at 230 and iter 90 at 170; an evaluation and its save at 100,
    # whose line prints 3,000 ms (held out of the steady times); then iter 260 at ``last_ms`` after the evaluation at 250
    lines = []
    for n in range(10, 260, 10):
        ms = 3000.0 if n == 100 else 230.0 if n == 50 else 170.0 if n == 90 else 200.0
        if n in (100, 250):
            lines += [f"step {n}: train loss 2.9000, val loss 3.1000", "saving checkpoint to out"]
        lines.append(f"iter {n}: loss {3.0 - n * 0.001:.4f}, time {ms:.2f}ms, mfu 30.00%")
    return [*lines, "step 260: train loss 2.8000, val loss 3.0000", f"iter 260: loss 2.7000, time {last_ms:.2f}ms, mfu 29.00%"]


def _stages(lines: list[str]) -> list[Stage]:
    stages = [tracker.progress.stage for tracker in bulk_and_one_by_one(lines)]
    assert all(stage is not None for stage in stages)
    return [stage for stage in stages if stage is not None]


def test_the_steady_times_leave_out_the_lines_that_held_a_pause_alike_in_bulk() -> None:
    # The last 21 lines before iter 260 that held no pause: iters 30-240 but 100 (250 came after its evaluation too),
    # 19 at 200 ms, iter 50's 230 and iter 90's 170 ms: their median 200 ms; none with tokens a second printed.
    stages = _stages(_lines(5000.0))
    assert list(stages[0].steady) == list(stages[1].steady)
    for stage in stages:
        assert stage.held_pause == "evaluation"
        assert 3.0 not in [seconds for seconds, _ in stage.steady]
        assert sorted(seconds for seconds, _ in stage.steady) == pytest.approx([0.17] + [0.2] * 19 + [0.23])
        assert steady_step(stage) == (pytest.approx(0.2), None)


def test_a_time_not_twice_the_steady_one_is_the_line_s_own_alike_in_bulk() -> None:
    for stage in _stages(_lines(390.0)):  # (390 ms is under 2 × 200 ms)
        assert stage.held_pause == "evaluation"
        assert steady_step(stage) is None


def test_a_step_after_an_evaluation_line_inside_a_bulk_run_holds_its_pause_as_one_by_one() -> None:
    # modded-nanogpt: steps 1-20 at step_avg 100 ms, the validation at step 10 (its clock 7 ms on), step 11 after it;
    # in bulk the evaluation's line is inside the run (its clock on), and step 11 is still the one that held it.
    lines = [f"step:{s}/100 train_loss:3.{s % 10}000 train_time:{100 * s}ms step_avg:100.00ms" for s in range(1, 21)]
    lines.insert(10, "step:10/100 val_loss:3.4000 train_time:1007ms step_avg:100.70ms")
    single, bulk = (tracker.progress.stage for tracker in bulk_and_one_by_one(lines[:12], "modded-nanogpt"))
    assert single is not None and bulk is not None
    assert (single.latest.step, single.held_pause) == (bulk.latest.step, bulk.held_pause) == (11, "evaluation")
    assert list(single.steady) == list(bulk.steady) == [(0.1, None)] * 10  # (steps 1-10; step 11 held the pause)
    single, bulk = (tracker.progress.stage for tracker in bulk_and_one_by_one(lines, "modded-nanogpt"))
    assert single is not None and bulk is not None
    assert single.held_pause is None and bulk.held_pause is None
    assert list(single.steady) == list(bulk.steady) == [(0.1, None)] * 19  # (steps 1-20 but 11)
