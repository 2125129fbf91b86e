"""A bar of an epoch's batches named by the epoch's number alone, and the epoch's own record after its bar.

RecBole draws each epoch's batches in a bar described ``Train     2`` (its trainer's ``f"Train {epoch_idx:>5}"``): the
number is the epoch, the bar's count the batches of that epoch, so a full bar is that epoch's end, never the run's.
The epoch's record after it (``epoch 2 training [time: 9944.45s, train loss: 183079.7615]``, or a loop's ``Epoch 3
train loss: 0.512``) prints the loss the bar did not: the latest loss, said as its epoch ended.

The bars and records are as RecBole prints them (real excerpts with its logger's prefix are in tests/data/real/
generic-mbht-kdd22-… and crash-recbole-…); the others are composed. Every answer is read off the lines by hand.
"""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import EPOCH_SUMMARY_LOSS, Event, StepFigures, TrainStep


def events(lines: list[str]) -> list[Event]:
    return GenericParser().feed(lines)


def test_a_bar_named_by_its_stage_and_the_epoch_s_number_counts_that_epoch_s_batches() -> None:
    got = events(["Train     2: 100%|#####| 17446/17446 [2:45:44<00:00,  1.75it/s]",
                  "Train     3:  10%|#    | 1745/17446 [0:16:37<2:29:30,  1.75it/s]"])
    steps = [e for e in got if isinstance(e, TrainStep)]
    assert [(s.step, s.epoch) for s in steps] == [(17446, 2.0), (1745, 3.0)]
    assert not any(s.ends_at_total and s.total_steps == 17446 for s in steps)  # (the epoch's batches, not the run's)


def test_the_epoch_s_record_after_its_bar_gives_the_loss_the_bar_did_not() -> None:
    got = events(["Train     2: 100%|#####| 100/100 [00:10<00:00,  9.50it/s]",
                  "epoch 2 training [time: 10.5s, train loss: 0.612]"])
    assert [(f.loss, f.loss_note) for f in got if isinstance(f, StepFigures)] == [(0.612, EPOCH_SUMMARY_LOSS)]


def test_a_loop_s_epoch_loss_after_its_epoch_bar_is_the_latest_loss() -> None:
    got = events(["Epoch 3: 100%|#####| 100/100 [00:10<00:00,  9.50it/s]", "Epoch 3 train loss: 0.512"])
    assert [(f.loss, f.loss_note) for f in got if isinstance(f, StepFigures)] == [(0.512, EPOCH_SUMMARY_LOSS)]


def test_a_record_of_another_epoch_adds_no_loss_and_one_leading_with_its_epoch_follows_a_bar_s_own_loss() -> None:
    # (epoch 2's record after epoch 3's bar is no record of that bar; after a bar that printed its loss, a record that
    # leads with the bar's epoch is still that epoch's summary, said later: the latest loss)
    assert not [e for e in events(["Epoch 3: 100%|#####| 100/100 [00:10<00:00,  9.50it/s]", "Epoch 2 train loss: 0.6"])
                if isinstance(e, StepFigures)]
    got = events(["Epoch 3: 100%|#####| 100/100 [00:10<00:00,  9.50it/s, loss=0.4]", "Epoch 3 train loss: 0.512"])
    assert [(f.loss, f.loss_note) for f in got if isinstance(f, StepFigures)] == [(0.512, EPOCH_SUMMARY_LOSS)]
