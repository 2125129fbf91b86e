"""Every figure a step run shows rests on the log, and where the log holds two kinds of evidence for one
figure (a printed time and the log's own dates, a printed time left and the steps left at the log's pace)
they agree, or the rule the docs give decides (docs/figures.md, "When the log's own evidence disagrees").

Real excerpts (their sources in their headers) and composed logs whose answers are worked out by hand,
read cold as ``run.py once --at end`` does.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import to_json
from tests.coldread import T0, read_cold
from tests.reallogs import body


def read(tmp_path: Path, lines: list[str], mtime: float = T0) -> dict[str, Any]:
    """The snapshot of ``lines`` read cold, at the last line's time."""
    return read_cold(tmp_path, lines, mtime=mtime, dated=True)


def clock(seconds: float) -> str:
    """A python logging time ``seconds`` after 2024-03-01 10:00:00 local."""
    base = time.mktime((2024, 3, 1, 10, 0, 0, 0, 0, -1)) + seconds
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(base)) + f",{round(base % 1 * 1000):03d}"


def flair(at: float, step: int, seconds: float) -> str:
    """flair's trainer line (flairNLP/flair PR #2983): ``time (sec)`` is the epoch's elapsed time."""
    return (f"{clock(at)} epoch 1 - iter {step}/1000 - loss 0.90000000 - time (sec): {seconds:.2f} - "
            "samples/sec: 80.00 - lr: 0.000030")


def speed_line(data: dict[str, Any]) -> str:
    return next(line for line in data["details"] if line.startswith("step "))


# --- a printed duration the log's own dates contradict -------------------------------------------------


def test_flair_s_elapsed_in_epoch_is_no_step_time_by_the_log_s_own_dates(tmp_path: Path) -> None:
    """The real excerpt: ``time (sec)`` 5.65, 10.81, 16.01, 20.98 at iters 122, 244, 366, 488, dated
    11:14:32,333 … 11:14:47,662. The second line's 10.81 s a step × 122 steps = 1,319 s, where its date
    is 5.162 s after the first: no step's time. By the dates: 15.329 s over 366 iterations = 41.9 ms."""
    name = "generic-flair-pr2983-epoch-iter-of-1227-dash-fields-time-sec.log"
    data = read(tmp_path, body(name))
    training = data["training"]
    assert data["status_line"] == "epoch 1 · 488/1227 in the epoch · …"
    assert training["step_seconds"] == pytest.approx((47.662 - 32.333) / 366, rel=1e-3)
    assert speed_line(data) == "step 42 ms (measured from the lines' times)"  # not "(as printed)": the printed field is not a step's time


def test_two_lines_are_enough_for_the_dates_to_overrule_a_printed_time(tmp_path: Path) -> None:
    """Lines 5 s apart at iters 100 and 200, ``time (sec)`` 5.00 then 10.00 (the reader takes a bare time as
    a step's until three lines show it growing): 100 × 10 s cannot fit in 5 s; 5 s / 100 = 50 ms."""
    data = read(tmp_path, [flair(0, 100, 5.0), flair(5, 200, 10.0)])
    assert data["training"]["step_seconds"] == pytest.approx(0.05, rel=1e-6)
    assert speed_line(data) == "step 50 ms (measured from the lines' times)"


def test_a_printed_time_the_dates_allow_is_the_trainer_s_own(tmp_path: Path) -> None:
    """0.05 s a step × 100 steps = 5 s, the dates 5 s apart: it agrees, and is said to be printed."""
    data = read(tmp_path, [flair(0, 100, 0.05), flair(5, 200, 0.05)])
    assert data["training"]["step_seconds"] == pytest.approx(0.05, rel=1e-6)
    assert speed_line(data) == "step 50 ms (as printed)"


