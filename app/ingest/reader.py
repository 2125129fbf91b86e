"""Read one open log file to its end and hand its complete lines to the sink, in batches."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Protocol, TypeVar

from ..allocator import TRIMMER
from . import files
from .backwards import READ_BLOCK_BYTES, backward_chunks, complete_end, read_at, read_head, scan_bytes
from .files import FileIdentity, ReadableFile, identity, stat_log
from .lines import LineSplitter, decode
from .status import StatusBoard

log = logging.getLogger("app.ingest.tailer")  # the tailer's messages, under its name

# What the content check of the open file compares on every wake-up (see ContentPrint).
HEAD_PRINT_BYTES = 4096
TAIL_PRINT_BYTES = 256
# Batches bound how long a consumer holds its lock per call, and the memory of one call.
BATCH_MAX_LINES = 5000
# A last line without its newline is read once the file has not changed for this long: long
# enough that a line being written (a progress bar's redraws, a logger's flush) has its end,
# short enough that a finished run reads done before anyone wonders. If it goes on after all,
# the whole line is read again when it ends (app/ingest/lines.py).
QUIET_TAIL_SECONDS = 5.0
BATCH_MAX_BYTES = 4 << 20

_T = TypeVar("_T")


class TailSink(Protocol):
    """Receives what the tailer reads; every call comes from the tailer's thread."""

    def backlog(self, chunks: Iterator[list[str]], head: Callable[[int], list[str]] | None = None) -> None:
        """Pull chunks of older lines, newest chunk first, each in forward order; stop when enough.

        ``head(max_bytes)``: the file's first complete lines, for what a log says only at its start.
        """
        ...

    def lines(self, lines: list[str]) -> None:
        """Take new complete lines in log order (no trailing newline; a ``\\r`` may remain)."""
        ...

    def restarted(self, reason: str, *, repeats: bool = False) -> None:
        """Forget the stream: the file was truncated, replaced or switched, and what follows is new.

        ``repeats``: the new stream begins with the old one's first bytes (the same log written
        again from its start), so what it dates up to the old stream's last time was read already.
        """
        ...


class ContentPrint:
    """The stream's first bytes and the bytes just before the read offset, as last read.

    Checked on every wake-up: a file truncated and refilled past the old offset between two
    polls has not shrunk, but these bytes are no longer the same. Two small reads per wake-up.
    """

    __slots__ = ("head", "tail")

    def __init__(self) -> None:
        self.head = b""
        self.tail = b""

    def take(self, f: ReadableFile, offset: int) -> None:
        """Remember the bytes at the start and just before ``offset``."""
        if len(self.head) < HEAD_PRINT_BYTES:
            self.head = read_at(f, 0, min(offset, HEAD_PRINT_BYTES))
        k = min(offset, TAIL_PRINT_BYTES)
        self.tail = read_at(f, offset - k, k)

    def holds(self, f: ReadableFile, offset: int) -> bool:
        """True when the file still has the same bytes at its start and just before ``offset``."""
        if self.head and read_at(f, 0, len(self.head)) != self.head:
            return False
        k = len(self.tail)
        return not k or (offset >= k and read_at(f, offset - k, k) == self.tail)

    def starts(self, f: ReadableFile, size: int) -> bool:
        """True when a file of ``size`` begins with the whole remembered head (the same log again)."""
        n = len(self.head)
        return n > 0 and size >= n and read_at(f, 0, n) == self.head

    def clear(self) -> None:
        """Forget both."""
        self.head = self.tail = b""


