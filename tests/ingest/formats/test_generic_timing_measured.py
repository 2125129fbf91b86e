"""A step's or an epoch's time is what the log measures: its own printed rate before a time measured from its dates,
a measured time over the steps alone (no evaluation's pause in it), an epoch's time only from an epoch seen whole, and
no time at all from a step-0 line printed before any training. Composed logs, each answer worked out by hand; real
excerpts in tests/live/test_real_logs.py (OLMo's ``batches_per_second``: tests/data/real/generic-olmo-*.log; an
evaluation's pause left out: generic-siastegnet-issue1-*.log)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from tests.coldread import read_cold

START = datetime(2025, 3, 2, 7, 0, 0)


def _at(seconds: float) -> str:
    return (START + timedelta(seconds=seconds)).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]


def _details(data: dict) -> list[str]:
    return list(data["details"])


def test_a_printed_rate_of_batches_is_the_step_s_time_across_a_save(tmp_path: Path) -> None:
    """Steps 3.9 s apart, a checkpoint's save of 32 s after step 5, the trainer printing ``batches_per_second=0.2564``
    (3.90 s a step) on each record: the step's time is one over it, 3.90 s, said so; the dates over steps 1 to 8 would
    give (7 × 3.9 + 32) / 7 = 8.47 s, the save's pause in it."""
    lines, t = [], 0.0
    for step in range(1, 9):
        lines.append(f"{_at(t)} - INFO - step {step}/1000 | loss {3.0 - step / 100:.2f} | batches_per_second 0.2564")
        if step == 5:
            lines.append(f"{_at(t + 0.5)} - INFO - Saving checkpoint to ckpt/step5")
            t += 32
        t += 3.9
    data = read_cold(tmp_path, lines, dated=True)
    assert data["training"]["step"] == 8
    assert abs(data["training"]["step_seconds"] - 1 / 0.2564) < 1e-6
    assert "step 3.90 s (1 / the batches a second printed)" in _details(data)


def test_a_step_0_line_before_any_training_prints_no_step_s_time(tmp_path: Path) -> None:
    """modded-nanogpt's validation before its first step prints ``train_time:0ms step_avg:0.01ms``: its timer's
    placeholder, no step's time; the run waits for its first step, step 0's validation loss shown."""
    lines = ["step:0/5000 val_loss:10.8258 train_time:0ms step_avg:0.01ms"]
    data = read_cold(tmp_path, lines)
    assert data["state"] == "working"
    assert data["training"]["step_seconds"] is None
    assert not any(line.startswith("step ") and " ms" in line for line in _details(data))
    assert data["training"]["eval"]["val_loss"]["value"] == 10.8258


def test_a_measured_step_time_leaves_the_evaluations_pauses_out(tmp_path: Path) -> None:
    """A line every 50 steps, 56.5 s apart (1.13 s a step), a validation of 100 s after steps 200 and 400 (each
    printed at its end): the lines to step 500 span 10 × 56.5 + 2 × 100 = 765 s over 500 steps, 1.53 s a step with the
    pauses; the step's own time leaves the two lines after them out: 8 × 56.5 s over 8 × 50 steps = 1.13 s, said so,
    beside the rate that says it holds them."""
    lines, t = [], 0.0
    for step in range(0, 550, 50):
        lines.append(f"{_at(t)} - trainer - INFO - Step {step} | Loss: 0.{30 - step // 50:02d} | LR: 1.00e-05")
        if step in (200, 400):
            t += 100
            lines.append(f"{_at(t)} - trainer - INFO - Validation loss: 0.0137")
        t += 56.5
    data = read_cold(tmp_path, lines, dated=True)
    assert data["training"]["step"] == 500
    assert abs(data["training"]["step_seconds"] - 1.13) < 1e-6
    assert "step 1.13 s (measured from the lines' times, the evaluations' pauses left out)" in _details(data)
    assert any("its evaluations' pauses included" in line for line in _details(data))


def test_an_epoch_s_time_is_only_from_an_epoch_seen_whole(tmp_path: Path) -> None:
    """A loop that names its epoch on every batch line, 1.3 s apart, the excerpt opening mid-epoch 16 (20 of its lines)
    and a minute's evaluation before epoch 17: the 20 × 1.3 + 60 s from the first line to epoch 17's are no epoch's
    time (epoch 16 began before the log shows), and epoch 17 is not over: no epoch's time; epoch 17 is the position,
    and the lines' own pace, 1.3 s, the one time they measure."""
    lines, t = [], 0.0
    for _ in range(20):
        lines.append(f"{_at(t)} - INFO - Epoch 16 - Batch loss: 0.0030")
        t += 1.3
    t += 60
    lines.append(f"{_at(t)} - INFO - ##### Epoch 17 #####")
    for _ in range(200):
        lines.append(f"{_at(t)} - INFO - Epoch 17 - Batch loss: 0.0020")
        t += 1.3
    data = read_cold(tmp_path, lines, dated=True)
    assert data["status_line"].startswith("epoch 17")
    assert data["training"]["step_seconds"] is None
    assert not any(line.startswith("epoch ") and "measured" in line for line in _details(data))
    assert ("a line every 1.30 s in the epoch (measured from the lines' times; its lines number no batch)"
            in _details(data))
