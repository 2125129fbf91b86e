"""The fleet page's push: the whole fleet once, then only what changed (cards' changed fields, the
header), so an open page at a thousand machines costs kilobytes a second, not a megabyte.

Fleets composed here, each delta written out by hand; then a real hub on port 0 with real reports
over HTTP and a real websocket client that merges the deltas as the page does.
"""

from __future__ import annotations

import itertools
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from app.config import Config
from app.hub.store import HubStore
from app.live.monitor import Monitor
from app.web.fleet_push import FleetFrame, FleetFrames, card_changes
from tests.conftest import start_server
from tests.hub.test_fleet_page import Agents
from tests.web.test_ws import WsClient, receive_json


def card(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "online": True, "last_seen_at": 100.0, "last_seen_text": "just now",
            "status_line": "L1 · 358k tok/h", "tokens_per_hour": 358_000.0, **fields}


def fleet(*cards: dict[str, Any], online: int = 2, as_of: float = 110.0) -> dict[str, Any]:
    return {"machines": list(cards), "totals": {"online": online}, "as_of": as_of, "alerts_problem": None}


def merged(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """What fleet.js's merge makes of a delta."""
    cards = {c["name"]: c for c in state["machines"]}
    for name, fields in delta["cards"].items():
        cards[name] = {**cards.get(name, {}), **fields}
    for name in delta["gone"]:
        cards.pop(name)
    out = {**state, "machines": list(cards.values()), "as_of": delta["as_of"]}
    for key in ("totals", "alerts_problem"):
        if key in delta:
            out[key] = delta[key]
    return out


def test_a_delta_carries_the_changed_fields_new_cards_and_gone_ones_and_nothing_else() -> None:
    frames = iter([
        fleet(card("a"), card("b"), card("c")),
        # a: a new rate and report; b: only its age's words moved (the clock); c gone; d new.
        fleet(card("a", last_seen_at=115.0, tokens_per_hour=360_000.0), card("b", last_seen_text="15 s ago"),
              card("d"), online=3, as_of=116.0),
    ])
    source = FleetFrames(lambda: next(frames))
    first, second = source.next(), source.next()
    assert json.loads(first.text_after(None))["machines"][2]["name"] == "c"  # a new page gets the whole fleet
    delta = json.loads(second.text_after(first))
    assert delta == {
        "delta": True, "as_of": 116.0, "totals": {"online": 3},
        "cards": {"a": {"last_seen_at": 115.0, "tokens_per_hour": 360_000.0}, "d": card("d")},
        "gone": ["c"],
    }
    assert second.text_after(first) is second.text_after(first)  # made once, for every page
    state = merged(json.loads(first.text_after(None)), delta)
    assert {c["name"]: c for c in state["machines"]} == {
        "a": card("a", last_seen_at=115.0, tokens_per_hour=360_000.0), "b": card("b"), "d": card("d")}


def test_a_page_that_missed_a_push_gets_what_changed_since_the_one_it_has() -> None:
    old = FleetFrame(fleet(card("a", state="training"), card("b")))
    newest = FleetFrame(fleet(card("a", state="idle"), card("b", queue_text="#12")), FleetFrame(fleet()))
    assert json.loads(newest.text_after(old))["cards"] == {"a": {"state": "idle"}, "b": {"queue_text": "#12"}}
    # A field a card no longer has is sent as null, so the page's copy loses it too.
    gone_field = FleetFrame(fleet(card("a"), card("b")), old)
    assert json.loads(gone_field.text_after(old))["cards"] == {"a": {"state": None}}


def test_an_open_fleet_page_gets_the_fleet_once_then_only_the_card_that_reported(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    store = HubStore(data_dir / "hub.sqlite3")
    names = [f"rig-{i:02d}" for i in range(40)]
    keys = {name: store.enroll(name, time.time()) for name in names}
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    agents = Agents(running.http_url, keys)
    try:
        for name in names:
            agents.send(name, status="L1 · 358k tok/h", tph=358_400.0, layer=1)
        ws = WsClient(f"ws://127.0.0.1:{running.config.effective_ws_port}/ws/fleet",
                      headers={"Origin": running.origin})
        try:
            message = ws.receive(5)
            assert message is not None
            state = json.loads(message)
            assert not state.get("delta") and len(state["machines"]) == len(names)
            whole = len(message.encode())

            agents.send("rig-07", status="L1 · 401k tok/h", tph=401_000.0, layer=1)
            deadline = time.monotonic() + 10
            delta: dict[str, Any] = {}
            while "rig-07" not in delta.get("cards", {}) and time.monotonic() < deadline:
                delta = receive_json(ws)
                if delta.get("delta"):
                    assert set(delta["cards"]) <= {"rig-07"}, "only the machine that reported"
                    state = merged(state, delta)
            assert delta["cards"]["rig-07"]["status_line"] == "L1 · 401k tok/h"
            assert len(json.dumps(delta).encode()) < whole / 20
            # The page's merged fleet is the API's (ages' words aside, which the page writes itself).
            with urllib.request.urlopen(f"{running.http_url}/api/fleet", timeout=5) as answer:
                api = json.load(answer)

            def without_words(cards: list[dict[str, Any]]) -> dict[str, Any]:
                return {c["name"]: {k: v for k, v in c.items() if k != "last_seen_text"} for c in cards}

            assert without_words(state["machines"]) == without_words(api["machines"])
            assert state["totals"] == api["totals"]
        finally:
            ws.close()
    finally:
        running.dashboard.stop()


def test_a_card_changed_in_its_age_alone_is_no_change_and_any_other_field_is() -> None:
    old = {"name": "a", "last_seen_text": "40 s ago", "queue_text": "#3", "spark": [1.0, None]}
    assert card_changes(old, {**old, "last_seen_text": "41 s ago"}) == {}
    assert card_changes(old, {**old, "spark": [1.0, 2.0]}) == {"spark": [1.0, 2.0]}
    assert card_changes(old, {"name": "a", "last_seen_text": "41 s ago", "spark": [1.0, None]}) == {"queue_text": None}
    assert card_changes({k: v for k, v in old.items() if k != "last_seen_text"}, old) == {}
    assert card_changes(old, {**old, "round_text": None}) == {"round_text": None}


def test_pushes_from_kept_cards_carry_exactly_what_pushes_from_fresh_fleets_do(tmp_path: Path) -> None:
    """The pushes compare kept cards (the same object while only its age moved); a page gets from
    them, byte for byte, what fleets built afresh at the same moments give: reports, a machine going
    offline and back, a swarm round ageing, a machine enrolled and one revoked, a page that missed pushes."""
    from app.hub.fleet import with_clock_words
    from app.hub.report import report_body
    from app.hub.service import Hub

    now = [1_796_000_040.0]
    store = HubStore(tmp_path / "hub.sqlite3")
    keys = {name: store.enroll(name, now[0]) for name in ("rig-a", "rig-b", "rig-c", "swarm")}
    hub = Hub(store, clock=lambda: now[0])
    seqs: dict[str, int] = {}

    def report(name: str, interval_seconds: float = 15.0, **fields: Any) -> None:
        seqs[name] = seqs.get(name, 0) + 1
        snap = {"status_line": fields.pop("status", "L1 · 360k tok/h"), "state": "training", "as_of": now[0],
                "rate": {"tokens_per_hour": 360_000.0}, **fields}
        body = report_body(machine=name, stream="d" * 16, seq=seqs[name], sent_at=now[0],
                           interval_seconds=interval_seconds, snapshot=snap)
        assert hub.take(f"Bearer {keys[name]}", json.dumps(body).encode())[0] == 200

    swarm = {"swarm": {"rounds": [{"started_at": now[0] - 300, "ended_at": now[0] - 240, "peers": 3,
                                   "outcome": "ok"}]}}
    kept = FleetFrames(hub.fleet, kept=hub.fleet_kept, clock_words=with_clock_words)
    fresh = FleetFrames(hub.fleet)
    pushed: list[tuple[FleetFrame, FleetFrame]] = []
    steps = [
        # The swarm reports every 60 s: online for 3 min without a report, its round's age moving.
        lambda: [report(name) for name in ("rig-a", "rig-b", "rig-c")] and report("swarm", 60.0, training=swarm),
        lambda: report("rig-a", status="L1 · 401k tok/h"),
        lambda: None,  # the clock alone: ages move, the swarm's round ages
        lambda: report("rig-b", state="idle", rate={"tokens_per_hour": 1000.0, "was_tokens_per_hour": 360_000.0}),
        lambda: None,
        lambda: store.enroll("rig-d", now[0]),
        lambda: report("rig-a"),
        lambda: store.revoke("rig-c", now[0]),
        lambda: report("rig-b"),  # rig-c gone, rig-a soon offline (45 s without a report)
        lambda: None,
        lambda: report("rig-a", queue={"position": 12, "trend_per_hour": 30.0}),
    ]
    for step in steps:
        step()
        now[0] += 20.0
        a, b = kept.next(), fresh.next()
        for old_a, old_b in pushed[-3:]:  # the page that has the last push, and pages that missed some
            assert a.text_after(old_a) == b.text_after(old_b)
        assert a.full_text() == b.full_text() == hub.fleet_json()
        pushed.append((a, b))
    changed = [json.loads(a.text_after(old_a)) for (old_a, _), (a, _) in itertools.pairwise(pushed)]
    assert any(delta["cards"].get("rig-a", {}).get("state") == "offline" for delta in changed)
    assert any("round_text" in delta["cards"].get("swarm", {}) for delta in changed)
    assert any(delta["gone"] == ["rig-c"] for delta in changed)
