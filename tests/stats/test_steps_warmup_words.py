"""The warm-up's words claim no span of the log's time the log does not hold.

The dicts are the ones of tests/data/real/hf-trl-issue733-dicts-only.log (TRL issue #733): undated,
so a file read at once gives its lines no time apart; a printed step time does (nanoGPT issue #110).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.stats.events import TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report as step_report
from tests.reallogs import body

DICTS = [line.rstrip() for line in body("hf-trl-issue733-dicts-only.log")]
ITERS = [line.rstrip() for line in body("generic-custom-nanogpt-issue110-iter-loss-time.log") if line.startswith("iter ")]
T0 = time.mktime((2024, 5, 1, 12, 0, 0, 0, 0, -1))


def warmup_text(tmp_path: Path, lines: list[str]) -> str | None:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    return monitor.snapshot(T0).warmup.text


def test_one_undated_record_claims_no_seconds_observed(tmp_path: Path) -> None:
    assert warmup_text(tmp_path, DICTS[:1]) == "measuring: 1 of 2 logged records"


def test_undated_records_read_at_once_claim_no_seconds_observed(tmp_path: Path) -> None:
    """Two dicts arrive together: the log says nothing of the time between them, so no ``0 s of 3 min``."""
    text = warmup_text(tmp_path, DICTS[:2])
    # Nor a count-down to a rate: no record is timed, so none is due from them.
    assert text == "no timing read from this log (no duration or time read for its logged records): measured as lines arrive"


def test_a_printed_step_time_is_time_observed(tmp_path: Path) -> None:
    """``time 561.94ms`` + ``time 563.15ms``: 1.1 s of the run's own time, said."""
    assert warmup_text(tmp_path, ITERS[:2]) == "measuring: 2 of 3 steps · 1 s of 3 min — rate in about 3 min"


def test_more_steps_than_the_count_needed_are_counted_as_seen(tmp_path: Path) -> None:
    """Ten undated lines of 4 s each (tinygrad's ``N 4.00 s run, … loss``): 10 steps seen over 40 s of the run's own
    time, the time still short of 3 min; not "3 of 3 steps"."""
    lines = [f"{n:5d} 4.00 s run, 11.8750 loss, 0.000000000001 LR, 642.43 GB used,  19644.30 GFLOPS" for n in range(1, 11)]
    assert warmup_text(tmp_path, lines) == "measuring: 10 steps · 40 s of 3 min — rate in about 2 min"


def paddlenlp(progress: StepProgress) -> None:
    """The dicts and the bar as a cold start applies an undated log: no time but the last line's (the file's)."""
    for k, step in enumerate(range(150, 210, 10)):
        progress.apply(TrainStep(None, "train", step, loss=0.12, epoch=2.0 + k * 0.13), T0 if step == 200 else None)
    progress.apply(TrainStep(None, "train", 200, total_steps=600, step_seconds=1 / 3.37, elapsed_seconds=71.0), T0)


def test_a_step_printed_again_with_its_timing_is_printed_timing() -> None:
    """PaddleNLP PR #1761 (undated): dicts at global_step 150..200, then the bar at the same step 200
    ``200/600 [01:11<01:58, 3.37it/s]``: the log prints timing, so no "no timing read from this log"."""
    progress = StepProgress()
    paddlenlp(progress)
    report = step_report(progress, T0)
    assert not any(line.startswith("no timing read from this log") for line in report.details)
    assert report.status_line.startswith("step 200/600")


def test_untimed_lines_some_steps_apart_are_no_first_line() -> None:
    """The same six dicts 10 steps apart (an undated log) and the bar's 297 ms a step:
    no "step 200 suggests a line every 200 steps … until a second step line" — six lines are there."""
    progress = StepProgress()
    paddlenlp(progress)
    details = step_report(progress, T0).details
    assert not any("until a second step line" in line for line in details)


def test_one_untimed_line_keeps_the_first_line_guess() -> None:
    """A single line at step 200 with its step time: the limit still rests on the step number, and says so."""
    progress = StepProgress()
    progress.apply(TrainStep(None, "train", 200, total_steps=600, step_seconds=1 / 3.37), T0)
    details = step_report(progress, T0).details
    assert any(line.startswith("Stall limit 5 min until a second step line: step 200 suggests") for line in details)


def test_a_full_epoch_bar_says_no_time_left_for_its_epoch(tmp_path: Path) -> None:
    """Lightning's epoch 9 bar at 195/195 ``[01:59<00:00, 1.64it/s]`` (tests/data/real, novae issue #27): the
    epoch's steps are done, so no "Epoch ends in 0 s"; and 0.61 s observed (one printed step) is no "0 s"
    (the wait for the rate is still said)."""
    lines = [line.rstrip("\n") for line in body("generic-lightning-novae-issue27-epoch-end-bar.log")]
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    snapshot = monitor.snapshot(T0)
    assert snapshot.status_line == "epoch 9 · 195/195 in the epoch · …"
    assert not any(line.startswith(("Epoch ends in", "ETA")) for line in snapshot.details)
    assert snapshot.training is not None and snapshot.training.trainer_eta_seconds is None
    assert snapshot.warmup.text == "measuring: 1 of 3 steps — rate in about 3 min"


def _read_at_end(tmp_path: Path, lines: list[str]) -> str | None:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    now = monitor.last_event_at()
    assert now is not None
    return monitor.snapshot(now).warmup.text


def test_composed_lines_further_apart_than_the_window_are_due_a_line_apart(tmp_path: Path) -> None:
    """Two dated lines 2 h apart: the time observed is capped at the 20-minute window, and 20 min over 2 lines is
    no pace; the third line is due 2 h after the second: ``rate in about 2 h 00 min``, not ``about 10 min``."""
    lines = ["2024-04-30 10:00:00 step 100, loss 2.5", "2024-04-30 12:00:00 step 200, loss 2.4"]
    assert _read_at_end(tmp_path, lines) == "measuring: 2 of 3 steps · 3 min of 3 min — rate in about 2 h 00 min"


def test_an_asr_trainer_s_epochs_hours_apart_are_not_due_in_minutes(tmp_path: Path) -> None:
    """end2end-asr-pytorch #39: epoch 20's line at 09:32:47.406, epoch 21's at 13:55:36.838 (4 h 22 min 49 s later):
    the next epoch's line is due about 4 h 22 min on."""
    lines = body("generic-asr-end2end-issue39-dated-epoch-20-21-train-loss-valid-shuffle-train-4h22m-per-epoch.log")
    assert _read_at_end(tmp_path, lines) == "measuring: 2 of 3 epochs · 3 min of 3 min — rate in about 4 h 22 min"
