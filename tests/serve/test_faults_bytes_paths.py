"""A log in a folder whose name is not UTF-8 (a vfat or SMB mount, an old archive): everything still works.

The folder is named with the byte 0xff and a Latin-1 "é" (0xe9), the log file too, and the data
dir lives beside it. One such path made every API answer a 500, silenced every alert and
killed the agent; now each path is shown with visible escapes (``\\xff``) wherever it goes.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from app import supervise
from app.config import Config
from app.hub.store import HubStore
from app.live.monitor import Monitor
from app.serve.command import build_recorder
from app.serve.process import Dashboard
from tests.conftest import LogWriter
from tests.receiver import Receiver


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        body = response.read().decode("utf-8")
    return json.loads(body) if body.startswith(("{", "[")) else body


def wait_for(what: str, condition: Any, seconds: float = 40.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {seconds} s")


@pytest.mark.skipif(os.name != "posix", reason="POSIX file names are bytes")
def test_a_folder_named_in_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    folder = tmp_path / os.fsdecode(b"runs-\xff-caf\xe9")
    folder.mkdir()
    log_file = folder / os.fsdecode(b"miner-\xe9.log")
    log_file.write_text("", encoding="utf-8")
    writer = LogWriter(log_file)
    writer.write(writer.registered(1))

    hub_dir = tmp_path / "hub"
    key = HubStore(hub_dir / "hub.sqlite3").enroll("rig-a", time.time())
    hub = Dashboard(Config(log_path=None, hub=True, port=0, data_dir=hub_dir, config_dir=tmp_path / "c1"),
                    Monitor(None))
    receiver = Receiver()
    agent: Dashboard | None = None
    try:
        hub_url = f"http://127.0.0.1:{hub.start().port}"
        config = Config(log_path=folder, port=0, data_dir=folder / "data", config_dir=tmp_path / "c2", name="rig-a",
                        report_to=hub_url, report_key=key, report_interval_seconds=1.0,
                        notify_urls=(receiver.json_url("/notify"),))
        agent = Dashboard(config, Monitor(folder), recorder=build_recorder(config, folder, demo=False))
        base = f"http://127.0.0.1:{agent.start().port}"
        wait_for("the first pass read", lambda: get(f"{base}/api/snapshot")["layer"] == 1)

        snap = get(f"{base}/api/snapshot")
        assert snap["source"]["path"].endswith("/runs-\\xff-caf\\xe9/miner-\\xe9.log")
        assert snap["source"]["following"]["path"] == snap["source"]["path"]
        for path in ("/", "/healthz", "/api/history?range=1h", "/api/history.csv?range=1h", "/metrics"):
            get(f"{base}{path}")

        writer.write(writer.registered(2))  # a layer change: an alert goes out at once
        wait_for("the layer change alert", lambda: any(r.path == "/notify" for r in receiver.received))
        wait_for("the hub hearing the agent", lambda: get(f"{hub_url}/api/fleet/rig-a")["card"]["online"])
        assert get(f"{hub_url}/api/fleet/rig-a")["card"]["layer"] == 2
        assert supervise.problems() == []
        assert get(f"{base}/healthz")["status"] == "ok"
    finally:
        if agent is not None:
            agent.stop()
        hub.stop()
        receiver.close()
