"""A full Keras bar under a loop's own pass counter (``iter N``, ``iteration N``): that pass is the step, the bar's
printed time the step's (composed lines in the shape of keras-team/keras#7375, answers by hand)."""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold

# A loop calling Keras 1's fit once per pass under its own "iter N" label, with a metric beside the loss; passes 7-9
# full (120 s, 126 s, 131 s): step 9, loss 0.8012, 131 s a step (3600 / 131 = 27.5 steps/h); acc is no loss and no eval.
PASSES = [
    "iter 7 50000/50000 [==============================] - 120s - loss: 0.9120 - acc: 0.7011",
    "iter 8 50000/50000 [==============================] - 126s - loss: 0.8533 - acc: 0.7240",
    "iter 9 50000/50000 [==============================] - 131s - loss: 0.8012 - acc: 0.7402",
]


def test_each_full_bar_is_its_pass_and_its_printed_time_the_step_s(tmp_path: Path) -> None:
    data = read_cold(tmp_path, PASSES)
    training = data["training"]
    assert (data["status_line"], data["state"]) == ("step 9 · 27 steps/h", "training")
    assert training["step"] == 9 and training["total_steps"] is None
    assert training["loss"] == 0.8012 and training["step_seconds"] == 131.0
    assert not training.get("eval")
