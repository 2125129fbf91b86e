"""A batch's index named ``batch_id`` is the position: the run's step, or beside an epoch the batch in that epoch.

PaddlePaddle's loops print the index enumerate() gives over their reader under the name the code gives it:
``batch_id:80, avg_cost:168.76785`` (a fluid loop naming no epoch), ``epoch: 1, batch_id: 900, loss is: [1.49]``
(its tutorials' loop: the index starts again at 0 each epoch). An index is never a batch's size, so it needs no
total, epoch or ``|`` beside it to count (as a bare ``batch 32`` does).

The fluid loop's lines follow PaddlePaddle/Paddle#17006, its ``batch_id:64``/``65`` training lines as printed there;
the others are composed. Their answers are read off the lines by hand; more real excerpts are in
tests/live/test_real_logs.py.
"""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_a_batch_id_with_no_epoch_is_the_run_s_step_and_avg_cost_its_loss() -> None:
    got = steps(["batch_id:64, avg_cost:169.67526", "batch_id:65, avg_cost:183.35628", "batch_id:66, avg_cost:170.41626"])
    assert [(s.step, s.loss, s.epoch) for s in got] == [
        (64, 169.67526, None), (65, 183.35628, None), (66, 170.41626, None)]


def test_a_batch_id_beside_its_epoch_is_read_with_that_epoch() -> None:
    got = steps(["epoch: 0, batch_id: 100, loss is: [0.75]", "epoch: 1, batch_id: 0, loss is: [0.5]"])
    assert [(s.step, s.loss, s.epoch) for s in got] == [(100, 0.75, 0.0), (0, 0.5, 1.0)]


def test_a_batch_size_is_still_no_position() -> None:
    # (``batch 32`` alone may be a size: only the index's own name counts with nothing beside it)
    assert steps(["batch 32, cost 2.5", "batch 32, cost 2.4"]) == []


def test_a_test_line_and_a_timing_line_naming_the_batch_add_no_training_step() -> None:
    # a fluid loop's evaluation every 5 batches and its timing line: the training's step stays the last ``batch_id``
    got = steps(["batch_id:64, avg_cost:169.67526",
                 "[test] batch_id:66, precision:[0.95519874], recall:[0.97376461], f1:[0.96439233]",
                 "cur_batch_id:66, last 5 batchs, time_cost:72.8406820297"])
    assert [(s.step, s.loss) for s in got] == [(64, 169.67526)]
