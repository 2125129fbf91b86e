"""The cold start: how far back into a log the figures need, and no further, and how what was
read back is applied.

The monitor reads a log backwards in chunks, newest first, and hands them to the cold start of
the log's kind (:func:`cold_start`). :class:`MinerBacklog` parses each chunk as it comes and stops
when :class:`Reach` says it has enough (an hour of history and its rate window, the facts a
snapshot shows, a miner's queue polls over a week). :class:`StepBacklog` measures a step log's
pace on its newest lines, keeps only the bytes its span takes, and reads them once, in order, with
the live parser: a glance at the newest lines first, the first view, then the hour behind it. So a
cold start costs about the same on a 1 GiB log as on a 1 MiB one.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from ..changes import Changes
from ..ingest.formats import STEP_FORMATS, create_parser, kind_of
from ..ingest.formats.base import LogParser
from ..ingest.formats.crash import begin_inside
from ..stats.events import (
    ActivationShape,
    EpochReset,
    Event,
    ForwardPass,
    Heartbeat,
    LayerChanged,
    LayerSeen,
    MinerReset,
    OptimizationStep,
    QueueUpdate,
    Registered,
    RunInfo,
    TrainStep,
)
from ..stats.history import HISTORY_SPAN_SECONDS
from ..stats.kinds import is_step_tracker, tracker_for
from ..stats.steps.timing import line_seconds
from ..stats.tracker import ERROR_WINDOW_SECONDS, RATE_WINDOW_SECONDS, Tracker
from .kept import LOGGED, Kept

if TYPE_CHECKING:
    from ..stats.steps.placing import Placement

# How far back a cold start reads, in log time: the rate window behind every point of the
# hour of history, and the hour of backend errors.
BACKLOG_SECONDS = max(HISTORY_SPAN_SECONDS + RATE_WINDOW_SECONDS, ERROR_WINDOW_SECONDS)
# Past that, keep reading back only to find a fact still unknown (layer, heartbeat, step,
# shape), and never more than this many bytes: a cold start must cost about the same on a
# 1 GiB log as on a 1 MiB one.
BACKLOG_EXTRA_BYTES = 8 << 20
# A miner that was in the registration queue: read back further while the log holds queue polls,
# so the queue report's resets over 24 h and 7 days come from the log, not only from since
# tokwatch started. The Train-at-Home log is one file per launch, capped at about 10 MB.
QUEUE_BACKLOG_SECONDS = 7 * 24 * 3600
QUEUE_BACKLOG_BYTES = 32 << 20
# A step trainer's log (dated like torchtitan's, or not like nanochat's, nanoGPT's, HF's): read
# back at most this much, and no further than the backlog's span at the pace of its newest lines.
STEP_MAX_BYTES = 16 << 20
# The newest bytes of a step log whose times (or printed durations) measure its pace (minutes of
# steps: a few thousand short lines, a few hundred of HF's progress bars), and the margin on the
# bytes that pace gives (evaluations the trainer does not time make the span longer, never shorter).
STEP_SAMPLE_BYTES = 256 << 10
STEP_SLACK = 1.25
# What a step log's first view reads: the rate window and a little more.
FIRST_VIEW_SECONDS = RATE_WINDOW_SECONDS + 5 * 60
# Never less than this (a read or two of the file): a short log is read whole, as before.
STEP_MIN_BYTES = 1 << 20
# A step log read from its end is read this far from its start too: the facts its trainer prints
# only there (nanoGPT's tokens per iteration, HF's total optimization steps, torchtitan's total steps).
HEAD_BYTES = 64 << 10
HEAD_LINES = 500
# A step log's backlog is parsed and applied this many lines at a time: one slice's events are gone
# before the next is parsed (they take far more memory than their lines).
SLICE_LINES = 1024


FACTS: tuple[tuple[type, ...], ...] = (
    (ForwardPass, LayerSeen, Registered, LayerChanged, QueueUpdate, MinerReset),
    (Heartbeat,),
    (OptimizationStep, EpochReset),
    (ActivationShape,),
)


class Reach:
    """How far back a cold start has read, and whether that is enough for the figures."""

    def __init__(self) -> None:
        self._newest: float | None = None
        self._facts = [False] * len(FACTS)
        self._extra_bytes = 0
        self._queue_bytes = 0
        self._undated_bytes = 0
        self._undated_seconds = 0.0

    def enough(self, events: list[Event], chunk: list[str], dated: bool, *, miner: bool = True) -> bool:
        """Take one more chunk (newest first) and its events; True: read no further back.

        ``miner``: past the span, read on for the facts only a miner's log prints (a step
        trainer's log has none of them: its span is enough).
        """
        oldest: float | None = None
        newest = self._newest
        facts = self._facts
        for event in events:
            if event.at is not None:
                oldest = event.at if oldest is None else min(oldest, event.at)
                newest = event.at if newest is None else max(newest, event.at)
            for i, kinds in enumerate(FACTS):
                if not facts[i] and isinstance(event, kinds):
                    facts[i] = True
        self._newest = newest
        far_enough = newest is not None and oldest is not None and oldest <= newest - BACKLOG_SECONDS
        if newest is None and not dated:
            self._undated_bytes += sum(len(line) + 1 for line in chunk)
            self._undated_seconds += printed_seconds(events)
            spanned = self._undated_seconds >= BACKLOG_SECONDS and self._undated_bytes >= STEP_MIN_BYTES
            if self._undated_bytes >= STEP_MAX_BYTES or spanned:
                return True
        if far_enough and not miner:
            return True
        if far_enough:
            size = sum(len(line) + 1 for line in chunk)
            assert newest is not None and oldest is not None
            if oldest > newest - QUEUE_BACKLOG_SECONDS and any(isinstance(event, QueueUpdate) for event in events):
                self._queue_bytes += size
                if self._queue_bytes < QUEUE_BACKLOG_BYTES:
                    return False
            if all(facts):
                return True
            self._extra_bytes += size
            if self._extra_bytes >= BACKLOG_EXTRA_BYTES:
                return True
        return False


def printed_seconds(events: list[Event]) -> float:
    """How long the step lines among ``events`` took, by the durations the trainer printed."""
    seconds = 0.0
    previous: TrainStep | None = None
    for event in events:
        if isinstance(event, TrainStep):
            took = line_seconds(previous, event)
            if took is not None and took > 0:
                seconds += took
            previous = event
    return seconds


def step_bytes_needed(events: list[Event], lines: list[str], span_seconds: float) -> int:
    """How many bytes of a step log hold ``span_seconds``, from a sample of its newest lines: by the
    times they carry, else by the durations the trainer prints."""
    times = [event.at for event in events if event.at is not None]
    seconds = max(times) - min(times) if times else printed_seconds(events)
    size = sum(len(line) + 1 for line in lines)
    if seconds <= 0:
        return STEP_MAX_BYTES  # no pace to go by: read as far as ever
    return max(STEP_MIN_BYTES, min(STEP_MAX_BYTES, int(STEP_SLACK * span_seconds * size / seconds)))


def head_facts(format_name: str, lines: list[str], written: float) -> tuple[list[str], list[Event]]:
    """What the start of a step log says about its run, before its first step: the lines up to its
    last ``RunInfo`` (for the live parser, which carries a run's plan on its steps: torchtitan's
    total) and those facts, without their time (a plan holds until a later line says otherwise; it
    moves no clock)."""
    parser = create_parser(format_name)
    parser.reference_time = written
    facts: list[Event] = []
    upto = 0
    for i, line in enumerate(lines[:HEAD_LINES]):
        # Line by line, to know which lines made a fact; none past the first step, so the live
        # parser reads no step of the head (nothing of it pairs with the tail's first lines).
        events = parser.feed([line])
        if any(isinstance(event, TrainStep) for event in events):
            break
        found = [replace(event, at=None) for event in events if isinstance(event, RunInfo)]
        if found:
            facts += found
            upto = i + 1
    return lines[:upto], facts


def before(events: list[Event], until: float) -> list[Event]:
    """The events up to ``until``: cut at the first one dated after it."""
    for i, event in enumerate(events):
        if event.at is not None and event.at > until:
            return events[:i]
    return events


def newest_lines(lines: list[str], size: int) -> list[str]:
    """The newest of ``lines`` that hold ``size`` bytes."""
    total = 0
    for i in range(len(lines) - 1, -1, -1):
        total += len(lines[i]) + 1
        if total >= size:
            return lines[i:]
    return lines


class Packed:
    """Lines read back, one string a chunk (oldest chunk first), made lines again a slice at a time.

    A step log's backlog is tens of thousands of short lines, held while it is read twice. As one
    small object each they filled megabytes of the interpreter's small-object arenas, which stay
    mapped once anything long-lived lands among them: the server kept that memory for good. One
    string a chunk is one large block the C allocator hands back the moment it is let go.
    """

    __slots__ = ("_blocks", "_count")

    def __init__(self, blocks: list[tuple[str, int]]) -> None:
        self._blocks = blocks  # (the lines joined by newlines, how many), oldest first
        self._count = sum(count for _, count in blocks)

    @classmethod
    def of(cls, lines: list[str]) -> Packed:
        return cls([("\n".join(lines), len(lines))] if lines else [])

    def __len__(self) -> int:
        return self._count

    def then(self, newer: Packed) -> Packed:
        """These lines, then ``newer``'s."""
        return Packed(self._blocks + newer._blocks)

    def lines(self) -> list[str]:
        """Every line, as a list."""
        return [line for text, _ in self._blocks for line in text.split("\n")]

    def newest(self, size: int) -> Packed:
        """The newest lines that hold ``size`` bytes (as :func:`newest_lines` counts them)."""
        total = 0
        kept: list[tuple[str, int]] = []
        for text, count in reversed(self._blocks):
            if total + len(text) + 1 < size:  # the whole chunk, and still short
                total += len(text) + 1
                kept.append((text, count))
                continue
            lines = text.split("\n")
            for i in range(len(lines) - 1, -1, -1):
                total += len(lines[i]) + 1
                if total >= size:
                    kept.append(("\n".join(lines[i:]), len(lines) - i))
                    return Packed(kept[::-1])
        return self

    def slices(self, size: int) -> Iterator[list[str]]:
        """The lines in order, ``size`` at a time (the last slice shorter), as a list each."""
        pending: list[str] = []
        for text, _ in self._blocks:
            pending += text.split("\n")
            while len(pending) >= size:
                yield pending[:size]
                del pending[:size]
        if pending:
            yield pending


