"""The history: what tokwatch remembers across restarts and log rotations (SQLite, standard library).

Knows nothing of Flask or the trackers: it takes snapshots (``app.snapshot.Snapshot``) and passes,
and answers chart ranges, CSV rows, "vs your usual" and "today".

The writer and the queries (and sqlite3) load when first named: the import child
(app/record/child.py) needs only the records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .records import EventRow, Observation, PassFact, Sample, SourceKey

if TYPE_CHECKING:
    from .history import History, HistoryStatus
    from .queries import RANGES, UnknownRange, Usual

__all__ = [
    "RANGES",
    "EventRow",
    "History",
    "HistoryStatus",
    "Observation",
    "PassFact",
    "Sample",
    "SourceKey",
    "UnknownRange",
    "Usual",
]

_LAZY = {"History": "history", "HistoryStatus": "history", "RANGES": "queries", "UnknownRange": "queries",
         "Usual": "queries"}


def __getattr__(name: str) -> Any:
    """``History`` and the queries' names, imported when first asked for."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
