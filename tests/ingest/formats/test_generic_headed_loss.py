"""A step record's one loss named with a qualifier no rule knows (``dataset loss: 0.14``, ``loss_net: 0.94``):
the loss, by its head word; several such names (a loss's parts) or a loss's scale are no loss of the model's.

Composed lines whose readings are worked out by hand below.
"""

from __future__ import annotations

import math

import pytest

from app.ingest.formats import create_parser
from app.stats.events import TrainStep


def _steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in create_parser("generic").feed(lines) if isinstance(e, TrainStep)]


@pytest.mark.parametrize(
    ("line", "step", "loss"),
    [
        ("step 10 | dataset loss: 0.25", 10, 0.25),
        # a medical-segmentation loop's record: ``loss_scale`` is the fp16 scaler's, ``loss_net`` the network's loss
        ("train iter: 100 loss_net: 0.9443 loss_scale: 32768.0000 norm: 21.8862 seconds: 445.463", 100, 0.9443),
        ("iter 7, recon_loss=3.25, time 0.5s", 7, 3.25),
    ],
)
def test_one_loss_named_with_a_qualifier_is_the_loss(line: str, step: int, loss: float) -> None:
    assert [(s.step, s.loss) for s in _steps([line])] == [(step, loss)]


def test_a_nan_loss_net_is_read_as_printed() -> None:
    steps = _steps(["train iter: 200 loss_net: nan loss_scale: 1.0000 norm: nan seconds: 123.053"])
    assert [s.step for s in steps] == [200] and steps[0].loss is not None and math.isnan(steps[0].loss)


@pytest.mark.parametrize(
    "line",
    [
        "step 10 | box loss: 0.25 | cls loss: 0.5",  # two parts, none the model's
        "step 10 | loss_scale: 65536",  # a scaler's value
        "step 10 | best loss: 0.1",  # the best so far, not this step's
        "step 5 | nsp loss 0.5 | lr 1e-4",  # a term added to the model's loss (BERT's next-sentence loss)
        "step 5 | load_balancing_loss: 1.1",  # a mixture of experts' balancing term
        "step 10 | val_loss: 0.3",  # an evaluation's (read by its own rule)
    ],
)
def test_no_qualified_loss_is_taken_where_it_is_not_the_model_s(line: str) -> None:
    assert all(s.loss is None for s in _steps([line]))


def test_a_bar_whose_description_names_its_loss_with_a_qualifier_is_a_step() -> None:
    # textual inversion's bar (composed after its shape): ``dataset loss`` is the running loss over the data set
    line = "dataset loss: 0.1425575:   1%|▍         | 811/100000 [06:19<12:53:21,  2.14it/s]"
    steps = _steps([line])
    assert [(s.step, s.total_steps, s.loss) for s in steps] == [(811, 100000, 0.1425575)]
    assert steps[0].step_seconds == pytest.approx(1 / 2.14)
