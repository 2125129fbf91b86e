"""A hyperparameter search's line a trial ended (Optuna's ``Trial 7 finished with value: … Best is trial 3 with value:
…``): where the log's records are its trials, the trial is the position, said as a trial (never a step), its value and
the best so far under their own names (never the loss); where the model a trial trains prints its own steps, those
steps are the position and the trial lines no record.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold


def _trial(number: int, second: int, value: float, best: float) -> str:
    """An Optuna trial line in its logger's own shape (composed: the figures are this test's)."""
    return (f"[I 2024-01-05 10:00:{second:02d},000] Trial {number} finished with value: {value} and parameters: "
            f"{{'lr': 0.01, 'layers': 2}}. Best is trial 0 with value: {best}.")


def test_trial_lines_alone_are_the_search_s_position(tmp_path: Path) -> None:
    # three trials at 10, 20 and 40 s: (40 - 10) / 2 = 15 s a trial; trial 1 pruned in between
    data = read_cold(tmp_path, [_trial(0, 10, 0.5, 0.5), "[I 2024-01-05 10:00:20,000] Trial 1 pruned.",
                                _trial(2, 40, 0.7, 0.5)])
    training = data["training"]
    assert data["status_line"].startswith("trial 2 · ") and training["step_unit"] == "trial"
    assert training["loss"] is None and training["lr"] is None and training["step_seconds"] == 15.0
    assert training["figures"] == {"figure/value": 0.7, "figure/best value": 0.5}


def test_one_trial_line_is_no_record_of_the_steps_after_it(tmp_path: Path) -> None:
    # a trial line, then the next trial's own training steps: the steps are the position, the trial's figures no step's
    data = read_cold(tmp_path, [_trial(0, 10, 0.5, 0.5), "step 1 loss 2.0", "step 2 loss 1.5"])
    training = data["training"]
    assert data["status_line"].startswith("step 2 · ") and training.get("step_unit") is None
    assert training["loss"] == 1.5 and training["lr"] is None and not training.get("figures")


def test_trial_lines_among_a_model_s_own_steps_are_no_record(tmp_path: Path) -> None:
    data = read_cold(tmp_path, ["step 1 loss 2.0", _trial(0, 10, 0.5, 0.5), _trial(1, 20, 0.4, 0.4), "step 2 loss 1.5"])
    training = data["training"]
    assert data["status_line"].startswith("step 2 · ") and training.get("step_unit") is None
    assert training["loss"] == 1.5 and not training.get("figures")


def test_trials_run_side_by_side_are_at_the_furthest_trial_ended(tmp_path: Path) -> None:
    # five trials run side by side end as 3 (0 s), 6 (15 s), 4 (20 s), 1 (25 s), 7 (40 s): the search is at trial 7, the
    # furthest ended; its time over the trials that moved it, 3 -> 6 -> 7: (40 - 0) / (7 - 3) = 10 s a trial, never a
    # time measured again from trial 1 ((40 - 25) / 6 = 2.5 s)
    data = read_cold(tmp_path, [_trial(3, 0, 0.5, 0.5), _trial(6, 15, 0.6, 0.5), _trial(4, 20, 0.7, 0.5),
                                _trial(1, 25, 0.4, 0.4), _trial(7, 40, 0.8, 0.4)])
    training = data["training"]
    assert data["status_line"].startswith("trial 7 · ") and training["step_seconds"] == 10.0
    assert training["figures"] == {"figure/value": 0.8, "figure/best value": 0.4}
