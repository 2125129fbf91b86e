"""The hub's own SQLite file (``hub.sqlite3`` in the data dir): machines, their newest report, a sample a minute.

Kept apart from the history file of the dashboard, so neither schema can collide with the
other. One connection behind a lock; WAL, so ``tokwatch hub enroll`` may write while a hub runs.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .keys import check_name, hash_key, looks_like_key, new_key
from .report import Report

FILE_NAME = "hub.sqlite3"
SAMPLE_SECONDS = 60  # one chart point a minute per machine: 10k rows a week each
# The states whose rate is production: summed in the fleet's header, sampled for charts and today's
# tokens (measuring has no rate yet; idle, silent, queued and offline machines produce nothing).
PRODUCING = frozenset({"training"})
RETENTION_SECONDS = 8 * 86400  # the 7-day chart, and a day of slack
SCHEMA_VERSION = 2
_SCHEMA = """
CREATE TABLE machine (
    name TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    enrolled_at REAL NOT NULL,
    revoked_at REAL
);
-- The newest report of each machine, as validated; stream + seq make resends harmless.
CREATE TABLE latest (
    name TEXT PRIMARY KEY REFERENCES machine(name),
    stream TEXT NOT NULL,
    seq INTEGER NOT NULL,
    received_at REAL NOT NULL,
    as_of REAL NOT NULL,
    interval_seconds REAL NOT NULL,
    snapshot TEXT NOT NULL,
    reports INTEGER NOT NULL  -- reports taken from this machine since its enrolment
);
-- A minute's figures per machine (the last report in that minute), for the charts.
CREATE TABLE sample (
    name TEXT NOT NULL,
    t INTEGER NOT NULL,
    tokens_per_hour REAL,
    state TEXT NOT NULL,
    PRIMARY KEY (name, t)
) WITHOUT ROWID;
"""


# Version 2: a machine's queue position and layer each minute (its chart draws them), and minutes
# its agent sent from its own history, from before the hub knew it.
_V2 = """
ALTER TABLE sample ADD COLUMN queue_position INTEGER;
ALTER TABLE sample ADD COLUMN layer INTEGER;
"""


class HubStoreError(Exception):
    """The hub's file cannot be used, or an enrolment cannot be made; the message says why."""


@dataclass(frozen=True)
class MachineRow:
    """An enrolled machine with its newest report, if any."""

    name: str
    enrolled_at: float
    received_at: float | None
    interval_seconds: float | None
    snapshot: dict[str, Any] | None
    reports: int = 0


