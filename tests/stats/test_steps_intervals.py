"""The step window's running sums credit exactly what a walk over every interval credits."""

from __future__ import annotations

import random
from array import array
from collections import deque

import pytest

from app.stats.steps.intervals import IntervalWindow


def walked(items: list[tuple[float, float, float]], span: float, start: float, end: float) -> float:
    """Each kept interval's share inside ``(start, end]``, one by one (the definition)."""
    newest = max(hi for _, hi, _ in items)
    credited = 0.0
    for lo, hi, amount in items:
        if hi <= newest - span or hi <= start or lo >= end:
            continue
        if hi <= lo:
            credited += amount if start < hi <= end else 0.0
            continue
        inside = min(hi, end) - max(lo, start)
        if inside > 0:
            credited += amount * inside / (hi - lo)
    return credited


@pytest.mark.parametrize("seed", range(4))
def test_total_matches_a_walk_over_every_interval(seed: int) -> None:
    rng = random.Random(seed)
    span = 1200.0
    window = IntervalWindow(span)
    items: list[tuple[float, float, float]] = []
    t = 1000.0
    for n in range(5_000):
        gap = rng.choice((0.0, 0.1, 0.3, 2.0, 30.0, 700.0)) if n % 97 else 3000.0
        length = rng.choice((0.0, 0.3, gap, 5.0, 900.0))  # points, touching and overlapping intervals
        t += gap
        amount = rng.uniform(0, 100)
        window.add(t - length, t, amount)
        items.append((min(t - length, t), t, amount))
        if n % 113 == 0:
            for start, end in ((t - span, t), (t - 300.0, t - 10.0), (t - span + 50, t + 400), (t + 5, t + 10)):
                assert window.total(start, end) == pytest.approx(walked(items, span, start, end), rel=1e-9, abs=1e-6)
    kept = sum(1 for _, hi, _ in items if hi > t - span)
    assert len(window) == kept


def test_clear_forgets_everything() -> None:
    window = IntervalWindow(60.0)
    window.add(0.0, 10.0, 5.0)
    window.clear()
    window.add(20.0, 30.0, 1.0)
    assert window.total(0.0, 30.0) == pytest.approx(1.0)
    assert len(window) == 1


class EagerWindow(IntervalWindow):
    """A window whose compaction re-bases every kept sum at once (what the lazy re-basing must read as)."""

    def _compact(self) -> None:
        head = self._head
        base = self._sums[head]
        del self._starts[:head], self._ends[:head], self._amounts[:head]
        self._sums = array("d", [value - base for value in self._sums[head:]])
        self._longest = deque(i - head for i in self._longest)
        self._head = 0


@pytest.mark.parametrize("span", [2.0, 30.0])
def test_sums_re_based_as_read_are_those_re_based_at_each_compaction(span: float) -> None:
    rng = random.Random(7)
    lazy, eager = IntervalWindow(span), EagerWindow(span)
    t = 0.0
    for n in range(40_000):
        t += rng.choice((0.001, 0.003, 0.01))
        amount = rng.uniform(0, 1e6) if n % 3 else rng.randint(1, 9)
        lazy.add(t - 0.002, t, amount)
        eager.add(t - 0.002, t, amount)
        if n % 997 == 0:
            assert lazy.total(t - span / 3, t) == eager.total(t - span / 3, t)
    assert len(lazy._rebased) >= 1  # it compacted, and reads some sums through a re-basing
    assert [lazy._sum(i) for i in range(len(lazy._sums))] == list(eager._sums)
