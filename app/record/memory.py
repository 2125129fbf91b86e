"""A step trainer's losses and evaluations as this process read them, for a tokwatch that keeps no
history (``--no-history``): the loss chart is drawn from them, saying which steps they cover.

Bounded: the last :data:`MEMORY_LOSSES` losses (as many as the monitor keeps between two reads)
and :data:`MEMORY_EVALS` evaluations. A long run is drawn as the store draws it: every loss up to
``LOSS_POINTS``, else each bucket's lowest and highest at their own steps, every evaluation and
every loss that was not a number.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from typing import Any

from ..stats.events import Event, TrainStep
from ..store.losses import LOSS_BUCKETS, LOSS_POINTS
from ..store.records import EvalPoint, LossPoint
from .logged import LoggedSteps

MEMORY_LOSSES = 100_000
MEMORY_EVALS = 20_000


class RunMemory:
    """The losses and evaluations read since this process started, the newest kept."""

    def __init__(self, max_losses: int = MEMORY_LOSSES, max_evals: int = MEMORY_EVALS) -> None:
        self._logged = LoggedSteps()
        self._losses: deque[LossPoint] = deque(maxlen=max_losses)
        self._evals: deque[EvalPoint] = deque(maxlen=max_evals)
        self.dropped = 0  # losses pushed out by newer ones
        # The latest step line was a dict of a log that prints no step number: its points' x counts the records.
        self._logged_records = False

    def take(self, events: Sequence[Event], fallback_at: float) -> None:
        """Keep the losses and evaluations of ``events``."""
        losses, evals = self._logged.feed(events, fallback_at)
        latest = next((e for e in reversed(events) if isinstance(e, TrainStep)), None)
        if latest is not None:
            self._logged_records = latest.logged
        full = self._losses.maxlen or 0
        self.dropped += max(0, len(self._losses) + len(losses) - full)
        self._losses.extend(losses)
        self._evals.extend(evals)

    def steps(self) -> dict[str, Any] | None:
        """The latest stage's chart as /api/history's ``steps`` gives it, with ``memory_text``; None before a loss."""
        if not self._losses:
            return None
        stage = self._losses[-1].stage
        by_step: dict[int, float] = {}
        rates: dict[int, float] = {}
        for point in self._losses:
            if point.stage == stage:
                by_step[point.step] = point.value
                if point.lr is not None:
                    rates[point.step] = point.lr
        steps = sorted(by_step)
        not_finite = [s for s in steps if not math.isfinite(by_step[s])]
        finite = [s for s in steps if math.isfinite(by_step[s])]
        width = 1
        if len(steps) > LOSS_POINTS:
            width = -(-(steps[-1] - steps[0] + 1) // LOSS_BUCKETS)
            low: dict[int, int] = {}  # bucket → the step of its lowest loss
            high: dict[int, int] = {}
            for s in finite:
                bucket = (s - steps[0]) // width
                if bucket not in low or by_step[s] < by_step[low[bucket]]:
                    low[bucket] = s
                if bucket not in high or by_step[s] > by_step[high[bucket]]:
                    high[bucket] = s
            finite = sorted({*low.values(), *high.values()})
            last_lr: dict[int, int] = {}
            for s in rates:
                last_lr[(s - steps[0]) // width] = max(s, last_lr.get((s - steps[0]) // width, s))
            rates = {s: rates[s] for s in last_lr.values()}
        by_name: dict[str, dict[int, float]] = {}  # a line read twice is one evaluation
        for evaluation in self._evals:
            if evaluation.stage == stage and evaluation.value is not None:
                by_name.setdefault(evaluation.name, {})[evaluation.step] = evaluation.value
        evals: dict[str, list[list[float | None]]] = {
            name: [[s, values[s]] for s in sorted(values)] for name, values in by_name.items()}
        if self._logged_records:  # (a count of dicts is no step)
            covered = f"logged records {steps[0]:,}–{steps[-1]:,}" if len(steps) > 1 else f"logged record {steps[0]:,}"
        else:
            covered = f"steps {steps[0]:,}–{steps[-1]:,}" if len(steps) > 1 else f"step {steps[0]:,}"
        older = f" (older ones were let go: it keeps the last {self._losses.maxlen or 0:,})" if self.dropped else ""
        return {
            "stage": stage,
            "loss": [[s, by_step[s]] for s in finite],
            "loss_bucket_steps": width,
            "not_finite": not_finite,
            "lr": [[s, rates[s]] for s in sorted(rates)],
            "tokens_per_hour": [],
            "steps_per_hour": [],
            "evals": evals,
            "memory_text": (f"From memory: {covered}, the losses this tokwatch read from the log since it"
                            f" started{older}; it keeps no history (--no-history)."),
        }
