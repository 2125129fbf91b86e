"""Read a snapshot dict defensively: a field another part has not filled yet reads as None."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

Snap = Mapping[str, Any]


def field(snap: Snap, *path: str) -> Any:
    """The value at ``path`` (``field(s, "rate", "last_pass_at")``), or None if any step is missing."""
    value: Any = snap
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def number(snap: Snap, *path: str) -> float | None:
    """A finite number at ``path``, else None (booleans are not numbers here)."""
    value = field(snap, *path)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def integer(snap: Snap, *path: str) -> int | None:
    """An integer at ``path``, else None."""
    value = field(snap, *path)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def string(snap: Snap, *path: str) -> str | None:
    """A string at ``path``, else None."""
    value = field(snap, *path)
    return value if isinstance(value, str) else None


def events(snap: Snap) -> list[tuple[float, str, str]]:
    """The snapshot's ``events`` as (at, kind, text), skipping malformed entries."""
    raw = snap.get("events")
    if not isinstance(raw, list):
        return []
    out: list[tuple[float, str, str]] = []
    for item in raw:
        if not isinstance(item, Mapping):
            continue
        at, kind, text = number(item, "at"), string(item, "kind"), string(item, "text")
        if at is not None and kind is not None:
            out.append((at, kind, text or kind))
    return out


def clock_time(at: float, now: float) -> str:
    """A local time a person reads: ``14:02``, with the date when it is not today (``Nov 28 14:02``)."""
    moment, today = time.localtime(at), time.localtime(now)
    if (moment.tm_year, moment.tm_yday) == (today.tm_year, today.tm_yday):
        return time.strftime("%H:%M", moment)
    return time.strftime("%b %d %H:%M", moment)
