"""The history store as the rest of tokwatch sees it: a writer thread, safe reads, figures from the past.

One process writes (it holds the data dir's lock); another tokwatch on the same data dir reads
only and says so. Writes happen on the writer thread only: ``submit`` never blocks the caller,
and a full disk or a broken file stops history, never the live view.
"""

from __future__ import annotations

import logging
import queue
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, TypeVar

from ..supervise import supervised
from . import queries
from .files import (
    FILE_NAME,
    LOCK_NAME,
    MAX_FILE_BYTES,
    HistoryFileError,
    WriterLock,
    connect,
    move_aside,
    open_checked,
)
from .records import Observation, PassFact, SourceKey
from .schema import NewerSchemaError, empty_history
from .write import Recounts, prune, write

log = logging.getLogger(__name__)

Mode = Literal["off", "opening", "writing", "read_only", "stopped"]
T = TypeVar("T")

QUEUE_LIMIT = 2000
PRUNE_NOW = "prune"
PRUNE_EVERY_SECONDS = 600
FULL_RETRY_SECONDS = 60
FIGURES_TTL_SECONDS = 30
FIGURES_MIN_SECONDS = 1.0
RETRY_PASSES_MAX = 20_000
READY_WAIT_SECONDS = 10.0  # a read while the file is being checked waits for it


@dataclass(frozen=True, slots=True)
class HistoryStatus:
    """What a person needs to know about the history: where, whether it is kept, what went wrong."""

    mode: Mode
    path: str | None
    problem: str | None = None
    notice: str | None = None
    holder_pid: int | None = None
    size_bytes: int | None = None
    dropped: int = 0


def _size_text(size_bytes: int) -> str:
    """``256 MiB``, or ``160 KiB`` under a MiB."""
    return f"{size_bytes >> 20} MiB" if size_bytes >= 1 << 20 else f"{size_bytes >> 10} KiB"


def _is_full(e: sqlite3.Error) -> bool:
    code = getattr(e, "sqlite_errorcode", None)
    return code == 13 or "full" in str(e).lower()


