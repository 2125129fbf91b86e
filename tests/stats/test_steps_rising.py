"""A loss that keeps rising while still a number: a warning beside the state, never a divergence by itself
(composed series, figures by hand; silent on every healthy real log in tests/data/real)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import to_json, training_from_dict
from app.stats.steps.rising import LossRise, Rise
from tests.reallogs import REAL, body

T0 = 1_800_000_000.0
# Ten losses, one every 10 steps: down to 1.8 at step 20, then up to 2.2 at step 90.
CLIMB = [2.0, 1.9, 1.8, 1.85, 1.9, 1.95, 2.0, 2.05, 2.1, 2.2]


def watched(losses: list[float], every: int = 10) -> LossRise:
    rise = LossRise()
    for n, loss in enumerate(losses):
        rise.take(n * every, loss, None)
    return rise


def test_a_climb_above_its_low_with_the_newest_the_highest_is_rising() -> None:
    # By hand: 10 records, the newest third max(3, 10 // 3) = 3: 2.05, 2.1, 2.2 (mean 2.1167). The low before them:
    # 1.8 at step 20. 2.1167 > 1.8 × 1.05 = 1.89 and 2.1167 − 1.8 = 0.317 > 0.1; each of the three above 1.8; the newest
    # 2.2 is the highest of all ten.
    assert watched(CLIMB).rising() == Rise(1.8, 20, None, 2.2, 90, None, 10, 3)


def test_what_is_no_rise() -> None:
    assert watched(CLIMB[1:]).rising() is None  # nine records: too few to judge
    assert watched([*CLIMB, 2.15]).rising() is None  # the newest (2.15) is not the highest (2.2)
    # The same shape at a level of 10: the newest three's mean 10.1167 is not 5 % above the low 9.8 (10.29).
    assert watched([loss + 8.0 for loss in CLIMB]).rising() is None
    # A tenth of it: 0.21167 is 17 % above the low 0.18, but by 0.032, not 0.1 (a loss near 0 moved by noise).
    assert watched([loss / 10 for loss in CLIMB]).rising() is None
    # One of the newest three back at the low: no sustained rise.
    assert watched([*CLIMB[:7], 1.8, 2.1, 2.2]).rising() is None
    # Records that swing widely one to the next: before the newest three, 11.5, 0.179, 5.531, 1.977, 10.438, 17.125,
    # 4.906, 10.75 move by 11.321, 5.352, 3.554, 8.461, 6.687, 12.219, 5.844 (median 6.687) about a level (their median)
    # of 7.9845: more than a quarter of it (1.996). The newest 20.0, 9.0, 26.5 would otherwise pass every other test.
    swinging = [11.5, 0.179, 5.531, 1.977, 10.438, 17.125, 4.906, 10.75, 20.0, 9.0, 26.5]
    assert watched(swinging).rising() is None
    # A healthy fall with its noise.
    assert watched([10.0 - 0.5 * n + (0.3 if n % 2 else 0.0) for n in range(15)]).rising() is None


def test_a_record_printed_again_counts_once_and_nan_is_left_out() -> None:
    rise = watched(CLIMB[:9])
    rise.take(80, 2.1, None)  # step 80 printed again with its loss: the same record
    rise.take(85, float("nan"), None)  # a divergence, judged elsewhere
    assert rise.rising() is None  # still nine
    rise.take(90, 2.2, None)
    assert rise.rising() == Rise(1.8, 20, None, 2.2, 90, None, 10, 3)


def test_losses_kept_in_runs_are_kept_as_one_by_one() -> None:
    one = watched(CLIMB)
    bulk = LossRise()
    bulk.take_many([0, 10, 20], CLIMB[:3], None, None)
    bulk.take_many([20, 30, 40, 50, 60], [CLIMB[2], *CLIMB[3:7]], None, None)  # its first the record kept last
    bulk.take_many([70, 80, 90], CLIMB[7:], [None, 2.0, None], 1.0)  # epochs: 1 (the one before), 2, 2
    assert (list(bulk.steps), list(bulk.losses)) == (list(one.steps), list(one.losses))
    assert list(bulk.epochs)[-3:] == [1.0, 2.0, 2.0]
    assert bulk.rising() == Rise(1.8, 20, None, 2.2, 90, 2.0, 10, 3)


def _snapshot(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    log = tmp_path / "run.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    snap = monitor.snapshot(T0)
    from app.prometheus import SnapshotCollector, exposition, registry_for

    data: dict[str, Any] = json.loads(to_json(snap))
    data["metrics"] = exposition(registry_for(SnapshotCollector(lambda: [((), snap)]), process=False)).decode()
    return data


def test_the_rise_in_details_snapshot_and_metrics_the_state_unchanged(tmp_path: Path) -> None:
    lines = [f"step {n * 10} | loss {loss:.4f} | dt 100.0ms" for n, loss in enumerate(CLIMB)]
    data = _snapshot(tmp_path, lines)
    assert data["state"] == "measuring"  # a rise that is still a number is no divergence
    assert ("Warning: the loss is rising, from its lowest 1.8 at step 20 to 2.2 at step 90 (each of its newest 3 of 10 "
            "records above that low, the newest the highest)") in data["details"]
    assert data["training"]["loss_rising"] == {"low": 1.8, "low_step": 20, "loss": 2.2, "step": 90, "records": 10}
    assert "tokwatch_train_loss_rising 1.0" in data["metrics"]
    view = training_from_dict(data["training"])
    assert view.loss_rising is not None and (view.loss_rising.low, view.loss_rising.step) == (1.8, 90)
    # Falling again below the newest: no warning, the field absent, the gauge 0.
    calm = _snapshot(tmp_path, [*lines, "step 100 | loss 1.9000 | dt 100.0ms"])
    assert "loss_rising" not in calm["training"]
    assert not any(line.startswith("Warning: the loss is rising") for line in calm["details"])
    assert "tokwatch_train_loss_rising 0.0" in calm["metrics"]


def test_a_rise_that_ends_in_nan_is_a_divergence_not_a_warning(tmp_path: Path) -> None:
    lines = [f"step {n * 10} | loss {loss:.4f} | dt 100.0ms" for n, loss in enumerate(CLIMB)]
    data = _snapshot(tmp_path, [*lines, "step 100 | loss nan | dt 100.0ms"])
    assert data["state"] == "diverged"
    assert "loss_rising" not in data["training"]


def test_the_rise_names_each_steps_epoch_where_the_count_restarts(tmp_path: Path) -> None:
    # PyTorch's word_language_model prints batches within an epoch: a low in epoch 1 and the newest in epoch 2.
    losses = [6.0, 5.5, 5.2, 5.3, 5.4, 5.5, 5.6, 5.7, 5.8, 6.1]
    lines = []
    for n, loss in enumerate(losses):
        epoch, batch = (1, 200 * (n + 1)) if n < 5 else (2, 200 * (n - 4))
        lines.append(f"| epoch {epoch:3d} | {batch:5d}/ 1000 batches | lr 20.00 | ms/batch 11.00 | loss {loss:5.2f} "
                     f"| ppl {2.718281828 ** loss:8.2f}")
    data = _snapshot(tmp_path, lines)
    # By hand: the newest three 5.7, 5.8, 6.1 (mean 5.867) against the low 5.2 (batch 600 of epoch 1): 12.8 % and 0.667
    # above it; 6.1 the highest of the ten.
    assert any(line.startswith("Warning: the loss is rising, from its lowest 5.2 at step 600 of epoch 1 to 6.1 at step "
                               "1,000 of epoch 2") for line in data["details"]), data["details"]


def test_a_real_finetune_whose_per_step_loss_swings_is_no_rise(tmp_path: Path) -> None:
    # awslabs/keys_values issue 97 (tests/data/real): loss train 11.500 at iter 170 (printed twice), 0.179 at 171, ...,
    # 20.000 at 178, 9.000 at 179, 26.500 at 180: eleven records whose swing is the one above, no rise.
    name = "generic-keys-values-issue97-litgpt-style-val-loss-valid-carried-between-val-lines-iter-170-180.log"
    data = _snapshot(tmp_path, body(name))
    assert (data["training"]["step"], data["training"]["loss"]) == (180, 26.5)
    assert "loss_rising" not in data["training"]


HEALTHY = sorted(p.name for p in REAL.iterdir() if not p.name.startswith(("broken-", "crash-")))


def test_healthy_real_logs_flag_no_rise(tmp_path: Path) -> None:
    """Every real log not kept for a fault: the rise watch's warning on each (the goal is none)."""
    flagged = []
    for name in HEALTHY:
        log = tmp_path / name
        log.write_text("\n".join(body(name)) + "\n", encoding="utf-8")
        os.utime(log, (T0, T0))
        monitor = Monitor(log, clock=lambda: T0)
        monitor.backlog(read_backwards(log))
        training = json.loads(to_json(monitor.snapshot(T0))).get("training") or {}
        if training.get("loss_rising"):
            flagged.append(name)
    assert flagged == []
    assert len(HEALTHY) > 150
