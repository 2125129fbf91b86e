"""A step record's other figures beside its loss or reward, each under its own name (record_figures.py): a training
accuracy, a second loss, a share of wins; never a setting, a count, an evaluation's figure, or a name printed twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold
from tests.reallogs import body

FLAX = "generic-flax-issue3364-clu-logging-writer-step-400-500-four-hosts-steps-per-second.log"
FLAIR = "generic-flair-issue517-epoch-1-iter-240-of-249-every-24-then-epoch-done.log"
TURI = "generic-turicreate-issue1640-activity-classifier-ascii-table-iterations-1-10-closed-by-bottom-rule.log"


@pytest.mark.parametrize(("lines", "figures"), [
    # composed: Keras' CSVLogger rows, the header naming each column; ``accuracy`` is training's, its val_ the evaluation's
    (["epoch,accuracy,loss,val_accuracy,val_loss", "0,0.5012,1.2031,0.4410,1.3102", "1,0.6310,0.9639,0.6006,1.0745"],
     {"figure/accuracy": 0.631}),
    # composed: two losses, the one named plainly a loss the loss, the other its part under its own name
    (["Epoch [1/650], Train Loss: 0.5000, Train L1 Loss: 0.3000", "Epoch [2/650], Train Loss: 0.4000, Train L1 Loss: 0.2000"],
     {"figure/Train L1 Loss": 0.2}),
    # composed: an RL loop's share of wins beside its reward, in per cent as printed; its epsilon a setting, no figure
    (["Episode 10 | Avg Reward: 5.60 | Epsilon: 0.657 | Win Rate: 6.00%",
      "Episode 20 | Avg Reward: 9.40 | Epsilon: 0.650 | Win Rate: 7.00%"],
     {"reward": 9.4, "figure/Win Rate %": 7.0}),
    # composed: a count and a learning rate beside the loss and an accuracy: the accuracy alone is a figure of this rule
    (["step 1 loss 0.52 acc 0.31 lr 0.001 tokens 4096", "step 2 loss 0.41 acc 0.52 lr 0.001 tokens 8192"],
     {"figure/acc": 0.52}),
])
def test_a_record_s_other_figures_are_shown_under_their_names(tmp_path: Path, lines: list[str],
                                                              figures: dict[str, float]) -> None:
    data = read_cold(tmp_path, lines)
    shown = data["training"]["figures"]
    assert {name: value for name, value in shown.items() if name.startswith("figure/") or name == "reward"} == figures


def test_a_name_printed_twice_is_the_record_s_then_the_validation_s_after_its_word(tmp_path: Path) -> None:
    # composed: a training and a validation ``Token Acc``, ``Seq Acc``, the second half opened by ``Val``: the second of
    # each the validation's at that epoch (even unchanged, 0.0000 twice), the first never shown as the validation's
    lines = [("Epoch 1 | Train Loss: 8.70 | Token Acc: 0.0600 | Seq Acc: 0.0000 | Val Loss: 8.69 | Token Acc: 0.0610 "
              "| Seq Acc: 0.0000"),
             ("Epoch 2 | Train Loss: 8.66 | Token Acc: 0.0682 | Seq Acc: 0.0000 | Val Loss: 8.65 | Token Acc: 0.0683 "
              "| Seq Acc: 0.0000")]
    data = read_cold(tmp_path, lines)
    assert data["training"]["loss"] == 8.66
    assert data["training"]["eval"] == {"val_loss": {"value": 8.65, "step": 2}, "val_token_acc": {"value": 0.0683, "step": 2},
                                        "val_seq_acc": {"value": 0.0, "step": 2}}
    # (the first of each the record's own, before the split's word)
    assert data["training"]["figures"] == {"figure/Token Acc": 0.0682, "figure/Seq Acc": 0.0}


def test_the_figures_are_said_not_to_be_the_loss(tmp_path: Path) -> None:
    data = read_cold(tmp_path, ["epoch,accuracy,loss", "0,0.5,1.2", "1,0.63,0.96"])
    assert "Figure accuracy 0.63 (as printed beside a step; not read as its loss)" in data["details"]
    assert data["training"]["loss"] == 0.96


def test_real_clu_writer_s_training_accuracy_beside_its_loss(tmp_path: Path) -> None:
    # the last record prints ``train_accuracy=0.8223657011985779`` beside ``train_loss=0.8868171572685242``
    data = read_cold(tmp_path, body(FLAX))
    assert data["training"]["loss"] == pytest.approx(0.8868171572685242)
    assert data["training"]["figures"]["figure/train_accuracy"] == pytest.approx(0.8223657011985779)


def test_real_ascii_table_s_training_accuracy(tmp_path: Path) -> None:
    # turicreate's table: iteration 10's row ``| 10 | 0.934 | 0.171 | 13.5 |`` under ``Train Accuracy``, ``Train Loss``
    data = read_cold(tmp_path, body(TURI))
    assert data["training"]["figures"]["figure/train accuracy"] == 0.934


@pytest.mark.parametrize(("closing", "epoch", "name", "value"), [
    # composed: a loop of step lines that closes each epoch with its average loss
    ("Epoch 1 completed | Average loss: 0.0278", 1.0, "Average loss", 0.0278),
    ("✅ Epoch 2 completed in 4730.85s | Avg Loss: 0.4735", 2.0, "Avg Loss", 0.4735),
    ("Epoch 3 finished, mean loss 0.3100", 3.0, "mean loss", 0.31),
])
def test_an_epoch_s_summary_after_its_steps_is_that_epoch_s(tmp_path: Path, closing: str, epoch: float, name: str,
                                                            value: float) -> None:
    lines = ["Step 100 | Loss: 0.0305 | LR: 1.00e-06", "Step 150 | Loss: 0.0291 | LR: 1.00e-06", closing]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 150 and data["training"]["loss"] == 0.0291  # (the latest step's, never the summary's)
    assert data["training"]["figures"] == {"summary/epoch": epoch, f"summary/{name}": value}
    assert f"Epoch {epoch:g}'s summary: {name} {value:g} (as printed)" in data["details"]


def test_an_epoch_s_record_in_a_log_of_epochs_is_no_summary(tmp_path: Path) -> None:
    # composed: each line an epoch's own record: the epoch is the position, its loss the loss
    data = read_cold(tmp_path, ["Epoch 1 completed | Average loss: 0.50", "Epoch 2 completed | Average loss: 0.40"])
    assert not any(name.startswith("summary/") for name in data["training"]["figures"] or {})


def test_real_flair_epoch_done_line_is_that_epoch_s_summary(tmp_path: Path) -> None:
    # Flair's ``EPOCH 1 done: loss 0.0350 - lr 0.1000 - bad epochs 0`` after ``epoch 1 - iter 240/249 - loss 0.03491753``
    data = read_cold(tmp_path, body(FLAIR))
    assert data["training"]["loss"] == pytest.approx(0.03491753)
    assert data["training"]["figures"]["summary/epoch"] == 1.0
    assert data["training"]["figures"]["summary/loss"] == pytest.approx(0.035)


def test_an_evaluation_results_block_a_figure_a_line(tmp_path: Path) -> None:
    # composed: a heading naming the evaluation's results, then its figures one a line and a count it went through
    lines = ["Epoch 1 | Step 100/300 | Loss: 0.5000 | LR: 1e-5", "Epoch 1 | Step 200/300 | Loss: 0.4000 | LR: 1e-5",
             "📊 Evaluation Results:", "   Loss: 0.4887", "   Perplexity: 1.63", "   Tokens: 2,982,385"]
    data = read_cold(tmp_path, lines)
    assert data["training"]["loss"] == 0.4  # (the training's, never the evaluation's)
    assert {name: e["value"] for name, e in data["training"]["eval"].items()} == {"loss": 0.4887, "perplexity": 1.63}


def test_a_split_s_scores_after_its_word_are_that_split_s_at_the_epoch(tmp_path: Path) -> None:
    # composed: two splits' lines of the same scores after epoch 16's records: each under its split's word, at epoch 16
    lines = ["Epoch 16 - Batch loss: 0.0008", "Epoch 16 - Batch loss: 0.0003",
             "Epoch 16 - Validation BLEU: BLEU-1 73.94, BLEU-2 68.33",
             "Epoch 16 - Dev BLEU: BLEU-1 65.23, BLEU-2 60.39", "Epoch 17 - Batch loss: 0.0005"]
    data = read_cold(tmp_path, lines)
    assert data["training"]["loss"] == 0.0005
    assert data["training"]["eval"] == {"validation_bleu_1": {"value": 73.94, "step": 16},
                                        "validation_bleu_2": {"value": 68.33, "step": 16},
                                        "dev_bleu_1": {"value": 65.23, "step": 16}, "dev_bleu_2": {"value": 60.39, "step": 16}}
