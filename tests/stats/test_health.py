"""Crashed and broken runs on an explicit clock: when each state begins, and what ends it."""

from __future__ import annotations

import math

import pytest

from app.snapshot import training_dict
from app.stats.events import CollabProgress, RunCrashed, StageStart, StepFigures, StepSkipped, TrainStep
from app.stats.steps.health import (
    FLOOR_SKIPPED_STEPS,
    NONFINITE_GRAD_LOGS,
    NONFINITE_GRAD_STEPS,
    SKIPPED_STEPS,
    ZERO_LOSS_LOGS,
    RunHealth,
)
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report as step_report
from tests.stats.test_steps import T0, run_steps

NAN = math.nan


def hf_log(n: int, **kw: object) -> TrainStep:
    """One HF dict without a bar: a logged step."""
    fields: dict[str, object] = {"at": None, "stage": "train", "step": n, "loss": 2.0, "lr": 1e-4, "grad_norm": 0.8,
                                 "epoch": n / 100, "logged": True}
    fields.update(kw)
    return TrainStep(**fields)  # type: ignore[arg-type]


def test_a_crash_is_the_state_at_once_with_its_line() -> None:
    progress = StepProgress()
    t = run_steps(progress, 1, 10, T0)
    progress.apply(RunCrashed(None, "torch.OutOfMemoryError: CUDA out of memory."), t + 5)
    report = step_report(progress, t + 6)
    assert (report.state, report.status_line) == ("crashed", "step 10/29000 · crashed")
    assert report.details[0] == "Crashed: torch.OutOfMemoryError: CUDA out of memory."
    assert training_dict(report.training)["crash"] == {"error": "torch.OutOfMemoryError: CUDA out of memory.", "at": t + 5}
    assert report.state_since == t + 5
    assert [(e.kind, e.text) for e in report.events] == [
        ("crashed", "crashed at step 10: torch.OutOfMemoryError: CUDA out of memory.")
    ]


def test_a_crash_outlasts_any_stall_limit_and_is_never_done() -> None:
    progress = StepProgress()
    t = run_steps(progress, 28990, 29000, T0)  # the last planned step
    progress.apply(RunCrashed(None, "Killed"), t + 1)
    assert step_report(progress, t + 86400).state == "crashed"


def test_a_later_training_step_clears_the_crash() -> None:
    """The run was started again in the same file (from a checkpoint: the step goes back)."""
    progress = StepProgress()
    t = run_steps(progress, 1, 10, T0)
    progress.apply(RunCrashed(None, "Killed"), t + 1)
    progress.apply(TrainStep(None, "base", 10, total_steps=29000), t + 2)  # the bar redrawn: still dead
    assert step_report(progress, t + 3).state == "crashed"
    progress.apply(TrainStep(None, "base", 6, total_steps=29000, step_seconds=4.0), t + 60)
    report = step_report(progress, t + 61)
    assert report.state != "crashed" and training_dict(report.training)["crash"] is None
    assert [e.kind for e in report.events] == ["restart", "crashed"]


def test_a_new_stage_after_a_crash_is_a_restart() -> None:
    progress = StepProgress()
    t = run_steps(progress, 1, 5, T0)
    progress.apply(RunCrashed(None, "KeyboardInterrupt"), t + 1)
    progress.apply(StageStart(None), t + 30)
    assert step_report(progress, t + 31).state != "crashed"


def test_a_crash_before_the_first_step() -> None:
    progress = StepProgress()
    progress.apply(RunCrashed(None, "RuntimeError: CUDA driver error: out of memory"), T0)
    report = step_report(progress, T0 + 1)
    assert (report.state, report.status_line, report.state_since) == ("crashed", "no step yet · crashed", T0)


def test_nan_grad_norms_several_logs_in_a_row_are_a_broken_run() -> None:
    health = RunHealth()
    for n in range(1, NONFINITE_GRAD_LOGS):
        health.apply(hf_log(n, grad_norm=NAN), T0 + n)
    assert health.broken() is None  # one or two can be fp16's own overflow handling
    health.apply(hf_log(NONFINITE_GRAD_LOGS, grad_norm=NAN), T0 + 10)
    broken = health.broken()
    assert broken is not None and broken.since == T0 + 1
    assert broken.sentence.startswith(f"grad norm is nan at {NONFINITE_GRAD_LOGS} logs in a row: the run is broken")
    health.apply(hf_log(9, grad_norm=0.5), T0 + 20)
    assert health.broken() is None


def test_a_few_steps_of_overflow_while_the_scaler_warms_up_are_not_broken() -> None:
    """Logging every step: the first steps of an fp16 run overflow until the scale fits."""
    health = RunHealth()
    for n in range(1, NONFINITE_GRAD_STEPS):
        health.apply(TrainStep(None, "train", n, loss=10.0, grad_norm=math.inf), T0 + n)
    assert health.broken() is None
    health.apply(TrainStep(None, "train", NONFINITE_GRAD_STEPS, loss=10.0, grad_norm=math.inf), T0 + 60)
    assert health.broken() is not None  # still at it: no warm-up takes this long


