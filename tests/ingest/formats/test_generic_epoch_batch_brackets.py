"""An epoch of its total, then a batch of the epoch's, each in brackets behind an ``Epoch:`` label (DCGAN-tensorflow's
``Epoch: [ 5/200] [   0/   4] time: 235.7465, d_loss: …, g_loss: …``), read as the unlabelled pairs are (DCGAN's PyTorch
``[2/5][100/1583]``): the epoch of the run's epochs, the batch in it; a GAN's two losses as parts, none the one loss.

Real: carpedm20/DCGAN-tensorflow issue #276 and ROCmSoftwarePlatform/tensorflow issue #48 (tests/data/real, their
headers). Composed: lines whose position is worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold
from tests.reallogs import body


def test_dcgan_tensorflow_s_epoch_and_batch(tmp_path: Path) -> None:
    data = read_cold(tmp_path, body("generic-dcgan-tensorflow-issue276-epoch-2-to-5-of-200-batch-of-4-g-loss-zero.log"))
    assert data["status_line"] == "epoch 5/200 · 0/4 in the epoch · no timing"
    assert "Losses d_loss 84.8826 · g_loss 0" in data["details"]
    training = data["training"]
    assert (training["step"], training["total_steps"], training["loss"], training["step_seconds"]) == (0, 4, None, None)


def test_the_same_print_in_another_repository_s_run(tmp_path: Path) -> None:
    data = read_cold(tmp_path, body("generic-rocm-tensorflow-issue48-dcgan-mnist-epoch-4-of-25-batch-15-to-19-of-1093.log"))
    assert data["status_line"] == "epoch 4/25 · 19/1093 in the epoch · no timing"
    assert data["training"]["step_seconds"] is None  # (``time: 342.2326`` is the run's clock, no batch takes 342 s)


def test_composed_labelled_pairs_with_two_losses(tmp_path: Path) -> None:
    # epoch 3 of 10, batches 7..9 of 50: the run is at epoch 3, batch 9 of the epoch's 50; d 0.9 and g 1.9 the last parts
    lines = [f"Epoch: [ 3/10] [   {b}/  50] time: 1{b}.5, d_loss: 0.{b}, g_loss: 1.{b}" for b in (7, 8, 9)]
    data = read_cold(tmp_path, lines)
    assert data["status_line"].startswith("epoch 3/10 · 9/50 in the epoch")
    assert data["training"]["loss"] is None
    assert data["training"]["figures"] == {"loss/d_loss": 0.9, "loss/g_loss": 1.9, "time/time": 19.5}
