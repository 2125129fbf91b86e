"""Figures shown as the log says them: durations rounded (never floored to whole minutes), tiny losses with
their significant digits, and JSON labels that agree with the state and with the steps the log printed.

Real logs from tests/data/real/ (each cites its source in its header) and composed logs whose answers are
worked out by hand in the comments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.coldread import read_cold
from tests.reallogs import body


def shown(tmp_path: Path, lines: list[str], name: str = "train.log") -> dict[str, Any]:
    """The snapshot of a log read cold, as ``run.py once --at end`` reads it: at its last line's time."""
    return read_cold(tmp_path, lines, name=name)


def fields(data: dict[str, Any]) -> dict[str, str]:
    return {row["label"]: row["value"] for row in data["training_fields"]}


@pytest.mark.parametrize(("name", "said", "not_said"), [
    # the bar's "77.90s/it": 1 min 17.9 s, to the second 1 min 18 s (never "1 min": 23 % low)
    ("crash-sd-dreambooth-ext-issue219-steps-bar-1-of-2-exception-cuda-oom.log",
     "step 1 min 18 s (as printed)", "step 1 min (as printed)"),
    # "Elapsed time 100.70498 seconds" at iteration 3: 1 min 40.7 s, to the second 1 min 41 s (not "1 min": 40 % low)
    ("generic-deeprm-issue10-iteration-blocks-elapsed-time-seconds-tabs.log",
     "step 1 min 41 s (as printed)", "step 1 min (as printed)"),
    # the bar's ETA "01:58" is 118 s: 1 min 58 s (not "1 min": 49 % low)
    ("hf-paddlenlp-pr1761-dicts-global-step-bar-200-of-600-glued-running-evaluation.log",
     "ETA 1 min 58 s (trainer)", "ETA 1 min (trainer)"),
])
def test_a_step_time_or_an_eta_under_ten_minutes_is_said_to_the_second(
        tmp_path: Path, name: str, said: str, not_said: str) -> None:
    details = shown(tmp_path, body(name), name)["details"]
    assert said in details
    assert not_said not in details


def test_epochs_146_s_apart_read_2_min_26_s(tmp_path: Path) -> None:
    # epochs 844 to 855 of 1500, dated 05:36:13.516 to 06:03:11.035; the 20-minute window to 06:03:11 holds 847 to
    # 855 (8 epochs in 1164.2 s = 145.5 s), with the stretch before it 145.5 to 146.4 s an epoch: to the second 2 min
    # 26 s, not "2 min" (18 % low); 645 epochs left × ~145.7 s = ~94,000 s = 26.1 h: "1 d 2 h"
    name = "generic-cltr-issue15-training-epoch-844-855-of-1500-epoch-time-dated.log"
    data = shown(tmp_path, body(name), name)
    assert 145.5 <= data["training"]["step_seconds"] < 146.5
    assert "epoch 2 min 26 s (measured from the lines' times)" in data["details"]  # (a line an epoch: its time is the epoch's)
    assert "ETA 1 d 2 h (tokwatch)" in data["details"]


def test_a_composed_bar_eta_over_ten_minutes_rounds_to_the_minute(tmp_path: Path) -> None:
    # a bar at 100/1000 after 01:40 with "14:59" left: 899 s is 14.98 min, said "15 min" (the floor, 14, is 7 % low)
    lines = [f" {p}%|#   | {s}/1000 [{s // 60:02d}:{s % 60:02d}<{r // 60:02d}:{r % 60:02d},  1.00it/s, loss=2.5{s:03d}]"
             for p, s, r in ((8, 80, 1019), (9, 90, 909), (10, 100, 899))]
    data = shown(tmp_path, lines)
    assert data["training"]["trainer_eta_seconds"] == pytest.approx(899)
    assert any("15 min (trainer)" in line for line in data["details"])
    assert fields(data)["time left (trainer)"] == "15 min"


