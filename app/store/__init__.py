"""The history: what tokwatch remembers across restarts and log rotations (SQLite, standard library).

Knows nothing of Flask or the trackers: it takes snapshots (``app.snapshot.Snapshot``) and passes,
and answers chart ranges, CSV rows, "vs your usual" and "today".
"""

from .history import History, HistoryStatus
from .queries import RANGES, UnknownRange, Usual
from .records import EventRow, Observation, PassFact, Sample, SourceKey

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
