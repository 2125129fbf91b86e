"""A time a record prints under the bare name ``time`` with no unit: the interval's since the record before, or one
step's, as the records' own dates decide (interval_times.bare_time_reading), and shown as the trainer's, never the
clock's mean where the trainer prints its own. Composed logs and the rule's table, answers worked out by hand; the real
logs (PSENet.pytorch issue 41, MST issue 7) are in test_real_logs.py."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.ingest.formats.interval_times import BARE_STEP_NOTE, bare_time_reading
from tests.coldread import read_cold


def stamp(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(1_700_000_000 + seconds)) + f".{int(seconds * 1000) % 1000:03d}"


@pytest.mark.parametrize(("printed", "steps", "gap", "expected"), [
    # 100 iterations a record, 113.664 printed, 113.665 s of dates: the interval's, 1.13664 s an iteration
    (113.664, 100, 113.665, 113.664 / 100),
    # the interval after a validation and a save: 1145.108 for 100 iterations over 1145.07 s of dates
    (1145.108, 100, 1145.07, 11.45108),
    # 10 batches a record, 3.0781 printed, 3 s of whole-second dates (within half of the span to half again, + 2 s)
    (3.0781, 10, 3.0, 0.30781),
    # one step on, 0.3849 printed, 1 s of dates: that step's own, as printed
    (0.3849, 1, 1.0, 0.3849),
    # one epoch a record: 673.80 printed over 675.258 s of dates
    (673.80, 1, 675.258, 673.80),
    # 100 iterations a record, 0.731 printed, 73.9 s of dates: far under the span, one iteration's
    (0.731, 100, 73.9, 0.731),
    # a run's clock since it began (18570.12 at a record 1.14 s after the one before): neither
    (18570.12, 1, 1.14, None),
    # 10 steps, 1.0 printed over 60 s of dates: neither the interval's (60 s) nor a step's (6 s, 1.0 within 10x but
    # under half the span: it is) — one step's
    (1.0, 10, 60.0, 1.0),
    # 10 steps, 0.1 printed over 60 s: a step of 6 s on average, 0.1 more than ten times less: neither
    (0.1, 10, 60.0, None),
    # no dates between them, or no step between them: nothing to decide by
    (3.0, 10, 0.0, None),
    (3.0, 0, 3.0, None),
])  # fmt: skip
def test_the_dates_say_whose_a_bare_time_is(printed: float, steps: int, gap: float, expected: float | None) -> None:
    reading = bare_time_reading(printed, steps, gap)
    if expected is None:
        assert reading is None
    else:
        assert reading is not None
        assert reading[0] == pytest.approx(expected)


def interval_log() -> list[str]:
    """A record every 100 iterations, each printing the seconds since the record before (``time:``); a validation
    and a save of 300 s after iteration 1000, in the next record's time too."""
    lines, t = [], 0.0
    for n, took in ((800, 110.0), (900, 112.0), (1000, 114.0), (1100, 414.0), (1200, 120.0)):
        t += took
        lines.append(f"{stamp(t)} - INFO: <epoch:  3, iter:   {n:,}, lr:1.000e-04, , time:{took:.3f}> l_pix: 1.0e-02")
        if n == 1000:
            lines += [f"{stamp(t + 290)} - INFO: # Validation # PSNR: 2.5e+01",
                      f"{stamp(t + 290.5)} - INFO: Saving models and training states."]
    return lines


def test_a_record_s_time_for_the_iterations_since_the_last_is_shown_over_them(tmp_path: Path) -> None:
    # the last record: 120.000 printed over 120 s of dates and 100 iterations: 1.20 s an iteration, the trainer's own
    # (the clock's mean over the records, the validation's pause in it, is no step's time)
    data = read_cold(tmp_path, interval_log(), dated=True)
    assert data["training"]["step_seconds"] == pytest.approx(1.2)
    assert "step 1.20 s (120 s printed for the 100 steps since the line before, as the log's dates show)" in data["details"]
    assert not any(line.startswith("Times time") for line in data["details"])  # (read, so no figure apart)


def test_a_record_s_time_of_one_step_is_shown_as_printed(tmp_path: Path) -> None:
    # a record every 50 steps, 20 s apart by the dates; each prints the last step's time, 0.35 s: one step's, as printed
    # (the dates' mean, 0.4 s, holds the data loading between)
    lines = [f"{stamp(20.0 * k)} INFO step: {50 * k}, loss: {1.0 - k / 100:.4f}, time: 0.3500" for k in range(1, 8)]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["training"]["step_seconds"] == pytest.approx(0.35)
    assert f"step 350 ms ({BARE_STEP_NOTE})" in data["details"]


def test_a_run_s_clock_under_the_name_time_is_no_step_s_time(tmp_path: Path) -> None:
    # the seconds since training began, 1.1 s a batch, from 500 s on: far above the dates between records, never read
    lines = [f"{stamp(500 + 1.1 * k)} Epoch: [3] [{k:4d}/1000] time: {500 + 1.1 * k:.4f}, d_loss: 1.38, g_loss: 0.67"
             for k in range(10, 20)]
    data = read_cold(tmp_path, lines, dated=True)
    assert "time" not in (data["training"].get("step_seconds_note") or "")
    assert not any("printed for the" in line or BARE_STEP_NOTE in line for line in data["details"])
