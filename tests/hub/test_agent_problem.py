"""An agent whose hub cannot be reached, or refuses its key, says so on its own page and /healthz."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

from app.hub.store import HubStore
from tests.alerts.test_cli import get
from tests.conftest import LogWriter
from tests.hub.test_e2e import start
from tests.web.test_serve import start_run_py

KEY = "twk_" + "A" * 43


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when the block ends: nobody listens there


def wait_for_problem(base: str, words: str, timeout: float = 20.0) -> tuple[dict[str, Any], dict[str, Any]]:
    deadline = time.monotonic() + timeout
    health: dict[str, Any] = {}
    while time.monotonic() < deadline:
        health = get(f"{base}/healthz")
        if words in (health.get("alerts", {}).get("problem") or ""):
            return health, get(f"{base}/api/snapshot")
        time.sleep(0.3)
    raise AssertionError(f"no {words!r} in /healthz: {health}")


def test_an_unreachable_hub_shows_on_the_agents_page_and_healthz(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    writer = LogWriter(log)
    writer.write(writer.registered(1))
    port = closed_port()
    running = start_run_py(tmp_path, "--log", str(log), "--report-to", f"http://127.0.0.1:{port}",
                           "--report-key", KEY, "--name", "rig-a", "--report-every", "1")
    try:
        base = f"http://127.0.0.1:{running.http_port}"
        health, snap = wait_for_problem(base, "hub unreachable")
        assert f"127.0.0.1:{port}" in health["alerts"]["problem"]
        assert "hub unreachable" in snap["alerts"]["problem"]  # the page shows alerts.problem
        assert KEY not in str(health) and KEY not in str(snap)
    finally:
        running.stop()


def test_a_hub_that_refuses_the_key_shows_on_the_agents_page(tmp_path: Path) -> None:
    hub_home = tmp_path / "hub"
    store = HubStore(hub_home / "data" / "tokwatch" / "hub.sqlite3")
    store.enroll("rig-a", time.time())  # a key the agent does not have
    store.close()
    hub = start(hub_home, "--hub")
    log = tmp_path / "miner.log"
    writer = LogWriter(log)
    writer.write(writer.registered(1))
    running = start_run_py(tmp_path / "agent", "--log", str(log), "--report-to", hub.url,
                           "--report-key", KEY, "--name", "rig-a", "--report-every", "1")
    try:
        base = f"http://127.0.0.1:{running.http_port}"
        health, _ = wait_for_problem(base, "refuses this machine's report key")
        assert "enrol this machine again on the hub" in health["alerts"]["problem"]
        # Not "ok" with no problems: the machine is off the fleet until the key is fixed.
        assert health["status"] == "degraded"
        assert "refuses this machine's report key" in health["report"]["problem"]
        assert any("refuses this machine's report key" in p for p in health["problems"])
        assert KEY not in str(health)
    finally:
        running.stop()
        hub.kill()
