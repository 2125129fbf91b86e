"""Keras's progress lines, as the generic step reader reads them.

Keras draws a bar for each epoch's steps (``100/1000 [==>....] - ETA: 1:23 - loss: 2.3``, Keras 3's
``1000/1000 ━━━━ 25s 25ms/step - loss: 0.2``); ``fit(verbose=2)`` prints one line an epoch with no bar
(``370515/370515 - 13s - loss: 0.2 - val_loss: 0.05``; Keras 1's ``67s - loss: 2.4808 …`` with no count at
all). Its epoch is said on the line above (``Epoch 3/15``), which the generic reader reads.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .grammar import Field, Reading, pairs

# Keras' ``fit(verbose=2)`` prints one line an epoch with no bar: ``370515/370515 - 13s - loss: 0.2 - val_loss: 0.05``.
_KERAS = re.compile(r"^(?P<n>\d{1,12})/(?P<m>\d{1,12}) (?:\[[=>.]{0,200}\]|━{1,200}|- (?=\d{1,6}(?:\.\d+)?m?s - ))")
# A step's time as Keras prints it; Keras 2 and tf.keras before 2.2 count a ``fit`` on arrays in samples (``Train on 60000
# samples``, ``60000/60000 [====] - 43s 721us/sample``): the bar's unit, and its time, are a sample's.
_PER_STEP = re.compile(r"\b(\d{1,9}(?:\.\d+)?)(ms|s|us)/(step|sample)\b")
# The epoch's time a full Keras bar prints with no time a step (``187/187 - 33s - loss: …``, Keras 1/2's
# ``20000/20000 [======] - 25s - loss: …``), and Keras 1's ``fit(verbose=2)`` line, no count at all, under its
# ``Epoch 3/15``: ``67s - loss: 2.4808 - acc: 0.2275 - val_loss: 2.1192``.
_EPOCH_TIME = re.compile(r"\s*(?:-\s)?(\d{1,7}(?:\.\d+)?)(ms|s)(?=\s+-\s|\s*$)")
_EPOCH_BEFORE_STEP = re.compile(r"\s*-\s(\d{1,7}(?:\.\d+)?)(ms|s)\s+\d{1,9}(?:\.\d+)?(?:ms|s|us)/(?:step|sample)\b")
_KERAS_EPOCH = re.compile(r"^\s*-?\s?(\d{1,7}(?:\.\d+)?)(ms|s) - (?=\w)")
# A whole second's rounding is more than 5 % of a time under ten seconds: such a time says no step's.
MIN_ROUNDED_EPOCH_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class KerasLine:
    """A Keras line that is a step: its figures, and its bar's count where it draws one."""

    readings: list[Reading]
    rest: str = ""  # what follows the bar (its figures as printed)
    count: tuple[int, int] | None = None  # the bar's steps and the epoch's (None: an epoch's line with no count)
    step_seconds: float | None = None
    seconds_note: str | None = None  # how ``step_seconds`` was worked out, where no step's own time is printed
    epoch_seconds: float | None = None  # Keras 1's ``fit(verbose=2)`` line (``67s - loss: …``): its epoch's time
    bar_seconds: float | None = None  # a full bar's own time as printed (``- 712s -``, ``- 106s 2ms/step``), where it says one
    counts: str | None = None  # what the bar counts where it says it is no step (``…us/sample``: ``sample``)


