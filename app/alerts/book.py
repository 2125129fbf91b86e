"""The alert book: rule readings in, alert transitions out.

It holds a condition for its hold time (counted from when the condition began, not from
when tokwatch first saw it), opens it once, resolves it once and promptly, and lets a rule
open at most one alert per ``reopen_seconds`` — a resolution is never held back. Events are
sent as they come, at most one per rule per ``reopen_seconds``; the ones in between are
folded into the next. Pure: the clock is an argument.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..config.alerts import AlertSettings
from ..snapshot import Snapshot
from . import rules
from .rules import ConditionRule, EventRule, Finding, Happening, Level

Kind = Literal["opened", "resolved", "event"]


@dataclass(frozen=True, slots=True)
class Transition:
    """Something to tell: a condition opened or resolved, or an event happened."""

    kind: Kind
    rule: str
    level: Level
    at: float  # when it is told (the evaluation time)
    since: float  # when the condition began, or when the event happened
    headline: str  # "idle", "layer 3": what a title announces
    text: str  # "no pass since 14:02"
    folded: int = 0  # events of the same rule not told separately (rate limit)
    ended_at: float | None = None  # resolved: when the condition ended


@dataclass(frozen=True, slots=True)
class Active:
    """An open alert, as the snapshot lists it."""

    rule: str
    since: float
    text: str


@dataclass(slots=True)
class _Track:
    began_at: float | None = None
    guessed: bool = False  # the start was not in the snapshot: first seen at start-up
    finding: Finding | None = None
    open: bool = False
    last_opened_at: float = -math.inf


@dataclass(slots=True)
class _Pending:
    happening: Happening
    folded: int


def build_rules(settings: AlertSettings) -> tuple[list[ConditionRule], list[EventRule]]:
    """The enabled rules, conditions and events apart."""
    conditions: list[ConditionRule] = [
        rules.Silent(),
        rules.Idle(),
        rules.Queued(),
        rules.QueueGrowing(),
        rules.RegistrationFailed(),
        rules.Initializing(),
        rules.Slow(settings.rule("slow")),
        rules.BackendErrors(settings.rule("backend_errors")),
        rules.Undelivered(),
        rules.Stalled(),
        rules.Diverged(),
        rules.Crashed(),
        rules.Stopped(),
        rules.Broken(),
        rules.Done(),
        *rules.swarm_rules(),
        rules.NoGoodRound(settings.rule("no_good_round")),
        rules.Offline(),
    ]
    event_rules: list[EventRule] = [rules.QueueReset(), rules.QueueRestart(), rules.LayerChange(), rules.NewEval(),
                                    rules.LossSpike()]
    return (
        [r for r in conditions if settings.rule(r.name).enabled],
        [r for r in event_rules if settings.rule(r.name).enabled],
    )


class AlertBook:
    """Turns successive snapshots into transitions; remembers what is open."""

    def __init__(self, settings: AlertSettings) -> None:
        self.settings = settings
        self._conditions, self._events = build_rules(settings)
        self._tracks = {rule.name: _Track() for rule in self._conditions}
        self._last_event_at = {rule.name: -math.inf for rule in self._events}
        self._pending: dict[str, _Pending] = {}
        self._settled = False  # a snapshot with figures has been read (not only "waiting for log")

    def watching_since(self, at: float) -> None:
        """Watching began at ``at`` (unix): events the log dates from then on are news even at the first look."""
        for rule in self._events:
            rule.since = at

    def step(self, snap: Snapshot, now: float) -> list[Transition]:
        """Read one snapshot taken at ``now``; return what to tell, in order."""
        # Conditions found in the first snapshot with figures were already true at start-up.
        first = not self._settled
        self._settled = self._settled or snap.state != "waiting"
        out: list[Transition] = []
        for rule in self._conditions:
            out.extend(self._condition(rule, rule.observe(snap, now), snap, now, first))
        for event_rule in self._events:
            out.extend(self._happenings(event_rule, event_rule.observe(snap, now), now))
        return out

    def active(self) -> list[Active]:
        """The open alerts, oldest first."""
        found = [
            Active(name, track.began_at, f"{_capital(track.finding.headline)}: {track.finding.text}")
            for name, track in self._tracks.items()
            if track.open and track.finding is not None and track.began_at is not None
        ]
        return sorted(found, key=lambda a: a.since)

    # --- internals ------------------------------------------------------------

    def _condition(
        self, rule: ConditionRule, finding: Finding | None, snap: Snapshot, now: float, first: bool
    ) -> Iterable[Transition]:
        track = self._tracks[rule.name]
        if finding is None:
            if track.open and track.finding is not None and track.began_at is not None:
                ended = _ended_at(snap, track.began_at, now)
                yield Transition("resolved", rule.name, rule.level, now, track.began_at,
                                 track.finding.headline, track.finding.text, ended_at=ended)
            self._tracks[rule.name] = _Track(last_opened_at=track.last_opened_at)
            return
        if track.began_at is None:
            track.began_at = finding.began_at if finding.began_at is not None else now
            track.guessed = finding.began_at is None and first
        elif finding.began_at is not None and not track.open:
            track.began_at = finding.began_at
            track.guessed = False
        track.finding = finding
        if track.open:
            return
        hold = self.settings.rule(rule.name).hold_seconds
        if track.guessed:
            hold = min(hold, self.settings.startup_grace_seconds)
        if now - track.began_at < hold or now - track.last_opened_at < self.settings.reopen_seconds:
            return
        track.open, track.last_opened_at = True, now
        yield Transition("opened", rule.name, rule.level, now, track.began_at, finding.headline, finding.text)

    def _happenings(self, rule: EventRule, happenings: list[Happening], now: float) -> Iterable[Transition]:
        pending = self._pending.pop(rule.name, None)
        for happening in happenings:
            pending = _Pending(happening, 0 if pending is None else pending.folded + 1)
        if pending is None:
            return
        if now - self._last_event_at[rule.name] < self.settings.reopen_seconds:
            self._pending[rule.name] = pending  # told when the rule may speak again
            return
        self._last_event_at[rule.name] = now
        h = pending.happening
        yield Transition("event", rule.name, rule.level, now, h.at, h.headline, h.text, pending.folded)


def _ended_at(snap: Snapshot, began_at: float, now: float) -> float:
    """When a condition ended: when the new state began, if the snapshot says and it fits."""
    since = snap.state_since
    if since is not None and began_at <= since <= now:
        return since
    return now


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
