"""The last hour of tok/h, sampled every 30 s of log time, for the sparkline."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

HISTORY_STEP_SECONDS = 30
HISTORY_SPAN_SECONDS = 60 * 60

Point = tuple[float, float | None]


class RateHistory:
    """tok/h at every 30 s boundary the log's clock passed, the last hour of them."""

    def __init__(self) -> None:
        self._points: deque[Point] = deque(maxlen=HISTORY_SPAN_SECONDS // HISTORY_STEP_SECONDS)
        self._next_sample: float | None = None

    def __len__(self) -> int:
        return len(self._points)

    def start(self, at: float) -> None:
        """The log's first time: sampling starts at the next boundary."""
        self._next_sample = math.ceil(at / HISTORY_STEP_SECONDS) * HISTORY_STEP_SECONDS

    def sample_until(self, until: float, rate: Callable[[float], float | None], *, store: bool = True) -> list[Point]:
        """Sample ``rate`` at every boundary up to ``until`` (stored, or returned for a preview)."""
        sample = self._next_sample
        if sample is None:
            return []
        if until - sample > HISTORY_SPAN_SECONDS:  # a long gap: only the last hour matters
            sample = until - HISTORY_SPAN_SECONDS
            sample = math.ceil(sample / HISTORY_STEP_SECONDS) * HISTORY_STEP_SECONDS
        taken: list[Point] = []
        while sample <= until:
            taken.append((sample, rate(sample)))
            sample += HISTORY_STEP_SECONDS
        if store:
            self._points.extend(taken)
            self._next_sample = sample
        return taken

    def view(
        self, now: float, latest: float | None, rate: Callable[[float], float | None]
    ) -> tuple[Point, ...]:
        """The points in the hour before ``now`` (sampled on past the log's newest time)."""
        points = list(self._points)
        if latest is not None and now > latest:
            points.extend(self.sample_until(now, rate, store=False))
        cutoff = now - HISTORY_SPAN_SECONDS
        return tuple(point for point in points if cutoff < point[0] <= now)
