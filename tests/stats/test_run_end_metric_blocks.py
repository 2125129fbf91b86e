"""A run's end said by ``trainer.log_metrics``' blocks: alone, the training's summary and its evaluation; after the
Trainer's own dicts and bars, nothing that moves the run or counts a step."""

from __future__ import annotations

from typing import Any

import pytest

from app.live.monitor import Monitor
from app.snapshot import Snapshot, to_json, training_dict
from tests.reallogs import body

NOW = 1_800_000_000.0
BLOCKS = body("hf-cse5525-file-conll-shuffle-md-train-best-eval-predict-metric-blocks-alone.log")
TRAIN_SUMMARY = ("epoch 30.0, train_loss 0.0549, train_runtime 2:01:44.85, train_samples_per_second 57.664, "
                 "train_steps_per_second 1.803")

# A composed run of 16 steps, 4 logged, 2 epochs (the Trainer's banner, bars and dicts), then its summary dict, the
# script's train block of the same figures, an evaluation (its bar, its dict) and the script's eval block.
BANNER = ["***** Running training *****", "  Num examples = 64", "  Num Epochs = 2",
          "  Total optimization steps = 16"]
STEPS = [line for n in (4, 8, 12, 16) for line in (
    f"{100 * n // 16:3d}%|███       | {n}/16 [00:{n:02d}<00:{16 - n:02d},  1.00it/s]",
    f"{{'loss': {3.0 - n / 8}, 'learning_rate': {(20 - n) / 400000}, 'epoch': {n / 8}}}")]
SUMMARY_DICT = ("{'train_runtime': 16.5, 'train_samples_per_second': 7.758, 'train_steps_per_second': 0.97, "
                "'train_loss': 1.75, 'epoch': 2.0}")
TRAIN_BLOCK = ["***** train metrics *****", "  epoch                    =        2.0",
               "  total_flos               =    12345GF", "  train_loss               =       1.75",
               "  train_runtime            = 0:00:16.50", "  train_samples            =         64",
               "  train_samples_per_second =      7.758", "  train_steps_per_second   =       0.97"]
EVALUATION = ["***** Running Evaluation *****", "  Num examples = 32", "  Batch size = 8",
              "100%|██████████| 4/4 [00:01<00:00,  4.00it/s]",
              "{'eval_loss': 1.9, 'eval_accuracy': 0.6, 'eval_runtime': 1.0, 'eval_samples_per_second': 32.0, 'epoch': 2.0}"]
# The model card's note the example scripts print last (a line of no record: the one before it is read whole).
MODEL_CARD = "Dropping the following result as it does not have all the necessary fields:"
EVAL_BLOCK = ["***** eval metrics *****", "  epoch                   =        2.0",
              "  eval_accuracy           =        0.6", "  eval_loss               =        1.9",
              "  eval_runtime            = 0:00:01.00", "  eval_samples_per_second =       32.0"]


def read(*reads: list[str]) -> Snapshot:
    monitor = Monitor(None, clock=lambda: NOW)
    for lines in reads:
        monitor.lines(lines)
    return monitor.snapshot(NOW)


def json_of(snapshot: Snapshot) -> dict[str, Any]:
    import json

    data: dict[str, Any] = json.loads(to_json(snapshot))
    data.pop("as_of")
    return data


def test_the_blocks_alone_are_a_finished_run_its_summary_and_its_evaluation() -> None:
    snapshot = read(BLOCKS)
    assert (snapshot.format, snapshot.state, snapshot.status_line) == ("hf-trainer", "done", "done · no step line")
    assert f"Finished: {TRAIN_SUMMARY}" in snapshot.details
    assert snapshot.training is not None
    training = training_dict(snapshot.training)
    assert training["step"] is None and training["finished"] is True
    evals = {name: figure["value"] for name, figure in training["eval"].items()}
    assert {name: evals[name] for name in ("eval_loss", "eval_f1", "predict_f1")} == {
        "eval_loss": 0.0364, "eval_f1": 0.959, "predict_f1": 0.9183}
    assert not any(name.startswith("best") or "runtime" in name or "per_second" in name for name in evals)
    # the test set's figures on a line of their own, never the evaluation's
    eval_line = next(line for line in snapshot.details if line.startswith("Eval "))
    test_line = next(line for line in snapshot.details if line.startswith("Test "))
    assert "predict" not in eval_line and "eval_" not in test_line and "eval_loss 0.0364" in eval_line


def test_a_read_that_ends_inside_the_train_block_is_completed_by_the_next() -> None:
    cut = read(BLOCKS[:3])
    assert cut.state == "done" and "Finished: epoch 30.0, train_loss 0.0549" in cut.details
    assert f"Finished: {TRAIN_SUMMARY}" in read(BLOCKS[:3], BLOCKS[3:]).details


