"""Which step an evaluation printed on a step's record belongs to, and which block a count printed under a heading is."""

from __future__ import annotations

from pathlib import Path

from app.ingest.formats.banner import evaluation_block
from app.ingest.formats.generic import GenericParser
from app.stats.events import EvalResult, TrainingPause, TrainStep

REAL = Path(__file__).resolve().parents[2] / "data" / "real"


def _evals(lines: list[str]) -> list[tuple[str, float | None, int | None]]:
    return [(e.name, e.value, e.step) for e in GenericParser().feed(lines) if isinstance(e, EvalResult)]


def _lines(name: str) -> list[str]:
    return [text for text in (REAL / name).read_text().splitlines() if not text.startswith("#")]


def test_an_evaluation_on_each_record_is_that_record_s_step() -> None:
    # Composed in MMF's shape (``iter: 900 train_loss: … val_score: … val_loss: … time(s): 335.9 s``): every record
    # prints a validation it ran for that record, its figures new each time. The first record's is the run's first
    # evaluation (no record before it to say so: no step given); from the second on, each is its record's step.
    lines = ["iter: 100 train_loss: 3.6000  val_score: 0.2800 val_loss: 3.4000 time(s): 300.0 s",
             "iter: 200 train_loss: 3.2000  val_score: 0.3000 val_loss: 3.1000 time(s): 290.0 s",
             "iter: 300 train_loss: 2.9000  val_score: 0.3300 val_loss: 2.9500 time(s): 310.0 s"]  # fmt: skip
    assert _evals(lines) == [("val_loss", 3.4, None), ("val_score", 0.28, None), ("val_loss", 3.1, 200),
                             ("val_score", 0.3, 200), ("val_loss", 2.95, 300), ("val_score", 0.33, 300)]


def test_an_evaluation_the_records_carry_is_not_the_step_it_changes_on() -> None:
    # Composed in litgpt's shape: ``val:`` repeats the last validation on every line; where it changes, the validation
    # ran since the record before (after step 20's line), so no step of the changed line is given (the tracker puts it
    # at the latest step read, 20), never step 30.
    lines = ["Epoch 1 | iter 10 step 10 | loss train: 2.100, val: 2.500 | iter time: 100.00 ms (step)",
             "Epoch 1 | iter 20 step 20 | loss train: 2.000, val: 2.500 | iter time: 100.00 ms (step)",
             "Epoch 1 | iter 30 step 30 | loss train: 1.900, val: 2.400 | iter time: 100.00 ms (step)"]  # fmt: skip
    assert _evals(lines) == [("val_loss", 2.5, None), ("val_loss", 2.4, None)]


def test_a_carried_validation_loss_is_shown_with_no_step_of_the_lines_it_is_on() -> None:
    # NVIDIA-BioNeMo/bionemo-recipes pull request #740: NeMo's ``val_loss: 4.106`` unchanged on global steps 120-125.
    got = _evals(_lines("generic-bionemo-recipes-pr740-nemo-iteration-lines-val-loss-carried-unchanged-global-step-120-125-of-149.log"))
    assert got == [("val_loss", 4.106, None)]


def test_the_validation_s_own_line_is_its_step_beside_records_that_carry_it() -> None:
    # awslabs/keys_values issue #97: ``val_loss valid: 10.926`` carried on iterations 171-180, the validations' own lines
    # at 170 and 180 (``Epoch 1 | iter 180          | val_loss: 11.653 | val_time: 79.557 s``).
    got = _evals(_lines("generic-keys-values-issue97-litgpt-style-val-loss-valid-carried-between-val-lines-iter-170-180.log"))
    assert got[-1] == ("val_loss", 11.653, 180)
    assert ("val_loss", 10.926, 171) not in got


def test_an_evaluation_heading_opens_its_block() -> None:
    assert evaluation_block("***** Running Evaluation *****")
    assert evaluation_block("***** Running Prediction *****")
    assert evaluation_block("***** Running Validation *****")
    assert evaluation_block("***** Running evaluation *****")
    assert not evaluation_block("***** Running training *****")
    assert not evaluation_block("Running Evaluation")


def test_a_count_under_an_evaluation_heading_is_the_pass_s_not_the_run_s() -> None:
    # Composed in the HF Trainer's shape, the evaluation's settings as ViT-pytorch prints them (``Num steps = 13``):
    # the run's total is the training block's 600; the 13 batches of the pass are no total of the run's.
    lines = ["***** Running training *****",
             "  Num examples = 4800",
             "  Total optimization steps = 600",
             "step: 100, loss: 0.51",
             "***** Running Validation *****",
             "  Num steps = 13",
             "  Batch size = 64",
             "step: 110, loss: 0.49"]  # fmt: skip
    got = [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]
    assert [(s.step, s.total_steps) for s in got] == [(100, 600), (110, 600)]


