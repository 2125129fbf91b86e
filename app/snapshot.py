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
    # The registration lifecycle past the queue (no position): placed soon, or not.
    "processing",
    "confirmed",
    "registering",  # a registration status no one has documented: shown as it is
    "failed",
    "initializing",  # the orchestrator says so (#199: for hours after a restart)
    "working",
    "measuring",
    "training",
    "evaluating",  # a step run in an evaluation's pass: its last records are that pass's, under way
    "idle",
    "silent",
    "stalled",
    "done",
    "diverged",
    "crashed",
    "stopped",  # a step run someone stopped (Ctrl-C, SIGTERM, a scheduler's cancel) before its end
    "broken",
    # a collaborator (SN38, hivemind): not in its swarm yet, locked out of it, in a round, behind it, alone
    "joining",
    "cannot_join",
    "averaging",
    "out_of_sync",
    "sync_failing",
    "alone",
    "unrecognised",
    "offline",  # the hub's word for a machine that stopped reporting (never a local log's)
]
Level = Literal["ok", "waiting", "warning", "problem"]

_LEVELS: dict[str, Level] = {
    "training": "ok",
    "measuring": "ok",
    "evaluating": "ok",
    "done": "ok",
    "waiting": "waiting",
    "queued": "waiting",
    "processing": "waiting",
    "confirmed": "waiting",
    "registering": "waiting",
    "initializing": "waiting",
    "failed": "problem",
    "working": "waiting",
    "idle": "warning",
    "stalled": "warning",
    "silent": "problem",
    "diverged": "problem",
    "crashed": "problem",
    "stopped": "warning",  # over before its end, on purpose: worth a look only if nobody meant it
    "broken": "warning",
    "joining": "waiting",
    "cannot_join": "problem",
    "averaging": "ok",
    "out_of_sync": "warning",
    "sync_failing": "problem",
    "alone": "warning",
    "unrecognised": "problem",
    "offline": "problem",
}


# The orchestrator may say "initializing" for a minute after a start; past this it is a warning.
INITIALIZING_WARN_SECONDS = 15 * 60


def level_of(state: str, problem: str | None, lost_layer: bool = False, delivery: str | None = None,
             state_seconds: float | None = None) -> Level:
    """How the state reads at a glance: ok, waiting, warning or problem (any source problem is one).

    ``lost_layer``: queued because the layer was taken away, not waiting for a first one: a warning.
    ``delivery``: the forwards' level (app/stats/iota/delivery.py): a miner that trains while its
    forwards are not delivered reads at that level, never better than its state.
    ``state_seconds``: how long the state has lasted (initializing past its limit is a warning).
    """
    if problem:
        return "problem"
    if lost_layer and state == "queued":
        return "warning"
    if state == "initializing" and state_seconds is not None and state_seconds >= INITIALIZING_WARN_SECONDS:
        return "warning"
    level = _LEVELS.get(state, "problem")
    if delivery in ("warning", "problem") and _RANK[delivery] > _RANK[level]:
        return delivery  # type: ignore[return-value]
    return level


_RANK = {"ok": 0, "waiting": 1, "warning": 2, "problem": 3}


@dataclass(frozen=True, slots=True)
class QueueView:
    position: int | None
    status: str
    # Positions per hour towards the front over the last 10 minutes (negative: moving back).
    trend_per_hour: float | None = None
    eta_seconds: float | None = None
    resets_24h: int = 0
    last_reset_at: float | None = None
    # The trend as the position moves (`▲ +300/h` further back, `▼ −120/h` nearer the front).
    trend_text: str | None = None
    # This queue entry (one queue_id): its forensics, as a miner files them.
    since: float | None = None  # the entry's first poll
    best_position: int | None = None
    positions_lost: int = 0  # positions given back to resets in this entry
    entry_resets: int = 0
    resets_7d: int = 0
    restarts_7d: int = 0  # new queue ids after a restart (back of the queue)
    growing_since: float | None = None  # the position has only grown since (null: not growing)
    last_poll_at: float | None = None


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
    # The run's planned epochs where its stop said it reached them (Lightning's ``Trainer.fit` stopped: `max_epochs=24`
    # reached.``): ``epoch``, counted from zero, is the last of them
    last_of_epochs: int | None = None


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
class LossRiseView:
    """The loss rising, still a number (app/stats/steps/rising.py): its lowest before the rise and the newest, each at
    its step (null in a log that numbers no step)."""

    low: float
    low_step: int | None
    loss: float
    step: int | None
    records: int


