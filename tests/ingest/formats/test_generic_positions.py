"""Where a loop is, said in other shapes: a bracketed position that ends the record without its percentage, and a
Python dict's whole-number epoch as the position of a loop that logs once an epoch. Composed lines in the shapes of
the print formats cited in tests/data/printformats/, the answers worked out by hand."""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_a_bracketed_position_ending_the_record_is_where_the_epoch_is() -> None:
    # the PyTorch quickstart's ``loss: {loss:>7f}  [{current:>5d}/{size:>5d}]``: samples done of the epoch's
    got = steps(["loss: 2.299719  [   64/60000]", "loss: 2.281030  [ 6464/60000]", "train_loss=1.75 [128/500]"])
    assert [(s.step, s.total_steps, s.loss) for s in got] == [(64, 60000, 2.299719), (6464, 60000, 2.28103),
                                                              (128, 500, 1.75)]


def test_a_bracket_inside_the_record_or_without_a_loss_is_no_position() -> None:
    # a list printed mid-record, a count with nothing measured beside it, a zero total
    assert steps(["loss: 0.5 [3/4] acc: 0.9", "done [64/60000]", "loss: 0.5 [0/0]"]) == []


def test_a_python_dict_s_whole_epoch_with_its_loss_is_the_epoch_s_record() -> None:
    got = steps([str({"epoch": 0, "loss": 2.875}), str({"epoch": 1, "loss": 2.4375})])
    assert [(s.step, s.loss) for s in got] == [(0, 2.875), (1, 2.4375)]


def test_a_python_dict_s_share_of_an_epoch_is_no_epoch_record() -> None:
    # an HF Trainer's ``'epoch': 0.75`` is a step's share of its epoch, no position of its own
    assert steps([str({"loss": 1.5, "epoch": 0.75})]) == []
