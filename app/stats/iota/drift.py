"""The drift guard: the app's version and the record shapes tokwatch does not read yet, told once.

A wording change breaks a parser silently; the menu-bar monitor watches the app's version and
keeps each new shape of an unread line for exactly that. Here: the version either log names
(the shell's updater lines; app/stats/iota/shell.py), and the shapes the parser saw first after
the log's usual ones were learnt (app/ingest/formats/drift.py: masked, no private text). One
details line says both (`the app updated to 3.8.0 at 14:02; 3 line shapes tokwatch does not read
yet`), and Copy report lists the shapes so a user can send them. Pure and bounded.
"""

from __future__ import annotations

from collections import deque

from ... import text
from ...snapshot import DriftView
from .shell import ShellFigures

SHAPES_LISTED = 20


class Drift:
    """New record shapes, newest kept."""

    def __init__(self) -> None:
        self._shapes: deque[tuple[float, str]] = deque(maxlen=SHAPES_LISTED)
        self.total = 0

    def new_shape(self, at: float, shape: str) -> None:
        """A shape the parser had not seen, after the baseline."""
        self.total += 1
        self._shapes.append((at, shape))

    def view(self, shell: ShellFigures | None) -> DriftView | None:
        """The version and the new shapes, or None when neither log says anything of either."""
        version = shell.version if shell is not None else None
        update = next((e for e in reversed(shell.events) if e.kind == "updated"), None) if shell is not None else None
        if version is None and not self.total:
            return None
        parts = []
        if update is not None:
            parts.append(f"the app updated to {update.version} at {text.clock(update.at)}")
        if self.total:
            noun = "line shape" if self.total == 1 else "line shapes"
            since = f" (since {text.clock(self._shapes[0][0])})" if update is None else ""
            parts.append(f"{self.total} {noun} tokwatch does not read yet{since}")
        return DriftView(
            version=version,
            updated_at=update.at if update is not None else None,
            new_shapes=self.total,
            shapes=tuple(shape for _, shape in self._shapes),
            text="; ".join(parts) if parts else None,
        )
