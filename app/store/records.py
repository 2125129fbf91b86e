"""What the history keeps, as plain rows, and how they are read out of a snapshot.

The store never sees a tracker: its input is the snapshot (``app.snapshot.Snapshot``) plus the
passes the monitor saw, each with its activation id.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any, overload

from ..snapshot import QueueView, Snapshot

SAMPLE_SECONDS = 30


@dataclass(frozen=True, slots=True)
class SourceKey:
    """One log source on one machine: ``kind`` is ``miner`` (IOTA) or ``steps`` (a step trainer)."""

    machine: str
    key: str
    kind: str


@dataclass(frozen=True, slots=True)
class Sample:
    """The figures at one 30-s boundary of log time (``state`` None: not known for that instant)."""

    t: int
    tokens_per_hour: float | None
    state: str | None = None
    layer: int | None = None
    tokens_per_pass: int | None = None
    queue_position: int | None = None
    step: int | None = None


@dataclass(frozen=True, slots=True)
class PassFact:
    """A counted pass: its log time and activation id (the key that makes a re-read harmless)."""

    at: float
    activation_id: str
    tokens: int | None = None


@dataclass(frozen=True, slots=True)
class StepPoint:
    """A step trainer's figures at one step."""

    stage: str
    step: int
    at: float
    loss: float | None
    tokens_per_hour: float | None
    steps_per_hour: float | None


@dataclass(frozen=True, slots=True)
class LossPoint:
    """A loss the trainer logged at one step (infinity: it was not a number)."""

    stage: str
    step: int
    at: float
    value: float
    lr: float | None = None


