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
