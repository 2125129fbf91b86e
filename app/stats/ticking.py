"""Find the ages in a snapshot's words, so the page can tick them between snapshots.

Pure: the status line, the details and the times their ages were written from, in; the pieces
the page rewrites every second, out. Only an age the text really ends with is given: a line
that changed wording is left as written.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import text
from ..snapshot import TickingView


def ticking(
    status_line: str,
    state_since: float | None,
    details: Sequence[str],
    times: Sequence[tuple[str, float | None]],
    now: float,
) -> tuple[TickingView, ...]:
    """The ages to tick: the status line's duration since ``state_since`` (`L1 · idle 12 min`) and
    each details line that starts with (or holds) a ``times`` key and ends `… 4 min ago`."""
    found: list[TickingView] = []
    if state_since is not None:
        piece = text.duration(now - state_since)
        if status_line.endswith(f" {piece}"):
            found.append(TickingView(-1, state_since, status_line[: -len(piece)] + "{}", "duration"))
    for index, line in enumerate(details):
        for key, at in times:
            if at is None or key not in line:
                continue
            piece = f"{text.ago(now - at)} ago"
            if line.endswith(f" {piece}"):
                found.append(TickingView(index, at, line[: -len(piece)] + "{} ago", "ago"))
                break
    return tuple(found)
