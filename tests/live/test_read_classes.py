"""Classes of lines the readers read, shown as the log says them: each class on real logs from tests/data/real/
(each cites its source in its header) and on composed logs whose answers are worked out by hand in the comments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.coldread import read_cold
from tests.reallogs import body


def shown(tmp_path: Path, lines: list[str], name: str = "train.log") -> dict[str, Any]:
    """The snapshot of a log read cold, as ``run.py once --at end`` reads it: at its last line's time."""
    return read_cold(tmp_path, lines, name=name)


def real(tmp_path: Path, name: str) -> dict[str, Any]:
    return shown(tmp_path, body(name), name)


def evals(data: dict[str, Any]) -> dict[str, tuple[float, int | None]]:
    return {name: (e["value"], e["step"]) for name, e in (data["training"]["eval"] or {}).items()}


# --- a loss printed in its parts, and a per-class evaluation table (ultralytics, YOLOv5) -----------------------

def test_yolo_losses_by_part_and_map_from_the_all_row(tmp_path: Path) -> None:
    data = real(tmp_path, "generic-ultralytics-issue21765-yolo-epoch-22-of-55-negative-box-loss-9min-epochs.log")
    # epoch 22's row: box_loss -0.2286, cls_loss 4.971, dfl_loss 2.967 (negative, as printed); no one loss
    assert "Losses box_loss -0.2286 · cls_loss 4.971 · dfl_loss 2.967" in data["details"]
    assert data["training"]["loss"] is None
    # the last validation after it: all 1049 1186 0.934 0.876 0.934 0.563; its step is no batch count of the epoch
    assert evals(data) == {"precision": (0.934, None), "recall": (0.876, None), "mAP50": (0.934, None),
                           "mAP50-95": (0.563, None)}
    # (mAP50-95, the family's headline, first; the others as printed)
    assert "Eval mAP50-95 0.563 · precision 0.934 · recall 0.876 · mAP50 0.934" in data["details"]


def test_yolo_rows_cut_at_the_terminal_width_keep_what_is_whole(tmp_path: Path) -> None:
    data = real(tmp_path, "generic-ultralytics-issue19571-yolo11-tune-epoch-16-of-30-zero-metrics-box-loss-up.log")
    assert "Losses box_loss 4.513 · cls_loss 5.696 · dfl_loss 1.262" in data["details"]
    # the header cut at ``mAP50-``: the fourth metric in YOLO's fixed order, mAP50-95; all four 0 on every validation
    assert {k: v for k, (v, _) in evals(data).items()} == {"precision": 0.0, "recall": 0.0, "mAP50": 0.0, "mAP50-95": 0.0}


def test_a_yolo_row_cut_before_its_last_cells_reads_those_it_printed_whole(tmp_path: Path) -> None:
    data = real(tmp_path, "generic-ultralytics-issue17862-yolo-epoch-1-of-10-row-cut-before-size-val-header-cut-after-r.log")
    # ``1/10  2.8G  1.158  1.23  1.214  127`` under ``Epoch  GPU_mem  box_loss  cls_loss  dfl_loss  Instances  Size``:
    # its last cell (127, perhaps cut in its digits) left out, the three losses read
    assert "Losses box_loss 1.158 · cls_loss 1.23 · dfl_loss 1.214" in data["details"]
    assert data["training"]["step"] == 1 and data["training"]["total_steps"] == 10
    # ``Box(P  R`` then nothing: the ``all`` row's seven cells are P, R, mAP50, mAP50-95 in that order
    # (the validation table prints no epoch of its own; printed after epoch 1's row, it is that epoch's validation)
    assert "Eval mAP50-95 0.504 · precision 0.651 · recall 0.604 · mAP50 0.675 (epoch 1)" in data["details"]
    # a row cut before its losses (composed: the epoch and its memory only) says no loss
    cut = ["      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
           "       1/10       2.8G      1.158"]
    assert shown(tmp_path, cut, "cut.log")["training"] is None


def test_a_segment_model_s_header_cut_in_its_box_group_names_that_group_only(tmp_path: Path) -> None:
    name = "yolo-coralreef-conservation-logbook-yolov8-seg-val-headers-cut-after-box-r-and-at-mask-p.log"
    lines = body(name)
    first = lines[: lines.index("")]  # (the segment/train5 block: ``Box(P  R`` over 11-cell rows)
    got = evals(shown(tmp_path, first, "train5.log"))
    # 0.663 0.521 0.575 0.409 are the box's; the mask's four after them are under no printed name: not read
    assert got == {"precision": (0.663, None), "recall": (0.521, None), "mAP50": (0.575, None),
                   "mAP50-95": (0.409, None)}


