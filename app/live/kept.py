"""What the history's recorder takes from the monitor: the passes and logged lines seen since its last take."""

from __future__ import annotations

from collections import deque
from typing import TypeVar

from ..stats.events import EvalResult, Event, ForwardPass, StepFigures, TrainStep

LOGGED = (TrainStep, StepFigures, EvalResult)
T = TypeVar("T")


class Kept:
    """The passes (time, activation id) and a step trainer's logged losses and evaluations, kept
    only once a recorder asks (:meth:`start`); the monitor's lock guards it."""

    def __init__(self) -> None:
        self._passes: deque[tuple[float, str]] | None = None
        self._logged: deque[Event] | None = None
        self._backlog = False

    def start(self, limit: int, *, backlog: bool) -> None:
        """Keep from now on, at most ``limit`` of each; ``backlog``: a step log's backlog's lines too."""
        if self._passes is None:
            self._passes = deque(maxlen=limit)
            self._logged = deque(maxlen=limit)
        self._backlog = backlog

    def add(self, events: list[Event]) -> None:
        """Keep what is the recorder's among events the tracker was given."""
        if self._passes is not None:
            self._passes.extend((e.at, e.activation_id) for e in events if isinstance(e, ForwardPass) and e.at is not None)
        if self._logged is not None:
            self._logged.extend(e for e in events if isinstance(e, LOGGED))

    @property
    def keeps_backlog(self) -> bool:
        """Whether :meth:`add_backlog` keeps anything (the recorder asked before the cold start)."""
        return self._backlog and self._logged is not None

    def add_backlog(self, events: list[Event]) -> None:
        """A step log's backlog: kept only when no history imports it (it is all there is of the run)."""
        if self._backlog and self._logged is not None:
            self._logged.extend(e for e in events if isinstance(e, LOGGED))

    def take_passes(self) -> list[tuple[float, str]]:
        """The passes kept since the last take."""
        return _take(self._passes)

    def take_logged(self) -> list[Event]:
        """The logged lines kept since the last take."""
        return _take(self._logged)


def _take(kept: deque[T] | None) -> list[T]:
    if not kept:
        return []
    taken = list(kept)
    kept.clear()
    return taken
