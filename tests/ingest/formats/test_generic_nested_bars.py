"""Nested bars: an outer bar described by the word ``Epoch`` alone over inner bars of each epoch's batches.

BERT fine-tuning scripts (the transformers examples' old run_glue and run_squad, JointBERT, sentence-transformers' fit)
draw ``trange(epochs, desc="Epoch")`` over ``tqdm(loader, desc="Iteration")``: the outer count is the epochs done of the
run's, the inner bar's the batches of the epoch under way, the next one, said counted from one as the outer bar counts
(``0/3`` over epoch 1's batches; at ``3/3`` the last, epoch 3, done). An inner bar at its total is its epoch's end, never the
run's; the outer bar at its total is. The outer bar is redrawn only when a line is printed over it, so an inner bar that
starts again after a full one is the next epoch's, the outer bar not redrawn yet.

Real excerpts are in tests/data/real/generic-jointbert-… and generic-bert-qna-…; these lines are composed in their
shape. Every answer is read off the lines by hand.
"""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import EPOCH_SUMMARY_LOSS, EvalResult, Event, StageEnd, StepFigures, TrainStep


def events(lines: list[str]) -> list[Event]:
    return GenericParser().feed(lines)


def steps(got: list[Event]) -> list[tuple[int, float | None, int | None]]:
    return [(s.step, s.epoch, s.epoch_total) for s in got if isinstance(s, TrainStep)]


OUTER_AT_0 = "Epoch:   0%|          | 0/3 [00:00<?, ?it/s]"
INNER_FULL = "Iteration: 100%|██████████| 420/420 [00:23<00:00, 18.06it/s]"
INNER_HALF = "Iteration:  50%|█████     | 210/420 [00:11<00:11, 18.06it/s]"


def test_an_inner_bar_at_its_total_is_its_epoch_s_end_never_the_run_s() -> None:
    got = events([OUTER_AT_0, INNER_HALF, INNER_FULL])
    assert steps(got) == [(210, 1.0, 3), (420, 1.0, 3)]
    assert not any(isinstance(e, TrainStep) and e.ends_at_total for e in got)
    assert not any(isinstance(e, StageEnd) for e in got)


def test_the_outer_bar_s_count_is_the_epoch_of_the_inner_bars_after_it() -> None:
    got = events([OUTER_AT_0, INNER_FULL, "Epoch:  33%|███▎      | 1/3 [00:23<00:46, 23.10s/it]", INNER_HALF])
    assert steps(got)[-1] == (210, 2.0, 3)  # (1 epoch done: the second under way)


def test_an_inner_bar_drawn_again_after_a_full_one_is_the_next_epoch_s() -> None:
    # (no outer redraw between them: the second full bar is epoch 2's, the half one after it epoch 3's)
    got = events([OUTER_AT_0, INNER_FULL, INNER_HALF, INNER_FULL, INNER_HALF])
    assert [epoch for _, epoch, _ in steps(got)] == [1.0, 2.0, 2.0, 3.0]


def test_an_evaluation_s_bar_under_the_outer_bar_moves_no_epoch() -> None:
    got = events([OUTER_AT_0, INNER_FULL, "Evaluating: 100%|██████████| 4/4 [00:04<00:00,  1.11s/it]", INNER_HALF])
    assert steps(got)[-1] == (210, 2.0, 3)  # (the inner training bar started again: epoch 2, not 3)


def test_the_outer_bar_at_its_total_ends_the_run() -> None:
    got = events([OUTER_AT_0, INNER_FULL, "Epoch: 100%|██████████| 3/3 [01:09<00:00, 23.10s/it]"])
    assert any(isinstance(e, StageEnd) and not e.evaluation for e in got)
    # (its end keeps the last epoch's batches its own: never 420 steps as the run's total)
    assert not any(isinstance(e, TrainStep) and e.total_steps == 420 for e in got)


def test_the_outer_bar_glued_before_a_logger_s_record_is_read_first() -> None:
    # (JointBERT's logger prints over the outer bar: the bar's redraw, the record, then the inner bar's redraw over it)
    got = events([OUTER_AT_0, INNER_FULL,
                  ("Epoch:  33%|███▎      | 1/3 [00:23<00:46, 23.10s/it]09/20/2025 19:56:58 - INFO - trainer -   "
                   "***** Running evaluation on dev dataset *****███▏      | 82/420 [00:04<00:17, 18.06it/s]"),
                  INNER_FULL])
    assert steps(got)[-1] == (420, 2.0, 3)


def test_an_outer_bar_with_its_own_loss_is_the_run_s_record_in_epochs() -> None:
    got = events(["Epoch:  30%|███       | 3/10 [00:30<01:10, 10.00s/it, loss=0.61]",
                  "Epoch:  40%|████      | 4/10 [00:40<01:00, 10.00s/it, loss=0.5]"])
    last = [e for e in got if isinstance(e, TrainStep)][-1]
    assert (last.step, last.total_steps, last.epoch, last.loss, last.step_seconds) == (4, 10, 4.0, 0.5, 10.0)


def test_a_bar_named_by_its_epoch_s_number_is_no_outer_bar() -> None:
    # (Lightning's ``Epoch 0:`` counts its epoch's batches: its count is no epochs done)
    got = events(["Epoch 0: 100%|██████████| 2/2 [00:01<00:00,  1.43it/s, loss=-3.72, v_num=1]"])
    assert steps(got) == [(2, 0.0, None)]


