"""/metrics' collector: names, types, labels and values from composed snapshots (made as a hub makes a report's)."""

from __future__ import annotations

from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.hub.report import reported_snapshot
from app.prometheus import STATES, SnapshotCollector, exposition, registry_for


def miner(**changes: Any) -> dict[str, Any]:
    """A training miner's snapshot dict, shaped like app.snapshot.to_dict's output."""
    snap: dict[str, Any] = {
        "status_line": "L1 · 358k tok/h",
        "state": "training",
        "layer": 1,
        "queue": None,
        "rate": {"measured": True, "tokens_per_hour": 358_400.0, "passes_per_hour": 112.0, "last_pass_at": 1_796_000_000.0},
        "run": {"id": "4.12.16.5-tah", "epoch": 49, "phase": "training"},
        "gpu_memory": {"used_gb": 3.02, "total_gb": 3.86},
        "counts": {"passes": 336, "tokens": 1_075_200, "backend_errors": {"503": 3, "404": 1}},
        "network": {"bytes_per_second": 1_250_000.0, "window_seconds": 1200.0},
        "source": {"last_event_at": 1_796_000_010.0},
        "as_of": 1_796_000_020.0,
        "training": None,
    }
    snap.update(changes)
    return snap


def scrape(*snaps: tuple[dict[str, str], dict[str, Any]], labels: tuple[str, ...] = ()) -> dict[str, Any]:
    typed = [(labels_, reported_snapshot(snap)) for labels_, snap in snaps]
    registry = registry_for(SnapshotCollector(lambda: typed, labels), process=False)
    samples: dict[str, Any] = {}
    types: dict[str, str] = {}
    for family in text_string_to_metric_families(exposition(registry).decode()):
        types[family.name] = family.type
        for sample in family.samples:
            key = (sample.name, tuple(sorted(sample.labels.items())))
            samples[key] = sample.value  # type: ignore[index]
    samples["__types__"] = types
    return samples


def test_a_training_miner_exports_its_figures_in_base_units() -> None:
    got = scrape(({}, miner()))
    assert got[("tokwatch_tokens_per_hour", ())] == 358_400.0
    assert got[("tokwatch_passes_total", ())] == 336
    assert got[("tokwatch_tokens_total", ())] == 1_075_200
    assert got[("tokwatch_backend_errors_total", (("code", "503"),))] == 3
    assert got[("tokwatch_backend_errors_total", (("code", "404"),))] == 1
    assert got[("tokwatch_last_pass_timestamp_seconds", ())] == 1_796_000_000.0
    assert got[("tokwatch_layer", ())] == 1
    assert got[("tokwatch_network_bytes_per_second", ())] == 1_250_000.0
    assert got[("tokwatch_gpu_memory_used_bytes", ())] == pytest.approx(3.02e9)
    assert got[("tokwatch_run_info", (("run_id", "4.12.16.5-tah"),))] == 1
    types = got["__types__"]
    assert types["tokwatch_passes"] == "counter" and types["tokwatch_tokens_per_hour"] == "gauge"


def test_one_state_series_per_state_and_only_the_current_is_one() -> None:
    got = scrape(({}, miner(state="idle")))
    values = {state: got[("tokwatch_state", (("state", state),))] for state in STATES}
    assert values["idle"] == 1 and sum(values.values()) == 1
    # A state this version does not know yet still gets its series.
    got = scrape(({}, miner(state="paused")))
    assert got[("tokwatch_state", (("state", "paused"),))] == 1
    assert got[("tokwatch_state", (("state", "training"),))] == 0


def test_unknown_figures_are_absent_not_zero() -> None:
    snap = miner(rate={"measured": False, "tokens_per_hour": None}, layer=None, network=None, counts=None,
                 run=None, gpu_memory=None)
    got = scrape(({}, snap))
    names = {k[0] for k in got if k != "__types__"}
    for absent in ("tokwatch_tokens_per_hour", "tokwatch_layer", "tokwatch_network_bytes_per_second",
                   "tokwatch_passes_total", "tokwatch_run_info", "tokwatch_gpu_memory_used_bytes"):
        assert absent not in names
    assert "tokwatch_state" in names


def test_queue_position_while_queued() -> None:
    got = scrape(({}, miner(state="queued", layer=None, queue={"position": 1583, "status": "queued"})))
    assert got[("tokwatch_queue_position", ())] == 1583