@dataclass(frozen=True, slots=True)
class CollaborationView:
    """A hivemind collaboration's progress: its epoch, samples, peers and the next epoch's due time."""

    epoch: int | None
    samples: int
    peers: int
    eta_seconds: float | None


@dataclass(frozen=True, slots=True)
class RoundView:
    """One averaging round: when, how long, with how many peers, how it ended, whom it failed or banned."""

    started_at: float | None
    ended_at: float | None
    seconds: float | None
    peers: int | None
    outcome: Literal["ok", "failed", "running"]
    error: str | None = None
    checkpoint: int | None = None
    failed_peers: tuple[str, ...] = ()
    banned_peers: tuple[str, ...] = ()
    text: str | None = None  # the round in words, as the details and the page's markers say it
    step: int | None = None  # the run's step when it began, on its one timeline (the loss chart's x), None before any


@dataclass(frozen=True, slots=True)
class PeerView:
    """A peer met in the rounds: its UID and id as the log shortens it, rounds shared, failures, banned."""

    uid: int | None
    peer: str
    rounds: int
    failures: int
    banned: bool
    last_seen: float | None


@dataclass(frozen=True, slots=True)
class SwarmView:
    """A collaborator's place in its swarm (SN38, hivemind): joined, in sync, its rounds and peers."""

    join_failures: int = 0
    join_cause: str | None = None
    join_error: str | None = None
    join_causes: tuple[tuple[str, int], ...] = ()  # [cause, how many] of the failures in a row
    out_of_sync_since: float | None = None
    download_failures: int = 0
    download_error: str | None = None
    alone: bool = False
    rounds_ok: int = 0
    rounds_failed: int = 0
    last_good_round_at: float | None = None
    averaging_share_last_hour: float | None = None
    averaging_share_seconds: float | None = None  # the time that share covers (an hour, or less of log)
    round_since: float | None = None  # the round under way began
    samples_per_second: float | None = None  # the collaboration's, from its progress lines
    local_samples_per_second: float | None = None  # this peer's, as it prints it
    rounds: tuple[RoundView, ...] = ()  # newest first
    peers: tuple[PeerView, ...] = ()  # failing first, then most recently seen
    peers_known: int = 0
    swarm_round: str | None = None  # where the swarm's own rounds have it (gensyn rl-swarm: ``round 14 · stage 1``)
    swarm_round_said: int = 0  # how many times in a row the log said so
    state_download_seconds: float | None = None  # how long the last state download took (its start and end read)
    warnings: int = 0  # records logged at WARN (hivemind's, the miner's) that said nothing else read
    last_warning: str | None = None  # the last one's message, as printed


