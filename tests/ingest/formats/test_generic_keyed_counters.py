"""A record split over lines: a counter in brackets as ``key=value`` pairs, its figures one a line under it.

OLMo's trainer logs each step so (olmo/train.py): ``[step=75/739328,epoch=0]``, then each metric indented, ``name=value``,
a count's thousands parted by commas (``throughput/device/tokens_per_second=9,407``). The lines are one record: the step
and its total, the epoch, the metrics by their last part (a data split before it kept), one device's figure said so.

The record lines of the first test are allenai/OLMo issue 552's paste (OLMo 0.2.x's rich handler before them, whose
level and bracket the prefix reader peels; the issue's next line, an uncaught thread error, is left out: no crash is
judged here); the others are composed. Every answer is read off the lines by hand.
"""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import Event, TrainStep


def events(lines: list[str]) -> list[Event]:
    return GenericParser().feed(lines)


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in events(lines) if isinstance(e, TrainStep)]


OLMO_552 = [
    "[2024-04-18 19:06:17] INFO     [olmo.train:816, rank=0] [step=75/739328]",
    "    train/CrossEntropyLoss=7.417",
    "    train/Perplexity=1,664",
    "    throughput/total_tokens=314,572,800",
    "    throughput/device/tokens_per_second=9,407",
    "    throughput/device/batches_per_second=0.0022",
]


def test_a_bracketed_counter_and_its_figures_one_a_line_are_one_record() -> None:
    got = steps(OLMO_552)
    assert len(got) == 1
    step = got[0]
    assert (step.step, step.total_steps, step.loss) == (75, 739328, 7.417)
    # 9,407 tokens a second on one device (the comma a thousands separator), never 9 nor 407
    assert (step.tokens_per_second, step.per_device) == (9407.0, True)
    # the run's tokens so far are no step
    assert step.step == 75


def test_each_counter_closes_the_record_before_it() -> None:
    got = steps([
        "[step=9/100,epoch=1]",
        "    optim/total_grad_norm=0.5",
        "    train/CrossEntropyLoss=3.25",
        "[step=10/100,epoch=1]",
        "    optim/total_grad_norm=0.25",
        "    train/CrossEntropyLoss=3.125",
        "[step=11/100,epoch=1]",
        "    optim/total_grad_norm=0.125",
        "    train/CrossEntropyLoss=3.0",
    ])
    assert [(s.step, s.total_steps, s.loss, s.grad_norm, s.epoch) for s in got] == [
        (9, 100, 3.25, 0.5, 1.0), (10, 100, 3.125, 0.25, 1.0), (11, 100, 3.0, 0.125, 1.0)]


def test_a_time_left_after_the_epoch_is_no_figure_of_the_record() -> None:
    got = steps([
        "[step=100/2000,epoch=0,eta=5h11m]",
        "    train/CrossEntropyLoss=6.2341",
        "[step=200/2000,epoch=0,eta=4h58m]",
        "    train/CrossEntropyLoss=5.8817",
    ])
    assert [(s.step, s.total_steps, s.loss, s.epoch) for s in got] == [(100, 2000, 6.2341, 0.0), (200, 2000, 5.8817, 0.0)]


def test_a_bracketed_counter_with_its_figures_beside_it_is_its_line_s_own_record() -> None:
    # (no block opens under it: each line one step, its loss the line's)
    got = steps(["[step=9/100,epoch=0] loss=2.5", "[step=10/100,epoch=0] loss=2.25"])
    assert [(s.step, s.loss) for s in got] == [(9, 2.5), (10, 2.25)]
