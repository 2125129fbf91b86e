"""The websocket on a real server (ephemeral ports): first message, push latency, coalescing, the
client cap, slow clients, Origin and Host refusals, keepalives, shutdown."""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from simple_websocket import Client, ConnectionClosed
from wsproto.utilities import RemoteProtocolError

from app.config import Config
from app.live.monitor import Monitor
from app.snapshot import to_json
from app.web.broadcast import KEEPALIVE_JSON, Broadcaster, pump
from app.web.broadcast import Client as Mailbox
from tests.conftest import LogWriter, RunningServer, start_server


class WsClient(Client):
    """simple_websocket.Client without its handshake race.

    A message that arrives in the same read as the 101 response would sit unparsed in wsproto
    until more bytes came (our first snapshot is sent right after the 101): parse it at once.
    """

    def handshake(self) -> None:
        try:
            super().handshake()
        except BaseException:
            self.sock.close()  # simple_websocket leaves a refused handshake's socket open
            raise
        self.connected = self._handle_events()
        if not self.connected:
            self.sock.close()


def connect(server: RunningServer, **headers: str) -> Client:
    """Open a websocket the way the page does (Origin: the dashboard's own page)."""
    client: Client = WsClient(server.ws_url, headers={"Origin": server.origin, **headers})
    return client


def receive_json(ws: Client, timeout: float = 5.0) -> dict[str, Any]:
    """The next message as JSON (fails the test when none comes in time)."""
    message = ws.receive(timeout)
    assert message is not None, f"no message within {timeout} s"
    data: dict[str, Any] = json.loads(message)
    return data


def drain(ws: Client, quiet_seconds: float = 0.3) -> list[dict[str, Any]]:
    """Everything that arrives until the line has been quiet for ``quiet_seconds``."""
    messages = []
    while (message := ws.receive(quiet_seconds)) is not None:
        messages.append(json.loads(message))
    return messages


@pytest.fixture
def ws(server: RunningServer) -> Iterator[Client]:
    """A connected websocket client, its first message already read."""
    client = connect(server)
    receive_json(client)
    yield client
    client.close()


def test_first_message_is_the_snapshot(server: RunningServer, log_writer: LogWriter) -> None:
    with urllib.request.urlopen(f"{server.http_url}/api/snapshot") as response:
        over_http = json.load(response)
    client = connect(server)
    try:
        first = receive_json(client)
    finally:
        client.close()
    assert first.keys() == over_http.keys()
    assert first["status_line"] == "waiting for log"


def test_an_append_is_pushed_within_a_second(server: RunningServer, ws: Client, log_writer: LogWriter) -> None:
    latencies = []
    for layer in (3, 4, 5):
        drain(ws)  # measure from a quiet line, as a miner's pass every ~15 s is
        started = time.perf_counter()
        log_writer.write(log_writer.registered(layer))
        while True:
            message = receive_json(ws, timeout=1.0)
            if message.get("status_line") == f"L{layer} · …":
                break
        latencies.append(time.perf_counter() - started)
    print(f"append → websocket latency: {', '.join(f'{s * 1000:.0f} ms' for s in latencies)}")
    assert max(latencies) < 1.0


def test_a_burst_is_coalesced(server: RunningServer, ws: Client, log_writer: LogWriter) -> None:
    log_writer.write(log_writer.registered(1))
    drain(ws)
    started = time.monotonic()
    for _ in range(50):
        log_writer.write(log_writer.forward(1))
        time.sleep(0.01)
    burst_seconds = time.monotonic() - started
    messages = drain(ws, quiet_seconds=0.6)
    snapshots = [m for m in messages if "status_line" in m]
    # At most 4 a second, plus the one that starts a quiet period.
    assert 1 <= len(snapshots) <= 4 * (burst_seconds + 0.6) + 1
    assert snapshots[-1]["warmup"]["passes"] == 50  # the last one carries everything


