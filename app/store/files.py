"""Where the history lives, and the file-level safety: one writer, a checked file, corrupt files moved aside."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TypeVar

from .schema import VERSION, NewerSchemaError, migrate, version_of

T = TypeVar("T")

FILE_NAME = "history.sqlite3"
WAL_LIMIT_BYTES = 4 << 20
CACHE_KIB = 512
LOCK_NAME = "writer.lock"
# The file never grows past this (SQLite's max_page_count): retention keeps it far below, this
# is the bound should anything go wrong. Reaching it stops the writes like a full disk.
MAX_FILE_BYTES = 256 << 20


class HistoryFileError(Exception):
    """The history file cannot be used; the message says why and what was done."""


@dataclass
class WriterLock:
    """An exclusive ``flock`` on the data dir's lock file, which names the PID holding it."""

    path: Path
    handle: IO[str] | None = None

    def acquire(self) -> int | None:
        """Take the lock; return None on success, else the PID of the process holding it (0: unknown)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+", encoding="utf-8")
        try:
            import fcntl  # POSIX (Linux, macOS); elsewhere there is no second-writer check
        except ImportError:
            fcntl = None  # type: ignore[assignment]
        try:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            text = handle.read().strip()
            handle.close()
            return int(text) if text.isdigit() else 0
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self.handle = handle
        return None

    def release(self) -> None:
        """Let go of the lock (the OS also does when the process ends)."""
        handle, self.handle = self.handle, None
        if handle is not None:
            handle.close()


def read_quietly(path: Path, query: Callable[[sqlite3.Connection], T], default: T) -> T:
    """``query`` on a short read-only connection to the history file at ``path``; ``default`` when
    there is no file or SQLite fails (a reader beside the writer, such as the agent: never an error
    of its own)."""
    if not path.exists():
        return default
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2.0)
    except sqlite3.Error:
        return default
    try:
        return query(conn)
    except sqlite3.Error:
        return default
    finally:
        conn.close()


def connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), WAL, with a busy timeout."""
    if read_only:
        # With no writer running (no WAL file), read it as immutable: not even a -shm file appears.
        quiet = "" if Path(f"{path}-wal").exists() else "&immutable=1"
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro{quiet}", uri=True, isolation_level=None,
                               check_same_thread=False, timeout=5.0)
    else:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
    conn.execute("PRAGMA busy_timeout=5000")
    # A small page cache: a chart reads a few thousand rows once; memory matters more than re-reads.
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    return conn


def open_checked(
    path: Path, clock_now: float, max_file_bytes: int = MAX_FILE_BYTES
) -> tuple[sqlite3.Connection, str | None]:
    """Open (creating if needed), check and migrate the history file for writing.

    A file that is not a database, fails its integrity check or cannot be migrated is moved
    aside (``history.sqlite3.corrupt-<time>``) and a fresh one started; the second value says so.
    """
    notice: str | None = None
    try:
        return _open_once(path, max_file_bytes), None
    except HistoryFileError:
        raise
    except sqlite3.DatabaseError as e:
        aside = move_aside(path, clock_now)
        notice = f"history file was unreadable ({e}); moved aside to {aside.name}, started a new one"
    try:
        return _open_once(path, max_file_bytes), notice
    except sqlite3.Error as e:
        raise HistoryFileError(f"cannot create a history file in {path.parent}: {e}") from e


def _open_once(path: Path, max_file_bytes: int) -> sqlite3.Connection:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        size = 0
    except OSError as e:
        raise HistoryFileError(f"cannot read {path}: {e.strerror or e}") from e
    if size and not os.access(path, os.R_OK | os.W_OK):
        raise HistoryFileError(f"cannot read and write {path} (permissions); history off")
    conn = connect(path)
    try:
        row = conn.execute("PRAGMA quick_check(1)").fetchone()
        if row is None or row[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check: {row[0] if row else 'no answer'}")
        if version_of(conn) > VERSION:  # before anything is written, even the journal mode
            raise NewerSchemaError(version_of(conn))
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}")  # the WAL shrinks back after a burst
        migrate(conn)
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        conn.execute(f"PRAGMA max_page_count = {max(max_file_bytes // page_size, 1)}")
    except BaseException:
        conn.close()
        raise
    return conn


def move_aside(path: Path, clock_now: float) -> Path:
    """Rename a bad history file (and its WAL and shared-memory files) out of the way."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(clock_now))
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    for suffix in ("", "-wal", "-shm"):
        src = Path(f"{path}{suffix}")
        if src.exists():
            try:
                src.rename(Path(f"{aside}{suffix}"))
            except OSError as e:
                raise HistoryFileError(f"{path} is unreadable and cannot be moved aside: {e.strerror or e}") from e
    return aside
