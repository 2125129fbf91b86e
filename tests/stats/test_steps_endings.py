"""An ending is a class: a run's last lines that say it stopped read ``done``, and stay so as the clock moves.

Composed logs (figures by hand) and a real excerpt (tests/data/real, its source in its header).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from app.ingest.backwards import read_backwards
from app.ingest.formats.crash import CrashWatch
from app.live.monitor import Monitor
from app.snapshot import to_json
from app.stats.events import StageEnd
from tests.coldread import T0, read_cold
from tests.reallogs import body

TWO_HOURS = 2 * 3600.0


def read_at(tmp_path: Path, lines: list[str], later: float, name: str = "run.log") -> dict[str, Any]:
    """The snapshot ``later`` seconds after the log's last line (undated: written at its modification time)."""
    return read_cold(tmp_path, lines, name=name, at=T0 + later)


def modded(step: int, total: int = 10000) -> str:
    return f"step:{step}/{total} train_loss:3.{step % 7}000 train_time:{step * 92}ms step_avg:92.00ms"


@pytest.mark.parametrize(
    "message",
    [
        "stopping_early: wallclock_cap train_time:599652ms step:6530/10000",
        "Stopping early: reached max_steps",
        "Early stopping triggered at epoch 12",
        "Saved final weights to adapters/adapters.safetensors.",
        "Saving final model to out/final",
        "Final model saved to checkpoints/final.pt",
        "Training complete.",
        "Finished training after 3 epochs",
    ],
)
def test_a_stop_message_is_the_run_s_said_end(message: str) -> None:
    found = CrashWatch().see(message)
    assert [(type(e), e.summary, e.said) for e in found if isinstance(e, StageEnd)] == [(StageEnd, message, True)]


@pytest.mark.parametrize(
    "message",
    ["EarlyStopping counter: 3 out of 10", "final_sliding val_loss:2.9869 val_bpb:1.1565", "done loading data",
     "Stopping the profiler", "step 120 complete"],
)
def test_words_that_do_not_say_the_run_stops(message: str) -> None:
    assert not [e for e in CrashWatch().see(message) if isinstance(e, StageEnd)]


def test_a_run_stopped_on_its_cap_then_evaluated_reads_done_two_hours_later(tmp_path: Path) -> None:
    lines = [modded(n) for n in (1000, 2000, 3000)] + [
        "stopping_early: wallclock_cap train_time:599652ms step:3000/10000",
        "final_int8_roundtrip val_loss:3.0570 val_bpb:1.1837",
    ]
    data = read_at(tmp_path, lines, TWO_HOURS)
    assert (data["state"], data["level"], data["status_line"]) == ("done", "ok", "done · stopped early at step 3000/10000")
    assert data["training"]["stalled"] is False
    assert ("Stopped early at step 3,000 of 10,000: stopping_early: wallclock_cap train_time:599652ms step:3000/10000"
            in data["details"])


def test_a_launcher_s_end_of_run_behind_its_logger_s_name_is_the_end(tmp_path: Path) -> None:
    # PyTorch-Ignite's Parallel launcher says "End of run" once the run's function returned (its tutorials,
    # pytorch-ignite/pytorch-ignite.ai src/tutorials/intermediate/01-cifar10-distributed.md); composed after three
    # steps of a 10,000-step plan: done at 3000 of 10000 two hours on, where without it the run is stalled.
    lines = [modded(n) for n in (1000, 2000, 3000)]
    assert read_at(tmp_path, lines, TWO_HOURS)["state"] == "stalled"
    lines.append("2021-09-14 19:16:23,547 ignite.distributed.launcher.Parallel INFO: End of run")
    data = read_at(tmp_path, lines, TWO_HOURS, "ended.log")
    assert (data["state"], data["status_line"], data["training"]["finished"]) == ("done", "done · step 3000/10000", True)
    assert "Finished: End of run" in data["details"]


