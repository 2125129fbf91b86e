"""The version counter that waiters sleep on (the live feed's, the hub's), and what they watch.

A writer bumps it on every change; a waiter (a broadcaster, the alerts, the agent) remembers the
version it last read and sleeps until it moves. Nothing else passes through: what changed is read
from the owner, afresh.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .snapshot import Snapshot


class ChangeSource(Protocol):
    """What a waiter watches: a version bumped on every change."""

    @property
    def version(self) -> int: ...

    def wait_for_change(self, since: int, timeout: float) -> int: ...

    def interrupt(self) -> None:
        """Make every ``wait_for_change`` in progress return now (a waiter is stopping)."""


class SnapshotSource(ChangeSource, Protocol):
    """What the alerts and the agent watch: the live snapshot, and its version."""

    def snapshot(self) -> Snapshot: ...

    def section_changed(self) -> None:
        """A section from outside the log changed (the alerts'): wake every waiter now."""


class Changes:
    """A thread-safe version counter with waiting; a :class:`ChangeSource`."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._version = 0
        self._interrupts = 0  # bumped by interrupt(): every wait_for_change returns

    @property
    def version(self) -> int:
        """A counter bumped on every change."""
        with self._changed:
            return self._version

    def bump(self) -> None:
        """Say that something changed: every waiter wakes."""
        with self._changed:
            self._version += 1
            self._changed.notify_all()

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until the version passes ``since``, ``timeout`` elapses or :meth:`interrupt`; return the version."""
        with self._changed:
            interrupts = self._interrupts
            self._changed.wait_for(lambda: self._version != since or self._interrupts != interrupts, timeout=timeout)
            return self._version

    def interrupt(self) -> None:
        """Make every ``wait_for_change`` in progress return now, changed or not (its waiter is stopping).

        So waiters can sleep until the next change however long that is, and still stop at once.
        """
        with self._changed:
            self._interrupts += 1
            self._changed.notify_all()
