"""Sleep until a folder changes, a deadline passes or the owner says stop: Linux inotify, no polling.

watchfiles' ``watch`` sleeps ``step`` milliseconds between looks at what its Rust thread
collected, so a short step (quick appends) costs a wake-up every step even on a quiet log:
50 a second at 20 ms. Here the tailer's thread blocks in ``poll()`` on an inotify descriptor and
a wake-up pipe, and runs only when the kernel reports a change in the folder, when its heartbeat
is due, or when :meth:`Waker.wake` is called. macOS and the BSDs sleep in kqueue instead
(app.ingest.kqueue); elsewhere (Windows, or when neither can be had) the tailer keeps using
watchfiles (app.ingest.tailer).

The folder itself is watched, never the file: a replaced file keeps being seen (watchfiles #235).
Only writes, renames, creations, deletions and metadata changes are asked for; reads are not,
so the tailer's own reading never wakes it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import select
import struct
import sys
import threading
from pathlib import Path

_IN_MODIFY = 0x2
_IN_ATTRIB = 0x4
_IN_CLOSE_WRITE = 0x8
_IN_MOVED_FROM = 0x40
_IN_MOVED_TO = 0x80
_IN_CREATE = 0x100
_IN_DELETE = 0x200
_IN_DELETE_SELF = 0x400
_IN_MOVE_SELF = 0x800
_IN_Q_OVERFLOW = 0x4000
_IN_IGNORED = 0x8000
_IN_ONLYDIR = 0x1000000
_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = 0o2000000  # O_CLOEXEC on Linux
WATCH_MASK = (
    _IN_MODIFY | _IN_ATTRIB | _IN_CLOSE_WRITE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE
    | _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_ONLYDIR
)
# The folder's own watch is over: it was deleted, moved away or unmounted.
_GONE = _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_IGNORED
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then len bytes of NUL-padded name
_READ_BYTES = 64 * 1024

# Every name in the folder may have changed (the kernel's queue overflowed, or the folder's own
# metadata did). Never a file's name: inotify gives names without a slash.
ALL = "/"


class NoNativeEvents(OSError):
    """inotify is not available here (not Linux, or the call failed): use watchfiles instead."""


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        return libc
    except (OSError, AttributeError):
        return None


_LIBC = _libc()


def available() -> bool:
    """True where :class:`FolderEvents` can work (Linux with inotify)."""
    return _LIBC is not None


class Waker:
    """A pipe another thread writes to, to cut a :meth:`FolderEvents.wait` short; close once done."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        self._closed = False

    def fileno(self) -> int:
        """The end to poll."""
        return self._read

    def wake(self) -> None:
        """Wake the waiting thread (safe from any thread, after close too)."""
        with self._lock:
            if self._closed:
                return
            with contextlib.suppress(BlockingIOError):  # a wake-up is already pending
                os.write(self._write, b"\0")

    def drain(self) -> None:
        """Forget the wake-ups received."""
        with contextlib.suppress(BlockingIOError):
            while os.read(self._read, 4096):
                pass

    def close(self) -> None:
        """Close both ends; safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            os.close(self._read)
            os.close(self._write)


class FolderGone(Exception):
    """The watched folder was deleted, moved or unmounted: watch it again once it is back."""


class FolderEvents:
    """The names that changed in one folder, from inotify; close() once done."""

    def __init__(self, folder: Path, waker: Waker) -> None:
        """Start watching ``folder``; raise NoNativeEvents, or OSError (e.g. ENOSPC: too many watches)."""
        if _LIBC is None:
            raise NoNativeEvents("inotify is not available on this system")
        fd = _LIBC.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:
            code = ctypes.get_errno()
            raise OSError(code, f"inotify_init1: {os.strerror(code)}")
        if _LIBC.inotify_add_watch(fd, os.fsencode(folder), WATCH_MASK) < 0:
            code = ctypes.get_errno()
            os.close(fd)
            raise OSError(code, f"inotify_add_watch {folder}: {os.strerror(code)}", str(folder))
        self._fd = fd
        self._waker = waker
        self._poller = select.poll()
        self._poller.register(fd, select.POLLIN)
        self._poller.register(waker.fileno(), select.POLLIN)

    def close(self) -> None:
        """Stop watching; safe to call twice."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def wait(self, timeout_seconds: float) -> set[str]:
        """Sleep until a change, ``timeout_seconds`` or a wake-up; return the names changed (maybe none).

        :data:`ALL` among them: the kernel dropped events, anything may have changed.
        Raises FolderGone once the folder's watch is over.
        """
        try:
            ready = self._poller.poll(max(0, int(timeout_seconds * 1000 + 0.999)))
        except InterruptedError:
            return set()
        names: set[str] = set()
        for fd, _ in ready:
            if fd == self._waker.fileno():
                self._waker.drain()
            else:
                names |= self._read_events()
        return names

    def _read_events(self) -> set[str]:
        names: set[str] = set()
        gone = False
        while True:
            try:
                data = os.read(self._fd, _READ_BYTES)
            except BlockingIOError:
                break
            except OSError as e:
                if e.errno == errno.EINTR:
                    continue
                raise
            if not data:
                break
            offset = 0
            while offset + _EVENT.size <= len(data):
                _, mask, _, length = _EVENT.unpack_from(data, offset)
                raw = data[offset + _EVENT.size: offset + _EVENT.size + length].rstrip(b"\0")
                offset += _EVENT.size + length
                if raw:
                    names.add(os.fsdecode(raw))
                elif mask & _GONE:
                    gone = True
                else:  # the queue overflowed, or the folder's own metadata changed
                    names.add(ALL)
        if gone:
            raise FolderGone
        return names
