"""A long undated step log opens from its tail: the first view first, the hour behind it after."""

from __future__ import annotations

import os
from pathlib import Path

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor

STEPS = 80_000  # 100 ms an iteration: 8,000 s of training, more than the hour and its window
NOW = 2_000_000_000.0


def nanogpt_log(path: Path) -> int:
    lines = ["tokens per iteration will be: 8,192"]
    lines += [f"iter {i}: loss {4 - i / STEPS:.4f}, time 100.00ms, mfu 40.00%" for i in range(STEPS)]
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    os.utime(path, (NOW, NOW))  # its last line was written now
    return len(lines)


def test_the_first_view_shows_the_latest_step_and_rate_from_the_tail_alone(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    total = nanogpt_log(log)
    seen: list[tuple[int | None, int]] = []
    monitor = Monitor(log, clock=lambda: NOW)
    bump = monitor.changes.bump

    def noting() -> None:
        bump()
        snap = monitor._tracker.snapshot(NOW, monitor._source())
        seen.append((snap.step, len(snap.history)))

    monitor.changes.bump = noting  # type: ignore[method-assign]
    monitor.backlog(read_backwards(log, chunk_bytes=256 << 10))
    first_step, first_points = seen[0]
    assert first_step == STEPS - 1  # the latest step is in the first view
    assert first_points <= 75  # which covers the rate window and a little more (1 MiB at least: ~35 min)
    snap = monitor.snapshot(NOW)
    # 100 ms a step is 36,000 steps/h, measured over the whole 20-min window
    assert snap.rate.passes_per_hour is not None and abs(snap.rate.passes_per_hour - 36_000) < 50
    assert snap.step == STEPS - 1
    assert len(snap.history) >= 115  # then the whole hour (120 points of 30 s) is filled in behind
    # 80 min × the margin of lines read back, not the whole log
    assert 48_000 <= snap.source.lines_read <= 64_000 < total


def test_once_reads_only_the_first_views_span(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    nanogpt_log(log)
    monitor = Monitor(log, clock=lambda: NOW)
    monitor.read_once(log)
    snap = monitor.snapshot(NOW)
    assert snap.step == STEPS - 1
    assert snap.rate.passes_per_hour is not None and abs(snap.rate.passes_per_hour - 36_000) < 50
    assert snap.source.lines_read <= 25_000  # 25 min of 100-ms steps and the margin, or 1 MiB at least
