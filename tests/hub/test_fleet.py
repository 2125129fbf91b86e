"""The fleet view on an explicit clock: online until three reports are missed, sums of the online only."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.hub.fleet import CardMemo, fleet_view, machine_card
from app.hub.store import MachineRow

NOW = 1_796_000_000.0


def row(name: str, *, seen: float | None, state: str = "training", tph: float | None = None,
        interval: float = 15.0, **extra: Any) -> MachineRow:
    snap: dict[str, Any] | None = None
    if seen is not None:
        snap = {"status_line": f"{name} line", "state": state, "layer": extra.get("layer"), "as_of": seen,
                "rate": {"tokens_per_hour": tph}, "queue": extra.get("queue"), "network": extra.get("network"),
                "today": extra.get("today"), "level": extra.get("level")}
    return MachineRow(name=name, enrolled_at=NOW - 86400, received_at=seen, interval_seconds=interval, snapshot=snap)


def test_offline_after_three_missed_reports() -> None:
    assert machine_card(row("a", seen=NOW - 45), NOW)["online"]
    assert not machine_card(row("a", seen=NOW - 45.5), NOW)["online"]
    # An agent reporting every 5 s is offline after 15 s.
    assert not machine_card(row("a", seen=NOW - 16, interval=5.0), NOW)["online"]


def test_an_offline_card_never_shows_its_last_figures() -> None:
    card = machine_card(row("a", seen=NOW - 600, tph=358_400.0, layer=2, network={"bytes_per_second": 5.0}), NOW)
    # A problem: a dead machine cannot say so itself.
    assert card["status_line"] == "offline" and card["state"] == "offline" and card["level"] == "problem"
    assert card["tokens_per_hour"] is None and card["layer"] is None and card["network_bytes_per_second"] is None
    assert card["last_seen_at"] == NOW - 600 and card["last_seen_text"] == "10 min ago"
    never = machine_card(row("b", seen=None), NOW)
    assert never["status_line"] == "not reported yet" and never["last_seen_text"] == "never reported"


def test_totals_count_only_the_machines_online_and_sum_only_production() -> None:
    rows = [
        row("a", seen=NOW - 3, tph=358_400.0, layer=1),
        row("b", seen=NOW - 10, tph=1_000_000.0, state="training"),
        row("c", seen=NOW - 5, state="queued", queue={"position": 1583, "trend_per_hour": -40.0}),
        # idle, measuring: an older agent may still report a decaying or warm-up figure; not production.
        row("d", seen=NOW - 1, state="idle", tph=182_000.0),
        row("f", seen=NOW - 1, state="measuring", tph=50_000.0),
        row("e", seen=NOW - 3600, tph=9_999_999.0),  # offline: not in the sum
    ]
    view = fleet_view(rows, NOW, day_start=NOW - 3600 * 5)
    totals = view["totals"]
    assert totals["machines"] == 6 and totals["online"] == 5 and totals["offline"] == 1
    assert (totals["training"], totals["queued"], totals["idle"]) == (2, 1, 1)
    assert totals["tokens_per_hour"] == 1_358_400.0 and totals["tokens_per_hour_text"] == "1.3M tok/h"
    by_name = {card["name"]: card for card in view["machines"]}
    assert by_name["c"]["queue_position"] == 1583 and by_name["c"]["queue_text"] == "#1583 · ▲ +40/h"  # −40/h towards the front: moving back
    assert by_name["a"]["tokens_per_hour_text"] == "358k tok/h" and by_name["a"]["level"] == "ok"
    assert by_name["d"]["level"] == "warning"


def test_today_prefers_the_machines_own_count_when_fresh() -> None:
    day_start = NOW - 3600
    rows = [
        row("a", seen=NOW - 3, today={"tokens": 1_000_000}),
        row("b", seen=NOW - 3),  # no history on that agent: the hub's own estimate
        row("c", seen=day_start - 60, today={"tokens": 5_000_000}),  # yesterday's count: not today's
    ]
    view = fleet_view(rows, NOW, day_start=day_start, today_tokens={"b": 250_000.0, "c": 0.0})
    assert view["totals"]["today_tokens"] == 1_250_000.0


@pytest.mark.parametrize(("value", "words"), [(0, "0 B/s"), (999, "999 B/s"), (27_300, "27 kB/s"),
                                              (5_460, "5.4 kB/s"), (12_300_000, "12 MB/s")])
def test_the_card_writes_network_as_the_dashboard_does(value: float, words: str) -> None:
    # The dashboard says "Network 27 kB/s" for 27,300 B/s; the fleet's card said "27.3 kB/s".
    card = machine_card(row("a", seen=NOW - 3, tph=358_400.0, network={"bytes_per_second": value}), NOW)
    assert card["network_text"] == words


def test_a_queued_card_says_when_it_reaches_the_front() -> None:
    queue = {"position": 1420, "trend_per_hour": 38.0, "eta_seconds": 1420 / 38 * 3600}
    card = machine_card(row("q", seen=NOW - 5, state="queued", queue=queue), NOW)
    # 38 positions an hour towards the front: the position falls by 38 an hour.
    assert card["queue_text"] == "#1420 · ▼ −38/h · front in ~1 d 13 h"


def test_each_card_has_its_last_six_hours_as_a_sparkline(tmp_path: Any) -> None:
    from app.hub.report import Report
    from app.hub.service import SPARK_SECONDS, SPARK_STEP_SECONDS, Hub
    from app.hub.store import HubStore

    store = HubStore(tmp_path / "hub.sqlite3")
    store.enroll("a", NOW - 86400)
    # A report a minute for the last 2 h at 100k + 1k per minute ago; nothing before.
    for minutes_ago in range(120, -1, -1):
        at = NOW - 60 * minutes_ago
        snap = {"status_line": "L1", "state": "training", "as_of": at, "rate": {"tokens_per_hour": 100_000.0 + 1000 * minutes_ago}}
        store.accept(Report("a", "e" * 16, 121 - minutes_ago, at, 15.0, snap), at)
    hub = Hub(store, clock=lambda: NOW)
    [card] = hub.fleet()["machines"]
    spark = card["spark"]
    assert len(spark) == SPARK_SECONDS // SPARK_STEP_SECONDS
    assert all(v is None for v in spark[:-13]) and all(v is not None for v in spark[-12:])
    # The 10 minutes before the current ones, [NOW − 800, NOW − 200) (NOW is 200 s into its 10
    # minutes): the reports 4 to 13 minutes ago, whose minutes start 20 s before them.
    expected = [100_000.0 + 1000 * k for k in range(121) if NOW - 800 <= (NOW - 60 * k) // 60 * 60 < NOW - 200]
    assert len(expected) == 10 and spark[-2] == pytest.approx(sum(expected) / len(expected))
    store.close()


def test_a_queued_card_carries_the_agents_trend_words_and_its_queue_forensics() -> None:
    queue = {"position": 360, "trend_per_hour": 120.0, "eta_seconds": 3 * 3600, "trend_text": "▼ −120/h",
             "resets_24h": 2, "best_position": 8}
    card = machine_card(row("q", seen=NOW - 5, state="queued", queue=queue), NOW)
    assert card["queue_text"] == "#360 · ▼ −120/h · front in ~3 h 00 min · 2 resets in 24 h · best #8"


def test_a_collaborator_s_card_shows_its_state_and_last_round_never_steps_as_tokens() -> None:
    """An SN38 miner's report: its state as the dashboard decided it, its last round in words, and no tok/h
    from its steps/h (the fleet's total stays the token producers' alone)."""
    swarm = {"rounds": [{"started_at": NOW - 300, "ended_at": NOW - 240, "peers": 3, "outcome": "ok"},
                        {"started_at": NOW - 900, "ended_at": NOW - 870, "peers": 4, "outcome": "failed"}]}
    miner = row("sn38", seen=NOW - 5, state="averaging", tph=None)
    assert miner.snapshot is not None
    miner.snapshot["training"] = {"steps_per_hour": 38.0, "swarm": swarm}
    miner.snapshot["rate"] = {"tokens_per_hour": None, "passes_per_hour": 38.0}
    card = machine_card(miner, NOW)
    assert (card["state"], card["level"], card["round_text"]) == ("averaging", "ok", "ok · 3 peers · 4 min ago")
    view = fleet_view([miner, row("iota", seen=NOW - 5, tph=300_000.0)], NOW, day_start=NOW - 3600)
    assert view["totals"]["tokens_per_hour"] == 300_000.0
    locked = row("locked", seen=NOW - 5, state="cannot_join")
    assert machine_card(locked, NOW)["level"] == "problem" and machine_card(locked, NOW)["round_text"] is None


def test_kept_cards_read_as_fresh_ones_as_the_clock_moves_and_reports_come() -> None:
    """Cards kept between views (a report changes one card) carry what cards made afresh do: the
    age and a swarm round's age move with the clock, a new report or going offline shows at once."""
    swarm = {"swarm": {"rounds": [{"started_at": NOW - 300, "ended_at": NOW - 240, "peers": 3, "outcome": "ok"}]}}
    rows = [row("a", seen=NOW - 10, tph=358_400.0), row("b", seen=None),
            replace(row("c", seen=NOW - 5, interval=60.0), snapshot={**(row("c", seen=NOW - 5).snapshot or {}), "training": swarm}),
            row("d", seen=NOW - 40, tph=2000.0)]
    memo = CardMemo()
    moments = [(NOW, rows), (NOW + 20, rows), (NOW + 130, rows),
               (NOW + 140, [row("a", seen=NOW + 139, tph=100_000.0, state="idle"), *rows[1:]]),
               (NOW + 150, [row("a", seen=NOW + 139, tph=100_000.0, state="idle"), *rows[1:3]])]
    seen_texts = set()
    for now, at in moments:
        kept = fleet_view(at, now, day_start=NOW - 3600, memo=memo)
        fresh = fleet_view(at, now, day_start=NOW - 3600)
        assert kept == fresh
        seen_texts.add(next(card["round_text"] for card in kept["machines"] if card["name"] == "c"))
        kept["machines"][0]["spark"] = [1.0]  # the caller's own dict: the next view is not touched
    assert "ok · 3 peers · 4 min ago" in seen_texts and "ok · 3 peers · 6 min ago" in seen_texts
    for _ in range(2):  # a kept card too
        view = fleet_view(at, NOW + 150, day_start=NOW - 3600, memo=memo)
        assert view["machines"][0].get("spark") is None
        view["machines"][0]["spark"] = [1.0]
