"""A sliding window of amounts spread over time intervals, credited by overlap."""

from __future__ import annotations

import math
import operator
import struct
from array import array
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, islice

# Dropped items are removed from the lists in one slice once this many have piled up.
_COMPACT_AT = 4096


def _extend(column: array[float], values: Iterable[float]) -> None:
    """``column.extend(values)``, packed as doubles at once: ``fromlist`` parses each item's type
    apart, ``struct`` converts them as the array would (the same double for a float or an int)."""
    if isinstance(values, array):
        column.extend(values)
    else:
        items = values if isinstance(values, (list, tuple)) else tuple(values)
        column.frombytes(struct.pack(f"{len(items)}d", *items))


class Intervals:
    """Intervals ``[start, end]`` prepared once for every window that takes them (a run's steps and its
    tokens cover the same lines): their lengths, and which of them no later one is as long as."""

    __slots__ = ("_longest", "ends", "finite", "lengths", "starts")

    def __init__(self, starts: Sequence[float], ends: Sequence[float]) -> None:
        self.ends = ends
        # (a sum past a double's range, nan or inf: IntervalWindow.add_many adds them one by one)
        self.finite = not ends or (math.isfinite(sum(starts)) and math.isfinite(sum(ends)))
        lengths = list(map(operator.sub, ends, starts))
        if self.finite and lengths and min(lengths) < 0:  # (a start after its end: a point at the end, as add makes it)
            starts = list(map(min, starts, ends))
            lengths = list(map(operator.sub, ends, starts))
        self.starts = starts
        self.lengths = lengths
        self._longest: list[int] | None = None

    def longest(self) -> list[int]:
        """The places of the items no later item is as long as (the last of equals), first to last."""
        if self._longest is None:
            self._longest = _longest(self.lengths)
        return self._longest


def _longest(lengths: list[float]) -> list[int]:
    """The places in ``lengths`` of the items no later item is as long as (the last of equals), in order."""
    count = len(lengths)
    backwards, last, i, places = lengths[::-1], count - 1, 0, []
    while i < count:
        i = last - backwards.index(max(lengths[i:]))  # the last of the longest from i on
        places.append(i)
        i += 1
    return places


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
        # Re-basings not yet made: (end, base), oldest first: from each of _sums[:end], ``base`` is
        # still to be subtracted (a compaction's re-basing of the sums it keeps, made when one is read:
        # _sum). Each end is no less than the one before.
        self._rebased: list[tuple[int, float]] = []
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
        sums.append(self._sum(i) + amount)
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
        """:meth:`add` each ``(start, end, amount)`` in turn, the window left as those calls leave it."""
        self.add_intervals(Intervals(starts, ends), amounts)

    def add_intervals(self, items: Intervals, amounts: Sequence[float]) -> None:
        """:meth:`add_many` of ``items`` (prepared once for all the windows that take them).

        In bulk (a step log's import adds hundreds of thousands): the running sums accumulate in
        the same order, the window's head moves to where the last end puts it, and the longest
        items kept are those no later item reaches, as one by one; where :meth:`add` would compact
        the lists, they are compacted after the same item.
        """
        ends = items.ends
        lo, count = 0, len(ends)
        if not items.finite:
            for row in zip(items.starts, ends, amounts, strict=True):
                self.add(*row)  # (not numbers: as one by one, whatever that makes of them)
            return
        while lo < count:
            cut = self._compaction(ends, lo)
            if lo == 0 and cut == count:
                self._add_many(items.starts, ends, amounts, items.lengths, items.longest)
            else:
                lengths = items.lengths[lo:cut]
                self._add_many(items.starts[lo:cut], ends[lo:cut], amounts[lo:cut], lengths,
                               lambda lengths=lengths: _longest(lengths))  # type: ignore[misc]
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

    def _add_many(self, starts: Sequence[float], ends: Sequence[float], amounts: Sequence[float],
                  lengths: list[float], longest: Callable[[], list[int]]) -> None:
        """:meth:`add_many` of items after which no :meth:`add` would compact (but perhaps after the last):
        ``lengths`` theirs, ``longest()`` the places of those no later one is as long as (_longest)."""
        count = len(ends)
        if not count:
            return
        old_ends = self._ends
        before = len(old_ends)
        cutoff = ends[-1] - self.span_seconds
        head = bisect_right(old_ends, cutoff, self._head)
        if head >= before:
            head = before + bisect_right(ends, cutoff)
        _extend(self._starts, starts)
        _extend(old_ends, ends)
        _extend(self._amounts, amounts)
        _extend(self._sums, islice(accumulate(amounts, initial=self._sum(before)), 1, None))
        # An item stays among the longest while no later item is as long: the kept ones against the
        # longest new one, the new ones against the longest after each (the last of equals).
        places = longest()
        top = lengths[places[0]]
        kept, all_starts = self._longest, self._starts
        while kept and old_ends[kept[-1]] - all_starts[kept[-1]] <= top:
            kept.pop()
        kept.extend(before + i for i in places)
        while kept and kept[0] < head:
            kept.popleft()
        self._head = head

    def _sum(self, i: int) -> float:
        """``_sums[i]`` as the compactions since it was added re-based it (each subtracting its base in turn)."""
        value = self._sums[i]
        rebased = self._rebased
        if rebased and i < rebased[-1][0]:
            for k in range(bisect_right(rebased, i, key=operator.itemgetter(0)), len(rebased)):
                value -= rebased[k][1]
        return value

    def _compact(self) -> None:
        head = self._head
        base = self._sum(head)
        del self._starts[:head], self._ends[:head], self._amounts[:head], self._sums[:head]
        # The sums kept are re-based, so they stay small: each one as it is read (the same subtraction, in
        # the same order), not all of them at once.
        self._rebased = [(end - head, earlier) for end, earlier in self._rebased if end > head]
        self._rebased.append((len(self._sums), base))
        self._longest = deque(i - head for i in self._longest)
        self._head = 0

    def clear(self) -> None:
        """Forget everything."""
        self._starts = array("d")
        self._ends = array("d")
        self._amounts = array("d")
        self._sums = array("d", [0.0])
        self._rebased = []
        self._head = 0
        self._longest.clear()

    def total(self, start: float, end: float) -> float:
        """The amount credited to ``(start, end]``: each interval's share that lies inside it."""
        starts, ends, amounts = self._starts, self._ends, self._amounts
        first = bisect_right(ends, start, self._head)  # the first item ending after start
        # Items [first, inside_end) end before ``end``; those ending at or after it are looked at
        # one by one (a point at ``end`` itself is not credited, as the walk it replaced did).
        inside_end = bisect_left(ends, end, first)
        credited = self._sum(inside_end) - self._sum(first)
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
