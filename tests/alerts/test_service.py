"""The alert service end to end: snapshots in, messages at a real receiver, status without URLs."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from app.alerts import AlertService, AlertSettings, Delivery, Heartbeat
from app.changes import Changes
from app.live.feed import LiveFeed
from app.live.monitor import Monitor
from app.snapshot import Snapshot
from app.states import STATE_EXPLANATIONS
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
        assert opened["message"] == (f"L1 · 0 tok/h\nIdle: no pass since {hm(last_pass)} (10 min).\n"
                                     f"{STATE_EXPLANATIONS['idle']}")
        assert opened["type"] == "warning"
        status = service.status()
        assert status["active"] == [{"rule": "idle", "since": last_pass,
                                     "text": f"Idle: no pass since {hm(last_pass)}"}]
        back = T0 + 40 * MIN
        service.observe(snap("training", back + 5, since=back, status_line="L1 · 301k tok/h"))
        resolved = receiver.wait_for(2)[1].json
        assert resolved["title"] == "rig-7: training"
        assert resolved["message"] == f"L1 · 301k tok/h\nIdle resolved after 42 min (since {hm(last_pass)})."
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


class Feed:
    """A live feed that hands out the given snapshots in turn (an exception: one that cannot be read)."""

    def __init__(self, snapshots: list[Snapshot | Exception]) -> None:
        self.snapshots = snapshots
        self.served = 0
        self.changes = Changes()
        self.section_changes = 0

    @property
    def version(self) -> int:
        return self.changes.version

    def wait_for_change(self, since: int, timeout: float) -> int:
        self.changes.wait_for_change(since, min(timeout, 0.05))
        return since + 1  # every look finds a change: the next snapshot

    def interrupt(self) -> None:
        self.changes.interrupt()

    def section_changed(self) -> None:
        self.section_changes += 1

    def snapshot(self) -> Snapshot:
        item = self.snapshots[min(self.served, len(self.snapshots) - 1)]
        self.served += 1
        if isinstance(item, Exception):
            raise item
        return item


def test_the_watching_thread_reads_the_source_and_survives_a_bad_snapshot() -> None:
    base = Monitor(None).snapshot(T0)
    source = Feed([
        replace(base, state="training", as_of=T0),
        ValueError("a snapshot that cannot be read"),
        replace(base, state="idle", as_of=T0 + 2, state_since=T0 - 3600),
    ])
    service = AlertService(AlertSettings(), name="rig-7")
    service.start(source)
    try:
        deadline = time.monotonic() + 10
        while not service.status()["active"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [a["rule"] for a in service.status()["active"]] == ["idle"]
        assert source.section_changes >= 1  # the opened alert is the alerts' section changing
    finally:
        service.stop()


def test_stop_cuts_the_quiet_wait_short_and_ends_every_thread(receiver: Receiver, tmp_path: Any) -> None:
    log = tmp_path / "miner.log"
    log.write_text("")
    feed = LiveFeed(Monitor(log))  # never started: a quiet log
    delivery = Delivery([receiver.json_url("/notify")])
    service = AlertService(AlertSettings(), name="rig-7", delivery=delivery)
    service.start(feed)
    time.sleep(1.5)  # past the first look: asleep in the quiet wait, its worker on an empty queue
    started = time.monotonic()
    service.stop()
    assert time.monotonic() - started < 1.5
    assert service._thread is not None and not service._thread.is_alive()
    assert not any(t.name.startswith("tokwatch-notify") and t.is_alive() for t in threading.enumerate())
