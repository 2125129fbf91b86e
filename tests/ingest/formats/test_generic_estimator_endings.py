"""TF Estimator's own end of training and the evaluation after it.

``Estimator.train()`` returns with ``Loss for final step: 0.79459095.`` (TPUEstimator then prints ``training_loop marked
as finished``): the run's end, its loss the final step's. ``Estimator.evaluate()`` writes its results as ``Saving dict
for global step 214: accuracy = 0.64666665, global_step = 214, loss = 2.4514768``: the run's evaluation, its loss and
scores by their names, never a training step. Real excerpts are in tests/data/real (OpenNMT/OpenNMT-tf issue 206,
google-research/bert issue 1387); the logs here are composed in those lines' words, their answers worked by hand.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold

TRAINED = [
    "INFO:tensorflow:loss = 0.0071, step = 101 (2.000 sec)",
    "INFO:tensorflow:loss = 0.0052, step = 201 (2.000 sec)",
    "INFO:tensorflow:Saving checkpoints for 250 into /tmp/model/model.ckpt.",
    "INFO:tensorflow:Loss for final step: 0.0049.",
]
EVALUATED = [
    "INFO:tensorflow:Starting evaluation at 2018-04-26-03:29:16",
    "INFO:tensorflow:Restoring parameters from /tmp/model/model.ckpt-250",
    "INFO:tensorflow:Finished evaluation at 2018-04-26-03:29:16",
    "INFO:tensorflow:Saving dict for global step 250: accuracy = 0.75, global_step = 250, loss = 2.5",
]


def test_the_loss_for_the_final_step_ends_the_run_with_that_loss(tmp_path: Path) -> None:
    data = read_cold(tmp_path, TRAINED)
    assert data["state"] == "done"
    assert data["training"]["step"] == 201  # (the last step line: the checkpoint's 250 is no step line)
    assert data["training"]["loss"] == 0.0049
    assert "Loss 0.0049 (the final step's, as printed)" in data["details"]


def test_the_estimator_s_evaluation_after_the_end_is_the_run_s_evaluation(tmp_path: Path) -> None:
    data = read_cold(tmp_path, TRAINED + EVALUATED)
    assert data["state"] == "done"
    assert data["training"]["step"] == 201
    assert data["training"]["loss"] == 0.0049  # (the evaluation's loss is no training loss)
    evals = data["training"]["eval"]
    assert {name: e["value"] for name, e in evals.items()} == {"eval_loss": 2.5, "accuracy": 0.75}


def test_an_evaluation_between_training_records_is_that_step_s(tmp_path: Path) -> None:
    # train_and_evaluate: the evaluation of the checkpoint at 201, then training goes on to 301
    lines = [*TRAINED[:2], "INFO:tensorflow:Saving dict for global step 201: accuracy = 0.5, global_step = 201, loss = 3.25",
             "INFO:tensorflow:loss = 0.0042, step = 301 (2.000 sec)"]
    data = read_cold(tmp_path, lines)
    assert data["state"] != "done"
    assert data["training"]["step"] == 301
    assert data["training"]["loss"] == 0.0042
    evals = data["training"]["eval"]
    assert {name: (e["value"], e["step"]) for name, e in evals.items()} == {"eval_loss": (3.25, 201), "accuracy": (0.5, 201)}
