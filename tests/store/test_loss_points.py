"""Every logged loss of a step trainer's run is kept; long runs come back as each bucket's lowest and
highest loss; a loss that was not a number and every evaluation always come back.

Composed runs (values computed here): loss(step) = 4 + sin(step / 50) with spikes to 9 at every
step that is a multiple of 997, a NaN at one step, an evaluation every 250 steps.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.record.logged import LoggedSteps
from app.stats.events import EvalResult, TrainStep
from app.store import History, Observation, SourceKey, losses
from app.store.losses import BUCKET_STEPS, LOSS_BUCKETS, LOSS_POINTS
from app.store.records import LossPoint, Sample

NOW = 1_790_000_100.0
SOURCE = SourceKey("box", "/logs/train.log", "steps")
NAN_STEP = 1234


def loss(step: int) -> float:
    if step == NAN_STEP:
        return math.nan
    return 9.0 if step % 997 == 0 and step else 4.0 + math.sin(step / 50)


def lr(step: int) -> float:
    return 1e-3 * (1 - step / 100_000)


def write_run(data_dir: Path, steps: int) -> History:
    history = History(data_dir, clock=lambda: NOW)
    history.start()
    logged = LoggedSteps()
    start = NOW - steps * 0.1
    events: list[TrainStep | EvalResult] = []
    for s in range(steps):
        events.append(TrainStep(at=start + s * 0.1, stage="train", step=s, loss=loss(s), lr=lr(s)))
        if s % 250 == 0:
            events.append(EvalResult(at=start + s * 0.1, name="val loss", value=3.0 + 1 / (s + 1), step=s))
    for i in range(0, len(events), 50_000):
        rows, evals = logged.feed(events[i:i + 50_000], NOW)
        assert history.submit(Observation(SOURCE, losses=tuple(rows), evals=tuple(evals)))
    assert history.flush(60)
    return history


def test_a_short_run_comes_back_with_every_logged_loss_and_its_not_a_number(tmp_path: Path) -> None:
    steps = LOSS_POINTS - 100
    history = write_run(tmp_path, steps)
    try:
        chart = history.chart(SOURCE, "30d", NOW)
    finally:
        history.stop()
    run = chart["steps"]
    assert run["loss_bucket_steps"] == 1
    finite = [s for s in range(steps) if s != NAN_STEP]
    assert [s for s, _ in run["loss"]] == finite
    assert all(v == loss(s) for s, v in run["loss"])
    assert run["not_finite"] == ([NAN_STEP] if NAN_STEP < steps else [])
    assert run["lr"] == [[s, lr(s)] for s in range(steps)]
    assert [s for s, _ in run["evals"]["val loss"]] == list(range(0, steps, 250))


# From the rows themselves up to ROWS_READ losses (157 buckets of 64 steps cut in 1,500: 7 steps
# each), and from the 64-step buckets beyond (30,017 steps: the last bucket holds one loss, drawn once).
@pytest.mark.parametrize(("steps", "width"), [(10_000, 7), (30_000, BUCKET_STEPS), (32_000, BUCKET_STEPS),
                                             (30_017, BUCKET_STEPS)])
def test_a_long_run_keeps_each_buckets_lowest_and_highest_and_every_evaluation(
        tmp_path: Path, steps: int, width: int) -> None:
    history = write_run(tmp_path, steps)
    try:
        chart = history.chart(SOURCE, "30d", NOW)
    finally:
        history.stop()
    run = chart["steps"]
    assert run["loss_bucket_steps"] == width
    assert_each_bucket_drawn(run, steps)


def assert_each_bucket_drawn(run: dict[str, Any], steps: int) -> None:
    width = run["loss_bucket_steps"]
    drawn = {s: v for s, v in run["loss"]}
    assert len(drawn) <= 2 * LOSS_BUCKETS and len(drawn) == len(run["loss"])  # each step once
    assert list(drawn) == sorted(drawn)
    for first in range(0, steps, width):
        values = [(loss(s), s) for s in range(first, min(first + width, steps)) if s != NAN_STEP]
        low, high = min(values), max(values)
        assert drawn.get(low[1]) == low[0] and drawn.get(high[1]) == high[0], first
    # Every spike is some bucket's highest.
    assert all(drawn.get(s) == 9.0 for s in range(997, steps, 997))
    assert run["not_finite"] == [NAN_STEP]
    # The learning rate at each bucket's last step.
    assert run["lr"] == [[min(first + width, steps) - 1, lr(min(first + width, steps) - 1)] for first in range(0, steps, width)]
    assert len(run["evals"]["val loss"]) == len(range(0, steps, 250))


def test_a_run_longer_than_the_chart_is_drawn_from_a_coarser_level_also_in_a_file_from_before_the_levels(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A chart 40 buckets wide: 30,000 steps are 469 buckets of 64 steps, 118 of 256, 30 of 1,024.
    monkeypatch.setattr(losses, "LOSS_BUCKETS", 40)
    steps = 30_000
    history = write_run(tmp_path, steps)
    try:
        run = history.chart(SOURCE, "30d", NOW)["steps"]
    finally:
        history.stop()
    assert run["loss_bucket_steps"] == 1024
    assert_each_bucket_drawn(run, steps)

    # The same file as the version before the levels wrote it: its levels are made when it is opened.
    conn = sqlite3.connect(tmp_path / "history.sqlite3")
    conn.executescript("DROP TABLE loss_level; DROP INDEX step_by_time; PRAGMA user_version = 5;")
    conn.close()
    history = History(tmp_path, clock=lambda: NOW)
    history.start()
    try:
        assert history.chart(SOURCE, "30d", NOW)["steps"] == run
    finally:
        history.stop()


def test_today_counts_the_steps_that_ran_today_never_more_than_the_run_has(tmp_path: Path) -> None:
    from app.store.queries import local_midnight

    midnight = local_midnight(NOW)
    history = History(tmp_path, clock=lambda: NOW)
    history.start()
    # Steps 1–999 before midnight, 1000–1600 after it: 601 steps ran today (1000 to 1600).
    before = [LossPoint("train", s, midnight - (1000 - s) * 2.0, 3.0) for s in range(1, 1000)]
    after = [LossPoint("train", s, midnight + (s - 999) * 2.0, 3.0) for s in range(1000, 1601)]
    assert history.submit(Observation(SOURCE, losses=tuple(before + after)))
    assert history.flush(20)
    try:
        _, today = history.figures(SOURCE, None, None, midnight + 1300)
    finally:
        history.stop()
    assert today is not None and today["passes"] == 601


def test_a_trainers_today_line_says_no_tokens_its_log_does_not_count() -> None:
    from app.record.recorder import today_line
    from app.snapshot import TodayView

    today = TodayView(tokens=0, passes=4000, training_seconds=0.0, observed_seconds=900.0)
    assert today_line(today, "steps", counts_tokens=False) == "today: 4,000 steps"
    assert today_line(replace(today, tokens=2_500_000), "steps") == "today: 2.5M tokens · 4,000 steps"


def test_a_log_with_no_times_keeps_its_losses_too(tmp_path: Path) -> None:
    """An HF Trainer's dicts alone (no progress bar, no durations): nothing places them in time."""
    import threading

    from app.record.replay import replay_file

    log = tmp_path / "trainer.log"
    log.write_text("".join(
        f"{{'loss': {3 - i / 1000:.4f}, 'grad_norm': 1.0, 'learning_rate': {5e-5 * (1 - i / 3000):.3e}, 'epoch': {i / 1000:.2f}}}\n"
        for i in range(1, 3001)))
    batches: list[Observation] = []
    assert replay_file(log, "auto", NOW, threading.Event(), batches.append) == "hf-trainer"
    losses = [p for o in batches for p in o.losses]
    assert [p.step for p in losses] == list(range(1, 3001))
    assert losses[0].value == 2.999 and losses[-1].lr == float(f"{5e-5 * (1 - 3000 / 3000):.3e}")


