"""Gradient-boosting libraries' own lines, read cold: CatBoost's iteration lines (its 2018 form and today's) and
XGBoost's CLI rounds behind dmlc-core's time of day. Composed logs whose answers are worked out by hand below; the
real excerpts (catboost/catboost issue 541, optuna/optuna issue 4295, dmlc/xgboost issue 2945) are in
tests/live/test_real_logs.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold


def test_catboost_s_2018_lines_show_learn_and_the_iteration_s_own_time(tmp_path: Path) -> None:
    """``learn`` glued to ``passed:`` (no colon after it): the loss as printed, ``passed`` the iteration's time (21 s at
    iteration 2), ``remaining`` CatBoost's own (33m 5s = 1,985 s), ``total`` its clock; no evaluation, no total."""
    lines = [
        "Borders generated",
        "0:\tlearn 0.6800000000passed: 20 sec\ttotal: 1m 0s\tremaining: 33m 0s",
        "1:\tlearn 0.6500000000passed: 20 sec\ttotal: 1m 20s\tremaining: 32m 40s",
        "2:\tlearn 0.6200000000passed: 21 sec\ttotal: 1m 41s\tremaining: 33m 5s",
    ]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["total_steps"]) == (2, None)
    assert (training["loss"], training["loss_note"]) == (0.62, "learn")
    assert training["step_seconds"] == pytest.approx(21.0)
    assert training["trainer_eta_seconds"] == pytest.approx(1985.0)
    assert training["eval"] is None
    assert "step 21.00 s (as printed)" in data["details"]


def test_catboost_s_eval_sets_are_that_iteration_s_and_its_best_is_no_figure(tmp_path: Path) -> None:
    """Two evaluation sets (``test``, ``test1``) at iteration 20; the best so far (0.39, at 18) is an earlier
    iteration's and shown nowhere; the step's time is CatBoost's clock: 2.1 s - 100 ms over 20 iterations = 100 ms."""
    lines = [
        "0:\tlearn: 0.6000000\ttest: 0.6100000\ttest1: 0.6200000\tbest: 0.6100000 (0)\ttotal: 100ms\tremaining: 9.9s",
        "10:\tlearn: 0.4000000\ttest: 0.4500000\ttest1: 0.4700000\tbest: 0.4500000 (10)\ttotal: 1.1s\tremaining: 8.9s",
        "20:\tlearn: 0.3000000\ttest: 0.4000000\ttest1: 0.4200000\tbest: 0.3900000 (18)\ttotal: 2.1s\tremaining: 7.9s",
    ]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["loss"], training["loss_note"]) == (20, 0.3, "learn")
    assert training["eval"] == {"test": {"value": 0.4, "step": 20}, "test1": {"value": 0.42, "step": 20}}
    assert training["trainer_eta_seconds"] == pytest.approx(7.9)
    assert "step 100 ms (worked out: the trainer's clock, 2.00 s over 20 steps)" in data["details"]
    assert "0.39" not in " ".join(data["details"])


def xgboost_cli(rounds: int) -> list[str]:
    """XGBoost's CLI under dmlc-core's ``[HH:MM:SS] ``: round n printed 5 s after the one before, from 10:00:05; its
    train-error 0.05 - n/1000, its test-error 0.06 - n/1000."""
    lines = ["[10:00:00] 6513x126 matrix with 143286 entries loaded from agaricus.txt.train"]
    for n in range(rounds):
        started, ended = 5 * n, 5 * (n + 1)
        lines.append(f"[10:{started // 60:02d}:{started % 60:02d}] boosting round {n}, {started} sec elapsed")
        lines.append(f"[10:{ended // 60:02d}:{ended % 60:02d}] [{n}]\ttest-error:{0.06 - n / 1000:.6f}"
                     f"\ttrain-error:{0.05 - n / 1000:.6f}")
    return lines


def test_xgboost_s_cli_rounds_behind_its_time_of_day_are_read(tmp_path: Path) -> None:
    """dmlc-core's time of day before each line: round 39 (10:03:20) the position, its train-error the loss as printed
    (the share misclassified, brought down: 0.05 - 0.039 = 0.011), test-error its evaluation (0.021); 5 s a round
    (720 rounds an hour) over the 3 min window."""
    data = read_cold(tmp_path, xgboost_cli(40), dated=True)
    training = data["training"]
    assert (training["step"], training["total_steps"]) == (39, None)
    assert (training["loss"], training["loss_note"]) == (pytest.approx(0.011), "train-error")
    assert training["eval"] == {"test_error": {"value": pytest.approx(0.021), "step": 39}}
    assert training["step_seconds"] == pytest.approx(5.0)
    assert training["steps_per_hour"] == pytest.approx(720.0)
    assert training["finished"] is False
