"""An epoch given with how far through it the line is, in per cent (``Epoch 1 complete [80%]    Loss: 1.516035``): the
position is the epoch and that share of it, never a count of steps nor the run's share. Composed lines in the shape of
tests/data/real/generic-music-avqa-r-issue1-…, the answers worked out by hand."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep
from tests.coldread import read_cold
from tests.reallogs import body


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_the_real_lines_are_epoch_one_and_its_share() -> None:
    got = steps(body("generic-music-avqa-r-issue1-epoch1-percent-complete-0-to-80-bracketed-logger-prefix.log"))
    assert [s.epoch_percent for s in got] == [0, 10, 20, 30, 40, 50, 60, 70, 80]
    assert {(s.step, s.epoch, s.total_steps, s.progress_percent) for s in got} == {(1, 1, None, None)}
    assert got[-1].loss == 1.516035


def test_other_shapes_of_the_share() -> None:
    got = steps(["Epoch 3 [45%]\tloss: 0.5123", "epoch 3/10 [50%] loss: 0.5011", "Train Epoch 4 complete [0%] Loss: 0.49"])
    # (the epochs' total printed is no total the line reaches: epoch 10/10 at 45 % is not the run's end)
    assert [(s.epoch, s.epoch_percent, s.total_steps) for s in got] == [(3, 45, None), (3, 50, None), (4, 0, None)]
    assert got[1].epoch_total == 10


def test_a_count_in_brackets_is_no_share() -> None:
    # the PyTorch examples' samples of the epoch with their percentage; timm's batches; a share over 100
    got = steps(["Train Epoch: 1 [12800/60000 (21%)]\tLoss: 0.29", "Epoch 1 [ 10/250] loss: 0.3",
                 "Epoch 2 [180%] loss: 0.3"])
    assert got and all(s.epoch_percent is None for s in got)


def _lines(epochs: dict[int, range]) -> list[str]:
    """A line every 31.5 s, every 10 % of an epoch, in the real log's shape."""
    at, out = dt.datetime(2024, 7, 6, 6, 40, 54, 438000), []
    for epoch, shares in epochs.items():
        for share in shares:
            stamp = f"{at:%Y-%m-%d %H:%M:%S},{at.microsecond // 1000:03d}"
            out.append(f"[{stamp}]-[engine.py line:78]:Epoch {epoch} complete [{share}%]    Loss: 1.500000 ")
            at += dt.timedelta(seconds=31.5)
    return out


def test_an_epoch_s_time_is_from_one_epoch_s_start_to_the_next_s(tmp_path: Path) -> None:
    """Epoch 1 at 0..90 % and epoch 2 at 0..30 %, 31.5 s apart: an epoch took 10 x 31.5 = 315 s; no run total, no ETA."""
    data = read_cold(tmp_path, _lines({1: range(0, 100, 10), 2: range(0, 40, 10)}), mtime=1_720_248_500.0, dated=True)
    assert data["status_line"] == "epoch 2 · 30% of the epoch · …"
    training = data["training"]
    assert training is not None
    assert training["step_seconds"] == 315.0
    assert training["total_steps"] is None and training["eta_seconds"] is None
    assert "epoch 5 min 15 s (measured from the lines' times)" in data["details"]
