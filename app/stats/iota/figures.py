"""What the IOTA miner's status words read of its tracker, frozen at one moment.

The tracker (app/stats/iota/tracker.py) answers :meth:`IotaTracker.figures` and the words
(app/stats/iota/status.py) read only this: they cannot reach back into the tracker's parts.
"""

from __future__ import annotations

from dataclasses import dataclass

from .shell import Cause
from .timeline import TimelineEntry


@dataclass(frozen=True, slots=True)
class IotaFigures:
    """The tracker's figures at ``now``, as the state, the status line, the details and the timeline need them."""

    has_records: bool
    format_name: str | None
    layer: int | None
    clock: float | None  # the newest log time applied
    first_at: float | None  # the oldest log time applied
    queue_since: float | None  # in the registration queue since (None: not queued)
    queue_position: int | None
    queue_silent_seconds: float  # a queued miner's log quiet this long is silent (its polls stopped)
    working_since: float | None  # no layer since (reset, queue left, new file)
    last_pass_at: float | None
    idle_since: float | None  # a layer but no pass, since (None: not idle at ``now``)
    idle_reported: bool  # the current idle gap is already on the timeline
    idle_entry: TimelineEntry | None  # the timeline's entry for the current idle gap
    stretch_start: float | None
    measured_at: float | None  # the stretch's third pass
    back_at: float | None  # passes or lines came back after idle or silence
    was_tokens_per_hour: float | None  # the rate at the stretch's last pass
    fact_lines: tuple[str, ...]  # run, phase, GPU: the facts' detail lines at ``now``
    # Why the log is silent or the miner idle, when the app's shell log says (None: unknown or not read).
    stop_cause: Cause | None = None
    idle_cause: Cause | None = None
    crash: Cause | None = None  # the worker aborted (its own log says), the log still talking
    # The registration lifecycle (app/stats/iota/queue.py): the queue's status and since when,
    # the trend at a glance (`▼ −120/h · front in ~3 h`), the orchestrator's "initializing" since.
    queue_status: str = "queued"
    queue_status_since: float | None = None
    queue_glance: str | None = None
    initializing_since: float | None = None
    lost_layer: int | None = None  # the layer a deregistration took, while back in the queue for another
