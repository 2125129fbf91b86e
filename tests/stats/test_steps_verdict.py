"""The step verdict's precedence, one pair of competing states at a time, on composed nanochat steps.

crashed > diverged > broken > done > restarting > stalled > finishing > training > measuring: each
case holds both states' causes at once, and the higher one is the state, with its own start.
"""

from __future__ import annotations

import math

from app.stats.events import RunCrashed, StageStart, StepFigures
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report as step_report
from app.stats.steps.verdict import Line, Status, decide
from tests.stats.test_steps import T0, run_steps


def verdict_of(progress: StepProgress, now: float) -> tuple[str, Status, float | None, frozenset[Line]]:
    stage = progress.stage
    assert stage is not None
    health = progress.health
    v = decide(stage, now, progress.arrival_gaps, progress.restarting, progress.restart_at, health.crash,
               health.broken(), health.warning() is not None)
    return v.state, v.status, v.since, v.shows


def test_a_crash_outranks_a_divergence() -> None:
    progress = StepProgress()
    t = run_steps(progress, 1, 10, T0, loss=float("nan"))  # diverged from step 1, at T0
    progress.apply(RunCrashed(None, "RuntimeError: CUDA error"), t + 5)
    state, status, since, shows = verdict_of(progress, t + 3600)
    assert (state, status, since) == ("crashed", Status.CRASHED, t + 5)
    assert Line.CRASH in shows and Line.ETA not in shows


def test_a_divergence_outranks_a_broken_run() -> None:
    """nan loss and nan grad norm at every log over 10 steps: both hold; the loss is the plainer news."""
    progress = StepProgress()
    run_steps(progress, 1, 10, T0, loss=float("nan"), grad_norm=float("nan"))
    assert progress.health.broken() is not None
    state, status, since, shows = verdict_of(progress, T0 + 40)
    assert (state, status, since) == ("diverged", Status.DIVERGED, T0)  # the first nan loss, at step 1
    assert Line.BROKEN not in shows and Line.ETA not in shows
    report = step_report(progress, T0 + 40)
    assert report.training.broken is not None  # the figure still says it; the state is the divergence


def test_a_broken_run_outranks_its_end() -> None:
    """It reached its last step with a loss of 0 and a grad norm of 0 at every log: it learned nothing."""
    progress = StepProgress()
    run_steps(progress, 1, 20, T0, total=20, loss=0.0, grad_norm=0.0)
    state, status, since, shows = verdict_of(progress, T0 + 80)
    assert (state, status, since) == ("broken", Status.BROKEN, T0)  # since the first of the zero-loss logs
    assert Line.BROKEN in shows and Line.FINISHED_LAST_STEP in shows


def test_an_end_outranks_a_stall_however_late() -> None:
    progress = StepProgress()
    end = run_steps(progress, 1, 100, T0, total=100)
    for later in (0.0, 2 * 3600.0, 86400.0):
        state, status, since, shows = verdict_of(progress, end + later)
        assert (state, status, since) == ("done", Status.DONE, end)
        assert Line.STALLED not in shows and Line.ETA not in shows


def test_a_restart_outranks_a_stall() -> None:
    progress = StepProgress()
    end = run_steps(progress, 1, 100, T0)
    progress.apply(StageStart(None, "base"), end + 10)
    state, status, since, _ = verdict_of(progress, end + 3600)  # far past 90 s without a step
    assert (state, status, since) == ("working", Status.RESTARTING, end + 10)


def test_a_stall_counts_from_the_last_step() -> None:
    """4 s a step: the limit is max(6 × 4 s, 90 s) = 90 s; at 91 s it is stalled since the last step."""
    progress = StepProgress()
    end = run_steps(progress, 1, 100, T0)
    assert verdict_of(progress, end + 90)[0] == "training"
    state, status, since, shows = verdict_of(progress, end + 91)
    assert (state, status, since) == ("stalled", Status.STALLED, end)
    assert Line.STALLED in shows


def test_a_crash_takes_away_what_a_dead_run_cannot_have() -> None:
    """Measured at 900 steps/h before it died: the rate is said as it stood, with no ETA after it."""
    progress = StepProgress()
    end = run_steps(progress, 1, 100, T0)  # 100 steps 4 s apart: 396 s, warmed up
    _, _, _, alive = verdict_of(progress, end)
    assert {Line.RATE_TOKENS, Line.ETA} <= alive
    progress.apply(RunCrashed(None, "torch.OutOfMemoryError"), end + 1)
    state, _, _, shows = verdict_of(progress, end + 2 * 3600)
    assert state == "crashed"
    assert {Line.CRASH, Line.RATE_TOKENS, Line.BEFORE_THE_CRASH, Line.STAGE} <= shows
    assert not shows & {Line.ETA, Line.STALLED, Line.WARMUP, Line.PAUSED}
    details = step_report(progress, end + 2 * 3600).details
    assert details[0] == "Crashed: torch.OutOfMemoryError"
    assert details[1].startswith("Before the crash: ") and not any(line.startswith("ETA") for line in details)


def test_a_grad_norm_that_is_not_a_number_once_is_a_note_under_the_rate() -> None:
    progress = StepProgress()
    end = run_steps(progress, 1, 100, T0)
    progress.apply(StepFigures(None, grad_norm=math.inf), end)
    _, _, _, shows = verdict_of(progress, end + 1)
    assert Line.GRAD_WARNING in shows
    details = step_report(progress, end + 1).details
    assert details[1].startswith("Warning: grad norm is inf (once so far")  # under the rate line, the lead
