"""The log's own clock, as a tracker sees it: times from the lines, guarded.

Out-of-order log times are clamped to the newest time seen, so windows stay sorted and
nothing is counted twice. A line dated far past the caller's clock is treated as undated.
"""

from __future__ import annotations

import math

from ..snapshot import SourceView
from .events import Event, Tick

# A line dated more than a day past the caller's clock is treated as undated (a broken clock
# on the miner, or garbage); counted, never allowed to drag the tracker's clock into the future.
FUTURE_TOLERANCE_SECONDS = 24 * 60 * 60


class LogClock:
    """The newest log time applied, the first one, and the far-future lines set aside."""

    def __init__(self) -> None:
        self.latest: float | None = None
        self.first_at: float | None = None
        self.future_lines = 0
        self._last_future_at: float | None = None
        self._replay_until: float | None = None  # see begin_replay

    def admit(self, event: Event, now: float | None, placed_at: float | None = None) -> tuple[bool, float | None]:
        """Whether to apply ``event``, and the time it may move the clock to (None: undated).

        ``placed_at``: the time an undated event was placed at (app/stats/steps/timing.py).
        """
        at = event.at if placed_at is None else placed_at
        if at is not None and (not math.isfinite(at) or (now is not None and at > now + FUTURE_TOLERANCE_SECONDS)):
            # A parser's closing Tick repeats its batch's newest time: that line is counted once.
            if not (isinstance(event, Tick) and at == self._last_future_at):
                self.future_lines += 1
            self._last_future_at = at
            at = None
        replay_until = self._replay_until
        if replay_until is not None:
            if at is None or at <= replay_until:
                return False, None  # the new stream repeats what the old one said: already counted
            self._replay_until = None
        return True, at

    @property
    def replaying(self) -> bool:
        """True while a new stream's lines are skipped up to the newest time seen (see :meth:`begin_replay`)."""
        return self._replay_until is not None

    def begin_replay(self) -> None:
        """Skip what a new stream dates up to the newest time seen (a log swapped for a copy)."""
        if self.latest is not None:
            self._replay_until = self.latest

    def advance(self, at: float) -> bool:
        """Move to ``at``; False when it is not past the newest time (the clock stays)."""
        if self.first_at is None:
            self.first_at = at
        if self.latest is not None and at <= self.latest:
            return False
        self.latest = at
        return True

    def source(self, source: SourceView) -> SourceView:
        """The monitor's view of the source, with the newest log time and the future lines skipped."""
        skipped = dict(source.skipped)
        if self.future_lines:
            skipped["future_timestamps"] = self.future_lines
        return SourceView(
            path=source.path,
            size_bytes=source.size_bytes,
            lines_read=source.lines_read,
            bad_lines=source.bad_lines,
            last_event_at=self.latest,
            problem=source.problem,
            demo=source.demo,
            skipped=skipped,
            following=source.following,
        )
