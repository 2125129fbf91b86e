"""A training perplexity printed on a step's record that prints no loss (OpenNMT's ``… ; Perplexity 8.28``, its fork's
``PPL 31.60``, OpenNMT-py's ``acc: 57.58; ppl: 8.07;``, sockeye's ``perplexity=306.464540``): the run's training figure,
shown under its own name (``Perplexity 8.07 (training, as printed)``), never taken for a loss; a perplexity an
evaluation's word leads (``Validation perplexity: 7.87``, ``Validation-perplexity=19.24``) stays that evaluation's, and a
record that prints a loss keeps its loss alone (PyTorch's word_language_model's ``| loss  5.79 | ppl   327.60``).

Real: OpenNMT/OpenNMT issue #85, harvardnlp/data2text issue #9, OpenNMT/OpenNMT-py issue #528, awslabs/sockeye issues
#706 and #664 (tests/data/real, their headers; their snapshots in tests/live/test_real_logs.py). Composed: lines whose
reading is worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.classes import training_perplexity
from tests.coldread import read_cold

_REAL = Path(__file__).resolve().parents[2] / "data" / "real"


@pytest.mark.parametrize(("text", "perplexity"), [
    ("Epoch 2 ; Iteration 4000/77776 ; Learning rate 1.0000 ; Source tokens/s 1268 ; Perplexity 8.28", 8.28),
    ("Epoch 3 ; Iter 200/213 ; LR 1.0000 ; Target tokens/s 1320 ; PPL 31.60 ;", 31.60),
    ("Epoch 13, 64650/64667; acc:  57.58; ppl:   8.07; 5026 src tok/s; 5043 tgt tok/s;  18205 s elapsed", 8.07),
    (("Epoch[0] Batch [3050]   Speed: 1094.56 samples/sec 36824.90 tokens/sec 6.30 updates/sec perplexity=306.464540   "
      "accuracy=0.223189"), 306.464540),
    ("step 40 | train_ppl 12.5", 12.5),
    # an evaluation's word leads it: that evaluation's, no training figure
    ("Validation perplexity: 7.8701437591397", None),
    ("Checkpoint [3]  Validation-perplexity=19.245108", None),
    ("| end of epoch   1 | valid ppl   262.43", None),
    ("epoch 3 | test_ppl 40.1", None),
    # a name that only begins so is no perplexity
    ("step 3 | pplx 4.0", None),
])  # fmt: skip
def test_a_training_perplexity_by_its_name(text: str, perplexity: float | None) -> None:
    assert training_perplexity(text) == perplexity


def test_composed_opennmt_lua_perplexity_is_the_run_s_training_figure(tmp_path: Path) -> None:
    # OpenNMT (Lua)'s lines as train.lua prints them; the last record's perplexity 6.02 is the figure, the validation's
    # 7.50 (after epoch 1) stays an evaluation's
    lines = [
        "Epoch 1 ; Iteration 50/100 ; Learning rate 1.0000 ; Source tokens/s 900 ; Perplexity 40.10",
        "Epoch 1 ; Iteration 100/100 ; Learning rate 1.0000 ; Source tokens/s 910 ; Perplexity 20.40",
        "Validation perplexity: 7.50",
        "Epoch 2 ; Iteration 50/100 ; Learning rate 1.0000 ; Source tokens/s 905 ; Perplexity 6.02",
    ]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["total_steps"], training["loss"]) == (50, 100, None)
    assert training["figures"] == {"perplexity": 6.02}
    assert training["eval"] == {"validation_perplexity": {"value": 7.50, "step": None}}
    assert "Perplexity 6.02 (training, as printed)" in data["details"]
    assert not any(line.startswith("Loss") for line in data["details"])
    assert "generic: step, total, epoch, perplexity, lr, tok/s, eval" in data["details"]


def test_composed_a_record_with_its_loss_keeps_the_loss_alone(tmp_path: Path) -> None:
    # PyTorch's word_language_model prints its loss and that loss's exponent: the loss is the figure, the perplexity
    # beside it no second figure
    lines = [
        "| epoch   1 |   200/ 2983 batches | lr 20.00 | ms/batch 10.00 | loss  6.93 | ppl  1022.50",
        "| epoch   1 |   400/ 2983 batches | lr 20.00 | ms/batch 10.00 | loss  5.79 | ppl   327.60",
    ]
    training = read_cold(tmp_path, lines)["training"]
    assert (training["step"], training["loss"]) == (400, 5.79)
    assert not (training["figures"] or {}).get("perplexity")


def test_composed_a_perplexity_of_the_last_record_only(tmp_path: Path) -> None:
    # OpenNMT-py's records of its time: each its own perplexity, the newest one shown (8.11 then 8.07), never a mean
    lines = [
        "Epoch  1,    50/  200; acc:  10.00; ppl:  90.00; 3000 src tok/s; 3100 tgt tok/s;     10 s elapsed",
        "Epoch  1,   100/  200; acc:  20.00; ppl:   8.11; 3000 src tok/s; 3100 tgt tok/s;     20 s elapsed",
        "Epoch  1,   150/  200; acc:  30.00; ppl:   8.07; 3000 src tok/s; 3100 tgt tok/s;     30 s elapsed",
    ]
    training = read_cold(tmp_path, lines)["training"]
    assert (training["step"], training["total_steps"], training["loss"]) == (150, 200, None)
    assert training["figures"] == {"perplexity": 8.07}


@pytest.mark.parametrize(("name", "step", "perplexity"), [
    ("generic-opennmt-lua-issue85-epoch-1-iterations-10-40-of-183-source-tokens-per-s.log", 40, 619423.11),
    ("generic-data2text-issue9-opennmt-lua-epochs-1-3-iter-of-213-target-tokens-validation-perplexity.log", 200, 31.60),
    ("generic-opennmt-py-issue528-epoch-13-batches-64500-64650-ppl-no-loss-train-validation-perplexity.log", 64650, 8.07),
    ("generic-sockeye-issue706-speedometer-batches-2700-3050-tokens-updates-perplexity-accuracy.log", 3050, 306.464540),
    ("generic-sockeye-issue664-dated-colon-prefix-speedometer-batches-3150-3500-tab-separated.log", 3500, 27.005600),
])  # fmt: skip
def test_real_records_give_their_last_training_perplexity(tmp_path: Path, name: str, step: int, perplexity: float) -> None:
    lines = [line for line in (_REAL / name).read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["loss"]) == (step, None)
    assert training["figures"]["perplexity"] == pytest.approx(perplexity)
    assert any(line.startswith("Perplexity ") and line.endswith("(training, as printed)") for line in data["details"])


@pytest.mark.parametrize("prefix", ["", "[2024-05-01 12:00:{:02d},000 INFO] "])
def test_composed_validation_lines_after_a_step_are_its_evaluation_once(tmp_path: Path, prefix: str) -> None:
    # OpenNMT-py's validation after step 200 of 400, its perplexity and accuracy each on a line of its own, bare or
    # behind its logger's ``[time LEVEL] ``: both the evaluation at step 200 (the step line before them), each figure
    # read once; the training's xent 5.88 stays the loss
    lines = [
        "Step 100/  400; acc:  13.75; ppl: 534.80; xent: 6.28; lr: 1.00000; 675/671 tok/s;    168 sec",
        "Step 200/  400; acc:  16.08; ppl: 357.62; xent: 5.88; lr: 1.00000; 642/647 tok/s;    339 sec",
        "Loading dataset from data/data.valid.0.pt, number of examples: 3000",
        "Validation perplexity: 208.73",
        "Validation accuracy: 23.3507",
    ]
    data = read_cold(tmp_path, [prefix.format(i) + line for i, line in enumerate(lines)])
    training = data["training"]
    assert (training["step"], training["total_steps"], training["loss"]) == (200, 400, 5.88)
    assert training["eval"] == {"validation_perplexity": {"value": 208.73, "step": 200},
                                "validation_accuracy": {"value": 23.3507, "step": 200}}
    assert [line for line in data["details"] if line.startswith("Eval ")] == [
        "Eval validation_perplexity 208.7 · validation_accuracy 23.3507 (step 200)"]