def test_a_script_that_turns_to_generate_its_sample_after_its_last_evaluation_is_done(tmp_path: Path) -> None:
    """Composed in the shape of Karpathy's ``gpt.py`` (its evaluation lines every 500 steps, then ``Generating...`` and
    the sample): the loop is over at step 1000, read at once and two hours later; a step after the word undoes it."""
    lines = [f"step {n}: train loss {loss}, val loss {val}" for n, loss, val in
             ((0, "4.2000", "4.2100"), (500, "2.0000", "2.1000"), (1000, "1.5000", "1.7000"))] + ["", "Generating..."]
    for later in (0.0, TWO_HOURS):
        data = read_at(tmp_path, lines, later)
        assert (data["state"], data["status_line"]) == ("done", "done · step 1000"), later
    data = read_at(tmp_path, [*lines, "step 1500: train loss 1.4000, val loss 1.6500"], 0.0, name="on.log")
    assert data["state"] != "done" and data["training"]["step"] == 1500


def test_a_stop_message_that_steps_follow_was_not_the_end(tmp_path: Path) -> None:
    lines = [modded(n) for n in (1000, 2000)] + ["Stopping early: reached max_steps"] + [modded(3000)]
    data = read_at(tmp_path, lines, TWO_HOURS)
    assert data["state"] == "stalled"  # two hours of silence mid-run, after the message was undone by a step


def test_real_speedrun_fork_stopped_on_its_wall_clock_cap(tmp_path: Path) -> None:
    # openai/parameter-golf ternary_log_42.txt: "stopping_early: wallclock_cap … step:6530/10000", then 7 min
    # of final evaluations; read two hours after its last line it is done at 6530 of 10000, not stalled.
    name = "stopself-parameter-golf-ternary-custom-keys-wallclock-cap-final-sliding.log"
    data = read_at(tmp_path, body(name), TWO_HOURS, name)
    assert (data["state"], data["level"], data["status_line"]) == ("done", "ok", "done · stopped early at step 6530/10000")
    assert data["training"]["finished"] is True


@pytest.mark.parametrize(
    ("name", "line"),
    [
        # 200/200 [02:52<00:00]: 200 × 3600 / 172 = 4,186 steps/h, written 4.1k
        ("hf-ipex-llm-qlora-trl-example-runtime-dict-then-bar-then-trainoutput.log",
         "200 steps in 2 min 52 s of the trainer's own clock (4.1k steps/h over the whole run)"),
        # 200/200 [07:16<00:00]: 200 × 3600 / 436 = 1,651 steps/h, written 1.6k
        ("hf-ipex-llm-cpu-qlora-runtime-xxxx-dict-then-bar-then-trainoutput.log",
         "200 steps in 7 min 16 s of the trainer's own clock (1.6k steps/h over the whole run)"),
        # step:8420/20000 … train_time:599992ms: 8,420 × 3600 / 599.992 = 50,521 steps/h (it said "18 steps" before)
        ("parameter-golf-8xh100-fullrun.log",
         "8,420 steps in 9 min 59 s of the trainer's own clock (50k steps/h over the whole run)"),
        # the last line, step:1660/1660 val_loss:3.2769 train_time:154015ms: 1,660 × 3600 / 154.015 = 38,801 steps/h
        ("modded-nanogpt-2025-09-15-no-train-loss.txt",
         "1,660 steps in 2 min 34 s of the trainer's own clock (38k steps/h over the whole run)"),
    ],
)
def test_a_finished_run_too_short_to_measure_gives_its_steps_over_its_own_clock(
    tmp_path: Path, name: str, line: str
) -> None:
    # intel-analytics/ipex-llm README sample outputs: ten loss dicts, the summary dict, then the closing bar
    # and TrainOutput; the dicts are not counted as steps ("1 steps over less than 3 min" before).
    data = read_at(tmp_path, body(name), 0.0, name)
    assert data["status_line"].startswith(("done · step ", "done · stopped early at step "))
    assert data["details"][0] == line
    assert not any("steps over less than" in detail for detail in data["details"])


def test_an_epoch_s_bar_is_not_the_whole_run_s_clock(tmp_path: Path) -> None:
    # Composed Lightning log (tests/data/real, its header): epoch 3's bar 500/500 [02:47] is that epoch alone.
    name = "generic-lightning-composed-cut-v-num-not-in-top-k.log"
    data = read_at(tmp_path, body(name), 0.0, name)
    assert data["state"] == "done"
    assert not any("trainer's own clock" in detail for detail in data["details"])


