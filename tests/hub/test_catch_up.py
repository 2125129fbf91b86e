"""The morning after a hub outage: a week of an agent's spool replayed into a real hub.

The agent ``rig-a`` kept a report a minute for a week while the hub was away (what its spool
keeps: ``MAX_REPORTS``), composed here: the first three days training at 700,000 tok/h, the
fourth idle (no rate), the last three training at 800,000 tok/h, then, now, training at 812,000.
When the hub is back the agent must put the present on the hub first (its card, ``/metrics``),
the whole week on the chart within minutes, each minute once, and ``rig-b`` reporting all the
while must still have every report taken at once.

Expected, by hand: the spool's week is 10,080 reports with the present one, so the backlog is
10,079 minutes: 3 × 1,440 at 700k, 1,440 idle, 3 × 1,440 − 1 at 800k; tokens = (4,320 × 700,000
+ 4,319 × 800,000) / 60, and the present minute's 812,000 / 60.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.changes import Changes
from app.config import Config
from app.hub.agent import Agent
from app.hub.report import report_body
from app.hub.spool import MAX_REPORTS, Spool
from app.hub.store import HubStore
from app.live.monitor import Monitor
from app.snapshot import Snapshot, to_dict
from tests.conftest import RunningServer, start_server
from tests.snapshots import snapshot

DAY_MINUTES = 1440
BACKLOG = MAX_REPORTS - 1  # with the present report, the spool holds its week exactly
EXPECTED_TOKENS = (3 * DAY_MINUTES * 700_000 + (3 * DAY_MINUTES - 1) * 800_000) / 60


class Now(Changes):
    """rig-a now: training at 812k tok/h, layer 1."""

    def snapshot(self) -> Snapshot:
        return snapshot("training", time.time(), status_line="L1 · 812k tok/h", layer=1,
                        rate={"measured": True, "tokens_per_hour": 812_000.0})


def week_rate(i: int) -> tuple[str, float | None]:
    day = i // DAY_MINUTES
    if day < 3:
        return "training", 700_000.0
    if day == 3:
        return "idle", None
    return "training", 800_000.0


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[RunningServer, dict[str, str]]]:
    data_dir = tmp_path / "hub"
    store = HubStore(data_dir / "hub.sqlite3")
    keys = {name: store.enroll(name, time.time()) for name in ("rig-a", "rig-b")}
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    yield running, keys
    running.dashboard.stop()


def the_week(path: Path, start_minute: int) -> Spool:
    """A spool holding a report a minute for BACKLOG minutes from ``start_minute``, 30 s into each.

    Written in one transaction, as ``Spool.add`` would have kept them one by one over the week
    (adding 10,079 one at a time takes longer than this test may).
    """
    spool = Spool(path)
    stream = spool.stream
    spool.close()
    rows = []
    for i in range(BACKLOG):
        state, rate = week_rate(i)
        at = start_minute + 60 * i + 30
        snap = snapshot(state, at, status_line=f"week minute {i}", layer=1,
                        rate={"measured": rate is not None, "tokens_per_hour": rate})
        body = report_body(machine="rig-a", stream=stream, seq=i + 1, sent_at=at, interval_seconds=15.0,
                           snapshot=to_dict(snap))
        rows.append((i + 1, at // 60, 0, json.dumps(body, separators=(",", ":"))))
    with sqlite3.connect(path) as conn:
        conn.executemany("INSERT INTO pending VALUES (?, ?, ?, ?)", rows)
        conn.execute("UPDATE meta SET value = ? WHERE key = 'next_seq'", (str(BACKLOG + 1),))
    conn.close()
    return Spool(path)


@pytest.mark.timeout(240)
def test_a_week_of_spool_shows_the_present_at_once_and_the_whole_week_once(
    hub: tuple[RunningServer, dict[str, str]], tmp_path: Path
) -> None:
    server, keys = hub
    url = server.http_url.rstrip("/")
    now_minute = int(time.time()) // 60 * 60
    start_minute = now_minute - 60 * (BACKLOG + 2)  # the week ends two minutes ago
    spool = the_week(tmp_path / "spool-rig-a.sqlite3", start_minute)
    assert spool.count() == BACKLOG

    # rig-b reports every half second throughout, each report's round trip timed.
    stop = threading.Event()
    trips: list[tuple[int, float]] = []

    def rig_b() -> None:
        seq = 0
        while not stop.is_set():
            seq += 1
            now = time.time()
            body = report_body(machine="rig-b", stream="b" * 16, seq=seq, sent_at=now, interval_seconds=15.0,
                               snapshot=to_dict(snapshot("idle", now, status_line="idle")))
            request = urllib.request.Request(f"{url}/hub/report", data=json.dumps(body).encode(), method="POST",
                                             headers={"Authorization": f"Bearer {keys['rig-b']}"})
            began = time.monotonic()
            with urllib.request.urlopen(request, timeout=10) as response:
                trips.append((response.status, time.monotonic() - began))
            stop.wait(0.5)

    other = threading.Thread(target=rig_b, daemon=True)
    other.start()
    agent = Agent(url=url, key=keys["rig-a"], machine="rig-a", spool=spool, source=Now())
    began = time.monotonic()
    agent.start()
    try:
        present_after = None
        while time.monotonic() - began < 60:
            card = next(c for c in get(f"{url}/api/fleet")["machines"] if c["name"] == "rig-a")
            if present_after is None and card["online"] and card["status_line"] == "L1 · 812k tok/h":
                present_after = time.monotonic() - began
                # Never a report from the week as the present: the card went straight to now.
                page = get(f"{url}/api/fleet/rig-a")
                assert page["card"]["tokens_per_hour"] == 812_000.0
                with urllib.request.urlopen(f"{url}/metrics", timeout=10) as response:
                    metrics = response.read().decode()
                assert 'tokwatch_tokens_per_hour{machine="rig-a"} 812000.0' in metrics
            if present_after is not None and agent.spool.count() == 0:
                break
            time.sleep(0.05)
        caught_up_after = time.monotonic() - began
        assert present_after is not None and present_after < 5, present_after
        assert agent.spool.count() == 0, f"{agent.spool.count()} reports still wait after {caught_up_after:.0f} s"
        assert caught_up_after < 120
    finally:
        agent.stop()
        stop.set()
        other.join(15)
    print(f"\npresent on the hub after {present_after:.2f} s; a week's spool ({BACKLOG:,} reports) "
          f"caught up after {caught_up_after:.1f} s")

    # The whole week on the chart, each minute once: the hub's own minute samples, read back.
    store = HubStore(tmp_path / "hub" / "hub.sqlite3")
    try:
        minutes = store.minutes("rig-a", start_minute - 3600, now_minute + 3600)
        week = [m for m in minutes if m[0] < now_minute - 60]
        assert [m[0] for m in week] == [start_minute + 60 * i for i in range(BACKLOG)]  # each minute, once
        assert abs(store.tokens_since("rig-a", start_minute - 3600) - 812_000 / 60 - EXPECTED_TOKENS) < 1
        assert {m[2] for m in week[3 * DAY_MINUTES: 4 * DAY_MINUTES]} == {"idle"}
    finally:
        store.close()
    chart = get(f"{url}/api/fleet/rig-a/chart?span=7d")
    values = [v for _, v in chart["points"] if v is not None]
    assert min(values) == 700_000.0 and 800_000.0 in values
    # Every report counted once on the machine: the week's and the present.
    assert get(f"{url}/api/fleet/rig-a")["reports"] >= BACKLOG + 1

    # rig-b was never starved: every report taken, none waited long.
    assert trips and all(status == 200 for status, _ in trips)
    slowest = max(seconds for _, seconds in trips)
    print(f"rig-b: {len(trips)} reports during the catch-up, slowest round trip {slowest * 1000:.0f} ms")
    assert slowest < 2.0
