"""The fleet's header sums production only: a hub with a training, an idle and an offline machine.

Each machine's snapshot comes from a composed Train-at-Home log read by the real monitor; the
figures are worked out by hand below, never taken from the code's own output.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from app.hub.report import report_body
from app.hub.service import Hub
from app.hub.store import HubStore
from app.live.monitor import Monitor
from app.snapshot import to_dict
from tests.conftest import LogWriter, iota_line

# A whole second, a little in the past: the logs' stamps are exact and nothing is "in the future".
T = float(int(time.time()) - 10)
R = T - 1800  # every machine registered in layer 1 half an hour ago


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def compose(path: Path, *, passes_until: float) -> None:
    """Registered at R; a pass (4 × 800 = 3200 tokens) every 15 s up to ``passes_until``; a heartbeat line every 20 s to T."""
    writer = LogWriter(path)
    lines: list[tuple[float, str]] = [(R, line) for line in writer.registered(1, R)]
    t = R + 15
    while t <= passes_until:
        lines += [(t, line) for line in writer.forward(1, t)]
        t += 15
    beat = R + 20
    while beat <= T:
        lines.append((beat, iota_line(beat, "DEBUG", "subnet.common_api_client:orchestrator_request:33",
                                      "Making orchestrator request | method: GET | path: /miner/heartbeat")))
        beat += 20
    lines.sort(key=lambda pair: pair[0])
    writer.write([line for _, line in lines])


def snapshot_of(path: Path, at: float) -> dict[str, Any]:
    monitor = Monitor(path)
    monitor.read_once(path, until=at)
    return to_dict(monitor.snapshot(at))


def report(hub: Hub, key: str, name: str, snap: dict[str, Any], at: float) -> None:
    body = report_body(machine=name, stream="c" * 16, seq=1, sent_at=at, interval_seconds=15.0, snapshot=snap)
    status, answer = hub.take(f"Bearer {key}", json.dumps(body).encode())
    assert status == 200, answer


def test_the_header_sums_only_the_machine_that_trains(tmp_path: Path) -> None:
    # trainer: passes R+15 … R+1800 = T (120). Window (T − 1200, T]: passes R+615 … R+1800 = 80
    #   → 80 / 1200 s × 3600 = 240 passes/h × 3200 = 768,000 tok/h.
    # idle: passes R+15 … R+900 (60), then only heartbeats: no pass for 900 s > max(5 min, 4 × 15 s)
    #   → idle, no rate; at its last pass 60 passes / 900 s = 240/h → "was 768k".
    # gone: the trainer's twin, whose last report came at T − 60: 60 s > 3 × 15 s → offline.
    for name, until in (("trainer", T), ("idle", R + 900), ("gone", T)):
        compose(tmp_path / f"{name}.log", passes_until=until)
    store = HubStore(tmp_path / "hub.sqlite3")
    keys = {name: store.enroll(name, R) for name in ("trainer", "idle", "gone")}
    clock = Clock(T - 60)
    hub = Hub(store, clock=clock)
    gone = snapshot_of(tmp_path / "gone.log", T - 60)
    assert gone["state"] == "training"
    report(hub, keys["gone"], "gone", gone, T - 60)
    clock.now = T
    for name in ("trainer", "idle"):
        report(hub, keys[name], name, snapshot_of(tmp_path / f"{name}.log", T), T)

    view = hub.fleet()
    cards = {card["name"]: card for card in view["machines"]}
    trainer, idle, offline = cards["trainer"], cards["idle"], cards["gone"]
    assert (trainer["state"], trainer["tokens_per_hour"], trainer["tokens_per_hour_text"]) == (
        "training", 768_000.0, "768k tok/h")
    assert (idle["state"], idle["level"], idle["tokens_per_hour"]) == ("idle", "warning", None)
    assert idle["was_text"] == "was 768k" and idle["network_bytes_per_second"] is None
    assert (offline["state"], offline["level"], offline["online"]) == ("offline", "problem", False)
    assert offline["tokens_per_hour"] is None and offline["layer"] is None
    # What it was last doing and since when: trained since R + 180 (3 passes over 3 minutes).
    since = time.strftime("%H:%M", time.localtime(R + 180))
    assert offline["last_doing_text"] == f"was training (L1 · 768k tok/h) since {since}"
    totals = view["totals"]
    assert (totals["online"], totals["offline"], totals["training"], totals["idle"]) == (2, 1, 1, 1)
    assert totals["tokens_per_hour"] == 768_000.0 and totals["tokens_per_hour_text"] == "768k tok/h"
    store.close()
