"""The history's runs: each stage of each step-trainer log it keeps, and one run's whole series.

A run in the history is a source's stage (app/store/losses.py keys every logged loss by source,
stage and step): a resume already lands on the steps it logged again (the later loss is kept), so
a run read from here is stitched. Listing reads each run's coarsest buckets and two index look-ups,
and a run's series the same levels the whole-run chart reads: a million steps cost a few
thousand rows, never a scan.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from .losses import FINITE, TOP_LEVEL, losses


@dataclass(frozen=True, slots=True)
class StoredRun:
    """One run the history keeps: where it came from, when it ran, how far it got."""

    source_id: int
    machine: str
    key: str
    stage: str
    started_at: float
    ended_at: float
    first_step: int
    last_step: int
    losses: int

    @property
    def run_id(self) -> str:
        return f"h:{self.source_id}:{self.stage}"


def _has_levels(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'loss_level'").fetchone() is not None


def stored_runs(conn: sqlite3.Connection, only: tuple[int, str] | None = None) -> list[StoredRun]:
    """Every step-trainer run the history keeps, the latest started first (``only``: that source's stage)."""
    args: list[object] = [TOP_LEVEL] if _has_levels(conn) else []
    table, extra = ("loss_level", " AND level = ?") if args else ("loss_bucket", "")
    if only is not None:
        extra += " AND source_id = ? AND stage = ?"
        args += list(only)
    rows = conn.execute(f"SELECT source_id, stage, min(first_at), max(last_at), sum(n) FROM {table} WHERE 1{extra}"
                        " GROUP BY source_id, stage", args).fetchall()
    found: list[StoredRun] = []
    for sid, stage, first_at, last_at, count in rows:
        source = conn.execute("SELECT machine, key FROM source WHERE id = ?", (sid,)).fetchone()
        first, = conn.execute("SELECT min(step) FROM loss WHERE source_id = ? AND stage = ?", (sid, stage)).fetchone()
        last, = conn.execute("SELECT max(step) FROM loss WHERE source_id = ? AND stage = ?", (sid, stage)).fetchone()
        if source is None or first is None:
            continue
        found.append(StoredRun(sid, source[0], source[1], stage, first_at, last_at, first, last, count))
    found.sort(key=lambda run: run.started_at, reverse=True)
    return found


def find_run(conn: sqlite3.Connection, source_id: int, stage: str) -> StoredRun | None:
    """The stored run of this source and stage, or None."""
    found = stored_runs(conn, (source_id, stage))
    return found[0] if found else None


def run_series(conn: sqlite3.Connection, run: StoredRun, *, with_times: bool = False) -> dict[str, Any]:
    """A run's whole chart: ``loss`` (every logged loss, or each bucket's lowest and highest, as the
    whole-run chart reads them), ``loss_bucket_steps``, ``evals`` ({name: [[step, value]]}),
    ``final_loss`` and ``best_loss`` ((step, value) of every logged loss, bucketed or not),
    and with ``with_times`` the time each drawn loss was logged at (``loss_at``)."""
    sid, stage = run.source_id, run.stage
    logged = losses(conn, sid, stage, float("-inf"), float("inf"))
    # Each name's evaluations as SQLite gives the rows, the names found one after another in the key
    # (as the whole-run chart reads them: no Python object per row beyond SQLite's own tuple).
    evals: dict[str, list[tuple[int, float | None]]] = {}
    after = "SELECT name FROM eval WHERE source_id = ? AND stage = ?{} ORDER BY name LIMIT 1"
    found = conn.execute(after.format(""), (sid, stage)).fetchone()
    while found is not None:
        evals[found[0]] = conn.execute("SELECT step, value FROM eval WHERE source_id = ? AND stage = ? AND name = ?"
                                       " ORDER BY step", (sid, stage, found[0])).fetchall()
        found = conn.execute(after.format(" AND name > ?"), (sid, stage, found[0])).fetchone()
    final = conn.execute("SELECT step, value FROM loss WHERE source_id = ? AND stage = ? AND value < ?"
                         " ORDER BY step DESC LIMIT 1", (sid, stage, FINITE)).fetchone()
    body: dict[str, Any] = {
        "loss": logged["loss"], "loss_bucket_steps": logged["loss_bucket_steps"], "evals": evals,
        "final_loss": tuple(final) if final else None, "best_loss": _best(conn, sid, stage),
    }
    if with_times:
        steps = [step for step, _ in logged["loss"]]
        at = dict(conn.execute(
            "SELECT step, at FROM loss WHERE source_id = ? AND stage = ? AND step IN (SELECT value FROM json_each(?))",
            (sid, stage, json.dumps(steps))).fetchall())
        body["loss_at"] = [at.get(step) for step in steps]
        eval_at: dict[str, list[float | None]] = {}
        for name, points in evals.items():
            times = dict(conn.execute("SELECT step, at FROM eval WHERE source_id = ? AND stage = ? AND name = ?",
                                      (sid, stage, name)).fetchall())
            eval_at[name] = [times.get(step) for step, _ in points]
        body["eval_at"] = eval_at
    return body


def _best(conn: sqlite3.Connection, sid: int, stage: str) -> tuple[int, float] | None:
    """The lowest logged loss and its step, from the coarsest buckets (each keeps its lowest)."""
    if _has_levels(conn):
        row = conn.execute("SELECT low_step, min(low) FROM loss_level WHERE source_id = ? AND stage = ? AND level = ?",
                           (sid, stage, TOP_LEVEL)).fetchone()
    else:
        row = conn.execute("SELECT low_step, min(low) FROM loss_bucket WHERE source_id = ? AND stage = ?",
                           (sid, stage)).fetchone()
    return (int(row[0]), float(row[1])) if row is not None and row[1] is not None else None
