"""A loop's own record glued after its tqdm bar (the bar's closing bracket, then the record's logger prefix): the bar
gives the position and rate, the record the step's loss, read as printed under its plain name.

Real: wordplay's (ezpz) ``… 99/100 [00:13<00:00, 12.82it/s][2024-04-02 01:59:54][INFO][trainer:837] - step=100
loss=2.4075 dt=55.9236 … train_loss=4.2922 val_loss=4.2905`` in kharelb/ai-science-training-series's homework_6.md and in
argonne-lcf/ai-science-training-series's 06_parallel_training/README.md (tests/data/real, their headers). Composed: a bar
with records glued after it whose losses are set by hand.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold
from tests.reallogs import body


def test_kharelb_s_homework_run_reads_its_last_record_s_loss(tmp_path: Path) -> None:
    data = read_cold(tmp_path, body("hf-bar-glued-record-wordplay-kharelb-homework6-ddp-step-100-of-100-loss-done.log"))
    assert data["status_line"] == "done · step 100/100"
    assert "Loss 2.4075 (as printed)" in data["details"]
    assert not any("4.2922" in line for line in data["details"])  # (step 0's training estimate, repeated)


def test_the_course_s_own_example_run(tmp_path: Path) -> None:
    data = read_cold(tmp_path, body("hf-bar-glued-record-wordplay-argonne-readme-ddp-step-5-to-100-of-100-loss-done.log"))
    assert data["training"]["loss"] == 2.4527 and data["state"] == "done"


def test_composed_records_glued_after_a_bar(tmp_path: Path) -> None:
    # steps 10, 20, 30 of 40: the latest record's plain loss is 1.5; its train_loss 9.0 is no step's loss
    lines = [f"{25 * k:3d}%|##        | {10 * k}/40 [00:0{k}<00:03,  9.50it/s][2024-01-01 10:00:0{k}][INFO][loop:12] - "
             f"step={10 * k} loss={loss} train_loss=9.0" for k, loss in ((1, 3.0), (2, 2.0), (3, 1.5))]
    data = read_cold(tmp_path, lines)
    assert data["training"]["loss"] == 1.5 and data["training"]["step"] == 30
    assert data["training"]["total_steps"] == 40


def test_a_record_without_its_own_loss_gives_none(tmp_path: Path) -> None:
    lines = [f"{25 * k:3d}%|##        | {10 * k}/40 [00:0{k}<00:03,  9.50it/s][2024-01-01 10:00:0{k}][INFO][loop:12] - "
             f"step={10 * k} train_loss=9.0 dt=50.0" for k in range(1, 4)]
    data = read_cold(tmp_path, lines)
    assert data["training"]["loss"] is None and data["training"]["step"] == 30
