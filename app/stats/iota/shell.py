"""What the app's shell log says about the miner: its events, and the cause of a silent or idle span.

The shell log (``main.log`` beside the worker's ``*-cli.log``) says when the app started a
session, when the user quit it, when the worker process exited and how, what training state the
app holds, and when it updated itself. It never changes what the worker's log proves: it only
names a cause for a silence or an idleness the worker's log shows, and adds its own entries to
the timeline. Pure: the times are the log's, the clock an argument.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ... import text
from ..events import ShellEvent
from .timeline import TimelineEntry

# The shell events kept (the newest): a session's worth of starts, quits, exits and states.
SHELL_EVENTS_KEPT = 500
# A stop the shell dates this long before the worker's last line still explains the silence
# after it (two clocks, two writers), and one up to STOP_AFTER_SECONDS after it: the worker's
# last line comes first, then the app writes that it quit or that the worker exited.
STOP_BEFORE_SECONDS = 60.0
STOP_AFTER_SECONDS = 600.0
# The shell's training states that mean "not training" while the worker's log is quiet or idle.
_NOT_TRAINING_WORDS = {
    "resetting": "the app is resetting training",
    "waiting_training": "the app is waiting to start training",
}

CauseKind = Literal["quit", "crashed", "exited", "never_started", "app_state", "slept"]


@dataclass(frozen=True, slots=True)
class SleepSpan:
    """The machine slept from ``start`` to ``end`` (None: no wake recorded yet), as its own records say."""

    start: float
    end: float | None
    machine: str = "Mac"  # how the words name it: "Mac" (pmset), "machine" (a Linux journal)


@dataclass(frozen=True, slots=True)
class Cause:
    """Why the worker's log went silent or idle, as the shell log says it."""

    kind: CauseKind
    at: float
    words: str  # `you quit the app at 02:14`, `the miner crashed (exit code 1, SIGABRT)`
    line: str | None = None  # the shell's line, quoted for a crash


@dataclass(frozen=True, slots=True)
class ShellFigures:
    """The shell log as read so far, frozen: its events (oldest first) and what was not understood."""

    path: str | None
    events: tuple[ShellEvent, ...]
    lines_read: int
    unread_lines: int
    version: str | None  # the app's version, the newest either log names

    def stops_between(self, start: float, end: float) -> list[ShellEvent]:
        """Quits, exits and failed starts dated in [start, end]."""
        return [e for e in self.events if start <= e.at <= end and e.kind in ("quit", "miner_exited", "script_failed")]

    def starts_between(self, start: float, end: float) -> list[ShellEvent]:
        """Sessions the app started in (start, end]."""
        return [e for e in self.events if start < e.at <= end and e.kind == "session_started"]

    def state_at(self, at: float) -> ShellEvent | None:
        """The app's latest training state dated at or before ``at``."""
        found = None
        for e in self.events:
            if e.at > at:
                break
            if e.kind == "training_state":
                found = e
        return found


def silence_cause(shell: ShellFigures | None, last_line: float, until: float,
                  sleeps: Sequence[SleepSpan] = ()) -> Cause | None:
    """Why the worker's log is silent from ``last_line`` to ``until``: the shell log's word, else a sleep."""
    told = _shell_silence(shell, last_line, until)
    return told if told is not None else sleep_cause(sleeps, last_line, until)


def sleep_cause(sleeps: Sequence[SleepSpan], last_line: float, until: float) -> Cause | None:
    """The machine went to sleep within the minutes after the last line: it slept (02:14–06:50)."""
    for span in sleeps:
        if last_line - STOP_BEFORE_SECONDS <= span.start <= min(until, last_line + STOP_AFTER_SECONDS):
            end = f"–{text.clock(span.end)}" if span.end is not None else ", no wake recorded"
            return Cause("slept", span.start, f"{span.machine} slept {text.clock(span.start)}{end}")
    return None


def _shell_silence(shell: ShellFigures | None, last_line: float, until: float) -> Cause | None:
    if shell is None:
        return None
    stops = shell.stops_between(last_line - STOP_BEFORE_SECONDS, min(until, last_line + STOP_AFTER_SECONDS))
    stop = _stop_cause(stops[0]) if stops else None
    since = stops[0].at if stops else last_line
    reopened = shell.starts_between(since, until)
    if reopened:
        # The app was opened again and the worker has written nothing since: it was never started.
        opened = reopened[-1].at
        words = f"the app reopened at {text.clock(opened)}, training never started"
        if stop is not None:
            words = f"{stop.words}; {words}"
        return Cause("never_started", opened, words, stop.line if stop is not None else None)
    return stop