def test_one_step_today_is_said_in_the_singular() -> None:
    """A run that died at its only step today (a crash right after its first bar)."""
    from app.record.recorder import today_line
    from app.snapshot import TodayView

    today = TodayView(tokens=0, passes=1, training_seconds=0.0, observed_seconds=60.0)
    assert today_line(today, "steps", counts_tokens=False) == "today: 1 step"
    assert today_line(replace(today, tokens=6_800_000), "steps") == "today: 6.8M tokens · 1 step"


def held(start: float, end: float, rate: float, per_step: int) -> tuple[Sample, ...]:
    """A sparse run's rate held after its last step (17068): a sample each 30 s from after ``start`` to ``end``."""
    first = int(start) - int(start) % 30 + 30
    return tuple(Sample(t, rate, "training", None, per_step, None, 17068) for t in range(first, int(end), 30))


def test_a_trainers_tokens_today_are_its_steps_today_however_often_its_held_rate_is_sampled(tmp_path: Path) -> None:
    """A sparse run (a step each 420 s, 2048 × 2048 = 4,194,304 tokens a step) that began today at
    step 17060 and stopped at 17068: 9 steps, 37,748,736 tokens today. Its rate (3600 / 420 × 4,194,304
    = 35,951,177 tok/h) is held after the last line and sampled for 40 minutes; a restart on the same
    data dir samples it 30 minutes more. Neither adds a token: no step ran."""
    from app.store.queries import local_midnight

    midnight = local_midnight(NOW)
    begun = midnight + 3600.0
    per_step, rate = 2048 * 2048, 3600 / 420 * 2048 * 2048
    run = [LossPoint("train", 17060 + i, begun + i * 420.0, 2.7) for i in range(9)]
    last = run[-1].at

    history = History(tmp_path, clock=lambda: NOW)
    history.start()
    try:
        assert history.submit(Observation(SOURCE, samples=held(begun, last + 2400, rate, per_step), losses=tuple(run)))
        assert history.flush(20)
        _, today = history.figures(SOURCE, None, per_step, last + 2400)
        assert today is not None and (today["passes"], today["tokens"]) == (9, 9 * per_step)
        # The restart reads the same log again: the same losses, the held rate sampled on.
        assert history.submit(Observation(SOURCE, samples=held(last + 2400, last + 4200, rate, per_step), losses=tuple(run)))
        assert history.flush(20)
        _, today = history.figures(SOURCE, None, per_step, last + 4200)
        assert today is not None and (today["passes"], today["tokens"]) == (9, 37_748_736)
    finally:
        history.stop()


