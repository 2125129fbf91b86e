"""tinygrad's MLPerf trainers: ``   10 4.40 s run, 11.8750 loss, 0.000000000005 LR, 1454.57 GB used, 394520.83 GFLOPS``.

``examples/mlperf/model_train.py`` prints one line a step, the step first: the step's wall time (``ms run`` for
BERT and ResNet, ``s run`` for llama), BERT's and ResNet's parts of it (``ms python``, ``ms fetch data``,
``ms AMD * 8``), then ``loss``, ``LR``, the memory in use summed over every device (``GB used``: no one GPU's)
and the step's ops over its time (``GFLOPS``, over every device too); ``hlb_cifar10`` and the
CIFAR trainers print the same head (``  7  532.12 ms run, …,    2.31 loss, …``). No total and no tokens are printed.
"""

from __future__ import annotations

import re

from ...stats.events import TrainStep
from .fields import NUM, Kind, finite, number
from .pipeline import Emit, EmitLines
from .prefix import LineTimes

_HEAD = re.compile(rf"^\s*(\d{{1,12}}) +({NUM}) (ms|s) run, ")
_FIGURE = re.compile(rf"({NUM}) (loss|LR)\b")
# The memory in use over every device and the step's ops a second, as printed after their values.
_AFTER = re.compile(rf"({NUM}) (GB used|GFLOPS)\b")


class TinygradParser(EmitLines):
    """tinygrad's MLPerf step lines in, step events out."""

    name = "tinygrad"

    def __init__(self) -> None:
        self._times = LineTimes()
        self._start_emitting()

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """A step line (``N T s run, … loss, … LR, …``); anything else is not tinygrad's."""
        head = _HEAD.match(text) if " run, " in text else None
        if head is None:
            return Kind.OTHER, None
        figures = {m.group(2): number(m.group(1)) for m in _FIGURE.finditer(text, head.end())}
        if "loss" not in figures:
            return Kind.PARTIAL, None  # (a wrap cut the line before its loss)
        run = finite(number(head.group(2)))
        seconds = (run / 1000.0 if head.group(3) == "ms" else run) if run is not None else None
        step = TrainStep(
            at=None,
            stage="train",
            step=int(head.group(1)),
            loss=figures["loss"],
            loss_note="this step's",
            lr=finite(figures.get("LR")),
            step_seconds=seconds if seconds is not None and seconds > 0 else None,
            figures=tuple(_figures(text, head.end())),
        )
        # A line ending in a bare number may still be continued by a wrap; one ending in a unit is whole.
        return (Kind.OPEN if text.rstrip()[-1:].isdigit() else Kind.FULL), lambda: [step]


def _figures(text: str, start: int) -> list[tuple[str, float]]:
    """``1454.57 GB used`` (every device's, summed: ``memory/used GB``) and ``394520.83 GFLOPS`` (``rate/GFLOPS``), as
    printed."""
    found: list[tuple[str, float]] = []
    for m in _AFTER.finditer(text, start):
        value = finite(number(m.group(1)))
        if value is not None:
            found.append(("memory/used GB" if m.group(2) == "GB used" else "rate/GFLOPS", value))
    return found
