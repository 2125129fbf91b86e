"""Every loss a step trainer logged: kept row by row, and summarised per 64 steps and coarser for long runs.

A chart has about a thousand pixels across. A run with more losses than :data:`LOSS_POINTS` in
the range is drawn from buckets of steps, each giving its lowest and highest loss at their own
steps, so every spike and dip stays visible. ``loss_bucket`` holds one row per 64 steps and
``loss_level`` the coarser levels, each bucket four of the level below (256, 1,024, … steps),
kept as losses are written: a chart reads the few hundred to 1,500 buckets of one level in one
indexed range, never a million rows. A loss that was not a number is kept as infinity, and each
bucket's first such step is always returned.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from .records import LossColumns, LossPoint

BUCKET_STEPS = 64
LOSS_POINTS = 6400
LOSS_BUCKETS = 1500
ROWS_READ = 12_000  # up to this many losses in a range, buckets are made from the rows themselves
FINITE = 1e308  # below: a number; at or above: infinity, the mark of a loss that was not one
FANOUT = 4  # a coarser level's bucket holds this many of the level below
TOP_LEVEL = 7  # 64 × 4⁷ = 1,048,576 steps a bucket: a few buckets for the longest run
SUMMARY = "first_at, last_at, n, low_step, low, high_step, high, not_finite_step, last_lr_step, last_lr"


_INSERT_LOSS = (
    "INSERT INTO loss VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (source_id, stage, step) DO UPDATE SET"
    " value = excluded.value, lr = coalesce(excluded.lr, lr)"
)


def write_losses(conn: sqlite3.Connection, sid: int, losses: Iterable[LossPoint]) -> None:
    """Keep each logged loss (a step keeps the time it was first placed at) and redo its buckets."""
    if isinstance(losses, LossColumns):
        if not losses:
            return
        # Each row made as it is written: an import's batch holds tens of thousands of them.
        conn.executemany(_INSERT_LOSS, ((sid, *row) for row in losses.rows()))
        stages_steps: Iterable[tuple[str, int]] = zip(losses.stage_column(), losses.steps)
    else:
        rows = [(sid, p.stage, p.step, p.at, p.value, p.lr) for p in losses]
        if not rows:
            return
        conn.executemany(_INSERT_LOSS, rows)
        stages_steps = [(stage, step) for _, stage, step, _, _, _ in rows]
    touched: dict[str, set[int]] = {}
    for stage, step in stages_steps:
        touched.setdefault(stage, set()).add(step // BUCKET_STEPS)
    for stage, buckets in sorted(touched.items()):
        for bucket in sorted(buckets):
            _redo_bucket(conn, sid, stage, bucket)
        redo_levels(conn, sid, stage, buckets)


def _redo_bucket(conn: sqlite3.Connection, sid: int, stage: str, bucket: int) -> None:
    first, end = bucket * BUCKET_STEPS, (bucket + 1) * BUCKET_STEPS
    where = "source_id = ? AND stage = ? AND step >= ? AND step < ?"
    args = (sid, stage, first, end)
    first_at, last_at, n = conn.execute(f"SELECT min(at), max(at), count(*) FROM loss WHERE {where}", args).fetchone()
    if not n:
        conn.execute("DELETE FROM loss_bucket WHERE source_id = ? AND stage = ? AND bucket = ?", (sid, stage, bucket))
        return
    low = conn.execute(f"SELECT step, min(value) FROM loss WHERE {where} AND value < ?", (*args, FINITE)).fetchone()
    high = conn.execute(f"SELECT step, max(value) FROM loss WHERE {where} AND value < ?", (*args, FINITE)).fetchone()
    bad = conn.execute(f"SELECT min(step) FROM loss WHERE {where} AND value >= ?", (*args, FINITE)).fetchone()
    lr = conn.execute(f"SELECT max(step), lr FROM loss WHERE {where} AND lr IS NOT NULL", args).fetchone()
    conn.execute(
        "INSERT OR REPLACE INTO loss_bucket VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (sid, stage, bucket, first_at, last_at, n, low[0], low[1], high[0], high[1], bad[0], lr[0], lr[1]),
    )


def _level(level: int) -> tuple[str, tuple[Any, ...]]:
    """The table and the extra condition (with its argument) of one level's buckets."""
    return ("loss_bucket", ()) if level == 0 else ("loss_level", (level,))


