"""First-start import: replay the followed log and its older dated siblings into the history.

Train at Home starts a dated ``<YYYY-MM-DD>-cli.log`` at each launch and rotates it daily, so
the days before tokwatch was installed are still on disk. Each file is read through the real
parser and tracker in log time, with a snapshot at every 30-s boundary, exactly as the live
view would have seen it; what is already stored is keyed so nothing counts twice. A file is
imported once (its size and the digest of its first KiB are remembered); one that grew since
is read again, harmlessly.

Runs on its own thread and never holds the monitor's lock: the live view does not wait for it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from app.ingest.formats import STEP_FORMATS, create_parser, detect
from app.snapshot import SourceView
from app.stats.events import ForwardPass
from app.stats.iota import IotaTracker
from app.store import EventRow, History, Observation, PassFact, Sample, SourceKey
from app.store.records import SAMPLE_SECONDS

log = logging.getLogger(__name__)

DATED_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}")
IMPORT_DAYS = 30  # the 5-minute tier's span: older files would only reach the hourly buckets
IMPORT_MAX_BYTES = 2 << 30  # newest files first, up to this much
# A 30-s boundary with no log line in the 3 minutes before it is a gap, not a sample.
QUIET_SECONDS = 180
BATCH_SECONDS = 3600  # one writer transaction per hour of log
READ_BYTES = 1 << 20
MAX_LINE_BYTES = 1 << 20


def source_key_path(log_path: Path) -> Path:
    """The history's name for a log: its folder when it is a folder or a dated file in one, else the file."""
    if log_path.is_dir() or DATED_NAME.match(log_path.name):
        return log_path if log_path.is_dir() else log_path.parent
    return log_path


def files_to_import(log_path: Path, now: float) -> list[Path]:
    """The log and, for a folder or a dated file, its dated siblings of the last 30 days, oldest first."""
    folder = source_key_path(log_path)
    if folder == log_path and not log_path.is_dir():
        return [log_path] if log_path.is_file() else []
    found: list[tuple[float, str, Path, int]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        if not entry.name.endswith(".log"):
            continue
        try:
            st = entry.stat()
        except OSError:
            continue
        if entry.is_file() and st.st_mtime >= now - IMPORT_DAYS * 86400:
            found.append((st.st_mtime, entry.name, Path(entry.path), st.st_size))
    found.sort(key=lambda f: (f[0], f[1]))
    kept: list[Path] = []
    total = 0
    for _, _, path, size in reversed(found):
        if total + size > IMPORT_MAX_BYTES and kept:
            break
        total += size
        kept.append(path)
    return list(reversed(kept))


def _head_digest(path: Path) -> tuple[int, str]:
    with path.open("rb") as f:
        head = f.read(1024)
        size = os.fstat(f.fileno()).st_size
    return size, hashlib.sha256(head).hexdigest()


def read_lines(path: Path, stop: threading.Event) -> Iterator[list[str]]:
    """The file's lines in batches (invalid UTF-8 replaced, over-long lines cut), read once."""
    rest = b""
    with path.open("rb") as f:
        while not stop.is_set():
            chunk = f.read(READ_BYTES)
            if not chunk:
                break
            parts = (rest + chunk).split(b"\n")
            rest = parts.pop()
            if len(rest) > MAX_LINE_BYTES:
                rest = b""
            yield [p[:MAX_LINE_BYTES].decode("utf-8", "replace").rstrip("\r") for p in parts]
    if rest and not stop.is_set():
        yield [rest[:MAX_LINE_BYTES].decode("utf-8", "replace").rstrip("\r")]


@dataclass
class ImportProgress:
    files_total: int = 0
    files_done: int = 0
    current: str | None = None
    samples: int = 0
    passes: int = 0
    done: bool = False
    problem: str | None = None


class _Replay:
    """One file through a fresh parser and tracker, a snapshot at every 30-s boundary."""

    def __init__(self, format_name: str, source: SourceKey, now: float) -> None:
        self.parser = create_parser(format_name)
        self.tracker = IotaTracker(format_name)
        self.source = source
        self.now = now
        self.view = SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0, last_event_at=None)
        self.boundary: int | None = None
        self.last_line_at: float | None = None
        self.newest_event_at = float("-inf")
        self.samples: list[Sample] = []
        self.passes: list[PassFact] = []
        self.events: list[EventRow] = []

    def feed(self, lines: list[str]) -> None:
        for event in self.parser.feed(lines):
            at = event.at
            if at is not None and at <= self.now + 86400:
                if self.boundary is None:
                    self.boundary = int(at) - int(at) % SAMPLE_SECONDS + SAMPLE_SECONDS
                while at > self.boundary:
                    self._sample(self.boundary)
                    self.boundary += SAMPLE_SECONDS
                self.last_line_at = at
            self.tracker.apply(event, self.now)
            if isinstance(event, ForwardPass) and at is not None:
                self.passes.append(PassFact(at, event.activation_id, self.tracker.tokens_per_pass))

    def _sample(self, t: int) -> None:
        if self.last_line_at is None or t - self.last_line_at > QUIET_SECONDS:
            return  # the log was quiet: a gap, not a figure
        snap = self.tracker.snapshot(float(t), self.view)
        value = snap.history[-1][1] if snap.history and snap.history[-1][0] == t else snap.rate.tokens_per_hour
        self.samples.append(
            Sample(
                t=t,
                tokens_per_hour=value,
                state=snap.state,
                layer=snap.layer,
                tokens_per_pass=snap.rate.tokens_per_pass,
                queue_position=snap.queue.position if snap.queue is not None else None,
                step=snap.step,
            )
        )
        # The timeline's events (read defensively: older trackers have none), each taken once.
        for event in getattr(snap, "events", None) or ():
            at = getattr(event, "at", None)
            if isinstance(at, (int, float)) and at > self.newest_event_at:
                self.events.append(EventRow(float(at), str(getattr(event, "kind", "")), str(getattr(event, "text", ""))))
        if self.events:
            self.newest_event_at = max(e.at for e in self.events)

    def take(self) -> Observation:
        obs = Observation(self.source, samples=tuple(self.samples), passes=tuple(self.passes), events=tuple(self.events))
        self.samples, self.passes, self.events = [], [], []
        return obs

    def finish(self) -> None:
        if self.boundary is not None and self.last_line_at is not None and self.boundary - self.last_line_at <= 30:
            self._sample(self.boundary)


