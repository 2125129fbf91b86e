"""The evaluation figures shown lead with the family's main one (a COCO table's ``AP``, YOLO's ``mAP50-95``, a
``val_loss``), the others as printed, and say how many more there are: a COCO table's dozen figures never push its
headline AP out.

A real excerpt (cited below) and composed logs in the shapes of real ones, their answers worked out here by hand.
"""

from __future__ import annotations

from pathlib import Path

from app.stats.steps.text import shown_evals
from tests.reallogs import body
from tests.stats.test_steps_evidence import read_at

# DenseTeacher #31 (https://github.com/Megvii-BaseDetection/DenseTeacher/issues/31), turn 6: cvpods' evaluation lines,
# each followed by a Markdown table; the first two of the four evaluations printed there, as printed.
CVPODS = [
    ("2023-02-24 10:13:13.087 | INFO     | cvpods.evaluation.coco_evaluation:_derive_coco_results:318 - "
    "Evaluation results for bbox: "),
    "|   AP   |  AP50  |  AP75  |  APs   |  APm   |  APl   |",
    "|:------:|:------:|:------:|:------:|:------:|:------:|",
    "| 34.238 | 52.715 | 36.905 | 18.676 | 37.549 | 43.583 |",
    "",
    ("2023-02-24 10:38:41.427 | INFO     | cvpods.evaluation.coco_evaluation:_derive_coco_results:318 - "
    "Evaluation results for bbox: "),
    "|   AP   |  AP50  |  AP75  |  APs   |  APm   |  APl   |",
    "|:------:|:------:|:------:|:------:|:------:|:------:|",
    "| 34.311 | 52.721 | 36.971 | 18.821 | 37.578 | 43.628 |",
]


def test_a_cvpods_table_before_any_step_shows_its_ap_first_and_says_how_many_more(tmp_path: Path) -> None:
    """Six columns, the latest row's: AP 34.311 first, then AP50, AP75, APs as printed; APm and APl are 2 more."""
    details = read_at(tmp_path, CVPODS)["details"]
    assert ("Only validation lines so far, no training step: bbox_AP 34.311, bbox_AP50 52.721, bbox_AP75 36.971, "
            "bbox_APs 18.821, + 2 more") in details


def d2_events(it: int, loss: str) -> str:
    return (f"[03/01 10:00:00 d2.utils.events]:  eta: 0:10:00  iter: {it}  total_loss: {loss}  loss_cls: 1.000  "
            "time: 0.5000  data_time: 0.0100  lr: 0.001000  max_mem: 3000M")


def table(task: str, row: str) -> list[str]:
    return [f"[03/01 10:01:00 d2.evaluation.coco_evaluation]: Evaluation results for {task}: ",
            "|   AP   |  AP50  |  AP75  |  APs   |  APm   |  APl   |",
            "|:------:|:------:|:------:|:------:|:------:|:------:|", row]


def test_detectron2_s_bbox_and_segm_tables_mid_run_lead_with_both_aps(tmp_path: Path) -> None:
    """A detectron2 run evaluating after iteration 39, bbox then segm: 12 figures. Both tasks' AP lead (bbox_AP 30.1,
    segm_AP 28.1, as printed between them), then bbox_AP50 and bbox_AP75: 4 shown, 8 more."""
    lines = [d2_events(19, "2.000"), d2_events(39, "1.900"),
             *table("bbox", "| 30.100 | 50.200 | 32.300 | 15.400 | 33.500 | 40.600 |"),
             *table("segm", "| 28.100 | 48.200 | 29.300 | 12.400 | 30.500 | 42.600 |"),
             d2_events(59, "1.800")]
    details = read_at(tmp_path, lines)["details"]
    # (detectron2's tables print no iteration of their own: at the one logged before them, said so)
    assert ("Eval bbox_AP 30.1 · segm_AP 28.1 · bbox_AP50 50.2 · bbox_AP75 32.3 · + 8 more (after step 39, the last "
            "logged before it)" in details)


