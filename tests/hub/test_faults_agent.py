"""The agent under faults: a redirect in front of the hub, an answer that is not the hub's, a receiver
that trickles bytes, two agents on one data dir, a spool of large reports, agents back in step."""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.hub.agent import SEND_TIMEOUT_SECONDS, Agent
from app.hub.runtime import FleetError, FleetRuntime
from app.hub.spool import Spool
from app.live.feed import LiveFeed
from app.live.monitor import Monitor
from tests.receiver import Receiver

KEY = "twk_" + "k" * 43
NOW = 1_796_000_040.0


class Scripted:
    """An HTTP server whose every answer is (status, headers, body, seconds between bytes)."""

    def __init__(self, status: int = 200, headers: dict[str, str] | None = None, body: bytes = b"{}",
                 trickle_seconds: float = 0.0) -> None:
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        scripted = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                scripted.requests.append((self.command, self.path, dict(self.headers)))
                if trickle_seconds:
                    # A status line and headers one byte at a time: each read is quick, the whole never ends.
                    for byte in b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: " + b"x" * 200:
                        try:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                        except OSError:
                            return
                        time.sleep(trickle_seconds)
                    return
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def servers() -> Iterator[list[Scripted]]:
    made: list[Scripted] = []
    yield made
    for server in made:
        server.close()


def agent(tmp_path: Path, url: str) -> Agent:
    return Agent(url=url, key=KEY, machine="rig-a", spool=Spool(tmp_path / "spool-rig-a.sqlite3"),
                 source=LiveFeed(Monitor(None)),
                 interval_seconds=15.0, clock=lambda: NOW)


def snap(i: int) -> dict[str, Any]:
    return {"status_line": f"r{i}", "state": "training", "as_of": NOW + 15 * i}


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_is_not_followed_with_the_key_and_the_report_is_kept(
    code: int, tmp_path: Path, servers: list[Scripted], caplog: pytest.LogCaptureFixture,
) -> None:
    elsewhere = Scripted(body=b'{"taken": true}')
    front = Scripted(status=code, headers={"Location": f"{elsewhere.url}/hub/report"})
    servers += [elsewhere, front]
    sender = agent(tmp_path, front.url)
    sender.take(snap(0))
    with caplog.at_level(logging.WARNING):
        assert not sender.flush()
    assert elsewhere.requests == []  # the key never went there
    assert sender.spool.count() == 1
    assert f"redirects (HTTP {code}) to {elsewhere.url}/hub/report" in caplog.text
    assert KEY not in caplog.text


def test_an_answer_that_is_not_the_hub_keeps_the_report(tmp_path: Path, servers: list[Scripted]) -> None:
    portal = Scripted(body=b"<html>Welcome to the hotel Wi-Fi</html>")
    servers.append(portal)
    sender = agent(tmp_path, portal.url)
    sender.take(snap(0))
    assert not sender.flush()
    assert sender.spool.count() == 1


@pytest.mark.parametrize(("code", "page"), [
    (400, b"<html><title>400 The plain HTTP request was sent to HTTPS port</title></html>"),  # nginx's TLS port
    (403, b"<html>Access denied by proxy policy</html>"),
    (413, b"<html>413 Request Entity Too Large</html>"),
])
def test_a_refusal_that_is_not_the_hub_keeps_the_spool(
    code: int, page: bytes, tmp_path: Path, servers: list[Scripted], caplog: pytest.LogCaptureFixture,
) -> None:
    """A proxy's or a TLS port's 4xx page emptied the whole spool, one request a report, and read as reachable."""
    front = Scripted(status=code, headers={"Content-Type": "text/html"}, body=page)
    servers.append(front)
    sender = agent(tmp_path, front.url)
    for i in range(20):
        sender.take(snap(i))
    with caplog.at_level(logging.WARNING):
        assert not sender.flush()
    assert sender.spool.count() == 20 and len(front.requests) == 1
    assert sender.problem is not None and f"(HTTP {code}) is not a tokwatch hub's" in sender.problem


def test_the_hub_own_refusal_drops_only_that_report(tmp_path: Path, servers: list[Scripted]) -> None:
    hub = Scripted(status=400, headers={"Content-Type": "application/json"},
                   body=b'{"error":"snapshot: expected an object, got null"}')
    servers.append(hub)
    sender = agent(tmp_path, hub.url)
    sender.take(snap(0))
    sender.flush()
    assert sender.spool.count() == 0 and len(hub.requests) == 1


def test_a_trickling_hub_holds_the_agent_no_longer_than_its_deadline(tmp_path: Path, servers: list[Scripted]) -> None:
    slow = Scripted(trickle_seconds=0.2)  # a byte every 0.2 s: under any read timeout, 40 s in all
    servers.append(slow)
    sender = agent(tmp_path, slow.url)
    sender.take(snap(0))
    started = time.monotonic()
    assert not sender.flush()
    assert time.monotonic() - started < SEND_TIMEOUT_SECONDS + 2
    assert sender.spool.count() == 1


def test_a_trickling_receiver_holds_a_heartbeat_no_longer_than_its_deadline(servers: list[Scripted]) -> None:
    from app.alerts.heartbeat import ping

    slow = Scripted(trickle_seconds=0.2)
    servers.append(slow)
    started = time.monotonic()
    reason = ping(f"{slow.url}/ping", 3.0)
    assert reason is not None and "timed out" in reason
    assert time.monotonic() - started < 5


