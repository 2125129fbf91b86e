"""One log file replayed through the real parser and tracker, in log time, into history rows.

The first-start import (app/record/backfill.py) uses these: a snapshot at every 30-s boundary of the
log's own time, read into rows exactly as the live recorder reads the live snapshots.

* The miner's lines carry their times, so its rows are keyed by log time and activation id.
* A step trainer's lines (nanochat, nanoGPT, llm.c, HF) carry none: they are placed in time as
  the live view places a cold start (app/stats/steps/timing.py), back from the file's last
  write by the durations the trainer printed. Steps the history already holds keep the time it
  gave them (``anchors``), so the current log read again at the next start lands on the same
  30-s slots, and a restart never counts a step's time twice.
"""

from __future__ import annotations

import base64
import math
import threading
from array import array
from bisect import bisect_left
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, MutableSequence, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..ingest.formats import create_parser, detect, kind_of
from ..ingest.formats.crash import CrashAware
from ..snapshot import EventView, SourceView
from ..stats.events import Event, ForwardPass, StepRun, builder
from ..stats.kinds import MINER, STEPS, tracker_for
from ..store import EventRow, Observation, PassFact, Sample, SourceKey
from ..store.records import (
    SAMPLE_SECONDS,
    EvalPoint,
    LossColumns,
    LossPoint,
    StepPoint,
    events_from,
    samples_from,
    steps_from,
)
from .logged import LoggedSteps
from .spool import DiskDoubles, EventSpool, PlacedTimes

# A 30-s boundary with no log line in the 3 minutes before it is a gap, not a sample.
QUIET_SECONDS = 180
BATCH_SECONDS = 3600  # one writer transaction per hour of log
FIVE_MINUTES = 300
YIELD_SECONDS = 0.0005  # a pause per block read (0.002 s a MiB)
READ_BYTES = 1 << 18  # a block's lines are held at once: about 5 bytes of memory a byte read
FIRST_READ_BYTES = 1 << 20  # the first block: enough lines to tell the format (DETECT_LINES)
MAX_LINE_BYTES = 1 << 20
DETECT_LINES = 2000
OBSERVE_SECONDS = 300  # a step trainer's replay is looked at this often (see StepReplay)

# A miner's import makes a row at every pass and every 30 s of its log: made as their classes make them,
# without a frozen dataclass's per-field object.__setattr__ (events.py, ``builder``).
_sample_row = builder(Sample)
_pass_row = builder(PassFact)

NO_SOURCE = SourceKey("", "", "miner")  # batches get the real source where they are written
Anchors = Mapping[tuple[str, int], float]  # (stage, step) → the time the history gave that step
Emit = Callable[[Observation], None]
NAN = math.nan


def read_lines(path: Path, stop: threading.Event, limit: int | None = None, *,
               first_bytes: int = FIRST_READ_BYTES) -> Generator[list[str], None, None]:
    """The file's lines in batches (invalid UTF-8 replaced, over-long lines cut), read once.

    ``limit``: read no more than this many bytes (what follows is left for another time).
    ``first_bytes``: the first block's size (enough to tell the format, by default).
    """
    rest = b""
    left = limit if limit is not None else -1
    size = first_bytes
    with path.open("rb") as f:
        while not stop.is_set() and left != 0:
            chunk = f.read(size if left < 0 else min(size, left))
            size = READ_BYTES
            left -= len(chunk) if left > 0 else 0
            if not chunk:
                break
            data = rest + chunk
            end = data.rfind(b"\n")
            rest = data[end + 1 :]
            if len(rest) > MAX_LINE_BYTES:
                rest = b""
            yield _decoded(data[:end]) if end >= 0 else []
    if rest and not stop.is_set():
        yield [_line(rest)]


def _decoded(block: bytes) -> list[str]:
    """The lines of ``block`` (lines joined by newlines), each decoded, cut and stripped as alone.

    A batch of ASCII is decoded at once (a character a byte); any other, line by line.
    """
    # Not decoded at once: one emoji makes the whole block four bytes a character while it is split
    # (the lines come out as narrow as their own text, but a 1 MiB first block held 1.7 MB more at
    # the import child's peak, for no time saved).
    if not block.isascii():
        return [_line(p) for p in block.split(b"\n")]
    lines = block.decode("ascii").split("\n")
    if len(block) > MAX_LINE_BYTES and max(map(len, lines)) > MAX_LINE_BYTES:
        return [_line(p) for p in block.split(b"\n")]
    return [line.rstrip("\r") for line in lines] if b"\r" in block else lines


