"""Long-lived threads that come back: an exception is logged once, the thread restarted with backoff.

Every thread that must run as long as the process (the tailer, the history's writer and
recorder, alerts and their delivery, the heartbeat, the broadcasters, the hub's ticker, the
agent) starts its target through :func:`supervised`. A target that returns has finished as
meant (it saw its stop); one that raises is restarted after 1 s, then 2, 4… up to a minute,
and :func:`problems` names it (for ``/healthz`` and the snapshot's ``problems``) until it has
run ``RECOVERED_SECONDS`` without failing again. Without this, a transiently full disk or one
bad byte ended a thread for good while the process kept running and said nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

FIRST_BACKOFF_SECONDS = 1.0
MAX_BACKOFF_SECONDS = 60.0
# A restarted thread counts as recovered once it has run this long without failing.
RECOVERED_SECONDS = 10.0
_SLICE_SECONDS = 0.1


@dataclass
class _Crash:
    name: str
    error: str
    restarts: int
    running_since: float | None  # monotonic; None while waiting to restart


_crashes: dict[object, _Crash] = {}  # by supervised target: two dashboards may share names
_lock = threading.Lock()


def supervised(name: str, target: Callable[[], None], stopped: Callable[[], bool]) -> Callable[[], None]:
    """``target`` run until it returns, restarted with backoff when it raises; ``stopped`` ends the waits."""

    key = object()

    def run() -> None:
        backoff = FIRST_BACKOFF_SECONDS
        logged: str | None = None
        while True:
            started = time.monotonic()
            try:
                target()
            except Exception as e:  # the one place that catches everything
                error = f"{type(e).__name__}: {e}"[:300]
                if error != logged:  # once per kind of failure, not once per restart
                    log.exception("%s failed; restarting it", name)
                    logged = error
                if time.monotonic() - started >= RECOVERED_SECONDS:
                    backoff = FIRST_BACKOFF_SECONDS  # it had recovered: a new failure starts over
                with _lock:
                    crash = _crashes.get(key)
                    _crashes[key] = _Crash(name, error, (crash.restarts if crash else 0) + 1, None)
                deadline = time.monotonic() + backoff
                backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
                while not stopped() and time.monotonic() < deadline:
                    time.sleep(_SLICE_SECONDS)
                if stopped():
                    break
                with _lock:
                    _crashes[key].running_since = time.monotonic()
                continue
            break
        with _lock:  # finished as meant (or stopped while down): nothing to report
            _crashes.pop(key, None)

    return run


def problems(now: float | None = None) -> list[str]:
    """One line per thread that failed and has not yet recovered, by name."""
    now = time.monotonic() if now is None else now
    out: list[str] = []
    with _lock:
        for crash in sorted(_crashes.values(), key=lambda crash: crash.name):
            if crash.running_since is not None and now - crash.running_since >= RECOVERED_SECONDS:
                continue
            times = "once" if crash.restarts == 1 else f"{crash.restarts} times"
            doing = "restarting" if crash.running_since is None else "restarted"
            out.append(f"{crash.name} thread failed {times} ({crash.error}); {doing}")
    return out
