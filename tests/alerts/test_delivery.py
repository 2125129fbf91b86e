"""Delivery through Apprise to a real HTTP receiver on this machine: sent, retried, dropped, never blocking."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator

import pytest

from app.alerts import delivery as delivery_module
from app.alerts.delivery import Delivery, send_once, try_each
from app.alerts.message import Message
from app.alerts.secrets import redact, scrub
from tests.receiver import Receiver

FAST = (0.05, 0.1)  # retry delays small enough for a test


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def message(title: str = "rig-7: idle", body: str = "L1 · 0 tok/h\nIdle: no pass since 14:02.") -> Message:
    return Message("idle", "opened", "warning", time.time(), title, body, "Idle: no pass since 14:02")


def wait_until(condition: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.02)


def test_a_message_arrives_as_apprise_json(receiver: Receiver) -> None:
    delivery = Delivery([receiver.json_url("/hook")], retry_delays_seconds=FAST)
    delivery.start()
    try:
        delivery.submit(message())
        got = receiver.wait_for(1)[0]
        assert (got.method, got.path) == ("POST", "/hook")
        assert got.json["title"] == "rig-7: idle"
        assert got.json["message"] == "L1 · 0 tok/h\nIdle: no pass since 14:02."
        assert got.json["type"] == "warning"
        wait_until(lambda: delivery.status().last_sent_at is not None)
        assert delivery.status().failures == 0
        assert delivery.status().targets == ("#1 json://…",)
    finally:
        delivery.stop()


class _Everything(logging.Handler):
    """What tokwatch's own log (a handler on the root logger) would print, at any level."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture
def root_log() -> Iterator[_Everything]:
    root = logging.getLogger()
    handler, level = _Everything(), root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield handler
    root.removeHandler(handler)
    root.setLevel(level)


def test_a_failing_channel_is_retried_then_dropped_counted_and_described_without_its_url(
    receiver: Receiver, root_log: _Everything
) -> None:
    receiver.mode = "fail"
    secret_url = receiver.json_url("/hook/S3cretToken42")
    delivery = Delivery([secret_url], retry_delays_seconds=FAST)
    delivery.start()
    try:
        delivery.submit(message())
        assert len(receiver.wait_for(3)) == 3  # the first try and two retries
        wait_until(lambda: delivery.status().failures == 1)
        status = delivery.status()
        assert status.last_sent_at is None
        assert status.problem is not None
        assert status.problem.startswith("1 alert not delivered; last: #1 json://… at ")
        assert "500" in status.problem and "(3 tries)" in status.problem
        time.sleep(0.3)
        assert len(receiver.received) == 3  # then given up
    finally:
        delivery.stop()
    logged = "\n".join(root_log.lines)
    assert "dropped" in logged  # tokwatch says so in its log …
    for text in [status.problem, logged]:  # … without the URL, nor Apprise's or urllib3's lines quoting it
        assert "S3cretToken42" not in text
        assert str(receiver.port) not in text


def test_a_channel_that_recovers_on_a_retry_delivers(receiver: Receiver) -> None:
    receiver.fail_first = 1
    delivery = Delivery([receiver.json_url()], retry_delays_seconds=FAST)
    delivery.start()
    try:
        delivery.submit(message())
        receiver.wait_for(2)
        wait_until(lambda: delivery.status().last_sent_at is not None)
        assert delivery.status().failures == 0 and delivery.status().problem is None
    finally:
        delivery.stop()


def test_a_failed_try_is_a_problem_at_once_and_clears_when_a_retry_gets_through(receiver: Receiver) -> None:
    receiver.fail_first = 1
    secret_url = receiver.json_url("/hook/S3cretToken42")
    delivery = Delivery([secret_url], retry_delays_seconds=(1.5,))
    delivery.start()
    try:
        delivery.submit(message())
        receiver.wait_for(1)
        wait_until(lambda: delivery.status().problem is not None)
        problem = delivery.status().problem or ""
        # Told while the retry waits, not minutes later when the last try is over; the URL stays hidden.
        assert problem.startswith("#1 json://…: not delivered at "), problem
        assert problem.endswith("; trying again in 1.5 s (try 1 of 2)"), problem
        assert "500" in problem and "S3cretToken42" not in problem and str(receiver.port) not in problem
        assert delivery.status().failures == 0
        receiver.wait_for(2)
        wait_until(lambda: delivery.status().last_sent_at is not None)
        assert delivery.status().problem is None and delivery.status().failures == 0
    finally:
        delivery.stop()