def test_a_crashed_run_s_rate_is_the_one_at_its_last_step_not_over_the_dead_minutes(tmp_path: Path) -> None:
    # Composed: a step every second, a line every 10 steps from 00:00:10 to 00:03:20 (200 steps), then a
    # watchdog's traceback at 00:10:00. At the last step: 200 steps over 200 s = 3,600 steps/h ("3.6k");
    # a window sliding to the traceback would have spread them over the 6 dead minutes too.
    lines = [f"2026-01-01 00:{n // 60:02d}:{n % 60:02d},000 INFO step {n} | loss 2.{n % 7} | dt 1000.0ms"
             for n in range(10, 201, 10)]
    lines += ["2026-01-01 00:10:00,000 ERROR Traceback (most recent call last):", '  File "/x/train.py", line 10, in <module>',
              "    main()", "RuntimeError: NCCL watchdog timeout"]
    log = tmp_path / "run.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    now = monitor.last_event_at()
    assert now is not None
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(now)))
    assert data["state"] == "crashed"
    assert data["training"]["steps_per_hour"] == pytest.approx(3600.0)
    assert data["details"][1].startswith("Before the crash: 3.6k steps/h")


def dated(n: int) -> str:
    """A step a line, one every 10 s from 2026-01-01 00:00:00 UTC, its duration printed (composed, generic)."""
    at = 10 * n
    return f"2026-01-01 00:{at // 60:02d}:{at % 60:02d},000 INFO step {n} | loss 2.{n % 7} | dt 10000.0ms"


THIRTY = [dated(n) for n in range(1, 31)]  # steps 1..30 at 00:00:10..00:05:00: 30 steps over 300 s = 360 steps/h


def read_dated(tmp_path: Path, lines: list[str], after_last: float, written: str = "00:05:02") -> dict[str, Any]:
    """The snapshot ``after_last`` seconds after the log's last event; its last line was ``written`` (the
    file's modification time: when its undated last lines were written)."""
    log = tmp_path / "run.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    mtime = time.mktime(time.strptime(f"2026-01-01 {written}", "%Y-%m-%d %H:%M:%S"))
    os.utime(log, (mtime, mtime))
    monitor = Monitor(log, clock=lambda: mtime)
    monitor.backlog(read_backwards(log))
    last = monitor.last_event_at()
    assert last is not None
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(last + after_last)))
    return data


@pytest.mark.parametrize(
    "ending",
    [
        "2026-01-01 00:05:02,000 INFO wandb: Run summary:",
        "wandb: 🚀 View run absurd-frog-1 at: https://wandb.ai/someone/babygpt/runs/ysgr3tei",
        "simpx@ThePC:~/buildyourownllm$ ",
        "Process finished with exit code 0",
        "2026-01-01 00:05:02,000 INFO 训练完成",
        "2026-01-01 00:05:02,000 INFO Training complete.",
        "real\t5m2.000s",  # bash's ``time`` once the script exited
        "python train.py  290.10s user 1.20s system 96% cpu 5:02.00 total",  # zsh's
    ],
)
def test_a_run_s_said_end_reads_done_and_keeps_the_rate_of_its_last_steps(tmp_path: Path, ending: str) -> None:
    for later in (0.0, TWO_HOURS):
        data = read_dated(tmp_path, [*THIRTY, ending], later)
        assert (data["state"], data["level"], data["status_line"]) == ("done", "ok", "done · step 30")
        assert data["training"]["stalled"] is False
        # 30 steps over the 300 s they took: 360 steps/h, never a window slid over the quiet after them
        assert data["training"]["steps_per_hour"] == pytest.approx(360.0)
        assert not any(line.startswith(("Stalled:", "ETA ")) for line in data["details"])


ONE_DAY = 24 * 3600.0


@pytest.mark.parametrize("after", [[], ["Test Acc: 0.91"]])
def test_time_s_report_after_an_epoch_loop_with_no_end_word_is_the_end_a_day_later_too(
        tmp_path: Path, after: list[str]) -> None:
    # A custom loop that prints no total and no end word, run under ``time python train.py`` (composed): the report
    # says the process is over, at its last epoch; a day of quiet after it neither warns nor stalls.
    lines = ["epoch 1, loss 0.6931", "epoch 2, loss 0.5123", "epoch 3, loss 0.4012", *after, "",
             "real\t12m3.200s", "user\t11m50.100s", "sys\t0m5.300s"]
    for later in (0.0, ONE_DAY):
        data = read_at(tmp_path, lines, later)
        assert (data["state"], data["level"], data["status_line"]) == ("done", "ok", "done · epoch 3")
        assert "Finished: real\t12m3.200s" in data["details"]
        assert data["training"]["stalled"] is False and data["training"]["loss"] == 0.4012
    # the same loop with no report after it: nothing says it ended
    assert read_at(tmp_path, lines[:3], 0.0)["state"] != "done"


