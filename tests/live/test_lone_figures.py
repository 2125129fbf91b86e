"""A step record's one figure under a name no rule knows: the figure the loop reports each step, shown as its loss under
the name as printed (steppy's ``epoch 0 batch 418 sum: 2.32141``, TEACH's ``Epoch 69: Train_rf 4.856e-01   Memory 10.0%``);
never where the name says it is another thing or the record prints more. Composed logs whose answers are worked out by
hand; the real excerpt (minerva-ml/open-solution-googleai-object-detection issue 87, the maintainer saying its ``sum`` is
the training loss) is in tests/live/test_real_logs.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold


def test_a_dated_epoch_s_one_figure_is_its_loss_as_printed_and_its_memory_no_loss(tmp_path: Path) -> None:
    """Epochs 57-59 a minute apart (day first: 13/12/22): epoch 59, Train_rf 0.4856 the loss as printed, 60 s an epoch
    from the clock; ``Memory 10.0%`` (a figure with its unit) no loss."""
    lines = [f"[13/12/22 11:{13 + n}:56][teach.callback.progress][INFO] -   Epoch {57 + n}: Train_rf 4.856e-01   Memory 10.0%"
             for n in range(3)]
    data = read_cold(tmp_path, lines, dated=True)
    training = data["training"]
    assert (training["step"], training["loss"], training["loss_note"]) == (59, 0.4856, "Train_rf")
    assert "epoch 1 min (measured from the lines' times)" in data["details"]


def test_a_batch_s_one_figure_is_its_loss_as_printed(tmp_path: Path) -> None:
    """steppy's logger, its dashed time: epoch 0, batch 3 in the epoch, sum 1.95351 the loss as printed."""
    lines = ["2019-03-22 14-23-06 steps >>> epoch 0 batch 1 sum:     1.74406",
             "2019-03-22 14-23-07 steps >>> epoch 0 batch 2 sum:     2.26457",
             "2019-03-22 14-23-08 steps >>> epoch 0 batch 3 sum:     1.95351"]
    data = read_cold(tmp_path, lines, dated=True)
    training = data["training"]
    assert (training["step"], training["loss"], training["loss_note"]) == (3, 1.95351, "sum")
    assert "Loss 1.9535 (sum, as printed)" in data["details"]


@pytest.mark.parametrize(
    "record",
    [
        "epoch {n} batch 12 acc: 0.91",  # a score
        "epoch {n} batch 12 val_rf: 0.91",  # an evaluation's
        "step={n}, skipped=0, lr=[0.1]",  # a whole number counts (DeepSpeed's skipped steps)
        "epoch {n} batch 12 SamplesPerSec=83.73",  # a rate
        "epoch {n} batch 12 sum: 2.3 other: 1.1",  # two figures: which one is the loss the line does not say
        "epoch {n} batch 12 lr 0.001 sum: 2.3",  # a figure beside others the rules know
    ],
)
def test_what_is_no_lone_figure(tmp_path: Path, record: str) -> None:
    data = read_cold(tmp_path, [record.format(n=n) for n in range(1, 4)])
    assert data["training"] is None or data["training"]["loss"] is None
