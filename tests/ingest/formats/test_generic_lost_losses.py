"""A record's loss field that is not a number, whatever its name, is the record's loss (app/ingest/formats/lost_losses.py):
a step's loss beside its running average (DLLogger's ``average_loss : nan  step_loss : …``), a MetricLogger's median
beside its global average in brackets (``loss: 5.6569 (nan)``, tests/data/real/generic-maskrcnn-benchmark-fcos-…, -centermask-…),
a loss's part (``loss_cls: nan``). The scaler's ``loss_scale`` is no training loss. The lines
are composed; the answers are read off them by hand."""

from __future__ import annotations

import math

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep

_DLL = "DLL 2021-03-02 10:00:00.000001 - Training Epoch: 1 Training Iteration: 412  "


def _steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed([*lines, "end of the excerpt"]) if isinstance(e, TrainStep)]


@pytest.mark.parametrize(("line", "note"), [
    # DLLogger's record: the running average is nan, the step's own loss a number
    (_DLL + "average_loss : nan  step_loss : 2.25  learning_rate : 0.0004", "average_loss"),
    (_DLL + "average_loss : inf  step_loss : 2.25  learning_rate : 0.0004", "average_loss"),
    # a MetricLogger's median then its global average in brackets
    ("eta: 1:00:00  iter: 412  loss: 2.2500 (nan)  loss_cls: 0.5000 (0.6000)  time: 0.3000 (0.3100)  lr: 0.010000",
     "running average of loss"),
    # a part of the loss that is not a number beside a finite total
    ("iter 412 loss: 2.25 loss_cls: nan loss_box: 0.31", "loss_cls"),
])  # fmt: skip
def test_a_loss_field_that_is_not_a_number_is_the_record_s_loss(line: str, note: str) -> None:
    step = _steps([line])[-1]
    assert step.step == 412
    assert step.loss is not None and not math.isfinite(step.loss)
    assert step.loss_note == note


@pytest.mark.parametrize(("line", "loss"), [
    # every loss a number: the step's own loss, as before
    (_DLL + "average_loss : 2.5  step_loss : 2.25  learning_rate : 0.0004", 2.25),
    ("eta: 1:00:00  iter: 412  loss: 2.2500 (2.6000)  time: 0.3000 (0.3100)  lr: 0.010000", 2.25),
    # the scaler's collapse is no loss of its own
    ("iter 412 loss: 2.25 loss_scale: nan", 2.25),
    (_DLL + "step_loss : 2.25  loss_scale : nan", 2.25),
])  # fmt: skip
def test_a_finite_record_and_what_is_no_training_loss_keep_the_chosen_loss(line: str, loss: float) -> None:
    step = _steps([line])[-1]
    assert (step.step, step.loss, step.loss_note) == (412, loss, None)