def test_a_save_alone_is_the_end_once_the_next_step_is_overdue(tmp_path: Path) -> None:
    lines = [*THIRTY, "2026-01-01 00:05:01,000 INFO Model saved to out/model.pt"]
    # 1 s after the save, the next step (every 10 s) is not due yet: a save mid-run looks the same
    soon = read_dated(tmp_path, lines, 1.0)
    assert (soon["state"], soon["status_line"]) == ("training", "step 30 · 360 steps/h")
    assert soon["training"]["finished"] is False
    # 4 min later: past the stall limit (6 × 10 s, at least 90 s) but a mid-run save's evaluation may still run
    assert read_dated(tmp_path, lines, 240.0)["state"] == "training"
    # no step for longer than the stall limit and 5 min: that save was the end, not a stall
    for later in (301.0, TWO_HOURS):
        data = read_dated(tmp_path, lines, later)
        assert (data["state"], data["status_line"]) == ("done", "done · step 30")
        assert "Finished: Model saved to out/model.pt" in data["details"]
        assert data["training"]["finished"] is True
        assert data["training"]["stalled"] is False and data["training"]["steps_per_hour"] == pytest.approx(360.0)


def test_a_save_that_a_step_follows_was_a_mid_run_save(tmp_path: Path) -> None:
    lines = [*THIRTY, "2026-01-01 00:05:01,000 INFO Model saved to out/model.pt", dated(31)]
    data = read_dated(tmp_path, lines, TWO_HOURS)
    assert (data["state"], data["status_line"]) == ("stalled", "step 31 · stalled 2h00m")


KEYBOARD_INTERRUPT = ["Traceback (most recent call last):", '  File "/x/train.py", line 300, in <module>',
                      "    main()", "KeyboardInterrupt"]


def test_a_run_stopped_by_hand_reads_stopped_as_the_clock_moves(tmp_path: Path) -> None:
    # Ctrl-C six minutes after the last step (00:11:00): stopped at step 30, its rate as at that step (360/h)
    lines = [*THIRTY, "2026-01-01 00:11:00,000 INFO ^C", *KEYBOARD_INTERRUPT]
    for later in (0.0, TWO_HOURS, 86400.0):
        data = read_dated(tmp_path, lines, later, written="00:11:00")
        assert (data["state"], data["level"], data["status_line"]) == ("stopped", "warning", "step 30 · stopped by hand")
        assert data["details"][:2] == ["Stopped by hand at step 30: KeyboardInterrupt",
                                       "Before it stopped: 360 steps/h (over 5 min) · tokens per step not printed"]
        assert data["training"]["stalled"] is False and data["training"]["eta_seconds"] is None
        assert not any(line.startswith(("Stalled:", "Crashed", "Training had reached")) for line in data["details"])
        assert [e["kind"] for e in data["events"]] == ["stopped"]


@pytest.mark.parametrize(
    ("death", "state"),
    [
        # an error of its own first, then the user's Ctrl-C on the hung run: a crash
        (["Traceback (most recent call last):", '  File "/x/train.py", line 300, in <module>', "    main()",
          "RuntimeError: NCCL watchdog timeout", "^C"], "crashed"),
        # a Ctrl-C first, then a DataLoader worker dying of it: a stop
        ([*KEYBOARD_INTERRUPT, "Traceback (most recent call last):", '  File "/x/loader.py", line 9, in <module>',
          "RuntimeError: DataLoader worker (pid 4242) exited unexpectedly"], "stopped"),
        # SIGTERM from outside: stopped, said so; SIGKILL (the OOM killer): a crash
        (["Terminated"], "stopped"),
        (["Killed"], "crashed"),
    ],
)
def test_the_first_line_that_says_how_the_run_ended_decides(tmp_path: Path, death: list[str], state: str) -> None:
    data = read_dated(tmp_path, [*THIRTY, *death], TWO_HOURS)
    assert data["state"] == state


