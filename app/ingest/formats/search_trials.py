"""A hyperparameter search's own lines around the trainings it runs, as the generic step reader reads them.

A search's count is of trials, never of training steps, and its figures are its own (an objective's value, the best so
far), never the run's loss. Two searches' lines are read:

- **Optuna**'s logger prints, since 2019, a line each trial that ends (its stamp read by the line's prefix): the trial,
  the objective's value, the trial's parameters, the best trial so far and its value (``Trial 42 finished with value:
  0.934375 and parameters: {'lr': 0.0022}. Best is trial 31 with value: 0.95.``), or a trial stopped early (``Trial 45
  pruned.``). The trial is the search's position (TrainStep.counter); the objective's value and the best so far are
  figures under their own names (a value is whatever the search optimises, raised or lowered); the trial's parameters
  are no figure of the run (a sampled ``lr`` is no learning rate the run trains at).
- **Keras Tuner** (and AutoKeras, built on it) runs one training a trial and says so around each: ``Search: Running
  Trial #3`` as a trial begins, its hyperparameters' table, the trial's own Keras ``fit`` (each epoch's bar), then
  ``Trial 3 Complete [00h 02m 11s]``, the objective's value the trial reached (``val_accuracy: 0.8659``), the best so
  far (``Best val_accuracy So Far: 0.8659``) and the search's clock (``Total elapsed time: 00h 04m 22s``). A trial's
  ``fit`` reaching its last epoch ends that trial, not the search, which ends in its own words only (``Search
  complete``, or the last trial of a printed total complete: ``Trial 50/50 Complete``). The lines are Keras Tuner's
  ``engine/oracle.py`` (``on_trial_begin``, ``on_trial_end``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .fields import FIGURE_PART, NUM

_SEARCH_TRIAL = re.compile(
    rf"(?:^|\] )Trial (\d{{1,9}}) (?:finished with value: ({NUM}) and parameters: \{{.*\}}\. "
    rf"Best is trial \d{{1,9}} with value: ({NUM})\.|pruned\.)\s*$"
)
MAYBE = "Trial "  # the cheap test, on the line's first 48 characters


@dataclass(frozen=True, slots=True)
class Trial:
    """A trial ended: its number, and its figures under their own names (none for a trial pruned)."""

    number: int
    figures: tuple[tuple[str, float], ...]


def search_trial(s: str) -> Trial | None:
    """The trial ``s`` says has ended, or None for any other line."""
    m = _SEARCH_TRIAL.search(s)
    if m is None:
        return None
    value, best = m.group(2), m.group(3)
    figures: tuple[tuple[str, float], ...] = ()
    if value is not None and best is not None:
        figures = ((FIGURE_PART + "value", float(value)), (FIGURE_PART + "best value", float(best)))
    return Trial(int(m.group(1)), figures)


# Keras Tuner's lines.
# ``Search: Running Trial #3`` (Keras Tuner since 1.1); a trial count may carry the search's total (``Trial 3/50``).
_BEGUN = re.compile(r"^Search: Running Trial #(\d{1,9})(?:/(\d{1,9}))?\s*$")
# ``Trial 3 Complete [00h 02m 11s]``: the trial, and the time it took as the tuner prints it (hours, minutes, seconds).
_COMPLETE = re.compile(r"^Trial #?(\d{1,9})(?:/(\d{1,9}))? Complete \[(\d{1,5})h (\d{1,2})m (\d{1,2})s\]\s*$")
# The search's lines after a trial that are no figure of it: the best so far (an earlier trial's, maybe), the search's
# clock (no run's time as it ended: the search goes on).
_SAID = re.compile(r"^(?:Best [\w./-]{1,80} So Far: \S{1,40}|Total elapsed time: \d{1,5}h \d{1,2}m \d{1,2}s)\s*$")
# The search's own end words.
_ENDED = re.compile(r"^(?:Search complete|Search finished|Hyperparameter search complete|Oracle triggered exit)\b")
# The objective's value the tuner prints under a trial complete: one ``name: value`` alone on its line.
_OBJECTIVE = re.compile(r"^[A-Za-z_][\w./-]{0,80}: (?:[-+]?\d[\d.eE+-]{0,30}|None)\s*$")


@dataclass(frozen=True, slots=True)
class SearchLine:
    """One of a search's own lines: what it says (``begun``, ``complete``, ``said``, ``ended``), the trial it names and
    the search's total where printed, and a trial's time as printed."""

    what: str
    trial: int | None = None
    total: int | None = None
    seconds: float | None = None


def search_line(s: str) -> SearchLine | None:
    """A search's own line (see the module's docstring) as what it says, or None for any other line."""
    head = s[:7]
    if head == "Search:" and (begun := _BEGUN.match(s)) is not None:
        return SearchLine("begun", int(begun.group(1)), _total(begun.group(2)))
    if head[:5] == "Trial" and (done := _COMPLETE.match(s)) is not None:
        hours, minutes, seconds = (int(done.group(i)) for i in (3, 4, 5))
        return SearchLine("complete", int(done.group(1)), _total(done.group(2)), hours * 3600.0 + minutes * 60.0 + seconds)
    if head[:5] in ("Best ", "Total") and _SAID.match(s) is not None:
        return SearchLine("said")
    if head[:6] in ("Search", "Hyperp", "Oracle") and _ENDED.match(s) is not None:
        return SearchLine("ended")
    return None


def objective_line(s: str) -> bool:
    """Whether a line is the objective's value a tuner prints under its trial complete (``val_accuracy: 0.8659``)."""
    return len(s) <= 120 and _OBJECTIVE.match(s) is not None


def _total(printed: str | None) -> int | None:
    return int(printed) if printed is not None and int(printed) > 0 else None
