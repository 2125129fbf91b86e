"""Keras' epoch numbering: its headers and its callbacks' messages.

Keras prints ``Epoch 49/200`` as an epoch begins, counted from one; that epoch's bar follows. Its callbacks print their
own ``Epoch 00003: val_loss did not improve …``, ``Epoch 00005: early stopping`` at an epoch's end, numbered from zero in
Keras 1 (``Epoch 00000`` under ``Epoch 1/10``) and from one in Keras 2: a callback's number is no header and moves no
epoch. After an epoch's full bar, a header naming the next is where the run is: the headline, the details' data line
and the JSON's ``data.epoch`` all say it. ``Epoch N: early stopping`` is the run's end, at the header's epoch.

Real excerpts (tests/data/real, each file's source in its header); the answers worked out here by hand from the lines.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.coldread import T0, read_cold
from tests.reallogs import body

MLBOT = "keras-mlbotsample-readme-keras1-callbacks-from-zero-early-stopping-at-epoch-6-of-10.log"
LOCATOR = "keras-locator-issue23-tf-keras-callback-lines-after-partial-bars-epochs-86-91-of-5000.log"


def read(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    return read_cold(tmp_path, lines, name="run.log", at=T0)


def stage_line(data: dict[str, Any]) -> str:
    return next(line for line in data["details"] if line.startswith("Stage "))


def upto(name: str, last: str) -> list[str]:
    """The real log's lines up to and with the first that is ``last``."""
    lines = body(name)
    return lines[: lines.index(last) + 1]


# --- a header after an epoch's full bar: the epoch under way, in the text and the JSON alike -----------------------


def test_real_keras1_header_after_a_full_bar_is_the_epoch_under_way_in_text_and_json(tmp_path: Path) -> None:
    """keras#8680: epoch 48's full bar ``1562/1562 [====] - 481s - …``, then ``Epoch 49/200``: epoch 49 of 200 under
    way (48 done), said 49 in the headline, the data line and ``data.epoch``, never 48 beside a headline of 49."""
    data = read(tmp_path, body("generic-keras-issue8680-keras1-epoch-times.log"))
    assert data["status_line"].startswith("epoch 49/200")
    assert "Data epoch 49" in data["details"]
    assert data["training"]["data"]["epoch"] == 49


def test_real_keras2_header_after_a_full_bar_is_the_epoch_under_way_in_text_and_json(tmp_path: Path) -> None:
    """PixelLib#59: epoch 16's full bar ``100/100 [====] - 142s 1s/step - …``, then ``Epoch 17/100``: epoch 17."""
    data = read(tmp_path, body("generic-pixellib-issue59-keras-maskrcnn-epochs-batch-size-keys.log"))
    assert data["status_line"].startswith("epoch 17/100")
    assert "Data epoch 17" in data["details"]
    assert data["training"]["data"]["epoch"] == 17


def test_real_tf_keras_header_after_a_full_bar_and_its_callback_is_the_epoch_under_way(tmp_path: Path) -> None:
    """locator#23 up to ``Epoch 91/5000``: epoch 90's full bar, its callback before it, then the header: epoch 91."""
    data = read(tmp_path, upto(LOCATOR, "Epoch 91/5000"))
    assert data["status_line"].startswith("epoch 91/5000")
    assert data["training"]["data"]["epoch"] == 91


# --- a callback's number is no epoch ------------------------------------------------------------------------------


def test_real_keras1_callback_numbered_from_zero_is_not_the_epoch(tmp_path: Path) -> None:
    """ml-bot-sample up to ``Epoch 00003: val_loss did not improve``: that callback closes ``Epoch 4/10`` (Keras 1
    counts its callbacks from zero): epoch 4 of 10, never 3."""
    data = read(tmp_path, upto(MLBOT, "Epoch 00003: val_loss did not improve"))
    assert data["status_line"].startswith("epoch 4/10")
    assert stage_line(data) == "Stage train · epoch 4/10 (40.0%)"
    assert data["training"]["data"]["epoch"] == 4
    assert data["training"]["loss"] == 0.0028


def test_real_tf_keras_callback_after_a_partial_bar_leaves_the_epoch_the_header_s(tmp_path: Path) -> None:
    """locator#23: ``Epoch 91/5000``, its bar at 320/405, then ``Epoch 00091: val_loss did not improve from 0.26629``:
    epoch 91 at 320 of its 405 samples, the best so far (0.26629) no evaluation; the last one epoch 90's full bar's."""
    data = read(tmp_path, body(LOCATOR))
    assert stage_line(data) == "Stage train · epoch 91/5000 · 320/405 samples in the epoch (79.0%)"
    assert data["training"]["data"]["epoch"] == 91
    assert data["training"]["loss"] == 0.0833
    assert data["training"]["eval"] == {"val_loss": {"value": 0.2793, "step": None}}


# --- early stopping: the run's end at the header's epoch ----------------------------------------------------------


def test_real_keras1_early_stopping_ends_the_run_at_the_header_s_epoch(tmp_path: Path) -> None:
    """ml-bot-sample: ``Epoch 00005: early stopping`` after the bar of ``Epoch 6/10``: done, stopped early at epoch 6
    of 10, the callback's 00005 the same epoch counted from zero."""
    data = read(tmp_path, body(MLBOT))
    assert data["status_line"] == "done · stopped early at epoch 6/10"
    assert "Stopped early at epoch 6 of 10: Epoch 00005: early stopping" in data["details"]
    assert data["training"]["finished"] is True
    assert data["training"]["data"]["epoch"] == 6
