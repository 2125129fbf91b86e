"""The app's shell log, followed read-only beside the worker's: a second tailer, owned and stoppable.

The Train at Home app's Electron shell writes ``main.log`` (``<date>-main.log`` in some versions)
in the folder of the worker's ``<date>-cli.log``. It is found there in folder mode (and beside a
``*-cli.log`` given as a file), or given as its own path (``--shell-log``). What it says goes to
the miner's tracker as frozen figures before each snapshot (app/stats/iota/shell.py): causes and
timeline entries, never a change to what the worker's log proves.

When there is no shell log, nothing runs but a look at the folder's listing every
``LOOK_SECONDS`` (one ``scandir``), and no tailer thread exists until one appears. In a folder the
look goes on once one is followed: a newer shell log appearing there is followed from then on.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from ..ingest.backwards import read_backwards
from ..ingest.formats.iota_shell import ShellParser
from ..stats.iota.shell import ShellFigures, ShellRecord
from ..supervise import supervised

# The shell log's name, and the dated names some versions write (``2026-09-30-main.log``).
SHELL_LOG_NAME = "main.log"
# How often a folder without a shell log is looked at again.
LOOK_SECONDS = 60.0
# How much of the shell log a start reads back: weeks of a shell's sparse lines.
BACKLOG_BYTES = 4 << 20


def is_shell_log(name: str) -> bool:
    """True for the shell's log names: ``main.log`` and ``*-main*.log``."""
    return name == SHELL_LOG_NAME or (name.endswith(".log") and "-main" in name)


def shell_log_in(folder: Path) -> Path | None:
    """The newest shell log in ``folder`` (None: none, or the folder cannot be listed)."""
    best: tuple[int, str] | None = None
    found: Path | None = None
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not is_shell_log(entry.name):
                    continue
                try:
                    if not entry.is_file():
                        continue
                    order = (entry.stat().st_mtime_ns, entry.name)
                except OSError:
                    continue
                if best is None or order > best:
                    best, found = order, Path(entry.path)
    except OSError:
        return None
    return found


def shell_folder_for(log_path: Path | None) -> Path | None:
    """Where to look for the shell log, given the worker's log path: the folder itself, or a
    ``*-cli.log``'s folder (the app writes both side by side); None for any other log."""
    if log_path is None:
        return None
    if log_path.is_dir():
        return log_path
    if log_path.name.endswith("-cli.log"):
        return log_path.parent
    return None


def shell_log_verdict(lines: list[str], known: bool) -> tuple[bool, str | None]:
    """Whether ``lines`` (of a log no format reads) are the app's shell log, and its last event in words."""
    from ..ingest.formats.iota_shell import looks_like_shell_log
    from ..stats.iota.shell import ShellRecord, shell_entries

    if not known and not looks_like_shell_log(lines):
        return False, None
    parser = ShellParser()
    record = ShellRecord("-")
    record.apply(parser.feed(lines), parser.lines_read, parser.unread_lines)
    entries = shell_entries(record.figures())
    if not entries:
        return True, None
    from .. import text

    last = entries[-1]
    return True, f"{last.text.removeprefix('app: ')} at {text.clock(last.at)}"


class ShellLog:
    """Reads the shell log (once, or followed by its own tailer) into a :class:`ShellRecord`."""

    def __init__(self, path: Path | None = None, *, folder: Path | None = None,
                 on_change: Callable[[], None] | None = None, until: float | None = None) -> None:
        """``path``: the shell log given (followed even while absent); ``folder``: where to look for one;
        ``until``: what it dates after this is not read (``--once --at`` in the past)."""
        self.given = path
        self.until = until
        self.folder = folder
        self._on_change = on_change
        self._lock = threading.Lock()
        self._parser = ShellParser()
        self._record = ShellRecord(None if path is None else str(path))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._tailer: object | None = None

    # --- owner's side ---

    def read_once(self) -> None:
        """Read the shell log's tail once, without a thread (``--once``)."""
        path = self.given if self.given is not None else (shell_log_in(self.folder) if self.folder else None)
        if path is None:
            return
        try:
            self._set_path(path)
            self.backlog(read_backwards(path, unfinished=True))
        except OSError:
            return

    def start(self) -> None:
        """Follow the shell log: at once when given, else once one appears in the folder."""
        if self._thread is not None or (self.given is None and self.folder is None):
            return
        self._thread = threading.Thread(target=supervised("tokwatch-shell-log", self._run, self._stop.is_set),
                                        name="tokwatch-shell-log", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the look-out and the tailer; safe to call twice or before start."""
        self._stop.set()
        tailer = self._tailer
        if tailer is not None:
            tailer.stop(timeout)  # type: ignore[attr-defined]
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    @property
    def tailing(self) -> bool:
        """True once a tailer follows a shell log."""
        return self._tailer is not None

    def figures(self) -> ShellFigures | None:
        """What the shell log said so far, frozen; None when there is none (nothing was read)."""
        with self._lock:
            if self._record.path is None:
                return None
            return self._record.figures()

    # --- the look-out thread ---

    def _run(self) -> None:
        path = self.given
        while path is None and not self._stop.is_set():
            assert self.folder is not None
            path = shell_log_in(self.folder)
            if path is None:
                self._stop.wait(LOOK_SECONDS)
        if path is None or self._stop.is_set():
            return
        self._follow(path)
        if self.given is not None:
            return
        # In a folder, a newer shell log (the app's next dated ``*-main.log``) is followed as the
        # worker's newer log is: looked for as rarely as a missing one. One followed before is
        # never gone back to: its lines were read already, and read again they would count twice.
        followed = {path}
        while not self._stop.wait(LOOK_SECONDS):
            assert self.folder is not None
            newest = shell_log_in(self.folder)
            if newest is not None and newest not in followed:
                followed.add(newest)
                self._follow(newest)

    def _follow(self, path: Path) -> None:
        """Follow ``path`` from now on (what the shell log before it said stays: it happened)."""
        from ..ingest.tailer import Tailer

        before = self._tailer
        if before is not None:
            before.stop()  # type: ignore[attr-defined]
        self._set_path(path)
        tailer = Tailer(path, self)
        self._tailer = tailer
        tailer.start()
        if self._stop.is_set():  # stop() came while it started: it saw the one before
            tailer.stop()

    def _set_path(self, path: Path) -> None:
        with self._lock:
            self._record.path = str(path)

    # --- TailSink (the tailer's thread) ---

    def backlog(self, chunks: Iterator[list[str]], head: Callable[[int], list[str]] | None = None) -> None:
        """Read back up to ``BACKLOG_BYTES`` and apply it in log order."""
        taken: list[list[str]] = []
        size = 0
        for chunk in chunks:
            taken.append(chunk)
            size += sum(len(line) + 1 for line in chunk)
            if size >= BACKLOG_BYTES:
                break
        self.lines([line for chunk in reversed(taken) for line in chunk])

    def lines(self, lines: list[str]) -> None:
        """Parse new lines and tell the owner the figures changed."""
        if not lines:
            return
        with self._lock:
            events = self._parser.feed(lines)
            if self.until is not None:
                events = [e for e in events if e.at <= self.until]
            self._record.apply(events, self._parser.lines_read, self._parser.unread_lines)
        if self._on_change is not None:
            self._on_change()

    def restarted(self, reason: str, *, repeats: bool = False) -> None:
        """The shell log was truncated or replaced: what it said stays (it happened)."""
