"""The generic reader on tables drawn a row a record between box verticals, and on Stable-Baselines' tables.

Shapes from real logs: neupy's training table (neupy's ``neupy/helpers/table.py`` and ``format_time``: ``│ epoch │
train err │ valid err │ 23 ms │``, e-notation past six digits, as pasted without its header in itdxer/neupy issue 203),
skorch's PrintLog (tests/data/real), stable-baselines v2's logger table (``n_updates``, ``total_timesteps``, ``fps``,
``policy_loss``, ``value_loss``, as in hill-a/stable-baselines issue 927). The figures are composed; every answer below
is computed by hand.
"""

from __future__ import annotations

import pytest

from app.ingest.formats.box_rows import BoxRows
from app.ingest.formats.generic import GenericParser
from app.stats.events import EvalResult, TrainStep
from app.stats.steps.text import figure_lines


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


HEADERLESS = ["│           7 │    0.31245 │    0.22515 │      114 ms │",
              "│           8 │    0.21000 │    0.19000 │      110 ms │",
              "│           9 │    0.20000 │    0.18000 │     0.5 sec │"]


def test_headerless_rows_say_their_epoch_and_its_time_and_leave_the_other_columns_unnamed() -> None:
    # the first row is no record (nothing yet says its first column counts); rows 8 and 9 rise by one, each timed
    got = steps(HEADERLESS)
    assert [(s.step, s.loss, s.step_seconds) for s in got] == [(8, None, 0.110), (9, None, 0.5)]
    assert all(s.stage == "train" for s in got)
    assert got[-1].figures == (("column/2", 0.2), ("column/3", 0.18))
    # shown by their place, never as a loss or a validation figure the log does not name
    assert figure_lines(dict(got[-1].figures)) == [
        "Columns 2: 0.2 · 3: 0.18 (unnamed: the table's header is not in the log)"]


def test_an_epoch_in_e_notation_rising_by_its_rounding_is_the_epoch() -> None:
    # neupy's ``%g`` past six digits: 3.5858e+06 = 3,585,800, then 3,585,900 and 3,586,000 (printed 3.586e+06)
    rows = ["│  3.5858e+06 │    0.042621 │    0.022126 │       23 ms │",
            "│  3.5859e+06 │    0.047204 │   0.0077744 │       23 ms │",
            "│   3.586e+06 │    0.056358 │    0.011478 │       26 ms │"]
    got = steps(rows)
    assert [(s.step, s.step_seconds) for s in got] == [(3585900, 0.023), (3586000, 0.026)]
    assert got[-1].figures == (("column/2", 0.056358), ("column/3", 0.011478))


def test_under_its_header_the_rows_are_read_by_its_names() -> None:
    # neupy's header above its rows: ``Epoch #`` the epoch, ``Time`` the epoch's time, ``Valid err`` the validation's
    table = ["│ Epoch # │ Train err │ Valid err │ Time   │",
             "│       1 │  0.312    │  0.225    │ 23 ms  │",
             "│       2 │  0.21     │  0.19     │ 25 ms  │"]
    events = GenericParser().feed(table)
    got = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.step_seconds) for s in got] == [(1, 0.023), (2, 0.025)]
    evals = [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)]
    assert evals[-1] == ("valid_err", 0.19, 2)


@pytest.mark.parametrize("rows", [
    # a benchmark's table: its first column no count (autocannon's ``│ Latency │ 0 ms │ …``)
    ["│ Latency │ 0 ms │ 36 ms │ 38 ms │", "│ Latency │ 1 ms │ 30 ms │ 31 ms │"],
    # numbers of rows that rise unsteadily (49, 500, 600), beside two durations a row: no epochs
    ["│ 49 │ 20 ms │ 10 ms │", "│ 500 │ 30 ms │ 20 ms │", "│ 600 │ 40 ms │ 30 ms │"],
    # a first column that rises by one with no time beside it, but falls back: no table of epochs
    ["│ 3 │ 0.5 │", "│ 1 │ 0.4 │"],
])  # fmt: skip
def test_box_rows_that_are_no_table_of_epochs_are_no_steps(rows: list[str]) -> None:
    assert steps(rows) == []


def test_a_row_of_another_shape_ends_the_table() -> None:
    table = BoxRows()
    assert table.row(["1", "0.5", "23 ms"]) == ("", ())
    assert table.row(["Latency", "0 ms"]) is None  # (another table's row: the rise starts again)
    assert table.row(["2", "0.4", "23 ms"]) == ("", ())
    assert table.row(["3", "0.3", "24 ms"]) == ("epoch: 3 | step time: 24ms", (("column/2", 0.3),))


SB2 = ["--------------------------------------",
       "| approxkl           | 0.00017229581 |",
       "| fps                | 640           |",
       "| n_updates          | 250           |",
       "| policy_loss        | -0.0125       |",
       "| serial_timesteps   | 32000         |",
       "| time_elapsed       | 46.1          |",
       "| total_timesteps    | 32000         |",
       "| value_loss         | 90.5          |",
       "--------------------------------------"]


def test_a_stable_baselines_table_is_at_its_timesteps_its_rate_fps() -> None:
    # ``learn(total_timesteps=…)`` counts timesteps: 32000 is the position, its 250 updates none; fps 640 its rate,
    # 1 / 640 s = 1.5625 ms a timestep; the policy's and the value function's losses the loss's two parts, neither the
    # loss (PPO minimises their weighted sum)
    (got,) = steps(SB2)
    assert (got.step, got.total_steps, got.loss, got.step_seconds) == (32000, None, None, pytest.approx(1 / 640))
    assert got.figures == (("loss/policy", -0.0125), ("loss/value", 90.5), ("rate/fps", 640.0))
    assert figure_lines(dict(got.figures)) == ["Losses policy -0.0125 · value 90.5", "Rates fps 640"]


@pytest.mark.parametrize("cut", range(1, len(SB2)))
def test_a_stable_baselines_table_a_read_ends_inside_is_the_one_record_once_whole(cut: int) -> None:
    # a live read may end anywhere inside the table: before its ``total_timesteps`` or its ``value_loss`` row it is no
    # record yet (its position or its loss's other part is still to come); whole, it is the one read's record
    parser = GenericParser()
    got = [e for e in [*parser.feed(SB2[:cut]), *parser.feed(SB2[cut:])] if isinstance(e, TrainStep)]
    assert [(s.step, s.loss, s.figures) for s in got][-1:] == [
        (32000, None, (("loss/policy", -0.0125), ("loss/value", 90.5), ("rate/fps", 640.0)))]
    assert all(s.step == 32000 and s.loss is None for s in got)
