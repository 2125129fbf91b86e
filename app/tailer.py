"""Follow one training log, or the newest ``*.log`` in a folder, and hand complete lines to a sink.

The only module that touches the log file. One daemon thread runs ``watchfiles.watch`` on the
file's *parent* folder (watching the file itself stops seeing changes once it is replaced,
watchfiles #235, fava #1778) and re-stats on every wake-up, changes or timeout alike. So
truncation, rotation and a missing file are handled the same way whether or not native events
arrive (NFS, WSL-mounted drives send none; the timeout heartbeat covers them).

Memory stays bounded whatever the file size: bytes are read in blocks, at most ``max_line_bytes``
of an unfinished line is held, and lines reach the sink in batches.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple, Protocol, TypeVar

from watchfiles import Change, watch

log = logging.getLogger(__name__)

# Where the IOTA "Train at Home" app writes its dated ``<YYYY-MM-DD>-cli.log`` files (macOS).
IOTA_LOG_DIR_PARTS = ("Library", "Logs", "IOTA Train at Home")
LOG_SUFFIX = ".log"

READ_BLOCK_BYTES = 64 * 1024
# Batches bound how long a consumer holds its lock per call, and the memory of one call.
BATCH_MAX_LINES = 5000
BATCH_MAX_BYTES = 4 << 20

# watchfiles sleeps ``step`` ms between checks and yields once the change set stops growing
# between two checks, so an append surfaces after step..2*step ms. 20 ms keeps that well under
# the 100 ms end-to-end budget at 50 cheap wake-ups a second (the default 50 ms gives 50-100 ms).
# Changes are a set of (kind, path), so steady appends to one file cannot keep it growing;
# ``debounce`` only caps a burst of many distinct paths.
WATCH_STEP_MS = 20
WATCH_DEBOUNCE_MS = 100

# Files left behind by a directory-mode switch are never switched back to, even when written
# again (a last line from the old process must not flip the view back and forth).
LEFT_FILES_REMEMBERED = 64

FileIdentity = tuple[int, int]
_T = TypeVar("_T")


class TailSink(Protocol):
    """Receives what the tailer reads; every call comes from the tailer's thread."""

    def backlog(self, chunks: Iterator[list[str]]) -> None:
        """Pull chunks of older lines, newest chunk first, each in forward order; stop when enough."""
        ...

    def lines(self, lines: list[str]) -> None:
        """Take new complete lines in log order (no trailing newline; a ``\\r`` may remain)."""
        ...

    def restarted(self, reason: str) -> None:
        """Forget the stream: the file was truncated, replaced or switched, and what follows is new."""
        ...


@dataclass(frozen=True)
class SourceStatus:
    """What the tailer is following and how it is going, for the page and ``--once``."""

    path: str
    size_bytes: int | None
    lines_read: int
    invalid_utf8_lines: int
    long_lines_cut: int
    truncations: int
    rotations: int
    problem: str | None


@dataclass
class LineCounters:
    """Running totals of lines produced and of the repairs made to them."""

    lines: int = 0
    invalid_utf8_lines: int = 0
    long_lines_cut: int = 0


class _ReadableFile(Protocol):
    def read(self, size: int = -1, /) -> bytes | None: ...

    def seek(self, offset: int, whence: int = 0, /) -> int: ...

    def fileno(self) -> int: ...

    def close(self) -> None: ...


def _open_for_reading(path: Path) -> _ReadableFile:
    """Open ``path`` for unbuffered binary reading: the one place a log file is opened."""
    return open(path, "rb", buffering=0)


def default_log_path(home: Path | None = None) -> Path | None:
    """Return the IOTA Train at Home log folder when it exists, else None."""
    folder = (home if home is not None else Path.home()).joinpath(*IOTA_LOG_DIR_PARTS)
    return folder if folder.is_dir() else None


class _LogFile(NamedTuple):
    path: Path
    st: os.stat_result

    @property
    def order(self) -> tuple[int, str]:
        # Dated names break mtime ties on coarse-timestamp file systems (FAT, some NFS).
        return (self.st.st_mtime_ns, self.path.name)


