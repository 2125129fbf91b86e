"""Crashed, killed and broken runs in composed logs of trainers and wordings the real logs do not
show, end to end (sniffer, parser, tracker, snapshot), read cold as ``tokwatch once`` does.

Each expected line is written out by hand from the log above it.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import to_json

T0 = 1_800_000_000.0  # the modification time an undated log is given


def read(tmp_path: Path, lines: list[str], now: float = T0, mtime: float = T0) -> dict[str, Any]:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (mtime, mtime))
    monitor = Monitor(log, clock=lambda: mtime)
    monitor.backlog(read_backwards(log))
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(now)))
    return data


def megatron(step: int, total: int = 1000, ms: float = 1000.0, loss: float = 2.31) -> str:
    return (f" iteration {step:8d}/{total:8d} | consumed samples: {step * 8:10d} | elapsed time per iteration (ms):"
            f" {ms:.1f} | learning rate: 1.000E-04 | global batch size:     8 | lm loss: {loss:.6E} |")


def clean(data: dict[str, Any], *prefixes: str) -> list[str]:
    """The detail lines that start with any of ``prefixes`` (none, for a run with one verdict)."""
    return [line for line in data["details"] if line.startswith(prefixes)]


def test_slurm_cancels_a_megatron_run_at_its_time_limit(tmp_path: Path) -> None:
    # The scheduler ended it on purpose (its time limit): stopped from outside, not a death of its own.
    log = [megatron(s) for s in (100, 110, 120)]
    log.append("slurmstepd: error: *** JOB 4242 ON gpu-17 CANCELLED AT 2024-03-02T11:00:12 DUE TO TIME LIMIT ***")
    data = read(tmp_path, log, now=T0 + 3 * 3600)
    assert (data["format"], data["state"], data["status_line"]) == ("generic", "stopped", "step 120/1000 · stopped")
    assert data["details"][0] == ("Stopped from outside at step 120 of 1,000: slurmstepd: error: *** JOB 4242 ON"
                                  " gpu-17 CANCELLED AT 2024-03-02T11:00:12 DUE TO TIME LIMIT ***")
    assert clean(data, "Stalled:", "ETA ", "Paused:", "measuring") == []
    assert data["training"]["eta_seconds"] is None and data["training"]["stalled"] is False


def test_torchrun_logs_the_death_signal_as_a_warning_yet_the_run_is_over(tmp_path: Path) -> None:
    log = [f"iter {i}: loss {3.0 - i / 100:.4f}, time 120.00ms, mfu 10.00%" for i in range(10, 14)]
    log.append("W0302 10:59:58.120000 881 torch/distributed/elastic/agent/server/api.py:704] Received 15 death"
               " signal, shutting down workers")
    data = read(tmp_path, log)
    assert (data["format"], data["state"], data["status_line"]) == ("nanogpt", "stopped", "step 13 · stopped")
    assert data["details"][0] == "Stopped from outside at step 13: Received 15 death signal, shutting down workers"


def test_an_error_of_its_own_is_a_crash_not_a_kill(tmp_path: Path) -> None:
    log = [megatron(s) for s in (100, 110)] + ["Aborted (core dumped)"]
    data = read(tmp_path, log)
    assert data["details"][0] == "Crashed: Aborted (core dumped)"


def test_a_crash_after_the_run_reached_its_end_says_how_far_training_got(tmp_path: Path) -> None:
    """The upload after the last step failed: crashed, but the user learns training itself got to 1000/1000."""
    log = [megatron(s) for s in (980, 990, 1000)]
    log += ["[after training is done] datetime: 2024-03-02 11:00:12",
            "Traceback (most recent call last):",
            '  File "push.py", line 40, in <module>',
            "    api.upload_folder(folder_path=out, repo_id=repo)",
            "huggingface_hub.errors.HfHubHTTPError: 401 Client Error: Unauthorized for url"]
    data = read(tmp_path, log, now=T0 + 600)
    assert (data["state"], data["status_line"]) == ("crashed", "step 1000/1000 · crashed")
    assert data["details"][:2] == [
        "Crashed: huggingface_hub.errors.HfHubHTTPError: 401 Client Error: Unauthorized for url",
        "Training had reached step 1000/1000 before the crash",  # (no save is claimed: the log prints none)
    ]
    assert clean(data, "Finished:", "Stalled:", "ETA ") == []


def test_a_rate_measured_before_a_kill_is_said_as_such(tmp_path: Path) -> None:
    """One step every 10 s for 30 min, dated by python logging: 360 steps/h when it was killed; read 2 h later."""
    start = 1_709_370_000.0  # 2024-03-02 09:00:00 UTC
    log = []
    for i in range(181):
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(start + 10 * i))
        log.append(f"{stamp},000 - INFO - step {i} | loss {3.0 - i / 1000:.3f} | lr 1.0e-04 | 10.00 s/it")
    log.append("Killed")
    crash_at = start + 1800
    data = read(tmp_path, log, now=crash_at + 2 * 3600, mtime=crash_at)
    assert data["state"] == "crashed" and data["details"][0] == "Crashed (killed): Killed"
    assert data["details"][1] == "Before the crash: 360 steps/h (over 20 min) · tokens per step not printed"
    assert clean(data, "Stalled:", "ETA ", "measuring") == []


def test_apex_skipping_every_step_at_small_scales_is_a_broken_run(tmp_path: Path) -> None:
    scales = [512, 256, 128, 64, 32]
    log = [f"Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to {s}.0" for s in scales]
    data = read(tmp_path, log)
    assert (data["format"], data["state"], data["status_line"]) == ("generic", "broken", "broken run")
    assert data["training"]["broken"] == ("fp16 overflow at 5 steps in a row, every step skipped, loss scale down to 32:"
                                          " the run is broken")


def test_a_loss_scale_coming_down_from_two_to_the_sixteen_is_the_warm_up(tmp_path: Path) -> None:
    log = ["[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768",
           "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 32768, reducing to 16384"]
    data = read(tmp_path, log)
    assert (data["state"], data["status_line"]) == ("working", "no step yet · 2 fp16 overflows")
    assert "fp16 loss-scale warm-up: 2 steps skipped on overflow (loss scale 16384), as usual" in data["details"]


def test_an_infinite_grad_norm_twice_is_a_warning_not_a_verdict(tmp_path: Path) -> None:
    log = [f"step {s} | loss 2.31 | grad_norm {g} | lr 1.0e-04 | 250.0 ms/step"
           for s, g in ((98, "0.91"), (99, "0.88"), (100, "inf"), (101, "inf"))]
    data = read(tmp_path, log)
    assert data["state"] != "broken" and data["training"]["broken"] is None
    assert ("Warning: grad norm is inf at 2 logs in a row since step 100; 3 logs in a row over 8 steps make a broken"
            " run") in data["details"]


def test_a_diverged_run_shows_no_time_to_its_end(tmp_path: Path) -> None:
    log = [f"Epoch 1:  {s}%|████      | {s}/100 [01:{s:02d}<01:50,  2.00s/it, loss={loss}]"
           for s, loss in ((40, "2.31"), (44, "2.29"), (45, "nan"))]
    data = read(tmp_path, log)
    assert data["state"] == "diverged" and data["training"]["trainer_eta_seconds"] == 110
    assert clean(data, "ETA ", "Stalled:", "Paused:") == []


def test_a_broken_run_shows_no_time_to_its_end(tmp_path: Path) -> None:
    """grad norm nan at steps 10, 14, 18: three logs over 9 steps, a broken run; its trainer's ETA is void."""
    log = [f"step {s}/100 | loss 2.0 | grad_norm nan | 2.00 s/it | remaining time: 0:03:00" for s in (10, 14, 18)]
    data = read(tmp_path, log)
    assert (data["state"], data["status_line"]) == ("broken", "step 18/100 · broken")
    assert data["details"][0] == "grad norm is nan at 3 logs in a row: the run is broken (its updates are skipped or corrupt)"
    assert clean(data, "ETA ", "Stalled:", "Paused:", "Warning:") == []
