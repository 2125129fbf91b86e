"""A step log's cold start reads its backlog a slice at a time: the live view is the same whatever the slice."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from app.ingest.backwards import read_backwards
from app.live import backlog
from app.live.monitor import Monitor
from app.snapshot import to_dict
from app.stats.events import TrainStep

NOW = 2_000_000_000.0


def nanogpt_log(path: Path) -> None:
    # 100 ms an iteration, an evaluation every 2,000 (its pause in the next iteration's time), and
    # the trainer's restart half way: 12,000 s of training, the backlog's hour and more.
    lines = ["tokens per iteration will be: 8,192"]
    for i in range(120_000):
        if i == 60_000:
            lines.append("Initializing from OpenAI GPT-2 weights: gpt2")
        if i % 2000 == 0:
            lines.append(f"step {i}: train loss {4 - i / 200_000:.4f}, val loss {4.1 - i / 200_000:.4f}")
        took = 2000.0 if i % 2000 == 1 else 100.0
        lines.append(f"iter {i}: loss {4 - i / 200_000:.4f}, time {took:.2f}ms, mfu 40.00%")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(path, (NOW, NOW))


def cold_start(log: Path) -> dict[str, Any]:
    monitor = Monitor(log, clock=lambda: NOW)
    monitor.backlog(read_backwards(log, chunk_bytes=256 << 10))
    return to_dict(monitor.snapshot(NOW))


def test_the_backlog_in_slices_reads_as_in_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "train.log"
    nanogpt_log(log)
    sliced = cold_start(log)
    monkeypatch.setattr(backlog, "SLICE_LINES", 1 << 30)
    whole = cold_start(log)
    monkeypatch.setattr(backlog, "SLICE_LINES", 7)
    assert cold_start(log) == sliced == whole
    assert sliced["step"] == 119_999
    # 100 ms a step, the evaluation's 1.9 s more in every 2,000: the 20-min window holds five or six
    # of those pauses, (1200 - 5 × 1.9) / 0.1 or (1200 - 6 × 1.9) / 0.1 steps, × 3
    assert 35_658 - 1 <= sliced["rate"]["passes_per_hour"] <= 35_715 + 1
    assert len(sliced["history"]) >= 115


def logged_steps(log: Path, *, backlog_kept: bool) -> list[int]:
    monitor = Monitor(log, clock=lambda: NOW)
    monitor.keep_passes(backlog=backlog_kept)  # as the server does before the cold start
    monitor.backlog(read_backwards(log, chunk_bytes=256 << 10))
    return [event.step for event in monitor.take_logged() if isinstance(event, TrainStep)]


def test_with_no_history_the_backlogs_steps_are_kept_for_the_chart_whatever_the_slice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "train.log"
    nanogpt_log(log)
    monkeypatch.setattr(backlog, "SLICE_LINES", 7)
    steps = logged_steps(log, backlog_kept=True)
    # every iteration of the hour and more read back, once each, in order, to the log's last
    assert steps == list(range(steps[0], 120_000))
    assert 120_000 - steps[0] >= 36_000
    monkeypatch.setattr(backlog, "SLICE_LINES", 1 << 30)
    assert logged_steps(log, backlog_kept=True) == steps
    assert logged_steps(log, backlog_kept=False) == []  # a history imports them instead
