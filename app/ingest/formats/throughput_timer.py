"""DeepSpeed's ThroughputTimer line, as the generic step reader reads it under the engine's own step line.

DeepSpeed's engine prints its step (``[Rank 0] step=40, skipped=2, lr=[5e-05]``), and its ThroughputTimer
(deepspeed/utils/timer.py) a line of its own under it: the epoch and the global step, then the samples a second
(``0/40, SamplesPerSec=83.49, MemAllocated=0.26GB``; later ``epoch=0/micro_step=40/global_step=10,
RunningAvgSamplesPerSec=25.03, CurrSamplesPerSec=25.70``). The step's samples a second are the latest's where it prints
both (its running average is the run's so far).
"""

from __future__ import annotations

import re

from .classes import Kin, Named
from .fields import NUM, number
from .grammar import normalise

_THROUGHPUT_TIMER = re.compile(r"(?:\d{1,9}/(\d{1,12})|epoch=\d{1,9}/micro_step=\d{1,12}/global_step=(\d{1,12})),"
                               r" (?:RunningAvg|Curr)?SamplesPerSec=")
_SAMPLES_RATE = re.compile(rf"\b((?:RunningAvg|Curr)?SamplesPerSec)=({NUM})")
MAYBE = "SamplesPerSec="  # the cheap test


def throughput_timer(s: str) -> tuple[int, Named | None] | None:
    """The global step a timer line ``s`` counts and its samples a second (None: no rate it prints reads as a
    number); None where ``s`` is no timer line."""
    timer = _THROUGHPUT_TIMER.match(s)
    if timer is None:
        return None
    step = int(timer.group(1) or timer.group(2))
    rates = dict(_SAMPLES_RATE.findall(s))
    name = next((n for n in ("CurrSamplesPerSec", "SamplesPerSec", "RunningAvgSamplesPerSec") if n in rates), None)
    value = number(rates[name]) if name is not None else None
    if name is None or value is None:
        return step, None
    return step, Named(Kin.RATE, normalise(name), value, name)
