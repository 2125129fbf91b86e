"""The C allocator's side of a server that runs for weeks: few arenas, and memory given back.

Python hands every object over 512 bytes, and every buffer (a log chunk, a websocket message,
a chart's JSON body), to the C library's ``malloc``. glibc keeps what is freed for reuse, in an
arena per thread that allocated, and returns it to the system only from the top of a heap. After
big transient work (the log's backlog, a flood of websocket messages, a month's chart) the
process keeps megabytes it no longer uses, and each new round of the same work can land
elsewhere: resident memory creeps up. So, on glibc only:

* :func:`tune` (once, before any thread starts): at most two arenas, and a fixed threshold above
  which a buffer gets its own mapping, handed back the moment it is freed (glibc otherwise
  raises that threshold as buffers are freed, up to 32 MB, and keeps them in its heaps);
* :class:`Trimmer`: ``malloc_trim(0)`` after such work — it hands back every whole free page of
  every arena (about 0.3 ms on this server) — at most once per ``min_interval`` seconds; a
  request inside that interval runs when it is over.

Elsewhere (macOS, musl, Windows) every call here does nothing.
"""

from __future__ import annotations

import ctypes
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
ARENA_MAX = 2
# Buffers from this size up are mapped on their own and unmapped when freed (glibc's default
# starting threshold, kept fixed).
MMAP_THRESHOLD_BYTES = 128 * 1024

_libc: Any = None
_loaded = False
_lock = threading.Lock()


def glibc() -> Any:
    """The C library when it is glibc (it has ``malloc_trim`` and ``mallopt``), else None."""
    global _libc, _loaded
    with _lock:
        if not _loaded:
            _loaded = True
            _libc = _load()
        return _libc


def _load() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        # The symbols already loaded in this process, the C library's among them (ctypes.util's
        # find_library would import tempfile, shutil and subprocess to find its name).
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    if not all(hasattr(libc, f) for f in ("gnu_get_libc_version", "mallopt", "malloc_trim")):
        return None  # musl and others: no arenas to tune, nothing to trim
    libc.malloc_trim.argtypes = [ctypes.c_size_t]
    libc.malloc_trim.restype = ctypes.c_int
    libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    libc.mallopt.restype = ctypes.c_int
    return libc


def tune() -> bool:
    """Limit glibc to two arenas and fix its mapping threshold; call before any thread starts.

    Same as ``MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072``. False where there is no glibc.
    """
    libc = glibc()
    if libc is None:
        return False
    libc.mallopt(M_ARENA_MAX, ARENA_MAX)
    libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
    return True


def trim() -> bool:
    """Hand every whole free page back to the system now; False where there is no glibc."""
    libc = glibc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True


def _later(delay: float, call: Callable[[], None]) -> None:
    timer = threading.Timer(delay, call)
    timer.daemon = True
    timer.start()


class Trimmer:
    """Trim after big transient work, at most once per ``min_interval`` seconds; thread-safe.

    ``request`` trims at once unless a trim ran less than ``min_interval`` ago; then one timer
    runs it when the interval is over (so the last of a burst is never left undone, and an idle
    process has no timer waking it). :meth:`due` runs a deferred trim early, from a loop that
    woke anyway.
    """

    def __init__(
        self,
        min_interval: float = 1.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        release: Callable[[], bool] = trim,
        later: Callable[[float, Callable[[], None]], None] = _later,
    ) -> None:
        self.min_interval = min_interval
        self._clock = clock
        self._release = release
        self._later = later
        self._lock = threading.Lock()
        self._last: float | None = None
        self._pending = False
        self._scheduled = False
        self.trims = 0

    def request(self) -> bool:
        """Ask for a trim after big transient work; True when it ran now (else it is scheduled)."""
        with self._lock:
            self._pending = True
        if self.due():
            return True
        with self._lock:
            if not self._pending or self._scheduled or self._last is None:
                return False
            self._scheduled = True
            delay = max(0.0, self.min_interval - (self._clock() - self._last))
        self._later(delay, self._scheduled_due)
        return False

    def _scheduled_due(self) -> None:
        with self._lock:
            self._scheduled = False
            pending = self._pending
        if pending:
            self.request()  # trims now; or, on a clock that lagged the timer, schedules again

    def due(self) -> bool:
        """Run a requested trim if the interval since the last one has passed; True when it ran."""
        with self._lock:
            now = self._clock()
            if not self._pending or (self._last is not None and now - self._last < self.min_interval):
                return False
            self._pending = False
            self._last = now
            self.trims += 1
        self._release()
        return True

    @property
    def pending(self) -> bool:
        """A trim was asked for and has not run yet."""
        with self._lock:
            return self._pending


# The process's one trimmer: the servers and the pipeline ask it after their big transient work.
TRIMMER = Trimmer()
