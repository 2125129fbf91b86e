"""Records led by the data split their figures were measured on (split_records.py)."""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.ingest.formats.split_records import SplitRecord, split_record
from app.stats.events import SPLIT_RECORD_LOSS, EvalResult, StepFigures, TrainStep


def test_a_split_word_leads_the_record() -> None:
    assert split_record("TRAIN | Acc: 0.8412 | F1: 0.8375 | Loss: 0.4121") == SplitRecord(
        "train", (("acc", 0.8412), ("f1", 0.8375), ("loss", 0.4121)))
    assert split_record("TEST  | Acc: 0.9521 | R: 0.9517") == SplitRecord("test", (("acc", 0.9521), ("r", 0.9517)))
    assert split_record("Valid: Loss: 1.25 | Acc: 0.5") == SplitRecord("valid", (("loss", 1.25), ("acc", 0.5)))
    assert split_record("training - loss: 2 | acc: 0.25") == SplitRecord("train", (("loss", 2.0), ("acc", 0.25)))


def test_a_record_that_is_not_all_named_figures_is_none() -> None:
    assert split_record("TRAIN | Acc: 0.8412") is None  # (one field: nothing to tell it from prose)
    assert split_record("Train Epoch: 3 | Loss: 0.2") is None  # (the split word leads another record)
    assert split_record("Test | Loss: 0.2 | Time: 3.1s") is None  # (a field with a unit)
    assert split_record("Testing | done | Acc: 0.5") is None


# Composed in the shape of a script that prints each epoch's bar, then its splits' records (the epoch's summary after
# its bar): hand-computed, the training loss is the TRAIN record's 0.4121, the test set's scores the TEST record's.
BARRED = ["Epoch 3: 100%|██████████| 250/250 [00:03<00:00, 81.40it/s]",
          "",
          "[Epoch 3] Method: GRU",
          "TRAIN | Acc: 0.8412 | F1: 0.8375 | P: 0.8390 | R: 0.8371 | Loss: 0.4121",
          "TEST  | Acc: 0.8875 | F1: 0.8861 | P: 0.8902 | R: 0.8859 | Loss: 0.3317",
          "LR: 0.000500"]  # fmt: skip


def test_the_training_split_s_loss_is_the_loss_after_a_bar() -> None:
    events = GenericParser().feed(BARRED)
    figures = [(e.loss, e.loss_note) for e in events if isinstance(e, StepFigures) and e.loss is not None]
    assert figures == [(0.4121, SPLIT_RECORD_LOSS)]
    assert ("test_loss", 0.3317) in [(e.name, e.value) for e in events if isinstance(e, EvalResult)]


def test_an_evaluation_split_with_no_loss_gives_its_scores() -> None:
    # Composed: an epoch's header, its TRAIN record (the epoch's step, its loss 0.0042), its TEST record with no loss.
    lines = ["[Epoch 12] Method: GRU",
             "TRAIN | Acc: 0.9981 | F1: 0.9980 | P: 0.9982 | R: 0.9979 | Loss: 0.0042",
             "TEST  | Acc: 0.9874 | F1: 0.9871 | P: 0.9877 | R: 0.9869"]  # fmt: skip
    events = GenericParser().feed(lines)
    assert [(s.step, s.loss) for s in events if isinstance(s, TrainStep)] == [(12, 0.0042)]
    assert [(e.name, e.value, e.closes) for e in events if isinstance(e, EvalResult)] == [
        ("acc", 0.9874, True), ("f1", 0.9871, True), ("p", 0.9877, True), ("r", 0.9869, True)]


def test_a_training_split_before_any_step_is_no_loss() -> None:
    assert not [e for e in GenericParser().feed(["TRAIN | Acc: 0.5 | Loss: 0.7"]) if isinstance(e, StepFigures)]
