"""Follow one training log, or the right ``*.log`` in a folder, and hand complete lines to a sink.

With app/ingest/reader.py (one open file read to its end), backwards.py (a log read from its
end), lines.py (bytes to lines), folder.py (which file in a folder), files.py (where logs
are, how one is opened) and wake.py (sleeping until the folder changes), the only code that
touches the log file. One daemon thread watches the file's *parent* folder (watching the file
itself stops seeing changes once it is replaced, watchfiles #235, fava #1778) and re-stats on
every wake-up, changes or heartbeat alike. So truncation, rotation and a missing file are
handled the same way whether or not native events arrive (NFS, WSL-mounted drives send none;
the heartbeat, every ``poll_interval_s``, covers them).

On Linux the thread sleeps in inotify (app.ingest.wake), on macOS and the BSDs in kqueue
(app.ingest.kqueue), and wakes only for a change, the heartbeat or stop(); elsewhere (Windows) it
runs ``watchfiles.watch``, which looks for changes every ``WATCH_STEP_MS``.

Memory stays bounded whatever the file size: bytes are read in blocks, at most ``max_line_bytes``
of an unfinished line is held, and lines reach the sink in batches.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from ..supervise import supervised
from . import kqueue
from .files import FileIdentity, followable, identity, stat_log
from .folder import Classify, FolderPolicy, FolderScout
from .reader import FileReader, TailSink
from .status import SourceStatus, StatusBoard
from .wake import ALL, FolderEvents, FolderGone, NoNativeEvents, Waker, available

if TYPE_CHECKING:
    from watchfiles import Change

log = logging.getLogger(__name__)

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


def _left_key(file_id: FileIdentity, path: Path) -> tuple[int, int, str]:
    # The name too: once a file is closed its inode number can be reused by another file.
    return (file_id[0], file_id[1], path.name)


class Tailer:
    """Follow a log file, or the right ``*.log`` in a folder (app.ingest.folder), on one daemon thread."""

    def __init__(
        self,
        path: Path,
        sink: TailSink,
        *,
        max_line_bytes: int = 1 << 20,
        poll_interval_s: float = 1.0,
        chunk_bytes: int = 1 << 18,
        force_polling: bool | None = None,
        classify: Classify | None = None,
        kind: str | None = None,
    ) -> None:
        """``classify``: lines → the kind of log they are (a parser family), to pick the file in a
        folder (app.ingest.folder); None follows any ``*.log``. ``kind``: the family ``--format``
        names (None: the first file's)."""
        self._path = Path(path).expanduser().absolute()
        self._poll_interval_s = poll_interval_s
        self._force_polling = force_polling
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # Cuts the thread's sleep short on stop() (inotify only; watchfiles looks every step).
        self._waker: Waker | None = None
        self._waker_lock = threading.Lock()
        self._native = (available() or kqueue.available()) and not force_polling
        self._board = StatusBoard(self._path)
        # Everything below belongs to the thread.
        self._reader = FileReader(
            sink, self._board, self._stop, max_line_bytes=max_line_bytes, chunk_bytes=chunk_bytes
        )
        self._directory_mode: bool | None = None  # decided when the path is first seen
        self._policy = FolderPolicy(self._path, kind=kind, by_content=classify is not None)
        self._scout = FolderScout(self._path, classify)
        self._listed_at = float("-inf")  # monotonic time of the last folder listing
        self._listing_seconds = 0.0  # what it cost
        self._folder_dirty = True  # a *.log other than the followed one changed since
        self._followed: Path | None = None
        self._followed_order: tuple[int, str] | None = None
        self._backlog_pending = True  # the first file, if present at start, starts with a backlog
        self._restart_reason: str | None = None  # owed to the sink before the next stream
        self._left: dict[tuple[int, int, str], None] = {}
        self._last_poll = 0.0

    # --- owner's side ---

    def start(self) -> None:
        """Start following on one daemon thread."""
        if self._thread is not None or self._stop.is_set():
            raise RuntimeError("a Tailer can be started once")
        self._thread = threading.Thread(target=supervised("tokwatch-tailer", self._run, self._stop.is_set),
                                        name="tokwatch-tailer", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait for it; safe to call twice or before start."""
        self._stop.set()
        with self._waker_lock:
            if self._waker is not None:
                self._waker.wake()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def status(self) -> SourceStatus:
        """Return what is followed and the counts so far."""
        return self._board.status

    # --- the thread ---

    def _run(self) -> None:
        waker = Waker() if self._native else None
        with self._waker_lock:
            self._waker = waker
        try:
            while not self._stop.is_set():
                try:
                    self._watch_until_restart()
                except Exception as e:  # noqa: BLE001 - the thread must outlive anything one iteration hits
                    self._board.report_unexpected(e)
                    self._stop.wait(self._poll_interval_s)
        finally:
            self._reader.close()
            with self._waker_lock:
                self._waker = None
            if waker is not None:
                waker.close()

    def _watch_dir(self) -> Path:
        return self._path if self._directory_mode else self._path.parent

    def _watch_until_restart(self) -> None:
        """Poll, then watch the folder and poll on every wake-up until the folder must be re-watched."""
        self._poll_guarded()
        if self._native and self._waker is not None:
            self._sleep_on_events(self._waker)
            return
        # Imported here: where inotify or kqueue serve (nearly everywhere), the server never loads it.
        from watchfiles import watch

        folder = self._watch_dir()
        try:
            folder_identity = identity(os.stat(folder))
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
                for changed in changes:
                    if self._directory_mode:
                        followed = str(self._followed) if self._followed is not None else None
                        if any(path != followed for _, path in changed):
                            self._folder_dirty = True
                    self._poll_guarded()
                    if self._watch_dir() != folder or identity(os.stat(folder)) != folder_identity:
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

    def _sleep_on_events(self, waker: Waker) -> None:
        """Sleep in inotify and poll on a relevant change or the heartbeat, until the folder must be re-watched."""
        folder = self._watch_dir()
        try:
            folder_identity = identity(os.stat(folder))
            with closing(self._events(folder, waker)) as events:
                while not self._stop.is_set():
                    due = self._last_poll + self._poll_interval_s - time.monotonic()
                    names = events.wait(due) if due > 0 else set()
                    if self._stop.is_set():
                        return
                    if self._relevant(names) or time.monotonic() - self._last_poll >= self._poll_interval_s:
                        self._poll_guarded()
                        if isinstance(events, kqueue.FileEvents):
                            events.follow(self._watched_file())
                    if self._watch_dir() != folder or identity(os.stat(folder)) != folder_identity:
                        return  # mode decided, or the folder was replaced: its old watch is dead
        except FolderGone:
            return  # polled again at once by the caller, which says what is wrong
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            # The folder is missing or unreadable (the poll has said so): try again shortly.
            self._stop.wait(self._poll_interval_s)
        except NoNativeEvents:
            self._native = False
        except OSError as e:
            # E.g. the inotify watch limit is reached: watchfiles (or its polling) still works.
            log.warning("native file watching failed (%s); watching %s with watchfiles instead", e, folder)
            self._native = False

    def _events(self, folder: Path, waker: Waker) -> FolderEvents | kqueue.FileEvents:
        """The folder's inotify events on Linux; on macOS and the BSDs, kqueue's on the followed file and its folder."""
        if available():
            return FolderEvents(folder, waker)
        return kqueue.FileEvents(folder, waker, self._watched_file())

    def _watched_file(self) -> Path | None:
        """The file whose writes wake the kqueue sleeper: the one followed (or awaited)."""
        return self._followed if self._directory_mode else self._path

    def _relevant(self, names: set[str]) -> bool:
        """Is a change to one of ``names`` worth a poll now? Marks the folder to be listed again."""
        if not names:
            return False
        if ALL in names:
            self._folder_dirty = True
            return True
        if self._directory_mode:
            followed = self._followed.name if self._followed is not None else None
            logs = {name for name in names if followable(name)}
            if logs - {followed}:
                self._folder_dirty = True
            return bool(logs)
        return self._path.name in names

    def _accept(self, change: Change, path: str) -> bool:
        """Keep changes to our file (or any *.log in directory mode)."""
        # Changes this filter drops do not reset watchfiles' timeout, so a busy folder of other
        # files would starve the heartbeat; let one through when a poll is due.
        if time.monotonic() - self._last_poll >= self._poll_interval_s:
            return True
        name = os.path.basename(path)
        return followable(name) if self._directory_mode else name == self._path.name

    def _poll_guarded(self) -> None:
        """Poll; an unexpected error is reported and the next wake-up (at most a poll interval away) retries."""
        try:
            self._poll()
        except Exception as e:  # noqa: BLE001 - the thread must outlive anything one poll hits
            self._board.report_unexpected(e)

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
            st, problem = stat_log(self._path)
            if st is not None:
                # Decided by the very stat the file is read after: had it appeared just after the
                # mode check above, a directory later put in its place must not flip us to folder mode.
                self._directory_mode = False
            self._follow(self._path, st, problem)

    def _listing_due(self, now: float) -> bool:
        """List the folder again? Soon after another *.log changed, rarely when listing is costly.

        A change asks for a listing at once, but listing takes at most 5 % of the time; with
        no change (or no native events) the heartbeat lists at most 1 % of the time: a folder
        of 10,000 logs is not re-read every second.
        """
        since = now - self._listed_at
        if self._folder_dirty:
            return since >= 20 * self._listing_seconds
        return since >= max(self._poll_interval_s, 100 * self._listing_seconds)

    def _poll_directory(self) -> None:
        folder = self._path
        now = time.monotonic()
        current = self._followed
        if current is not None and self._reader.file is not None and not self._listing_due(now):
            self._follow(current, *stat_log(current))
            return
        self._folder_dirty = False
        try:
            listed = self._scout.listing()
        except OSError as e:
            self._listed_at, self._listing_seconds = now, time.monotonic() - now
            if isinstance(e, FileNotFoundError):
                problem = f"waiting for the folder {folder} to appear"
            elif isinstance(e, PermissionError):
                problem = f"permission denied reading the folder {folder}"
            elif isinstance(e, NotADirectoryError):
                problem = f"{folder} is not a folder any more"
            else:
                problem = f"cannot list {folder}: {e.strerror or e}"
            if self._reader.file is not None:
                self._reader.read_available()
            self._board.set_problem(problem)
            return
        candidates = [c for c in listed if c.key not in self._left]
        chosen, following = self._policy.choose(candidates, self._scout.kind_of, current, self._followed_order)
        self._listed_at, self._listing_seconds = now, time.monotonic() - now
        self._board.update(following=following)
        if current is None:
            if chosen is None:
                self._backlog_pending = False  # whatever appears later is new: read it from 0
                self._board.set_problem(following.reason)
                return
            self._followed_order = chosen.order
            self._follow(chosen.path, *stat_log(chosen.path))
            return
        st, current_problem = stat_log(current)
        if st is not None:
            self._followed_order = (st.st_mtime_ns, current.name)
        if chosen is not None and chosen.path != current:
            if self._reader.identity is not None:
                self._left[_left_key(self._reader.identity, current)] = None
                while len(self._left) > LEFT_FILES_REMEMBERED:
                    del self._left[next(iter(self._left))]
            self._followed_order = chosen.order
            new_st, new_problem = stat_log(chosen.path)
            self._follow(chosen.path, new_st, new_problem, switch_reason=f"switched to {chosen.path.name}")
        else:
            self._follow(current, st, current_problem)

    def _follow(
        self, path: Path, st: os.stat_result | None, problem: str | None, *, switch_reason: str | None = None
    ) -> None:
        """Keep reading the open file, or move to the file now at ``path``."""
        if self._reader.file is not None:
            if path == self._followed and (st is None or identity(st) == self._reader.identity):
                # Same file, or nothing new at the path yet: keep reading what we hold (a writer
                # may still append to a renamed or deleted file), and report what is wrong.
                self._reader.read_available()
                self._board.set_problem(problem)
                return
            # Another file: finish the old one first, lines written just before the switch included.
            self._reader.read_available()
            if self._stop.is_set():
                return
            if switch_reason is None and self._reader.continue_in(path):
                self._board.update(rotations=self._board.status.rotations + 1)
                return
            self._reader.finish()
            self._restart_reason = switch_reason or "replaced"
            self._board.update(rotations=self._board.status.rotations + 1)
        self._followed = path
        self._board.update(path=str(path))
        if st is None:
            if problem is not None and problem.startswith("waiting"):
                self._backlog_pending = False
            self._board.update(size_bytes=None, modified_at=None)
            self._board.set_problem(problem)
            return
        self._open(path)

    def _open(self, path: Path) -> None:
        if not self._reader.open(path):
            return
        if self._backlog_pending:
            self._backlog_pending = False
            self._reader.start(backlog=True, restart_reason=None)
        else:
            reason, self._restart_reason = self._restart_reason, None
            self._reader.start(backlog=False, restart_reason=reason)
