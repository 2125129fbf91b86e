"""The import reads an every-step log's usual lines in runs and applies them in bulk: what it stores is
what reading and applying each line as an event stores, to the last bit.

Composed nanoGPT logs mix stretches of usual lines with everything that breaks a stretch or has a
rule of its own: evaluations and checkpoints, a restart (the step goes back), a skipped step count,
a step printed again (at once, or dated minutes later: the counter did not move), dated lines (a
logger's prefix: they re-anchor the placement), lines of no duration (``time 0.00ms``: what precedes
stays undated), steps over the stall floor, a loss that is not a number or that explodes, a crash's
traceback and a run started again after it, the tokens a step carries printed midway, junk and empty
lines. Each log is imported both ways, in batches of a
few hundred bytes (so runs and the spool's records are cut anywhere), with and without steps the
history placed already.
"""

from __future__ import annotations

import math
import random
import threading
from array import array
from itertools import accumulate, pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ingest.formats import create_parser
from app.record import replay as replay_module
from app.record.replay import decode, encode, replay_steps
from app.stats.events import StepRun, TrainStep
from app.stats.steps import placing
from app.stats.steps.intervals import IntervalWindow
from app.store import Observation, SourceKey
from app.store.records import LossColumns, LossPoint

MTIME = 1_795_000_000.0
NOW = MTIME + 600

