"""An epoch's own time printed in words beside its epoch (epoch_time.py): that epoch's, shown as printed, never a step's
nor the run's.

Real: tests/data/real/generic-nnunet-issue1084-epochs-9-to-11-this-epoch-took-train-validation-loss-dice.log
(MIC-DKFZ/nnUNet#1084, nnU-Net v1's ``This epoch took 75.091225 s`` right after epoch 10's block) and
generic-nnformer-issue102-epoch-0-this-epoch-took-then-epoch-1-train-validation-loss.log (282857341/nnFormer#102, the
same trainer's ``This epoch took 110.988639 s`` under nnFormer). Composed: the copies of
the PyTorch transfer-learning tutorial that time each epoch (``Epoch 1 complete in 1m 2s``: 62 s) and TensorFlow's DCGAN
tutorial's ``Time for epoch 1 is 12.5 sec`` beside batch records; every answer below worked out by hand from the lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.epoch_time import epoch_time
from app.ingest.formats.run_time import run_seconds
from tests.coldread import read_cold
from tests.reallogs import body


@pytest.mark.parametrize(("message", "expected"), [
    ("Epoch 3 complete in 1m 2s", (3, 62.0)),  # 60 + 2
    ("Epoch 5 finished in 00:01:02", (5, 62.0)),
    ("Epoch 2 took 61.3 s", (2, 61.3)),
    ("Epoch [2/10] took 12.0s", (2, 12.0)),
    ("Time for epoch 4 is 12.5 sec", (4, 12.5)),
    ("Time for epoch 1 is 14.746528148651123 sec", (1, 14.746528148651123)),  # (time.time()'s difference, unrounded)
    ("Training time for epoch 1 is: 3.46 seconds", (1, 3.46)),
    ("Epoch: 01 | Epoch Time: 0m 53s", (1, 53.0)),
    ("src.models.train_eval - INFO - Training Epoch 1 took 7.9 minutes.", (1, 474.0)),  # 7.9 × 60
    ("2022-06-20 07:58:58.090205: This epoch took 75.091225 s", (None, 75.091225)),  # (the epoch just recorded)
])
def test_an_epoch_s_time_in_words_is_that_epoch_s(message: str, expected: tuple[int | None, float]) -> None:
    said = epoch_time(message)
    assert said is not None
    assert said[0] == expected[0]
    assert said[1] == pytest.approx(expected[1])
    assert run_seconds(message) is None  # (never the run's)


@pytest.mark.parametrize("message", [
    "Training complete in 24m 31s",  # (the run's: run_time.py)
    "src.models.train_eval - INFO - Evaluating Epoch 1 took 407.5231990814209 seconds.",  # (the evaluation's, no epoch's)
    "Epoch 3 complete in 1m 2s, loss 0.3",  # (a record with figures: the grammar's)
    "Epoch 1 took 37.49 seconds to iterate over 10003 objects",  # (a loader's pass, said with what it did)
    "Epoch 3 complete",  # (no time)
    "Total Time: 94.78",  # (no unit, no epoch)
])
def test_no_epoch_s_time_where_the_line_says_another(message: str) -> None:
    assert epoch_time(message) is None


def test_nnunet_s_this_epoch_took_is_epoch_10_s_as_epoch_11_trains(tmp_path: Path) -> None:
    """Epoch 10's block ends ``This epoch took 75.091225 s`` (1 min 15 s), then epoch 11 trains: epoch 10's time as
    printed, said whose, beside epoch 11's records; no step's time."""
    details = read_cold(tmp_path, body("generic-nnunet-issue1084-epochs-9-to-11-this-epoch-took-train-validation-loss-"
                                       "dice.log"), dated=True)["details"]
    assert any(line.endswith("epoch 10 took 1 min 15 s (as printed)") for line in details)
    assert not any("step 1 min" in line or "75.09" in line for line in details)


def test_nnformer_s_epoch_0_time_is_epoch_0_s_as_epoch_1_trains(tmp_path: Path) -> None:
    """Epoch 0's ``This epoch took 110.988639 s`` (1 min 51 s), then epoch 1's train and validation loss."""
    details = read_cold(tmp_path, body("generic-nnformer-issue102-epoch-0-this-epoch-took-then-epoch-1-train-validation-"
                                       "loss.log"), dated=True)["details"]
    assert any(line.endswith("epoch 0 took 1 min 51 s (as printed)") for line in details)


def test_an_epoch_complete_in_beside_its_batches_is_that_epoch_s(tmp_path: Path) -> None:
    """Epoch 1's 100 batches, then ``Epoch 1 complete in 1m 2s`` (62 s), then epoch 2's 50th batch: epoch 1 took 62 s as
    printed, said whose; the run is at epoch 2, batch 50/100."""
    lines = ["Epoch: 1, Batch: 50/100, Loss: 2.5", "Epoch: 1, Batch: 100/100, Loss: 2.1", "Epoch 1 complete in 1m 2s",
             "Epoch: 2, Batch: 50/100, Loss: 2.0"]
    data = read_cold(tmp_path, lines)
    assert any(line.endswith("epoch 1 took 1 min 2 s (as printed)") for line in data["details"])
    assert not any("run" in line and "1 min 2 s" in line for line in data["details"])


def test_dcgan_s_time_for_epoch_beside_its_batches_is_that_epoch_s(tmp_path: Path) -> None:
    """``Time for epoch 1 is 12.5 sec`` after epoch 1's records: 12.50 s, epoch 1's, while epoch 2 trains."""
    lines = ["epoch 1, step 50, loss 2.5000", "epoch 1, step 100, loss 2.1000", "Time for epoch 1 is 12.5 sec",
             "epoch 2, step 50, loss 2.0000"]
    details = read_cold(tmp_path, lines)["details"]
    assert any(line.endswith("epoch 1 took 12.50 s (as printed)") for line in details)
