"""A step run's pace is what its log says: a printed time of a step over one worked out from the clock, an epoch's
printed average over a line's window, a rate not dragged by one-off steps, and a rate that holds evaluations said so.

Real excerpts (tests/data/real, each file's source in its header) and composed logs whose answers are worked out
here by hand.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.coldread import read_cold
from tests.reallogs import body

TINYGRAD = "tinygrad-pr13803-mlperf-llama-steps-1-to-10-s-run-loss-lr-gb-used.log"
NANOGPT_178 = "nanogpt-issue178-shakespeare.log"
CHEN = "nanogpt-chenzihua-fork-evals-at-300-and-400-then-nan-from-425.log"
ESPNET_LM = "espnet-issue2674-lm-1epoch-train-6376-to-7500-results-valid-loss-then-2-of-20-started.log"
ESPNET_ACCUM = "espnet-issue2183-backticked-train-time-1-8s-dates-448ms-a-batch.log"
PYRA = "generic-metriclogger-pyra-issue3-epochs-41-to-43-total-time-s-per-it.log"
RPPG = "generic-rppg-mae-issue8-metriclogger-epoch12-then-test-pipes.log"
PPDET = "generic-ppdet-static-pr1512-iter-0-to-10-every-2-quoted-loss-batch-cost-ips.log"
TRACK3 = "modded-nanogpt-track3-train-time-seconds.txt"
LLAMA2C = "generic-custom-llama2c-issue461-tinystories-mps.log"


def read(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    """The snapshot at the log's last write (undated lines: written then)."""
    return read_cold(tmp_path, lines, name="run.log")


def speed_line(data: dict[str, Any]) -> str:
    return next(line for line in data["details"] if line.startswith(("step ", "epoch ")))


# --- one-off steps at a stage's start are not its pace ----------------------------------------------------------


def test_two_compile_steps_leave_no_rate_dragged_by_them(tmp_path: Path) -> None:
    """tinygrad #13803: steps 1 and 2 took 93.44 s and 101.78 s (compiling), steps 3 to 10 took 7.34 s then 4.32 to
    4.40 s. Over all ten the rate would be 10 × 3600 / 233.01 s = 154 steps/h beside a step time of 4.40 s (818/h);
    measured from step 3 on, 8 steps took 7.34 + 30.45 = 37.79 s, under the 3 minutes a rate waits for: no rate yet,
    and the step time is the printed 4.40 s."""
    data = read(tmp_path, body(TINYGRAD))
    assert data["training"]["steps_per_hour"] is None
    assert data["status_line"] == "step 10 · …"
    assert data["training"]["step_seconds"] == pytest.approx(4.40)
    assert data["warmup"]["observed_seconds"] == pytest.approx(7.34 + 4.32 + 4.36 + 4.32 + 4.34 + 4.35 + 4.36 + 4.40,
                                                               abs=0.01)


def test_nanogpt_s_compiling_iteration_0_is_left_out_of_the_rate(tmp_path: Path) -> None:
    """nanoGPT #178: iteration 0 took 9371.81 ms (compiling), then a line every 10 iterations of about 894 ms. Each
    line's time is its own iteration's plus 9 more at the smaller of its and the previous line's time; from iteration
    10 to 240 that is 240 iterations over 214.603 s: 4026 steps/h. With iteration 0 in, 241 over 223.975 s would be
    3874/h, 4 % low."""
    data = read(tmp_path, body(NANOGPT_178))
    assert data["training"]["steps_per_hour"] == pytest.approx(240 * 3600 / 214.60271, rel=0.002)


def test_composed_slow_first_steps_then_a_steady_pace_give_the_steady_rate(tmp_path: Path) -> None:
    """Composed tinygrad lines: steps 1 and 2 of 90 s and 100 s, then steps 3 to 62 of 4 s each (60 × 4 = 240 s,
    past the 3 min warm-up): 60 steps over 240 s, 900 steps/h, not 62 over 430 s (519/h)."""
    slow = ["    1 90.00 s run, 11.8750 loss, 0.000000000001 LR, 642.43 GB used,  19644.30 GFLOPS",
            "    2 100.00 s run, 11.8750 loss, 0.000000000001 LR, 1454.57 GB used,  17039.35 GFLOPS"]
    steady = [f"{step:5d} 4.00 s run, 11.8750 loss, 0.000000000002 LR, 1454.57 GB used, 401488.40 GFLOPS"
              for step in range(3, 63)]
    data = read(tmp_path, slow + steady)
    assert data["training"]["steps_per_hour"] == pytest.approx(900, rel=1e-3)
    assert data["status_line"] == "step 62 · 900 steps/h"


