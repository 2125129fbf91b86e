"""An evaluation's results printed as a block of ``key = value`` rows (results_blocks.py).

The BERT fine-tuning scripts and the transformers examples copied from them log ``***** Eval results *****`` (``***** Eval
results sst-2 *****``, ``***** Test results *****``) when an evaluation is over, then one sorted ``  key = value`` row a
figure. The block is that split's evaluation, at its ``global_step`` where it prints one, else at the latest step; its
figures under their printed names (a test block's named so); a ``loss`` beside ``eval_loss`` is not the evaluation's
(pytorch-pretrained-bert's ``tr_loss/global_step``, Google BERT's ``eval_loss`` again), a ``loss`` alone is (JointBERT,
run_ner). The ``Num examples = N`` and ``Batch size = N`` rows under ``***** Running evaluation *****`` are the
evaluation's, never the run's total or step. A heading or a row printed over an evaluation's bar keeps the bar's redrawn
tail after it: the row is read without it.

Real: munaAchyuta/sentiment-analysis-practice README.md and meghsat/Code-Switching data/Massive/Base/Readme.md
(tests/data/real, their headers; their snapshots in tests/live/test_real_logs.py). Composed: lines whose reading is
worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

from app.ingest.formats.results_blocks import REDRAWN_BAR_TAIL, ResultsBlock
from tests.coldread import read_cold

P = "05/14/2020 13:{:02d}:{:02d} - INFO - __main__ -   "


def _bar(n: int, total: int, elapsed: str, rate: str) -> str:
    return f"Iteration: {100 * n // total:3d}%|##########| {n}/{total} [{elapsed}<00:00, {rate}it/s]"


def test_a_block_s_figures_are_at_its_global_step_and_a_loss_beside_eval_loss_is_none_of_them(tmp_path: Path) -> None:
    # a run trained to step 300 (its bar), then pytorch-pretrained-bert's block: its figures at global_step 300, its
    # ``loss`` (the training's mean over the run) no evaluation figure; 872 and 8 no total
    lines = [_bar(300, 300, "02:30", "2.00"), P.format(50, 1) + "***** Running evaluation *****",
             P.format(50, 1) + "  Num examples = 872", P.format(50, 1) + "  Batch size = 8",
             P.format(50, 8) + "***** Eval results *****", P.format(50, 8) + "  acc = 0.9162844036697247",
             P.format(50, 8) + "  eval_loss = 0.2560681700706482", P.format(50, 8) + "  global_step = 300",
             P.format(50, 8) + "  loss = 0.3104"]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert training["step"] == 300 and training["total_steps"] == 300
    assert training["loss"] is None  # (0.3104 is the run's mean: neither the evaluation's nor a step's)
    assert training["eval"] == {"acc": {"value": 0.9162844036697247, "step": 300},
                                "eval_loss": {"value": 0.2560681700706482, "step": 300}}


def test_a_loss_alone_in_a_block_is_the_evaluation_s_and_a_test_block_s_figures_are_named_so(tmp_path: Path) -> None:
    # run_ner's dev block (its ``loss`` the evaluation's: no eval_loss beside it), then a test block, neither printing a
    # global_step: both at the latest step, 120
    lines = [_bar(120, 120, "01:00", "2.00"), P.format(42, 6) + "***** Eval results  *****",
             P.format(42, 6) + "  f1 = 0.8623", P.format(42, 6) + "  loss = 0.0718", P.format(42, 6) + "  precision = 0.8468",
             P.format(42, 42) + "***** Test results *****", P.format(42, 42) + "  f1 = 0.8614",
             P.format(42, 42) + "  loss = 0.0706"]
    evals = read_cold(tmp_path, lines)["training"]["eval"]
    assert evals == {"f1": {"value": 0.8623, "step": 120}, "loss": {"value": 0.0718, "step": 120},
                     "precision": {"value": 0.8468, "step": 120}, "test_f1": {"value": 0.8614, "step": 120},
                     "test_loss": {"value": 0.0706, "step": 120}}


def test_a_global_step_the_run_s_count_has_passed_places_nothing(tmp_path: Path) -> None:
    # a block at global_step 100 read after the bar's step 250 (a count of another kind): at the latest step, 250
    lines = [_bar(250, 500, "02:05", "2.00"), P.format(10, 0) + "***** Eval results *****",
             P.format(10, 0) + "  acc = 0.5", P.format(10, 0) + "  global_step = 100"]
    assert read_cold(tmp_path, lines)["training"]["eval"] == {"acc": {"value": 0.5, "step": 250}}


def test_a_heading_and_a_row_printed_over_a_bar_are_read_without_its_tail(tmp_path: Path) -> None:
    # as JointBERT's log shows them (meghsat/Code-Switching): the Evaluating bar's tail after the heading and a row
    tail = "██████████████████████| 4/4 [00:04<00:00,  1.07it/s] "
    lines = [_bar(117, 117, "06:10", "0.32"), P.format(5, 16) + "***** Eval results *****" + tail,
             P.format(5, 16) + "  intent_acc = 0.8442211055276382" + tail, P.format(5, 16) + "  loss = 0.8402033448219299",
             P.format(5, 16) + "Saving model checkpoint to out"]
    assert read_cold(tmp_path, lines)["training"]["eval"] == {
        "intent_acc": {"value": 0.8442211055276382, "step": 117}, "loss": {"value": 0.8402033448219299, "step": 117}}


def test_the_redrawn_tail_is_the_bar_s_alone() -> None:
    assert REDRAWN_BAR_TAIL.sub("", "***** Eval results *****█████▏   | 82/117 [04:01<01:42,  2.92s/it] ") \
        == "***** Eval results *****"
    assert REDRAWN_BAR_TAIL.sub("", "acc = 0.5 | n = 3/4 [x]") == "acc = 0.5 | n = 3/4 [x]"  # (no bar's blocks)


def test_a_block_held_at_a_batch_s_end_is_handed_on_and_goes_on() -> None:
    block = ResultsBlock()
    block.begin("eval")
    block.row("acc", "0.9", 10.0)
    block.row("eval_runtime", "12.5", 10.0)  # (the evaluation's own time: no figure of the model)
    block.row("loss", "None", 10.0)  # (pytorch-pretrained-bert's where nothing was trained: no figure)
    assert block.take() == ((("acc", 0.9),), None, 10.0)
    block.row("global_step", "40", 11.0)
    block.row("f1", "0.8", 11.0)
    assert block.take() == ((("f1", 0.8),), 40, 11.0)
    assert block.take() == ((), 40, None)


def test_a_block_headed_by_the_epoch_it_evaluated_is_that_epoch_s_evaluation(tmp_path: Path) -> None:
    # a loop that logs once an epoch, each epoch's dev set then evaluated in a block that names the epoch and its split
    # as a set (``***** [epoch 2] devset eval results *****``): its rows that epoch's evaluation, its ``loss`` the dev
    # set's (no eval_loss beside it), never the training loss (0.9874, the epoch's record's)
    lines = ["[Epoch 1] train_loss=1.2345 time=35.2s", "***** [epoch 1] devset eval results *****", "  acc = 0.7012",
             "  f1 = 0.6811", "  loss = 0.8123", "[Epoch 2] train_loss=0.9874 time=34.9s",
             "***** [epoch 2] devset eval results *****", "  acc = 0.7433", "  f1 = 0.7290", "  loss = 0.7451"]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert data["status_line"].startswith("epoch 2 · ") and training["step"] == 2 and training["loss"] == 0.9874
    assert training["eval"] == {"acc": {"value": 0.7433, "step": 2}, "f1": {"value": 0.729, "step": 2},
                                "loss": {"value": 0.7451, "step": 2}}
    assert training["step_seconds"] == 34.9  # (the record an epoch: its time the epoch's, as printed)
