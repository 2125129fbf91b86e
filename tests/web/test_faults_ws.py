"""Misbehaving network clients against ``run.py --port 0`` in its own process.

Every case runs the same guard: a steady writer appends a line every 0.15 s and a well-behaved
websocket viewer must see each one within 1 s, throughout the abuse; afterwards the server is
still up and has read every line. Abuse: connections over the client cap, clients that never
read, send garbage or a 10 MiB frame, vanish mid-push; on the HTTP side a slowloris client, a huge
header, unknown methods.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from simple_websocket import ConnectionError as HandshakeError

from app.config import MAX_WS_CLIENTS
from bench.harness import (
    HandshakeRefused,
    Server,
    SteadyWriter,
    Viewer,
    close_code,
    late_arrivals,
    masked_frame,
    raw_handshake,
)
from bench.live import LiveLog, settle

WITHIN_SECONDS = 1.0


@dataclass
class Stage:
    """A running server, its log, a well-behaved viewer and the steady writer."""

    server: Server
    live: LiveLog
    viewer: Viewer
    base: int
    writer: SteadyWriter

    @property
    def origin(self) -> dict[str, str]:
        return {"Origin": f"http://127.0.0.1:{self.server.http_port}"}

    def get(self, path: str, timeout: float = WITHIN_SECONDS) -> int:
        """GET on the HTTP port; return the status (fails the test when slower than ``timeout``)."""
        started = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{self.server.http_port}{path}", timeout=5) as response:
            status: int = response.status
            response.read()
        assert time.perf_counter() - started < timeout, f"GET {path} took {time.perf_counter() - started:.2f} s"
        return status

    def assert_undisturbed(self, min_writes: int = 12) -> None:
        """Stop the writer; every append reached the viewer within 1 s, and the server read them all."""
        deadline = time.monotonic() + 10
        while len(self.writer.written) < min_writes and time.monotonic() < deadline:
            time.sleep(0.05)  # the window must span some appends, however quick the abuse was
        written = self.writer.stop()
        with contextlib.suppress(TimeoutError):  # the last appends' arrivals, at most 1 s away
            self.viewer.wait_for(lambda n: n >= self.base + len(written), WITHIN_SECONDS + 0.1)
        assert self.server.alive(), "the server died"
        late = late_arrivals(self.viewer, self.base, written, WITHIN_SECONDS)
        assert not late, f"appends late or missing at the well-behaved viewer (index, seconds): {late[:10]}"
        assert self.viewer.lines_read() == self.base + len(written)


@pytest.fixture
def stage(tmp_path: Path) -> Iterator[Stage]:
    live = LiveLog(tmp_path / "miner.log", seed=9, history_seconds=120)
    server = Server(live.path, stderr_path=tmp_path / "server.err").start()
    viewer: Viewer | None = None
    writer: SteadyWriter | None = None
    try:
        viewer = Viewer(server.ws_url(), headers={"Origin": f"http://127.0.0.1:{server.http_port}"})
        base = settle(viewer)
        writer = SteadyWriter(live.fd, [line for _, line in live.next_lines(400)], interval=0.15).start()
        yield Stage(server, live, viewer, base, writer)
    finally:
        if writer is not None:
            writer.stop()
        if viewer is not None:
            viewer.close()
        server.stop()
        live.close()


def refused_status(stage: Stage) -> int | None:
    try:
        raw_handshake(stage.server.ws_port, timeout=2, headers=stage.origin).close()
    except HandshakeRefused as refused:
        return refused.status
    return None


def join(stage: Stage, deadline: float) -> Viewer | None:
    """A new viewer that got its first snapshot, or None when no slot opened before ``deadline``."""
    while time.monotonic() < deadline:
        try:
            viewer = Viewer(stage.server.ws_url(), headers=stage.origin)
        except HandshakeError:  # refused at the handshake: full
            time.sleep(0.05)
            continue
        try:
            viewer.wait_for(lambda n: n >= 0, 2)
            return viewer
        except TimeoutError:  # accepted, then closed: the cap filled between the check and the join
            viewer.close()
    return None


def reset_close(sock: socket.socket) -> None:
    """Vanish: close with an RST instead of a FIN (SO_LINGER 0)."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def test_a_hundred_connections_over_the_cap(stage: Stage) -> None:
    fillers = [Viewer(stage.server.ws_url(), headers=stage.origin) for _ in range(MAX_WS_CLIENTS - 1)]
    try:
        for viewer in fillers:
            viewer.wait_for(lambda n: n >= 0, 5)
        started = time.perf_counter()
        statuses = [refused_status(stage) for _ in range(100)]
        assert statuses == [503] * 100
        assert time.perf_counter() - started < 10, "refusals are slow"
        # Slots come back: five fillers vanish abruptly, five newcomers get in.
        for viewer in fillers[:5]:
            reset_close(viewer.client.sock)
        deadline = time.monotonic() + 5
        newcomers = [join(stage, deadline) for _ in range(5)]
        assert None not in newcomers, "the slots of vanished clients did not come back"
        fillers += [v for v in newcomers if v is not None]
        stage.assert_undisturbed()
    finally:
        for viewer in fillers:
            viewer.close()


def test_clients_that_never_read(stage: Stage) -> None:
    readers_not = [
        raw_handshake(stage.server.ws_port, receive_buffer_bytes=1024, headers=stage.origin) for _ in range(8)
    ]
    try:
        time.sleep(2)  # a dozen pushes each, none read
        stage.assert_undisturbed()
        assert stage.get("/healthz") == 200
    finally:
        for sock in readers_not:
            sock.close()