def test_the_client_cap_refuses_the_next_one_cleanly(config: Config, monitor: Monitor) -> None:
    running = start_server(replace(config, max_ws_clients=2), monitor)
    clients = []
    try:
        clients = [connect(running), connect(running)]
        for client in clients:
            receive_json(client)
        assert refused_status(running, Origin=running.origin) == 503
        clients.pop().close()
        deadline = time.monotonic() + 3
        while running.dashboard.broadcaster.client_count > 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        clients.append(connect(running))
        receive_json(clients[-1])  # a freed slot is usable again
    finally:
        for client in clients:
            client.close()
        running.dashboard.stop()


class HandshakeRefused(Exception):
    """The server answered a websocket handshake with an HTTP error status."""

    def __init__(self, status: int) -> None:
        super().__init__(f"refused with HTTP {status}")
        self.status = status


def raw_handshake(server: RunningServer, *, receive_buffer_bytes: int | None = None, path: str = "/ws",
                  **headers: str) -> socket.socket:
    """Open a websocket by hand (a client that will never read), returning once the 101 arrived."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer_bytes is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer_bytes)
    sock.connect(("127.0.0.1", server.config.effective_ws_port))
    key = base64.b64encode(os.urandom(16)).decode()
    fields = {
        "Host": f"127.0.0.1:{server.config.effective_ws_port}",
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": key,
        "Sec-WebSocket-Version": "13",
        **headers,
    }
    lines = [f"GET {path} HTTP/1.1", *(f"{name}: {value}" for name, value in fields.items())]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    sock.settimeout(10)
    head = sock.recv(1024)
    sock.settimeout(None)
    status = head.split(b"\r\n", 1)[0]
    if b" 101 " not in status:
        sock.close()
        raise HandshakeRefused(int(status.split()[1]))
    return sock


def refused_status(server: RunningServer, **headers: str) -> int | None:
    """The HTTP status a handshake is refused with, or None when it is accepted (then closed)."""
    try:
        raw_handshake(server, **headers).close()
    except HandshakeRefused as refused:
        return refused.status
    return None


def test_a_client_that_never_reads_does_not_delay_another(
    server: RunningServer, ws: Client, log_writer: LogWriter, monitor: Monitor
) -> None:
    slow = raw_handshake(server, receive_buffer_bytes=2048, Origin=server.origin)
    try:
        # Keep pushing to the non-reader while the fast client watches (a send that truly
        # blocks is the next test's: loopback buffers are too deep to fill in a test).
        for layer in range(20):
            log_writer.write(log_writer.registered(layer % 9 + 1))
            time.sleep(0.05)
        drain(ws)
        started = time.perf_counter()
        log_writer.write(log_writer.queued(1583))
        while receive_json(ws, timeout=1.0).get("status_line") != "Queue #1583":
            pass
        assert time.perf_counter() - started < 1.0
    finally:
        slow.close()


def masked_text_frame(payload: bytes) -> bytes:
    """One client-to-server text frame (clients must mask), payload under 64 KiB."""
    mask = os.urandom(4)
    length = bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    return bytes([0x81]) + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_an_oversized_message_is_refused_and_its_connection_freed(server: RunningServer) -> None:
    sock = raw_handshake(server, Origin=server.origin)
    try:
        sock.sendall(masked_text_frame(b"x" * 5000))  # over the 1 KiB cap, more than one server read
        sock.settimeout(10)  # 0.06 s here; a loaded machine has taken over 2
        received = b""
        while chunk := sock.recv(65536):  # the snapshot, the close frame, then the end of the stream
            received += chunk
    finally:
        sock.close()
    assert b"\x88" in received and (1009).to_bytes(2, "big") in received  # close: message too big
    deadline = time.monotonic() + 10
    while server.dashboard.broadcaster.client_count and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.dashboard.broadcaster.client_count == 0


def test_a_stuck_client_skips_versions_instead_of_queueing_them(config: Config) -> None:
    """One mailbox per client: what it could not send yet is replaced, never piled up."""
    mailbox = Mailbox()
    for version in range(100):
        mailbox.offer(f"snapshot {version}")
    assert mailbox.take(0) == "snapshot 99"
    assert mailbox.take(0) is None


def test_a_blocked_send_does_not_hold_up_the_broadcaster(config: Config, log_writer: LogWriter) -> None:
    monitor = Monitor(config.log_path)
    broadcaster = Broadcaster(monitor.changes, payload=lambda: to_json(monitor.snapshot()), max_clients=4, push_interval_seconds=0.05, stall_seconds=0.5)
    release = threading.Event()
    aborted = threading.Event()

    class BlockedSocket:
        connected = True

        def send(self, data: str) -> None:
            release.wait(5)
            raise BrokenPipeError

        def receive(self, timeout: float | None = None) -> None:
            return None

    def abort() -> None:
        aborted.set()
        release.set()

    stuck = broadcaster.join(abort=abort)
    fast = broadcaster.join()
    assert stuck is not None and fast is not None
    ended: list[BaseException] = []

    def run_stuck() -> None:
        try:
            pump(BlockedSocket(), stuck, keepalive_seconds=60)
        except BrokenPipeError as e:
            ended.append(e)

    stuck_thread = threading.Thread(target=run_stuck)
    broadcaster.start()
    stuck_thread.start()
    try:
        assert fast.take(2) is not None  # the first publish reached the fast client
        for layer in (1, 2, 3):
            monitor.lines(log_writer.registered(layer))
            payload = fast.take(2)
            while payload is not None and f'"L{layer} · …"' not in payload:
                payload = fast.take(2)
            assert payload is not None, f"layer {layer} never reached the fast client"
        assert aborted.wait(3), "a send stuck past stall_seconds must get its socket shut"
        stuck_thread.join(3)
        assert ended and isinstance(ended[0], BrokenPipeError)
    finally:
        release.set()
        broadcaster.stop()
        stuck_thread.join(3)


def test_a_foreign_origin_is_refused_on_the_real_server(server: RunningServer) -> None:
    # simple_websocket.Client leaks its socket when refused, so these handshakes go by hand.
    assert refused_status(server, Origin="http://evil.example") == 403
    assert refused_status(server, Origin=f"http://127.0.0.1:{server.config.effective_ws_port}") == 403
    assert refused_status(server, Origin=server.origin) is None


def test_a_rebinding_host_is_refused_on_both_ports(server: RunningServer) -> None:
    assert refused_status(server, Origin=server.origin, Host="evil.example") == 403
    for port in (server.config.port, server.config.effective_ws_port):
        request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(request)
        assert error.value.code == 403
        error.value.close()


def test_each_port_serves_its_own_part(server: RunningServer) -> None:
    with pytest.raises(urllib.error.HTTPError) as on_ws_port:
        urllib.request.urlopen(f"http://127.0.0.1:{server.config.effective_ws_port}/")
    assert on_ws_port.value.code == 404
    on_ws_port.value.close()
    with urllib.request.urlopen(f"{server.http_url}/healthz") as response:
        assert response.status == 200
        assert response.headers["Server"] == "tokwatch"


def test_a_quiet_log_gets_keepalives(config: Config, monitor: Monitor) -> None:
    running = start_server(replace(config, keepalive_seconds=0.3), monitor)
    client = connect(running)
    try:
        receive_json(client)
        messages = [receive_json(client, timeout=2.0) for _ in range(2)]
        assert {"keepalive": True} in messages
        assert json.loads(KEEPALIVE_JSON) == {"keepalive": True}
    finally:
        client.close()
        running.dashboard.stop()


def test_stopping_closes_clients_with_going_away(config: Config, monitor: Monitor) -> None:
    running = start_server(config, monitor)
    client = connect(running)
    receive_json(client)
    started = time.monotonic()
    running.dashboard.stop()
    running.dashboard.stop()  # twice is fine
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.receive(2)
    assert closed.value.reason == 1001
    assert time.monotonic() - started < 3


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """True when the server closes ``sock`` (EOF or reset) within ``seconds``."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def half_request(server: RunningServer) -> socket.socket:
    """A slowloris client: a request line and one header, never the blank line that ends them."""
    sock = socket.create_connection(("127.0.0.1", server.config.effective_ws_port))
    sock.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.config.effective_ws_port}\r\n".encode())
    return sock


