"""The fleet's websocket under the same rules as /ws: it stays open, counts toward the cap, refuses a bad handshake.

Every /ws/fleet connection used to be cut after exactly 10 s (its handshake was never
accepted, so the pending-handshake deadline closed it): the fleet page flapped between live
and polling all day, and the 33rd page got no 503. A request without Sec-WebSocket-Key gave a
500 and a traceback. (The fix is the shared websocket session helper; these tests hold it.)
"""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.config import MAX_WS_CLIENTS, Config
from app.live.monitor import Monitor
from tests.conftest import RunningServer, start_server
from tests.web.test_ws import WsClient

SHARED_HELPER = "the fleet websocket goes through the shared websocket session helper"


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[RunningServer]:
    config = Config(log_path=None, port=0, hub=True, data_dir=tmp_path / "data", config_dir=tmp_path / "config",
                    keepalive_seconds=5.0)
    running = start_server(config, Monitor(None))
    yield running
    running.dashboard.stop()


def fleet_url(server: RunningServer) -> str:
    return f"ws://127.0.0.1:{server.config.effective_ws_port}/ws/fleet"


def handshake_status(server: RunningServer, *, key: bool = True) -> int:
    """The status line's code of a hand-made /ws/fleet handshake."""
    port = server.config.effective_ws_port
    lines = ["GET /ws/fleet HTTP/1.1", f"Host: 127.0.0.1:{port}", f"Origin: {server.origin}",
             "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13"]
    if key:
        lines.append(f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = sock.recv(4096).decode("latin-1")
    return int(head.split(" ", 2)[1])


def test_a_fleet_websocket_stays_open_past_many_handshake_deadlines(tmp_path: Path) -> None:
    # The cut came at the pending-handshake deadline: with it at 0.5 s, 5 s open is ten of them.
    config = Config(log_path=None, port=0, hub=True, data_dir=tmp_path / "data", config_dir=tmp_path / "config",
                    keepalive_seconds=0.5, handshake_timeout_seconds=0.5)
    hub = start_server(config, Monitor(None))
    client = WsClient(fleet_url(hub), headers={"Origin": hub.origin})
    try:
        first = client.receive(5)
        assert first is not None and "machines" in json.loads(first)
        started = time.monotonic()
        while time.monotonic() - started < 5:
            message = client.receive(5)  # a keepalive every 0.5 s at least
            assert message is not None and client.connected, f"cut after {time.monotonic() - started:.1f} s"
    finally:
        client.close()
        hub.dashboard.stop()


def test_the_33rd_fleet_page_gets_a_503(hub: RunningServer) -> None:
    clients = []
    try:
        for _ in range(MAX_WS_CLIENTS):
            client = WsClient(fleet_url(hub), headers={"Origin": hub.origin})
            assert client.receive(5) is not None
            clients.append(client)
        assert handshake_status(hub) == 503
    finally:
        for client in clients:
            client.close()


def test_a_fleet_handshake_without_its_key_is_a_400(hub: RunningServer) -> None:
    assert handshake_status(hub, key=False) == 400
    assert handshake_status(hub) == 101  # the server is fine
