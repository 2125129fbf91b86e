"""The tracker for a log no parser recognises (yet): it counts nothing and says so."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..snapshot import RateView, Snapshot, SourceView, State, WarmupView
from .events import Event, SourceChanged
from .tracker import NO_BACKEND_ERRORS, RATE_WINDOW_SECONDS, WARMUP_COUNT, WARMUP_SECONDS


class UnknownTracker:
    """Stands in until the format is known: ``waiting`` on an empty log, else ``unrecognised``."""

    format_name: str | None = None

    def __init__(self) -> None:
        self.has_records = False
        # Handed in by the monitor: the formats tokwatch reads, and the log's first lines.
        self.formats_read: tuple[str, ...] = ()
        self.first_lines: tuple[str, ...] = ()
        # Handed in by the monitor: the lines are the Train at Home app's shell log, and what it says last.
        self.shell_log = False
        self.shell_last: str | None = None
        # Handed in by the monitor: the newest time the lines' own prefixes print (``[2022-12-14 14:41:34] …``).
        self.lines_at: float | None = None

    @property
    def clock(self) -> float | None:
        """No event is applied: the log's time is the newest its lines' prefixes print, if any."""
        return self.lines_at

    def apply_all(self, events: Sequence[Event], now: float | None = None, arrival: float | None = None) -> None:
        """Note that the log has lines; no parser turned them into anything to count."""
        if any(not isinstance(event, SourceChanged) for event in events):  # the file, not its lines
            self.has_records = True

    def begin_stream(self, *, repeats: bool = False) -> None:
        """Nothing was counted, so nothing can be counted twice."""

    def snapshot(self, now: float, source: SourceView) -> Snapshot:
        """Empty figures, and the reason there are none."""
        state: State = "unrecognised" if self.has_records else "waiting"
        return Snapshot(
            status_line=("the app's shell log, not the miner's" if self.shell_log else "log format not recognised")
            if self.has_records else "waiting for log",
            state=state,
            format=None,
            layer=None,
            queue=None,
            rate=RateView(
                measured=False,
                tokens_per_hour=None,
                passes_per_hour=None,
                tokens_per_pass=None,
                passes_in_window=0,
                observed_seconds=0.0,
                window_seconds=float(RATE_WINDOW_SECONDS),
            ),
            warmup=WarmupView(
                passes=0,
                passes_needed=WARMUP_COUNT,
                observed_seconds=0.0,
                seconds_needed=float(WARMUP_SECONDS),
                done=False,
            ),
            step=None,
            run=None,
            gpu_memory=None,
            backend_errors=NO_BACKEND_ERRORS,
            details=(shell_details(self.shell_last) if self.shell_log
                     else unrecognised_details(self.formats_read, self.first_lines) if self.has_records else ()),
            history=(),
            source=SourceView(
                path=source.path,
                size_bytes=source.size_bytes,
                lines_read=source.lines_read,
                bad_lines=source.bad_lines,
                last_event_at=source.last_event_at,
                problem=source.problem,
                demo=source.demo,
                skipped=dict(source.skipped),
                following=source.following,
            ),
            as_of=now,
        )


# How many of a log's first lines an unrecognised log shows, and how long each may be.
SHOWN_LINES = 2
SHAPE_CHARS = 60
_NUMBER = re.compile(r"\d+")


def unrecognised_details(formats: Sequence[str], first_lines: Sequence[str]) -> tuple[str, ...]:
    """The next step for a log no format claims: the formats read, ``--format``, and its lines' shape."""
    details = []
    if formats:
        details.append(f"tokwatch reads these formats: {', '.join(formats)}; "
                       "if this log is one of them, start tokwatch with --format NAME")
    shown = [line for line in first_lines if line.strip()][:SHOWN_LINES]
    for number, line in enumerate(shown, 1):
        details.append(f"line {number} looks like: {line_shape(line)}")
    return tuple(details)


def line_shape(line: str) -> str:
    """A line's shape, not its text: numbers as N, paths and long tokens (keys, hashes) as …, cut short."""
    words = []
    for word in _NUMBER.sub("N", line).split():
        private = "/" in word or "\\" in word or len(word) > 24
        words.append("…" if private else word)
    shape = " ".join(words)
    return shape if len(shape) <= SHAPE_CHARS else shape[: SHAPE_CHARS - 1] + "…"


def shell_details(last: str | None) -> tuple[str, ...]:
    """The next step for the app's shell log followed as the log: where the miner's log is, and what it said."""
    lines = [("this is the Train at Home app's own log (main.log); the miner's is the *-cli.log beside it: "
              "give tokwatch the folder, and it reads both")]
    if last is not None:
        lines.append(f"the shell's last word: {last}")
    return tuple(lines)
