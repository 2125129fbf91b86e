"""Every loss a step trainer logged: kept row by row, and summarised per 64 steps for long runs.

A chart has about a thousand pixels across. A run with more losses than :data:`LOSS_POINTS` in
the range is drawn from buckets of steps, each giving its lowest and highest loss at their own
steps, so every spike and dip stays visible; the buckets are read from ``loss_bucket`` (one row
per 64 steps), never by scanning a million rows. A loss that was not a number is kept as
infinity, and each 64 steps' first such step is always returned.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from .records import LossPoint

BUCKET_STEPS = 64
LOSS_POINTS = 6400
LOSS_BUCKETS = 1500
ROWS_READ = 50_000  # up to this many losses in a range, buckets are made from the rows themselves
FINITE = 1e308  # below: a number; at or above: infinity, the mark of a loss that was not one


def write_losses(conn: sqlite3.Connection, sid: int, losses: Iterable[LossPoint]) -> None:
    """Keep each logged loss (a step keeps the time it was first placed at) and redo its buckets."""
    rows = [(sid, p.stage, p.step, p.at, p.value, p.lr) for p in losses]
    if not rows:
        return
    conn.executemany(
        "INSERT INTO loss VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (source_id, stage, step) DO UPDATE SET"
        " value = excluded.value, lr = coalesce(excluded.lr, lr)",
        rows,
    )
    for stage, bucket in sorted({(stage, step // BUCKET_STEPS) for _, stage, step, _, _, _ in rows}):
        _redo_bucket(conn, sid, stage, bucket)


def _redo_bucket(conn: sqlite3.Connection, sid: int, stage: str, bucket: int) -> None:
    first, end = bucket * BUCKET_STEPS, (bucket + 1) * BUCKET_STEPS
    where = "source_id = ? AND stage = ? AND step >= ? AND step < ?"
    args = (sid, stage, first, end)
    first_at, last_at, n = conn.execute(f"SELECT min(at), max(at), count(*) FROM loss WHERE {where}", args).fetchone()
    if not n:
        return
    low = conn.execute(f"SELECT step, min(value) FROM loss WHERE {where} AND value < ?", (*args, FINITE)).fetchone()
    high = conn.execute(f"SELECT step, max(value) FROM loss WHERE {where} AND value < ?", (*args, FINITE)).fetchone()
    bad = conn.execute(f"SELECT min(step) FROM loss WHERE {where} AND value >= ?", (*args, FINITE)).fetchone()
    lr = conn.execute(f"SELECT max(step), lr FROM loss WHERE {where} AND lr IS NOT NULL", args).fetchone()
    conn.execute(
        "INSERT OR REPLACE INTO loss_bucket VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (sid, stage, bucket, first_at, last_at, n, low[0], low[1], high[0], high[1], bad[0], lr[0], lr[1]),
    )


def prune_losses(conn: sqlite3.Connection, before: float) -> None:
    """Drop the losses logged before ``before``, and the buckets that then hold none."""
    conn.execute("DELETE FROM loss WHERE at < ?", (before,))
    conn.execute("DELETE FROM loss_bucket WHERE last_at < ?", (before,))


def merge_losses(conn: sqlite3.Connection, from_id: int, into_id: int) -> None:
    """Move one source's losses into another's (a step the other has stays as it is)."""
    conn.execute("UPDATE OR IGNORE loss SET source_id = ? WHERE source_id = ?", (into_id, from_id))
    conn.execute("DELETE FROM loss WHERE source_id = ?", (from_id,))
    buckets = conn.execute(
        "SELECT DISTINCT stage, bucket FROM loss_bucket WHERE source_id = ?", (from_id,)).fetchall()
    conn.execute("DELETE FROM loss_bucket WHERE source_id = ?", (from_id,))
    for stage, bucket in buckets:
        _redo_bucket(conn, into_id, stage, bucket)


def losses(conn: sqlite3.Connection, sid: int, stage: str, start: float, end: float) -> dict[str, Any]:
    """``loss`` ([step, value], every one or each bucket's lowest and highest), ``loss_bucket_steps``
    (1: every logged loss) and ``not_finite`` (steps whose loss was not a number) in [start, end)."""
    first, last, count = conn.execute(
        "SELECT min(bucket), max(bucket), sum(n) FROM loss_bucket"
        " WHERE source_id = ? AND stage = ? AND last_at >= ? AND first_at < ?",
        (sid, stage, start, end),
    ).fetchone()
    if first is None:
        return {"loss": [], "loss_bucket_steps": 1, "not_finite": [], "lr": []}
    range_args = (sid, stage, first * BUCKET_STEPS, (last + 1) * BUCKET_STEPS, start, end)
    in_range = "source_id = ? AND stage = ? AND step >= ? AND step < ? AND at >= ? AND at < ?"
    not_finite: list[int] = []
    kept: dict[int, float] = {}
    rates: dict[int, float] = {}  # the learning rate: every one, or each bucket's last
    if count <= LOSS_POINTS:
        for step, value, lr in conn.execute(f"SELECT step, value, lr FROM loss WHERE {in_range}", range_args):
            if value < FINITE:
                kept[step] = value
            else:
                not_finite.append(step)
            if lr is not None:
                rates[step] = lr
        return {"loss": [[step, kept[step]] for step in sorted(kept)], "loss_bucket_steps": 1,
                "not_finite": sorted(not_finite), "lr": [[step, rates[step]] for step in sorted(rates)]}
    # SQLite gives a bare column from the row that min() or max() picked: the extreme's own step.
    if count <= ROWS_READ:
        width = -(-(last - first + 1) * BUCKET_STEPS // LOSS_BUCKETS)
        args: tuple[Any, ...] = (*range_args, FINITE, width)
        queries = [f"SELECT step, {extreme}(value) FROM loss WHERE {in_range} AND value < ? GROUP BY step / ?"
                   for extreme in ("min", "max")]
        bad: tuple[str, tuple[Any, ...]] = (f"SELECT step FROM loss WHERE {in_range} AND value >= ?",
                                            (*range_args, FINITE))
        last_lr: tuple[str, tuple[Any, ...]] = (
            f"SELECT max(step), lr FROM loss WHERE {in_range} AND lr IS NOT NULL GROUP BY step / ?", (*range_args, width))
    else:
        buckets = -(-(last - first + 1) // LOSS_BUCKETS)
        width = buckets * BUCKET_STEPS
        in_buckets = "source_id = ? AND stage = ? AND last_at >= ? AND first_at < ?"
        args = (sid, stage, start, end, buckets)
        queries = [
            f"SELECT low_step, min(low) FROM loss_bucket WHERE {in_buckets} AND low IS NOT NULL GROUP BY bucket / ?",
            f"SELECT high_step, max(high) FROM loss_bucket WHERE {in_buckets} AND high IS NOT NULL GROUP BY bucket / ?",
        ]
        bad = (f"SELECT not_finite_step FROM loss_bucket WHERE {in_buckets} AND not_finite_step IS NOT NULL",
               (sid, stage, start, end))
        last_lr = ((f"SELECT max(last_lr_step), last_lr FROM loss_bucket WHERE {in_buckets} AND last_lr IS NOT NULL"
                    " GROUP BY bucket / ?"), args)
    for query in queries:
        for step, value in conn.execute(query, args):
            kept[int(step)] = float(value)
    not_finite = sorted(int(step) for (step,) in conn.execute(*bad))
    rates = {int(step): float(lr) for step, lr in conn.execute(*last_lr)}
    return {"loss": [[step, kept[step]] for step in sorted(kept)], "loss_bucket_steps": width, "not_finite": not_finite,
            "lr": [[step, rates[step]] for step in sorted(rates)]}
