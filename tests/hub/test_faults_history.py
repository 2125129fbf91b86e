"""``POST /hub/history`` joins the hub's limits: a deep JSON and a full disk are answers, not a 500;
a key sends at most a burst of batches; one bad point is set aside, the rest of its batch kept; and
an agent's clock whole minutes off has its minutes set right, as its reports are."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.hub.service import HISTORY_RATE_BURST, Hub
from app.hub.store import HubStore

NOW = 1_796_000_040  # a whole minute


class Clock:
    def __init__(self) -> None:
        self.now = float(NOW)

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def hub(tmp_path: Path) -> tuple[Hub, Clock, str]:
    store = HubStore(tmp_path / "hub.sqlite3")
    key = store.enroll("rig-a", NOW)
    clock = Clock()
    return Hub(store, clock=clock), clock, f"Bearer {key}"


def batch(points: list[list[Any]], **more: Any) -> bytes:
    return json.dumps({"machine": "rig-a", "points": points, **more}).encode()


def test_a_deep_json_is_a_400_not_a_500(hub: tuple[Hub, Clock, str]) -> None:
    hub_, _, auth = hub
    status, answer = hub_.take_history(auth, b"[" * 5000 + b"]" * 5000)
    assert status == 400 and "nested too deeply" in answer["error"]


def test_one_bad_point_is_set_aside_and_the_rest_kept(hub: tuple[Hub, Clock, str]) -> None:
    hub_, _, auth = hub
    points = [[NOW - 600 + 60 * i, 700_000.0, "training", None, 1] for i in range(5)]
    points[2][4] = 10**9  # a layer no report may carry either
    points.append([NOW - 60, 700_000.0, "training", None, 40_000])  # a layer above 10,000, as reports allow
    status, answer = hub_.take_history(auth, batch(points))
    assert (status, answer["taken"], answer["set_aside"]) == (200, 5, 1)
    assert "points[2][4]" in answer["notes"][0]
    assert [m[0] for m in hub_.store.minutes("rig-a", NOW - 3600, NOW)] == [
        NOW - 600, NOW - 540, NOW - 420, NOW - 360, NOW - 60]


def test_a_key_sends_a_burst_then_one_a_second(hub: tuple[Hub, Clock, str]) -> None:
    hub_, clock, auth = hub
    for i in range(HISTORY_RATE_BURST):
        assert hub_.take_history(auth, batch([[NOW - 60 * (i + 1), None, "idle", None, None]]))[0] == 200
    status, answer = hub_.take_history(auth, batch([]))
    assert status == 429 and 0 < answer["retry_after"] <= 1.0
    clock.now += 1.0
    assert hub_.take_history(auth, batch([]))[0] == 200


def test_a_full_disk_is_a_503_and_said_in_healthz(hub: tuple[Hub, Clock, str], monkeypatch: pytest.MonkeyPatch) -> None:
    hub_, _, auth = hub

    def full(*args: Any, **kwargs: Any) -> int:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(hub_.store, "take_history", full)
    status, answer = hub_.take_history(auth, batch([[NOW - 60, None, "idle", None, None]]))
    assert status == 503 and "keep them" in answer["error"]
    assert hub_.problem == "the hub cannot write hub.sqlite3: database or disk is full"
    monkeypatch.undo()
    assert hub_.take_history(auth, batch([[NOW - 60, None, "idle", None, None]]))[0] == 200
    assert hub_.problem is None


def test_an_agent_clock_minutes_off_has_its_minutes_set_right(hub: tuple[Hub, Clock, str]) -> None:
    hub_, _, auth = hub
    # The agent's clock is 1 h 00 min 10 s ahead: its minute NOW + 3600 - 120 is the hub's NOW - 120.
    ahead = 3610.0
    status, _ = hub_.take_history(auth, batch([[NOW + 3600 - 120, 500_000.0, "training", None, 1]], sent_at=NOW + ahead))
    assert status == 200
    assert [m[0] for m in hub_.store.minutes("rig-a", NOW - 3600, NOW + 7200)] == [NOW - 120]


def test_a_backlog_batch_sent_again_is_counted_once(hub: tuple[Hub, Clock, str]) -> None:
    """An agent whose answer was lost (its 5 s deadline on a busy hub) sends the same backlog again:
    the machine's count of reports grew by the batch each time, though no minute was new."""
    hub_, clock, auth = hub
    report = {"version": 1, "machine": "rig-a", "stream": "a" * 16, "seq": 400, "sent_at": NOW,
              "snapshot": {"status_line": "training", "state": "training", "as_of": NOW, "details": []}}
    assert hub_.take(auth, json.dumps(report).encode())[0] == 200
    points = [[NOW - 3600 + 60 * i, 700_000.0, "training", None, 1] for i in range(50)]
    for sent_at in (NOW, NOW + 7):  # the resend carries its own sent_at
        clock.now = float(NOW) + sent_at - NOW
        status, _ = hub_.take_history(auth, batch(points, reports=200, sent_at=sent_at))
        assert status == 200
    page = hub_.machine("rig-a")
    assert page is not None and page["reports"] == 1 + 200
    # The next stretch of the backlog (other minutes) still counts.
    later = [[NOW - 600 + 60 * i, 700_000.0, "training", None, 1] for i in range(5)]
    hub_.take_history(auth, batch(later, reports=20, sent_at=clock.now))
    page = hub_.machine("rig-a")
    assert page is not None and page["reports"] == 1 + 200 + 20