# Lines, by kind: each a function of (random, the step to print) -> (lines, the step after them).
CRASH = ["Traceback (most recent call last):", '  File "train.py", line 332, in <module>',
         "    loss.backward()", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"]
JUNK = ["", "number of parameters: 123.59M", "iter 7: loss", "compiling the model... (takes a ~minute)",
        "step 4: train loss", "\x1b[0m", "iter 12: loss 3.1000, time 12.00ms, mfu 4.00% extra",
        "iter 13: loss 3.1000, time 12.00ms,", "found vocab_size = 50304", "iter 9: loss 2.9, time 5ms, mfu 1%"]


def _usual(rng: random.Random, step: int, count: int, ms: tuple[float, float], stride: int) -> tuple[list[str], int]:
    lines = []
    for _ in range(count):
        loss = rng.uniform(2.5, 4.0)
        mfu = -100.0 if rng.random() < 0.05 else rng.uniform(30.0, 50.0)
        lines.append(f"iter {step}: loss {loss:.4f}, time {rng.uniform(*ms):.2f}ms, mfu {mfu:.2f}%")
        step += stride
    return lines, step


def _block(rng: random.Random, kind: str, step: int) -> tuple[list[str], int]:
    if kind == "usual":
        return _usual(rng, step, rng.randint(1, 300), (80.0, 140.0), 1)
    if kind == "long":
        return _usual(rng, step, 2000, (80.0, 140.0), 1)
    if kind == "slow":  # a few seconds a step: the run crosses its 30-s samples, 5-min looks and hours fast
        return _usual(rng, step, rng.randint(1, 200), (2000.0, 9000.0), 1)
    if kind == "every_ten":
        return _usual(rng, step, rng.randint(1, 100), (100.0, 300.0), 10)
    if kind == "eval":
        loss = rng.uniform(2.5, 4.0)
        return [f"step {step}: train loss {loss:.4f}, val loss {loss + 0.05:.4f}", "saving checkpoint to out"], step
    if kind == "restart":
        return [], max(0, step - rng.randint(1, 400))
    if kind == "skip":
        return [], step + rng.randint(2, 50)
    if kind == "again":  # the step before printed again
        return _usual(rng, max(0, step - 1), 1, (80.0, 140.0), 1)[0], step
    if kind == "again_dated":  # the step before printed again minutes later: the counter did not move (moved_at)
        stamp = rng.choice(["2026-11-30 21:", "2026-12-01 09:"]) + f"{rng.randint(0, 59):02d}:00,000"
        loss = rng.uniform(2.5, 4.0)
        return [f"{stamp} - INFO - iter {max(0, step - 1)}: loss {loss:.4f}, time 110.00ms, mfu 40.00%"], step
    if kind == "dated":
        stamp = rng.choice(["2026-11-30 21:", "2026-11-30 22:", "2026-12-01 09:"]) + f"{rng.randint(0, 59):02d}:00,000"
        loss = rng.uniform(2.5, 4.0)
        return [f"{stamp} - INFO - iter {step}: loss {loss:.4f}, time 110.00ms, mfu 40.00%"], step + 1
    if kind == "no_time":
        return [f"iter {step}: loss {rng.uniform(2.5, 4.0):.4f}, time 0.00ms, mfu 40.00%"], step + 1
    if kind == "stall":
        return [f"iter {step}: loss {rng.uniform(2.5, 4.0):.4f}, time 95000.00ms, mfu 40.00%"], step + 1
    if kind == "nan":
        return [f"iter {step}: loss nan, time 110.00ms, mfu 40.00%"], step + 1
    if kind == "explode":
        return [f"iter {step}: loss {rng.uniform(9000.0, 99999.0):.4f}, time 110.00ms, mfu 40.00%"], step + 1
    if kind == "zero":
        return [f"iter {step}: loss 0.0000, time 110.00ms, mfu 40.00%"], step + 1
    if kind == "crash":
        return list(CRASH), step
    if kind == "planned":  # nanoGPT's configurator's max_iters: the total of the steps read after it (reached or not)
        return [f"Overriding: max_iters = {step + rng.randint(0, 400)}"], step
    if kind == "tokens":
        return [f"tokens per iteration will be: {rng.choice(['491,520', '8,192'])}"], step
    return [rng.choice(JUNK) for _ in range(rng.randint(1, 3))], step


KINDS = ["usual", "slow", "every_ten", "eval", "restart", "skip", "again", "dated", "no_time", "stall", "nan",
         "explode", "zero", "crash", "tokens", "junk", "again_dated", "planned"]


def _log(seed: int, kinds: list[str]) -> str:
    rng = random.Random(seed)
    lines = ["tokens per iteration will be: 491,520"] if rng.random() < 0.7 else []
    step = 0
    for kind in kinds:
        block, step = _block(rng, kind, step)
        lines.extend(block)
    return "\n".join(lines) + "\n"


def _imported(path: Path, *, runs: bool, anchors: dict[tuple[str, int], float]) -> list[Observation]:
    kept: list[Observation] = []
    done = replay_steps(path, "nanogpt", NOW, MTIME, anchors, threading.Event(), kept.append, runs=runs)
    assert done
    return kept


def _same(a: list[Observation], b: list[Observation]) -> bool:
    return repr(a) == repr(b)  # (field by field, nan included, floats to the last bit)


def _anchors(path: Path, seed: int) -> dict[tuple[str, int], float]:
    """Some steps the history already placed (at times of their own, as a former import left them)."""
    rng = random.Random(seed)
    steps = [event.step for event in create_parser("nanogpt").feed(path.read_text().splitlines())
             if isinstance(event, TrainStep)]
    return {("train", step): MTIME - rng.uniform(100.0, 90_000.0) for step in rng.sample(steps, min(len(steps), 3))}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=40),
       batch_bytes=st.sampled_from([301, 4096, 1 << 20]), anchored=st.booleans())
def test_a_log_imported_in_runs_stores_what_one_event_at_a_time_stores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, kinds: list[str], batch_bytes: int,
        anchored: bool) -> None:
    path = tmp_path / "train.log"
    path.write_text(_log(seed, kinds))
    monkeypatch.setattr(replay_module, "READ_BYTES", batch_bytes)
    anchors = _anchors(path, seed) if anchored else {}
    in_runs = _imported(path, runs=True, anchors=anchors)
    one_by_one = _imported(path, runs=False, anchors=anchors)
    assert _same(in_runs, one_by_one)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_long_every_step_run_imported_in_runs_stores_what_one_event_at_a_time_stores(
        tmp_path: Path, seed: int) -> None:
    """Long enough for the rate windows to drop thousands of lines (and compact), and for hours of batches."""
    kinds = ["long"] * 10 + ["eval", "usual", "restart"] + ["long"] * 8 + ["slow"] * 10 + ["crash", "usual"]
    path = tmp_path / "train.log"
    path.write_text(_log(seed, kinds))
    in_runs = _imported(path, runs=True, anchors={})
    one_by_one = _imported(path, runs=False, anchors={})
    assert _same(in_runs, one_by_one)
    losses = [point for obs in in_runs for point in obs.losses]
    assert len(losses) > 30_000  # every step's loss, in both
    assert sum(len(obs.samples) for obs in in_runs) > 100  # an hour and more of 30-s samples


