"""Step trainers on an explicit clock: interval crediting, done, diverged, no timing, state_since.

Every expected figure is worked out in the test from the scenario's own numbers.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from app.live.monitor import Monitor
from app.snapshot import training_dict
from app.stats.events import EvalResult, StageEnd, StepFigures, TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report as step_report
from app.stats.steps.stage import row_groups_per_step
from app.stats.tracker import WARMUP_SECONDS

T0 = 1_800_000_000.0


def nanogpt(step: int, seconds: float, **kw: object) -> TrainStep:
    return TrainStep(None, "train", step, step_seconds=seconds, loss=4.6, **kw)  # type: ignore[arg-type]


def every_ten(progress: StepProgress, lines: int, iteration: float = 33.6, start: float = T0) -> float:
    """nanoGPT logging every 10 iterations: one line each 10 × ``iteration`` seconds."""
    t = start
    for k in range(lines):
        progress.apply(nanogpt(10 * k, iteration), t)
        t += 10 * iteration
    return t - 10 * iteration


def test_a_line_far_apart_counts_only_its_part_inside_the_window() -> None:
    """20 min hold 1200/33.6 = 35.7 iterations: 107 steps/h, not the 4 lines × 10 = 120 of counting lines whole."""
    progress = StepProgress()
    last = every_ten(progress, lines=8)
    report = step_report(progress, last)
    assert training_dict(report.training)["steps_per_hour"] == pytest.approx(3600 / 33.6)
    assert report.status_line == "step 70 · 107 steps/h"


def test_the_rate_holds_between_lines_and_decays_once_one_is_overdue() -> None:
    progress = StepProgress()
    last = every_ten(progress, lines=8)
    rate = 3600 / 33.6
    assert step_report(progress, last + 300).training.steps_per_hour == pytest.approx(rate)
    # 600 s after the last line, 264 s past the usual 336 s: the window's end moves on by that much
    later = step_report(progress, last + 600).training.steps_per_hour
    assert later == pytest.approx((1200 - 264) / 33.6 / 1200 * 3600)


def test_the_last_planned_step_is_done_never_stalled() -> None:
    progress = StepProgress()
    t = T0
    for step in range(1, 75):
        progress.apply(TrainStep(None, "train", step, total_steps=74, step_seconds=4.0, loss=3.0), t)
        t += 4.0
    last = t - 4.0
    for later in (1.0, 90.0, 7200.0, 86400.0):
        report = step_report(progress, last + later)
        assert (report.state, report.status_line) == ("done", "done · step 74/74")
        assert report.state_since == last and training_dict(report.training)["stalled"] is False
    assert "Finished: reached its last step (step 74/74)" in step_report(progress, last + 5).details


def test_a_run_that_ends_short_of_its_total_is_stalled() -> None:
    progress = StepProgress()
    t = T0
    for step in range(1, 60):
        progress.apply(TrainStep(None, "train", step, total_steps=74, step_seconds=4.0), t)
        t += 4.0
    report = step_report(progress, t + 3600)
    assert report.state == "stalled" and report.status_line == "step 59/74 · stalled 1h00m"
    # stalled since its last step, as the status line counts it (the 90 s limit only names it)
    assert report.state_since == t - 4.0
    assert step_report(progress, t - 4.0 + 89).state == "training"


def test_an_end_summary_is_done_at_its_time() -> None:
    progress = StepProgress()
    t = T0
    for step in range(10):
        progress.apply(TrainStep(None, "base", step, total_steps=100, step_seconds=4.0), t)
        t += 4.0
    progress.apply(StageEnd(None, "Total training time: 0.60m"), t + 30)
    report = step_report(progress, t + 4000)
    assert (report.state, report.state_since) == ("done", t + 30)


def test_a_nan_loss_is_a_divergence_from_its_first_step() -> None:
    progress = StepProgress()
    t = T0
    for step in range(1, 11):
        loss = 3.0 if step < 6 else float("nan")
        progress.apply(TrainStep(None, "train", step, total_steps=74, step_seconds=4.0, loss=loss), t)
        t += 4.0
    report = step_report(progress, t + 3600)
    assert (report.state, report.status_line) == ("diverged", "step 10/74 · diverged")
    assert report.state_since == T0 + 5 * 4.0  # step 6, the first nan
    assert training_dict(report.training)["loss"] is None and "Loss not a number since step 6" in report.details
    # One verdict: no warm-up and no pause line beside it.
    assert not any(line.startswith(("measuring", "Paused")) for line in report.details), report.details
    progress.apply(TrainStep(None, "train", 11, total_steps=74, step_seconds=4.0, loss=2.9), t)
    assert step_report(progress, t + 1).state != "diverged"


@pytest.mark.parametrize("loss", [float("inf"), float("-inf")])
def test_an_infinite_loss_is_a_divergence_too(loss: float) -> None:
    progress = StepProgress()
    progress.apply(TrainStep(None, "train", 1, loss=loss), T0)
    assert step_report(progress, T0).state == "diverged"


def test_a_nan_in_a_logged_dict_diverges_a_run_with_a_bar() -> None:
    progress = StepProgress()
    progress.apply(TrainStep(None, "train", 10, total_steps=750, step_seconds=0.64), T0)
    progress.apply(StepFigures(None, loss=float("nan")), T0 + 1)
    assert step_report(progress, T0 + 2).state == "diverged"


def test_training_since_the_warm_up_ended() -> None:
    progress = StepProgress()
    t = T0
    for step in range(1, 100):
        progress.apply(TrainStep(None, "train", step, step_seconds=4.0), t)
        t += 4.0
    report = step_report(progress, t - 4.0)
    # the first step began at T0 − 4 s; the warm-up ends 3 minutes after that (the third line came earlier)
    assert report.state == "training" and report.state_since == T0 - 4.0 + WARMUP_SECONDS


def test_training_again_since_the_step_that_ended_a_stall() -> None:
    progress = StepProgress()
    t = T0
    for step in range(1, 100):
        progress.apply(TrainStep(None, "train", step, step_seconds=4.0), t)
        t += 4.0
    resumed = t + 1000
    for step in range(100, 103):
        progress.apply(TrainStep(None, "train", step, step_seconds=4.0), resumed + 4.0 * (step - 100))
    report = step_report(progress, resumed + 8.0)
    assert report.state == "training" and report.state_since == resumed


def test_row_groups_read_every_other_step_are_half_a_group_a_step() -> None:
    progress = StepProgress()
    for step in range(20):
        line = TrainStep(None, "base", step, step_seconds=4.0, epoch=1, parquet_index=3, row_group=step // 2)
        progress.apply(line, T0 + 4.0 * step)
    stage = progress._stage
    # steps 0-19: row group 0 → 9 over 19 steps (a median of the per-line 0s and 1s read 0 or 1)
    assert stage is not None and row_groups_per_step(stage) == pytest.approx(9 / 19)
    assert any("(≈0.474 row groups/step)" in d for d in step_report(progress, T0 + 80).details)


def test_dicts_without_step_numbers_report_the_epoch_and_a_rate_of_logged_steps() -> None:
    progress = StepProgress()
    for k in range(1, 41):
        progress.apply(TrainStep(None, "train", k, loss=1.5126, epoch=0.01 * k, logged=True), T0 + 60.0 * k)
    progress.apply(EvalResult(None, "eval_loss", 1.42), T0 + 60.0 * 40 + 5)
    report = step_report(progress, T0 + 60.0 * 40 + 5)
    assert report.status_line == "epoch 0.4 · loss 1.51" and report.state == "training"
    assert report.details[0] == "60 logged records/h (over 20 min)"
    assert "Eval eval_loss 1.42" in report.details  # no "(step 40)": 40 counts dicts, not steps


def write(path: Path, lines: list[str], mtime: float) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(path, (mtime, mtime))
    return path


def test_no_timing_in_the_log_then_measured_as_lines_arrive(tmp_path: Path) -> None:
    """llm.c's main.log prints no time: a cold start says so; live lines are timed on arrival."""
    lines = [f"s:{s} trl:3.{s:04d} lr:0.000600 norm:0.30" for s in range(100)]
    now = [T0]
    log = write(tmp_path / "main.log", lines, T0)
    monitor = Monitor(log, clock=lambda: now[0])
    monitor.backlog(iter([lines]))
    snap = monitor.snapshot(T0)
    assert (snap.status_line, snap.state) == ("step 99 · no timing", "measuring")
    assert snap.details[0].startswith("no timing read from this log (100 step lines")
    for s in range(100, 120):
        now[0] += 15.0
        monitor.lines([f"s:{s} trl:3.1 lr:0.000600 norm:0.30"])
    snap = monitor.snapshot(now[0])
    # 19 steps between the first and the last live line, 15 s apart: 240 steps/h
    assert snap.status_line == "step 119 · 240 steps/h"