def test_a_log_cut_in_an_evaluation_block_is_evaluating() -> None:
    lines = ["  Total optimization steps = 600",
             "step: 100, loss: 0.51",
             "***** Running Evaluation *****",
             "  Num examples = 100",
             "  Total prediction steps = 4"]  # fmt: skip
    events = GenericParser().feed(lines)
    assert [e.reason for e in events if isinstance(e, TrainingPause)] == ["evaluation"]
    assert [s.total_steps for s in events if isinstance(s, TrainStep)] == [600]


def test_a_paddlenlp_evaluation_block_leaves_the_training_total() -> None:
    # LemonNoel/PaddleNLP's FewCLUE csl log: ``Total optimization steps = 1000.0`` (a float), then at step 100 the
    # evaluation's block with ``Total prediction steps = 5``: steps 110 and 120 are of 1000, never of 5.
    events = GenericParser().feed(_lines(
        "generic-paddlenlp-fork-fewclue-csl-file-running-evaluation-block-total-prediction-steps-5-optimization-1000-steps-10-120.log"))
    got = [(s.step, s.total_steps) for s in events if isinstance(s, TrainStep)]
    assert got[-3:] == [(100, 1000), (110, 1000), (120, 1000)]
    evaluated = [(e.name, e.step) for e in events if isinstance(e, EvalResult) and e.name == "eval_loss"]
    assert evaluated == [("eval_loss", None)]  # (its line names no step: the tracker puts it at step 100)


def test_a_validation_line_s_scores_beside_its_plain_loss_are_that_validation_s() -> None:
    # a loop that logs once an epoch, each epoch's validation on a line of its own led by its stage word, its loss named
    # plainly (``Validation | loss 0.60 | acc 0.81``, ``Val. Loss: 0.70 |  Val. PPL: 2.02``): the scores beside it are
    # the validation's too, under their names; a whole number beside it (``VALID SET 0``) is its set, no score
    def evals(lines: list[str]) -> list[tuple[str, float]]:
        return [(e.name, e.value) for e in GenericParser().feed(lines) if isinstance(e, EvalResult)]

    assert evals(["Epoch 1 | Train loss 0.4121", "Validation | loss 0.6012 | acc 0.8123"]) == [
        ("val_loss", 0.6012), ("acc", 0.8123)]
    assert evals(["Epoch: 01 \tTrain Loss: 0.541 \tTime: 3m 12s", "\t Val. Loss: 0.701 |  Val. PPL:   2.016"]) == [
        ("val_loss", 0.701), ("ppl", 2.016)]
    assert evals(["Epoch 1 | Train loss 0.4121", "VALID SET 0 LOSS:0.1735 CER:5.59%"]) == [("val_loss", 0.1735)]


def test_an_evaluation_after_a_record_an_epoch_naming_no_step_is_that_epoch_s() -> None:
    # a T5 fine-tuning loop's shape: ``Epoch 20 | Train loss …``, then its validation and its BLEU on lines of their own,
    # no step named: epoch 20's evaluation, at epoch 20 (never "after" it, never a step of its own)
    events = GenericParser().feed(["Epoch 19 | Train loss 0.5412", "Validation | loss 0.7012 | acc 0.81",
                                   "Epoch 20 | Train loss 0.5301", "Validation | loss 0.6987 | acc 0.82"])
    assert [(s.step, s.epoch) for s in events if isinstance(s, TrainStep)] == [(19, 19.0), (20, 20.0)]
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        ("val_loss", 0.7012, 19), ("acc", 0.81, 19), ("val_loss", 0.6987, 20), ("acc", 0.82, 20)]
    # (after a step record, an evaluation naming no step stays the one logged after that step)
    events = GenericParser().feed(["step 10 loss 2.0", "Validation | loss 2.5 | acc 0.5"])
    assert [(e.name, e.step) for e in events if isinstance(e, EvalResult)] == [("val_loss", None), ("acc", None)]


def test_an_evaluation_printed_as_a_dict_after_words_naming_it_is_that_evaluation_s() -> None:
    # ``Dev eval result: {…}``, ``eval results: {…}``: each number the evaluation's under its key, at the epoch just
    # logged; a value that is no number left out; a dict after other words (a config's) none
    events = GenericParser().feed(["Epoch 1 | Train loss 0.5412", "Dev eval result: {'Bleu-4': 0.1066, 'Rouge-L': 0.2418}",
                                   "eval results: {'acc': 0.81, 'note': 'ok', 'f1': 0.79}",
                                   "config: {'lr': 0.001, 'dropout': 0.1}"])
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        ("bleu_4", 0.1066, 1), ("rouge_l", 0.2418, 1), ("acc", 0.81, 1), ("f1", 0.79, 1)]
