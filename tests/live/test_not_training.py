"""Progress and lines that are not the training's, read as neither its position nor its figures: a data set's scan bar,
an evaluation's bar after training ended, an evaluation's ordinal. Each class on real logs from tests/data/real/ (each
cites its source in its header) and on composed logs whose answers are worked out by hand in the comments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.coldread import read_cold
from tests.reallogs import body


def shown(tmp_path: Path, lines: list[str], name: str = "train.log") -> dict[str, Any]:
    """The snapshot of a log read cold, as ``run.py once --at end`` reads it: at its last line's time."""
    return read_cold(tmp_path, lines, name=name)


# --- a data set's scan bar (ultralytics, YOLOv5): images counted, no training step -------------------------------

def test_a_whole_scan_bar_is_no_training_step(tmp_path: Path) -> None:
    name = "startup-yolov5-issue3656-scan-bars-full-brackets-200-epochs-planned-no-row-yet.log"
    data = shown(tmp_path, body(name), name)
    # ``train: Scanning '…' images and labels...4300 found, …: 100%|…| 4300/4300 [00:31<00:00, 137.61it/s]``: 4300
    # images scanned, then ``Starting training for 200 epochs...`` and nothing more: waiting for the first step
    assert data["training"] is None or data["training"]["step"] is None
    assert "4300" not in data["status_line"] and "343" not in data["status_line"]
    assert data["state"] == "working" and data["details"] == ["waiting for the first training step (200 epochs planned)"]


def test_a_crash_after_the_scan_bar_is_before_any_step(tmp_path: Path) -> None:
    # composed: ultralytics' scan of a cached label set (its bar whole, no rate: ``[00:00<?, ?it/s]``), then a dataloader
    # worker's traceback before the first epoch's header. Crashed, its error named; no step reached.
    lines = [
        ("\x1b[34m\x1b[1mtrain: \x1b[0mScanning /data/coins/labels/train.cache... 412 images, 3 backgrounds, 0 corrupt: "
        "100%|██████████| 412/412 [00:00<?, ?it/s]"),
        ("\x1b[34m\x1b[1mval: \x1b[0mScanning /data/coins/labels/val.cache... 88 images, 0 backgrounds, 0 corrupt: "
        "100%|██████████| 88/88 [00:00<?, ?it/s]"),
        "Traceback (most recent call last):",
        '  File "/opt/conda/lib/python3.10/multiprocessing/spawn.py", line 120, in spawn_main',
        "    exitcode = _main(fd, parent_sentinel)",
        "EOFError: Ran out of input",
    ]
    data = shown(tmp_path, lines)
    assert data["state"] == "crashed"
    assert any("EOFError: Ran out of input" in d for d in data["details"])
    assert data["training"] is None or data["training"]["step"] is None
    assert "412" not in data["status_line"] and "88" not in data["status_line"]


# --- an evaluation's ordinal (DL4J's EvaluativeListener): no figure of it ----------------------------------------

def test_an_evaluation_s_ordinal_is_no_figure_on_a_real_log(tmp_path: Path) -> None:
    name = "generic-dl4j-houbb-lenet-mnist-score-iterations-880-930-starting-evaluation-nr-1-then-metrics.log"
    data = shown(tmp_path, body(name), name)
    # ``Starting evaluation nr. 1`` after ``Score at iteration 930``: the first evaluation begins, no score of it
    assert data["training"]["step"] == 930
    assert not any("nr" in name or value == 1.0 for name, value in _evals(data).items())


def test_an_evaluation_s_ordinal_is_no_figure(tmp_path: Path) -> None:
    # composed: DL4J's logback lines (``HH:MM:SS.mmm [main] INFO <logger> - <message>``), a score every 100 iterations
    # 80 s apart, then the evaluative listener's start of its third evaluation. Position iteration 400; no evaluation
    # figure (the 3 is the evaluation's ordinal); 80 s per 100 iterations measured from the lines' times.
    prefix = "[main] INFO org.deeplearning4j.optimize.listeners."
    scores = [f"10:0{i}:{20 * i:02d}.000 {prefix}ScoreIterationListener - Score at iteration {i * 100} is 0.{9 - i}"
              for i in range(1, 5)]
    for start in ("Starting evaluation nr. 3", "Starting evaluation 3", "Evaluation no. 3"):
        data = shown(tmp_path, [*scores, f"10:05:40.000 {prefix}EvaluativeListener - {start}"])
        assert data["training"]["step"] == 400
        assert _evals(data) == {}, start


def test_dl4j_s_evaluation_block_is_the_evaluation_and_its_score_the_loss_on_a_real_log(tmp_path: Path) -> None:
    name = "generic-dl4j-houbb-lenet-mnist-score-iterations-880-930-starting-evaluation-nr-1-then-metrics.log"
    data = shown(tmp_path, body(name), name)
    # ScoreIterationListener's score is the loss function's value; the ``Evaluation Metrics`` banner's rows are the
    # evaluation's (the ``# of classes`` row a count, the macro-averaging note under them no figure)
    assert data["training"]["loss"] == 0.14243293480263844
    assert _evals(data) == {"accuracy": 0.9856, "precision": 0.9858, "recall": 0.9853, "f1_score": 0.9855}
    assert all(e["step"] == 930 for e in data["training"]["eval"].values())
    assert data["state"] == "done"


