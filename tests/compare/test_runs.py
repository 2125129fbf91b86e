"""A log's runs cut and stitched, from composed nanoGPT logs whose answers are worked out by hand
(tests/compare/resume.py), read through the real parser as files."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.compare.files import NotComparable, read_runs
from app.compare.runs import cut
from tests.compare.resume import first_run, resumed_run, text


def test_a_new_log_resuming_inside_the_old_ones_steps_is_stitched_to_it(tmp_path: Path) -> None:
    old, new = tmp_path / "first.log", tmp_path / "second.log"
    old.write_text(text(first_run()))
    new.write_text(text(resumed_run()))
    [run] = read_runs([old, new])
    assert run.steps == [*range(0, 4000, 100), *range(4000, 6001, 100)]
    assert run.losses[-1] == 3.55 and min(run.losses) == 3.55
    [overlap] = run.overlaps
    assert (overlap.first, overlap.last, len(overlap.replaced)) == (4000, 5000, 11)
    assert overlap.replaced[-1] == (5000, 3.5)
    assert run.evals["val_loss"] == {0: 4.1, 2000: 3.85, 4000: 3.7, 6000: 3.6}


def test_a_restart_from_scratch_is_a_second_run(tmp_path: Path) -> None:
    log = tmp_path / "twice.log"
    log.write_text(text(first_run() + first_run()))
    runs = read_runs([log])
    assert len(runs) == 2
    assert [r.steps[0] for r in runs] == [0, 0] and [r.steps[-1] for r in runs] == [5000, 5000]
    assert not runs[0].overlaps and not runs[1].overlaps


def test_a_log_that_begins_after_the_old_ones_next_step_is_another_run() -> None:
    rows = [("loss", "train", s, 1.0) for s in range(0, 1000, 100)]
    rows += [("file",), *[("loss", "train", s, 2.0) for s in range(5000, 6000, 100)]]
    assert len(cut(rows)) == 2
    rows = [("loss", "train", s, 1.0) for s in range(0, 1000, 100)]
    rows += [("file",), *[("loss", "train", s, 2.0) for s in range(1000, 2000, 100)]]
    [run] = cut(rows)  # the next step it would have logged: a continuation, nothing logged twice
    assert run.steps == list(range(0, 2000, 100)) and not run.overlaps and run.pieces == 2


def test_another_stage_is_another_run() -> None:
    rows = [("loss", "base", s, 1.0) for s in range(10)] + [("loss", "mid", s, 1.0) for s in range(5)]
    assert [r.stage for r in cut(rows)] == ["base", "mid"]


def test_a_miners_log_or_a_missing_one_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(NotComparable, match="no such file|No such file"):
        read_runs([tmp_path / "missing.log"])
    miner = tmp_path / "miner.log"
    miner.write_text((Path(__file__).parents[1] / "data" / "iota-sample.log").read_text())
    with pytest.raises(NotComparable, match="miner"):
        read_runs([miner])
