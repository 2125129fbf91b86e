"""The IOTA miner's tracker: events in, a snapshot out. The clock is always an argument.

The rules are the seed's (a menu-bar monitor's `L1 · 358k tok/h`), made exact:

* a *pass* is a unique activation id whose forward step completed on this miner's layer;
* passes/h = passes in (now − 20 min, now] ÷ observed, observed = now − start of the current
  training stretch, capped at 20 min; a stretch starts at (re)registration or a layer change;
* the rate stays hidden until ≥ 3 passes and ≥ 3 minutes observed in the stretch;
* all times are the log's own, so a cold start on an old log is measured at once
  (app/stats/clock.py clamps out-of-order times and sets far-future ones aside).

And the truth when a miner stops (app/stats/iota/liveness.py): idle when its log talks but no
pass comes, silent when its log stops; facts said before a registration, a queue or a reset are
never shown as current (app/stats/iota/facts.py); the timeline (app/stats/iota/timeline.py) and the
queue (app/stats/iota/queue.py) keep what happened. The words are in app/stats/iota/status.py,
which reads the tracker's frozen figures (:meth:`IotaTracker.figures`), never the tracker.

Memory stays bounded whatever the log's length.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ... import text
from ...snapshot import (
    BackendErrorsView,
    CauseView,
    CountsView,
    EventView,
    LostLayerView,
    Snapshot,
    SourceView,
    State,
)
from ..clock import LogClock
from ..events import (
    ActivationShape,
    BackendError,
    EpochReset,
    ErrorLogged,
    Event,
    ForwardPass,
    ForwardUndelivered,
    GpuMemory,
    Heartbeat,
    LayerChanged,
    LayerSeen,
    LineShapeNew,
    MinerReset,
    OptimizationStep,
    P2PTransfer,
    PeerStatus,
    PhaseChanged,
    QueueUpdate,
    Registered,
    RequestRetry,
    SourceChanged,
    Tick,
    WorkerCrashed,
    builder,
)
from ..history import HISTORY_STEP_SECONDS, RateHistory
from ..ticking import ticking
from ..tracker import ERROR_WINDOW_SECONDS, RATE_WINDOW_SECONDS, WARMUP_COUNT, WARMUP_SECONDS
from .delivery import DELIVERY_WINDOW_SECONDS, Delivery
from .drift import Drift
from .facts import Facts
from .figures import IotaFigures
from .liveness import SILENT_SECONDS, Liveness
from .queue import QUEUED_STATUSES, QueueTracker
from .retries import Retries
from .shell import Cause, ShellFigures, SleepSpan, idle_cause, silence_cause
from .status import (
    Rate,
    details,
    events_view,
    network_view,
    queue_glance,
    queue_view,
    rate_at,
    tokens_per_hour_at,
    verdict,
)
from .timeline import Kind, Timeline, TimelineEntry
from .window import SlidingWindow

# Ids are kept a while longer than the window so a late line naming an id is not a new pass.
SEEN_IDS_SECONDS = 2 * RATE_WINDOW_SECONDS
SEEN_IDS_MAX = 100_000

# A shape whose batch × sequence exceeds this is corrupt; kept out so no rate overflows.
MAX_TOKENS_PER_PASS = 10**12

_iota_figures = builder(IotaFigures)  # at every 30 s of an import's log (a stored sample's state)

# The shortest time a pass is kept (ids seen, the rate's window, the delivery's window).
_PASS_KEPT_SECONDS = min(SEEN_IDS_SECONDS, RATE_WINDOW_SECONDS, DELIVERY_WINDOW_SECONDS)

# Events that change nothing stored but the clock: the tracker keeps them for the page's views alone
# (GPU memory, the network figure), and a Tick is only a time.
_CLOCK_ONLY = frozenset({Tick, GpuMemory, P2PTransfer})

# Events that only a working miner logs: after a crash, one of these means it was started again.
_ALIVE = (ForwardPass, Registered, LayerChanged, MinerReset, QueueUpdate, Heartbeat, OptimizationStep)
# An abort this soon after a panic is that panic's end: its message is the one to quote.
_ABORT_AFTER_PANIC_SECONDS = 10.0
# The registration answers that end the wait without a layer (a registration line follows).
_PLACED_STATUSES = frozenset({"registered"})
# A launch logs "Starting miner" then "Resetting miner entire state!": one timeline entry.
_RESTART_QUIET_SECONDS = 60
_RESTART_TEXT = {
    "launch": "miner started",
    "reset": "miner state reset",
    "not_registered": "registration lost",
    "consecutive_failures": "re-registering after repeated failures",
}


class IotaTracker:
    """Accumulates events from one IOTA miner's log and answers ``snapshot(now, source)``.

    ``format_name`` None: a log no parser recognises (yet); no events come, and the snapshot
    says ``waiting`` or ``unrecognised``.

    One class over its parts (liveness, facts, queue, timeline) because one event moves several
    at once: a registration ends a stretch, dates the facts, leaves the queue and is an entry.
    """

    def __init__(self, format_name: str | None = "iota") -> None:
        self.format_name = format_name
        self.has_records = False
        self._clock = LogClock()
        self._history = RateHistory()

        self.layer: int | None = None
        self._last_layer: int | None = None  # kept across stretches, to say "layer 2 → 1"
        self.stretch_start: float | None = None
        self.stretch_passes = 0
        # True until the log shows where a stretch begins (queue, reset, registration):
        # training seen before that began before the part of the log we read.
        self._began_mid_stream = True
        self._passes = SlidingWindow(RATE_WINDOW_SECONDS)
        self._seen_ids: OrderedDict[str, float] = OrderedDict()
        self.tokens_per_pass: int | None = None
        self.live = Liveness()
        self.measured_at: float | None = None  # the stretch's third pass
        self.back_at: float | None = None  # passes or lines came back after idle or silence
        self.working_since: float | None = None  # no layer since (reset, queue left, new file)
        self.was_passes_per_hour: float | None = None  # the rate at the stretch's last pass
        # Idle or silent ended: the next pass starts the window afresh, as a first start does.
        self._afresh = False
        self.remeasuring = False  # the window restarted after a pause, not yet measured again

        self.queue = QueueTracker()
        # The layer lost to a deregistration (layer, when), until the miner holds a layer again;
        # told as an event once the miner is back in the queue.
        self.lost_layer: tuple[int, float] | None = None
        self._lost_told = False
        # The orchestrator answers "initializing" (#199: for hours after a restart), since.
        self.initializing_since: float | None = None
        self.facts = Facts()
        self.timeline = Timeline()
        self._events_key: object = None  # what the stored sample's events were built from
        self._events: tuple[EventView, ...] = ()
        self._last_restart_at: float | None = None
        self._errors_503 = SlidingWindow(ERROR_WINDOW_SECONDS)
        self._errors_404 = SlidingWindow(ERROR_WINDOW_SECONDS)
        self._p2p_bytes = SlidingWindow(RATE_WINDOW_SECONDS)
        self._p2p_seen = False
        # Running totals (never decrease while this tracker lives): /metrics' counters.
        self.passes_total = 0
        self.tokens_total = 0
        self.backend_errors_total = {"503": 0, "404": 0}
        # The app's shell log as read beside this one (set by whoever reads it, before each snapshot):
        # it names causes and adds entries, never changes what this log proves.
        self.shell: ShellFigures | None = None
        # Whether the work lands (forwards not delivered, peers answering) and the requests retried.
        self.delivery = Delivery()
        self.retries = Retries()
        self._evict_due = -math.inf  # the log time from which a window or the ids seen forget something
        # The same for each part apart (see _evict): the passes' window, the ids seen, the delivery's
        # windows, the transfers' window, and the rest (the backend errors' windows and the retries).
        self._passes_due = self._seen_due = self._delivery_due = self._p2p_due = self._others_due = -math.inf
        # How the worker died, as its own log says (when, the line quoted, fatal), until it works again.
        self.worker_crash: tuple[float, str, bool] | None = None
        self.drift = Drift()
        # When this machine slept (app/ingest/sleeplog.py), set like ``shell``: a cause for a silence.
        self.sleeps: tuple[SleepSpan, ...] = ()

    @property
    def clock(self) -> float | None:
        """The newest log time applied, or None."""
        return self._clock.latest

    @property
    def first_at(self) -> float | None:
        """The oldest log time applied (how far back the log was read), or None."""
        return self._clock.first_at

    @property
    def future_lines(self) -> int:
        """Lines dated far past the caller's clock, treated as undated."""
        return self._clock.future_lines

    @property
    def step(self) -> int | None:
        """The latest optimizer step, or None (dropped at a registration, queue or reset)."""
        return self.facts.step

    # --- applying events --------------------------------------------------

    def apply_all(self, events: Sequence[Event], now: float | None = None, arrival: float | None = None) -> None:
        """Apply events in log order (``now``: the caller's clock; the miner dates every line itself)."""
        for event in events:
            self.apply(event, now)

    def apply(self, event: Event, now: float | None = None) -> None:
        """Apply one event; its time advances the log clock first."""
        if isinstance(event, SourceChanged):
            self._source_changed(event)
            return
        self.has_records = True
        clock = self._clock
        keep, at = clock.admit(event, now)
        if not keep:
            return
        if at is not None and (clock.latest is None or at > clock.latest):
            self._advance(at)  # (a time not past the clock's moves nothing: most lines share a second)
        t = clock.latest
        if isinstance(event, Tick):
            return
        if self.worker_crash is not None and isinstance(event, _ALIVE) and t is not None and t > self.worker_crash[0]:
            self.worker_crash = None  # it works again: started anew
        if isinstance(event, GpuMemory):  # the reading a miner prints most, twice a pass: asked first
            self.facts.gpu_memory(t, event.used_gb, event.total_gb)
        elif isinstance(event, ForwardPass):
            self._forward(t, event)
        elif isinstance(event, ActivationShape):
            tokens = event.batch * event.sequence
            if event.batch > 0 and event.sequence > 0 and tokens <= MAX_TOKENS_PER_PASS:
                self.tokens_per_pass = tokens
        elif isinstance(event, (Registered, LayerChanged, LayerSeen, MinerReset)):
            self._placement(t, event)
        elif isinstance(event, QueueUpdate):
            self._queue(t, event)
        elif isinstance(event, OptimizationStep):
            self.facts.step = event.number
        elif isinstance(event, EpochReset):
            self.facts.step = 0
        else:
            self._apply_status(event, t)

    def stores_nothing(self, event: Event) -> bool:
        """Whether applying ``event`` changes nothing a stored sample reads but the log's clock.

        A GPU reading, a transfer between peers, the layer the miner already trains in, the input
        shape it already uses: most of a miner's events. The history's import
        (app/record/replay.py) leaves out those that fall between two lines of the same 30 s.
        """
        kind = type(event)
        if kind in _CLOCK_ONLY:
            return True
        if isinstance(event, LayerSeen):
            return self.stretch_start is not None and self.layer is not None and event.layer == self.layer
        if isinstance(event, ActivationShape):
            batch, sequence = event.batch, event.sequence
            tokens = batch * sequence
            return tokens == self.tokens_per_pass or not (batch > 0 and sequence > 0 and tokens <= MAX_TOKENS_PER_PASS)
        return False

    def _apply_status(self, event: Event, t: float | None) -> None:
        """What the miner says of its run, GPU, backend and errors: shown, never counted in the rate."""
        if isinstance(event, Heartbeat):
            self._initializing(t, event.status)
            for kind, words in self.facts.heartbeat(t, event.run_id, event.epoch):
                self._note(t, kind, words)
            if event.phase is not None:
                self._phase(t, event.phase)
        elif isinstance(event, PhaseChanged):
            self._phase(t, event.phase)
            if event.layer is not None:
                self._see_layer(t, event.layer)
        elif isinstance(event, BackendError):
            self.backend_errors_total["503" if event.kind == "queue_state_503" else "404"] += 1
            if t is not None:
                window = self._errors_503 if event.kind == "queue_state_503" else self._errors_404
                window.add(t)
                self._others_due = self._evict_due = -math.inf
        elif isinstance(event, P2PTransfer) and t is not None:
            self._p2p_seen = True
            self._p2p_bytes.add(t, event.tensor_bytes)
            due = t + RATE_WINDOW_SECONDS
            if due < self._p2p_due:  # (not min(): this runs at every transfer)
                self._p2p_due = due
                if due < self._evict_due:  # noqa: PLR1730
                    self._evict_due = due
        elif isinstance(event, ErrorLogged) and t is not None:
            self.timeline.error(t, event.message)
        elif isinstance(event, ForwardUndelivered) and t is not None:
            self.delivery.undelivered(t, event)
            self._delivery_due = self._evict_due = -math.inf
        elif isinstance(event, PeerStatus):
            self.delivery.peer_status(event)
        elif isinstance(event, RequestRetry) and t is not None:
            self.retries.add(t, event.endpoint)
            self._others_due = self._evict_due = -math.inf
        elif isinstance(event, WorkerCrashed) and t is not None:
            self._worker_crashed(t, event)
        elif isinstance(event, LineShapeNew) and t is not None:
            self.drift.new_shape(event.at if event.at is not None else t, event.shape)

    def _worker_crashed(self, t: float, event: WorkerCrashed) -> None:
        """The worker wrote how it died; an abort right after a panic keeps the panic's words."""
        at = event.at if event.at is not None else t
        before = self.worker_crash
        line = event.line
        if before is not None and event.fatal and not before[2] and at - before[0] <= _ABORT_AFTER_PANIC_SECONDS:
            line = before[1]
        self.worker_crash = (at, line, event.fatal or (before is not None and before[2]))
        self._note(at, "crashed", f"the miner crashed: {line}")

    def _initializing(self, t: float | None, status: str | None) -> None:
        """The orchestrator's status for this miner: ``initializing`` until it says another."""
        if status == "initializing":
            if self.initializing_since is None:
                self.initializing_since = t
                self._note(t, "initializing", "the orchestrator says initializing")
        elif status is not None:
            self.initializing_since = None

    def _placement(self, t: float | None, event: Registered | LayerChanged | LayerSeen | MinerReset) -> None:
        """Where the miner stands: registered in a layer, moved, or reset."""
        if isinstance(event, Registered):
            epoch = f" (epoch {event.epoch})" if event.epoch is not None else ""
            self._note(t, "registered", f"registered in layer {event.layer}{epoch}")
            self.initializing_since = None
            self._new_stretch(t, event.layer)
        elif isinstance(event, LayerChanged):
            if event.layer != self.layer or self.stretch_start is None:
                self._new_stretch(t, event.layer)
        elif isinstance(event, LayerSeen):
            self._see_layer(t, event.layer)
        else:
            if event.reason == "not_registered" and self.layer is not None and t is not None:
                self.lost_layer, self._lost_told = (self.layer, t), False
            self._end_stretch(t)
            self.queue.leave()
            last = self._last_restart_at
            if t is not None and (last is None or t - last > _RESTART_QUIET_SECONDS):
                self._note(t, "restarted", _RESTART_TEXT.get(event.reason, "miner reset"))
            self._last_restart_at = t

    def _source_changed(self, event: SourceChanged) -> None:
        """Another file (drop what the old one said), or the same path truncated or replaced."""
        at = self._clock.latest
        if event.change == "switched":
            self._end_stretch(at)
            self.queue.leave()
            self.facts.forget()
            self.tokens_per_pass = None
            self._p2p_bytes.clear()
            self._p2p_seen = False
            self._note(at, "source_changed", f"now following {event.name or 'another file'}")
        else:
            self.facts.mark_boundary()
            self._note(at, "source_changed", f"log {event.change}")

    def begin_stream(self, *, repeats: bool = False) -> None:
        """The source changed (replaced, truncated, another file followed): a new stream begins.

        A new stream's lines count as they come, even dated before the clock (a relaunch after
        a DST fall-back, a miner whose clock was behind, a rotation): a pass is known by its
        activation id, and the ids seen stay, so none counts twice. ``repeats``: the stream
        begins with the old one's first bytes, the same log written again from its start (a copy
        the tailer could not read on from): what it dates up to the clock is not news — its old
        passes, some older than the id memory, must not count again, nor its old registration
        line open a new stretch. Lines dated after the clock count as usual.
        """
        if repeats:
            self._clock.begin_replay()

    def _note(self, at: float | None, kind: Kind, words: str, layers: tuple[int, int] | None = None) -> None:
        if at is not None:
            self.timeline.add(at, kind, words, layers)

    def _phase(self, t: float | None, phase: str) -> None:
        change = self.facts.set_phase(t, phase)
        if change is not None:
            self._note(t, "phase_changed", change)
        self.live.set_phase(phase, t)

    def _advance(self, at: float) -> None:
        if self._clock.first_at is None:
            self._history.start(at)
        previous = self._clock.latest
        if not self._clock.advance(at):
            return
        queued = self.queue.since is not None
        if previous is not None and (self.stretch_start is not None or queued):
            # Changes the clock drives are dated when they happened, not when a line showed them.
            if at - previous >= (self.queue.silent_seconds() if queued else SILENT_SECONDS):
                gap = text.duration(at - previous)
                self._note(previous, "silent", f"log silent for {gap}")
                self._note(at, "resumed", f"log lines again after {gap}")
                self.back_at = at
                self._afresh = not queued  # the rate is measured again from the next pass
                self.live.idle_reported = True  # told as silent: not also as idle
            if at > self.live.idle_after and not self.live.idle_reported:
                self.live.idle_reported = True
                entry = self.idle_entry()
                if entry is not None:
                    self.timeline.add(entry.at, entry.kind, entry.text)
                    # The minutes between the last pass and knowing it was the last drew a falling
                    # rate; the miner did nothing then: no rate after its last pass.
                    self._history.blank_after(entry.at)
        # The gap just closed was silent from SILENT_SECONDS after ``previous`` on: no rate there.
        if self._history.due(at):
            self._history.sample_until(at, lambda t: None if self.pausing(t, previous) else self._tokens_per_hour_at(t))
        if at >= self._evict_due:
            self._evict(at)

    def _evict(self, at: float) -> None:
        """Forget what fell out of the windows due to forget something, and note when the next thing falls out.

        Most lines add to no window (a GPU reading, twice a pass): until then, or until something
        is added, nothing can fall out, and the clock's moves skip this. Each part is looked at only
        from its own due time (a pass's entries fall out of the passes' window, the delivery's and
        the ids seen at three different times: asking every part each time was a fifth of a long
        import's replay). A part's due time is never later than its oldest entry's: after every
        move of the clock, no part holds anything it would forget, as when every part was asked.
        """
        if at >= self._passes_due:
            self._passes_due = self._passes.evict(at)
        if at >= self._delivery_due:
            self._delivery_due = self.delivery.evict(at)
        if at >= self._p2p_due:
            self._p2p_due = self._p2p_bytes.evict(at)
        if at >= self._others_due:
            self._others_due = min(self._errors_503.evict(at), self._errors_404.evict(at), self.retries.evict(at))
        if at >= self._seen_due:
            cutoff = at - SEEN_IDS_SECONDS
            seen = self._seen_ids
            while seen and (next(iter(seen.values())) <= cutoff or len(seen) > SEEN_IDS_MAX):
                seen.popitem(last=False)
            self._seen_due = next(iter(seen.values())) + SEEN_IDS_SECONDS if seen else math.inf
        self._evict_due = min(self._passes_due, self._delivery_due, self._p2p_due, self._others_due, self._seen_due)

    def idle_entry(self) -> TimelineEntry | None:
        """The timeline's entry for the current idle gap, dated at its last pass (or start)."""
        ref = self.live.pass_ref()
        if ref is None:
            return None
        if self.stretch_passes == 0:
            return TimelineEntry(ref, "idle", f"no pass yet in layer {self.layer}")
        was = self.tokens_per_hour_at_last_pass()
        return TimelineEntry(ref, "idle", "passes stopped" + (f" · was {text.compact(was)} tok/h" if was else ""))

    def tokens_per_hour_at_last_pass(self) -> float | None:
        """The rate measured at the stretch's last pass: what an idle or silent miner "was" doing."""
        if self.was_passes_per_hour is None or self.tokens_per_pass is None:
            return None
        return self.was_passes_per_hour * self.tokens_per_pass

    def _forward(self, t: float | None, event: ForwardPass) -> None:
        if event.layer is not None:
            self._see_layer(t, event.layer)
        elif self.stretch_start is None:
            self._start_stretch(t, self.layer)
        if event.activation_id in self._seen_ids:
            return
        seen = self._seen_ids
        seen[event.activation_id] = t if t is not None else 0.0
        # Falls out of the ids seen, the rate's window or the delivery's, the soonest first.
        # Falls out of the ids seen, the rate's window or the delivery's, the soonest first.
        due = -math.inf if t is None or len(seen) > SEEN_IDS_MAX else t + _PASS_KEPT_SECONDS
        if due < self._evict_due:  # noqa: PLR1730 - min() is a call, and this runs at every pass
            self._evict_due = due
        if due < self._passes_due:  # noqa: PLR1730
            self._passes_due = due
        if due < self._delivery_due:  # noqa: PLR1730
            self._delivery_due = due
        if due < self._seen_due:  # noqa: PLR1730
            self._seen_due = due
        self.queue.leave(placed=True)
        self.initializing_since = None
        self.stretch_passes += 1
        self.passes_total += 1
        self.tokens_total += self.tokens_per_pass or 0
        if t is None:
            return
        self.delivery.forward(t)
        gap = self.live.on_pass(t)
        if gap is not None:
            self._note(t, "resumed", f"passes resumed after {text.duration(gap)}")
            self.back_at = t
        if gap is not None or self._afresh:
            self._restart_window(t)  # this pass starts the window: the passes after it make the rate
        else:
            self._passes.add(t)
        if self.stretch_passes == WARMUP_COUNT:
            self.measured_at = t
        # The rate at this pass, kept: the window forgets it while an idle miner's log goes on.
        # The window was cleared when the stretch began and has just been evicted up to t.
        start = self.stretch_start
        observed = min(t - start, float(RATE_WINDOW_SECONDS)) if start is not None else 0.0
        if self.stretch_passes >= WARMUP_COUNT and observed >= WARMUP_SECONDS:
            self.was_passes_per_hour = len(self._passes) / observed * 3600
            self.remeasuring = False

    def _restart_window(self, t: float) -> None:
        """Passes came back after a pause: measure from this pass, as when training starts (the seed's
        3 passes over 3 minutes), keeping what the miner was doing before as "was"."""
        self._afresh = False
        self._passes.clear()
        self.stretch_start = t
        self.stretch_passes = 1  # this pass
        self.measured_at = None
        self.remeasuring = self.was_passes_per_hour is not None

    def _see_layer(self, t: float | None, layer: int) -> None:
        if self.stretch_start is None or self.layer is None:
            self._start_stretch(t, layer)
        elif layer != self.layer:
            self._new_stretch(t, layer)

    def _start_stretch(self, t: float | None, layer: int | None) -> None:
        """Training is seen without a registration line: it began at the earliest time we know of."""
        start = self._clock.first_at if self._began_mid_stream else t
        self._set_layer(t, layer)
        self.stretch_start = start if start is not None else t
        self.live.start_stretch(self.stretch_start)
        self.queue.leave(placed=True)

    def _new_stretch(self, t: float | None, layer: int) -> None:
        self._end_stretch(t)
        self._set_layer(t, layer)
        self.stretch_start = t
        self.live.start_stretch(t)
        self.queue.leave(placed=True)

    def _set_layer(self, t: float | None, layer: int | None) -> None:
        if layer is not None and self._last_layer is not None and layer != self._last_layer:
            self._note(t, "layer_changed", f"layer {self._last_layer} → {layer}", (self._last_layer, layer))
        if layer is not None:
            self._last_layer = layer
            self.lost_layer = None
        self.layer = layer

    def _end_stretch(self, t: float | None) -> None:
        self._began_mid_stream = False
        self.layer = None
        self.stretch_start = None
        self.stretch_passes = 0
        self._passes.clear()
        self.live.end_stretch()
        self.measured_at = self.back_at = self.was_passes_per_hour = None
        self._afresh = self.remeasuring = False
        self.working_since = t
        self.facts.mark_boundary()

    def _queue(self, t: float | None, event: QueueUpdate) -> None:
        """One registration answer: a position while queued, then processing, confirmed or failed."""
        status = event.status
        if status in _PLACED_STATUSES:
            self._began_mid_stream = False
            self.queue.leave(placed=True)
            return
        if self.queue.since is None or self.layer is not None:
            self._end_stretch(t)
        if t is None:
            return
        before = self.queue.status if self.queue.since is not None else None
        queued = status in QUEUED_STATUSES
        poll = self.queue.poll(t, event.queue_id, event.position if queued else None, status)
        if poll.rejoin is not None:
            was = f" (was #{poll.rejoin.before})" if poll.rejoin.before is not None else ""
            now_at = f"#{poll.rejoin.after}" if poll.rejoin.after is not None else "the back"
            self._note(t, "queue_rejoined", f"new queue id after a restart: back to {now_at}{was} — "
                       "restarting the app sends the miner to the back of the queue")
        if poll.joined:
            where = f"#{event.position}" if event.position is not None else "an unknown position"
            self._note(t, "queued", f"queued at {where}" if queued else f"registration {status}")
            if self.lost_layer is not None and not self._lost_told:
                self._lost_told = True
                layer, lost_at = self.lost_layer
                self._note(lost_at, "layer_lost", f"lost layer {layer} — back in the queue")
        elif status != before:
            self._note(t, "registration", f"registration {status}" if not queued else "queued again")
        if poll.reset is not None:
            self._note(t, "queue_reset", f"queue reset #{poll.reset.before} → #{poll.reset.after}")

    # --- reading ------------------------------------------------------------

    def _rate(self, now: float) -> Rate:
        return rate_at(now, self.stretch_start, self.stretch_passes, self._passes, self.tokens_per_pass,
                       self.live.last_pass_at)

    def _tokens_per_hour_at(self, now: float) -> float | None:
        """The rate's tok/h at ``now`` (not paused), without the rest of :meth:`_rate`'s figures."""
        return tokens_per_hour_at(now, self.stretch_start, self.stretch_passes, self._passes, self.tokens_per_pass)

    def pausing(self, now: float, last_line: float | None = None) -> bool:
        """Idle or silent at ``now`` (``last_line``: the newest line then, default the clock's): no rate."""
        last_line = self._clock.latest if last_line is None else last_line
        if last_line is not None and now - last_line >= SILENT_SECONDS:
            return True
        crash = self.worker_crash
        if crash is not None and crash[2] and now >= crash[0]:
            return True  # an abort: nothing is produced after it
        return self.layer is not None and self.live.idle_since(now) is not None

    def needs_sleep_records(self, now: float) -> bool:
        """True when a silence (now, or on the timeline) could be explained by the machine's sleep."""
        clock = self._clock.latest
        if clock is not None and now - clock >= SILENT_SECONDS:
            return True
        return self.timeline.has_kind("silent")

    def tokens_per_hour(self, now: float) -> float | None:
        """The measured rate at ``now``, or None while it is not measured or the miner is idle or silent."""
        return None if self.pausing(now) else self._tokens_per_hour_at(now)

    def figures(self, now: float, *, fact_lines: bool = True) -> IotaFigures:
        """What the status words read, frozen at ``now`` (``fact_lines``: the facts' detail lines too)."""
        idle_since = self.live.idle_since(now)
        # The entry is words: made only for a gap the timeline does not show yet.
        unreported = idle_since is not None and self.layer is not None and not self.live.idle_reported
        return _iota_figures(
            has_records=self.has_records,
            format_name=self.format_name,
            layer=self.layer,
            clock=self.clock,
            first_at=self.first_at,
            queue_since=self.queue.since,
            queue_position=self.queue.position,
            queue_silent_seconds=self.queue.silent_seconds(),
            working_since=self.working_since,
            last_pass_at=self.live.last_pass_at,
            idle_since=idle_since,
            idle_reported=self.live.idle_reported,
            idle_entry=self.idle_entry() if unreported else None,
            stretch_start=self.stretch_start,
            measured_at=self.measured_at,
            back_at=self.back_at,
            was_tokens_per_hour=self.tokens_per_hour_at_last_pass(),
            fact_lines=tuple(self.facts.details(now)) if fact_lines else (),
            queue_status=self.queue.status,
            queue_status_since=self.queue.status_since,
            queue_glance=queue_glance(self.queue, now),
            initializing_since=self.initializing_since,
            lost_layer=self.lost_layer[0] if self.lost_layer is not None and self._lost_told else None,
            **self._causes(now, idle_since),
        )

    def _causes(self, now: float, idle_since: float | None) -> dict[str, Cause | None]:
        """Why the log is silent or the miner idle at ``now``, as the app's shell log says."""
        clock = self._clock.latest
        silent_after = self.queue.silent_seconds() if self.queue.since is not None else SILENT_SECONDS
        if clock is None:
            return {}
        crash = self.worker_crash
        crashed = None if crash is None else Cause("crashed", crash[0], f"the miner crashed at {text.clock(crash[0])}", crash[1])
        if now - clock >= silent_after:
            # The shell's exit (its code and signal) first; else the worker's own last words.
            told = silence_cause(self.shell, clock, now, self.sleeps)
            if told is not None and crashed is not None and told.kind == "crashed":
                told = replace(told, line=crashed.line)  # the worker's own last words beat the shell's line
            return {"stop_cause": told or crashed}
        if crashed is not None and crash is not None and crash[2]:
            return {"crash": crashed}  # an abort: the process is gone, whatever the host writes on
        if idle_since is not None:
            return {"idle_cause": idle_cause(self.shell, idle_since, now)}
        return {}

    def snapshot(self, now: float, source: SourceView) -> Snapshot:
        """Everything known at ``now`` (the log's clock for a copied log, else wall time)."""
        rate = self._rate(now)
        figures = self.figures(now)
        state, status_line, since = verdict(figures, now, rate.view.tokens_per_hour, source.lines_read)
        paused = state in ("idle", "silent", "crashed")
        if paused or self.remeasuring:
            # A miner that stopped produces nothing: no figure anywhere (card, sums, /metrics, chart),
            # only what it was doing at its last measured pass.
            view = rate.view
            if paused:
                view = replace(view, measured=False, tokens_per_hour=None, passes_per_hour=None)
            rate = replace(rate, view=replace(view, was_tokens_per_hour=self.tokens_per_hour_at_last_pass()))
        history = self._history.view(now, self._clock.latest, self.tokens_per_hour)
        errors_503 = self._errors_503.count(now - ERROR_WINDOW_SECONDS, now)
        errors_404 = self._errors_404.count(now - ERROR_WINDOW_SECONDS, now)
        backend = BackendErrorsView(
            queue_state_503=errors_503,
            not_found_404=errors_404,
            window_seconds=float(ERROR_WINDOW_SECONDS),
            text=f"Backend: {errors_503}×503 queue_state, {errors_404}×404" if errors_503 or errors_404 else None,
        )
        queue = queue_view(self.queue, now)
        network = network_view(self._p2p_bytes if self._p2p_seen and not paused else None, self._clock.first_at, now)
        drift = self.drift.view(self.shell)
        working = self.layer is not None and state in ("training", "measuring", "idle")
        delivery = self.delivery.view(now, working, state if state != "measuring" else "training")
        detail_lines = tuple(details(figures, now, state, rate, backend, queue, network))
        detail_lines += tuple(line for line in (
            delivery.text if delivery is not None else None,
            delivery.line if delivery is not None else None,
            self.retries.line(now),
            _last_words(state, figures),
            drift.text if drift is not None else None,
        ) if line is not None)
        return Snapshot(
            status_line=status_line,
            state=state,
            format=self.format_name,
            layer=self.layer,
            queue=queue,
            rate=rate.view,
            warmup=rate.warmup,
            step=self.step,
            run=self.facts.run_view(),
            gpu_memory=self.facts.gpu_view(),
            backend_errors=backend,
            details=detail_lines,
            history=history,
            source=self._clock.source(source),
            as_of=now,
            training=None,
            state_since=since,
            events=events_view(figures, self.timeline, state, self.shell, now, self.sleeps),
            network=network,
            counts=CountsView(self.passes_total, self.tokens_total, dict(self.backend_errors_total)),
            lost_layer=self._lost_layer_view(state),
            delivery=delivery,
            drift=drift,
            cause=_cause_view(state, figures),
            ticking=ticking(status_line, since if state in ("idle", "silent", "crashed") else None, detail_lines, (
                ("last pass ", self.live.last_pass_at), ("queue reset", queue.last_reset_at if queue else None),
                ("GPU mem ", self.facts.gpu_at), ("Run ", self.facts.run_at), ("Epoch ", self.facts.run_at),
                ("Phase ", self.facts.phase_at)), now),
        )

    def _lost_layer_view(self, state: str) -> LostLayerView | None:
        """The lost layer while the miner waits in the queue for another (its state's sentence)."""
        if self.lost_layer is None or not self._lost_told or state != "queued":
            return None
        layer, at = self.lost_layer
        return LostLayerView(layer, at, f"lost layer {layer} at {text.clock(at)} — back in the queue")

    def stored(self, now: float, lines_read: int) -> StoredFigures:
        """What a stored 30-s sample at ``now`` reads (app/record/replay.py): the same figures as
        :meth:`snapshot`'s, without the page's words and views (an import asks at every boundary)."""
        measured = self._tokens_per_hour_at(now)
        figures = self.figures(now, fact_lines=False)
        state = verdict(figures, now, measured, lines_read)[0]
        # The history's point at ``now`` is that rate unless paused: measured once.
        point = self._history.newest(now, self._clock.latest, lambda t: None if self.pausing(t) else (
            measured if t == now else self._tokens_per_hour_at(t)))
        if point is not None and point[0] == now:
            tokens_per_hour = point[1]
        else:
            tokens_per_hour = None if state in ("idle", "silent") else measured
        queue = self.queue
        polled = (queue.since is not None and queue.status in QUEUED_STATUSES and queue.last_poll_at is not None
                  and now - HISTORY_STEP_SECONDS < queue.last_poll_at <= now)  # fmt: skip
        return _stored_figures(
            tokens_per_hour=tokens_per_hour,
            state=state,
            layer=self.layer,
            tokens_per_pass=self.tokens_per_pass,
            queue_position=queue.position if polled else None,  # silence is not a position
            step=self.step,
            events=self._stored_events(figures, state, now),
        )

    def _stored_events(self, figures: IotaFigures, state: State, now: float) -> tuple[EventView, ...]:
        """The timeline as :func:`events_view` shows it, built again only when its inputs moved.

        Without a shell log or a sleep, ``now`` does not change the words (every span's cause is
        "cause unknown"), so at most 30-s boundaries of an import the entries are the last ones.
        """
        if self.shell is not None or self.sleeps:
            return events_view(figures, self.timeline, state, self.shell, now, self.sleeps)
        pending_clock = figures.clock if state in ("silent", "crashed") else None
        pending_idle = (figures.idle_entry, figures.layer) if state == "idle" and not figures.idle_reported else None
        key = (self.timeline.revision, state, pending_clock, pending_idle)
        if self._events_key != key:
            self._events = events_view(figures, self.timeline, state, None, now, ())
            self._events_key = key
        return self._events


def _last_words(state: str, figures: IotaFigures) -> str | None:
    """A crashed miner's last line, quoted (a panic's message, an exception, the shell's exit line)."""
    if state != "crashed":
        return None
    cause = figures.crash or figures.stop_cause
    return f"last line: {cause.line}" if cause is not None and cause.line else None


def _cause_view(state: str, figures: IotaFigures) -> CauseView | None:
    """The cause the status line names, typed for the page (which then needs no generic explanation)."""
    cause = {"silent": figures.stop_cause, "crashed": figures.crash or figures.stop_cause,
             "idle": figures.idle_cause}.get(state)
    return None if cause is None else CauseView(cause.kind, cause.at, cause.words, cause.line)


@dataclass(frozen=True, slots=True)
class StoredFigures:
    """A stored sample's figures at one moment, and the timeline's entries as the page would show them."""

    tokens_per_hour: float | None
    state: State
    layer: int | None
    tokens_per_pass: int | None
    queue_position: int | None  # only where a poll was logged in the 30 s up to the sample
    step: int | None
    events: tuple[EventView, ...]  # newest first, each span with its cause


_stored_figures = builder(StoredFigures)  # at every 30 s of an import's log
