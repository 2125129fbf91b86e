"""A sliding time window of weighted samples, bounded in memory."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import deque


class SlidingWindow:
    """Samples ``(time, amount)`` kept for ``span_seconds`` behind the newest time added.

    Times must be added in non-decreasing order (callers clamp out-of-order log times).
    """

    def __init__(self, span_seconds: float) -> None:
        self.span_seconds = span_seconds
        self._times: deque[float] = deque()
        self._amounts: deque[float] = deque()

    def add(self, at: float, amount: float = 1.0) -> None:
        """Record ``amount`` at ``at`` and forget what fell out of the span."""
        self._times.append(at)
        self._amounts.append(amount)
        self.evict(at)

    def evict(self, newest: float) -> float:
        """Drop samples at or before ``newest - span_seconds``; return the time from which the next one is dropped (infinity: none kept)."""
        span = self.span_seconds
        cutoff = newest - span
        times = self._times
        while times and times[0] <= cutoff:
            times.popleft()
            self._amounts.popleft()
        return times[0] + span if times else math.inf

    def clear(self) -> None:
        """Forget every sample."""
        self._times.clear()
        self._amounts.clear()

    def count(self, start: float, end: float) -> int:
        """Number of samples with ``start < time <= end``."""
        return bisect_right(self._times, end) - bisect_right(self._times, start)

    def total(self, start: float, end: float) -> float:
        """Sum of amounts with ``start < time <= end``."""
        lo = bisect_right(self._times, start)
        hi = bisect_right(self._times, end)
        amounts = self._amounts
        return float(sum(amounts[i] for i in range(lo, hi)))

    def __len__(self) -> int:
        return len(self._times)
