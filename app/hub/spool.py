"""The agent's spool: reports wait here, in order, until the hub has taken them.

A SQLite file in the agent's data dir (``spool.sqlite3``), so reports survive the hub being
away and the agent restarting. Each report gets the next number of this spool's ``stream``;
the hub keeps (machine, stream, seq), so sending a report twice never counts it twice.

While the hub is away every report is kept for the first hour; past that the spool keeps one
report per minute (the last of each minute, and every state change): the hub charts a point a
minute, so the history has no hole, and a week away costs at most ~10k reports on disk.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..store.files import WriterLock
from .report import MAX_REPORT_BYTES, report_body

FILE_NAME = "spool.sqlite3"  # before spools were kept by machine name; taken over by the first agent
MINUTE_SECONDS = 60
MAX_REPORTS = 7 * 24 * 60
# The reports' bytes: a week of minute reports at the usual ~2.5 kB is ~25 MB; large reports
# (long details, many events) lose their oldest first past this, never the disk.
MAX_BYTES = 24 << 20
KEEP_ALL_REPORTS = 240  # an hour at the default 15 s
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pending (
    seq INTEGER PRIMARY KEY,
    minute INTEGER NOT NULL,
    keep INTEGER NOT NULL,
    body TEXT NOT NULL
);
"""


class SpoolError(Exception):
    """The spool file cannot be used."""


class SpoolLockedError(SpoolError):
    """Another agent writes this spool; the message names its PID."""


def file_name(machine: str) -> str:
    """The spool of one machine name: agents on one data dir under different names never share one."""
    return f"spool-{machine}.sqlite3"


