"""The hub's ticker sleeps until a machine is due to go offline or a report comes: it does not poll."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.hub.report import report_body
from app.hub.runtime import TICK_SECONDS, FleetRuntime
from app.hub.service import OFFLINE_MARGIN_SECONDS, PRUNE_EVERY_SECONDS, Hub
from app.hub.store import HubStore

START = 1_796_000_040.0


def body(machine: str, seq: int, at: float, interval_seconds: float) -> bytes:
    snap = {"status_line": "L1 · 360k tok/h", "state": "training", "as_of": at, "rate": {"tokens_per_hour": 360_000.0}}
    return json.dumps(report_body(machine=machine, stream="d" * 16, seq=seq, sent_at=at,
                                  interval_seconds=interval_seconds, snapshot=snap)).encode()


def test_tick_says_when_to_look_again(tmp_path: Path) -> None:
    now = [START]
    store = HubStore(tmp_path / "hub.sqlite3")
    keys = {name: store.enroll(name, START) for name in ("rig-a", "rig-b")}
    hub = Hub(store, clock=lambda: now[0])
    # Nobody online: nothing can go offline; the next look is the prune, an hour away.
    assert hub.tick() == pytest.approx(START + PRUNE_EVERY_SECONDS + OFFLINE_MARGIN_SECONDS)
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 1, START, 15.0))
    now[0] = START + 10
    hub.take(f"Bearer {keys['rig-b']}", body("rig-b", 1, START + 10, 5.0))
    # rig-b misses its three 5-s reports first: online until START + 25, looked at just after.
    assert hub.tick() == pytest.approx(START + 25 + OFFLINE_MARGIN_SECONDS)
    now[0] = START + 25 + OFFLINE_MARGIN_SECONDS
    assert hub.tick() == pytest.approx(START + 45 + OFFLINE_MARGIN_SECONDS)
    assert hub.fleet()["totals"]["online"] == 1
    store.close()


def _wait(what: str, condition: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def test_the_ticker_sleeps_until_a_report_or_a_machine_going_offline(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    store = HubStore(tmp_path / "hub.sqlite3")
    key = store.enroll("rig-a", time.time())
    hub = Hub(store)
    looks: list[float] = []
    tick = hub.tick

    def counted() -> float:
        looks.append(time.monotonic())
        return tick()

    monkeypatch.setattr(hub, "tick", counted)
    runtime = FleetRuntime(hub, None, None)
    runtime.start()
    try:
        _wait("the first look", lambda: len(looks) == 1)
        time.sleep(2.5 * TICK_SECONDS)
        assert len(looks) == 1  # nobody online: a ticker that polled would have looked twice more
        # A report wakes it (at most a TICK_SECONDS after its last look); the machine's three
        # 0.1-s intervals later it is offline, seen by the look slept until then.
        assert hub.take(f"Bearer {key}", body("rig-a", 1, time.time(), 0.1))[0] == 200
        _wait("a look after the report", lambda: len(looks) >= 2)
        _wait("the machine shown offline", lambda: hub.fleet()["totals"]["online"] == 0, 3 * TICK_SECONDS)
        # The fleet reads offline by the clock; the ticker's own look at that moment may follow it.
        time.sleep(TICK_SECONDS)
        settled = len(looks)
        assert settled <= 4
        time.sleep(2.5 * TICK_SECONDS)
        assert len(looks) == settled  # offline again, nothing due: asleep
        stopping = time.monotonic()
    finally:
        runtime.stop()
    assert time.monotonic() - stopping < TICK_SECONDS  # stop() wakes it
