"""A full Keras bar after the last epoch's, of another count and with no validation figure: ``predict`` or ``evaluate``
run after ``fit``, never a training step (composed lines in the shapes of keras-team/keras#13517 and #20788, answers by
hand; real logs in tests/data/real)."""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold

# Keras 3's fit to epoch 2/2: 50 steps, 80 ms a step, loss 0.41, val_loss 0.45 and val_accuracy 0.86.
FIT = [
    "Epoch 1/2",
    "50/50 ━━━━━━━━━━━━━━━━━━━━ 5s 90ms/step - accuracy: 0.8100 - loss: 0.5200 - val_accuracy: 0.8300 - val_loss: 0.5000",
    "Epoch 2/2",
    "50/50 ━━━━━━━━━━━━━━━━━━━━ 4s 80ms/step - accuracy: 0.8800 - loss: 0.4100 - val_accuracy: 0.8600 - val_loss: 0.4500",
]
# ``predict`` on one batch (no figure), ``evaluate`` on 20 (its figures, the metric first as Keras 3 prints them).
PREDICT = "1/1 ━━━━━━━━━━━━━━━━━━━━ 0s 45ms/step"
EVALUATE = "20/20 ━━━━━━━━━━━━━━━━━━━━ 1s 30ms/step - accuracy: 0.8700 - loss: 0.4300"


def _fit_still_read(data: dict) -> None:
    training = data["training"]
    assert (data["status_line"], data["state"]) == ("done · epoch 2/2 · 50/50 in the epoch", "done")
    assert training["step"] == 50 and training["total_steps"] == 50
    assert training["loss"] == 0.41 and training["step_seconds"] == 0.08


def test_a_predict_bar_after_fit_is_no_step(tmp_path: Path) -> None:
    data = read_cold(tmp_path, [*FIT, PREDICT])
    _fit_still_read(data)
    assert set(data["training"]["eval"]) == {"val_loss", "val_accuracy"}


def test_an_evaluate_bar_after_fit_is_the_test_set_s_evaluation(tmp_path: Path) -> None:
    data = read_cold(tmp_path, [*FIT, "Evaluating", EVALUATE, PREDICT])
    _fit_still_read(data)
    evals = {name: e["value"] for name, e in data["training"]["eval"].items()}
    assert evals == {"val_loss": 0.45, "val_accuracy": 0.86, "test_loss": 0.43, "test_accuracy": 0.87}


def test_a_further_fit_s_bars_are_training_again(tmp_path: Path) -> None:
    """``Epoch 1/3`` after the closed fit: its full bar (40 steps, loss 0.38, no ``val_``) is that fit's, no test."""
    data = read_cold(tmp_path, [*FIT, PREDICT, "Epoch 1/3",
                                "40/40 ━━━━━━━━━━━━━━━━━━━━ 2s 60ms/step - accuracy: 0.8900 - loss: 0.3800"])
    assert not any(name.startswith("test") for name in data["training"].get("eval") or {})
