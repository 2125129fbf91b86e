"""The queue's alerts from the real tracker, poll by poll: a reset is news, a steady rise one warning.

Composed polls (the positions the IOTA issues quote; research/iota-2026.md), replayed every 75 s
into the miner's tracker and the alert book at each poll, as the live feed does.
"""

from __future__ import annotations

from app.alerts.book import AlertBook, Transition
from app.config.alerts import AlertSettings
from app.snapshot import SourceView
from app.stats.events import Heartbeat, MinerReset, QueueUpdate, Registered
from app.stats.iota.tracker import IotaTracker

T0 = 1_790_000_000.0


def replay(tracker: IotaTracker, events: list[QueueUpdate | MinerReset | Heartbeat | Registered],
           until: float | None = None) -> list[Transition]:
    """Apply each event and step the book at its time (and every 30 s up to ``until``)."""
    book = AlertBook(AlertSettings())
    out: list[Transition] = []
    last = T0
    for event in events:
        assert event.at is not None
        tracker.apply(event)
        last = event.at
        view = SourceView(path="/x.log", size_bytes=1, lines_read=1, bad_lines=0, last_event_at=last)
        out.extend(book.step(tracker.snapshot(last, view), last))
    t = last
    while until is not None and t < until:
        t += 30
        view = SourceView(path="/x.log", size_bytes=1, lines_read=1, bad_lines=0, last_event_at=last)
        out.extend(book.step(tracker.snapshot(t, view), t))
    return out


def told(transitions: list[Transition], rule: str) -> list[tuple[str, float]]:
    return [(t.kind, t.at) for t in transitions if t.rule == rule]


def test_a_steady_rise_is_one_warning_after_forty_minutes_and_never_a_reset() -> None:
    # +25 a poll from #1460, every 75 s, for an hour (49 polls).
    polls = [QueueUpdate(T0 + 75 * i, "queued", 1460 + 25 * i, "q-1") for i in range(49)]
    found = replay(IotaTracker(), polls)
    assert told(found, "queue_reset") == []
    # Growing since the first poll: 40 min is T0 + 2400, the first poll at or after it is the 32nd (T0 + 2400).
    assert told(found, "queue_growing") == [("opened", T0 + 2400)]


def test_the_reset_193_sampled_is_one_event_and_the_fall_after_it_no_warning() -> None:
    positions = [412, 318, 231, 140, 74, 1687, 1600, 1513, 1426, 1339]
    polls = [QueueUpdate(T0 + 60 * i, "queued", p, "q-1") for i, p in enumerate(positions)]
    found = replay(IotaTracker(), polls)
    # One event, at the poll that showed #1687 after #74 (the 6th, T0 + 300); the falls are movement.
    assert told(found, "queue_reset") == [("event", T0 + 300)]
    assert told(found, "queue_growing") == []


def test_failed_is_a_problem_at_once_and_initializing_a_warning_after_fifteen_minutes() -> None:
    failed = replay(IotaTracker(), [QueueUpdate(T0, "queued", 4, "q-1"), QueueUpdate(T0 + 75, "confirmed", None, "q-1"),
                                    QueueUpdate(T0 + 150, "failed", None, "q-1")])
    assert told(failed, "registration_failed") == [("opened", T0 + 150)]
    tracker = IotaTracker()
    beats = [Registered(T0, 2, 48)] + [Heartbeat(T0 + 60 + 30 * i, "4.12.16.5-tah", 2, 48, "training", "initializing")
                                        for i in range(40)]
    found = replay(tracker, beats)
    # Initializing since the first such heartbeat (T0 + 60): told 15 min later, at T0 + 960.
    assert told(found, "initializing") == [("opened", T0 + 960)]
