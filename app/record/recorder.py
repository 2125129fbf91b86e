"""The history's live feed: every 30 s the monitor's snapshot and new passes go to the store's writer,
and the store's figures ("vs your usual", "today") make the live snapshot's history section.

Wiring, not stats: the trackers stay pure and the store never sees them. Nothing here runs in
the tailer's path or a request's: ``observe`` runs on the recorder's own thread and only queues,
``decorate`` reads figures the store caches for 30 s.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from ..changes import ChangeSource
from ..config import host_name
from ..ingest.folder import source_key_path
from ..ingest.formats import kind_of
from ..snapshot import Snapshot, TodayView, UsualView
from ..stats.events import Event
from ..store import RANGES, EventRow, History, Observation, PassFact, SourceKey, queries
from ..store.happened import what_happened
from ..supervise import supervised
from ..text import compact, path_text
from .backfill import ImportProgress, files_to_import, import_logs
from .encode import chart_json
from .logged import LoggedSteps
from .memory import RunMemory
from .preview import covers, sample_losses, sampled_steps

log = logging.getLogger(__name__)

OBSERVE_SECONDS = 30.0
FIRST_OBSERVE_SECONDS = 3.0
HAPPENED_SECONDS = 86400.0  # "What happened" covers the last day
TAKE_OVER_SECONDS = 5.0  # how often a reading tokwatch tries the data dir's lock
WHOLE_RUN_RANGE = "30d"  # a step trainer's longest range: the page opens on its whole run
SAMPLE_WAIT_SECONDS = 0.2  # the sampler looks for the first view at each change, and at least this often
SAMPLE_WAIT_LIMIT = 120.0  # and for how long: a log with no step in its tail is not sampled
ADVANCE_SECONDS = 1.0  # while the import runs, how often its writes may move the history's revision
# The import waits for the live view's cold start (its peak of memory) to be over, at most this long
# (a log not there yet has no cold start).
READ_IN_WAIT_SECONDS = 30.0


class PassSource(Protocol):
    """What the recorder needs of the monitor."""

    @property
    def changes(self) -> ChangeSource:
        """Bumped when the log's figures move (its first view among them)."""

    def snapshot(self, now: float | None = None) -> Snapshot: ...

    def take_passes(self) -> list[tuple[float, str]]: ...

    def take_logged(self) -> list[Event]: ...

    def wait_read_in(self, timeout: float) -> bool: ...


def machine_name() -> str:
    """This machine's name when none is given: the default of ``--name`` (the host name up to its first dot)."""
    return host_name()


# States where the rate is not a pace to compare: the line gives the usual figure alone.
QUIET_STATES = ("idle", "silent")
# A share of time needs time to share: below this much observed today, it says nothing.
SHARE_MIN_SECONDS = 600.0


def usual_line(layer: int | None, delta_percent: float | None, usual_tokens_per_hour: float = 0.0) -> str:
    """``vs your usual on L1: −18 %``; ``usual 772k on L1`` when there is no pace to compare (None)."""
    where = f" on L{layer}" if layer is not None else ""
    if delta_percent is None:
        return f"usual {compact(usual_tokens_per_hour)}{where}"
    rounded = round(delta_percent)
    sign = "±" if rounded == 0 else ("+" if rounded > 0 else "\u2212")
    return f"vs your usual{where}: {sign}{abs(rounded)} %"


def today_line(today: TodayView, kind: str, counts_tokens: bool = True) -> str | None:
    """``today: 8.1M tokens · 2,530 passes · training 87 % of the time``; a step trainer's
    ``today: 4,000 steps`` (with its tokens when its log counts them); None with nothing today.

    The share only once there is time to share and some of it was training (not while measuring).
    """
    if not today.tokens and not today.passes:
        return None
    if kind == "steps":
        # Only what the log supports: no tokens without token counts, and no share of time
        # training (a trainer's samples say measuring, paused or done as often as training).
        tokens = f"{compact(today.tokens)} tokens · " if counts_tokens and today.tokens > 0 else ""
        return f"today: {tokens}{today.passes:,} {'step' if today.passes == 1 else 'steps'}"
    line = f"today: {compact(today.tokens)} tokens · {today.passes:,} passes"
    if today.training_seconds > 0 and today.observed_seconds >= SHARE_MIN_SECONDS:
        line += f" · training {round(today.training_seconds / today.observed_seconds * 100)} % of the time"
    return line


def totals_line(totals: dict[str, Any], kind: str) -> str | None:
    """``since 2026-11-23: 52M tokens · 25,000 passes``, or None before the first record."""
    if not totals or totals.get("since") is None:
        return None
    one, many = ("step", "steps") if kind == "steps" else ("pass", "passes")
    unit = one if totals["passes"] == 1 else many
    day = time.strftime("%Y-%m-%d", time.localtime(totals["since"]))
    return f"since {day}: {compact(totals['tokens'])} tokens · {totals['passes']:,} {unit}"


