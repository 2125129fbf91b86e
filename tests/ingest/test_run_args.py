"""A run's planned length printed only in its arguments (run_args.py), read by the generic reader.

The table's lines are real where a source is named; the composed logs' answers are worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.run_args import RunArgs, run_args
from tests.coldread import T0, read_cold

_VIM = (
    "Namespace(batch_size=128, epochs=1, bce_loss=False, lr=5e-06, warmup_lr=1e-05, min_lr=1e-05, decay_epochs=30, "
    "warmup_epochs=5, cooldown_epochs=10, patience_epochs=10, decay_rate=0.1, start_epoch=0, eval=False)"
)


@pytest.mark.parametrize(("line", "expected"), [
    # official-stockfish/nnue-pytorch#83: the command line (``--flush_logs_every_n_steps 1`` is no plan)
    ("python train.py --flush_logs_every_n_steps 1 --max_epochs 200 --smart-fen-skipping --batch-size 8192",
     RunArgs(200, None, None)),
    # ROCm/rocm-blogs vision-mamba: argparse's echo (cut), its other epochs no plan of the run
    (_VIM, RunArgs(1, None, None)),
    # uma-pi1/kge#195: a YAML config, one key a line
    ("  max_epochs: 1000", RunArgs(1000, None, None)),
    # HF Trainer's banner, its count grouped by thousands (LLaMA-Factory's running log)
    ("[INFO|2024-11-26 22:07:15] trainer.py:2315 >>   Num Epochs = 1,000", RunArgs(1000, None, None)),
    ("{'epochs': 100, 'batch_size': 64, 'lr': 0.01}", RunArgs(100, None, None)),
    ("INFO:root:Namespace(batch_size=128, epochs=30, eval_interval=5, seed=2024)", RunArgs(30, None, None)),
    ("Namespace(batch_size=64, max_steps=1000, num_train_epochs=3.0)", RunArgs(3, 1000, "max_steps")),
    ("Overriding: max_iters = 5000", RunArgs(None, 5000, "max_iters")),
    ("args: --max_steps 1000 --lr 0.1", RunArgs(None, 1000, "max_steps")),
    ("trainer.max_epochs=50 model.hidden=128", RunArgs(50, None, None)),
    # a structure's own epochs nested in the arguments is not the run's
    ("{'scheduler': {'name': 'cosine', 'epochs': 10}, 'epochs': 100}", RunArgs(100, None, None)),
    # look-alikes: other steps, unset values, HF's "until stopped"
    ("warmup_steps: 50", None),  # (mertyg/vision-language-models-are-bows#4's scheduler config)
    ("Namespace(eval_steps=500, save_steps=1000, logging_steps=10, warmup_epochs=5)", None),
    ("Namespace(max_epochs=-1, max_steps=-1)", None),
    ("Num Epochs = 9,223,372,036,854,775,807", None),
    ("scheduler.epochs=5", None),
    ("{'loss': 0.5, 'learning_rate': 1e-05, 'epoch': 1.0}", None),
    ("finished epochs 5", None),
])  # fmt: skip
def test_the_run_s_length_is_read_from_its_arguments(line: str, expected: RunArgs | None) -> None:
    assert run_args(line) == expected


def _snapshot(tmp_path: Path, lines: list[str]) -> dict[str, object]:
    data = read_cold(tmp_path, lines, at=T0)
    assert data["training"] is not None
    return {"status": data["status_line"], "step": data["training"]["step"], "total": data["training"]["total_steps"]}


@pytest.mark.parametrize(("lines", "step", "total"), [
    # a run counted in epochs: its planned epochs are its total (epoch 3 of 30)
    (["Namespace(batch_size=64, epochs=30, lr=0.001)", "Epoch 1 loss 0.9", "Epoch 2 loss 0.8", "Epoch 3 loss 0.7"],
     3, 30),
    (["{'epochs': 100, 'batch_size': 64}", "Epoch: 001, Loss: 0.9", "Epoch: 002, Loss: 0.8"], 2, 100),
    # a printed total wins over the arguments' (``Epoch 2/10``)
    (["Namespace(batch_size=64, epochs=30, lr=0.001)", "Epoch 1/10 loss 0.9", "Epoch 2/10 loss 0.8"], 2, 10),
    # a run counted in steps: its planned steps are its total, its epochs are not
    (["args: --max_steps 1000 --lr 0.1", "step 10 loss 0.9", "step 20 loss 0.8"], 20, 1000),
    (["Namespace(batch_size=64, epochs=30, lr=0.001)", "step 10 loss 0.9", "step 20 loss 0.8"], 20, None),
    # a run counted in epochs takes no planned count of steps (nor a warm-up's)
    (["Namespace(batch_size=64, max_steps=1000, warmup_steps=100)", "Epoch 1 loss 0.9", "Epoch 2 loss 0.8"], 2, None),
])  # fmt: skip
def test_a_total_in_the_arguments_is_the_total_of_a_counter_of_its_unit(
    tmp_path: Path, lines: list[str], step: int, total: int | None
) -> None:
    got = _snapshot(tmp_path, lines)
    assert (got["step"], got["total"]) == (step, total)