class LossColumns(Sequence[LossPoint]):
    """Logged losses kept a column a field: the sequence of :class:`LossPoint` they are, without an
    object a step (an every-step log's import carries hundreds of thousands of them, from the
    parser's columns to the store's rows). Equal to any sequence of the same points.

    Filled once by its maker (:meth:`append`, :meth:`extend_run`), then only read.
    """

    __slots__ = ("at", "lrs", "stages", "steps", "values")

    def __init__(self) -> None:
        self.stages: list[list[Any]] = []  # [stage, count]: consecutive points of one stage
        # Lists as they are filled; doubles and 64-bit integers in arrays as an import's batch is
        # decoded (tens of thousands of points, no object each).
        self.steps: MutableSequence[int] = []
        self.at: MutableSequence[float] = []
        self.values: MutableSequence[float] = []
        self.lrs: list[float | None] = []

    @classmethod
    def packed(cls) -> LossColumns:
        """Empty columns that keep steps, times and values in arrays as they are filled (an
        import's hour of an every-step log is tens of thousands of points: no object each)."""
        columns = cls()
        columns.steps, columns.at, columns.values = array("q"), array("d"), array("d")
        return columns

    @classmethod
    def of(cls, points: Iterable[LossPoint]) -> LossColumns:
        """The same points in columns."""
        if isinstance(points, LossColumns):
            return points
        columns = cls()
        for point in points:
            columns.append(point)
        return columns

    def append(self, point: LossPoint) -> None:
        self._count(point.stage, 1)
        self._steps_fit((point.step,)).append(point.step)
        self.at.append(point.at)
        self.values.append(point.value)
        self.lrs.append(point.lr)

    def extend_run(self, stage: str, steps: Sequence[int], at: Sequence[float], values: Sequence[float],
                   lrs: Sequence[float | None] | None = None) -> None:
        """Append ``LossPoint(stage, step, at, value, lr)`` for each of the columns' rows (``lrs`` None: no learning rate)."""
        count = len(steps)
        if not count == len(at) == len(values) or (lrs is not None and len(lrs) != count):
            raise ValueError("columns of different lengths")
        self._count(stage, count)
        self._steps_fit(steps).extend(steps)
        self.at.extend(at)
        self.values.extend(values)
        self.lrs.extend(repeat(None, count) if lrs is None else lrs)

    def _steps_fit(self, steps: Sequence[int]) -> MutableSequence[int]:
        """The steps' column, made a list first when ``steps`` do not fit its 64-bit integers."""
        if isinstance(self.steps, array) and steps and not (-(1 << 63) <= min(steps) and max(steps) < 1 << 63):
            self.steps = list(self.steps)
        return self.steps

    def _count(self, stage: str, count: int) -> None:
        if self.stages and self.stages[-1][0] == stage:
            self.stages[-1][1] += count
        elif count:
            self.stages.append([stage, count])

    def stage_column(self) -> Iterator[str]:
        """Each point's stage, in order."""
        return chain.from_iterable(repeat(stage, count) for stage, count in self.stages)

    def rows(self) -> Iterator[tuple[str, int, float, float, float | None]]:
        """Each point as a ``(stage, step, at, value, lr)`` tuple."""
        return zip(self.stage_column(), self.steps, self.at, self.values, self.lrs)

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[LossPoint]:
        return (LossPoint(*row) for row in self.rows())

    @overload
    def __getitem__(self, index: int) -> LossPoint: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[LossPoint, ...]: ...
    def __getitem__(self, index: int | slice) -> LossPoint | tuple[LossPoint, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        i = range(len(self))[index]  # (an IndexError past the end)
        within = i
        for stage, count in self.stages:
            if within < count:
                break
            within -= count
        return LossPoint(stage, self.steps[i], self.at[i], self.values[i], self.lrs[i])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LossColumns({list(self)!r})"


@dataclass(frozen=True, slots=True)
class EvalPoint:
    stage: str
    name: str
    step: int
    at: float
    value: float | None


@dataclass(frozen=True, slots=True)
class EventRow:
    at: float
    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Observation:
    """One batch for the writer: everything learnt about a source since the last batch."""

    source: SourceKey
    # A snapshot: its new history points, step, evaluations and events.
    snapshot: Snapshot | None = None
    samples: tuple[Sample, ...] = ()
    passes: tuple[PassFact, ...] = ()
    steps: tuple[StepPoint, ...] = ()
    evals: tuple[EvalPoint, ...] = ()
    events: tuple[EventRow, ...] = ()
    losses: Sequence[LossPoint] = ()  # LossColumns where they come by the hundred thousand
    # Log files read whole by a first-start import: (path, size in bytes, digest of the head).
    imported: tuple[tuple[str, int, str], ...] = ()
    # A miner known idle since its last pass at this time: the rates written after it, before the
    # pause was known, were no rate (app/stats/history.py blank_after says the same of the hour).
    no_rate_after: float | None = None

    def expanded(self, since: float | None) -> Observation:
        """The same batch with its snapshot read into rows (history points after ``since``)."""
        if self.snapshot is None:
            return self
        steps, evals = steps_from(self.snapshot)
        return Observation(
            source=self.source,
            samples=self.samples + samples_from(self.snapshot, since),
            passes=self.passes,
            steps=self.steps + steps,
            evals=self.evals + evals,
            events=self.events + events_from(self.snapshot),
            losses=self.losses,
            imported=self.imported,
            no_rate_after=_finite(self.snapshot.rate.last_pass_at) if self.snapshot.state == "idle" else None,
        )


def _finite(value: float | None) -> float | None:
    """The value, or None for an unknown or non-finite one (no such figure is stored)."""
    return float(value) if value is not None and math.isfinite(value) else None


def queue_point(queue: QueueView | None, t: int) -> int | None:
    """The position a poll logged in the 30 s up to ``t`` showed, else None: silence is not a position.

    One point per logged poll (they come every 60–75 s), at the sample that follows it; a queued
    miner whose polls stopped, or one past the queue (no position), charts a gap.
    """
    if queue is None or queue.position is None or queue.last_poll_at is None:
        return None
    return queue.position if t - SAMPLE_SECONDS < queue.last_poll_at <= t else None


def samples_from(snapshot: Snapshot, since: float | None) -> tuple[Sample, ...]:
    """The snapshot's 30-s history points after ``since``, with the state they are known to have.

    The current state, layer and tokens per pass are given to the points since the state began
    (``state_since``, else the newest point only); earlier points keep their rate and leave the
    rest unknown rather than guess. The queue position only where a poll was logged
    (:func:`queue_point`): the hour before a start never charts the last position flat.
    """
    points = [p for p in snapshot.history if since is None or p[0] > since]
    if not points:
        return ()
    queue = snapshot.queue
    state_since = _finite(snapshot.state_since)
    newest = points[-1][0]
    taken: list[Sample] = []
    for at, value in points:
        t = int(at)
        if t % SAMPLE_SECONDS:
            continue
        known = t == newest or (state_since is not None and t >= state_since)
        taken.append(
            Sample(
                t=t,
                tokens_per_hour=_finite(value),
                state=snapshot.state if known else None,
                layer=snapshot.layer if known else None,
                tokens_per_pass=snapshot.rate.tokens_per_pass if known else None,
                queue_position=queue_point(queue, t),
                step=snapshot.step if known else None,
            )
        )
    return tuple(taken)


def steps_from(snapshot: Snapshot) -> tuple[tuple[StepPoint, ...], tuple[EvalPoint, ...]]:
    """A step trainer's current step point and its evaluation figures (none for the miner).

    The training section's numbers are finite or None already (app.stats.steps.payload).
    """
    training = snapshot.training
    if training is None:
        return (), ()
    stage = training.stage or "train"
    at = _finite(snapshot.source.last_event_at) or _finite(snapshot.as_of) or 0.0
    steps: tuple[StepPoint, ...] = ()
    # A log of dicts without a step number is kept by its record index (its loss points' x).
    step = training.chart_x if training.chart_x is not None else training.step
    if step is None:
        step = training.logged_records
    if step is not None:
        steps = (
            StepPoint(
                stage=stage,
                step=step,
                at=at,
                loss=training.loss,
                tokens_per_hour=training.tokens_per_hour,
                steps_per_hour=training.steps_per_hour,
            ),
        )
    evals = [EvalPoint(stage, figure.name, int(figure.step), at, figure.value)
             for figure in training.eval if figure.step is not None]
    return steps, tuple(evals)


def events_from(snapshot: Snapshot) -> tuple[EventRow, ...]:
    """The timeline's events in the snapshot (each stored once, however often it is seen)."""
    return tuple(EventRow(float(event.at), event.kind, event.text) for event in snapshot.events)
