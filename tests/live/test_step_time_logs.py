"""The time a step takes, as shown beside the rate: composed logs whose answers are worked out by hand,
read cold as ``run.py once`` does. The step time shown and the rate beside it come from one measured
stretch (3600 / steps per hour), unless the trainer printed its own, which is then said to be its own."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import to_json

T0 = 1_800_000_000.0  # the modification time an undated log is given


def read(tmp_path: Path, lines: list[str], mtime: float = T0) -> dict[str, Any]:
    """The snapshot of ``lines`` read cold, at the last line's time."""
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (mtime, mtime))
    monitor = Monitor(log, clock=lambda: mtime)
    monitor.backlog(read_backwards(log))
    now = monitor.last_event_at()
    assert now is not None
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(now)))
    return data


def clock(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(1_750_000_000 + seconds))


def restarted_epochs() -> list[str]:
    """Epochs 37 min apart (2,220 s), a restart of 2 h 30 min between epochs 3 and 4, and an
    irregular stretch early on: the last epochs are what the rate measures."""
    lines, t = [], 0.0
    for n in range(15):
        lines.append(f"{clock(t)} Epoch {n}, loss {2.0 - n * 0.05:.3f}")
        t += 9000 if n == 3 else (1500 if n < 3 else 2220)
    return lines


def cumulative_clock() -> list[str]:
    """Undated lines every 10 epochs, each printing the run's clock so far (810 s an epoch)."""
    return [f"Epoch {n}, Time {n * 810.0:.1f}s, Loss {0.6 - n * 0.001:.4f}" for n in range(10, 130, 10)]


def doubled_lines() -> list[str]:
    """Dated step lines 30 s apart, each printed twice (two logging handlers), from step 101 (a resume)."""
    lines = []
    for n in range(101, 141):
        line = f"{clock((n - 101) * 30.0)} step {n} loss {3.0 - n * 0.001:.4f}"
        lines += [line, line]
    return lines


@pytest.mark.parametrize(
    ("lines", "step_seconds", "shown"),
    [
        # The window (20 min) holds part of the last epoch's 2,220 s: 1.62 steps/h, 37 min a step (the
        # restart's 2 h 30 min long gone from it, though among the recent lines).
        (restarted_epochs(), 2220.0, "step 37 min"),
        # 10 epochs in 8,100 s of the trainer's clock: 810 s an epoch (4.44 steps/h), never the clock itself.
        (cumulative_clock(), 810.0, "step 13 min"),
        # 39 steps over 39 × 30 s, each line twice: 30 s a step (120 steps/h), never 1,170 s over 140 steps.
        (doubled_lines(), 30.0, "step 30.00 s"),
    ],
    ids=["restart-gap", "cumulative-clock", "doubled-lines"],
)
def test_the_step_time_is_the_rate_s_own(tmp_path: Path, lines: list[str], step_seconds: float, shown: str) -> None:
    data = read(tmp_path, lines)
    training = data["training"]
    assert training["steps_per_hour"] == pytest.approx(3600 / step_seconds, rel=1e-3)
    assert training["step_seconds"] == pytest.approx(step_seconds, rel=1e-3)
    assert shown in data["details"]


def test_a_printed_step_time_is_said_to_be_the_trainer_s(tmp_path: Path) -> None:
    """The trainer prints its own time of a step (``dt``): it is shown as printed, and said so."""
    lines = [f"{clock(n * 4.0)} step {n} loss {3.0 - n * 0.001:.4f} dt 3500.00ms" for n in range(1, 60)]
    data = read(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(3.5)
    assert "step 3.50 s (as printed)" in data["details"]


@pytest.mark.parametrize(
    ("said", "step_seconds", "shown"),
    [("12.3 seconds/step", 12.3, "step 12.30 s (as printed)"),
     ("12.3 seconds per step", 12.3, "step 12.30 s (as printed)"),
     ("(12.3 sec/it)", 12.3, "step 12.30 s (as printed)"),
     ("850 ms per iteration", 0.85, "step 850 ms (as printed)")],
)
def test_a_step_time_printed_in_words_is_timing(tmp_path: Path, said: str, step_seconds: float, shown: str) -> None:
    """Undated ``Step N loss X <time a step>`` lines, 300 of them: placed by the printed time, so the rate
    is 3600 / that time (292.7 steps/h at 12.3 s; 4,235 at 850 ms), never "no timing in this log"."""
    lines = [f"Step {n} loss {3.0 - n * 0.001:.4f} {said}" for n in range(1, 301)]
    data = read(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(step_seconds)
    assert data["training"]["steps_per_hour"] == pytest.approx(3600 / step_seconds, rel=1e-3)
    assert shown in data["details"]
    assert not any("no timing" in line for line in data["details"])


def test_mlx_lm_s_tokens_an_hour_are_the_ones_it_prints(tmp_path: Path) -> None:
    """MLX-LM's ``It/sec`` and ``Tokens/sec`` are its report's averages over 10 iterations. Reports alternate
    40 s (0.25 it/s, 4,000 tokens at 100 tok/s) and 20 s (0.5 it/s, 4,000 tokens at 200 tok/s). By hand:
    the first report counts as its last iteration (2 s at 200 tok/s: 400 tokens), then 40,000 tokens in
    300 s from iter 10 to 110: 40,400 tokens and 101 steps in 302 s, 481.6k tok/h (between the printed
    360k and 720k) and 1,204 steps/h; never the 686k of each report's time taken as its fastest
    iteration's."""
    lines = ["Trainable parameters: 0.5% (4.2M/800M)", "Starting training..., iters: 1000"]
    for n in range(10, 120, 10):
        its, rate = (0.25, 100.0) if n % 20 == 0 else (0.5, 200.0)
        lines.append(f"Iter {n}: Train loss {2.0 - n * 0.001:.3f}, Learning Rate 1.000e-05, It/sec {its:.3f}, "
                     f"Tokens/sec {rate:.3f}, Trained Tokens {n * 400}, Peak mem 20.000 GB")
    data = read(tmp_path, lines)
    training = data["training"]
    assert training["tokens_per_hour"] == pytest.approx(40_400 / 302 * 3600)
    assert training["steps_per_hour"] == pytest.approx(101 / 302 * 3600)


def test_an_epoch_s_elapsed_seconds_are_no_step_s_time(tmp_path: Path) -> None:
    """flair's ``iter N/M - loss X - time (sec): T``: T is the epoch's time so far, not a step's. 43
    iterations a line at 0.37 s each (T grows by 15.91 s a line, and starts again with the next epoch, whose
    20 lines span 318 s): 0.37 s a step, 9,730 steps/h."""
    lines = []
    for epoch_number in (1, 2):
        for k in range(1, 21):
            lines.append(f"epoch {epoch_number} - iter {43 * k}/864 - loss {1.5 - 0.01 * k - epoch_number * 0.1:.8f}"
                         f" - time (sec): {43 * k * 0.37:.2f} - samples/sec: 86.49 - lr: 0.100000")
        lines += ["-" * 100, f"EPOCH {epoch_number} done: loss 1.2000 - lr 0.100000"]
    data = read(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(0.37, rel=1e-3)
    assert data["training"]["steps_per_hour"] == pytest.approx(3600 / 0.37, rel=1e-3)
    assert "step 370 ms" in data["details"]
