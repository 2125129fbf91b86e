"""When a step trainer is stalled, paused or done, and when it will finish.

Stall: no step for max(6 × the median time between recent step lines — the trainer's own time per
step before a second line — , 90 s) while training →
``stalled``; when step lines arrive in bursts (python's block-buffered print to a file delivers
dozens at once), not before twice the usual gap between bursts either. Before a stage's first
step (warm-up, compilation), after the trainer's end summary, while it evaluates, checkpoints
or all-reduces (an announced pause, an evaluation line after the last step, or the next step is
due an evaluation by the cadence seen so far, or is the last one) it is not a stall, up to an
hour.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .stage import STALL_FACTOR, Measure, Stage, diverged, finished, finite

STALL_FLOOR_SECONDS = 90.0
# An announced pause (evaluation, checkpoint, all-reduce) holds off a stall this long at most.
PAUSE_LIMIT_SECONDS = 60 * 60
# Step lines that arrive in bursts: no stall before twice the usual gap between bursts.
ARRIVAL_GAPS = 9
BURST_GAPS_NEEDED = 3
BURST_FACTOR = 2.0


@dataclass(frozen=True, slots=True)
class Stall:
    stalled: bool
    since: float | None  # seconds since the last step
    limit: float | None  # the stall limit while training
    pause: str | None  # the pause under way, if any
    allowed: float | None = None  # how long without a step before it is a stall (pauses included)


def stall(stage: Stage, now: float, arrival_gaps: Sequence[float], restarting: bool) -> Stall:
    """Whether the stage is stalled at ``now``, how long since its last step, and why it may wait."""
    if stage.step_time is None:
        return Stall(False, None, None, None)
    since = max(0.0, now - stage.step_time)
    # The usual time between step lines (N steps × T s a step); before a second line, the trainer's
    # own time per step, when printed, is the least a line takes.
    median = statistics.median(stage.line_durations) if stage.line_durations else finite(stage.latest.step_seconds)
    limit = max(STALL_FACTOR * median, STALL_FLOOR_SECONDS) if median is not None else STALL_FLOOR_SECONDS
    if len(arrival_gaps) >= BURST_GAPS_NEEDED:
        limit = max(limit, BURST_FACTOR * statistics.median(arrival_gaps))
    done = finished(stage)
    pause = stage.pause if not done else None  # (an evaluation after the trainer's end is no pause)
    if pause is None and since > limit and not done:
        # Only once the wait is longer than a step's: then say why it is not a stall.
        expected = expected_pause(stage)
        pause = f"{expected} due" if expected is not None else None
    allowed = max(limit, PAUSE_LIMIT_SECONDS) if pause is not None else limit
    # A finished run waits for nothing; a diverged one says so rather than that it stalled.
    stalled = not done and not diverged(stage) and not restarting and since > allowed
    return Stall(stalled, since, limit, pause, allowed)


def expected_pause(stage: Stage) -> str | None:
    """An evaluation (or the end-of-run evaluation) due before the next step line."""
    latest = stage.latest
    ahead = int(statistics.median(stage.covered)) if stage.covered else 1
    if latest.total_steps is not None and latest.step + ahead >= latest.total_steps:
        return "final evaluation"
    steps = list(stage.eval_steps)
    if len(steps) >= 2 and steps[-1] > steps[-2]:
        every = steps[-1] - steps[-2]
        due = steps[-1] + every * max(1, math.ceil((latest.step + 1 - steps[-1]) / every))
        if latest.step < due <= latest.step + ahead:
            return "evaluation"
    return None


def eta(stage: Stage, m: Measure) -> float | None:
    """Seconds to the last step at the measured steps/h, or None (no total, no rate)."""
    latest = stage.latest
    if m.steps_per_hour is None or m.steps_per_hour <= 0:
        return None
    remaining: float | None = None
    if latest.total_steps is not None:
        remaining = max(0, latest.total_steps - latest.step)
    elif latest.progress_percent is not None and latest.progress_percent >= 1.0:
        # chat_sft prints no total, only the percentage done (2 decimals).
        remaining = latest.step * (100.0 - latest.progress_percent) / latest.progress_percent
    if remaining is None:
        return None
    return remaining / m.steps_per_hour * 3600


# Step lines that come a dozen or more at a time, seconds apart: a block-buffered stdout (python's
# print to a file or a pipe fills a 4–8 KB buffer before anything is written).
BUFFERED_STEPS = 10
BUFFERED_GAP_SECONDS = 5.0


def buffered(arrival_gaps: Sequence[float], arrival_steps: Sequence[int]) -> str | None:
    """A sentence with the fix when the step lines arrive in bursts, or None."""
    if len(arrival_gaps) < BURST_GAPS_NEEDED or len(arrival_steps) < BURST_GAPS_NEEDED:
        return None
    gap, steps = statistics.median(arrival_gaps), statistics.median(arrival_steps)
    if gap < BUFFERED_GAP_SECONDS or steps < BUFFERED_STEPS:
        return None
    return (f"Step lines arrive in bursts (about {steps:.0f} every {gap:.0f} s): the trainer's output is "
            "block-buffered; run it with python -u or PYTHONUNBUFFERED=1 to see each step when it is printed")
