"""Every loss and evaluation a step trainer logged, as history rows (not only one per 30 s).

The live recorder and the first-start import both read the trainer's events through this, so the
loss chart of a run that logs every step has every step. A loss that is not a number (the run
diverged) is kept as infinity (app/store/losses.py). Each loss is kept at its step's place on the run's
one timeline (app/stats/steps/timing.py ``timeline_offset``: a counter that restarts while the run goes
on is counted on), so the chart never folds back on itself.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from operator import itemgetter

from ..stats.events import EvalResult, Event, StageStart, StepFigures, StepRun, TrainStep, builder, spanned
from ..stats.steps.timing import timeline_offset
from ..store.records import EvalPoint, LossColumns, LossPoint

NOT_FINITE = math.inf
_loss_point = builder(LossPoint)  # one for every step of a log that logs every step


def _loss(value: float) -> float:
    return value if math.isfinite(value) else NOT_FINITE


def _lr(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


class LoggedSteps:
    """Turns step-trainer events into step and evaluation rows, remembering the latest step."""

    def __init__(self) -> None:
        self._stage: str | None = None
        self._step: int | None = None  # the latest step's place on the timeline
        self._at: float | None = None
        self._latest: TrainStep | None = None  # the latest step as the log says it (None after a new run's start)
        self._offset = 0  # what places the log's step on the timeline

    def feed(self, events: Iterable[Event], fallback_at: float) -> tuple[list[LossPoint], list[EvalPoint]]:
        """Rows for ``events``; an undated event takes its step's time, else ``fallback_at``."""
        steps: list[LossPoint] = []
        evals: list[EvalPoint] = []
        for event in events:
            self.add(event, fallback_at, steps, evals)
        return steps, evals

    def add_run(self, run: StepRun, start: int, times: Sequence[float], steps: LossColumns,
                evals: list[EvalPoint]) -> None:
        """:meth:`add` each of ``run``'s events from ``start``, placed at ``times`` (one an event; a step's
        loss a number, but on an evaluation's line)."""
        end = start + len(times)
        lines = run.evaluation_lines(start, end) if run.evals else []
        if not lines:
            self._add_steps(run, start, times, steps)
            return
        if lines[0][0] <= start:  # (it starts inside an evaluation's line: the rest of that line as add reads it)
            for k in range(start, min(lines[0][1], end)):
                self.add(run.event(k), times[k - start], steps, evals)
            run_start, start, lines = start, min(lines[0][1], end), lines[1:]
            times = times[start - run_start :]
            if start >= end:
                return
            if not lines:
                self._add_steps(run, start, times, steps)
                return
        # The steps' losses at once; each evaluation's step adds no loss, and its figures are taken at its time.
        spans = run.step_spans(start, end)
        first_step = run.step(start)
        offset = self._offset = timeline_offset(self._latest, first_step, self._offset)
        numbers = spanned(run.steps, spans)
        if offset:
            numbers = tuple(step + offset for step in numbers)
        lrs = run.column("lr")
        steps.extend_run(run.stage, numbers, spanned(times, spans, start), spanned(run.losses, spans),
                         None if lrs is None else spanned(lrs, spans))
        for first, after in lines:
            line_at = times[first - start]
            for k in range(first + 1, min(after, end)):
                _, name, value = run.evals[bisect_left(run.evals, k, key=itemgetter(0))]
                evals.append(EvalPoint(run.stage, name, run.steps[k], line_at or times[k - start],
                                       value if value is not None and math.isfinite(value) else None))
        latest = lines[-1][0] if spans[-1][1] <= lines[-1][0] else spans[-1][1] - 1  # (the latest step: an evaluation's, or a step's)
        self._latest = run.step(end - 1)
        self._stage, self._step, self._at = run.stage, run.steps[latest] + offset, times[latest - start]

    def _add_steps(self, run: StepRun, start: int, times: Sequence[float], steps: LossColumns) -> None:
        end = start + len(times)
        first = run.step(start)
        offset = self._offset = timeline_offset(self._latest, first, self._offset)
        numbers = run.steps[start:end]
        if offset:
            numbers = tuple(step + offset for step in numbers)
        self._latest = run.step(end - 1) if end - start > 1 else first
        self._stage, self._step, self._at = run.stage, numbers[-1], times[-1]
        lrs = run.column("lr")
        steps.extend_run(run.stage, numbers, times, run.step_losses(start, end), None if lrs is None else lrs[start:end])

    def add(self, event: Event, fallback_at: float, steps: list[LossPoint] | LossColumns,
            evals: list[EvalPoint]) -> None:
        """Append ``event``'s rows to ``steps`` and ``evals`` (:meth:`feed` for one event, without its lists)."""
        if isinstance(event, TrainStep):
            self._offset = timeline_offset(self._latest, event, self._offset)
            self._latest = event
            self._stage, self._step = event.stage, event.step + self._offset
            self._at = event.at if event.at is not None else fallback_at
            if event.loss is not None:
                steps.append(_loss_point(event.stage, self._step, self._at, _loss(event.loss), _lr(event.lr)))
        elif isinstance(event, StageStart):
            self._latest = None  # a new run: its steps are its own
        elif isinstance(event, StepFigures) and event.loss is not None and self._step is not None:
            assert self._stage is not None
            at = event.at if event.at is not None else (self._at or fallback_at)
            steps.append(LossPoint(self._stage, self._step, at, _loss(event.loss), _lr(event.lr)))
        elif isinstance(event, EvalResult) and self._stage is not None:
            step = event.step if event.step is not None else self._step
            if step is None:
                return
            at = event.at if event.at is not None else (self._at or fallback_at)
            value = event.value if event.value is not None and math.isfinite(event.value) else None
            evals.append(EvalPoint(self._stage, event.name, step, at, value))
