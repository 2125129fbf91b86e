"""What the history keeps, as plain rows, and how they are read out of a snapshot dict.

The store never sees a tracker: its input is the snapshot contract (``app.snapshot.to_dict``)
plus the passes the monitor saw, each with its activation id.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

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
    # A snapshot dict (the contract): its new history points, step, evaluations and events.
    snapshot: dict[str, Any] | None = None
    samples: tuple[Sample, ...] = ()
    passes: tuple[PassFact, ...] = ()
    steps: tuple[StepPoint, ...] = ()
    evals: tuple[EvalPoint, ...] = ()
    events: tuple[EventRow, ...] = ()
    # Log files read whole by a first-start import: (path, size in bytes, digest of the head).
    imported: tuple[tuple[str, int, str], ...] = ()

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
            imported=self.imported,
        )


def _finite(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def samples_from(snapshot: dict[str, Any], since: float | None) -> tuple[Sample, ...]:
    """The snapshot's 30-s history points after ``since``, with the state they are known to have.

    The current state, layer, tokens per pass and queue position are given to the points since
    the state began (``state_since``, else the newest point only); earlier points keep their
    rate and leave the rest unknown rather than guess.
    """
    points = [p for p in snapshot.get("history") or () if since is None or p[0] > since]
    if not points:
        return ()
    rate = snapshot.get("rate") or {}
    queue = snapshot.get("queue") or {}
    state_since = _finite(snapshot.get("state_since"))
    newest = points[-1][0]
    taken: list[Sample] = []
    for t, value in points:
        t = int(t)
        if t % SAMPLE_SECONDS:
            continue
        known = t == newest or (state_since is not None and t >= state_since)
        taken.append(
            Sample(
                t=t,
                tokens_per_hour=_finite(value),
                state=snapshot.get("state") if known else None,
                layer=_int(snapshot.get("layer")) if known else None,
                tokens_per_pass=_int(rate.get("tokens_per_pass")) if known else None,
                queue_position=_int(queue.get("position")) if known else None,
                step=_int(snapshot.get("step")) if known else None,
            )
        )
    return tuple(taken)


def steps_from(snapshot: dict[str, Any]) -> tuple[tuple[StepPoint, ...], tuple[EvalPoint, ...]]:
    """A step trainer's current step point and its evaluation figures (none for the miner)."""
    training = snapshot.get("training")
    if not isinstance(training, dict):
        return (), ()
    stage = str(training.get("stage") or "train")
    at = _finite(snapshot.get("source", {}).get("last_event_at")) or _finite(snapshot.get("as_of")) or 0.0
    step = _int(training.get("step"))
    steps: tuple[StepPoint, ...] = ()
    if step is not None:
        steps = (
            StepPoint(
                stage=stage,
                step=step,
                at=at,
                loss=_finite(training.get("loss")),
                tokens_per_hour=_finite(training.get("tokens_per_hour")),
                steps_per_hour=_finite(training.get("steps_per_hour")),
            ),
        )
    evals: list[EvalPoint] = []
    for name, figure in (training.get("eval") or {}).items():
        if isinstance(figure, dict) and _int(figure.get("step")) is not None:
            evals.append(EvalPoint(stage, str(name), int(figure["step"]), at, _finite(figure.get("value"))))
    return steps, tuple(evals)


def events_from(snapshot: dict[str, Any]) -> tuple[EventRow, ...]:
    """The timeline's events in the snapshot (each stored once, however often it is seen)."""
    rows: list[EventRow] = []
    for event in snapshot.get("events") or ():
        if not isinstance(event, dict):
            continue
        at = _finite(event.get("at"))
        if at is not None and isinstance(event.get("kind"), str) and isinstance(event.get("text"), str):
            rows.append(EventRow(at, event["kind"], event["text"]))
    return tuple(rows)