def test_a_slow_line_later_in_the_run_stays_in_its_pace(tmp_path: Path) -> None:
    """Composed: steps 1 to 60 of 4 s, step 61 of 100 s (a checkpoint, past the stage's first lines), steps 62 to 120
    of 4 s: the run's pace holds its checkpoint, 120 steps over 119 × 4 + 100 = 576 s, 750 steps/h."""
    lines = [f"{step:5d} {100.0 if step == 61 else 4.0:.2f} s run, 11.8750 loss, 0.000000000002 LR, 1454.57 GB used,"
             " 401488.40 GFLOPS" for step in range(1, 121)]
    data = read(tmp_path, lines)
    assert data["training"]["steps_per_hour"] == pytest.approx(120 * 3600 / (119 * 4 + 100), rel=1e-3)


# --- a first reading of a timer is no step's time ------------------------------------------------------------


def test_a_first_line_s_timer_reading_is_not_counted_as_a_step(tmp_path: Path) -> None:
    """PaddleDetection #1512 (static): iter 0 prints ``batch_cost: 0.00008 sec`` (the timer's first reading), then a
    line every 2 iterations of about 23 s each. The window counts iterations 1 to 10 over the dates' 18:39:47.914 ->
    18:44:31.000 = 283.086 s: 127.2 steps/h, not iteration 0 as one more step (11 over 283.086 s: 139.9/h)."""
    data = read_cold(tmp_path, body(PPDET), name="run.log", dated=True)
    assert data["rate"]["passes_in_window"] == 10
    assert data["training"]["steps_per_hour"] == pytest.approx(10 * 3600 / 283.086, rel=1e-4)
    assert data["status_line"] == "step 10 · 127 steps/h"


def _every_two(first_cost: float) -> list[str]:
    """Composed PaddleDetection lines, iter 0 to 10 every 2, 40 s apart; every batch_cost 20 s but iter 0's."""
    return [f"2020-09-25 18:{40 + (40 * k) // 60:02d}:{(40 * k) % 60:02d},000-INFO: iter: {2 * k}, lr: 0.000033, "
            f"'loss': '7.5', eta: 1:00:00, batch_cost: {first_cost if k == 0 else 20.0:.5f} sec, ips: 0.5 images/sec"
            for k in range(6)]


def test_composed_a_first_reading_far_under_the_steps_starts_the_rate_at_its_line(tmp_path: Path) -> None:
    """Iter 0's batch_cost 0.00008 s, then 2 iterations every 40 s: 10 iterations over 5 × 40 = 200 s, 180 steps/h
    (with iter 0 counted: 11 over 200.00008 s, 198/h)."""
    data = read_cold(tmp_path, _every_two(0.00008), name="run.log", dated=True)
    assert data["rate"]["passes_in_window"] == 10
    assert data["training"]["steps_per_hour"] == pytest.approx(180.0, rel=1e-6)


def test_composed_a_first_line_s_credible_time_still_counts_its_step(tmp_path: Path) -> None:
    """Iter 0's batch_cost 20 s like every other line's (a step of 20 s where each line's 2 iterations take 40 s): it
    is a step's time, counted from 20 s before its line: 11 iterations over 200 + 20 = 220 s, 180 steps/h."""
    data = read_cold(tmp_path, _every_two(20.0), name="run.log", dated=True)
    assert data["rate"]["passes_in_window"] == 11
    assert data["training"]["steps_per_hour"] == pytest.approx(11 * 3600 / 220, rel=1e-6)


