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


# Keras Tuner's own lines around each trial (its ``engine/oracle.py``): ``Search: Running Trial #N`` as a trial begins,
# ``Trial N Complete [00h 01m 10s]`` as it ends, the objective the trial reached, the best so far and the search's clock.
def _keras_trial(number: int, epochs: list[tuple[float, float]], seconds: int, total: int | None = None) -> list[str]:
    """A Keras Tuner trial with its own ``fit`` (an epoch's bar: its loss and val_loss), composed: the figures are the
    test's."""
    lines = ["", f"Search: Running Trial #{number}", "", "Value             |Best Value So Far |Hyperparameter",
             "64                |64                |units", ""]
    for epoch, (loss, val_loss) in enumerate(epochs, 1):
        lines += [f"Epoch {epoch}/{len(epochs)}",
                  f"100/100 [==============================] - 2s 20ms/step - loss: {loss} - val_loss: {val_loss}"]
    of = f"/{total}" if total is not None else ""
    return lines + [f"Trial {number}{of} Complete [00h 00m {seconds:02d}s]", f"val_loss: {min(v for _, v in epochs)}", "",
                    f"Best val_loss So Far: {min(v for _, v in epochs)}", f"Total elapsed time: 00h 0{number}m 00s"]


def test_a_trial_s_last_epoch_is_no_end_of_the_search(tmp_path: Path) -> None:
    # trial 1's fit at its last epoch's full bar, then trial 2 begun and at its second epoch of 2: the search runs on, at
    # trial 2's epoch 2 (its loss 0.7, val_loss 0.8), never done and never trial 1's figures
    lines = _keras_trial(1, [(0.9, 1.0), (0.5, 0.6)], 30)[:-5] + ["Trial 1 Complete [00h 00m 30s]", "val_loss: 0.6"]
    lines += _keras_trial(2, [(1.1, 1.2), (0.7, 0.8)], 30)[:-5]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert data["status_line"].startswith("epoch 2/2 · 100/100 in the epoch") and data["state"] != "done"
    assert training["loss"] == 0.7 and not training["finished"]
    assert training["eval"] == {"val_loss": {"value": 0.8, "step": None}}


def test_the_best_so_far_and_the_search_s_clock_are_no_figures(tmp_path: Path) -> None:
    data = read_cold(tmp_path, _keras_trial(1, [(0.9, 1.0), (0.5, 0.6)], 30) + _keras_trial(2, [(1.1, 1.2)], 15)[:-5])
    training = data["training"]
    assert training["loss"] == 1.1 and set(training["eval"]) == {"val_loss"}
    assert "run_seconds" not in (training.get("figures") or {})


def test_trials_complete_with_no_fit_shown_are_the_search_s_trials(tmp_path: Path) -> None:
    # ``fit(verbose=0)``: only the tuner's lines, three trials of 70, 74 and 72 s as printed: trial 3, a trial's time
    # its own as printed (the latest: 72 s), never a step; the objective no loss
    lines: list[str] = []
    for number, seconds in ((1, 10), (2, 14), (3, 12)):
        lines += _keras_trial(number, [(0.5, 0.6)], seconds)[:6] + [
            f"Trial {number} Complete [00h 01m {seconds:02d}s]", "val_loss: 0.6", "", "Best val_loss So Far: 0.6",
            f"Total elapsed time: 00h 0{number}m 00s"]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert data["status_line"].startswith("trial 3 · ") and training["step_unit"] == "trial"
    assert training["loss"] is None and training["step_seconds"] == 72.0 and not training["finished"]


def test_the_search_ends_in_its_own_words_only(tmp_path: Path) -> None:
    lines: list[str] = []
    for number in (1, 2):
        lines += _keras_trial(number, [(0.5, 0.6)], 10)[:6] + [f"Trial {number} Complete [00h 00m 10s]", "val_loss: 0.6"]
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    assert not read_cold(tmp_path / "a", lines)["training"]["finished"]
    data = read_cold(tmp_path / "b", [*lines, "Search complete"])
    assert data["training"]["finished"] and data["status_line"].startswith("done · trial 2")


def test_the_last_trial_of_a_printed_total_ends_the_search(tmp_path: Path) -> None:
    lines: list[str] = []
    for number in (1, 2, 3):
        lines += [f"Search: Running Trial #{number}", f"Trial {number}/3 Complete [00h 00m 10s]", "val_loss: 0.6"]
    data = read_cold(tmp_path, lines)
    assert data["status_line"].startswith("done · trial 3/3") and data["training"]["finished"]
    (tmp_path / "b").mkdir()
    assert read_cold(tmp_path / "b", lines[:6])["status_line"].startswith("trial 2/3 · ")


def test_the_oracle_s_exit_ends_the_search_and_a_lone_trial_complete_is_its_position(tmp_path: Path) -> None:
    # the search's last trial alone (a notebook cleared those before it), then TensorFlow's logger saying the oracle
    # stopped it: done at trial 3
    lines = ["Trial 3 Complete [00h 00m 39s]", "val_accuracy: 0.96", "Best val_accuracy So Far: 0.97",
             "Total elapsed time: 00h 01m 51s", "INFO:tensorflow:Oracle triggered exit"]
    data = read_cold(tmp_path, lines)
    assert data["status_line"].startswith("done · trial 3") and data["training"]["step_seconds"] == 39.0
