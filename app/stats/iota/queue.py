"""The registration queue, followed: position samples, trend, ETA and resets to the back.

Pure: times are the log's, passed in. Miners report the position jumping back to the tail
while the ``queue_id`` stays the same (macrocosm-os/iota#193: 80 resets in 34 h; #194: 176 in
7 days; #200: 63 → 1613 in one poll) and collect the evidence by hand; this keeps it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from statistics import median

# A position that grows by more than this between two polls of the same queue is a reset.
# Smaller rises happen (the orchestrator reorders a few waiting miners) and are not news.
RESET_MIN_JUMP = 5
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
class QueuePoll:
    """What one poll showed: a queue joined (a new id, or the first poll), a reset."""

    joined: bool
    reset: QueueReset | None


class QueueTracker:
    """Follows one miner's queue positions across polls, queues and relaunches."""

    def __init__(self) -> None:
        self.queue_id: str | None = None
        self.status = "queued"
        self.position: int | None = None
        self.since: float | None = None  # when this queue was joined (its first poll we saw)
        self._samples: deque[tuple[float, int]] = deque()  # this queue, since its last reset
        self.resets: deque[QueueReset] = deque()
        self._last_poll_at: float | None = None
        self._poll_gaps: deque[float] = deque(maxlen=POLL_GAPS_KEPT)  # kept across queues: the miner's pace

    def silent_seconds(self) -> float:
        """How long a queued miner's log may be quiet before it is silent: max(3 min, 4 × its usual poll gap)."""
        if not self._poll_gaps:
            return float(QUEUE_SILENT_MIN_SECONDS)
        return max(float(QUEUE_SILENT_MIN_SECONDS), QUEUE_SILENT_POLLS * median(self._poll_gaps))

    def leave(self) -> None:
        """Out of the queue (confirmed, registered, relaunched): the next poll is a new queue."""
        self.queue_id = None
        self.position = None
        self.since = None
        self._samples.clear()

    def poll(self, at: float, queue_id: str | None, position: int | None, status: str = "queued") -> QueuePoll:
        """Take one poll of a waiting miner: whether it joined a new queue, and the reset it shows."""
        new_queue = self.since is None or (
            queue_id is not None and self.queue_id is not None and queue_id != self.queue_id
        )
        if new_queue:
            self.leave()
            self.queue_id = queue_id
            self.since = at
        elif queue_id is not None:
            self.queue_id = queue_id
        self.status = status
        if not new_queue and self._last_poll_at is not None and at > self._last_poll_at:
            self._poll_gaps.append(at - self._last_poll_at)
        self._last_poll_at = at
        if position is None:
            return QueuePoll(joined=new_queue, reset=None)
        previous = self.position
        self.position = position
        reset: QueueReset | None = None
        if not new_queue and previous is not None and position > previous + RESET_MIN_JUMP:
            reset = QueueReset(at=at, before=previous, after=position, queue_id=self.queue_id)
            self.resets.append(reset)
            self._samples.clear()
            self._forget_resets(at)
        self._samples.append((at, position))
        while self._samples and self._samples[0][0] < at - TREND_WINDOW_SECONDS:
            self._samples.popleft()
        return QueuePoll(joined=new_queue, reset=reset)

    def _forget_resets(self, now: float) -> None:
        resets = self.resets
        while resets and (resets[0].at <= now - RESETS_KEPT_SECONDS or len(resets) > RESETS_KEPT_MAX):
            resets.popleft()

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

    def resets_between(self, start: float, end: float) -> list[QueueReset]:
        """The resets with ``start < at <= end``, oldest first."""
        return [r for r in self.resets if start < r.at <= end]