def test_modded_nanogpt_s_step_0_reading_leaves_the_compile_step_out_and_its_validation_before(
        tmp_path: Path) -> None:
    """modded-nanogpt track 3: ``step:0/4875 val_loss:10.82584 train_time:0.000s step_avg:0.21ms`` (the validation
    before training: no step), ``step:1/4875 train_time:5.418s`` (compiling), ``step:2/4875 train_time:5.562s``, …,
    ``step:4875/4875 train_time:739.634s``. Step 0's 0.21 ms is no step's time, so step 1's 5.418 s is the one-off it
    is (37 × step 2's 0.144 s): 4874 steps over 739.634 - 5.418 = 734.216 s, 23,898 steps/h; the validation at step
    0 came before the stretch measured, so the rate holds none (with step 0 counted: 4876 steps over 739.634 s,
    said to hold the evaluations' pauses)."""
    data = read_cold(tmp_path, body(TRACK3), name="run.log")
    assert data["rate"]["passes_in_window"] == 4874
    assert data["training"]["steps_per_hour"] == pytest.approx(4874 * 3600 / 734.216, rel=1e-4)
    assert data["details"][0] == "23k steps/h (over 12 min) · tokens per step not printed"


# --- a rate over evaluations says so ------------------------------------------------------------------------------


def test_a_rate_whose_window_holds_an_evaluation_says_it_is_included(tmp_path: Path) -> None:
    """A nanoGPT fork's train.log: iteration 300 (10543.62 ms: its evaluation and checkpoint) starts the excerpt and
    is left out; from 305 to 450, 150 iterations over 225.898 s (each line 4 × the smaller of its and the previous
    line's time plus its own, iteration 400's 10555.02 ms holding the evaluation at 400): 2390 steps/h, 4.4 % under
    3600 / 1.44 s. The evaluation's pause is the run's pace, and the rate says it holds one; the step time beside it is
    the step's own, as printed."""
    data = read(tmp_path, body(CHEN))
    assert data["training"]["steps_per_hour"] == pytest.approx(150 * 3600 / 225.89777, rel=1e-4)
    assert data["details"][0] == "2.3k steps/h (over 3 min, its evaluations' pauses included) · tokens per step not printed"
    assert "step 1.44 s (as printed) · MFU 0.01%" in data["details"]


def _dated(seconds: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(1767268800 + seconds))


def test_composed_a_window_opening_inside_an_evaluation_s_pause_says_it_holds_one(tmp_path: Path) -> None:
    """Composed dated lines (UTC): steps 10 to 100 every 10 s (0 to 90 s), the evaluation at step 100 at 90 s, step 110
    at 990 s (its line holds the 900 s pause), then steps 120 to 610 every 10 s (to 1490 s). The 20-minute window
    opens at 290 s, inside step 110's line: 700/900 of its 10 steps, plus 500 after it, over 1200 s: 1523.3 steps/h,
    and the pause's share is in it, so the rate says so though the evaluation's own line is before the window."""
    lines = [f"{_dated(10 * k)} {10 * (k + 1)} | loss 2.5000 | lr 1.0e-04" for k in range(10)]
    lines.append(f"{_dated(90)} step 100: train loss 2.4000, val loss 2.5000")
    lines += [f"{_dated(990 + 10 * k)} {110 + 10 * k} | loss 2.4000 | lr 1.0e-04" for k in range(51)]
    data = read_cold(tmp_path, lines, name="run.log", dated=True)
    assert data["training"]["steps_per_hour"] == pytest.approx((700 / 900 * 10 + 500) / 1200 * 3600, rel=1e-6)
    assert data["details"][0] == "1.5k steps/h (over 20 min, its evaluations' pauses included) · tokens per step not printed"


@pytest.mark.parametrize(("name", "rate", "step"), [
    # llama2.c #461: iteration 600 printed ``867500.58ms`` (the evaluation at 600 and its checkpoint), every other
    # line about 9.8 s an iteration. The 20 minutes before iteration 650 open inside that line: 172 steps/h beside a
    # printed 9.85 s (365/h) is the pause's doing.
    (LLAMA2C, "172 steps/h", "step 9.85 s (as printed) · MFU 0.19%"),
    # Megatron (Chinese Transformer-XL #7): a line every 100 iterations of about 11.1 s each; the validation at
    # iteration 1000 is held by the 1100 line (1119.8 s), and the 20 minutes before 1200 open 80 s into it.
    ("generic-megatron-lm-chinese-transformer-xl-issue7-lm-loss-nan.log", "324 steps/h", "step 11.09 s (as printed)"),
])
def test_a_rate_opening_inside_the_line_after_an_evaluation_says_it_holds_it(tmp_path: Path, name: str, rate: str,
                                                                            step: str) -> None:
    data = read(tmp_path, body(name))
    assert data["details"][0] == f"{rate} (over 20 min, its evaluations' pauses included) · tokens per step not printed"
    assert step in data["details"]


