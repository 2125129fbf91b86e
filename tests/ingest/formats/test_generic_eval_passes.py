"""An evaluation pass that counts its own iterations with no total and prints no figure yet (Jittor's ``Test in epoch 49
iteration 2`` after ``Training in epoch 49 iteration 178 loss = …``, tests/data/real/generic-jittor-issue231-…): after
training, such a line says the pass is under way, and its count is the evaluation's, never the training's position.
The other spellings are composed; the answers are read off the lines by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import EvalResult, TrainingPause, TrainStep


@pytest.mark.parametrize(("lines", "step", "done"), [
    (["Training in epoch 49 iteration 178 loss = 0.08562503010034561", "Test in epoch 49 iteration 0",
      "Test in epoch 49 iteration 2"], 178, 2),
    (["Epoch 2 iteration 100 loss 0.5", "Validation iteration 3"], 100, 3),
    (["epoch 7 iter 40 loss: 1.25", "Evaluating epoch 7 iter 12"], 40, 12),
])  # fmt: skip
def test_an_evaluation_pass_counting_its_own_iterations_is_a_pause(lines: list[str], step: int, done: int) -> None:
    events = GenericParser().feed(lines)
    assert [e.step for e in events if isinstance(e, TrainStep)] == [step]
    pauses = [e for e in events if isinstance(e, TrainingPause)]
    assert (pauses[-1].reason, pauses[-1].done, pauses[-1].batches) == ("evaluation", done, None)


@pytest.mark.parametrize("lines", [
    ["Test in epoch 49 iteration 2"],  # no training before: nothing to pause
    ["Training in epoch 49 iteration 178 loss = 0.0856", "Test in epoch 49 iteration 2 acc = 0.91"],  # a figure: a result
])  # fmt: skip
def test_a_pass_with_a_figure_or_before_training_is_no_pause(lines: list[str]) -> None:
    assert not [e for e in GenericParser().feed(lines) if isinstance(e, TrainingPause)]


def test_training_after_the_pass_goes_on_from_the_next_epoch() -> None:
    events = GenericParser().feed(["Training in epoch 49 iteration 178 loss = 0.0856", "Test in epoch 49 iteration 2",
                                   "Training in epoch 50 iteration 0 loss = 0.07"])
    assert [type(e) for e in events if not isinstance(e, EvalResult)] == [TrainStep, TrainingPause, TrainStep]
    assert [e.step for e in events if isinstance(e, TrainStep)] == [178, 0]