class Spool:
    """Numbered reports waiting for the hub, oldest first; thread-safe."""

    def __init__(self, path: Path, *, max_reports: int = MAX_REPORTS, keep_all: int = KEEP_ALL_REPORTS,
                 max_bytes: int = MAX_BYTES) -> None:
        self.path = path
        self.max_reports = max_reports
        self.keep_all = keep_all
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        # One writer per spool, as for the history: two agents on one file deleted each other's
        # waiting reports and numbered theirs alike.
        self._writer = WriterLock(path.with_name(path.name + ".lock"))
        try:
            holder = self._writer.acquire()
        except OSError as e:
            raise SpoolError(f"cannot use {path.parent}: {e.strerror or e}") from e
        weakref.finalize(self, self._writer.release)  # a spool dropped unclosed lets go of its lock
        if holder is not None:
            raise SpoolLockedError(
                f"another tokwatch (pid {holder or '?'}) reports from {path}; give each miner its own --name "
                "(each is its own machine on the hub) or its own --data-dir"
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
            self._conn.execute("PRAGMA journal_mode=WAL")
            # No flush to the disk at each report (two a report: kept, then sent): a power cut may
            # lose the last seconds' reports, which the next report replaces on the hub anyway; a
            # crash of tokwatch loses none (WAL).
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.executescript(_SCHEMA)
            self.stream = self._meta("stream", lambda: secrets.token_hex(8))
            self._next_seq = int(self._meta("next_seq", lambda: "1"))
        except (OSError, sqlite3.Error) as e:
            self._writer.release()
            raise SpoolError(f"cannot use {path}: {e}") from e

    def _meta(self, key: str, default: Any) -> str:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is not None:
            return str(row[0])
        value = str(default())
        self._conn.execute("INSERT INTO meta VALUES (?, ?)", (key, value))
        return value

    def close(self) -> None:
        """Close the file and let go of its lock."""
        with self._lock:
            self._conn.close()
        self._writer.release()

    def add(self, *, machine: str, snapshot: Mapping[str, Any], sent_at: float, interval_seconds: float,
            keep: bool = False) -> int:
        """Number and keep a report; return its number.

        Past ``keep_all`` waiting reports, an unsent report of the same minute that was not a
        state change (``keep``) is replaced: the hub charts only the minute's last one anyway.
        """
        minute = int(float(snapshot.get("as_of", sent_at)) // MINUTE_SECONDS)
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                seq = self._next_seq
                body = report_body(machine=machine, stream=self.stream, seq=seq, sent_at=sent_at,
                                   interval_seconds=interval_seconds, snapshot=snapshot)
                newest = conn.execute("SELECT seq, minute, keep FROM pending ORDER BY seq DESC LIMIT 1").fetchone()
                waiting = int(conn.execute("SELECT COUNT(*) FROM pending").fetchone()[0])
                if newest is not None and newest[1] == minute and not newest[2] and waiting >= self.keep_all:
                    conn.execute("DELETE FROM pending WHERE seq = ?", (newest[0],))
                conn.execute("INSERT INTO pending VALUES (?, ?, ?, ?)",
                             (seq, minute, int(keep), json.dumps(body, ensure_ascii=False, separators=(",", ":"))))
                conn.execute(
                    "DELETE FROM pending WHERE seq <= (SELECT seq FROM pending ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                    (self.max_reports,),
                )
                if waiting + 1 > self.max_bytes // MAX_REPORT_BYTES:  # fewer cannot pass max_bytes: no need to sum
                    conn.execute(  # the oldest go past max_bytes, counted newest first
                        "DELETE FROM pending WHERE seq <= (SELECT seq FROM (SELECT seq, SUM(length(CAST(body AS BLOB))) "
                        "OVER (ORDER BY seq DESC) AS newer FROM pending) WHERE newer > ? ORDER BY seq DESC LIMIT 1)",
                        (self.max_bytes,),
                    )
                conn.execute("UPDATE meta SET value = ? WHERE key = 'next_seq'", (str(seq + 1),))
                conn.execute("COMMIT")
            except BaseException:
                # A full disk may have rolled it back already: a second ROLLBACK would hide why.
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            self._next_seq = seq + 1
        return seq

    def pending(self, limit: int = 100, before: int | None = None) -> list[tuple[int, str]]:
        """The oldest reports not yet taken (below ``before`` when given): (seq, JSON body)."""
        with self._lock:
            rows = self._conn.execute("SELECT seq, body FROM pending WHERE seq < ? ORDER BY seq LIMIT ?",
                                      (before if before is not None else 2**62, limit)).fetchall()
        return [(int(seq), str(body)) for seq, body in rows]

    def newest(self) -> tuple[int, str] | None:
        """The newest report not yet taken: (seq, JSON body), or None."""
        with self._lock:
            row = self._conn.execute("SELECT seq, body FROM pending ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def count(self) -> int:
        """How many reports wait."""
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM pending").fetchone()[0])

    def keep_only(self, machine: str) -> int:
        """Drop waiting reports made under another machine name (an agent renamed); return how many."""
        with self._lock:
            cursor = self._conn.execute("DELETE FROM pending WHERE json_extract(body, '$.machine') IS NOT ?",
                                        (machine,))
            return int(cursor.rowcount)

    def adopt(self, other: Spool) -> int:
        """Take every report waiting in ``other`` (renumbered in this stream, in order); return how many."""
        moved = 0
        while batch := other.pending(100):
            for seq, body in batch:
                data = json.loads(body)
                self.add(machine=str(data.get("machine")), snapshot=data.get("snapshot") or {},
                         sent_at=float(data.get("sent_at") or 0.0),
                         interval_seconds=float(data.get("interval_seconds") or 15.0), keep=True)
                other.taken(seq)
                moved += 1
        return moved

    def taken(self, seq: int) -> None:
        """The hub has report ``seq`` (or refused it for good): forget it."""
        with self._lock:
            self._conn.execute("DELETE FROM pending WHERE seq = ?", (seq,))

    def taken_up_to(self, seq: int) -> None:
        """The hub has every report up to ``seq`` (sent as history): forget them."""
        with self._lock:
            self._conn.execute("DELETE FROM pending WHERE seq <= ?", (seq,))
