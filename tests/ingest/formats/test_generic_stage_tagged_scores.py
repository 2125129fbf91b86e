"""An evaluation's results record, its stage named after its counter (mmcv's runner: ``Epoch(val) [1][2]	accuracy_top-1:
22.0000, accuracy_top-3: 38.0000``): its scores are the evaluation of the last step, never a training position. mmcv's
ProgressBar over the evaluation's samples ends with no newline, so that record (or any its logger prints next) may be glued
to the bar (``… ETA:     0s2021-07-14 13:52:36,901 - mmcls - INFO - Epoch(val) …``): the record is read as a line of its own,
its logger's prefix peeled and its time read.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.coldread import read_cold
from tests.reallogs import body

# Composed in mmcv's shape: epoch 1's iterations 10 and 20 of 25, the bar over 50 validation images with the results
# record glued on, then epoch 2's iteration 10 (loss 0.30). The evaluation: top-1 40.0, top-5 90.0.
GLUED = [
    ("2021-07-14 13:52:26,000 - mmcls - INFO - Epoch [1][10/25]\tlr: 1.000e-02, eta: 0:10:00, time: 0.400, data_time: 0.020, "
    "memory: 2962, loss: 0.5000"),
    ("2021-07-14 13:52:30,000 - mmcls - INFO - Epoch [1][20/25]\tlr: 1.000e-02, eta: 0:09:56, time: 0.400, data_time: 0.020, "
    "memory: 2962, loss: 0.4000"),
    "2021-07-14 13:52:32,000 - mmcls - INFO - Saving checkpoint at 1 epochs",
    ("[>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>] 50/50, 100.0 task/s, elapsed: 0s, ETA:     0s2021-07-14 13:52:33,000 - mmcls - INFO - "
    "Epoch(val) [1][2]\taccuracy_top-1: 40.0000, accuracy_top-5: 90.0000"),
    ("2021-07-14 13:52:37,000 - mmcls - INFO - Epoch [2][10/25]\tlr: 1.000e-02, eta: 0:09:50, time: 0.400, data_time: 0.020, "
    "memory: 2962, loss: 0.3000"),
]


def test_the_glued_results_record_is_the_evaluation(tmp_path: Path) -> None:
    data = read_cold(tmp_path, GLUED, dated=True)
    training = data["training"]
    assert data["status_line"].startswith("epoch 2 · 10/25 in the epoch")
    assert training["loss"] == 0.3 and training["step_seconds"] == 0.4
    assert {name: figure["value"] for name, figure in training["eval"].items()} == {"accuracy_top_1": 40.0,
                                                                                     "accuracy_top_5": 90.0}


def test_the_glued_record_s_prefix_gives_its_time(tmp_path: Path) -> None:
    # the log ends at the glued record: its own time, 13:52:33, is the log's last
    data = read_cold(tmp_path, GLUED[:4], dated=True)
    assert data["source"]["last_event_at"] == time.mktime((2021, 7, 14, 13, 52, 33, 0, 0, -1))


def test_the_bar_s_count_is_no_training_step(tmp_path: Path) -> None:
    data = read_cold(tmp_path, GLUED[:4], dated=True)
    assert data["training"]["step"] == 20 and data["training"]["total_steps"] == 25


def test_a_results_record_with_its_batches_counted_stays_a_pass_under_way(tmp_path: Path) -> None:
    # mmengine's ``Epoch(val) [1][20/50]`` counts the pass's batches: no results, an evaluation under way
    lines = [*GLUED[:2], ("2021-07-14 13:52:33,000 - mmengine - INFO - Epoch(val) [1][20/50]    eta: 0:00:03  time: 0.0500  "
             "data_time: 0.0100")]
    data = read_cold(tmp_path, lines, dated=True)
    assert not data["training"]["eval"]


def test_a_real_mmaction_log_reads_the_results_after_its_bar(tmp_path: Path) -> None:
    # open-mmlab/mmaction issue 199: ``Epoch(val) [13][1730]	top1 acc: 0.0659, top5 acc: 0.1613`` after the bar
    data = read_cold(tmp_path, body("generic-mmaction-issue199-epoch-14-1700-1720-of-1730-progressbar-then-epoch-val-top1-"
                                    "top5-acc.log"), dated=True)
    training = data["training"]
    assert data["status_line"].startswith("epoch 14 · 1720/1730 in the epoch")
    assert {name: figure["value"] for name, figure in training["eval"].items()} == {"top1_acc": 0.0659, "top5_acc": 0.1613}


def test_a_real_mmcls_log_reads_its_epoch_s_evaluation(tmp_path: Path) -> None:
    # open-mmlab/mmpretrain issue 742: ``Epoch(val) [4][98]	accuracy_top-1: 0.2500, accuracy_top-5: 1.1240``
    data = read_cold(tmp_path, body("generic-mmcls-mmpretrain-issue742-epoch-4-2200-2500-of-2503-best-checkpoint-then-epoch-"
                                    "val-topk-then-epoch-5.log"), dated=True)
    training = data["training"]
    assert data["status_line"].startswith("epoch 5 · 100/2503 in the epoch")
    assert training["loss"] == 6.0452
    assert {name: figure["value"] for name, figure in training["eval"].items()} == {"accuracy_top_1": 0.25,
                                                                                     "accuracy_top_5": 1.124}


def test_a_real_mmdet_log_reads_the_record_glued_to_its_bar_and_the_results(tmp_path: Path) -> None:
    # yvr1037/fenghuo-project-of-mmdet mm.md: ``… ETA:     0s2021-12-21 21:56:22,062 - mmdet - INFO - Evaluating bbox...``,
    # then ``Epoch(val) [1][764]    bbox_mAP: 0.0110, …, segm_mAP: 0.0110, …``
    data = read_cold(tmp_path, body("generic-mmdet-fenghuo-file-mm-md-epoch-1-900-of-930-glued-progressbar-coco-then-epoch-"
                                    "val-map-then-epoch-2-100.log"), dated=True)
    training = data["training"]
    assert data["status_line"].startswith("epoch 2 · 100/930 in the epoch")
    assert training["loss"] == 0.4369
    assert training["eval"]["bbox_map"]["value"] == 0.011 and training["eval"]["segm_map"]["value"] == 0.011
    assert training["eval"]["bbox_map_50"]["value"] == 0.017
