"""The fleet view on an explicit clock: online until three reports are missed, sums of the online only."""

from __future__ import annotations

from typing import Any

import pytest

from app.hub.fleet import fleet_view, machine_card
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
    assert card["status_line"] == "offline" and card["state"] == "offline" and card["level"] == "offline"
    assert card["tokens_per_hour"] is None and card["layer"] is None and card["network_bytes_per_second"] is None
    assert card["last_seen_at"] == NOW - 600 and card["last_seen_text"] == "10 min ago"
    never = machine_card(row("b", seen=None), NOW)
    assert never["status_line"] == "not reported yet" and never["last_seen_text"] == "never reported"


def test_totals_count_only_the_machines_online() -> None:
    rows = [
        row("a", seen=NOW - 3, tph=358_400.0, layer=1),
        row("b", seen=NOW - 10, tph=1_000_000.0, state="training"),
        row("c", seen=NOW - 5, state="queued", queue={"position": 1583, "trend_per_hour": -40.0}),
        row("d", seen=NOW - 1, state="idle", tph=0.0),
        row("e", seen=NOW - 3600, tph=9_999_999.0),  # offline: not in the sum
    ]
    view = fleet_view(rows, NOW, day_start=NOW - 3600 * 5)
    totals = view["totals"]
    assert totals["machines"] == 5 and totals["online"] == 4
    assert (totals["training"], totals["queued"], totals["idle"]) == (2, 1, 1)
    assert totals["tokens_per_hour"] == 1_358_400.0 and totals["tokens_per_hour_text"] == "1.3M tok/h"
    by_name = {card["name"]: card for card in view["machines"]}
    assert by_name["c"]["queue_position"] == 1583 and by_name["c"]["queue_text"] == "#1583 · −40/h"
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
