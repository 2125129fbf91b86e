"""A loss that rises and keeps rising while still a number: a warning, never a divergence by itself.

The logged losses of a stage are kept (each step's once: a record printed again at the same step with the
same loss is one). The loss is *rising* when, over ``MIN_RECORDS`` records or more, the newest third of them
(``TAIL_SHARE``, at least ``MIN_TAIL``) stands above the lowest loss before it on every record, their mean by
``RISE_RELATIVE`` of that low and by ``RISE_ABSOLUTE`` at the least, and the newest loss is the highest of the
run so far, and the records before that third do not swing from one to the next by more than ``NOISE_SHARE`` of their
level (their median move). A healthy run's loss falls, or wanders about a level it reached: its newest third dips to or
below the earlier low, or its newest loss is not its highest. A run at too high a learning rate climbs
(PyTorch's word_language_model at ``--lr 20``: 11.97 at batch 400, 13.14 at 2800, no nan printed).

Why these figures: measured over every real log at hand (tests/data and earlier gatherings, 146 with ten
losses or more), this flags only the run whose loss truly climbs; without the swing's bound it also flagged eleven
records of a real LoRA finetune whose per-step loss swings between 0.05 and 26 all run long. A rise alone says
nothing of nan or of an explosion (stage.py's ``EXPLODED_FACTOR``): the state stays what it is, the rise a warning
beside it.
"""

from __future__ import annotations

import math
import statistics
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise, repeat

MIN_RECORDS = 10
MIN_TAIL = 3
TAIL_SHARE = 3  # the newest third
RISE_RELATIVE = 0.05  # the newest third's mean 5 % above the earlier low at the least
RISE_ABSOLUTE = 0.1  # and 0.1 above it (a loss near 0 moving by noise is no rise)
# The records before the newest third, one to the next, move by a median of this share of their level at most: a loss
# logged a step at a time on a few samples (a long-context finetune's 0.179, 5.531, 1.977, 10.438, 17.125) swings too
# widely for ten records to show a rise.
NOISE_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class Rise:
    """The loss rising: from its lowest before the newest third (at its step) to the newest (at its step); each
    step's epoch where the log names one (a count of an epoch's batches starts again with the next)."""

    low: float
    low_step: int
    low_epoch: float | None
    loss: float
    step: int
    epoch: float | None
    records: int
    tail: int  # the newest records judged against the low


@dataclass(slots=True)
class LossRise:
    """The rise watch of one stage's logged loss."""

    steps: array[int] = field(default_factory=lambda: array("q"))
    losses: array[float] = field(default_factory=lambda: array("d"))
    epochs: array[float] = field(default_factory=lambda: array("d"))  # nan where none was named
    peak: float = -math.inf  # the highest loss kept
    peak_before: float = -math.inf  # the highest before the newest (the usual no-rise, told at once)
    _judged: tuple[int, Rise | None] = (0, None)  # (records judged, the answer): one judgement a record count

    def take(self, step: int, loss: float, epoch: float | None) -> None:
        """Keep one logged loss at ``step`` of ``epoch`` (nan and inf are a divergence, judged elsewhere)."""
        if not math.isfinite(loss):
            return
        if self.steps and self.steps[-1] == step and self.losses[-1] == loss:
            return  # the same record printed again
        self.steps.append(step)
        self.losses.append(loss)
        self.epochs.append(math.nan if epoch is None else epoch)
        self.peak_before, self.peak = self.peak, max(self.peak, loss)

    def take_many(self, steps: Sequence[int], losses: Sequence[float], epochs: Sequence[float | None] | None,
                  epoch: float | None) -> None:
        """Keep each of ``losses`` at its step of ``steps`` (finite, one a step after the one before) and its epoch
        of ``epochs`` (None: none printed; a step that prints none is in the one before it, the first in ``epoch``),
        as :meth:`take` would one by one."""
        if not losses:
            return
        first = 1 if self.steps and self.steps[-1] == steps[0] and self.losses[-1] == losses[0] else 0
        self.steps.extend(steps[first:])
        self.losses.extend(losses[first:])
        kept = losses[first:]
        if kept:
            self.peak_before = max(self.peak, *kept[:-1]) if len(kept) > 1 else self.peak
            self.peak = max(self.peak_before, kept[-1])
        if epochs is None:
            self.epochs.extend(repeat(math.nan if epoch is None else epoch, len(losses) - first))
            return
        named = []
        for value in epochs:
            epoch = value if value is not None else epoch
            named.append(math.nan if epoch is None else epoch)
        self.epochs.extend(named[first:])

    def rising(self) -> Rise | None:
        """The rise, where the newest third of the losses climbs above the low before it (the module's rule)."""
        count = len(self.losses)
        if self._judged[0] == count:
            return self._judged[1]
        answer = self._judge() if count >= MIN_RECORDS else None
        self._judged = (count, answer)
        return answer

    def _judge(self) -> Rise | None:
        losses = self.losses
        count = len(losses)
        tail_length = max(MIN_TAIL, count // TAIL_SHARE)
        cut = count - tail_length
        newest = losses[-1]
        if newest < self.peak_before:
            return None  # (the newest is not the highest so far: a falling or wandering loss, told without a pass)
        low = min(losses[:cut])
        if low <= 0:
            return None
        tail = losses[cut:]
        mean = math.fsum(tail) / tail_length
        if min(tail) <= low or mean <= low * (1 + RISE_RELATIVE) or mean - low <= RISE_ABSOLUTE:
            return None
        before = losses[:cut]
        swing = statistics.median(abs(b - a) for a, b in pairwise(before))
        if swing > NOISE_SHARE * statistics.median(before):
            return None  # (records that swing by a good share of their level: a climb among them is where the swings fell)
        where = losses.index(low)  # (the first time it was that low)
        return Rise(low, self.steps[where], _named(self.epochs[where]), newest, self.steps[-1], _named(self.epochs[-1]),
                    count, tail_length)


def _named(epoch: float) -> float | None:
    return None if math.isnan(epoch) else epoch
