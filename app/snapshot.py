"""The snapshot: everything a viewer needs, frozen, and the one function that serialises it.

The JSON shape is a documented contract (docs/snapshot.md); `/api/snapshot`,
`/ws` and `tokwatch once --json` all go through :func:`to_dict`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from .text import visible

State = Literal[
    "waiting",
    "queued",
    "working",
    "measuring",
    "training",
    "idle",
    "silent",
    "stalled",
    "done",
    "diverged",
    "crashed",
    "broken",
    "unrecognised",
    "offline",  # the hub's word for a machine that stopped reporting (never a local log's)
]
Level = Literal["ok", "waiting", "warning", "problem"]

_LEVELS: dict[str, Level] = {
    "training": "ok",
    "measuring": "ok",
    "done": "ok",
    "waiting": "waiting",
    "queued": "waiting",
    "working": "waiting",
    "idle": "warning",
    "stalled": "warning",
    "silent": "problem",
    "diverged": "problem",
    "crashed": "problem",
    "broken": "warning",
    "unrecognised": "problem",
    "offline": "problem",
}


def level_of(state: str, problem: str | None, lost_layer: bool = False) -> Level:
    """How the state reads at a glance: ok, waiting, warning or problem (any source problem is one).

    ``lost_layer``: queued because the layer was taken away, not waiting for a first one: a warning.
    """
    if problem:
        return "problem"
    if lost_layer and state == "queued":
        return "warning"
    return _LEVELS.get(state, "problem")


@dataclass(frozen=True, slots=True)
class QueueView:
    position: int | None
    status: str
    # Positions per hour towards the front over the last 10 minutes (negative: moving back).
    trend_per_hour: float | None = None
    eta_seconds: float | None = None
    resets_24h: int = 0
    last_reset_at: float | None = None


@dataclass(frozen=True, slots=True)
class RateView:
    measured: bool
    tokens_per_hour: float | None
    passes_per_hour: float | None
    tokens_per_pass: int | None
    passes_in_window: int
    observed_seconds: float
    window_seconds: float
    last_pass_at: float | None = None
    # What an idle, silent or re-measuring miner was doing at its last measured pass (else null).
    was_tokens_per_hour: float | None = None


@dataclass(frozen=True, slots=True)
class WarmupView:
    passes: int
    passes_needed: int
    observed_seconds: float
    seconds_needed: float
    done: bool
    # The warm-up in one sentence (`measuring: 2 of 3 passes · …`), null once measured.
    text: str | None = None


@dataclass(frozen=True, slots=True)
class RunView:
    id: str | None
    epoch: int | None
    phase: str | None


@dataclass(frozen=True, slots=True)
class GpuMemoryView:
    used_gb: float
    total_gb: float | None


@dataclass(frozen=True, slots=True)
class BackendErrorsView:
    queue_state_503: int
    not_found_404: int
    window_seconds: float
    # The details line that reports them (`Backend: 3×503 queue_state, 0×404`), null when none.
    text: str | None = None


@dataclass(frozen=True, slots=True)
class FieldRow:
    """One row of a step trainer's "All training fields": what, the figure as written, its unit."""

    label: str
    value: str
    unit: str


@dataclass(frozen=True, slots=True)
class NetworkView:
    """Activation transfer bytes (sent and received) per second over the window."""

    bytes_per_second: float
    window_seconds: float


@dataclass(frozen=True, slots=True)
class EventView:
    """One entry of the timeline: when (log time), what kind, and the text a person reads."""

    at: float
    kind: str
    text: str
    # A layer change's layers, from and to: the chart names the rate line's segment on each side.
    layers: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class TickingView:
    """An age the page writes itself every second, so it never reads older than the page's clock.

    ``line`` -1 is the status line, else the index of a ``details`` line; the page writes
    ``template`` with ``{}`` replaced by the time since ``at``: ``duration`` as `3 h 05 min`,
    ``ago`` in its largest unit (`3 h`), as app/text.py writes them.
    """

    line: int
    at: float
    template: str
    style: Literal["duration", "ago"]


@dataclass(frozen=True, slots=True)
class LostLayerView:
    """The miner lost its registration (deregistered) and is back in the queue: which layer, when."""

    layer: int
    at: float
    text: str  # the state's sentence: `lost layer 1 at 14:06 — back in the queue`


@dataclass(frozen=True, slots=True)
class FollowingView:
    """Folder mode: the file followed, why that one, and the newer ``*.log`` files passed over."""

    path: str | None
    reason: str
    ignored: tuple[str, ...]
    ignored_total: int
    text: str  # the line the page shows under the source


