"""``trainer.log_metrics``' end-of-job blocks: ``***** train metrics *****`` is the training's summary, its rows read
as they come; the eval/test/predict blocks are evaluations; a banner that opens the run is no such block."""

from __future__ import annotations

import pytest

from app.ingest.formats.banner import planned_run
from app.ingest.formats.detect import detect
from app.ingest.formats.generic import GenericParser
from app.ingest.formats.hf_trainer import HfTrainerParser
from app.stats.events import EvalResult, RunInfo, StageEnd, StageStart, TrainStep
from tests.reallogs import body

# transformers' own example of the block (its pull request #11980; tests/data/real/hf-transformers-pr11980-…)
TRAIN_BLOCK = body("hf-transformers-pr11980-train-metrics-block-alone.log")
# the summary its rows make, by hand: the epoch and the train_ figures as printed, total_flos left out
WHOLE = ("epoch 1.0, train_loss 2.9435, train_runtime 0:00:01.75, train_samples 20, train_samples_per_second 11.401, "
         "train_steps_per_second 1.14")
SUMMARY_DICT = ("{'train_runtime': 1.7543, 'train_samples_per_second': 11.401, 'train_steps_per_second': 1.14, "
                "'train_loss': 2.943549156188965, 'epoch': 1.0}")


def ends(events: list[object]) -> list[StageEnd]:
    return [event for event in events if isinstance(event, StageEnd)]


def test_the_train_block_alone_is_the_training_s_end_its_rows_read_as_they_come() -> None:
    events = HfTrainerParser().feed(TRAIN_BLOCK)
    said = ends(events)
    assert said[0] == StageEnd(None, summary="***** train metrics *****")
    assert all(end.amends for end in said[1:]) and said[-1].summary == WHOLE
    assert not any(isinstance(event, (TrainStep, EvalResult)) for event in events)  # never a step, nor an evaluation


def test_a_read_that_ends_inside_the_block_is_completed_by_the_next() -> None:
    parser = HfTrainerParser()
    first = ends(parser.feed(TRAIN_BLOCK[:3]))
    assert first[-1].summary == "epoch 1.0"  # (total_flos is no row of the summary)
    assert ends(parser.feed(TRAIN_BLOCK[3:]))[-1].summary == WHOLE


def test_after_the_summary_dict_the_block_says_nothing_new() -> None:
    """The usual log: the Trainer's own summary dict, then the script's block of the same figures rounded."""
    events = HfTrainerParser().feed([SUMMARY_DICT, *TRAIN_BLOCK])
    assert [end.summary for end in ends(events)] == [
        ("train_runtime 1.7543, train_samples_per_second 11.401, train_steps_per_second 1.14, "
         "train_loss 2.943549156188965, epoch 1.0")]


def test_another_line_ends_the_block_and_a_script_s_own_split_is_no_summary() -> None:
    lines = [*TRAIN_BLOCK[:3], "***** best metrics *****", "  best_epoch   =     23", "  epoch        =   30.0"]
    said = ends(HfTrainerParser().feed(lines))
    assert said[-1].summary == "epoch 1.0"  # (the best block's epoch is not the training's)


def test_the_evaluation_blocks_are_evaluations_at_no_step() -> None:
    events = HfTrainerParser().feed(["***** eval metrics *****", "  epoch                   =        2.0",
                                     "  eval_f1                 =      0.959", "  eval_runtime            = 0:00:42.21",
                                     "***** predict metrics *****", "  predict_f1                 =     0.9183"])
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        ("eval_f1", 0.959, None), ("predict_f1", 0.9183, None)]
    assert [end.evaluation for end in ends(events)] == [True, True]


def test_the_banner_that_opens_the_run_is_no_block() -> None:
    """``***** Running training *****`` starts the run; its ``Total optimization steps`` is the plan, its
    ``Num Epochs`` a planned length (banner.py), never a summary."""
    banner = ["***** Running training *****", "  Num examples = 64", "  Num Epochs = 2",
              "  Total optimization steps = 16"]
    events = HfTrainerParser().feed(banner)
    assert events == [StageStart(None), RunInfo(None, total_steps=16)]
    assert planned_run("  Num Epochs = 2".strip()) is not None
    assert all(planned_run(row.strip()) is None for row in TRAIN_BLOCK[1:])  # (a summary's epoch is no plan)


