"""The protocol every tracker follows, and the measuring rules they share.

A tracker is pure: events in, a :class:`~app.snapshot.Snapshot` out, the clock always an
argument. The monitor feeds one tracker per log, chosen by format.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..snapshot import BackendErrorsView, Snapshot, SourceView
from .events import Event

# A rate is events in (now − 20 min, now] ÷ observed, observed capped at the window, and stays
# hidden until the stretch has this many events over this many seconds (the seed's rules).
RATE_WINDOW_SECONDS = 20 * 60
WARMUP_COUNT = 3
WARMUP_SECONDS = 3 * 60
# Backend errors are counted over the last hour; a log without a backend reports none.
ERROR_WINDOW_SECONDS = 60 * 60
NO_BACKEND_ERRORS = BackendErrorsView(queue_state_503=0, not_found_404=0, window_seconds=float(ERROR_WINDOW_SECONDS))


class Tracker(Protocol):
    """Accumulates one log's events and answers ``snapshot(now, source)``."""

    format_name: str | None
    has_records: bool  # the log has lines, parsed or not: "waiting for log" no longer

    @property
    def clock(self) -> float | None:
        """The newest log time applied, or None."""
        ...

    def apply_all(self, events: Sequence[Event], now: float | None = None, arrival: float | None = None) -> None:
        """Apply a batch in log order; ``now`` spots far-future lines, ``arrival`` is when it was read."""
        ...

    def begin_stream(self, *, repeats: bool = False) -> None:
        """The source changed: the log was replaced, truncated, or another file in the folder is
        followed now. ``repeats``: the new stream begins with the old one's first bytes (the
        same log written again), so what it repeats is not news."""
        ...

    def snapshot(self, now: float, source: SourceView) -> Snapshot:
        """Everything known at ``now``, with what the monitor knows of the source."""
        ...
