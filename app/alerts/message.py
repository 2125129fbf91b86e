"""The words of an alert, shaped for a phone's lock screen.

The title is the machine's name and its state; the body the status line, one sentence of what
changed and since when, one of what it means (the page's own explanation of that state), and a
link only when it opens where the message is read: never a loopback one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..config import is_loopback
from ..snapshot import Snapshot
from ..states import STATE_EXPLANATIONS
from ..text import clock_time, compact, duration
from .book import Kind, Transition
from .rules import Level

# The state a resolution's title announces, as a person says it.
STATE_WORDS = {
    "waiting": "waiting for log",
    "queued": "in the queue",
    "processing": "registration processing",
    "confirmed": "registration confirmed",
    "registering": "registering",
    "failed": "registration failed",
    "initializing": "initializing",
    "working": "working",
    "measuring": "measuring",
    "training": "training",
    "evaluating": "evaluating",
    "stalled": "stalled",
    "unrecognised": "log not recognised",
    "idle": "idle",
    "silent": "log silent",
    "done": "finished",
    "diverged": "diverged",
    "crashed": "crashed",
    "stopped": "stopped",
    "broken": "broken run",
    "joining": "joining the swarm",
    "cannot_join": "cannot join the swarm",
    "averaging": "averaging",
    "out_of_sync": "out of sync",
    "sync_failing": "cannot sync",
    "alone": "alone in the swarm",
}


@dataclass(frozen=True, slots=True)
class Message:
    """One notification, ready for any channel."""

    rule: str
    kind: Kind
    level: Level  # resolved messages are "success"
    at: float
    title: str
    body: str
    summary: str  # one line, for the page


def compose(transition: Transition, snap: Snapshot, *, name: str, dashboard_url: str | None,
            before: Sequence[Transition] = ()) -> Message:
    """Write the message for one transition, with the status line as it reads now.

    ``before``: conditions that ended into this one's worse state (app.alerts.fold), each a line of
    this message rather than a success of its own.
    """
    t = transition
    status = snap.status_line
    headline = _capital(t.headline)
    if t.kind == "opened":
        title = f"{name}: {t.headline}"
        summary = f"{headline}: {t.text}"
        when = duration(t.at - t.since)
        # "no pass since 14:16" already says since when; the sentence adds only how long.
        since = f" ({when})" if "since" in t.text else f" (since {clock_time(t.since, t.at)}, {when})"
        lines = [f"{summary}{since}."]
        lines += [f"Before it: {e.headline} for {duration((e.ended_at or e.at) - e.since)} "
                  f"(since {clock_time(e.since, t.at)})." for e in before]
        explained = _explanation(t.rule) or _explanation(snap.state)
        level = t.level
    elif t.kind == "resolved":
        state = snap.state
        title = f"{name}: {STATE_WORDS.get(state, state)}"
        ended = t.ended_at if t.ended_at is not None else t.at
        summary = f"{headline} resolved after {duration(ended - t.since)}"
        lines = [f"{summary} (since {clock_time(t.since, t.at)})."]
        if state == "measuring":  # back from a pause: the status line's `L1 · …` says no rate yet
            measuring = _measuring(snap)
            summary += f" · {measuring}"
            lines.append(f"{_capital(measuring)}.")
        explained = _explanation(state)
        level = "success"
    else:
        title = f"{name}: {t.headline}"
        summary = _capital(t.text)
        more = f" ({t.folded} more since the last message)" if t.folded else ""
        lines = [f"{summary}{more}, at {clock_time(t.since, t.at)}."]
        explained = _explanation(t.rule)
        level = t.level
    lines += [explained] if explained else []
    body = "\n".join(([status] if status else []) + lines + _link(dashboard_url))
    return Message(t.rule, t.kind, level, t.at, title, body, summary)


def trial_message(*, name: str, dashboard_url: str | None, now: float) -> Message:
    """The message ``--notify-test`` sends."""
    lines = ["A test from tokwatch: alerts for this machine will arrive here.", *_link(dashboard_url)]
    return Message("test", "event", "info", now, f"{name}: test", "\n".join(lines), "test message")


def _measuring(snap: Snapshot) -> str:
    """'rate being measured (1 pass so far; was 768k tok/h)'."""
    passes = snap.warmup.passes if snap.warmup.passes_needed else None
    was = snap.rate.was_tokens_per_hour
    parts = ([f"{passes} {'pass' if passes == 1 else 'passes'} so far"] if passes is not None else []) + (
        [f"was {compact(was)} tok/h"] if was is not None else [])
    return "rate being measured" + (f" ({'; '.join(parts)})" if parts else "")


def _explanation(state: str) -> str:
    return STATE_EXPLANATIONS.get(state, "")


def _link(url: str | None) -> list[str]:
    """The link's line, if it opens on another device: a loopback one opens the phone itself."""
    return [url] if url and not is_loopback(urlsplit(url).hostname or "localhost") else []


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
