"""A step log's cold start reads its backlog a slice at a time: the live view is the same whatever the slice."""

from __future__ import annotations

import os
from itertools import pairwise
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


@pytest.mark.slow
@pytest.mark.timeout(300)  # three cold starts of 120,000 steps, each applied one by one: about 25 s on an idle machine
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


def packed_blocks(lines: list[str], cuts: list[int]) -> backlog.Packed:
    """``lines`` packed as chunks cut at ``cuts`` (as chunks read back arrive: one string each)."""
    bounds = [0, *cuts, len(lines)]
    packed = backlog.Packed([])
    for lo, hi in pairwise(bounds):
        packed = packed.then(backlog.Packed.of(lines[lo:hi]))
    return packed


LINES = [f"iter {i}: loss {i / 7:.4f}" + " x" * (i % 5) for i in range(40)] + ["", "é \r", "last"]


@pytest.mark.parametrize("cuts", [[], [1], [10, 11, 30], [5, 5, 42]])
def test_packed_lines_read_back_as_the_lines_they_were_in_slices_of_any_size(cuts: list[int]) -> None:
    packed = packed_blocks(LINES, cuts)
    assert len(packed) == len(LINES)
    assert packed.lines() == LINES
    for size in (1, 3, 7, 43, 100):
        assert list(packed.slices(size)) == [LINES[lo : lo + size] for lo in range(0, len(LINES), size)]


@pytest.mark.parametrize("cuts", [[], [1], [10, 11, 30], [20]])
def test_the_newest_packed_lines_are_the_newest_lines_of_the_same_bytes(cuts: list[int]) -> None:
    packed = packed_blocks(LINES, cuts)
    suffixes = [sum(len(line) + 1 for line in LINES[i:]) for i in range(len(LINES))]  # a chunk's edge among them
    for size in sorted({0, *(s + d for s in suffixes for d in (-1, 0, 1))}):
        newest = packed.newest(size)
        assert newest.lines() == backlog.newest_lines(LINES, size), size
        assert len(newest) == len(backlog.newest_lines(LINES, size))


def test_nothing_packed_is_no_line() -> None:
    empty = backlog.Packed.of([])
    assert len(empty) == 0 and empty.lines() == [] and list(empty.slices(4)) == []
