"""Loss spikes that recover: counted as episodes, silent on healthy runs (composed series, figures by hand;
and every real log in tests/data/real)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from app.alerts.rules import LossSpike
from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import Snapshot, to_json
from app.stats.steps.spikes import Spikes
from tests.reallogs import REAL, body

T0 = 1_800_000_000.0
# A level of 2.0 wandering ±0.05 (a healthy run's logged loss), by step.
WOBBLE = [2.0, 2.05, 1.95, 2.02, 1.98, 2.04, 1.96, 2.01, 1.99, 2.03]


def level(steps: range) -> list[tuple[int, float]]:
    return [(n, WOBBLE[n % len(WOBBLE)]) for n in steps]


def counted(series: list[tuple[int, float]]) -> Spikes:
    spikes = Spikes()
    for step, loss in series:
        spikes.take(step, loss)
    return spikes


def test_a_three_times_spike_that_recovers_is_one_spike_at_its_first_step() -> None:
    # 60 steps at 2.0 ± 0.05 (median 2.0, MAD 0.02-0.03: the band is max(8 × 1.4826 × MAD, 1.0) = 1.0 above),
    # then 6.0, 4.5, 3.1 (all above 3.0), 2.4 (below), and the level again.
    series = level(range(60)) + [(60, 6.0), (61, 4.5), (62, 3.1), (63, 2.4)] + level(range(64, 120))
    spikes = counted(series)
    assert (spikes.count, list(spikes.steps), spikes.in_spike) == (1, [60], False)


def test_two_spikes_apart_are_two() -> None:
    series = level(range(60)) + [(60, 6.0)] + level(range(61, 100)) + [(100, 5.0), (101, 5.5)] + level(range(102, 130))
    assert list(counted(series).steps) == [60, 100]


def test_a_healthy_fall_and_its_noise_are_no_spike() -> None:
    # A loss falling from 10 to 2 with ±10 % noise, then rising 20 % at a learning-rate bump: no spike.
    falling = [(n, (10.0 - 0.08 * n) * (1.1 if n % 3 == 0 else 0.95)) for n in range(100)]
    bump = [(n, 2.4 * (1.05 if n % 2 else 0.97)) for n in range(100, 140)]
    assert counted(falling + bump).count == 0


def test_a_loss_that_rises_from_exactly_zero_is_no_spike() -> None:
    # TRL's GRPO logs its loss as 0.000000 while the policy is the reference, then 0.000100 as it moves
    # (unslothai/unsloth issue 2291, tests/data/real): a window of zeros has no level to spike above
    assert counted([(n, 0.0) for n in range(1, 9)] + [(9, 0.0001), (10, 0.0001), (11, 0.0001)]).count == 0
    # a window with a level of its own still judges a rise, zeros among it or not (composed: median 2.0, MAD 0)
    assert counted([(n, 0.0 if n in (3, 7) else 2.0) for n in range(20)] + [(20, 9.0)]).count == 1


def test_a_spike_is_judged_only_after_ten_losses_and_never_on_nan() -> None:
    assert counted([(n, 2.0) for n in range(9)] + [(9, 9.0)]).count == 0
    assert counted(level(range(20)) + [(20, float("nan")), (21, float("inf"))]).count == 0


def counted_in_runs(series: list[tuple[int, float]], cuts: tuple[int, ...]) -> Spikes:
    """The bulk import's way: the series in runs split at ``cuts``, each judged by ``take_many``."""
    spikes = Spikes()
    for begin, end in zip((0, *cuts), (*cuts, len(series)), strict=True):
        spikes.take_many([step for step, _ in series[begin:end]], [loss for _, loss in series[begin:end]])
    return spikes


