"""An evaluation's pass under way is the run's state: evaluating, dated or not, until a result, a step or a crash.

Real: Jittor's ``Test in epoch 49 iteration 2`` after its training lines (Jittor/jittor issue #231) and PaddleNLP's
``***** Running Evaluation *****`` glued to its bar at 200/600 (PaddlePaddle/PaddleNLP pull request #1761), in
tests/live/test_real_logs.py; mmengine's ``Epoch(val) [10][4100/4809]`` before any step (AILab-CVC/YOLO-World issue
#396), in tests/stats/test_run_end.py, and ``Epoch(val)  [2][ 3550/21046]`` (jbwang1997/CrossKD issue #15), in
tests/live/test_real_logs.py. Composed: a MetricLogger's dated training lines a minute apart, then its test
pass (``Test:  [10/50]``), the figures worked out by hand; an evaluation's start said in words (DAMO-YOLO's, YOLOX's: real
in tests/live/test_real_logs.py), a pass's running figures until its starred result (DeiT's, real there too); TensorFlow
1's retrain evaluating at every logged step with no time of its own (real: Azure/kubeflow-labs' 5-tfjob/README.md).
"""

from __future__ import annotations

import calendar
from pathlib import Path

from tests.coldread import read_cold

TRAINING = [f"2024-05-01 10:0{i}:00 Epoch: [0]  [{10 * i:2d}/60]  eta: 0:00:30  lr: 0.005  loss: 0.{9 - i}  time: 0.5000"
            for i in range(6)]
TESTING = ["2024-05-01 10:05:30 Test:  [ 0/50]  eta: 0:00:10  time: 0.2000",
           "2024-05-01 10:06:00 Test:  [10/50]  eta: 0:00:08  time: 0.2000"]


def _at(clock: str) -> float:
    """The composed log's local time as the reader dates it (the tests run in UTC)."""
    return float(calendar.timegm((2024, 5, 1, *(int(part) for part in clock.split(":")), 0, 0, 0)))


def test_a_test_pass_under_way_after_the_steps_is_evaluating(tmp_path: Path) -> None:
    data = read_cold(tmp_path, TRAINING + TESTING, dated=True)
    assert (data["status_line"], data["state"]) == ("epoch 0 · 50/60 in the epoch · evaluating", "evaluating")
    # 10 of its 50 batches, a minute after the last step (10:05:00 to 10:06:00)
    assert "Evaluating after epoch 0 · 50/60 in the epoch: 10/50 of its pass, no result yet · 1 min since then" in \
        data["details"]
    assert data["training"]["paused"] == "evaluation" and data["training"]["step"] == 50
    assert data["state_since"] == _at("10:05:30")  # (the pass's first line)


def test_the_pass_s_result_ends_it(tmp_path: Path) -> None:
    lines = [*TRAINING, *TESTING, "2024-05-01 10:06:30 Test set: Average loss: 0.0331, Accuracy: 9894/10000 (99%)"]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["state"] == "training"
    assert not any(line.startswith("Evaluating") for line in data["details"])


def test_a_step_after_the_pass_ends_it(tmp_path: Path) -> None:
    lines = [*TRAINING, *TESTING,
             "2024-05-01 10:07:00 Epoch: [1]  [ 0/60]  eta: 0:00:30  lr: 0.005  loss: 0.3  time: 0.5000"]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["state"] != "evaluating" and data["training"]["paused"] is None
    assert data["status_line"] == "epoch 1 · 0/60 in the epoch · …"  # (its rate measured anew from the new epoch)


def test_a_crash_in_the_pass_is_a_crash(tmp_path: Path) -> None:
    lines = [*TRAINING, *TESTING, "Traceback (most recent call last):",
             '  File "train.py", line 88, in <module>', "RuntimeError: CUDA out of memory."]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["state"] == "crashed"
    assert not any(line.startswith("Evaluating") for line in data["details"])