def test_a_half_sent_handshake_is_dropped_after_the_timeout(config: Config, monitor: Monitor) -> None:
    running = start_server(replace(config, handshake_timeout_seconds=1.0), monitor)
    try:
        sock = half_request(running)
        try:
            assert closed_within(sock, 4.0), "a half-sent request held its connection past the timeout"
        finally:
            sock.close()
    finally:
        running.dashboard.stop()


def test_a_trickled_handshake_is_dropped_at_the_deadline(config: Config, monitor: Monitor) -> None:
    # One byte at a time never lets a per-read timeout expire: the deadline is for the whole request.
    running = start_server(replace(config, handshake_timeout_seconds=1.0), monitor)
    sock = socket.create_connection(("127.0.0.1", running.config.effective_ws_port))
    try:
        started = time.monotonic()
        closed = False
        for byte in b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            if closed_within(sock, 0.25):
                closed = True
                break
        assert closed, "a trickling client kept its connection"
        assert time.monotonic() - started < 4.0
    finally:
        sock.close()
        running.dashboard.stop()


def test_an_accepted_websocket_may_stay_idle_past_the_handshake_timeout(
    config: Config, monitor: Monitor, log_writer: LogWriter
) -> None:
    running = start_server(replace(config, handshake_timeout_seconds=0.5), monitor)
    client = connect(running)
    try:
        receive_json(client)
        time.sleep(1.5)  # idle three times the handshake timeout
        log_writer.write(log_writer.queued(77))
        while receive_json(client, timeout=2.0).get("status_line") != "Queue #77":
            pass
    finally:
        client.close()
        running.dashboard.stop()


