"""An epoch's time printed by the engine that ran it: PyTorch-Ignite's ``Epoch[N] Complete. Time taken: HH:MM:SS[.mmm]``.

Ignite's Engine logs each run and each epoch (``Engine run starting with max_epochs=5.``, ``Epoch[2] Complete. Time taken:
00:00:09``, ``Engine run complete. Time taken: 00:01:03``), and its examples print the engine's own timer (``Epoch 1, Time
Taken : 31.87``, in seconds). The time is that epoch's, said with its epoch, shown as printed (``epoch 2 took 9.00 s (as
printed)``) beside whatever step time the lines give. An evaluator is an Engine too, run for one epoch inside the
trainer's: an epoch of a run of one epoch (Ignite's evaluator's ``Epoch[1]``, MONAI's evaluator resumed ``from … epoch 45
until 46 epochs``) is an evaluator's and no epoch time of the run's; an ``Epoch[1]`` whose run the log does not say is
left unread. The engine run that completes right before the launcher's ``End of run`` is the trainer's, its time the
whole run's (``Engine run complete. Time taken: 00:05:37``): shown as printed where no other time is, never a step's.

Real: pytorch-ignite/pytorch-ignite.ai's CIFAR10 tutorial, pytorch-ignite/examples' time-profiling guide and
Project-MONAI/MONAILabel pull request #1333, pytorch-ignite/pytorch-ignite.ai's NMT tutorial (tests/data/real, their headers; their snapshots in
tests/live/test_real_logs.py). Composed: lines whose reading is worked out by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.coldread import read_cold


def _epoch_time(data: dict[str, Any]) -> float | None:
    figures = data["training"]["figures"] or {}
    return figures.get("epoch_seconds")


def test_the_trainer_s_epochs_are_timed_and_its_evaluators_never(tmp_path: Path) -> None:
    # composed: a trainer started for 3 epochs; after each of its epochs an evaluator's one-epoch run (its own Epoch[1],
    # 2 s) then the trainer's Epoch[N] (12.5 s, then 11.25 s), its results lines between: epoch 2 took 11.25 s
    lines = ["Engine run starting with max_epochs=3.",
             "Training Results - Epoch[1] Avg accuracy: 0.80 Avg loss: 0.50",
             "Engine run starting with max_epochs=1.", "Epoch[1] Complete. Time taken: 00:00:02.000",
             "Engine run complete. Time taken: 00:00:02.010", "Epoch[1] Complete. Time taken: 00:00:12.500",
             "Training Results - Epoch[2] Avg accuracy: 0.85 Avg loss: 0.40",
             "Engine run starting with max_epochs=1.", "Epoch[1] Complete. Time taken: 00:00:02.000",
             "Engine run complete. Time taken: 00:00:02.010", "Epoch[2] Complete. Time taken: 00:00:11.250"]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 2 and data["training"]["loss"] == 0.4
    assert _epoch_time(data) == 11.25
    assert "epoch 2 took 11.25 s (as printed)" in " · ".join(data["details"])


def test_an_evaluator_s_epoch_is_no_epoch_time_of_the_run_s(tmp_path: Path) -> None:
    # composed: the evaluator's one-epoch run is the last engine line (its Epoch[1], 2 s): no epoch time at all; nor for
    # an Epoch[1] whose run the log does not say (an excerpt begun there)
    lines = ["Engine run starting with max_epochs=3.", "Training Results - Epoch[1] Avg accuracy: 0.80 Avg loss: 0.50",
             "Validation Results - Epoch[1] Avg accuracy: 0.78 Avg loss: 0.55",
             "Training Results - Epoch[2] Avg accuracy: 0.85 Avg loss: 0.40",
             "Engine run starting with max_epochs=1.", "Epoch[1] Complete. Time taken: 00:00:02.000"]
    evaluated = read_cold(tmp_path, lines)
    assert evaluated["step"] == 2 and _epoch_time(evaluated) is None
    lines = ["Training Results - Epoch[1] Avg accuracy: 0.80 Avg loss: 0.50",
             "Validation Results - Epoch[1] Avg accuracy: 0.78 Avg loss: 0.55",
             "Training Results - Epoch[2] Avg accuracy: 0.85 Avg loss: 0.40",
             "Epoch[1] Complete. Time taken: 00:00:02"]
    excerpt = read_cold(tmp_path, lines, name="excerpt.log")
    assert excerpt["step"] == 2 and _epoch_time(excerpt) is None


def test_monai_s_resumed_evaluator_is_an_evaluator_at_the_trainer_s_epoch(tmp_path: Path) -> None:
    # composed in MONAI's order (MONAILabel's logs): the trainer's iterations of epoch 46, then its evaluator resumed
    # for that one epoch (its Epoch[46], 0.074 s), cut there: no epoch time; then with the trainer's Epoch[46], 0.682 s
    lines = ["Epoch: 46/50, Iter: 1/3 -- train_loss: 0.6210", "Epoch: 46/50, Iter: 3/3 -- train_loss: 0.6205",
             "Engine run resuming from iteration 0, epoch 45 until 46 epochs",
             "Epoch[46] Complete. Time taken: 00:00:00.074"]
    assert _epoch_time(read_cold(tmp_path, lines)) is None
    lines += ["Engine run complete. Time taken: 00:00:00.282", "Epoch[46] Complete. Time taken: 00:00:00.682"]
    assert _epoch_time(read_cold(tmp_path, lines, name="whole.log")) == 0.682


def test_the_examples_epoch_time_in_seconds(tmp_path: Path) -> None:
    # composed, the examples' ``Epoch N, Time Taken : S`` after each epoch's results: epoch 2 took 31.75 s
    lines = ["Training Results - Epoch[1] Avg accuracy: 0.89 Avg loss: 0.31", "Epoch 1, Time Taken : 31.87",
             "Training Results - Epoch[2] Avg accuracy: 0.97 Avg loss: 0.09", "Epoch 2, Time Taken : 31.75"]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 2 and _epoch_time(data) == 31.75


def test_the_engine_run_completed_before_the_launcher_s_end_is_the_whole_run(tmp_path: Path) -> None:
    # composed: an evaluator's run (2 s), the training set's blocks of epochs 1 and 2, then the trainer's run complete (1 min
    # 45.348 s), then ``End of run``: the run took 105.348 s,
    # said where no step's or epoch's time is (over the epochs 1 and 2 the log shows: 105.348 / 2 = 52.674 s an epoch); without ``End of run`` after it, an engine's run time is nobody's
    lines = ["Engine run starting with max_epochs=1.", "Epoch[1] Complete. Time taken: 00:00:02.000",
             "Engine run complete. Time taken: 00:00:02.010",
             "Epoch 1 - Evaluation time (seconds): 2.01 - train metrics:", "\tAccuracy: 0.61", "\tLoss: 1.05",
             "Epoch 2 - Evaluation time (seconds): 2.01 - train metrics:", "\tAccuracy: 0.65", "\tLoss: 0.98",
             "Engine run complete. Time taken: 00:01:45.348"]
    cut = read_cold(tmp_path, lines)
    assert cut["step"] == 2 and "run_seconds" not in (cut["training"]["figures"] or {})
    data = read_cold(tmp_path, [*lines, "End of run"], name="ended.log")
    assert data["training"]["figures"]["run_seconds"] == 105.348
    assert any("only the whole run's time printed (1 min 45 s, as printed; ≈52.67 s an epoch over its 2, from the printed total)" in line for line in data["details"])