def test_the_queue_entrys_forensics_while_queued() -> None:
    queue = {"position": 1687, "status": "queued", "trend_per_hour": 5220.0, "resets_24h": 1, "resets_7d": 3,
             "best_position": 74, "positions_lost": 1613, "since": 1_790_000_000.0,
             "growing_since": 1_790_003_600.0}
    got = scrape(({}, miner(state="queued", layer=None, queue=queue)))
    assert got[("tokwatch_queue_resets_24h", ())] == 1 and got[("tokwatch_queue_resets_7d", ())] == 3
    assert got[("tokwatch_queue_best_position", ())] == 74 and got[("tokwatch_queue_positions_lost", ())] == 1613
    assert got[("tokwatch_queue_trend_positions_per_hour", ())] == 5220
    assert got[("tokwatch_queue_since_timestamp_seconds", ())] == 1_790_000_000
    assert got[("tokwatch_queue_growing_since_timestamp_seconds", ())] == 1_790_003_600
    steady = scrape(({}, miner(state="queued", layer=None, queue={**queue, "growing_since": None})))
    assert ("tokwatch_queue_growing_since_timestamp_seconds", ()) not in steady
    training = scrape(({}, miner()))
    assert not any(key[0].startswith("tokwatch_queue_") for key in training)


def test_step_trainer_figures() -> None:
    training = {"step": 1020, "total_steps": 5000, "loss": 3.3665, "tokens_per_hour": 4_501_058_748.0,
                "tokens_per_second": None, "mfu": 35.78, "seconds_since_step": 4.0, "eta_seconds": 1200.0}
    got = scrape(({}, miner(training=training, layer=None, run=None)))
    assert got[("tokwatch_train_step", ())] == 1020
    assert got[("tokwatch_train_loss", ())] == 3.3665
    assert got[("tokwatch_train_tokens_per_second", ())] == pytest.approx(4_501_058_748.0 / 3600)
    assert got[("tokwatch_train_mfu_ratio", ())] == pytest.approx(0.3578)
    assert got[("tokwatch_train_last_step_timestamp_seconds", ())] == 1_796_000_016.0


def test_a_per_gpu_rate_is_not_passed_off_as_the_run_s() -> None:
    training = {"step": 5, "tokens_per_hour": None, "tokens_per_second": 1000.0, "tokens_per_second_scope": "gpu"}
    got = scrape(({}, miner(training=training)))
    assert ("tokwatch_train_tokens_per_second", ()) not in got


def test_the_hub_labels_every_machine() -> None:
    got = scrape(({"machine": "rig-a"}, miner()), ({"machine": "rig-b"}, miner(layer=3)), labels=("machine",))
    assert got[("tokwatch_layer", (("machine", "rig-a"),))] == 1
    assert got[("tokwatch_layer", (("machine", "rig-b"),))] == 3
    assert got[("tokwatch_state", (("machine", "rig-b"), ("state", "training")))] == 1


def test_an_idle_miner_exports_no_rate_and_no_network() -> None:
    from app.snapshot import SourceView, to_dict
    from app.stats.events import ActivationShape, ForwardPass, P2PTransfer, Registered, Tick
    from app.stats.iota.tracker import IotaTracker

    t0 = 1_796_000_000.0
    tracker = IotaTracker()
    tracker.apply(Registered(t0, 1, 48))
    tracker.apply(ActivationShape(t0 + 1, 4, 800))
    for i in range(80):  # a pass and a 200 kB push every 15 s to t0 + 1200: 768k tok/h
        tracker.apply(P2PTransfer(t0 + 15 * (i + 1) - 2, "recv", 200_000))
        tracker.apply(ForwardPass(t0 + 15 * (i + 1), f"a{i}", 1))
    source = SourceView(path="/x.log", size_bytes=1, lines_read=1, bad_lines=0, last_event_at=t0 + 1920)
    training = scrape(({}, to_dict(tracker.snapshot(t0 + 1200, source))))
    for k in range(1, 73):  # then 12 minutes of log lines and no pass: idle
        tracker.apply(Tick(t0 + 1200 + 10 * k))
    idle = scrape(({}, to_dict(tracker.snapshot(t0 + 1920, source))))
    assert idle[("tokwatch_state", (("state", "idle"),))] == 1
    # The window still held 32 passes and their pushes: the past, not a rate of now.
    for name in ("tokwatch_tokens_per_hour", "tokwatch_passes_per_hour", "tokwatch_network_bytes_per_second"):
        assert (name, ()) not in idle
    assert idle[("tokwatch_last_pass_timestamp_seconds", ())] == t0 + 1200
    # The snapshot at the last pass still said the rate: 80 × 3 × 3200.
    assert training[("tokwatch_tokens_per_hour", ())] == 768_000.0
