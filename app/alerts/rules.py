"""The alert rules: each reads one snapshot (and what it remembers of earlier ones).

A *condition* (idle, silent, slow, …) is true for a while: it says when it began, if the
snapshot knows. An *event* (a queue reset, a layer change, a new eval figure) happens once.
Holding, opening, resolving and rate-limiting are :mod:`app.alerts.book`'s job. Pure: the
clock is an argument and nothing here does I/O.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Literal, Protocol

from ..config.alerts import RuleSettings
from ..snapshot import Snapshot, TrainingView
from ..text import clock_time, compact, duration

Level = Literal["info", "success", "warning", "problem"]

# States in which a miner has been working: being queued after one of these is news.
_WORKED = frozenset({"training", "measuring", "evaluating", "idle", "stalled"})


@dataclass(frozen=True, slots=True)
class Finding:
    """A condition that holds now: since when (if known), a headline and what it means."""

    began_at: float | None
    headline: str  # "idle": the state a title announces
    text: str  # "no pass since 14:02"


@dataclass(frozen=True, slots=True)
class Happening:
    """A one-off event: when, a headline and what it means."""

    at: float
    headline: str
    text: str


class ConditionRule(Protocol):
    name: str
    level: Level

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        """The condition as this snapshot shows it, or None when it does not hold."""


class EventRule(Protocol):
    name: str
    level: Level
    # When watching began (unix): what the log dates at or after it is news even at the first look
    # (a change read in the moment between the start and that look), what it dates before is the baseline.
    since: float | None

    def observe(self, snap: Snapshot, now: float) -> list[Happening]:
        """What happened since the previous snapshot (on the first, only what the log dates since ``since``)."""


_NO_TRAINING = TrainingView()  # the miner's: no step, no figure


def _training(snap: Snapshot) -> TrainingView:
    """A step trainer's figures (numbers finite or None); all unknown for the miner."""
    return _NO_TRAINING if snap.training is None else snap.training


def _at_step(snap: Snapshot, text: str) -> str:
    """``text`` led by the step the run had reached (``at step 1663: …``), when it prints one."""
    step = _training(snap).step
    return text if step is None else f"at {_training(snap).step_word()} {step}: {text}"


def _since(snap: Snapshot, *fallback: float | None) -> float | None:
    """When the current state began: ``state_since``, else the first fallback that is known."""
    since = snap.state_since
    if since is not None:
        return since
    return next((value for value in fallback if value is not None), None)


class Idle:
    """A miner with a layer that does no pass."""

    name = "idle"
    level: Level = "warning"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state != "idle":
            return None
        last_pass = snap.rate.last_pass_at
        text = f"no pass since {clock_time(last_pass, now)}" if last_pass is not None else "no pass yet"
        if snap.cause is not None:
            text += f" — {snap.cause.text}"
        return Finding(_since(snap, last_pass), "idle", text)


class Silent:
    """A log that has stopped growing."""

    name = "silent"
    level: Level = "problem"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state != "silent":
            return None
        last_line = snap.source.last_event_at
        text = f"no new log line since {clock_time(last_line, now)}" if last_line is not None else "no log line"
        if snap.cause is not None:
            text += f" — {snap.cause.text}"  # why, when a log or the machine says (the app quit, the Mac slept)
        return Finding(_since(snap, last_line), "log silent", text)


class Queued:
    """A miner sent back to the registration queue after it had worked."""

    name = "queued"
    level: Level = "warning"

    def __init__(self) -> None:
        self._worked = False

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        state = snap.state
        lost = snap.lost_layer
        if state in _WORKED or snap.rate.last_pass_at is not None or lost is not None:
            self._worked = True
        if state != "queued" or not self._worked:
            return None
        position = snap.queue.position if snap.queue is not None else None
        text = f"queue position {position}" if position is not None else "in the registration queue"
        if lost is not None:  # deregistered: the layer was taken away
            return Finding(_since(snap, lost.at), f"lost layer {lost.layer}", f"{lost.text}, {text}")
        return Finding(_since(snap), "back in the queue", text)


class Offline:
    """A machine the hub has not heard from for three of its report intervals (the hub's word: its
    snapshot's state is then ``offline``, since its last report)."""

    name = "offline"
    level: Level = "problem"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state != "offline":
            return None
        last = snap.state_since
        text = f"no report since {clock_time(last, now)}" if last is not None else "no report"
        return Finding(last, "offline", text)


