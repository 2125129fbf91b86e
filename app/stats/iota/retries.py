"""Requests the miner retries, per endpoint over 10 minutes (``3 retries to submit_activation in 10 min``).

A retry is the miner's own WARNING (``Retrying request to endpoint /miner/submit_activation
(attempt 3)``): not an error yet, but a backend that answers slowly or not at all. Shown beside
the backend errors. Pure and bounded.
"""

from __future__ import annotations

import math
import re

from ... import text
from .window import SlidingWindow

RETRY_WINDOW_SECONDS = 600
ENDPOINTS_KEPT = 32  # a hostile log naming endless endpoints stays bounded


# A path part that is an id, not a name: a queue's UUID, a number.
_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f-]{27}|[0-9]+|[0-9a-f]{16,}", re.ASCII)


def endpoint_name(endpoint: str) -> str:
    """An endpoint as a person names it: its last part that is not an id (``/miner/register/status/<uuid>``: status)."""
    parts = [part for part in endpoint.split("/") if part and not _ID.fullmatch(part)]
    return parts[-1] if parts else endpoint


class Retries:
    """Retries per endpoint in a sliding window."""

    def __init__(self) -> None:
        self._by_endpoint: dict[str, SlidingWindow] = {}
        self.total = 0

    def add(self, at: float, endpoint: str) -> None:
        """One retry of ``endpoint``."""
        self.total += 1
        window = self._by_endpoint.get(endpoint)
        if window is None:
            if len(self._by_endpoint) >= ENDPOINTS_KEPT:
                return
            window = self._by_endpoint[endpoint] = SlidingWindow(RETRY_WINDOW_SECONDS)
        window.add(at)

    def evict(self, at: float) -> float:
        """Forget retries older than the window, and endpoints with none left; return the time from which the next is forgotten."""
        due = math.inf
        if not self._by_endpoint:
            return due
        for endpoint in list(self._by_endpoint):
            window = self._by_endpoint[endpoint]
            due = min(due, window.evict(at))
            if len(window) == 0:
                del self._by_endpoint[endpoint]
        return due

    def counts(self, now: float) -> dict[str, int]:
        """Retries per endpoint (its last path part) in the window, most first."""
        found: dict[str, int] = {}
        for endpoint, window in self._by_endpoint.items():
            n = window.count(now - RETRY_WINDOW_SECONDS, now)
            if n:
                name = endpoint_name(endpoint)
                found[name] = found.get(name, 0) + n
        return dict(sorted(found.items(), key=lambda item: -item[1]))

    def line(self, now: float) -> str | None:
        """The details line, or None when there was no retry in the window."""
        counts = self.counts(now)
        if not counts:
            return None
        parts = [f"{text.plural(n, 'retry', 'retries')} to {name}" for name, n in list(counts.items())[:3]]
        return ", ".join(parts) + " in 10 min"