def _where(level: int) -> str:
    return "source_id = ? AND stage = ?" + (" AND level = ?" if level else "")


def redo_levels(conn: sqlite3.Connection, sid: int, stage: str, buckets: Iterable[int]) -> None:
    """Redo the coarser levels' buckets above these 64-step buckets, from the level below each."""
    below = set(buckets)
    for level in range(1, TOP_LEVEL + 1):
        table, extra = _level(level - 1)
        above = {bucket // FANOUT for bucket in below}
        for bucket in sorted(above):
            rows = conn.execute(
                f"SELECT {SUMMARY} FROM {table} WHERE {_where(level - 1)} AND bucket >= ? AND bucket < ?",
                (sid, stage, *extra, bucket * FANOUT, (bucket + 1) * FANOUT),
            ).fetchall()
            if rows:
                conn.execute("INSERT OR REPLACE INTO loss_level VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (sid, stage, level, bucket, *_summary(rows)))
            else:
                conn.execute("DELETE FROM loss_level WHERE source_id = ? AND stage = ? AND level = ? AND bucket = ?",
                             (sid, stage, level, bucket))
        below = above


def _summary(rows: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """One bucket's summary from the (up to four) summaries below it, in ``SUMMARY``'s order."""
    lows = [(r[4], r[3]) for r in rows if r[4] is not None]
    highs = [(r[6], -r[5]) for r in rows if r[6] is not None]
    low, high = min(lows, default=(None, None)), max(highs, default=(None, None))
    bad = [r[7] for r in rows if r[7] is not None]
    rates = [(r[8], r[9]) for r in rows if r[9] is not None]
    last_lr = max(rates, default=(None, None))
    return (min(r[0] for r in rows), max(r[1] for r in rows), sum(r[2] for r in rows), low[1], low[0],
            None if high[1] is None else -high[1], high[0], min(bad, default=None), *last_lr)


def build_levels(conn: sqlite3.Connection) -> None:
    """Make every coarser level from the 64-step buckets (a file written before the levels were kept)."""
    conn.execute("DELETE FROM loss_level")
    for sid, stage in conn.execute("SELECT DISTINCT source_id, stage FROM loss_bucket").fetchall():
        buckets = [b for (b,) in conn.execute(
            "SELECT bucket FROM loss_bucket WHERE source_id = ? AND stage = ?", (sid, stage))]
        redo_levels(conn, sid, stage, buckets)


def merge_losses(conn: sqlite3.Connection, from_id: int, into_id: int) -> None:
    """Move one source's losses into another's (a step the other has stays as it is)."""
    conn.execute("UPDATE OR IGNORE loss SET source_id = ? WHERE source_id = ?", (into_id, from_id))
    conn.execute("DELETE FROM loss WHERE source_id = ?", (from_id,))
    buckets = conn.execute(
        "SELECT DISTINCT stage, bucket FROM loss_bucket WHERE source_id = ?", (from_id,)).fetchall()
    conn.execute("DELETE FROM loss_bucket WHERE source_id = ?", (from_id,))
    conn.execute("DELETE FROM loss_level WHERE source_id = ?", (from_id,))
    for stage, bucket in buckets:
        _redo_bucket(conn, into_id, stage, bucket)
    for stage in {stage for stage, _ in buckets}:
        redo_levels(conn, into_id, stage, [bucket for s, bucket in buckets if s == stage])


def _bounds(conn: sqlite3.Connection, sid: int, stage: str, start: float, end: float
            ) -> tuple[int, int, int, int] | None:
    """``(level, first bucket, last bucket, losses)`` of the range: the finest level at most
    :data:`LOSS_BUCKETS` buckets cover, or the 64-step buckets when the range holds at most
    :data:`ROWS_READ` losses. Read from the top level down, each level only under the one above."""
    # A file an older tokwatch still writes (read here only) has the 64-step buckets alone.
    levels = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'loss_level'").fetchone() is not None
    first, last = 0, 1 << 62
    for level in range(TOP_LEVEL if levels else 0, -1, -1):
        table, extra = _level(level)
        first, last, count = conn.execute(
            f"SELECT min(bucket), max(bucket), sum(n) FROM {table} WHERE {_where(level)}"
            " AND bucket >= ? AND bucket <= ? AND last_at >= ? AND first_at < ?",
            (sid, stage, *extra, first, last, start, end),
        ).fetchone()
        if first is None:
            return None
        if level == 0 or (count > ROWS_READ and (last - first + 1) * FANOUT > LOSS_BUCKETS):
            return level, first, last, count
        first, last = first * FANOUT, last * FANOUT + FANOUT - 1
    raise AssertionError("unreachable")


def losses(conn: sqlite3.Connection, sid: int, stage: str, start: float, end: float) -> dict[str, Any]:
    """``loss`` ([step, value], every one or each bucket's lowest and highest), ``loss_bucket_steps``
    (1: every logged loss) and ``not_finite`` (steps whose loss was not a number) in [start, end)."""
    bounds = _bounds(conn, sid, stage, start, end)
    if bounds is None:
        return {"loss": [], "loss_bucket_steps": 1, "not_finite": [], "lr": []}
    level, first, last, count = bounds
    if count > ROWS_READ:
        # Each bucket of one level, in one indexed range read once in the buckets' order: its lowest
        # and highest at their own steps (the earlier first; once when they are the same step), its
        # first loss that was not a number and its last learning rate. A bucket's steps all come
        # before the next bucket's, so each list comes out in step order without a sort.
        table, extra = _level(level)
        buckets = conn.execute(
            f"SELECT low_step, low, high_step, high, not_finite_step, last_lr_step, last_lr FROM {table}"
            f" WHERE {_where(level)} AND bucket >= ? AND bucket <= ? AND last_at >= ? AND first_at < ?"
            " ORDER BY bucket",
            (sid, stage, *extra, first, last, start, end)).fetchall()
        drawn: list[tuple[int, float]] = []
        for low_step, low, high_step, high, _, _, _ in buckets:
            if low is None:  # no finite loss in the bucket: no highest either
                continue
            if low_step < high_step:
                drawn += ((low_step, low), (high_step, high))
            elif low_step > high_step:
                drawn += ((high_step, high), (low_step, low))
            else:
                drawn.append((low_step, low))
        return {
            "loss": drawn,
            "loss_bucket_steps": BUCKET_STEPS * FANOUT ** level,
            "not_finite": [row[4] for row in buckets if row[4] is not None],
            "lr": [(row[5], row[6]) for row in buckets if row[6] is not None],
        }
    range_args = (sid, stage, first * BUCKET_STEPS, (last + 1) * BUCKET_STEPS, start, end)
    in_range = "source_id = ? AND stage = ? AND step >= ? AND step < ? AND at >= ? AND at < ?"
    not_finite = [step for (step,) in conn.execute(
        f"SELECT step FROM loss WHERE {in_range} AND value >= ? ORDER BY step", (*range_args, FINITE))]
    if count <= LOSS_POINTS:
        return {
            "loss": conn.execute(
                f"SELECT step, value FROM loss WHERE {in_range} AND value < ? ORDER BY step", (*range_args, FINITE)
            ).fetchall(),
            "loss_bucket_steps": 1, "not_finite": not_finite,
            "lr": conn.execute(
                f"SELECT step, lr FROM loss WHERE {in_range} AND lr IS NOT NULL ORDER BY step", range_args).fetchall(),
        }
    # SQLite gives a bare column from the row that min() or max() picked: the extreme's own step.
    width = -(-(last - first + 1) * BUCKET_STEPS // LOSS_BUCKETS)
    extremes = [f"SELECT step, {extreme}(value) FROM loss WHERE {in_range} AND value < ? GROUP BY step / ?"
                for extreme in ("min", "max")]
    args = (*range_args, FINITE, width)
    return {
        "loss": conn.execute(f"{extremes[0]} UNION {extremes[1]} ORDER BY 1", args + args).fetchall(),
        "loss_bucket_steps": width, "not_finite": not_finite,
        "lr": conn.execute(
            f"SELECT max(step), lr FROM loss WHERE {in_range} AND lr IS NOT NULL GROUP BY step / ? ORDER BY 1",
            (*range_args, width)).fetchall(),
    }