class HubStore:
    """Machines, keys and reports in one SQLite file; thread-safe."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA busy_timeout=5000")
            self._migrate()
        except (OSError, sqlite3.Error) as e:
            raise HubStoreError(f"cannot use {path}: {e}") from e
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close the file; safe to call twice."""
        self._conn.close()

    def _migrate(self) -> None:
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise HubStoreError(f"{self.path} was written by a newer tokwatch (schema {version}); not touching it")
        if version == 0:
            self._conn.executescript(f"BEGIN; {_SCHEMA} {_V2} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
        elif version == 1:
            self._conn.executescript(f"BEGIN; {_V2} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    # --- enrolment ------------------------------------------------------------

    def enroll(self, name: str, now: float) -> str:
        """Create a machine (or give a revoked one a new key) and return its key, shown once."""
        check_name(name)
        key = new_key()
        with self._transaction() as conn:
            row = conn.execute("SELECT revoked_at FROM machine WHERE name = ?", (name,)).fetchone()
            if row is not None and row[0] is None:
                raise HubStoreError(
                    f"{name} is enrolled already; to give it a new key: tokwatch hub revoke {name}, "
                    f"then tokwatch hub enroll {name}"
                )
            if row is None:
                conn.execute("INSERT INTO machine VALUES (?, ?, ?, NULL)", (name, hash_key(key), now))
            else:
                conn.execute("UPDATE machine SET key_hash = ?, enrolled_at = ?, revoked_at = NULL WHERE name = ?",
                             (hash_key(key), now, name))
                conn.execute("DELETE FROM latest WHERE name = ?", (name,))
        return key

    def revoke(self, name: str, now: float) -> None:
        """Make a machine's key useless at once; its history stays (a new --enroll brings it back)."""
        with self._transaction() as conn:
            cursor = conn.execute("UPDATE machine SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                                  (now, name))
            if cursor.rowcount == 0:
                raise HubStoreError(f"no enrolled machine is called {name!r}")

    def machine_for_key(self, key: str) -> str | None:
        """The machine a key belongs to, or None for an unknown or revoked key."""
        if not looks_like_key(key):
            return None
        with self._lock:
            row = self._conn.execute(
                "SELECT name FROM machine WHERE key_hash = ? AND revoked_at IS NULL", (hash_key(key),)
            ).fetchone()
        return None if row is None else str(row[0])

    # --- reports --------------------------------------------------------------

    def accept(self, report: Report, received_at: float) -> bool:
        """Keep a report; False when it was kept before (a resend), so nothing counts twice."""
        snap = report.snapshot
        as_of = float(snap["as_of"])
        tokens_per_hour = (snap.get("rate") or {}).get("tokens_per_hour") if snap["state"] in PRODUCING else None
        queue = (snap.get("queue") or {}).get("position")
        layer = snap.get("layer")
        with self._transaction() as conn:
            row = conn.execute("SELECT stream, seq, as_of, reports FROM latest WHERE name = ?",
                               (report.machine,)).fetchone()
            if row is not None and row[0] == report.stream and report.seq <= row[1]:
                return False
            reports = 1 if row is None else row[3] + 1
            if row is None or as_of >= row[2] or row[0] != report.stream:
                conn.execute(
                    "INSERT OR REPLACE INTO latest VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (report.machine, report.stream, report.seq, received_at, as_of, report.interval_seconds,
                     json.dumps(snap, ensure_ascii=False, separators=(",", ":")), reports),
                )
            else:  # an older report sent late: remember its number, keep the newer figures
                conn.execute("UPDATE latest SET seq = ?, received_at = ?, reports = ? WHERE name = ?",
                             (report.seq, received_at, reports, report.machine))
            t = int(as_of // SAMPLE_SECONDS * SAMPLE_SECONDS)
            conn.execute("INSERT OR REPLACE INTO sample VALUES (?, ?, ?, ?, ?, ?)",
                         (report.machine, t, tokens_per_hour, str(snap["state"]), queue, layer))
        return True

    def machines(self) -> list[MachineRow]:
        """Every enrolled (not revoked) machine with its newest report, by name."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT m.name, m.enrolled_at, l.received_at, l.interval_seconds, l.snapshot, l.reports "
                "FROM machine m LEFT JOIN latest l ON l.name = m.name "
                "WHERE m.revoked_at IS NULL ORDER BY m.name"
            ).fetchall()
        return [
            MachineRow(name=row[0], enrolled_at=row[1], received_at=row[2], interval_seconds=row[3],
                       snapshot=None if row[4] is None else json.loads(row[4]), reports=row[5] or 0)
            for row in rows
        ]

    def take_history(self, name: str, points: list[tuple[int, float | None, str, int | None, int | None]]) -> int:
        """Keep minutes a machine's agent sent from its own history; a minute the hub has already
        (from a report) stays as it is, so a resend changes nothing. Return how many were new."""
        with self._transaction() as conn:
            before = conn.total_changes
            conn.executemany(
                "INSERT OR IGNORE INTO sample VALUES (?, ?, ?, ?, ?, ?)",
                [(name, t - t % SAMPLE_SECONDS, tph, state, queue, layer) for t, tph, state, queue, layer in points],
            )
            return conn.total_changes - before

    def minutes(self, name: str, since: float, until: float) -> list[tuple[int, float | None, str, int | None, int | None]]:
        """Each minute a machine reported (or sent from its history) in [since, until), oldest first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT t, tokens_per_hour, state, queue_position, layer FROM sample"
                " WHERE name = ? AND t >= ? AND t < ? ORDER BY t",
                (name, int(since), int(until)),
            ).fetchall()
        return [(int(t), tph, str(state), queue, layer) for t, tph, state, queue, layer in rows]

    def series(self, name: str, since: float, until: float, bucket_seconds: int) -> list[tuple[int, float | None]]:
        """Mean tok/h per bucket over [since, until), oldest first; buckets without a report are absent."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT (t / ?) * ? AS b, AVG(tokens_per_hour) FROM sample "
                "WHERE name = ? AND t >= ? AND t < ? GROUP BY b ORDER BY b",
                (bucket_seconds, bucket_seconds, name, int(since), int(until)),
            ).fetchall()
        return [(int(row[0]), None if row[1] is None else float(row[1])) for row in rows]

    def all_series(self, since: float, until: float, bucket_seconds: int) -> dict[str, list[tuple[int, float | None]]]:
        """:meth:`series` for every machine at once (the fleet's sparklines)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT name, (t / ?) * ? AS b, AVG(tokens_per_hour) FROM sample "
                "WHERE t >= ? AND t < ? GROUP BY name, b ORDER BY name, b",
                (bucket_seconds, bucket_seconds, int(since), int(until)),
            ).fetchall()
        out: dict[str, list[tuple[int, float | None]]] = {}
        for name, t, tph in rows:
            out.setdefault(str(name), []).append((int(t), None if tph is None else float(tph)))
        return out

    def tokens_since(self, since: float) -> dict[str, float]:
        """Tokens per machine since ``since``, from the minute samples (a minute at each sample's rate)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT name, SUM(tokens_per_hour) * ? FROM sample WHERE t >= ? GROUP BY name",
                (SAMPLE_SECONDS / 3600, int(since)),
            ).fetchall()
        return {str(row[0]): float(row[1] or 0.0) for row in rows}

    def prune(self, now: float) -> int:
        """Drop samples past the retention; return how many went."""
        with self._transaction() as conn:
            return conn.execute("DELETE FROM sample WHERE t < ?", (int(now - RETENTION_SECONDS),)).rowcount