def test_a_bar_at_step_0_says_how_long_it_has_waited_then_stalls(tmp_path: Path) -> None:
    # Composed, verl's bar: 0 of 58 after 2 minutes by its own clock. At its last line: 2 min with no step
    # (not "measuring"); 9 min later, 11 min: past the first step's 10 min, stalled since the bar began.
    bar = "Training Progress:   0%|          | 0/58 [02:00<?, ?it/s]"
    at_end = read_at(tmp_path, [bar], 0.0)
    assert (at_end["state"], at_end["level"], at_end["status_line"]) == ("working", "waiting", "step 0/58 · no step yet 2m")
    assert at_end["details"][0] == "No step done yet: 2 min at step 0 on the trainer's own clock (a stall after 10 min)"
    assert at_end["state_since"] == T0 - 120
    later = read_at(tmp_path, [bar], 9 * 60.0)
    assert (later["state"], later["status_line"]) == ("stalled", "step 0/58 · stalled 11m")
    assert later["state_since"] == T0 - 120


@pytest.mark.parametrize(
    "after",
    [
        # wandb's closing block, printed as the process exits whatever killed it
        "wandb: 🚀 View run absurd-frog-1 at: https://wandb.ai/someone/babygpt/runs/ysgr3tei",
        # detectron2's hooks sum up in a ``finally`` after the error (facebookresearch/detectron2 issue 1563)
        "2026-01-01 00:06:00,000 INFO Total training time: 0:05:00 (0:00:00 on hooks)",
    ],
)
def test_an_end_printed_after_the_crash_is_no_end_the_run_reached(tmp_path: Path, after: str) -> None:
    lines = [*THIRTY, "Traceback (most recent call last):", '  File "/x/train.py", line 300, in <module>',
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.71 GiB", after]
    data = read_dated(tmp_path, lines, TWO_HOURS, written="00:06:00")
    assert (data["state"], data["status_line"]) == ("crashed", "step 30 · crashed")
    assert data["details"][0] == "Crashed: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.71 GiB"
    assert not any(line.startswith(("Training had reached", "Finished")) for line in data["details"])
    assert data["training"]["finished"] is False


def test_a_finished_run_with_no_time_read_gives_no_figure_of_time(tmp_path: Path) -> None:
    # Composed: three undated step lines (no duration printed), then the end: no "over less than 3 min of its
    # own time", which the log never gave.
    lines = [f"step {n} | loss 3.{n}000" for n in (100, 200, 300)] + ["Training complete."]
    data = read_at(tmp_path, lines, TWO_HOURS)
    assert (data["state"], data["status_line"]) == ("done", "done · step 300")
    assert data["details"][0] == "no rate: no duration or time read for its 3 step lines"
    assert not any("over less than" in line or "steps/h" in line for line in data["details"])


def test_a_finished_run_of_too_few_dated_lines_says_so_not_that_no_time_was_read(tmp_path: Path) -> None:
    # Composed: two dated step lines 30 s apart, the last at its total: the step time is measured from the lines'
    # times (30 s), so "no duration or time read" would contradict it; too few lines for a rate (3 needed) is the why.
    lines = ["2024-05-01 12:00:00,000 - INFO - step 9/10 loss 2.0", "2024-05-01 12:00:30,000 - INFO - step 10/10 loss 1.9"]
    data = read_at(tmp_path, lines, TWO_HOURS)
    assert (data["state"], data["status_line"]) == ("done", "done · step 10/10")
    assert data["details"][0] == "no rate: 2 step lines, fewer than the 3 a rate needs"
    assert data["training"]["step_seconds"] == pytest.approx(30.0)
    assert not any("no duration or time read" in line for line in data["details"])


def test_a_real_finished_run_of_one_dated_line_says_so(tmp_path: Path) -> None:
    # Caffe's glog lines (kevinlin311tw/Caffe-DeepBinaryCode's README, its header): one dated iteration line, its
    # test, then ``Optimization Done.``: the glog clock gave its time, one line is too few for a rate (it said "no
    # duration or time read for its 1 step line")
    name = "generic-caffe-deepbinarycode-readme-iteration-50000-testing-net-accuracy-then-optimization-done.log"
    data = read_at(tmp_path, body(name), TWO_HOURS, name)
    assert (data["state"], data["details"][0]) == ("done", "no rate: 1 step line, fewer than the 3 a rate needs")


def test_a_bar_just_started_at_step_0_says_no_step_yet_without_a_wait_to_tell(tmp_path: Path) -> None:
    data = read_at(tmp_path, ["Training Progress:   0%|          | 0/58 [00:00<?, ?it/s]"], 0.0)
    assert (data["state"], data["status_line"]) == ("working", "step 0/58 · no step yet")
    assert data["details"][0] == "No step done yet at step 0 (a stall after 10 min)"


def test_real_script_generating_its_sample_after_the_last_evaluation_is_done(tmp_path: Path) -> None:
    # VincentRacine-UnlikelyAI/nanogpt README (its header): evaluations at steps 0 … 4500, then ``Generating...``:
    # the loop is over, the script samples text from the trained model (it read measuring, paused for evaluation).
    name = "nanogpt-style-vincentracine-file-readme-step-0-to-4500-every-500-train-val-loss-then-generating.log"
    data = read_at(tmp_path, body(name), 0.0, name)
    assert (data["state"], data["status_line"]) == ("done", "done · step 4500")
    assert data["training"]["finished"] is True
    assert data["training"]["paused"] is None
    # undated, no time printed: no span of "its own time" (it said "9 step lines over less than 3 min of its own time")
    assert data["details"][0].startswith("no rate: no duration or time read for its ")


@pytest.mark.parametrize(("after", "state"), [([], "done"), (["step 400: train loss 1.0000, val loss 1.2000"], "measuring")])
def test_a_sample_generated_is_the_end_unless_a_step_follows(tmp_path: Path, after: list[str], state: str) -> None:
    # Composed: eval lines every 100 steps, a bare ``Generating...`` line and its sample; a periodic sample mid-run
    # is followed by the next step, which takes the end back.
    lines = [f"step {s}: train loss 2.{s // 100}000, val loss 2.{s // 100}500" for s in (0, 100, 200, 300)]
    lines += ["", "Generating...", "ROMEO: what say you", *after]
    assert read_at(tmp_path, lines, 0.0)["state"] == state


@pytest.mark.parametrize("message", ["Generating samples...", "Generating text…"])
def test_a_bare_sampling_line_is_a_said_end(message: str) -> None:
    found = [e for e in CrashWatch().see(message) if isinstance(e, StageEnd)]
    assert [(e.summary, e.said, e.saved) for e in found] == [(message, True, False)]


@pytest.mark.parametrize("message", ["Generating train split: 30 examples [00:00, 2129.30 examples/s]",
                                     "Generating new identity to be saved in `swarm.pem`"])
def test_words_that_generate_something_else_are_no_end(message: str) -> None:
    assert not [e for e in CrashWatch().see(message) if isinstance(e, StageEnd)]


def test_an_undated_finished_log_with_no_time_printed_claims_no_time_of_its_own(tmp_path: Path) -> None:
    # Composed: five undated evaluation lines and ``Training complete.``, read at once: every line stands at the
    # file's time, so nothing says how long the run took.
    lines = [*(f"step {s}: train loss {4 - s / 1000:.4f}, val loss {4.1 - s / 1000:.4f}" for s in range(0, 2500, 500)),
             "Training complete."]
    data = read_at(tmp_path, lines, 0.0)
    assert data["state"] == "done"
    assert data["details"][0].startswith("no rate: no duration or time read for its ")
    assert not any("its own time" in detail for detail in data["details"])


# verl's SFT trainer draws its epoch bar and prints its ``step:N`` record on the same line, the bar one behind; once its
# last step is done it says ``Final validation metrics: {…}`` and exits, and tqdm draws the bar once more as it closes.
# Composed in that shape: 2 epochs of 10, records to step 20 (the bar at 9/10 of epoch 2 beside it).
BAR_AND_RECORDS = [
    "Epoch 2/2:  70%|███████   | 7/10 [00:14<00:06,  2.00s/it]step:18 - train/loss:0.530",
    "Epoch 2/2:  80%|████████  | 8/10 [00:16<00:04,  2.00s/it]step:19 - train/loss:0.521",
    "Epoch 2/2:  90%|█████████ | 9/10 [00:18<00:02,  2.00s/it]step:20 - train/loss:0.512",
]
LEFTOVER_REDRAW = "Epoch 2/2:  90%|█████████ | 9/10 [00:21<00:02,  2.33s/it]"


@pytest.mark.parametrize("ending", ["Final validation metrics: {'val/loss': 0.5}", "Training complete."])
def test_a_bar_redrawn_after_the_end_at_a_position_it_drew_before_does_not_reopen_the_run(
    tmp_path: Path, ending: str
) -> None:
    for later in (0.0, TWO_HOURS):
        data = read_at(tmp_path, [*BAR_AND_RECORDS, ending, LEFTOVER_REDRAW], later)
        assert (data["state"], data["status_line"]) == ("done", "done · step 20"), later
        assert data["training"]["loss"] == 0.512 and data["training"]["stalled"] is False
        assert f"Finished: {ending}" in data["details"]


def test_a_bar_that_moves_on_after_the_said_end_was_no_end(tmp_path: Path) -> None:
    # the bar at 10/10 beside a record of step 21 after the words: steps went on, so the words were not the end
    lines = [*BAR_AND_RECORDS, "Training complete.",
             "Epoch 2/2: 100%|██████████| 10/10 [00:20<00:00,  2.00s/it]step:21 - train/loss:0.505"]
    data = read_at(tmp_path, lines, 0.0)
    assert data["state"] != "done" and data["training"]["step"] == 21


def test_verl_sft_s_leftover_bar_after_its_final_validation_is_no_step(tmp_path: Path) -> None:
    """The real run (its source in the header): step 105's record, its checkpoint saved, ``Final validation metrics``,
    then the bar drawn again at 34/35 of epoch 3/3 (as drawn beside step 105): done at step 105, read at its last line
    and two hours on; the redraw's 14 s left is no time left."""
    name = "verl-sft-rldecisionagent-file-char-count-readme-105-final-validation-then-leftover-bar-redraw.log"
    for later in (0.0, TWO_HOURS):
        data = read_cold(tmp_path, body(name), name=name, at=local_time(2025, 8, 4, 12, 26, 45) + later)
        assert (data["state"], data["status_line"]) == ("done", "done · step 105/105"), later  # (its start line's total number of steps)
        training = data["training"]
        assert (training["step"], training["loss"]) == (105, 0.06290543079376221)
        assert training["eval"]["val_loss"] == {"value": 0.058481086045503616, "step": 105}
        # (at its total no time is left: 0 once its steps are timed, never the redraw's 14 s)
        assert not training["eta_seconds"] and training["trainer_eta_seconds"] is None
        assert not any("34/35" in line for line in data["details"])


# PaddleOCR's lines: its epoch of the run's total, its ``global_step`` (no total of its own) and the time left.
def ppocr(second: int, step: int, eta: str) -> str:
    return (f"[2025/01/01 10:00:{second:02d}] ppocr INFO: epoch: [3/3], global_step: {step}, lr: 0.000010, "
            f"loss: 0.5{step % 100:02d}00, eta: {eta}")


def test_the_last_epoch_s_step_at_no_time_left_then_a_save_is_the_end(tmp_path: Path) -> None:
    # step 300 in epoch 3 of 3 at eta 0:00:00, then the save: done at step 300 (10 steps in the 10 s before it: 1.00 s)
    lines = [ppocr(0, 290, "0:00:10"), ppocr(10, 300, "0:00:00"), "[2025/01/01 10:00:11] ppocr INFO: save model in ./output/latest"]
    for later in (0.0, TWO_HOURS):
        data = read_cold(tmp_path, lines, at=local_time(2025, 1, 1, 10, 0, 11) + later)
        assert (data["state"], data["status_line"]) == ("done", "done · step 300"), later
        assert "Finished: reached its last step (step 300)" in data["details"]
        assert data["training"]["finished"] is True and data["training"]["stalled"] is False


def test_the_last_step_with_no_save_or_evaluation_after_it_is_finishing_not_done(tmp_path: Path) -> None:
    data = read_cold(tmp_path, [ppocr(0, 290, "0:00:10"), ppocr(10, 300, "0:00:00")])
    assert (data["state"], data["training"]["paused"], data["training"]["finished"]) == ("measuring", "finishing", False)


def test_a_save_while_time_is_left_is_a_mid_run_save(tmp_path: Path) -> None:
    lines = [ppocr(0, 280, "0:00:20"), ppocr(10, 290, "0:00:10"), "[2025/01/01 10:00:11] ppocr INFO: save model in ./output/latest"]
    data = read_cold(tmp_path, lines)
    assert data["state"] != "done" and data["training"]["finished"] is False


def test_real_paddlex_run_at_its_last_epoch_s_end_then_evaluated_and_saved_is_done(tmp_path: Path) -> None:
    name = "paddle-paddlex-noctilucent-lamp-file-seal-det-epoch-100-of-100-eta-zero-final-eval-save.log"
    for later in (0.0, TWO_HOURS):
        data = read_cold(tmp_path, body(name), name=name, at=local_time(2025, 8, 30, 18, 2, 23) + later)
        assert (data["state"], data["status_line"]) == ("done", "done · step 100000"), later
        training = data["training"]
        assert (training["step"], training["total_steps"], training["loss"]) == (100000, None, 0.091679)
        assert training["paused"] is None and training["stalled"] is False


def test_real_paddle_eta_at_zero_before_the_count_s_end_is_no_end(tmp_path: Path) -> None:
    """Paddle's time left in whole seconds is 0:00:00 from iteration 10 of 14 on: cut there the run is not done; whole,
    its last epoch's 14/14 with only the epoch's summary after it is finishing."""
    name = "paddle-customdevice-mlu-readme-lenet-epochs-2-of-2-eta-zero-from-iter-10-of-14.log"
    lines = body(name)
    cut = next(i for i, text in enumerate(lines) if "Iter [11/14]" in text) + 1
    data = read_cold(tmp_path, lines[:cut], name="cut.log")
    assert (data["state"], data["status_line"]) == ("measuring", "epoch 2/2 · 11/14 in the epoch · …")
    data = read_cold(tmp_path, lines, name=name)
    assert (data["state"], data["status_line"]) == ("measuring", "epoch 2/2 · 14/14 in the epoch · finishing")
    assert data["training"]["finished"] is False


def lecture(steps: list[int]) -> list[str]:
    return [f"step {n}: train loss {2 - n / 1000:.4f}, val loss {2.1 - n / 1000:.4f}" for n in steps]


@pytest.mark.parametrize(("steps", "state"), [
    ([0, 200, 400, 599], "done"),  # 599: one short of the every-200 cadence's 600, ``iter == max_iters - 1``
    ([0, 200, 399], "measuring"),  # one gap is no cadence yet
    ([0, 200, 400, 598], "measuring"),  # off the cadence, but not its last iteration's
    ([0, 200, 400, 600], "measuring"),  # on the cadence: nanoGPT's train.py, live
])  # fmt: skip
def test_the_lecture_script_s_evaluation_one_short_of_its_cadence_is_its_last(
    tmp_path: Path, steps: list[int], state: str
) -> None:
    for later in (0.0, TWO_HOURS):
        data = read_at(tmp_path, lecture(steps), later)
        expected = state if state == "done" or later == 0.0 else "stalled"
        assert (data["state"], data["training"]["step"]) == (expected, steps[-1]), later
        assert data["training"]["total_steps"] is None


def test_real_lecture_scripts_last_evaluation_then_its_sample_is_done(tmp_path: Path) -> None:
    for name, loss in (("nanogpt-lecture-nanogpt-follow-along-file-example-output-step-4999-then-generated-sample.log", 1.0797),
                       ("nanogpt-lecture-taxophoney-readme-eval-lines-only-step-0-to-4999.log", 0.8545)):
        data = read_at(tmp_path, body(name), 0.0, name)
        assert (data["state"], data["status_line"]) == ("done", "done · step 4999"), name
        assert (data["training"]["loss"], data["training"]["total_steps"]) == (loss, None)
        assert "Finished: evaluated at step 4999, one short of every 500: the loop's last iteration" in data["details"]


def local_time(year: int, month: int, day: int, hour: int, minute: int, second: int) -> float:
    return time.mktime((year, month, day, hour, minute, second, 0, 0, -1))
