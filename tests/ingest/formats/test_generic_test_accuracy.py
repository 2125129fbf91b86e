"""A test's plain accuracy in per cent, on a line the stage word makes the test's, is that test's score.

Real: SiaStegNet's ``Test set: Loss: 0.7222, Accuracy: 50.06%)`` (SiaStegNet issue 1, its whole log in
tests/live/test_real_logs.py), and dalinvip/cnn-lstm-bilstm-deepcnn-clstm-in-pytorch issue #4 (the opening post's
printout): ``Dev  Accuracy:  Evaluation - loss: 0.655496  acc: 62.3853%(544/872)`` and ``Test Accuracy:  Evaluation -
loss: 0.660529  acc: 61.3399%(1117/1821)`` after its ``Batch[400/6920] - loss: 0.729841  acc: 37.5000%(6/16)``.
Composed: a training's ``Train Accuracy: 83.50%`` is never the test's; the PyTorch example's ``Accuracy: 9876/10000
(98.76%)`` is read once, as before.
"""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import EvalResult
from tests.reallogs import body

SIASTEGNET = "generic-siastegnet-issue1-literal-percent-f-dates-epoch-52-test-set-then-epoch-53-400-of-1000.log"
# dalinvip/cnn-lstm-bilstm-deepcnn-clstm-in-pytorch issue #4, lines 2-4 of the printout as posted
CNN_LSTM = [
    "Batch[400/6920] - loss: 0.729841  acc: 37.5000%(6/16)",
    "Dev  Accuracy:  Evaluation - loss: 0.655496  acc: 62.3853%(544/872) ",
    "Test Accuracy:  Evaluation - loss: 0.660529  acc: 61.3399%(1117/1821) ",
]


def evals(lines: list[str]) -> dict[str, float | None]:
    return {e.name: e.value for e in GenericParser().feed(lines) if isinstance(e, EvalResult)}


def test_a_test_set_line_s_plain_accuracy_in_per_cent_is_the_test_s() -> None:
    lines = [text for text in body(SIASTEGNET) if "Test set" in text]
    assert evals(lines) == {"test_loss": 0.7222, "test_accuracy": 50.06}


def test_dev_and_test_evaluations_each_keep_their_plain_accuracy() -> None:
    assert evals(CNN_LSTM) == {"val_loss": 0.655496, "val_acc": 62.3853, "test_loss": 0.660529, "test_acc": 61.3399}


@pytest.mark.parametrize(("line", "expected"), [
    # composed: the example's count, then its share (98.76 %), read once
    ("Test set: Average loss: 0.0172, Accuracy: 9876/10000 (98.76%)", {"test_loss": 0.0172, "test_accuracy": 98.76}),
    # composed: a plain accuracy with no count
    ("Test set: Average loss: 0.0172, Accuracy: 98.5%", {"test_loss": 0.0172, "test_accuracy": 98.5}),
])  # fmt: skip
def test_a_test_line_s_accuracy_read_once(line: str, expected: dict[str, float]) -> None:
    assert evals(["Epoch 1 step 100 loss 0.52", line]) == expected


def test_a_training_s_accuracy_is_never_the_test_s() -> None:
    got = evals(["Epoch 1 step 100 loss 0.52", "Test set: Average loss: 0.0172, Train Accuracy: 83.50%"])
    assert got == {"test_loss": 0.0172}
