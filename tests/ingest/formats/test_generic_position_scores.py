"""A step's evaluation scores printed on a line of their own, led by the step alone, as TensorFlow 1's image retraining
script prints each record: ``<time>: Step 90: Cross entropy = 0.031337`` then ``<time>: Step 90: Validation accuracy =
100.0% (N=100)``. The cross entropy is the step's loss; the validation accuracy is that step's evaluation, its share as
printed; the evaluated count in parentheses is no figure. A line printed twice (two logging handlers) counts once.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold
from tests.reallogs import body

# Composed in the retrain script's shape, each record printed by two handlers (``INFO:tensorflow:`` and glog's):
# steps 10 and 20, losses 0.5 and 0.25, validation accuracies 60.0% (step 10) and 75.0% (step 20), half a second apart.
DOUBLED = [
    "INFO:tensorflow:2019-04-23 05:08:06.000000: Step 10: Train accuracy = 70.0%",
    "I0423 05:08:06.000100 4783 tf_logging.py:115] 2019-04-23 05:08:06.000000: Step 10: Train accuracy = 70.0%",
    "INFO:tensorflow:2019-04-23 05:08:06.000200: Step 10: Cross entropy = 0.500000",
    "I0423 05:08:06.000300 4783 tf_logging.py:115] 2019-04-23 05:08:06.000200: Step 10: Cross entropy = 0.500000",
    "INFO:tensorflow:2019-04-23 05:08:06.040000: Step 10: Validation accuracy = 60.0% (N=100)",
    "I0423 05:08:06.040100 4783 tf_logging.py:115] 2019-04-23 05:08:06.040000: Step 10: Validation accuracy = 60.0% (N=100)",
    "INFO:tensorflow:2019-04-23 05:08:06.500000: Step 20: Train accuracy = 80.0%",
    "I0423 05:08:06.500100 4783 tf_logging.py:115] 2019-04-23 05:08:06.500000: Step 20: Train accuracy = 80.0%",
    "INFO:tensorflow:2019-04-23 05:08:06.500200: Step 20: Cross entropy = 0.250000",
    "I0423 05:08:06.500300 4783 tf_logging.py:115] 2019-04-23 05:08:06.500200: Step 20: Cross entropy = 0.250000",
    "INFO:tensorflow:2019-04-23 05:08:06.540000: Step 20: Validation accuracy = 75.0% (N=100)",
    "I0423 05:08:06.540100 4783 tf_logging.py:115] 2019-04-23 05:08:06.540000: Step 20: Validation accuracy = 75.0% (N=100)",
]


def test_the_cross_entropy_is_the_loss_and_the_validation_accuracy_that_step_s_evaluation(tmp_path: Path) -> None:
    data = read_cold(tmp_path, DOUBLED, dated=True)
    training = data["training"]
    assert data["format"] == "generic" and training["step"] == 20 and training["total_steps"] is None
    assert training["loss"] == 0.25
    assert training["eval"] == {"validation_accuracy": {"value": 75.0, "step": 20}}
    assert "Eval validation_accuracy 75 (step 20)" in data["details"]
    assert not any("100" in line for line in data["details"] if line.startswith("Eval"))  # (N=100: no figure)


def test_each_record_printed_twice_is_one_step(tmp_path: Path) -> None:
    data = read_cold(tmp_path, DOUBLED, dated=True)
    assert data["warmup"]["text"].startswith("measuring: 2 of 3 steps")


def test_a_score_of_another_step_than_the_last_is_no_evaluation_of_it(tmp_path: Path) -> None:
    lines = ["Step 10: Cross entropy = 0.5", "Step 20: Cross entropy = 0.25", "Step 10: Validation accuracy = 60.0% (N=100)"]
    data = read_cold(tmp_path, lines)
    assert data["training"]["step"] == 20 and not data["training"]["eval"]


def test_a_training_figure_beside_the_step_is_no_evaluation(tmp_path: Path) -> None:
    lines = ["Step 10: Cross entropy = 0.5", "Step 20: Cross entropy = 0.25", "Step 20: Train accuracy = 70.0%"]
    data = read_cold(tmp_path, lines)
    assert data["training"]["loss"] == 0.25 and not data["training"]["eval"]


def test_a_real_retrain_log_reads_its_steps_loss_and_validation(tmp_path: Path) -> None:
    # Azure/kubeflow-labs 5-tfjob/README.md: steps 480, 490, 499 of the TensorFlow for Poets retraining
    data = read_cold(tmp_path, body("generic-kubeflow-labs-file-5-tfjob-readme-tf1-retrain-steps-480-499-cross-entropy-"
                                    "validation-accuracy-final-test.log"), dated=True)
    assert data["status_line"].startswith("step 499 · ")
    assert data["training"]["loss"] == 0.170348
    assert data["training"]["eval"] == {"validation_accuracy": {"value": 89.0, "step": 499}}


def test_a_real_retrain_log_through_two_handlers_counts_each_record_once(tmp_path: Path) -> None:
    # elezar/dcos-tensorflow-demos poets/README.md: every record twice, ``INFO:tensorflow:`` and ``[…|tensorflow|INFO]: ``
    data = read_cold(tmp_path, body("generic-dcos-tensorflow-demos-file-poets-readme-tf1-retrain-step-499-two-handlers-"
                                    "each-line-twice.log"), dated=True)
    assert data["status_line"].startswith("step 499 · ")
    assert data["training"]["loss"] == 0.077798
    assert data["training"]["eval"] == {"validation_accuracy": {"value": 85.0, "step": 499}}
    assert data["warmup"]["text"].startswith("measuring: 1 of 3 steps")
