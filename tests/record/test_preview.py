"""A long step run's whole loss chart, sampled from the log until the history import has read it."""

from __future__ import annotations

import itertools
import json
import os
import time
from pathlib import Path

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.record.backfill import ImportProgress
from app.record.preview import covers, sample_losses, sampled_steps
from app.record.recorder import Recorder
from app.store import History

STEPS = 60_000


def loss_at(step: int) -> float:
    """The loss the composed log prints at ``step`` (4 decimals, as nanoGPT does)."""
    return round(10 - 7 * step / STEPS, 4)


def nanogpt_log(path: Path, mtime: float) -> None:
    lines = ["tokens per iteration will be: 8,192", "step 0: train loss 10.9000, val loss 10.9500"]
    for step in range(STEPS + 1):
        lines.append(f"iter {step}: loss {loss_at(step):.4f}, time 100.00ms, mfu 40.00%")
        if step and step % 5000 == 0:  # an evaluation and a checkpoint, lines with no loss of a step
            lines += [f"step {step}: train loss {loss_at(step):.4f}, val loss {loss_at(step) + 0.05:.4f}",
                      "saving checkpoint to out"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(path, (mtime, mtime))


def test_the_sample_spans_the_run_each_point_a_loss_the_log_printed(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    nanogpt_log(log, time.time())
    points = sample_losses(log, "nanogpt", places=200)
    assert 190 <= len(points) <= 201  # a loss at (nearly) every place, and the log's last
    assert all(point.value == loss_at(point.step) for point in points)  # each as printed at its step
    steps = [point.step for point in points]
    assert steps == sorted(steps) and steps[0] == 0 and steps[-1] == STEPS
    gaps = [b - a for a, b in itertools.pairwise(steps)]
    assert max(gaps) < 2 * STEPS / 200  # evenly spread over the run
    chart = sampled_steps(points, places=200)
    assert chart is not None and chart["loss_sampled"] and chart["loss_bucket_steps"] == STEPS // 200
    assert chart["loss"][0] == [0, loss_at(0)] and chart["loss"][-1] == [STEPS, loss_at(STEPS)]
    assert "60,000" in chart["sample_text"]


def test_a_stored_chart_that_holds_the_run_replaces_the_sample() -> None:
    sampled = {"stage": "train", "loss": [[0, 10.0], [30_000, 6.0], [60_000, 3.0]], "loss_bucket_steps": 300}
    whole = {"stage": "train", "loss": [[0, 10.0], [59_950, 3.0]], "loss_bucket_steps": 64}
    begun = {"stage": "train", "loss": [[0, 10.0], [12_000, 8.5]], "loss_bucket_steps": 64}
    assert covers(whole, sampled)
    assert not covers(begun, sampled)  # the import has read the run's start only
    assert not covers({**whole, "stage": "sft"}, sampled)
    assert not covers(None, sampled)


def test_the_whole_run_chart_is_the_sample_while_importing_then_the_history_s(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    now = time.time()
    nanogpt_log(log, now)
    monitor = Monitor(log, clock=lambda: now)
    monitor.backlog(read_backwards(log))
    recorder = Recorder(History(tmp_path / "data", clock=lambda: now), log, clock=lambda: now,
                        observe_seconds=3600, import_siblings=False)
    recorder.start(monitor)
    try:
        recorder.progress = ImportProgress(files_total=1)  # the import is under way
        recorder._sample()
        chart = json.loads(recorder.chart_json("30d"))
        steps = chart["steps"]
        assert steps["loss_sampled"] and steps["loss"][0] == [0, loss_at(0)] and steps["loss"][-1][0] == STEPS
        assert chart["status"]["importing"] is not None
        assert json.loads(recorder.chart_json("6h"))["steps"] is None  # only the whole run is sampled
        recorder.progress.done = True  # imported: the history's own chart, nothing sampled
        steps = json.loads(recorder.chart_json("30d"))["steps"]
        assert steps is None or not steps.get("loss_sampled")
    finally:
        recorder.stop()
        monitor.stop()
