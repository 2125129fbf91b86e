"""What happened over the day: the stored events and the live ones as one list a person reads.

Pure: event dicts (``{at, kind, text}``) in, the list out, newest first. Each event once (the
store keeps what the live timeline said, so most are in both); a run of the same error, ids and
counts aside, one entry with its count (the timeline's `… (×72)`, summed over runs that other
errors broke); a pause and its end one span, `idle 02:50–04:20`, `log silent 02:50–04:20`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .. import text

# The timeline's count of a repeated error: "Error getting activations (×72)".
REPEAT = re.compile(r" \(×(\d+)\)$")
# Ids and numbers change between repeats of one message (app/stats/iota/timeline.py).
_VARYING = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+", re.ASCII)
# A pause's entry, and the words of the entry that ends it.
_SPANS = {"idle": ("passes resumed", "idle"), "silent": ("log lines again", "log silent")}


def repeat_of(words: str) -> tuple[str, int]:
    """An error's message without its count, and the count (1 when not repeated)."""
    found = REPEAT.search(words)
    return (words[: found.start()], int(found.group(1))) if found else (words, 1)


def what_happened(
    stored: Iterable[Mapping[str, Any]], live: Iterable[Mapping[str, Any]], *, spans: bool = True
) -> list[dict[str, Any]]:
    """The stored and live events merged, errors folded, pauses as spans (unless not ``spans``); newest first."""
    by_key: dict[tuple[float, str], dict[str, Any]] = {}
    for event in (*stored, *live):  # the live wording wins, but not a smaller recount of one error
        at, kind, words = event.get("at"), event.get("kind"), event.get("text")
        if isinstance(at, (int, float)) and isinstance(kind, str) and isinstance(words, str):
            slot = (round(float(at), 3), kind)
            seen = by_key.get(slot)
            if kind == "error" and seen is not None:
                # The live view counts from where it began to read; the store from the log's start.
                (old, old_count), (new, new_count) = repeat_of(seen["text"]), repeat_of(words)
                if old == new and old_count > new_count:
                    continue
            by_key[slot] = {"at": float(at), "kind": kind, "text": words}
    events = sorted(by_key.values(), key=lambda e: e["at"])
    # An error entry moves to the end of the list each time its message is seen again: its old
    # place is left empty (None) and the empties dropped at the end, so a week of repeats costs
    # one pass, not a search of the list per repeat.
    out: list[dict[str, Any] | None] = []
    # Per message: its one entry, its place in ``out``, the counts of its runs already over, the
    # count of its current run.
    runs: dict[str, tuple[dict[str, Any], int, int, int]] = {}
    keys: dict[str, str] = {}  # message -> its key (ids and numbers as "#"), each worked out once
    last_error: str | None = None
    for event in events:
        if event["kind"] != "error":
            out.append(event)
            continue
        message, count = repeat_of(event["text"])
        key = keys.get(message)
        if key is None:
            key = keys[message] = _VARYING.sub("#", message)
        if key not in runs:
            entry, before = dict(event), 0
        else:
            entry, place, before, current = runs[key]
            # The timeline counts one run while no other error comes between and its count grows;
            # a later sight of the same run says its newer count, a new run starts again from 1.
            if not (last_error == key and count >= current):
                before += current
            out[place] = None  # dated at its latest, where it goes in the list
            entry["at"] = event["at"]
        runs[key] = (entry, len(out), before, count)
        total = before + count
        entry["text"] = message if total == 1 else f"{message} (×{total})"
        out.append(entry)
        last_error = key
    merged = [event for event in out if event is not None]
    return (_spans(merged) if spans else merged)[::-1]


def _spans(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each idle or silent entry and the entry that ends it, as one span (oldest first in, out)."""
    out: list[dict[str, Any]] = []
    open_at: dict[str, int] = {}  # kind → index in out of the pause not yet ended
    for event in events:
        kind = event["kind"]
        if kind in _SPANS:
            open_at[kind] = len(out)
            out.append(event)
            continue
        if kind == "resumed":
            ended = next((k for k, (words, _) in _SPANS.items() if event["text"].startswith(words) and k in open_at), None)
            if ended is not None:
                start = out[open_at.pop(ended)]
                label = _SPANS[ended][1]
                cause = start["text"].partition(" — ")[2]  # the pause's cause, or "cause unknown"
                words = f"{label} {text.clock(start['at'])}–{text.clock(event['at'])}"
                start.update(until=event["at"], text=f"{words} — {cause}" if cause else words)
                continue
        out.append(event)
    return out
