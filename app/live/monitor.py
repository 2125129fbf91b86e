"""The live pipeline: tailer → parser → tracker, behind one lock, with change notification.

This is the one impure piece between the log and the viewers: it owns the tailer thread,
knows the wall clock, picks the parser and the one tracker for the log's format, and wakes
whoever waits for a new snapshot. Its jobs: the lifecycle, new lines, the switch to another
format, and the snapshot's ``source``; the cold start is :mod:`app.live.backlog`'s, and what the
history's recorder takes is kept in :mod:`app.live.kept`.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..changes import Changes
from ..ingest.files import stat_or_none
from ..ingest.folder import Following
from ..ingest.formats import FORMAT_NOUNS, create_parser, detect, kind_of, renewed
from ..ingest.formats.base import LogParser
from ..ingest.formats.crash import CrashAware
from ..ingest.formats.detect import FormatWatch, family, log_kind
from ..ingest.formats.prefix import newest_time
from ..snapshot import FollowingView, Snapshot, SourceView
from ..stats.events import Event, SourceChange, SourceChanged
from ..stats.iota.queue import QueueTracker
from ..stats.iota.report import queue_report
from ..stats.iota.tracker import IotaTracker
from ..stats.kinds import is_step_tracker, tracker_for
from ..stats.tracker import Tracker
from ..stats.unknown import UnknownTracker
from .backlog import MinerBacklog, cold_start
from .kept import Kept

if TYPE_CHECKING:
    from ..ingest.lines import LineCounters
    from ..ingest.sleeplog import SleepWatch
    from ..ingest.tailer import Tailer
    from .shell import ShellLog

log = logging.getLogger(__name__)

# Lines kept to sniff the format of a log that starts empty.
DETECT_LINES = 2000


def source_change(reason: str) -> SourceChange:
    """The tracker's word for the tailer's restart reason (``switched to <name>`` in folder mode)."""
    if reason == "truncated":
        return "truncated"
    if reason.startswith("switched"):
        return "switched"
    return "replaced"


@runtime_checkable
class KeepsQueue(Protocol):
    """A tracker that follows a registration queue (the miner's), for the queue report."""

    queue: QueueTracker

    @property
    def first_at(self) -> float | None:
        """The oldest log time read."""
        ...


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
        self.lock = threading.Lock()
        # Bumped on every change of the figures: what viewers, alerts and the agent wait on.
        self.changes = Changes()
        self.parser: LogParser | None = None
        self.tracker: Tracker = tracker_for(None, None)
        self._undetected: list[str] = []
        # --format auto: notices a new stage printed by another trainer.
        self._watch: FormatWatch | None = None
        self.lines_read = 0
        self.bad_lines_before = 0  # from parsers already replaced
        self.dated_end = False  # see app.live.backlog.Live
        self._tailer: Tailer | None = None
        # Passes and logged lines seen, for the history's recorder when one is attached.
        self.kept = Kept()
        # What is said about the source when no tailer follows it (``--once``).
        self._once_following: Following | None = None
        self._once_counts: LineCounters | None = None
        # The app's shell log beside the miner's (app/live/shell.py), when one is attached.
        self.shell: ShellLog | None = None
        # When this machine slept (app/ingest/sleeplog.py), asked only when a silence needs explaining.
        self.sleep: SleepWatch | None = None
        # Set once the log's cold start is applied (or its first lines came with none to read back).
        self._read_in = threading.Event()
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
        with self.lock:
            self._once_following, self._once_counts = following, counts
        st = stat_or_none(path)
        quiet = st is not None and self.clock() - st.st_mtime >= QUIET_TAIL_SECONDS
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
        if self.shell is not None:
            self.shell.start()

    def stop(self) -> None:
        """Stop the tailer thread; safe to call twice."""
        tailer = self._tailer
        if tailer is not None:
            tailer.stop()
        if self.shell is not None:
            self.shell.stop()
        if self.sleep is not None:
            self.sleep.stop()

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

        ``head(max_bytes)``: the log's first lines, for what a step trainer prints only at its
        start. ``until``: ignore what the log says after this time (``--once --at`` in the past).
        ``first_view_only``: a step log's first view only (see :class:`StepBacklog`).
        """
        written = self.last_written(self.clock(), until)
        reading: MinerBacklog | None = None
        for chunk in chunks:
            if not chunk:
                continue
            with self.lock:
                if self.parser is None and self.requested_format == "auto":
                    self._detect(chunk)
                format_name = self.tracker.format_name
            if format_name is None:
                # Not recognised yet: keep these lines for detection, read no further back.
                with self.lock:
                    self.lines_read += len(chunk)
                    self._undetected = chunk[-DETECT_LINES:]
                    self.tracker.has_records = True
                    self._note_unrecognised(chunk)
                break
            reading = reading or cold_start(self, format_name, written, until, head, first_view_only=first_view_only)
            if reading.take(chunk):
                break
        else:
            with self.lock:
                format_name = self.tracker.format_name
            if format_name is not None:  # read back to its first line (or --format given, and nothing to read)
                reading = reading or cold_start(self, format_name, written, until, head, first_view_only=first_view_only)
                reading.read_to_start()
        try:
            if reading is None:
                self.changes.bump()
            else:
                reading.apply()
        finally:
            self._read_in.set()

    def wait_read_in(self, timeout: float) -> bool:
        """Wait until the log's cold start is done (its backlog applied, or new lines read with
        none); False after ``timeout`` seconds without."""
        return self._read_in.wait(timeout)

    def lines(self, lines: list[str]) -> None:
        """Parse new lines and wake the viewers."""
        if not lines:
            return
        with self.lock:
            self.lines_read += len(lines)
            if self.parser is None:
                # Sniff what was kept plus this whole batch; once recognised, parse all of it
                # (a first batch can be thousands of lines: none may be counted but unparsed).
                pending = self._undetected + lines
                if self.requested_format == "auto":
                    self._detect(pending)
                if self.parser is None:
                    self._undetected = pending[-DETECT_LINES:]
                    self.tracker.has_records = True
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
            assert self.parser is not None
            now = self.clock()
            self.parser.reference_time = now
            events = earlier + self.parser.feed(lines)
            self.tracker.apply_all(events, now, arrival=now)
            self.kept.add(events)
            self.changes.bump()
        self._read_in.set()

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
        with self.lock:
            if self.parser is not None:
                self.bad_lines_before += self.parser.bad_lines
                self.parser = renewed(self.parser)
            name = reason.removeprefix("switched to ") if change == "switched" else None
            self.tracker.apply_all([SourceChanged(None, change, name)])
            self.tracker.begin_stream(repeats=repeats)
            self.changes.bump()

    # --- readers --------------------------------------------------------------

    def last_event_at(self) -> float | None:
        """The newest log time seen, or None."""
        with self.lock:
            return self.tracker.clock

    def snapshot(self, now: float | None = None) -> Snapshot:
        """The log's figures at ``now`` (default: the wall clock); app.live.feed adds the other sections."""
        with self.lock:
            when = self.clock() if now is None else now
            self._lend_shell()
            return self.tracker.snapshot(when, self._source())

    def keep_passes(self, limit: int = 100_000, *, backlog: bool = False) -> None:
        """Start keeping the passes the tracker is given (time, activation id) for :meth:`take_passes`,
        and a step trainer's logged lines for :meth:`take_logged`; ``backlog``: those of the log's
        backlog too (no history imports them: they are all there is of the run)."""
        with self.lock:
            self.kept.start(limit, backlog=backlog)

    def take_passes(self) -> list[tuple[float, str]]:
        """The passes seen since the last call (a re-read log repeats some: their ids tell)."""
        with self.lock:
            return self.kept.take_passes()

    def take_logged(self) -> list[Event]:
        """The step lines, loss lines and evaluations seen since the last call."""
        with self.lock:
            return self.kept.take_logged()

    def queue_report(self, now: float | None = None) -> str:
        """The plain-text queue report at ``now`` (default: the wall clock)."""
        with self.lock:
            when = self.clock() if now is None else now
            self._lend_shell()
            tracker = self.tracker
            snapshot = tracker.snapshot(when, self._source())
            if isinstance(tracker, KeepsQueue):
                return queue_report(snapshot, tracker.queue, tracker.first_at, when)
            from ..stats.steps.report import swarm_report  # a step trainer's: a miner's server never loads it

            return queue_report(snapshot, None, None, when) + swarm_report(snapshot, when)

    # --- internals ------------------------------------------------------------

    def _lend_shell(self) -> None:
        """Hand the miner's tracker what the app's shell log and the machine's sleep records say now."""
        tracker = self.tracker
        if not isinstance(tracker, IotaTracker):
            return
        if self.shell is not None:
            tracker.shell = self.shell.figures()
        sleep = self.sleep
        if sleep is not None:
            if tracker.needs_sleep_records(self.clock()):
                sleep.explain()  # rare: a silence to explain, and not asked lately
            tracker.sleeps = sleep.spans()

    def _switch(self, name: str, lines: list[str], replay: list[str]) -> tuple[list[Event], list[str]]:
        """Move to format ``name``, whose lines begin ``replay``: the events of the replayed lines the
        old parser already read, and the lines the new one reads next.

        Nothing counted is lost, nor counted twice: the batch's lines before the new format's are
        the old parser's; between step trainers the run's health (crash, fp16 overflows, reported
        errors) and the crash watch carry over, so a replayed line read before is read again for
        its steps only.
        """
        assert self.parser is not None
        now = self.clock()
        head = lines[: max(0, len(lines) - len(replay))]
        if head:
            self.parser.reference_time = now
            events = self.parser.feed(head)
            self.tracker.apply_all(events, now, arrival=now)
            self.kept.add(events)
        read = len(replay) - (len(lines) - len(head))  # replayed lines read before this batch
        before, before_tracker = self.parser, self.tracker
        self.bad_lines_before += before.bad_lines
        self._use_format(name)
        after, tracker = self.parser, self.tracker
        if not (isinstance(before, CrashAware) and isinstance(after, CrashAware)
                and is_step_tracker(before_tracker) and is_step_tracker(tracker)):  # fmt: skip
            return [], replay
        after.continue_watch(before)
        tracker.progress.carry_health(before_tracker.progress)
        after.reference_time = now
        return (after.read_again(replay[:read]) if read > 0 else []), replay[read:]

    def _use_format(self, name: str) -> None:
        self.parser = create_parser(name)
        if self.requested_format == "auto":
            self._watch = FormatWatch(name)
        has_records = self.tracker.has_records
        self.tracker = tracker_for(kind_of(name), name)
        self.tracker.has_records = has_records

    def last_written(self, now: float, until: float | None) -> float:
        """When the log's last line was written: its modification time (never after ``now``)."""
        if self._tailer is not None:  # the file followed (in folder mode, not the folder), as opened
            modified = self._tailer.status().modified_at
        else:
            st = stat_or_none(self.log_path)
            modified = None if st is None else st.st_mtime
        written = now if modified is None else min(modified, now)
        return min(written, until) if until is not None else written

    def _note_unrecognised(self, lines: list[str]) -> None:
        """Hand the unrecognised log's next step to its tracker: the formats read, its first lines."""
        if isinstance(self.tracker, UnknownTracker) and not self.tracker.first_lines:
            self.tracker.formats_read = tuple(FORMAT_NOUNS)
            self.tracker.first_lines = tuple(lines[:DETECT_LINES])
        if isinstance(self.tracker, UnknownTracker):
            from .shell import shell_log_verdict

            self.tracker.shell_log, self.tracker.shell_last = shell_log_verdict(lines, self.tracker.shell_log)
            at = newest_time(lines[-DETECT_LINES:])
            if at is not None and (self.tracker.lines_at is None or at > self.tracker.lines_at):
                self.tracker.lines_at = at

    def _detect(self, lines: list[str]) -> None:
        name = detect(lines)
        if name is not None:
            self._use_format(name)

    def _source(self) -> SourceView:
        bad = self.bad_lines_before + (self.parser.bad_lines if self.parser is not None else 0)
        path = str(self.log_path) if self.log_path is not None else None
        problem: str | None = None
        following: Following | None = None
        invalid = cut = truncations = rotations = 0
        once = self._once_counts if self.log_path is not None else None
        if self._tailer is not None:
            status = self._tailer.status()
            path, size, problem, following = status.path, status.size_bytes, status.problem, status.following
            invalid, cut = status.invalid_utf8_lines, status.long_lines_cut
            truncations, rotations = status.truncations, status.rotations
        else:
            st = stat_or_none(self.log_path)
            size = None if st is None else st.st_size
            if once is not None:  # --once: what reading the tail skipped; nothing restarted
                following = self._once_following
                invalid, cut = once.invalid_utf8_lines, once.long_lines_cut
        read = self._tailer is not None or once is not None
        skipped = {"invalid_utf8_lines": invalid, "long_lines_cut": cut, "truncations": truncations,
                   "rotations": rotations} if read else {}  # fmt: skip
        if problem is None and self.lines_read:
            shell_log = isinstance(self.tracker, UnknownTracker) and self.tracker.shell_log
            if self.parser is None and self.tracker.has_records and not shell_log:  # a shell log says what it is
                problem = f"{self.lines_read} lines read, none in a format tokwatch reads"
            elif self.parser is not None and not self.tracker.has_records:
                noun = FORMAT_NOUNS.get(self.parser.name, f"a {self.parser.name} log")
                problem = f"{self.lines_read} lines read, none looks like {noun}; without --format, tokwatch tries every format"
        return SourceView(
            path=path,
            size_bytes=size,
            lines_read=self.lines_read,
            bad_lines=bad,
            last_event_at=self.tracker.clock,
            problem=problem,
            demo=self.demo,
            skipped=skipped,
            following=None if following is None else FollowingView(**asdict(following), text=following.text),
        )
