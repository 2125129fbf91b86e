"""The kinds of log, each followed by one tracker, and the one place that picks it.

A format's kind comes from the format registry (app/ingest/formats/); the store keys a log's
history by the same word.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Final, Literal, TypeGuard, overload

if TYPE_CHECKING:
    from .iota.tracker import IotaTracker
    from .steps.tracker import StepTracker
    from .tracker import Tracker

Kind = Literal["miner", "steps"]
MINER: Final = "miner"
STEPS: Final = "steps"


@overload
def tracker_for(kind: Literal["steps"], format_name: str) -> StepTracker: ...
@overload
def tracker_for(kind: Literal["miner"], format_name: str) -> IotaTracker: ...
@overload
def tracker_for(kind: Kind | None, format_name: str | None) -> Tracker: ...
def tracker_for(kind: Kind | None, format_name: str | None) -> Tracker:
    """The one tracker for a log of this kind and format (None: not recognised yet)."""
    if kind is None or format_name is None:
        from .unknown import UnknownTracker

        return UnknownTracker()
    if kind == STEPS:
        from .steps.tracker import StepTracker

        return StepTracker(format_name)
    from .iota.tracker import IotaTracker

    return IotaTracker(format_name)


def is_step_tracker(tracker: object) -> TypeGuard[StepTracker]:
    """Whether ``tracker`` is a step trainer's, without loading the step tracker's code.

    A StepTracker exists only once its module is loaded: a server following a miner's log
    never loads the step trackers' code to learn that its tracker is not one.
    """
    steps = sys.modules.get(f"{__package__}.steps.tracker")
    # (listed but still running its first import in another thread: no class yet, so no tracker of it)
    step_tracker = getattr(steps, "StepTracker", None)
    return step_tracker is not None and isinstance(tracker, step_tracker)