def test_a_hanging_channel_never_blocks_the_caller_nor_the_other_channel(receiver: Receiver) -> None:
    hanging = Receiver("hang")
    try:
        delivery = Delivery([hanging.json_url(), receiver.json_url()], retry_delays_seconds=FAST, queue_size=16)
        delivery.start()
        started = time.monotonic()
        for i in range(10):
            delivery.submit(message(title=f"m{i}"))
        assert time.monotonic() - started < 0.1
        # The healthy channel has every message, in order, while the other one hangs.
        assert [r.json["title"] for r in receiver.wait_for(10, timeout=10)] == [f"m{i}" for i in range(10)]
        assert len(hanging.wait_for(1)) == 1
        assert delivery.status().failures == 0
        stop_started = time.monotonic()
        delivery.stop()
        assert time.monotonic() - stop_started < 3
    finally:
        hanging.close()


def _sending_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "tokwatch-notify-send" and t.is_alive()]


def test_a_send_past_its_deadline_holds_one_thread_not_one_per_try(monkeypatch: pytest.MonkeyPatch) -> None:
    # Apprise waits 20 s for an answer (rto); the send's deadline is 0.2 s: every try outlives it.
    monkeypatch.setattr(delivery_module, "SEND_DEADLINE_SECONDS", 0.2)
    hanging = Receiver("hang")
    before = len(_sending_threads())
    delivery = Delivery([hanging.json_url("/?rto=20")], retry_delays_seconds=FAST)
    try:
        delivery.start()
        for i in range(3):
            delivery.submit(message(title=f"m{i}"))
        # The first message's three tries are over (each at its deadline) and it is given up on.
        wait_until(lambda: delivery.status().failures >= 1, timeout=10)
        assert "timed out (3 tries)" in (delivery.status().problem or "")
        # The first try still waits for its answer; the later ones waited for it, not beside it.
        assert len(_sending_threads()) - before == 1
        assert len(hanging.received) == 1
    finally:
        delivery.stop()
        hanging.close()
    wait_until(lambda: len(_sending_threads()) <= before, timeout=10)


def test_a_full_queue_drops_and_counts_instead_of_waiting() -> None:
    hanging = Receiver("hang")
    try:
        delivery = Delivery([hanging.json_url()], retry_delays_seconds=FAST, queue_size=4)
        delivery.start()
        started = time.monotonic()
        for i in range(10):
            delivery.submit(message(title=f"m{i}"))
        assert time.monotonic() - started < 0.1
        # At most one in flight and four queued: five or six were dropped, each counted.
        assert delivery.status().failures in (5, 6)
        assert "too many alerts waiting to be sent" in (delivery.status().problem or "")
        delivery.stop()
    finally:
        hanging.close()


def test_a_url_apprise_cannot_read_is_a_problem_not_a_crash() -> None:
    delivery = Delivery(["nosuchservice://my-secret-topic"], retry_delays_seconds=FAST)
    delivery.start()
    try:
        wait_until(lambda: delivery.status().problem is not None)
        assert delivery.status().problem == "#1 nosuchservice://…: not a notification URL Apprise understands"
        delivery.submit(message())
        wait_until(lambda: delivery.status().failures == 1)
        assert "my-secret-topic" not in (delivery.status().problem or "")
    finally:
        delivery.stop()


def test_try_each_says_which_failed_and_why(receiver: Receiver) -> None:
    broken = Receiver("fail")
    closed = Receiver()
    closed.close()  # nothing listens on its port any more
    try:
        results = try_each(
            [receiver.json_url("/a"), broken.json_url("/b"), closed.json_url("/c"), "bogus"], message()
        )
    finally:
        broken.close()
    labels = [label for label, _ in results]
    assert labels == ["#1 json://…", "#2 json://…", "#3 json://…", "#4 …"]
    reasons = [reason for _, reason in results]
    assert reasons[0] is None
    assert reasons[1] is not None and "500" in reasons[1]
    assert reasons[2] is not None and "refused" in reasons[2].lower()
    assert reasons[3] == "not a notification URL Apprise understands"
    assert len(receiver.received) == 1 and len(broken.received) == 1


def test_send_once_delivers(receiver: Receiver) -> None:
    assert send_once(receiver.json_url(), message()) is None
    assert receiver.wait_for(1)[0].json["title"] == "rig-7: idle"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("tgram://123456789:AAH-secret/987654", "tgram://…"),
        ("NTFYS://my-private-topic", "ntfys://…"),
        ("mailto://user:pass@gmail.com", "mailto://…"),
        ("not a url", "…"),
    ],
)
def test_urls_are_shown_by_scheme_only(url: str, shown: str) -> None:
    assert redact(url) == shown


def test_scrub_hides_every_piece_of_a_url_but_keeps_the_words_around_it() -> None:
    url = "tgram://123456789:AAH%2Dsecret/987654?topic=my-topic"
    text = "Failed to send Telegram notification to 987654: AAH-secret rejected; topic my-topic; notification"
    assert scrub(text, url) == "Failed to send Telegram notification to …: … rejected; topic …; notification"