@dataclass(frozen=True, slots=True)
class TrainingView:
    """A step trainer's figures (docs/snapshot.md ``training``): numbers finite or null where unknown.

    ``grad_norm`` alone keeps a non-finite value as printed: a gradient norm of nan is the very news.
    """

    stage: str | None = None
    step: int | None = None
    total_steps: int | None = None
    outer_step: int | None = None
    # Where the log's counter restarted while the run went on (SN38's inner step at each outer step, a count of
    # batches at each epoch): the latest step line's x on the loss chart, its count counted on from the log's first
    # line (a place on this log's chart, no step the log prints); else None.
    chart_x: int | None = None
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
    # A log of dicts without a step number: how many it holds (the history's index for them), not a step.
    logged_records: int | None = None
    errors: ErrorsView | None = None
    collaboration: CollaborationView | None = None
    crash: CrashView | None = None
    broken: str | None = None
    swarm: SwarmView | None = None
    # Loss spikes that recovered or not (app/stats/steps/spikes.py): how many, and the steps the latest began at.
    loss_spikes: int | None = None
    loss_spike_steps: tuple[int, ...] = ()
    # The loss rising, still a number (app/stats/steps/rising.py), while the details warn of it; else None (and absent
    # from the JSON).
    loss_rising: LossRiseView | None = None
    # "epoch" where each line of the log is an epoch (its step its epoch): ``step``, ``step_seconds`` and
    # ``steps_per_hour`` then count epochs; the log's own word where its count is no step (``episode``, a data unit
    # such as ``image``), ``pass`` for a pass's count; else None (and absent from the JSON). step_word says it.
    step_unit: str | None = None
    # Where ``step`` comes from when no step line was read: ``"the crash's own words"`` (detectron2's ``… NaN at
    # iteration=2137!``), ``"the run's closing lines"`` (wandb's summary row ``training/global_step 435``); else None
    # (and absent from the JSON).
    step_said: str | None = None
    # The step as the log prints it where it rounds its counter (LeRobot's ``step:50K``): ``step`` is only that precise.
    step_printed: str | None = None
    # How ``step_seconds`` was worked out where no step's time is printed nor measured (``worked out: the trainer's
    # clock, 33.24 s over 8 steps``), as the details say it; else None (and absent from the JSON).
    step_seconds_note: str | None = None

    def evaluation(self, name: str) -> EvalView | None:
        """The evaluation figure called ``name``, or None."""
        return next((figure for figure in self.eval if figure.name == name), None)

    def step_word(self) -> str:
        """What ``step`` counts, in one word for a sentence: ``step_unit`` where the log names one (an epoch, an
        episode, an iteration), else ``step`` (a pass's count too: what it counts is that pass's steps)."""
        return self.step_unit if self.step_unit is not None and self.step_unit != "pass" else "step"


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
    if view.swarm is None:
        del data["swarm"]  # only a collaborator's log carries one
    if view.chart_x is None:
        del data["chart_x"]  # only a log whose counter restarted carries one
    if view.logged_records is None:
        del data["logged_records"]  # only a log of dicts without a step number carries one
    if view.step_unit is None:
        del data["step_unit"]  # only a log whose lines are epochs carries one
    if view.step_printed is None:
        del data["step_printed"]  # only a log whose step counter is printed rounded carries one
    if view.step_said is None:
        del data["step_said"]  # only a position a crash or the run's closing lines name, no step line read, has one
    if view.loss_rising is None:
        del data["loss_rising"]  # only a loss the details warn is rising carries one
    if view.step_seconds_note is None:
        del data["step_seconds_note"]  # only a step time worked out from the trainer's own clock carries one
    if view.data is not None and view.data.last_of_epochs is None:
        del data["data"]["last_of_epochs"]  # only a run that said it stopped at its planned epochs carries one
    if view.step is None:
        # Before a first step the object has always carried the collaboration last: readers of old
        # reports compare it as written.
        data["collaboration"] = data.pop("collaboration")
    return data


_NESTED = frozenset({"eval", "figures", "data", "all_reduce", "errors", "collaboration", "crash", "grad_norm",
                     "swarm", "loss_spike_steps", "loss_rising"})


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
    if "chart_x" not in plain and isinstance(data.get("global_step"), int):
        plain["chart_x"] = data["global_step"]  # (an older agent's name for the chart's x)
    return TrainingView(
        **plain,
        grad_norm=float(grad) if isinstance(grad, str) else grad,
        eval=tuple(EvalView(str(name), figure.get("value"), figure.get("step"))
                   for name, figure in evals.items() if isinstance(figure, dict)),
        figures=tuple((str(name), value) for name, value in figures.items()),
        data=part("data", DataView), all_reduce=part("all_reduce", AllReduceView), errors=part("errors", ErrorsView),
        collaboration=part("collaboration", CollaborationView), crash=part("crash", CrashView),
        loss_rising=part("loss_rising", LossRiseView),
        swarm=_swarm_from_dict(data.get("swarm")),
        loss_spike_steps=tuple(int(step) for step in data.get("loss_spike_steps") or () if isinstance(step, int)),
    )


