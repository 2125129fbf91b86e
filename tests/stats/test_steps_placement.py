"""Undated step lines placed back in time from a batch's end, the batch seen a slice at a time."""

from __future__ import annotations

import math

from app.stats.events import Event, StageStart, TrainStep
from app.stats.steps.placing import Placement, placed_times


def step(n: int, seconds: float | None, at: float | None = None) -> TrainStep:
    return TrainStep(at=at, stage="train", step=n, step_seconds=seconds)


# Durations by hand (each line one iteration: its own printed time): step 2 follows a new stage and
# prints no time, so its duration is unknown; step 4 is dated.
EVENTS: list[Event] = [
    step(0, 1.0), step(1, 2.0), StageStart(at=None), step(2, None), step(3, 4.0),
    step(4, 0.5, at=1000.0), step(5, 1.5), step(6, 2.5),
]  # fmt: skip
# Back from 2000: 2000, 2000 - 2.5, then the dated 1000, 1000 - 0.5, 999.5 - 4.0; step 2's unknown
# duration leaves everything before it unplaced.
PLACED = [None, None, None, 995.5, 999.5, 1000.0, 1997.5, 2000.0]


def placed(slices: list[list[Event]], end_at: float, not_before: float | None = None) -> list[float | None]:
    placement = Placement()
    for events in slices:
        placement.add(events)
    count = len(placement)
    placement.place(end_at, not_before)
    return [placement.time(i) for i in range(count)]


def test_a_batch_in_slices_is_placed_as_one_back_from_its_end() -> None:
    assert placed([EVENTS], 2000.0) == PLACED
    # the slices cut between a step and the step before it, and after the new stage
    assert placed([EVENTS[:2], EVENTS[2:3], EVENTS[3:6], EVENTS[6:]], 2000.0) == PLACED
    assert placed([[event] for event in EVENTS], 2000.0) == PLACED


def test_no_undated_event_is_placed_before_the_clock_already_read() -> None:
    # the dated event keeps its own time
    assert placed([EVENTS[:4], EVENTS[4:]], 2000.0, not_before=1997.6) == [
        None, None, None, 1997.6, 1997.6, 1000.0, 1997.6, 2000.0,
    ]  # fmt: skip


def test_the_steps_are_counted_for_the_arrival() -> None:
    placement = Placement()
    placement.add(EVENTS[:3])
    placement.add(EVENTS[3:])
    assert placement.steps == 7


def test_a_printed_nan_duration_leaves_the_lines_before_it_undated_as_the_import_does() -> None:
    # nanoGPT's ``time nanms``: step 1 accounts for nan seconds, so nothing before it has a place,
    # in the live view and the cold start as in the history import (NaN there: undated), never
    # a time of nan that the clock would count as a line from the future.
    events: list[Event] = [step(0, 1.0), step(1, math.nan), step(2, 1.0)]
    assert placed([events], 100.0) == [None, 99.0, 100.0]
    assert placed_times(events, 100.0) == [None, 99.0, 100.0]
