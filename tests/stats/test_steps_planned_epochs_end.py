"""A run that says it stopped at its planned epochs (Lightning's ``Trainer.fit` stopped: `max_epochs=50` reached.``)
after its last epoch's full bar: that epoch, counted from zero, is the last of the planned ones, said so, never as
``49/50`` (which reads as one epoch to go); a stop at an epoch that is not the plan's last says nothing of the plan.

Composed logs in Lightning 2.x's shape, the answers worked out here by hand from the lines (the real excerpts are in
tests/live/test_real_logs.py: materialsvirtuallab/matgl's tutorial, sunandhini96/TSAI_ERAV1's README, autom3l's log).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import StageEnd, TrainStep
from tests.coldread import T0, read_cold

BAR = "Epoch {epoch}: 100%|██████████| 12/12 [00:03<00:00,  4.00it/s, v_num=0, train_loss=0.250]"


def _steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


@pytest.mark.parametrize(("epoch", "planned", "last_of"), [
    (49, 50, 50),  # epoch 49 counted from zero: the 50th of 50
    (0, 1, 1),  # one epoch planned: epoch 0 is all of it
    (9, 50, None),  # a stop at epoch 9 of a plan of 50 (a resumed count, a cut log): the plan is no claim on epoch 9
    (50, 50, None),  # an epoch past the plan counted from zero: not read as counted from one
])  # fmt: skip
def test_the_stop_names_the_plan_whose_last_epoch_the_full_bar_was(epoch: int, planned: int, last_of: int | None) -> None:
    events = GenericParser().feed([BAR.format(epoch=epoch), f"`Trainer.fit` stopped: `max_epochs={planned}` reached."])
    assert [type(e) for e in events] == [TrainStep, TrainStep, StageEnd]
    last = [e for e in events if isinstance(e, TrainStep)][-1]
    assert (last.step, last.total_steps, last.epoch, last.last_of_epochs) == (12, 12, epoch, last_of)


def test_a_stop_at_planned_steps_says_nothing_of_epochs() -> None:
    got = _steps([BAR.format(epoch=0), "`Trainer.fit` stopped: `max_steps=12` reached."])
    assert all(s.last_of_epochs is None for s in got)


def test_the_position_says_the_last_of_the_plan_never_one_to_go(tmp_path: Path) -> None:
    lines = [BAR.format(epoch=48), BAR.format(epoch=49), "`Trainer.fit` stopped: `max_epochs=50` reached."]
    data = read_cold(tmp_path, lines, name="run.log", at=T0)
    assert data["status_line"] == "done · epoch 49 (last of 50) · 12/12 in the epoch"
    assert "Stage train · epoch 49 (last of 50) · 12/12 in the epoch (100.0%)" in data["details"]
    assert not any("49/50" in line for line in data["details"])
    assert data["training"]["data"] == {"epoch": 49.0, "parquet_index": None, "row_group": None,
                                        "row_groups_per_step": None, "last_of_epochs": 50}  # (the text's, in the JSON)
    # the same bar with no stop message: the run's plan is unknown, no total made up
    data = read_cold(tmp_path, lines[:2], name="run.log", at=T0)
    assert "(last of" not in data["status_line"] and "/50" not in data["status_line"]
    assert "last_of_epochs" not in data["training"]["data"]


# A custom loop over ``range(epochs)`` that prints its plan once (argparse's Namespace) and each epoch's record from
# zero, then what runs do after training (composed; the answers by hand: three epochs planned, epochs 0, 1, 2 run).
PLAN = "Namespace(batch_size=64, epochs=3, lr=0.001)"
RECORDS = ["epoch 0 train_loss 0.6931 val_loss 0.6500", "epoch 1 train_loss 0.5123 val_loss 0.5011",
           "epoch 2 train_loss 0.4012 val_loss 0.4404"]
ONE_DAY = 24 * 3600.0


def test_the_record_of_the_plan_s_last_epoch_counted_from_zero_is_the_last_of_it() -> None:
    got = _steps([PLAN, *RECORDS])
    assert [(s.step, s.total_steps, s.last_of_epochs) for s in got] == [(0, 3, None), (1, 3, None), (2, None, 3)]
    # counted from one, epoch 2 of 3 has one to go; a line that prints its own total says its own end (``Epoch 2/3``)
    one_based = _steps([PLAN, "epoch 1 train_loss 0.6931", "epoch 2 train_loss 0.5123"])
    assert all(s.last_of_epochs is None for s in one_based)
    printed = _steps([PLAN, "Epoch 0/3 train_loss 0.6931", "Epoch 1/3 train_loss 0.5123", "Epoch 2/3 train_loss 0.4"])
    assert all(s.last_of_epochs is None for s in printed)


@pytest.mark.parametrize("closing", [
    ["Test Acc: 0.91", "Model saved to checkpoints/final.pt"],
    ["Test set: Average loss: 0.0301, Accuracy: 9904/10000 (99%)"],
    ["Best model saved"],
])  # fmt: skip
def test_the_plan_s_last_epoch_from_zero_then_its_test_or_save_is_done_and_stays_so(
        tmp_path: Path, closing: list[str]) -> None:
    for later in (0.0, ONE_DAY):
        data = read_cold(tmp_path, [PLAN, *RECORDS, *closing], name="run.log", at=T0 + later)
        assert (data["state"], data["level"], data["status_line"]) == ("done", "ok", "done · epoch 2 (last of 3)")
        assert "Finished: reached its last step (epoch 2, the last of 3)" in data["details"]
        assert data["training"]["stalled"] is False and data["training"]["loss"] == 0.4012
        assert not any("2/3" in line for line in data["details"])


def test_the_same_test_and_save_after_an_epoch_short_of_the_plan_are_no_end(tmp_path: Path) -> None:
    data = read_cold(tmp_path, [PLAN, *RECORDS[:2], "Test Acc: 0.91", "Model saved to checkpoints/final.pt"],
                     name="run.log", at=T0)
    assert data["state"] != "done" and data["training"]["finished"] is False
    assert data["status_line"].startswith("epoch 1/3")


def test_the_plan_s_last_epoch_from_zero_with_nothing_after_it_is_finishing_then_done(tmp_path: Path) -> None:
    soon = read_cold(tmp_path, [PLAN, *RECORDS], name="run.log", at=T0)
    assert soon["status_line"] == "epoch 2 (last of 3) · finishing" and soon["state"] not in ("done", "stalled")
    later = read_cold(tmp_path, [PLAN, *RECORDS], name="run.log", at=T0 + ONE_DAY)
    assert (later["state"], later["level"]) == ("done", "ok") and later["training"]["stalled"] is False
