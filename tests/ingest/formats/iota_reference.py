"""The IOTA record loop as it was before the message scan: the reference the parser is held to.

One line at a time: the stamp pattern, then a set lookup of the rest known to mean nothing or
the rest pattern, then every substring check of the message reader. Kept verbatim (its patterns
and loop) so that tests/ingest/formats/test_iota_differential.py can show that the parser gives
the same events, in the same order, with the same bad-line counts, on any lines.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable

from app.ingest.formats.base import LocalToEpoch, local_to_epoch
from app.ingest.formats.iota import _CRASH_HINT, IotaParser
from app.ingest.formats.iota_messages import MessageReader
from app.stats.events import ErrorLogged, Event, Tick

# A record line is these two patterns, one after the other: the stamp, then the rest. The host
# wrapper's own time is skipped: the loguru time inside it is the miner's clock. Split, they
# match exactly what they match as one pattern (the stamp part ends in its run of fraction
# digits and the rest starts with a space, so a line can only split there), and a line whose
# rest is known noise skips the second one (IotaParser._quiet). Groups: the local minute
# ("YYYY-MM-DD HH:MM"), its seconds ("SS.fff") and the rest of the line.
# Spelled for speed, as they run on every line: "(?:…|)", not "(?:…)?", which compiles to a
# general repeat, a sixth of the match; possessive quantifiers ("*+", "++": Python 3.11+)
# wherever giving characters back could never let the rest match (what follows is always a
# character the run cannot take). Python 3.10 reads the same patterns without them.
_STAMP_PATTERN = (
    r"\x00*+"  # a file padded with NULs by a crash, then appended to after the restart
    r"(?:\[[^\]]*+\] \[\w++\]\s*+|)"  # Train-at-Home host wrapper, any host level
    r"([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}):([0-9]{2}\.[0-9]{1,9}+)"
    r"(.*)"
)
# The rest: level and name, then the message. Groups: the level; "-" (loguru default format)
# or "|" (file sink, whose message ends with " | {extras}"); the message. Never keyed on the
# ":line" number, which moves between builds (run_miner:735 in v2.4.1, :1723 in TAH 3.7.0).
_REST_PATTERN = (
    r" \| (?:\[\w++\] \| |)"  # the newer file sink's "[MINER]" column
    r" *+([A-Z]++) *+\| "  # level, padded to 8 by loguru or collapsed
    # name:function:line, or name:line in the newer file sink. One space-free token ending in
    # ":<digits>" is check enough and costs half what spelling out its parts does.
    r"[^ ]+:[0-9]++ ([-|])(?: |$)"
    r"(.*)"
)


def _without_possessive(pattern: str) -> str:
    """Spell a pattern's possessive quantifiers as plain greedy ones (for Python 3.10)."""
    return pattern.replace("*+", "*").replace("++", "+").replace("}+", "}")


def _compile(pattern: str) -> re.Pattern[str]:
    """Compile a record pattern, without its possessive quantifiers before Python 3.11."""
    if sys.version_info < (3, 11):
        pattern = _without_possessive(pattern)
    return re.compile(pattern, re.ASCII | re.DOTALL)


_STAMP = _compile(_STAMP_PATTERN)
_REST = _compile(_REST_PATTERN)
# Records at these levels are shown on the timeline whatever they say, so never known noise.
_ERROR_LEVELS = frozenset({"ERROR", "CRITICAL"})

# The memo of quiet rests: how many, and how long (a hostile 10 MiB line is not kept).
_QUIET_SIZE = 1024
_QUIET_LENGTH = 300
_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