def _line(raw: bytes) -> str:
    """One line's bytes as text: cut at MAX_LINE_BYTES, decoded, its ``\\r`` dropped."""
    return raw[:MAX_LINE_BYTES].decode("utf-8", "replace").rstrip("\r")


def _window_end(at: float | None) -> float:
    """The 30-s boundary after ``at``; none (-inf) for no time, or one on a boundary."""
    if at is None or at % SAMPLE_SECONDS == 0:
        return -math.inf
    return at - at % SAMPLE_SECONDS + SAMPLE_SECONDS


def _view() -> SourceView:
    return SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0, last_event_at=None)


class MinerReplay:
    """The miner's file through a fresh parser and tracker, a snapshot at every 30-s boundary."""

    def __init__(self, format_name: str, now: float) -> None:
        self.parser = create_parser(format_name)
        self.tracker = tracker_for(MINER, format_name)
        self.now = now
        self.view = _view()
        self.boundary: int | None = None
        self.last_line_at: float | None = None
        # The timeline's entries already taken (its last snapshot's): an entry is new when not among
        # them, whatever its date — an idle span is dated at its last pass, once later entries are in.
        self.taken_events: set[tuple[float, str, str]] = set()
        self._taken_from: tuple[EventView, ...] | None = None  # the events ``taken_events`` was read from
        self.samples: list[Sample] = []
        self.passes: list[PassFact] = []
        self.events: list[EventRow] = []
        self._held: Event | None = None  # an event that stores nothing, left out if the next is in its 30 s

    def feed(self, lines: list[str]) -> None:
        self._apply(self._kept(self.parser.feed(lines)))

    def _kept(self, events: list[Event], *, last: bool = False) -> Iterator[Event]:
        """``events`` less those that store nothing and fall between two lines of the same 30 s.

        Most of a miner's events move only the clock as far as the history is concerned (a GPU
        reading, a transfer, the layer it trains in named again: ``IotaTracker.stores_nothing``).
        One between two dated events of the same 30 s of log, in time order, can be left out: no
        30-s boundary lies between them, so no sample, tok/h point or batch cut is taken there;
        both gaps are under every silence's limit (3 min at least), and an idle limit it would have
        crossed the next event crosses before anything reads it, so the clock's move to the next
        event does what the two moves did. Asked lazily, each after the events before it were
        applied (``stores_nothing`` reads the tracker).
        """
        stores_nothing = self.tracker.stores_nothing
        latest = self.now + 86400
        held = self._held
        since = -math.inf if self.last_line_at is None else self.last_line_at  # the last event applied
        held_at = since if held is None or held.at is None else held.at  # (held: dated, at or after it)
        end = _window_end(self.last_line_at)  # the last event applied is in (end - 30, end)
        for event in events:
            at = event.at
            if held is not None:
                if at is not None and at < end and held_at <= at <= latest:
                    held = None  # nothing stored can tell it was there
                else:
                    yield held
                    held, since = None, held_at
                    end = _window_end(since)
            if at is not None and at < end and since <= at <= latest and stores_nothing(event):
                held, held_at = event, at
                continue
            yield event
            if at is not None and at <= latest:
                since, end = at, _window_end(at)
        self._held = None if last else held  # (the consumer reads every event: this runs)
        if held is not None and last:
            yield held

    def _apply(self, events: Iterable[Event]) -> None:
        now = self.now
        latest = now + 86400
        # Once per event of a long log: looked up once per batch, and the boundary and the last
        # line's time kept in locals, written back before a sample reads them.
        tracker = self.tracker
        apply = tracker.apply
        passes = self.passes
        pass_row = _pass_row
        boundary, last_line_at = self.boundary, self.last_line_at
        for event in events:
            at = event.at
            if at is not None and at <= latest:
                if boundary is None:
                    boundary = int(at) - int(at) % SAMPLE_SECONDS + SAMPLE_SECONDS
                if at > boundary:
                    self.last_line_at = last_line_at
                    while at > boundary:
                        self._sample(boundary)
                        boundary += SAMPLE_SECONDS
                last_line_at = at
            apply(event, now)
            if at is not None and isinstance(event, ForwardPass):
                passes.append(pass_row(at, event.activation_id, tracker.tokens_per_pass))
        self.boundary, self.last_line_at = boundary, last_line_at

    def _sample(self, t: int) -> None:
        if self.last_line_at is None or t - self.last_line_at > QUIET_SECONDS:
            return  # the log was quiet: a gap, not a figure
        # What the history keeps, not the page's snapshot: at every 30 s of a long log, its words
        # and views were a third of the import.
        figures = self.tracker.stored(float(t), self.view.lines_read)
        self.samples.append(
            _sample_row(
                t=t,
                tokens_per_hour=figures.tokens_per_hour,
                state=figures.state,
                layer=figures.layer,
                tokens_per_pass=figures.tokens_per_pass,
                queue_position=figures.queue_position,
                step=figures.step,
            )
        )
        # The timeline's events, each taken once: new when not among the last sample's, whatever its
        # date (an idle span is dated back at its last pass once later entries are in).
        if figures.events is self._taken_from:
            return  # the same entries as the last sample's (the tracker built them once): none new
        shown = {(float(event.at), event.kind, event.text) for event in figures.events}
        for at, kind, words in sorted(shown - self.taken_events):
            self.events.append(EventRow(at, kind, words))
        self.taken_events = shown
        self._taken_from = figures.events

    def take(self, before: float = float("inf")) -> Observation:
        """What was gathered before ``before`` (a 5-min boundary: no bucket is written in two halves)."""
        obs = Observation(
            NO_SOURCE,
            samples=tuple(s for s in self.samples if s.t < before),
            passes=tuple(p for p in self.passes if p.at < before),
            events=tuple(e for e in self.events if e.at < before),
        )
        self.samples = [s for s in self.samples if s.t >= before]
        self.passes = [p for p in self.passes if p.at >= before]
        self.events = [e for e in self.events if e.at >= before]
        return obs

    def finish(self) -> None:
        self._apply(self._kept([], last=True))
        if self.boundary is not None and self.last_line_at is not None and self.boundary - self.last_line_at <= 30:
            self._sample(self.boundary)