def test_lines_stamped_in_one_burst_say_nothing_against_a_printed_time(tmp_path: Path) -> None:
    """Three lines dated 20 ms apart (a buffered pipe's lines stamped as they were written), each 10 iters
    of 0.5 s: the dates are less than a second apart, so they judge nothing: 0.5 s a step, as printed."""
    lines = [flair(0.02 * n, 10 * (n + 1), 0.5) for n in range(3)]
    data = read(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(0.5, rel=1e-6)
    assert speed_line(data) == "step 500 ms (as printed)"


# --- a printed time left the log's own steps left and pace contradict ---------------------------------


def llamafactory(step: int, elapsed: str, remaining: str) -> str:
    """LLaMA-Factory's trainer_log.jsonl record (6566 steps planned)."""
    return (f'{{"current_steps": {step}, "total_steps": 6566, "loss": 0.39, "lr": 1e-06, "epoch": 5.3, '
            f'"percentage": {step / 65.66:.2f}, "elapsed_time": "{elapsed}", "remaining_time": "{remaining}"}}')


def paced_records(remaining: list[str]) -> list[str]:
    """Records every 10 steps, 150 s apart (15 s a step), from step 5010 at 0:02:30."""
    return [llamafactory(5010 + 10 * n, f"0:{150 * (n + 1) // 60:02d}:{150 * (n + 1) % 60:02d}", left)
            for n, left in enumerate(remaining)]


def test_a_printed_time_left_that_fits_the_steps_left_is_shown_beside_tokwatch_s(tmp_path: Path) -> None:
    """At step 5050: 1516 steps left at 15 s = 22,740 s (6 h 19 min); the trainer prints 6:20:00."""
    data = read(tmp_path, paced_records(["6:30:00", "6:28:00", "6:25:00", "6:22:00", "6:20:00"]))
    training = data["training"]
    assert training["eta_seconds"] == pytest.approx(1516 * 15, rel=1e-3)
    assert training["trainer_eta_seconds"] == 6 * 3600 + 20 * 60
    assert "ETA 6 h 19 min (tokwatch) · 6 h 20 min (trainer)" in data["details"]


def test_a_printed_time_left_the_steps_left_contradict_is_left_out(tmp_path: Path) -> None:
    """The same run printing 0:03:42 left (LLaMA-Factory after a resume: its session's steps only): 222 s
    against 22,740 s, a hundred times apart: tokwatch's stays, the printed one is left out and said so."""
    data = read(tmp_path, paced_records(["0:00:49", "0:01:33", "0:02:14", "0:02:56", "0:03:42"]))
    training = data["training"]
    assert training["eta_seconds"] == pytest.approx(1516 * 15, rel=1e-3)
    assert training["trainer_eta_seconds"] is None
    # 1516 steps × 15 s = 22,740 s = 6 h 19 min 00 s; the trainer's 0:03:42 to the second under 10 min
    assert ("ETA 6 h 19 min (tokwatch) · the trainer's 3 min 42 s left out: it does not fit the steps left at this "
            "pace" in data["details"])


def test_a_run_that_stopped_short_of_its_total_has_no_time_left(tmp_path: Path) -> None:
    """A parameter-golf record stops on its wall-clock cap at step 6530 of 10000: the run is over, nothing is
    left to run (its 3,470 planned steps are not a time left, at any pace)."""
    data = read(tmp_path, body("stopself-parameter-golf-ternary-custom-keys-wallclock-cap-final-sliding.log"))
    assert data["status_line"] == "done · stopped early at step 6530/10000"
    assert data["training"]["eta_seconds"] is None
    assert data["training"]["trainer_eta_seconds"] is None


# --- no step yet, timed by the log's own dates --------------------------------------------------------


def announced_then_quiet(last_seconds: float) -> list[str]:
    """HF's ``Running training`` at 10:00:05, a bar at 0 (no step done), then lines dated up to ``last_seconds``."""
    return [
        f"{clock(0)} - INFO - Loading checkpoint shards",
        f"{clock(5)} - INFO - ***** Running training *****",
        "  0%|          | 0/58 [00:00<?, ?it/s]",
        f"{clock(180)} - INFO - compiling graph 1",
        f"{clock(last_seconds)} - INFO - compiling graph 2",
    ]


def test_no_first_step_line_twelve_minutes_after_training_started_is_a_wait(tmp_path: Path) -> None:
    """The dates say 10:00:05 → 10:12:30: 12 min 25 s without a step line is said, and is no stall yet: a log
    may print only every N steps (HF's dicts every 500), so a stall waits for the hour."""
    data = read(tmp_path, announced_then_quiet(750))
    assert (data["status_line"], data["state"]) == ("waiting for first step", "working")
    assert data["training"]["stalled"] is False
    assert ("waiting for the first training step: 12 min since training started (a stall after 1 h 00 min)"
            in data["details"])


def test_no_first_step_line_an_hour_after_training_started_is_a_stall(tmp_path: Path) -> None:
    """10:00:05 → 11:01:05 by the log's own dates: 61 min without a step line is stalled."""
    data = read(tmp_path, announced_then_quiet(3665))
    assert (data["status_line"], data["state"]) == ("no step yet · stalled 1h01m", "stalled")
    assert data["training"]["stalled"] is True


# --- an epoch's count that starts again is the same run ---------------------------------------------------


def mmdet_epochs() -> list[str]:
    """mmdet's text log: epoch 12 every 50 iters of 6.9 s (345 s apart) from 350 to 600 of 643, then epoch 13's
    first line at 50/643, 93 iters later (43 to the epoch's end, 50 in the next) plus a 72 s checkpoint."""
    lines, at = [], 0.0
    for it in range(350, 650, 50):
        lines.append(f"{clock(at)} - mmdet - INFO - Epoch [12][{it}/643]\tlr: 9.926e-03, time: 6.900, "
                     "data_time: 0.010, memory: 8932, loss: 2.7465")
        at += 345
    at += 93 * 6.9 + 72 - 345
    lines.append(f"{clock(at)} - mmdet - INFO - Epoch [13][50/643]\tlr: 9.923e-03, time: 6.900, "
                 "data_time: 0.010, memory: 8932, loss: 2.7458")
    return lines


def test_an_epoch_s_first_line_goes_on_measuring_the_run(tmp_path: Path) -> None:
    """The new epoch's count is no new run: its first line counts the 93 iterations since the last one, timed
    at 6.9 s each (641.7 s); the 72 s checkpoint between the epochs is a pause, so the rate is measured from
    those iterations: 93 / 641.7 s = 521.7 iterations/h (3600 / 6.9), not "measuring" from scratch; the
    epoch's 593 iterations left at that pace end in 4,091.7 s."""
    data = read(tmp_path, mmdet_epochs())
    training = data["training"]
    assert (data["status_line"], data["state"]) == ("epoch 13 · 50/643 in the epoch · 521 steps/h", "training")
    assert training["steps_per_hour"] == pytest.approx(3600 / 6.9, rel=1e-3)
    assert training["eta_seconds"] == pytest.approx(593 * 6.9, rel=1e-3)
    assert "Epoch ends in 1 h 08 min (tokwatch)" in data["details"]


def keras_epochs(per_step: list[str], stop: bool = False) -> list[str]:
    """Keras 3: ``Epoch N/50`` and each epoch's one-batch bar with its time per step."""
    lines = []
    for n, took in enumerate(per_step, start=1):
        lines += [f"Epoch {n}/50", f"1/1 ━━━━━━━━━━━━━━━━━━━━ 0s {took}/step - loss: {100 - n:.4f} - learning_rate: 0.1000"]
    return lines + ([f"Epoch {len(per_step)}: early stopping"] if stop else [])


def test_a_keras_run_stopped_early_says_the_epoch_it_stopped_at(tmp_path: Path) -> None:
    """Eight epochs of one batch each, then ``Epoch 8: early stopping``: eight steps read (one an epoch, not
    one in all), and the stop said at epoch 8 of 50, not at "step 1"."""
    data = read(tmp_path, keras_epochs(["150ms"] * 8, stop=True))
    assert (data["status_line"], data["state"]) == ("done · stopped early at epoch 8/50 · 1/1 in the epoch", "done")
    assert "Stopped early at epoch 8 of 50: Epoch 8: early stopping" in data["details"]
    assert "no rate: 8 step lines over less than 3 min of its own time" in data["details"]


def test_a_step_time_under_ten_milliseconds_keeps_two_figures(tmp_path: Path) -> None:
    """Keras' ``760us/step`` is 0.76 ms, never rounded to "1 ms"."""
    data = read(tmp_path, keras_epochs(["760us"] * 3))
    assert data["training"]["step_seconds"] == pytest.approx(0.00076, rel=1e-6)
    assert speed_line(data) == "step 0.76 ms (as printed)"


# --- an end with no step line, and dicts that carry no step number ------------------------------------------


def test_the_trainer_s_summary_alone_is_a_finished_run_with_no_step(tmp_path: Path) -> None:
    """HF's end-of-training dict with nothing before it (simple-llm-finetuner #27's paste): the run is over;
    no step, no rate, no count of steps (``5.8012 × 1.207`` would be an inference)."""
    data = read(tmp_path, [("{'train_runtime': 5.8012, 'train_samples_per_second': 1.207, 'train_steps_per_second': "
                           "1.207, 'train_loss': 2.129377910069057, 'epoch': 1.0}")])
    assert (data["status_line"], data["state"]) == ("done · no step line", "done")
    assert data["step"] is None and data["training"]["step"] is None
    assert data["training"]["finished"] is True
    assert "no rate: the log holds the run's end, no step line" in data["details"]
    assert ("Finished: train_runtime 5.8012, train_samples_per_second 1.207, train_steps_per_second 1.207, "
            "train_loss 2.129377910069057, epoch 1.0") in data["details"]  # its only figures, whole


def test_a_count_of_logged_dicts_is_not_shown_as_a_step(tmp_path: Path) -> None:
    """Six HF dicts without a bar (one every 25 % of an epoch): the table says 6 logged records, no step."""
    dicts = [f"{{'loss': {10.0 - n:.4f}, 'grad_norm': 50.0, 'learning_rate': 4e-05, 'epoch': {0.25 * n}}}"
             for n in range(1, 7)]
    data = read(tmp_path, dicts)
    rows = {row["label"]: row["value"] for row in data["training_fields"]}
    assert rows.get("logged records") == "6" and "step" not in rows
    assert "Stage train · epoch 1.5 (6 logged records: no step number read)" in data["details"]


def test_a_step_0_line_of_evaluations_alone_is_no_training_step(tmp_path: Path) -> None:
    """verl validates before it trains: ``step:0`` with only ``val-*`` figures (volcengine/verl #2060's shape).
    Nothing trained yet: no step done, no pause for an evaluation, no rate."""
    data = read(tmp_path, ["step:0 - val-aux/openai/gsm8k/reward/mean@1:0.565 - val-core/openai/gsm8k/acc/mean@1:0.508"])
    assert (data["status_line"], data["state"]) == ("validation only · step 0", "working")
    assert data["training"]["paused"] is None and data["training"]["steps_per_hour"] is None
    assert "Only validation lines so far, no training step: val-core/openai/gsm8k/acc/mean@1 0.508" in data["details"]


def test_a_pause_for_an_evaluation_is_said_once_the_next_line_is_late(tmp_path: Path) -> None:
    """nanoGPT every 10 iters of 100 ms (1 s between lines), then ``step 1000``'s evaluation: read at that line,
    nothing has waited (no "Paused"); 30 s on, the next line is 29 s later than usual: paused for the evaluation."""
    lines = [f"iter {n}: loss {3.0 - n / 1000:.4f}, time 100.00ms, mfu 3.00%" for n in range(900, 1000, 10)]
    lines.append("step 1000: train loss 0.6846, val loss 1.2164")
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    at_the_line: dict[str, Any] = json.loads(to_json(monitor.snapshot(T0)))
    later: dict[str, Any] = json.loads(to_json(monitor.snapshot(T0 + 30)))
    assert not any(line.startswith("Paused:") for line in at_the_line["details"])
    assert "Paused: evaluation (30 s since the last step)" in later["details"]


# --- a throughput printed, no step's time -----------------------------------------------------------------


def test_a_printed_throughput_is_shown_and_named_where_no_step_time_is_read(tmp_path: Path) -> None:
    """OpenNMT/OpenNMT#85 and harvardnlp/data2text#9 (OpenNMT's Lua trainer and its fork): undated lines that print the
    source (or target) tokens a second and no duration: the throughput is shown as printed, and the line that says no
    step's time was read names it."""
    for name, rate, lines in (
            ("generic-opennmt-lua-issue85-epoch-1-iterations-10-40-of-183-source-tokens-per-s.log", "491 tok/s", 4),
            ("generic-data2text-issue9-opennmt-lua-epochs-1-3-iter-of-213-target-tokens-validation-perplexity.log",
             "1.3k tok/s", 12)):
        data = read_cold(tmp_path, body(name), name=name)
        assert rate in data["details"]
        assert (f"no timing read from this log ({lines} step lines, its tokens a second printed, no duration or time "
                "read): measured as lines arrive") in data["details"]
