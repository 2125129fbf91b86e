"""A loss printed as the framework's repr of a one-number tensor, as the generic step reader reads it.

A notebook's training loop often prints its loss as it is, without ``.item()``: ``print(loss)`` gives PyTorch's
``tensor(3.2207, device='cuda:0', grad_fn=<NllLossBackward0>)`` (``tensor(nan, device='cuda:0')`` once it
diverged), TensorFlow's ``tf.Tensor(3.2207, shape=(), dtype=float32)``, JAX's ``Array(3.2207, dtype=float32)``.
Such a line on its own is the loop's loss, and nothing else of the loop: no step number, so the generic reader
counts the prints as logged records (``TrainStep.logged``), the way a log of HF's dicts with no step is counted.
So is such a print behind a loss's name (``Loss:  tensor([2478.5229], device='cuda:0', grad_fn=<NegBackward0>)``,
its one number in a list of one). A tensor of several numbers (``tensor([0.1, nan])``: a batch's logits, a
gradient) is no loss, nor is a one-number tensor under another name (``Average_goal_reward tensor(1.0097)``).
"""

from __future__ import annotations

import re

from .fields import number

# The first characters such a print can have, bare or behind a loss's name (the cheap test first).
HEADS = "tTADLl"  # (and ``train loss``: ``t`` already)
_VALUE = r"[-+]?(?:(?i:nan|inf)|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
# What a repr prints after the value: the device, the autograd node, the dtype, an empty shape.
_ARGUMENT = r"\s*,\s*(?:device='[\w:]{1,20}'|grad_fn=<\w{1,80}>|dtype=[\w.]{1,30}|shape=\(\)|requires_grad=True)"
_SCALAR = re.compile(
    r"(?:(?i:(?:train(?:ing)?[ _])?loss)\s*[:=]?\s*)?"  # (``Loss:  ``, ``train loss = ``; never ``loss_test``)
    rf"(?:tensor|tf\.Tensor|(?:Device)?Array)\(\s*(?:({_VALUE})|\[\s*({_VALUE})\s*\])(?:{_ARGUMENT}){{0,4}}\s*\)"
)


def scalar_print(text: str) -> float | None:
    """The number a line that is only a one-number tensor's repr holds (nan for ``tensor(nan…)``), or None."""
    if text[:1] not in HEADS:
        return None
    m = _SCALAR.fullmatch(text)
    return number(m.group(1) or m.group(2)) if m is not None else None


# A one-number tensor's repr inside a record (``-----Step 3 --LOSS-- tensor(2.3075, device='cuda:0', grad_fn=<…>)``,
# llama-recipes' ``eval_ppl=tensor(5.2620, device='cuda:0')``): the number it holds, as printed with ``.item()``.
_INSIDE = re.compile(rf"(?<![\w.])tensor\(\s*({_VALUE})(?:{_ARGUMENT}){{0,4}}\s*\)")


def scalars_inside(text: str) -> str:
    """``text`` with each one-number tensor's repr in it replaced by its number (the text itself when none)."""
    return _INSIDE.sub(r"\1", text) if "tensor(" in text else text
