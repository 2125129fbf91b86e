"""Loss spikes that recover: a robust band over the logged loss, counted as episodes.

A logged loss is a spike when it stands above the recent losses' median by more than the larger of
``SPIKE_MADS`` robust standard deviations (1.4826 × the median absolute deviation) and
``SPIKE_RELATIVE`` of the median itself. The median and its deviation come from the last
``WINDOW`` losses (the spike's own losses among them, so a run that settles at a new level stops
being called a spike once half the window has seen it); nothing is judged before ``MIN_LOSSES``
losses. Consecutive spiking losses are one spike. Only rises count: a falling loss is training.

Why these figures: a healthy run's logged loss (a mean over the logging interval, or one step's
on a small batch) wanders a few robust deviations around its trend, and its fall early on keeps
the lagging median above it; a spike people ask about (llm-foundry's ``KillLossSpike``, Lightning's
``SpikeDetector``, BLOOM's chronicles) is a jump to several times the level that recovers within
tens of steps. The goal, checked on every healthy real log in tests/data/real, is to flag none.
"""

from __future__ import annotations

import math
import statistics
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain, islice

WINDOW = 50
MIN_LOSSES = 10
SPIKE_MADS = 8.0
SPIKE_RELATIVE = 0.5  # the rise must be at least half the level: a 1.5× loss at the least
MAD_TO_SIGMA = 1.4826
STEPS_KEPT = 20  # the steps of the latest spikes, for the chart's markers
BLOCK = WINDOW  # losses judged together by :meth:`Spikes.take_many`


@dataclass(slots=True)
class Spikes:
    """The spike watch of one stage's logged loss."""

    recent: deque[float] = field(default_factory=lambda: deque(maxlen=WINDOW))
    count: int = 0
    steps: deque[int] = field(default_factory=lambda: deque(maxlen=STEPS_KEPT))  # where each began
    in_spike: bool = False

    def take(self, step: int, loss: float) -> bool:
        """Judge one logged loss at ``step``; True when it begins a new spike."""
        if not math.isfinite(loss):
            return False  # nan or inf is a divergence, judged elsewhere
        began = False
        if len(self.recent) >= MIN_LOSSES and self._spiking(loss):
            if not self.in_spike:
                self.count += 1
                self.steps.append(step)
                began = True
            self.in_spike = True
        else:
            self.in_spike = False
        self.recent.append(loss)
        return began

    def take_many(self, steps: Sequence[int], losses: Sequence[float]) -> None:
        """Judge each of ``losses`` at its step of ``steps`` in turn, as :meth:`take` would one by one.

        A block of losses none of which rises above half again the least loss of the window before
        it and the block (the least of every one of their windows, or less) begins no spike: it is
        taken whole, its only effect on the watch the losses it adds (all of ``losses`` at once where
        they are such a block, else BLOCK at a time). Any other block is judged a loss at a time.
        """
        recent = self.recent
        if len(losses) > BLOCK and self._calm(losses):  # (the whole stretch at once: the usual case)
            self.in_spike = False
            recent.extend(losses[-WINDOW:])
            return
        for begin in range(0, len(losses), BLOCK):
            block = losses[begin : begin + BLOCK]
            if self._calm(block):
                self.in_spike = False
                recent.extend(block)
                continue
            take = self.take
            for step, loss in zip(steps[begin : begin + BLOCK], block, strict=True):
                take(step, loss)

    def _calm(self, block: Sequence[float]) -> bool:
        """No loss of ``block`` rises above half again the least loss of the window before it and the
        block (the least of every one of their windows, or less): none begins a spike."""
        if len(self.recent) < MIN_LOSSES:
            return False
        # The block's windows all lie within the window before it and the block (its last loss excepted).
        floor = min(chain(self.recent, islice(block, len(block) - 1)))
        return floor > 0 and math.isfinite(sum(block)) and max(block) <= (1 + SPIKE_RELATIVE) * floor

    def _spiking(self, loss: float) -> bool:
        floor = min(self.recent)
        if floor > 0 and loss <= (1 + SPIKE_RELATIVE) * floor:
            return False  # (cheap: above the median by half of it is above the least by half of that)
        level = statistics.median(self.recent)
        spread = MAD_TO_SIGMA * statistics.median(abs(x - level) for x in self.recent)
        if level == 0 and spread == 0:
            # A loss logged as exactly zero (TRL's GRPO at its start, where the policy is the reference: ``0.000000``
            # until ``0.000100``) has no scale to rise against: its first rise is the loss growing, no spike.
            return False
        return loss - level > max(SPIKE_MADS * spread, SPIKE_RELATIVE * abs(level))
