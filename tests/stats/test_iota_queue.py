"""The registration queue, followed: resets with their exact before/after, trend, ETA, new queues."""

from __future__ import annotations

import pytest

from app.snapshot import SourceView
from app.stats.events import MinerReset, QueueUpdate
from app.stats.iota.queue import QueueTracker
from app.stats.iota.tracker import IotaTracker

T0 = 1_760_000_000.0
SOURCE = SourceView(path="/x.log", size_bytes=1, lines_read=1, bad_lines=0, last_event_at=None)
# One poll every 75 s (the miner's 60 s poll_after plus 12 s of 503 retries and the request).
POSITIONS = [412, 318, 231, 140, 57, 1613, 1520, 1431, 1340, 1262, 1266, 1180, 1093,
             1702, 1650, 1598, 1546, 1494, 1442, 1390, 1338, 1286]


def polled(positions: list[int], queue_id: str | None = "q-1", start: float = T0) -> IotaTracker:
    tracker = IotaTracker()
    for i, position in enumerate(positions):
        tracker.apply(QueueUpdate(start + 75 * i, "queued", position, queue_id))
    return tracker


def test_resets_are_jumps_back_to_the_tail_in_the_same_queue() -> None:
    tracker = polled(POSITIONS)
    resets = [(r.at - T0, r.before, r.after) for r in tracker.queue.resets]
    # 57 → 1613 at poll 5, 1093 → 1702 at poll 13; 1262 → 1266 (+4) is not one.
    assert resets == [(375, 57, 1613), (975, 1093, 1702)]
    s = tracker.snapshot(T0 + 75 * 21 + 10, SOURCE)
    assert s.queue is not None and (s.queue.resets_24h, s.queue.last_reset_at) == (2, T0 + 975)
    events = [(e.at - T0, e.kind, e.text) for e in s.events]
    assert events == [
        (975, "queue_reset", "queue reset #1093 → #1702"),
        (375, "queue_reset", "queue reset #57 → #1613"),
        (0, "queued", "queued at #412"),
    ]


def test_the_trend_is_the_last_ten_minutes_since_the_last_reset() -> None:
    tracker = polled(POSITIONS)
    # At poll 21 + 10 s, (now − 600, now] holds polls 14..21: 1650 → 1286, 364 positions in
    # 525 s = 2496/h towards the front; ETA 1286 / 2496 h = 1854.8 s.
    s = tracker.snapshot(T0 + 75 * 21 + 10, SOURCE)
    assert s.queue is not None
    assert s.queue.trend_per_hour == pytest.approx(2496)
    assert s.queue.eta_seconds == pytest.approx(1286 / 2496 * 3600)
    assert "Queue ▼ −2496/h (10 min) · front in ~30 min" in s.details
    # Just after a reset only one poll counts: no trend, no ETA, never one made up.
    just_reset = polled(POSITIONS[:6]).snapshot(T0 + 385, SOURCE).queue
    assert just_reset is not None and (just_reset.trend_per_hour, just_reset.eta_seconds) == (None, None)
    # Before it, 412 → 57 over 300 s: 4260/h, front in 57 / 4260 h = 48 s.
    before = polled(POSITIONS[:5]).snapshot(T0 + 305, SOURCE)
    assert before.queue is not None and before.queue.trend_per_hour == pytest.approx(4260)
    assert "Queue ▼ −4260/h (10 min) · front in ~48 s" in before.details


def test_no_trend_from_two_polls_or_from_less_than_three_minutes() -> None:
    assert polled([412, 318]).snapshot(T0 + 80, SOURCE).queue.trend_per_hour is None  # type: ignore[union-attr]
    quick = IotaTracker()
    for i, position in enumerate([400, 390, 380, 370]):  # four polls over 150 s
        quick.apply(QueueUpdate(T0 + 50 * i, "queued", position, "q"))
    assert quick.snapshot(T0 + 150, SOURCE).queue.trend_per_hour is None  # type: ignore[union-attr]


def test_moving_back_gives_a_negative_trend_and_no_eta() -> None:
    s = polled([100, 102, 104, 105]).snapshot(T0 + 225, SOURCE)  # +5 over 225 s: not a reset
    assert s.queue is not None and s.queue.resets_24h == 0
    assert s.queue.trend_per_hour == pytest.approx(-80) and s.queue.eta_seconds is None
    assert "Queue ▲ +80/h (10 min)" in s.details


def test_a_new_queue_id_is_a_new_queue_not_a_reset() -> None:
    tracker = polled([412, 57])
    tracker.apply(MinerReset(T0 + 200, "launch"))
    tracker.apply(QueueUpdate(T0 + 210, "queued", 1900, "q-2"))
    tracker.apply(QueueUpdate(T0 + 285, "queued", 1950, "q-3"))  # the id changed without a relaunch line
    s = tracker.snapshot(T0 + 290, SOURCE)
    assert s.queue is not None and s.queue.resets_24h == 0 and s.state_since == T0 + 285
    assert [e.text for e in s.events if e.kind == "queued"] == ["queued at #1950", "queued at #1900", "queued at #412"]


def test_resets_older_than_a_day_leave_the_daily_count_but_stay_a_week() -> None:
    queue = QueueTracker()
    queue.poll(T0, "q", 50)
    queue.poll(T0 + 60, "q", 900)
    queue.poll(T0 + 2 * 86400, "q", 880)
    queue.poll(T0 + 2 * 86400 + 60, "q", 1500)
    now = T0 + 2 * 86400 + 120
    assert [(r.before, r.after) for r in queue.resets_between(now - 86400, now)] == [(880, 1500)]
    assert len(queue.resets_between(now - 7 * 86400, now)) == 2
