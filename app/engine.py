"""The pure stats engine: events in, a snapshot out. The clock is always an argument.

The rules are the seed's (a menu-bar monitor's `L1 · 358k tok/h`), made exact in issue 2:

* a *pass* is a unique activation id whose forward step completed on this miner's layer;
* passes/h = passes in (now − 20 min, now] ÷ observed, observed = now − start of the current
  training stretch, capped at 20 min; a stretch starts at (re)registration or a layer change;
* the rate stays hidden until ≥ 3 passes and ≥ 3 minutes observed in the stretch;
* all times are the log's own, so a cold start on an old log is measured at once.

Out-of-order log times are clamped to the newest time seen, so windows stay sorted and
nothing is counted twice; memory stays bounded whatever the log's length.
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from dataclasses import dataclass

from app import text
from app.events import (
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
from app.formats import STEP_FORMATS
from app.snapshot import (
    BackendErrorsView,
    GpuMemoryView,
    HistoryRange,
    QueueView,
    RateView,
    RunView,
    Snapshot,
    SourceView,
    State,
    WarmupView,
)
from app.training import TrainingTracker
from app.window import SlidingWindow

RATE_WINDOW_SECONDS = 20 * 60
WARMUP_PASSES = 3
WARMUP_SECONDS = 3 * 60
ERROR_WINDOW_SECONDS = 60 * 60
HISTORY_STEP_SECONDS = 30
HISTORY_SPAN_SECONDS = 60 * 60
# Ids are kept a while longer than the window so a late line naming an id is not a new pass.
SEEN_IDS_SECONDS = 2 * RATE_WINDOW_SECONDS
SEEN_IDS_MAX = 100_000
# A line dated more than a day past the caller's clock is treated as undated (a broken clock
# on the miner, or garbage); counted, never allowed to drag the engine's clock into the future.
FUTURE_TOLERANCE_SECONDS = 24 * 60 * 60

# A shape whose batch × sequence exceeds this is corrupt; kept out so no rate overflows.
MAX_TOKENS_PER_PASS = 10**12

_QUEUED_STATUSES = frozenset({"queued", "waiting", "pending"})


@dataclass(frozen=True, slots=True)
class _Rate:
    view: RateView
    warmup: WarmupView


class Engine:
    """Accumulates events from one log and answers ``snapshot(now)``."""

    def __init__(self, format_name: str | None = "iota") -> None:
        self.format_name = format_name
        # Step-based trainers (issue 5) have their own tracker; the IOTA rules below stay as they are.
        self.training = TrainingTracker() if format_name in STEP_FORMATS else None
        self.has_records = False
        self.clock: float | None = None  # newest log time applied
        self.first_at: float | None = None
        self.future_lines = 0
        self._last_future_at: float | None = None
        self._replay_until: float | None = None  # see begin_stream

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

        self._history: deque[tuple[float, float | None]] = deque(
            maxlen=HISTORY_SPAN_SECONDS // HISTORY_STEP_SECONDS
        )
        self._next_sample: float | None = None

    # --- applying events --------------------------------------------------

    def apply_all(self, events: list[Event], now: float | None = None, arrival: float | None = None) -> None:
        """Apply events in log order (``now``: the caller's clock, to spot far-future lines).

        ``arrival``: when these lines were read (for a cold start, when the log was last
        written). A step trainer's undated events are placed in time from it (app/training.py).
        """
        if arrival is not None and self.training is not None:
            events = self.training.place(events, arrival, self.clock)
        for event in events:
            self.apply(event, now)

    def apply(self, event: Event, now: float | None = None) -> None:
        """Apply one event; its time advances the log clock first."""
        self.has_records = True
        at = event.at
        if at is not None and (not math.isfinite(at) or (now is not None and at > now + FUTURE_TOLERANCE_SECONDS)):
            # A parser's closing Tick repeats its batch's newest time: that line is counted once.
            if not (isinstance(event, Tick) and at == self._last_future_at):
                self.future_lines += 1
            self._last_future_at = at
            at = None
        replay_until = self._replay_until
        if replay_until is not None:
            if at is None or at <= replay_until:
                return  # the new stream repeats what the old one said: already counted
            self._replay_until = None
        if at is not None:
            self._advance(at)
        t = self.clock
        if isinstance(event, Tick):
            return
        if self.training is not None:
            self.training.apply(event, t)
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
        elif isinstance(event, Heartbeat):
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
        (Step trainers are left out: their undated lines get times only on arrival.)
        """
        if self.training is None and self.clock is not None:
            self._replay_until = self.clock

    def _advance(self, at: float) -> None:
        if self.first_at is None:
            self.first_at = at
            self._next_sample = math.ceil(at / HISTORY_STEP_SECONDS) * HISTORY_STEP_SECONDS
        if self.clock is not None and at <= self.clock:
            return
        self._sample_history_until(at, store=True)
        self.clock = at
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
        start = self.first_at if self._began_mid_stream else t
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
        done = start is not None and passes >= WARMUP_PASSES and observed >= WARMUP_SECONDS
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
                passes_needed=WARMUP_PASSES,
                observed_seconds=observed,
                seconds_needed=float(WARMUP_SECONDS),
                done=done,
            ),
        )

    def _sample_history_until(self, until: float, *, store: bool) -> list[tuple[float, float | None]]:
        """Sample tok/h at every 30 s boundary up to ``until`` (stored, or returned for a preview)."""
        sample = self._next_sample
        if sample is None:
            return []
        if until - sample > HISTORY_SPAN_SECONDS:  # a long gap: only the last hour matters
            sample = until - HISTORY_SPAN_SECONDS
            sample = math.ceil(sample / HISTORY_STEP_SECONDS) * HISTORY_STEP_SECONDS
        taken: list[tuple[float, float | None]] = []
        while sample <= until:
            taken.append((sample, self.tokens_per_hour(sample)))
            sample += HISTORY_STEP_SECONDS
        if store:
            self._history.extend(taken)
            self._next_sample = sample
        return taken

    def tokens_per_hour(self, now: float) -> float | None:
        """The measured rate at ``now``, or None while it is not measured."""
        if self.training is not None:
            return self.training.tokens_per_hour(now)
        return self._rate(now).view.tokens_per_hour

    def snapshot(self, now: float, source: SourceView) -> Snapshot:
        """Everything known at ``now`` (the log's clock for a copied log, else wall time)."""
        rate = self._rate(now)
        state, status_line = self._status(rate)
        history = list(self._history)
        if self.clock is not None and now > self.clock:
            history.extend(self._sample_history_until(now, store=False))
        cutoff = now - HISTORY_SPAN_SECONDS
        history = [point for point in history if cutoff < point[0] <= now]
        backend = BackendErrorsView(
            queue_state_503=self._errors_503.count(now - ERROR_WINDOW_SECONDS, now),
            not_found_404=self._errors_404.count(now - ERROR_WINDOW_SECONDS, now),
            window_seconds=float(ERROR_WINDOW_SECONDS),
        )
        skipped = dict(source.skipped)
        if self.future_lines:
            skipped["future_timestamps"] = self.future_lines
        rate_view, warmup, step, training = rate.view, rate.warmup, self.step, None
        details = tuple(self._details(rate, backend))
        if self.training is not None:
            report = self.training.report(now)
            rate_view, warmup, step, training = report.rate, report.warmup, report.step, report.training
            details = report.details
            if self.has_records:
                state, status_line = report.state, report.status_line
        measured = [value for _, value in history if value is not None]
        history_range = (
            HistoryRange(
                low=min(measured),
                high=max(measured),
                low_text=text.compact(min(measured)),
                high_text=text.compact(max(measured)),
            )
            if measured
            else None
        )
        return Snapshot(
            status_line=status_line,
            state=state,
            format=self.format_name,
            layer=self.layer,
            queue=self.queue,
            rate=rate_view,
            warmup=warmup,
            step=step,
            run=self.run,
            gpu_memory=self.gpu,
            backend_errors=backend,
            details=details,
            history=tuple(history),
            source=SourceView(
                path=source.path,
                size_bytes=source.size_bytes,
                lines_read=source.lines_read,
                bad_lines=source.bad_lines,
                last_event_at=self.clock,
                problem=source.problem,
                demo=source.demo,
                skipped=skipped,
            ),
            as_of=now,
            training=training,
            history_range=history_range,
        )

    def _status(self, rate: _Rate) -> tuple[State, str]:
        if not self.has_records:
            return "waiting", "waiting for log"
        if self.format_name is None:
            return "unrecognised", "log format not recognised"
        if self.queue is not None:
            if self.queue.position is None:
                return "queued", "Queue #?"
            return "queued", f"Queue #{self.queue.position}"
        if self.layer is None:
            return "working", "working"
        if rate.view.tokens_per_hour is None:
            return "measuring", f"L{self.layer} · …"
        return "training", f"L{self.layer} · {text.compact(rate.view.tokens_per_hour)} tok/h"

    def _details(self, rate: _Rate, backend: BackendErrorsView) -> list[str]:
        lines: list[str] = []
        view = rate.view
        if self.layer is not None:
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
        if self.step is not None:
            lines.append(f"Step {self.step}")
        if self.run is not None and self.run.id is not None:
            lines.append(f"Run {self.run.id}")
        epoch = self.run.epoch if self.run is not None else None
        if epoch is not None:
            lines.append(f"Epoch {epoch} · {self.phase}" if self.phase is not None else f"Epoch {epoch}")
        elif self.phase is not None:
            lines.append(f"Phase {self.phase}")
        if self.gpu is not None:
            used = text.gigabytes(self.gpu.used_gb)
            if self.gpu.total_gb is not None:
                lines.append(f"GPU mem {used} / {text.gigabytes(self.gpu.total_gb)} GB")
            else:
                lines.append(f"GPU mem {used} GB")
        if backend.queue_state_503 or backend.not_found_404:
            lines.append(f"Backend: {backend.queue_state_503}×503 queue_state, {backend.not_found_404}×404")
        return lines
