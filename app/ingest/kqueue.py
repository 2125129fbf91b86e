"""Sleep until the followed file or its folder changes: kqueue, for macOS and the BSDs.

The counterpart of app.ingest.wake's inotify sleeper where there is no inotify. kqueue watches
open descriptors, not names: the folder (an entry added, removed or renamed: anything in it may
have changed) and the followed file itself (written, extended, deleted or renamed). A file
deleted or renamed away is let go of, and whatever file then bears its name is watched from the
next wait on. The tailer's heartbeat still wakes it, as on Linux (a log on a network share sends
no events).

The kqueue object and the kevent constructor are arguments (:class:`FileEvents`), so the logic
is tested on Linux with a fake; only macOS and the BSDs run it against the kernel.
"""

from __future__ import annotations

import contextlib
import os
import select
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from .wake import ALL, FolderGone, Waker

# BSD's values (<sys/event.h>), where Python's select module does not have them (Linux).
KQ_FILTER_READ = getattr(select, "KQ_FILTER_READ", -1)
KQ_FILTER_VNODE = getattr(select, "KQ_FILTER_VNODE", -4)
KQ_EV_ADD = getattr(select, "KQ_EV_ADD", 0x1)
KQ_EV_CLEAR = getattr(select, "KQ_EV_CLEAR", 0x20)
KQ_NOTE_DELETE = getattr(select, "KQ_NOTE_DELETE", 0x1)
KQ_NOTE_WRITE = getattr(select, "KQ_NOTE_WRITE", 0x2)
KQ_NOTE_EXTEND = getattr(select, "KQ_NOTE_EXTEND", 0x4)
KQ_NOTE_RENAME = getattr(select, "KQ_NOTE_RENAME", 0x20)
FILE_NOTES = KQ_NOTE_WRITE | KQ_NOTE_EXTEND | KQ_NOTE_DELETE | KQ_NOTE_RENAME
# A folder's NOTE_WRITE: an entry in it was added, removed or renamed.
FOLDER_NOTES = KQ_NOTE_WRITE | KQ_NOTE_DELETE | KQ_NOTE_RENAME
# macOS: a descriptor for events only, which does not keep a volume from being unmounted.
_O_EVTONLY = getattr(os, "O_EVTONLY", 0)
_MAX_EVENTS = 16


class KQueue(Protocol):
    """What is used of ``select.kqueue``."""

    def control(self, changelist: list[Any] | None, max_events: int, timeout: float | None = None) -> list[Any]: ...

    def close(self) -> None: ...


KEvent = Callable[..., Any]  # select.kevent(ident, filter, flags, fflags)


def available() -> bool:
    """True where the kernel has kqueue (macOS, the BSDs)."""
    return hasattr(select, "kqueue")


def _open_watch(path: Path) -> int | None:
    try:
        return os.open(path, os.O_RDONLY | _O_EVTONLY)
    except OSError:
        return None


class FileEvents:
    """The followed file's changes and its folder's, from kqueue; close() once done.

    ``wait`` returns names as app.ingest.wake's ``FolderEvents`` does: the file's name when it
    changed, :data:`~app.ingest.wake.ALL` when the folder did, nothing on a timeout or a wake-up.
    """

    def __init__(self, folder: Path, waker: Waker, file: Path | None, *,
                 kqueue: Callable[[], KQueue] | None = None, kevent: KEvent | None = None) -> None:
        """Start watching ``folder`` (and ``file``, if given and there); raise OSError if the folder cannot be."""
        self._kevent: KEvent = kevent if kevent is not None else select.kevent  # type: ignore[attr-defined]
        self._folder_fd = os.open(folder, os.O_RDONLY | _O_EVTONLY)
        try:
            self._queue = (kqueue or select.kqueue)()  # type: ignore[attr-defined]
        except OSError:
            os.close(self._folder_fd)
            raise
        self._waker = waker
        self._file: Path | None = None
        self._file_fd: int | None = None
        self._queue.control([
            self._kevent(waker.fileno(), KQ_FILTER_READ, KQ_EV_ADD),
            self._kevent(self._folder_fd, KQ_FILTER_VNODE, KQ_EV_ADD | KQ_EV_CLEAR, FOLDER_NOTES),
        ], 0, 0)
        self.follow(file)

    @property
    def file(self) -> Path | None:
        """The file watched now (None: none, or not there yet)."""
        return self._file if self._file_fd is not None else None

    def follow(self, file: Path | None) -> None:
        """Watch ``file`` (the tailer's file, after a switch); again if it was let go of. Cheap when unchanged."""
        if file == self._file and self._file_fd is not None:
            return
        self._let_go()
        self._file = file
        if file is None:
            return
        fd = _open_watch(file)
        if fd is None:
            return  # not there yet: its folder's event says when it appears
        self._file_fd = fd
        self._queue.control([self._kevent(fd, KQ_FILTER_VNODE, KQ_EV_ADD | KQ_EV_CLEAR, FILE_NOTES)], 0, 0)

    def _let_go(self) -> None:
        # Closing the descriptor removes its kevents.
        if self._file_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._file_fd)
            self._file_fd = None

    def close(self) -> None:
        """Stop watching; safe to call twice."""
        self._let_go()
        if self._folder_fd >= 0:
            self._queue.close()
            os.close(self._folder_fd)
            self._folder_fd = -1

    def wait(self, timeout_seconds: float) -> set[str]:
        """Sleep until a change, ``timeout_seconds`` or a wake-up; return the names changed (maybe none).

        Raises FolderGone once the folder was deleted or renamed.
        """
        self.follow(self._file)  # a file let go of (deleted, renamed) is watched again once back
        try:
            events = self._queue.control(None, _MAX_EVENTS, max(0.0, timeout_seconds))
        except InterruptedError:
            return set()
        names: set[str] = set()
        gone = reopen = False
        for event in events:
            if event.ident == self._waker.fileno():
                self._waker.drain()
            elif event.ident == self._folder_fd:
                if event.fflags & (KQ_NOTE_DELETE | KQ_NOTE_RENAME):
                    gone = True
                names.add(ALL)
            elif event.ident == self._file_fd and self._file is not None:
                names.add(self._file.name)
                if event.fflags & (KQ_NOTE_DELETE | KQ_NOTE_RENAME):
                    reopen = True
        if gone:
            raise FolderGone
        if reopen:
            self._let_go()  # the name may be another file's now: the next wait watches that one
        return names
