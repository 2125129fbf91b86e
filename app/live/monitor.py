"""The live pipeline: tailer → parser → tracker, behind one lock, with change notification.

This is the one impure piece between the log and the viewers: it owns the tailer thread,
knows the wall clock, picks the parser and the one tracker for the log's format, and wakes
whoever waits for a new snapshot.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..changes import Changes
from ..ingest.folder import Following
from ..ingest.formats import FORMAT_NOUNS, STEP_FORMATS, create_parser, detect, kind_of, renewed
from ..ingest.formats.base import LogParser
from ..ingest.formats.crash import CrashAware
from ..ingest.formats.detect import FormatWatch, family, log_kind
from ..snapshot import FollowingView, Snapshot, SourceView
from ..stats.events import (
    EvalResult,
    Event,
    ForwardPass,
    SourceChange,
    SourceChanged,
    StepFigures,
    TrainStep,
)
from ..stats.iota.report import queue_report
from ..stats.iota.tracker import IotaTracker
from ..stats.kinds import tracker_for
from ..stats.steps.report import swarm_report
from ..stats.steps.tracker import StepTracker
from ..stats.tracker import Tracker
from ..stats.unknown import UnknownTracker
from .backlog import (
    BACKLOG_SECONDS,
    FIRST_VIEW_SECONDS,
    HEAD_BYTES,
    STEP_SAMPLE_BYTES,
    Reach,
    before,
    head_facts,
    step_bytes_needed,
)

if TYPE_CHECKING:
    from ..ingest.lines import LineCounters

log = logging.getLogger(__name__)

# Lines kept to sniff the format of a log that starts empty.
DETECT_LINES = 2000


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
        # Bumped on every change of the figures: what viewers, alerts and the agent wait on.
        self.changes = Changes()
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
        # A step trainer's logged losses and evaluations, for the same recorder (see take_logged).
        self._logged: deque[Event] | None = None
        self._keep_backlog_lines = False
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
        from ..ingest.backwards import path_head, read_backwards
        from ..ingest.lines import LineCounters
        from ..ingest.reader import QUIET_TAIL_SECONDS

        counts = LineCounters()
        with self._lock:
            self._once_following, self._once_counts = following, counts
        try:
            quiet = self.clock() - path.stat().st_mtime >= QUIET_TAIL_SECONDS
        except OSError:
            quiet = False
        # A last line without its newline, the file quiet: the run's last line (the tailer's rule).
        self.backlog(read_backwards(path, stats=counts, unfinished=quiet), functools.partial(path_head, path), until,
                     first_view_only=True)

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

    def backlog(
        self,
        chunks: Iterator[list[str]],
        head: Callable[[int], list[str]] | None = None,
        until: float | None = None,
        *,
        first_view_only: bool = False,
    ) -> None:
        """Read back from the end only as far as the figures need, then apply it in order.

        ``head(max_bytes)``: the log's first lines, read when the backlog stops short of them for
        what a step trainer prints only at its start (its total steps, its tokens per step).
        ``until``: ignore what the log says after this time (``--once --at`` in the past).
        A step log's newest lines are shown first (the rate window's span), then the hour of
        history is filled in behind; ``first_view_only``: stop after the first.
        """
        taken: list[tuple[list[Event], int, list[str]]] = []
        newest_parser: LogParser | None = None  # it read the end of the log: the live one goes on from it
        reach = Reach()
        more_bytes: int | None = None  # a step log: how much more to read back
        first_view_bytes: int | None = None  # and how much of it the first view takes
        # A year-less timestamp (hivemind) takes its year from when the log was last written.
        written = self._last_written(self.clock(), until)
        format_name: str | None = None
        start: tuple[list[str], list[Event]] = ([], [])  # what a step log's start says of its run
        glance: list[Event] | None = None  # its newest lines' events, shown before the first view
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
                    self._note_unrecognised(chunk)
                break
            if more_bytes is not None:
                # A step log: its lines are parsed once, in order (_apply_backlog).
                more_bytes = self._take_newest(chunk, more_bytes, taken)
                if more_bytes <= 0:
                    break
                continue
            scratch = create_parser(format_name)
            scratch.reference_time = written
            if format_name in STEP_FORMATS and newest_parser is None:
                # The newest lines give the log's pace (by their times, or by the durations an
                # undated trainer prints): how many bytes of it the backlog's span takes. Only
                # what the step tracker needs is read back, and parsed once (_apply_backlog).
                if head is not None:
                    start = head_facts(format_name, head(HEAD_BYTES), written)
                    scratch.feed(start[0])
                sample = _newest_lines(chunk, STEP_SAMPLE_BYTES)
                events = scratch.feed(sample)
                dated = any(event.at is not None for event in events)
                if not dated or until is None:
                    first_view_bytes = step_bytes_needed(events, sample, FIRST_VIEW_SECONDS)
                    needed = first_view_bytes if first_view_only else step_bytes_needed(events, sample, BACKLOG_SECONDS)
                    if not first_view_only:
                        # Already parsed: the latest step, its loss and a rate over these minutes
                        # are on the page at once, the first view's fuller window a moment later.
                        glance = before(events, until) if until is not None else events
                    more_bytes = self._take_newest(chunk, needed, taken)
                    if more_bytes <= 0:
                        break
                    continue
                # A dated log cut at --at: read back by time to the moment asked for.
                scratch = create_parser(format_name)
                scratch.reference_time = written
            events = scratch.feed(chunk)
            # A chunk wholly after --at still has dated lines: it is not an undated log.
            dated = any(event.at is not None for event in events)
            if until is not None:
                events = before(events, until)
            # Only a step trainer's lines are read again (see _apply_backlog); an IOTA backlog
            # keeps just its events, not an hour of text until the last chunk is in.
            taken.append((events, scratch.bad_lines, chunk if format_name in STEP_FORMATS else []))
            if newest_parser is None:
                newest_parser = scratch
            with self._lock:
                self._lines_read += len(chunk)
            if reach.enough(events, chunk, dated, miner=format_name not in STEP_FORMATS):
                break
        else:
            # The log was read back to its first line: its start is in what was read, and a short
            # log's first view comes as soon as a glance would.
            start, glance = ([], []), None
        self._apply_backlog(taken, newest_parser, until, None if first_view_only else first_view_bytes, start, glance)

    def _take_newest(self, chunk: list[str], needed: int, taken: list[tuple[list[Event], int, list[str]]]) -> int:
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
        start: tuple[list[str], list[Event]] = ([], []),
        glance: list[Event] | None = None,
    ) -> None:
        """Apply the chunks read back (newest first in ``taken``) in log order.

        ``first_view_bytes``: a step log's newest bytes to show first, before the rest;
        ``start``: the lines at its start that say what the run is, and what they say (see
        :func:`head_facts`), read before them; ``glance``: its newest lines' events, already
        parsed, to show before the first view.
        """
        with self._lock:
            now = self.clock()
            if self._tracker.format_name in STEP_FORMATS and self._parser is not None:
                # A step trainer's parser carries state across lines (a record wrapped over two
                # chunks, HF's progress bar, RL's tokens per step): read the backlog again, in
                # order, with the live parser, which then goes on from where the log ends.
                in_order = [line for _, _, chunk in reversed(taken) for line in chunk]
                first = _newest_lines(in_order, first_view_bytes) if first_view_bytes is not None else in_order
                name = self._parser.name
                if glance is not None:
                    self._tracker.apply_all(start[1], now)
                    self._tracker.apply_all(glance, now, arrival=self._last_written(now, until))
                    self.changes.bump()  # the latest step, loss and a rate are on the page now
                    has_records = self._tracker.has_records
                else:
                    events = self._apply_steps(self._parser, self._tracker, first, now, until, start)
                    if len(first) == len(in_order):
                        self._keep_backlog(events)
                        self.changes.bump()
                        return
                    self.changes.bump()  # the latest step, loss, rate and ETA are on the page now
                    has_records = self._tracker.has_records
                    first = in_order
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
                self.changes.bump()
                return
        # The first view after a glance, then the hour behind it, each read whole on a parser and
        # tracker of their own (no live line comes in meanwhile: this is the tailer's thread),
        # then swapped in.
        phases = [first, in_order] if len(first) < len(in_order) else [in_order]
        for lines in phases:
            parser = create_parser(name)
            tracker = tracker_for(kind_of(name), name)
            tracker.has_records = has_records
            events = self._apply_steps(parser, tracker, lines, now, until, start)
            with self._lock:
                self._parser, self._tracker = parser, tracker
                if lines is phases[-1]:
                    self._keep_backlog(events)
                self.changes.bump()

    def _apply_steps(
        self,
        parser: LogParser,
        tracker: Tracker,
        lines: list[str],
        now: float,
        until: float | None,
        start: tuple[list[str], list[Event]] = ([], []),
    ) -> list[Event]:
        """Read a step log's lines in order and apply them, placed back in time from when the log
        was last written; return their events. ``start``: the lines at the log's start that say
        what the run is, read first (their own events are ``start``'s facts), and those facts."""
        parser.reference_time = self._last_written(now, until)
        start_lines, facts = start
        if start_lines:
            parser.feed(start_lines)
        tracker.apply_all(facts, now)
        events = parser.feed(lines)
        if until is not None:
            events = before(events, until)
        tracker.apply_all(events, now, arrival=self._last_written(now, until))
        return events

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
                    self._note_unrecognised(pending)
                    self.changes.bump()
                    return
                lines, self._undetected = pending, []
            earlier: list[Event] = []
            if self._watch is not None:
                replay = self._watch.see(lines)
                if replay is not None and self._watch.current is not None:
                    log.info("log switched to format %s", self._watch.current)
                    earlier, lines = self._switch(self._watch.current, lines, replay)
            assert self._parser is not None
            now = self.clock()
            self._parser.reference_time = now
            events = earlier + self._parser.feed(lines)
            self._tracker.apply_all(events, now, arrival=now)
            self._keep_passes(events)
            self.changes.bump()

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
                self._parser = renewed(self._parser)
            name = reason.removeprefix("switched to ") if change == "switched" else None
            self._tracker.apply_all([SourceChanged(None, change, name)])
            self._tracker.begin_stream(repeats=repeats)
            self.changes.bump()

    # --- readers --------------------------------------------------------------

    def last_event_at(self) -> float | None:
        """The newest log time seen, or None."""
        with self._lock:
            return self._tracker.clock

    def snapshot(self, now: float | None = None) -> Snapshot:
        """The log's figures at ``now`` (default: the wall clock); app.live.feed adds the other sections."""
        with self._lock:
            when = self.clock() if now is None else now
            return self._tracker.snapshot(when, self._source())

    def keep_passes(self, limit: int = 100_000, *, backlog: bool = False) -> None:
        """Start keeping the passes the tracker is given (time, activation id) for :meth:`take_passes`,
        and a step trainer's logged lines for :meth:`take_logged`; ``backlog``: those of the log's
        backlog too (no history imports them: they are all there is of the run)."""
        with self._lock:
            if self._passes is None:
                self._passes = deque(maxlen=limit)
                self._logged = deque(maxlen=limit)
            self._keep_backlog_lines = backlog

    def take_passes(self) -> list[tuple[float, str]]:
        """The passes seen since the last call (a re-read log repeats some: their ids tell)."""
        with self._lock:
            if not self._passes:
                return []
            taken = list(self._passes)
            self._passes.clear()
            return taken

    def take_logged(self) -> list[Event]:
        """The step lines, loss lines and evaluations seen since the last call."""
        with self._lock:
            if not self._logged:
                return []
            taken = list(self._logged)
            self._logged.clear()
            return taken

    def queue_report(self, now: float | None = None) -> str:
        """The plain-text queue report at ``now`` (default: the wall clock)."""
        with self._lock:
            when = self.clock() if now is None else now
            tracker = self._tracker
            snapshot = tracker.snapshot(when, self._source())
            if isinstance(tracker, IotaTracker):
                return queue_report(snapshot, tracker.queue, tracker.first_at, when)
            return queue_report(snapshot, None, None, when) + swarm_report(snapshot, when)

    # --- internals ------------------------------------------------------------

    def _keep_backlog(self, events: list[Event]) -> None:
        if self._keep_backlog_lines and self._logged is not None:
            self._logged.extend(e for e in events if isinstance(e, (TrainStep, StepFigures, EvalResult)))

    def _keep_passes(self, events: list[Event]) -> None:
        kept = self._passes
        if kept is not None:
            kept.extend((e.at, e.activation_id) for e in events if isinstance(e, ForwardPass) and e.at is not None)
        if self._logged is not None:
            self._logged.extend(e for e in events if isinstance(e, (TrainStep, StepFigures, EvalResult)))

    def _bump(self) -> None:
        self.changes.bump()

    def _switch(self, name: str, lines: list[str], replay: list[str]) -> tuple[list[Event], list[str]]:
        """Move to format ``name``, whose lines begin ``replay``: the events of the replayed lines the
        old parser already read, and the lines the new one reads next.

        Nothing counted is lost, nor counted twice: the batch's lines before the new format's are
        the old parser's; between step trainers the run's health (crash, fp16 overflows, reported
        errors) and the crash watch carry over, so a replayed line read before is read again for
        its steps only.
        """
        assert self._parser is not None
        now = self.clock()
        head = lines[: max(0, len(lines) - len(replay))]
        if head:
            self._parser.reference_time = now
            events = self._parser.feed(head)
            self._tracker.apply_all(events, now, arrival=now)
            self._keep_passes(events)
        read = len(replay) - (len(lines) - len(head))  # replayed lines read before this batch
        before, before_tracker = self._parser, self._tracker
        self._bad_lines_before += before.bad_lines
        self._use_format(name)
        after, tracker = self._parser, self._tracker
        if not (isinstance(before, CrashAware) and isinstance(after, CrashAware)
                and isinstance(before_tracker, StepTracker) and isinstance(tracker, StepTracker)):  # fmt: skip
            return [], replay
        after.continue_watch(before)
        tracker.progress.carry_health(before_tracker.progress)
        after.reference_time = now
        return (after.read_again(replay[:read]) if read > 0 else []), replay[read:]

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

    def _note_unrecognised(self, lines: list[str]) -> None:
        """Hand the unrecognised log's next step to its tracker: the formats read, its first lines."""
        if isinstance(self._tracker, UnknownTracker) and not self._tracker.first_lines:
            self._tracker.formats_read = tuple(FORMAT_NOUNS)
            self._tracker.first_lines = tuple(lines[:DETECT_LINES])

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
                problem = f"{self._lines_read} lines read, none looks like {noun}; without --format, tokwatch tries every format"
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
