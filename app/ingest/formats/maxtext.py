"""MaxText: ``completed step: 9, seconds: 5.667, TFLOP/s/device: 134.924, Tokens/s/device: 8672.758, loss: 10.374``.

``MaxText/metric_logger.py`` prints one line a step (behind absl's glog prefix, read by the pipeline):
``seconds`` the step's measured time, ``TFLOP/s/device`` (``TFLOP/s`` in 2023, also per device) the model's
FLOPs per device over that time, ``Tokens/s/device`` the tokens per device over it, ``loss`` the step's loss
(``lm_loss`` the language model's part of it, ``perplexity`` its exponent: neither is the loss). No MFU is
printed, and no total.
"""

from __future__ import annotations

import re

from ...stats.events import TrainStep
from .fields import NUM, Kind, finite, number
from .pipeline import Emit, EmitLines
from .prefix import LineTimes

_STEP = re.compile(rf"completed step: (\d{{1,12}}), seconds: ({NUM})")
_PAIR = re.compile(rf"([A-Za-z_][\w/]{{0,40}}): ({NUM})")


class MaxtextParser(EmitLines):
    """MaxText's step lines in, step events out."""

    name = "maxtext"

    def __init__(self) -> None:
        self._times = LineTimes()
        self._start_emitting()

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """A ``completed step:`` line is a step; anything else is not MaxText's."""
        head = _STEP.search(text) if "completed step: " in text else None
        if head is None or not text.rstrip()[-1:].isdigit():
            # (its last figure is a number: a line ending otherwise is another line glued on by a wrap's join)
            return Kind.OTHER, None
        pairs = {m.group(1): number(m.group(2)) for m in _PAIR.finditer(text, head.end())}
        seconds = finite(number(head.group(2)))
        tflops = finite(pairs.get("TFLOP/s/device", pairs.get("TFLOP/s")))
        tokens = finite(pairs.get("Tokens/s/device"))
        step = TrainStep(
            at=None,
            stage="train",
            step=int(head.group(1)),
            loss=pairs.get("loss"),
            loss_note="this step's" if "loss" in pairs else None,
            step_seconds=seconds if seconds is not None and seconds > 0 else None,
            tokens_per_second=tokens,
            per_device=tokens is not None,
            figures=(("tflops", tflops),) if tflops is not None else (),
        )
        # The line ends in a bare number: a wrap may still continue it.
        return Kind.OPEN, lambda: [step]
