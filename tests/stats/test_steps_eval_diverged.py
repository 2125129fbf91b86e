"""A loss that is not a number in an evaluation diverges the run, in every format that prints one, until a finite
training loss comes after it: the same weights still give a number, so the evaluation broke, not the run.

The lines follow each trainer's own template (research note ``other-log-formats.md``); only the
evaluated figure is made nan (or inf), the way a run that blew up prints it.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import training_dict
from app.stats.events import EvalResult, TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report as step_report

T0 = 1_800_000_000.0

NANOGPT = [
    "tokens per iteration will be: 491,520",
    "step 0: train loss 10.9876, val loss 10.9865",
    "iter 0: loss 10.9822, time 4021.62ms, mfu -100.00%",
    "iter 10: loss 9.5123, time 301.20ms, mfu 30.12%",
    "step 20: train loss 8.1000, val loss nan",
    "iter 20: loss 8.0456, time 300.93ms, mfu 30.15%",
]
MODDED = [
    "step:0/1750 val_loss:10.8258 train_time:0ms step_avg:nanms",
    "step:1/1750 train_loss:10.8258 train_time:1203ms step_avg:nanms",
    "step:2/1750 train_loss:9.7311 train_time:1303ms step_avg:nanms",
    "step:125/1750 val_loss:nan train_time:13503ms step_avg:100.02ms",
    "step:126/1750 train_loss:nan train_time:13603ms step_avg:100.02ms",
]
MODDED_FORK = [
    "step:8700/20000 train_loss:2.1311 train_time:600122ms step_avg:68.98ms",
    "step:8800/20000 val_loss:nan val_bpb:nan train_time:607021ms step_avg:68.98ms",
    "step:8801/20000 train_loss:2.1300 train_time:607090ms step_avg:68.98ms",
]
LLMC = [
    "step    1/74 | loss 11.009288 (+nanz)| norm 15.0212 (+nanz)| lr 3.00e-04 | 36.58 ms | 9.2% bf16 MFU | 112241 tok/s",
    "step    2/74 | loss 10.102271 (+nanz)| norm 9.9811 (+nanz)| lr 3.00e-04 | 36.51 ms | 9.2% bf16 MFU | 112236 tok/s",
    "val loss nan",
    "step    3/74 | loss 9.750314 (+nanz)| norm 7.3302 (+nanz)| lr 3.00e-04 | 36.80 ms | 9.1% bf16 MFU | 112128 tok/s",
]
NANOCHAT = [
    "step 00010/21400 (0.05%) | loss: 7.473279 | lrm: 1.00 | dt: 996.81ms | tok/sec: 525,973 | mfu: 73.58 | total time: 0.00m",
    "Step 00010 | Validation bpb: nan",
    "step 00011/21400 (0.05%) | loss: 7.373279 | lrm: 1.00 | dt: 996.81ms | tok/sec: 525,973 | mfu: 73.58 | total time: 0.02m",
]
HF = [
    "{'loss': 1.5126, 'learning_rate': 1.2459e-05, 'epoch': 0.44}",
    "{'loss': 1.4126, 'learning_rate': 1.1459e-05, 'epoch': 0.88}",
    "{'eval_loss': nan, 'eval_runtime': 10.1, 'eval_samples_per_second': 5.0, 'eval_steps_per_second': 1.0, 'epoch': 0.88}",
    "{'loss': 1.3126, 'learning_rate': 1.0459e-05, 'epoch': 1.32}",
]
TORCHTITAN = [
    "[rank0]:[titan] 2025-06-16 22:30:50,322 - root - INFO - step: 200  loss:  6.1384  memory: 49.66GiB(52.28%)  tps: 5,856  tflops: 339.16  mfu: 34.29%",
    "[rank0]:[titan] 2025-06-16 22:31:04,970 - root - INFO - validate step: 200  loss:    nan  memory: 49.66GiB(52.28%)",
    "[rank0]:[titan] 2025-06-16 22:31:18,934 - root - INFO - step: 210  loss:  6.0348  memory: 49.66GiB(52.28%)  tps: 5,868  tflops: 339.82  mfu: 34.36%",
]


def cold(tmp_path: Path, lines: list[str]) -> Monitor:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    return monitor


# lines (up to the evaluation that is not a number, or the training loss that follows it too), format, status line,
# the detail naming the figure
CASES = [
    (NANOGPT[:-1], "nanogpt", "step 10 · diverged", "val_loss is nan at step 20, not a number: the run has diverged"),
    (MODDED, "modded-nanogpt", "step 126/1750 · diverged", "val_loss is nan at step 125, not a number: the run has diverged"),
    (MODDED_FORK[:-1], "modded-nanogpt", "step 8800/20000 · diverged", "val_bpb is nan at step 8800, not a number: the run has diverged"),
    (LLMC[:-1], "llmc", "step 2/74 · diverged", "val_loss is nan at step 2, not a number: the run has diverged"),
    (NANOCHAT[:-1], "nanochat", "step 10/21400 · diverged", "val_bpb is nan at step 10, not a number: the run has diverged"),
    (HF[:-1], "hf-trainer", "epoch 0.88 · diverged", "eval_loss is nan, not a number: the run has diverged"),
    (TORCHTITAN[:-1], "torchtitan", "step 200 · diverged", "val_loss is nan at step 200, not a number: the run has diverged"),
]  # fmt: skip


@pytest.mark.parametrize(("lines", "format_name", "status", "detail"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_a_nan_evaluation_loss_diverges_the_run(
    tmp_path: Path, lines: list[str], format_name: str, status: str, detail: str
) -> None:
    monitor = cold(tmp_path, lines)
    now = monitor.last_event_at() or T0
    snapshot = monitor.snapshot(now + 7200)  # long after: diverged, never stalled
    assert (snapshot.format, snapshot.status_line, snapshot.state) == (format_name, status, "diverged")
    assert detail in snapshot.details
    assert snapshot.source.bad_lines == 0


# the whole lines: a finite training loss after the evaluation's nan
OUTLIVED = [
    (NANOGPT, "nanogpt", "step 20", "val_loss is nan at step 20"),
    (MODDED_FORK, "modded-nanogpt", "step 8801/20000", "val_bpb is nan at step 8800"),
    (LLMC, "llmc", "step 3/74", "val_loss is nan at step 2"),
    (NANOCHAT, "nanochat", "step 11/21400", "val_bpb is nan at step 10"),
    (HF, "hf-trainer", "epoch 1.32", "eval_loss is nan"),
    (TORCHTITAN, "torchtitan", "step 210", "val_loss is nan at step 200"),
]  # fmt: skip


@pytest.mark.parametrize(("lines", "format_name", "position", "said"), OUTLIVED, ids=[f"{c[1]}-{i}" for i, c in enumerate(OUTLIVED)])
def test_a_finite_training_loss_after_a_nan_evaluation_is_no_divergence(
    tmp_path: Path, lines: list[str], format_name: str, position: str, said: str
) -> None:
    monitor = cold(tmp_path, lines)
    snapshot = monitor.snapshot(monitor.last_event_at() or T0)
    assert (snapshot.format, snapshot.status_line.split(" · ")[0]) == (format_name, position)
    assert snapshot.state != "diverged"
    assert f"{said}, not a number, but the training loss after it is finite: the evaluation broke, not the run" \
        in snapshot.details
    assert not any("has diverged" in line for line in snapshot.details)


def steps(progress: StepProgress, first: int, last: int, t: float) -> float:
    for step in range(first, last + 1):
        progress.apply(TrainStep(None, "train", step, total_steps=1000, step_seconds=1.0, loss=3.0), t)
        t += 1.0
    return t


def test_a_finite_evaluation_after_a_nan_one_ends_the_divergence() -> None:
    progress = StepProgress()
    t = steps(progress, 1, 10, T0)
    progress.apply(EvalResult(None, "val_loss", float("nan"), step=10), t)
    report = step_report(progress, t)
    assert report.state == "diverged" and report.state_since == t
    assert training_dict(report.training)["eval"] == {"val_loss": {"value": None, "step": 10}}  # JSON has no nan
    t = steps(progress, 11, 20, t)
    progress.apply(EvalResult(None, "val_loss", 2.9, step=20), t)
    assert step_report(progress, t).state != "diverged"


@pytest.mark.parametrize("value", [math.inf, -math.inf])
def test_an_infinite_perplexity_diverges_too(value: float) -> None:
    progress = StepProgress()
    t = steps(progress, 1, 10, T0)
    progress.apply(EvalResult(None, "eval_perplexity", value, step=10), t)
    assert step_report(progress, t).state == "diverged"


@pytest.mark.parametrize("name", ["eval_accuracy", "hellaswag", "eval_f1", "core"])
def test_a_nan_score_that_is_no_loss_is_shown_but_is_no_divergence(name: str) -> None:
    """An accuracy or F1 is nan when there was nothing to score: not the model's fault."""
    progress = StepProgress()
    t = steps(progress, 1, 10, T0)
    progress.apply(EvalResult(None, name, float("nan"), step=10), t)
    report = step_report(progress, t)
    assert report.state != "diverged"
    assert any(line.startswith(f"Eval {name} nan") for line in report.details)


def test_a_nan_step_zero_validation_before_the_first_step_is_no_divergence_once_a_step_trains() -> None:
    progress = StepProgress()
    progress.apply(EvalResult(None, "val_loss", float("nan"), step=0), T0)
    steps(progress, 1, 3, T0 + 1)  # loss 3.0: the weights give a number
    report = step_report(progress, T0 + 5)
    assert report.state != "diverged"
    assert "val_loss is nan at step 0, not a number, but the training loss after it is finite: the evaluation broke, " \
        "not the run" in report.details