def idle_cause(shell: ShellFigures | None, idle_since: float, now: float) -> Cause | None:
    """Why a miner holding a layer does no pass since ``idle_since``, if the shell log says."""
    if shell is None:
        return None
    state = shell.state_at(now)
    if state is None or state.at < idle_since - STOP_BEFORE_SECONDS or state.state not in _NOT_TRAINING_WORDS:
        return None
    return Cause("app_state", state.at, _NOT_TRAINING_WORDS[state.state or ""])


def _stop_cause(stop: ShellEvent) -> Cause:
    at = text.clock(stop.at)
    if stop.kind == "quit":
        return Cause("quit", stop.at, f"you quit the app at {at}")
    if stop.kind == "script_failed":
        return Cause("crashed", stop.at, f"the miner could not start ({at})", stop.line)
    how = _exit_words(stop)
    if stop.signal is None and stop.code == 0:
        return Cause("exited", stop.at, f"the miner exited at {at} (code 0)", stop.line)
    return Cause("crashed", stop.at, f"the miner crashed ({how}) at {at}", stop.line)


def _exit_words(stop: ShellEvent) -> str:
    parts = []
    if stop.code is not None:
        parts.append(f"exit code {stop.code}")
    if stop.signal is not None:
        parts.append(stop.signal)
    return ", ".join(parts) or "no exit code"


def shell_entries(shell: ShellFigures | None) -> list[TimelineEntry]:
    """The shell's events as timeline entries: sessions, quits, exits, updates, state changes."""
    if shell is None:
        return []
    entries: list[TimelineEntry] = []
    state: str | None = None
    for e in shell.events:
        if e.kind == "session_started":
            entries.append(TimelineEntry(e.at, "app", "app: session started"))
        elif e.kind == "quit":
            entries.append(TimelineEntry(e.at, "app", "app: quit by you"))
        elif e.kind == "miner_exited":
            words = f"app: the miner exited ({_exit_words(e)})"
            crashed = e.signal is not None or e.code not in (0, None)
            entries.append(TimelineEntry(e.at, "crashed", words) if crashed else TimelineEntry(e.at, "app", words))
        elif e.kind == "script_failed":
            entries.append(TimelineEntry(e.at, "crashed", f"app: the miner could not start — {e.line}"))
        elif e.kind == "updated":
            entries.append(TimelineEntry(e.at, "app", f"app: updated to {e.version}"))
        elif e.kind == "host_gate_failed":
            entries.append(TimelineEntry(e.at, "app", "app: the miner's control host refused it"))
        elif e.kind == "training_state" and e.state is not None:
            now_state = "training" if e.state == "training_tick" else e.state
            if now_state != state:
                if state is not None or now_state != "training":
                    entries.append(TimelineEntry(e.at, "app", f"app: training state {now_state}"))
                state = now_state
    return entries


class ShellRecord:
    """The shell log's events as they are read, bounded; answers :meth:`figures`."""

    def __init__(self, path: str | None = None) -> None:
        self.path = path
        self._events: deque[ShellEvent] = deque(maxlen=SHELL_EVENTS_KEPT)
        self.lines_read = 0
        self.unread_lines = 0
        self.version: str | None = None

    def apply(self, events: Iterable[ShellEvent], lines_read: int, unread_lines: int) -> None:
        """Take newly parsed events (in log order) and the parser's running counts."""
        for event in events:
            if self._events and event.at <= self._events[-1].at and event in self._events:
                continue  # the same log read again from its start (replaced by a copy)
            if event.kind in ("version", "updated") and event.version is not None:
                self.version = event.version
            if event.kind != "version":
                self._events.append(event)
        self.lines_read, self.unread_lines = lines_read, unread_lines

    def figures(self) -> ShellFigures:
        """The shell log as read so far, frozen."""
        ordered: Sequence[ShellEvent] = sorted(self._events, key=lambda e: e.at)
        return ShellFigures(self.path, tuple(ordered), self.lines_read, self.unread_lines, self.version)