def _log_files(folder: Path) -> list[_LogFile]:
    """List the regular ``*.log`` files in ``folder`` (not recursive)."""
    found: list[_LogFile] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if not entry.name.endswith(LOG_SUFFIX):
                continue
            try:
                st = entry.stat()  # follows symlinks, like opening it will
            except OSError:
                continue  # vanished or unreadable between listing and stat
            if stat.S_ISREG(st.st_mode):
                found.append(_LogFile(Path(entry.path), st))
    return found


def resolve_log(path: Path) -> Path | None:
    """Return ``path`` if it is a file, the newest ``*.log`` in it by mtime if a folder, else None."""
    try:
        st = path.stat()
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode):
        return path
    try:
        logs = _log_files(path)
    except OSError:
        return None
    return max(logs, key=lambda f: f.order).path if logs else None


# --- bytes to lines ---------------------------------------------------------


def _cut(line: bytes, max_line_bytes: int) -> bytes:
    """Cut ``line`` to at most ``max_line_bytes``, not inside a multi-byte UTF-8 character."""
    # A character is at most 4 bytes, so back off at most 3 continuation bytes (0b10xxxxxx).
    for end in range(max_line_bytes, max(max_line_bytes - 4, 0), -1):
        if line[end] & 0xC0 != 0x80:
            return line[:end]
    return line[:max_line_bytes]


def _decode(raw_lines: list[bytes]) -> tuple[list[str], int]:
    """Decode lines as UTF-8, replacing bad bytes; return them and how many needed replacing."""
    lines: list[str] = []
    invalid = 0
    for raw in raw_lines:
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(raw.decode("utf-8", errors="replace"))
            invalid += 1
    return lines, invalid


class _LineSplitter:
    """Split a forward byte stream into lines, holding at most ``max_line_bytes`` of an unfinished one."""

    def __init__(self, max_line_bytes: int) -> None:
        self.max_line_bytes = max_line_bytes
        self._pending = bytearray()
        self._discarding = False  # inside a line already cut and delivered: drop up to its newline

    def reset(self) -> None:
        """Forget any unfinished line."""
        self._pending.clear()
        self._discarding = False

    def take_unfinished(self) -> bytes | None:
        """Return and forget the unfinished line, if any (its stream has ended)."""
        line = None if self._discarding or not self._pending else bytes(self._pending)
        self.reset()
        return line

    def feed(self, data: bytes) -> tuple[list[bytes], int]:
        """Return the lines ``data`` completes (without b"\\n") and how many of them were cut."""
        limit = self.max_line_bytes
        lines: list[bytes] = []
        cut = 0
        parts = data.split(b"\n")
        tail = parts.pop()  # after the last newline: unfinished
        for i, body in enumerate(parts):
            if i == 0:
                if self._discarding:
                    self._discarding = False
                    continue
                if self._pending:
                    body = bytes(self._pending) + body
                    self._pending.clear()
            if len(body) > limit:
                body = _cut(body, limit)
                cut += 1
            lines.append(body)
        if tail and not self._discarding:
            room = limit - len(self._pending)
            if len(tail) <= room:
                self._pending += tail
            else:
                # Too long already: deliver the cut line now, drop the rest until its newline
                # rather than hold an unbounded line in memory.
                self._pending += tail[: room + 1]
                lines.append(_cut(bytes(self._pending), limit))
                cut += 1
                self._pending.clear()
                self._discarding = True
        return lines, cut


def _read_at(f: _ReadableFile, offset: int, size: int) -> bytes:
    """Read up to ``size`` bytes at ``offset`` (fewer only if the file is shorter now)."""
    f.seek(offset)
    parts: list[bytes] = []
    remaining = size
    while remaining > 0:
        data = f.read(remaining)
        if not data:
            break
        parts.append(data)
        remaining -= len(data)
    return b"".join(parts)


def _complete_end(f: _ReadableFile, size: int) -> int:
    """Return the offset just past the last b"\\n" before ``size`` (0 if there is none)."""
    pos = size
    while pos > 0:
        start = max(0, pos - READ_BLOCK_BYTES)
        i = _read_at(f, start, pos - start).rfind(b"\n")
        if i >= 0:
            return start + i + 1
        pos = start
    return 0


