"""The hub's own clock decides: a wrong agent clock, a second stream, a flood from one key.

Each test is a break found by an attack on the hub (an agent's clock a day ahead, a resend
from an older stream, one key writing as fast as it can); the figures expected are worked out
from the scenario, never read back from the code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.hub import service as hub_service
from app.hub import store as hub_store
from app.hub.report import report_body
from app.hub.service import Hub
from app.hub.store import HubStore
from tests.conftest import web_app

START = 1_796_000_040.0  # 2026-11-30, a minute boundary
DAY = 86400.0


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def body(seq: int, as_of: float, *, state: str = "training", tph: float | None = 358_000.0,
         stream: str = "c" * 16, sent_at: float | None = None, machine: str = "rig-a") -> bytes:
    snap: dict[str, Any] = {"status_line": f"{state}", "state": state, "as_of": as_of,
                            "rate": {"tokens_per_hour": tph}, "details": []}
    return json.dumps(report_body(machine=machine, stream=stream, seq=seq,
                                  sent_at=as_of if sent_at is None else sent_at,
                                  interval_seconds=15.0, snapshot=snap)).encode()


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Hub, Clock, str]:
    clock = Clock()
    store = HubStore(tmp_path / "hub.sqlite3")
    key = store.enroll("rig-a", START)
    return Hub(store, clock=clock), clock, f"Bearer {key}"


def test_a_report_from_a_clock_a_day_ahead_does_not_freeze_the_card(setup: tuple[Hub, Clock, str]) -> None:
    hub, clock, auth = setup
    assert hub.take(auth, body(1, START + DAY, tph=747_000.0))[0] == 200  # the RTC a day ahead
    clock.now = START + 15
    assert hub.take(auth, body(2, START + 15, state="queued", tph=None))[1]["taken"]  # clock fixed (NTP)
    card = hub.fleet()["machines"][0]
    assert (card["state"], card["tokens_per_hour"]) == ("queued", None)
    assert hub.metric_snapshots()[0][1].state == "queued"


def test_the_skew_of_an_agent_clock_is_shown_on_its_page(setup: tuple[Hub, Clock, str]) -> None:
    hub, _, auth = setup
    hub.take(auth, body(1, START + DAY))
    page = hub.machine("rig-a")
    assert page is not None
    assert page["clock_skew_seconds"] == pytest.approx(DAY)
    assert page["clock_skew_text"] == "this machine's clock is 1 d 0 h ahead of the hub's"
    hub.take(auth, body(2, START + 2))  # two seconds: latency and a little drift, nothing to say
    page = hub.machine("rig-a")
    assert page is not None and page["clock_skew_text"] is None


def test_future_dated_reports_never_inflate_tokens_today(setup: tuple[Hub, Clock, str]) -> None:
    """A machine at 358k tok/h for 30 s, whose agent stamps each report a different day ahead.

    Worked by hand: 30 s at 358k tok/h is ~3k tokens; the hub charts a minute per sample, so at
    most two minutes' worth (the report at 0 s and the one at 30 s fall in one minute): ≤ 12k.
    """
    hub, clock, auth = setup
    for seq in range(1, 301):
        clock.now = START + seq * 0.1
        hub.take(auth, body(seq, START + seq * 3600.0))  # as_of an hour further ahead each time
    today = hub.fleet()["totals"]["today_tokens"]
    assert today <= 2 * 358_000 / 60, today
    chart = hub.chart("rig-a", "6h")
    assert chart is not None and all(t <= clock.now for t, v in chart["points"] if v is not None)


def test_a_backlog_is_charted_at_its_age_on_the_hub_clock(setup: tuple[Hub, Clock, str]) -> None:
    """The hub was away 10 minutes; the agent (clock 1 h behind) sends its minute reports late.

    Each report says its age on the agent's own clock (sent_at − as_of), so the hub places it
    that long before its arrival: ten points, one a minute, none in the future.
    """
    hub, clock, auth = setup
    clock.now = START + 600
    skew = -3600.0
    for i in range(10):
        as_of = START + 60 * i + skew
        hub.take(auth, body(i + 1, as_of, tph=100_000.0 * (i + 1), sent_at=clock.now + skew))
    chart = hub.chart("rig-a", "6h")
    assert chart is not None
    known = {t: v for t, v in chart["points"] if v is not None}
    assert known == {int(START) + 60 * i: 100_000.0 * (i + 1) for i in range(10)}


def test_a_resend_from_an_older_stream_never_counts_twice_nor_overwrites(setup: tuple[Hub, Clock, str]) -> None:
    hub, clock, auth = setup
    old, new = "a" * 16, "b" * 16
    for seq in (1, 2, 3):
        clock.now += 15
        assert hub.take(auth, body(seq, clock.now, stream=old))[1]["taken"]
    clock.now += 15  # the agent restarts with a fresh spool: a new stream
    assert hub.take(auth, body(1, clock.now, stream=new, state="queued"))[1]["taken"]
    clock.now += 15
    assert hub.take(auth, body(3, clock.now, stream=old))[1]["taken"] is False  # a resend of the old stream
    assert hub.take(auth, body(4, clock.now, stream=old))[1]["taken"] is False  # the old stream, late
    page = hub.machine("rig-a")
    assert page is not None and page["reports"] == 4 and page["card"]["state"] == "queued"


def test_one_key_is_rate_limited(setup: tuple[Hub, Clock, str]) -> None:
    hub, clock, auth = setup
    statuses = [hub.take(auth, body(seq, clock.now))[0] for seq in range(1, 1001)]
    assert statuses.count(200) == hub_service.RATE_BURST
    assert statuses[-1] == 429
    clock.now += 10  # the bucket refills: an honest agent's next report goes in
    assert hub.take(auth, body(2000, clock.now))[0] == 200


def test_the_hub_file_does_not_grow_without_bound_from_one_key(setup: tuple[Hub, Clock, str], tmp_path: Path) -> None:
    """A day of one key sending as fast as the rate allows, each report a new minute and a new stream."""
    hub, clock, auth = setup
    for i in range(3000):
        clock.now = START + i * 30.0  # 25 h, two reports a minute
        stream = f"{i:016x}"
        hub.take(auth, body(1, 1e9 + i * 60.0, stream=stream, sent_at=1e9 + i * 60.0))
    conn = hub.store._conn
    samples = conn.execute("SELECT COUNT(*) FROM sample").fetchone()[0]
    streams = conn.execute("SELECT COUNT(*) FROM stream").fetchone()[0]
    assert samples <= 25 * 60 + 1  # a sample per minute of the hub's clock, at most
    assert streams <= hub_store.MAX_STREAMS


def test_the_hub_own_name_is_reserved(tmp_path: Path) -> None:
    store = HubStore(tmp_path / "hub.sqlite3")
    key = store.enroll("hub-box", START)
    hub = Hub(store, clock=lambda: START, reserved_name="hub-box")
    status, answer = hub.take(f"Bearer {key}", body(1, START, machine="hub-box"))
    assert status == 403 and "own name" in answer["error"]
    assert hub.metric_snapshots() == []


def test_a_hub_that_cannot_write_says_so_and_keeps_nothing_half(setup: tuple[Hub, Clock, str]) -> None:
    """The disk fills (SQLite's page limit stands in for it): 503, the agent keeps its report, /healthz says why."""
    from flask import Flask

    from app.config import Config
    from app.live.monitor import Monitor

    hub, clock, auth = setup
    assert hub.take(auth, body(1, clock.now))[0] == 200
    conn = hub.store._conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute(f"PRAGMA max_page_count = {pages}")
    big = "x" * 250
    statuses = []
    for seq in range(2, 40):
        clock.now += 60
        snap_body = json.loads(body(seq, clock.now))
        snap_body["snapshot"]["details"] = [big] * 40
        statuses.append(hub.take(auth, json.dumps(snap_body).encode())[0])
    assert 503 in statuses
    assert hub.problem is not None and "cannot write" in hub.problem
    app: Flask = web_app(Config(port=8765), Monitor(None), hub=hub)
    health = app.test_client().get("/healthz").get_json()
    assert health["status"] == "degraded" and health["hub"]["problem"] == hub.problem
    conn.execute("PRAGMA max_page_count = 1000000")
    clock.now += 60
    assert hub.take(auth, body(100, clock.now))[0] == 200
    assert hub.problem is None
