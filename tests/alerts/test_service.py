"""The alert service end to end: snapshots in, messages at a real receiver, status without URLs."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app.alerts import AlertService, AlertSettings, Delivery, Heartbeat
from tests.alerts.test_book import MIN, T0, hm, snap
from tests.receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def test_idle_and_back_reach_the_receiver_with_their_texts(receiver: Receiver) -> None:
    url = receiver.json_url("/hooks/t0ps3cret")
    service = AlertService(AlertSettings(), name="rig-7", dashboard_url="http://127.0.0.1:8765/",
                           delivery=Delivery([url], retry_delays_seconds=(0.05,)))
    service.delivery.start()  # type: ignore[union-attr]
    try:
        last_pass = T0 - 2 * MIN
        service.observe(snap("training", T0 - 3 * MIN, since=T0 - 3600, status_line="L1 · 358k tok/h"))
        for s in range(0, 9 * 60, 30):
            service.observe(snap("idle", T0 + s, since=last_pass, rate={"last_pass_at": last_pass},
                                 status_line="L1 · 0 tok/h"))
        assert receiver.received == []
        service.observe(snap("idle", T0 + 8 * MIN, since=last_pass, rate={"last_pass_at": last_pass},
                             status_line="L1 · 0 tok/h"))
        opened = receiver.wait_for(1)[0].json
        assert opened["title"] == "rig-7: idle"
        assert opened["message"] == (f"L1 · 0 tok/h\nIdle: no pass since {hm(last_pass)}.\n"
                                     f"Since {hm(last_pass)} (10 min).\nhttp://127.0.0.1:8765/")
        assert opened["type"] == "warning"
        status = service.status()
        assert status["active"] == [{"rule": "idle", "since": last_pass,
                                     "text": f"Idle: no pass since {hm(last_pass)}"}]
        back = T0 + 40 * MIN
        service.observe(snap("training", back + 5, since=back, status_line="L1 · 301k tok/h"))
        resolved = receiver.wait_for(2)[1].json
        assert resolved["title"] == "rig-7: training"
        assert resolved["message"] == (f"L1 · 301k tok/h\nIdle resolved after 42 min (since {hm(last_pass)}).\n"
                                       "http://127.0.0.1:8765/")
        assert resolved["type"] == "success"
        deadline = time.monotonic() + 5
        while service.status()["last_sent_at"] is None and time.monotonic() < deadline:
            time.sleep(0.02)
        status = service.status()
        assert status["active"] == []
        assert [(m["kind"], m["title"], m["text"]) for m in status["recent"]] == [
            ("resolved", "rig-7: training", "Idle resolved after 42 min"),
            ("opened", "rig-7: idle", f"Idle: no pass since {hm(last_pass)}"),
        ]
        assert status["recent"][0]["id"] > status["recent"][1]["id"]
        assert status["targets"] == ["#1 json://…"] and status["failures"] == 0 and status["problem"] is None
        text = json.dumps(status) + json.dumps(service.health())
        assert "t0ps3cret" not in text and str(receiver.port) not in text
    finally:
        service.stop()


def test_without_channels_the_rules_still_run_for_the_page() -> None:
    service = AlertService(AlertSettings(), name="rig-7")
    messages = service.observe(snap("diverged", T0, since=T0 - 5, layer=None,
                                    training={"step": 12, "loss_note": "loss is NaN"}))
    assert [(m.title, m.summary) for m in messages] == [("rig-7: diverged", "Diverged: loss is NaN at step 12")]
    status = service.status()
    assert status["targets"] == [] and status["last_sent_at"] is None and status["heartbeat"] is None
    assert [a["rule"] for a in status["active"]] == ["diverged"]
    assert service.health() == {"targets": 0, "failures": 0, "heartbeat_failures": 0, "problem": None}


def test_the_heartbeat_follows_the_state(receiver: Receiver) -> None:
    beat = Heartbeat(receiver.http_url("/push"), interval_seconds=60)
    service = AlertService(AlertSettings(), name="rig-7", heartbeat=beat)
    beat.start()
    try:
        service.observe(snap("queued", T0))
        time.sleep(0.3)
        assert receiver.received == []
        service.observe(snap("training", T0 + 5))
        assert receiver.wait_for(1)[0].path == "/push"
        assert service.status()["heartbeat"]["sending"] is True
        service.observe(snap("stalled", T0 + 10))
        assert service.status()["heartbeat"]["sending"] is False
    finally:
        service.stop()


def test_the_watching_thread_reads_the_source_and_survives_a_bad_snapshot() -> None:
    snapshots: list[dict[str, Any]] = [
        {"state": "training", "as_of": T0},
        {"state": "idle", "as_of": T0 + 1, "state_since": "not a time", "rate": None},
        snap("idle", T0 + 2, since=T0 - 3600),
    ]
    version = 0
    changed = threading.Condition()
    served: list[dict[str, Any]] = []

    def source() -> dict[str, Any]:
        s = snapshots[min(len(served), len(snapshots) - 1)]
        served.append(s)
        return s

    def wait_for_change(since: int, timeout: float) -> int:
        with changed:
            changed.wait_for(lambda: version != since, timeout=min(timeout, 0.05))
            return version + len(served)

    service = AlertService(AlertSettings(), name="rig-7")
    service.start(source, wait_for_change)
    try:
        deadline = time.monotonic() + 10
        while not service.status()["active"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [a["rule"] for a in service.status()["active"]] == ["idle"]
    finally:
        service.stop()


def test_stop_cuts_the_quiet_wait_short_and_ends_every_thread(receiver: Receiver, tmp_path: Any) -> None:
    from app.live.monitor import Monitor

    log = tmp_path / "miner.log"
    log.write_text("")
    monitor = Monitor(log)  # never started: a quiet log
    delivery = Delivery([receiver.json_url("/notify")])
    service = AlertService(AlertSettings(), name="rig-7", delivery=delivery)
    service.start(lambda: {"state": "training", "as_of": T0}, monitor.wait_for_change, monitor.touch,
                  interrupt=monitor.interrupt)
    time.sleep(1.5)  # past the first look: asleep in the quiet wait, its worker on an empty queue
    started = time.monotonic()
    service.stop()
    assert time.monotonic() - started < 1.5
    assert service._thread is not None and not service._thread.is_alive()
    assert not any(t.name.startswith("tokwatch-notify") and t.is_alive() for t in threading.enumerate())