def replay_miner(batches: Iterator[list[str]], name: str, now: float, stop: threading.Event, emit: Emit) -> bool:
    """Replay a miner's log, emitting about an hour of log per batch; False if stopped.

    Each batch of lines is let go once fed (nothing here holds the first one for the whole import).
    """
    replay = MinerReplay(name, now)
    batch_start: float | None = None
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
        return False
    replay.finish()
    emit(replay.take())
    return True


def placed_times(path: Path, name: str, mtime: float, anchors: Anchors, stop: threading.Event,
                 limit: int, spool: EventSpool | None = None, *, runs: bool = True) -> MutableSequence[float]:
    """Each event's time in the file's first ``limit`` bytes (NaN: undated), as a cold start places them.

    The rule is :class:`app.stats.steps.placing.Placement`'s: the last event gets ``mtime``,
    earlier ones step back by the durations the trainer printed; a dated event (or a step the
    history has placed already, from ``anchors``) re-anchors what precedes it; before a step of
    unknown duration events stay undated. Only two floats per event are kept, never the events:
    a trainer that logs every step writes hundreds of thousands of lines (``spool``: where the
    parsed events are kept on disk for the pass that applies them; with it, the durations are
    kept on disk too, :class:`~app.record.spool.DiskDoubles`, and the times returned are on disk).
    """
    parser = create_parser(name)
    parser.reference_time = mtime
    # A step trainer's parser reads its usual lines in runs when its row declares one of the run
    # columns (registry.py, ``UsualLine.in_columns``); any other reads as feed reads.
    read: Callable[[list[str]], Sequence[Event | StepRun]] = (
        parser.feed_runs if runs and isinstance(parser, CrashAware) else parser.feed)
    # Each event's duration on disk beside the spool (the import's first pass: a double an event,
    # never held whole).
    from ..stats.steps.placing import Placement  # (a step log's: a miner's server never loads it)

    placement = Placement(DiskDoubles() if spool is not None else None, anchors)
    # The format is known: no first block of a MiB (its 20,000 lines' objects at once).
    for lines in read_lines(path, stop, limit, first_bytes=READ_BYTES):
        events = read(lines)
        if spool is not None:
            spool.write(events)
        placement.add(events)
        stop.wait(YIELD_SECONDS)
    return placement.place(mtime)


