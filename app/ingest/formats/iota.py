"""Parse the IOTA "Train at Home" (SN9) miner log into events.

Three line shapes carry a record (see ``research/iota-log-format.md`` §1):

* the Train-at-Home host wrapper around loguru's default line:
  ``[<host ts>] [info]  2026-09-13 21:02:10.114 | INFO     | miner.new_miner:run_miner:1723 - <message>``
* the bare loguru default line (level padded to 8 or not);
* the headless miner's file sink, which ends every message with `` | {extras}``:
  v2.4.1 ``<ts.ffffff> | INFO     | name:function:line | <message> | {extras}`` and newer
  ``<ts.mmm> | [MINER] | INFO     | name:line | <message> | {extras}``.

Any other line (an nginx error body, a traceback, the blank lines around the phase banners)
continues the previous record and yields nothing, except the phase banner text itself.

Hot path, because real miners log mostly DEBUG noise, often each line different (counters,
ids): one pattern per line checks it is a record, takes its minute and seconds and scans its
message for any text that can mean something (``MEANINGFUL_TEXTS``), from that text's rarest
character; only such a record, or an ERROR one, is read. Noise that differs only in its digits
(counters, times) has one shape, and a memo of the shapes known to mean nothing saves the
pattern (the stamp is then two slices); each batch's first lines tell whether that pays. A
time is made a float only for an event or the closing Tick; ``to_epoch`` runs once per minute.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import fields

from ...stats.events import (
    ActivationShape,
    ErrorLogged,
    Event,
    GpuMemory,
    Heartbeat,
    LineShapeNew,
    PhaseChanged,
    Tick,
    WorkerCrashed,
    builder,
)
from .base import LocalToEpoch, local_to_epoch
from .drift import ShapeWatch
from .iota_messages import MEANINGFUL_TEXTS, MessageReader

# A line outside any record that says the worker died (macrocosm-os/iota#202: a Rust panic in its
# peer-to-peer layer, "thread caused non-unwinding panic. aborting."; macOS's "Abort trap: 6"; a
# Python traceback). Looked for only in lines that are no record and not known quiet.
_CRASH_HINT = re.compile(
    r"panicked at|non-unwinding panic|fatal runtime error|Abort trap|Segmentation fault|Traceback \(most recent call last\)"
    # A traceback's last line, unindented, maybe host-wrapped: never remembered as quiet, since it
    # may end a traceback (read only then: a pending crash is what makes it count).
    r"|^(?:\[[^\]]*\] \[\w+\]\s*)?[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Failure)\b"
)
# What begins or is a crash by itself (the hint less the exception line, which only ends a traceback).
_STARTS_CRASH = re.compile(
    r"panicked at|non-unwinding panic|fatal runtime error|Abort trap|Segmentation fault|Traceback \(most recent call last\)"
)
_FATAL_HINTS = ("non-unwinding panic", "fatal runtime error", "Abort trap", "Segmentation fault")
# The host wrapper's own time, on a line the worker wrote without loguru (a panic, an abort).
_HOST_STAMP = re.compile(r"\x00*\[([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}):([0-9]{2}(?:\.[0-9]{1,9})?)\] \[\w+\]\s*")
# A traceback's last line: the exception, unindented ("RuntimeError: …", "KeyboardInterrupt").
_EXCEPTION_LINE = re.compile(r"[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Failure)\b.*")
_CRASH_QUOTED_MAX = 200

# Records at these levels are shown on the timeline whatever they say.
_ERROR_LEVELS = ("ERROR", "CRITICAL")

# A record line is these two patterns, one after the other: the stamp, then the rest. The host
# wrapper's own time is skipped: the loguru time inside it is the miner's clock. Groups: the
# local minute ("YYYY-MM-DD HH:MM"), its seconds ("SS.fff") and the rest of the line (the
# stamp pattern alone, for the tests; the parser runs the two as one). Spelled for speed, as they run on every line:
# "(?:…|)", not "(?:…)?", which compiles to a general repeat; possessive quantifiers ("*+",
# "++": Python 3.11+) wherever giving characters back could never let the rest match (what
# follows is always a character the run cannot take). Python 3.10 reads the same patterns
# without them.
_STAMP_PATTERN = (
    r"\x00*+"  # a file padded with NULs by a crash, then appended to after the restart
    r"(?:\[[^\]]*+\] \[\w++\]\s*+|)"  # Train-at-Home host wrapper, any host level
    # Each digit spelled out: a counted repeat ("[0-9]{4}") costs more than four single ones.
    r"([0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]):([0-9][0-9]\.[0-9]{1,9}+)"
    r"(.*)"
)
# The rest up to its message: the newer file sink's "[MINER]" column; the level, padded to 8
# by loguru or collapsed; name:function:line, or name:line in the newer file sink (one
# space-free token ending in ":<digits>" is check enough, and costs half what spelling out its
# parts does); "-" (loguru default format) or "|" (file sink, whose message ends with
# " | {extras}"). The message starts after the separator's space, or there is none; trailing
# "\r"s (CRLF) are the line's, not the record's. Never keyed on the ":line" number, which moves
# between builds (run_miner:735 in v2.4.1, :1723 in TAH 3.7.0).
_LEVEL = r" \| (?:\[\w++\] \| |) *+"
_NAME = r" *+\| [^ ]+:[0-9]++ "
_MESSAGE_START = r"( |(?=\n?\r*+\Z))"

# Characters by how common they are in log messages, most common first: the space, lower-case
# letters by their frequency in English, digits and the punctuation of "key: value" and paths;
# any other character (capitals, "#", "!") is rarer than all of them. A meaningful text is
# looked for from its rarest character, so that a noise line's message offers as few places as
# possible where one could start.
_COMMON_FIRST = " etaoinshrdlcu0123456789.:=,-_/'()[]{}|mwfgypbvkjxqz"


def _rarity(character: str) -> int:
    """Rank ``character`` by how rarely log messages hold it (higher: rarer)."""
    rank = _COMMON_FIRST.find(character)
    return len(_COMMON_FIRST) if rank < 0 else rank


def _texts_pattern(texts: Iterable[str]) -> tuple[str, str, str]:
    """Patterns for finding any of ``texts``, each from its rarest character.

    Returns the pattern matching any of them, the pattern matching one of those characters where
    none of them starts, and those characters. ``"exhausted retries"`` is looked for as
    ``x(?<=ex)hausted retries`` (escaped): only where an ``x`` is; texts sharing that character
    share one branch, and the branches of the most common characters come first, so a miss
    costs fewer comparisons.
    """
    branches: dict[str, list[str]] = {}
    for text in texts:
        at = max(range(len(text)), key=lambda i: _rarity(text[i]))
        head = f"(?<={re.escape(text[: at + 1])})" if at else ""
        branches.setdefault(text[at], []).append(head + re.escape(text[at + 1 :]))
    order = sorted(branches, key=_rarity)
    found = "|".join(re.escape(c) + "(?:" + "|".join(branches[c]) + ")" for c in order)
    passed = "|".join(re.escape(c) + "(?!" + "|".join(branches[c]) + ")" for c in order)
    return found, passed, "".join(order)


def _scan_pattern() -> str:
    """The pattern for a rest not known to be noise: is it a record's, and why read it, if at all.

    Groups: the level when it is ERROR or CRITICAL; the separator; the space before the message
    (its end is where the message starts); the first meaningful text in the message. The message is walked by runs of characters that
    start no meaningful text; only at the others is any text tried, and only those that start
    with that character.
    """
    found, passed, starts = _texts_pattern(MEANINGFUL_TEXTS)
    others = "[^" + re.escape(starts) + "]*+"
    error = "(?=(" + "|".join(_ERROR_LEVELS) + r") *+\| |)"
    message = f"{others}(?:(?:{passed}){others})*+(?:({found})|)"
    return _LEVEL + error + "[A-Z]++" + _NAME + "([-|])" + _MESSAGE_START + message


def _without_possessive(pattern: str) -> str:
    """Spell a pattern's possessive quantifiers as plain greedy ones (for Python 3.10)."""
    return pattern.replace("*+", "*").replace("++", "+").replace("}+", "}")


