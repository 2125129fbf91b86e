"""How often the page is pushed, as the page receives it: at most four in any second, the last state
always, and a lone line at once.

A real server on ephemeral ports, a real websocket client (wsproto, the protocol library under
simple-websocket), real appends to the log. Each message is stamped by the kernel when its bytes
reached the client's socket (``SO_TIMESTAMPNS``), not when a thread of this busy test process got
round to it: on loopback that is the moment the server sent it, so the count per second is the
server's, on a loaded machine too.
"""

from __future__ import annotations

import json
import socket
import statistics
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Ping, Request, TextMessage

from app.web.broadcast import KEEPALIVE_JSON, Client, ClientClosed, pump
from app.web.pacing import WINDOW_SECONDS, PushWindow
from tests.conftest import LogWriter, RunningServer

# Linux's SO_TIMESTAMPNS (asm-generic/socket.h; Python's socket module does not name it): every
# message read then carries the kernel's receive time (CLOCK_REALTIME) as ancillary data.
SO_TIMESTAMPNS = 35
TIMESPEC = struct.Struct("qq")
FLOOD_SECONDS = 2.5
FLOOD_GAP_SECONDS = 0.01


def most_in_one_second(times: list[float]) -> int:
    """The most of ``times`` (seconds) in any half-open window of one second."""
    return max((sum(1 for t in times if start <= t < start + 1.0) for start in times), default=0)


