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

from typing import Any

import pytest

from app.ingest.formats import create_parser
from app.snapshot import SourceView, training_dict
from app.stats.events import Event, TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report
from app.stats.steps.tracker import StepTracker
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


def test_one_move_is_no_rate_yet_and_no_epoch_s_time() -> None:
    # Epoch 1's three lines and epoch 2's first two: one move, 12 min after the counter was first seen. Epoch 1 began
    # before its first line (each line is printed an interval into it; an excerpt may open mid-epoch), so the 12 min
    # from that line to the move are no whole epoch's: nothing is measured across them, and no epoch's time is shown
    # until an epoch is seen whole, from one move to the next (neither is the 4 min since the line before).
    r = report(_epochs(THREE_A_EPOCH[:5]), T0 + 16 * MIN)
    assert r.status_line == "epoch 2/5 · …"
    assert r.details[0].startswith("measuring: 0 of 3 epochs")
    assert not any(line.startswith("epoch ") and "measured" in line for line in r.details)
    # Once epoch 2 is seen whole (its first line at 12, epoch 3's at 24), its 12 min are the epoch's time.
    later = report(_epochs(THREE_A_EPOCH[:8]), T0 + 28 * MIN)
    assert "epoch 12 min (measured from the lines' times)" in later.details


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


# The stall limit rests on the spacing of the lines, any two in a row (those that print the same position again
# included), never on the time between moves: a dead run is noticed in the time its own lines say (6 × their median).


def _tracked(events: list[TrainStep] | list[Event]) -> StepTracker:
    tracker = StepTracker("generic")
    for event in events:
        tracker.apply(event, event.at, event.at)
    return tracker


def _training(tracker: StepTracker, now: float) -> tuple[str, dict[str, Any]]:
    snap = tracker.snapshot(now, SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0, last_event_at=None))
    assert snap.training is not None
    return snap.state, training_dict(snap.training)


def _dated_epochs(lines: list[tuple[float, int]]) -> list[TrainStep]:
    """Dated lines that print only their epoch (of 10: the next is not the last, whose evaluation may hold it up)."""
    return [TrainStep(T0 + minute * MIN, "train", epoch, total_steps=10, loss=2.0 - minute / 100, epoch=float(epoch))
            for minute, epoch in lines]


@pytest.mark.parametrize(("after_minutes", "stalled"), [(23.0, False), (25.0, True)])
def test_an_epoch_printed_on_three_lines_is_stalled_by_its_lines_spacing(after_minutes: float, stalled: bool) -> None:
    # Lines 4 min apart, the epoch moving every 3rd (12 min): 6 × 4 min = 24 min without a line is a stall (not 6 × the
    # 12 min between moves, 72 min). Read 23 and 25 min after the last line (minute 40).
    state, training = _training(_tracked(_dated_epochs(THREE_A_EPOCH)), T0 + (40 + after_minutes) * MIN)
    assert training["stall_after_seconds"] == 24 * MIN
    assert training["stalled"] is stalled and (state == "stalled") is stalled


@pytest.mark.parametrize(("after_minutes", "stalled"), [(23.0, False), (25.0, True)])
def test_a_counter_that_moves_each_line_keeps_its_stall_limit(after_minutes: float, stalled: bool) -> None:
    # One epoch a line, 4 min apart (the lines' spacing and the moves' the same): 6 × 4 min = 24 min, as ever.
    lines = [(4.0 * k, 1 + k) for k in range(4)]  # epochs 1..4 at minutes 0..12
    state, training = _training(_tracked(_dated_epochs(lines)), T0 + (12 + after_minutes) * MIN)
    assert training["stall_after_seconds"] == 24 * MIN
    assert training["stalled"] is stalled and (state == "stalled") is stalled


def test_a_step_that_moves_every_third_line_is_stalled_by_its_lines_spacing() -> None:
    # "step 500" on three lines 5 min apart, 500 steps more every 15 min: 6 × 5 min = 30 min (not 6 × 15 min, 90 min).
    events = [TrainStep(T0 + 5 * k * MIN, "train", 500 * (1 + k // 3), total_steps=5000, loss=3.0) for k in range(10)]
    tracker = _tracked(events)
    assert _training(tracker, T0 + (45 + 29) * MIN)[1]["stalled"] is False
    state, training = _training(tracker, T0 + (45 + 31) * MIN)
    assert training["stall_after_seconds"] == 30 * MIN and state == "stalled"


# The cut log's epoch lines (dated), the latest 21 gaps between them, 01:09:59 to 03:29:43 (s): 458 459 466 48 427 460
# 465 375 98 468 467 468 237 241 478 478 482 98 404 519 511; their median 460 (01:45:34 -> 01:53:14): 6 × 460 = 2,760 s,
# 46 min. The time between its moves (00:22:10, 00:44:26, 01:14:36, 01:45:34, 02:08:52, 02:40:13, 03:12:33: 1,336 1,810
# 1,858 1,398 1,881 1,940 s), median 1,834 s, gave 6 × 1,834 = 11,004 s (3 h 3 min).
@pytest.mark.parametrize(("gaps", "stalled", "steps_per_hour"), [
    (1, False, 3600 / 1940), (5, False, 3600 / 1940),
    # Overdue: the rate's window moves on as the lines' stall is due (03:29:43 + 2,760 s = 04:15:43, 3,790 s after the
    # move at 03:12:33), to 04:23:23 - 3,790 s = 03:20:13: (03:00:13, 03:20:13] holds 740 of the 1,940 s of the move to
    # epoch 7 (an epoch from 02:40:13), 740/1940 of an epoch in 20 min.
    (7, True, 740 / 1940 * 3),
])  # fmt: skip
def test_paddleocr_cut_mid_run_is_stalled_when_its_lines_spacing_says(gaps: int, stalled: bool,
                                                                      steps_per_hour: float) -> None:
    lines = body(PADDLEOCR)
    cut = next(i for i, line in enumerate(lines) if line.startswith("[2025/07/22 03:29:43]"))
    events = [event for event in create_parser("generic").feed(lines[: cut + 1]) if event.at is not None]
    last = max(event.at for event in events if event.at is not None)
    state, training = _training(_tracked(events), last + gaps * 460.0)
    assert training["stall_after_seconds"] == 2760.0
    assert training["stalled"] is stalled and (state == "stalled") is stalled
    assert training["steps_per_hour"] == pytest.approx(steps_per_hour)
