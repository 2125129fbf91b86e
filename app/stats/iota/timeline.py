"""The event timeline: what happened to the miner, newest first, bounded.

Pure: each entry is dated by the log. An ERROR line repeated word for word (ids aside) is one
entry whose count grows, so a miner writing the same error every 10 s does not push everything
else out of the list.
"""

from __future__ import annotations

import re
from contextlib import suppress
from dataclasses import dataclass
from typing import Literal

TIMELINE_SIZE = 50
# Ids and counters change between repeats of one message; they do not make it another message.
_VARYING = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+", re.ASCII)
ERROR_TEXT_MAX = 200

Kind = Literal[
    "registered",
    "queued",
    "queue_reset",
    "queue_rejoined",
    "registration",
    "initializing",
    "layer_lost",
    "layer_changed",
    "run_changed",
    "epoch_changed",
    "phase_changed",
    "idle",
    "silent",
    "resumed",
    "error",
    "restarted",
    "source_changed",
    "app",  # the app's shell log: a session, a quit, an update, its training state
    "crashed",  # the miner died: an exit by signal or with an error code, a panic, an abort
]


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    at: float
    kind: Kind
    text: str
    layers: tuple[int, int] | None = None  # a layer change's layers, from and to


class Timeline:
    """The last ``TIMELINE_SIZE`` entries (kept in log order; read newest first)."""

    def __init__(self) -> None:
        self._entries: list[TimelineEntry] = []
        self._error_key: str | None = None  # the latest ERROR line's message, ids and numbers aside
        self._error_entry: TimelineEntry | None = None
        self._error_count = 0
        self.revision = 0  # moves with every change of the entries: a reader may keep what it built from them

    def add(self, at: float, kind: Kind, text: str, layers: tuple[int, int] | None = None) -> TimelineEntry:
        """Record an entry (an entry dated before the newest is put in its place)."""
        entry = TimelineEntry(at, kind, text, layers)
        self.revision += 1
        entries = self._entries
        i = len(entries)
        while i > 0 and entries[i - 1].at > at:
            i -= 1
        entries.insert(i, entry)
        if len(entries) > TIMELINE_SIZE:
            del entries[0]
        return entry

    def error(self, at: float, message: str) -> None:
        """Record an ERROR line; the same message as the previous one replaces its entry, counted."""
        text = message.strip()
        if len(text) > ERROR_TEXT_MAX:
            text = text[: ERROR_TEXT_MAX - 1] + "…"
        key = _VARYING.sub("#", text)
        if key == self._error_key and self._error_entry is not None:
            with suppress(ValueError):  # already pushed out of the list by newer entries
                self._entries.remove(self._error_entry)
                self.revision += 1
            self._error_count += 1
        else:
            self._error_key, self._error_count = key, 1
        shown = text if self._error_count == 1 else f"{text} (×{self._error_count})"
        self._error_entry = self.add(at, "error", shown)

    def has_kind(self, kind: Kind) -> bool:
        """True when an entry of ``kind`` is kept."""
        return any(e.kind == kind for e in self._entries)

    def newest_first(self, extra: list[TimelineEntry] | None = None) -> tuple[TimelineEntry, ...]:
        """The entries, newest first, with ``extra`` ones (not yet recorded) merged in."""
        entries = self._entries if not extra else sorted([*self._entries, *extra], key=lambda e: e.at)
        return tuple(reversed(entries[-TIMELINE_SIZE:]))
