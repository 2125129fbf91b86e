"""ESPnet2's trainer lines: the batch count in its epoch, the loss and its parts, the epoch's validation.

A real log (tests/data/real/espnet-*.log, citing its source) and composed lines worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.stats.events import EvalResult, StageEnd, TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body

REAL = "espnet-issue2674-lm-1epoch-train-6376-to-7500-results-valid-loss-then-2-of-20-started.log"


def events(lines: list[str]) -> list[object]:
    return [e for e in create_parser("espnet").feed(lines) if type(e).__name__ != "Tick"]


def line(second: int, epoch: int, first: int, last: int, loss: float) -> str:
    return (f"[gpu01:0/2] 2020-07-19 08:{second // 60:02d}:{second % 60:02d},000 (trainer:464) INFO: "
            f"{epoch}epoch:train:{first}-{last}batch: iter_time=5.6e-05, forward_time=0.134, loss={loss}, "
            f"loss_att={loss - 1}, loss_ctc={loss + 1}, acc=0.134, lr_0=1.710e-05, train_time=1.793")


def test_real_lm_run_s_batches_epoch_validation_and_planned_epochs() -> None:
    got = events(body(REAL))
    steps = [e for e in got if isinstance(e, TrainStep)]
    assert [(s.step, s.epoch, s.loss) for s in steps] == [(6750, 1.0, 2.386), (7125, 1.0, 2.367), (7500, 1.0, 2.339),
                                                          (375, 2.0, 2.313)]
    # the planned epochs come with ``2/20epoch started``; each line's batch count is its epoch's, never the run's total
    assert (steps[-1].epoch_total, steps[-1].total_steps, steps[-1].ends_at_total) == (20, None, False)
    # ``train_time`` is the trainer's seconds an optimizer step (one batch here), said as such
    assert steps[0].lr == 0.1 and steps[0].step_seconds == 0.013
    assert steps[0].step_seconds_note == "train_time as printed, the interval's mean"
    (valid,) = [e for e in got if isinstance(e, EvalResult)]
    assert (valid.name, valid.value, valid.step) == ("valid_loss", 2.387, 7500)
    # the logger's own time dates each line: 16:30:04,578 local
    assert steps[0].at is not None and steps[1].at is not None and steps[1].at - steps[0].at == pytest.approx(5.097)


def test_the_trainer_s_end_line_ends_the_run() -> None:
    end = "[gpu01:0/2] 2020-07-19 09:00:00,000 (trainer:338) INFO: The training was finished at 20 epochs "
    got = events([line(0, 20, 1, 100, 2.0), end])
    assert isinstance(got[-1], StageEnd)


def test_composed_lines_rate_from_the_logger_s_clock_and_losses_in_parts(tmp_path: Path) -> None:
    # 100 batches every 50 s (08:00:00 → 08:03:20): 0.5 s a batch, 7,200 an hour; train_time 1.793 is not it (179 s a
    # line, more than twice the dates' 50 s): the dates time the batches (an optimizer step of accum_grad batches)
    lines = [line(50 * k, 1, 100 * k + 1, 100 * (k + 1), 60.0 - k) for k in range(5)]
    assert detect(lines) == "espnet"
    data = read_cold(tmp_path, lines, at=T0)
    assert data["format"] == "espnet"
    training = data["training"]
    assert (training["step"], training["loss"]) == (500, 56.0)
    assert training["step_seconds"] == pytest.approx(0.5, rel=1e-3)
    assert data["status_line"].startswith("epoch 1 · 500 in the epoch")
    assert "Losses loss_att 55 · loss_ctc 57" in data["details"]