class ReferenceIotaParser(MessageReader):
    """Turn IOTA miner log lines into events; pure and stateful across ``feed`` calls.

    Lines become records here; what a record's message means is :class:`MessageReader`'s.
    """

    name = "iota"
    reference_time: float | None = None  # its timestamps carry a year, or none at all

    def __init__(self, to_epoch: LocalToEpoch = local_to_epoch) -> None:
        self._to_epoch = to_epoch
        self.bad_lines = 0
        # The last minute converted. to_epoch (mktime) is the dearest step of a line, and a
        # minute's epoch plus its seconds is that second's epoch: no zone changes its offset
        # in the middle of a minute. None: a minute that cannot exist.
        self._minute = ""
        self._minute_epoch: float | None = None
        # Seconds ("SS.fff", in self._minute) of the record that continuation lines belong
        # to; None before any record and after one with an impossible time.
        self._record_seconds: str | None = None
        # Rests of record lines (after the stamp) known to mean nothing: no event, not a bad
        # line. Most lines of a real miner's log are the same few DEBUG messages, and one set
        # lookup replaces the second pattern and a dozen substring checks.
        self._quiet: set[str] = set()
        self._crash_pending: tuple[str, float | None, tuple[str | None, float | None], str] | None = None

    def feed(self, lines: Iterable[str]) -> list[Event]:
        """Parse lines in log order; end with one ``Tick`` when any record carried a time.

        A record's time becomes a float only when its message yields an event. The Tick's is
        the greatest of all records' times: within one run of records in the same minute the
        greatest seconds ("SS.fff", which compare as strings as they do as numbers) is the
        greatest time, so only each run's greatest is converted, when the minute changes or
        the lines end.
        """
        # One loop with its lookups bound once: it runs on every line of the log (the hot path).
        events: list[Event] = []
        latest: float | None = None
        match_stamp, match_rest = _STAMP.match, _REST.match
        read_message = self._read_message
        quiet = self._quiet
        minute, minute_epoch, record_seconds = self._minute, self._minute_epoch, self._record_seconds
        top = ""  # the greatest seconds among this run's good records; "" while there is none
        for raw_line in lines:
            line = raw_line.rstrip("\r")
            stamped = match_stamp(line)
            if stamped is not None:
                stamp_minute, seconds, rest = stamped.groups()
                record = None  # not needed when the rest is known quiet
                if rest in quiet or (record := match_rest(rest)) is not None:
                    if stamp_minute != minute:
                        if top and minute_epoch is not None:
                            at = minute_epoch + float(top)
                            if latest is None or at > latest:
                                latest = at
                        top = ""
                        minute = self._minute = stamp_minute
                        minute_epoch = self._minute_epoch = self._minute_to_epoch(stamp_minute)
                    if minute_epoch is None or seconds >= "6":  # no such minute, or "SS" >= 60
                        self.bad_lines += 1
                        record_seconds = None
                        continue
                    record_seconds = seconds
                    if seconds > top:  # noqa: PLR1730 - max() is a call, and this runs on every line
                        top = seconds
                    if record is None:
                        continue
                    level, separator, message = record.groups()
                    if separator == "|" and message[-1:] == "}":
                        # File sink: drop " | {extras}", whose activation ids and notes would
                        # otherwise look like message text. A multi-line message carries its
                        # extras on its last continuation line instead, which is never read.
                        cut = message.rfind(" | {")
                        if cut >= 0:
                            message = message[:cut]
                    count, bad = len(events), self.bad_lines
                    at = minute_epoch + float(seconds)
                    read_message(message, at, events)
                    if level in _ERROR_LEVELS:
                        # After what the message itself stands for (a 404 counted): the timeline
                        # shows the latest ERROR line, whatever it says.
                        events.append(ErrorLogged(at, message))
                    if len(events) == count and self.bad_lines == bad and len(rest) <= _QUIET_LENGTH:
                        if len(quiet) >= _QUIET_SIZE:
                            quiet.clear()  # full of one-off rests (ids in them); the usual few come back
                        quiet.add(rest)
                    continue
            # A continuation of the previous record; a tail may also start mid-record, so this
            # is never a bad line. Only the phase banner's text means something.
            if "state!" in line:
                record_at = None
                if record_seconds is not None and minute_epoch is not None:
                    record_at = minute_epoch + float(record_seconds)
                self._read_banner(line, record_at, events)
            elif self._crash_pending is not None or _CRASH_HINT.search(line) is not None:
                # How a worker dies is read the same way by both (no memo is involved).
                IotaParser._crash_line(self, line, record_seconds, minute_epoch, events)  # type: ignore[arg-type]
        self._record_seconds = record_seconds
        if top and minute_epoch is not None:
            at = minute_epoch + float(top)
            if latest is None or at > latest:
                latest = at
        if latest is not None:
            events.append(Tick(at=latest))
        return events

    def _minute_to_epoch(self, minute: str) -> float | None:
        """Convert ``YYYY-MM-DD HH:MM`` with ``to_epoch``; None for a time that cannot exist."""
        year, month, day = int(minute[0:4]), int(minute[5:7]), int(minute[8:10])
        hour, minutes = int(minute[11:13]), int(minute[14:16])
        if not (1 <= year and 1 <= month <= 12 and 1 <= day and hour < 24 and minutes < 60):
            return None
        leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        if day > _DAYS_IN_MONTH[month - 1] + leap:
            return None
        try:
            return float(self._to_epoch(year, month, day, hour, minutes, 0))
        except (OverflowError, ValueError, OSError):  # mktime outside the platform's range
            return None