class QueueReset:
    """The miner was sent to the back of the queue (an event, or the reset counter going up)."""

    name = "queue_reset"
    level: Level = "warning"

    def __init__(self) -> None:
        self.since: float | None = None
        self._seen: set[float] | None = None  # reset times already told
        self._resets: int | None = None
        self._latest = -math.inf

    def observe(self, snap: Snapshot, now: float) -> list[Happening]:
        queue = snap.queue
        times = {e.at: e.text or e.kind for e in snap.events if e.kind == "queue_reset"}
        last = queue.last_reset_at if queue is not None else None
        if last is not None:
            times.setdefault(last, "sent to the back of the queue")
        resets = queue.resets_24h if queue is not None else None
        if self._seen is None:  # first look: what the log dates before watching began is the baseline
            since = self.since if self.since is not None else math.inf
            self._seen, self._resets = {at for at in times if at < since}, resets
            self._latest = max(self._seen, default=-math.inf)
            if len(self._seen) == len(times):
                return []
        new = sorted(at for at in times if at not in self._seen and at > self._latest - 1.0)
        self._seen.update(times)
        grew = resets is not None and self._resets is not None and resets > self._resets
        if resets is not None:
            self._resets = resets
        position = queue.position if queue is not None else None
        where = f" (now at position {position})" if position is not None else ""
        if new:
            self._latest = max(self._latest, new[-1])
            return [Happening(at, "queue reset", f"{times[at]}{where}") for at in new]
        if grew:
            return [Happening(now, "queue reset", f"sent to the back of the queue{where}")]
        return []


class QueueGrowing:
    """A queue position that has only grown (no fall, no reset) for the rule's hold: one warning, not one per poll."""

    name = "queue_growing"
    level: Level = "warning"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        queue = snap.queue
        if snap.state != "queued" or queue is None or queue.growing_since is None:
            return None
        where = f" (now #{queue.position})" if queue.position is not None else ""
        return Finding(queue.growing_since, "queue growing",
                       f"the queue has grown for {duration(now - queue.growing_since)}{where}")


class RegistrationFailed:
    """The orchestrator answered that the registration failed (#190: confirmed → failed)."""

    name = "registration_failed"
    level: Level = "problem"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state != "failed":
            return None
        return Finding(_since(snap), "registration failed", "the orchestrator answered failed: the miner is not training")


class Initializing:
    """The orchestrator keeps the miner initializing (#199: for hours after a restart)."""

    name = "initializing"
    level: Level = "warning"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state != "initializing":
            return None
        since = snap.state_since
        text = f"initializing since {clock_time(since, now)}" if since is not None else "initializing"
        return Finding(since, "initializing", f"{text}: the orchestrator gives it no work")


class QueueRestart:
    """The app restarted while queued and joined again under a new queue id, at the back."""

    name = "queue_restart"
    level: Level = "warning"

    def __init__(self) -> None:
        self.since: float | None = None
        self._seen: set[float] | None = None

    def observe(self, snap: Snapshot, now: float) -> list[Happening]:
        times = {e.at: e.text or e.kind for e in snap.events if e.kind == "queue_rejoined"}
        if self._seen is None:  # first look: what the log dates before watching began is the baseline
            since = self.since if self.since is not None else math.inf
            self._seen = {at for at in times if at < since}
        new = sorted(at for at in times if at not in self._seen)
        self._seen.update(times)
        return [Happening(at, "back of the queue", times[at]) for at in new]


class Slow:
    """Tokens per hour below a fraction of the usual rate on the same layer."""

    name = "slow"
    level: Level = "warning"

    def __init__(self, settings: RuleSettings) -> None:
        self.fraction = settings.below_fraction
        self._layer: int | None = None
        self._layer_changed_at: float | None = None  # seen changing, not merely first seen

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        layer = snap.layer
        if layer is not None and layer != self._layer:
            if self._layer is not None:
                self._layer_changed_at = now
            self._layer = layer
        rate = snap.rate.tokens_per_hour
        usual = snap.usual.tokens_per_hour if snap.usual is not None else None
        if snap.state != "training" or not snap.rate.measured:
            return None
        if rate is None or usual is None or usual <= 0 or rate >= usual * self.fraction:
            return None
        threshold = usual * self.fraction
        began = now
        # Walk the history back while it stays below: a miner slow for an hour already is
        # announced at once, not 30 minutes after tokwatch starts.
        for at, value in reversed(snap.history):
            if value is None or value >= threshold:
                break
            began = min(began, float(at))
        # Not before training (this stretch, on this layer) began.
        not_before = [t for t in (snap.state_since, self._layer_changed_at) if t is not None]
        if not_before:
            began = max(began, max(not_before))
        percent = int(100 * rate / usual)
        on = f" on L{layer}" if layer is not None else ""
        text = f"{compact(rate)} tok/h, {percent} % of your usual {compact(usual)}{on}"
        return Finding(began, f"slow ({percent} % of usual)", text)