class History:
    """The history of one data dir. ``data_dir`` None: keep nothing (``--no-history``)."""

    def __init__(
        self,
        data_dir: Path | None,
        *,
        clock: Callable[[], float] = time.time,
        write: bool = True,
        max_file_bytes: int = MAX_FILE_BYTES,
    ) -> None:
        self.data_dir = data_dir
        self.path = data_dir / FILE_NAME if data_dir is not None else None
        self.clock = clock
        self._want_write = write
        self.max_file_bytes = max_file_bytes
        self._lock = threading.Lock()
        self._status = HistoryStatus(mode="off" if data_dir is None else "opening", path=str(self.path) if self.path else None)
        # Batches to write; PRUNE_NOW asks for retention at once (an import just ended).
        self._queue: queue.Queue[Observation | str | None] = queue.Queue(QUEUE_LIMIT)
        self._thread: threading.Thread | None = None
        self._writer_lock: WriterLock | None = None
        self._conn: sqlite3.Connection | None = None
        self._written_until: dict[SourceKey, float] = {}
        self._retry_passes: dict[SourceKey, list[PassFact]] = {}
        self._recounts = Recounts()  # repeated errors counted again by the live view (app/store/write.py)
        self._full_until = 0.0
        self._last_prune = 0.0
        # Cached figures: (clock time, monotonic time, write generation, usual, today) per key.
        self._figures: dict[tuple[SourceKey, int | None, int | None], tuple[float, float, int, Any, Any]] = {}
        self._generation = 0  # bumped by every write: cached figures after it are stale
        self._idle = threading.Event()
        self._idle.set()
        self._prune_holds = 0  # imports under way: pruning waits, so no bucket is cut between two batches
        self._ready = threading.Event()  # the file is open, checked and migrated (or known unusable)
        self._halting = threading.Event()  # stop() under way: a failed writer is not restarted

    # --- lifecycle --------------------------------------------------------------

    def start(self) -> None:
        """Take the writer's lock and open the file on the writer thread; read-only if another process writes."""
        if self.data_dir is None or self._thread is not None or self._status.mode == "stopped":
            return
        if not self._want_write:
            self._set(mode="read_only")
            self._ready.set()
            return
        self._become_writer()

    def take_over(self) -> bool:
        """Become the writer if the tokwatch that held the data dir has gone; True once this one writes."""
        if self._thread is not None:
            return True
        if self.data_dir is None or not self._want_write or self._status.mode != "read_only":
            return False
        return self._become_writer()

    def _become_writer(self) -> bool:
        assert self.data_dir is not None
        lock = WriterLock(self.data_dir / LOCK_NAME)
        try:
            holder = lock.acquire()
        except OSError as e:
            self._set(mode="off", problem=f"history off: cannot use {self.data_dir} ({e.strerror or e})")
            self._ready.set()
            return False
        if holder is not None:
            if self._status.mode != "read_only":
                who = f"pid {holder}" if holder else "another process"
                self._set(mode="read_only", holder_pid=holder or None,
                          notice=f"history is kept by another tokwatch ({who}); this one only reads it")
                log.warning("history in %s is kept by %s; reading it only", self.data_dir, who)
            self._ready.set()
            return False
        if self._status.mode == "read_only":
            log.warning("history in %s: the other tokwatch has stopped; this one keeps it now", self.data_dir)
            self._ready.clear()
            self._set(mode="opening", holder_pid=None, notice=None)
        self._writer_lock = lock
        self._idle.clear()
        self._thread = threading.Thread(target=supervised("history-writer", self._run, self._halting.is_set),
                                        name="history-writer", daemon=True)
        self._thread.start()
        return True

    def stop(self, timeout: float = 10.0) -> None:
        """Write what is queued, then close the file and let go of the lock; safe to call twice."""
        thread = self._thread
        if thread is not None:
            self._halting.set()
            self._queue.put(None)
            thread.join(timeout)
            self._thread = None
        if self._writer_lock is not None:
            self._writer_lock.release()
            self._writer_lock = None
        if self.data_dir is not None:
            self._set(mode="stopped")

    # --- writing ----------------------------------------------------------------

    def submit(self, obs: Observation, wait_seconds: float = 0.0) -> bool:
        """Queue a batch for the writer. False when history is not written or the queue stays full.

        The live path never waits (``wait_seconds`` 0); an import may wait for room.
        """
        if self._thread is None:
            return False
        try:
            if wait_seconds > 0:
                self._queue.put(obs, timeout=wait_seconds)
            else:
                self._queue.put_nowait(obs)
        except queue.Full:
            if wait_seconds <= 0:
                self._set(dropped=self._status.dropped + 1)
            return False
        self._idle.clear()
        return True

    @property
    def generation(self) -> int:
        """A counter bumped by every write: what was read before it may be stale."""
        return self._generation

    def hold_pruning(self) -> None:
        """Keep retention from pruning until :meth:`release_pruning` (an import writes old days in batches)."""
        with self._lock:
            self._prune_holds += 1

    def release_pruning(self) -> None:
        """Let retention prune again, at the next write."""
        with self._lock:
            self._prune_holds = max(0, self._prune_holds - 1)
        if self._thread is not None:
            try:
                self._queue.put_nowait(PRUNE_NOW)
            except queue.Full:
                self._last_prune = 0.0  # then at the next write

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until every queued batch is written (or dropped); True if it happened in time."""
        if self._thread is None:
            return True
        return self._idle.wait(timeout)

    def _run(self) -> None:
        assert self.path is not None
        try:
            conn, notice = open_checked(self.path, self.clock(), self.max_file_bytes)
        except (HistoryFileError, NewerSchemaError) as e:
            self._set(mode="off", problem=f"history off: {e}")
            log.error("history off: %s", e)
            self._ready.set()
            self._drain_forever()
            return
        if notice:
            log.warning("%s", notice)
        self._conn = conn
        self._set(mode="writing", notice=notice)
        self._ready.set()
        try:
            while True:
                if self._queue.empty():
                    self._idle.set()
                obs = self._queue.get()
                if obs is None:
                    break
                if isinstance(obs, str):
                    try:
                        self._prune(self.clock())
                    except sqlite3.Error as e:
                        log.warning("history: retention failed: %s", e)
                    continue
                self._write_one(obs)
        finally:
            if self._conn is not None:
                self._conn.close()
            self._conn = None
            self._idle.set()

    def _drain_forever(self) -> None:
        while True:
            self._idle.set()
            if self._queue.get() is None:
                return

    def _write_one(self, obs: Observation) -> None:
        now = self.clock()
        if self._conn is None or now < self._full_until:
            self._keep_passes(obs)
            self._set(dropped=self._status.dropped + 1)
            return
        retry = self._retry_passes.pop(obs.source, [])
        if retry:
            obs = replace(obs, passes=tuple(retry) + obs.passes)
        rows = obs.expanded(self._written_until.get(obs.source))
        try:
            write(self._conn, rows, now, self._recounts)
            if now - self._last_prune >= PRUNE_EVERY_SECONDS:
                self._prune(now)
        except sqlite3.Error as e:
            self._failed(e, obs, now)
            return
        self._generation += 1
        if rows.samples:
            newest = max(s.t for s in rows.samples)
            self._written_until[obs.source] = max(newest, self._written_until.get(obs.source, newest))
        if self._status.problem is not None:
            self._set(problem=None, notice="history writes resumed")

    def _disk_full(self) -> bool:
        assert self.data_dir is not None
        try:
            return shutil.disk_usage(self.data_dir).free < 4 << 20
        except OSError:
            return True

    def _prune(self, now: float) -> None:
        """Apply retention and give the WAL's pages back, unless an import holds pruning."""
        if self._conn is None or self._prune_holds:
            return
        prune(self._conn, now)
        self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._last_prune = now

    def _keep_passes(self, obs: Observation) -> None:
        kept = self._retry_passes.setdefault(obs.source, [])
        kept.extend(obs.passes)
        del kept[:-RETRY_PASSES_MAX]

    def _failed(self, e: sqlite3.Error, obs: Observation, now: float) -> None:
        self._keep_passes(obs)
        if _is_full(e):
            self._full_until = now + FULL_RETRY_SECONDS
            try:  # what retention drops frees pages inside the file for the next try
                assert self._conn is not None
                prune(self._conn, now)
            except sqlite3.Error:
                pass
            stamp = time.strftime("%H:%M", time.localtime(now))
            what = "disk full" if self._disk_full() else f"file reached its {_size_text(self.max_file_bytes)} bound"
            self._set(problem=f"history: {what}, writes stopped at {stamp} (the live view goes on)")
            log.error("history: %s (%s); writes stopped, retrying every %d s", what, e, FULL_RETRY_SECONDS)
            return
        if isinstance(e, sqlite3.OperationalError):
            self._set(problem=f"history: write failed ({e}); retrying")
            log.error("history write failed: %s", e)
            return
        # Anything else means the file itself is broken: move it aside and start again.
        assert self.path is not None and self._conn is not None
        self._conn.close()
        self._conn = None
        try:
            aside = move_aside(self.path, now)
            self._conn, _ = open_checked(self.path, now, self.max_file_bytes)
        except (HistoryFileError, sqlite3.Error, NewerSchemaError) as again:
            self._conn = None  # nothing more is written; the loop goes on draining
            self._set(mode="off", problem=f"history off: {again}")
            return
        self._written_until.clear()
        notice = f"history file broke ({e}); moved aside to {aside.name}, started a new one"
        log.error("%s", notice)
        self._set(notice=notice, problem=None)

    # --- reading ----------------------------------------------------------------

    def status(self) -> HistoryStatus:
        """The current status, with the file's size."""
        with self._lock:
            status = self._status
        size = None
        if self.path is not None:
            try:
                size = sum(Path(f"{self.path}{s}").stat().st_size for s in ("", "-wal") if Path(f"{self.path}{s}").exists())
            except OSError:
                size = None
        return replace(status, size_bytes=size)

    def read(self, query: Callable[[sqlite3.Connection], T]) -> T | None:
        """Run a query on a fresh read-only connection; None when there is no history to read."""
        if self.path is None:
            return None
        self._ready.wait(READY_WAIT_SECONDS)
        if self._status.mode not in ("writing", "read_only") or not self.path.exists():
            return None
        try:
            conn = connect(self.path, read_only=True)
        except sqlite3.Error:
            return None
        try:
            return query(conn)
        except sqlite3.Error as e:
            log.warning("history read failed: %s", e)
            return None
        finally:
            conn.close()

    def chart(self, source: SourceKey, range_name: str, now: float | None = None) -> dict[str, Any]:
        """The chart's JSON for a range (empty series, all null, when nothing is kept), each point a list."""
        listed: dict[str, Any] = queries.listed(self.chart_rows(source, range_name, now))
        return listed

    def chart_rows(self, source: SourceKey, range_name: str, now: float | None = None) -> dict[str, Any]:
        """The same chart with each point a tuple, as SQLite gives its rows: what ``/api/history``
        encodes (a JSON array either way), sparing a list per point of a long run."""
        when = self.clock() if now is None else now
        queries._grid(range_name, when)  # an unknown range is the caller's error, history or not
        data = self.read(lambda conn: queries.history(conn, source, range_name, when))
        if data is None:
            data = queries.history(empty_history(), source, range_name, when)
        return data

    def events(self, source: SourceKey, start: float, end: float) -> list[dict[str, Any]]:
        """The stored events with ``start <= at < end``, oldest first (none when nothing is kept)."""
        rows = self.read(lambda conn: queries.events_between(conn, source, start, end))
        return rows if rows is not None else []

    def csv_rows(self, source: SourceKey, range_name: str, now: float | None = None) -> list[list[Any]]:
        """The range as spreadsheet rows, header first."""
        when = self.clock() if now is None else now
        queries._grid(range_name, when)
        rows = self.read(lambda conn: queries.csv_rows(conn, source, range_name, when))
        return rows if rows is not None else queries.csv_rows(empty_history(), source, range_name, when)

    def figures(self, source: SourceKey, layer: int | None, tokens_per_pass: int | None,
                now: float | None = None) -> tuple[queries.Usual | None, dict[str, Any] | None]:
        """The usual rate on this layer and tokens per pass, and today's figures (cached for 30 s)."""
        when = self.clock() if now is None else now
        key = (source, layer, tokens_per_pass)
        generation = self._generation
        with self._lock:
            cached = self._figures.get(key)
        # Fresh, or stale by a write but computed less than a second ago (a busy import).
        if (
            cached is not None
            and 0 <= when - cached[0] < FIGURES_TTL_SECONDS
            and (cached[2] == generation or time.monotonic() - cached[1] < FIGURES_MIN_SECONDS)
        ):
            return cached[3], cached[4]

        def compute(conn: sqlite3.Connection) -> tuple[queries.Usual | None, dict[str, Any] | None]:
            sid = queries.find_source(conn, source)
            if sid is None:
                return None, None
            found = None
            if layer is not None and tokens_per_pass is not None:
                found = queries.usual(conn, sid, layer, tokens_per_pass, when)
            return found, queries.today(conn, sid, source.kind, when)

        result = self.read(compute) or (None, None)
        with self._lock:
            if len(self._figures) > 64:
                self._figures.clear()
            self._figures[key] = (when, time.monotonic(), generation, result[0], result[1])
        return result

    def imported(self, path: str) -> tuple[int, str] | None:
        """The size and head digest ``path`` had when it was imported whole, or None."""
        return self.read(lambda conn: queries.imported(conn, path))

    def _set(self, **changes: Any) -> None:
        with self._lock:
            self._status = replace(self._status, **changes)
