"""A sliding window of amounts spread over time intervals, credited by overlap."""

from __future__ import annotations

import math
import operator
from array import array
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Sequence
from itertools import accumulate, islice, repeat

# Dropped items are removed from the lists in one slice once this many have piled up.
_COMPACT_AT = 4096


def _extend(column: array[float], values: Sequence[float]) -> None:
    """``column.extend(values)``; a list's at once (``fromlist``: sized once, not an item at a time)."""
    if isinstance(values, list):
        column.fromlist(values)
    else:
        column.extend(values)


class IntervalWindow:
    """Amounts that accrued evenly over ``[start, end]``, kept for ``span_seconds`` behind the newest end.

    A step line that covers ten iterations over 336 s is an interval, not a point: asked for the
    last 20 minutes, the window credits only the share of each interval that lies inside them
    (a line far apart from its predecessor would otherwise count whole). Ends must be added in
    non-decreasing order.

    A running sum answers :meth:`total` without walking the window: the intervals wholly inside
    are a difference of two running sums; only those that cross either edge are looked at (an
    interval crosses the start only if it is longer than the distance from the start to its end,
    so the longest interval kept bounds that look).
    """

    def __init__(self, span_seconds: float) -> None:
        self.span_seconds = span_seconds
        # Doubles, not lists of float objects: a window holds the 20 minutes of an every-step log's
        # steps (tens of thousands), in the live view and in an import alike.
        self._starts = array("d")
        self._ends = array("d")
        self._amounts = array("d")
        self._sums = array("d", [0.0])  # _sums[i]: the amounts of items before i (since the last compaction)
        self._head = 0  # items before it have left the window
        # Indices of the items whose length no later item reaches: the longest kept is the first.
        self._longest: deque[int] = deque()

    def add(self, start: float, end: float, amount: float) -> None:
        """Record ``amount`` spread over ``[start, end]`` (a point when start == end)."""
        start = min(start, end)
        starts, ends, sums, longest = self._starts, self._ends, self._sums, self._longest
        i = len(ends)
        starts.append(start)
        ends.append(end)
        self._amounts.append(amount)
        sums.append(sums[-1] + amount)
        length = end - start
        while longest and ends[longest[-1]] - starts[longest[-1]] <= length:
            longest.pop()
        longest.append(i)
        cutoff = end - self.span_seconds
        head = self._head
        if ends[head] > cutoff:
            return  # nothing left the window
        # Usually just the one line that a steady run's new line pushes out: walked, not searched.
        head += 1
        while head <= i and ends[head] <= cutoff:
            head += 1
        self._head = head
        while longest and longest[0] < head:
            longest.popleft()
        if head >= _COMPACT_AT and head * 2 >= len(ends):
            self._compact()

    def add_many(self, starts: Sequence[float], ends: Sequence[float], amounts: Sequence[float]) -> None:
        """:meth:`add` each ``(start, end, amount)`` in turn, the window left as those calls leave it.

        In bulk (a step log's import adds hundreds of thousands): the running sums accumulate in
        the same order, the window's head moves to where the last end puts it, and the longest
        items kept are those no later item reaches, as one by one; where :meth:`add` would compact
        the lists, they are compacted after the same item.
        """
        lo, count = 0, len(ends)
        if count and not (math.isfinite(sum(starts)) and math.isfinite(sum(ends))):
            for row in zip(starts, ends, amounts, strict=True):
                self.add(*row)  # (not numbers: as one by one, whatever that makes of them)
            return
        while lo < count:
            cut = self._compaction(ends, lo)
            self._add_many(starts[lo:cut], ends[lo:cut], amounts[lo:cut])
            if cut < count or self._head >= _COMPACT_AT and self._head * 2 >= len(self._ends):
                self._compact()
            lo = cut

    def _compaction(self, ends: Sequence[float], lo: int) -> int:
        """The end of the stretch from ``lo`` whose last item :meth:`add` would compact after (``len(ends)``: none)."""
        old_ends, before, head = self._ends, len(self._ends), self._head
        last = ends[-1] - self.span_seconds
        bound = bisect_right(old_ends, last, head)
        if bound >= before:
            bound = before + bisect_right(ends, last, lo) - lo
        if bound < _COMPACT_AT or bound * 2 < before + 1:
            return len(ends)  # not even the last item's head would be far enough
        for i in range(lo, len(ends)):  # (a few times in ten thousand items)
            cutoff = ends[i] - self.span_seconds
            head = bisect_right(old_ends, cutoff, head)
            if head >= before:
                head = before + bisect_right(ends, cutoff, lo, i + 1) - lo
            # after an add, never both (it would have compacted): the first item where both hold compacts
            if head >= _COMPACT_AT and head * 2 >= before + i - lo + 1:
                return i + 1
        return len(ends)

    def _add_many(self, starts: Sequence[float], ends: Sequence[float], amounts: Sequence[float]) -> None:
        """:meth:`add_many` of items after which no :meth:`add` would compact (but perhaps after the last)."""
        count = len(ends)
        if not count:
            return
        old_ends = self._ends
        before = len(old_ends)
        cutoff = ends[-1] - self.span_seconds
        head = bisect_right(old_ends, cutoff, self._head)
        if head >= before:
            head = before + bisect_right(ends, cutoff)
        lengths = list(map(operator.sub, ends, starts))
        if min(lengths) < 0:  # (a start after its end: a point at the end, as add makes it)
            starts = list(map(min, starts, ends))
            lengths = list(map(operator.sub, ends, starts))
        _extend(self._starts, starts)
        _extend(old_ends, ends)
        _extend(self._amounts, amounts)
        self._sums.fromlist(list(islice(accumulate(amounts, initial=self._sums[-1]), 1, None)))
        # An item stays among the longest while no later item is as long: the kept ones against the
        # longest new one, the new ones against the longest after each (the last of equals).
        top = max(lengths)
        longest, all_starts = self._longest, self._starts
        while longest and old_ends[longest[-1]] - all_starts[longest[-1]] <= top:
            longest.pop()
        backwards, last, i = lengths[::-1], count - 1, 0
        while i < count:
            i = last - backwards.index(max(lengths[i:]) if i else top)  # the last of the longest from i on
            longest.append(before + i)
            i += 1
        while longest and longest[0] < head:
            longest.popleft()
        self._head = head

    def _compact(self) -> None:
        head = self._head
        base = self._sums[head]
        del self._starts[:head], self._ends[:head], self._amounts[:head]
        self._sums = array("d", map(operator.sub, self._sums[head:], repeat(base)))  # re-based, so the sums stay small
        self._longest = deque(i - head for i in self._longest)
        self._head = 0

    def clear(self) -> None:
        """Forget everything."""
        self._starts = array("d")
        self._ends = array("d")
        self._amounts = array("d")
        self._sums = array("d", [0.0])
        self._head = 0
        self._longest.clear()

    def total(self, start: float, end: float) -> float:
        """The amount credited to ``(start, end]``: each interval's share that lies inside it."""
        starts, ends, amounts = self._starts, self._ends, self._amounts
        first = bisect_right(ends, start, self._head)  # the first item ending after start
        # Items [first, inside_end) end before ``end``; those ending at or after it are looked at
        # one by one (a point at ``end`` itself is not credited, as the walk it replaced did).
        inside_end = bisect_left(ends, end, first)
        credited = self._sums[inside_end] - self._sums[first]
        if not self._longest or first >= inside_end:
            reach = first
        else:
            # Only an item longer than (its end - start) begins before start.
            longest = ends[self._longest[0]] - starts[self._longest[0]]
            reach = bisect_left(ends, start + longest, first, inside_end)
            reach = min(inside_end, reach + 1)
        for i in range(first, reach):
            lo, hi = starts[i], ends[i]
            if lo < start and hi > lo:
                credited -= amounts[i] * (start - lo) / (hi - lo)
        for i in range(inside_end, len(ends)):  # their share before ``end``
            lo, hi = starts[i], ends[i]
            if lo >= end or hi <= lo:
                continue
            inside = end - max(lo, start)
            if inside > 0:
                credited += amounts[i] * inside / (hi - lo)
        return credited

    def __len__(self) -> int:
        return len(self._ends) - self._head
