"""The step-trainer tracker on an explicit clock, its time placement, and the pipeline end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.live.monitor import Monitor
from app.snapshot import SourceView, to_json, training_dict
from app.stats.events import (
    AllReduceResult,
    EvalResult,
    Event,
    PeerGroup,
    RunInfo,
    StageEnd,
    StageStart,
    StepFigures,
    TrainingPause,
    TrainStep,
)
from app.stats.iota.tracker import IotaTracker
from app.stats.steps.placing import place_in_time
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report as step_report
from app.stats.steps.tracker import StepTracker
from app.stats.tracker import RATE_WINDOW_SECONDS, WARMUP_COUNT, WARMUP_SECONDS
from app.stats.unknown import UnknownTracker

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parents[1] / "data"
T0 = 1_800_000_000.0


def base_step(step: int, *, total: int = 29000, dt: float = 4.0, tok_s: float = 129_454, **kw: object) -> TrainStep:
    """A nanochat base_train step as the parser reads it."""
    fields: dict[str, object] = {
        "at": None, "stage": "base", "step": step, "total_steps": total, "loss": 3.369286,
        "loss_note": "smoothed (EMA, debiased)", "lr_multiplier": 1.0, "step_seconds": dt,
        "tokens_per_second": tok_s, "mfu": 62.46,
    }  # fmt: skip
    fields.update(kw)
    return TrainStep(**fields)  # type: ignore[arg-type]


def run_steps(tracker: StepProgress, first: int, last: int, start: float, dt: float = 4.0, **kw: object) -> float:
    """Apply steps first..last, one every ``dt`` seconds from ``start``; return the last time."""
    t = start
    for step in range(first, last + 1):
        tracker.apply(base_step(step, dt=dt, **kw), t)
        if step < last:
            t += dt
    return t


def test_every_tracker_measures_by_the_shared_rules() -> None:
    """One rate window and warm-up for the miner and the step trainers, read back from their snapshots."""
    empty = SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0, last_event_at=None)
    for tracker in (StepTracker("nanochat"), IotaTracker(), UnknownTracker()):
        s = tracker.snapshot(T0, empty)
        assert s.rate.window_seconds == RATE_WINDOW_SECONDS == 20 * 60
        assert (s.warmup.passes_needed, s.warmup.seconds_needed) == (WARMUP_COUNT, WARMUP_SECONDS) == (3, 180)


def test_a_steady_run_reads_like_the_issue_example() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 0, 383, T0)
    report = step_report(tracker, end + 2)
    # 129,454 tok/s × 4 s = 517,816 tokens a step; 900 steps an hour
    assert report.status_line == "step 383/29000 · 466M tok/h"
    assert report.state == "training"
    assert report.rate.measured and report.rate.observed_seconds == 1200
    assert report.rate.tokens_per_pass == 517_816
    assert training_dict(report.training)["tokens_per_hour"] == pytest.approx(517_816 * 900)
    assert report.details[0] == "466M tok/h · 900 steps/h (over 20 min)"
    assert "Loss 3.3693 (smoothed (EMA, debiased), as printed)" in report.details
    assert "LR × 1.00 (multiplier)" in report.details
    assert "step 4.00 s (as printed) · 129k tok/s · MFU 62.46%" in report.details


def test_warm_up_needs_three_steps_and_three_minutes() -> None:
    tracker = StepProgress()
    tracker.apply(base_step(0, dt=60.0), T0)
    tracker.apply(base_step(1, dt=60.0), T0 + 60)
    # 2 steps, 3 minutes observed (the first step began 60 s before it was printed)
    report = step_report(tracker, T0 + 120)
    assert report.state == "measuring" and report.status_line == "step 1/29000 · …"
    # The sentence counts the time seen since the first step's line (120 s): 2 steps at 60 s
    # each, so the third is due in 60 s, when 180 s will have passed too.
    assert report.details[0] == "measuring: 2 of 3 steps · 2 min of 3 min — rate in about 1 min"
    tracker.apply(base_step(2, dt=60.0), T0 + 120)
    assert step_report(tracker, T0 + 120).state == "training"
    # three quick steps are not enough either
    quick = StepProgress()
    run_steps(quick, 0, 5, T0, dt=1.0)
    assert step_report(quick, T0 + 5).status_line == "step 5/29000 · …"
    assert not step_report(quick, T0 + 5).warmup.done


def test_the_window_is_twenty_minutes_and_the_rate_follows_it() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 0, 300, T0, dt=4.0, tok_s=100_000)  # 400,000 tokens a step, 900 steps/h
    end = run_steps(tracker, 301, 600, end + 8.0, dt=8.0, tok_s=50_000)  # same tokens a step, half the pace
    slow = step_report(tracker, end)
    assert training_dict(slow.training)["steps_per_hour"] == pytest.approx(450, rel=0.01)
    assert training_dict(slow.training)["tokens_per_hour"] == pytest.approx(180e6, rel=0.01)


def test_a_new_stage_starts_a_new_stretch() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 5000, 5567, T0, total=5568)
    tracker.apply(StageEnd(None, "Total training time: 97.21m"), end + 60)
    done = step_report(tracker, end + 120)
    assert done.status_line == "done · step 5567/5568" and done.state == "done"
    assert "Finished: Total training time: 97.21m" in done.details
    tracker.apply(EvalResult(None, "val_bpb", 0.4386, 0), end + 300)  # SFT's step-0 validation
    sft = replace(base_step(1, dt=9.41), stage="sft", total_steps=None, progress_percent=0.15, mfu=3.36)
    tracker.apply(sft, end + 310)
    report = step_report(tracker, end + 311)
    assert report.status_line == "SFT step 1 · …" and report.state == "measuring"
    assert training_dict(report.training)["stage"] == "sft"
    assert training_dict(report.training)["eval"] == {"val_bpb": {"value": 0.4386, "step": 0}}
    assert report.warmup.passes == 1


def test_a_restart_from_a_checkpoint_is_a_new_stretch() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 0, 400, T0)
    tracker.apply(base_step(300), end + 600)
    report = step_report(tracker, end + 601)
    assert report.status_line == "step 300/29000 · …" and report.warmup.passes == 1


def test_a_repeated_step_is_not_progress() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 0, 100, T0)
    tracker.apply(base_step(100), end + 1)
    assert step_report(tracker, end + 1).warmup.passes == 101


def test_stall_after_six_median_step_times_or_ninety_seconds() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 0, 100, T0, dt=4.0)
    assert step_report(tracker, end + 90).state == "training"
    stalled = step_report(tracker, end + 91)
    assert stalled.state == "stalled"
    assert stalled.status_line == "step 100/29000 · stalled 1m"
    assert "Stalled: no step for 1 min 31 s (limit 1 min 30 s)" in stalled.details  # not "1 min (limit 1 min)"
    assert training_dict(stalled.training)["stalled"] is True and training_dict(stalled.training)["stall_after_seconds"] == 90
    slow = StepProgress()
    end = run_steps(slow, 0, 50, T0, dt=30.0)
    assert step_report(slow, end + 179).state == "training"
    assert step_report(slow, end + 181).state == "stalled"


def test_warm_up_before_the_first_step_is_not_a_stall() -> None:
    tracker = StepProgress()
    tracker.apply(RunInfo(None, gpu_name="NVIDIA H100 80GB HBM3", peak_flops=9.89e14), T0)
    report = step_report(tracker, T0 + 3600)
    assert report.state == "working" and report.status_line == "waiting for first step"
    assert training_dict(report.training)["stalled"] is False and training_dict(report.training)["step"] is None
    assert "GPU NVIDIA H100 80GB HBM3 · peak 989 TFLOPS" in report.details


def test_an_evaluation_pause_is_not_a_stall_for_an_hour() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 0, 250, T0)
    tracker.apply(EvalResult(None, "val_bpb", 1.06, 251), end + 30)
    report = step_report(tracker, end + 1800)
    assert report.state == "training" and training_dict(report.training)["paused"] == "evaluation"
    assert "Paused: evaluation (30 min since the last step)" in report.details
    assert step_report(tracker, end + 3601).state == "stalled"


@pytest.mark.parametrize("reason", ["checkpoint", "all-reduce", "evaluation"])
def test_an_announced_pause_is_not_a_stall(reason: str) -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 0, 100, T0)
    tracker.apply(TrainingPause(None, reason), end + 1)  # type: ignore[arg-type]
    # A collaborator's round is a state of its own (averaging), and so is an evaluation under way (evaluating): no more
    # a stall than the others.
    assert step_report(tracker, end + 600).state == {"all-reduce": "averaging", "evaluation": "evaluating"}.get(
        reason, "training")
    tracker.apply(base_step(101), end + 700)
    assert step_report(tracker, end + 800).state == "stalled"  # the pause ended with the next step


def test_an_evaluation_due_by_the_cadence_is_not_a_stall() -> None:
    tracker = StepProgress()
    tracker.apply(EvalResult(None, "val_bpb", 3.2, 0), T0)
    end = run_steps(tracker, 0, 249, T0 + 1)
    tracker.apply(EvalResult(None, "val_bpb", 1.06, 250), end + 20)
    end = run_steps(tracker, 250, 499, end + 24)
    report = step_report(tracker, end + 600)  # step 500 is due an evaluation first
    assert report.state == "training" and training_dict(report.training)["paused"] == "evaluation due"
    early = StepProgress()
    early.apply(EvalResult(None, "val_bpb", 3.2, 0), T0)
    early.apply(EvalResult(None, "val_bpb", 1.06, 250), T0)
    end = run_steps(early, 250, 400, T0 + 1)
    assert step_report(early, end + 600).state == "stalled"


def test_the_last_step_waits_for_the_final_evaluation() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 5400, 5567, T0, total=5568)
    assert step_report(tracker, end + 1800).state == "training"


def test_tokwatch_eta_beside_the_trainers() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 0, 400, T0, trainer_eta_seconds=1951.2 * 60)
    report = step_report(tracker, end)
    assert training_dict(report.training)["eta_seconds"] == pytest.approx((29000 - 400) * 4.0, rel=0.01)
    assert training_dict(report.training)["trainer_eta_seconds"] == pytest.approx(117072.0)
    # 28600 steps × 4.00 s = 114400 s = 1 d 7.8 h; the trainer's 1951.2 min = 1 d 8.5 h: each to its nearest hour.
    assert "ETA 1 d 8 h (tokwatch) · 1 d 9 h (trainer)" in report.details


def test_sft_eta_from_the_printed_percentage() -> None:
    tracker = StepProgress()
    t = T0
    for step in range(1, 400):  # (one a line: a line that skipped steps would start the rate's stretch again)
        sft = replace(base_step(step, dt=0.5), stage="sft", total_steps=None, progress_percent=step * 100 / 650)
        tracker.apply(sft, t)
        t += 0.5
    tracker.apply(replace(base_step(400, dt=0.5), stage="sft", total_steps=None, progress_percent=61.54), t)
    report = step_report(tracker, t)
    assert training_dict(report.training)["total_steps"] is None
    assert training_dict(report.training)["eta_seconds"] is not None


def test_mfu_unknown_is_said_not_shown_as_zero() -> None:
    tracker = StepProgress()
    run_steps(tracker, 0, 5, T0, mfu=None, mfu_note="unknown: nanochat printed 0.00 (GPU not in its peak-FLOPS table)")
    report = step_report(tracker, T0 + 30)
    assert training_dict(report.training)["mfu"] is None
    assert any("MFU unknown: nanochat printed 0.00" in line for line in report.details)


def test_data_position_and_row_groups_a_step() -> None:
    tracker = StepProgress()
    for i, step in enumerate(range(380, 384)):
        tracker.apply(base_step(step, epoch=1, parquet_index=0, row_group=276 + i), T0 + 4 * i)
    report = step_report(tracker, T0 + 12)
    assert training_dict(report.training)["data"] == {"epoch": 1, "parquet_index": 0, "row_group": 279, "row_groups_per_step": 1.0}
    assert "Data epoch 1 · pq 0 · rg 279 (≈1 row groups/step)" in report.details


def test_a_nan_loss_is_null_in_json_and_said_in_words() -> None:
    """The loss has its note; a grad norm that is not a number is the word printed (JSON has no NaN)."""
    tracker = StepProgress()
    run_steps(tracker, 0, 3, T0, loss=float("nan"))
    tracker.apply(StepFigures(None, grad_norm=float("inf")), T0 + 13)
    report = step_report(tracker, T0 + 13)
    assert training_dict(report.training)["loss"] is None and training_dict(report.training)["grad_norm"] == "inf"
    assert "Loss not a number since step 0" in report.details
    json.dumps(training_dict(report.training), allow_nan=False)


def test_tokens_per_iteration_times_the_steps_a_line_covers() -> None:
    """nanoGPT logs every 10 iterations; each line carries 10 × tokens per iteration."""
    tracker = StepProgress()
    tracker.apply(RunInfo(None, tokens_per_step=491_520), T0)
    t = T0
    for it in range(0, 2010, 10):
        tracker.apply(TrainStep(None, "train", it, loss=3.0, step_seconds=0.3), t)
        t += 3.0
    report = step_report(tracker, t - 3.0)
    assert training_dict(report.training)["steps_per_hour"] == pytest.approx(12_000, rel=0.01)
    assert training_dict(report.training)["tokens_per_hour"] == pytest.approx(12_000 * 491_520, rel=0.01)
    assert report.status_line == "step 2000 · 5.8G tok/h"


def test_per_device_throughput_times_the_devices() -> None:
    def run(tracker: StepProgress) -> str:
        t = T0
        for step in range(1, 400, 10):
            tracker.apply(TrainStep(t, "train", step, loss=2.0, tokens_per_second=7800, per_device=True), t)
            t += 11.0
        return step_report(tracker, t - 11.0).status_line

    with_mesh = StepProgress()
    with_mesh.apply(RunInfo(None, device_count=8), T0)
    assert run(with_mesh) == "step 391 · 224.6M tok/h"  # 7,800 × 8 × 3600
    assert run(StepProgress()) == "step 391 · 28M tok/h/GPU"


def test_the_hf_tokens_counter() -> None:
    tracker = StepProgress()
    t = T0
    for step in range(10, 1000, 10):
        tracker.apply(TrainStep(None, "train", step, total_steps=1000, step_seconds=0.6, elapsed_seconds=step * 0.6), t)
        tracker.apply(StepFigures(None, loss=2.0, tokens_seen=step * 4096), t)
        t += 6.0
    report = step_report(tracker, t - 6.0)
    assert training_dict(report.training)["tokens_per_hour"] == pytest.approx(4096 * 3600 / 0.6, rel=0.01)
    assert training_dict(report.training)["loss"] == 2.0


def test_without_tokens_the_rate_is_in_steps() -> None:
    tracker = StepProgress()
    t = T0
    for step in range(10, 3000, 10):
        tracker.apply(TrainStep(None, "train", step, total_steps=3000, step_seconds=0.6), t)
        t += 6.0
    report = step_report(tracker, t - 6.0)
    assert report.status_line == "step 2990/3000 · 6.0k steps/h"
    assert report.rate.measured is False and training_dict(report.training)["tokens_per_hour"] is None
    assert report.details[0] == "6.0k steps/h (over 20 min) · tokens per step not printed"


def test_sn38_rounds_continue_the_stretch_and_count_all_reduces() -> None:
    tracker = StepProgress()
    t = T0
    for outer in (41, 42, 43):
        for inner in range(6):
            tracker.apply(TrainStep(t, "train", inner, outer_step=outer, loss=3.5, lr=4e-4), t)
            t += 47.0
        tracker.apply(TrainingPause(t, "all-reduce"), t)
        tracker.apply(PeerGroup(t, 3), t)
        tracker.apply(AllReduceResult(t, ok=outer != 42, peers=3 if outer != 42 else None,
                                      error=None if outer != 42 else "could not find a group"), t + 60)
        t += 90.0
    report = step_report(tracker, t)
    assert report.status_line.startswith("outer 43 · step 5 · ")
    assert report.status_line.endswith(" steps/h")
    assert training_dict(report.training)["all_reduce"] == {"succeeded": 2, "failed": 1, "peers": 3, "last_error": "could not find a group"}
    # three rounds of 60 s each in 3 × (6 × 47 + 90) = 1116 s of log; the last good one ended 30 s ago
    assert "Rounds: 2 ok · 1 failed · last good round 30 s ago · 16% of the last 18 min averaging" in report.details
    assert "  round 1 min ago · 1 min · 3 peers · ok" in report.details


def test_restarting_is_not_a_stall() -> None:
    tracker = StepProgress()
    end = run_steps(tracker, 0, 100, T0)
    tracker.apply(StageStart(None), end + 30)
    report = step_report(tracker, end + 900)
    assert report.state == "working" and report.status_line == "step 100/29000 · restarting"


# --- time placement ---------------------------------------------------------------------


def test_undated_lines_step_back_by_the_printed_durations() -> None:
    events: list[Event] = [EvalResult(None, "val_bpb", 3.2, 0)] + [base_step(s, dt=2.0) for s in range(4)]
    placed = place_in_time(events, 1000.0)
    # the validation printed before step 0 came before step 0 began
    assert [e.at for e in placed] == [992.0, 994.0, 996.0, 998.0, 1000.0]


def test_a_pause_after_an_evaluation_is_the_iteration_s_own() -> None:
    """nanoGPT: the iteration after an evaluation prints the evaluation's time; the others took 0.3 s."""
    events: list[Event] = [
        TrainStep(None, "train", 990, step_seconds=0.3),
        TrainStep(None, "train", 1000, step_seconds=62.0),
        TrainStep(None, "train", 1010, step_seconds=0.3),
    ]
    placed = place_in_time(events, 1000.0)
    assert [e.at for e in placed] == pytest.approx([1000.0 - 3.0 - 64.7, 1000.0 - 3.0, 1000.0])