@pytest.mark.parametrize("lines", [TRAIN_BLOCK, body("hf-cse5525-file-conll-shuffle-md-train-best-eval-predict-metric-"
                                                      "blocks-alone.log")], ids=["train", "train-best-eval-predict"])
def test_the_blocks_alone_are_the_trainer_s_and_no_step_of_the_generic_reader(lines: list[str]) -> None:
    assert detect(lines) == "hf-trainer"
    assert not any(isinstance(event, TrainStep) for event in GenericParser().feed(lines))


# BERT's run_classifier (google-research/google-research#1717, tests/data/real/bert-…): the older scripts' results block
EVAL_RESULTS = ["***** Eval results *****", "  eval_accuracy = 0.64705884", "  eval_loss = 0.63068485",
                "  global_step = 0", "  loss = 0.63068485"]


def test_the_generic_reader_reads_an_evaluation_s_results_block_as_that_evaluation_s_end() -> None:
    events = GenericParser().feed([*EVAL_RESULTS, "INFO:tensorflow:Writing example 0 of 408"])
    assert ends(events) == [StageEnd(None, summary="***** Eval results *****", evaluation=True)]
    # (at the checkpoint's global_step; the Estimator's ``loss`` beside eval_loss is the same loss again, no figure)
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        ("eval_accuracy", 0.64705884, 0), ("eval_loss", 0.63068485, 0)]
    assert not any(isinstance(event, TrainStep) for event in events)  # (global_step is the checkpoint's)


def test_the_generic_reader_reads_hf_blocks_too_the_train_block_s_rows_as_nothing() -> None:
    """A log the generic reader reads (a loop of its own) that ends in the Trainer's blocks: the eval block's rows are
    its evaluation's figures (its time and speed none), the train block's no step."""
    events = GenericParser().feed([*TRAIN_BLOCK, "***** eval metrics *****", "  epoch                   =        1.0",
                                   "  eval_loss               =     2.3456", "  eval_runtime            = 0:00:30.12",
                                   "  eval_samples_per_second =     33.201", "Dropping the following result"])
    assert [(e.name, e.value) for e in events if isinstance(e, EvalResult)] == [("eval_loss", 2.3456)]
    assert not any(isinstance(event, TrainStep) for event in events)


def test_the_summary_dict_s_epoch_is_the_run_s_epoch_beside_its_last_step() -> None:
    # composed in the Trainer's shape: the last loss dict at epoch 2.98, then the summary at 3.0 (the run's epochs done)
    from app.stats.events import StepFigures

    events = HfTrainerParser().feed([
        "{'loss': 1.3884, 'grad_norm': 0.9, 'learning_rate': 1e-06, 'epoch': 2.98}",
        ("{'train_runtime': 71460.1, 'train_samples_per_second': 2.6, 'train_steps_per_second': 0.082, "
         "'train_loss': 1.52, 'epoch': 3.0}")])
    assert [e.epoch for e in events if isinstance(e, TrainStep)] == [2.98]
    assert [e.epoch for e in events if isinstance(e, StepFigures)] == [3.0]
    # said before the end, so the end stays the run's last word
    assert isinstance(events[-1], StageEnd)
    # with no step read, the summary's epoch is no position of anything: the end alone
    alone = HfTrainerParser().feed([SUMMARY_DICT])
    assert not any(isinstance(e, StepFigures) for e in alone) and ends(alone)


def test_the_train_block_alone_after_a_step_says_the_run_s_epoch() -> None:
    # composed: a loss dict at epoch 0.9 (the script kept only its prints), then transformers' own block (pull request
    # #11980): its ``epoch = 1.0`` row is the run's epoch at its end; the block's other rows only its summary
    from app.stats.events import StepFigures

    events = HfTrainerParser().feed(["{'loss': 3.01, 'learning_rate': 1e-05, 'epoch': 0.9}", *TRAIN_BLOCK])
    assert [e.epoch for e in events if isinstance(e, StepFigures)] == [1.0]
    assert ends(events)[-1].summary == WHOLE
