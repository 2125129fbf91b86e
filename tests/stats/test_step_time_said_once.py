"""A step's time worked out from the trainer's own clock is one figure: the details say it, and the snapshot's
``step_seconds`` carries the same number with the same words in ``step_seconds_note`` (docs/snapshot.md).

Composed logs in the shapes of real ones (each named below), their answers worked out here by hand; and real excerpts
(tests/data/real, each file's source in its header): microsoft/LightGBM issue 886, catboost/catboost issue 541,
optuna/optuna issue 4295, espnet/espnet PR 1138; XGBoost's and OpenNMT-py's excerpts, whose step time is measured or
not read, keep the text and the snapshot agreeing too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.snapshot import TrainingView, training_dict
from app.stats.steps.table import training_table
from tests.coldread import read_cold
from tests.reallogs import body

WORKED_OUT = "worked out: the trainer's clock"


def said_in_details(data: dict[str, object]) -> list[str]:
    return [line for line in data["details"] if WORKED_OUT in line]  # type: ignore[attr-defined]


def test_xgboost_cli_rounds_clock_is_the_step_time_in_text_and_snapshot(tmp_path: Path) -> None:
    """XGBoost's CLI prints ``boosting round k, T sec elapsed`` after round k-1's metrics, no time of day: the clock
    reads 2.0, 4.5, 7.0 and 9.0 s at rounds 1-4 (under steps 0-3), 7.00 s over 3 steps, 2.33 s a step."""
    lines = []
    for n, clock in ((0, "2.0"), (1, "4.5"), (2, "7.0"), (3, "9.0"), (4, None)):
        lines.append(f"[{n}]\ttest-error:{0.03 - n / 1000:.6f}\ttrain-error:{0.02 - n / 1000:.6f}")
        if clock is not None:
            lines.append(f"boosting round {n + 1}, {clock} sec elapsed")
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert training["step"] == 4
    assert training["step_seconds"] == pytest.approx(7.0 / 3)
    assert training["step_seconds_note"] == "worked out: the trainer's clock, 7.00 s over 3 steps"
    assert training["steps_per_hour"] is None  # (no rate measured: none is shown either)
    assert "step 2.33 s (worked out: the trainer's clock, 7.00 s over 3 steps)" in data["details"]


def test_a_printed_step_time_carries_no_note(tmp_path: Path) -> None:
    """CatBoost's 2018 ``passed: 21 sec``: the step's time as printed, no clock worked out, so no note in the JSON."""
    lines = ["0:\tlearn 0.6800000000passed: 20 sec\ttotal: 1m 0s\tremaining: 33m 0s",
             "1:\tlearn 0.6500000000passed: 20 sec\ttotal: 1m 20s\tremaining: 32m 40s",
             "2:\tlearn 0.6200000000passed: 21 sec\ttotal: 1m 41s\tremaining: 33m 5s"]
    training = read_cold(tmp_path, lines)["training"]
    assert training["step_seconds"] == pytest.approx(21.0)
    assert "step_seconds_note" not in training


def test_the_fields_table_says_the_note_beside_the_step_time() -> None:
    view = TrainingView(step=9, step_seconds=4.15, step_seconds_note="worked out: the trainer's clock, 8.30 s over 2 steps")
    assert training_dict(view)["step_seconds_note"] == view.step_seconds_note
    rows = [(row.label, row.value, row.unit) for row in training_table(view)]
    assert ("step time (worked out: the trainer's clock, 8.30 s over 2 steps)", "4.15", "s") in rows
    assert not any("note" in label for label, _, _ in rows)
    assert "step_seconds_note" not in training_dict(TrainingView(step=9, step_seconds=4.15))


# Real excerpts: (file, the step time worked out by hand from its clock, the note), or None where the details work
# out none from a clock (the time is measured, printed, or not read) and the snapshot carries no note.
REAL_CLOCKS = [
    # LightGBM's ``S seconds elapsed, finished N iteration``: (311.474028 - 266.050109) s over iterations 17 -> 20
    ("generic-lightgbm-issue886-cli-parallel-iterations-17-20-binary-logloss-seconds-elapsed-finished-iteration.log",
     (311.474028 - 266.050109) / 3, "worked out: the trainer's clock, 45.42 s over 3 steps"),
    # CatBoost's ``total:`` clock, every 100 iterations: 28.9s at 600 less 70.1ms at 0, over 600 iterations
    ("generic-catboost-issue541-verbose-100-learn-test-best-total-remaining-to-600.log",
     (28.9 - 0.0701) / 600, "worked out: the trainer's clock, 28.83 s over 600 steps"),
    # CatBoost under optuna: ``total:`` 10m 36s at 1487 and 10m 38s at 1492: 2 s over 5 iterations
    ("generic-catboost-optuna-issue4295-learn-only-iterations-1487-1492-remaining-0us.log",
     2.0 / 5, "worked out: the trainer's clock, 2.00 s over 5 steps"),
    # Chainer's PrintReport ``elapsed_time``: 113.983 s at 100, 152.658 s at 200 (300's cut off): 38.675 s over 100
    ("chainer-espnet-pr1138-asr-train-printreport-iterations-100-to-300-progressbar-escapes.log",
     (152.658 - 113.983) / 100, "worked out: the trainer's clock, 38.67 s over 100 steps"),
    ("generic-xgboost-spark-issue2945-akka-level-date-rounds-962-968-train-test-rmse.log", None, None),
    ("generic-xgboost-issue3366-train-valid-logloss-every-10-stopping-best-iteration.log", None, None),
    ("generic-opennmt-py-issue709-epoch-1-batches-12900-13400-of-37527-xent-src-tok-s.log", None, None),
    ("generic-opennmt-lua-issue85-epoch-1-iterations-10-40-of-183-source-tokens-per-s.log", None, None),
]


@pytest.mark.parametrize(("name", "seconds", "note"), REAL_CLOCKS, ids=[row[0][:48] for row in REAL_CLOCKS])
def test_real_excerpts_say_one_step_time_in_text_and_snapshot(tmp_path: Path, name: str, seconds: float | None,
                                                               note: str | None) -> None:
    data = read_cold(tmp_path, body(name))
    training = data["training"]
    assert training.get("step_seconds_note") == note
    if note is None:
        assert said_in_details(data) == []
        return
    assert [line.strip().split(" (", 1)[1] for line in said_in_details(data)] == [note + ")"]
    if seconds is not None:
        assert training["step_seconds"] == pytest.approx(seconds, rel=1e-6)
    span, steps = note.split(", ")[1].split(" over ")
    assert training["step_seconds"] == pytest.approx(float(span.split()[0]) / int(steps.split()[0]), abs=0.005)