def test_before_a_step_without_a_duration_times_stay_unknown() -> None:
    events: list[Event] = [
        TrainStep(None, "rl", 0),
        TrainStep(None, "rl", 1),
        EvalResult(None, "pass@1", 0.1, 1),
    ]
    assert [e.at for e in place_in_time(events, 1000.0)] == [None, 1000.0, 1000.0]


def test_placement_never_goes_before_what_was_applied_and_keeps_dated_events() -> None:
    events: list[Event] = [base_step(0, dt=50.0), base_step(1, dt=50.0), replace(base_step(2), at=2000.0)]
    assert [e.at for e in place_in_time(events, 3000.0, not_before=1980.0)] == pytest.approx([1980.0, 1996.0, 2000.0])


# --- the tracker and the pipeline ----------------------------------------------------------


def source() -> SourceView:
    return SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0, last_event_at=None)


def test_the_tracker_history_carries_the_trainers_rate() -> None:
    tracker = StepTracker("nanochat")
    lines = [base_step(s) for s in range(600)]
    tracker.apply_all(list(lines), T0, arrival=T0)
    snap = tracker.snapshot(T0 + 2, source())
    assert snap.format == "nanochat" and snap.training is not None
    assert snap.status_line == "step 599/29000 · 466M tok/h"
    measured = [v for _, v in snap.history if v is not None]
    assert measured and measured[-1] == pytest.approx(snap.rate.tokens_per_hour, rel=0.01)
    to_json(snap)


