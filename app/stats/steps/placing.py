"""Undated step lines placed in time, back from when their log was last written.

One rule for a live batch (:func:`placed_times`), a cold start (app/live/backlog.py) and the history
import (app/record/replay.py): the last event gets the end time and each earlier one steps back by
the duration the trainer printed for the line after it (:func:`~app.stats.steps.timing.line_seconds`);
a dated event, or a step the history placed already (``anchors``), re-anchors what precedes it; before
a step of unknown duration events stay undated, up to the next dated one. No undated event is
placed before ``not_before`` (the clock already read).

:class:`Placement` keeps two doubles an event, never the events (an every-step log's import holds
hundreds of thousands of them): its own time, once any event has one, and its duration, which
:meth:`Placement.place` rewrites in place with its time (NaN: undated).
"""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from dataclasses import replace
from itertools import accumulate, compress, repeat

from ..events import Event, StageStart, StepRun, TrainStep
from .timing import line_seconds

NAN = math.nan
PLACE_SLICE = 1 << 14  # undated events placed at once (two floats each held meanwhile)


def place_in_time(events: Sequence[Event], end_at: float, not_before: float | None = None) -> list[Event]:
    """Give undated events times: the last one ``end_at``, earlier ones back by printed durations.

    Dated events keep their time and re-anchor what precedes them. Before a step whose duration
    is unknown, events stay undated. No time is placed before ``not_before``.
    """
    times = placed_times(events, end_at, not_before)
    return [event if event.at is not None or at is None else replace(event, at=at) for event, at in zip(events, times)]


def placed_times(events: Sequence[Event], end_at: float, not_before: float | None = None) -> list[float | None]:
    """The time :func:`place_in_time` gives each event (a dated event's own), without copying them."""
    placement = Placement()
    placement.add(events)
    placed = placement.place(end_at)
    own, isnan = placement.times, math.isnan
    if not_before is None:
        return [None if isnan(t) else t for t in placed]
    if own is None:
        return [None if isnan(t) else max(t, not_before) for t in placed]
    return [None if isnan(t) else max(t, not_before) if isnan(at) else t for t, at in zip(placed, own)]