@pytest.mark.parametrize("cuts", [(), (7,), (59, 61), (60, 62, 63), (30, 100)])
def test_losses_judged_in_runs_count_as_one_by_one(cuts: tuple[int, ...]) -> None:
    # The two spikes above (at 60, and at 100 lasting two losses), whole or split anywhere, a spike
    # still open at a run's end (61 of 60-62) closing in the next.
    series = level(range(60)) + [(60, 6.0), (61, 4.5), (62, 3.1)] + level(range(63, 100))
    series += [(100, 5.0), (101, 5.5)] + level(range(102, 130))
    spikes = counted_in_runs(series, cuts)
    assert (spikes.count, list(spikes.steps), spikes.in_spike) == (2, [60, 100], False)
    assert list(spikes.recent) == [loss for _, loss in series[-50:]]
    still = counted_in_runs(level(range(60)) + [(60, 6.0), (61, 4.5)], cuts[:1])
    assert (still.count, list(still.steps), still.in_spike) == (1, [60], True)
    # nan and inf are left out, as one by one; fewer than ten losses judge nothing.
    skipped = counted_in_runs(level(range(20)) + [(20, float("nan")), (21, float("inf")), (22, 2.0)], cuts[:1])
    assert (skipped.count, len(skipped.recent)) == (0, 21)
    assert counted_in_runs([(n, 2.0) for n in range(9)] + [(9, 9.0)], ()).count == 0


def test_the_spike_in_details_snapshot_metrics_and_the_off_by_default_alert(tmp_path: Path) -> None:
    lines = [f"step {n} | loss {loss:.4f} | dt 100.0ms" for n, loss in level(range(40))]
    lines += ["step 40 | loss 6.0000 | dt 100.0ms"] + [f"step {n} | loss {loss:.4f} | dt 100.0ms"
                                                     for n, loss in level(range(41, 60))]
    log = tmp_path / "run.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    snap = monitor.snapshot(T0)
    data: dict[str, Any] = json.loads(to_json(snap))
    assert (data["training"]["loss_spikes"], data["training"]["loss_spike_steps"]) == (1, [40])
    assert "Loss spikes 1 (the latest at step 40, recovered)" in data["details"]
    from app.prometheus import SnapshotCollector, exposition, registry_for

    text = exposition(registry_for(SnapshotCollector(lambda: [((), snap)]), process=False)).decode()
    assert "tokwatch_train_loss_spikes 1.0" in text
    rule = LossSpike()
    assert rule.observe(snap, T0) == []  # the first look is the baseline
    later = _with_spikes(snap, 2, (40, 80))
    assert [h.text for h in rule.observe(later, T0 + 60)] == ["the loss spiked at step 80 (2 spikes so far)"]


def _with_spikes(snap: Snapshot, count: int, steps: tuple[int, ...]) -> Snapshot:
    from dataclasses import replace

    assert snap.training is not None
    return replace(snap, training=replace(snap.training, loss_spikes=count, loss_spike_steps=steps))


HEALTHY = sorted(p.name for p in REAL.iterdir() if not p.name.startswith(("broken-", "crash-")))


def test_healthy_real_logs_flag_no_spike(tmp_path: Path) -> None:
    """Every real log not kept for a fault: the detector's count on each (the goal is none)."""
    flagged = {}
    for name in HEALTHY:
        log = tmp_path / name
        log.write_text("\n".join(body(name)) + "\n", encoding="utf-8")
        os.utime(log, (T0, T0))
        monitor = Monitor(log, clock=lambda: T0)
        monitor.backlog(read_backwards(log))
        training = json.loads(to_json(monitor.snapshot(T0))).get("training") or {}
        if training.get("loss_spikes"):
            flagged[name] = training["loss_spikes"]
    assert flagged == {}
    assert len(HEALTHY) > 150


@pytest.mark.parametrize("name", ["generic-megatron-deepspeed-bigscience-file-tr11-176B-chronicles-loss-spike.log"])
def test_a_spike_after_too_few_losses_is_not_judged(tmp_path: Path, name: str) -> None:
    # BLOOM's first spike (5.098 at 31219) comes after five losses: too few to know the level.
    assert counted([(n, 2.0) for n in range(5)] + [(5, 5.098)]).count == 0