def test_a_tiny_printed_loss_keeps_its_significant_digits(tmp_path: Path) -> None:
    # the last line's "Loss: 0.000001647578983": 1.65e-06 to three figures, never "0.0000"
    name = "generic-deep-object-pose-issue220-train-epoch-bracket-percent-tab-loss.log"
    data = shown(tmp_path, body(name), name)
    assert data["training"]["loss"] == pytest.approx(1.647578983e-06)
    assert "Loss 1.65e-06 (as printed)" in data["details"]
    assert not any("0.0000" in line for line in data["details"])


def test_composed_tiny_and_normal_losses(tmp_path: Path) -> None:
    # PyTorch's MNIST example lines; the last loss 0.000912345678 reads 0.000912 (four decimals would say 0.0009)
    lines = [f"Train Epoch: 1 [{n}/1000 ({n // 10}%)]\tLoss: {loss}"
             for n, loss in ((0, "0.512345678"), (200, "0.004512345"), (400, "0.000912345678"))]
    assert "Loss 0.000912 (as printed)" in shown(tmp_path, lines)["details"]
    # a normal loss keeps its four decimals
    assert "Loss 0.5123 (as printed)" in shown(tmp_path, lines[:1], "first.log")["details"]


def test_training_complete_then_a_traceback_is_no_finish(tmp_path: Path) -> None:
    # the script's "Training complete. … or we blew up." then a traceback from trainer.fit: crashed, not finished
    name = "crash-dreambooth-joepenna-issue45-lightning-bar-training-complete-then-traceback.log"
    data = shown(tmp_path, body(name), name)
    assert data["state"] == "crashed"
    assert data["training"]["finished"] is False
    assert fields(data)["finished"] == "no"


def test_a_composed_finish_then_a_crash_is_crashed_not_finished(tmp_path: Path) -> None:
    # nanoGPT's lines to 20 of 20, its end words, then a traceback with its error: the crash is the last word
    lines = [f"iter {i}: loss {3 - i / 10:.4f}, time 100.00ms, mfu 30.00%" for i in range(0, 21, 10)]
    lines += ["Training complete.", "Traceback (most recent call last):", '  File "train.py", line 9, in <module>',
              "RuntimeError: CUDA error: an illegal memory access was encountered"]
    data = shown(tmp_path, lines)
    assert data["state"] == "crashed"
    assert data["training"]["finished"] is False


def test_a_dict_logs_evaluation_names_no_step(tmp_path: Path) -> None:
    # ten loss dicts with no step key, then one eval dict: 10 counts the dicts, it is no step of the run
    name = "hf-sentence-transformers-pr2449-v3-loss-dicts-epoch-0.38-then-eval-dict.log"
    data = shown(tmp_path, body(name), name)
    training = data["training"]
    assert training["step"] is None and training["logged_records"] == 10
    assert training["eval"]["eval_loss"] == {"value": pytest.approx(1.2490781545639038), "step": None}
    assert all(result["step"] is None for result in training["eval"].values())
    assert fields(data)["eval eval_loss"] == "1.24908"
    assert not any("(step" in row["label"] for row in data["training_fields"])
    assert not any("step 10" in line for line in data["details"])


def test_a_composed_dict_logs_eval_and_spikes_name_no_step(tmp_path: Path) -> None:
    # HF dicts without a step key: three losses then an eval; 3 counts the dicts, so the eval names no step
    lines = [f"{{'loss': {loss}, 'learning_rate': 1e-05, 'epoch': {epoch}}}"
             for loss, epoch in ((1.5, 0.1), (1.4, 0.2), (1.45, 0.3))]
    lines.append("{'eval_loss': 1.3, 'eval_runtime': 4.0, 'epoch': 0.3}")
    training = shown(tmp_path, lines)["training"]
    assert training["step"] is None and training["logged_records"] == 3
    assert training["eval"] == {"eval_loss": {"value": 1.3, "step": None}}
    assert training["loss_spike_steps"] is None
