"""The IOTA miner's tracker: events in, a snapshot out. The clock is always an argument.

The rules are the seed's (a menu-bar monitor's `L1 · 358k tok/h`), made exact:

* a *pass* is a unique activation id whose forward step completed on this miner's layer;
* passes/h = passes in (now − 20 min, now] ÷ observed, observed = now − start of the current
  training stretch, capped at 20 min; a stretch starts at (re)registration or a layer change;
* the rate stays hidden until ≥ 3 passes and ≥ 3 minutes observed in the stretch;
* all times are the log's own, so a cold start on an old log is measured at once
  (app/stats/clock.py clamps out-of-order times and sets far-future ones aside).

Memory stays bounded whatever the log's length.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from app import text
from app.snapshot import (
    BackendErrorsView,
    GpuMemoryView,
    QueueView,
    RateView,
    RunView,
    Snapshot,
    SourceView,
    State,
    WarmupView,
)
from app.stats.clock import LogClock
from app.stats.events import (
    ActivationShape,
    BackendError,
    EpochReset,
    Event,
    ForwardPass,
    GpuMemory,
    Heartbeat,
    LayerChanged,
    LayerSeen,
    MinerReset,
    OptimizationStep,
    P2PTransfer,
    PhaseChanged,
    QueueUpdate,
    Registered,
    Tick,
)
from app.stats.history import RateHistory
from app.stats.tracker import ERROR_WINDOW_SECONDS, RATE_WINDOW_SECONDS, WARMUP_COUNT, WARMUP_SECONDS
from app.stats.window import SlidingWindow

# Ids are kept a while longer than the window so a late line naming an id is not a new pass.
SEEN_IDS_SECONDS = 2 * RATE_WINDOW_SECONDS
SEEN_IDS_MAX = 100_000

# A shape whose batch × sequence exceeds this is corrupt; kept out so no rate overflows.
MAX_TOKENS_PER_PASS = 10**12

_QUEUED_STATUSES = frozenset({"queued", "waiting", "pending"})


@dataclass(frozen=True, slots=True)
class _Rate:
    view: RateView
    warmup: WarmupView


class IotaTracker:
    """Accumulates events from one IOTA miner's log and answers ``snapshot(now, source)``.

    ``format_name`` None: a log no parser recognises (yet); no events come, and the snapshot
    says ``waiting`` or ``unrecognised``.
    """

    def __init__(self, format_name: str | None = "iota") -> None:
        self.format_name = format_name
        self.has_records = False
        self._clock = LogClock()
        self._history = RateHistory()

        self.layer: int | None = None
        self.stretch_start: float | None = None
        self.stretch_passes = 0
        # True until the log shows where a stretch begins (queue, reset, registration):
        # training seen before that began before the part of the log we read.
        self._began_mid_stream = True
        self._passes = SlidingWindow(RATE_WINDOW_SECONDS)
        self._seen_ids: OrderedDict[str, float] = OrderedDict()
        self.tokens_per_pass: int | None = None

        self.queue: QueueView | None = None
        self.step: int | None = None
        self.run: RunView | None = None
        self.phase: str | None = None
        self.gpu: GpuMemoryView | None = None
        self._gpu_total_gb: float | None = None
        self._errors_503 = SlidingWindow(ERROR_WINDOW_SECONDS)
        self._errors_404 = SlidingWindow(ERROR_WINDOW_SECONDS)
        self._p2p_bytes = SlidingWindow(RATE_WINDOW_SECONDS)

    @property
    def clock(self) -> float | None:
        """The newest log time applied, or None."""
        return self._clock.latest

    @property
    def future_lines(self) -> int:
        """Lines dated far past the caller's clock, treated as undated."""
        return self._clock.future_lines

    # --- applying events --------------------------------------------------

    def apply_all(self, events: Sequence[Event], now: float | None = None, arrival: float | None = None) -> None:
        """Apply events in log order (``now``: the caller's clock; the miner dates every line itself)."""
        for event in events:
            self.apply(event, now)

    def apply(self, event: Event, now: float | None = None) -> None:
        """Apply one event; its time advances the log clock first."""
        self.has_records = True
        keep, at = self._clock.admit(event, now)
        if not keep:
            return
        if at is not None:
            self._advance(at)
        t = self._clock.latest
        if isinstance(event, Tick):
            return
        if isinstance(event, ForwardPass):
            self._forward(t, event)
        elif isinstance(event, ActivationShape):
            tokens = event.batch * event.sequence
            if event.batch > 0 and event.sequence > 0 and tokens <= MAX_TOKENS_PER_PASS:
                self.tokens_per_pass = tokens
        elif isinstance(event, Registered):
            self._new_stretch(t, event.layer)
        elif isinstance(event, LayerChanged):
            if event.layer != self.layer or self.stretch_start is None:
                self._new_stretch(t, event.layer)
        elif isinstance(event, LayerSeen):
            self._see_layer(t, event.layer)
        elif isinstance(event, MinerReset):
            self._end_stretch()
            self.queue = None
            self.step = None
        elif isinstance(event, QueueUpdate):
            self._queue(event)
        elif isinstance(event, OptimizationStep):
            self.step = event.number
        elif isinstance(event, EpochReset):
            self.step = 0
        else:
            self._apply_status(event, t)

    def _apply_status(self, event: Event, t: float | None) -> None:
        """What the miner says of its run, GPU and backend: shown, never counted in the rate."""
        if isinstance(event, Heartbeat):
            run = self.run
            self.run = RunView(
                id=event.run_id if event.run_id is not None else (run.id if run else None),
                epoch=event.epoch if event.epoch is not None else (run.epoch if run else None),
                phase=event.phase if event.phase is not None else self.phase,
            )
            if event.phase is not None:
                self.phase = event.phase
        elif isinstance(event, PhaseChanged):
            self.phase = event.phase
            if self.run is not None:
                self.run = RunView(id=self.run.id, epoch=self.run.epoch, phase=event.phase)
            if event.layer is not None:
                self._see_layer(t, event.layer)
        elif isinstance(event, GpuMemory):
            if event.total_gb is not None:
                self._gpu_total_gb = event.total_gb
            total = event.total_gb if event.total_gb is not None else self._gpu_total_gb
            if total is not None and event.used_gb > total:
                total = None  # a stale total below the new reading would be a made-up figure
            self.gpu = GpuMemoryView(used_gb=event.used_gb, total_gb=total)
        elif isinstance(event, BackendError):
            if t is not None:
                window = self._errors_503 if event.kind == "queue_state_503" else self._errors_404
                window.add(t)
        elif isinstance(event, P2PTransfer) and t is not None:
            self._p2p_bytes.add(t, event.tensor_bytes)

    def begin_stream(self) -> None:
        """The log was replaced or truncated: what the new stream dates up to the clock is not news.

        A file swapped for a copy of itself (rsync, a sync client, an editor's save) is read
        again from its first byte; its old passes must not count twice, nor its old
        registration line open a new stretch. Lines dated after the clock count as usual.
        """
        self._clock.begin_replay()

    def _advance(self, at: float) -> None:
        if self._clock.first_at is None:
            self._history.start(at)
        if not self._clock.advance(at):
            return
        self._history.sample_until(at, self.tokens_per_hour)
        for window in (self._passes, self._errors_503, self._errors_404, self._p2p_bytes):
            window.evict(at)
        cutoff = at - SEEN_IDS_SECONDS
        seen = self._seen_ids
        while seen and (next(iter(seen.values())) <= cutoff or len(seen) > SEEN_IDS_MAX):
            seen.popitem(last=False)

    def _forward(self, t: float | None, event: ForwardPass) -> None:
        if event.layer is not None:
            self._see_layer(t, event.layer)
        elif self.stretch_start is None:
            self._start_stretch(t, self.layer)
        if event.activation_id in self._seen_ids:
            return
        self._seen_ids[event.activation_id] = t if t is not None else 0.0
        self.queue = None
        self.stretch_passes += 1
        if t is not None:
            self._passes.add(t)

    def _see_layer(self, t: float | None, layer: int) -> None:
        if self.stretch_start is None or self.layer is None:
            self._start_stretch(t, layer)
        elif layer != self.layer:
            self._new_stretch(t, layer)

    def _start_stretch(self, t: float | None, layer: int | None) -> None:
        """Training is seen without a registration line: it began at the earliest time we know of."""
        start = self._clock.first_at if self._began_mid_stream else t
        self.layer = layer
        self.stretch_start = start if start is not None else t
        self.queue = None

    def _new_stretch(self, t: float | None, layer: int) -> None:
        self._end_stretch()
        self.layer = layer
        self.stretch_start = t
        self.queue = None

    def _end_stretch(self) -> None:
        self._began_mid_stream = False
        self.layer = None
        self.stretch_start = None
        self.stretch_passes = 0
        self._passes.clear()

    def _queue(self, event: QueueUpdate) -> None:
        if event.status in _QUEUED_STATUSES:
            self._end_stretch()
            self.queue = QueueView(position=event.position, status=event.status)
        else:
            # confirmed / registered: out of the queue, registration follows
            self._began_mid_stream = False
            self.queue = None

    # --- reading ------------------------------------------------------------

    def _rate(self, now: float) -> _Rate:
        start = self.stretch_start
        observed = 0.0 if start is None else min(max(now - start, 0.0), float(RATE_WINDOW_SECONDS))
        in_window = self._passes.count(now - RATE_WINDOW_SECONDS, now) if start is not None else 0
        passes = self.stretch_passes
        done = start is not None and passes >= WARMUP_COUNT and observed >= WARMUP_SECONDS
        passes_per_hour = in_window / observed * 3600 if done and observed > 0 else None
        tokens_per_hour = (
            passes_per_hour * self.tokens_per_pass
            if passes_per_hour is not None and self.tokens_per_pass is not None
            else None
        )
        if tokens_per_hour is not None and not math.isfinite(tokens_per_hour):
            tokens_per_hour = None  # never a figure to write, nor one to keep in the history
        return _Rate(
            view=RateView(
                measured=tokens_per_hour is not None,
                tokens_per_hour=tokens_per_hour,
                passes_per_hour=passes_per_hour,
                tokens_per_pass=self.tokens_per_pass,
                passes_in_window=in_window,
                observed_seconds=observed,
                window_seconds=float(RATE_WINDOW_SECONDS),
            ),
            warmup=WarmupView(
                passes=passes,
                passes_needed=WARMUP_COUNT,
                observed_seconds=observed,
                seconds_needed=float(WARMUP_SECONDS),
                done=done,
            ),
        )

    def tokens_per_hour(self, now: float) -> float | None:
        """The measured rate at ``now``, or None while it is not measured."""
        return self._rate(now).view.tokens_per_hour

    def snapshot(self, now: float, source: SourceView) -> Snapshot:
        """Everything known at ``now`` (the log's clock for a copied log, else wall time)."""
        rate = self._rate(now)
        state, status_line = _status(self, rate)
        history, history_range = self._history.view(now, self._clock.latest, self.tokens_per_hour)
        backend = BackendErrorsView(
            queue_state_503=self._errors_503.count(now - ERROR_WINDOW_SECONDS, now),
            not_found_404=self._errors_404.count(now - ERROR_WINDOW_SECONDS, now),
            window_seconds=float(ERROR_WINDOW_SECONDS),
        )
        return Snapshot(
            status_line=status_line,
            state=state,
            format=self.format_name,
            layer=self.layer,
            queue=self.queue,
            rate=rate.view,
            warmup=rate.warmup,
            step=self.step,
            run=self.run,
            gpu_memory=self.gpu,
            backend_errors=backend,
            details=tuple(_details(self, rate, backend)),
            history=history,
            source=self._clock.source(source),
            as_of=now,
            training=None,
            history_range=history_range,
        )


