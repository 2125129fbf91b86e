"""A loss that is not a number is dated by its epoch where the log's count is the epoch's batches or samples.

A Keras bar's ``401/401`` (batches) or Keras 1's ``9595/9595`` (samples) starts again each epoch: "since step 401"
would name no step of the run. A log whose count is the run's step keeps "since step N" (test_steps_states.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor

DATA = Path(__file__).resolve().parents[1] / "data" / "real"
T0 = 1_800_000_000.0

# Keras 1 prints samples, not batches; epoch 3's bars turn nan at 1280 of 6000 samples (composed after keras#2937's lines).
KERAS1_SAMPLES = [
    "Epoch 1/5",
    "6000/6000 [==============================] - 3s - loss: 0.6900 - acc: 0.5500",
    "Epoch 2/5",
    "6000/6000 [==============================] - 3s - loss: 0.6500 - acc: 0.6000",
    "Epoch 3/5",
    "1280/6000 [=====>........................] - ETA: 2s - loss: nan - acc: 0.3000",
    "2560/6000 [===========>..................] - ETA: 1s - loss: nan - acc: 0.1500",
]


def cold(log: Path) -> Monitor:
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    return monitor


def copied(tmp_path: Path, name: str) -> Path:
    """A copy of the real log ``name``: dating it must leave the data file's own time alone."""
    return Path(shutil.copy2(DATA / name, tmp_path / name))


def test_a_real_keras_fit_nan_from_its_first_epoch_is_dated_by_the_epoch(tmp_path: Path) -> None:
    name = "generic-keras-faultnet-issue1-epochs-1-to-8-of-1000-loss-nan-from-epoch-1.log"
    monitor = cold(copied(tmp_path, name))
    snapshot = monitor.snapshot(T0)
    assert (snapshot.status_line, snapshot.state) == ("epoch 8/1000 · 401/401 in the epoch · diverged", "diverged")
    assert "Loss not a number since epoch 1" in snapshot.details
    assert not any("since step" in line for line in snapshot.details)


def test_keras1_sample_bars_turning_nan_mid_epoch_are_dated_by_that_epoch(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("\n".join(KERAS1_SAMPLES) + "\n", encoding="utf-8")
    snapshot = cold(log).snapshot(T0)
    assert (snapshot.status_line, snapshot.state) == ("epoch 3/5 · 2560/6000 in the epoch · diverged", "diverged")
    assert "Loss not a number since epoch 3" in snapshot.details
    assert not any("since step" in line for line in snapshot.details)


@pytest.mark.parametrize(("name", "said"), [
    # mmdetection's ``Epoch [6][3250/3681]``: the loss 0.6 -> 225192 at iteration 3250 of epoch 6
    ("broken-generic-mmdetection-issue1742-loss-explodes.log", "Loss exploded since epoch 6: 1000× or more its early 0.8135"),
    # Lightning's ``Epoch 0:  50%|…| 1007/2015 […, loss=nan``: the first bar kept is epoch 0's, at batch 1007
    ("generic-lightning-autom3l-file-readme-result-loss-nan-max-epochs-done.log", "Loss not a number since epoch 0"),
])  # fmt: skip
def test_real_in_epoch_counts_date_their_divergence_by_the_epoch(tmp_path: Path, name: str, said: str) -> None:
    details = cold(copied(tmp_path, name)).snapshot(T0).details
    assert said in details
    assert not any("since step" in line for line in details)
