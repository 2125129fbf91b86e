"""An evaluation a record names as its stage, and the scores it prints with no loss.

RecBole writes each epoch as two records, its stage a word after the counter: ``epoch 5 training [time: 0.98s, train
loss: 7450.7010]`` then ``epoch 5 evaluating [time: 0.05s, valid_score: 0.130400]``. The second is that epoch's
evaluation: no step of its own, its time the evaluation's (never the epoch's), its ``valid_score`` its figure. An
evaluation that prints no loss at all shows its scores alone, as a Paddle fluid loop's test every few batches does
(``[test] batch_id:66, precision:[0.95519874], …``, each score a one-element list as printed: the number in it).

The RecBole records are as a RecBole-MetaRec run prints them (real excerpts, with RecBole's logger prefix, are in
tests/data/real/generic-recbole-…); the Paddle fluid lines are as PaddlePaddle/Paddle issue 17006's loop printed them;
the others are composed. Every answer is read off the lines by hand.
"""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import EvalResult, Event, TrainStep


def events(lines: list[str]) -> list[Event]:
    return GenericParser().feed(lines)


def test_a_record_whose_stage_after_its_counter_is_evaluating_is_that_epoch_s_evaluation() -> None:
    got = events(["epoch 5 training [time: 0.98s, train loss: 7450.7010]",
                  "epoch 5 evaluating [time: 0.05s, valid_score: 0.130400]",
                  "epoch 6 training [time: 1.02s, train loss: 7384.1200]",
                  "epoch 6 evaluating [time: 0.06s, valid_score: 0.131100]"])
    steps = [e for e in got if isinstance(e, TrainStep)]
    # one step an epoch, the training's: its time the epoch's (0.98 s), never the evaluation's (0.05 s, 0.06 s)
    assert [(s.step, s.loss) for s in steps] == [(5, 7450.701), (6, 7384.12)]
    assert steps[0].step_seconds == 0.98
    assert not any(s.step_seconds in (0.05, 0.06) for s in steps)
    assert [(e.name, e.value, e.step) for e in got if isinstance(e, EvalResult)] == [
        ("valid_score", 0.1304, 5), ("valid_score", 0.1311, 6)]


def test_other_stage_words_after_a_counter_are_evaluations_too() -> None:
    got = events(["step 100 loss 2.31", "step 200 loss 2.11", "step 200 validation accuracy 0.912"])
    assert [(s.step, s.loss) for s in got if isinstance(s, TrainStep)] == [(100, 2.31), (200, 2.11)]
    assert [(e.name, e.value, e.step) for e in got if isinstance(e, EvalResult)] == [("validation_accuracy", 0.912, 200)]


def test_a_record_with_its_training_loss_stays_the_step_whatever_word_follows_its_counter() -> None:
    # (``valid`` after the counter, but the training's loss on the line: the epoch's record, its validation beside it)
    got = events(["epoch 1 valid loss 0.61 train loss 0.52", "epoch 2 valid loss 0.55 train loss 0.47"])
    assert [(s.step, s.loss) for s in got if isinstance(s, TrainStep)] == [(1, 0.52), (2, 0.47)]


def test_the_stage_word_must_stand_alone() -> None:
    # (``val_loss`` glued to the word is a figure's name, ``testset`` another word: no stage)
    got = events(["epoch 1 val_loss 0.61 loss 0.52", "epoch 2 val_loss 0.55 loss 0.47"])
    assert [(s.step, s.loss) for s in got if isinstance(s, TrainStep)] == [(1, 0.52), (2, 0.47)]


def test_an_evaluation_with_no_loss_shows_its_scores_each_printed_in_a_one_element_list() -> None:
    got = events(["batch_id:64, avg_cost:169.67526",
                  "batch_id:65, avg_cost:183.35628",
                  "[test] batch_id:66, precision:[0.95519874], recall:[0.97376461], f1:[0.96439233]",
                  "batch_id:66, avg_cost:170.41626"])
    assert [(s.step, s.loss) for s in got if isinstance(s, TrainStep)] == [
        (64, 169.67526), (65, 183.35628), (66, 170.41626)]
    # the test's own counter names the batch it ran at; its f1 is a score, never a loss
    assert [(e.name, e.value, e.step) for e in got if isinstance(e, EvalResult)] == [
        ("precision", 0.95519874, 66), ("recall", 0.97376461, 66), ("f1", 0.96439233, 66)]


def test_a_lossless_evaluation_s_own_counter_is_no_score() -> None:
    got = events(["step 10 loss 2.0", "[test] step 10, acc 0.5"])
    assert [(e.name, e.value, e.step) for e in got if isinstance(e, EvalResult)] == [("acc", 0.5, 10)]
