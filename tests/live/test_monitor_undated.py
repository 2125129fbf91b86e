"""A long step log opens from its tail: the first view first, the hour behind it after, its start's facts kept."""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path

from app.ingest.backwards import path_head, read_backwards
from app.live.monitor import Monitor
from app.snapshot import training_dict

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
        snap = monitor.tracker.snapshot(NOW, monitor._source())
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


def test_a_glance_at_the_newest_lines_comes_before_the_first_view(tmp_path: Path) -> None:
    """The lines that measured the log's pace, parsed already, show the latest step and a rate at once."""
    log = tmp_path / "train.log"
    nanogpt_log(log)
    seen: list[tuple[int | None, float | None, float | None, int]] = []
    monitor = Monitor(log, clock=lambda: NOW)
    bump = monitor.changes.bump

    def noting() -> None:
        bump()
        snap = monitor.tracker.snapshot(NOW, monitor._source())
        seen.append((snap.step, snap.rate.passes_per_hour, snap.rate.tokens_per_hour, len(snap.history)))

    monitor.changes.bump = noting  # type: ignore[method-assign]
    monitor.backlog(read_backwards(log), functools.partial(path_head, log))
    assert len(seen) == 3  # the glance, the first view, the hour behind it
    (step, steps_per_hour, tokens_per_hour, points), first, whole = seen
    assert step == STEPS - 1
    # 256 KiB of 100-ms steps: about 8 min of them, 36,000 steps/h × 8,192 tokens (the log's first line)
    assert steps_per_hour is not None and abs(steps_per_hour - 36_000) < 100
    assert tokens_per_hour is not None and abs(tokens_per_hour - 36_000 * 8192) < 100 * 8192
    assert points <= 20 < first[3] <= 75 < whole[3]
    assert first[0] == whole[0] == STEPS - 1


def test_once_reads_only_the_first_views_span(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    nanogpt_log(log)
    monitor = Monitor(log, clock=lambda: NOW)
    monitor.read_once(log)
    snap = monitor.snapshot(NOW)
    assert snap.step == STEPS - 1
    assert snap.rate.passes_per_hour is not None and abs(snap.rate.passes_per_hour - 36_000) < 50
    assert snap.source.lines_read <= 25_000  # 25 min of 100-ms steps and the margin, or 1 MiB at least


def test_the_tokens_per_step_printed_only_at_the_top_are_still_known(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    nanogpt_log(log)
    served = Monitor(log, clock=lambda: NOW)
    served.backlog(read_backwards(log), functools.partial(path_head, log))
    once = Monitor(log, clock=lambda: NOW)
    once.read_once(log)
    for monitor in (served, once):
        snap = monitor.snapshot(NOW)
        assert snap.source.lines_read < STEPS  # read from the tail, not whole
        # 36,000 steps/h × 8,192 tokens per iteration (the log's first line)
        assert snap.rate.tokens_per_hour is not None and abs(snap.rate.tokens_per_hour - 36_000 * 8192) < 50 * 8192
    # Without its first line read, the figure is not known (the test above needs the head).
    tail_only = Monitor(log, clock=lambda: NOW)
    tail_only.backlog(read_backwards(log))
    assert tail_only.snapshot(NOW).rate.tokens_per_hour is None


def torchtitan_log(path: Path, steps: int) -> None:
    """A torchtitan run of ``steps`` one-second steps ending at NOW, its length said once at the start."""
    def line(t: float, message: str) -> str:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))
        return f"[rank0]:[titan] {stamp},000 - root - INFO - {message}"

    start = NOW - steps
    lines = [line(start - 5, f"Training starts at step 1, with local batch size 8, global batch size 64, "
                             f"sequence length 8192, total steps {2 * steps} (warmup 200)")]
    lines += [line(start + i, f"step: {i}  loss: {8 - i / steps:.4f}  memory: 66.91GiB(37.51%)  tps: 7,800  "
                              "tflops: 452.98  mfu: 45.80%") for i in range(1, steps + 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(path, (NOW, NOW))


def test_a_dated_step_log_reads_back_its_span_by_time_and_no_further(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    steps = 40_000  # 11 h of one-second steps; about 3.8 MB
    torchtitan_log(log, steps)
    served = Monitor(log, clock=lambda: NOW)
    served.backlog(read_backwards(log), functools.partial(path_head, log))
    snap = served.snapshot(NOW)
    assert snap.step == steps
    assert snap.rate.passes_per_hour is not None and abs(snap.rate.passes_per_hour - 3600) < 10
    assert snap.training is not None and training_dict(snap.training)["total_steps"] == 2 * steps  # from its first line
    assert len(snap.history) >= 115  # the whole hour of 30-s points
    # 80 min of steps × the margin (or the 1 MiB least read), not the facts only a miner's log prints
    assert 80 * 60 <= snap.source.lines_read <= 12_000
    once = Monitor(log, clock=lambda: NOW)
    once.read_once(log)
    first = once.snapshot(NOW)
    assert first.step == steps and first.training is not None and training_dict(first.training)["total_steps"] == 2 * steps
    assert first.rate.passes_per_hour is not None and abs(first.rate.passes_per_hour - 3600) < 10
    assert first.source.lines_read <= snap.source.lines_read


def test_a_crash_at_the_end_of_a_long_log_is_seen_from_the_tail(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    nanogpt_log(log)
    with log.open("a", encoding="utf-8") as f:
        f.write("Traceback (most recent call last):\n"
                '  File "/root/nanoGPT/train.py", line 300, in <module>\n'
                "    loss.backward()\n"
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    os.utime(log, (NOW, NOW))
    served = Monitor(log, clock=lambda: NOW)
    served.backlog(read_backwards(log), functools.partial(path_head, log))
    once = Monitor(log, clock=lambda: NOW)
    once.read_once(log)
    for monitor in (served, once):
        snap = monitor.snapshot(NOW)
        assert snap.state == "crashed" and snap.step == STEPS - 1
        assert snap.training is not None
        assert training_dict(snap.training)["crash"]["error"] == "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