def test_the_main_figure_leads_and_the_rest_keep_their_printed_order() -> None:
    """Keras prints ``val_acc`` before ``val_loss`` in some callbacks, HF ``eval_runtime`` before ``eval_loss`` in
    none, YOLO ``precision`` before ``mAP50-95``: the main one first, the others as printed, nothing dropped unsaid."""
    shown, more = shown_evals([("val_acc", 0.9, 3), ("val_loss", 0.3, 3)])
    assert ([name for name, _, _ in shown], more) == (["val_loss", "val_acc"], 0)
    items = [(name, 1.0, None) for name in ("eval_runtime", "eval_samples_per_second", "eval_steps_per_second",
                                            "eval_accuracy", "eval_f1", "eval_loss")]
    shown, more = shown_evals(items)
    assert ([name for name, _, _ in shown], more) == (
        ["eval_loss", "eval_runtime", "eval_samples_per_second", "eval_steps_per_second"], 2)
    shown, more = shown_evals([(name, 0.5, None) for name in ("precision", "recall", "mAP50", "mAP50-95")])
    assert [name for name, _, _ in shown] == ["mAP50-95", "precision", "recall", "mAP50"]
    # none is the main one (a loss of a part, AP at an IoU): all as printed
    shown, more = shown_evals([(name, 0.5, None) for name in ("val/box_loss", "bbox_AP50", "bbox_AP75")])
    assert ([name for name, _, _ in shown], more) == (["val/box_loss", "bbox_AP50", "bbox_AP75"], 0)


# --- an evaluation read with no step of its own: at the step logged before it, said so --------------------------

def _results_block(step_row: bool) -> list[str]:
    """Composed: a trainer's steps, then its results block (JointBERT's prints no ``global_step``; pytorch-pretrained-
    bert's does)."""
    head = "12/07/2026 10:00:{:02d} - INFO - __main__ -   "
    steps = [head.format(s) + f"epoch 0 step {step} loss {loss}" for s, step, loss in ((1, 100, 0.5231), (15, 200, 0.4231))]
    block = [head.format(20) + "***** Eval results *****", head.format(20) + "  intent_acc = 0.812",
             *([head.format(20) + "  global_step = 200"] if step_row else []), head.format(20) + "  slot_f1 = 0.7"]
    return [*steps, *block]


def test_a_results_block_with_no_step_is_said_to_be_after_the_last_step_logged(tmp_path: Path) -> None:
    details = read_at(tmp_path, _results_block(step_row=False))["details"]
    assert "Eval intent_acc 0.812 · slot_f1 0.7 (after step 200, the last logged before it)" in details


def test_a_results_block_that_prints_its_step_is_at_that_step(tmp_path: Path) -> None:
    details = read_at(tmp_path, _results_block(step_row=True))["details"]
    assert "Eval intent_acc 0.812 · slot_f1 0.7 (step 200)" in details


def test_real_evaluations_with_no_step_read_are_said_to_be_after_the_last_one_logged(tmp_path: Path) -> None:
    # nnU-Net v1's ``validation loss: 0.1992`` under ``epoch:  11`` (MIC-DKFZ/nnUNet issue 1084): no epoch on its line,
    # but the log's records are epochs, and an evaluation printed after an epoch's record is that epoch's: at epoch 11
    nnunet = read_at(tmp_path, body("generic-nnunet-issue1084-epochs-9-to-11-this-epoch-took-train-validation-loss-dice.log"))
    assert "Eval val_loss 0.1992 (epoch 11)" in nnunet["details"]
    # a TF Estimator's ``Saving dict for global step 214: …`` after its last logged step, 208 (LONG-9621/VoxNet README):
    # the 214 it names is not read, so the evaluation is kept after 208, said so, never as 208's own
    voxnet = read_at(tmp_path, body("generic-voxnet-readme-estimator-one-logging-hook-line-step-208-interval-then-final-step.log"))
    assert "Eval eval_loss 2.4515 · accuracy 0.6467 (after step 208, the last logged before it)" in voxnet["details"]
