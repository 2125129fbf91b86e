"""The step window's running sums credit exactly what a walk over every interval credits."""

from __future__ import annotations

import random

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
