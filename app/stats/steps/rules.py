"""When a step trainer is stalled, paused or done, and when it will finish.

Stall: no step for max(6 × the median time between recent step lines (any two in a row: where a counter moves once
every several lines, those that print its step again too) — the trainer's own time per
step before a second line, times the steps a line may cover — , 90 s) while training →
``stalled``; when step lines arrive in bursts (python's block-buffered print to a file delivers
dozens at once), not before twice the usual gap between bursts either. Before a stage's first
step (warm-up, compilation), after the trainer's end summary, while it evaluates, checkpoints
or all-reduces (an announced pause, an evaluation line after the last step, or the next step is
due an evaluation by the cadence seen so far, or is the last one) it is not a stall, up to an
hour; after the last epoch's full bar (the trainer's end line not printed yet) it is finishing,
up to an hour or the epoch's own elapsed time, whichever is longer.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .stage import (
    STALL_FACTOR,
    Measure,
    Stage,
    at_last_step,
    diverged,
    finished,
    finite,
    line_spacing,
    no_step_yet,
    printed_step_seconds,
    waiting_since,
)

STALL_FLOOR_SECONDS = 90.0
# An announced pause (evaluation, checkpoint, all-reduce) holds off a stall this long at most.
PAUSE_LIMIT_SECONDS = 60 * 60
# Step lines that arrive in bursts: no stall before twice the usual gap between bursts.
ARRIVAL_GAPS = 9
BURST_GAPS_NEEDED = 3
BURST_FACTOR = 2.0
# Before a second step line, a line at step 0 says nothing of how many steps the next one is away.
FIRST_LINE_FLOOR_SECONDS = 10 * 60
# A message that only says the model was saved is the run's end once no step came for this long (and the
# stall limit): a mid-run save is often followed by an evaluation before the next step.
SAVE_QUIET_SECONDS = 5 * 60
# No step done yet (a bar at 0/58, a validation before training): compiling, loading and the first rollout
# may take this long from the bar's start (its own clock) or the first line before it is a stall.
FIRST_STEP_SECONDS = FIRST_LINE_FLOOR_SECONDS
# Training announced (HF's ``Running training``) and no step line at all yet: the log may print only every N
# steps (HF's dicts without a bar, every 500 steps by default), so no stall before the pause limit's hour.
FIRST_LINE_WAIT_SECONDS = PAUSE_LIMIT_SECONDS


@dataclass(frozen=True, slots=True)
class Stall:
    stalled: bool
    since: float | None  # seconds since the last step
    limit: float | None  # the stall limit while training
    pause: str | None  # the pause under way, if any
    allowed: float | None = None  # how long without a step before it is a stall (pauses included)
    # (step, steps a line may cover, None: unknown) when the limit rests on the first step line alone
    first_line: tuple[int, int | None] | None = None


def stall(stage: Stage, now: float, arrival_gaps: Sequence[float], restarting: bool) -> Stall:
    """Whether the stage is stalled at ``now``, how long since its last step, and why it may wait."""
    if stage.step_time is None:
        return Stall(False, None, None, None)
    if no_step_yet(stage) and not finished(stage):
        # Nothing done yet: the wait is held to the first step's limit, from when it began.
        began = waiting_since(stage)
        waited = max(0.0, now - (began if began is not None else stage.step_time))
        return Stall(not restarting and waited > FIRST_STEP_SECONDS, waited, FIRST_STEP_SECONDS, None,
                     FIRST_STEP_SECONDS)
    since = max(0.0, now - stage.step_time)
    # The usual time between step lines (N steps × T s a step); before a second line, the trainer's
    # own time per step, when printed, is the least a line takes.
    # (where a counter moves once every several lines, the time between any two of its lines, not between its moves:
    # a dead run is noticed in the time its own lines' spacing says)
    spacing = line_spacing(stage)
    median = spacing if spacing is not None else printed_step_seconds(stage)
    limit = max(STALL_FACTOR * median, STALL_FLOOR_SECONDS) if median is not None else STALL_FLOOR_SECONDS
    first_line = None
    if not stage.line_gaps and median is not None and not stage.latest.logged:
        if stage.line_stride is not None:
            # Untimed lines N steps apart, a step's time printed: a line every N × that time.
            limit = max(limit, min(STALL_FACTOR * stage.line_stride * median, float(PAUSE_LIMIT_SECONDS)))
        else:
            limit, first_line = _first_line_limit(stage.latest.step, median, limit)
    if median is None and not stage.line_gaps:
        # No time between its lines and none printed (an undated log read cold): nothing says how far apart they
        # come. Dicts logged every N steps (HF's logging_steps, 500 by default) may be most of an hour apart, as
        # before their first; other lines are held to the first line's floor.
        limit = float(FIRST_LINE_WAIT_SECONDS if stage.latest.logged else FIRST_LINE_FLOOR_SECONDS)
    if len(arrival_gaps) >= BURST_GAPS_NEEDED:
        limit = max(limit, BURST_FACTOR * statistics.median(arrival_gaps))
    done = finished(stage)
    pause = stage.pause if not done else None  # (an evaluation after the trainer's end is no pause)
    wind_down = finishing(stage)
    if wind_down:
        pause = "finishing"
    if pause is None and since > limit and not done:
        # Only once the wait is longer than a step's: then say why it is not a stall.
        expected = expected_pause(stage)
        pause = f"{expected} due" if expected is not None else None
    allowed = max(limit, PAUSE_LIMIT_SECONDS) if pause is not None else limit
    if wind_down:
        # Evaluating the validation set (forward passes, most often fewer batches) takes less than
        # the epoch of training did: its bar's elapsed clock bounds the wait too.
        allowed = max(allowed, finite(stage.latest.elapsed_seconds) or 0.0)
    # A finished run waits for nothing; a diverged one says so rather than that it stalled.
    stalled = not done and not diverged(stage) and not restarting and since > allowed
    return Stall(stalled, since, limit, pause, allowed, first_line)


def finishing(stage: Stage) -> bool:
    """The last epoch's bar is full and the trainer has not printed its end yet: it evaluates,
    saves and sums up before it does (llama-recipes prints ``Key: avg_train_loss, …`` last)."""
    return at_last_step(stage) and not finished(stage)


def printed_stride(step: int) -> int | None:
    """The most steps a log may print between lines, read from its first step number: a trainer
    that logs every N steps (N a round number: 10, 50, 100) prints multiples of N, so the largest
    1, 2 or 5 × 10^k dividing the step (step 100: 100; step 120: 20; step 7: 1). None at step 0."""
    if step <= 0:
        return None
    stride, power = 1, 1
    while power <= step:
        for k in (1, 2, 5):
            if k * power <= step and step % (k * power) == 0:
                stride = k * power
        power *= 10
    return stride


def _first_line_limit(step: int, step_seconds: float, limit: float) -> tuple[float, tuple[int, int | None] | None]:
    """The stall limit before a second step line, which a log printing every N steps (its time per
    step printed) sends N steps later: 6 × N × the step time (at most an hour), or a floor when the
    step number gives no N; and (the step, N) when that raised the limit."""
    stride = printed_stride(step)
    if stride is None:
        return (limit, None) if limit >= FIRST_LINE_FLOOR_SECONDS else (FIRST_LINE_FLOOR_SECONDS, (step, None))
    guessed = min(STALL_FACTOR * stride * step_seconds, float(PAUSE_LIMIT_SECONDS))
    return (limit, None) if stride == 1 or guessed <= limit else (guessed, (step, stride))


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


# A time left the trainer printed is shown beside tokwatch's only while they agree within this factor (and a
# minute): tokwatch's is the log's own steps left at the log's own pace, two figures it prints; a printed one
# that far off rests on something the log does not show (LLaMA-Factory's ``remaining_time`` after a resume
# counts only the resumed session's few steps: 3 min for 1,516 steps of 14.5 s).
TRAINER_ETA_FACTOR = 2.0
TRAINER_ETA_SLACK_SECONDS = 60.0


def trainer_eta(stage: Stage, eta_seconds: float | None) -> float | None:
    """The trainer's printed time left, unless tokwatch's (``eta_seconds``, over the same steps) contradicts it.

    mmengine's ``eta`` beside an epoch's count is the whole run's, tokwatch's the epoch's: not compared."""
    latest = stage.latest
    printed = finite(latest.trainer_eta_seconds)
    if printed is None or eta_seconds is None or (latest.run_eta and not latest.ends_at_total):
        return printed
    low, high = sorted((printed, eta_seconds))
    return printed if high <= TRAINER_ETA_FACTOR * low + TRAINER_ETA_SLACK_SECONDS else None


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
