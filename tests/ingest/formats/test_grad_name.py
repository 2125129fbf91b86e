"""A step record's ``Grad`` printed alone is its gradient norm.

Loops print the norm their clipping measures under the short name: demucs' solver (``losses['grad'] = grad_norm ** 0.5``,
the square root of the parameters' gradients' squared norms, facebookresearch/demucs issue #315 asks what it means) prints
``| Grad 0.0744``; hand-written loops print ``f"LR: {current_lr:.2e} | Grad: {grad_norm:.3f} | "``. A name said with more
(``Grad Scale``, ``Grad Accum``) is another figure.
"""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep
from tests.reallogs import line

DEMUCS = "generic-demucs-issue315-solver-train-epoch-35-of-332-it-sec-valid-summary.log"


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_demucs_s_grad_is_the_gradient_norm() -> None:
    last = steps([line(DEMUCS, "[04-04 22:57:13]")])[-1]
    assert (last.step, last.loss, last.grad_norm) == (249, 0.1121, 0.0744)


def test_a_loop_s_grad_beside_its_loss_is_the_gradient_norm() -> None:
    # composed: a hand-written loop's record, its grad norm 0.618 printed as ``Grad``
    composed = "Epoch 1 | Step 20/100 | Loss: 2.4000 | PPL: 11.02 | LR: 1.00e-04 | Grad: 0.618 | Time: 0.520s"
    last = steps([composed])[-1]
    assert (last.step, last.loss, last.grad_norm) == (20, 2.4, 0.618)


def test_a_grad_name_said_with_more_is_no_gradient_norm() -> None:
    # composed: the loss scaler's scale and the accumulation count are no norm
    composed = "Epoch 1 | Step 20/100 | Loss: 2.4000 | Grad Scale: 1024 | Grad Accum: 4"
    assert steps([composed])[-1].grad_norm is None