def test_inf_grad_norms_say_inf() -> None:
    health = RunHealth()
    for n in range(NONFINITE_GRAD_LOGS):
        health.apply(StepFigures(None, grad_norm=math.inf), T0 + n)
    broken = health.broken()
    assert broken is not None and broken.sentence.startswith("grad norm is inf at 3 logs")


@pytest.mark.parametrize(
    ("figures", "broken"),
    [
        ({"grad_norm": 0.0}, True),  # nothing flows back
        ({"grad_norm": NAN}, True),
        ({"grad_norm": None, "lr": 1e-4}, True),  # no grad norm, and the scheduler never steps
        ({"grad_norm": 0.0866}, False),  # TRL GRPO: loss 0.0 is beta x KL rounded, the grads are real
        ({"grad_norm": None, "lr": None}, False),  # nothing else to judge by: not called broken
    ],
)
def test_a_zero_loss_is_broken_only_when_nothing_else_moves(figures: dict[str, object], broken: bool) -> None:
    health = RunHealth()
    for n in range(ZERO_LOSS_LOGS + 1):
        health.apply(hf_log(n, loss=0.0, **figures), T0 + n)
    assert (health.broken() is not None) is broken


def test_a_zero_loss_with_a_moving_learning_rate_is_not_broken() -> None:
    health = RunHealth()
    for n in range(ZERO_LOSS_LOGS + 2):
        health.apply(hf_log(n, loss=0.0, grad_norm=None, lr=1e-4 - n * 1e-6), T0 + n)
    assert health.broken() is None


def skip(scale: float | None) -> StepSkipped:
    return StepSkipped(None, scale)


def test_fp16_skips_in_a_row_past_the_warm_up_are_a_broken_run() -> None:
    """Chinese-LLaMA-Alpaca #534: every step overflows, the scale halving from 64."""
    health = RunHealth()
    scale = 64.0
    for n in range(377, 377 + SKIPPED_STEPS):
        health.apply(TrainStep(None, "train", n, total_steps=2724), T0 + n)
        scale /= 2
        health.apply(skip(scale), T0 + n)
    broken = health.broken()
    assert broken is not None and broken.sentence == (
        "fp16 overflow at 5 steps in a row, every step skipped, loss scale down to 2: the run is broken")


def test_a_step_that_goes_through_resets_the_skips() -> None:
    health = RunHealth()
    for n in range(1, 10):
        health.apply(TrainStep(None, "train", n), T0 + n)
        if n % 2:
            health.apply(skip(1024.0), T0 + n)
    assert health.broken() is None
    # every other step skipped once steps went through: a warning, not a broken run
    assert health.skip_line() == ("Warning: fp16 overflow at 4 of the last 10 steps, past the warm-up (loss scale"
                                  " 1024): the gradients blow up; 5 in a row make a broken run")


def test_an_overflow_now_and_then_past_the_warm_up_is_counted_without_a_warning() -> None:
    """The scaler tries a doubled scale after its window of clean steps; the next overflow halves it back."""
    health = RunHealth()
    for n in range(5000, 5030):
        health.apply(TrainStep(None, "train", n), T0 + n)
        if n in (5005, 5020):
            health.apply(skip(131072.0), T0 + n)
    assert health.broken() is None
    assert health.skip_line() == "fp16 overflow: 2 steps skipped (loss scale 131072)"


def test_overflows_at_a_large_scale_after_a_resume_are_no_warm_up() -> None:
    """bigscience tr8b-104B: resumed at 17060, two steps go through, then 6 of 7 overflow from 2^20 down."""
    health = RunHealth()
    scales = {17062: 1048576.0, 17063: 524288.0, 17064: 262144.0, 17065: 131072.0, 17067: 65536.0, 17068: 32768.0}
    for n in range(17060, 17069):
        if n in scales:
            health.apply(skip(scales[n]), T0 + n)  # DeepSpeed's record comes before the iteration it skipped
        health.apply(TrainStep(None, "train", n, total_steps=159576), T0 + n)
    assert health.broken() is None  # 17066 went through: not five in a row
    assert health.skip_line() == ("Warning: fp16 overflow at 6 of the last 10 steps, past the warm-up (loss scale"
                                  " 1048576 → 32768): the gradients blow up; 5 in a row make a broken run")


def test_overflows_right_after_a_resume_are_warned_of_before_they_make_a_broken_run() -> None:
    """Resumed at 17000 (its bar redrawn there), then every step overflows from 2^19 down: not the
    warm-up (far into the run), so the third within 10 steps is the warning, as once a step went
    through, and the fifth in a row the broken run; one step through ends the streak."""
    health = RunHealth()
    health.apply(TrainStep(None, "train", 17000, total_steps=20000), T0)
    lines = []
    for i, n in enumerate(range(17001, 17006)):
        health.apply(skip(2.0 ** (19 - i)), T0 + n)  # the record comes before the step it skipped
        lines.append(health.skip_line())
        health.apply(TrainStep(None, "train", n, total_steps=20000), T0 + n)
    assert lines[:3] == ["fp16 overflow: 1 steps skipped (loss scale 524288)",
                         "fp16 overflow: 2 steps skipped (loss scale 262144)",
                         ("Warning: fp16 overflow at 3 of the last 10 steps, past the warm-up (loss scale 524288 → 131072):"
                          " the gradients blow up; 5 in a row make a broken run")]
    broken = health.broken()
    assert lines[4] is None and broken is not None
    assert broken.sentence.startswith("fp16 overflow at 5 steps in a row, every step skipped, loss scale down to 32768")