def test_only_the_step_tracker_has_a_training_object() -> None:
    empty = source()
    assert StepTracker("nanochat").snapshot(T0, empty).training is not None
    assert IotaTracker().snapshot(T0, empty).training is None
    assert UnknownTracker().snapshot(T0, empty).training is None


def write_log(path: Path, lines: list[str], mtime: float) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(path, (mtime, mtime))
    return path


def chunks_of(lines: list[str], size: int = 7) -> Iterator[list[str]]:
    """What the tailer hands the backlog: chunks from the end backwards."""
    for end in range(len(lines), 0, -size):
        yield lines[max(0, end - size) : end]


def nanochat_lines(first: int, last: int, dt_ms: float = 4000.0) -> list[str]:
    return [
        f"step {s:05d}/29000 ({100 * s / 29000:.2f}%) | loss: 3.369286 | lrm: 1.00 | dt: {dt_ms:.2f}ms"
        f" | tok/sec: 129,454 | bf16_mfu: 62.46 | epoch: 1 pq: 0 rg: {s} | total time: 25.43m | eta: 1951.2m"
        for s in range(first, last + 1)
    ]


def test_cold_start_on_an_undated_log_is_measured_on_the_trainers_clock(tmp_path: Path) -> None:
    """The last line was written at the file's mtime; earlier ones step back by their dt."""
    log = write_log(tmp_path / "train.log", nanochat_lines(0, 383), mtime=T0)
    monitor = Monitor(log, clock=lambda: T0 + 30)
    monitor.backlog(chunks_of(nanochat_lines(0, 383)))
    assert monitor.last_event_at() == T0
    snap = monitor.snapshot(T0 + 2)
    assert snap.format == "nanochat"
    assert snap.status_line == "step 383/29000 · 466M tok/h"
    stale = monitor.snapshot(T0 + 3600)
    assert stale.state == "stalled" and stale.status_line == "step 383/29000 · stalled 1h00m"