def _backward_chunks(
    f: _ReadableFile, end: int, chunk_bytes: int, max_line_bytes: int
) -> Iterator[tuple[list[bytes], int]]:
    """Yield (lines, lines cut) for the complete lines before ``end``, newest chunk first.

    Reads one ``chunk_bytes`` block per chunk pulled. The head of each block (up to its first
    newline) belongs to a line that starts earlier, so it is carried into the next, older chunk.
    A carried line longer than ``max_line_bytes`` is dropped from memory and its prefix re-read
    once its start is found.
    """
    pos = end
    carry = b""  # bytes [pos, ...) ending with b"\n": the end of a line that starts before pos
    carry_dropped = False  # that line is over max_line_bytes; carry holds none of it
    while pos > 0:
        start = max(0, pos - chunk_bytes)
        data = _read_at(f, start, pos - start)
        if len(data) != pos - start:
            return  # truncated meanwhile; the live reader notices and restarts the stream
        body_at = data.find(b"\n") + 1 if start > 0 else 0
        if body_at == 0 and start > 0:  # the whole block lies inside one line
            if not carry_dropped:
                carry = data + carry
                if len(carry) > max_line_bytes + 1:
                    carry, carry_dropped = b"", True
            pos = start
            continue
        region = data[body_at:]
        if carry_dropped:
            parts = region.split(b"\n")
            long_start = start + body_at + len(region) - len(parts[-1])
            parts[-1] = _read_at(f, long_start, max_line_bytes + 1)
        else:
            parts = (region + carry).split(b"\n")
            parts.pop()  # empty: the joined bytes end with b"\n"
        cut = 0
        for i, body in enumerate(parts):
            if len(body) > max_line_bytes:
                parts[i] = _cut(body, max_line_bytes)
                cut += 1
        carry, carry_dropped = data[:body_at], False
        if len(carry) > max_line_bytes + 1:
            carry, carry_dropped = b"", True
        pos = start
        if parts:
            yield parts, cut


def read_backwards(
    path: Path,
    *,
    chunk_bytes: int = 1 << 20,
    max_line_bytes: int = 1 << 20,
    stats: LineCounters | None = None,
) -> Iterator[list[str]]:
    """Yield chunks of complete lines from the end of ``path`` backwards, newest chunk first.

    Lines inside a chunk are in forward order. An unfinished last line (no newline yet) is
    not yielded. Only the chunks pulled are read, so stopping early is cheap on any file size.
    ``stats`` counts the lines yielded and their repairs.
    """
    with closing(_open_for_reading(path)) as f:
        end = _complete_end(f, os.fstat(f.fileno()).st_size)
        for raw, cut in _backward_chunks(f, end, chunk_bytes, max_line_bytes):
            lines, invalid = _decode(raw)
            if stats is not None:
                stats.lines += len(lines)
                stats.invalid_utf8_lines += invalid
                stats.long_lines_cut += cut
            yield lines


# --- the follower -----------------------------------------------------------


def _identity(st: os.stat_result) -> FileIdentity:
    return (st.st_dev, st.st_ino)


def _left_key(identity: FileIdentity, path: Path) -> tuple[int, int, str]:
    # The name too: once a file is closed its inode number can be reused by another file.
    return (identity[0], identity[1], path.name)