class StepReplay:
    """A step trainer's placed events through a fresh tracker, read as the live recorder reads snapshots.

    It looks every 5 minutes of log rather than every 30 s: the tracker's hour of 30-s points
    holds the samples in between, and a snapshot of a trainer logging every step costs its whole
    rate window (thousands of lines) to measure.
    """

    def __init__(self, format_name: str, now: float) -> None:
        self.tracker = tracker_for(STEPS, format_name)
        self.now = now
        self.view = _view()
        self.boundary: float | None = None
        self.taken_until: float | None = None
        self.kept: list[Observation] = []
        self.logged = LoggedSteps()
        self.logged_losses = LossColumns.packed()
        self.logged_evals: list[EvalPoint] = []

    def apply(self, event: Event, placed_at: float | None = None) -> None:
        self.tracker.apply(event, self.now, placed_at)
        latest = self.tracker.clock
        # A log with no times and no durations places nothing: its losses are kept at the import's time.
        self.logged.add(event, self.now if latest is None else latest, self.logged_losses, self.logged_evals)
        if latest is None:
            return
        if self.boundary is None:
            self.boundary = latest - latest % OBSERVE_SECONDS + OBSERVE_SECONDS
        if latest >= self.boundary:
            self.observe(latest)
            self.boundary = latest - latest % OBSERVE_SECONDS + OBSERVE_SECONDS

    def apply_run(self, run: StepRun, start: int, times: Sequence[float], batch_start: float | None) -> int:
        """Apply ``run``'s steps from ``start`` in bulk, placed at ``times`` (one a step of the run), as
        :meth:`apply` would one by one, up to the next observation and the hour of log since
        ``batch_start``; return where it stopped (``start``: the next step is for :meth:`apply`)."""
        if self.boundary is None:
            return start
        until = self.boundary if batch_start is None else min(self.boundary, batch_start + BATCH_SECONDS)
        end = self.tracker.run_end(run, start, times, self.now, until)
        if end > start and batch_start is not None and times[end - 1] - batch_start >= BATCH_SECONDS:
            end = bisect_left(times, True, start, end, key=lambda t: t - batch_start >= BATCH_SECONDS)
        if end > start:
            placed = times[start:end]
            self.tracker.apply_run(run, start, placed)
            self.logged.add_run(run, start, placed, self.logged_losses, self.logged_evals)
        return end

    def observe(self, at: float) -> None:
        """What a live observation at ``at`` would have kept: new 30-s points, the step, evaluations, events."""
        snap = self.tracker.stored(at, self.view)  # (the rows below read no words)
        samples = samples_from(snap, self.taken_until)
        steps, evals = steps_from(snap)
        if samples:
            self.taken_until = max(s.t for s in samples)
        self.kept.append(Observation(NO_SOURCE, samples=samples, steps=steps, evals=evals, events=events_from(snap)))

    def take(self) -> Observation:
        """Everything observed since the last take, as one batch."""
        kept, self.kept = self.kept, []
        logged_losses, self.logged_losses = self.logged_losses, LossColumns.packed()
        logged_evals, self.logged_evals = self.logged_evals, []
        return Observation(
            NO_SOURCE,
            samples=tuple(s for o in kept for s in o.samples),
            steps=tuple(p for o in kept for p in o.steps),
            evals=(*logged_evals, *(e for o in kept for e in o.evals)),
            events=tuple(dict.fromkeys(e for o in kept for e in o.events)),
            losses=logged_losses,
        )


def replay_steps(path: Path, name: str, now: float, mtime: float, anchors: Anchors, stop: threading.Event,
                 emit: Emit, *, runs: bool = True) -> bool:
    """Replay a step trainer's log placed in time, emitting about an hour of log per batch; False if stopped.

    Two passes: the first parses the file and places every event in time (counted back from the
    file's end), the second applies each event at its place, read back from the first pass's
    spool (or, when the spool could not keep an event, parsed again from the same bytes).
    ``runs``: usual step lines are read and applied in runs (False: each as an event, the reading
    the runs are held to).
    """
    limit = path.stat().st_size  # the log may grow meanwhile: both passes read the same bytes
    spool = EventSpool()
    times: PlacedTimes | None = None
    try:
        placed = placed_times(path, name, mtime, anchors, stop, limit, spool, runs=runs)
        times = PlacedTimes(placed)  # on disk for the second pass, not a double an event in memory
        del placed
        if stop.is_set():
            return False
        return _apply_placed(path, name, now, mtime, limit, times, spool, stop, emit)
    finally:
        spool.close()
        if times is not None:
            times.close()


