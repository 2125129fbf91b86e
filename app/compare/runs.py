"""A log's losses and evaluations, in the order it printed them, cut into runs and stitched.

Each stage of a log is a run, and so is each restart from scratch (the step counter goes back
to, or before, where the run began). A **resume** from a checkpoint (the counter goes back to a
step inside the run, or a later log begins inside or just after an earlier one's steps) is not a
second run: it is stitched to the run it continues, by step. The steps it logs again replace
the earlier ones, and the span logged twice is kept as an overlap (with the replaced losses),
so a chart can mark it instead of drawing the run twice on top of itself.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

LossRow = tuple[int, float]  # (step, loss)


@dataclass(slots=True)
class Overlap:
    """Steps ``first``..``last`` logged twice: the resume's losses are the run's, ``replaced`` the earlier ones."""

    first: int
    last: int
    replaced: list[LossRow] = field(default_factory=list)


@dataclass(slots=True)
class Run:
    """One run: its stage, its losses in step order (each with its time, NaN when unknown) and evaluations."""

    stage: str
    steps: list[int] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    evals: dict[str, dict[int, float | None]] = field(default_factory=dict)
    overlaps: list[Overlap] = field(default_factory=list)
    pieces: int = 1  # how many stretches of log were stitched into it

    @property
    def first_step(self) -> int | None:
        return self.steps[0] if self.steps else None

    @property
    def last_step(self) -> int | None:
        return self.steps[-1] if self.steps else None

    def interval(self) -> int:
        """The steps between two logged losses, as the run usually logs them (at least 1)."""
        tail = self.steps[-64:]
        gaps = [b - a for a, b in pairwise(tail) if b > a]
        return max(1, int(statistics.median(gaps))) if gaps else 1

    def continued_by(self, stage: str, step: int) -> bool:
        """Whether a stretch of log of ``stage`` beginning at ``step`` resumes this run (a step inside
        it, or the next one it would have logged), rather than starting another."""
        if stage != self.stage or not self.steps:
            return False
        return self.steps[0] < step <= self.steps[-1] + self.interval()

    def cut_at(self, step: int) -> None:
        """Resume at ``step``: what was logged from it on is replaced, and kept as an overlap."""
        keep = next((i for i, s in enumerate(self.steps) if s >= step), len(self.steps))
        if keep < len(self.steps):
            self.overlaps.append(Overlap(step, self.steps[-1], list(zip(self.steps[keep:], self.losses[keep:]))))
        del self.steps[keep:], self.losses[keep:], self.times[keep:]
        for points in self.evals.values():
            for s in [s for s in points if s >= step]:
                del points[s]
        self.pieces += 1

    def add_loss(self, step: int, value: float, at: float) -> None:
        if self.steps and step == self.steps[-1]:  # a second figure for the same step: the later one
            self.losses[-1], self.times[-1] = value, at
            return
        self.steps.append(step)
        self.losses.append(value)
        self.times.append(at)

    def add_eval(self, name: str, step: int, value: float | None) -> None:
        self.evals.setdefault(name, {})[step] = value

    def started_at(self) -> float | None:
        known = [t for t in self.times if not math.isnan(t)]
        return min(known) if known else None

    def ended_at(self) -> float | None:
        known = [t for t in self.times if not math.isnan(t)]
        return max(known) if known else None


class RunCutter:
    """Cuts points fed in log order into runs; :meth:`begin_file` marks where another log begins.

    An evaluation that may open a resume (one printed before any step of a new log, or naming a
    step before the run's last, as nanoGPT evaluates the checkpoint it resumed from) waits for the
    next loss to say which run it belongs to.
    """

    def __init__(self) -> None:
        self.runs: list[Run] = []
        self._current: Run | None = None
        self._new_file = True
        self._pending: list[tuple[str, int, float | None]] = []

    def begin_file(self) -> None:
        """The next point opens another log: it may continue the last run (a resume) or start one."""
        self._new_file = True

    def loss(self, stage: str, step: int, value: float, at: float = math.nan) -> None:
        run = self._run_for(stage, step)
        for name, at_step, figure in self._pending:
            run.add_eval(name, at_step, figure)
        self._pending.clear()
        run.add_loss(step, value, at)

    def evaluation(self, stage: str | None, name: str, step: int, value: float | None) -> None:
        """An evaluation; ``stage`` None: printed before any step of this log."""
        run = self._current
        if (stage is None or self._new_file or run is None or run.stage != stage
                or (run.steps and step < run.steps[-1])):
            self._pending.append((name, step, value))
        else:
            run.add_eval(name, step, value)

    def finish(self) -> list[Run]:
        """The runs, with evaluations no loss followed given to the last run (or one of their own)."""
        if self._pending:
            run = self._current if self._current is not None and not self._new_file else self._start("train")
            for name, step, value in self._pending:
                run.add_eval(name, step, value)
            self._pending.clear()
        return [run for run in self.runs if run.steps or run.evals]

    def _run_for(self, stage: str, step: int) -> Run:
        """The run a loss belongs to: the current one, one it resumes, or a new one."""
        run = self._current
        new_file, self._new_file = self._new_file, False
        if run is None or not run.steps:
            return self._start(stage)
        went_back = step < run.steps[-1]
        if not (new_file or went_back or stage != run.stage):
            return run
        if run.continued_by(stage, step):
            if step <= run.steps[-1]:
                run.cut_at(step)
            else:
                run.pieces += 1
            return run
        return self._start(stage)

    def _start(self, stage: str) -> Run:
        self._current = Run(stage)
        self.runs.append(self._current)
        return self._current


def cut(points: Iterable[tuple[Any, ...]]) -> list[Run]:
    """Runs from ``("loss", stage, step, value, at)`` and ``("eval", stage, name, step, value)`` rows in log order."""
    cutter = RunCutter()
    for row in points:
        if row[0] == "loss":
            cutter.loss(row[1], row[2], row[3], row[4] if len(row) > 4 else math.nan)
        elif row[0] == "eval":
            cutter.evaluation(row[1], row[2], row[3], row[4])
        elif row[0] == "file":
            cutter.begin_file()
    return cutter.finish()