def test_an_evaluation_block_under_a_banner_of_rules(tmp_path: Path) -> None:
    # composed in DL4J's Evaluation.stats() layout after two score lines 80 s apart: the evaluation at iteration 200,
    # Accuracy 0.71, F1 Score 0.69; ``# of classes: 3`` is a count, the note under the rows ends the block, the
    # confusion matrix's cells are counts
    prefix = "[main] INFO org.deeplearning4j.optimize.listeners."
    lines = [f"10:01:20.000 {prefix}ScoreIterationListener - Score at iteration 100 is 1.2",
             f"10:02:40.000 {prefix}ScoreIterationListener - Score at iteration 200 is 0.9",
             f"10:02:41.000 {prefix}EvaluativeListener - Reporting evaluation results:", "",
             "========================Evaluation Metrics========================",
             " # of classes:    3", " Accuracy:        0.7100", " F1 Score:        0.6900",
             "Precision, recall & F1: macro-averaged (equally weighted avg. of 3 classes)", "",
             "=========================Confusion Matrix=========================",
             "   0   1   2", "------------", "  50   3   7 | 0 = 0"]
    data = shown(tmp_path, lines)
    assert (data["training"]["step"], data["training"]["loss"]) == (200, 0.9)
    assert _evals(data) == {"accuracy": 0.71, "f1_score": 0.69}


def _evals(data: dict[str, Any]) -> dict[str, float]:
    return {name: e["value"] for name, e in (data["training"]["eval"] or {}).items()}


# --- the Trainer's evaluation bar, drawn under the training bar (``ESC[A``) and again after training ----------------

def test_an_evaluation_bar_drawn_nested_keeps_its_total_after_training(tmp_path: Path) -> None:
    # composed: an HF Trainer log cut inside an evaluation (its bar of 60 batches redrawn under the training bar, each
    # redraw followed by tqdm's cursor-up ``ESC[A``), training's bar 400/500 then 500/500 at 3.00 s/it, the dicts
    # printed late (block-buffered stdout), the training summary, then the script's final ``trainer.evaluate()`` bar,
    # 60/60 drawn alone with no cursor-up. Done at step 500/500 (the training bar's), 3.00 s a step, the last loss
    # 0.86; the 60-batch bar is the evaluation's both times, no training step and no step time.
    up = "\x1b[A"
    lines = [
        "\r 97%|█████████▋| 58/60 [00:09<00:00,  6.10it/s]" + up,
        "\r100%|██████████| 60/60 [00:09<00:00,  6.02it/s]" + up + "\r" + " " * 49 + "\r" + up
        + "\r 80%|████████  | 400/500 [20:00<05:00,  3.00s/it]",
        ("{'eval_loss': 0.91, 'eval_runtime': 9.9, 'eval_samples_per_second': 48.4, 'eval_steps_per_second': 6.06, "
        "'epoch': 1.6}"),
        "\r 90%|█████████ | 450/500 [22:30<02:30,  3.00s/it]\r100%|██████████| 500/500 [25:00<00:00,  3.00s/it]",
        "Training completed successfully!",
        "{'loss': 0.88, 'grad_norm': 0.5, 'learning_rate': 1e-06, 'epoch': 1.8}",
        "{'loss': 0.86, 'grad_norm': 0.4, 'learning_rate': 1e-07, 'epoch': 2.0}",
        ("{'train_runtime': 1500.0, 'train_samples_per_second': 2.667, 'train_steps_per_second': 0.333, "
        "'train_loss': 0.95, 'epoch': 2.0}"),
        ("\r  0%|          | 0/60 [00:00<?, ?it/s]\r 50%|█████     | 30/60 [00:05<00:05,  6.00it/s]"
        "\r100%|██████████| 60/60 [00:10<00:00,  6.00it/s]"),
        "Final eval loss: 0.9000",
    ]
    data = shown(tmp_path, lines)
    assert data["state"] == "done" and data["format"] == "hf-trainer"
    assert (data["training"]["step"], data["training"]["total_steps"]) == (500, 500)
    assert data["training"]["loss"] == 0.86
    assert data["training"]["step_seconds"] == 3.0
    assert _evals(data) == {"eval_loss": 0.91}


# --- a second program run after training at the shell's prompt -----------------------------------------------------

_TRAINED = [
    "2023-05-01 10:00:00,000 - INFO - epoch: 2, batch_id: 0, auc:0.71, loss:0.52, avg_batch_cost: 0.50 sec",
    "2023-05-01 10:05:00,000 - INFO - epoch: 2, batch_id: 600, auc:0.75, loss:0.48, avg_batch_cost: 0.50 sec",
    "2023-05-01 10:10:00,000 - INFO - epoch: 2 done, auc: 0.76, loss:0.47, epoch time: 600.00 s",
]
_RUN_AGAIN = [
    "2023-05-01 10:12:00,000 - INFO - epoch: 0, batch_id: 0, auc: 0.70, avg_batch_cost: 0.01 sec",
    "2023-05-01 10:13:00,000 - INFO - epoch: 0 done, auc: 0.74, epoch time: 60.00 s",
    "2023-05-01 10:13:01,000 - INFO - epoch: 1, batch_id: 0, auc: 0.74, avg_batch_cost: 0.01 sec",
]