def test_connections_past_the_cap_are_closed_at_once(config: Config, monitor: Monitor) -> None:
    # Handshakes not yet accepted may hold WS_CONNECTION_HEADROOM connections, never the
    # slots of accepted dashboards (two allowed here).
    from app.serve.wsserver import WS_CONNECTION_HEADROOM

    running = start_server(replace(config, max_ws_clients=2, handshake_timeout_seconds=30.0), monitor)
    held = [half_request(running) for _ in range(WS_CONNECTION_HEADROOM)]
    try:
        time.sleep(0.3)  # let the server take them all
        extra = half_request(running)
        try:
            assert closed_within(extra, 2.0), "a connection past the cap was kept"
        finally:
            extra.close()
        for sock in held:
            assert not closed_within(sock, 0.01)  # the ones inside the cap are still served
    finally:
        for sock in held:
            sock.close()
    # Their slots come back: a real viewer connects again. Until the server has read the closes
    # it still counts them and refuses the viewer by closing its socket mid-handshake.
    deadline = time.monotonic() + 5
    while True:
        try:
            client = connect(running)
            break
        except (ConnectionError, OSError, RemoteProtocolError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    try:
        assert receive_json(client)["status_line"]
    finally:
        client.close()
        running.dashboard.stop()


def test_the_fleet_websocket_is_accepted_like_the_dashboards(tmp_path: Any) -> None:
    """/ws/fleet passes the same handshake checks as /ws, and once accepted outlives the handshake deadline."""
    config = Config(log_path=None, port=0, hub=True, data_dir=tmp_path / "data", config_dir=tmp_path / "config",
                    handshake_timeout_seconds=1.0, keepalive_seconds=1.0)
    running = start_server(config, Monitor(None))
    url = f"ws://127.0.0.1:{running.config.effective_ws_port}/ws/fleet"
    try:
        with pytest.raises(HandshakeRefused) as refused:  # another page's origin is refused, as on /ws
            raw_handshake(running, path="/ws/fleet", Origin="http://evil.example")
        assert refused.value.status == 403
        ws = WsClient(url, headers={"Origin": running.origin})
        try:
            assert receive_json(ws)["machines"] == []
            time.sleep(2.5)  # past two handshake deadlines: an accepted socket has none
            # Still open: a keepalive (or a fresh fleet) arrives, where a cut socket would raise.
            later = receive_json(ws, timeout=3.0)
            assert later == {"keepalive": True} or later.get("machines") == [] or later.get("cards") == {}
            assert ws.connected
        finally:
            ws.close()
    finally:
        running.dashboard.stop()