def test_live_lines_are_timed_on_arrival(tmp_path: Path) -> None:
    lines = nanochat_lines(0, 383)
    now = [T0]
    log = write_log(tmp_path / "train.log", lines[:1], mtime=T0)
    monitor = Monitor(log, clock=lambda: now[0])
    monitor.backlog(chunks_of(lines[:1]))
    for line in lines[1:]:
        now[0] += 4.0
        monitor.lines([line])
    snap = monitor.snapshot(now[0] + 2)
    assert snap.status_line == "step 383/29000 · 466M tok/h"
    assert monitor.snapshot(now[0] + 91).state == "stalled"


def test_a_speedrun_shows_the_current_stage(tmp_path: Path) -> None:
    lines = (DATA / "sample-nanochat.log").read_text(encoding="utf-8").splitlines()
    log = write_log(tmp_path / "speedrun.log", lines, mtime=T0)
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(chunks_of(lines))
    snap = monitor.snapshot(T0)
    assert snap.training is not None and training_dict(snap.training)["stage"] == "rl"
    assert snap.status_line == "RL step 1/467 · …"


def test_auto_changes_its_mind_when_another_trainer_takes_over(tmp_path: Path) -> None:
    nanogpt = (DATA / "sample-nanogpt.log").read_text(encoding="utf-8").splitlines()
    hf = (DATA / "sample-hf-trainer.log").read_text(encoding="utf-8").splitlines()
    log = write_log(tmp_path / "run.log", nanogpt, mtime=T0)
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(chunks_of(nanogpt))
    assert monitor.snapshot(T0).format == "nanogpt"
    monitor.lines(hf[:16])
    snap = monitor.snapshot(T0)
    assert snap.format == "hf-trainer" and snap.step == 40
    forced = Monitor(log, format_name="nanogpt", clock=lambda: T0)
    forced.backlog(chunks_of(nanogpt))
    forced.lines(hf)
    assert forced.snapshot(T0).format == "nanogpt"