class Live(Protocol):
    """What a cold start reads into: the monitor's parser and tracker, behind its lock."""

    lock: threading.Lock
    changes: Changes
    clock: Callable[[], float]
    parser: LogParser | None
    tracker: Tracker
    lines_read: int
    bad_lines_before: int  # from parsers already replaced
    kept: Kept  # for the history's recorder
    # The log judged at its end (``once --at end``): undated lines after its last dated one are placed at that
    # line's time, not at the file's modification time (a copy's, of a log written elsewhere).
    dated_end: bool

    def last_written(self, now: float, until: float | None) -> float:
        """When the log's last line was written (never after ``now``, nor ``until``)."""
        ...


# One chunk read back: its events, its bad lines, and its lines when they are read again.
Taken = tuple[list[Event], int, Packed]


class MinerBacklog:
    """A miner's cold start: each chunk parsed as it is read back, until :class:`Reach` has the
    figures' facts; then the events applied oldest first, and the newest chunk's parser goes on."""

    miner = True

    def __init__(self, live: Live, format_name: str, written: float, until: float | None) -> None:
        self.live = live
        self.format_name = format_name
        # A year-less timestamp (hivemind) takes its year from when the log was last written.
        self.written = written
        self.until = until
        self.taken: list[Taken] = []
        self.newest_parser: LogParser | None = None  # it read the end of the log: the live one goes on from it
        self.reach = Reach()

    def take(self, chunk: list[str]) -> bool:
        """Take the next chunk back (newest first); True: read no further."""
        return self._parse(chunk, create_parser(self.format_name))

    def read_to_start(self) -> None:
        """The log was read back to its first line."""

    def apply(self) -> None:
        """Apply what was read back, oldest first."""
        live = self.live
        with live.lock:
            now = live.clock()
            for events, _, _ in reversed(self.taken):
                live.tracker.apply_all(events, now)
                live.kept.add(events)
            newest = self.newest_parser
            if newest is not None and live.parser is not None and newest.name == live.parser.name:
                # Its bad lines are counted as the live parser's from now on.
                live.bad_lines_before += sum(bad for _, bad, _ in self.taken[1:])
                live.parser = newest
            else:
                live.bad_lines_before += sum(bad for _, bad, _ in self.taken)
            live.changes.bump()

    def _parse(self, chunk: list[str], scratch: LogParser) -> bool:
        scratch.reference_time = self.written
        events = scratch.feed(chunk)
        # A chunk wholly after --at still has dated lines: it is not an undated log.
        dated = any(event.at is not None for event in events)
        if self.until is not None:
            events = before(events, self.until)
        # Only a step trainer's lines are read again (StepBacklog.apply); a miner's backlog keeps
        # just its events, not an hour of text until the last chunk is in.
        self.taken.append((events, scratch.bad_lines, Packed([]) if self.miner else Packed.of(chunk)))
        if self.newest_parser is None:
            self.newest_parser = scratch
        with self.live.lock:
            self.live.lines_read += len(chunk)
        return self.reach.enough(events, chunk, dated, miner=self.miner)


