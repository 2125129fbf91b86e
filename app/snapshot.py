"""The snapshot: everything a viewer needs, frozen, and the one function that serialises it.

The JSON shape is a documented contract (docs/snapshot.md); `/api/snapshot`,
`/ws` and `tokwatch once --json` all go through :func:`to_dict`.
"""

from __future__ import annotations

import json
import math
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
class EvalView:
    """One evaluation figure of a step trainer: its name, value (null: not a number) and step."""

    name: str
    value: float | None
    step: int | None


@dataclass(frozen=True, slots=True)
class DataView:
    """Where the trainer is in its data: the epoch, nanochat's parquet file and row group."""

    epoch: float | None
    parquet_index: int | None
    row_group: int | None
    row_groups_per_step: float | None


@dataclass(frozen=True, slots=True)
class AllReduceView:
    """A decentralised run's all-reduce rounds (SN38): counts, the last group's size, the last error."""

    succeeded: int
    failed: int
    peers: int | None
    last_error: str | None


@dataclass(frozen=True, slots=True)
class ErrorsView:
    """The trainer's other errors: how many, the last one and when."""

    count: int
    last_error: str | None
    last_at: float | None


@dataclass(frozen=True, slots=True)
class CrashView:
    """How the run died: the error's last line and when it was read."""

    error: str
    at: float | None


@dataclass(frozen=True, slots=True)
class CollaborationView:
    """A hivemind collaboration's progress: its epoch, samples, peers and the next epoch's due time."""

    epoch: int
    samples: int
    peers: int
    eta_seconds: float | None


@dataclass(frozen=True, slots=True)
class TrainingView:
    """A step trainer's figures (docs/snapshot.md ``training``): numbers finite or null where unknown.

    ``grad_norm`` alone keeps a non-finite value as printed: a gradient norm of nan is the very news.
    """

    stage: str | None = None
    step: int | None = None
    total_steps: int | None = None
    outer_step: int | None = None
    progress_percent: float | None = None
    loss: float | None = None
    loss_note: str | None = None
    lr: float | None = None
    lr_multiplier: float | None = None
    grad_norm: float | None = None
    step_seconds: float | None = None
    tokens_per_second: float | None = None
    tokens_per_second_scope: Literal["device", "global"] | None = None
    mfu: float | None = None
    mfu_note: str | None = None
    tokens_per_hour: float | None = None
    steps_per_hour: float | None = None
    eta_seconds: float | None = None
    trainer_eta_seconds: float | None = None
    eval: tuple[EvalView, ...] = ()
    data: DataView | None = None
    all_reduce: AllReduceView | None = None
    figures: tuple[tuple[str, float], ...] = ()  # the trainer's other figures, by its own names
    paused: str | None = None
    seconds_since_step: float | None = None
    stall_after_seconds: float | None = None
    stalled: bool = False
    finished: bool = False
    logged_steps: bool = False
    errors: ErrorsView | None = None
    collaboration: CollaborationView | None = None
    crash: CrashView | None = None
    broken: str | None = None
    # Loss spikes that recovered or not (app/stats/steps/spikes.py): how many, and the steps the latest began at.
    loss_spikes: int | None = None
    loss_spike_steps: tuple[int, ...] = ()

    def evaluation(self, name: str) -> EvalView | None:
        """The evaluation figure called ``name``, or None."""
        return next((figure for figure in self.eval if figure.name == name), None)


def training_dict(view: TrainingView) -> dict[str, Any]:
    """The ``training`` object as plain JSON-ready data: evaluations and figures keyed by name, null when none."""
    data: dict[str, Any] = {}
    for name in TrainingView.__slots__:
        value = getattr(view, name)
        if name == "eval":
            value = {figure.name: {"value": figure.value, "step": figure.step} for figure in value} or None
        elif name == "figures":
            value = dict(value) or None
        elif name == "grad_norm":
            value = _printed(value)
        elif name == "loss_spike_steps":
            value = list(value) or None
        data[name] = _view(value)
    if view.step is None:
        # Before a first step the object has always carried the collaboration last: readers of old
        # reports compare it as written.
        data["collaboration"] = data.pop("collaboration")
    return data


_NESTED = frozenset({"eval", "figures", "data", "all_reduce", "errors", "collaboration", "crash", "grad_norm",
                     "loss_spike_steps"})


def training_from_dict(data: dict[str, Any]) -> TrainingView:
    """A ``training`` object as JSON carries it (a report, perhaps from an older agent) as a view."""
    evals = data.get("eval") or {}
    figures = data.get("figures") or {}

    def part(key: str, view: Any) -> Any:
        inner = data.get(key)
        return view(**{name: inner.get(name) for name in view.__slots__}) if isinstance(inner, dict) else None

    grad = data.get("grad_norm")
    plain: dict[str, Any] = {name: data.get(name) for name in TrainingView.__slots__
                             if name not in _NESTED and data.get(name) is not None}
    return TrainingView(
        **plain,
        grad_norm=float(grad) if isinstance(grad, str) else grad,
        eval=tuple(EvalView(str(name), figure.get("value"), figure.get("step"))
                   for name, figure in evals.items() if isinstance(figure, dict)),
        figures=tuple((str(name), value) for name, value in figures.items()),
        data=part("data", DataView), all_reduce=part("all_reduce", AllReduceView), errors=part("errors", ErrorsView),
        collaboration=part("collaboration", CollaborationView), crash=part("crash", CrashView),
        loss_spike_steps=tuple(int(step) for step in data.get("loss_spike_steps") or () if isinstance(step, int)),
    )


def _printed(value: float | None) -> float | str | None:
    """A figure as the trainer printed it: a number, or ``"nan"``/``"inf"``/``"-inf"`` as text.

    JSON has no NaN (the snapshot is serialised with ``allow_nan=False``), and null would read as
    "not printed".
    """
    if value is None or math.isfinite(value):
        return value
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")


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
    training: TrainingView | None = None
    # When the current state began (unix), or null when unknown.
    state_since: float | None = None
    # The last 50 timeline entries, newest first.
    events: tuple[EventView, ...] = ()
    network: NetworkView | None = None
    # From the history store (filled by the wiring, never by a tracker); null with --no-history.
    usual: UsualView | None = None
    today: TodayView | None = None
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
    if isinstance(value, TrainingView):
        return training_dict(value)
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