# TensorFlow 1's retrain prints at every logged step its loss and, 50 ms later, a validation batch's accuracy: the
# evaluation has no time of its own in the log, no pause. Composed: steps 0, 10, …, 190 half a second apart.
RETRAIN = [line for i in range(20) for line in (
    f"INFO:tensorflow:2017-11-20 20:00:{i // 2:02d}.{500000 * (i % 2):06d}: Step {10 * i}: Cross entropy = 0.{90 - i}",
    (f"INFO:tensorflow:2017-11-20 20:00:{i // 2:02d}.{500000 * (i % 2) + 50000:06d}: Step {10 * i}: Validation accuracy = "
     f"85.0% (N=100)"))]


def test_an_evaluation_at_the_moment_of_its_step_is_no_pause(tmp_path: Path) -> None:
    data = read_cold(tmp_path, RETRAIN, dated=True)
    training = data["training"]
    assert training["step"] == 190 and training["loss"] == 0.71
    # 19 intervals of 0.5 s over 190 steps: 0.05 s a step, the clock's rate kept though every step evaluated
    assert training["step_seconds"] is not None and abs(training["step_seconds"] - 0.05) < 1e-6


def test_an_evaluation_that_takes_its_own_time_stays_a_pause(tmp_path: Path) -> None:
    # the same records, each validation printed 0.4 s after its step's loss (of the 0.5 s to the next): a pause each time
    slow = [line.replace(".050000:", ".400000:").replace(".550000:", ".900000:") for line in RETRAIN]
    data = read_cold(tmp_path, slow, dated=True)
    assert data["training"]["step"] == 190 and data["training"]["step_seconds"] is None


def test_a_start_said_after_a_step_is_evaluating(tmp_path: Path) -> None:
    lines = [*TRAINING, "2024-05-01 10:05:30 Start evaluation on coco_val dataset(500 images)."]
    data = read_cold(tmp_path, lines, dated=True)
    assert (data["status_line"], data["state"]) == ("epoch 0 · 50/60 in the epoch · evaluating", "evaluating")
    assert "Evaluating after epoch 0 · 50/60 in the epoch: its pass begun, no result yet · 30 s since then" in \
        data["details"]


def test_a_metriclogger_pass_with_running_figures_is_under_way_until_its_starred_result(tmp_path: Path) -> None:
    passing = ["2024-05-01 10:05:30 Test:  [ 0/50]  eta: 0:00:10  loss: 0.8000 (0.8000)  acc1: 75.0000 (75.0000)  time: 0.2",
               "2024-05-01 10:06:00 Test:  [10/50]  eta: 0:00:08  loss: 0.6000 (0.7000)  acc1: 81.2500 (78.1250)  time: 0.2"]
    data = read_cold(tmp_path, TRAINING + passing, dated=True)
    assert data["state"] == "evaluating" and data["training"]["eval"] is None  # (running figures: no result)
    data = read_cold(tmp_path, [*TRAINING, *passing, "2024-05-01 10:06:20 * Acc@1 80.100 Acc@5 95.250 loss 0.650"],
                     dated=True)
    assert data["state"] != "evaluating"
    assert data["training"]["eval"] == {"val_loss": {"value": 0.65, "step": None},
                                        "val_acc@1": {"value": 80.1, "step": None},
                                        "val_acc@5": {"value": 95.25, "step": None}}


def test_an_epoch_s_evaluation_said_in_words_after_steps_that_named_no_epoch_is_that_epoch_evaluating(
        tmp_path: Path) -> None:
    """``[Iter 240 / 250]`` lines, then ``Epoch 2 evaluation <…>`` (a rank-prefixed logger, as a sentence-transformers
    fit loop prints): the run evaluates epoch 2, its count the epoch's batches; 100 steps in 10 min, then 40 in 4 min:
    6 s a step."""
    lines = ["1 | 2023-01-02 10:00:00,000 - INFO - Trainer.fit() : [Iter 100 / 250] loss: 0.95",
             "1 | 2023-01-02 10:10:00,000 - INFO - Trainer.fit() : [Iter 200 / 250] loss: 0.90",
             "1 | 2023-01-02 10:14:00,000 - INFO - Trainer.fit() : [Iter 240 / 250] loss: 0.85",
             "1 | 2023-01-02 10:14:30,000 - INFO - src.model : Epoch 2 evaluation <src.eval.Evaluator object at 0x7f12>"]
    data = read_cold(tmp_path, lines, dated=True)
    assert (data["status_line"], data["state"]) == ("epoch 2 · 240/250 in the epoch · evaluating", "evaluating")
    training = data["training"]
    assert (training["step"], training["total_steps"], training["data"]["epoch"]) == (240, 250, 2.0)
    assert training["loss"] == 0.85 and training["paused"] == "evaluation"
    assert abs(training["step_seconds"] - 6.0) < 1e-6


