"""A counter that moves once every several lines is measured between its moves.

Some trainers print their position on every line but move it only now and then: PaddleOCR's ``epoch: [9/10]`` on
each of an epoch's four or five dated lines (no global step, no time of its own), a loop that prints its step on
every line of an interval. Each move's steps took the time since the counter last moved, never only the time since
the line before it (which may have printed the same position again): one epoch spread over that line's few minutes
reads as an epoch every few minutes. The rate's window ends where the counter last moved: the lines after it hold no
step done. Every figure derived from the rate (the step or epoch time, the time left) follows.

Real: tests/data/real/generic-paddleocr-fine-tuning-an-ocr-file-readme-epochs-1-10-of-10-no-global-step-done.log (its
figures at the end are in tests/live/test_real_logs.py; below, cut mid-run). Composed: below, each rate worked out by hand.
"""

from __future__ import annotations

import pytest

from app.ingest.formats import create_parser
from app.stats.events import TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report
from tests.reallogs import body

T0 = 1_700_000_000.0
MIN = 60.0


def _epochs(lines: list[tuple[float, int]]) -> StepProgress:
    """Dated lines that print only their epoch (of 5), at minutes from T0."""
    progress = StepProgress()
    for minute, epoch in lines:
        t = T0 + minute * MIN
        progress.apply(TrainStep(t, "train", epoch, total_steps=5, loss=2.0 - minute / 100, epoch=float(epoch)), t)
    return progress


# Three lines an epoch, 4 min apart: the epoch moves every 12 min (10:00, 10:12, 10:24, 10:36 in minutes 0, 12, ...).
THREE_A_EPOCH = [(4.0 * k, 1 + k // 3) for k in range(11)]  # epochs 1..4, the last line at minute 40 (epoch 4's 2nd)


def test_an_epoch_printed_on_three_lines_is_timed_between_its_moves() -> None:
    # The window ends at the last move (minute 36): (16, 36] holds 8 of the 12 min from the move at 12 to the one at 24
    # (two thirds of an epoch) and all of the one from 24 to 36: 5/3 epochs in 20 min = 5 an hour, 12 min an epoch.
    # (An epoch spread over the 4 min before its move read 2 moves in the window: 6 an hour, "epoch 10 min".)
    r = report(_epochs(THREE_A_EPOCH), T0 + 40 * MIN)
    assert r.status_line == "epoch 4/5 · 5.0 epochs/h"
    assert "epoch 12 min (measured from the lines' times)" in r.details
    assert "ETA 12 min (tokwatch)" in r.details  # 1 epoch left (5 - 4) at 5 an hour


def test_the_lines_after_the_last_move_do_not_drag_the_rate_down() -> None:
    # Read at epoch 4's third line (minute 44), before the next move is due at 48: still 5 an hour, measured to 36.
    progress = _epochs([*THREE_A_EPOCH, (44.0, 4)])
    assert report(progress, T0 + 44 * MIN).status_line == "epoch 4/5 · 5.0 epochs/h"


def test_one_move_is_no_rate_yet_and_its_span_the_epoch_s_time() -> None:
    # Epoch 1's three lines and epoch 2's first two: one move, 12 min after the counter was first seen. The warm-up
    # waits for a third timed line (a second move); the epoch's time is that span, not the 4 min since the line before.
    r = report(_epochs(THREE_A_EPOCH[:5]), T0 + 16 * MIN)
    assert r.status_line == "epoch 2/5 · …"
    assert r.details[0].startswith("measuring: 2 of 3 epochs")
    assert "epoch 12 min (measured from the lines' times)" in r.details


def test_a_step_that_moves_every_third_line_is_timed_between_its_moves() -> None:
    # "step 500" on three lines 5 min apart, 500 steps more every 15 min: 2,000 steps an hour, 1.8 s a step. Read at a
    # move (minute 45): (25, 45] holds 5 of the 15 min from the move at 15 to the one at 30 (a third of 500) and all
    # the 500 from 30 to 45: 666.7 steps in 20 min = 2,000 an hour. (Each move spread over the 5 min before it read
    # 1,000 steps in the window: 3,000 an hour.)
    progress = StepProgress()
    for k in range(10):  # minutes 0..45, the step 500 × (1 + k // 3)
        t = T0 + 5 * k * MIN
        progress.apply(TrainStep(t, "train", 500 * (1 + k // 3), total_steps=5000, loss=3.0), t)
    r = report(progress, T0 + 45 * MIN)
    assert r.status_line == "step 2000/5000 · 2.0k steps/h"
    assert "step 1.80 s (measured from the lines' times)" in r.details


PADDLEOCR = "generic-paddleocr-fine-tuning-an-ocr-file-readme-epochs-1-10-of-10-no-global-step-done.log"


def test_paddleocr_s_epochs_read_mid_run_are_timed_between_their_moves() -> None:
    # Cut after 03:29:43 (epoch 7's third line), read then: measured to epoch 7's move (03:12:33), the 20 min before it
    # inside the move from epoch 6's first line (02:40:13), 1,940 s: 1.856 epochs an hour, 32 min 20 s an epoch; 3 epochs
    # left at that pace, 1 h 37 min (the trainer's own eta 1:33:37 is shown beside it: they agree).
    lines = body(PADDLEOCR)
    cut = next(i for i, line in enumerate(lines) if line.startswith("[2025/07/22 03:29:43]"))
    progress, last = StepProgress(), None
    for event in create_parser("generic").feed(lines[: cut + 1]):
        if event.at is not None:
            last = event.at
        progress.apply(event, event.at)
    assert last is not None
    r = report(progress, last)
    assert r.status_line == "epoch 7/10 · 1.8 epochs/h"  # (the figure's first two digits, as every rate is shown)
    assert r.training is not None and r.training.steps_per_hour == pytest.approx(3600 / 1940)
    assert "epoch 32 min (measured from the lines' times)" in r.details
    assert "ETA 1 h 37 min (tokwatch) · 1 h 34 min (trainer)" in r.details
