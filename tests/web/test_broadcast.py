"""The broadcaster and a client's pump sleep until there is something to do, and still stop at once."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from app.live.monitor import Monitor
from app.web.broadcast import KEEPALIVE_JSON, Broadcaster, Client, WakingEvent, pump


class CountingClient(Client):
    """A mailbox that counts how often its thread looked into it."""

    def __init__(self) -> None:
        super().__init__()
        self.looks = 0

    def take(self, timeout: float) -> str | None:
        self.looks += 1
        return super().take(timeout)


class QuietSocket:
    """A websocket whose peer sends nothing until it leaves; ``event`` as simple-websocket sets it."""

    def __init__(self) -> None:
        self.connected = True
        self.sent: list[str] = []
        self.event: threading.Event = threading.Event()

    def send(self, data: str) -> None:
        self.sent.append(data)

    def receive(self, timeout: float | None = None) -> str | None:
        return None

    def leave(self) -> None:
        # simple-websocket's reader thread, on EOF: not connected, then the event.
        self.connected = False
        self.event.set()


def test_a_quiet_client_thread_sleeps_until_its_keepalive() -> None:
    client = CountingClient()
    ws = QuietSocket()
    ws.event = WakingEvent(client.poke)
    done = threading.Event()
    thread = threading.Thread(target=lambda: (pump(ws, client, keepalive_seconds=1.0), done.set()))
    thread.start()
    try:
        time.sleep(3.3)  # three keepalives' worth: a 0.5 s poll would look 6 times
        looks, sent = client.looks, list(ws.sent)
    finally:
        ws.leave()
        thread.join(5)
    assert done.is_set(), "the peer leaving must wake the client's thread"
    assert sent and all(message == KEEPALIVE_JSON for message in sent)
    # One look per keepalive (and perhaps one more as a wait ends on its deadline), never a poll.
    assert looks <= len(sent) + 1, (looks, len(sent))


def test_the_peer_leaving_ends_the_pump_without_a_poll() -> None:
    client = Client()
    ws = QuietSocket()
    ws.event = WakingEvent(client.poke)
    ended = threading.Event()
    thread = threading.Thread(target=lambda: (pump(ws, client, keepalive_seconds=3600), ended.set()))
    thread.start()
    time.sleep(0.1)
    ws.leave()
    assert ended.wait(5)
    thread.join(5)
    assert ws.sent == []


def test_stop_wakes_a_broadcaster_sleeping_on_a_quiet_log(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    log.write_text("")
    monitor = Monitor(log)
    broadcaster = Broadcaster(
        monitor.changes, payload=lambda: "{}", max_clients=4, push_interval_seconds=0.25, refresh_seconds=3600,
        stall_seconds=3600,
    )
    broadcaster.start()
    deadline = time.monotonic() + 5
    while broadcaster.pushes == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert broadcaster.pushes == 1
    started = time.monotonic()
    broadcaster.stop(timeout=10)
    assert broadcaster._thread is not None and not broadcaster._thread.is_alive()
    assert time.monotonic() - started < 5  # not the hour it was set to sleep


def test_a_change_is_pushed_once_and_a_quiet_log_adds_none(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    log.write_text("")
    monitor = Monitor(log)
    broadcaster = Broadcaster(
        monitor.changes, payload=lambda: str(monitor.changes.version), max_clients=4, push_interval_seconds=0.25,
        refresh_seconds=3600, stall_seconds=3600,
    )
    client = broadcaster.join()
    assert client is not None
    broadcaster.start()
    try:
        assert client.take(5) == "0"
        monitor.changes.bump()
        assert client.take(5) == "1"
        time.sleep(0.5)
        assert client.take(0) is None
        assert broadcaster.pushes == 2
    finally:
        broadcaster.stop()