def _totals(conn: sqlite3.Connection, source: SourceKey) -> dict[str, Any]:
    sid = queries.find_source(conn, source)
    return queries.totals(conn, sid, source.kind) if sid is not None else {}


class Recorder:
    """Feeds one log's history and decorates its snapshots; ``history`` may be off (``--no-history``)."""

    def __init__(
        self,
        history: History,
        log_path: Path | None,
        *,
        format_name: str = "auto",
        machine: str | None = None,  # tokwatch's name for this machine (Config.name, --name)
        clock: Callable[[], float] = time.time,
        observe_seconds: float = OBSERVE_SECONDS,
        import_siblings: bool = True,
    ) -> None:
        self.history = history
        self.log_path = log_path
        self.format_name = format_name
        self.clock = clock
        self.observe_seconds = observe_seconds
        self.import_siblings = import_siblings
        key = path_text(source_key_path(log_path).resolve()) if log_path is not None else "demo"
        self._source = SourceKey(machine or machine_name(), key, "miner")
        self._monitor: PassSource | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._pending_events: list[EventRow] = []
        self._last_path: str | None = None
        self.progress: ImportProgress | None = None
        # The last body built for each range, with the key it was built for: a stale one is let go
        # when its range's next is built, not kept for weeks beside it.
        self._bodies: dict[str, tuple[tuple[object, ...], str]] = {}
        self._bodies_lock = threading.Lock()
        self._logged = LoggedSteps()
        self._memory = RunMemory()  # a step trainer's losses, read here when no history keeps them
        self._sampled: dict[str, Any] | None = None  # its whole run sampled, until the import has it
        self._sample_lock = threading.Lock()
        self._sample_tried = False  # sampled, or found to be no step log: once either way
        self._served_unsampled = False  # a whole-run answer went out before the sample
        self._revision = 0  # moves when the longer ranges have more to show (a sample, the import's writes)
        self._on_advance: Callable[[], None] | None = None

    @property
    def source(self) -> SourceKey:
        """The history's key for this log (its kind follows the format once known)."""
        return self._source

    @property
    def revision(self) -> int:
        """Moves whenever a page's longer range would show more than it did: fetch it again then."""
        return self._revision

    def on_advance(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (the live feed's change) each time :attr:`revision` moves."""
        self._on_advance = callback

    def _advance(self) -> None:
        self._revision += 1
        if self._on_advance is not None:
            self._on_advance()

    # --- lifecycle ----------------------------------------------------------------

    def start(self, monitor: PassSource) -> None:
        """Open the history, mark the start on the timeline, then observe every 30 s and import older logs."""
        self._monitor = monitor
        self.history.start()
        mode = self.history.status().mode
        if mode in ("writing", "opening"):
            self._begin()
        elif mode == "read_only":
            # Another tokwatch keeps this data dir: read it, and keep it once that one stops.
            self._spawn(self._take_over_loop, "history-take-over")

    def _begin(self) -> None:
        self._pending_events.append(EventRow(self.clock(), "restart", "tokwatch started"))
        self._spawn(self._observe_loop, "history-observer")
        if self.import_siblings and self.log_path is not None:
            self.progress = ImportProgress()
            self._spawn(self._import, "history-import")
            self._spawn(self._sample, "history-sample")
            self._spawn(self._watch_import, "history-advance")

    def _take_over_loop(self) -> None:
        while not self._stop.wait(TAKE_OVER_SECONDS):
            if self.history.take_over():
                self._begin()
                return

    def stop(self) -> None:
        """Write a last observation, stop the threads and close the history."""
        self._stop.set()
        for thread in self._threads:
            thread.join(10)
        self._threads.clear()
        if self._monitor is not None and self.history.status().mode == "writing":
            self.observe()
        self.history.stop()

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=supervised(name, target, self._stop.is_set), name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _observe_loop(self) -> None:
        # The first soon (the backlog's hour and the restart mark), then every 30 s.
        wait = min(FIRST_OBSERVE_SECONDS, self.observe_seconds)
        while not self._stop.wait(wait):
            wait = self.observe_seconds
            try:
                self.observe()
            except Exception:
                log.exception("history: observation failed")

    def _import(self) -> None:
        monitor = self._monitor
        assert self.log_path is not None and self.progress is not None and monitor is not None
        # Not beside the cold start: the child's memory on top of the cold start's peak is the
        # process tree's peak, and the page's first view comes first on a busy machine anyway.
        waited = 0.0
        while not monitor.wait_read_in(SAMPLE_WAIT_SECONDS):
            waited += SAMPLE_WAIT_SECONDS
            if self._stop.is_set():
                return
            if waited >= READ_IN_WAIT_SECONDS:
                break
        try:
            files = files_to_import(self.log_path, self.clock(), self.format_name)
            import_logs(files, self.history, self._source, format_name=self.format_name, clock=self.clock,
                        stop=self._stop, progress=self.progress, in_child=True)
        except Exception as e:
            log.exception("history import failed")
            self.progress.problem = f"import of older logs failed: {e}"
            self.progress.done = True

    def _sample(self) -> None:
        """A step trainer's whole run, sampled for the chart while the import reads it all
        (app/record/preview.py); after the page has its first view, which comes first."""
        monitor, progress = self._monitor, self.progress
        assert monitor is not None and progress is not None
        began = time.monotonic()
        seen = monitor.changes.version
        while not self._sample_once():
            # Woken by the monitor's next change (the first view), so the sample is under way while
            # the page is still loading; the timeout only bounds how long a stop goes unseen.
            seen = monitor.changes.wait_for_change(seen, SAMPLE_WAIT_SECONDS)
            if progress.done or self._stop.is_set() or time.monotonic() - began >= SAMPLE_WAIT_LIMIT:
                return

    def _sample_once(self) -> bool:
        """Sample the run once its first view is known; False while it is not (ask again later).

        Called by the sampler's thread and by the page's first ask for the whole run, whichever
        comes first: a page asking before the sampler's next look gets the sample in that answer,
        not an empty chart and a second round trip after the push."""
        monitor = self._monitor
        assert monitor is not None
        with self._sample_lock:
            if self._sample_tried:
                return True
            snap = monitor.snapshot(self.clock())
            logged = snap.training is not None and snap.training.logged_records is not None
            if snap.format is None or (snap.step is None and not logged and kind_of(snap.format) == "steps"):
                return False
            self._sample_tried = True
            if kind_of(snap.format) != "steps" or not snap.source.path:
                return True
            try:
                sampled = sampled_steps(sample_losses(Path(snap.source.path), snap.format))
            except OSError as e:
                log.warning("history: cannot sample %s: %s", snap.source.path, e.strerror or e)
                return True
            with self._bodies_lock:
                self._sampled = sampled
        if self._served_unsampled:  # a page holds the run without it: tell it there is more
            self._advance()
        return True

    def _watch_import(self) -> None:
        """Move the revision while the import writes (at most once a second) and when it ends, so
        an open page asks for its range again the moment the server has more of the run."""
        progress = self.progress
        assert progress is not None
        seen = self.history.generation
        while not progress.done:
            if self._stop.wait(ADVANCE_SECONDS):
                return
            if self.history.generation != seen:
                seen = self.history.generation
                self._advance()
        self.history.flush(10.0)  # the last batch written, so the page's next ask has the whole run
        self._advance()

    # --- feeding ------------------------------------------------------------------

    def observe(self) -> bool:
        """Queue the monitor's current snapshot and the passes seen since the last call."""
        monitor = self._monitor
        if monitor is None:
            return False
        snap = monitor.snapshot(self.clock())
        passes = monitor.take_passes()
        at = snap.source.last_event_at or self.clock()
        losses, evals = self._logged.feed(monitor.take_logged(), at)
        kind = kind_of(snap.format)
        if kind != self._source.kind:
            self._source = replace(self._source, kind=kind)
        tokens = snap.rate.tokens_per_pass
        path = snap.source.path
        events = self._pending_events
        self._pending_events = []
        if path and self._last_path is not None and path != self._last_path:
            events.append(EventRow(self.clock(), "log_switched", f"now reading {path_text(Path(path).name)}"))
        self._last_path = path or self._last_path
        obs = Observation(
            self._source,
            snapshot=snap,
            passes=tuple(PassFact(at, activation_id, tokens) for at, activation_id in passes),
            evals=tuple(evals),
            events=tuple(events),
            losses=tuple(losses),
        )
        return self.history.submit(obs)

    # --- reading ------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """The history's state for a person and for /healthz: mode, problem, notice, import progress."""
        status = self.history.status()
        importing = None
        progress = self.progress
        if progress is not None and not progress.done:
            importing = {"files_done": progress.files_done, "files_total": progress.files_total,
                         "current": progress.current}
        problem = status.problem or (progress.problem if progress is not None else None)
        return {"mode": status.mode, "problem": problem, "notice": status.notice, "importing": importing,
                "path": status.path, "size_bytes": status.size_bytes}

    def chart_json(self, range_name: str) -> str:
        """``/api/history``'s body: the chart, the source and the history's status.

        A body is kept until the next write or the next bucket, so pages asking again get it at once.
        """
        status = self.status()
        status_view = {k: status[k] for k in ("mode", "problem", "notice", "importing")}
        now = self.history.clock()
        if status["mode"] == "off" and self._monitor is not None and range_name != "1h":
            return self._memory_json(range_name, now, status_view)
        # Until the import has read the run, its whole-run chart is drawn from a sample.
        whole_run_importing = range_name == WHOLE_RUN_RANGE and status["importing"] is not None
        if whole_run_importing and self._sampled is None and self._monitor is not None:
            self._sample_once()  # or waits for the sampler's, when it is under way
        if whole_run_importing and self._sampled is None:
            self._served_unsampled = True  # before the read: a sample taken meanwhile then pushes
        sampled = self._sampled if whole_run_importing else None
        key = (self._source, range_name, int(now) // RANGES[range_name][1], self.history.generation,
               json.dumps(status_view), sampled is not None)
        with self._bodies_lock:
            kept = self._bodies.get(range_name)
            if kept is not None and kept[0] != key:
                del self._bodies[range_name]  # stale: let go before the next is built
                kept = None
        body = kept[1] if kept is not None else None
        if body is None:
            chart = self.history.chart_rows(self._source, range_name, now)
            if sampled is not None and not covers(chart.get("steps"), sampled):
                chart["steps"] = sampled
            chart["source"] = {"machine": self._source.machine, "key": self._source.key, "kind": self._source.kind}
            chart["status"] = status_view
            body = chart_json(chart)
            with self._bodies_lock:
                self._bodies[range_name] = (key, body)
        return body

    def _memory_json(self, range_name: str, now: float, status_view: dict[str, Any]) -> str:
        """No history: the range is empty, but a step trainer's run comes from what this process read."""
        assert self._monitor is not None
        with self._bodies_lock:
            self._memory.take(self._monitor.take_logged(), now)
            steps = self._memory.steps()
        chart = self.history.chart_rows(self._source, range_name, now)
        chart["steps"] = steps
        chart["source"] = {"machine": self._source.machine, "key": self._source.key, "kind": self._source.kind}
        chart["status"] = status_view
        return chart_json(chart)

    def what_happened(self, live: list[dict[str, Any]], now: float) -> dict[str, Any]:
        """``/api/events``: the last 24 h of events, stored and live (``live``: the snapshot's), for a person."""
        stored = self.history.events(self._source, now - HAPPENED_SECONDS, now + 1)
        return {"events": what_happened(stored, live), "from": now - HAPPENED_SECONDS, "as_of": now}

    def totals_line(self) -> str | None:
        """``since 2026-11-23: 52M tokens · 25,000 passes`` for this log, or None before any record."""
        chart = self.history.read(lambda conn: _totals(conn, self._source))
        return totals_line(chart or {}, self._source.kind)

    def decorate(self, snapshot: Snapshot) -> Snapshot:
        """The snapshot with ``usual`` and ``today`` from the history, and their lines in the details."""
        if self.history.path is None:
            return snapshot
        kind = kind_of(snapshot.format)
        if kind != self._source.kind and snapshot.format is not None:
            self._source = replace(self._source, kind=kind)
        usual, today = self.history.figures(self._source, snapshot.layer, snapshot.rate.tokens_per_pass,
                                            snapshot.as_of)
        lines = list(snapshot.details)
        usual_view = today_view = None
        if usual is not None:
            # An idle or silent miner's rate reads 0: no pace to compare ("−100 %" says nothing of it).
            current = snapshot.rate.tokens_per_hour if snapshot.state not in QUIET_STATES else None
            delta = (current - usual.tokens_per_hour) / usual.tokens_per_hour * 100 if current is not None and usual.tokens_per_hour > 0 else None
            usual_view = UsualView(tokens_per_hour=usual.tokens_per_hour, basis_hours=round(usual.basis_hours, 2),
                                   delta_percent=round(delta, 1) if delta is not None else None)
            if snapshot.state in QUIET_STATES:
                lines.append(usual_line(snapshot.layer, None, usual.tokens_per_hour))
            elif delta is not None:
                lines.append(usual_line(snapshot.layer, delta))
        if today is not None:
            today_view = TodayView(**today)
            line = (today_line(today_view, self._source.kind, snapshot.history_unit is not None)
                    if today_view.observed_seconds > 0 else None)
            if line is not None:
                lines.append(line)
        status = self.history.status()
        if status.problem:
            lines.append(status.problem)
        elif status.mode == "read_only" and status.notice:
            lines.append(status.notice)
        return replace(snapshot, usual=usual_view, today=today_view, details=tuple(lines),
                       history_revision=self._revision)
