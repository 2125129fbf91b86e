"""A log that prints only its evaluations (the lecture GPT's ``step N: train loss X, val loss Y``) is read by them.

Two training-loss evaluations at rising steps with no step line between say the evaluations are the run's only
record: its step is theirs and its loss the train loss they estimate. Where step lines come (nanoGPT's ``iter N:``),
the evaluations stay evaluations: at step 0 before the first step line, and a resumed run's first one.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor

DATA = Path(__file__).resolve().parents[1] / "data" / "real"
T0 = 1_800_000_000.0

NANOGPT = [  # nanoGPT's own lines: evaluation at 0, iterations, evaluation at 20, iteration 20
    "step 0: train loss 10.9876, val loss 10.9865",
    "iter 0: loss 10.9822, time 4021.62ms, mfu -100.00%",
    "iter 10: loss 9.5123, time 301.20ms, mfu 30.12%",
    "step 20: train loss 8.1000, val loss 8.2000",
    "iter 20: loss 8.0456, time 300.93ms, mfu 30.15%",
]
RESUMED = [  # nanoGPT resumed from a checkpoint at 2000: its evaluation first, then its iterations
    "step 2000: train loss 3.1000, val loss 3.2000",
    "iter 2000: loss 3.0456, time 300.93ms, mfu 30.15%",
    "iter 2010: loss 3.0123, time 301.20ms, mfu 30.12%",
]
FIRST_ONLY = ["step 0: train loss 4.2833, val loss 4.2869"]  # nothing trained yet


def cold(log: Path) -> Monitor:
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    return monitor


def copied(tmp_path: Path, name: str) -> Path:
    """A copy of the real log ``name``: dating it must leave the data file's own time alone."""
    return Path(shutil.copy2(DATA / name, tmp_path / name))


def test_a_real_lecture_gpt_log_is_read_by_its_evaluations(tmp_path: Path) -> None:
    name = "nanogpt-lecture-taxophoney-readme-eval-lines-only-step-0-to-4999.log"
    snapshot = cold(copied(tmp_path, name)).snapshot(T0)
    assert snapshot.format == "nanogpt" and snapshot.status_line == "done · step 4999"  # (its last iteration's evaluation)
    assert "Loss 0.8545 (estimated over evaluation batches, as printed)" in snapshot.details
    assert "Eval val_loss 1.1383 (step 4999)" in snapshot.details
    assert snapshot.state not in ("crashed", "diverged", "stalled")
    assert not any("validation" in line.lower() or "train_loss" in line for line in snapshot.details)


@pytest.mark.parametrize(("lines", "status", "loss"), [
    (NANOGPT, "step 20", "Loss 8.0456"),
    (RESUMED, "step 2010", "Loss 3.0123"),
])  # fmt: skip
def test_evaluations_beside_step_lines_stay_evaluations(tmp_path: Path, lines: list[str], status: str, loss: str) -> None:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    snapshot = cold(log).snapshot(T0)
    assert snapshot.status_line.split(" · ")[0] == status
    assert any(line.startswith(loss) for line in snapshot.details)
    assert not any("estimated over evaluation batches" in line for line in snapshot.details)


def test_one_evaluation_before_any_step_is_still_only_an_evaluation(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("\n".join(FIRST_ONLY) + "\n", encoding="utf-8")
    snapshot = cold(log).snapshot(T0)
    assert snapshot.status_line.startswith("validation only")
