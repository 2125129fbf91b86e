"""An epoch's evaluation printed as a block or as a results line.

- PyTorch-Ignite's templates and tutorials (``log_metrics``) print ``Epoch 5 - Evaluation time (seconds): 1.38 - val
  metrics:`` and then one metric a line behind a tab (``Accuracy: 0.6588``, ``Loss: 0.9517``): a block tagged by its data
  split. A block of any split but the training set's is that epoch's evaluation, its loss an evaluation's, never the
  training loss; the ``train`` block is the training set evaluated again at the epoch's end, its loss the epoch's
  training loss as printed. The epoch it names is the run's position; Ignite's own ``Epoch[1] Complete`` of an
  evaluator's engine (one epoch over the evaluation data) is none.
- A block under a tag of the script's own that names no split (BehindTheScenes' ``Vis metrics:``) is that epoch's
  evaluation too, each figure under the tag and its name as printed (``vis_abs_rel``), never a split's nor a loss of the
  training; a name with a digit on a line of its own (``a1: 0.87``) is the figure's, never a host's label.
- Ignite's examples print a line a split: ``Training Results - Epoch: 5  Avg accuracy: 0.83 Avg loss: 0.49`` (the
  training set evaluated again: the epoch's loss) and ``Validation Results - Epoch: 5 …`` (that epoch's evaluation, at
  that epoch even where it is printed before the training set's line).

Real: pytorch-ignite/pytorch-ignite.ai (the CIFAR10 distributed tutorial, the 2020 quick-start blog), simnado/Master-Thesis
docs/Results.md (tests/data/real, their headers; their snapshots in tests/live/test_real_logs.py), and Brummi/BehindTheScenes
issue #23 below. Composed: lines whose reading is worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

from app.ingest.formats.vertical_records import VerticalRecord
from tests.coldread import read_cold


def _records(lines: list[str]) -> list[str]:
    """The records a one-figure-a-line reader hands on for ``lines``, then at the end of the read."""
    reader, records = VerticalRecord(), []
    for text in lines:
        _, record = reader.line(text)
        if record is not None:
            records.append(record)
    last = reader.close()
    return [*records, *([last] if last is not None else [])]


def test_a_split_s_metrics_under_an_epoch_s_heading_are_one_record_named_by_that_split() -> None:
    # the CIFAR10 tutorial's blocks (pytorch-ignite.ai), as printed: a space and a tab before the first metric
    lines = ["Epoch 5 - Evaluation time (seconds): 8.46 - train metrics:", " \tAccuracy: 0.6584246134020618",
             "\tLoss: 0.9565292830319748", "Epoch 5 - Evaluation time (seconds): 1.38 - val metrics:",
             " \tAccuracy: 0.6588", "\tLoss: 0.9517111328125"]
    assert _records(lines) == ["Epoch: 5 | train Accuracy: 0.6584246134020618 | train Loss: 0.9565292830319748",
                               "Epoch: 5 | val Accuracy: 0.6588 | val Loss: 0.9517111328125"]


def test_a_real_test_block_after_an_evaluator_s_engine_is_at_the_epoch_it_names(tmp_path: Path) -> None:
    # Brummi/BehindTheScenes issue #23 (https://github.com/Brummi/BehindTheScenes/issues/23), a comment's log as stored
    # (complete lines, its indentation kept): the evaluator's engine runs one epoch over the test data (``Epoch[1]
    # Complete``), then the checkpoint's evaluation is printed as epoch 14's block of test metrics, then the next
    # evaluator starts. Epoch 14 is the position, never the evaluator's epoch 1; the metrics are the test's, no loss.
    lines = [
        "[2023-07-12 16:26:36,550][ignite.engine.engine.Engine][INFO] - Engine run starting with max_epochs=1.",
        "[2023-07-12 16:29:40,259][ignite.engine.engine.Engine][INFO] - Epoch[1] Complete. Time taken: 00:03:03.395",
        "[2023-07-12 16:29:40,260][ignite.engine.engine.Engine][INFO] - Engine run complete. Time taken: 00:03:03.709",
        "2023-07-12 16:29:40,373 kitti_360 INFO:",
        "Epoch 14 - Evaluation time (seconds): 183.71 - Test metrics:",
        "        abs_rel: 0.1219142335086286",
        "        sq_rel: 0.8344372441241323",
        "        rmse: 3.9208930653213243",
        "        rmse_log: 0.2237279891813233",
        "        a1: 0.874464736552909",
        "        a2: 0.9490371746942401",
        "        a3: 0.970153178088367",
        "[2023-07-12 16:29:40,374][ignite.engine.engine.Engine][INFO] - Engine run starting with max_epochs=1.",
    ]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["step"] == 14 and data["training"]["loss"] is None
    evals = data["training"]["eval"]
    assert evals["test_abs_rel"] == {"value": 0.1219142335086286, "step": 14}
    assert evals["test_a3"] == {"value": 0.970153178088367, "step": 14}
    assert len(evals) == 7


def test_a_block_without_its_evaluation_time_and_a_test_split(tmp_path: Path) -> None:
    # composed: epoch 1's training-set block (loss 0.9) and its val block (loss 1.1), epoch 2's (0.7, 1.0), then a test
    # block at epoch 2 (loss 1.05): the latest loss 0.7, the evaluations by split at epoch 2
    lines = ["Epoch 1 - train metrics:", "  loss: 0.9", "Epoch 1 - val metrics:", "  loss: 1.1",
             "Epoch 2 - train metrics:", "  loss: 0.7", "Epoch 2 - val metrics:", "  loss: 1.0",
             "Epoch 2 - test metrics:", "  loss: 1.05"]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 2 and data["training"]["loss"] == 0.7
    assert data["training"]["eval"] == {"val_loss": {"value": 1.0, "step": 2}, "test_loss": {"value": 1.05, "step": 2}}


def test_an_evaluation_s_block_alone_is_never_the_training_loss(tmp_path: Path) -> None:
    # composed: only val blocks, epochs 1 and 2 (losses 1.2, 1.1): their ``Loss`` is no training loss (a log of
    # evaluations alone and no training record is not yet read as a run; it once showed 1.1 as the training loss)
    lines = ["Epoch 1 - Evaluation time (seconds): 1.00 - val metrics:", "\tLoss: 1.2",
             "Epoch 2 - Evaluation time (seconds): 1.00 - val metrics:", "\tLoss: 1.1"]
    data = read_cold(tmp_path, lines)
    assert data["training"] is None or data["training"]["loss"] is None


def test_results_lines_read_a_training_loss_and_an_evaluation_at_their_epoch(tmp_path: Path) -> None:
    # composed: epoch 1's Training Results (loss 0.9) and Validation Results (0.95), epoch 2's validation printed first
    # (0.85) then its training set's (0.8): epoch 2, loss 0.8, val_loss 0.85 at epoch 2
    lines = ["Training Results - Epoch: 1  Avg accuracy: 0.70 Avg loss: 0.90",
             "Validation Results - Epoch: 1  Avg accuracy: 0.68 Avg loss: 0.95",
             "Validation Results - Epoch: 2  Avg accuracy: 0.72 Avg loss: 0.85",
             "Training Results - Epoch: 2  Avg accuracy: 0.74 Avg loss: 0.80"]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 2 and data["training"]["loss"] == 0.8
    assert data["training"]["eval"]["val_loss"] == {"value": 0.85, "step": 2}


def test_results_lines_with_the_epoch_in_brackets_read_as_the_older_examples(tmp_path: Path) -> None:
    # composed, Ignite's examples since 0.4 (``Training Results - Epoch[1] …``): epoch 1's training set (loss 0.50) and
    # validation (0.55), epoch 2's (0.40, 0.45): epoch 2, loss 0.4, val_loss 0.45 at epoch 2
    lines = ["Training Results - Epoch[1] Avg accuracy: 0.80 Avg loss: 0.50",
             "Validation Results - Epoch[1] Avg accuracy: 0.78 Avg loss: 0.55",
             "Training Results - Epoch[2] Avg accuracy: 0.85 Avg loss: 0.40",
             "Validation Results - Epoch[2] Avg accuracy: 0.83 Avg loss: 0.45"]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 2 and data["training"]["loss"] == 0.4
    assert data["training"]["eval"]["val_loss"] == {"value": 0.45, "step": 2}


def test_an_iteration_s_line_with_the_epoch_in_brackets_is_a_step_of_the_run(tmp_path: Path) -> None:
    # composed: ``Epoch[1], Iter[50] Loss: 0.70`` and ``Epoch[2], Iter[100] Loss: 0.60`` (Ignite counts its iterations over
    # the run, never within the epoch as MXNet's ``Epoch[0] Batch [100]``), epoch 2's Validation Results (0.65) after
    # them: step 100 in epoch 2, loss 0.6, val_loss 0.65 at step 100
    lines = ["Epoch[1], Iter[50] Loss: 0.70", "Epoch[2], Iter[100] Loss: 0.60",
             "Validation Results - Epoch[2] Avg accuracy: 0.70 Avg loss: 0.65"]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 100 and data["training"]["loss"] == 0.6
    assert data["training"]["data"]["epoch"] == 2.0
    assert data["training"]["eval"]["val_loss"] == {"value": 0.65, "step": 100}


def test_a_block_under_a_tag_that_names_no_split_is_an_evaluation_under_that_tag(tmp_path: Path) -> None:
    # Brummi/BehindTheScenes issue #23 (https://github.com/Brummi/BehindTheScenes/issues/23), the same comment's log further
    # on, as stored (complete lines; the next metric's line is cut there and left out): after epoch 14's test block its
    # visualising evaluator prints ``Vis metrics:``. ``Vis`` names no data split: its figures are that evaluation's, at
    # epoch 14, under the tag and the metric as printed (vis_abs_rel), never a test's, a val's nor a training loss.
    lines = [
        "[2023-07-12 16:29:40,374][ignite.engine.engine.Engine][INFO] - Engine run starting with max_epochs=1.",
        ("Evaluation (val): [1/1] 100%|████████████████████████████████████████████████████████████████████████████ "
         "[00:00<?]Visualizing"),
        "[2023-07-12 16:29:45,322][ignite.engine.engine.Engine][INFO] - Epoch[1] Complete. Time taken: 00:00:04.692",
        "[2023-07-12 16:29:45,324][ignite.engine.engine.Engine][INFO] - Engine run complete. Time taken: 00:00:04.950",
        "2023-07-12 16:29:45,456 kitti_360 INFO:",
        "Epoch 14 - Evaluation time (seconds): 4.95 - Vis metrics:",
        "        abs_rel: 0.08858976934422431",
        "        sq_rel: 0.7473974579866556",
        "        rmse: 3.7746566867415696",
        "        rmse_log: 0.20740206238851125",
    ]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["step"] == 14 and data["training"]["loss"] is None
    assert data["training"]["eval"] == {"vis_abs_rel": {"value": 0.08858976934422431, "step": 14},
                                        "vis_sq_rel": {"value": 0.7473974579866556, "step": 14},
                                        "vis_rmse": {"value": 3.7746566867415696, "step": 14},
                                        "vis_rmse_log": {"value": 0.20740206238851125, "step": 14}}


def test_a_tagged_block_printed_without_indentation_keeps_its_figures_named_with_a_digit(tmp_path: Path) -> None:
    # composed, the block as an issue's paste loses its indentation: ``a1: 0.21`` is the figure a1 (the depth metrics'
    # first threshold accuracy), never a host's label before a message ``0.21``; ``Vis loss`` is the evaluation's loss
    # under its tag, never the training loss. Epoch 2, five figures, all at epoch 2.
    lines = ["Epoch 2 - Evaluation time (seconds): 1.79 - Vis metrics:", "abs_rel: 0.55", "rmse: 5.68", "a1: 0.21",
             "a2: 0.45", "loss: 0.9", "2025-02-11 09:14:27,112 kitti_360 INFO: done"]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 2 and data["training"]["loss"] is None
    evals = data["training"]["eval"]
    assert {name: figure["value"] for name, figure in evals.items()} == {
        "vis_abs_rel": 0.55, "vis_rmse": 5.68, "vis_a1": 0.21, "vis_a2": 0.45, "vis_loss": 0.9}
    assert {figure["step"] for figure in evals.values()} == {2}
