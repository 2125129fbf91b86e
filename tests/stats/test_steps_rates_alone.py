"""A log of the steps' rate alone, and a logging interval's time whose steps are not in the log.

Real: tests/data/real/generic-automl-issue59-tpu-estimator-global-step-sec-examples-sec-only-no-step-doubled.log
(google/automl#59) and generic-tapas-issue91-tpu-estimator-global-step-sec-examples-sec-only-printed-total-loss-tensor.log
(google-research/tapas#91): TPUEstimator's ``global_step/sec`` and ``examples/sec`` reports, no step line; and
generic-voxnet-readme-estimator-one-logging-hook-line-step-208-interval-then-final-step.log (LONG-9621/VoxNet's README):
one ``loss = …, step = 208 (7.759 sec)`` line, no step line before it. The composed events below carry the figures
computed by hand: a report of 0.5 steps a second is 2 s a step, 1800 steps an hour.
"""

from __future__ import annotations

from app.stats.events import LOGGING_INTERVAL_SECONDS, TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report

T0 = 1_700_000_000.0


def _report(step: int, rate: float) -> TrainStep:
    return TrainStep(T0 + step, "train", step, logged=True, unnumbered=True, step_seconds=1 / rate,
                     interval_average=True, step_seconds_note="from the global_step/sec printed",
                     figures=(("rate/global_step/sec", rate),))


def test_reports_of_the_steps_rate_say_no_step_and_time_a_step_by_that_rate() -> None:
    progress = StepProgress()
    for n in (1, 2, 3):
        progress.apply(_report(n, 0.5), T0 + n)
    snap = report(progress, T0 + 3)
    assert "Stage train · no step number printed (3 reports of the steps' rate)" in snap.details
    assert "step 2.00 s (from the global_step/sec printed)" in snap.details
    assert any(line.startswith("1.8k steps/h") for line in snap.details)
    assert snap.training is not None
    assert (snap.training.step, snap.training.total_steps, snap.training.eta_seconds) == (None, None, None)
    assert not any("logged record" in line for line in snap.details)


def test_a_logging_interval_s_time_is_shown_as_printed_until_a_step_is_timed() -> None:
    progress = StepProgress()
    progress.apply(TrainStep(T0, "train", 31601, loss=1.8717, figures=((LOGGING_INTERVAL_SECONDS, 182.2),)), T0)
    details = report(progress, T0).details
    assert "182.2 s per logging interval (as printed; the steps it spans are not in the log)" in details
    # the next line spans 100 steps in 180 s: 1.8 s a step, and the first interval's time is no figure of the run's now
    progress.apply(TrainStep(T0 + 180, "train", 31701, loss=1.8, step_seconds=1.8), T0 + 180)
    snap = report(progress, T0 + 180)
    assert not any("logging interval" in line for line in snap.details)
    assert snap.training is not None and LOGGING_INTERVAL_SECONDS not in dict(snap.training.figures or ())
