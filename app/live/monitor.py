"""The live pipeline: tailer → parser → tracker, behind one lock, with change notification.

This is the one impure piece between the log and the viewers: it owns the tailer thread,
knows the wall clock, picks the parser and the one tracker for the log's format, and wakes
whoever waits for a new snapshot.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..ingest.folder import Following
from ..ingest.formats import FORMAT_NOUNS, STEP_FORMATS, create_parser, detect, kind_of
from ..ingest.formats.base import LogParser
from ..ingest.formats.detect import FormatWatch, family, log_kind
from ..snapshot import FollowingView, Snapshot, SourceView
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
    SourceChange,
    SourceChanged,
    TrainStep,
)
from ..stats.history import HISTORY_SPAN_SECONDS
from ..stats.iota.report import queue_report
from ..stats.iota.tracker import IotaTracker
from ..stats.kinds import tracker_for
from ..stats.steps.timing import line_seconds
from ..stats.tracker import ERROR_WINDOW_SECONDS, RATE_WINDOW_SECONDS, Tracker

if TYPE_CHECKING:
    from ..ingest.lines import LineCounters

log = logging.getLogger(__name__)

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
# Lines kept to sniff the format of a log that starts empty.
DETECT_LINES = 2000
# A log whose lines carry no time (nanochat, nanoGPT, HF): read back at most this much, and no
# further than its lines' own printed durations add up to the backlog's span.
BACKLOG_UNDATED_BYTES = 16 << 20
# Lines of an undated step log whose durations measure its pace, and the margin on the bytes
# that pace gives (evaluations the trainer does not time make the span longer, never shorter).
UNDATED_SAMPLE_LINES = 4000
UNDATED_SLACK = 1.25
# What an undated step log's first view reads: the rate window and a little more.
FIRST_VIEW_SECONDS = RATE_WINDOW_SECONDS + 5 * 60
# Never less than this (a read or two of the file): a short log is read whole, as before.
UNDATED_MIN_BYTES = 1 << 20

_FACTS: tuple[tuple[type, ...], ...] = (
    (ForwardPass, LayerSeen, Registered, LayerChanged, QueueUpdate, MinerReset),
    (Heartbeat,),
    (OptimizationStep, EpochReset),
    (ActivationShape,),
)


class _Reach:
    """How far back a cold start has read, and whether that is enough for the figures."""

    def __init__(self) -> None:
        self._newest: float | None = None
        self._facts = [False] * len(_FACTS)
        self._extra_bytes = 0
        self._queue_bytes = 0
        self._undated_bytes = 0
        self._undated_seconds = 0.0

    def enough(self, events: list[Event], chunk: list[str], dated: bool) -> bool:
        """Take one more chunk (newest first) and its events; True: read no further back."""
        oldest: float | None = None
        newest = self._newest
        facts = self._facts
        for event in events:
            if event.at is not None:
                oldest = event.at if oldest is None else min(oldest, event.at)
                newest = event.at if newest is None else max(newest, event.at)
            for i, kinds in enumerate(_FACTS):
                if not facts[i] and isinstance(event, kinds):
                    facts[i] = True
        self._newest = newest
        far_enough = newest is not None and oldest is not None and oldest <= newest - BACKLOG_SECONDS
        if newest is None and not dated:
            self._undated_bytes += sum(len(line) + 1 for line in chunk)
            self._undated_seconds += _printed_seconds(events)
            spanned = self._undated_seconds >= BACKLOG_SECONDS and self._undated_bytes >= UNDATED_MIN_BYTES
            if self._undated_bytes >= BACKLOG_UNDATED_BYTES or spanned:
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


def _printed_seconds(events: list[Event]) -> float:
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


def _undated_bytes_needed(events: list[Event], lines: list[str], span_seconds: float) -> int:
    """How many bytes of an undated step log hold ``span_seconds``, from a sample of its lines."""
    seconds = _printed_seconds(events)
    size = sum(len(line) + 1 for line in lines)
    if seconds <= 0:
        return BACKLOG_UNDATED_BYTES  # no printed durations: read as far as ever
    return max(UNDATED_MIN_BYTES, min(BACKLOG_UNDATED_BYTES, int(UNDATED_SLACK * span_seconds * size / seconds)))


def _newest_lines(lines: list[str], size: int) -> list[str]:
    """The newest of ``lines`` that hold ``size`` bytes."""
    total = 0
    for i in range(len(lines) - 1, -1, -1):
        total += len(lines[i]) + 1
        if total >= size:
            return lines[i:]
    return lines


def source_change(reason: str) -> SourceChange:
    """The tracker's word for the tailer's restart reason (``switched to <name>`` in folder mode)."""
    if reason == "truncated":
        return "truncated"
    if reason.startswith("switched"):
        return "switched"
    return "replaced"


def _before(events: list[Event], until: float) -> list[Event]:
    """The events up to ``until``: cut at the first one dated after it."""
    for i, event in enumerate(events):
        if event.at is not None and event.at > until:
            return events[:i]
    return events


class Monitor:
    """Follows one log and hands out snapshots; thread-safe."""

    def __init__(
        self,
        log_path: Path | None,
        *,
        format_name: str = "auto",
        demo: bool = False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.log_path = log_path
        self.requested_format = format_name
        self.demo = demo
        self.clock = clock
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._version = 0
        self._interrupts = 0  # bumped by interrupt(): every wait_for_change returns
        self._parser: LogParser | None = None
        self._tracker: Tracker = tracker_for(None, None)
        self._undetected: list[str] = []
        # --format auto: notices a new stage printed by another trainer.
        self._watch: FormatWatch | None = None
        self._lines_read = 0
        self._bad_lines_before = 0  # from parsers already replaced
        self._tailer: object | None = None
        # Passes seen, kept for the history's recorder when one is attached (see take_passes).
        self._passes: deque[tuple[float, str]] | None = None
        # Adds figures from outside the log (the history's usual and today) to every snapshot.
        self.decorate: Callable[[Snapshot], Snapshot] | None = None
        # What is said about the source when no tailer follows it (``--once``).
        self._once_following: Following | None = None
        self._once_counts: LineCounters | None = None
        if format_name != "auto":
            self._use_format(format_name)

    # --- lifecycle ----------------------------------------------------------

    @property
    def kind(self) -> str | None:
        """The family of log ``--format`` names (None with auto): a folder's file must be one."""
        return None if self.requested_format == "auto" else family(self.requested_format)

    def classify(self, lines: Sequence[str]) -> str | None:
        """What kind of log these lines are, to pick the file to follow in a folder."""
        return log_kind(lines, self.requested_format)

    def read_once(self, path: Path, following: Following | None = None, until: float | None = None) -> None:
        """Read the log's tail once, without a tailer thread (``--once``)."""
        from ..ingest.backwards import read_backwards
        from ..ingest.lines import LineCounters

        counts = LineCounters()
        with self._lock:
            self._once_following, self._once_counts = following, counts
        self.backlog(read_backwards(path, stats=counts), until=until, first_view_only=True)

    def start(self) -> None:
        """Start following the log in a background thread."""
        if self.log_path is None or self._tailer is not None:
            return
        from ..ingest.tailer import Tailer

        tailer = Tailer(self.log_path, self, classify=self.classify, kind=self.kind)
        self._tailer = tailer
        tailer.start()

    def stop(self) -> None:
        """Stop the tailer thread; safe to call twice."""
        tailer = self._tailer
        if tailer is not None:
            tailer.stop()  # type: ignore[attr-defined]

    # --- TailSink -------------------------------------------------------------

    def backlog(self, chunks: Iterator[list[str]], until: float | None = None, *, first_view_only: bool = False) -> None:
        """Read back from the end only as far as the figures need, then apply it in order.

        ``until``: ignore what the log says after this time (``--once --at`` in the past).
        An undated step log's newest lines are shown first (the rate window's span), then the
        hour of history is filled in behind; ``first_view_only``: stop after the first.
        """
        taken: list[tuple[list[Event], int, list[str]]] = []
        newest_parser: LogParser | None = None  # it read the end of the log: the live one goes on from it
        reach = _Reach()
        undated_bytes_needed: int | None = None  # an undated step log: how much more to read back
        first_view_bytes: int | None = None  # and how much of it the first view takes
        # A year-less timestamp (hivemind) takes its year from when the log was last written.
        written = self._last_written(self.clock(), until)
        for chunk in chunks:
            if not chunk:
                continue
            with self._lock:
                if self._parser is None and self.requested_format == "auto":
                    self._detect(chunk)
                format_name = self._tracker.format_name
            if format_name is None:
                # Not recognised yet: keep these lines for detection, read no further back.
                with self._lock:
                    self._lines_read += len(chunk)
                    self._undetected = chunk[-DETECT_LINES:]
                    self._tracker.has_records = True
                break
            if undated_bytes_needed is not None:
                # An undated step log: its lines are parsed once, in order (_apply_backlog).
                undated_bytes_needed = self._take_undated(chunk, undated_bytes_needed, taken)
                if undated_bytes_needed <= 0:
                    break
                continue
            scratch = create_parser(format_name)
            scratch.reference_time = written
            if format_name in STEP_FORMATS and newest_parser is None and len(chunk) > UNDATED_SAMPLE_LINES:
                # The newest lines say whether the log is dated and, if not, how many bytes of it
                # the backlog's span takes at the durations its trainer prints.
                sample = chunk[-UNDATED_SAMPLE_LINES:]
                events = scratch.feed(sample)
                if not any(event.at is not None for event in events):
                    first_view_bytes = _undated_bytes_needed(events, sample, FIRST_VIEW_SECONDS)
                    needed = first_view_bytes if first_view_only else _undated_bytes_needed(events, sample, BACKLOG_SECONDS)
                    undated_bytes_needed = self._take_undated(chunk, needed, taken)
                    if undated_bytes_needed <= 0:
                        break
                    continue
                scratch = create_parser(format_name)
                scratch.reference_time = written
            events = scratch.feed(chunk)
            # A chunk wholly after --at still has dated lines: it is not an undated log.
            dated = any(event.at is not None for event in events)
            if until is not None:
                events = _before(events, until)
            # Only a step trainer's lines are read again (see _apply_backlog); an IOTA backlog
            # keeps just its events, not an hour of text until the last chunk is in.
            taken.append((events, scratch.bad_lines, chunk if format_name in STEP_FORMATS else []))
            if newest_parser is None:
                newest_parser = scratch
            with self._lock:
                self._lines_read += len(chunk)
            if reach.enough(events, chunk, dated):
                break
        self._apply_backlog(taken, newest_parser, until, None if first_view_only else first_view_bytes)

    def _take_undated(self, chunk: list[str], needed: int, taken: list[tuple[list[Event], int, list[str]]]) -> int:
        """Keep the newest lines of ``chunk`` up to ``needed`` bytes; return how many more are needed."""
        kept = 0
        size = 0
        for line in reversed(chunk):
            if size >= needed:
                break
            size += len(line) + 1
            kept += 1
        lines = chunk[len(chunk) - kept :]
        taken.append(([], 0, lines))
        with self._lock:
            self._lines_read += len(lines)
        return needed - size

    def _apply_backlog(
        self,
        taken: list[tuple[list[Event], int, list[str]]],
        newest_parser: LogParser | None,
        until: float | None,
        first_view_bytes: int | None = None,
    ) -> None:
        """Apply the chunks read back (newest first in ``taken``) in log order.

        ``first_view_bytes``: an undated step log's newest bytes to show first, before the rest.
        """
        with self._lock:
            now = self.clock()
            if self._tracker.format_name in STEP_FORMATS and self._parser is not None:
                # A step trainer's parser carries state across lines (a record wrapped over two
                # chunks, HF's progress bar, RL's tokens per step): read the backlog again, in
                # order, with the live parser, which then goes on from where the log ends.
                in_order = [line for _, _, chunk in reversed(taken) for line in chunk]
                first = _newest_lines(in_order, first_view_bytes) if first_view_bytes is not None else in_order
                self._apply_steps(self._parser, self._tracker, first, now, until)
                if len(first) == len(in_order):
                    self._bump()
                    return
                self._bump()  # the latest step, loss, rate and ETA are on the page now
                name = self._parser.name
                has_records = self._tracker.has_records
            else:
                for events, _, _ in reversed(taken):
                    self._tracker.apply_all(events, now)
                    self._keep_passes(events)
                if newest_parser is not None and self._parser is not None and newest_parser.name == self._parser.name:
                    # Its bad lines are counted as the live parser's from now on.
                    self._bad_lines_before += sum(bad for _, bad, _ in taken[1:])
                    self._parser = newest_parser
                else:
                    self._bad_lines_before += sum(bad for _, bad, _ in taken)
                self._bump()
                return
        # The hour behind the first view, read whole on a parser and tracker of their own (no
        # live line comes in meanwhile: this is the tailer's thread), then swapped in.
        parser = create_parser(name)
        tracker = tracker_for(kind_of(name), name)
        tracker.has_records = has_records
        self._apply_steps(parser, tracker, in_order, now, until)
        with self._lock:
            self._parser, self._tracker = parser, tracker
            self._bump()

    def _apply_steps(
        self, parser: LogParser, tracker: Tracker, lines: list[str], now: float, until: float | None
    ) -> None:
        """Read a step log's lines in order and apply them, placed back in time from when the log
        was last written."""
        parser.reference_time = self._last_written(now, until)
        events = parser.feed(lines)
        if until is not None:
            events = _before(events, until)
        tracker.apply_all(events, now, arrival=self._last_written(now, until))

    def lines(self, lines: list[str]) -> None:
        """Parse new lines and wake the viewers."""
        if not lines:
            return
        with self._lock:
            self._lines_read += len(lines)
            if self._parser is None:
                # Sniff what was kept plus this whole batch; once recognised, parse all of it
                # (a first batch can be thousands of lines: none may be counted but unparsed).
                pending = self._undetected + lines
                if self.requested_format == "auto":
                    self._detect(pending)
                if self._parser is None:
                    self._undetected = pending[-DETECT_LINES:]
                    self._tracker.has_records = True
                    self._bump()
                    return
                lines, self._undetected = pending, []
            elif self._watch is not None:
                replay = self._watch.see(lines)
                if replay is not None and self._watch.current is not None:
                    log.info("log switched to format %s", self._watch.current)
                    self._bad_lines_before += self._parser.bad_lines
                    self._use_format(self._watch.current)
                    lines = replay
            assert self._parser is not None
            now = self.clock()
            self._parser.reference_time = now
            events = self._parser.feed(lines)
            self._tracker.apply_all(events, now, arrival=now)
            self._keep_passes(events)
            self._bump()

    def restarted(self, reason: str, *, repeats: bool = False) -> None:
        """A new stream begins: drop half-read records and tell the tracker what changed.

        ``reason`` is the tailer's: ``truncated``, ``replaced``, or ``switched to <name>`` when
        folder mode moves to a newer log. The tracker hears it as a ``SourceChanged`` event and
        through ``begin_stream``: the new stream's lines count, by activation id, even dated
        before the last time seen, unless it ``repeats`` the old one's first bytes (the same log
        written again from its start), whose re-dated lines are skipped.
        """
        log.info("log restarted: %s", reason)
        change = source_change(reason)
        with self._lock:
            if self._parser is not None:
                self._bad_lines_before += self._parser.bad_lines
                self._parser = create_parser(self._parser.name)
            name = reason.removeprefix("switched to ") if change == "switched" else None
            self._tracker.apply_all([SourceChanged(None, change, name)])
            self._tracker.begin_stream(repeats=repeats)
            self._bump()

    # --- readers --------------------------------------------------------------

    @property
    def version(self) -> int:
        """A counter bumped on every change of the figures."""
        with self._lock:
            return self._version

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until the version passes ``since``, ``timeout`` elapses or :meth:`interrupt`; return the version."""
        with self._changed:
            interrupts = self._interrupts
            self._changed.wait_for(lambda: self._version != since or self._interrupts != interrupts, timeout=timeout)
            return self._version

    def interrupt(self) -> None:
        """Make every ``wait_for_change`` in progress return now, changed or not (its waiter is stopping).

        So waiters can sleep until the next change however long that is, and still stop at once.
        """
        with self._changed:
            self._interrupts += 1
            self._changed.notify_all()

    def last_event_at(self) -> float | None:
        """The newest log time seen, or None."""
        with self._lock:
            return self._tracker.clock

    def snapshot(self, now: float | None = None, *, plain: bool = False) -> Snapshot:
        """The figures at ``now`` (default: the wall clock); ``plain``: the log's alone, undecorated."""
        with self._lock:
            when = self.clock() if now is None else now
            snapshot = self._tracker.snapshot(when, self._source())
        decorate = self.decorate
        return snapshot if plain or decorate is None else decorate(snapshot)

    def keep_passes(self, limit: int = 100_000) -> None:
        """Start keeping the passes the tracker is given (time, activation id) for :meth:`take_passes`."""
        with self._lock:
            if self._passes is None:
                self._passes = deque(maxlen=limit)

    def take_passes(self) -> list[tuple[float, str]]:
        """The passes seen since the last call (a re-read log repeats some: their ids tell)."""
        with self._lock:
            if not self._passes:
                return []
            taken = list(self._passes)
            self._passes.clear()
            return taken

    def queue_report(self, now: float | None = None) -> str:
        """The plain-text queue report at ``now`` (default: the wall clock)."""
        with self._lock:
            when = self.clock() if now is None else now
            tracker = self._tracker
            snapshot = tracker.snapshot(when, self._source())
            if isinstance(tracker, IotaTracker):
                return queue_report(snapshot, tracker.queue, tracker.first_at, when)
            return queue_report(snapshot, None, None, when)

    def touch(self) -> None:
        """Say that a section changed, so the viewers get a new snapshot now."""
        with self._lock:
            self._bump()

    # --- internals ------------------------------------------------------------

    def _keep_passes(self, events: list[Event]) -> None:
        kept = self._passes
        if kept is not None:
            kept.extend((e.at, e.activation_id) for e in events if isinstance(e, ForwardPass) and e.at is not None)

    def _bump(self) -> None:
        self._version += 1
        self._changed.notify_all()

    def _use_format(self, name: str) -> None:
        self._parser = create_parser(name)
        if self.requested_format == "auto":
            self._watch = FormatWatch(name)
        has_records = self._tracker.has_records
        self._tracker = tracker_for(kind_of(name), name)
        self._tracker.has_records = has_records

    def _last_written(self, now: float, until: float | None) -> float:
        """When the log's last line was written: its modification time (never after ``now``)."""
        written = now
        path = self.log_path
        if self._tailer is not None:  # in folder mode, the file followed, not the folder
            path = Path(self._tailer.status().path)  # type: ignore[attr-defined]
        if path is not None:
            try:
                written = min(path.stat().st_mtime, now)
            except OSError:
                pass
        return min(written, until) if until is not None else written

    def _detect(self, lines: list[str]) -> None:
        name = detect(lines)
        if name is not None:
            self._use_format(name)

    def _source(self) -> SourceView:
        bad = self._bad_lines_before + (self._parser.bad_lines if self._parser is not None else 0)
        path = str(self.log_path) if self.log_path is not None else None
        size: int | None = None
        problem: str | None = None
        skipped: dict[str, int] = {}
        following: Following | None = None
        tailer = self._tailer
        if tailer is not None:
            status = tailer.status()  # type: ignore[attr-defined]
            path, size, problem = status.path, status.size_bytes, status.problem
            following = status.following
            skipped = {
                "invalid_utf8_lines": status.invalid_utf8_lines,
                "long_lines_cut": status.long_lines_cut,
                "truncations": status.truncations,
                "rotations": status.rotations,
            }
        elif self.log_path is not None:
            try:
                size = self.log_path.stat().st_size
            except OSError:
                size = None
            counts = self._once_counts
            if counts is not None:  # --once: what reading the tail skipped; nothing restarted
                following = self._once_following
                skipped = {
                    "invalid_utf8_lines": counts.invalid_utf8_lines,
                    "long_lines_cut": counts.long_lines_cut,
                    "truncations": 0,
                    "rotations": 0,
                }
        if problem is None and self._lines_read:
            if self._parser is None and self._tracker.has_records:
                problem = f"{self._lines_read} lines read, none in a format tokwatch reads"
            elif self._parser is not None and not self._tracker.has_records:
                noun = FORMAT_NOUNS.get(self._parser.name, f"a {self._parser.name} log")
                problem = f"{self._lines_read} lines read, none looks like {noun}"
        return SourceView(
            path=path,
            size_bytes=size,
            lines_read=self._lines_read,
            bad_lines=bad,
            last_event_at=self._tracker.clock,
            problem=problem,
            demo=self.demo,
            skipped=skipped,
            following=None if following is None else FollowingView(
                path=following.path,
                reason=following.reason,
                ignored=following.ignored,
                ignored_total=following.ignored_total,
                text=following.text,
            ),
        )
