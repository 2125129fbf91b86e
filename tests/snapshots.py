"""Snapshots for scenario tests: the empty one, with only what a scenario needs filled in.

``snapshot("idle", T0, rate={"last_pass_at": T0 - 120}, queue={"position": 12})`` — nested
sections are given as the fields they change; ``events`` as (at, kind, text) or their dicts and ``history`` as
(t, tokens per hour) pairs, as the serializer writes them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.snapshot import EventView, QueueView, Snapshot, SourceView, UsualView, training_from_dict
from app.stats.unknown import UnknownTracker

EMPTY_SOURCE = SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0, last_event_at=None)


def snapshot(state: str, at: float, *, since: float | None = None, **fields: Any) -> Snapshot:
    """The empty snapshot at ``at`` in ``state`` (begun at ``since``), with ``fields`` replaced."""
    base = UnknownTracker().snapshot(at, EMPTY_SOURCE)
    for name, section in (("rate", base.rate), ("source", base.source), ("backend_errors", base.backend_errors),
                          ("warmup", base.warmup)):
        if isinstance(fields.get(name), dict):
            fields[name] = replace(section, **fields[name])
    if isinstance(fields.get("training"), dict):
        fields["training"] = training_from_dict(fields["training"])
    if isinstance(fields.get("queue"), dict):
        fields["queue"] = QueueView(**{"position": None, "status": "queued", **fields["queue"]})
    if isinstance(fields.get("usual"), dict):
        fields["usual"] = UsualView(**{"basis_hours": 24.0, "delta_percent": None, **fields["usual"]})
    if "events" in fields:
        fields["events"] = tuple(EventView(**e) if isinstance(e, dict) else EventView(*e) for e in fields["events"])
    if "history" in fields:
        fields["history"] = tuple((t, value) for t, value in fields["history"])
    if "details" in fields:
        fields["details"] = tuple(fields["details"])
    return replace(base, state=state, as_of=at, state_since=since, **fields)
