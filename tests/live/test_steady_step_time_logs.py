"""A printed step time that held an evaluation, a sample or a checkpoint's save: the steady step time shown.

A trainer that times its whole loop prints, on the step line after its evaluation (and its samples, its save), a
time that holds them: nanoGPT's ``iter 5000: … time 4749.53ms`` after ``step 5000: train loss …``, build-nanogpt's
``dt: 51754.23ms | tok/sec: 10130.34`` after its validation, HellaSwag and samples. Where that time is more than
twice the median of the recent printed times that held no pause, the median is the step time shown (and the tokens
a second beside it the median of theirs), the line's own said to have held the pause. A time that rose with no
pause before it is the run's own and is shown as printed. Composed logs, their answers worked out by hand; the real
excerpts are in tests/live/test_real_logs.py (CASES)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.coldread import T0, read_cold


def read(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    return read_cold(tmp_path, lines, mtime=T0)


def speed(data: dict[str, Any]) -> str:
    """The details' line of the step time."""
    return next(line for line in data["details"] if line.startswith("step ") and "(as printed" in line)


def nanogpt(times_ms: list[float], *, evaluated: bool, last_ms: float) -> list[str]:
    """nanoGPT lines every 10 iterations at ``times_ms``, an evaluation (and its save) at the next ten where
    ``evaluated``, then that iteration's line at ``last_ms``."""
    lines = [f"iter {10 * (n + 1)}: loss {3.0 - n * 0.01:.4f}, time {ms:.2f}ms, mfu 30.00%" for n, ms in enumerate(times_ms)]
    last = 10 * (len(times_ms) + 1)
    if evaluated:
        lines += [f"step {last}: train loss 2.9000, val loss 3.1000", "saving checkpoint to out"]
    return [*lines, f"iter {last}: loss 2.9500, time {last_ms:.2f}ms, mfu 28.00%"]


def build_nanogpt(dts: list[tuple[float, float]], last: tuple[float, float]) -> list[str]:
    """build-nanogpt's step lines (dt, tok/sec), its validation, HellaSwag and a sample, then the step after them."""
    lines = [f"step {n:4d} | loss: {4.0 - n * 0.01:.6f} | lr 6.0000e-04 | norm: 0.3000 | dt: {dt:.2f}ms | tok/sec: {rate:.2f}"
             for n, (dt, rate) in enumerate(dts, 1)]
    lines += ["validation loss: 3.9000", "HellaSwag accuracy: 2500/10042=0.2489",
              "rank 0 sample 0: Hello, I'm a language model, and I like to write"]
    n = len(dts) + 1
    return [*lines, f"step {n:4d} | loss: 3.950000 | lr 6.0000e-04 | norm: 0.3000 | dt: {last[0]:.2f}ms | tok/sec: {last[1]:.2f}"]


def test_a_step_after_its_evaluation_shows_the_steady_step_time_and_tokens_a_second(tmp_path: Path) -> None:
    # dt 500, 510, 490, 505, 495 ms: median 500 ms; tok/sec 1,000,000, 980,000, 1,020,000, 990,000, 1,010,000: median
    # 1,000,000 (1.0M). Step 6's 8,000 ms (65,536 tok/s) held the validation, HellaSwag and the sample: 16 × 500 ms.
    dts = [(500.0, 1_000_000.0), (510.0, 980_000.0), (490.0, 1_020_000.0), (505.0, 990_000.0), (495.0, 1_010_000.0)]
    data = read(tmp_path, build_nanogpt(dts, (8000.0, 65_536.0)))
    training = data["training"]
    assert training["step"] == 6
    assert training["step_seconds"] == pytest.approx(0.5)
    assert training["tokens_per_second"] == pytest.approx(1_000_000.0)
    assert training["step_seconds_note"] == "as printed, the steps before; step 6's 8.00 s held its evaluation"
    assert speed(data) == "step 500 ms (as printed, the steps before; step 6's 8.00 s held its evaluation) · 1.0M tok/s"


@pytest.mark.parametrize(
    ("times_ms", "evaluated", "last_ms", "shown"),
    [
        # 300, 310, 290, 305, 295 ms: median 300 ms; iteration 60's 2,000 ms held its evaluation and save
        ([300.0, 310.0, 290.0, 305.0, 295.0], True, 2000.0,
         "step 300 ms (as printed, the steps before; step 60's 2.00 s held its evaluation) · MFU 28.00%"),
        # the same rise with no evaluation nor save before it: the run slowed down, its time shown as printed
        ([300.0, 310.0, 290.0, 305.0, 295.0], False, 2000.0, "step 2.00 s (as printed) · MFU 28.00%"),
        # after the evaluation, 450 ms is 1.5 × the 300 ms median (not over 2 ×): shown as printed
        ([300.0, 310.0, 290.0, 305.0, 295.0], True, 450.0, "step 450 ms (as printed) · MFU 28.00%"),
        # two printed times before it are too few to say a steady pace by: shown as printed
        ([300.0, 310.0], True, 2000.0, "step 2.00 s (as printed) · MFU 28.00%"),
    ],
)  # fmt: skip
def test_only_a_time_that_held_a_pause_and_is_far_above_the_steps_before_gives_way(
    tmp_path: Path, times_ms: list[float], evaluated: bool, last_ms: float, shown: str
) -> None:
    assert speed(read(tmp_path, nanogpt(times_ms, evaluated=evaluated, last_ms=last_ms))) == shown


def test_a_slowdown_that_goes_on_after_the_evaluation_is_shown_as_printed(tmp_path: Path) -> None:
    # iteration 60 (2,000 ms) held its evaluation; iteration 70 prints 2,100 ms with no pause before it: the run is
    # slower now, and its own time is shown, never the median before the evaluation
    lines = [*nanogpt([300.0, 310.0, 290.0, 305.0, 295.0], evaluated=True, last_ms=2000.0),
             "iter 70: loss 2.9400, time 2100.00ms, mfu 10.00%"]
    data = read(tmp_path, lines)
    assert speed(data) == "step 2.10 s (as printed) · MFU 10.00%"
    assert data["training"]["step_seconds"] == pytest.approx(2.1)
    assert "step_seconds_note" not in data["training"]


def test_a_checkpoint_s_save_alone_is_said_so(tmp_path: Path) -> None:
    # llama2.c's lines, a save with no evaluation before it: 800, 810, 790, 820 ms, median (800 + 810) / 2 = 805 ms
    lines = [f"{n} | loss {5.1 - k * 0.1:.4f} | lr 1.000000e-04 | {ms:.2f}ms | mfu 0.20%"
             for k, (n, ms) in enumerate([(100, 800.0), (110, 810.0), (120, 790.0), (130, 820.0)])]
    lines += ["saving checkpoint to out", "140 | loss 4.7000 | lr 1.000000e-04 | 9000.00ms | mfu 0.20%"]
    data = read(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(0.805)
    assert speed(data) == "step 805 ms (as printed, the steps before; step 140's 9.00 s held a checkpoint's save) · MFU 0.20%"
