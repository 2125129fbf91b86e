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
from typing import TYPE_CHECKING, Any

from ..errors import CommandError
from .keys import check_name, hash_key, looks_like_key, new_key

if TYPE_CHECKING:
    from .report import Report

FILE_NAME = "hub.sqlite3"
SAMPLE_SECONDS = 60  # one chart point a minute per machine: 10k rows a week each
# The states whose rate is production: summed in the fleet's header, sampled for charts and today's
# tokens (measuring has no rate yet; idle, silent, queued and offline machines produce nothing).
PRODUCING = frozenset({"training"})
RETENTION_SECONDS = 8 * 86400  # the 7-day chart, and a day of slack
SCHEMA_VERSION = 3
# The backlog batches (their minutes and count) whose reports were counted, per machine: a batch
# sent again after its answer was lost (the agent's deadline on a busy hub, or a hub restarted
# before it answered) adds none. A backlog round is 10 batches; these cover many rounds of resends.
COUNTED_BATCHES = 64
# The spools a machine's reports came from, newest first by arrival; older ones are forgotten.
MAX_STREAMS = 16
# An agent clock this far from the hub's is said on the machine's page.
SKEW_SHOWN_SECONDS = 120.0
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
# Version 2: the hub's clock decides. Each spool (stream) a machine reports from gets a rank by
# first arrival and remembers its highest number, so a resend from any stream is known and an
# older stream never overwrites a newer one; the agent's clock skew and the notes on fields the
# hub set aside are kept with the newest report.
_SCHEMA_2 = """
CREATE TABLE stream (
    name TEXT NOT NULL,
    stream TEXT NOT NULL,
    rank INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    PRIMARY KEY (name, stream)
) WITHOUT ROWID;
INSERT INTO stream SELECT name, stream, 1, seq FROM latest;
ALTER TABLE latest ADD COLUMN skew_seconds REAL;
ALTER TABLE latest ADD COLUMN notes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE latest ADD COLUMN last_note TEXT;
"""


# Also version 2: a machine's queue position and layer each minute (its chart draws them), and minutes
# its agent sent from its own history, from before the hub knew it.
_V2 = """
ALTER TABLE sample ADD COLUMN queue_position INTEGER;
ALTER TABLE sample ADD COLUMN layer INTEGER;
"""


# Version 3: the backlog batches counted (kept across a restart of the hub, so a resend after it
# still adds none), and what a machine's history brought before its first report (the reports
# its backlog stands for and the points set aside), held on the machine until then.
_V3 = """
CREATE TABLE counted_batch (
    name TEXT NOT NULL,
    digest BLOB NOT NULL,
    UNIQUE (name, digest)
);
ALTER TABLE machine ADD COLUMN early_reports INTEGER NOT NULL DEFAULT 0;
ALTER TABLE machine ADD COLUMN early_notes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE machine ADD COLUMN early_last_note TEXT;
"""


# Every enrolled machine with its newest report and what its history brought before its first report.
_MACHINES = (
    "SELECT m.name, m.enrolled_at, l.received_at, l.interval_seconds, l.snapshot, "
    "COALESCE(l.reports, 0) + m.early_reports, "
    "l.skew_seconds, COALESCE(l.notes, 0) + m.early_notes, COALESCE(l.last_note, m.early_last_note) "
    "FROM machine m LEFT JOIN latest l ON l.name = m.name WHERE m.revoked_at IS NULL"
)


class HubStoreError(CommandError):
    """The hub's file cannot be used, or an enrolment cannot be made; the message says why."""


@dataclass(frozen=True)
class MachineRow:
    """An enrolled machine with its newest report, if any."""

    name: str
    enrolled_at: float
    # When its newest report was made, on the hub's clock (its arrival less its age on the agent's
    # clock): a report kept in a spool through an outage reads as old as it is, never as "just now".
    received_at: float | None
    interval_seconds: float | None
    snapshot: dict[str, Any] | None
    reports: int = 0
    skew_seconds: float | None = None  # the agent's clock minus the hub's when it last reported
    notes: int = 0  # fields set aside (out of range, too long) since enrolment
    last_note: str | None = None