def test_a_rate_with_no_evaluation_in_its_window_says_nothing_of_one(tmp_path: Path) -> None:
    """Composed: 31 lines of 5 iterations each at 1447 ms, no evaluation line: one step time throughout, 3600 / 1.447 s
    = 2488 steps/h, and no word of evaluations."""
    lines = [f"iter {i}: loss 3.4070, time 1447.00ms, mfu 0.01%" for i in range(300, 455, 5)]
    data = read(tmp_path, lines)
    assert "evaluations" not in data["details"][0]
    assert data["training"]["steps_per_hour"] == pytest.approx(3600 / 1.447, rel=1e-3)


# --- a printed time of a step over the clock's ---------------------------------------------------------------


def test_espnet_s_train_time_is_the_step_time_as_printed(tmp_path: Path) -> None:
    """espnet #2674 (LM, accum_grad 1): the last line of epoch 2 prints ``train_time=0.014``; the dates give
    5.1 s over 375 batches. The printed figure is shown, said to be ESPnet's train_time."""
    data = read(tmp_path, body(ESPNET_LM))
    assert data["training"]["step_seconds"] == pytest.approx(0.014)
    assert "step 14 ms (train_time as printed, the interval's mean)" in data["details"]


def test_espnet_s_train_time_that_the_dates_contradict_is_shown_as_printed_beside_the_dates_time(
        tmp_path: Path) -> None:
    """espnet #2183: ``train_time`` 1.816, 1.790, 1.793 (an optimizer step's: accum_grad batches) over lines of 682
    batches at 08:49:04.080, 08:54:09.601 and 08:59:15.042: 1364 batches over 610.962 s, 448 ms a batch by the dates
    (the first line counted as one batch of its printed 1.816 s: 1365 over 612.778 s). 682 × 1.79 s would be 1221 s
    between lines 305 s apart: the printed figure is no batch's time. Both are shown, each said for what it is."""
    data = read_cold(tmp_path, body(ESPNET_ACCUM), name="run.log", dated=True)
    assert data["training"]["step_seconds"] == pytest.approx(610.962 / 1364, rel=0.005)
    assert ("step 448 ms (from the log's dates) · train_time 1.793 as printed: more than a step takes by the log's "
            "dates") in data["details"]


def test_a_step_time_no_line_printed_says_it_was_measured(tmp_path: Path) -> None:
    """Composed dated lines, no time printed: steps 10, 20, 30, 40 at 12:00:00, :10, :20, :30 (UTC): 30 steps over
    30 s, 1 s a step, worked out from the lines' times and said so."""
    lines = [f"2026-01-01 12:00:{s:02d} step {10 + s}, loss 2.5" for s in range(0, 40, 10)]
    data = read_cold(tmp_path, lines, name="run.log", dated=True)
    assert data["training"]["step_seconds"] == pytest.approx(1.0)
    assert "step 1.00 s (measured from the lines' times)" in data["details"]


# --- an epoch's printed average over a line's window ---------------------------------------------------------


@pytest.mark.parametrize(("name", "average", "line", "epoch"), [
    # PYRA #3: epoch 43's lines print time 3.0562 at [0/31] (loading), 0.3831, 0.1184, 0.0880 at [30/31] (a window of
    # the latest iterations); its summary 0:00:06 (0.2151 s / it): 31 iterations in 6.67 s
    (PYRA, 0.2151, "88 ms", 43),
    # rPPG-MAE #8: epoch 12's lines 0.117-0.118, its summary 0:00:26 (0.1283 s / it)
    (RPPG, 0.1283, "117 ms", 12),
])
def test_a_metriclogger_epoch_s_average_is_its_step_time(tmp_path: Path, name: str, average: float, line: str,
                                                         epoch: int) -> None:
    data = read(tmp_path, body(name))
    assert data["training"]["step_seconds"] == pytest.approx(average)
    assert (f"step {average * 1000:.0f} ms (epoch {epoch}'s average, as printed at its end) · the latest line's time "
            f"{line} (as printed)") in speed_line(data)


