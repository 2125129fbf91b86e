"""A hyperparameter search's line a trial ended, as the generic step reader reads it: Optuna's.

Optuna's logger prints, since 2019, a line each trial that ends (its stamp read by the line's prefix): the trial, the
objective's value, the trial's parameters, the best trial so far and its value (``Trial 42 finished with value:
0.934375 and parameters: {'lr': 0.0022}. Best is trial 31 with value: 0.95.``), or a trial stopped early (``Trial 45
pruned.``). The trial is the search's position (TrainStep.counter), never a training step; the objective's value and the
best so far are figures under their own names, never the loss (a value is whatever the search optimises, raised or
lowered); the trial's parameters are no figure of the run (a sampled ``lr`` is no learning rate the run trains at).
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