def _parsed_again(path: Path, name: str, mtime: float, limit: int, stop: threading.Event) -> Iterator[Iterable[Event]]:
    parser = create_parser(name)
    parser.reference_time = mtime  # a year-less timestamp takes its year from the file's last write
    for lines in read_lines(path, stop, limit, first_bytes=READ_BYTES):
        yield parser.feed(lines)


def _apply_placed(path: Path, name: str, now: float, mtime: float, limit: int, times: Sequence[float],
                  spool: EventSpool, stop: threading.Event, emit: Emit) -> bool:
    """The second pass: each event applied at its placed time, an hour of log per batch emitted.

    A run of usual step lines (:class:`StepRun`) is applied in bulk between the steps that start
    a stage, sample the tok/h history, are looked at or end a batch, each of those alone.
    """
    batches: Iterator[Iterable[Event | StepRun]] = (
        spool.read() if spool.usable else _parsed_again(path, name, mtime, limit, stop))
    replay = StepReplay(name, now)
    batch_start: float | None = None
    i = 0
    for events in batches:
        if stop.is_set():
            break
        for item in events:
            if isinstance(item, StepRun):
                run_times = times[i : i + len(item)]
                i += len(item)
                # From its first step, as many as can go in bulk (a run after an evaluation's line
                # takes up where the run before it stopped); then one step alone (it may start a
                # stage, sample the history, be looked at, end a batch), and so on.
                k = replay.apply_run(item, 0, run_times, batch_start)
                while k < len(item):
                    at = run_times[k] if k < len(run_times) else NAN
                    batch_start = _applied(replay, item.event(k), at, batch_start, emit)
                    k += 1
                    if k < len(item):
                        k = replay.apply_run(item, k, run_times, batch_start)
            else:
                batch_start = _applied(replay, item, times[i] if i < len(times) else NAN, batch_start, emit)
                i += 1
        stop.wait(YIELD_SECONDS)
    if stop.is_set():
        return False
    if replay.tracker.clock is not None:
        replay.observe(replay.tracker.clock)  # the run as its last line left it
    emit(replay.take())
    return True


def _applied(replay: StepReplay, event: Event, at: float, batch_start: float | None, emit: Emit) -> float | None:
    """Apply one event placed at ``at`` (NaN: not placed); emit the batch once it holds an hour of
    log; return when the batch began in log time."""
    replay.apply(event, at if event.at is None and not math.isnan(at) else None)
    latest = replay.tracker.clock
    if latest is not None:
        batch_start = latest if batch_start is None else batch_start
        if latest - batch_start >= BATCH_SECONDS:
            emit(replay.take())
            batch_start = latest
    return batch_start


def _taken_first(held: list[list[str]], rest: Iterator[list[str]]) -> Iterator[list[str]]:
    """The blocks in ``held`` (taken out of it, so that nothing else keeps them), then ``rest``."""
    while held:
        yield held.pop(0)
    yield from rest


def replay_file(path: Path, format_name: str, now: float, stop: threading.Event, emit: Emit,
                anchors: Anchors | None = None) -> str | None:
    """Replay one file (``format_name`` ``auto``: detected from its first lines); return the format read, or None.

    Each batch goes to ``emit`` with its source's kind set (``miner`` or ``steps``); nothing is
    emitted for a file no parser recognises, or when ``stop`` is set.
    """
    mtime = path.stat().st_mtime
    batches = read_lines(path, stop)
    first = next(batches, [])
    name = format_name if format_name != "auto" else detect(first[:DETECT_LINES])
    if name is None:
        return None
    kind = kind_of(name)
    held = [first] if kind != STEPS else []
    del first  # (3-4 MB of lines: the replay lets it go once read, no frame here holds it meanwhile)

    def kinded(obs: Observation) -> None:
        emit(replace(obs, source=replace(obs.source, kind=kind)))

    if kind == STEPS:
        batches.close()
        done = replay_steps(path, name, now, mtime, anchors or {}, stop, kinded)
    else:
        done = replay_miner(_taken_first(held, batches), name, now, stop, kinded)
    return name if done else None


