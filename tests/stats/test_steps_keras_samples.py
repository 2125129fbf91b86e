"""Keras' ``fit`` on arrays counts samples: after its ``Train on N samples`` its bars of N are no steps.

Keras 1 and 2 (and tf.keras before 2.2) print ``Train on 50000 samples, validate on 10000 samples`` as ``fit`` starts on
arrays, then bars that count the epoch's samples (``50000/50000 [====] - 712s - loss: …``; Keras 2.1+ labels the time of
one sample ``…us/step``). With those words a full bar is its epoch (its step the epoch, its time the epoch's as printed)
and a bar part-way is samples into the epoch, no step; without them the count's unit is not known and the bar is read as
before. Composed logs (figures by hand) and real ones (tests/data/real, each source in its header).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold
from tests.reallogs import body

KERAS1 = [
    "Epoch 1/200",
    "50000/50000 [==============================] - 678s - loss: 1.7646 - acc: 0.3460 - val_loss: 1.3379 - val_acc: 0.5161",
    "Epoch 2/200",
    "50000/50000 [==============================] - 701s - loss: 1.3731 - acc: 0.5027 - val_loss: 1.0936 - val_acc: 0.6131",
    "Epoch 3/200",
    " 3200/50000 [>.............................] - ETA: 650s - loss: 1.2500 - acc: 0.5500",
]
TRAIN_ON = "Train on 50000 samples, validate on 10000 samples"


def test_bars_of_the_samples_fit_said_it_trains_on_are_epochs_not_steps(tmp_path: Path) -> None:
    # epoch 2's full bar is the last whole epoch, 701 s as printed: 3600 / 701 = 5.14 epochs an hour, and the 198 left
    # take 198 × 701 = 138,798 s; epoch 3 is begun (its header)
    data = read_cold(tmp_path, [TRAIN_ON, *KERAS1[:-1]])
    training = data["training"]
    assert data["status_line"] == "epoch 2/200 · 5.1 epochs/h"
    assert (training["step"], training["total_steps"], training["loss"]) == (2, 200, 1.3731)
    assert training["step_seconds"] == pytest.approx(701.0)
    assert training["steps_per_hour"] == pytest.approx(3600 / 701)
    assert training["eta_seconds"] == pytest.approx(198 * 701)
    assert training["data"]["epoch"] == 3.0
    assert training["eval"]["val_loss"]["value"] == 1.0936
    assert not any("steps an epoch" in line or "50,000" in line for line in data["details"])


def test_a_bar_part_way_after_the_fit_s_words_is_samples_into_its_epoch(tmp_path: Path) -> None:
    # epoch 3's bar at 3,200 of its 50,000 samples: where the run is, its loss 1.25 and the trainer's 650 s to the
    # epoch's end; no step, and no sample's time (one line of the bar; epoch 2's 701 s is no sample's)
    data = read_cold(tmp_path, [TRAIN_ON, *KERAS1])
    training = data["training"]
    assert data["status_line"] == "epoch 3/200 · 3200/50000 samples in the epoch · …"
    assert (training["step"], training["total_steps"], training["step_unit"]) == (3200, 50000, "sample")
    assert (training["loss"], training["trainer_eta_seconds"], training["step_seconds"]) == (1.25, 650.0, None)
    assert training["data"]["epoch"] == 3.0
    assert not any("steps an epoch" in line or "sample 701" in line for line in data["details"])


def test_without_the_fit_s_words_a_bar_s_count_is_read_as_before(tmp_path: Path) -> None:
    # (a fit_generator's bar counts steps in the same shape: Keras 2.0's ``1562/1562 [====] - 484s - loss: …``)
    data = read_cold(tmp_path, KERAS1)
    assert data["training"]["step"] == 3200
    assert any("50,000 steps an epoch" in line or "50000" in line for line in data["details"])


def test_a_bar_of_another_total_than_the_samples_is_read_as_before(tmp_path: Path) -> None:
    lines = [TRAIN_ON, "Epoch 1/5", "1563/1563 [==============================] - 30s 19ms/step - loss: 1.5000"]
    assert read_cold(tmp_path, lines)["training"]["step"] == 1563


@pytest.mark.parametrize(("name", "status", "loss", "seconds"), [
    # 25,000 samples an epoch, 49 s the last (its "2ms/step" a sample's: 49 / 25,000 = 1.96 ms); epoch 4 of 4: fit over
    ("keras-deep-learning-illustrated-lstm-sentiment-train-on-25000-samples-epochs-1-4-of-4-ms-per-step.log",
     "done · epoch 4/4", 0.2018, 49.0),
    # 15,000 samples an epoch in "1s" each (whole seconds under ten: the epoch's time as printed, no sample's or step's
    # made of it); epoch 20 of 20
    ("keras-deep-learning-with-python-3-5-imdb-train-on-15000-samples-epochs-1-20-of-20-epoch-time-only.log",
     "done · epoch 20/20", 0.0031, 1.0),
])  # fmt: skip
def test_real_fits_on_arrays_read_their_epochs_not_their_samples_as_steps(
    tmp_path: Path, name: str, status: str, loss: float, seconds: float | None
) -> None:
    data = read_cold(tmp_path, body(name), name=name)
    training = data["training"]
    assert (data["status_line"], training["loss"]) == (status, loss)
    assert training["step_seconds"] == (pytest.approx(seconds) if seconds is not None else None)
    assert not any("steps an epoch" in line or " ms (" in line for line in data["details"])