def test_garbage_and_a_10_mib_frame(stage: Stage) -> None:
    ignored = []  # what the page never sends is dropped; the connection may stay
    for payload in (masked_frame(b"not json at all"), masked_frame(bytes(range(256)), opcode=0x2)):
        sock = raw_handshake(stage.server.ws_port, headers=stage.origin)
        sock.sendall(payload)
        ignored.append(sock)
    not_a_frame = raw_handshake(stage.server.ws_port, headers=stage.origin)
    huge = raw_handshake(stage.server.ws_port, headers=stage.origin)
    try:
        not_a_frame.sendall(b"\xff\x00\x13\x37 this is not a websocket frame" * 50)
        huge.settimeout(10)
        with contextlib.suppress(ConnectionError):  # the server may shut it before the last byte
            huge.sendall(masked_frame(b"x" * (10 << 20)))
        # Refused as it streams in (simple-websocket's max_message_size), never buffered whole.
        assert close_code(huge, 3) == 1009
        assert close_code(not_a_frame, 3) in (1002, None)  # a protocol error, or just gone
        stage.assert_undisturbed(min_writes=15)
    finally:
        for sock in [*ignored, not_a_frame, huge]:
            sock.close()


def test_an_oversized_message_gets_its_connection_closed(stage: Stage) -> None:
    sock = raw_handshake(stage.server.ws_port, headers=stage.origin)
    try:
        sock.sendall(masked_frame(b"x" * 5000))  # over the 1 KiB cap and more than one server read
        sock.settimeout(10)  # closed within 0.5 s here; a loaded machine has taken over 2
        while sock.recv(65536):  # the close frame, then the end of the stream
            pass
    except TimeoutError:
        pytest.fail("the server kept the connection open 10 s after refusing the message")
    finally:
        sock.close()
    stage.assert_undisturbed()


def test_abrupt_disconnects_mid_push(stage: Stage) -> None:
    doomed = [Viewer(stage.server.ws_url(), headers=stage.origin) for _ in range(MAX_WS_CLIENTS - 1)]
    for viewer in doomed:
        viewer.wait_for(lambda n: n >= 0, 5)
    half_frame = masked_frame(b"x" * 500)[:100]
    for i, viewer in enumerate(doomed):
        sock = viewer.client.sock
        if i % 3 == 0:
            reset_close(sock)  # RST while pushes are in flight
        elif i % 3 == 1:
            sock.sendall(half_frame)  # half a frame, then gone
            reset_close(sock)
        else:
            sock.shutdown(socket.SHUT_RDWR)  # FIN without a close frame
            sock.close()
        time.sleep(0.02)
    for viewer in doomed:
        viewer.close()
    # Every slot the vanished clients held must come back.
    deadline = time.monotonic() + 5
    fresh: list[Viewer] = []
    try:
        for _ in range(MAX_WS_CLIENTS - 1):
            viewer = join(stage, deadline)
            assert viewer is not None, f"only {len(fresh)} of {MAX_WS_CLIENTS - 1} slots came back"
            fresh.append(viewer)
        stage.assert_undisturbed()
    finally:
        for viewer in fresh:
            viewer.close()


@pytest.mark.parametrize("port_name", ["http", "ws"])
def test_a_slowloris_client(stage: Stage, port_name: str) -> None:
    """30 connections that trickle a request header a few bytes at a time and never finish it."""
    port = stage.server.http_port if port_name == "http" else stage.server.ws_port
    request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-a: {'a' * 150}".encode()
    slow = [socket.create_connection(("127.0.0.1", port), timeout=2) for _ in range(30)]
    try:
        for step in range(0, len(request), 8):
            for sock in slow:
                sock.sendall(request[step : step + 8])
            if step % 24 == 0:
                assert stage.get("/healthz") == 200
                assert stage.get("/api/snapshot") == 200
            time.sleep(0.1)
        Viewer(stage.server.ws_url(), headers=stage.origin).close()  # a newcomer still gets in
        stage.assert_undisturbed()
    finally:
        for sock in slow:
            sock.close()


def http_status(port: int, request: bytes, timeout: float = 5.0) -> bytes:
    """Send a raw request; return the status line (the first bytes when there is none, b"" on silence)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        head = b""
        while b"\r\n" not in head:
            try:
                data = sock.recv(4096)
            except (ConnectionResetError, TimeoutError):
                break
            if not data:
                break
            head += data
    return head.split(b"\r\n", 1)[0]


def test_a_huge_header(stage: Stage) -> None:
    for port in (stage.server.http_port, stage.server.ws_port):
        host = f"127.0.0.1:{port}".encode()
        huge = b"GET / HTTP/1.1\r\nHost: " + host + b"\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n"
        status = http_status(port, huge)
        assert status.split()[1:2] in ([b"431"], [b"400"], [b"413"]), status
        many = b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n" + b"X-Many: b\r\n" * 20000 + b"\r\n"
        status = http_status(port, many)
        assert status.split()[1:2] in ([b"431"], [b"400"], [b"413"]), status
    assert stage.get("/healthz") == 200
    stage.assert_undisturbed()


def test_unknown_methods(stage: Stage) -> None:
    for port in (stage.server.http_port, stage.server.ws_port):
        host = f"127.0.0.1:{port}".encode()
        for method in (b"BREW", b"PROPFIND", b"DELETE", b"PUT", b"TRACE", b"CONNECT"):
            status = http_status(port, method + b" / HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
            code = status.split()[1:2]
            assert code and code[0][:1] == b"4", (method, status)
        # Not HTTP at all: refused or ignored (the websocket port's Werkzeug waits for a request line
        # that never ends), and nothing else happens.
        http_status(port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(64), timeout=0.5)
        assert http_status(port, b"GARBAGE\r\n\r\n").split()[1:2] == [b"400"] or port == stage.server.ws_port
    assert stage.get("/healthz") == 200
    stage.assert_undisturbed()