def test_a_hivemind_december_line_in_a_january_file_is_last_year(tmp_path: Path) -> None:
    lines = [f"Dec 31 23:5{m}:00.000 [INFO] Step #{m}  loss = 5.0" for m in range(1, 9)]
    mtime = time.mktime((2026, 1, 1, 0, 5, 0, 0, 0, -1))
    log = write(tmp_path / "monitor.log", lines, mtime)
    monitor = Monitor(log, clock=lambda: mtime)
    monitor.backlog(iter([lines]))
    assert monitor.last_event_at() == time.mktime((2025, 12, 31, 23, 58, 0, 0, 0, -1))
    # a step a minute: the stall limit is 6 × 60 s; at 00:05, 7 minutes after the last step, stalled
    assert monitor.snapshot(mtime - 120).state == "training"
    snap = monitor.snapshot(mtime)
    assert snap.state == "stalled" and snap.step == 8


def test_state_since_is_in_the_snapshot(tmp_path: Path) -> None:
    lines = [f"step {s:4d}/74 | loss 3.0 (+0.00z)| norm 0.5 (+0.00z)| lr 3.00e-04 | 4000.00 ms | 9.2% bf16 MFU | 1000 tok/s"
             for s in range(1, 75)]
    log = write(tmp_path / "train.log", lines, T0)
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(iter([lines]))
    snap = monitor.snapshot(T0 + 86400)
    assert (snap.state, snap.state_since) == ("done", T0)


def test_a_run_that_stalled_while_measuring_says_stalled_and_no_warm_up() -> None:
    progress = StepProgress()
    t = T0
    for step in range(1, 3):  # two steps: still measuring when it stopped
        progress.apply(TrainStep(None, "train", step, total_steps=74, step_seconds=4.0, loss=3.0), t)
        t += 4.0
    report = step_report(progress, t + 3 * 3600)
    assert report.state == "stalled"
    assert not any(line.startswith("measuring") for line in report.details), report.details
