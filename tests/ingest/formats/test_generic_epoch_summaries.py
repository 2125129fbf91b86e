"""An epoch's own summary line printed after that epoch's bar filled, and figures named by their data split alone.

- PyG's and DGL's examples draw a tqdm bar an epoch (``Epoch 02: 100%|…| 90941/90941``) and then print the epoch's
  line ``Epoch 02, Loss: 2.1863, Approx. Train: 0.4050``: its loss is the epoch's, at the bar's last count (the bar
  counted the epoch, the line is no step of its own); beside a validation loss (``Epoch 04 | Train Loss: 0.1139 | Val
  Loss: 0.2764``) the training loss is still the epoch's, never an evaluation's.
- ``Train: 0.5429, Val: 0.5406, Test: 0.4877`` (PyG), ``Val: 65.75%,``, OGB's ``Train: 96.09%, Valid: 93.24%, Test:
  83.13%``: a figure named by its split alone is that split's score, shown under the name printed (``val``; in per cent
  ``val_percent``, shown ``val 65.75%``), never called a loss; litgpt's ``loss train: 2.846, val: 2.861`` (the loss by
  split) and a bare ``val: 2.97`` beside a plain ``loss: 3.16`` stay losses.

Real: ye-kyaw-thu/error-overflow name_gen_with_gpt_exp1.md, mariusjb/ai-applications-in-industry
multi_step_forecast.md, PaddlePaddle/PGL issue #128, skepsun/SAGN_with_SLE issue #1 (tests/data/real, their headers;
their snapshots in tests/live/test_real_logs.py). The PyG lines quoted above and in the split table
(``Epoch 02, Loss: 2.1863, …``, ``Train: 0.5429, Val: 0.5406, Test: 0.4877``) are as dmlc/dgl PR #6992's run printed
them. Composed: lines whose reading is worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.step_source import split_scores
from tests.coldread import read_cold

_BAR = "█" * 10


@pytest.mark.parametrize(("text", "scores"), [
    ("Train: 0.5429, Val: 0.5406, Test: 0.4877", [("train", 0.5429), ("val", 0.5406), ("test", 0.4877)]),
    ("Val: 65.75%,", [("val_percent", 65.75)]),
    ("Run: 01, Epoch: 05, Loss: 0.5100, Train: 83.00%, Valid: 79.00%, Test: 80.00%",
     [("train_percent", 83.0), ("valid_percent", 79.0), ("test_percent", 80.0)]),
    # the training's loss named apart beside the training split's figure: the splits are scored
    ("Epoch: 005, Loss: 0.5100, Train: 0.8300, Val: 0.7900, Test: 0.8000",
     [("train", 0.83), ("val", 0.79), ("test", 0.80)]),
    # the validation's loss named in words beside them: the same
    ("Epoch 26, Best Val loss: 0.9427, Accs: Train: 0.7351, Val: 0.7079, Test: 0.6753",
     [("train", 0.7351), ("val", 0.7079), ("test", 0.6753)]),
    # a loss by split (litgpt), a bare split beside a plain loss: losses, no scores
    ("Epoch 34 | iter 3050700 step 610140 | loss train: 2.846, val: 2.861 | iter time: 112.20 ms", []),
    ("step 100 | elapsed 0.90m | loss: 3.16 | val: 2.97", []),
    # a whole number beside a split is its count or epoch (timm's ``Train: 3 [   0/246]``), no score
    ("Train: 3 [   0/246]  Loss: 1.712 (1.712)", []),
    ("Best Val: 0.7079, Best Test: 0.6753", []),
])  # fmt: skip
def test_figures_named_by_their_split_alone(text: str, scores: list[tuple[str, float]]) -> None:
    assert split_scores(text) == scores


def test_composed_pyg_epoch_bars_then_the_epoch_s_loss_and_its_splits_scores(tmp_path: Path) -> None:
    # PyG's ogbn_products_sage loop as it prints: epoch 1's bar over 1000 nodes in 2 s (500 it/s), its loss line, its
    # time, the evaluation's bar, the three splits' accuracies; then epoch 2's bar (1000 in 4 s, 250 it/s) and loss line
    lines = [
        f"Epoch 01: 100%|{_BAR}| 1000/1000 [00:02<00:00, 500.00it/s]",
        "Epoch 01, Loss: 2.5000, Approx. Train: 0.3000",
        "Time 2.00",
        f"Evaluating: 100%|{_BAR}| 8000/8000 [00:01<00:00, 8000.00it/s]",
        "Train: 0.4100, Val: 0.4000, Test: 0.3500",
        f"Epoch 02: 100%|{_BAR}| 1000/1000 [00:04<00:00, 250.00it/s]",
        "Epoch 02, Loss: 2.2500, Approx. Train: 0.3500",
    ]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["data"]["epoch"]) == (1000, 2)
    assert training["loss"] == 2.25  # epoch 2's, not epoch 1's 2.5 nor nothing
    assert training["loss_note"] == "its epoch's summary after the bar"
    assert training["step_seconds"] == pytest.approx(1 / 250)
    # the accuracies after epoch 1, under the names printed; no val_loss nor test_loss made up
    assert training["eval"] == {"train": {"value": 0.41, "step": None}, "val": {"value": 0.40, "step": None},
                                "test": {"value": 0.35, "step": None}}
    assert "Loss 2.25 (its epoch's summary after the bar, as printed)" in data["details"]
    assert "Eval train 0.41 · val 0.4 · test 0.35" in data["details"]


def test_composed_percent_validation_is_shown_in_per_cent(tmp_path: Path) -> None:
    # PyG's papers100M loop: ``Val: 61.50%,`` after each epoch's loss line
    lines = [
        f"Epoch 01: 100%|{_BAR}| 5000/5000 [00:10<00:00, 500.00it/s]",
        "Epoch 01, Loss: 1.4000,  Train Time: 10.0000s",
        "Val: 61.50%,",
        f"Epoch 02: 100%|{_BAR}| 5000/5000 [00:10<00:00, 500.00it/s]",
        "Epoch 02, Loss: 1.2000,  Train Time: 10.0000s",
        "Val: 63.25%,",
    ]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["loss"], training["data"]["epoch"]) == (1.2, 2)
    assert training["eval"] == {"val_percent": {"value": 63.25, "step": None}}
    assert "Eval val 63.25%" in data["details"]
    assert not any("val_loss" in line for line in data["details"])


def test_composed_summary_beside_a_validation_loss_keeps_the_training_loss_the_epoch_s(tmp_path: Path) -> None:
    lines = [
        f"Epoch 01: 100%|{_BAR}| 400/400 [00:40<00:00, 10.00it/s]",
        "Epoch 01 | Train Loss: 0.5000 | Val Loss: 0.6000",
        f"Epoch 02: 100%|{_BAR}| 400/400 [00:40<00:00, 10.00it/s]",
        "Epoch 02 | Train Loss: 0.4000 | Val Loss: 0.5500",
    ]
    training = read_cold(tmp_path, lines)["training"]
    assert (training["step"], training["loss"], training["step_seconds"]) == (400, 0.4, pytest.approx(0.1))
    assert training["eval"] == {"val_loss": {"value": 0.55, "step": None}}  # no train_loss evaluation


def test_composed_summary_of_another_epoch_than_the_bar_s_is_no_loss_of_it(tmp_path: Path) -> None:
    # the bar is epoch 3's; a line about epoch 2 after it (a late report) is not epoch 3's loss
    lines = [
        f"Epoch 3: 100%|{_BAR}| 100/100 [00:10<00:00, 10.00it/s]",
        "Epoch 2, Loss: 0.9000",
    ]
    training = read_cold(tmp_path, lines)["training"]
    assert (training["step"], training["data"]["epoch"], training["loss"]) == (100, 3, None)
