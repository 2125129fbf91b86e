"""A throughput in the data's unit, printed after its figure, is that unit's rate, never a rate of steps.

gotorch's ``throughput: 167.910267 samples/sec`` (wangkuiyi/gotorch PR #358), PSENet.pytorch's ``step: 109, 3.247
samples/sec, batch_loss: …`` (WenmuZhou/PSENet.pytorch issue #41) and tensorflow_PSENet's ``…, 1.43 examples/second``
(MichaelHL-ai/tensorflow_PSENet issue #16), whole logs in tests/live/test_real_logs.py. Composed: the same shapes with
images and tokens, and a word that is no throughput's name (a ``speed`` read stays where no unit follows).
"""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep
from tests.reallogs import body

GOTORCH = "generic-gotorch-pr358-resnet-epoch-1-iterations-10-60-throughput-samples-per-sec-loss-nan.log"
PSENET = "generic-psenet-pytorch-issue41-epochs-8-11-of-100-steps-samples-per-sec-batch-loss.log"
TF_PSENET = "generic-tensorflow-psenet-issue16-steps-0-20-seconds-per-step-examples-per-second.log"


def line(name: str, holding: str) -> str:
    return next(text for text in body(name) if holding in text)


def last_step(lines: list[str]) -> TrainStep:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)][-1]


@pytest.mark.parametrize(("lines", "step", "figures"), [
    ([line(GOTORCH, "Iteration: 10,")], 10, {"samples_per_second": 167.910267}),
    # (its other loss beside the loss, under its own name: ``batch_loss_c``; record_figures.py)
    ([line(PSENET, "step: 109,")], 109, {"samples_per_second": 3.247, "time/time": 3.0795, "figure/batch_loss_c": 1.0}),
    # (``total loss`` is the loss, ``model loss`` its part under its own name)
    ([line(TF_PSENET, "Step 000010,")], 10, {"samples_per_second": 0.09, "figure/model loss": 0.9581}),
    # composed: images and tokens, named by a word or a field of their own
    (["epoch: 2, iter: 40, loss: 1.25, Speed: 812.5 images/sec"], 40, {"rate/images/sec": 812.5}),
    (["step 7 | loss 3.10 | throughput: 1523 tokens/s"], 7, {}),
])  # fmt: skip
def test_a_rate_in_the_data_s_unit_is_read_in_that_unit(lines: list[str], step: int, figures: dict[str, float]) -> None:
    last = last_step(lines)
    assert last.step == step
    assert dict(last.figures) == figures
    assert last.step_seconds is None or "seconds/step" in lines[0]


def test_tokens_a_second_after_a_throughput_word_are_the_tokens_rate() -> None:
    last = last_step(["step 7 | loss 3.10 | throughput: 1523 tokens/s"])
    assert last.tokens_per_second == 1523
    assert last.step_seconds is None


def test_a_speed_with_no_unit_after_it_is_not_a_rate_of_the_data() -> None:
    last = last_step(["step 7 | loss 3.10 | speed: 1.5"])
    assert "samples_per_second" not in dict(last.figures)