def once(log: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "--once", "--json", "--at", "end", "--log", str(log)],
        capture_output=True, text=True, timeout=30, cwd=ROOT, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize(
    ("name", "fmt", "status", "training"),
    [
        ("sample-nanochat.log", "nanochat", "RL step 1/467 · …", {"stage": "rl", "step": 1, "total_steps": 467}),
        # its lines jump from iter 200 to 990 (every 10 before): no time is measured across the iterations it leaves
        # out, and the 3 lines since (70.6 s by their printed times) are short of the 3-minute warm-up
        ("sample-nanogpt.log", "nanogpt", "step 1020 · …", {"step": 1020, "loss": 3.3665, "mfu": 35.78}),
        # its last logged loss is nan: a finished run that diverged reads diverged
        ("sample-hf-trainer.log", "hf-trainer", "step 750/750 · diverged", {"step": 750, "finished": True}),
        ("sample-torchtitan.log", "torchtitan", "step 100 · …", {"step": 100, "tokens_per_second_scope": "device"}),
        # 8 steps from 14:03:11.482 to a window end one usual step gap (47.1 s) before 14:16:33.089
        ("sample-sn38.log", "sn38", "outer 42 · step 2 · 38 steps/h", {"outer_step": 42, "step": 2}),
    ],
)
def test_the_composed_samples_end_to_end(
    tmp_path: Path, name: str, fmt: str, status: str, training: dict[str, object]
) -> None:
    data = once(DATA / name)
    assert data["format"] == fmt
    assert data["status_line"] == status
    got = data["training"]
    assert isinstance(got, dict)
    for key, value in training.items():
        assert got[key] == value, key


