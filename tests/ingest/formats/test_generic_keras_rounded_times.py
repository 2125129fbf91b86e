"""An epoch's time Keras prints rounded to the second (Keras 1's ``- 7s -``): the epoch's time as printed, never a step's
made of it. Composed lines in the shapes real logs print (each cited), the answers worked out by hand."""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_a_full_keras_bar_s_rounded_epoch_time_is_the_epoch_s_not_a_step_s() -> None:
    # Keras 1's ``fit`` with no ``Train on N samples`` said (keras-team/keras#3753 prints ``2064384/2064384 [====] - 7s -
    # loss: …``): 7 s is the epoch's; over 60000 of a count whose unit is unsaid it is no step's time
    got = steps(["Epoch 1/12",
                 "60000/60000 [==============================] - 7s - loss: 0.3412 - acc: 0.8953",
                 "Epoch 2/12",
                 "60000/60000 [==============================] - 6s - loss: 0.1156 - acc: 0.9657"])
    last = got[-1]
    assert last.step_seconds is None
    assert dict(last.figures)["epoch_seconds"] == 6.0


def test_a_full_keras_bar_s_epoch_time_of_ten_seconds_or_more_is_the_epoch_s_too() -> None:
    # (25 s over 20000: the line says no unit of its count, so no step's time whatever the rounding; the epoch's 25 s)
    got = steps(["Epoch 1/12", "20000/20000 [==============================] - 25s - loss: 0.3412 - acc: 0.8953"])
    assert got[-1].step_seconds is None
    assert dict(got[-1].figures)["epoch_seconds"] == 25.0


def test_keras_1_verbose_2_lines_rounded_time_is_the_epoch_s_as_printed() -> None:
    # ``fit(verbose=2)`` prints one line an epoch under its header (derekchen14/snippet_rnn's results: ``67s - loss: …``);
    # at 7 s the epoch is the step and 7 s its time, as printed
    got = steps(["Epoch 1/15", "7s - loss: 2.4808 - acc: 0.2275 - val_loss: 2.1192 - val_acc: 0.4365",
                 "Epoch 2/15", "6s - loss: 1.7988 - acc: 0.4308 - val_loss: 1.9340 - val_acc: 0.4770"])
    assert [(s.step, s.total_steps, s.loss, s.step_seconds) for s in got] == [(1, 15, 2.4808, 7.0), (2, 15, 1.7988, 6.0)]


def test_a_samples_bar_s_rounded_time_is_its_epoch_s_as_printed() -> None:
    # ``Train on 60000 samples``: a full bar of 60000 is the epoch; ``- 5s 91us/step`` its 5 s (91 us is a sample's)
    got = steps(["Train on 60000 samples, validate on 10000 samples", "Epoch 1/20",
                 "60000/60000 [==============================] - 5s 91us/step - loss: 0.0656 - acc: 0.9794"])
    assert [(s.step, s.total_steps, s.step_seconds) for s in got] == [(1, 20, 5.0)]
