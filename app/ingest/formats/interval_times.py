"""A time a step line prints for the interval since the line before it, not for one step.

A loop that logs every N steps often prints the time since its last record under a name that
says nothing of it (MedicalDataAugmentationTool's ``train iter: 200 … seconds: 123.053``, a line
every 100 iterations): 123 s is the hundred iterations' time, 1.23 s a step. The log's own
clock decides it: a printed time that matches the clock between two step lines several steps
apart covers the steps between them, since no single step of the interval can take as long as
all of them. Where the clock does not say so, the printed time stays as it was read. (Lines the
reader dates are the tracker's to judge: ``timing.clock_contradicts``.)

A rate printed on the same line says so too: ``seconds: 123.0`` beside ``it/s: 0.81`` is no step's
time (a step takes 1.23 s at that rate), and the rate's time is shown instead.

A line the reader could not date (a bare time of day leading it, ``02:31:56: train iter: 100 …``) still
says how far apart two lines are: :func:`day_seconds` reads that clock for the gap alone.

A step's time printed with no unit (ezpz's and wordplay's ``dt=0.0199``) is the other way round: the dates between two
records confirm its unit (seconds, within an order of magnitude of their mean a step), and from then on the printed
figure is the step's time, where the dates' span also holds a sample printed or a checkpoint saved
(:func:`unitless_agrees`).

A time printed under the bare name ``time`` with no unit is either: the records' dates between it and the record before
decide, record by record (:func:`bare_time_reading`). Printed near the whole span of dates between two records several
steps apart (HDRUNet's ``<epoch:193, iter: 505,700, lr:5.000e-05, , time:113.664>`` a record every 100 iterations,
113.665 s after the one before; PSENet.pytorch's ``step: 120, …, time:3.0781`` ten batches and 3 s after ``step: 110``),
it is the interval's, and a step's time is it over the steps; printed well under that span (or one step on), it is one
step's (``step: 121, …, time:0.3849``), in seconds, within an order of magnitude of the span's mean a step. Otherwise
(a run's clock, ``time: 18570.12``, far above both) it stays a figure without its unit.
"""

from __future__ import annotations

import re

# How far a printed time may stand from the clock between the two lines and still be that interval's: a share
# of the gap (the record is written a little after the time is taken) and the dates' whole seconds.
GAP_SHARE = 0.15
GAP_SLACK_SECONDS = 2.0
# The clock between the two lines must be this long at least: lines stamped in one burst say nothing of the steps.
MIN_GAP_SECONDS = 5.0
_DAY = 24 * 60 * 60
_LEADING_CLOCK = re.compile(r"\[?([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:[.,]\d{1,6})?\]?:?\s")


def day_seconds(text: str) -> float | None:
    """The time of day a line leads with (``02:31:56: …``, ``[02:31:56] …``), in seconds since midnight."""
    m = _LEADING_CLOCK.match(text)
    if m is None:
        return None
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))


def day_gap(before: float, after: float) -> float:
    """The seconds from one time of day to the next one read after it (across midnight, once)."""
    return (after - before) % _DAY


def interval_note(printed_seconds: float, steps: int) -> str:
    """How the step's time was worked out from the interval's."""
    return f"{printed_seconds:g} s printed for the {steps:,} steps since the line before, as the log's dates show"


def per_step_seconds(printed_seconds: float, steps: int, gap_seconds: float) -> float | None:
    """One step's time, when ``printed_seconds`` is the ``steps`` steps' between two lines ``gap_seconds`` apart
    by the log's dates (None: the printed time is not that interval's)."""
    if steps < 2 or gap_seconds < MIN_GAP_SECONDS or printed_seconds <= 0:
        return None
    if abs(printed_seconds - gap_seconds) > GAP_SHARE * gap_seconds + GAP_SLACK_SECONDS:
        return None
    return printed_seconds / steps


# A step's time printed with no unit under a name that says only that it is one (ezpz's and wordplay's ``dt=0.0199``,
# ``step_time: 0.74``): seconds, as Python's clock gives them, once the log's dates between two records agree with it
# within this factor (an order of magnitude: the records' span may hold other work, a sample or a save, the step's
# own time never does). Their parts (``dtf``, ``dtb``: the forward and backward passes) are no step's time.
UNITLESS_FACTOR = 10.0
UNITLESS_NAMES = frozenset({"dt", "step time", "iter time", "time per step", "timer"})
UNITLESS_NOTE = "as printed, in seconds as the log's dates confirm"


def unitless_agrees(printed: float, steps: int, gap_seconds: float) -> bool:
    """Whether a unitless step time is one step's seconds by the log's dates: ``steps`` steps took ``gap_seconds``
    between two records, and the printed time is within :data:`UNITLESS_FACTOR` of their mean."""
    if steps < 1 or printed <= 0 or gap_seconds <= 0:
        return False
    each = gap_seconds / steps
    return each / UNITLESS_FACTOR <= printed <= each * UNITLESS_FACTOR


# A printed time this many times what the rate printed beside it gives a step is more than a step's time.
RATE_FACTOR = 3.0


def rate_note(printed_seconds: float) -> str:
    """How the step's time was worked out where the printed time is far above the rate beside it."""
    return f"from the it/s printed beside it; its {printed_seconds:g} s is more than a step takes at that rate"


def above_rate(printed_seconds: float, iterations_per_second: float) -> bool:
    """Whether a printed time is far above the time a step takes at the rate printed on the same line."""
    return iterations_per_second > 0 and printed_seconds > RATE_FACTOR / iterations_per_second


# A bare ``time`` near the span of dates between two records (half of it to half again, and the dates' whole seconds) is
# that span's: the interval's time since the record before, its steps' time over them.
BARE_INTERVAL_LOW = 0.5
BARE_INTERVAL_HIGH = 1.5
BARE_STEP_NOTE = "time as printed, in seconds as the log's dates show"


def bare_time_reading(printed: float, steps: int, gap_seconds: float) -> tuple[float, str] | None:
    """One step's time and how it was read, from a bare ``time`` printed on a record ``steps`` steps and ``gap_seconds``
    of dates after the record before it (None: neither the interval's nor a step's by the dates)."""
    if steps < 1 or printed <= 0 or gap_seconds <= 0:
        return None
    near_span = BARE_INTERVAL_LOW * gap_seconds <= printed <= BARE_INTERVAL_HIGH * gap_seconds + GAP_SLACK_SECONDS
    if steps >= 2 and near_span:
        return printed / steps, interval_note(printed, steps)
    if (steps == 1 or printed < BARE_INTERVAL_LOW * gap_seconds) and unitless_agrees(printed, steps, gap_seconds) and (
            printed <= BARE_INTERVAL_HIGH * gap_seconds + GAP_SLACK_SECONDS):
        return printed, BARE_STEP_NOTE
    return None
