"""What a stranger can make the server hold before authentication, against ``run.py`` in its own process.

Memory is read where it is held: ``VmRSS`` of the real server process in ``/proc``. Before these
bounds, 64 connections sending 100 header lines of 64 KiB each to the websocket port took the
server from ~40 MB to over 300 MB (measured), and rounds of 32 clients flooding small messages
ratcheted it from ~40 to ~96 MB, round after round. Everything talks to 127.0.0.1 only; every
loop is bounded.
"""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import simple_websocket
from waitress import wasyncore
from waitress.server import create_server
from werkzeug.serving import BaseWSGIServer

from app.serve.limits import HEAD_MAX_BYTES, AddressSlots, PendingHandshakes, limited_channels
from app.serve.wsserver import QuietHandler, WebsocketServer
from bench.harness import ROOT, HandshakeRefused, Server, raw_handshake

SAMPLE = ROOT / "tests" / "data" / "iota-sample.log"
SAFE_HEADERS = ("content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    log = tmp_path / "miner.log"
    log.write_bytes(SAMPLE.read_bytes())
    running = Server(log, stderr_path=tmp_path / "server.err").start()
    try:
        yield running
    finally:
        running.stop()


class PeakRss:
    """Sample the server's VmRSS every 20 ms in a thread; ``peak`` is the highest seen."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.peak = server.rss_kb()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.02) and self.server.alive():
            with contextlib.suppress(OSError, ValueError):
                self.peak = max(self.peak, self.server.rss_kb())

    def stop(self) -> int:
        self._stop.set()
        self._thread.join(2)
        return self.peak


def head_flood(port: int, connections: int) -> None:
    """Each connection sends a request line and up to 100 header lines of 64,000 bytes, never ending."""

    def one() -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            try:
                s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                for i in range(100):
                    s.sendall(b"X-Pad-%d: " % i + b"a" * 64_000 + b"\r\n")
            except OSError:
                return  # refused once over the cap: the point
            time.sleep(0.5)  # held open a moment with everything sent

    threads = [threading.Thread(target=one) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)


def response_head(port: int, request: bytes) -> tuple[int, dict[str, str]]:
    """Send raw bytes, read the response's status and headers (lower-case names)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        with contextlib.suppress(OSError):
            s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    lines = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers


def test_a_header_flood_on_both_ports_stays_under_a_memory_ceiling(server: Server) -> None:
    time.sleep(0.5)
    before = server.rss_kb()
    sampler = PeakRss(server)
    head_flood(server.ws_port, 64)
    head_flood(server.http_port, 64)
    peak = sampler.stop()
    assert server.alive()
    # 64 × 6.4 MB would be 400 MB; the head cap (32 KiB) keeps it to allocator noise.
    assert peak - before < 30 * 1024, f"RSS {before // 1024} MB → peak {peak // 1024} MB"
    for port in (server.ws_port, server.http_port):
        status, headers = response_head(
            port, b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * (HEAD_MAX_BYTES + 10) + b"\r\n\r\n"
        )
        assert status == 431, (port, status)
        assert all(name in headers for name in SAFE_HEADERS), headers


def flood_round(server: Server, origin: dict[str, str]) -> int:
    """32 clients each send up to 2,000 messages of 1 KB, then close; return how many the server closed (1008)."""
    threads_before = int(_proc_field(server.pid, "Threads"))
    clients = [simple_websocket.Client.connect(server.ws_url(), headers=origin) for _ in range(32)]

    def spam(client: simple_websocket.Client) -> None:
        with contextlib.suppress(Exception):
            for _ in range(2000):
                client.send("x" * 1000)

    threads = [threading.Thread(target=spam, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    closed_by_server = 0
    for client in clients:
        closed_by_server += client.close_reason == 1008
        with contextlib.suppress(Exception):
            client.close()
    # The round is over when the server's threads for its connections have ended.
    deadline = time.monotonic() + 10
    while int(_proc_field(server.pid, "Threads")) > threads_before + 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    return closed_by_server


def test_message_floods_do_not_ratchet_memory(server: Server) -> None:
    """Round after round, RSS levels off: compared with itself after round 2, not with a fixed figure.

    Each flooding connection ended with hundreds of its messages queued by simple-websocket's
    reader, kept alive in a reference cycle (flask-sock's per-request response class) until
    Python's rare full collection, and the allocator kept the pages: about 2.5 MB more each
    round, 89 MB after 16 rounds. The first rounds warm up (threads, pools); later ones must
    not add more than allocator noise.
    """
    origin = {"Origin": f"http://127.0.0.1:{server.http_port}"}
    time.sleep(0.5)
    before = server.rss_kb()
    closed_by_server = 0
    after_round: list[int] = []
    for _ in range(10):
        closed_by_server += flood_round(server, origin)
        after_round.append(server.rss_kb())
    assert server.alive()
    assert closed_by_server >= 250  # a client that keeps sending is closed: the page sends nothing
    rounds_mb = [kb // 1024 for kb in after_round]
    # Unbounded, four rounds took it up by ~54 MB and each round added more.
    assert after_round[-1] - before < 30 * 1024, f"RSS {before // 1024} MB, then after each round {rounds_mb}"
    # The ratchet: the 8 rounds after the second added 20 to 40 MB before; noise is a few MB.
    assert after_round[-1] - after_round[1] < 12 * 1024, f"RSS after each round: {rounds_mb} MB"
    deadline = time.monotonic() + 10  # their threads end, none left waiting on a reused socket
    while int(_proc_field(server.pid, "Threads")) > 40 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert int(_proc_field(server.pid, "Threads")) <= 40


def _proc_field(pid: int, name: str) -> str:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.split()[1]
    return "0"


def test_a_handshake_without_its_key_is_a_400_not_a_traceback(server: Server, tmp_path: Path) -> None:
    port = server.ws_port
    origin = f"Origin: http://127.0.0.1:{server.http_port}\r\n".encode()
    for _ in range(200):
        status, headers = response_head(
            port,
            b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + origin
            + b"Sec-WebSocket-Version: 13\r\n\r\n",
        )
        assert status == 400
        assert all(name in headers for name in SAFE_HEADERS)
    time.sleep(0.2)
    err = (tmp_path / "server.err").read_text()
    assert "Traceback" not in err and len(err) < 4096, err[-2000:]


def test_the_servers_own_errors_carry_the_safe_headers_and_no_versions(server: Server) -> None:
    cases = [
        (server.http_port, b"NOT HTTP AT ALL\r\n\r\n", 400),
        (server.http_port, b"POST /api/snapshot HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 999999\r\n\r\n", 413),
        (server.ws_port, b"GET /" + b"a" * (HEAD_MAX_BYTES + 10) + b" HTTP/1.1\r\n\r\n", 414),
        # More than 100 header lines, however short: counted as well as sized.
        (server.ws_port, b"GET /ws HTTP/1.1\r\n" + b"".join(b"X-%d: a\r\n" % i for i in range(101)) + b"\r\n", 431),
    ]
    for port, request, expected in cases:
        status, headers = response_head(port, request)
        assert status == expected, (request[:40], status)
        assert all(name in headers for name in SAFE_HEADERS), (request[:40], headers)
        server_header = headers.get("server", "")
        assert "Werkzeug" not in server_header and "Python" not in server_header, server_header
    _, headers = response_head(server.ws_port, b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert headers.get("server") == "tokwatch"


def test_half_open_connections_never_take_an_accepted_dashboards_slot(server: Server) -> None:
    origin = {"Origin": f"http://127.0.0.1:{server.http_port}"}
    viewer = raw_handshake(server.ws_port, headers=origin)
    held = []
    try:
        for _ in range(40):  # more than the pending slots: the rest are closed at once
            s = socket.create_connection(("127.0.0.1", server.ws_port), timeout=5)
            s.sendall(b"GET /ws HTTP/1.1\r\n")  # and never the rest
            held.append(s)
        time.sleep(0.3)
        # The accepted viewer still gets its pushes (a keepalive or snapshot within 20 s).
        viewer.settimeout(20)
        assert viewer.recv(1)
        # A new dashboard is refused while strangers hold every pending slot, but the
        # accepted ones keep theirs; once the strangers go, a new one connects.
        with pytest.raises((HandshakeRefused, OSError)):
            raw_handshake(server.ws_port, headers=origin, timeout=2).close()
    finally:
        for s in held:
            s.close()
    deadline = time.monotonic() + 5
    while True:
        try:
            raw_handshake(server.ws_port, headers=origin).close()
            break
        except (HandshakeRefused, OSError):
            assert time.monotonic() < deadline, "a dashboard could not connect once the strangers left"
            time.sleep(0.1)
    viewer.close()


# --- one client address's cap, on real servers in this process ---------------------------


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def _app(environ: dict[str, object], start_response: Callable[..., object]) -> list[bytes]:
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]


def test_one_address_holds_only_so_many_http_connections() -> None:
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    channels: dict[int, object] = {}
    server = create_server(_app, map=channels, sockets=[sock], threads=2, asyncore_use_poll=True)
    slots = AddressSlots(per_address=4, exempt_loopback=False)  # 127.0.0.1 stands for a LAN peer
    for dispatcher in list(channels.values()):
        if hasattr(dispatcher, "channel_class"):
            dispatcher.channel_class = limited_channels(slots)
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=channels, use_poll=True, count=1)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(4)]
    try:
        time.sleep(0.3)
        extra = socket.create_connection(("127.0.0.1", port), timeout=5)
        assert _closed_within(extra, 2.0), "a fifth connection from one address was kept"
        extra.close()
        assert not any(_closed_within(s, 0.01) for s in held)
        held.pop().close()
        time.sleep(0.3)
        again = socket.create_connection(("127.0.0.1", port), timeout=5)
        again.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        again.settimeout(5)
        assert again.recv(12).startswith(b"HTTP/1.1 200")
        again.close()
    finally:
        for s in held:
            s.close()
        stop.set()
        thread.join(2)
        server.task_dispatcher.shutdown(timeout=2)
        wasyncore.close_all(channels)


def test_one_address_holds_only_so_many_pending_handshakes() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = WebsocketServer(
        "127.0.0.1", port, _app, handler=QuietHandler, fd=listener.fileno(),
        max_connections=64, max_pending=32, max_per_address=8, handshake_timeout_seconds=30.0,
    )
    listener.close()
    server.pending = PendingHandshakes(per_address=3, total=32, reserved=0, trusted=lambda address: False)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    held = []
    try:
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /ws HTTP/1.1\r\n")
            held.append(s)
        time.sleep(0.3)
        extra = socket.create_connection(("127.0.0.1", port), timeout=5)
        assert _closed_within(extra, 2.0), "a fourth pending handshake from one address was kept"
        extra.close()
        assert not any(_closed_within(s, 0.01) for s in held)
    finally:
        for s in held:
            s.close()
        server.shutdown()
        server.server_close()
    assert isinstance(server, BaseWSGIServer)


def _half_handshake(port: int, source: str) -> socket.socket:
    """A connection from ``source`` (any 127/8 address is this machine's) that sends half a request."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    s.sendall(b"GET /ws HTTP/1.1\r\n")
    return s


def _served(port: int, source: str) -> bool:
    """A whole request from ``source`` gets an answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as s:
        s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        s.settimeout(5)
        try:
            return s.recv(12).startswith(b"HTTP/1.")
        except OSError:
            return False


def test_strangers_on_many_addresses_cannot_keep_the_owner_or_a_phone_from_connecting() -> None:
    """Half-sent handshakes from 4 addresses fill every slot strangers may hold (the old limit:
    per address only, so 4 addresses denied the websocket to everyone). The owner (loopback,
    here 127.0.0.1) has slots of its own; a phone on the LAN (another address) evicts the
    oldest stranger's handshake."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = WebsocketServer(
        "127.0.0.1", port, _app, handler=QuietHandler, fd=listener.fileno(),
        max_connections=64, max_pending=8, max_per_address=2, handshake_timeout_seconds=30.0,
    )
    listener.close()
    # 127.0.0.1 is the owner's loopback; 127.0.0.2 and up stand for strangers and phones on the LAN.
    server.pending = PendingHandshakes(per_address=2, total=8, reserved=2, trusted=lambda a: a == "127.0.0.1")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    strangers: list[socket.socket] = []
    try:
        for n in range(2, 6):
            for _ in range(2):
                strangers.append(_half_handshake(port, f"127.0.0.{n}"))
                time.sleep(0.05)  # in order: the first is the oldest
        time.sleep(0.3)
        assert server.pending.held() == 6  # the strangers' share (8 - 2 kept for loopback)
        assert server.pending.evicted == 2  # the 4th address's two made way for the oldest two
        assert _closed_within(strangers[0], 2.0) and _closed_within(strangers[1], 2.0)
        assert not any(_closed_within(s, 0.01) for s in strangers[2:])
        # The owner: served at once from the reserved slots, no stranger evicted for it.
        assert _served(port, "127.0.0.1")
        assert server.pending.evicted == 2
        # A phone on the LAN: the oldest stranger still waiting (127.0.0.3's first) makes way.
        assert _served(port, "127.0.0.9")
        assert server.pending.evicted == 3
        assert _closed_within(strangers[2], 2.0)
        assert not any(_closed_within(s, 0.01) for s in strangers[3:])
    finally:
        for s in strangers:
            s.close()
        server.shutdown()
        server.server_close()


# --- the token off the command line ---------------------------------------------------------


def _start(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [sys.executable, "-u", str(ROOT / "run.py"), "--port", "0", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )
    assert process.stdout is not None
    for _ in range(20):
        line = process.stdout.readline()
        if "http://127.0.0.1:" in line:
            return process, int(line.split("http://127.0.0.1:")[1].split("/")[0])
    process.kill()
    process.communicate()  # reaps it and closes the pipe
    raise AssertionError("no URL printed")


def _status(port: int, token: str | None) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/snapshot")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as e:
        with e:  # its answer's socket closed now, not whenever the garbage collector runs
            return e.code


@pytest.mark.parametrize("way", ["--token-file", "TOKWATCH_TOKEN"])
def test_a_token_given_where_ps_cannot_show_it(tmp_path: Path, way: str) -> None:
    token = base64.urlsafe_b64encode(os.urandom(18)).decode()
    env = {k: v for k, v in os.environ.items() if k != "TOKWATCH_TOKEN"}
    args = ["--log", str(SAMPLE), "--data-dir", str(tmp_path / "data")]
    if way == "--token-file":
        path = tmp_path / "token"
        path.write_text(token + "\n")
        path.chmod(0o600)
        args += ["--token-file", str(path)]
    else:
        env["TOKWATCH_TOKEN"] = token
    process, port = _start(args, env)
    try:
        assert token not in Path(f"/proc/{process.pid}/cmdline").read_bytes().decode()
        assert _status(port, None) == 401
        assert _status(port, "wrong-token-123") == 401
        assert _status(port, token) == 200
    finally:
        process.terminate()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


def test_token_options_that_cannot_work_are_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "two").write_text("a1234567\nb1234567\n")
    for args in (
        ["--token", "abcdefgh1", "--token-file", str(tmp_path / "two")],
        ["--token-file", str(tmp_path / "two")],
        ["--token-file", str(tmp_path / "missing")],
        ["--port", "65535"],  # the websocket would be port 65536
    ):
        result = subprocess.run(
            [sys.executable, str(ROOT / "run.py"), "--log", str(SAMPLE), *args],
            cwd=ROOT, capture_output=True, text=True, timeout=20, check=False,
        )
        assert result.returncode == 2, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