def test_after_the_trainer_s_dicts_the_blocks_move_nothing_and_give_the_evaluation() -> None:
    """The usual log: the train block after the summary dict says the same figures again, and the eval block the eval
    dict's: the run reads the same with or without them (done at step 16 of 16, its loss the last logged, its finished
    summary the dict's, its final evaluation at its last step: the eval dict printed after the end, the block's too)."""
    without = json_of(read([*BANNER, *STEPS, SUMMARY_DICT, *EVALUATION, MODEL_CARD]))
    with_blocks = json_of(read([*BANNER, *STEPS, SUMMARY_DICT, *TRAIN_BLOCK, *EVALUATION, *EVAL_BLOCK, MODEL_CARD]))
    assert (with_blocks.pop("source")["lines_read"], without.pop("source")["lines_read"]) == (33, 19)
    assert with_blocks["training"].pop("eval") == {"eval_loss": {"value": 1.9, "step": 16},
                                                   "eval_accuracy": {"value": 0.6, "step": 16}}
    # (the dict names its step; the block, printed after it, is placed at the last step logged)
    assert with_blocks["details"].pop(-2) == "Eval eval_loss 1.9 · eval_accuracy 0.6 (after step 16, the last logged before it)"
    assert without["details"].pop(-2) == "Eval eval_loss 1.9 · eval_accuracy 0.6 (step 16)"
    assert without["training"].pop("eval") == {"eval_loss": {"value": 1.9, "step": 16},
                                               "eval_accuracy": {"value": 0.6, "step": 16}}
    for data in (with_blocks, without):
        data["training_fields"] = [row for row in data["training_fields"] if not row["label"].startswith("eval ")]
    assert with_blocks == without
    assert (with_blocks["state"], with_blocks["status_line"]) == ("done", "done · step 16/16")
    assert with_blocks["details"][1].startswith("Finished: train_runtime 16.5, ")  # (the dict's, not the block's)


def test_without_the_summary_dict_the_train_block_ends_the_run_where_the_bars_left_it() -> None:
    snapshot = read([*BANNER, *STEPS, *TRAIN_BLOCK, *EVALUATION, *EVAL_BLOCK])
    assert (snapshot.state, snapshot.status_line) == ("done", "done · step 16/16")
    # (its figures as the block prints them, the line clipped as every finished run's beside its steps)
    assert "Finished: epoch 2.0, train_loss 1.75, train_runtime 0:00:16.50, train_samples 64, train_samples_per…" in (
        snapshot.details)
    assert snapshot.training is not None
    training = training_dict(snapshot.training)
    assert (training["step"], training["total_steps"], training["loss"]) == (16, 16, 1.0)  # (the last dict's loss)


def test_an_evaluation_job_s_block_with_only_a_stop_said_after_it_is_still_that_job_alone() -> None:
    """``run_clm.py --do_eval`` alone, then the shell's prompt: it trained nothing (no training summary was read)."""
    snapshot = read([*EVAL_BLOCK, "user@host:~/transformers$"])
    assert (snapshot.state, snapshot.status_line) == ("done", "done · evaluation only")


def test_validation_figures_then_a_run_s_end_said_in_words_are_a_finished_run() -> None:
    """A test report printed once training is over (the word-level language model's ``| End of training | test loss
    nan``, its own words for the end) with no step line read: done, the report its test set's figures."""
    snapshot = read(["| End of training | test loss   nan | test ppl      nan"])
    assert (snapshot.state, snapshot.status_line) == ("done", "done · no step line")
    assert "Test test_loss nan · test_ppl nan" in snapshot.details


def test_the_block_behind_loggers_prefixes_is_read_the_same() -> None:
    """The header through the Trainer's logger, the rows through a script's own (scripts that ``logger.info`` each row):
    the same summary, dated by the prefixes; the evaluation bar after it no step."""
    lines = ["[INFO|trainer_pt_utils.py:1013] 2024-05-09 17:10:17,951 >> ***** train metrics *****",
             "05/09/2024 17:10:17 - INFO - __main__ -   epoch                    =         3.0",
             "05/09/2024 17:10:17 - INFO - __main__ -   train_loss               =      1.7396",
             "05/09/2024 17:10:17 - INFO - __main__ -   train_runtime            = 11:48:08.14",
             "05/09/2024 17:10:17 - INFO - __main__ - *** Evaluate ***",
             "[INFO|trainer.py:3697] 2024-05-09 17:10:18,034 >> ***** Running Evaluation *****",
             "100%|██████████| 222/222 [09:01<00:00,  2.44s/it]",
             *EVAL_BLOCK, MODEL_CARD]
    snapshot = read(lines)
    assert (snapshot.format, snapshot.state, snapshot.status_line) == ("hf-trainer", "done", "done · no step line")
    assert "Finished: epoch 3.0, train_loss 1.7396, train_runtime 11:48:08.14" in snapshot.details
    assert "Eval eval_loss 1.9 · eval_accuracy 0.6" in snapshot.details


def test_a_full_bar_held_until_the_summary_dict_is_the_training_s_end_its_loss_the_summary_s() -> None:
    """A log cut after the last loss dict: an evaluation's dict, the training bar at its total with the Trainer's summary
    glued after it (tqdm's redraw, then ``print``), then the script's blocks. No loss dict said which bar trains, but the
    summary of the training right after a full bar does: done at step 400 of 400; its loss the summary's train_loss
    (no loss dict was read); 400 steps over the bar's 1:00 is 24k steps/h; the step time the bar's 6.67 it/s."""
    snapshot = read([
        "{'eval_loss': 0.0429, 'eval_f1': 0.9466, 'eval_runtime': 12.28, 'epoch': 30.0}",
        ("100%|██████████| 400/400 [01:00<00:00,  6.67it/s]{'train_runtime': 60.0, 'train_samples_per_second': 213.3, "
         "'train_steps_per_second': 6.667, 'train_loss': 0.11433216803166209, 'epoch': 30.0}"),
        *TRAIN_BLOCK, *EVAL_BLOCK, MODEL_CARD])
    assert (snapshot.state, snapshot.status_line) == ("done", "done · step 400/400")
    assert snapshot.training is not None
    training = training_dict(snapshot.training)
    assert (training["step"], training["total_steps"], training["loss"]) == (400, 400, 0.11433216803166209)
    assert training["loss_note"] == "train_loss: the whole run's mean"
    assert training["step_seconds"] == pytest.approx(1 / 6.67)
