"""Every line of text that names the run's count says it in the count's own unit (stage.count_unit): an epoch where each
line is one, the log's own word where its count is no training step (an iteration, an episode), else a step — the
stall and pause lines, the lines read, a divergence's position and an evaluation's alike.

Real: tests/data/real/generic-fastai-tsai-issue639-notebook-master-bar-4-of-25-tab-table-rows-0-to-3-nan.log
(timeseriesAI/tsai#639, fastai's table a row an epoch, every loss nan) and yolo-seliah-thesis-outputs-epochs-26-32-of-100-
stopping-training-early-patience-5.log (Seliah/thesis outputs.md, YOLOv8's epochs 26-32, their bars cut before any time).
Composed: lines a minute apart counted in iterations and in epochs; the answers worked out here by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.stats.events import EvalResult, TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report
from app.stats.steps.stage import count_unit
from tests.coldread import read_cold
from tests.reallogs import body

T0 = 1_700_000_000.0


@pytest.mark.parametrize(("counter", "epochs", "word"), [
    (None, False, "step"),
    ("iteration", False, "iteration"),
    ("episode", False, "episode"),
    ("sample", False, "sample"),
    (None, True, "epoch"),
    ("iteration", True, "epoch"),  # (a line an epoch: what the lines count is epochs)
])
def test_the_unit_word_of_a_count(counter: str | None, epochs: bool, word: str) -> None:
    assert count_unit(counter, epochs) == word


def iterations_a_minute_apart(progress: StepProgress, **kw: object) -> float:
    """Iterations 1..5, one a minute from T0; the last one's time."""
    for k in range(1, 6):
        progress.apply(TrainStep(T0 + 60 * (k - 1), "train", k, loss=1.0, counter="iteration", **kw), T0 + 60 * (k - 1))  # type: ignore[arg-type]
    return T0 + 240


def test_a_stall_of_a_count_of_iterations_says_iterations() -> None:
    """A minute between lines: the limit is max(6 × 60 s, 90 s) = 6 min; 6 min 40 s after iteration 5, stalled."""
    progress = StepProgress()
    last = iterations_a_minute_apart(progress)
    details = report(progress, last + 400).details
    assert "Stalled: no iteration for 6 min 40 s (limit 6 min)" in details
    assert not any("step" in line for line in details if line.startswith("Stalled"))


def test_a_pause_for_an_evaluation_says_since_the_last_iteration() -> None:
    """An evaluation printed 30 s after iteration 5, read 30 min after it: paused, since the last iteration."""
    progress = StepProgress()
    last = iterations_a_minute_apart(progress)
    progress.apply(EvalResult(None, "val_loss", 0.9, 5), last + 30)
    details = report(progress, last + 1800).details
    assert "Paused: evaluation (30 min since the last iteration)" in details


def test_a_stall_of_epoch_lines_says_epochs() -> None:
    """Epochs 3..7 of 20 a minute apart, each line its epoch: 7 min after epoch 7 (limit 6 min), no epoch for 7 min."""
    progress = StepProgress()
    for k in range(5):
        progress.apply(TrainStep(T0 + 60 * k, "train", 3 + k, total_steps=20, loss=1.0, epoch=3.0 + k), T0 + 60 * k)
    details = report(progress, T0 + 240 + 420).details
    assert "Stalled: no epoch for 7 min (limit 6 min)" in details


def test_fastai_s_table_says_its_nan_since_an_epoch(tmp_path: Path) -> None:
    """tsai #639: four table rows (epochs 0-3, said 1-4 as the master bar counts them), every loss nan from the first:
    the loss is not a number since epoch 1, the validation's at epoch 4 — no "step" for what the rows count."""
    details = read_cold(tmp_path, body("generic-fastai-tsai-issue639-notebook-master-bar-4-of-25-tab-table-rows-0-to-3-nan.log"))[
        "details"]
    assert "Loss not a number since epoch 1" in details
    assert "val_loss is nan at epoch 4, not a number: the run has diverged" in details
    assert not any(" step " in f" {line} " for line in details if not line.startswith("generic:"))  # (what it read)


def test_yolo_s_epoch_rows_with_no_time_are_epoch_lines(tmp_path: Path) -> None:
    """Seliah's YOLOv8 epochs 26-32: seven epoch lines, none with a time (the bars cut before it)."""
    details = read_cold(tmp_path, body("yolo-seliah-thesis-outputs-epochs-26-32-of-100-stopping-training-early-patience-5.log"))[
        "details"]
    assert "no rate: no duration or time read for its 7 epoch lines" in details
