"""The registration queue, followed: position samples, trend, ETA, resets and the lifecycle.

Pure: times are the log's, passed in. Miners report the position jumping back to the tail
while the ``queue_id`` stays the same (macrocosm-os/iota#193: 80 resets in 34 h; #194: 176 in
7 days; #200: 63 → 1613 in one poll) and collect the evidence by hand; this keeps it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from statistics import median

# A reset is a jump back toward the end of the queue, decided by :func:`is_reset` alone.
# #194's author counted "a consecutive pair where the new position exceeds the previous by more
# than 200"; users compare counts, so that stays the rule. A queue of a few hundred miners never
# rises by 200, so a smaller jump that at least doubles the position is one too (8 → 120).
# Anything less is movement (the orchestrator reorders or admits miners ahead): a trend.
RESET_MIN_JUMP = 200
RESET_SMALL_MIN_JUMP = 50
TREND_WINDOW_SECONDS = 10 * 60
# A trend needs this many polls spread over this long, like the rate's warm-up: never invented.
TREND_MIN_SAMPLES = 3
TREND_MIN_SECONDS = 3 * 60
RESETS_KEPT_SECONDS = 7 * 24 * 3600
RESETS_KEPT_MAX = 5000
# A queued miner's log is silent past max(3 min, 4 × the median gap between its polls): polls
# come every ~60–75 s (`poll_after: 60`), so a dead app is called out after a few missed polls.
QUEUE_SILENT_MIN_SECONDS = 3 * 60
QUEUE_SILENT_POLLS = 4
POLL_GAPS_KEPT = 16
# Statuses of a miner waiting with a position; the rest of the lifecycle carries none.
QUEUED_STATUSES = frozenset({"queued", "waiting", "pending"})
# A position that has only grown for this long is one warning (the rule `queue_growing`), not news per poll.
QUEUE_GROWING_WARN_SECONDS = 40 * 60


def is_reset(before: int, after: int) -> bool:
    """Whether a poll at ``after`` following one at ``before`` (same queue) is a reset to the back."""
    jump = after - before
    return jump > RESET_MIN_JUMP or (jump > RESET_SMALL_MIN_JUMP and after >= 2 * before)


@dataclass(frozen=True, slots=True)
class QueueReset:
    """The position jumped back: ``before`` at the previous poll, ``after`` at ``at``."""

    at: float
    before: int
    after: int
    queue_id: str | None


@dataclass(frozen=True, slots=True)
class QueueTrend:
    """Positions per hour towards the front (negative: moving back), and the ETA it allows."""

    per_hour: float
    eta_seconds: float | None


@dataclass(frozen=True, slots=True)
class QueueRejoin:
    """The miner joined the queue again under a new ``queue_id`` without being placed: the app restarted."""

    at: float
    old_id: str | None
    new_id: str | None
    before: int | None  # the last position under the old id
    after: int | None


@dataclass(frozen=True, slots=True)
class QueuePoll:
    """What one poll showed: a queue joined (a new id, or the first poll), a reset, a rejoin."""

    joined: bool
    reset: QueueReset | None
    rejoin: QueueRejoin | None = None


def trend_words(per_hour: float) -> str:
    """The trend as the position moves: ``▲ +300/h`` (further back), ``▼ −120/h`` (nearer the front)."""
    change = -per_hour  # the position's own change: positive when it grows
    whole = int(abs(change) + 0.5)
    if whole == 0:
        return "= 0/h"
    return f"▲ +{whole}/h" if change > 0 else f"▼ −{whole}/h"


class QueueTracker:
    """Follows one miner's queue positions across polls, queues and relaunches."""

    def __init__(self) -> None:
        self.queue_id: str | None = None
        self.status = "queued"
        self.status_since: float | None = None  # when the current status (queued, processing, …) began
        self.position: int | None = None
        self.since: float | None = None  # when this queue was joined (its first poll we saw)
        self._samples: deque[tuple[float, int]] = deque()  # this queue, since its last reset
        self.resets: deque[QueueReset] = deque()
        self.rejoins: deque[QueueRejoin] = deque()
        self.best_position: int | None = None  # this queue entry's nearest to the front
        self.positions_lost = 0  # this queue entry's positions given back to resets
        self.entry_resets = 0  # this queue entry's resets
        self.last_poll_at: float | None = None
        # The last fall (or join, or reset): a position above it since then is a rising queue.
        self._low: tuple[float, int] | None = None
        self._last_poll_at: float | None = None
        self._poll_gaps: deque[float] = deque(maxlen=POLL_GAPS_KEPT)  # kept across queues: the miner's pace
        # The id and position a queue was left with, unless the miner was placed since (a restart
        # that joins under a new id is then a rejoin at the back).
        self._left: tuple[str | None, int | None] | None = None

    def silent_seconds(self) -> float:
        """How long a queued miner's log may be quiet before it is silent: max(3 min, 4 × its usual poll gap)."""
        if not self._poll_gaps:
            return float(QUEUE_SILENT_MIN_SECONDS)
        return max(float(QUEUE_SILENT_MIN_SECONDS), QUEUE_SILENT_POLLS * median(self._poll_gaps))

    def leave(self, placed: bool = False) -> None:
        """Out of the queue (``placed``: registered in a layer; else relaunched, reset): the next poll is a new queue."""
        if self.since is not None and not placed:
            self._left = (self.queue_id, self.position)
        elif placed:
            self._left = None
        self.queue_id = None
        self.position = None
        self.since = None
        self.status = "queued"
        self.status_since = None
        self.best_position = None
        self.positions_lost = self.entry_resets = 0
        self._low = None
        self._samples.clear()

    def poll(self, at: float, queue_id: str | None, position: int | None, status: str = "queued") -> QueuePoll:
        """Take one poll of a waiting miner: whether it joined a new queue, and the reset it shows."""
        new_queue = self.since is None or (
            queue_id is not None and self.queue_id is not None and queue_id != self.queue_id
        )
        rejoin: QueueRejoin | None = None
        if new_queue:
            if self.since is not None:
                self._left = (self.queue_id, self.position)
            left = self._left
            if left is not None and queue_id is not None and left[0] is not None and left[0] != queue_id:
                rejoin = QueueRejoin(at, left[0], queue_id, left[1], position)
                self.rejoins.append(rejoin)
            self.leave()
            self._left = None
            self.queue_id = queue_id
            self.since = at
        elif queue_id is not None:
            self.queue_id = queue_id
        if status != self.status or self.status_since is None:
            self.status_since = at
        self.status = status
        if not new_queue and self._last_poll_at is not None and at > self._last_poll_at:
            self._poll_gaps.append(at - self._last_poll_at)
        self._last_poll_at = at
        self.last_poll_at = at
        if position is None:
            return QueuePoll(joined=new_queue, reset=None, rejoin=rejoin)
        previous = self.position
        self.position = position
        reset: QueueReset | None = None
        if not new_queue and previous is not None and is_reset(previous, position):
            reset = QueueReset(at=at, before=previous, after=position, queue_id=self.queue_id)
            self.resets.append(reset)
            self.entry_resets += 1
            self.positions_lost += position - previous
            self._samples.clear()
            self._forget(at)
        if self.best_position is None or position < self.best_position:
            self.best_position = position
        if reset is not None or self._low is None or previous is None or position < previous:
            self._low = (at, position)
        self._samples.append((at, position))
        while self._samples and self._samples[0][0] < at - TREND_WINDOW_SECONDS:
            self._samples.popleft()
        return QueuePoll(joined=new_queue, reset=reset, rejoin=rejoin)

    def _forget(self, now: float) -> None:
        for kept in (self.resets, self.rejoins):
            while kept and (kept[0].at <= now - RESETS_KEPT_SECONDS or len(kept) > RESETS_KEPT_MAX):
                kept.popleft()

    def trend(self, now: float) -> QueueTrend | None:
        """The last 10 minutes' movement, or None while too few polls say anything."""
        samples = [(t, p) for t, p in self._samples if now - TREND_WINDOW_SECONDS <= t <= now]
        if len(samples) < TREND_MIN_SAMPLES:
            return None
        (t0, p0), (t1, p1) = samples[0], samples[-1]
        if t1 - t0 < TREND_MIN_SECONDS:
            return None
        per_hour = (p0 - p1) / (t1 - t0) * 3600
        eta = p1 / per_hour * 3600 if per_hour > 0 else None
        return QueueTrend(per_hour=per_hour, eta_seconds=eta)

    def growing_since(self) -> float | None:
        """Since when the position has only grown (no fall, no reset), or None when it is not above its low."""
        if self._low is None or self.position is None or self.position <= self._low[1]:
            return None
        return self._low[0]

    def resets_between(self, start: float, end: float) -> list[QueueReset]:
        """The resets with ``start < at <= end``, oldest first."""
        return [r for r in self.resets if start < r.at <= end]

    def rejoins_between(self, start: float, end: float) -> list[QueueRejoin]:
        """The restarts that joined a new queue with ``start < at <= end``, oldest first."""
        return [r for r in self.rejoins if start < r.at <= end]