class StepBacklog(MinerBacklog):
    """A step trainer's cold start: only the bytes the backlog's span takes at the pace of the
    newest lines (by their times, or by the durations an undated trainer prints), read once, in
    order, by the live parser, which carries state across lines (a record wrapped over two chunks,
    HF's progress bar, RL's tokens per step) and goes on from where the log ends.

    ``head(max_bytes)``: the log's first lines, for what a trainer prints only at its start (its
    total steps, its tokens per step). ``first_view_only``: stop after the first view (``--once``).
    A dated log cut at ``--at`` is read back by time instead, to the moment asked for.
    """

    miner = False

    def __init__(
        self,
        live: Live,
        format_name: str,
        written: float,
        until: float | None,
        head: Callable[[int], list[str]] | None,
        *,
        first_view_only: bool,
    ) -> None:
        super().__init__(live, format_name, written, until)
        self.head = head
        self.first_view_only = first_view_only
        self.more_bytes: int | None = None  # how much more to read back
        self.first_view_bytes: int | None = None  # and how much of it the first view takes
        self.start: tuple[list[str], list[Event]] = ([], [])  # what the log's start says of its run
        self.glance: list[Event] | None = None  # its newest lines' events, shown before the first view
        self.from_start = False  # the lines taken reach back to the log's first line

    def take(self, chunk: list[str]) -> bool:
        if self.more_bytes is not None:
            self.more_bytes = self._take_newest(chunk, self.more_bytes)
            return self.more_bytes <= 0
        scratch = create_parser(self.format_name)
        if self.newest_parser is None:
            # The newest lines give the log's pace: how many bytes of it the backlog's span takes.
            scratch.reference_time = self.written
            if self.head is not None:
                self.start = head_facts(self.format_name, self.head(HEAD_BYTES), self.written)
                scratch.feed(self.start[0])
            sample = newest_lines(chunk, STEP_SAMPLE_BYTES)
            events = scratch.feed(sample)
            dated = any(event.at is not None for event in events)
            if not dated or self.until is None:
                self.first_view_bytes = step_bytes_needed(events, sample, FIRST_VIEW_SECONDS)
                needed = (self.first_view_bytes if self.first_view_only
                          else step_bytes_needed(events, sample, BACKLOG_SECONDS))  # fmt: skip
                if not self.first_view_only:
                    # Already parsed: the latest step, its loss and a rate over these minutes are
                    # on the page at once, the first view's fuller window a moment later.
                    self.glance = before(events, self.until) if self.until is not None else events
                self.more_bytes = self._take_newest(chunk, needed)
                return self.more_bytes <= 0
            # A dated log cut at --at: read back by time to the moment asked for.
            scratch = create_parser(self.format_name)
        return self._parse(chunk, scratch)

    def read_to_start(self) -> None:
        # Its start is in what was read, and a short log's first view comes as soon as a glance would.
        self.start, self.glance = ([], []), None
        self.from_start = True

    def apply(self) -> None:
        """The glance, the first view, then the hour behind it: each read whole on a parser and
        tracker of their own (no live line comes in meanwhile: this is the tailer's thread), then
        swapped in."""
        live = self.live
        first_view_bytes = None if self.first_view_only else self.first_view_bytes
        with live.lock:
            now = live.clock()
            assert live.parser is not None
            in_order = Packed([block for _, _, lines in reversed(self.taken) for block in lines._blocks])
            self.taken = []  # (in_order holds the lines now)
            first = in_order.newest(first_view_bytes) if first_view_bytes is not None else in_order
            name = live.parser.name
            if self.glance is not None:
                live.tracker.apply_all(self.start[1], now)
                live.tracker.apply_all(self.glance, now, arrival=live.last_written(now, self.until))
                self.glance = None  # applied: its events are not held while the backlog is read
                live.changes.bump()  # the latest step, loss and a rate are on the page now
            else:
                whole = len(first) == len(in_order)
                logged = self._apply(live.parser, live.tracker, first, now, logged=whole and live.kept.keeps_backlog,
                                     inside=not (whole and self.from_start))
                if whole:
                    live.kept.add_backlog(logged)
                    live.changes.bump()
                    return
                live.changes.bump()  # the latest step, loss, rate and ETA are on the page now
                first = in_order
            has_records = live.tracker.has_records
            keeps_backlog = live.kept.keeps_backlog
        phases = [first, in_order] if len(first) < len(in_order) else [in_order]
        for lines in phases:
            parser = create_parser(name)
            tracker = tracker_for(kind_of(name), name)
            tracker.has_records = has_records
            logged = self._apply(parser, tracker, lines, now, logged=lines is phases[-1] and keeps_backlog,
                                 inside=lines is not in_order or not self.from_start)
            with live.lock:
                live.parser, live.tracker = parser, tracker
                if lines is phases[-1]:
                    live.kept.add_backlog(logged)
                live.changes.bump()
            del logged

    def _take_newest(self, chunk: list[str], needed: int) -> int:
        """Keep the newest lines of ``chunk`` up to ``needed`` bytes; return how many more are needed."""
        kept = 0
        size = 0
        for line in reversed(chunk):
            if size >= needed:
                break
            size += len(line) + 1
            kept += 1
        lines = chunk[len(chunk) - kept :]
        self.taken.append(([], 0, Packed.of(lines)))
        with self.live.lock:
            self.live.lines_read += len(lines)
        return needed - size

    def _apply(self, parser: LogParser, tracker: Tracker, lines: Packed, now: float, *, logged: bool,
               inside: bool) -> list[Event]:
        """Read lines in order and apply them, placed back in time from when the log was last
        written, after the lines at the log's start that say what the run is (their own events
        are ``start``'s facts); return their logged lines when ``logged`` (else none). ``inside``:
        the lines begin inside the log, not at its first line (a window of its newest lines).

        A step tracker's lines are read twice, a slice at a time, so that no more than a slice's
        events are held at once: first for where each event goes in time (placed back from the
        end), then for the tracker, each event at its place.
        """
        until = self.until
        arrival = self.live.last_written(now, until)
        start_lines, facts = self.start
        if not is_step_tracker(tracker):
            parser.reference_time = arrival
            if start_lines:
                parser.feed(start_lines)
            tracker.apply_all(facts, now)
            events = parser.feed(lines.lines())
            if until is not None:
                events = before(events, until)
            tracker.apply_all(events, now, arrival=arrival)
            return [event for event in events if isinstance(event, LOGGED)] if logged else []
        from ..stats.steps.placing import Placement  # (a step tracker's: a miner's server never loads it)

        placement = Placement()
        scratch = create_parser(parser.name)
        scratch.reference_time = arrival
        if start_lines:
            scratch.feed(start_lines)
        if inside:
            begin_inside(scratch)
        for piece in lines.slices(SLICE_LINES):
            events = scratch.feed(piece)
            if until is not None:
                kept = before(events, until)
                placement.add(kept)
                if len(kept) < len(events):
                    break  # the events after --at are not applied
            else:
                placement.add(events)
        del scratch
        parser.reference_time = arrival
        if start_lines:
            parser.feed(start_lines)
        if inside:
            begin_inside(parser)
        if self.live.dated_end:
            arrival = min(arrival, dated_end(placement))
        tracker.apply_all(facts, now)
        tracker.progress.note_arrival(placement.steps, arrival)
        count = len(placement)
        placement.place(arrival, tracker.clock)
        kept_logged: list[Event] = []
        applied = 0
        for piece in lines.slices(SLICE_LINES):
            events = parser.feed(piece)
            if applied < count:
                events = events[: count - applied]
                for event in events:
                    tracker.apply(event, now, placement.time(applied))
                    applied += 1
                if logged:
                    kept_logged += [event for event in events if isinstance(event, LOGGED)]
        return kept_logged


def dated_end(placement: Placement) -> float:
    """The time of the log's last dated line when only lines that are no step follow it (a crash's traceback, a
    closing message): the log's end, for a log judged at its end; else infinity (a step after it is placed back
    from the file's time by its printed duration)."""
    times = placement.times
    if times is None:
        return math.inf
    last = next((i for i in range(len(times) - 1, -1, -1) if not math.isnan(times[i])), -1)
    return times[last] if last >= placement.last_step and last >= 0 else math.inf


def cold_start(
    live: Live,
    format_name: str,
    written: float,
    until: float | None,
    head: Callable[[int], list[str]] | None,
    *,
    first_view_only: bool,
) -> MinerBacklog:
    """The cold start for a log of ``format_name``: a step trainer's, or a miner's."""
    if format_name in STEP_FORMATS:
        return StepBacklog(live, format_name, written, until, head, first_view_only=first_view_only)
    return MinerBacklog(live, format_name, written, until)
