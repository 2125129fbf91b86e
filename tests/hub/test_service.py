"""The hub's intake and views on an explicit clock: who may report, what a resend does, offline by time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.hub.report import report_body
from app.hub.service import Hub
from app.hub.store import HubStore

START = 1_796_000_040.0


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def body(machine: str, seq: int, at: float, tph: float | None = 360_000.0, state: str = "training") -> bytes:
    snap: dict[str, Any] = {"status_line": "L1 · 360k tok/h", "state": state, "as_of": at,
                            "rate": {"tokens_per_hour": tph}, "details": ["one", "two"],
                            "events": [{"at": at, "kind": "state", "text": "training"}]}
    return json.dumps(report_body(machine=machine, stream="c" * 16, seq=seq, sent_at=at, interval_seconds=15.0,
                                  snapshot=snap)).encode()


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Hub, Clock, dict[str, str]]:
    clock = Clock()
    store = HubStore(tmp_path / "hub.sqlite3")
    keys = {name: store.enroll(name, START) for name in ("rig-a", "rig-b")}
    return Hub(store, clock=clock), clock, keys


def test_who_may_report(setup: tuple[Hub, Clock, dict[str, str]]) -> None:
    hub, _, keys = setup
    auth_a = f"Bearer {keys['rig-a']}"
    assert hub.take(None, body("rig-a", 1, START))[0] == 401
    assert hub.take("Bearer twk_" + "x" * 43, body("rig-a", 1, START))[0] == 401
    status, answer = hub.take(auth_a, body("rig-b", 1, START))  # a key writes only its own machine
    assert status == 403 and "rig-a" in answer["error"]
    status, answer = hub.take(auth_a, b'{"version": 1}')
    assert status == 400 and answer["error"].startswith("machine")
    assert hub.take(auth_a, body("rig-a", 1, START)) == (200, {"taken": True, "seq": 1})
    assert hub.take(auth_a, body("rig-a", 1, START)) == (200, {"taken": False, "seq": 1})
    hub.store.revoke("rig-a", START + 1)
    assert hub.take(auth_a, body("rig-a", 2, START + 15))[0] == 401


def test_version_moves_on_reports_and_on_going_offline(setup: tuple[Hub, Clock, dict[str, str]]) -> None:
    hub, clock, keys = setup
    v0 = hub.changes.version
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 1, START))
    v1 = hub.changes.version
    assert v1 > v0
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 1, START))  # a resend changes nothing
    assert hub.changes.version == v1
    hub.tick()
    v2 = hub.changes.version
    clock.now = START + 45
    hub.tick()
    assert hub.changes.version == v2  # three reports missed only after 45 s
    assert hub.fleet()["totals"]["online"] == 1
    clock.now = START + 46
    hub.tick()
    assert hub.changes.version > v2
    fleet = hub.fleet()
    assert fleet["totals"]["online"] == 0 and fleet["machines"][0]["status_line"] == "offline"
    assert hub.metric_snapshots() == []


def test_machine_page_and_chart(setup: tuple[Hub, Clock, dict[str, str]]) -> None:
    hub, clock, keys = setup
    auth = f"Bearer {keys['rig-a']}"
    for i in range(10):
        clock.now = START + 60 * i
        hub.take(auth, body("rig-a", i + 1, clock.now, tph=100_000.0 * (i + 1)))
    page = hub.machine("rig-a")
    assert page is not None and page["details"] == ["one", "two"] and page["card"]["online"]
    chart = hub.chart("rig-a", "6h")
    assert chart is not None and len(chart["points"]) == 360
    values = [v for _, v in chart["points"] if v is not None]
    assert values == [100_000.0 * (i + 1) for i in range(10)] and chart["high"] == 1_000_000.0
    assert chart["points"][0][1] is None  # before the first report: a hole, not a zero
    assert len(hub.chart("rig-a", "7d")["points"]) == 336  # type: ignore[index]
    assert hub.chart("rig-a", "1y") is None and hub.chart("nobody", "6h") is None
    clock.now += 3600
    gone = hub.machine("rig-a")
    assert gone is not None and gone["details"] == [] and gone["card"]["status_line"] == "offline"
