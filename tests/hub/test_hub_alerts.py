"""The hub tells what a dead machine cannot: offline and back, to a real local receiver.

``run.py --hub --notify json://127.0.0.1:PORT/`` with one enrolled machine whose reports (every
second, as its agent's --report-every 1 would send them) carry the snapshot of a composed
training log; then the reports stop, then come back.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.alerts import delivery as delivery_module
from app.config import Config
from app.config.alerts import AlertSettings
from app.hub.alerts import HubAlerts
from app.hub.report import report_body
from app.hub.store import HubStore, MachineRow
from app.live.monitor import Monitor
from app.text import clock_time
from tests.conftest import LogWriter, start_server
from tests.hub import test_fleet_truth as truth
from tests.hub.test_e2e import start
from tests.hub.test_fleet_truth import compose, snapshot_of
from tests.receiver import Receiver

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def post(url: str, key: str, seq: int, snap: dict[str, Any]) -> int:
    """Send ``snap`` as a live agent would: made the moment it is sent."""
    now = time.time()
    body = report_body(machine="rig-a", stream="c" * 16, seq=seq, sent_at=now, interval_seconds=1.0,
                       snapshot={**snap, "as_of": now})
    request = urllib.request.Request(f"{url}/hub/report", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(response.status)


def test_a_machine_offline_and_back_is_told_by_the_hub(tmp_path: Path, receiver: Receiver) -> None:
    hub_home = tmp_path / "hub"
    store = HubStore(hub_home / "data" / "tokwatch" / "hub.sqlite3")
    key = store.enroll("rig-a", time.time())
    store.close()
    # A miner registered in layer 1 30 min ago, a pass every 15 s up to now: 80 passes in the
    # last 20 minutes → 240/h × 3200 = 768k tok/h (tests/hub/test_fleet_truth.py works it out).
    log = tmp_path / "rig-a.log"
    compose(log, passes_until=truth.T)
    snap = snapshot_of(log, truth.T)
    assert (snap["state"], snap["status_line"]) == ("training", "L1 · 768k tok/h")

    hub = start(hub_home, "--hub", "--notify", receiver.json_url("/"))
    try:
        assert post(hub.url, key, 1, snap) == 200
        last_report = time.time()
        # No report for 3 intervals (3 s): offline, told once, and the first thing told (training
        # and reporting, there was nothing to tell before).
        opened = receiver.wait_for(1, timeout=20)[0]
        assert opened.at - last_report >= 3.0
        message = opened.json
        assert message["title"] == "rig-a: offline"
        assert message["type"] == "failure"
        status, what = message["message"].splitlines()[:2]
        assert status == "offline (last: L1 · 768k tok/h)"
        # "no report since" says since when; the sentence adds how long, as every opened alert does.
        assert what.startswith(f"Offline: no report since {clock_time(last_report, time.time())} (")
        time.sleep(6)
        assert len(receiver.received) == 1  # not again while it stays offline

        # Back: the next report resolves it, once.
        assert post(hub.url, key, 2, snap) == 200
        resolved = receiver.wait_for(2, timeout=20)[1].json
        assert resolved["title"] == "rig-a: training"
        assert resolved["type"] == "success"
        assert resolved["message"].splitlines()[1].startswith("Offline resolved after ")
        time.sleep(3)
        assert len(receiver.received) == 2
    finally:
        hub.kill()
    assert key not in hub.stderr_path.read_text()


def test_each_machines_own_state_changes_are_told_once_with_its_name(tmp_path: Path) -> None:

    # idle: passes until R + 900 then only heartbeats: idle since its last pass, 15 min before T,
    # past the idle rule's 10-minute hold → told at the first look. trainer: nothing to tell.
    compose(tmp_path / "idle.log", passes_until=truth.R + 900)
    compose(tmp_path / "trainer.log", passes_until=truth.T)
    rows = [MachineRow(name, truth.R, truth.T, 15.0, snapshot_of(tmp_path / f"{name}.log", truth.T))
            for name in ("idle", "trainer")]
    alerts = HubAlerts(AlertSettings(), delivery=None, dashboard_url="http://hub.lan:8765/")
    told = alerts.check(rows, truth.T)
    assert [(m.title, m.kind) for m in told] == [("idle: idle", "opened")]
    assert told[0].summary == f"Idle: no pass since {clock_time(truth.R + 900, truth.T)}"
    assert told[0].body.splitlines()[-1] == "http://hub.lan:8765/fleet/idle"
    assert alerts.check(rows, truth.T + 5) == []  # one message per machine and condition
    # The idle machine's passes come back: resolved, with the rate being measured afresh.
    back = tmp_path / "idle.log"
    with back.open("a") as f:

        writer = LogWriter(back)
        writer.passes = 10_000  # a new activation id
        f.write("".join(line + "\n" for line in writer.forward(1, truth.T + 2)))
    rows[0] = MachineRow("idle", truth.R, truth.T + 3, 15.0, snapshot_of(back, truth.T + 3))
    resolved = alerts.check(rows, truth.T + 3)
    assert [(m.title, m.kind) for m in resolved] == [("idle: measuring", "resolved")]
    assert resolved[0].summary == ("Idle resolved after 15 min · rate being measured "
                                   "(1 pass so far; was 768k tok/h)")


def test_the_hubs_own_alerts_failing_to_get_out_show_on_the_fleet_page(
    tmp_path: Path, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setattr(delivery_module, "RETRY_DELAYS_SECONDS", (0.05, 0.1))  # three tries in a moment
    failing = Receiver("fail")
    data_dir = tmp_path / "data"
    store = HubStore(data_dir / "hub.sqlite3")
    key = store.enroll("rig-a", time.time())
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config",
                    notify_urls=(failing.json_url("/secret-hook"),))
    running = start_server(config, Monitor(None))
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{running.http_url}/fleet")
        expect(page.locator("#connection")).to_have_text("live")
        expect(page.locator("#alerts-problem")).to_be_hidden()  # nothing sent yet, nothing failed
        # One report due every second, then none: offline after three seconds, told to a URL that answers 500.
        snap = {"status_line": "L1 · 768k tok/h", "state": "training", "layer": 1, "as_of": time.time(),
                "rate": {"measured": True, "tokens_per_hour": 768_000.0}, "details": []}
        assert post(running.http_url, key, 1, snap) == 200
        tries = failing.wait_for(3, timeout=20)
        assert [r.json["title"] for r in tries] == ["rig-a: offline"] * 3
        problem = page.locator("#alerts-problem")
        expect(problem).to_be_visible(timeout=10_000)  # pushed: the page was not reloaded
        expect(problem).to_contain_text("alert not delivered", timeout=10_000)  # the retries are over
        text = problem.inner_text()
        assert text.startswith("1 alert not delivered; last: #1 json://… at "), text
        assert text.endswith("(3 tries)"), text
        assert "secret-hook" not in text and str(failing.port) not in text
        with urllib.request.urlopen(f"{running.http_url}/api/fleet", timeout=5) as response:
            assert json.load(response)["alerts_problem"] == text
        with urllib.request.urlopen(f"{running.http_url}/healthz", timeout=5) as response:
            assert json.load(response)["hub"]["alerts_problem"] == text  # for a script watching the hub
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "fleet-alerts-problem-phone-light.png"), full_page=True)
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=str(ARTIFACTS / "fleet-alerts-problem-phone-dark.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
        running.dashboard.stop()
        failing.close()


def test_an_idle_machine_gone_offline_gets_no_success_for_its_idle(tmp_path: Path) -> None:
    # Idle (told at the first look), then its reports stop: the idle condition ends into offline, a
    # worse state: no "Idle resolved" success, a line of the offline message instead.
    compose(tmp_path / "idle.log", passes_until=truth.R + 900)
    snap = snapshot_of(tmp_path / "idle.log", truth.T)
    alerts = HubAlerts(AlertSettings(), delivery=None)
    assert [m.kind for m in alerts.check([MachineRow("rig-i", truth.R, truth.T, 15.0, snap)], truth.T)] == ["opened"]
    gone = alerts.check([MachineRow("rig-i", truth.R, truth.T, 15.0, snap)], truth.T + 60)
    assert [(m.title, m.kind, m.level) for m in gone] == [("rig-i: offline", "opened", "problem")]
    assert any(line.startswith("Before it: idle for ") for line in gone[0].body.splitlines())