class BackendErrors:
    """A burst of backend errors: at least N within a window.

    The snapshot counts errors over its own hour; the new ones are the increases between
    snapshots, each dated when it was seen.
    """

    name = "backend_errors"
    level: Level = "warning"

    def __init__(self, settings: RuleSettings) -> None:
        self.errors = settings.errors
        self.window_seconds = settings.window_seconds
        self._total: int | None = None
        self._seen: deque[tuple[float, int]] = deque()

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        total = snap.backend_errors.queue_state_503 + snap.backend_errors.not_found_404
        if self._total is not None and total > self._total:
            self._seen.append((now, total - self._total))
        self._total = total
        while self._seen and self._seen[0][0] <= now - self.window_seconds:
            self._seen.popleft()
        recent = sum(n for _, n in self._seen)
        if recent < self.errors:
            return None
        window = duration(self.window_seconds)
        return Finding(self._seen[0][0], "backend errors", f"{recent} backend errors in the last {window}")


class Undelivered:
    """A miner that trains while its forward activations are not delivered (its level is not ok)."""

    name = "undelivered"
    level: Level = "warning"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        delivery = snap.delivery
        if delivery is None or delivery.level == "ok" or delivery.text is None:
            return None
        return Finding(None, "forwards not delivered", delivery.text)


class LayerChange:
    """The miner moved to another layer (information)."""

    name = "layer_change"
    level: Level = "info"

    def __init__(self) -> None:
        self.since: float | None = None
        self._layer: int | None = None
        self._started = False

    def observe(self, snap: Snapshot, now: float) -> list[Happening]:
        layer = snap.layer
        if layer is None:
            return []
        before, self._layer = self._layer, layer
        first, self._started = not self._started, True
        if first:
            return self._changed_since_watching(snap, layer)
        if before is None or before == layer:
            return []
        return [Happening(now, f"layer {layer}", f"moved from layer {before} to layer {layer}")]

    def _changed_since_watching(self, snap: Snapshot, layer: int) -> list[Happening]:
        """The change to ``layer`` the log dates since watching began, read before the first look."""
        if self.since is None:
            return []
        change = next((e for e in snap.events if e.layers is not None), None)  # the newest
        if change is None or change.layers is None or change.at < self.since or change.layers[1] != layer:
            return []
        return [Happening(change.at, f"layer {layer}", f"moved from layer {change.layers[0]} to layer {layer}")]


class Stalled:
    """A step trainer that has printed no step for longer than it usually takes."""

    name = "stalled"
    level: Level = "warning"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        training = _training(snap)
        if snap.state != "stalled" and not training.stalled:
            return None
        quiet = training.seconds_since_step
        last_step = None if quiet is None else now - quiet
        step = training.step
        at = clock_time(last_step, now) if last_step is not None else None
        # One clause, no parentheses: the message adds how long in its own ("… at 14:02 (25 min).").
        word = training.step_word()  # (the count's own unit: "no epoch since epoch 12")
        if step is not None:
            text = f"no {word} since {word} {step}" + (f" at {at}" if at else "")
        else:
            text = f"no {word} since {at}" if at else f"no new {word}"
        # A stall is told as lasting since the last step.
        return Finding(_since(snap, last_step), "stalled", text)


class Diverged:
    """A loss that went NaN or infinite."""

    name = "diverged"
    level: Level = "problem"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state != "diverged":
            return None
        step, note = _training(snap).step, _training(snap).loss_note
        text = note or "the loss is not a number"
        if step is not None:
            text += f" at {_training(snap).step_word()} {step}"
        return Finding(_since(snap), "diverged", text)


class Crashed:
    """A step trainer whose run died (a traceback, a kill, a fatal NCCL or launcher error).

    It resolves when the log prints a training step again (the run was restarted).
    """

    name = "crashed"
    level: Level = "problem"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state != "crashed":
            return None
        crash = _training(snap).crash
        error = crash.error if crash is not None else None
        if snap.training is None:  # the miner: its status says how (`L2 · log silent 12 min — the miner crashed …`)
            error = error or snap.status_line
        return Finding(_since(snap), "crashed", _at_step(snap, error or "the run died"))


class Stopped:
    """A step trainer someone stopped before its end (Ctrl-C, SIGTERM, a scheduler's cancel): not a death, but
    a run that makes no more progress; the line that stopped it is said. It resolves when the log prints a
    training step again (the run was started again).
    """

    name = "stopped"
    level: Level = "warning"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state != "stopped":
            return None
        crash = _training(snap).crash
        return Finding(_since(snap), "stopped", _at_step(snap, crash.error if crash is not None else "the run was stopped"))


class Broken:
    """A step trainer that prints on but learns nothing (state ``broken``: its grad norm not a number,
    its loss stuck at 0, fp16 skipping every step, several logs in a row).

    It resolves when the rule no longer holds (a finite grad norm, a step that goes through).
    """

    name = "broken"
    level: Level = "warning"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state != "broken":
            return None
        sentence = _training(snap).broken
        return Finding(_since(snap), "broken", _at_step(snap, sentence or "the run learns nothing"))


