"""A log of HF Trainer loss dicts without a bar: a rate of logged steps, from the file when its
lines carry times, else from when the dicts arrive.

The dicts are the ones of tests/data/real/hf-trl-issue733-dicts-only.log (TRL issue #733); the
times are composed, and every expected rate is worked out here from them.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import training_dict
from tests.reallogs import body

DICTS = [line.rstrip() for line in body("hf-trl-issue733-dicts-only.log")]
T0 = time.mktime((2024, 5, 1, 12, 0, 0, 0, 0, -1))


def cold(tmp_path: Path, lines: list[str], mtime: float) -> Monitor:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (mtime, mtime))
    monitor = Monitor(log, clock=lambda: mtime)
    monitor.backlog(read_backwards(log))
    return monitor


def stamped(lines: list[str], every_seconds: float) -> list[str]:
    """The dicts as ``docker logs -t`` shows them: an RFC 3339 time in UTC before each."""
    out = []
    for i, line in enumerate(lines):
        at = time.gmtime(T0 + i * every_seconds)
        out.append(time.strftime("%Y-%m-%dT%H:%M:%S.000000000Z ", at) + line)
    return out


def test_two_dated_dicts_far_enough_apart_give_a_rate_at_once(tmp_path: Path) -> None:
    """Dicts every 5 min: 12 logged steps/h, as soon as the file holds two of them."""
    monitor = cold(tmp_path, stamped(DICTS[:2], 300), T0 + 300)
    snapshot = monitor.snapshot(T0 + 300)
    training = snapshot.training
    assert training is not None
    assert training.steps_per_hour == pytest.approx(3600 / 300)
    assert (snapshot.status_line, snapshot.state) == ("epoch 0.03 · loss 0.764", "training")
    assert "12 logged records/h (over 5 min)" in snapshot.details


def test_a_whole_dated_log_is_measured_over_its_last_twenty_minutes(tmp_path: Path) -> None:
    """11 dicts 4 min apart: the 20-min window holds 5 whole intervals: 15 logged steps/h."""
    monitor = cold(tmp_path, stamped(DICTS, 240), T0 + 10 * 240)
    training = monitor.snapshot(T0 + 10 * 240).training
    assert training is not None and training.steps_per_hour == pytest.approx(3600 / 240)
    assert training.step is None and training.logged_records == 11 and training.logged_steps is True


def test_dated_dicts_closer_than_three_minutes_wait_for_the_warm_up(tmp_path: Path) -> None:
    monitor = cold(tmp_path, stamped(DICTS[:2], 60), T0 + 60)
    snapshot = monitor.snapshot(T0 + 60)
    assert snapshot.state == "measuring" and snapshot.training is not None
    assert training_dict(snapshot.training)["steps_per_hour"] is None
    assert snapshot.warmup.text is not None and snapshot.warmup.text.startswith("measuring: 2 of 2 logged records")


def test_undated_dicts_are_timed_as_they_arrive(tmp_path: Path) -> None:
    """A cold start cannot know when earlier dicts were written (the file keeps only its last write):
    it says so; the next dict, arriving 7 min later, times one whole logged interval."""
    clock = [T0]
    log = tmp_path / "train.log"
    log.write_text("\n".join(DICTS[:5]) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: clock[0])
    monitor.backlog(read_backwards(log))
    first = monitor.snapshot(T0)
    assert first.state == "measuring" and first.status_line == "epoch 0.07 · loss 0.613"
    assert any(line.startswith("no timing read from this log (5 logged records") for line in first.details)
    clock[0] = T0 + 420
    monitor.lines([DICTS[5]])
    snapshot = monitor.snapshot(T0 + 420)
    assert snapshot.training is not None
    assert training_dict(snapshot.training)["steps_per_hour"] == pytest.approx(3600 / 420)
    assert (snapshot.state, snapshot.status_line) == ("training", "epoch 0.08 · loss 0.588")


def test_the_time_between_logs_is_no_step_time(tmp_path: Path) -> None:
    """Dicts 5 min apart, each after an unknown number of steps: a rate of logs, never a step time."""
    monitor = cold(tmp_path, stamped(DICTS[:4], 300), T0 + 900)
    snapshot = monitor.snapshot(T0 + 900)
    assert snapshot.training is not None and training_dict(snapshot.training)["step_seconds"] is None
    assert not any(line.startswith("step ") for line in snapshot.details)
    assert "12 logged records/h (over 15 min)" in snapshot.details