def _status(tracker: IotaTracker, rate: _Rate) -> tuple[State, str]:
    """The state and the one status line (the seed's `L1 · 358k tok/h`)."""
    if not tracker.has_records:
        return "waiting", "waiting for log"
    if tracker.format_name is None:
        return "unrecognised", "log format not recognised"
    if tracker.queue is not None:
        if tracker.queue.position is None:
            return "queued", "Queue #?"
        return "queued", f"Queue #{tracker.queue.position}"
    if tracker.layer is None:
        return "working", "working"
    if rate.view.tokens_per_hour is None:
        return "measuring", f"L{tracker.layer} · …"
    return "training", f"L{tracker.layer} · {text.compact(rate.view.tokens_per_hour)} tok/h"


def _details(tracker: IotaTracker, rate: _Rate, backend: BackendErrorsView) -> list[str]:
    """The detail lines under the status: rate, step, run, epoch, GPU memory, backend errors."""
    lines: list[str] = []
    view = rate.view
    if tracker.layer is not None:
        if view.tokens_per_hour is not None and view.passes_per_hour is not None:
            lines.append(
                f"{text.compact(view.tokens_per_hour)} tok/h · {int(view.passes_per_hour)} passes/h"
                f" (over {text.minutes(view.observed_seconds)} min)"
            )
        elif rate.warmup.done and view.passes_per_hour is not None:
            lines.append(
                f"{int(view.passes_per_hour)} passes/h (over {text.minutes(view.observed_seconds)} min)"
                " · batch shape not seen yet"
            )
        else:
            lines.append(f"measuring… ({rate.warmup.passes} passes so far)")
    if tracker.step is not None:
        lines.append(f"Step {tracker.step}")
    if tracker.run is not None and tracker.run.id is not None:
        lines.append(f"Run {tracker.run.id}")
    epoch = tracker.run.epoch if tracker.run is not None else None
    if epoch is not None:
        lines.append(f"Epoch {epoch} · {tracker.phase}" if tracker.phase is not None else f"Epoch {epoch}")
    elif tracker.phase is not None:
        lines.append(f"Phase {tracker.phase}")
    if tracker.gpu is not None:
        used = text.gigabytes(tracker.gpu.used_gb)
        if tracker.gpu.total_gb is not None:
            lines.append(f"GPU mem {used} / {text.gigabytes(tracker.gpu.total_gb)} GB")
        else:
            lines.append(f"GPU mem {used} GB")
    if backend.queue_state_503 or backend.not_found_404:
        lines.append(f"Backend: {backend.queue_state_503}×503 queue_state, {backend.not_found_404}×404")
    return lines
