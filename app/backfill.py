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

import argparse
import hashlib
import json
import logging
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from app.ingest.formats import STEP_FORMATS, create_parser, detect
from app.snapshot import SourceView
from app.stats.events import ForwardPass
from app.stats.iota import IotaTracker
from app.store import EventRow, History, Observation, PassFact, Sample, SourceKey
from app.store.records import SAMPLE_SECONDS

log = logging.getLogger(__name__)

PROJECT_ROOT = Path(__file__).resolve().parent.parent

DATED_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}")
IMPORT_DAYS = 30  # the 5-minute tier's span: older files would only reach the hourly buckets
IMPORT_MAX_BYTES = 2 << 30  # newest files first, up to this much
# A 30-s boundary with no log line in the 3 minutes before it is a gap, not a sample.
QUIET_SECONDS = 180
BATCH_SECONDS = 3600  # one writer transaction per hour of log
FIVE_MINUTES = 300
YIELD_SECONDS = 0.002  # a pause per MiB read
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

    def take(self, before: float = float("inf")) -> Observation:
        """What was gathered before ``before`` (a 5-min boundary: no bucket is written in two halves)."""
        obs = Observation(
            self.source,
            samples=tuple(s for s in self.samples if s.t < before),
            passes=tuple(p for p in self.passes if p.at < before),
            events=tuple(e for e in self.events if e.at < before),
        )
        self.samples = [s for s in self.samples if s.t >= before]
        self.passes = [p for p in self.passes if p.at >= before]
        self.events = [e for e in self.events if e.at >= before]
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
    in_child: bool = False,
) -> ImportProgress:
    """Replay each file not yet imported (oldest first) into the history; return what was done.

    ``in_child``: parse in a child process (``python -m app.backfill``) that hands back batches,
    so a week of log costs the server neither its memory peak nor the interpreter's lock.
    """
    progress = progress if progress is not None else ImportProgress()
    progress.files_total = len(files)
    pending: list[tuple[Path, int, str]] = []
    for path in files:
        try:
            size, head = _head_digest(path)
        except OSError as e:
            log.warning("history import: cannot read %s: %s", path, e.strerror or e)
            continue
        if history.imported(str(path)) != (size, head):
            pending.append((path, size, head))
    progress.files_done = len(files) - len(pending)

    def emit(obs: Observation) -> None:
        _submit(history, replace(obs, source=source), stop, progress)
        if obs.imported:
            progress.files_done += 1

    history.hold_pruning()
    try:
        if in_child and pending:
            _replay_in_child(pending, format_name, clock(), stop, emit, progress)
        else:
            for path, size, head in pending:
                if stop.is_set():
                    break
                progress.current = path.name
                try:
                    _replay_file(path, size, head, format_name, clock(), stop, emit)
                except OSError as e:
                    log.warning("history import: cannot read %s: %s", path, e.strerror or e)
    finally:
        history.release_pruning()
    progress.current = None
    progress.done = True
    return progress


_NO_SOURCE = SourceKey("", "", "miner")  # the child's batches get the real source in the parent


def _replay_file(path: Path, size: int, head: str, format_name: str, now: float, stop: threading.Event,
                 emit: Callable[[Observation], None]) -> None:
    """One file through a fresh parser and tracker; batches of about an hour of log go to ``emit``."""
    batches = read_lines(path, stop)
    first = next(batches, [])
    name = format_name if format_name != "auto" else detect(first[:2000])
    done = Observation(_NO_SOURCE, imported=((str(path), size, head),))
    if name is None or name in STEP_FORMATS:
        emit(done)  # step trainers' logs carry no time of their own: only the live view places them
        return
    replay = _Replay(name, _NO_SOURCE, now)
    batch_start: float | None = None
    replay.feed(first)
    for lines in batches:
        replay.feed(lines)
        if replay.boundary is not None:
            batch_start = replay.boundary if batch_start is None else batch_start
            if replay.boundary - batch_start >= BATCH_SECONDS:
                cut = replay.boundary - replay.boundary % FIVE_MINUTES
                emit(replay.take(before=cut))
                batch_start = replay.boundary
        stop.wait(YIELD_SECONDS)  # let the live view's threads have the interpreter
    if stop.is_set():
        return
    replay.finish()
    emit(replace(replay.take(), imported=done.imported))


def _submit(history: History, obs: Observation, stop: threading.Event, progress: ImportProgress) -> None:
    progress.samples += len(obs.samples)
    progress.passes += len(obs.passes)
    while not stop.is_set():
        # One batch in flight at a time: the queue never holds a week of log in memory.
        if history.flush(1.0) and history.submit(obs, wait_seconds=1.0):
            return
        if history.status().mode != "writing":
            return


# --- the child process -------------------------------------------------------------


def _encode(obs: Observation) -> str:
    return json.dumps({
        "samples": [[s.t, s.tokens_per_hour, s.state, s.layer, s.tokens_per_pass, s.queue_position, s.step]
                    for s in obs.samples],
        "passes": [[p.at, p.activation_id, p.tokens] for p in obs.passes],
        "events": [[e.at, e.kind, e.text] for e in obs.events],
        "imported": [list(i) for i in obs.imported],
    }, separators=(",", ":"))


def _decode(line: str) -> Observation:
    data = json.loads(line)
    return Observation(
        _NO_SOURCE,
        samples=tuple(Sample(*row) for row in data["samples"]),
        passes=tuple(PassFact(*row) for row in data["passes"]),
        events=tuple(EventRow(*row) for row in data["events"]),
        imported=tuple((str(p), int(size), str(head)) for p, size, head in data["imported"]),
    )


def _replay_in_child(pending: list[tuple[Path, int, str]], format_name: str, now: float, stop: threading.Event,
                     emit: Callable[[Observation], None], progress: ImportProgress) -> None:
    args = [sys.executable, "-m", "app.backfill", "--now", repr(now), "--format", format_name]
    for path, size, head in pending:
        args += [str(path), str(size), head]
    child = subprocess.Popen(args, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                             encoding="utf-8")

    def stop_child() -> None:
        while not stop.wait(0.2):
            if child.poll() is not None:
                return
        if child.poll() is None:
            child.terminate()  # tokwatch is stopping: the import resumes at the next start

    threading.Thread(target=stop_child, name="history-import-stop", daemon=True).start()
    try:
        assert child.stdout is not None
        for line in child.stdout:
            if stop.is_set():
                break
            obs = _decode(line)
            if obs.imported:
                progress.current = Path(obs.imported[0][0]).name
            emit(obs)
    finally:
        if child.poll() is None:
            child.terminate()
        child.wait(10)
        if child.stdout is not None:
            child.stdout.close()
    if child.returncode not in (0, -15) and not stop.is_set():
        raise RuntimeError(f"the import process ended with status {child.returncode}")


def main(argv: list[str]) -> int:
    """The child: replay the files named on the command line, one JSON batch per line on stdout."""
    parser = argparse.ArgumentParser(prog="python -m app.backfill")
    parser.add_argument("--now", type=float, required=True)
    parser.add_argument("--format", default="auto")
    parser.add_argument("files", nargs="*", help="path size head-digest, repeated")
    args = parser.parse_args(argv)
    stop = threading.Event()
    triples = args.files
    for i in range(0, len(triples) - 2, 3):
        path, size, head = Path(triples[i]), int(triples[i + 1]), triples[i + 2]
        try:
            _replay_file(path, size, head, args.format, args.now, stop,
                         lambda obs: print(_encode(obs), flush=True))
        except OSError as e:
            print(f"history import: cannot read {path}: {e.strerror or e}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