def test_a_trainers_total_tokens_are_its_steps_kept_however_often_its_held_rate_is_sampled(tmp_path: Path) -> None:
    """The same sparse run (a step each 420 s, 2048 × 2048 = 4,194,304 tokens a step, steps 17060 to
    17068: 9 steps, 37,748,736 tokens) three days ago. Its held rate of 35,951,177 tok/h is sampled
    for 40 minutes after the last line, then a restart on the same data dir samples it 30 minutes
    more: the total since the first record stays 9 steps, 37,748,736 tokens (summing the samples
    made it 57.2M, then 74.9M)."""
    from app.store.records import StepPoint

    begun = NOW - 3 * 86400.0
    per_step, rate = 2048 * 2048, 3600 / 420 * 2048 * 2048
    run = [LossPoint("train", 17060 + i, begun + i * 420.0, 2.7) for i in range(9)]
    # The 30-s step points, as the recorder keeps them (the raw samples are gone after 48 h).
    points = tuple(StepPoint("train", p.step, p.at, p.value, rate, 3600 / 420) for p in run)
    last = run[-1].at

    history = History(tmp_path, clock=lambda: NOW)
    history.start()
    try:
        assert history.submit(Observation(SOURCE, samples=held(begun, last + 2400, rate, per_step), steps=points, losses=tuple(run)))
        assert history.flush(20)
        totals = history.chart(SOURCE, "30d", NOW)["totals"]
        assert (totals["passes"], totals["tokens"]) == (9, 37_748_736)
        assert history.submit(Observation(SOURCE, samples=held(last + 2400, last + 4200, rate, per_step), steps=points, losses=tuple(run)))
        assert history.flush(20)
        totals = history.chart(SOURCE, "30d", NOW)["totals"]
        assert (totals["passes"], totals["tokens"]) == (9, 37_748_736)
    finally:
        history.stop()


def test_one_step_in_the_total_is_said_in_the_singular() -> None:
    from app.record.recorder import totals_line

    since = 1_790_000_000.0
    assert totals_line({"since": since, "tokens": 4_194_304, "passes": 1}, "steps").endswith(": 4.1M tokens · 1 step")
    assert totals_line({"since": since, "tokens": 0, "passes": 2}, "steps").endswith(": 0 tokens · 2 steps")
    assert totals_line({"since": since, "tokens": 0, "passes": 1}, "miner").endswith(": 0 tokens · 1 pass")


def test_a_run_dated_months_ago_still_has_its_whole_curve_and_evaluations(tmp_path: Path) -> None:
    # Composed: a post-mortem read today of a run whose lines are dated 100 days ago (within the history's year of retention) (300 steps, a NaN-free
    # curve and an evaluation every 250 steps): the "run" range (30d) gives them, the 1 h range none.
    history = History(tmp_path, clock=lambda: NOW)
    history.start()
    old = NOW - 100 * 86400
    events: list[TrainStep | EvalResult] = []
    for s in range(300):
        events.append(TrainStep(at=old + s, stage="train", step=s, loss=4.0 + math.sin(s / 50)))
        if s % 250 == 0:
            events.append(EvalResult(at=old + s, name="val loss", value=3.5, step=s))
    rows, evals = LoggedSteps().feed(events, NOW)
    try:
        assert history.submit(Observation(SOURCE, losses=tuple(rows), evals=tuple(evals)))
        assert history.flush(60)
        run = history.chart(SOURCE, "30d", NOW)["steps"]
        hour = history.chart(SOURCE, "1h", NOW)["steps"]
    finally:
        history.stop()
    assert run is not None and [s for s, _ in run["loss"]] == list(range(300))
    assert run["loss"][10][1] == 4.0 + math.sin(10 / 50)
    assert run["evals"]["val loss"] == [[0, 3.5], [250, 3.5]]
    assert hour is None