def encode(obs: Observation) -> dict[str, Any]:
    """A batch as JSON-ready data (the child process hands batches to the server so)."""
    return {
        "kind": obs.source.kind,
        "samples": [[s.t, s.tokens_per_hour, s.state, s.layer, s.tokens_per_pass, s.queue_position, s.step]
                    for s in obs.samples],
        "passes": [[p.at, p.activation_id, p.tokens] for p in obs.passes],
        "steps": [[p.stage, p.step, p.at, p.loss, p.tokens_per_hour, p.steps_per_hour] for p in obs.steps],
        "evals": [[e.stage, e.name, e.step, e.at, e.value] for e in obs.evals],
        "losses": _loss_columns(obs.losses),
        "events": [[e.at, e.kind, e.text] for e in obs.events],
        "imported": [list(i) for i in obs.imported],
    }


def decode(data: dict[str, Any]) -> Observation:
    """The batch :func:`encode` wrote."""
    return Observation(
        replace(NO_SOURCE, kind=str(data.get("kind") or "miner")),
        samples=tuple(Sample(*row) for row in data["samples"]),
        passes=tuple(PassFact(*row) for row in data["passes"]),
        steps=tuple(StepPoint(*row) for row in data.get("steps", ())),
        evals=tuple(EvalPoint(*row) for row in data.get("evals", ())),
        losses=_loss_points(data.get("losses") or {}),
        events=tuple(EventRow(*row) for row in data["events"]),
        imported=tuple((str(p), int(size), str(head)) for p, size, head in data["imported"]),
    )


def _loss_columns(losses: Sequence[LossPoint]) -> dict[str, Any]:
    """The logged losses a column a field, as the bytes of arrays (exact; an every-step log's hundreds
    of thousands of them cost no number's text): steps as 64-bit integers, times, values and
    learning rates as doubles (no learning rate: nan, which none is), stages as (stage, count) runs."""
    return {key: packed_text(value) if isinstance(value, array) else value
            for key, value in loss_arrays(losses).items()}


def loss_arrays(losses: Sequence[LossPoint]) -> dict[str, Any]:
    """:func:`_loss_columns`'s columns before their bytes are written as text (the import child
    writes them a piece at a time, :func:`packed_text` of the whole, never the whole at once)."""
    columns = LossColumns.of(losses)
    try:
        steps: Any = _array("q", columns.steps)
    except (OverflowError, TypeError):
        steps = columns.steps  # (a step beyond 64 bits: as JSON)
    return {
        "stage": columns.stages,
        "step": steps,
        "at": _array("d", columns.at),
        "value": _array("d", columns.values),
        "lr": _array("d", _nan_for_none(columns.lrs)),
    }


def _nan_for_none(values: list[float | None]) -> Sequence[float]:
    """``values`` with nan for each None (at once where none or all are None: a run prints its
    learning rate on every line, or on none)."""
    nones = values.count(None)
    if nones == len(values):
        return array("d", [NAN]) * nones
    if not nones:
        return values  # type: ignore[return-value]
    return [NAN if value is None else value for value in values]


def _array(code: str, values: Iterable[Any]) -> array[Any]:
    """``values`` as an array of ``code`` (an array of it already: itself, not a copy)."""
    return values if isinstance(values, array) and values.typecode == code else array(code, values)


def packed_text(values: array[Any]) -> str:
    """An array's bytes as the text a batch carries (base64)."""
    return base64.b64encode(values.tobytes()).decode("ascii")


def _loss_points(data: dict[str, Any]) -> LossColumns:
    """The losses :func:`_loss_columns` wrote."""
    columns = LossColumns()
    if not data:
        return columns
    columns.stages = [[str(stage), int(count)] for stage, count in data["stage"]]
    columns.steps = data["step"] if isinstance(data["step"], list) else _unpacked("q", data["step"])
    columns.at = _unpacked("d", data["at"])
    columns.values = _unpacked("d", data["value"])
    columns.lrs = [None if math.isnan(lr) else lr for lr in _unpacked("d", data["lr"])]
    if not sum(count for _, count in columns.stages) == len(columns.steps) == len(columns.at) == len(
            columns.values) == len(columns.lrs):
        raise ValueError("loss columns of different lengths")
    return columns


def _unpacked(code: str, text: str) -> array[Any]:
    """The array :func:`packed_text` wrote (kept an array: a batch's columns hold no object a point)."""
    values = array(code)
    values.frombytes(base64.b64decode(text))
    return values
