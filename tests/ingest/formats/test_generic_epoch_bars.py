"""Whose count a bar is, beside the epoch's other lines: a full bar under an epoch said on a line of its own (Ludwig's
``Epoch  6`` over ``Training: 100%|…| 22/22``) counts that epoch's batches, no run's end, unless that epoch is the last
the run said it has; and Lightning's main bar, which counts its validation's batches after its training's, is the
validation under way past its training's share while the validation's own bar runs (``Validation DataLoader 0: 46%|…|
73/157`` beside ``Epoch 0: 92%|…| 932/1016``). The lines are composed in those shapes (the real excerpts are in
tests/data/real: generic-ludwig-rpi-…, lightning-sagemaker-…); the answers are worked out by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import SharedBar, TrainingPause, TrainStep


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


LIGHTNING = [
    "Epoch 3:  80%|████████  | 80/100 [00:40<00:10,  2.00it/s, loss=0.512, v_num=1]",
    "Validating:   0%|          | 0/20 [00:00<?, ?it/s]",
    "Epoch 3:  82%|████████▏ | 82/100 [00:41<00:09,  2.00it/s, loss=0.512, v_num=1]",
    "Validating:  25%|██▌       | 5/20 [00:01<00:03,  4.00it/s]",
    "Epoch 3:  85%|████████▌ | 85/100 [00:42<00:07,  2.02it/s, loss=0.512, v_num=1]",
]


def test_lightning_s_main_bar_past_its_training_share_is_the_validation_under_way() -> None:
    # 100 = 80 training batches + 20 validation batches, the validation begun at 80: 82 and 85 are the validation's 2nd
    # and 5th, no training step; the run stays at training batch 80, the pass at the newest bar's count (82 - 80 = 2)
    events = GenericParser().feed(LIGHTNING)
    got = [(e.step, e.total_steps) for e in events if isinstance(e, TrainStep)]
    assert got == [(80, 100)]
    pauses = [(e.reason, e.batches, e.done) for e in events if isinstance(e, TrainingPause)]
    assert pauses == [("evaluation", 20, 0), ("evaluation", 20, 2), ("evaluation", 20, 5), ("evaluation", 20, 5)]
    assert isinstance(events[-1], TrainingPause)


def test_lightning_s_main_bar_gone_on_to_the_next_epoch_is_training_again() -> None:
    # the validation's bar last seen at 5/20, then the next epoch's main bar: training, its own count
    got = steps([*LIGHTNING, "Epoch 4:   5%|▌         | 5/100 [00:02<00:40,  2.00it/s, loss=0.498, v_num=1]"])
    assert [(s.step, s.epoch, s.loss) for s in got][-1] == (5, 4.0, 0.498)


def test_a_validation_begun_before_the_training_s_share_ended_leaves_the_bar_training_s() -> None:
    # Lightning 2's ``val_check_interval``: validated at 50 of 100, 50 + 20 is not 100; the bar's 85 is training's
    got = steps([LIGHTNING[0].replace("80/100", "50/100"), LIGHTNING[3], LIGHTNING[4]])
    assert [s.step for s in got] == [50, 85]


def test_a_validation_bar_before_any_training_line_is_read_as_the_pass() -> None:
    # a copy that starts inside the validation (the visible one's shape): the main bar's 932 of 1016 is past its 859
    # training batches (1016 - 157), so the epoch's training is read as those 859 done, then the validation goes on
    # (932 - 859 = 73, 933 - 859 = 74 of its 157)
    events = GenericParser().feed([
        "Validation DataLoader 0:  46%|████▌     | 73/157 [00:02<00:02, 37.48it/s]",
        "Epoch 0:  92%|█████████▏| 932/1016 [00:33<00:03, 27.70it/s, loss=0.223, v_num=77, acc=0.875]",
        "Epoch 0:  92%|█████████▏| 933/1016 [00:33<00:02, 27.71it/s, loss=0.223, v_num=77, acc=0.875]",
    ])
    got = [(e.step, e.total_steps, e.epoch_steps, e.loss) for e in events if isinstance(e, TrainStep)]
    assert got == [(859, None, 859, 0.223)]
    assert [(e.batches, e.done) for e in events if isinstance(e, TrainingPause)] == [(157, 73), (157, 73), (157, 74)]


def test_each_validation_tick_of_the_main_bar_carries_that_bar_s_own_record() -> None:
    # the main bar's 82 and 85 of 100 are its newest records: 80 training batches + 2, then + 5 validation batches,
    # each with its own time left (00:09, 00:07: the epoch's, the validation included); the validation bar's own
    # redraw (5/20) is no record of the main bar
    events = GenericParser().feed(LIGHTNING)
    bars = [e.bar for e in events if isinstance(e, TrainingPause)]
    assert bars == [None, SharedBar(82, 100, 80, 9.0), None, SharedBar(85, 100, 80, 7.0)]


def test_a_training_read_only_as_the_bar_s_share_says_whose_pace_its_time_is() -> None:
    # no training line read: the 859 training batches' time is the bar's mean pace at 932 of 1016 (27.70 it/s), which
    # holds the validation's first 73 batches too: said so, never given as a training batch's own
    got = steps([
        "Validation DataLoader 0:  46%|████▌     | 73/157 [00:02<00:02, 37.48it/s]",
        "Epoch 0:  92%|█████████▏| 932/1016 [00:33<00:03, 27.70it/s, loss=0.223, v_num=77, acc=0.875]",
    ])
    assert [(s.step, s.step_seconds_note) for s in got] == [
        (859, "the epoch bar's mean pace at 932/1016, 73 validation batches in it")]
