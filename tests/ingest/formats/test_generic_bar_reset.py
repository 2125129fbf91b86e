"""Lightning redraws the bar of the epoch it just filled at 0 (``Epoch 0:   0% 0/2``) before its next epoch's bar.

That redraw is no step: neither a restart of epoch 0 nor a step of its own; the epoch's figures (its rate, the
validation's result on its bar) stand.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold

# Composed in Lightning's bar format (a 2-batch epoch, a validation, then the next epoch's first bar).
FILLED = [
    "Epoch 0:  50% 1/2 [00:00<00:00,  6.54it/s, loss=2.29, v_num=0]",
    "Validation DataLoader 0: 100% 1/1 [00:00<00:00, 1113.73it/s]",
    "Epoch 0: 100% 2/2 [00:00<00:00, 12.05it/s, loss=2.29, v_num=0, val_acc=0.166]",
]
NEXT = "Epoch 1:   0% 0/2 [00:00<?, ?it/s, loss=2.29, v_num=0, val_acc=0.166]"
RESET = "Epoch 0:   0% 0/2 [00:00<?, ?it/s, loss=2.29, v_num=0, val_acc=0.166]"


def read(tmp_path: Path, lines: list[str]) -> dict[str, object]:
    data = read_cold(tmp_path, lines)
    training = data["training"]
    return {"status": data["status_line"].split(" · ")[:2], "loss": training["loss"],
            "timed": "step 83 ms (as printed at epoch 0)" in data["details"],
            "eval": "Eval val_acc 0.166" in data["details"]}


def test_the_filled_epoch_redrawn_at_0_is_no_step(tmp_path: Path) -> None:
    # 1 / 12.05 it/s = 0.08299 s (83 ms) a step, the epoch's last bar's; val_acc 0.166 from that bar
    said = read(tmp_path, [*FILLED, RESET, NEXT])
    assert said["status"] == ["epoch 1", "0/2 in the epoch"] and said["eval"]
    assert said["timed"] and said["loss"] == 2.29


def test_the_same_log_without_the_redraw_reads_the_same(tmp_path: Path) -> None:
    (tmp_path / "without").mkdir()
    assert read(tmp_path, [*FILLED, RESET, NEXT]) == read(tmp_path / "without", [*FILLED, NEXT])