def test_bursts_of_buffered_lines_are_not_stalls() -> None:
    """print() to a file flushes 8 KiB at a time: 32 nanochat steps every 128 s."""
    tracker = StepTracker("nanochat")
    t = T0
    for burst in range(10):
        tracker.apply_all([base_step(s) for s in range(32 * burst, 32 * burst + 32)], t, arrival=t)
        t += 128.0
    last = t - 128.0
    assert tracker.snapshot(last + 120, source()).state == "training"
    assert tracker.snapshot(last + 250, source()).state == "training"
    assert tracker.snapshot(last + 260, source()).state == "stalled"


def test_bursts_of_buffered_lines_say_so_with_the_fix() -> None:
    """32 steps every 128 s (an 8 KiB buffer): the details name the buffering and python -u."""
    tracker = StepTracker("nanochat")
    t = T0
    for burst in range(4):
        tracker.apply_all([base_step(s) for s in range(32 * burst, 32 * burst + 32)], t, arrival=t)
        t += 128.0
    said = [line for line in tracker.snapshot(t - 100, source()).details if "block-buffered" in line]
    assert said == [("Step lines arrive in bursts (about 32 every 128 s): the trainer's output is block-buffered; "
                     "run it with python -u or PYTHONUNBUFFERED=1 to see each step when it is printed")]
    steady = StepTracker("nanochat")  # one step a line, as printed: nothing said
    for s in range(40):
        steady.apply_all([base_step(s)], T0 + 4 * s, arrival=T0 + 4 * s)
    assert not any("block-buffered" in line for line in steady.snapshot(T0 + 160, source()).details)