def _stat_log(path: Path) -> tuple[os.stat_result | None, str | None]:
    """Stat ``path`` as a log file: (its stat, None), or (None, a problem a person can act on)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if not path.parent.is_dir():
            return None, f"waiting for {path} to appear (the folder {path.parent} does not exist yet)"
        return None, f"waiting for {path} to appear"
    except NotADirectoryError:
        return None, f"waiting for {path} to appear (part of its folder path is a file)"
    except PermissionError:
        return None, f"permission denied reading {path}"
    except OSError as e:
        return None, f"cannot read {path}: {e.strerror or e}"
    if stat.S_ISDIR(st.st_mode):
        return None, f"{path} is a directory, not a log file"
    if not stat.S_ISREG(st.st_mode):
        return None, f"{path} is not a regular file"
    return st, None


class Tailer:
    """Follow a log file, or the newest ``*.log`` in a folder, on one daemon thread."""

    def __init__(
        self,
        path: Path,
        sink: TailSink,
        *,
        max_line_bytes: int = 1 << 20,
        poll_interval_s: float = 1.0,
        chunk_bytes: int = 1 << 20,
        force_polling: bool | None = None,
    ) -> None:
        self._path = Path(path).expanduser().absolute()
        self._sink = sink
        self._max_line_bytes = max_line_bytes
        self._poll_interval_s = poll_interval_s
        self._chunk_bytes = chunk_bytes
        self._force_polling = force_polling
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()  # guards _status only
        self._status = SourceStatus(str(self._path), None, 0, 0, 0, 0, 0, None)
        # Everything below belongs to the thread.
        self._directory_mode: bool | None = None  # decided when the path is first seen
        self._file: _ReadableFile | None = None
        self._identity: FileIdentity | None = None
        self._followed: Path | None = None
        self._followed_order: tuple[int, str] | None = None
        self._offset = 0  # bytes of the open file consumed, an unfinished line included
        self._splitter = _LineSplitter(max_line_bytes)
        self._backlog_pending = True  # the first file, if present at start, starts with a backlog
        self._restart_reason: str | None = None  # owed to the sink before the next stream
        self._left: dict[tuple[int, int, str], None] = {}
        self._last_poll = 0.0
        self._last_error: str | None = None

    # --- owner's side ---

    def start(self) -> None:
        """Start following on one daemon thread."""
        if self._thread is not None or self._stop.is_set():
            raise RuntimeError("a Tailer can be started once")
        self._thread = threading.Thread(target=self._run, name="tokwatch-tailer", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait for it; safe to call twice or before start."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def status(self) -> SourceStatus:
        """Return what is followed and the counts so far."""
        with self._lock:
            return self._status

    # --- the thread ---

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    self._watch_until_restart()
                except Exception as e:  # noqa: BLE001 - the thread must outlive anything one iteration hits
                    self._report_unexpected(e)
                    self._stop.wait(self._poll_interval_s)
        finally:
            self._close_file()

    def _watch_dir(self) -> Path:
        return self._path if self._directory_mode else self._path.parent

    def _watch_until_restart(self) -> None:
        """Poll, then watch the folder and poll on every wake-up until the folder must be re-watched."""
        self._poll_guarded()
        folder = self._watch_dir()
        try:
            folder_identity = _identity(os.stat(folder))
            changes = watch(
                folder,
                watch_filter=self._accept,
                recursive=False,
                stop_event=self._stop,
                yield_on_timeout=True,
                rust_timeout=max(1, round(self._poll_interval_s * 1000)),
                debounce=WATCH_DEBOUNCE_MS,
                step=WATCH_STEP_MS,
                force_polling=self._force_polling,
            )
            with closing(changes):
                for _ in changes:
                    self._poll_guarded()
                    if self._watch_dir() != folder or _identity(os.stat(folder)) != folder_identity:
                        return  # mode decided, or the folder was replaced: its old watch is dead
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            # The folder is missing or unreadable (the poll has said so): try again shortly.
            self._stop.wait(self._poll_interval_s)
        except OSError as e:
            if self._force_polling:
                raise
            # E.g. the inotify watch limit is reached: polling still works.
            log.warning("native file watching failed (%s); polling %s instead", e, folder)
            self._force_polling = True

    def _accept(self, change: Change, path: str) -> bool:
        """Keep changes to our file (or any *.log in directory mode)."""
        # Changes this filter drops do not reset watchfiles' timeout, so a busy folder of other
        # files would starve the heartbeat; let one through when a poll is due.
        if time.monotonic() - self._last_poll >= self._poll_interval_s:
            return True
        name = os.path.basename(path)
        return name.endswith(LOG_SUFFIX) if self._directory_mode else name == self._path.name

    def _poll_guarded(self) -> None:
        """Poll; an unexpected error is reported and the next wake-up (at most a poll interval away) retries."""
        try:
            self._poll()
        except Exception as e:  # noqa: BLE001 - the thread must outlive anything one poll hits
            self._report_unexpected(e)

    def _poll(self) -> None:
        """Re-stat what is followed and deliver whatever is new."""
        self._last_poll = time.monotonic()
        if self._directory_mode is None:
            try:
                self._directory_mode = stat.S_ISDIR(os.stat(self._path).st_mode)
            except OSError:
                pass  # not there yet: treat it as a file until it appears
        if self._directory_mode:
            self._poll_directory()
        else:
            st, problem = _stat_log(self._path)
            if st is not None:
                # Decided by the very stat the file is read after: had it appeared just after the
                # mode check above, a directory later put in its place must not flip us to folder mode.
                self._directory_mode = False
            self._follow(self._path, st, problem)

    def _poll_directory(self) -> None:
        folder = self._path
        try:
            logs = _log_files(folder)
        except OSError as e:
            if isinstance(e, FileNotFoundError):
                problem = f"waiting for the folder {folder} to appear"
            elif isinstance(e, PermissionError):
                problem = f"permission denied reading the folder {folder}"
            elif isinstance(e, NotADirectoryError):
                problem = f"{folder} is not a folder any more"
            else:
                problem = f"cannot list {folder}: {e.strerror or e}"
            if self._file is not None:
                self._read_available()
            self._set_problem(problem)
            return
        candidates = [
            f
            for f in logs
            if _identity(f.st) != self._identity and _left_key(_identity(f.st), f.path) not in self._left
        ]
        newest = max(candidates, key=lambda f: f.order) if candidates else None
        current = self._followed
        if current is None:
            if newest is None:
                self._backlog_pending = False  # whatever appears later is new: read it from 0
                self._set_problem(f"waiting for a *{LOG_SUFFIX} file to appear in {folder}")
                return
            self._followed_order = newest.order
            self._follow(newest.path, newest.st, None)
            return
        st, current_problem = _stat_log(current)
        if st is not None:
            self._followed_order = _LogFile(current, st).order
        if (
            newest is not None
            and newest.path != current
            and (self._followed_order is None or newest.order > self._followed_order)
        ):
            if self._identity is not None:
                self._left[_left_key(self._identity, current)] = None
                while len(self._left) > LEFT_FILES_REMEMBERED:
                    del self._left[next(iter(self._left))]
            self._followed_order = newest.order
            self._follow(newest.path, newest.st, None, switch_reason=f"switched to {newest.path.name}")
        else:
            self._follow(current, st, current_problem)

    def _follow(
        self, path: Path, st: os.stat_result | None, problem: str | None, *, switch_reason: str | None = None
    ) -> None:
        """Keep reading the open file, or move to the file now at ``path``."""
        if self._file is not None:
            if path == self._followed and (st is None or _identity(st) == self._identity):
                # Same file, or nothing new at the path yet: keep reading what we hold (a writer
                # may still append to a renamed or deleted file), and report what is wrong.
                self._read_available()
                self._set_problem(problem)
                return
            # Another file: finish the old one first, lines written just before the switch included.
            self._read_available()
            if self._stop.is_set():
                return
            unfinished = self._splitter.take_unfinished()
            if unfinished is not None:
                self._deliver([unfinished], 0)
            self._close_file()
            self._restart_reason = switch_reason or "replaced"
            self._update(rotations=self._status.rotations + 1)
        self._followed = path
        self._update(path=str(path))
        if st is None:
            if problem is not None and problem.startswith("waiting"):
                self._backlog_pending = False
            self._update(size_bytes=None)
            self._set_problem(problem)
            return
        self._open(path)

    def _open(self, path: Path) -> None:
        try:
            f = _open_for_reading(path)
        except OSError as e:
            if isinstance(e, PermissionError):
                self._set_problem(f"permission denied reading {path}")
            else:
                self._set_problem(_stat_log(path)[1] or f"cannot open {path}: {e.strerror or e}")
            return
        # Identity comes from the open descriptor: the path may have been replaced since its stat.
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            f.close()
            self._set_problem(f"{path} is not a regular file")
            return
        self._file, self._identity = f, _identity(st)
        self._splitter.reset()
        self._update(size_bytes=st.st_size)
        self._set_problem(None)
        if self._backlog_pending:
            self._backlog_pending = False
            end = _complete_end(f, st.st_size)
            self._deliver_backlog(f, end)
            self._offset = end
        else:
            self._offset = 0
            if self._restart_reason is not None:
                reason, self._restart_reason = self._restart_reason, None
                self._call_sink("restarted", self._sink.restarted, reason)
        f.seek(self._offset)
        self._read_available()

    def _deliver_backlog(self, f: _ReadableFile, end: int) -> None:
        def chunks() -> Generator[list[str], None, None]:
            for raw, cut in _backward_chunks(f, end, self._chunk_bytes, self._max_line_bytes):
                if self._stop.is_set():
                    return
                lines, invalid = _decode(raw)
                self._count(len(lines), invalid, cut)
                yield lines

        pulled = chunks()
        try:
            self._call_sink("backlog", self._sink.backlog, pulled)
        finally:
            pulled.close()  # a sink that kept the iterator must not move our file position later

    def _read_available(self) -> None:
        """Read the open file to its end, restarting the stream if it was truncated."""
        f = self._file
        assert f is not None
        size = os.fstat(f.fileno()).st_size
        if size < self._offset:
            # Truncation (e.g. logrotate copytruncate) looks like any change: watchfiles has no
            # event for it, so the size going backwards is the only sign.
            self._splitter.reset()
            self._offset = 0
            f.seek(0)
            self._update(truncations=self._status.truncations + 1)
            self._call_sink("restarted", self._sink.restarted, "truncated")
        raw_batch: list[bytes] = []
        batch_bytes = 0
        cut_total = 0
        while not self._stop.is_set():
            data = f.read(READ_BLOCK_BYTES)
            if not data:
                break
            self._offset += len(data)
            raw, cut = self._splitter.feed(data)
            raw_batch.extend(raw)
            cut_total += cut
            batch_bytes += len(data)
            if len(raw_batch) >= BATCH_MAX_LINES or batch_bytes >= BATCH_MAX_BYTES:
                self._deliver(raw_batch, cut_total)
                raw_batch, batch_bytes, cut_total = [], 0, 0
        if raw_batch:
            self._deliver(raw_batch, cut_total)
        self._update(size_bytes=max(size, self._offset))

    def _deliver(self, raw_lines: list[bytes], cut: int) -> None:
        for at in range(0, len(raw_lines), BATCH_MAX_LINES):
            lines, invalid = _decode(raw_lines[at : at + BATCH_MAX_LINES])
            self._count(len(lines), invalid, cut if at == 0 else 0)
            self._call_sink("lines", self._sink.lines, lines)

    def _call_sink(self, name: str, method: Callable[[_T], None], arg: _T) -> None:
        try:
            method(arg)
        except Exception:  # a consumer's bug must not stop the log being followed
            log.exception("the sink's %s() failed; the tailer goes on", name)

    def _close_file(self) -> None:
        if self._file is not None:
            self._file.close()
        self._file, self._identity = None, None
        self._splitter.reset()

    # --- status ---

    def _update(self, **changes: object) -> None:
        with self._lock:
            self._status = replace(self._status, **changes)  # type: ignore[arg-type]

    def _count(self, lines: int, invalid: int, cut: int) -> None:
        with self._lock:
            s = self._status
            self._status = replace(
                s,
                lines_read=s.lines_read + lines,
                invalid_utf8_lines=s.invalid_utf8_lines + invalid,
                long_lines_cut=s.long_lines_cut + cut,
            )

    def _set_problem(self, problem: str | None) -> None:
        if problem != self._status.problem:
            if problem is None:
                self._last_error = None
                log.info("following %s", self._status.path)
            else:
                log.warning("%s", problem)
            self._update(problem=problem)

    def _report_unexpected(self, e: Exception) -> None:
        message = f"unexpected error while following {self._path}: {e!r}; retrying"
        if message != self._last_error:  # weeks of the same failure must not flood the log
            log.error("%s", message, exc_info=e)
            self._last_error = message
        self._set_problem(message)
