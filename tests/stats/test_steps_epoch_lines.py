"""A log whose every line is an epoch says epochs: its count, its time and its rate are the epochs'.

Real: tests/data/real/generic-cltr-issue15-training-epoch-844-855-of-1500-epoch-time-dated.log (``Training
Epoch:[855/1500] … epoch_time=144.766``, dated) and generic-p2t-issue13-deit-style-json-log-epoch-98-to-108-test-at-100.log
(DeiT's JSON log, one dict an epoch, undated, ``test_loss`` at epoch 100). Composed: four dated epoch lines a minute
apart. A step that equals its epoch on one line only (litgpt's ``Epoch 1 | iter 46 step 1``, the step staying 1) is no
epoch count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from app.stats.events import TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report

ROOT = Path(__file__).parent.parent.parent
REAL = ROOT / "tests" / "data" / "real"
T0 = 1_700_000_000.0


def once(name: str) -> dict:
    done = subprocess.run([sys.executable, "run.py", "once", "--log", str(REAL / name), "--json", "--at", "end",
                           "--no-history"], capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    return json.loads(done.stdout)


def test_cltr_s_epoch_lines_read_as_epochs() -> None:
    # 11 epochs over 05:36:13.516 -> 06:03:11.035 (1,617.5 s): ~24.5 an hour, each ~2 min 26 s in the window's stretch
    data = once("generic-cltr-issue15-training-epoch-844-855-of-1500-epoch-time-dated.log")
    assert data["status_line"] == "epoch 855/1500 · 24 epochs/h"
    assert "24 epochs/h (over 20 min) · tokens per epoch not printed" in data["details"]
    assert "Stage train · epoch 855/1500 (57.0%)" in data["details"]
    assert "epoch 2 min 26 s (measured from the lines' times)" in data["details"]
    assert not any("steps" in line or line.startswith("step ") for line in data["details"])


def test_deit_s_json_epochs_and_their_evaluation_are_at_epochs() -> None:
    data = once("generic-p2t-issue13-deit-style-json-log-epoch-98-to-108-test-at-100.log")
    assert data["status_line"] == "epoch 108 · no timing"
    assert "no timing read from this log (11 epochs, no duration or time read): measured as lines arrive" in data["details"]
    assert any(line.startswith("Eval test_loss 1.2603") and line.endswith("(epoch 100)") for line in data["details"])


def test_composed_epoch_lines_a_minute_apart() -> None:
    progress = StepProgress()
    for k in range(5):  # epochs 3..7, a minute apart, step == epoch
        progress.apply(TrainStep(T0 + 60 * k, "train", 3 + k, total_steps=20, loss=1.0, epoch=3.0 + k), T0 + 60 * k)
    r = report(progress, T0 + 240)
    assert r.status_line == "epoch 7/20 · 60 epochs/h"  # 4 epochs over 4 min
    # 60 s an epoch; 13 epochs left at 60 an hour: 13 min
    assert "epoch 1 min (measured from the lines' times)" in r.details and "ETA 13 min (tokwatch)" in r.details


def test_a_step_that_equals_its_epoch_once_is_no_epoch_count() -> None:
    progress = StepProgress()
    for k in range(3):  # litgpt: the step stays 1 in epoch 1 while the iterations go on
        progress.apply(TrainStep(T0 + k, "train", 1, loss=3.7, epoch=1.0, step_seconds=0.046), T0 + k)
    r = report(progress, T0 + 2)
    assert r.status_line.startswith("step 1 · ")


def test_the_json_says_its_steps_are_epochs() -> None:
    """CLTR's epoch lines: the JSON carries ``step_unit: "epoch"``; its table labels epochs, never a "step time"."""
    data = once("generic-cltr-issue15-training-epoch-844-855-of-1500-epoch-time-dated.log")
    assert data["training"]["step_unit"] == "epoch"
    fields = {row["label"]: (row["value"], row["unit"]) for row in data["training_fields"]}
    assert fields["epoch (a line each)"] == ("855", "") and fields["total epochs"] == ("1500", "")
    assert 145.5 <= float(fields["epoch time"][0]) < 146.5 and fields["epoch time"][1] == "s"
    assert fields["epochs per hour"][1] == "epochs/h"
    assert not any(label.startswith(("step", "steps ")) for label in fields)


def test_a_log_of_steps_carries_no_step_unit() -> None:
    data = once("generic-tabnet-issue198-epoch-pipes-loss-elapsed-clock.log")  # (epochs: it does)
    assert data["training"]["step_unit"] == "epoch"
    steps = once("generic-litgpt-issue1224-lora-val-na.log")
    assert "step_unit" not in steps["training"]
    assert any(row["label"] == "step" for row in steps["training_fields"])