@dataclass(frozen=True, slots=True)
class SourceView:
    path: str | None
    size_bytes: int | None
    lines_read: int
    bad_lines: int
    last_event_at: float | None
    problem: str | None = None
    demo: bool = False
    skipped: dict[str, int] = field(default_factory=dict)
    following: FollowingView | None = None


@dataclass(frozen=True, slots=True)
class UsualView:
    """The median tok/h over the last 7 days on this layer and tokens per pass (≥ 3 h of basis)."""

    tokens_per_hour: float
    basis_hours: float
    delta_percent: float | None  # the current rate against it; null while not measured, or idle or silent


@dataclass(frozen=True, slots=True)
class TodayView:
    """Since local midnight: tokens, passes (steps for a step trainer), time training and time observed."""

    tokens: int
    passes: int
    training_seconds: float
    observed_seconds: float


@dataclass(frozen=True, slots=True)
class CountsView:
    """Running totals since tokwatch began reading this log (Prometheus counters are built on them)."""

    passes: int  # passes for the miner, steps for step trainers
    tokens: int  # tokens of the passes (steps) whose size was known
    backend_errors: dict[str, int]  # by HTTP status code: {"503": n, "404": n}


@dataclass(frozen=True, slots=True)
class Snapshot:
    status_line: str
    state: State
    format: str | None
    layer: int | None
    queue: QueueView | None
    rate: RateView
    warmup: WarmupView
    step: int | None
    run: RunView | None
    gpu_memory: GpuMemoryView | None
    backend_errors: BackendErrorsView
    details: tuple[str, ...]
    history: tuple[tuple[float, float | None], ...]
    source: SourceView
    as_of: float
    # Step-based trainers (nanochat, nanoGPT, …) fill this; null for the IOTA miner.
    training: dict[str, Any] | None = None
    # When the current state began (unix), or null when unknown.
    state_since: float | None = None
    # The last 50 timeline entries, newest first.
    events: tuple[EventView, ...] = ()
    network: NetworkView | None = None
    # From the history store (filled by the wiring, never by a tracker); null with --no-history.
    usual: UsualView | None = None
    today: TodayView | None = None
    # Moves when a longer range of the history has more to show (the import's progress); null without one.
    history_revision: int | None = None
    # Filled by the wiring, not the trackers: open alerts, recent messages, delivery figures
    # (app.alerts; never a URL). Null when no alert service runs (``--once``).
    alerts: dict[str, Any] | None = None
    counts: CountsView | None = None
    # What the history measures, or null when this log cannot give it (no token counts).
    history_unit: str | None = "tok/h"
    # Step trainers: every field of `training` as labelled rows with units.
    training_fields: tuple[FieldRow, ...] = ()
    # Queued again after the layer was lost (deregistered), else null.
    lost_layer: LostLayerView | None = None
    # The ages in the status line and details, for the page to keep them ticking.
    ticking: tuple[TickingView, ...] = ()
    # Filled by the wiring: a thread that failed and is being restarted, one line each (app.supervise).
    problems: tuple[str, ...] = ()

    @property
    def level(self) -> Level:
        """The state at a glance (see :func:`level_of`)."""
        return level_of(self.state, self.source.problem, self.lost_layer is not None)


def _view(value: Any) -> Any:
    if isinstance(value, str):
        return visible(value)  # a path's undecodable bytes, wherever they went: never a 500
    if value is None or isinstance(value, (int, float, bool)):
        return value
    if isinstance(value, dict):
        return {visible(str(k)): _view(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_view(v) for v in value]
    slots = getattr(type(value), "__slots__", None)
    if slots is not None:
        return {name: _view(getattr(value, name)) for name in slots}
    raise TypeError(f"cannot serialise {type(value).__name__}")


def to_dict(snapshot: Snapshot) -> dict[str, Any]:
    """Turn a snapshot into plain JSON-ready data (the documented contract)."""
    fields: dict[str, Any] = _view(snapshot)
    data: dict[str, Any] = {}
    for key, value in fields.items():
        data[key] = value
        if key == "state":
            data["level"] = snapshot.level  # derived, so not a field: it can never disagree
    return data


def to_json(snapshot: Snapshot) -> str:
    """Serialise a snapshot to compact JSON (NaN/inf never appear: they become null upstream)."""
    return json.dumps(to_dict(snapshot), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