def _compile(pattern: str) -> re.Pattern[str]:
    """Compile a record pattern, without its possessive quantifiers before Python 3.11."""
    if sys.version_info < (3, 11):
        pattern = _without_possessive(pattern)
    return re.compile(pattern, re.ASCII | re.DOTALL)


_SCAN_PATTERN = _scan_pattern()
# Both in one: the stamp's groups, then the scan's.
_LINE_SCAN_PATTERN = _STAMP_PATTERN.removesuffix("(.*)") + _SCAN_PATTERN
_LINE_SCAN = _compile(_LINE_SCAN_PATTERN)

# The memo of quiet shapes: how many, and how long in bytes (a hostile 1 MiB line is not kept).
_QUIET_SIZE = 1024
_QUIET_LENGTH = 400
# A line's shape: its UTF-8 bytes with every digit read as 0 (see _feed_remembering).
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
# The first lines of each batch always use the memo; the rest only if one in this many of
# them was found there. A miss costs its shape and an insert (a fifth of a scan), a hit saves a
# scan: below that rate, as when ids make every line differ, the memo costs more than it saves.
_PROBE_LINES = 256
_PROBE_HITS_PER = 4
# The memo of shapes of records worth reading: how many (each at most _QUIET_LENGTH bytes).
_READ_SHAPES_SIZE = 1024
# The memo of readings: how many messages (each at most _QUIET_LENGTH long).
_READINGS_SIZE = 1024
# The events a message may be remembered for: readings whose lines repeat word for word, each with
# how it is made and its fields after ``at`` (its first).
_READINGS: dict[type[Event], tuple[Callable[..., Event], tuple[str, ...]]] = {
    kind: (builder(kind), tuple(f.name for f in fields(kind)[1:]))
    for kind in (GpuMemory, ActivationShape, Heartbeat, PhaseChanged)
}
_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


