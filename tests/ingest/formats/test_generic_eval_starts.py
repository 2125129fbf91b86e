"""An evaluation's start said in words after training steps, in its many wordings, is the run evaluating until its
result (generic.py's ``_EVAL_BEGUN``): ``Epoch 3 evaluation`` (with the evaluator object printed after it), ``Validating
epoch 3``, sentence-transformers' ``Information Retrieval Evaluation on msmarco_dev_small dataset`` and ``Evaluating the
model on sts-dev dataset in epoch 0 after 500 steps:``, a heading alone (``Validation:``), TF Estimator's ``Starting
evaluation at …``, detectron2's evaluator's ``Start inference on 380 batches``, behind a logger's `` - `` or `` : ``. A figure on the line makes it a result, never a start. An
evaluation said to be an epoch's puts the steps before it, which named none, in that epoch: their count beside an epoch is
the epoch's. The lines are composed; the answers are read off them by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import Event, TrainingPause, TrainStep

STEP = "[Iter 240 / 250] loss: 0.8125"


def _events(*lines: str) -> list[Event]:
    return GenericParser().feed([*lines, "end of the excerpt"])


@pytest.mark.parametrize("start", [
    "Epoch 1 evaluation",
    "Epoch 1 evaluation <sentence_transformers.evaluation.SequentialEvaluator.SequentialEvaluator object at 0x7f12>",
    "2023-01-02 10:00:00,000 - INFO - train.model : Epoch 1 evaluation",
    "Epoch 1 validation...",
    "Validating epoch 1",
    "Information Retrieval Evaluation on msmarco_dev dataset",
    "2023-01-02 10:00:00,000 - INFO - eval : Information Retrieval Evaluation of the model on the dev dataset after epoch 1:",
    "EmbeddingSimilarityEvaluator: Evaluating the model on sts-dev dataset in epoch 1 after 500 steps:",
    "Validation:",
    "Evaluation started",
    "Begin evaluation at epoch 1",
    "INFO:tensorflow:Starting evaluation at 2020-05-22T11:09:04Z",
    "INFO:tensorflow:Starting evaluation at 2018-10-23-00:06:12",
    "[12/04 05:50:20 d2.evaluation.evaluator]: Start inference on 380 batches",
])  # fmt: skip
def test_an_evaluation_said_to_start_after_a_step_is_under_way(start: str) -> None:
    events = _events(STEP, start)
    assert [e.step for e in events if isinstance(e, TrainStep)][:1] == [240]
    pauses = [e for e in events if isinstance(e, TrainingPause)]
    assert [(p.reason, p.done) for p in pauses] == [("evaluation", None)]


@pytest.mark.parametrize("result", [
    "Epoch 1 evaluation: acc 0.9",
    "Validation accuracy: 0.95",
    "Evaluation on test set: 0.91",
    "Testing accuracy 0.95",
])  # fmt: skip
def test_a_figure_on_the_line_makes_it_a_result_not_a_start(result: str) -> None:
    assert not [e for e in _events(STEP, result) if isinstance(e, TrainingPause)]


def test_an_evaluation_before_any_step_starts_nothing() -> None:
    assert not [e for e in _events("Epoch 1 evaluation") if isinstance(e, TrainingPause)]


def test_an_epoch_s_evaluation_puts_the_steps_before_it_in_that_epoch() -> None:
    events = _events("[Iter 230 / 250] loss: 0.9", STEP, "Epoch 3 evaluation <Evaluator object at 0x7f12>")
    steps = [e for e in events if isinstance(e, TrainStep)]
    # the last step, amended in place: epoch 3, its 240 of 250 the epoch's batches (no run's end at 250)
    assert [(s.step, s.total_steps, s.epoch, s.ends_at_total) for s in steps] == [
        (230, 250, None, True), (240, 250, 3.0, False)]
    pause = next(e for e in events if isinstance(e, TrainingPause))
    assert (pause.reason, pause.epoch) == ("evaluation", 3.0)


def test_a_step_that_named_its_epoch_keeps_it() -> None:
    events = _events("epoch 2 [Iter 240 / 250] loss: 0.8125", "Epoch 3 evaluation")
    assert [(s.epoch, s.ends_at_total) for s in events if isinstance(s, TrainStep)] == [(2.0, False)]
