"""Whose count a bar is, beside the epoch's other lines: a full bar under an epoch said on a line of its own (Ludwig's
``Epoch  6`` over ``Training: 100%|…| 22/22``) counts that epoch's batches, no run's end, unless that epoch is the last
the run said it has. The lines are composed in that shape (the real excerpt is in tests/data/real: generic-ludwig-rpi-…);
the answers are worked out by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


@pytest.mark.parametrize("header", ["Epoch  6", "Epoch 6/10", "=== Epoch 6 ==="])
def test_a_full_bar_under_an_epoch_said_alone_is_that_epoch_s_batches(header: str) -> None:
    got = steps([header, "Training: 100%|██████████| 22/22 [00:01<00:00, 16.29it/s]"])
    assert [(s.step, s.total_steps, s.epoch, s.epoch_steps, s.ends_at_total) for s in got] == [(22, None, 6.0, 22, False)]


def test_a_full_bar_under_the_last_epoch_said_ends_the_run_as_before() -> None:
    # the run's 10 epochs said, this the 10th: its full bar is the run's last step
    got = steps(["Epoch 10/10", "Training: 100%|██████████| 22/22 [00:01<00:00, 16.29it/s]"])
    assert [(s.step, s.total_steps, s.ends_at_total) for s in got] == [(22, 22, True)]


def test_a_bar_not_full_under_an_epoch_said_alone_keeps_its_count_the_run_s() -> None:
    # kohya's ``epoch 3/80`` over its bar of all the run's steps, short of its total: the run's position, as before
    got = steps(["epoch 3/80", "steps:   4%|██        | 123/3280 [02:28<1:03:43,  1.21s/it, avr_loss=nan]"])
    assert [(s.step, s.total_steps) for s in got] == [(123, 3280)]
