"""The last hour of tok/h, sampled every 30 s of log time, for the sparkline."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

HISTORY_STEP_SECONDS = 30
HISTORY_SPAN_SECONDS = 60 * 60

Point = tuple[float, float | None]


class RateHistory:
    """tok/h at every 30 s boundary the log's clock passed, the last hour of them."""

    def __init__(self) -> None:
        self._points: deque[Point] = deque(maxlen=HISTORY_SPAN_SECONDS // HISTORY_STEP_SECONDS)
        self._next_sample: float | None = None
        # The points sampled on past the newest time, kept while the figures stay the same.
        self._preview_key: object = None
        self._preview_from: float | None = None
        self._preview: deque[Point] = deque(maxlen=HISTORY_SPAN_SECONDS // HISTORY_STEP_SECONDS + 1)

    def __len__(self) -> int:
        return len(self._points)

    def start(self, at: float) -> None:
        """The log's first time: sampling starts at the next boundary."""
        self._next_sample = math.ceil(at / HISTORY_STEP_SECONDS) * HISTORY_STEP_SECONDS

    @property
    def next_sample_at(self) -> float | None:
        """The next boundary a newer time would sample (None before the log's first time)."""
        return self._next_sample

    def due(self, until: float) -> bool:
        """Whether :meth:`sample_until` ``until`` has a boundary to sample (cheap: asked at every line's time)."""
        return self._next_sample is not None and until >= self._next_sample

    def sample_until(self, until: float, rate: Callable[[float], float | None], *, store: bool = True) -> list[Point]:
        """Sample ``rate`` at every boundary up to ``until`` (stored, or returned for a preview)."""
        sample = self._next_sample
        if sample is None or until < sample:
            return []  # (most lines: no boundary passed since the last)
        if until - sample > HISTORY_SPAN_SECONDS:  # a long gap: only the last hour matters
            sample = until - HISTORY_SPAN_SECONDS
            sample = math.ceil(sample / HISTORY_STEP_SECONDS) * HISTORY_STEP_SECONDS
        taken: list[Point] = []
        while sample <= until:
            taken.append((sample, rate(sample)))
            sample += HISTORY_STEP_SECONDS
        if store:
            self._points.extend(taken)
            self._next_sample = sample
        return taken

    def blank_after(self, at: float) -> None:
        """No rate after ``at``: what was sampled past a last pass, before the pause was known, was no rate."""
        if any(t > at and value is not None for t, value in self._points):
            self._points = deque(((t, None if t > at else value) for t, value in self._points), maxlen=self._points.maxlen)
        self._preview_key = None  # the kept preview may hold such points too

    def newest(self, now: float, latest: float | None, rate: Callable[[float], float | None]) -> Point | None:
        """The last point :meth:`view` would give at ``now`` (no ``key``), without making the hour before it."""
        if latest is not None and now > latest:
            taken = self.sample_until(now, rate, store=False)
            if taken:
                return taken[-1]
        for point in reversed(self._points):
            if point[0] <= now:
                return point if point[0] > now - HISTORY_SPAN_SECONDS else None
        return None

    def view(
        self, now: float, latest: float | None, rate: Callable[[float], float | None], key: object = None
    ) -> tuple[Point, ...]:
        """The points in the hour before ``now`` (sampled on past the log's newest time).

        ``key``: changes whenever ``rate`` may answer differently; while it stays, the points
        sampled on past the newest time are kept, so a quiet log's view costs the same after an
        hour as after a minute.
        """
        points = list(self._points)
        if latest is not None and now > latest:
            points.extend(self.sample_until(now, rate, store=False) if key is None else self._sampled_on(now, rate, key))
        cutoff = now - HISTORY_SPAN_SECONDS
        return tuple(point for point in points if cutoff < point[0] <= now)

    def _sampled_on(self, now: float, rate: Callable[[float], float | None], key: object) -> list[Point]:
        """:meth:`sample_until` ``now`` without storing, reusing the points of earlier calls."""
        if key != self._preview_key or self._preview_from != self._next_sample:
            self._preview_key, self._preview_from = key, self._next_sample
            self._preview.clear()
        preview = self._preview
        if preview and now < preview[-1][0]:
            return self.sample_until(now, rate, store=False)  # a time before the kept points: afresh
        sample = preview[-1][0] + HISTORY_STEP_SECONDS if preview else self._next_sample
        if sample is None:
            return []
        if now - sample > HISTORY_SPAN_SECONDS:  # a long gap: only the last hour matters
            sample = math.ceil((now - HISTORY_SPAN_SECONDS) / HISTORY_STEP_SECONDS) * HISTORY_STEP_SECONDS
        while sample <= now:
            preview.append((sample, rate(sample)))
            sample += HISTORY_STEP_SECONDS
        return list(preview)