def test_the_usual_lines_are_read_in_runs_of_the_steps_they_print() -> None:
    # (a line that ends in a number is held for a wrapped rest: the line after it is read alone)
    lines = ["tokens per iteration will be: 8,192", "Initializing a new model from scratch",
             "iter 0: loss 10.9000, time 2500.00ms, mfu -100.00%", "iter 1: loss 10.8000, time 120.50ms, mfu -100.00%",
             "step 2: train loss 10.7, val loss 10.8", "saving checkpoint to out",
             "iter 2: loss 10.7000, time 0.00ms, mfu 45.10%", "iter 3: loss nan, time 120.00ms, mfu 45.00%"]
    parser = create_parser("nanogpt")
    items = parser.feed_runs(lines)  # type: ignore[attr-defined]
    runs = [item for item in items if isinstance(item, StepRun)]
    assert [run.steps for run in runs] == [(0, 1), (2,)]
    assert runs[0].losses == (10.9, 10.8) and runs[0].step_ms == (2500.0, 120.5) and runs[1].mfus == (45.1,)
    # each run's steps are the events the lines read as alone
    events = create_parser("nanogpt").feed(lines)
    steps = [run.step(i) for run in runs for i in range(len(run))]
    assert [e for e in events if isinstance(e, TrainStep) and e.step in (0, 1, 2)] == steps
    assert steps[2].step_seconds is None and steps[0].mfu is None and steps[2].mfu == 45.1


@settings(max_examples=200, deadline=None)
@given(items=st.lists(st.tuples(st.floats(0.0, 50.0), st.floats(0.0, 5.0), st.integers(1, 9)), min_size=1,
                      max_size=300),
       cuts=st.lists(st.integers(0, 300), max_size=6), span=st.sampled_from([3.0, 40.0, 1e9]))
def test_a_window_added_to_in_bulk_is_the_window_added_to_one_by_one(
        items: list[tuple[float, float, int]], cuts: list[int], span: float) -> None:
    ends = list(accumulate(gap for gap, _, _ in items))
    starts = [end - length for end, (_, length, _) in zip(ends, items, strict=True)]
    amounts = [amount for _, _, amount in items]
    one, bulk = IntervalWindow(span), IntervalWindow(span)
    for row in zip(starts, ends, amounts, strict=True):
        one.add(*row)
    bounds = [0, *sorted(min(cut, len(items)) for cut in cuts), len(items)]
    for lo, hi in pairwise(bounds):
        bulk.add_many(starts[lo:hi], ends[lo:hi], amounts[lo:hi])
    assert vars_of(bulk) == vars_of(one)
    for end in ends[-3:]:
        assert bulk.total(end - span / 2, end) == one.total(end - span / 2, end)


def test_a_window_compacts_in_bulk_where_it_does_one_by_one() -> None:
    ends = [i * 0.1 for i in range(20_000)]
    one, bulk = IntervalWindow(60.0), IntervalWindow(60.0)
    for end in ends:
        one.add(end - 0.1, end, 1)
    for lo in range(0, len(ends), 250):
        bulk.add_many([end - 0.1 for end in ends[lo:lo + 250]], ends[lo:lo + 250], [1] * len(ends[lo:lo + 250]))
    assert vars_of(bulk) == vars_of(one)
    assert len(one._ends) < 5_000  # it did compact


def vars_of(window: IntervalWindow) -> tuple[object, ...]:
    return (window._starts, window._ends, window._amounts, window._sums, window._rebased, window._head,
            list(window._longest))


def test_losses_handed_back_in_columns_come_back_the_same() -> None:
    values = [3.25, math.inf, 1e-300, -0.0, 2.0 / 3.0]
    losses = tuple(LossPoint("train" if i % 2 else "sft", i * 7, MTIME + i / 3, value, None if i % 2 else 1e-4 * i)
                   for i, value in enumerate(values))
    obs = Observation(SourceKey("", "", "steps"), losses=losses)
    back = decode(encode(obs))
    assert back.losses == losses
    assert [math.copysign(1.0, p.value) for p in back.losses] == [math.copysign(1.0, v) for v in values]
    huge = (LossPoint("train", 2**70, MTIME, 1.0, None), LossPoint("train", -3, MTIME, 2.0, 0.5))
    assert decode(encode(Observation(SourceKey("", "", "steps"), losses=huge))).losses == huge
    assert decode(encode(Observation(SourceKey("", "", "steps")))).losses == ()