# detectron2's evaluator counting its pass (``inference_on_dataset``: ``Inference done 11/500. …``) after its training
# lines, dated the year-less way it prints them, the pass's own start line cut from the window. Composed: iterations 19
# and 39 seven seconds apart, then the pass's batches 11 and 38 of 500; real: facebookresearch/detectron2 issue #4469 and
# cvlab-kaist/CAT-Seg issue #24, the pass's lines alone, in tests/live/test_real_logs.py.
D2_TRAINING = [
    ("[05/01 10:00:00 d2.utils.events]:  eta: 0:03:35  iter: 19  total_loss: 1.36  loss_cls: 0.6522  time: 0.3636"
     "  data_time: 0.1102  lr: 3.8e-06  max_mem: 433M"),
    ("[05/01 10:00:07 d2.utils.events]:  eta: 0:03:14  iter: 39  total_loss: 1.353  loss_cls: 0.6354  time: 0.3633"
     "  data_time: 0.0641  lr: 7.6e-06  max_mem: 433M"),
]
D2_INFERENCE = [
    ("[05/01 10:00:15 d2.evaluation.evaluator]: Inference done 11/500. Dataloading: 0.0008 s/iter. Inference: 0.1869"
     " s/iter. Eval: 0.0004 s/iter. Total: 0.1882 s/iter. ETA=0:01:32"),
    ("[05/01 10:00:20 d2.evaluation.evaluator]: Inference done 38/500. Dataloading: 0.0008 s/iter. Inference: 0.1869"
     " s/iter. Eval: 0.0004 s/iter. Total: 0.1882 s/iter. ETA=0:01:27"),
]


def test_detectron2_s_inference_count_after_the_steps_is_evaluating(tmp_path: Path) -> None:
    data = read_cold(tmp_path, D2_TRAINING + D2_INFERENCE, dated=True)
    assert (data["status_line"], data["state"]) == ("step 39 · evaluating", "evaluating")
    # 38 of its 500 batches, 13 s after the last step (10:00:07 to 10:00:20); the pass's 0.1882 s/iter no step's time
    assert "Evaluating after step 39: 38/500 of its pass, no result yet · 13 s since then" in data["details"]
    training = data["training"]
    assert training["step"] == 39 and training["loss"] == 1.353 and training["step_seconds"] == 0.3633


def test_detectron2_s_next_iteration_ends_the_pass(tmp_path: Path) -> None:
    lines = [*D2_TRAINING, *D2_INFERENCE,
             ("[05/01 10:02:00 d2.utils.events]:  eta: 0:03:00  iter: 59  total_loss: 1.329  loss_cls: 0.6168"
              "  time: 0.3640  data_time: 0.0555  lr: 1.1e-05  max_mem: 433M")]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["state"] != "evaluating" and data["training"]["paused"] is None
    assert data["training"]["step"] == 59 and data["training"]["loss"] == 1.329


def test_detectron2_s_inference_count_alone_is_a_pass_under_way(tmp_path: Path) -> None:
    data = read_cold(tmp_path, D2_INFERENCE, dated=True)
    assert (data["status_line"], data["state"]) == ("validation only", "evaluating")
    assert data["details"][0] == "Only validation lines so far, no training step: validating, 38/500 batches"
    assert data["training"]["step"] is None
