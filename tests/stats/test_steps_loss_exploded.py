"""A loss that grows by orders of magnitude has diverged while it is still a number."""

from __future__ import annotations

from app.stats.events import TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report as step_report
from app.stats.steps.stage import EXPLODED_FACTOR

T0 = 1_800_000_000.0


def run(losses: list[float]) -> StepProgress:
    progress = StepProgress()
    for i, loss in enumerate(losses):
        progress.apply(TrainStep(None, "train", (i + 1) * 10, step_seconds=1.0, loss=loss), T0 + 10 * i)
    return progress


def test_the_factor_is_a_thousand() -> None:
    assert EXPLODED_FACTOR == 1000


def test_a_loss_a_thousand_times_its_early_median_is_diverged() -> None:
    """Early losses 2.1, 2.0, 1.9 (median 2.0); 2500 at step 40 is 1250× that: diverged since step 40."""
    progress = run([2.1, 2.0, 1.9, 2500.0])
    report = step_report(progress, T0 + 30)
    assert report.state == "diverged" and report.state_since == T0 + 30
    assert "Loss exploded since step 40: 1000× or more its early 2" in report.details


def test_a_loss_below_the_factor_is_not_diverged() -> None:
    """1900 is 950× the early median 2.0: high, but under the rule."""
    assert step_report(run([2.1, 2.0, 1.9, 1900.0]), T0 + 30).state != "diverged"


def test_a_falling_loss_from_a_huge_start_is_healthy() -> None:
    """A regression loss starting at 1e6 and falling: nothing grew."""
    assert step_report(run([1e6, 5e5, 1e4, 50.0, 2.0, 1.0]), T0 + 50).state != "diverged"


def test_the_loss_coming_back_ends_the_divergence() -> None:
    """The explosion is not counted into the baseline: back at 2.2 the run is healthy again."""
    progress = run([2.1, 2.0, 1.9, 5000.0, 2.2])
    assert step_report(progress, T0 + 40).state != "diverged"