def test_an_inference_script_after_training_leaves_the_training_standing(tmp_path: Path) -> None:
    # composed: a recommender's training (PaddleRec's line shape) to epoch 2's end, then at the shell's prompt its
    # inference script, which loads each saved epoch and prints lines of the same shape from epoch 0 again (no loss).
    # Done: the shell came back after training; position epoch 2 (batch 600 its last batch line), loss 0.48, 500 ms a
    # batch as printed; the inference's epochs 0 and 1, its 10 ms batches and its auc are not the training's.
    for command in ("user@box:~/rec$ python tools/infer.py -m config.yaml",
                    "(venv) user@box:~/rec$ CUDA_VISIBLE_DEVICES=0 python3 -u eval_model.py --ckpt out/2"):
        data = shown(tmp_path, [*_TRAINED, command, *_RUN_AGAIN])
        assert data["state"] == "done", command
        assert data["training"]["data"]["epoch"] == 2 and data["training"]["step"] == 600
        assert data["training"]["loss"] == 0.48 and data["training"]["step_seconds"] == 0.5
        assert "auc" not in _evals(data)


def test_a_training_script_run_again_is_a_new_run(tmp_path: Path) -> None:
    # composed: the same, but the command runs the training script again: its lines are a new run's, read as such
    # (epoch 1, batch 0 of the new run)
    data = shown(tmp_path, [*_TRAINED, "user@box:~/rec$ python tools/trainer.py -m config.yaml", *_RUN_AGAIN])
    assert data["training"]["data"]["epoch"] == 1 and data["training"]["step"] == 0


def test_a_training_that_prints_an_evaluation_s_command_goes_on(tmp_path: Path) -> None:
    # composed: a training prints the command of the evaluation it spawns beside it, then its own steps go on: steps
    # 300 and 400 are the training's (one a minute: 60 s a step over 100 steps, 6.0k steps/h), never an inference's
    lines = ["2024-05-01 10:00:00 INFO epoch 0 step 100 loss 2.50", "2024-05-01 10:01:00 INFO epoch 0 step 200 loss 2.40",
             "python eval.py --ckpt ckpt_200.pt --split val",
             "2024-05-01 10:02:00 INFO epoch 0 step 300 loss 2.30", "2024-05-01 10:03:00 INFO epoch 0 step 400 loss 2.20"]
    data = shown(tmp_path, lines)
    assert data["training"]["step"] == 400 and data["training"]["loss"] == 2.2
    assert data["status_line"].startswith("step 400 · 6.0k steps/h")


def test_a_script_named_to_train_and_evaluate_is_a_new_run(tmp_path: Path) -> None:
    # composed: ``train_eval.py`` (TF-Agents' scripts' name) trains: run again at the prompt, its lines are a new run's
    data = shown(tmp_path, [*_TRAINED, "user@box:~/agents$ python train_eval.py --root_dir out", *_RUN_AGAIN])
    assert data["training"]["data"]["epoch"] == 1 and data["training"]["step"] == 0


# --- an evaluation's dict printed late, glued to a later bar: the checkpoint saved after it says its step -----------

def _bar(n: int) -> str:
    return f"\r  2%|▏         | {n}/2000 [10:{n - 100:02d}<1:00:00,  2.00s/it]"


def test_an_evaluation_dict_glued_to_a_later_bar_is_the_checkpoint_s_step(tmp_path: Path) -> None:
    # composed: an HF Trainer run evaluating and saving every 100 steps, its stdout block-buffered and its bar on
    # stderr: the bar runs on to 130, the evaluation's dict (epoch 0.05, the step-100 evaluation) is glued to that
    # redraw, and the Trainer's "Saving model checkpoint to …/checkpoint-100" follows. Position 130/2000; the
    # evaluation at step 100, where the checkpoint after it was saved.
    lines = [
        "".join(_bar(n) for n in range(101, 131))
        + "{'eval_loss': 0.61, 'eval_runtime': 300.5, 'eval_samples_per_second': 3.3, 'eval_steps_per_second': 3.3, "
        "'epoch': 0.05}",
        "Saving model checkpoint to out/run-1/checkpoint-100",
    ]
    data = shown(tmp_path, lines)
    assert (data["training"]["step"], data["training"]["total_steps"]) == (130, 2000)
    assert {name: (e["value"], e["step"]) for name, e in data["training"]["eval"].items()} == {"eval_loss": (0.61, 100)}
    # with no checkpoint line after it, nothing says another step: the bar's it was read at
    alone = shown(tmp_path, lines[:1], "alone.log")
    assert {name: (e["value"], e["step"]) for name, e in alone["training"]["eval"].items()} == {"eval_loss": (0.61, 130)}