@pytest.mark.parametrize(("evaluated", "steps_per_hour", "shown"),
                         [(False, 169.1667, "step 21.28 s (measured as the lines arrived)"),
                          (True, 911.3924, "step 1.00 s (measured as the lines arrived, the evaluations' pauses left out)")])
def test_the_step_time_is_the_rate_s_own_after_a_stall_or_a_pause(evaluated: bool, steps_per_hour: float,
                                                                   shown: str) -> None:
    """10 steps a line, a line every 10 s (no step time printed), then 30 min without a step (a stall;
    or a 10-minute evaluation, announced by its result after the last step), then the same pace again.
    The step time shown is the one of the stretch the rate beside it measured, never a contradiction.
    By hand, the stall: the window is the 1,200 s to the last line; the line after the stall spreads
    its 10 steps over its 1,800 s, 1,150 s of them in the window (6.389 steps), and 5 lines of 10
    steps follow: 56.389 steps in 1,200 s = 169.17 steps/h, 21.28 s a step. The evaluation: 200
    steps since the first line in 790 s = 911.39 steps/h, the rate said to hold the evaluation's pause; the step's
    own time leaves the line after it out: 19 lines of 10 steps in 10 s each, 1.00 s a step."""
    progress = StepProgress()
    t = T0
    for step in range(10, 160, 10):
        progress.apply(TrainStep(None, "train", step), t)
        t += 10
    if evaluated:
        progress.apply(EvalResult(None, "val_loss", 2.1, 150), t)
    t += (600 if evaluated else 1800) - 10
    for step in range(160, 220, 10):
        progress.apply(TrainStep(None, "train", step), t)
        t += 10
    report = step_report(progress, t)
    assert report.training.steps_per_hour == pytest.approx(steps_per_hour, rel=1e-5)
    assert report.training.step_seconds == pytest.approx(1.0 if evaluated else 3600 / steps_per_hour, rel=1e-5)
    # (undated lines, timed by when they arrived: said so, no lines' times of their own)
    assert shown in report.details
