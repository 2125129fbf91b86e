"""A record's loss that is not a number, whichever of its loss fields says so.

A record may print its loss twice: the step's and a running average of the steps so far (NVIDIA's DLLogger BERT
``average_loss : nan  step_loss : 1.0703125``; maskrcnn-benchmark's MetricLogger ``loss: 5.6569 (nan)``, the window's
median and its global average in brackets). The grammar picks one of them as the record's loss, the most specific name
(``step_loss`` over ``loss``). But an average is nan only once a nan went into it: the run produced a loss that is not
a number, whatever the step's own figure says now (a scaler skipping overflowing steps, a window that no longer holds the
nan). So where any loss field of the record is not a number, that field is the record's loss: the run has diverged.

Not a loss: the scaler's ``loss_scale`` (its collapse is how the overflow shows, no loss of its own), an evaluation's
loss (``val_loss: nan``: the evaluation's, judged apart), a count of nan iterations.
"""

from __future__ import annotations

import math
import re

from .fields import NUM
from .grammar import EVAL_WORDS, Field, Reading, normalise

# A loss's figure then its running average in brackets (MetricLogger's ``loss: 5.6569 (nan)``, ``loss_cls: 0.6532
# (nan)``), or a figure named as a loss that is not a number (``loss_cls: nan``, ``average_loss : nan``).
_NOT_A_NUMBER = re.compile(
    rf"(?i)(?<![\w/])((?:[a-z][\w/]{{0,40}}?)?loss\w{{0,20}})\s?[:=]\s?(?:{NUM}\s\(\s?)?([-+]?(?:nan|inf(?:inity)?))(?![\w.])")
# Words that make a figure no loss of the training's: the scaler's, a count's.
_NOT_LOSS_WORDS = frozenset({"scale", "scaler", "iterations", "count", "skipped"})


def lost_loss(loss: Reading | None, readings: list[Reading], text: str) -> tuple[Reading, str] | None:
    """The record's loss field that is not a number, where ``loss`` (the one the grammar chose) is a number, and the
    name it was printed under (``average_loss``, ``loss`` for a running average in brackets); None where none is."""
    if loss is None or not math.isfinite(loss.value):
        return None
    lowered = text.lower()
    if "nan" in lowered or "inf" in lowered:
        for m in _NOT_A_NUMBER.finditer(text):
            words = set(normalise(m.group(1)).split(" "))
            if words & (EVAL_WORDS | _NOT_LOSS_WORDS):
                continue
            name = f"running average of {m.group(1)}" if "(" in m.group(0) else m.group(1)
            return Reading(Field.LOSS, normalise(m.group(1)), float(m.group(2))), name
    lost = next((r for r in readings if r.field is Field.LOSS and not math.isfinite(r.value)), None)
    return (lost, lost.name) if lost is not None else None
