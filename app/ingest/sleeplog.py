"""When this machine slept: macOS's ``pmset -g log``, or the system journal's suspend and resume on Linux.

Miners keep their Macs awake on purpose (``pmset disablesleep``, ``caffeinate``); when a night
goes silent the first question is whether the machine slept. macOS records every sleep and wake
in ``pmset -g log`` (no admin rights needed); systemd's journal records a suspend and a resume.
The tool is run only when a silent span needs explaining, at most once per ``LOOK_AGAIN_SECONDS``,
with a timeout, on a thread of its own that the owner can stop; a missing tool, a refusal or a
tool that hangs leaves the spans unexplained ("cause unknown"), never the dashboard waiting.
"""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Callable
from datetime import datetime

from ..stats.iota.shell import SleepSpan
from ..supervise import supervised
from .tools import ToolRun

# How long the tool may take (pmset -g log reads weeks of records: about a second on a Mac).
TOOL_TIMEOUT_SECONDS = 10.0
# A tool is asked again no sooner than this after its last answer (or failure).
LOOK_AGAIN_SECONDS = 600.0
SPANS_KEPT = 500

# pmset -g log: "2026-09-30 02:14:07 +0200 Sleep      \tEntering Sleep state due to 'Idle Sleep': …"
_PMSET = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}) (Sleep|Wake|DarkWake)\b")
# journalctl -o short-iso: "2026-09-30T02:14:07+0200 host kernel: PM: suspend entry (deep)"
_JOURNAL = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:[+-]\d\d:?\d\d|Z))\s+\S+\s+(.*)")
_SUSPEND = ("PM: suspend entry", "Entering sleep state", "The system will suspend now", "PM: hibernation entry")
_RESUME = ("PM: suspend exit", "System returned from sleep", "PM: hibernation exit")


def _spans(marks: list[tuple[float, bool]]) -> list[SleepSpan]:
    """Pair sleeps with the wake after them (True: asleep); a sleep with no wake yet is open (None)."""
    spans: list[SleepSpan] = []
    asleep: float | None = None
    for at, sleeping in sorted(marks):
        if sleeping and asleep is None:
            asleep = at
        elif not sleeping and asleep is not None:
            spans.append(SleepSpan(asleep, at))
            asleep = None
    if asleep is not None:
        spans.append(SleepSpan(asleep, None))
    return spans[-SPANS_KEPT:]


def parse_pmset(output: str) -> list[SleepSpan]:
    """Sleep spans from ``pmset -g log`` (a DarkWake is a wake for maintenance: the Mac sleeps on)."""
    marks: list[tuple[float, bool]] = []
    for line in output.splitlines():
        found = _PMSET.match(line)
        if found is None:
            continue
        try:
            at = datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S %z").timestamp()
        except ValueError:
            continue
        if found.group(2) == "Sleep":
            marks.append((at, True))
        elif found.group(2) == "Wake":
            marks.append((at, False))
    return _spans(marks)


def parse_journal(output: str) -> list[SleepSpan]:
    """Suspend spans from ``journalctl -o short-iso`` lines of the kernel and systemd-sleep."""
    marks: list[tuple[float, bool]] = []
    for line in output.splitlines():
        found = _JOURNAL.match(line)
        if found is None:
            continue
        message = found.group(2)
        sleeping = any(word in message for word in _SUSPEND)
        if not sleeping and not any(word in message for word in _RESUME):
            continue
        try:
            at = datetime.fromisoformat(found.group(1).replace(",", ".")).timestamp()
        except ValueError:
            continue
        marks.append((at, sleeping))
    return [SleepSpan(span.start, span.end, "machine") for span in _spans(marks)]


def sleep_command(which: Callable[[str], str | None] = shutil.which) -> tuple[list[str], Callable[[str], list[SleepSpan]]] | None:
    """The tool this machine records sleep with, and how to read it; None when it has none."""
    pmset = which("pmset")
    if pmset is not None:
        return [pmset, "-g", "log"], parse_pmset
    journalctl = which("journalctl")
    if journalctl is not None:
        return ([journalctl, "-q", "--no-pager", "-o", "short-iso", "-t", "kernel", "-t", "systemd-sleep",
                 "-t", "systemd-logind", "--since", "-14d"], parse_journal)
    return None


class SleepWatch:
    """Runs the sleep tool when asked (rarely, with a timeout, on its own thread); keeps the spans."""

    def __init__(self, *, clock: Callable[[], float], on_change: Callable[[], None] | None = None,
                 command: tuple[list[str], Callable[[str], list[SleepSpan]]] | None = None,
                 timeout_seconds: float = TOOL_TIMEOUT_SECONDS) -> None:
        self._clock = clock
        self._on_change = on_change
        self._command = command if command is not None else sleep_command()
        self._timeout = timeout_seconds
        self._lock = threading.Lock()
        self._spans: tuple[SleepSpan, ...] = ()
        self._asked_at: float | None = None
        self._thread: threading.Thread | None = None
        self._tool = ToolRun(timeout_seconds)
        self._stopping = threading.Event()
        self.runs = 0  # how many times the tool ran (the tests and the cost measure read it)
        self.problem: str | None = None

    @property
    def available(self) -> bool:
        """True when this machine has a tool that records sleep."""
        return self._command is not None

    def spans(self) -> tuple[SleepSpan, ...]:
        """The sleep spans known so far."""
        with self._lock:
            return self._spans

    def explain(self) -> None:
        """A silent span needs explaining: run the tool unless it ran lately or runs now."""
        if self._command is None or self._stopping.is_set():
            return
        now = self._clock()
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            if self._asked_at is not None and now - self._asked_at < LOOK_AGAIN_SECONDS:
                return
            self._asked_at = now
            self._thread = threading.Thread(target=supervised("tokwatch-sleep-log", self._run, self._stopping.is_set),
                                            name="tokwatch-sleep-log", daemon=True)
            self._thread.start()

    def wait(self, timeout: float) -> None:
        """Wait for a run in progress to end (``--once``: the answer before the one snapshot)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop a run in progress (its process killed); safe to call twice."""
        self._stopping.set()
        self._tool.kill()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        assert self._command is not None
        argv, parse = self._command
        self.runs += 1
        answer = self._tool.run(argv, argv[0])
        if answer.output is None:
            self.problem = answer.problem
            return
        if self._stopping.is_set():
            return
        spans = tuple(parse(answer.output))
        with self._lock:
            changed = spans != self._spans
            self._spans = spans
        self.problem = None
        if changed and self._on_change is not None:
            self._on_change()