class FileReader:
    """The file the tailer has open: its identity, how far it is read, its unfinished line."""

    def __init__(
        self, sink: TailSink, board: StatusBoard, stop: threading.Event, *, max_line_bytes: int, chunk_bytes: int
    ) -> None:
        self._sink = sink
        self._board = board
        self._stop = stop
        self._max_line_bytes = max_line_bytes
        self._chunk_bytes = chunk_bytes
        self.file: ReadableFile | None = None
        self.identity: FileIdentity | None = None
        self._offset = 0  # bytes of the open file consumed, an unfinished line included
        self._opened_size = 0  # its size when opened: where its backlog ends
        self._splitter = LineSplitter(max_line_bytes)
        self._print = ContentPrint()
        self._old_print = ContentPrint()  # the stream before a restart, to tell a repeat

    def open(self, path: Path) -> bool:
        """Open ``path`` as the file to read (False: it cannot be, and the problem says why)."""
        try:
            f = files.open_for_reading(path)
        except OSError as e:
            if isinstance(e, PermissionError):
                self._board.set_problem(f"permission denied reading {path}")
            else:
                self._board.set_problem(stat_log(path)[1] or f"cannot open {path}: {e.strerror or e}")
            return False
        # Identity comes from the open descriptor: the path may have been replaced since its stat.
        st = os.fstat(f.fileno())
        self.file, self.identity = f, identity(st)
        self._splitter.reset()
        self._print.clear()
        self._opened_size = st.st_size
        self._board.update(size_bytes=st.st_size, modified_at=st.st_mtime)
        self._board.set_problem(None)
        return True

    def start(self, *, backlog: bool, restart_reason: str | None) -> None:
        """Read the file just opened: its backlog first, or from byte 0 after ``restarted``."""
        f = self.file
        assert f is not None
        if backlog:
            end = complete_end(f, self._opened_size, scan_bytes(self._max_line_bytes))
            if end is None:
                # It ends inside a line longer than any kept: drop that line's rest as it comes.
                self._board.count(0, 0, 1)
                self._offset = self._opened_size
                self._splitter.discard_line()
            else:
                # The bytes as they were opened, before the backlog is handed on (that takes a
                # while): a file rewritten meanwhile (a trainer_state.json at its next checkpoint)
                # no longer holds them, and its next read starts again from byte 0.
                self._print.take(f, end)
                self._deliver_backlog(f, end)
                self._offset = end
        else:
            self._offset = 0
            if restart_reason is not None:
                self._restart(restart_reason, repeats=self._old_print.starts(f, self._opened_size))
        self._old_print.clear()
        if not self._print.tail:
            self._print.take(f, self._offset)
        f.seek(self._offset)
        self.read_available()

    def continue_in(self, path: Path) -> bool:
        """Read on in the file now at ``path`` if it holds what was read so far, at the same offset.

        A log replaced by a copy of itself plus new lines (rsync, a sync client, an editor's
        save): nothing is read twice and the stream goes on. False (and nothing changed) when
        the new file differs or cannot be opened.
        """
        try:
            f = files.open_for_reading(path)
        except OSError:
            return False
        st = os.fstat(f.fileno())
        if st.st_size < self._offset or not self._print.holds(f, self._offset) or not self._print.starts(f, st.st_size):
            f.close()
            return False
        if self.file is not None:
            self.file.close()
        self.file, self.identity = f, identity(st)
        self._board.update(size_bytes=st.st_size, modified_at=st.st_mtime)
        self.read_available()
        return True

    def _restart(self, reason: str, *, repeats: bool) -> None:
        def restarted(why: str) -> None:
            self._sink.restarted(why, repeats=repeats)

        self._call_sink("restarted", restarted, reason)

    def _deliver_backlog(self, f: ReadableFile, end: int) -> None:
        def chunks() -> Generator[list[str], None, None]:
            scan = scan_bytes(self._max_line_bytes)
            for raw, cut in backward_chunks(f, end, self._chunk_bytes, self._max_line_bytes, scan):
                if self._stop.is_set():
                    return
                lines, invalid = decode(raw)
                self._board.count(len(lines), invalid, cut)
                yield lines

        def backlog(pulled: Iterator[list[str]]) -> None:
            self._sink.backlog(pulled, lambda max_bytes: read_head(f, end, max_bytes))

        pulled = chunks()
        try:
            self._call_sink("backlog", backlog, pulled)
        finally:
            pulled.close()  # a sink that kept the iterator must not move our file position later
        TRIMMER.request()  # the text read back is garbage now: give its pages back

    def read_available(self) -> None:
        """Read the open file to its end, restarting the stream if it was truncated or rewritten."""
        f = self.file
        assert f is not None
        st = os.fstat(f.fileno())
        size = st.st_size
        if size < self._offset or not self._print.holds(f, self._offset):
            # Truncation (e.g. logrotate copytruncate) has no event of its own: the size going
            # backwards shows it, or, when the file was refilled past the old offset between two
            # polls, the bytes at its start or just before the offset being no longer the same.
            repeats = self._print.starts(f, size)
            self._splitter.reset()
            self._offset = 0
            self._print.clear()
            self._board.update(truncations=self._board.status.truncations + 1)
            self._restart("truncated", repeats=repeats)
        f.seek(self._offset)
        read_any = False
        batch: list[str] = []
        batch_bytes = 0
        cut_total = invalid_total = 0
        while not self._stop.is_set():
            data = f.read(READ_BLOCK_BYTES)
            if not data:
                break
            read_any = True
            self._offset += len(data)
            lines, cut, invalid = self._splitter.feed_text(data)
            batch.extend(lines)
            cut_total += cut
            invalid_total += invalid
            batch_bytes += len(data)
            if len(batch) >= BATCH_MAX_LINES or batch_bytes >= BATCH_MAX_BYTES:
                self._deliver_text(batch, cut_total, invalid_total)
                batch, batch_bytes, cut_total, invalid_total = [], 0, 0, 0
        if batch:
            self._deliver_text(batch, cut_total, invalid_total)
        if read_any:
            self._print.take(f, self._offset)
        elif time.time() - os.fstat(f.fileno()).st_mtime >= QUIET_TAIL_SECONDS:
            tail = self._splitter.quiet_tail()  # a last line without its newline, the writer quiet
            if tail is not None:
                self._deliver([tail], 0)
        self._board.update(size_bytes=max(size, self._offset), modified_at=st.st_mtime)

    def finish(self) -> None:
        """The file is left for another: deliver its unfinished last line, then close it."""
        unfinished = self._splitter.take_unfinished()
        if unfinished is not None:
            self._deliver([unfinished], 0)
        self._old_print.head = self._print.head
        self.close()

    def close(self) -> None:
        """Close the file, if open, and forget its unfinished line."""
        if self.file is not None:
            self.file.close()
        self.file, self.identity = None, None
        self._splitter.reset()
        self._print.clear()

    def _deliver(self, raw_lines: list[bytes], cut: int) -> None:
        lines, invalid = decode(raw_lines)
        self._deliver_text(lines, cut, invalid)

    def _deliver_text(self, lines: list[str], cut: int, invalid: int) -> None:
        # The repairs are counted with the first batch: they are in it or just before it.
        for at in range(0, len(lines), BATCH_MAX_LINES):
            batch = lines[at : at + BATCH_MAX_LINES] if len(lines) > BATCH_MAX_LINES else lines
            self._board.count(len(batch), invalid if at == 0 else 0, cut if at == 0 else 0)
            self._call_sink("lines", self._sink.lines, batch)

    def _call_sink(self, name: str, method: Callable[[_T], None], arg: _T) -> None:
        try:
            method(arg)
        except Exception:  # a consumer's bug must not stop the log being followed
            log.exception("the sink's %s() failed; the tailer goes on", name)
