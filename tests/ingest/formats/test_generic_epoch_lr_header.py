"""torchvision/MNIST-style prints: an epoch said with the learning rate it begins with (``Epoch: 8`` over ``Learning rate:
0.049932``) is that epoch begun, no record of it; the tqdm bar whose description carries the epoch and its loss is the
record, and ``Test set: Average loss: …, Acc@1: …%, Acc@5: …%`` its evaluation
(tests/data/real/generic-imagenet-resnet50-dhairyag-…). Composed lines in that shape, the answers worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import EvalResult, StepFigures, TrainStep
from tests.coldread import read_cold

BAR = "██████████"


def _epoch(n: int, lr: float, loss: float, rate: float, test_loss: float, top1: float, top5: float) -> list[str]:
    return [f"Epoch: {n}", f"Learning rate: {lr:.6f}",
            f"Train Epoch: {n} Loss: {loss:.3f} Acc@1 40.000 Acc@5 60.000: 100%|{BAR}| 500/500 [06:00<00:00,  {rate:.2f}it/s]",
            "",
            f"Test set: Average loss: {test_loss:.4f}, Acc@1: {top1:.3f}%, Acc@5: {top5:.3f}%", "", "",
            "GPU Memory: 0.44 GB (Max: 15.47 GB)", ""]


@pytest.mark.parametrize("lines", [
    ["Epoch: 3", "Learning rate: 0.023000"],  # (one figure a line under its counter)
    ["Epoch: 3 | Learning rate: 0.023000"],
    ["Epoch 3, lr: 0.023"],
])  # fmt: skip
def test_an_epoch_with_its_learning_rate_alone_is_no_step(lines: list[str]) -> None:
    assert not [e for e in GenericParser().feed([*lines, ""]) if isinstance(e, TrainStep)]


def test_an_epoch_with_a_loss_beside_its_learning_rate_is_still_its_record() -> None:
    steps = [e for e in GenericParser().feed(["Epoch 3, lr: 0.023, loss: 0.51", ""]) if isinstance(e, TrainStep)]
    assert [(s.step, s.lr, s.loss) for s in steps] == [(3, 0.023, 0.51)]


def test_the_learning_rate_an_epoch_begins_with_goes_to_the_run() -> None:
    got = GenericParser().feed([*_epoch(1, 0.005, 5.872, 2.00, 5.0191, 8.434, 23.268), "Epoch: 2",
                                "Learning rate: 0.014000", ""])
    steps = [e for e in got if isinstance(e, TrainStep)]
    assert [(s.step, s.epoch, s.loss) for s in steps] == [(500, 1.0, 5.872)]  # the bar's: 500 of its epoch's 500
    assert [(f.epoch, f.lr) for f in got if isinstance(f, StepFigures) and f.lr is not None] == [(2.0, 0.014)]


def test_a_test_set_s_top_k_accuracies_are_its_scores() -> None:
    got = GenericParser().feed(["Train Epoch: 7 Loss: 2.550 Acc@1 44.039 Acc@5 69.115: 100%|" + BAR
                                + "| 5005/5005 [58:59<00:00,  1.41it/s]", "",
                                "Test set: Average loss: 2.2228, Acc@1: 48.516%, Acc@5: 74.858%"])
    assert {e.name: e.value for e in got if isinstance(e, EvalResult)} == {
        "test_loss": 2.2228, "test_acc@1": 48.516, "test_acc@5": 74.858}


def test_a_run_in_its_third_epoch_reads_the_second_s_bar_and_test(tmp_path: Path) -> None:
    """Epochs 1 and 2 (bars at 2.00 and 2.50 it/s, losses 5.872 and 4.504), then epoch 3 begun at lr 0.023: epoch 3,
    loss 4.504, 0.4 s a batch, epoch 2's test (3.7425, 24.038 %, 48.524 %), lr 0.023, no total of epochs."""
    lines = [*_epoch(1, 0.005, 5.872, 2.00, 5.0191, 8.434, 23.268),
             *_epoch(2, 0.014, 4.504, 2.50, 3.7425, 24.038, 48.524), "Epoch: 3", "Learning rate: 0.023000"]
    data = read_cold(tmp_path, lines)
    assert data["status_line"].startswith("epoch 3 · ")
    training = data["training"]
    assert (training["loss"], training["lr"], training["total_steps"]) == (4.504, 0.023, None)
    assert training["step_seconds"] == pytest.approx(0.4)
    assert {name: value["value"] for name, value in training["eval"].items()} == {
        "test_loss": 3.7425, "test_acc@1": 24.038, "test_acc@5": 48.524}
    assert data["source"]["bad_lines"] == 0


def test_the_first_epoch_s_learning_rate_goes_to_its_first_record() -> None:
    """``Epoch: 1`` and ``Learning rate: 0.005000`` before any step: the first bar's lr is 0.005 (it prints none)."""
    got = GenericParser().feed([
        "Epoch: 1", "Learning rate: 0.005000",
        "Train Epoch: 1 Loss: 6.120 Acc@1 1.000 Acc@5 4.000:  30%|███       | 3003/10010 [56:00<2:10:40,  1.12s/it]",
        "Train Epoch: 1 Loss: 6.010 Acc@1 1.100 Acc@5 4.200:  31%|███       | 3103/10010 [57:52<2:08:50,  1.12s/it]"])
    assert [(s.step, s.lr) for s in got if isinstance(s, TrainStep)] == [(3003, 0.005), (3103, None)]


def test_a_training_top_k_accuracy_on_an_evaluation_s_line_is_not_the_evaluation_s() -> None:
    got = GenericParser().feed(["Train Epoch: 7 Loss: 2.550: 100%|" + BAR + "| 5005/5005 [58:59<00:00,  1.41it/s]",
                                "Test set: Average loss: 2.2228, Train Acc@1: 44.039%, Acc@1: 48.516%"])
    assert {e.name: e.value for e in got if isinstance(e, EvalResult)} == {"test_loss": 2.2228, "test_acc@1": 48.516}