def test_a_trickling_receiver_holds_a_notification_no_longer_than_its_deadline(
    servers: list[Scripted], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.alerts import delivery
    from app.alerts.message import trial_message

    monkeypatch.setattr(delivery, "SEND_DEADLINE_SECONDS", 3.0)
    import apprise

    apprise.Apprise.instantiate("json://127.0.0.1:9/")  # its plugins load before the clock starts
    slow = Scripted(trickle_seconds=0.2)
    servers.append(slow)
    started = time.monotonic()
    reason = delivery.send_once(f"json://127.0.0.1:{slow.url.rsplit(':', 1)[1]}/", trial_message(name="rig-a", dashboard_url=None, now=NOW))
    assert reason is not None
    assert time.monotonic() - started < delivery.SEND_DEADLINE_SECONDS + 2


def test_two_agents_under_one_name_on_one_data_dir_are_refused_naming_the_other(tmp_path: Path) -> None:
    config = Config(port=0, data_dir=tmp_path, report_to="http://127.0.0.1:9", report_key=KEY, name="rig-a")
    first = FleetRuntime.open(config, LiveFeed(Monitor(None)))
    try:
        with pytest.raises(FleetError, match=rf"pid {os.getpid()}.*--name.*--data-dir"):
            FleetRuntime.open(config, LiveFeed(Monitor(None)))
    finally:
        first.stop()


def test_two_agents_under_two_names_share_a_data_dir_safely(tmp_path: Path) -> None:
    runtimes = [
        FleetRuntime.open(Config(port=0, data_dir=tmp_path, report_to="http://127.0.0.1:9", report_key=KEY,
                                 name=name), LiveFeed(Monitor(None)))
        for name in ("gpu0", "gpu1")
    ]
    try:
        agents = [runtime.agent for runtime in runtimes]
        assert all(a is not None for a in agents)
        for a in agents:
            assert a is not None
            for i in range(3):
                a.take(snap(i))
        spools = [a.spool for a in agents if a is not None]
        assert spools[0].stream != spools[1].stream and [s.count() for s in spools] == [3, 3]
        assert [json.loads(b)["machine"] for _, b in spools[1].pending()] == ["gpu1"] * 3
    finally:
        for runtime in runtimes:
            runtime.stop()


def test_an_old_shared_spool_is_taken_over_once(tmp_path: Path) -> None:
    old = Spool(tmp_path / "spool.sqlite3")
    for i in range(2):
        old.add(machine="rig-a", snapshot=snap(i), sent_at=NOW, interval_seconds=15.0)
    old.close()
    config = Config(port=0, data_dir=tmp_path, report_to="http://127.0.0.1:9", report_key=KEY, name="rig-a")
    runtime = FleetRuntime.open(config, LiveFeed(Monitor(None)))
    try:
        assert runtime.agent is not None and runtime.agent.spool.count() == 2
        assert not (tmp_path / "spool.sqlite3").exists()
    finally:
        runtime.stop()


def test_the_spool_is_bounded_in_bytes(tmp_path: Path) -> None:
    """A week of large reports (14 kB each: long details) used to take 165 MB; now at most max_bytes."""
    spool = Spool(tmp_path / "spool-rig-a.sqlite3", max_bytes=2 << 20)
    big = {**snap(0), "details": ["x" * 290] * 45}
    for i in range(400):
        spool.add(machine="rig-a", snapshot={**big, "as_of": NOW + 60 * i}, sent_at=NOW, interval_seconds=15.0)
    waiting = spool.pending(1000)
    assert sum(len(body.encode()) for _, body in waiting) <= 2 << 20
    assert waiting[-1][0] == 400 and len(waiting) > 100  # the newest kept, only the oldest gone


def test_agents_back_from_an_outage_are_out_of_step() -> None:
    from app.hub.agent import retry_delay

    rng = random.Random(7)
    waits = [retry_delay(8.0, rng) for _ in range(150)]
    assert all(4.0 <= w <= 8.0 for w in waits)
    assert max(waits) - min(waits) > 3.0  # spread over the window, not all at once


def test_the_agent_thread_survives_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spool that cannot be written (the GPU box filled with checkpoints) ends no thread."""
    from app import supervise

    monkeypatch.setattr(supervise, "FIRST_BACKOFF_SECONDS", 0.05)
    receiver = Receiver()
    try:
        sender = agent(tmp_path, receiver.http_url("/").rstrip("/"))
        calls: list[int] = []
        original = sender.spool.add

        def full(*args: Any, **kwargs: Any) -> int:
            calls.append(1)
            if len(calls) <= 2:
                raise OSError(28, "No space left on device")
            return original(*args, **kwargs)

        monkeypatch.setattr(sender.spool, "add", full)
        sender.start()
        try:
            deadline = time.monotonic() + 10
            while not [r for r in receiver.received if r.path == "/hub/report"] and time.monotonic() < deadline:
                time.sleep(0.05)
            assert [r for r in receiver.received if r.path == "/hub/report"], "the agent never reported"
        finally:
            sender.stop()
    finally:
        receiver.close()


def test_a_report_with_long_lines_fits_the_hub_cap() -> None:
    """Forty 900-character detail lines (long eval names) made a 36 kB report: refused whole (413)."""
    from app.hub.agent import for_report
    from app.hub.report import MAX_REPORT_BYTES, parse_report, report_body

    long_snap = {**snap(0), "details": ["eval " + "é" * 895] * 40}
    data = for_report(long_snap)
    body = json.dumps(report_body(machine="rig-a", stream="a" * 16, seq=1, sent_at=NOW, interval_seconds=15.0,
                                  snapshot=data), ensure_ascii=False).encode()  # as the spool keeps it
    assert len(body) <= MAX_REPORT_BYTES
    assert len(parse_report(body).snapshot["details"]) == 40