class StampedSocket:
    """A websocket client that keeps every text message with the time its last bytes arrived."""

    def __init__(self, server: RunningServer) -> None:
        host, port = server.ws_url.removeprefix("ws://").split("/", 1)[0].rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self.kernel_stamps = sys.platform == "linux"
        if self.kernel_stamps:
            self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.ws = WSConnection(ConnectionType.CLIENT)
        origin = [(b"Origin", server.origin.encode())]
        self.sock.sendall(self.ws.send(Request(host=f"{host}:{port}", target="/ws", extra_headers=origin)))
        self.messages: list[tuple[float, dict[str, Any]]] = []  # (arrival, wall-clock seconds; snapshot)
        self.keepalives = 0
        self.accepted = False
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._read, name="stamped-ws", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        parts: list[str] = []
        try:
            while True:
                data, ancillary, _, _ = self.sock.recvmsg(1 << 16, socket.CMSG_SPACE(TIMESPEC.size))
                arrived = time.time()
                for level, kind, value in ancillary:
                    if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                        seconds, nanoseconds = TIMESPEC.unpack(value[: TIMESPEC.size])
                        arrived = seconds + nanoseconds / 1e9
                if not data:
                    return
                self.ws.receive_data(data)
                for event in self.ws.events():
                    if isinstance(event, AcceptConnection):
                        self.accepted = True
                    elif isinstance(event, Ping):
                        self.sock.sendall(self.ws.send(event.response()))
                    elif isinstance(event, CloseConnection):
                        return
                    elif isinstance(event, TextMessage):
                        parts.append(event.data)
                        if event.message_finished:
                            self._keep(arrived, "".join(parts))
                            parts = []
        except OSError:
            return
        finally:
            with self._changed:
                self._closed = True
                self._changed.notify_all()

    def _keep(self, arrived: float, text: str) -> None:
        with self._changed:
            if text == KEEPALIVE_JSON:
                self.keepalives += 1
            else:
                self.messages.append((arrived, json.loads(text)))
            self._changed.notify_all()

    def wait_for(self, done: Callable[[list[tuple[float, dict[str, Any]]]], bool], timeout: float = 20.0) -> None:
        """Block until ``done(messages)`` holds (fails the test when it does not within ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not done(self.messages):
                left = deadline - time.monotonic()
                assert left > 0 and not self._closed, f"not within {timeout} s; last: {self.messages[-1:]}"
                self._changed.wait(left)

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._thread.join(5)
        self.sock.close()


@pytest.fixture
def page(server: RunningServer) -> Iterator[StampedSocket]:
    """A connected websocket client, its first snapshot received."""
    client = StampedSocket(server)
    client.wait_for(lambda messages: len(messages) >= 1)
    yield client
    client.close()


def passes(message: dict[str, Any]) -> int:
    return int((message.get("warmup") or {}).get("passes") or 0)


def test_a_flood_of_lines_reaches_the_page_at_most_four_times_in_any_second_and_ends_on_the_last_state(
    page: StampedSocket, log_writer: LogWriter
) -> None:
    log_writer.write(log_writer.registered(1))
    page.wait_for(lambda messages: messages[-1][1].get("status_line", "").startswith("L1"))
    flood_started = time.time()
    end = time.monotonic() + FLOOD_SECONDS
    while time.monotonic() < end:  # a pass every 10 ms: 100 changes a second, for 2.5 s
        log_writer.write(log_writer.forward(1))
        time.sleep(FLOOD_GAP_SECONDS)
    written = log_writer.passes
    # Nothing is lost: the state after the last line reaches the page, however the pushes fell.
    page.wait_for(lambda messages: passes(messages[-1][1]) == written)
    arrivals = [at for at, _ in page.messages]
    during = [at for at, message in page.messages if at >= flood_started and passes(message) > 0]
    counts = [passes(message) for _, message in page.messages]
    assert counts == sorted(counts), "a push older than one already sent reached the page"
    assert most_in_one_second(arrivals) <= 4, [round(at - arrivals[0], 3) for at in arrivals]
    # The page moved on during the flood rather than waiting for its end.
    assert len(during) >= 3, len(during)


def test_a_lone_line_after_a_quiet_spell_is_pushed_at_once(page: StampedSocket, log_writer: LogWriter) -> None:
    log_writer.write(log_writer.registered(1))
    page.wait_for(lambda messages: messages[-1][1].get("status_line", "").startswith("L1"))
    latencies = []
    for _ in range(5):
        # The precondition, a clock's: the last push is more than a window old, so nothing holds the next.
        time.sleep(max(0.0, page.messages[-1][0] + WINDOW_SECONDS - time.time()))
        written_at = time.time()
        log_writer.write(log_writer.forward(1))
        expected = log_writer.passes
        page.wait_for(lambda messages, expected=expected: passes(messages[-1][1]) == expected)
        latencies.append(next(at for at, message in page.messages if passes(message) == expected) - written_at)
    # The log's quiet moment (20 ms) and the work, not a slot or a window (150 ms and more):
    # the median of five, so one stall of a loaded machine does not decide it.
    assert statistics.median(latencies) < 0.15, latencies
    assert max(latencies) < 1.0, latencies


class RecordingSocket:
    """A websocket that records when each message was sent; its peer sends nothing."""

    def __init__(self) -> None:
        self.connected = True
        self.sent: list[tuple[float, str]] = []
        self.event = threading.Event()
        self._changed = threading.Condition()

    def send(self, data: str) -> None:
        with self._changed:
            self.sent.append((time.monotonic(), data))
            self._changed.notify_all()

    def receive(self, timeout: float | None = None) -> str | None:
        return None

    def wait_for(self, done: Callable[[list[tuple[float, str]]], bool], timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not done(self.sent):
                left = deadline - time.monotonic()
                assert left > 0, f"not within {timeout} s; sent: {self.sent[-3:]}"
                self._changed.wait(left)


def test_a_clients_thread_sends_at_most_four_in_a_window_and_then_the_newest() -> None:
    # Offers far faster than the pacer would make them (as when this thread was held up and the
    # broadcaster's pushes piled up behind it): the client's own window still holds.
    client = Client(window=PushWindow(4))
    ws = RecordingSocket()

    def run() -> None:
        try:
            pump(ws, client, keepalive_seconds=3600)
        except ClientClosed:
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        offered = 0
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            offered += 1
            client.offer(str(offered))
            time.sleep(0.005)
        ws.wait_for(lambda sent: bool(sent) and sent[-1][1] == str(offered))
    finally:
        ws.connected = False
        client.close(1001, "test over")
        thread.join(5)
    times = [at for at, _ in ws.sent]
    assert max(sum(1 for t in times if start <= t < start + WINDOW_SECONDS) for start in times) <= 4, times
    assert [int(text) for _, text in ws.sent] == sorted(int(text) for _, text in ws.sent)
    assert len(ws.sent) < offered / 10  # held and replaced, not queued