def import_logs(
    files: list[Path],
    history: History,
    source: SourceKey,
    *,
    format_name: str = "auto",
    clock: Callable[[], float],
    stop: threading.Event,
    progress: ImportProgress | None = None,
) -> ImportProgress:
    """Replay each file not yet imported (oldest first) into the history; return what was done."""
    progress = progress if progress is not None else ImportProgress()
    progress.files_total = len(files)
    for path in files:
        if stop.is_set():
            break
        progress.current = path.name
        try:
            size, head = _head_digest(path)
            if history.imported(str(path)) == (size, head):
                progress.files_done += 1
                continue
            _import_one(path, size, head, history, source, format_name, clock, stop, progress)
        except OSError as e:
            log.warning("history import: cannot read %s: %s", path, e.strerror or e)
        progress.files_done += 1
    progress.current = None
    progress.done = True
    return progress


def _import_one(path: Path, size: int, head: str, history: History, source: SourceKey, format_name: str,
                clock: Callable[[], float], stop: threading.Event, progress: ImportProgress) -> None:
    batches = read_lines(path, stop)
    first = next(batches, [])
    name = format_name if format_name != "auto" else detect(first[:2000])
    if name is None or name in STEP_FORMATS:
        return  # step trainers' logs carry no time of their own: only the live view places them
    replay = _Replay(name, source, clock())
    batch_start: float | None = None
    replay.feed(first)
    for lines in batches:
        replay.feed(lines)
        if replay.boundary is not None:
            batch_start = replay.boundary if batch_start is None else batch_start
            if replay.boundary - batch_start >= BATCH_SECONDS:
                _submit(history, replay.take(), stop, progress)
                batch_start = replay.boundary
    if stop.is_set():
        return
    replay.finish()
    obs = replay.take()
    _submit(history, Observation(source, samples=obs.samples, passes=obs.passes, events=obs.events,
                                 imported=((str(path), size, head),)), stop, progress)


def _submit(history: History, obs: Observation, stop: threading.Event, progress: ImportProgress) -> None:
    progress.samples += len(obs.samples)
    progress.passes += len(obs.passes)
    while not stop.is_set():
        if history.submit(obs, wait_seconds=1.0):
            return
        if history.status().mode != "writing":
            return