def test_a_minute_not_producing_keeps_no_rate(hub: tuple[Hub, Clock, str]) -> None:
    """An idle or queued minute's rate (an older miner's decaying window) is no production: the
    sparkline, the chart and the hub's "tokens today" leave it out, as they do a live report's."""
    hub_, _, auth = hub
    points = [[NOW - 180, 1e15, "idle", None, None], [NOW - 120, 9e5, "queued", 40, 1],
              [NOW - 60, 600_000.0, "training", None, 1]]
    assert hub_.take_history(auth, batch(points))[0] == 200
    assert hub_.store.minutes("rig-a", NOW - 3600, NOW) == [
        (NOW - 180, None, "idle", None, None), (NOW - 120, None, "queued", 40, 1), (NOW - 60, 600_000.0, "training", None, 1)]
    assert hub_.store.tokens_since("rig-a", NOW - 3600) == 10_000.0  # one training minute at 600k tok/h


def report_of(seq: int) -> bytes:
    return json.dumps({"version": 1, "machine": "rig-a", "stream": "a" * 16, "seq": seq, "sent_at": NOW,
                       "snapshot": {"status_line": "training", "state": "training", "as_of": NOW,
                                    "rate": {"measured": True, "tokens_per_hour": 700_000.0}, "details": []}}).encode()


def test_a_backlog_batch_resent_after_the_hub_restarts_is_counted_once(tmp_path: Path) -> None:
    """The hub counted a batch, then restarted before the agent heard its answer: the resend adds none."""
    store = HubStore(tmp_path / "hub.sqlite3")
    auth = f"Bearer {store.enroll('rig-a', NOW)}"
    hub_ = Hub(store, clock=Clock())
    assert hub_.take(auth, report_of(400))[0] == 200
    points = [[NOW - 3600 + 60 * i, 700_000.0, "training", None, 1] for i in range(50)]
    assert hub_.take_history(auth, batch(points, reports=200, sent_at=NOW))[0] == 200
    store.close()
    again = Hub(HubStore(tmp_path / "hub.sqlite3"), clock=Clock())
    assert again.take_history(auth, batch(points, reports=200, sent_at=NOW + 9))[0] == 200
    page = again.machine("rig-a")
    assert page is not None and page["reports"] == 1 + 200


def test_history_before_the_first_report_is_kept_and_counted(hub: tuple[Hub, Clock, str]) -> None:
    """An agent's backlog may reach the hub before its first report does: its count and its notes wait."""
    hub_, _, auth = hub
    points = [[NOW - 600 + 60 * i, 700_000.0, "training", None, 1] for i in range(5)]
    points.append([NOW - 60, 700_000.0, "training", None, 10**9])  # set aside
    status, answer = hub_.take_history(auth, batch(points, reports=30))
    assert (status, answer["taken"], answer["set_aside"]) == (200, 5, 1)
    page = hub_.machine("rig-a")
    assert page is not None and (page["reports"], page["notes"]) == (30, 1)
    assert "points[5][4]" in page["notes_text"]
    assert hub_.take(auth, report_of(1))[0] == 200
    page = hub_.machine("rig-a")
    assert page is not None and (page["reports"], page["notes"]) == (31, 1)
    assert "points[5][4]" in page["notes_text"]
