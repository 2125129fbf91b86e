"""An epoch's batch bar and the run's step records taking turns in one log: the records are the position.

verl's SFT trainer (``verl/trainer/fsdp_sft_trainer.py``) draws a tqdm bar per epoch (``Epoch 3/3: 83%|…| 29/35``,
its count and clock back at 0 each epoch) and prints each step's record (``step:100 - train/loss:…``, counted over the
run) glued after it. The bar's restart must add no steps to the run's count or its timeline; it gives the epoch, and
its ``s/it`` the step time the records do not print.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.coldread import read_cold
from tests.live.test_real_logs import T0, cold, snap

VERL_SFT = "verl-sft-rldecisionagent-file-char-count-readme-105-final-validation-then-leftover-bar-redraw.log"


def _bar(epoch: int, done: int, clock: str, rate: str) -> str:
    filled = "#" * (done * 10 // 4)
    return f"Epoch {epoch}/3: {done * 100 // 4:3d}%|{filled:<10}| {done}/4 [{clock}, {rate}]"


def _composed() -> list[str]:
    """3 epochs of 4 batches, 12 steps: 5 s a batch in epochs 1 and 2, 4 s in epoch 3 (the bar's clocks agree)."""
    lines = ["Number of steps/epoch 4, number of epochs 3, total number of steps 12"]
    step = 0
    for epoch, each in ((1, 5), (2, 5), (3, 4)):
        for done in range(4):
            step += 1
            clock = f"00:{done * each:02d}<{'?' if done == 0 else f'00:{(4 - done) * each:02d}'}"
            rate = "?it/s" if done == 0 else f"{each:.2f}s/it"
            lines.append(_bar(epoch, done, clock, rate) + f"step:{step} - train/loss:{1.0 - step / 100:.2f} - "
                         f"train/lr(1e-3):0.001")
        lines.append(_bar(epoch, 4, f"00:{4 * each:02d}<00:00", f"{each:.2f}s/it"))
    return lines


def _read(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    data = read_cold(tmp_path, lines, name="sft.log", at=T0)
    assert data["source"]["bad_lines"] == 0
    return data


def test_verl_sft_s_step_time_is_its_bar_s_rate_on_the_records_timeline(tmp_path: Path) -> None:
    """Step 105 of 105 at 13.14 s a step: the bar's ``13.14s/it`` drawn beside it (its clock agrees: 29/35 at 06:26,
    34/35 at 07:32, 66 s over 5 steps = 13.2 s), not 417 ms over 1,084 steps of a timeline the bar pushed on."""
    data = snap(monitor := cold(tmp_path, VERL_SFT), monitor.last_event_at() or T0)
    training = data["training"]
    assert (training["step"], training["total_steps"]) == (105, 105)
    assert training.get("chart_x") in (None, 105)
    assert training["step_seconds"] == pytest.approx(13.14)
    assert training["data"]["epoch"] == 3.0
    assert "step 13.14 s (as printed)" in data["details"]


@pytest.mark.parametrize("records", [1, 4, 5, 7, 12])
def test_a_composed_epoch_bar_beside_run_records_adds_no_steps(tmp_path: Path, records: int) -> None:
    """Cut after the ``records``-th step record: the position is that record's step (the bar's restarts at each epoch
    add none), its epoch the bar's beside it, its time that bar's rate (none at a bar at 0: ``?it/s``)."""
    lines = _composed()
    cut = next(i for i, text in enumerate(lines) if f"step:{records} - " in text) + 1
    training = _read(tmp_path, lines[:cut])["training"]
    assert (training["step"], training["total_steps"]) == (records, 12)
    assert training.get("chart_x") in (None, records)
    assert training["data"]["epoch"] == (records - 1) // 4 + 1
    if records in (7, 12):
        # 7: epoch 2's bar at 2/4, 5.00s/it; 12: epoch 3's at 3/4, 4.00s/it
        assert training["step_seconds"] == pytest.approx(5.0 if records == 7 else 4.0)