def test_an_epoch_s_average_two_epochs_back_is_not_the_step_time(tmp_path: Path) -> None:
    """Composed: epoch 1's summary (0.5000 s / it), then epoch 3's line at time 0.1000: the average is of an epoch
    long gone; the line's own 100 ms is shown, as printed."""
    lines = ["Epoch: [1]  [30/31]  eta: 0:00:00  lr: 0.000985  loss: 0.0276 (0.0302)  time: 0.1036  data: 0.0396",
             "Epoch: [1] Total time: 0:00:15 (0.5000 s / it)",
             "Epoch: [3]  [10/31]  eta: 0:00:02  lr: 0.000985  loss: 0.0276 (0.0302)  time: 0.1000  data: 0.0396"]
    data = read(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(0.1)
    assert speed_line(data) == "step 100 ms (as printed)"


def test_a_time_worked_out_from_a_printed_rate_the_dates_contradict_is_not_shown_as_printed(tmp_path: Path) -> None:
    """Composed fairseq ``train_inner`` lines 100 updates and 29 s apart (07:11:02, :31, 07:12:00) with ``ups=0.04``
    (1 / 0.04 = 25 s an update, 2,500 s a line: more than twice the dates' 29 s). The dates time the updates: 58 s
    over 200, 290 ms; the 25 s was never printed (``ups`` was), so it is not shown as if it were."""
    lines = [f"2020-07-17 07:{minute:02d}:{second:02d} | INFO | train_inner | epoch 001:   {update} / 160368 loss=9.255, "
             f"ppl=611.12, wps=57.3, ups=0.04, wpb=1613, bsz=80, num_updates={update}, lr=2.8e-05, gnorm=3.23, "
             f"train_wall=13, wall={1236 + 29 * k}"
             for k, (minute, second, update) in enumerate([(11, 2, 2800), (11, 31, 2900), (12, 0, 3000)])]
    data = read_cold(tmp_path, lines, name="run.log", dated=True)
    line = speed_line(data)
    assert line.startswith("step 290 ms (from the log's dates)")
    assert "as printed" not in line and "25" not in line


def test_mingpt_s_iter_dt_is_the_step_time_as_printed(tmp_path: Path) -> None:
    """Composed minGPT chargpt callback lines (``print(f"iter_dt {trainer.iter_dt * 1000:.2f}ms; iter
    {trainer.iter_num}: train loss {trainer.loss.item():.5f}")`` every 10 iterations): the last line's iter_dt,
    120.00 ms, is the step time as printed, and no lines' clock is needed for it."""
    lines = [f"iter_dt {ms}ms; iter {step}: train loss {loss}"
             for step, ms, loss in [(10, "110.00", "2.60938"), (20, "130.00", "2.49033"), (30, "120.00", "2.42024")]]
    data = read(tmp_path, lines)
    assert data["training"]["step"] == 30 and data["training"]["loss"] == pytest.approx(2.42024)
    assert data["training"]["step_seconds"] == pytest.approx(0.120)
    assert speed_line(data) == "step 120 ms (as printed)"


def test_the_pause_an_evaluation_ended_is_kept_alike_one_line_at_a_time_and_in_bulk() -> None:
    """Composed: steps 1 to 5 a second apart (losses 3.0), an evaluation at step 5, then steps 6 to 10 from 30 s on:
    applied one by one or as a run (the history import's bulk path), the evaluation's pause ends at step 6's line,
    29 s after the evaluation."""
    from app.stats.events import EvalResult, StepRun, TrainStep
    from app.stats.steps.progress import StepProgress

    def before() -> StepProgress:
        progress = StepProgress()
        for step in range(1, 6):
            progress.apply(TrainStep(None, "train", step, loss=3.0, step_seconds=1.0), float(step))
        progress.apply(EvalResult(None, "val_loss", 3.1, 5), 5.0)
        return progress

    times = [30.0 + k for k in range(5)]
    alone, bulk = before(), before()
    for k, t in enumerate(times):
        alone.apply(TrainStep(None, "train", 6 + k, loss=3.0, step_seconds=1.0), t)
    run = StepRun("train", None, None, (6, 7, 8, 9, 10), (3.0,) * 5, (1000.0,) * 5, (0.0,) * 5)
    assert bulk.run_end(run, 0, times) == 5
    bulk.apply_run(run, 0, times)
    assert alone.stage is not None and bulk.stage is not None
    assert list(alone.stage.eval_pauses) == list(bulk.stage.eval_pauses) == [(5.0, 30.0)]



@pytest.mark.parametrize(("gap", "pauses"), [
    # Step 6's line 30 s after step 5's, its trainer's clock 1 s on: its time is a date's or its arrival's, and the
    # evaluation's 29 s are in it.
    (30.0, [(5.0, 30.0)]),
    # Step 6's line at step 5's time plus its clock's 1 s (placed by the trainer's own clock, which stops for the
    # evaluation): no time measured holds the evaluation, which is forgotten.
    (6.0, []),
])
def test_an_evaluation_the_trainer_s_clock_leaves_out_is_forgotten_alike_one_line_at_a_time_and_in_bulk(
        gap: float, pauses: list[tuple[float, float]]) -> None:
    """Composed modded-nanogpt-like steps (1 s each, its clock stopped while it evaluates): steps 1 to 5 with the
    trainer's clock at 1 to 5 s (each line at its clock's second), an evaluation at step 5, then steps 6 to 10 with the clock at 6 to 10 s, step 6's line at
    ``gap`` and the rest a second apart: applied one by one or as a run (the history import's bulk path), alike."""
    from app.stats.events import EvalResult, StepRun, TrainStep
    from app.stats.steps.progress import StepProgress

    def before() -> StepProgress:
        progress = StepProgress()
        for step in range(1, 6):
            progress.apply(TrainStep(None, "train", step, loss=3.0, step_seconds=1.0, elapsed_seconds=float(step),
                                     elapsed_training_only=True), float(step))
        progress.apply(EvalResult(None, "val_loss", 3.1, 5), 5.0)
        return progress

    times = [gap + k for k in range(5)]
    alone, bulk = before(), before()
    for k, t in enumerate(times):
        alone.apply(TrainStep(None, "train", 6 + k, loss=3.0, step_seconds=1.0, elapsed_seconds=6.0 + k,
                              elapsed_training_only=True), t)
    run = StepRun("train", None, None, (6, 7, 8, 9, 10), (3.0,) * 5, (1000.0,) * 5, (0.0,) * 5,
                  (("elapsed_seconds", (6.0, 7.0, 8.0, 9.0, 10.0)),))
    assert bulk.run_end(run, 0, times) == 5
    bulk.apply_run(run, 0, times)
    assert alone.stage is not None and bulk.stage is not None
    assert list(alone.stage.eval_pauses) == list(bulk.stage.eval_pauses) == pauses
    assert list(alone.stage.eval_times) == list(bulk.stage.eval_times) == [5.0] * len(pauses)


def test_an_evaluation_inside_a_clock_that_runs_on_through_it_is_kept() -> None:
    """Composed: the same lines as above, step 6's at 6 s, but a clock that is not said to stop for evaluations (a
    bar's elapsed time, which runs on through a validation: Lightning's ``2014/2015 [08:13`` then ``2015/2015
    [08:24``): the evaluation's pause is in step 6's line and stays."""
    from app.stats.events import EvalResult, TrainStep
    from app.stats.steps.progress import StepProgress

    progress = StepProgress()
    for step in range(1, 6):
        progress.apply(TrainStep(None, "train", step, loss=3.0, step_seconds=1.0, elapsed_seconds=float(step)),
                       float(step))
    progress.apply(EvalResult(None, "val_loss", 3.1, 5), 5.0)
    progress.apply(TrainStep(None, "train", 6, loss=3.0, step_seconds=1.0, elapsed_seconds=6.0), 6.0)
    assert progress.stage is not None
    assert list(progress.stage.eval_pauses) == [(5.0, 6.0)]


def test_modded_nanogpt_s_rate_from_its_train_time_holds_no_evaluation(tmp_path: Path) -> None:
    """Composed modded-nanogpt lines (``step:N/1000 train_loss:… train_time:…ms step_avg:…ms``), steps 1 to 400 at
    1 s each (train_time 1000 to 400000 ms), ``step:200/1000 val_loss:3.5000 train_time:200000ms`` after step 200:
    the undated lines sit at their ``train_time``, which the trainer stops while it validates, so the rate (399 steps
    from step 1 over 399 s: 3,600 steps/h) holds no evaluation's pause and does not say it does."""
    lines = [f"step:{k}/1000 train_loss:3.0000 train_time:{1000 * k}ms step_avg:1000.00ms" for k in range(1, 201)]
    lines.append("step:200/1000 val_loss:3.5000 train_time:200000ms step_avg:1000.00ms")
    lines += [f"step:{k}/1000 train_loss:3.0000 train_time:{1000 * k}ms step_avg:1000.00ms" for k in range(201, 401)]
    data = read(tmp_path, lines)
    assert data["training"]["steps_per_hour"] == pytest.approx(3600, rel=1e-3)
    assert data["details"][0] == "3.6k steps/h (over 6 min) · tokens per step not printed"


def test_a_new_epoch_s_bar_after_its_validation_bar_holds_no_evaluation(tmp_path: Path) -> None:
    """Composed tqdm bars as DMRGCN's training script prints them: each epoch's training bar
    closes at ``100/100 [00:50<00:00, 2.00it/s]`` and a validation bar ``Valid Epoch: N Loss: 0.5: 100% 20/20
    [00:04<00:00, 5.00it/s]`` follows. Each epoch's bar starts its clock again, after the validation: the undated
    bars sit 50 s apart by their own clocks, which leave the validations out, so the rate (4 epochs' 400 steps over
    200 s: 7,200 steps/h) says nothing of their pauses."""
    lines = []
    for epoch in range(1, 6):
        lines.append(f"Train Epoch: {epoch} Loss: 0.3000: 100% 100/100 [00:50<00:00,  2.00it/s]")
        if epoch < 5:
            lines.append(f"Valid Epoch: {epoch} Loss: 0.5000: 100% 20/20 [00:04<00:00,  5.00it/s]")
    data = read(tmp_path, lines)
    assert data["training"]["steps_per_hour"] == pytest.approx(7200, rel=1e-3)
    assert data["details"][0].endswith("(over 3 min) · tokens per step not printed")


# --- a printed rate under its name is its interval's average, not the last step's time ---------------------------

MLX_ORPO = "mlx-lm-mlx-lm-pr6-orpo-iter-50-of-500-val-at-1-and-50-rewards-no-trained-tokens.log"


def _mlx(iteration: int, its: float) -> str:
    return (f"Iter {iteration}: Train loss 1.{100 - iteration}0, Learning Rate 1.000e-05, It/sec {its:.3f}, "
            f"Tokens/sec {its * 200:.3f}, Peak mem 5.000 GB")


def test_composed_mlx_it_sec_is_its_report_s_average(tmp_path: Path) -> None:
    # A report every 10 iterations; It/sec 0.05, 0.05, 0.05, 0.5, 0.05: 10 / It/sec a report (200, 200, 20, 200 s after
    # the first line, whose one iteration is counted at 20 s): 41 iterations over 640 s = 230.625 an hour. Read as the
    # last iteration's time (nanoGPT's ``time``) the last report would take 9 × 2 + 20 = 38 s: 308.8 an hour.
    lines = ["Starting training..., iters: 100", *(_mlx(10 * k, its) for k, its in
                                                  enumerate((0.05, 0.05, 0.05, 0.5, 0.05), start=1))]
    data = read(tmp_path, lines)
    assert data["training"]["steps_per_hour"] == pytest.approx(41 * 3600 / 640)
    # tokens at each report's Tokens/sec over its time: 10 × 20 + 3 × 10 × 200 + 100 × 20 = 8,200 over 640 s
    assert data["training"]["tokens_per_hour"] == pytest.approx(8200 * 3600 / 640)


def test_real_mlx_orpo_run_s_rate_follows_its_reports_it_sec(tmp_path: Path) -> None:
    # mlx-lm PR #6 (its header): It/sec 0.103, 0.068, 0.093, 0.059, 0.678 at iterations 10 … 50: the first line's
    # iteration at 1 / 0.103 = 9.709 s, then 10 / It/sec: 147.059 + 107.527 + 169.492 + 14.749 s; 41 iterations over
    # 448.535 s = 329.1 an hour (it read 424, the last iteration's time taken for the other nine of each report).
    data = read(tmp_path, body(MLX_ORPO))
    seconds = 1 / 0.103 + 10 / 0.068 + 10 / 0.093 + 10 / 0.059 + 10 / 0.678
    assert data["training"]["steps_per_hour"] == pytest.approx(41 * 3600 / seconds)
    # Tokens/sec × each report's time: 620.3 + 9,303.8 + 6,725.1 + 10,604.3 + 10,115.8 = 37,369 over 448.535 s: 299.9k an hour
    assert data["training"]["tokens_per_hour"] == pytest.approx(37369 * 3600 / seconds, rel=1e-4)


def test_composed_fairseq_ups_is_its_interval_s_average(tmp_path: Path) -> None:
    # fairseq's ``train_inner`` meters start again at each log: ``ups`` is the updates since the last line over their
    # time. Lines every 100 updates at ups 1, 1, 1, 0.5, 1: 100, 100, 200, 100 s after the first line (its one update
    # counted at 1 s): 401 updates over 501 s = 2,881.4 an hour (the fourth line read as its last update's time, 101 s).
    lines = [f"epoch 001:    {k * 100} / 1000 loss={60 - k}.000, nll_loss=5.000, ppl=32.00, wps=1000, "
             f"ups={0.5 if k == 4 else 1}, wpb=1000, bsz=10, num_updates={k * 100}, lr=0.0001, gnorm=0.5, clip=0"
             for k in range(1, 6)]
    assert read(tmp_path, lines)["training"]["steps_per_hour"] == pytest.approx(401 * 3600 / 501)


# --- a new epoch's bar starts its clock again: its elapsed time is its steps' -------------------------------------

TIANSHOU = "generic-rl-tianshou-issue449-ppo-epoch-1-to-5-bars-50001it-env-step-250000-test-reward-200-best-in-1.log"


def test_composed_closing_bars_an_epoch_apart_are_their_clocks_apart(tmp_path: Path) -> None:
    # Five epochs' closing bars, 100 batches each in 00:50 (2.00 it/s): the first line's batch at 0.5 s, then four
    # epochs of 100 batches, 50 s each: 401 batches over 200.5 s = 7,200 an hour (it read no time between them: each
    # bar's clock, 50 s, minus the one before, 50 s, is nothing).
    lines = [f"Train Epoch: {e} Loss: 0.{60 - e}: 100% 100/100 [00:50<00:00,  2.00it/s]" for e in range(1, 6)]
    data = read(tmp_path, lines)
    assert data["training"]["steps_per_hour"] == pytest.approx(401 * 3600 / 200.5)


def test_composed_a_bar_clock_under_ten_seconds_is_not_its_steps_time(tmp_path: Path) -> None:
    # ultralytics' classify epochs: ``3/3 [00:16<00:00,  5.37s/it]`` (its first, compiling: left out of the pace), then
    # ``3/3 [00:00<00:00,  5.17it/s]``: three batches in 3 / 5.17 = 0.580 s; the clock's whole seconds say 0.
    lines = ["Train Epoch: 1 Loss: 0.59: 100% 3/3 [00:16<00:00,  5.37s/it]",
             "Train Epoch: 2 Loss: 0.58: 100% 3/3 [00:00<00:00,  5.17it/s]"]
    assert read(tmp_path, lines)["warmup"]["observed_seconds"] == pytest.approx(3 / 5.17, rel=1e-3)


def test_real_tianshou_epochs_of_50001_iterations_are_their_bars_clocks_apart(tmp_path: Path) -> None:
    # tianshou issue 449 (its header): epochs 2 … 5 closing at 00:40, 00:40, 00:42, 00:40 after the epoch before's
    # line: 162 s observed (it said 42 s: the last bar's clock minus the one before)
    data = read(tmp_path, body(TIANSHOU))
    assert data["warmup"]["text"] == "measuring: 5 steps · 2 min 42 s of 3 min — rate in under a minute"