class Done:
    """A step trainer that finished its run."""

    name = "done"
    level: Level = "success"

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        training = _training(snap)
        if snap.state != "done" and not training.finished:
            return None
        step, total = training.step, training.total_steps
        if step is not None and total is not None:
            text = f"{training.step_word()} {step}/{total}"
        elif step is not None:
            text = f"last {training.step_word()} {step}"
        else:
            text = "the run finished"
        quiet = training.seconds_since_step
        return Finding(_since(snap, None if quiet is None else now - quiet), "finished", text)


class SwarmState:
    """A collaborator (SN38, hivemind) out of its swarm: it cannot join, or it is behind and cannot catch up,
    or it is behind, or alone; each is a rule of its own (its level, its hold). It resolves when the
    state does (a peer reached, the state loaded, a peer to average with)."""

    def __init__(self, name: str, level: Level, states: frozenset[str], headline: str) -> None:
        self.name, self.level, self._states, self._headline = name, level, states, headline

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        if snap.state not in self._states:
            return None
        return Finding(_since(snap), self._headline, snap.status_line)


def swarm_rules() -> list[SwarmState]:
    """The swarm's states worth telling, in the order they are listed."""
    return [
        SwarmState("cannot_join", "problem", frozenset({"cannot_join"}), "cannot join the swarm"),
        SwarmState("sync_failing", "problem", frozenset({"sync_failing"}), "cannot sync with the swarm"),
        SwarmState("out_of_sync", "warning", frozenset({"out_of_sync"}), "out of sync"),
        SwarmState("alone", "warning", frozenset({"alone"}), "alone in the swarm"),
    ]


class NoGoodRound:
    """A collaborator whose averaging rounds have not succeeded for its hold time (60 min by default):
    they fail, or none comes. Counted from the last good round (or the first round read, when none was
    good); it resolves with the next good round."""

    name = "no_good_round"
    level: Level = "warning"

    def __init__(self, settings: RuleSettings) -> None:
        # The condition is "no good round for this long": it holds only past it, and ends with a good round.
        self._allowed = settings.hold_seconds

    def observe(self, snap: Snapshot, now: float) -> Finding | None:
        swarm = _training(snap).swarm
        if swarm is None or snap.state in ("crashed", "stopped", "done") or not (swarm.rounds_ok or swarm.rounds_failed):
            return None
        last_good = swarm.last_good_round_at
        if last_good is not None:
            if now - last_good < self._allowed:
                return None
            failed = sum(1 for r in swarm.rounds if r.outcome == "failed" and (r.ended_at or 0.0) > last_good)
            text = f"no averaging round has succeeded since {clock_time(last_good, now)}"
            return Finding(last_good, "no good round", text + (f" ({failed} failed since)" if failed else ""))
        starts = [t for r in swarm.rounds for t in (r.started_at, r.ended_at) if t is not None]
        began = min(starts) if starts else None
        if began is not None and now - began < self._allowed:
            return None
        text = f"no averaging round has succeeded yet ({swarm.rounds_failed} failed)"
        return Finding(began, "no good round", text)


class NewEval:
    """A new evaluation figure (validation loss, CORE, …)."""

    name = "eval"
    level: Level = "info"

    def __init__(self) -> None:
        self.since: float | None = None  # eval figures carry no time: the first look stays the baseline
        self._seen: dict[str, tuple[object, object]] | None = None

    def observe(self, snap: Snapshot, now: float) -> list[Happening]:
        training = _training(snap)
        current = {figure.name: (figure.step, figure.value) for figure in training.eval}
        seen, self._seen = self._seen, dict(current)
        if seen is None:
            return []
        fresh = [(name, step, value) for name, (step, value) in sorted(current.items()) if seen.get(name) != (step, value)]
        if not fresh:
            return []
        parts = [f"{name} {_figure(value)}" + (f" at {training.step_word()} {step}" if step is not None else "")
                 for name, step, value in fresh]
        return [Happening(now, "new eval", "evaluation: " + ", ".join(parts))]


class LossSpike:
    """The logged loss spiked above its recent level (``training.loss_spikes`` went up)."""

    name = "spike"
    level: Level = "warning"

    def __init__(self) -> None:
        self.since: float | None = None
        self._count: int | None = None  # the count at the last look (the first look is the baseline)

    def observe(self, snap: Snapshot, now: float) -> list[Happening]:
        training = _training(snap)
        count = training.loss_spikes
        seen, self._count = self._count, count
        if count is None or seen is None or count <= seen:
            return []
        steps = training.loss_spike_steps
        where = f" at {training.step_word()} {steps[-1]:,}" if steps else ""
        return [Happening(now, "loss spike", f"the loss spiked{where} ({count} spikes so far)")]


def _figure(value: object) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)
