"""The dead-man heartbeat against a real HTTP receiver: pings while healthy only, failures counted."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from app.alerts.heartbeat import Heartbeat, ping
from tests.receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def test_pings_at_once_when_healthy_then_every_interval_and_stops_when_not(receiver: Receiver) -> None:
    beat = Heartbeat(receiver.http_url("/api/push/K3y?status=up"), interval_seconds=0.5)
    beat.start()
    try:
        time.sleep(0.3)
        assert receiver.received == []  # not healthy yet: nothing sent
        beat.set_healthy(True)
        first = receiver.wait_for(1, timeout=5)[0]
        assert (first.method, first.path) == ("GET", "/api/push/K3y?status=up")
        receiver.wait_for(3, timeout=10)
        beat.set_healthy(False)
        time.sleep(0.2)  # a ping in flight lands
        count = len(receiver.received)
        time.sleep(1.2)  # more than two intervals
        assert len(receiver.received) == count
        status = beat.status()
        assert status.sending is False and status.failures == 0 and status.last_ok_at is not None
        gaps = [b.at - a.at for a, b in zip(receiver.received, receiver.received[1:])]
        assert all(gap > 0.35 for gap in gaps[:2])  # one per interval, not a burst
    finally:
        beat.stop()


def test_a_flapping_state_does_not_ping_more_than_once_an_interval(receiver: Receiver) -> None:
    beat = Heartbeat(receiver.http_url(), interval_seconds=30)
    beat.start()
    try:
        for _ in range(20):
            beat.set_healthy(True)
            time.sleep(0.02)
            beat.set_healthy(False)
        beat.set_healthy(True)
        receiver.wait_for(1)
        time.sleep(0.5)
        assert len(receiver.received) == 1
    finally:
        beat.stop()


def test_a_failing_heartbeat_is_counted_and_described_without_its_url(receiver: Receiver) -> None:
    receiver.mode = "fail"
    beat = Heartbeat(receiver.http_url("/ping/0d1e-S3cret"), interval_seconds=0.2)
    beat.start()
    try:
        beat.set_healthy(True)
        receiver.wait_for(2)
        deadline = time.monotonic() + 5
        while beat.status().failures < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        status = beat.status()
        assert status.failures >= 2 and status.last_ok_at is None
        assert status.problem is not None and status.problem.startswith("heartbeat failed at ")
        assert status.problem.endswith(": HTTP 500")
    finally:
        beat.stop()


def test_a_hanging_heartbeat_blocks_nobody() -> None:
    hanging = Receiver("hang")
    try:
        beat = Heartbeat(hanging.http_url(), interval_seconds=0.2, timeout_seconds=1.0)
        beat.start()
        beat.set_healthy(True)
        hanging.wait_for(1)
        started = time.monotonic()
        for _ in range(100):
            beat.set_healthy(False)
            beat.set_healthy(True)
            beat.status()
        assert time.monotonic() - started < 0.1
        deadline = time.monotonic() + 5
        while beat.status().failures < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert beat.status().problem is not None and beat.status().problem.endswith("timed out")
        beat.stop()
    finally:
        hanging.close()


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("file:///etc/passwd", "not an http:// or https:// URL"),
        ("http://127.0.0.1:1/ping/s3cret", "[Errno 111] Connection refused"),
    ],
)
def test_ping_reasons(url: str, reason: str) -> None:
    assert ping(url, timeout_seconds=2) == reason
