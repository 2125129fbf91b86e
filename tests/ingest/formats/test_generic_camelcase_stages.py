"""A stage's word run together with its figure's in camelCase (``ValLoss``, ``valLoss``, ``TestAcc``, ``TrainLoss``) is
two words, as ``Val loss`` is: the evaluation's figure, or the training's. The real shape is AUTOMAP's TensorFlow loop
(tests/data/real/generic-automap-issue4-…: ``Epoch 98, Loss: 0.00011263025953667238, ValLoss: 9.617573232389987e-05``);
the other spellings are composed, their answers read off the lines by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.ingest.formats.grammar import normalise
from app.stats.events import EvalResult, TrainStep


@pytest.mark.parametrize(("printed", "name"), [
    ("ValLoss", "val loss"),
    ("valLoss", "val loss"),
    ("ValidLoss", "valid loss"),
    ("TestAcc", "test acc"),
    ("EvalLoss", "eval loss"),
    ("TrainLoss", "train loss"),
    ("val_loss", "val loss"),  # (already words)
    ("AvgTime", "avgtime"),  # another camelCase name stays one word
    ("SamplesPerSec", "samplespersec"),
    ("Validate", "validate"),  # a word that only begins like a stage's
    ("TestEpLen", "testeplen"),  # Spinning Up's test episodes' length: no loss or score after the stage
    ("TestLossy", "testlossy"),
    ("TEST", "test"),
])  # fmt: skip
def test_a_camelcase_stage_word_is_a_word_of_its_own(printed: str, name: str) -> None:
    assert normalise(printed) == name


@pytest.mark.parametrize(("lines", "step", "loss", "evals"), [
    (["Epoch 97, Loss: 0.00011381338845239952, ValLoss: 9.726460120873526e-05",
      "Epoch 98, Loss: 0.00011263025953667238, ValLoss: 9.617573232389987e-05"],
     98, 0.00011263025953667238, {"val_loss": 9.617573232389987e-05}),
    (["epoch: 3 trainLoss: 0.512 valLoss: 0.634 valAcc: 0.81"], 3, 0.512, {"val_loss": 0.634, "val_acc": 0.81}),
    (["Epoch 12 | TrainLoss 1.25 | TestLoss 1.40 | TestAcc 0.66"], 12, 1.25, {"test_loss": 1.40, "test_acc": 0.66}),
])  # fmt: skip
def test_camelcase_evaluation_names_are_read_as_the_evaluation_s(
    lines: list[str], step: int, loss: float, evals: dict[str, float]
) -> None:
    events = GenericParser().feed(lines)
    trained = [e for e in events if isinstance(e, TrainStep)]
    assert trained[-1].step == step
    assert trained[-1].loss == pytest.approx(loss)
    got = {e.name: e.value for e in events if isinstance(e, EvalResult)}
    assert got == pytest.approx(evals)
