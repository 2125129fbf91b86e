"""The dead-man heartbeat: fetch a URL every minute while the run is healthy.

Uptime Kuma's push monitors and healthchecks.io raise the alarm when the pings stop, so a
machine that dies entirely (taking tokwatch with it) is still noticed. Pings stop too while
the miner is idle, silent, stalled or queued. A fetch runs in its own thread with a timeout;
its failures are counted and described, never with the URL.
"""

from __future__ import annotations

import http.client
import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from ..outgoing import DeadlineExceeded, fetch
from ..supervise import supervised
from ..text import clock_time
from .secrets import scrub

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 60.0
TIMEOUT_SECONDS = 10.0
JOIN_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class HeartbeatStatus:
    """The heartbeat's figures (no URL)."""

    sending: bool  # the run is healthy, so pings go out
    last_ok_at: float | None
    failures: int
    problem: str | None


def ping(url: str, timeout_seconds: float = TIMEOUT_SECONDS) -> str | None:
    """Fetch ``url`` once; None when it answered 2xx/3xx, else why not (URL scrubbed)."""
    if not url.lower().startswith(("http://", "https://")):
        return "not an http:// or https:// URL"
    request = urllib.request.Request(url, headers={"User-Agent": "tokwatch-heartbeat"})
    try:
        fetch(request, timeout_seconds, max_bytes=4096)  # the whole exchange, not each read: a trickle ends too
        return None
    except DeadlineExceeded as e:
        return f"{e}: timed out"
    except urllib.error.HTTPError as e:
        return f"HTTP {e.code}"
    except urllib.error.URLError as e:
        reason = e.reason
        text = "timed out" if isinstance(reason, TimeoutError) else str(reason)
        return scrub(text, url)
    except TimeoutError:
        return "timed out"
    except (OSError, http.client.HTTPException, ValueError) as e:
        return scrub(f"{type(e).__name__}: {e}", url)


class Heartbeat:
    """Pings a URL every ``interval_seconds`` while told the run is healthy."""

    def __init__(
        self,
        url: str,
        *,
        interval_seconds: float = INTERVAL_SECONDS,
        timeout_seconds: float = TIMEOUT_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.url = url
        self.interval_seconds = interval_seconds
        self.timeout_seconds = timeout_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._healthy = False
        self._last_ok_at: float | None = None
        self._failures = 0
        self._problem: str | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the pinging thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=supervised("tokwatch-heartbeat", self._run, self._stop.is_set),
                                            name="tokwatch-heartbeat", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop pinging; a fetch in flight is abandoned after a moment."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(JOIN_SECONDS)

    def set_healthy(self, healthy: bool) -> None:
        """Say whether the run is healthy now; becoming healthy pings at once (at most once a period)."""
        with self._lock:
            changed, self._healthy = self._healthy != healthy, healthy
        if changed:
            self._wake.set()

    def status(self) -> HeartbeatStatus:
        """The heartbeat's figures."""
        with self._lock:
            return HeartbeatStatus(self._healthy, self._last_ok_at, self._failures, self._problem)

    def _run(self) -> None:
        next_at = 0.0  # monotonic time of the next ping allowed
        while not self._stop.is_set():
            with self._lock:
                healthy = self._healthy
            wait = self.interval_seconds
            if healthy:
                now = time.monotonic()
                if now >= next_at:
                    next_at = now + self.interval_seconds
                    self._ping()
                wait = max(0.0, next_at - time.monotonic())
            self._wake.wait(wait)
            self._wake.clear()

    def _ping(self) -> None:
        reason = ping(self.url, self.timeout_seconds)
        now = self._clock()
        with self._lock:
            if reason is None:
                self._last_ok_at = now
                return
            self._failures += 1
            self._problem = f"heartbeat failed at {clock_time(now, now)}: {reason}"
        log.warning("heartbeat not delivered: %s", reason)
