"""A sliding window of amounts spread over time intervals, credited by overlap."""

from __future__ import annotations

from collections import deque


class IntervalWindow:
    """Amounts that accrued evenly over ``[start, end]``, kept for ``span_seconds`` behind the newest end.

    A step line that covers ten iterations over 336 s is an interval, not a point: asked for the
    last 20 minutes, the window credits only the share of each interval that lies inside them
    (a line far apart from its predecessor would otherwise count whole). Ends must be added in
    non-decreasing order.
    """

    def __init__(self, span_seconds: float) -> None:
        self.span_seconds = span_seconds
        self._items: deque[tuple[float, float, float]] = deque()  # (start, end, amount)

    def add(self, start: float, end: float, amount: float) -> None:
        """Record ``amount`` spread over ``[start, end]`` (a point when start == end)."""
        start = min(start, end)
        self._items.append((start, end, amount))
        cutoff = end - self.span_seconds
        items = self._items
        while items and items[0][1] <= cutoff:
            items.popleft()

    def clear(self) -> None:
        """Forget everything."""
        self._items.clear()

    def total(self, start: float, end: float) -> float:
        """The amount credited to ``(start, end]``: each interval's share that lies inside it."""
        credited = 0.0
        for lo, hi, amount in reversed(self._items):
            if hi <= start:
                break
            if lo >= end:
                continue
            if hi <= lo:
                if start < hi <= end:
                    credited += amount
                continue
            inside = min(hi, end) - max(lo, start)
            if inside > 0:
                credited += amount * inside / (hi - lo)
        return credited

    def __len__(self) -> int:
        return len(self._items)
