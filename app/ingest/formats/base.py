"""What every log-format parser looks like to the rest of tokwatch."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Protocol

from ...stats.events import Event

# Converts a zone-less local wall time (year, month, day, hour, minute, second) to unix seconds.
LocalToEpoch = Callable[[int, int, int, int, int, int], float]


def local_to_epoch(year: int, month: int, day: int, hour: int, minute: int, second: int) -> float:
    """Convert a local wall time with no zone to unix seconds, using this machine's zone."""
    return time.mktime((year, month, day, hour, minute, second, 0, 0, -1))


# Converts unix seconds to this machine's local date (year, month, day).
EpochToDate = Callable[[float], tuple[int, int, int]]


def local_date(t: float) -> tuple[int, int, int]:
    """The local calendar date of unix time ``t`` in this machine's zone."""
    local = time.localtime(t)
    return local.tm_year, local.tm_mon, local.tm_mday


class LogParser(Protocol):
    """A pure, stateful parser: lines in (without their newline), events out.

    State is allowed (a record's continuation lines, the current stage) but no clock,
    no I/O and no logging. ``bad_lines`` counts lines it could not read.
    """

    name: str
    bad_lines: int
    # When the lines fed next were written, at the latest (the file's modification time for a
    # backlog, the clock for live lines): a timestamp printed without a year takes its year from
    # it. None: unknown, and such timestamps stay undated.
    reference_time: float | None

    def feed(self, lines: Iterable[str]) -> list[Event]:
        """Parse lines in log order; the last event is a ``Tick`` when any line carried a time."""
        ...
