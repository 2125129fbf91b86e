"""A log whose records are its epochs' own times alone (epoch_time.py, one line an epoch, nothing else printed): each line
its epoch, done, read as the position; that epoch's time shown as printed, as the epoch's; no step's time divided out.

Real: tests/data/real/generic-trainner-issue72-end-of-epoch-time-taken-lines-only-epochs-52-68-of-500000.log
(victorca25/traiNNer#72, pix2pix's ``End of epoch 52 / 500000 \t Time Taken: 5.0500 sec`` under traiNNer's dated logger)
and generic-cuda-mlp-readme-epoch-took-ms-lines-only-epochs-1-3.log (Lawrencium77/cuda_mlp's README, ``Epoch 1 took 844
ms``). Composed: TensorFlow's DCGAN tutorial's ``Time for epoch 3 is 12.4 sec`` and two other wordings; every answer
below worked out by hand from the lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.epoch_time import epoch_time, epochs_planned
from tests.coldread import read_cold
from tests.reallogs import body


@pytest.mark.parametrize(("message", "expected", "planned"), [
    ("End of epoch 52 / 500000 \t Time Taken: 5.0500 sec", (52, 5.05), 500000),  # (behind its logger's prefix)
    ("End of epoch 3 / 200 \t Time Taken: 61 sec", (3, 61.0), 200),  # (pix2pix's own, whole seconds)
    ("Epoch [2/10] took 12.0s", (2, 12.0), 10),
    ("Time for epoch 4 is 12.5 sec", (4, 12.5), None),
])
def test_an_epoch_s_time_says_its_epoch_and_the_epochs_planned(
        message: str, expected: tuple[int, float], planned: int | None) -> None:
    said = epoch_time(message)
    assert said is not None
    assert said[0] == expected[0]
    assert said[1] == pytest.approx(expected[1])
    assert epochs_planned(message) == planned


@pytest.mark.parametrize(("lines", "seconds"), [
    (["Time for epoch 1 is 13.1 sec", "Time for epoch 2 is 12.6 sec", "Time for epoch 3 is 12.4 sec"], 12.4),
    (["Epoch 1 took 12.9s", "Epoch 2 took 12.5s", "Epoch 3 took 12.4s"], 12.4),
    (["epoch 1 time: 0:00:13", "epoch 2 time: 0:00:12", "epoch 3 time: 0:00:12"], 12.0),
])
def test_epoch_times_alone_are_the_run_s_epochs(tmp_path: Path, lines: list[str], seconds: float) -> None:
    """Three epochs' times and nothing else: epoch 3 (no total printed), its time as printed as the epoch's; the rate
    waits for 3 min of the log's own time (38.1 s, 37.8 s, 37 s here), no step's time is made up."""
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert data["status_line"].startswith("epoch 3 ")
    assert (training["step"], training["total_steps"], training["step_unit"]) == (3, None, "epoch")
    assert training["step_seconds"] == pytest.approx(seconds)
    assert training["steps_per_hour"] is None and training["loss"] is None and not training["finished"]
    assert any(line.startswith("epoch ") and line.endswith("(as printed)") for line in data["details"])
    assert not any("step" in line.split("·")[0] for line in data["details"][:3])


def test_one_epoch_s_time_then_batches_is_no_log_of_epoch_times(tmp_path: Path) -> None:
    """An excerpt begun at an epoch's end (``Time for epoch 1 is 12.5 sec``, then epoch 2's batch records): the batches are
    the position (epoch 2, step 100), epoch 1's time said as epoch 1's."""
    lines = ["Time for epoch 1 is 12.5 sec", "epoch 2, step 50, loss 2.0000", "epoch 2, step 100, loss 1.9000"]
    data = read_cold(tmp_path, lines)
    assert data["training"]["step"] == 100
    assert data["training"].get("step_unit") is None
    assert data["training"]["loss"] == pytest.approx(1.9)


def test_trainner_s_end_of_epoch_lines_are_epoch_68_of_500000(tmp_path: Path) -> None:
    """Epochs 52 to 68, each ``End of epoch N / 500000 \t Time Taken: …``: epoch 68 of 500000, 5.0919 s as printed."""
    data = read_cold(tmp_path, body("generic-trainner-issue72-end-of-epoch-time-taken-lines-only-epochs-52-68-of-500000"
                                    ".log"), dated=True)
    training = data["training"]
    assert data["status_line"].startswith("epoch 68/500000 ")
    assert (training["step"], training["total_steps"], training["step_unit"]) == (68, 500000, "epoch")
    assert training["step_seconds"] == pytest.approx(5.0919)
    assert training["loss"] is None and not training["finished"]
    assert data["state"] in ("measuring", "training")


def test_cuda_mlp_s_epoch_took_ms_lines_are_epoch_3(tmp_path: Path) -> None:
    """``Epoch 1 took 844 ms`` to ``Epoch 3 took 843 ms``: epoch 3, no total, 843 ms as printed, no rate (2.53 s)."""
    data = read_cold(tmp_path, body("generic-cuda-mlp-readme-epoch-took-ms-lines-only-epochs-1-3.log"))
    training = data["training"]
    assert (training["step"], training["total_steps"], training["step_unit"]) == (3, None, "epoch")
    assert training["step_seconds"] == pytest.approx(0.843)
    assert training["steps_per_hour"] is None and not training["finished"]


@pytest.mark.parametrize(("name", "printed"), [
    # (nnU-Net v1: ``This epoch took 75.091225 s``, epoch 10's, as epoch 11 trains; the dates give 1 min 4 s)
    ("generic-nnunet-issue1084-epochs-9-to-11-this-epoch-took-train-validation-loss-dice.log",
     "epoch 10 took 1 min 15 s (as printed)"),
    # (nnFormer on the same trainer: epoch 0's 110.988639 s, the dates 1 min 44 s)
    ("generic-nnformer-issue102-epoch-0-this-epoch-took-then-epoch-1-train-validation-loss.log",
     "epoch 0 took 1 min 51 s (as printed)"),
    # (nnU-Net v2: ``Epoch time: 134.63 s``, epoch 1's, as epoch 2 trains; the dates give 135.5 s)
    ("generic-nnunet-v2-issue2140-epoch-time-printed-beside-dates-epochs-0-1-then-epoch-2-losses.log",
     "epoch 1 took 2 min 15 s (as printed)"),
])
def test_an_epoch_time_printed_is_shown_alone_never_beside_the_dates(tmp_path: Path, name: str, printed: str) -> None:
    """Two epoch times side by side, the trainer's printed one and the one between the lines' dates (its evaluation and
    save in it): the printed one alone, said whose."""
    details = read_cold(tmp_path, body(name), dated=True)["details"]
    assert printed in details
    assert not any("from the lines' times" in line or "measured from" in line.split("·")[0] and line.startswith("epoch")
                   for line in details)


def test_an_epoch_measured_by_the_dates_is_shown_where_none_is_printed(tmp_path: Path) -> None:
    """nnU-Net v2's blocks with their ``Epoch time:`` lines left out: the dates' epoch, 09:41:40.307 to 09:43:55.817,
    135.5 s (2 min 16 s), is the one shown."""
    lines = [line for line in body("generic-nnunet-v2-issue2140-epoch-time-printed-beside-dates-epochs-0-1-then-epoch-2-"
                                   "losses.log") if "Epoch time" not in line]
    details = read_cold(tmp_path, lines, dated=True)["details"]
    assert any(line.startswith("epoch 2 min 16 s (measured from the lines' times)") for line in details)


def test_epoch_times_alone_end_at_the_trainer_s_first_step_record(tmp_path: Path) -> None:
    """Two epoch times alone, then the trainer's own step records: the epoch time after them is epoch 3's, said as such,
    and the position stays step 310 with its loss 2.05 (not a step ``epoch 3`` with no loss)."""
    data = read_cold(tmp_path, ["Epoch 1 took 10.0 s", "Epoch 2 took 10.5 s", "step 300 loss 2.10", "step 310 loss 2.05",
                                "Epoch 3 took 10.2 s"])
    training = data["training"]
    assert data["status_line"].startswith("step 310 ")
    assert training["step"] == 310 and training.get("step_unit") is None
    assert training["loss"] == pytest.approx(2.05)
    assert any("epoch 3 took 10.20 s" in line for line in data["details"])