def test_yolo_without_brackets_and_a_composed_older_table(tmp_path: Path) -> None:
    data = real(tmp_path, "generic-yolo11-ultralytics-issue22209-new-bars-epochs-12-14-of-300-it-s.log")
    assert "Losses box_loss 3.509 · cls_loss 5.679 · dfl_loss 4.18" in data["details"]
    assert evals(data)["mAP50-95"] == (0.0, None)
    # composed in YOLOv7's older shape: ``total`` is the loss (0.05 + 0.01 + 0.04 = 0.1), the parts beside it
    older = ["     Epoch   gpu_mem       box       obj       cls     total    labels  img_size",
             "     3/100     11.9G      0.05      0.01      0.04       0.1        13       448: 100%|█| 10/10 [00:20<00:00,  2.00s/it]",
             "               Class      Images      Labels           P           R      mAP@.5  mAP@.5:.95: 100%|█| 2/2 [00:01<00:00,  2.00it/s]",
             "                 all         100         250         0.5        0.25       0.125      0.0625"]
    got = shown(tmp_path, older)
    assert got["training"]["loss"] == 0.1
    assert "Losses box_loss 0.05 · obj_loss 0.01 · cls_loss 0.04" in got["details"]
    assert evals(got) == {"precision": (0.5, None), "recall": (0.25, None), "mAP50": (0.125, None),
                          "mAP50-95": (0.0625, None)}


# --- a position in the epoch printed beside the run's own step (fairseq's legacy progress) ---------------------

def test_fairseq_s_batch_in_its_epoch_beside_its_update_count(tmp_path: Path) -> None:
    # fairseq (https://github.com/facebookresearch/fairseq/issues/940): batch 650 of the epoch's 1891, update 645
    lines = [("| epoch 001:    600 / 1891 loss=11.039, nll_loss=10.320, ppl=1278.29, wps=53936, ups=0.5, wpb=104812, "
             "bsz=5310, num_updates=595, lr=0.000119085, gnorm=1.445, clip=0%, oom=0, loss_scale=2.000, wall=1156, train_wall=1010"),
             "| epoch 001 | valid on 'valid' subset | valid_loss 8.11425 | valid_nll_loss 6.8834 | valid_ppl 118.06 | num_updates 600",
             ("| epoch 001:    650 / 1891 loss=10.902, nll_loss=10.160, ppl=1144.39, wps=53573, ups=0.5, wpb=104904, "
             "bsz=5328, num_updates=645, lr=0.000129084, gnorm=1.419, clip=0%, oom=0, loss_scale=2.000, wall=1263, train_wall=1094")]
    data = shown(tmp_path, lines)
    assert data["training"]["step"] == 645 and data["training"]["total_steps"] is None
    assert "Data epoch 1 · 650/1,891 in the epoch" in data["details"]
    # an epoch's summary after it (composed: fairseq prints one at the epoch's end) says no position in the epoch
    summary = "| epoch 001 | loss 10.5 | nll_loss 9.8 | ppl 890.1 | wps 53500 | ups 0.5 | num_updates 1886 | lr 0.0003 | gnorm 1.3"
    data = shown(tmp_path, [*lines, summary], "summary.log")
    assert "Data epoch 1" in data["details"]


def test_a_global_count_beside_the_run_s_epochs_shows_both(tmp_path: Path) -> None:
    # CPM-2's finetuning (https://github.com/TsinghuaAI/CPM-2-Finetune/issues/11): iteration 30 of the run's 3402, in
    # epoch 0 of its 10
    lines = ["epoch   0/ 10 | global iteration       20/    3402 | learning rate 3e-06 | lm loss 7.72363 | loss scale 512.0 |",
             "epoch   0/ 10 | global iteration       30/    3402 | learning rate 3e-06 | lm loss 6.98914 | loss scale 512.0 |"]
    data = shown(tmp_path, lines)
    assert data["status_line"].startswith("step 30/3402")
    assert "Data epoch 0/10" in data["details"]
    assert not any("in the epoch" in line for line in data["details"])