class HubStore:
    """Machines, keys and reports in one SQLite file; thread-safe.

    The hub is the only writer of its minute samples (one hub per data dir; enrolling and revoking
    touch none), so :meth:`samples_versions` can tell its views when a machine's samples changed.
    """

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
        # Bumped (under the lock) whenever a machine's samples change; a prune bumps them all.
        self._writes = 0
        self._written: dict[str, int] = {}
        # Per machine, the last sample a report wrote (committed) and its version then.
        self._sampled: dict[str, tuple[tuple[Any, ...], int | None, int]] = {}
        self._pruned = 0
        # Each machine's newest report as kept, with its text: a report not replaced since is not parsed again.
        self._parsed: dict[str, tuple[str, dict[str, Any]]] = {}
        # What every report and every push would otherwise read again from the file: the machines'
        # rows (by name) and the keys (hash → name). This connection's own writes mark the machines
        # they touch (read again alone at the next look); a commit by another connection (``tokwatch
        # hub enroll`` or ``revoke`` while the hub runs) moves SQLite's data_version, and an
        # enrolment or revocation through this store drops both: then everything is read afresh.
        self._data_version: int | None = None
        self._rows: dict[str, MachineRow] | None = None
        self._keys: dict[str, str] | None = None
        self._dirty: set[str] = set()

    def close(self) -> None:
        """Close the file; safe to call twice."""
        self._conn.close()

    def _migrate(self) -> None:
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise HubStoreError(f"{self.path} was written by a newer tokwatch (schema {version}); not touching it")
        # Each step from the version found, in one transaction: a failed one leaves the file as it was.
        steps = {0: (_SCHEMA, _SCHEMA_2, _V2, _V3), 1: (_SCHEMA_2, _V2, _V3), 2: (_V3,)}.get(version)
        if steps:
            self._conn.executescript(f"BEGIN; {' '.join(steps)} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                if self._conn.in_transaction:  # a full disk may have rolled it back already
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
                conn.execute("INSERT INTO machine (name, key_hash, enrolled_at) VALUES (?, ?, ?)", (name, hash_key(key), now))
            else:
                conn.execute("UPDATE machine SET key_hash = ?, enrolled_at = ?, revoked_at = NULL WHERE name = ?",
                             (hash_key(key), now, name))
                conn.execute("UPDATE machine SET early_reports = 0, early_notes = 0, early_last_note = NULL"
                             " WHERE name = ?", (name,))
                conn.execute("DELETE FROM latest WHERE name = ?", (name,))
                conn.execute("DELETE FROM stream WHERE name = ?", (name,))
                conn.execute("DELETE FROM counted_batch WHERE name = ?", (name,))
            self._forget()
        return key

    def revoke(self, name: str, now: float) -> None:
        """Make a machine's key useless at once; its history stays (a new --enroll brings it back)."""
        with self._transaction() as conn:
            cursor = conn.execute("UPDATE machine SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                                  (now, name))
            if cursor.rowcount == 0:
                raise HubStoreError(f"no enrolled machine is called {name!r}")
            self._forget()

    def machine_for_key(self, key: str) -> str | None:
        """The machine a key belongs to, or None for an unknown or revoked key."""
        if not looks_like_key(key):
            return None
        with self._lock:
            self._look_outside()
            if self._keys is None:
                self._keys = {str(key_hash): str(name) for key_hash, name in self._conn.execute(
                    "SELECT key_hash, name FROM machine WHERE revoked_at IS NULL")}
            return self._keys.get(hash_key(key))

    def _forget(self) -> None:
        """Read every machine and key afresh at the next look (under the lock)."""
        self._rows = self._keys = None
        self._dirty.clear()

    def _look_outside(self) -> None:
        """Forget what is kept when another connection committed since the last look (under the lock)."""
        version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version:
            self._data_version = version
            self._forget()

    # --- reports --------------------------------------------------------------

    def accept(self, report: Report, received_at: float, notes: tuple[str, ...] = ()) -> bool:
        """Keep a report; False when it was kept before (a resend) or its stream is older than another.

        The hub's clock decides: reports are ordered by arrival (within a stream by number, and
        streams by when each was first heard), the minute sample is placed at the arrival less the
        report's age on the agent's own clock (``sent_at − as_of``: no skew in it, never negative),
        so nothing is dated in the future and a clock a day ahead freezes nothing.
        """
        snap = report.snapshot
        as_of = snap.get("as_of")
        age = 0.0 if as_of is None or report.sent_at is None else report.sent_at - float(as_of)
        age = min(max(age, 0.0), RETENTION_SECONDS)
        skew = None if report.sent_at is None else report.sent_at - received_at
        tokens_per_hour = (snap.get("rate") or {}).get("tokens_per_hour") if snap.get("state") in PRODUCING else None
        queue = (snap.get("queue") or {}).get("position")
        layer = snap.get("layer")
        with self._transaction() as conn:
            known = conn.execute("SELECT rank, last_seq FROM stream WHERE name = ? AND stream = ?",
                                 (report.machine, report.stream)).fetchone()
            if known is not None and report.seq <= known[1]:
                return False
            newest = conn.execute("SELECT MAX(rank) FROM stream WHERE name = ?", (report.machine,)).fetchone()[0]
            if known is None:
                rank = (newest or 0) + 1
                conn.execute("INSERT INTO stream VALUES (?, ?, ?, ?)",
                             (report.machine, report.stream, rank, report.seq))
                conn.execute("DELETE FROM stream WHERE name = ? AND rank <= ?",
                             (report.machine, rank - MAX_STREAMS))
            else:
                rank = known[0]
                conn.execute("UPDATE stream SET last_seq = ? WHERE name = ? AND stream = ?",
                             (report.seq, report.machine, report.stream))
            if newest is not None and rank < newest:
                return False  # an older spool, heard again: its figures never overwrite the newer one's
            made_at = received_at - age  # the moment the report describes, on the hub's clock
            row = conn.execute("SELECT reports, notes, last_note, received_at FROM latest WHERE name = ?",
                               (report.machine,)).fetchone()
            reports, noted, last_note, held_at = (0, 0, None, None) if row is None else row
            t = int(made_at // SAMPLE_SECONDS * SAMPLE_SECONDS)
            if held_at is not None and made_at < held_at:
                # Older than the report the hub holds (a backlog arriving late): it fills its minute
                # on the chart if that minute is empty, and is never the machine's present.
                conn.execute("UPDATE latest SET reports = reports + 1 WHERE name = ?", (report.machine,))
                conn.execute("INSERT OR IGNORE INTO sample VALUES (?, ?, ?, ?, ?, ?)",
                             (report.machine, t, tokens_per_hour, str(snap.get("state")), queue, layer))
                self._wrote(report.machine)
                self._dirty.add(report.machine)
                return True
            kept = json.dumps(snap, ensure_ascii=False, separators=(",", ":"))
            values = (report.stream, report.seq, made_at, received_at if as_of is None else float(as_of),
                      report.interval_seconds, kept, reports + 1, skew, noted + len(notes),
                      notes[-1] if notes else last_note, report.machine)
            if row is None:
                conn.execute("INSERT INTO latest (stream, seq, received_at, as_of, interval_seconds, snapshot, reports,"
                             " skew_seconds, notes, last_note, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
            else:  # in place: the row and its name's index entry stay where they are
                conn.execute("UPDATE latest SET stream = ?, seq = ?, received_at = ?, as_of = ?, interval_seconds = ?,"
                             " snapshot = ?, reports = ?, skew_seconds = ?, notes = ?, last_note = ? WHERE name = ?",
                             values)
            sample = (report.machine, t, tokens_per_hour, str(snap.get("state")), queue, layer)
            # A minute's sample as the file holds it already (a machine reports four times a minute:
            # this store wrote it last, and nothing else was written for the machine, nor pruned,
            # since) is neither written again nor a change of its figures (its version stays).
            if self._sampled.get(report.machine) != (sample, self._written.get(report.machine), self._pruned):
                conn.execute("INSERT OR REPLACE INTO sample VALUES (?, ?, ?, ?, ?, ?)", sample)
                self._wrote(report.machine)
            written = self._written.get(report.machine)
            self._dirty.add(report.machine)
            # The text kept reads back as this very snapshot (checked JSON values, lists and dicts):
            # the next look at the machines need not parse it again. Its text unchanged, the object
            # the rows share stays as it was.
            parsed = self._parsed.get(report.machine)
            if parsed is None or parsed[0] != kept:
                self._parsed[report.machine] = (kept, snap)
        # Committed: the sample is in the file (a failed commit leaves none here, so the next one moves the version).
        self._sampled[report.machine] = (sample, written, self._pruned)
        return True

    def _wrote(self, name: str) -> None:
        self._writes += 1
        self._written[name] = self._writes

    def samples_versions(self) -> tuple[int, dict[str, int]]:
        """(prunes, machine → its last write): a machine's pair changes whenever its minute samples may have."""
        with self._lock:
            return self._pruned, dict(self._written)

    def machines(self) -> list[MachineRow]:
        """Every enrolled (not revoked) machine with its newest report, by name.

        A report's snapshot is parsed once and shared by the rows that follow until it is replaced:
        treat it as read-only. Only the machines written since the last call are read again.
        """
        with self._lock:
            self._look_outside()
            if self._rows is None:
                rows = self._conn.execute(_MACHINES + " ORDER BY m.name").fetchall()
                # Forget the machines gone (revoked) so the memo never outgrows the fleet.
                for name in self._parsed.keys() - {row[0] for row in rows}:
                    del self._parsed[name]
                self._rows = {row[0]: self._machine_row(row) for row in rows}
            elif self._dirty:
                names = sorted(self._dirty)
                for first in range(0, len(names), 500):  # well under SQLite's limit of parameters
                    part = names[first:first + 500]
                    for row in self._conn.execute(f"{_MACHINES} AND m.name IN ({','.join('?' * len(part))})", part):
                        if row[0] in self._rows:  # a machine new to the file comes with a full read
                            self._rows[row[0]] = self._machine_row(row)
            self._dirty.clear()
            return list(self._rows.values())

    def _machine_row(self, row: tuple[Any, ...]) -> MachineRow:
        """One row of ``_MACHINES`` as a MachineRow, its snapshot parsed only when it changed (under the lock)."""
        return MachineRow(name=row[0], enrolled_at=row[1], received_at=row[2], interval_seconds=row[3],
                          snapshot=None if row[4] is None else self._parse(row[0], row[4]), reports=row[5] or 0,
                          skew_seconds=row[6], notes=row[7] or 0, last_note=row[8])

    def _parse(self, name: str, text: str) -> dict[str, Any]:
        kept = self._parsed.get(name)
        if kept is not None and kept[0] == text:
            return kept[1]
        snapshot: dict[str, Any] = json.loads(text)
        self._parsed[name] = (text, snapshot)
        return snapshot

    def take_history(self, name: str, points: list[tuple[int, float | None, str, int | None, int | None]],
                     set_aside: int = 0, last_note: str | None = None, *, reports: int = 0,
                     digest: bytes | None = None) -> int:
        """Keep minutes a machine's agent sent from its own history; a minute the hub has already
        (from a report) stays as it is, so a resend changes nothing. Return how many were new.

        A minute's rate is kept only in a producing state, as a report's is. ``set_aside`` points
        failed their checks: counted on the machine with its reports' notes; ``reports``: the
        spooled reports a backlog's minutes stand for, added to its count of reports unless a batch
        with the same ``digest`` was counted before (a resend). Before the machine's first report
        both are held on the machine, never dropped."""
        rows = [(name, t - t % SAMPLE_SECONDS, tph if state in PRODUCING else None, state, queue, layer)
                for t, tph, state, queue, layer in points]
        with self._transaction() as conn:
            before = conn.total_changes
            conn.executemany("INSERT OR IGNORE INTO sample VALUES (?, ?, ?, ?, ?, ?)", rows)
            taken = conn.total_changes - before
            if reports and digest is not None:
                if conn.execute("INSERT OR IGNORE INTO counted_batch VALUES (?, ?)", (name, digest)).rowcount == 0:
                    reports = 0  # counted before: a resend
                else:
                    conn.execute("DELETE FROM counted_batch WHERE name = ? AND rowid NOT IN"
                                 " (SELECT rowid FROM counted_batch WHERE name = ? ORDER BY rowid DESC LIMIT ?)",
                                 (name, name, COUNTED_BATCHES))
            reported = conn.execute("SELECT 1 FROM latest WHERE name = ?", (name,)).fetchone() is not None
            if set_aside:
                conn.execute("UPDATE latest SET notes = notes + ?, last_note = ? WHERE name = ?" if reported else
                             "UPDATE machine SET early_notes = early_notes + ?, early_last_note = ? WHERE name = ?",
                             (set_aside, last_note, name))
            if reports:
                conn.execute("UPDATE latest SET reports = reports + ? WHERE name = ?" if reported else
                             "UPDATE machine SET early_reports = early_reports + ? WHERE name = ?", (reports, name))
            if taken:
                self._wrote(name)
            self._dirty.add(name)  # its count of reports or notes may have moved
            return taken

    def minutes(self, name: str, since: float, until: float) -> list[tuple[int, float | None, str, int | None, int | None]]:
        """Each minute a machine reported (or sent from its history) in [since, until), oldest first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT t, tokens_per_hour, state, queue_position, layer FROM sample"
                " WHERE name = ? AND t >= ? AND t < ? ORDER BY t",
                (name, int(since), int(until)),
            ).fetchall()
        return [(int(t), tph, str(state), queue, layer) for t, tph, state, queue, layer in rows]

    def first_minute(self, name: str) -> int | None:
        """The first minute the hub has of a machine (from a report or its history), or None."""
        with self._lock:
            row = self._conn.execute("SELECT MIN(t) FROM sample WHERE name = ?", (name,)).fetchone()
        return None if row[0] is None else int(row[0])

    def series(self, name: str, since: float, until: float, bucket_seconds: int) -> list[tuple[int, float | None]]:
        """Mean tok/h per bucket over [since, until), oldest first; buckets without a report are absent."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT (t / ?) * ? AS b, AVG(tokens_per_hour) FROM sample "
                "WHERE name = ? AND t >= ? AND t < ? GROUP BY b ORDER BY b",
                (bucket_seconds, bucket_seconds, name, int(since), int(until)),
            ).fetchall()
        return [(int(row[0]), None if row[1] is None else float(row[1])) for row in rows]

    def tokens_since(self, name: str, since: float) -> float:
        """A machine's tokens since ``since``, from its minute samples (a minute at each sample's rate)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT SUM(tokens_per_hour) * ? FROM sample WHERE name = ? AND t >= ?",
                (SAMPLE_SECONDS / 3600, name, int(since)),
            ).fetchone()
        return float(row[0] or 0.0)

    def prune(self, now: float) -> int:
        """Drop samples past the retention; return how many went."""
        with self._transaction() as conn:
            pruned: int = conn.execute("DELETE FROM sample WHERE t < ?", (int(now - RETENTION_SECONDS),)).rowcount
            if pruned:
                self._pruned += 1
            return pruned
