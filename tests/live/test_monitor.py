"""The pipeline behind one lock: cold start reads only what it needs, live lines, restarts."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.ingest.formats import PARSERS, STEP_FORMATS, kind_of
from app.live.monitor import Monitor
from app.snapshot import training_dict
from app.stats.iota.tracker import IotaTracker
from app.stats.kinds import tracker_for
from app.stats.steps.tracker import StepTracker
from app.stats.unknown import UnknownTracker
from tests.cli.test_cli import training_log

NOW = time.time()
DATA = Path(__file__).resolve().parents[1] / "data"


def chunks_newest_first(lines: list[str], size: int) -> list[list[str]]:
    """Split a log into chunks of ``size`` lines, newest chunk first, like read_backwards."""
    out = [lines[max(0, end - size):end] for end in range(len(lines), 0, -size)]
    return out


class Counting:
    """An iterator over chunks that remembers how many were pulled."""

    def __init__(self, chunks: list[list[str]]) -> None:
        self._chunks = chunks
        self.pulled = 0

    def __iter__(self) -> Iterator[list[str]]:
        for chunk in self._chunks:
            self.pulled += 1
            yield chunk


def test_cold_start_stops_reading_once_it_has_enough() -> None:
    # ten hours of training, one pass every 15 s: the tracker needs the last 80 minutes
    lines = training_log(NOW - 10 * 3600, 600)
    chunks = Counting(chunks_newest_first(lines, 100))
    monitor = Monitor(None, format_name="iota", clock=lambda: NOW)
    monitor.backlog(iter(chunks))
    total = len(chunks_newest_first(lines, 100))
    # 80 min ≈ 320 passes ≈ 720 lines ≈ 8 chunks, plus the one that crosses the line
    assert chunks.pulled <= 10 < total
    snap = monitor.snapshot(NOW)
    assert snap.state == "training" and snap.rate.observed_seconds == 1200
    assert snap.status_line == "L1 · 768k tok/h"
    assert len(snap.history) == 120
    assert snap.source.lines_read == sum(len(c) for c in chunks_newest_first(lines, 100)[: chunks.pulled])


def test_cold_start_reads_the_whole_of_a_short_log() -> None:
    lines = training_log(NOW - 600, 10)
    chunks = Counting(chunks_newest_first(lines, 10))
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.backlog(iter(chunks))
    assert chunks.pulled == len(chunks_newest_first(lines, 10))
    assert monitor.snapshot(NOW).format == "iota"


def test_until_cuts_the_log_at_a_past_time() -> None:
    lines = training_log(NOW - 3600, 60)
    monitor = Monitor(None, format_name="iota", clock=lambda: NOW)
    monitor.backlog(iter(chunks_newest_first(lines, 50)), until=NOW - 3000)
    snap = monitor.snapshot(NOW - 3000)
    assert snap.source.last_event_at is not None and snap.source.last_event_at <= NOW - 3000
    assert snap.warmup.passes == 39  # 600 s of passes every 15 s, the last one at 585 s + 1


def test_live_lines_wake_waiters() -> None:
    monitor = Monitor(None, format_name="iota", clock=lambda: NOW)
    version = monitor.changes.version
    got: list[int] = []
    waiter = threading.Thread(target=lambda: got.append(monitor.changes.wait_for_change(version, 5)))
    waiter.start()
    monitor.lines(training_log(NOW - 60, 1)[:2])
    waiter.join(5)
    assert got and got[0] > version


def test_unrecognised_lines_then_a_real_log() -> None:
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.lines(["hello", "world"])
    snap = monitor.snapshot(NOW)
    assert (snap.state, snap.status_line) == ("unrecognised", "log format not recognised")
    assert snap.source.problem == "2 lines read, none in a format tokwatch reads"
    monitor.lines(training_log(NOW - 600, 10))
    snap = monitor.snapshot(NOW)
    assert snap.format == "iota" and snap.layer == 1 and snap.source.problem is None


def test_restart_keeps_counted_passes() -> None:
    lines = training_log(NOW - 600, 10)
    monitor = Monitor(None, format_name="iota", clock=lambda: NOW)
    monitor.lines(lines)
    before = monitor.snapshot(NOW).warmup.passes
    monitor.restarted("truncated")
    # the same passes again (a copytruncate that re-delivers them): no pass counted twice
    monitor.lines(lines[1:])
    assert monitor.snapshot(NOW).warmup.passes == before


@pytest.mark.parametrize(
    ("sample", "tail_lines"),
    [
        ("sample-hf-trainer.log", 3),
        ("sample-hf-trainer.log", 6),
        ("sample-nanochat.log", 4),
        ("sample-nanogpt.log", 5),
        ("sample-torchtitan.log", 4),
        ("sample-sn38.log", 6),
    ],
)
def test_live_lines_after_a_cold_start_read_as_if_read_whole(sample: str, tail_lines: int) -> None:
    # Parser state (HF's progress bar, a wrapped record, RL's tokens) must carry from the
    # backlog into the live lines: nothing after a cold start is dropped or misread.
    lines = (DATA / sample).read_text(encoding="utf-8").splitlines()
    whole = Monitor(None, clock=lambda: NOW)
    whole.backlog(iter(chunks_newest_first(lines, 7)))
    split = Monitor(None, clock=lambda: NOW)
    split.backlog(iter(chunks_newest_first(lines[:-tail_lines], 7)))
    split.lines(lines[-tail_lines:])
    a, b = whole.snapshot(NOW), split.snapshot(NOW)
    assert a.training is not None and b.training is not None
    for key in ("stage", "step", "total_steps", "outer_step", "loss", "lr", "eval", "all_reduce", "finished"):
        assert training_dict(a.training)[key] == training_dict(b.training)[key], key
    assert a.source.bad_lines == b.source.bad_lines
    assert a.source.lines_read == b.source.lines_read == len(lines)


def test_a_log_replaced_by_a_copy_of_itself_counts_nothing_twice() -> None:
    # The same log written again from its start (a copy of itself whose middle changed, so the
    # tailer could not read on from its offset): the tailer says the new stream repeats the old.
    lines = training_log(NOW - 3 * 3600, 180, every_seconds=60)
    monitor = Monitor(None, format_name="iota", clock=lambda: NOW)
    monitor.lines(lines)
    before = monitor.snapshot(NOW)
    monitor.restarted("replaced", repeats=True)
    new_pass = training_log(NOW - 5, 1, every_seconds=1)[2]  # one FORWARD complete, dated now
    assert "FORWARD complete" in new_pass
    monitor.lines([*lines, new_pass.replace("000000000001", "999999999999")])
    after = monitor.snapshot(NOW)
    assert after.warmup.passes == before.warmup.passes + 1
    assert after.rate.passes_in_window == before.rate.passes_in_window + 1
    assert after.rate.observed_seconds == before.rate.observed_seconds == 1200
    assert after.status_line == before.status_line or after.rate.measured


def test_a_new_file_after_a_restart_counts_as_usual() -> None:
    first = training_log(NOW - 3600, 30, every_seconds=15)
    monitor = Monitor(None, format_name="iota", clock=lambda: NOW)
    monitor.lines(first)
    monitor.restarted("replaced")
    second = [  # the miner relaunched: new activation ids, lines dated after the first file's
        line.replace("-4000-8000-", "-4000-9000-") for line in training_log(NOW - 1500, 20, layer=2, every_seconds=15)
    ]
    monitor.lines(second)
    snap = monitor.snapshot(NOW)
    assert snap.layer == 2 and snap.warmup.passes == len([x for x in second if "FORWARD complete" in x])


def test_at_a_time_far_back_in_a_large_log_still_finds_it() -> None:
    # 180 h of passes (~18 MiB); --at 175 h before the end: the 17 MiB after it are dated,
    # only later than asked, so reading back must not stop as if the log were undated (16 MiB).
    lines = training_log(NOW - 180 * 3600, 180 * 60, every_seconds=15)
    monitor = Monitor(None, format_name="iota", clock=lambda: NOW)
    at = NOW - 175 * 3600
    monitor.backlog(iter(chunks_newest_first(lines, 200)), until=at)
    snap = monitor.snapshot(at)
    assert snap.state == "training" and snap.rate.passes_in_window == 80


@pytest.mark.parametrize("format_name", sorted(PARSERS))
def test_one_tracker_per_kind_of_log(format_name: str) -> None:
    tracker = tracker_for(kind_of(format_name), format_name)
    expected = StepTracker if format_name in STEP_FORMATS else IotaTracker
    assert type(tracker) is expected and tracker.format_name == format_name
    assert type(tracker_for(None, None)) is UnknownTracker


def test_a_log_that_switches_trainer_gets_the_other_tracker() -> None:
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.lines((DATA / "iota-sample.log").read_text(encoding="utf-8").splitlines()[:50])
    assert monitor.snapshot().format == "iota"
    monitor.lines((DATA / "sample-nanochat.log").read_text(encoding="utf-8").splitlines())
    snapshot = monitor.snapshot()
    assert snapshot.format == "nanochat" and snapshot.training is not None and snapshot.layer is None


def skipped_details(monitor: Monitor) -> list[str]:
    return [line for line in monitor.snapshot().details if "skipped on overflow" in line or "fp16 overflow" in line]


def test_a_switch_to_the_trainer_s_own_format_keeps_the_overflows_counted_before_it() -> None:
    """CogVideo's six DeepSpeed overflows arrive alone (read as generic), then nanoGPT's step lines: still six."""
    from tests.reallogs import body

    monitor = Monitor(None, clock=lambda: NOW)
    monitor.lines(body("broken-cogvideo-issue233-deepspeed-overflow-warmup-transient.log"))
    assert monitor.snapshot().format == "generic"
    monitor.lines([f"iter {i}: loss 10.{9 - i // 10}, time 900.00ms, mfu 20.00%" for i in (0, 10, 20)])
    snapshot = monitor.snapshot()
    assert (snapshot.format, snapshot.step) == ("nanogpt", 20)
    assert skipped_details(monitor) == [
        "fp16 loss-scale warm-up: 6 steps skipped on overflow (loss scale 67108864), as usual"
    ]


APEX = "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to {}"


def test_no_overflow_is_lost_or_counted_twice_across_a_switch_spread_over_batches() -> None:
    """apex's overflows: 3 alone, 1 after the first nanoGPT line (read by the generic reader before the
    switch, and replayed), 1 in the batch that switches: 5 in all (scale 32768 at the last)."""
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.lines([APEX.format(v) for v in (524288.0, 262144.0, 131072.0)])
    assert monitor.snapshot().format == "generic"
    monitor.lines(["iter 0: loss 10.9000, time 900.00ms, mfu 20.00%", APEX.format(65536.0)])
    monitor.lines([APEX.format(32768.0), "iter 10: loss 10.8000, time 900.00ms, mfu 20.00%",
                   "iter 20: loss 10.7000, time 900.00ms, mfu 20.00%"])  # fmt: skip
    assert monitor.snapshot().format == "nanogpt"
    assert skipped_details(monitor) == ["fp16 loss-scale warm-up: 5 steps skipped on overflow (loss scale 32768), as usual"]


def test_the_lines_before_the_new_format_in_the_switching_batch_are_read() -> None:
    """3 overflows alone, then one batch: 2 overflows, then nanoGPT's lines: 5 in all."""
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.lines([APEX.format(v) for v in (524288.0, 262144.0, 131072.0)])
    monitor.lines([APEX.format(65536.0), APEX.format(32768.0)]
                  + [f"iter {i}: loss 10.{9 - i // 10}000, time 900.00ms, mfu 20.00%" for i in (0, 10, 20)])
    assert monitor.snapshot().format == "nanogpt"
    assert skipped_details(monitor) == ["fp16 loss-scale warm-up: 5 steps skipped on overflow (loss scale 32768), as usual"]
