"""What every log-format parser looks like to the rest of tokwatch."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Protocol

from app.stats.events import Event

# Converts a zone-less local wall time (year, month, day, hour, minute, second) to unix seconds.
LocalToEpoch = Callable[[int, int, int, int, int, int], float]


def local_to_epoch(year: int, month: int, day: int, hour: int, minute: int, second: int) -> float:
    """Convert a local wall time with no zone to unix seconds, using this machine's zone."""
    return time.mktime((year, month, day, hour, minute, second, 0, 0, -1))


class LogParser(Protocol):
    """A pure, stateful parser: lines in (without their newline), events out.

    State is allowed (a record's continuation lines, the current stage) but no clock,
    no I/O and no logging. ``bad_lines`` counts lines it could not read.
    """

    name: str
    bad_lines: int

    def feed(self, lines: Iterable[str]) -> list[Event]:
        """Parse lines in log order; the last event is a ``Tick`` when any line carried a time."""
        ...
