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


# --- the fleet view is never staler than the store ------------------------------------------------
# Every push builds the whole fleet, so the hub keeps what each card reads from its machine's
# minute samples (the sparkline, today's tokens) and parses each report once. These tests build
# a view, change one thing, and expect the very next view to show it, on the same second.


def card_of(hub: Hub, name: str) -> dict[str, Any]:
    """The card as a push carries it, which must be the view's own, byte for byte."""
    text = hub.fleet_json()
    assert text == json.dumps(hub.fleet(), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return next(card for card in json.loads(text)["machines"] if card["name"] == name)


def test_a_report_shows_in_the_next_view_even_within_the_second(setup: tuple[Hub, Clock, dict[str, str]]) -> None:
    hub, clock, keys = setup
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 1, START, tph=360_000.0))
    hub.take(f"Bearer {keys['rig-b']}", body("rig-b", 1, START, tph=360_000.0))
    before = hub.fleet()
    assert [card["spark"][-1] for card in before["machines"]] == [360_000.0, 360_000.0]
    assert before["totals"]["today_tokens"] == pytest.approx(2 * 360_000 / 60)
    clock.now = START + 0.3  # the next report, 0.3 s later: same second, same minute
    hub.take(f"Bearer {keys['rig-b']}", body("rig-b", 2, clock.now, tph=720_000.0))
    after = hub.fleet()
    a, b = after["machines"]
    assert a["spark"] == before["machines"][0]["spark"]
    assert b["spark"][-1] == 720_000.0 and b["tokens_per_hour"] == 720_000.0  # the minute's last report
    assert after["totals"]["today_tokens"] == pytest.approx((360_000 + 720_000) / 60)
    assert after["totals"]["tokens_per_hour"] == 1_080_000.0
    clock.now = START + 60.2  # a new minute in the same 10: the bucket's mean of its minutes
    hub.take(f"Bearer {keys['rig-b']}", body("rig-b", 3, clock.now, tph=None, state="idle"))
    b = card_of(hub, "rig-b")
    assert b["state"] == "idle" and b["tokens_per_hour"] is None and b["spark"][-1] == 720_000.0
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 2, clock.now, tph=180_000.0))
    a = card_of(hub, "rig-a")
    assert a["spark"][-1] == pytest.approx((360_000.0 + 180_000.0) / 2)


def test_history_sent_later_shows_in_its_own_bucket(setup: tuple[Hub, Clock, dict[str, str]]) -> None:
    hub, _, keys = setup
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 1, START))
    spark = card_of(hub, "rig-a")["spark"]
    assert spark[-13] is None  # two hours ago: nothing yet
    two_hours_ago = int(START - 7200)
    batch = json.dumps({"machine": "rig-a", "points": [[two_hours_ago, 500_000.0, "training", None, 1]]}).encode()
    assert hub.take_history(f"Bearer {keys['rig-a']}", batch) == (200, {"taken": 1})
    spark = card_of(hub, "rig-a")["spark"]
    assert spark[-13] == 500_000.0 and spark[-1] == 360_000.0


def test_the_sparkline_moves_with_its_window_and_a_card_goes_offline_on_time(
        setup: tuple[Hub, Clock, dict[str, str]]) -> None:
    hub, clock, keys = setup
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 1, START))
    assert card_of(hub, "rig-a")["online"]
    clock.now = START + 45  # three intervals: still online
    assert card_of(hub, "rig-a")["online"]
    clock.now = START + 45.5  # no report, no tick: the view alone says offline
    card = card_of(hub, "rig-a")
    assert not card["online"] and card["status_line"] == "offline" and card["tokens_per_hour"] is None
    assert hub.fleet()["totals"]["tokens_per_hour"] == 0.0
    # START is 240 s into its 10 minutes: the window moves on at START + 360, with no report.
    clock.now = START + 359
    assert card_of(hub, "rig-a")["spark"][-1] == 360_000.0
    clock.now = START + 361
    spark = card_of(hub, "rig-a")["spark"]
    assert spark[-2] == 360_000.0 and spark[-1] is None
    clock.now = START + 6 * 3600 + 361  # the report's bucket has left the 6 h: no sparkline at all
    assert card_of(hub, "rig-a")["spark"] is None


def test_todays_tokens_start_again_at_local_midnight(setup: tuple[Hub, Clock, dict[str, str]]) -> None:
    from app.hub.service import local_day_start

    hub, clock, keys = setup
    midnight = local_day_start(START + 86400)
    clock.now = midnight - 30
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 1, clock.now))
    assert hub.fleet()["totals"]["today_tokens"] == pytest.approx(360_000 / 60)
    clock.now = midnight + 30  # still online, its one minute was yesterday's
    assert hub.fleet()["totals"]["today_tokens"] == 0.0
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 2, clock.now))
    assert hub.fleet()["totals"]["today_tokens"] == pytest.approx(360_000 / 60)