def _swarm_from_dict(data: Any) -> SwarmView | None:
    """A report's ``swarm`` object as a view (its rounds and peers too); None when it carries none."""
    if not isinstance(data, dict):
        return None
    plain: dict[str, Any] = {name: data.get(name) for name in SwarmView.__slots__
                             if name not in ("rounds", "peers", "join_causes") and data.get(name) is not None}
    causes = tuple((str(pair[0]), int(pair[1])) for pair in data.get("join_causes") or ()
                   if isinstance(pair, (list, tuple)) and len(pair) == 2 and isinstance(pair[1], int))

    def round_view(r: dict[str, Any]) -> RoundView:
        fields: dict[str, Any] = {name: r.get(name) for name in RoundView.__slots__}
        for name in ("failed_peers", "banned_peers"):
            fields[name] = tuple(fields[name] or ())
        return RoundView(**fields)

    def peer_view(p: dict[str, Any]) -> PeerView:
        fields: dict[str, Any] = {name: p.get(name) for name in PeerView.__slots__}
        return PeerView(**fields)

    rounds = tuple(round_view(r) for r in data.get("rounds") or () if isinstance(r, dict))
    peers = tuple(peer_view(p) for p in data.get("peers") or () if isinstance(p, dict))
    return SwarmView(**plain, join_causes=causes, rounds=rounds, peers=peers)


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
class DeliveryView:
    """Forward activations over the last 10 minutes (app/stats/iota/delivery.py), and the last peer status."""

    window_seconds: float
    failed: int
    unreachable: int
    forwards: int
    share_not_delivered: float | None
    peers_ok: int | None
    peers_total: int | None
    peers_named: tuple[str, ...]
    level: Literal["ok", "warning", "problem"]
    text: str | None  # the state's sentence when not ok: `training, but 33 % of forwards were not delivered in 10 min`
    line: str  # the details line


@dataclass(frozen=True, slots=True)
class DriftView:
    """The app's version either log names, and the record shapes tokwatch does not read yet (app/stats/iota/drift.py)."""

    version: str | None
    updated_at: float | None  # when the app last updated itself, as its shell log says
    new_shapes: int
    shapes: tuple[str, ...]  # the newest, masked (numbers, ids, keys, home folders)
    text: str | None  # `the app updated to 3.8.0 at 14:02; 3 line shapes tokwatch does not read yet`; null when nothing changed


@dataclass(frozen=True, slots=True)
class CauseView:
    """Why the miner's log is silent, it crashed or it is idle, when a log or the machine says (app/stats/iota/shell.py)."""

    kind: str  # quit · crashed · exited · never_started · app_state · slept
    at: float
    text: str  # `you quit the app at 02:14`, the words after the status line's "—"
    line: str | None  # the line quoted, for a crash


@dataclass(frozen=True, slots=True)
class HardwareView:
    """Power beside throughput (``--hardware``; app/stats/power.py): the latest reading and Wh per token."""

    tool: str | None  # "nvidia-smi", "macmon", or null when none was found
    watts: float | None
    temperature_c: float | None
    throttled: bool | None  # null: the tool cannot say (macmon)
    throttle_reasons: tuple[str, ...]
    at: float | None  # the latest reading (null: none in the last 30 s)
    mean_watts: float | None  # over the rate's window
    wh_per_million_tokens: float | None
    wh_per_step: float | None
    strip: tuple[tuple[float, float | None, bool], ...]  # the last hour: (time, watts, throttled)
    text: str | None  # `Power 62 W · 71 °C · 0.27 Wh per million tokens`, or the problem
    problem: str | None


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
    # The IOTA miner: forwards not delivered and peers answering, when its log tells (else null).
    delivery: DeliveryView | None = None
    # The IOTA miner: the app's version and new line shapes (the drift guard), else null.
    drift: DriftView | None = None
    # Filled by the wiring with --hardware: power, temperature, throttling, Wh per million tokens; else null.
    hardware: HardwareView | None = None
    # The IOTA miner: why it is silent, crashed or idle, when known (the status line says it after "—"); else null.
    cause: CauseView | None = None

    @property
    def level(self) -> Level:
        """The state at a glance (see :func:`level_of`)."""
        lasted = None if self.state_since is None else self.as_of - self.state_since
        return level_of(self.state, self.source.problem, self.lost_layer is not None,
                        self.delivery.level if self.delivery is not None else None, lasted)


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
