"""A hub's ``/metrics`` carries a remote machine's forwards not delivered and its power, as the
machine's own ``/metrics`` does: the figures come from a real miner log (``iota-undelivered.log``:
4 of 12 forwards not delivered in 10 min, peers 5/9 ok) and composed nvidia-smi readings (62 W
mean over the window at 230,400 tok/h → 269.1 Wh per million tokens), reported to a real hub."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.config import Config
from app.hub.agent import for_report
from app.hub.report import report_body
from app.hub.store import HubStore
from app.live.monitor import Monitor
from app.snapshot import to_dict
from app.stats.events import HardwareSample
from app.stats.power import hardware_view
from tests.conftest import RunningServer, start_server
from tests.stats.test_iota_delivery import AT_1030, SOURCE, tracker_of


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[RunningServer, str]]:
    data_dir = tmp_path / "hub"
    store = HubStore(data_dir / "hub.sqlite3")
    key = store.enroll("rig-a", time.time())
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    yield running, key
    running.dashboard.stop()


def test_a_remote_machines_delivery_and_power_reach_the_hubs_metrics(hub: tuple[RunningServer, str]) -> None:
    server, key = hub
    snap = tracker_of("iota-undelivered.log").snapshot(AT_1030, SOURCE)
    samples = [HardwareSample(AT_1030 - 600, 60.0, 70, False), HardwareSample(AT_1030 - 300, 62.0, 71, False),
               HardwareSample(AT_1030, 64.0, 72, True, ("thermal",))]
    snap = replace(snap, hardware=hardware_view(samples, "nvidia-smi", None, snap))
    now = time.time()
    data = for_report({**to_dict(snap), "as_of": now})
    body = report_body(machine="rig-a", stream="a" * 16, seq=1, sent_at=now, interval_seconds=15.0, snapshot=data)
    request = urllib.request.Request(f"{server.http_url}/hub/report", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert json.load(response)["taken"] is True
    with urllib.request.urlopen(f"{server.http_url}/metrics", timeout=5) as response:
        lines = response.read().decode().splitlines()
    values = {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("tokwatch_")}
    assert values['tokwatch_forwards_undelivered{machine="rig-a"}'] == 4.0
    assert values['tokwatch_forwards_undelivered_ratio{machine="rig-a"}'] == pytest.approx(4 / 12, abs=1e-3)
    assert values['tokwatch_peers_ok{machine="rig-a"}'] == 5.0 and values['tokwatch_peers{machine="rig-a"}'] == 9.0
    assert values['tokwatch_power_watts{machine="rig-a"}'] == 64.0
    assert values['tokwatch_temperature_celsius{machine="rig-a"}'] == 72.0
    assert values['tokwatch_throttled{machine="rig-a"}'] == 1.0
    assert values['tokwatch_wh_per_million_tokens{machine="rig-a"}'] == pytest.approx(269.097, abs=1e-3)
    # Bounded labels: the machine only, never a peer's name.
    assert not any("…" in line or "Yp2MnE" in line for line in lines)