def test_loss_columns_read_as_the_points_they_hold() -> None:
    columns = LossColumns()
    columns.extend_run("train", [1, 2], [1.5, 2.5], [3.0, 4.0])
    columns.append(LossPoint("train", 3, 3.5, math.inf, 0.01))
    columns.append(LossPoint("sft", 1, 4.5, 2.0))
    columns.extend_run("sft", (2,), (5.5,), (1.75,))
    points = (LossPoint("train", 1, 1.5, 3.0), LossPoint("train", 2, 2.5, 4.0), LossPoint("train", 3, 3.5, math.inf, 0.01),
              LossPoint("sft", 1, 4.5, 2.0), LossPoint("sft", 2, 5.5, 1.75))
    assert columns == points and list(columns) == list(points) and len(columns) == 5
    assert columns.stages == [["train", 3], ["sft", 2]]
    assert [columns[i] for i in range(-5, 5)] == [*points, *points]
    assert columns[1:3] == points[1:3]
    assert columns != points[:4] and columns != (*points[:4], LossPoint("sft", 2, 5.5, 1.5))
    assert LossColumns.of(points) == columns and LossColumns.of(columns) is columns
    with pytest.raises(IndexError):
        columns[5]
    with pytest.raises(ValueError):
        columns.extend_run("train", [4, 5], [6.0], [1.0, 2.0])


def _placed_one_by_one(times: list[float], seconds: list[float], end_at: float) -> list[float]:
    """The placement as it was written first: one event at a time, back from the end."""
    placed, t = list(times), end_at
    for i in range(len(placed) - 1, -1, -1):
        if not math.isnan(placed[i]):
            t = placed[i]
        elif math.isnan(t):
            continue
        else:
            placed[i] = t
        t -= seconds[i]
    return placed


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from([math.nan, math.nan, math.nan, 1000.5, 2e9, math.inf]),
                               st.sampled_from([0.0, 0.1, 0.123456789, 2.5, math.nan, 1e-9])), max_size=40),
       slice_size=st.sampled_from([1, 2, 3, 1 << 14]))
def test_undated_events_are_placed_a_slice_at_a_time_as_one_by_one(
        rows: list[tuple[float, float]], slice_size: int) -> None:
    times, seconds = [t for t, _ in rows], [s for _, s in rows]
    undated = [math.nan] * len(rows)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(placing, "PLACE_SLICE", slice_size)
        placed = placing.place_back(array("d", times), array("d", seconds), MTIME)
        # a log with no dated event keeps no times at all: placed as if each were NaN
        placed_undated = placing.place_back(None, array("d", seconds), MTIME)
    assert repr(placed.tolist()) == repr(_placed_one_by_one(times, seconds, MTIME))
    assert repr(placed_undated.tolist()) == repr(_placed_one_by_one(undated, seconds, MTIME))


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.sampled_from([b"a", b"\n", b"\r", b"\xc3\xa9", b"\xc3", b"\xa9", b"\xff", b"\xe2\x82",
                                        b"\xe2\x82\xac", b"\xf0\x9f\x98", b" ", b"\x00", b"\xed\xa0\x80"]), max_size=40))
def test_a_batch_of_lines_decoded_at_once_reads_as_each_line_decoded_alone(pieces: list[bytes]) -> None:
    block = b"".join(pieces)
    alone = [p[:replay_module.MAX_LINE_BYTES].decode("utf-8", "replace").rstrip("\r") for p in block.split(b"\n")]
    assert replay_module._decoded(block) == alone


def test_an_over_long_line_is_cut_in_bytes_as_before() -> None:
    cap = replay_module.MAX_LINE_BYTES
    block = b"x" * (cap - 1) + b"\xe2\x82\xac" + b"\nshort\r\n" + b"\xe2\x82\xac" * (cap // 3 + 2)
    alone = [p[:cap].decode("utf-8", "replace").rstrip("\r") for p in block.split(b"\n")]
    assert replay_module._decoded(block) == alone
    assert alone[0].endswith("x\ufffd") and alone[1] == "short"
