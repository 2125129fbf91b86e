"""A full Keras bar that prints its epoch's time and no unit time (Keras 1's ``50000/50000 [====] - 708s - loss: …``):
what its count counts is unsaid (``fit`` on arrays counts samples, Keras 2's ``fit_generator`` steps, the same shape),
so the epoch's time is the epoch's, as printed, and no step's time or steps an hour is divided out of the count. Composed
lines in the shapes real logs print (keras-team/keras#2937 and #8680, jeffheaton/t81_558_deep_learning#86's
``370515/370515 - 13s - loss: …``), the answers worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from app.ingest.formats.generic import GenericParser
from app.ingest.formats.keras_bars import keras_line
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_a_full_bar_with_no_unit_time_says_its_epoch_s_time_and_no_step_s() -> None:
    line = keras_line("50000/50000 [==============================] - 708s - loss: 1.0465 - acc: 0.6294")
    assert line is not None
    assert (line.count, line.step_seconds, line.bar_seconds) == ((50000, 50000), None, 708.0)


def test_verbose_2_s_count_with_no_unit_time_says_no_step_s_either() -> None:
    line = keras_line("370515/370515 - 13s - loss: 0.0436 - val_loss: 0.0300")
    assert line is not None
    assert (line.count, line.step_seconds, line.bar_seconds) == ((370515, 370515), None, 13.0)


def test_a_bar_that_prints_its_step_s_time_still_has_it() -> None:
    # ``- 143s 1s/step``: the unit said (a step), 143 s over its 100 steps is 1.43 s a step
    line = keras_line("100/100 [==============================] - 143s 1s/step - loss: 0.5000")
    assert line is not None
    assert line.step_seconds == 143 / 100


def test_epochs_of_an_unsaid_count_are_timed_by_the_epoch_and_counted_as_printed() -> None:
    # 3 epochs of 1200 (unit unsaid) in 300 s, 306 s, then epoch 3 begun: each step's epoch time as printed, none a step's
    got = steps(["Epoch 1/5", "1200/1200 [==============================] - 300s - loss: 0.9000 - acc: 0.6000",
                 "Epoch 2/5", "1200/1200 [==============================] - 306s - loss: 0.8000 - acc: 0.6500",
                 "Epoch 3/5"])
    assert [(s.epoch, s.step_seconds, dict(s.figures)["epoch_seconds"], s.count_unsaid) for s in got] == [
        (1, None, 300.0, True), (2, None, 306.0, True)]


def test_the_stage_line_shows_the_full_bar_s_count_never_steps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "train.log"
    log.write_text("Epoch 1/5\n1200/1200 [==============================] - 300s - loss: 0.9000 - acc: 0.6000\n"
                   "Epoch 2/5\n1200/1200 [==============================] - 306s - loss: 0.8000 - acc: 0.6500\nEpoch 3/5\n")
    main(["once", "--log", str(log), "--no-history", "--at", "end"])
    text = capsys.readouterr().out
    assert "Stage train · epoch 3/5 · 1200/1200 in the epoch before" in text
    assert "epoch 5 min 6 s (as printed)" in text
    assert "steps an epoch" not in text and "steps/h" not in text and "step 2" not in text