# DGL GraphBolt's examples draw each epoch's batches in an unsized bar (``tqdm(enumerate(dataloader), "Training")``), then
# print the epoch's record: the bar's count is that epoch's batches, never the run's steps; its it/s the rate.
TRAINING_PASS = "Training: 1178it [00:12, 95.2it/s]"
EVALUATING_PASS = "Evaluating: 39it [00:01, 30.1it/s]"


def test_an_epoch_s_record_after_an_unsized_bar_places_that_pass_in_its_epoch() -> None:
    got = events([TRAINING_PASS, EVALUATING_PASS, "Epoch 00000 | Loss 1.2345 | Accuracy 0.8812 | Time 13.4",
                  "Training: 402it [00:04, 95.1it/s]"])
    assert steps(got) == [(1178, 0.0, None), (402, 1.0, None)]  # (the first pass amended in place: epoch 0's)
    last = [e for e in got if isinstance(e, TrainStep)][-1]
    assert (last.total_steps, last.ends_at_total, last.step_seconds) == (None, False, 1 / 95.1)
    assert [(f.loss, f.loss_note) for f in got if isinstance(f, StepFigures)] == [(1.2345, EPOCH_SUMMARY_LOSS)]
    assert [(r.name, r.value, r.closes) for r in got if isinstance(r, EvalResult)] == [("accuracy", 0.8812, True)]


def test_an_epoch_s_record_naming_its_splits_scores_is_that_epoch_s_evaluation_as_printed() -> None:
    got = events([TRAINING_PASS, EVALUATING_PASS,
                  "Epoch 00, Loss: 1.4154, Approx. Train: 0.5776, Approx. Val: 0.6248, Time: 250.58920621871948s"])
    assert [(r.name, r.value) for r in got if isinstance(r, EvalResult)] == [("approx. train", 0.5776),
                                                                               ("approx. val", 0.6248)]
    assert [f.loss for f in got if isinstance(f, StepFigures)] == [1.4154]  # (never the val figure as a loss)


# An epochs bar drawn alone: ``for epoch in trange(10, desc="Epoch")`` over a loop that draws no bar of its own. With no
# inner bar under it, its count is the run's, a record an epoch, its s/it the epoch's time and its time left the trainer's.
EPOCHS_ALONE = [f"Epoch:  {10 * n}%|{'█' * n}{' ' * (10 - n)}| {n}/10 [00:{10 * n}<0{(100 - 10 * n) // 60}:"
                f"{(100 - 10 * n) % 60:02d}, 10.00s/it]" for n in (1, 2, 3, 4)]


def test_an_epochs_bar_drawn_alone_is_the_run_s_record_an_epoch() -> None:
    assert EPOCHS_ALONE[-1] == "Epoch:  40%|████      | 4/10 [00:40<01:00, 10.00s/it]"
    got = events(EPOCHS_ALONE)
    records = [e for e in got if isinstance(e, TrainStep)]
    assert [(s.step, s.total_steps, s.epoch, s.epoch_total) for s in records] == [
        (1, 10, 1.0, 10), (2, 10, 2.0, 10), (3, 10, 3.0, 10), (4, 10, 4.0, 10)]
    last = records[-1]
    assert (last.step_seconds, last.trainer_eta_seconds, last.loss) == (10.0, 60.0, None)
    assert not any(isinstance(e, StageEnd) for e in got)


def test_an_epochs_bar_drawn_alone_at_its_total_ends_the_run_at_its_last_epoch() -> None:
    got = events([*EPOCHS_ALONE, "Epoch: 100%|██████████| 10/10 [01:40<00:00, 10.00s/it]"])
    last = [e for e in got if isinstance(e, TrainStep)][-1]
    assert (last.step, last.total_steps, last.step_seconds) == (10, 10, 10.0)
    assert any(isinstance(e, StageEnd) and not e.evaluation for e in got)


def test_an_epochs_bar_at_0_is_no_record() -> None:
    # (no epoch done yet: nothing to place; the inner bars after it, if any, are that first epoch's)
    assert steps(events(["Epoch:   0%|          | 0/10 [00:00<?, ?it/s]"])) == []


def test_the_first_epochs_bar_at_0_then_inner_bars_reads_as_nested() -> None:
    got = events(["Epoch:   0%|          | 0/10 [00:00<?, ?it/s]", INNER_HALF, INNER_FULL,
                  "Epoch:  10%|█         | 1/10 [00:23<03:27, 23.10s/it]", INNER_HALF])
    # (the epochs bar redrawn after inner bars is their outer bar: no record of 1 epoch among the batches)
    assert steps(got) == [(210, 1.0, 10), (420, 1.0, 10), (210, 2.0, 10)]


def test_an_inner_bar_drawn_after_epochs_bars_alone_turns_them_into_its_outer_bar() -> None:
    got = events([*EPOCHS_ALONE[:2], INNER_HALF, INNER_FULL, "Epoch:  30%|███       | 3/10 [01:10<02:43, 23.31s/it]",
                  INNER_HALF])
    # (the epochs alone a record each, of the epochs done; the inner bars after the second then the third epoch's
    # batches, the outer bar's next redraw (3 done) no record of the run's, the inner bars after it the fourth's)
    assert steps(got) == [(1, 1.0, 10), (2, 2.0, 10), (210, 3.0, 10), (420, 3.0, 10), (210, 4.0, 10)]


def test_an_epochs_bar_on_the_line_of_an_inner_bar_is_no_record() -> None:
    got = events([OUTER_AT_0, ("Epoch:  33%|███▎      | 1/3 [00:23<00:46, 23.10s/it]Iteration:  50%|█████     | "
                               "210/420 [00:11<00:11, 18.06it/s]")])
    assert [step for step, _, _ in steps(got)] == [210]  # (the inner bar's batches alone: no record of 1 epoch before)
