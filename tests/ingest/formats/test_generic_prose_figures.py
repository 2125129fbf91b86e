"""Figures written in prose, one a line (rl_replicas' ``Loss of the current policy:         -0.0405``, RLCard's ``Average
reward is -0.376``), read by their names' words: a loss's is a part (none the model's one loss), a mean reward or return
the run's reward, the environment's steps so far its count; in a log that prints no step they are logged records (the
lines of one block one record, a name printed again the next), never a step; under an evaluation's heading after a step,
that evaluation's figure. Behind a logging prefix whatever its separators (``—``, ``::``, a logger's name parted from its
level by ``|``).

Real: yamatokataoka/reinforcement-learning-replications pull request #7, datamllab/rlcard's getting_started.rst
(tests/data/real, their headers; their snapshots in tests/live/test_real_logs.py). Composed: lines whose reading is worked
out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.prefix import PrefixReader
from app.ingest.formats.prose_figures import one_figure, prose_figure
from tests.coldread import read_cold


@pytest.mark.parametrize(("line", "figure"), [
    ("Loss of the current policy:         -0.0405 ", ("loss/Loss of the current policy", -0.0405)),
    ("Avarage Value function Loss:  124.889", ("loss/Avarage Value function Loss", 124.889)),
    ("Average reward is -0.376", ("reward", -0.376)),
    ("Average return is 12.5", ("reward", 12.5)),
    ("Total env interactions: 152000", ("total/timesteps", 152000.0)),
    # names that make it another figure, or none tokwatch knows
    ("Difference of the previous policy loss:         -0.00205", None),
    ("Std Episode Value:      10.6    ", None),
    ("Final train loss: 3.076997", None),
    ("train loss: 0.4524", None),
    ("Average Episode Length: 46      ", None),
    ("Time:                   127     ", None),
    ("Number of loss terms: 3", None),  # (a setting, not a figure of the run)
    ("Loss scale: 65536", None),
])  # fmt: skip
def test_a_figure_in_prose_by_its_name_s_words(line: str, figure: tuple[str, float] | None) -> None:
    said = one_figure(line)
    assert said is not None
    assert prose_figure(*said) == figure


def test_only_a_line_of_one_figure_flush_left_is_one() -> None:
    assert one_figure("   Mean value loss: 19.7410") is None  # (rsl_rl's block row: its reader's)
    assert one_figure("Step 57 loss: 0.71 lr: 0.1") is None


@pytest.mark.parametrize("line", [
    "2020-10-10 08:35:24,601 — rl_replicas.vpg.vpg — INFO — Loss of the current policy: -0.0405",
    "2020-10-10 08:35:24,601 :: INFO :: Loss of the current policy: -0.0405",
    "2020-10-10 08:35:24,601 :: rl.vpg :: INFO :: Loss of the current policy: -0.0405",
    "2020-10-10 08:35:24,601 | rl.vpg | INFO | Loss of the current policy: -0.0405",
])  # fmt: skip
def test_a_logging_prefix_with_any_separator_is_peeled(line: str) -> None:
    assert PrefixReader().read(line).message == "Loss of the current policy: -0.0405"


def test_a_bar_after_a_word_that_is_no_logger_before_its_level_stays_the_record_s() -> None:
    # (fairseq's ``valid | epoch 001 | …`` behind its prefix: its stage word is the record's own)
    line = "2020-10-10 08:35:24,601 | INFO | valid | epoch 001 | loss 3.29"
    assert PrefixReader().read(line).message == "valid | epoch 001 | loss 3.29"


def test_composed_prose_records_with_no_step(tmp_path: Path) -> None:
    # record 1: policy 0.5, value 3.0; ``Policy loss`` again begins record 2: policy 0.4, value 2.5, return 12.5; the
    # difference is no figure; no step, no epoch: two logged records
    lines = ["2024-05-01 12:00:00,100 :: vpg :: INFO :: Policy loss: 0.5",
             "2024-05-01 12:00:00,200 :: vpg :: INFO :: Value function loss: 3.0",
             "2024-05-01 12:00:10,100 | vpg | INFO | Policy loss: 0.4",
             "2024-05-01 12:00:10,200 | vpg | INFO | Value function loss: 2.5",
             "2024-05-01 12:00:10,300 | vpg | INFO | Average return is 12.5",
             "2024-05-01 12:00:10,400 | vpg | INFO | Difference of the previous policy loss: 0.1"]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["status_line"] == "2 logged records · …"
    training = data["training"]
    assert (training["step"], training["logged_records"], training["loss"]) == (None, 2, None)
    assert training["figures"] == {"loss/Policy loss": 0.4, "loss/Value function loss": 2.5, "reward": 12.5}


def test_a_line_of_another_kind_ends_a_record(tmp_path: Path) -> None:
    # the WARNING between them parts the two records, though their names differ
    lines = ["2024-05-01 12:00:00,100 — vpg — INFO — Average Policy Loss: 0.5",
             "2024-05-01 12:00:05,000 — vpg — WARNING — The trajectory cut off at 13 steps on the current episode",
             "2024-05-01 12:00:06,100 — vpg — INFO — Loss of the current policy: 0.4"]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["training"]["logged_records"] == 2


def test_the_evaluation_s_figure_under_its_heading_after_a_step(tmp_path: Path) -> None:
    lines = ["Step 10 loss: 0.7", "########## Evaluation ##########", "Average reward is -0.3", "Step 20 loss: 0.6"]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["loss"]) == (20, 0.6)  # (the step after the evaluation is a step)
    assert training["eval"] == {"average_reward": {"value": -0.3, "step": 10}}