def keras_line(s: str) -> KerasLine | None:
    """A Keras bar or epoch line as a step's figures, or None."""
    keras = _KERAS.match(s)
    if keras is not None:
        rest = s[keras.end() :]
        per_step = _PER_STEP.search(rest)
        seconds = None
        if per_step is not None:
            value = float(per_step.group(1))
            seconds = value / {"ms": 1e3, "s": 1.0, "us": 1e6}[per_step.group(2)]
        n, m = int(keras.group("n")), int(keras.group("m"))
        note = None
        whole_bar = (_EPOCH_BEFORE_STEP if per_step is not None else _EPOCH_TIME).match(rest) if n == m and n > 0 else None
        bar_seconds = _epoch_seconds(whole_bar.group(1), whole_bar.group(2)) if whole_bar is not None else None
        unit = "samples" if per_step is not None and per_step.group(3) == "sample" else "steps"
        if per_step is not None and "." not in per_step.group(1) and n == m and n > 0 and (
                per_step.group(2) == "s" or (unit == "samples" and float(per_step.group(1)) < 10)):
            # ``100/100 [====] - 143s 1s/step``: a step's time in whole seconds says 1 for 1.43; the epoch's time over
            # its steps says it to the hundredth (as ``39s 1ms/sample`` over 37800 samples says 1.03 ms)
            whole = _EPOCH_BEFORE_STEP.match(rest)
            took = _epoch_seconds(whole.group(1), whole.group(2)) if whole is not None else None
            if took is not None and whole is not None and _to_the_step(whole.group(1), whole.group(2)):
                seconds = took / n
                note = f"the epoch's {whole.group(1)}{whole.group(2)} over its {n} {unit}" if whole is not None else None
        if note is None and unit == "samples" and per_step is not None:
            note = f"a sample's: {per_step.group(0)} printed, the bar counts samples"
        epoch_time = _EPOCH_TIME.match(rest) if per_step is None and n == m and n > 0 else None
        if epoch_time is not None:
            rest = rest[epoch_time.end() :]
            # A full bar with no unit time (``50000/50000 [====] - 708s - loss: …``) says no unit of its count: Keras 1's
            # ``fit`` on arrays counts samples, Keras 2's ``fit_generator`` steps, the same shape. The epoch's time is the
            # epoch's, as printed (``bar_seconds``); no step's is divided out of a count whose unit is unsaid
            seconds = None
        readings = pairs(_PER_STEP.sub("", rest))
        if seconds is None and not any(r.field is Field.LOSS for r in readings):
            return None
        return KerasLine(readings, rest, (n, m), seconds, note, bar_seconds=bar_seconds,
                         counts="sample" if unit == "samples" else None)
    alone = _KERAS_EPOCH.match(s)
    if alone is not None:
        readings = pairs(s[alone.end() :])
        if any(r.field is Field.LOSS for r in readings) and not any(r.field is Field.STEP for r in readings):
            return KerasLine(readings, epoch_seconds=_epoch_seconds(alone.group(1), alone.group(2)))
    return None


def _epoch_seconds(value: str, unit: str) -> float:
    """An epoch's time in seconds, as printed (Keras 1's ``- 7s -``: the epoch took 7 s, rounded)."""
    return float(value) / (1e3 if unit == "ms" else 1.0)


def _to_the_step(value: str, unit: str) -> bool:
    """Whether an epoch's printed time says its steps' time: a whole second's rounding is more than 5 % of a time under
    ten seconds (``3s``), which then says the epoch's time alone."""
    return unit == "ms" or "." in value or float(value) >= MIN_ROUNDED_EPOCH_SECONDS


# A batch of data, as a bar of samples moves by it: the smallest one read as such (8, 16, 32, 64, 128 … are usual).
MIN_BATCH = 8
# Part-way counts of one total a bar must show, all multiples of its batch, before its count is read as samples.
MIN_BATCHED_COUNTS = 3


class SampleCounts:
    """Whether a Keras bar counts samples though it does not say so: Keras 1 and 2 draw ``fit`` on arrays in samples
    (``29696/57000 [====>....] - ETA: 1s``, ``2624/2960 …``) and Keras 2 labels the time of one ``…us/step`` all the
    same. A bar of samples moves a batch at a time, so all its part-way counts are multiples of the batch, while the
    total (the data's size) is no multiple of it: the last batch is short. A bar of steps moves one step at a time
    and redraws when its clock says, so its counts share no batch. Read per total, a count at a time; true once the
    bar has shown it, and from then on for every bar of that total (its full bar's too)."""

    def __init__(self) -> None:
        self._batch: dict[int, int] = {}  # a total's part-way counts' greatest common divisor so far
        self._seen: dict[int, set[int]] = {}  # … and its distinct part-way counts, up to MIN_BATCHED_COUNTS
        self._samples: set[int] = set()  # totals found to count samples

    def said(self, total: int) -> None:
        """The log said its bars of ``total`` count samples (``Train on 60000 samples``, a full bar's ``…us/sample``)."""
        self._samples.add(total)

    def counts_samples(self, done: int, total: int | None) -> bool:
        """Whether the bar at ``done`` of ``total`` counts samples, this count read with the ones before."""
        if total is None or total <= 0:
            return False
        if total in self._samples:
            return True
        if 0 < done < total:
            batch = math.gcd(self._batch.get(total, 0), done)
            self._batch[total] = batch
            seen = self._seen.setdefault(total, set())
            if len(seen) < MIN_BATCHED_COUNTS:
                seen.add(done)
            first = min(seen)
            if batch >= MIN_BATCH and len(seen) >= MIN_BATCHED_COUNTS and (total % batch != 0 or first == batch):
                self._samples.add(total)
                return True
        return False


def sample_time_note(rest: str) -> str | None:
    """How a bar of samples' printed unit time is a sample's (``a sample's: 127us/step printed, the bar counts
    samples``), or None where the bar prints none."""
    per_step = _PER_STEP.search(rest)
    return None if per_step is None else f"a sample's: {per_step.group(0)} printed, the bar counts samples"
