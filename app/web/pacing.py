"""When the next live snapshot may go: soon after a quiet spell, never more than N in any second.

A miner writes in bursts: five fetcher lines within a few milliseconds every half second, a
pass's lines 10–20 ms apart. Pushing the first line of a burst at once would leave the rest of
it waiting for the next slot; waiting a fixed 250 ms between pushes leaves whatever lands just
after a push waiting most of that. So a push goes once the log has been quiet for
``quiet_seconds`` (or ``gather_seconds`` into a burst that will not stop), at least
``min_gap_seconds`` after the last one, and never as the ``per_second + 1``-th in one second.
Once that last limit holds a push back, the log is writing steadily: pushes are spread
``even_gap_seconds`` apart until the log has been calm for ``calm_seconds``, so a steady stream
gets an even pace instead of bursts of pushes followed by a long wait.

"In any second" is counted over ``WINDOW_SECONDS``, a second and a twentieth: a push reaches the page
a few milliseconds after it leaves, more on a busy machine, and a fifth push exactly one second
after the first would be the fifth in one second as the page sees them whenever the first was
late. Each client's thread keeps the same :class:`PushWindow` over its own sends, so a send the
scheduler delayed never squeezes five into the page's second either.

Pure: every time is an argument (monotonic seconds).
"""

from __future__ import annotations

from collections import deque

# Lines of one burst arrive within milliseconds of each other; a pass's lines 10–20 ms apart.
QUIET_SECONDS = 0.02
# A burst that keeps going is pushed this long after its first line anyway.
GATHER_SECONDS = 0.08
# Minimum gap between two pushes, as a share of the steady interval.
MIN_GAP_SHARE = 0.6
# The span the per-second limit is counted over: a second, and room for a push's late arrival.
DELIVERY_MARGIN_SECONDS = 0.05
WINDOW_SECONDS = 1.0 + DELIVERY_MARGIN_SECONDS


def pushes_per_second(interval_seconds: float) -> int:
    """How many pushes a second ``interval_seconds`` allows (0: no limit)."""
    return max(1, round(1.0 / interval_seconds)) if interval_seconds > 0 else 0


class PushWindow:
    """At most ``per_second`` pushes in any ``window_seconds`` (``per_second`` 0: no limit)."""

    def __init__(self, per_second: int, window_seconds: float = WINDOW_SECONDS) -> None:
        self.per_second = per_second
        self.window_seconds = window_seconds
        self._times: deque[float] = deque(maxlen=max(1, per_second))

    def allowed_at(self) -> float:
        """The earliest time the next push keeps within the limit."""
        if self.per_second == 0 or len(self._times) < self.per_second:
            return float("-inf")
        return self._times[0] + self.window_seconds

    def went(self, at: float) -> None:
        """A push went at ``at``."""
        if self.per_second:
            self._times.append(at)

    @property
    def last(self) -> float | None:
        """When the last push went (None: none yet)."""
        return self._times[-1] if self._times else None


class Pacer:
    """Decides when a push may go; ``pushed`` tells it one went."""

    def __init__(
        self,
        interval_seconds: float,
        *,
        quiet_seconds: float = QUIET_SECONDS,
        gather_seconds: float = GATHER_SECONDS,
    ) -> None:
        self.per_second = pushes_per_second(interval_seconds)
        self._pushes = PushWindow(self.per_second)
        # Evenly spread, a window's pushes fill the window: no push waits on the window's edge.
        self.even_gap_seconds = self._pushes.window_seconds / self.per_second if self.per_second else 0.0
        self.min_gap_seconds = interval_seconds * MIN_GAP_SHARE
        self.calm_seconds = interval_seconds
        self.quiet_seconds = quiet_seconds
        self.gather_seconds = gather_seconds
        self._steady = False  # the per-second limit held a push back and the log has not calmed since

    def ready_at(self, first_change: float, last_change: float) -> float:
        """When a burst first seen at ``first_change``, last changed at ``last_change``, is complete."""
        return min(last_change + self.quiet_seconds, first_change + self.gather_seconds)

    def allowed_at(self, first_change: float) -> float:
        """The earliest time the rate limits let a push go for a change first seen at ``first_change``."""
        return max(self._limits(first_change))

    def due(self, first_change: float, last_change: float) -> float:
        """When the push for this burst should go."""
        return max(self.ready_at(first_change, last_change), self.allowed_at(first_change))

    def pushed(self, at: float, first_change: float | None = None, last_change: float | None = None) -> None:
        """A push went at ``at`` for a burst seen from ``first_change`` to ``last_change`` (None: a refresh)."""
        if self.per_second == 0:
            return
        if first_change is not None:
            gap_floor, window_floor = self._limits(first_change)
            ready = self.ready_at(first_change, last_change if last_change is not None else first_change)
            # The per-second limit, not the burst or the gap, decided when this one went: steady writing.
            last = self._pushes.last
            self._steady = window_floor > max(gap_floor, ready) or (
                self._steady and last is not None and first_change - last < self.calm_seconds
            )
        self._pushes.went(at)

    def _limits(self, first_change: float) -> tuple[float, float]:
        """(the gap since the last push, the per-second window): the earliest each allows."""
        last = self._pushes.last
        if last is None or self.per_second == 0:
            return float("-inf"), float("-inf")
        steady = self._steady and first_change - last < self.calm_seconds
        gap_floor = last + (self.even_gap_seconds if steady else self.min_gap_seconds)
        return gap_floor, self._pushes.allowed_at()

    @property
    def steady(self) -> bool:
        """True while pushes are spread evenly because the log writes steadily."""
        return self._steady