class Placement:
    """Events added in log order (a slice at a time, or a run of usual steps at once), then each
    one's place back from the end (:meth:`place`), by its index (:meth:`time`).

    ``seconds``: where the durations are kept (an array; the import's
    :class:`~app.record.spool.DiskDoubles`, on disk). ``anchors``: steps already placed,
    ``(stage, step)`` → time, taken as dated.
    """

    def __init__(self, seconds: MutableSequence[float] | None = None,
                 anchors: Mapping[tuple[str, int], float] | None = None) -> None:
        # How far back the event before each one is (0 for what is not a step, NaN: unknown); once
        # placed, each event's time (NaN: undated).
        self.seconds: MutableSequence[float] = array("d") if seconds is None else seconds
        self.times: array[float] | None = None  # each event's own time (NaN: none), once one has one
        self.anchors: Mapping[tuple[str, int], float] = {} if anchors is None else anchors
        self.previous: TrainStep | None = None  # the step before the next event, in its stage
        self.steps = 0  # the step lines added
        self.last_step = -1  # the index of the last step line added (-1: none)
        self._not_before: float | None = None

    def __len__(self) -> int:
        """The events added (before :meth:`place` and after it alike)."""
        return len(self.seconds)

    def add(self, events: Iterable[Event | StepRun]) -> None:
        """Take the next events (after those already added)."""
        anchors, seconds, times, previous = self.anchors, self.seconds, self.times, self.previous
        steps = 0
        for event in events:
            if isinstance(event, TrainStep):
                at = event.at
                if at is None and anchors:
                    at = anchors.get((event.stage, event.step))
                duration = line_seconds(previous, event)
                back = NAN if duration is None else duration
                previous = event
                steps += 1
                self.last_step = len(seconds)
            elif isinstance(event, StepRun):
                self.previous, self.times = previous, times
                self.add_run(event)
                previous, times = self.previous, self.times
                continue
            else:
                at = event.at
                back = 0.0
                if isinstance(event, StageStart):
                    previous = None
            if at is not None and times is None:
                times = self.times = _undated(len(seconds))
            if times is not None:
                times.append(NAN if at is None else at)
            seconds.append(back)
        self.previous = previous
        self.steps += steps

    def add_run(self, run: StepRun) -> None:
        """Take a run of usual steps (after the events already added), as :meth:`add` takes its steps."""
        count = len(run)
        seconds, anchors = self.seconds, self.anchors
        if anchors:
            found = array("d", (anchors.get((run.stage, step), NAN) for step in run.steps))
            for at, _, _ in run.evals:
                found[at] = NAN  # (an evaluation's figure is no step the history placed)
            if self.times is None and not all(map(math.isnan, found)):
                self.times = _undated(len(seconds))
            if self.times is not None:
                self.times.extend(found)
        elif self.times is not None:
            self.times.extend(repeat(NAN, count))
        first = line_seconds(self.previous, run.step(0))
        self.previous = run.step(count - 1)
        self.last_step = len(seconds) + count - 1
        self.steps += count
        seconds.append(NAN if first is None else first)
        steps, step_ms = run.steps, run.step_ms
        elapsed = run.column("elapsed_seconds")
        if elapsed is None:
            if steps[-1] - steps[0] == count - 1 and min(step_ms) > 0 and all(map(operator.lt, steps, steps[1:])):
                seconds.extend(map(operator.truediv, step_ms[1:], repeat(1000)))  # one step a line, each timed: its own time
                return
        elif None not in elapsed and all(map(operator.le if run.evals else operator.lt, steps, steps[1:])):
            # Each step after the one before, on the trainer's clock: the time between (an evaluation's line at
            # the step before: the clock between them too, and its figures none, their columns its line's).
            clock = list(map(operator.sub, elapsed[1:], elapsed))
            if not clock or min(clock) > 0 or (min(clock) == 0 and _still_only_at_evaluations(clock, run.evals)):
                seconds.extend(clock)
                return
        evals = {at for at, _, _ in run.evals}
        previous = run.step(0)
        for i in range(1, count):
            if i in evals:
                seconds.append(0.0)  # (no step: add's)
                continue
            step = run.step(i)
            back = line_seconds(previous, step)
            previous = step
            seconds.append(NAN if back is None else back)

    def place(self, end_at: float, not_before: float | None = None) -> MutableSequence[float]:
        """Place every event added, back from ``end_at``; return their times (NaN: undated), written
        over the durations, and before ``not_before`` where :meth:`time` gives an undated one."""
        self._not_before = not_before
        return place_back(self.times, self.seconds, end_at)

    def time(self, i: int) -> float | None:
        """The ``i``-th event's place (after :meth:`place`; None: undated)."""
        t = self.seconds[i]
        if math.isnan(t):
            return None
        not_before = self._not_before
        if not_before is not None and (self.times is None or math.isnan(self.times[i])):
            return max(t, not_before)
        return t


def _still_only_at_evaluations(clock: list[float], evals: tuple[tuple[int, str, float | None], ...]) -> bool:
    """Every place where the trainer's clock did not move (``clock``: each event's seconds after the one before) is
    an evaluation's line, its step again or a figure, which take the clock as it stands; a step whose clock did not
    move took less than the clock's resolution, not none (line_seconds: no time), so such a run is timed line by line."""
    places = {place for at, _, _ in evals for place in (at - 1, at)}
    return clock.count(0.0) == sum(1 for place in places if 0 < place <= len(clock) and clock[place - 1] == 0)


def place_back(times: Sequence[float] | None, seconds: MutableSequence[float], end_at: float) -> MutableSequence[float]:
    """Each event's time: an undated one's (NaN in ``times``, or no ``times``: none is dated) the
    last ``end_at``, each before it ``seconds`` earlier than the one after; a dated one re-anchors
    what precedes it (NaN, an unknown duration, leaves what comes before undated). A stretch between
    two dated events at once, in the same order of subtractions as one by one. The times are
    written over ``seconds`` as they are placed, back from the end (an undated log's import holds
    one float an event, not two)."""
    dated = [] if times is None else list(compress(range(len(times)), map(operator.not_, map(math.isnan, times))))
    end, t = len(seconds), end_at
    for k in [*reversed(dated), -1]:
        while end - k > 1:  # the undated events k+1 .. end-1, back from t, a slice at a time (memory)
            first = max(k + 1, end - PLACE_SLICE)
            placed = list(accumulate(reversed(seconds[first + 1 : end]), operator.sub, initial=t))
            t = placed[-1] - seconds[first]
            placed.reverse()
            seconds[first:end] = array("d", placed)
            end = first
        if k >= 0:
            assert times is not None
            t, end = times[k] - seconds[k], k
            seconds[k] = times[k]
    return seconds


def _undated(count: int) -> array[float]:
    return array("d", [NAN]) * count
