"""A loss printed as a one-number tensor's repr (scalar_prints.py): a loop's records counted, no step number claimed.

Real logs (tests/data/real/, each citing its source) of notebook loops that print their loss as a tensor; composed
lines whose readings are worked out by hand below.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.ingest.formats.scalar_prints import scalar_print, scalars_inside
from app.stats.events import TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body

CHATGLM = "generic-chatglm-lora-issue32-bare-tensor-loss-prints-then-nan.log"
DIRAC = "generic-dirac-pytorch-issue4-loss-tensor-prints-beside-parameter-and-gradient-tensors.log"


@pytest.mark.parametrize(
    ("printed", "value"),
    [
        ("tensor(3.2207, device='cuda:0')", 3.2207),
        ("tensor(2.3026, grad_fn=<NllLossBackward0>)", 2.3026),
        ("tensor(1.0000e-03, device='cuda:1', grad_fn=<AddBackward0>)", 0.001),
        ("tf.Tensor(0.6931, shape=(), dtype=float32)", 0.6931),
        ("Array(1.25, dtype=float32)", 1.25),
        ("Loss:  tensor([2478.5229], device='cuda:0', grad_fn=<NegBackward0>)", 2478.5229),
        ("train loss = tensor(0.5)", 0.5),
        # several numbers, another figure's name, a test loss, text around it: no loss of the loop
        ("tensor([0.1000, 0.9000], device='cuda:0')", None),
        ("Gradiente:  tensor([-969.7510,    0.0000,       nan,       nan,    0.0000],", None),
        ("Average_goal_reward tensor(1.0097, device='cuda:0')", None),
        ("loss_test:  tensor(0.1769, device='cuda:0', grad_fn=<RsubBackward1>)", None),
        ("the loss is tensor(0.5)", None),
    ],
)
def test_a_one_number_tensor_print_is_its_number(printed: str, value: float | None) -> None:
    assert scalar_print(printed) == value


def test_nan_prints_are_nan() -> None:
    read = scalar_print("tensor(nan, device='cuda:0', grad_fn=<NllLossBackward0>)")
    assert read is not None and math.isnan(read)


def test_a_notebook_loop_s_loss_prints_are_counted_and_its_nan_is_divergence(tmp_path: Path) -> None:
    lines = body(CHATGLM)
    assert detect(lines) == "generic"
    steps = [e for e in create_parser("generic").feed(lines) if isinstance(e, TrainStep)]
    # ten prints: 3.2207, then nan nine times; counted 1…10, no step number read
    assert [s.step for s in steps] == list(range(1, 11))
    assert all(s.logged for s in steps)
    assert steps[0].loss == 3.2207 and all(s.loss is not None and math.isnan(s.loss) for s in steps[1:])
    snapshot = read_cold(tmp_path, lines, name=CHATGLM, at=T0)
    assert snapshot["state"] == "diverged"
    training = snapshot["training"]
    assert (training["logged_steps"], training["logged_records"], training["step"]) == (True, 10, None)
    assert "10 logged records" in snapshot["status_line"]
    assert training["step_seconds"] is None and snapshot["rate"]["passes_per_hour"] is None


def test_tensors_of_several_numbers_are_no_loss_and_their_nan_no_divergence(tmp_path: Path) -> None:
    lines = body(DIRAC)
    steps = [e for e in create_parser("generic").feed(lines) if isinstance(e, TrainStep)]
    # only the four ``Loss:`` prints; the parameters' and gradients' tensors (nan among them) are not
    assert [(s.step, s.loss) for s in steps] == [(1, 2478.5229), (2, 2477.5913), (3, 2478.0564), (4, 2477.5913)]
    snapshot = read_cold(tmp_path, lines, name=DIRAC, at=T0)
    assert snapshot["state"] != "diverged"
    assert snapshot["training"]["loss"] == 2477.5913


def test_a_tensor_print_after_numbered_steps_is_not_a_record() -> None:
    # composed: a step log, then the final ``print(loss)`` (build-nanogpt style): the steps stay the run's position
    lines = ["step 4998, loss: 0.013978, time: 504.11ms", "step 4999, loss: 0.012582, time: 505.96ms",
             "tensor(0.0126, device='cuda:0', grad_fn=<CompiledFunctionBackward>)"]
    steps = [e for e in create_parser("generic").feed(lines) if isinstance(e, TrainStep)]
    assert [(s.step, s.loss, s.logged) for s in steps] == [(4998, 0.013978, False), (4999, 0.012582, False)]


@pytest.mark.parametrize(
    ("record", "read"),
    [
        ("eval_ppl=tensor(5.2620, device='cuda:0') eval_epoch_loss=tensor(1.6605, device='cuda:0')",
         "eval_ppl=5.2620 eval_epoch_loss=1.6605"),
        ("-----Step 3 --LOSS-- tensor(nan, device='cuda:0', grad_fn=<AddBackward0>)", "-----Step 3 --LOSS-- nan"),
        # several numbers, or a name ending in ``tensor``, stay as printed
        ("grad tensor([0.1, 0.2]) step 3", "grad tensor([0.1, 0.2]) step 3"),
        ("my_tensor(3) step 3", "my_tensor(3) step 3"),
    ],
)
def test_a_one_number_tensor_inside_a_record_is_its_number(record: str, read: str) -> None:
    assert scalars_inside(record) == read


def test_llama_recipes_evaluations_printed_as_tensors_are_read(tmp_path: Path) -> None:
    # hpcaubuserguide's llama-recipes run: each epoch's ``eval_ppl=tensor(…) eval_epoch_loss=tensor(…)``; the last
    # epoch's are eval_epoch_loss 1.6479 and eval_ppl 5.1962 (the header's expected figures)
    name = "generic-llama-recipes-hpcaub-userguide-file-octopus-llm-rst-done.log"
    training = read_cold(tmp_path, body(name), name=name)["training"]
    evals = {name: view["value"] for name, view in training["eval"].items()}
    assert evals == {"eval_epoch_loss": 1.6479, "eval_ppl": 5.1962}
