"""The words of an alert: a title (the machine's name and its new state) and a short body."""

from __future__ import annotations

from dataclasses import dataclass

from ..text import duration
from .book import Kind, Transition
from .read import Snap, clock_time, string
from .rules import Level

# The state a resolution's title announces, as a person says it.
STATE_WORDS = {
    "waiting": "waiting for log",
    "queued": "in the queue",
    "working": "working",
    "measuring": "measuring",
    "training": "training",
    "stalled": "stalled",
    "unrecognised": "log not recognised",
    "idle": "idle",
    "silent": "log silent",
    "done": "finished",
    "diverged": "diverged",
    "crashed": "crashed",
    "broken": "broken run",
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


def compose(transition: Transition, snap: Snap, *, name: str, dashboard_url: str | None) -> Message:
    """Write the message for one transition, with the status line as it reads now."""
    t = transition
    status = string(snap, "status_line")
    headline = _capital(t.headline)
    if t.kind == "opened":
        title = f"{name}: {t.headline}"
        summary = f"{headline}: {t.text}"
        lines = [f"{summary}.", f"Since {clock_time(t.since, t.at)} ({duration(t.at - t.since)})."]
        level = t.level
    elif t.kind == "resolved":
        state = string(snap, "state")
        title = f"{name}: {STATE_WORDS.get(state or '', state or 'resolved')}"
        ended = t.ended_at if t.ended_at is not None else t.at
        summary = f"{headline} resolved after {duration(ended - t.since)}"
        lines = [f"{summary} (since {clock_time(t.since, t.at)})."]
        level = "success"
    else:
        title = f"{name}: {t.headline}"
        summary = _capital(t.text)
        more = f" ({t.folded} more since the last message)" if t.folded else ""
        lines = [f"{summary}{more}.", f"At {clock_time(t.since, t.at)}."]
        level = t.level
    body = "\n".join(([status] if status else []) + lines + ([dashboard_url] if dashboard_url else []))
    return Message(t.rule, t.kind, level, t.at, title, body, summary)


def trial_message(*, name: str, dashboard_url: str | None, now: float) -> Message:
    """The message ``--notify-test`` sends."""
    lines = ["A test from tokwatch: alerts for this machine will arrive here."]
    if dashboard_url:
        lines.append(dashboard_url)
    return Message("test", "event", "info", now, f"{name}: test", "\n".join(lines), "test message")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