class IotaParser(MessageReader):
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
        # During a feed: the greatest seconds of the current minute's run of records, and the
        # latest time of the runs already ended.
        self._top = ""
        self._latest: float | None = None
        # Shapes of lines known to mean nothing (see _feed_remembering), each with where its
        # record's stamp stands, or () for a line that is no record: no event, not a bad line.
        # Most lines of a real miner's log are the same few DEBUG messages, counters aside, and
        # one lookup replaces the scan.
        self._quiet: dict[bytes, tuple[slice, slice] | tuple[()]] = {}
        # Shapes of records worth reading (a separate memo: the quiet one's misses decide the feed's
        # way and when the drift guard looks), each with where its minute, seconds and message
        # stand, its separator and its level if ERROR or CRITICAL.
        self._read_shapes: dict[bytes, tuple[slice, slice, int, str, str | None]] = {}
        # Messages that held readings, each with how to make its events again at another time
        # (see _remember_reading).
        self._readings: dict[str, tuple[tuple[Callable[..., Event], tuple[object, ...]], ...]] = {}
        # A traceback, or a panic whose message is on its next line: (what, its time, the record it
        # follows (its seconds and minute), its line). A record line between ends it, unread.
        self._crash_pending: tuple[str, float | None, tuple[str | None, float | None], str] | None = None
        # Shapes of records read for nothing, to tell a new one (the drift guard): looked at only
        # when the memo meets a quiet shape it does not know, so noise costs nothing more.
        self.shapes = ShapeWatch()

    def feed(self, lines: Iterable[str]) -> list[Event]:
        """Parse lines in log order; end with one ``Tick`` when any record carried a time.

        A record's time becomes a float only when its message yields an event. The Tick's is
        the greatest of all records' times: within one run of records in the same minute the
        greatest seconds ("SS.fff", which compare as strings as they do as numbers) is the
        greatest time, so only each run's greatest is converted, when the minute changes or
        the lines end.
        """
        events: list[Event] = []
        self._top, self._latest = "", None
        lines = lines if isinstance(lines, list) else list(lines)
        hits = self._feed_remembering(lines[:_PROBE_LINES], events)
        if len(lines) > _PROBE_LINES:
            if hits * _PROBE_HITS_PER >= _PROBE_LINES:
                self._feed_remembering(lines[_PROBE_LINES:], events)
            else:
                self._feed_scanning(lines[_PROBE_LINES:], events)
        self._close_minute()
        if self._latest is not None:
            events.append(Tick(at=self._latest))
        return events

    def _feed_remembering(self, lines: list[str], events: list[Event]) -> int:
        """Parse lines, skipping the shapes known quiet and remembering new ones; return the hits.

        A line's shape is the line with every digit read as 0: whether a line is a record, and
        whether its message holds a meaningful text or its level is ERROR or CRITICAL, never
        depends on which digits it holds (no meaningful text, level or separator has one, and
        the patterns only ever ask "a digit?"). So a line shaped like a quiet record is one, and
        its stamp stands where that record's stood: two slices instead of a pattern, for the
        noise that differs only in its counters and times, which is most of a miner's log. A
        line shaped like a record worth reading is one too, its message where that record's was
        (``_read_shapes``): the pattern is spared for the readings a miner prints over and over.
        The hits returned are the quiet memo's alone.
        """
        # One loop with its lookups bound once: it runs on every line of the log (the hot path).
        scan_line = _LINE_SCAN.match
        known_quiet = self._quiet.get
        known_read = self._read_shapes.get
        read_record = self._read_record
        zero = _DIGITS_AS_ZERO
        minute, minute_epoch, record_seconds = self._minute, self._minute_epoch, self._record_seconds
        top = self._top  # the greatest seconds among this run's good records; "" while there is none
        misses = 0
        for line in lines:
            try:
                shape = line.encode().translate(zero)  # (the default codec: no codec or handler looked up by name)
            except UnicodeEncodeError:  # a lone surrogate: no reader makes one, but any text is a line
                shape = line.encode("utf-8", "surrogatepass").translate(zero)
            at = known_quiet(shape)
            # After a crash's first line, a line outside any record is read whatever its shape: a
            # panic's message may be on the next line (see _crash_line).
            if at is not None and (at or self._crash_pending is None):
                if not at:
                    continue  # no record, and no banner in it
                minute_at, seconds_at = at
                stamp_minute, seconds = line[minute_at], line[seconds_at]
                if stamp_minute != minute:
                    self._top = top
                    minute, minute_epoch = self._enter_minute(stamp_minute)
                    top = ""
                if minute_epoch is None or seconds >= "6":  # no such minute, or "SS" >= 60
                    self.bad_lines += 1
                    record_seconds = None
                    continue
                record_seconds = seconds
                if seconds > top:  # noqa: PLR1730 - max() is a call, and this runs on every line
                    top = seconds
                continue
            misses += 1
            read = known_read(shape)
            if read is not None:  # a record worth reading: its stamp and message stand where that shape's did
                stamp_minute, seconds = line[read[0]], line[read[1]]
                if stamp_minute != minute:
                    self._top = top
                    minute, minute_epoch = self._enter_minute(stamp_minute)
                    top = ""
                if minute_epoch is None or seconds >= "6":
                    self.bad_lines += 1
                    record_seconds = None
                    continue
                record_seconds = seconds
                if seconds > top:  # noqa: PLR1730
                    top = seconds
                read_record(line[read[2] :], read[3], read[4], minute_epoch + float(seconds), events)
                continue
            record = scan_line(line)
            if record is None:
                if "state!" in line:
                    self._continuation(line, record_seconds, minute_epoch, events)
                elif self._crash_pending is not None or _CRASH_HINT.search(line) is not None:
                    self._crash_line(line, record_seconds, minute_epoch, events)  # never remembered: it may end one
                else:
                    self._remember(shape, ())
                continue
            stamp_minute, seconds, error, separator, _, meaningful = record.groups()
            if error is None and meaningful is None:
                self._remember(shape, (slice(record.start(1), record.end(1)), slice(record.start(2), record.end(2))))
            else:
                self._remember_read(shape, record, separator, error)
            if stamp_minute != minute:
                self._top = top
                minute, minute_epoch = self._enter_minute(stamp_minute)
                top = ""
            if minute_epoch is None or seconds >= "6":
                self.bad_lines += 1
                record_seconds = None
                continue
            record_seconds = seconds
            if seconds > top:  # noqa: PLR1730
                top = seconds
            if error is not None or meaningful is not None:
                message = line[record.end(5) :]
                read_record(message, separator, error, minute_epoch + float(seconds), events)
            else:
                seen_at = minute_epoch + float(seconds)
                drifted = self.shapes.see(line[record.end(2) :], seen_at)
                if drifted is not None:
                    events.append(LineShapeNew(seen_at, drifted))
        self._record_seconds, self._top = record_seconds, top
        return len(lines) - misses

    def _remember(self, shape: bytes, stamp: tuple[slice, slice] | tuple[()]) -> None:
        """Remember a quiet line's shape: where its minute and seconds stand, or ``()`` for no record."""
        if len(shape) > _QUIET_LENGTH:
            return
        if len(self._quiet) >= _QUIET_SIZE:
            self._quiet.clear()  # full of one-off shapes (ids in them); the usual few come back
        self._quiet[shape] = stamp

    def _remember_read(self, shape: bytes, record: re.Match[str], separator: str, error: str | None) -> None:
        """Remember the shape of a record worth reading: where its minute, seconds and message stand."""
        if len(shape) > _QUIET_LENGTH:
            return
        if len(self._read_shapes) >= _READ_SHAPES_SIZE:
            self._read_shapes.clear()  # full of one-off shapes (activation ids); the usual few come back
        self._read_shapes[shape] = (slice(record.start(1), record.end(1)), slice(record.start(2), record.end(2)),
                                    record.end(5), separator, error)

    def _feed_scanning(self, lines: list[str], events: list[Event]) -> None:
        """Parse lines with one pattern each, no memo: for lines that are seldom alike."""
        # The same steps as _feed_remembering's, with the stamp and the rest matched at once.
        scan_line = _LINE_SCAN.match
        minute, minute_epoch, record_seconds = self._minute, self._minute_epoch, self._record_seconds
        top = self._top
        for line in lines:
            record = scan_line(line)
            if record is not None:
                stamp_minute, seconds, error, separator, _, meaningful = record.groups()
                if stamp_minute != minute:
                    self._top = top
                    minute, minute_epoch = self._enter_minute(stamp_minute)
                    top = ""
                if minute_epoch is None or seconds >= "6":
                    self.bad_lines += 1
                    record_seconds = None
                    continue
                record_seconds = seconds
                if seconds > top:  # noqa: PLR1730
                    top = seconds
                if error is not None or meaningful is not None:
                    message = line[record.end(5) :]
                    self._read_record(message, separator, error, minute_epoch + float(seconds), events)
            elif "state!" in line:
                self._continuation(line, record_seconds, minute_epoch, events)
            elif self._crash_pending is not None or _CRASH_HINT.search(line) is not None:
                self._crash_line(line, record_seconds, minute_epoch, events)
        self._record_seconds, self._top = record_seconds, top

    def _close_minute(self) -> None:
        """Take the run of records just ended into the batch's latest time."""
        if self._top and self._minute_epoch is not None:
            at = self._minute_epoch + float(self._top)
            if self._latest is None or at > self._latest:
                self._latest = at

    def _enter_minute(self, minute: str) -> tuple[str, float | None]:
        """End the run of records in the last minute and start one in ``minute`` (its epoch)."""
        self._close_minute()
        self._minute, self._minute_epoch = minute, self._minute_to_epoch(minute)
        return self._minute, self._minute_epoch

    def _continuation(self, line: str, record_seconds: str | None, minute_epoch: float | None,
                      events: list[Event]) -> None:
        """Read a line that continues the previous record (a phase banner's text, if any).

        A tail may also start mid-record, so this is never a bad line.
        """
        record_at = None
        if record_seconds is not None and minute_epoch is not None:
            record_at = minute_epoch + float(record_seconds)
        self._read_banner(line, record_at, events)

    def _crash_line(self, line: str, record_seconds: str | None, minute_epoch: float | None,
                    events: list[Event]) -> None:
        """Read a line outside any record that says, or ends the story of, how the worker died."""
        at: float | None = None
        host = _HOST_STAMP.match(line)
        if host is not None:
            minute_at = self._minute_to_epoch(host.group(1))
            at = None if minute_at is None else minute_at + float(host.group(2))
            text = line[host.end() :]
        else:
            text = line
        if at is None and record_seconds is not None and minute_epoch is not None:
            at = minute_epoch + float(record_seconds)
        text = text.strip().rstrip("\r")
        record = (record_seconds, minute_epoch)
        pending = self._crash_pending
        if pending is not None and pending[2] != record:
            pending = self._crash_pending = None  # a record came between: that story ended unread
        exception = not line[:1].isspace() and _EXCEPTION_LINE.fullmatch(text) is not None
        if pending is not None:
            what, since, _, said = pending
            if what == "traceback" and exception:
                self._crash_pending = None
                events.append(WorkerCrashed(at if at is not None else since, _quoted(text), False))
                return
            if what == "panic" and text and not _STARTS_CRASH.search(text):
                self._crash_pending = None
                events.append(WorkerCrashed(since if since is not None else at, _quoted(f"{said} {text}"), False))
                return
            if what == "traceback" and not _STARTS_CRASH.search(text):
                return  # the traceback's body
        if "Traceback (most recent call last)" in text:
            self._crash_pending = ("traceback", at, record, text)
            return
        self._crash_pending = None
        if "panicked at" in text and text.endswith(":"):
            self._crash_pending = ("panic", at, record, text)  # newer Rust puts the message on the next line
            return
        if _STARTS_CRASH.search(text):
            events.append(WorkerCrashed(at, _quoted(text), any(hint in text for hint in _FATAL_HINTS)))

    def _read_record(
        self, message: str, separator: str, error: str | None, at: float, events: list[Event]
    ) -> None:
        """Append the events of a record worth reading (its time already checked).

        ``separator``: "-" or "|" (file sink); ``error``: its level if ERROR or CRITICAL.
        """
        message = message.rstrip("\r")
        if separator == "|" and message[-1:] == "}":
            # File sink: drop " | {extras}", whose activation ids and notes would otherwise
            # look like message text. A multi-line message carries its extras on its last
            # continuation line instead, which is never read.
            cut = message.rfind(" | {")
            if cut >= 0:
                message = message[:cut]
        known = self._readings.get(message)
        if known is not None:
            for build, fields in known:
                events.append(build(at, *fields))
        else:
            first, bad = len(events), self.bad_lines
            self._read_message(message, at, events)
            if (len(events) > first and type(events[first]) in _READINGS and self.bad_lines == bad
                    and len(message) <= _QUIET_LENGTH):
                self._remember_reading(message, events[first:])
        if error is not None:
            # After what the message itself stands for (a 404 counted): the timeline shows the
            # latest ERROR line, whatever it says.
            events.append(ErrorLogged(at, message))

    def _remember_reading(self, message: str, made: list[Event]) -> None:
        """Remember what a message meant when it holds a reading and no id (the same text means
        the same events, at its record's time): a miner prints the same GPU memory, shape and
        heartbeat lines over and over, and reading one again is a lookup."""
        kept: list[tuple[Callable[..., Event], tuple[object, ...]]] = []
        for event in made:
            recipe = _READINGS.get(type(event))
            if recipe is None:
                return  # a pass, a transfer, a layer named with an activation id: seldom the same text
            build, names = recipe
            kept.append((build, tuple(getattr(event, name) for name in names)))
        if len(self._readings) >= _READINGS_SIZE:
            self._readings.clear()
        self._readings[message] = tuple(kept)

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


def _quoted(text: str) -> str:
    """A crash's line as quoted: stripped, and cut to a length a details line can hold."""
    return text if len(text) <= _CRASH_QUOTED_MAX else text[: _CRASH_QUOTED_MAX - 1] + "…"