def test_a_revoked_machine_leaves_the_view_and_comes_back_with_its_history(
        setup: tuple[Hub, Clock, dict[str, str]]) -> None:
    hub, clock, keys = setup
    hub.take(f"Bearer {keys['rig-a']}", body("rig-a", 1, START))
    assert [card["name"] for card in hub.fleet()["machines"]] == ["rig-a", "rig-b"]
    hub.store.revoke("rig-a", START + 1)
    assert [card["name"] for card in hub.fleet()["machines"]] == ["rig-b"]
    key = hub.store.enroll("rig-a", START + 2)
    card = card_of(hub, "rig-a")
    assert card["status_line"] == "not reported yet" and card["spark"][-1] == 360_000.0
    clock.now = START + 15
    hub.take(f"Bearer {key}", body("rig-a", 1, clock.now, tph=720_000.0, state="training"))
    card = card_of(hub, "rig-a")
    assert card["online"] and card["tokens_per_hour"] == 720_000.0 and card["spark"][-1] == 720_000.0


def test_the_fleets_json_is_its_view(setup: tuple[Hub, Clock, dict[str, str]]) -> None:
    hub, clock, keys = setup
    assert card_of(hub, "rig-a")["status_line"] == "not reported yet"
    hub.note_alerts_problem("1 alert not delivered")
    for seq, state in enumerate(["training", "training", "idle", "training"], start=1):  # rig-b never reports
        clock.now = START + 15 * seq
        hub.take(f"Bearer {keys['rig-a']}", body("rig-a", seq, clock.now, state=state))
        assert card_of(hub, "rig-a")["state"] == state
        clock.now += 5  # the same report, older: only its "last seen" words change
        assert card_of(hub, "rig-a")["last_seen_text"] == "5 s ago"
    assert card_of(hub, "rig-b")["status_line"] == "not reported yet"
    assert json.loads(hub.fleet_json())["alerts_problem"] == "1 alert not delivered"


def late(machine: str, seq: int, made_at: float, sent_at: float, tph: float | None, state: str = "training") -> bytes:
    """A report made at ``made_at`` and sent at ``sent_at`` (kept in a spool meanwhile), on a true clock."""
    data = json.loads(body(machine, seq, made_at, tph, state))
    data["sent_at"] = sent_at
    data["snapshot"]["status_line"] = f"made at +{made_at - START:.0f}"
    return json.dumps(data).encode()


def test_an_old_report_arriving_late_reads_as_old_and_never_as_the_present(
    setup: tuple[Hub, Clock, dict[str, str]],
) -> None:
    hub, clock, keys = setup
    auth = f"Bearer {keys['rig-a']}"
    # The machine died two hours ago, during the hub's outage; its agent's last report arrives now.
    clock.now = START + 7200
    assert hub.take(auth, late("rig-a", 1, START, clock.now, 500_000.0)) == (200, {"taken": True, "seq": 1})
    card = next(c for c in hub.fleet()["machines"] if c["name"] == "rig-a")
    assert not card["online"] and card["state"] == "offline"
    assert card["last_seen_at"] == START and card["last_seen_text"] == "2 h 00 min ago"
    assert hub.fleet()["totals"]["online"] == 0 and hub.metric_snapshots() == []

    # A live machine: its present report first, then one from an hour ago arrives late.
    auth_b = f"Bearer {keys['rig-b']}"
    assert hub.take(auth_b, late("rig-b", 5, clock.now - 1, clock.now, 800_000.0))[0] == 200
    assert hub.take(auth_b, late("rig-b", 6, clock.now - 3600, clock.now, 700_000.0, "idle"))[0] == 200
    page = hub.machine("rig-b")
    assert page is not None and page["card"]["status_line"] == "made at +7199" and page["card"]["online"]
    assert page["reports"] == 2
    [(labels, snap)] = hub.metric_snapshots()
    assert labels == {"machine": "rig-b"} and snap.rate.tokens_per_hour == 800_000.0
    # The late one filled its own minute on the chart, once, without touching the present's.
    minutes = {m[0]: m[1:3] for m in hub.store.minutes("rig-b", START, clock.now + 60)}
    hour_ago = int((clock.now - 3600) // 60 * 60)
    assert minutes == {hour_ago: (None, "idle"), int((clock.now - 1) // 60 * 60): (800_000.0, "training")}