@pytest.mark.parametrize(("first", "warm_up"), [(6, True), (20000, False)])
def test_the_warm_up_is_the_start_of_a_run(first: int, warm_up: bool) -> None:
    """Overflows from 2^27 before any step went through: the warm-up at step 6 (HF #9996), not at 20000."""
    health = RunHealth()
    for i, n in enumerate(range(first, first + 3)):
        health.apply(TrainStep(None, "train", n), T0 + n)
        health.apply(skip(2.0 ** (26 - i)), T0 + n)
    assert (health.warmup_skips == 3) is warm_up
    line = health.skip_line()
    assert line is not None and line.endswith(", as usual") is warm_up


def test_overflows_at_the_scaler_s_floor_are_a_broken_run_sooner() -> None:
    """transformers #14531: ``Attempted loss scale: 1, reducing to 1`` at every step, a bar between."""
    health = RunHealth()
    for n in range(98, 98 + FLOOR_SKIPPED_STEPS):
        health.apply(skip(1.0), T0 + n)
        health.apply(TrainStep(None, "train", n, total_steps=24128), T0 + n)
    broken = health.broken()
    assert broken is not None and broken.sentence == (
        "fp16 overflow at 3 steps in a row, every step skipped, with the loss scale at its floor (1):"
        " the run is broken")
    assert broken.since == T0 + 98 and health.skip_line() is None


@pytest.mark.parametrize(("scales", "broken"), [
    ([128.0, 128.0, 128.0, 128.0], True),  # a min_loss_scale of 128: not lowered at three overflows running
    ([256.0, 128.0, 128.0, 128.0], False),  # lowered to 128, then kept twice: one more may fit
    ([1.0, 1.0], False),
    ([2048.0, 2048.0, 1024.0, 512.0], False),  # hysteresis keeps the scale once, then halves it
    ([0.5, 0.25, 0.125], True),  # below 1: gradients overflow fp16 unscaled
])  # fmt: skip
def test_the_floor_is_a_scale_of_one_or_one_no_longer_lowered(scales: list[float], broken: bool) -> None:
    health = RunHealth()
    for i, scale in enumerate(scales):
        health.apply(skip(scale), T0 + i)
    assert (health.broken() is not None) is broken


def test_a_step_that_goes_through_ends_the_streak_at_the_floor() -> None:
    health = RunHealth()
    health.apply(TrainStep(None, "train", 1), T0)
    health.apply(skip(1.0), T0 + 1)
    health.apply(skip(1.0), T0 + 2)
    health.apply(TrainStep(None, "train", 2), T0 + 3)  # the step the skips were on
    health.apply(TrainStep(None, "train", 3), T0 + 4)  # a step that went through
    health.apply(skip(1.0), T0 + 5)
    assert health.broken() is None
    assert health.skip_line() == "fp16 overflow: 3 steps skipped (loss scale 1)"


def test_the_loss_scale_warm_up_is_not_broken() -> None:
    """CogVideo #233: overflows while the scale comes down from 2^32 are the scaler finding its level."""
    health = RunHealth()
    for power in range(31, 25, -1):
        health.apply(skip(2.0**power), T0 + power)
    assert health.broken() is None
    assert health.skip_line() == "fp16 loss-scale warm-up: 6 steps skipped on overflow (loss scale 67108864), as usual"


def test_a_broken_run_is_a_warning_with_its_sentence() -> None:
    progress = StepProgress()
    for n in range(1, 5):
        progress.apply(hf_log(n, loss=4.5, grad_norm=NAN, lr=1e-4, epoch=0.05), T0 + 60 * n)
    report = step_report(progress, T0 + 300)
    assert (report.state, report.status_line) == ("broken", "epoch 0.05 · broken")
    assert report.details[0].startswith("grad norm is nan at 4 logs in a row")
    assert training_dict(report.training)["grad_norm"] == "nan" and report.state_since == T0 + 60


def test_a_collaboration_says_its_epoch_peers_and_eta() -> None:
    """SN38 / hivemind: the progress tracker's line, before any step of the peer's own."""
    progress = StepProgress()
    progress.apply(CollabProgress(None, epoch=15040, samples=64, peers=4, eta_seconds=16.79), T0)
    report = step_report(progress, T0 + 1)
    assert report.status_line == "epoch #15040 · 4 peers"
    assert "Collaboration: epoch #15040 · 64 samples from 4 peers · next epoch in 16.79 s" in report.details
    assert training_dict(report.training)["collaboration"] == {"epoch": 15040, "samples": 64, "peers": 4, "eta_seconds": 16.79}