def test_an_evaluation_beside_a_count_of_an_epoch_s_batches_names_no_step(tmp_path: Path) -> None:
    # pytracking (https://github.com/visionml/pytracking/issues/359), shortened: batch 100 of epoch 35 is no step 100
    lines = ["[train: 35, 50 / 1000] FPS: 4.0 (7.9)  ,  Loss/total: 3.41968  ,  ClfTrain/test_loss: 0.00287",
             "[train: 35, 100 / 1000] FPS: 5.4 (8.5)  ,  Loss/total: 3.44221  ,  ClfTrain/test_loss: 0.00289"]
    data = shown(tmp_path, lines)
    assert "Eval clftrain_test_loss 0.0029" in data["details"]
    assert evals(data)["clftrain_test_loss"] == (0.00289, None)
    assert "6.5 samples/s" not in data["details"] and "5.4 samples/s" in data["details"]


# --- evaluation figures on a trainer's own lines: per-cent scores, a count of a total, a best at its own epoch ------

def test_a_split_s_score_in_per_cent_beside_an_epoch_s_loss_is_that_epoch_s_evaluation(tmp_path: Path) -> None:
    # composed on the dated record of a custom CIFAR-10 loop: the test accuracy in per cent is each epoch's evaluation,
    # as printed (85.20% is 85.2); the training's accuracy is none; the loss the training's
    data = shown(tmp_path, [
        "2025-06-04 19:16:29,525 - INFO - Epoch 1/3, Train Loss: 0.9000, Train Acc: 70.00%, Test Acc: 80.00%",
        "2025-06-04 19:19:35,066 - INFO - Epoch 2/3, Train Loss: 0.8000, Train Acc: 75.00%, Test Acc: 85.20%",
    ])
    assert data["training"]["loss"] == 0.8
    assert evals(data) == {"test_acc": (85.2, 2)}
    # a share named by no split (``Acc: 75.00%`` beside the loss alone) is no evaluation's
    data = shown(tmp_path, ["Epoch 1/3, Loss: 0.9000, Acc: 70.00%", "Epoch 2/3, Loss: 0.8000, Acc: 75.00%"], "b.log")
    assert not data["training"]["eval"]


def test_a_best_so_far_is_shown_at_the_epoch_it_was_first_printed(tmp_path: Path) -> None:
    # ``Best test accuracy: 82.50%`` after the last epoch: 82.50 was the test accuracy at epoch 2 (not the last, 3)
    lines = [
        "2025-06-04 19:16:29,525 - INFO - Epoch 1/3, Train Loss: 0.9000, Test Acc: 80.00%",
        "2025-06-04 19:19:35,066 - INFO - Epoch 2/3, Train Loss: 0.8000, Test Acc: 82.50%",
        "2025-06-04 19:22:35,001 - INFO - Epoch 3/3, Train Loss: 0.7000, Test Acc: 81.00%",
        "2025-06-04 19:22:35,001 - INFO - Best test accuracy: 82.50%",
    ]
    data = shown(tmp_path, lines)
    assert evals(data) == {"test_acc": (81.0, 3), "best_test_accuracy": (82.5, 2)}
    assert "Eval test_acc 81 (epoch 3) · best_test_accuracy 82.5 (epoch 2)" in data["details"]
    # a best the log never printed as an epoch's figure (reached before the excerpt): at no epoch, never the last one
    data = shown(tmp_path, [*lines[:3], "2025-06-04 19:22:35,001 - INFO - Best test accuracy: 83.00%"], "b.log")
    assert evals(data) == {"test_acc": (81.0, 3), "best_test_accuracy": (83.0, None)}


def test_a_benchmark_s_count_of_a_total_and_its_fraction_is_its_score(tmp_path: Path) -> None:
    # 2500/10042 = 0.24895…: the fraction as printed, at the step logged before it
    lines = ["step 4000 | loss: 3.250000 | lr 3.0000e-04 | norm: 0.2500 | dt: 500.00ms | tok/sec: 1048576.00",
             "validation loss: 3.2000", "HellaSwag accuracy: 2500/10042=0.2490"]
    assert evals(shown(tmp_path, lines)) == {"val_loss": (3.2, 4000), "hellaswag_accuracy": (0.249, 4000)}
    # a count past its total, or a fraction that is not theirs (2500/10042 is no 0.5), is no score
    for wrong in ("HellaSwag accuracy: 10043/10042=1.0001", "HellaSwag accuracy: 2500/10042=0.5000"):
        assert "hellaswag_accuracy" not in evals(shown(tmp_path, [*lines[:2], wrong], "b.log"))
