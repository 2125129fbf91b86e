"""A miner's tok/h over two spans of time, side by side: this week against last week (or any two),
per layer, each layer's median the way "vs your usual" takes it.

A span's figures come from its 5-minute buckets while they are kept (30 days), else from its
hourly ones; only buckets spent training the whole time count, each as its mean weighed by its
measured samples (app/store/queries.py ``usual``). Each span's points are hourly means against the
time since the span began, so two weeks overlay hour for hour.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from .queries import _weighted_median
from .records import SAMPLE_SECONDS
from .write import FIVE_MINUTES, HOUR, KEEP_SECONDS

WEEK_SECONDS = 7 * 24 * HOUR


@dataclass(frozen=True, slots=True)
class Span:
    """``[start, end)`` in unix seconds, and what a person calls it."""

    start: float
    end: float
    label: str


def weeks(now: float) -> tuple[Span, Span]:
    """The last 7 days and the 7 days before them."""
    return Span(now - WEEK_SECONDS, now, "this week"), Span(now - 2 * WEEK_SECONDS, now - WEEK_SECONDS, "last week")


def span_figures(conn: sqlite3.Connection, sid: int, span: Span, now: float) -> dict[str, Any]:
    """``{label, from, to, bucket_seconds, layers: {layer: {median, basis_hours}}, points: [[offset, tph, layer]]}``."""
    tier = FIVE_MINUTES if span.start >= now - KEEP_SECONDS[FIVE_MINUTES] else HOUR
    rows = conn.execute(
        "SELECT t, tph_sum, measured, layer FROM rollup WHERE source_id = ? AND span = ? AND t >= ? AND t + ? <= ?"
        " AND measured > 0 AND training = samples AND tph_sum IS NOT NULL ORDER BY t",
        (sid, tier, span.start, tier, span.end)).fetchall()
    by_layer: dict[int, list[tuple[float, float]]] = {}
    hours: dict[tuple[int, int], list[float]] = {}
    for t, total, measured, layer in rows:
        if layer is None:
            continue
        by_layer.setdefault(layer, []).append((total / measured, float(measured)))
        hour = int((t - span.start) // HOUR)
        kept = hours.setdefault((hour, layer), [0.0, 0.0])
        kept[0] += total
        kept[1] += measured
    layers = {
        str(layer): {"median": _weighted_median(values),
                     "basis_hours": round(sum(w for _, w in values) * SAMPLE_SECONDS / HOUR, 3)}
        for layer, values in sorted(by_layer.items())
    }
    points = [[hour * HOUR, round(total / measured, 1), layer] for (hour, layer), (total, measured) in sorted(hours.items())]
    return {"label": span.label, "from": span.start, "to": span.end, "bucket_seconds": tier, "layers": layers,
            "points": points}
