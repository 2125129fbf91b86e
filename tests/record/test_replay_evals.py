"""modded-nanogpt's evaluation lines among its every-step lines: the import reads the steps around them
in bulk, and stores what reading and applying each line as an event stores, to the last bit.

Its record scripts (``train_gpt.py``, the lines of tests/data/real/modded-nanogpt-*) print
``step:N/M train_loss:… train_time:…ms step_avg:…ms`` each step and ``step:N/M val_loss:… train_time:…ms
step_avg:…ms`` every ``val_loss_every`` steps at the step just trained, step 0's with ``step_avg:nanms``
before any step. Composed logs put such evaluation lines where a run of steps starts or ends: the log's
first line and its last, two in a row, right before and right after a restart (the step goes back, the
trainer's clock from 0), beside a step printed without its loss, at every 125 steps over hours of log
(the rate's 30-s samples, the 5-minute looks and the hour's batches pass by them), in batches of a few
hundred bytes (a run and the spool's records cut anywhere) and whole.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ingest.formats import create_parser
from app.record import replay as replay_module
from app.stats.events import EvalResult
from app.store import Observation
from tests.record.test_replay_rows import _imported as imported
from tests.record.test_replay_rows import _steps as one_by_one

MTIME = 1_795_000_000.0
NOW = MTIME + 600


class Trainer:
    """modded-nanogpt's printing, its step and clock going on from block to block."""

    def __init__(self, rng: random.Random, total: int) -> None:
        self.rng, self.total, self.step, self.clock_ms = rng, total, 0, 0
        self.slow = False

    def train(self, count: int, *, loss: bool = True) -> list[str]:
        lines = []
        for _ in range(count):
            self.step += 1
            self.clock_ms += self.rng.randint(2000, 9000) if self.slow else self.rng.randint(40, 140)
            train = f" train_loss:{self.rng.uniform(2.5, 4.0):.4f}" if loss else ""
            lines.append(f"step:{self.step}/{self.total}{train} train_time:{self.clock_ms}ms "
                         f"step_avg:{self.clock_ms / self.step:.2f}ms")
        return lines

    def val(self) -> str:
        avg = f"{self.clock_ms / self.step:.2f}ms" if self.step else "nanms"
        return (f"step:{self.step}/{self.total} val_loss:{self.rng.uniform(2.5, 4.0):.4f} "
                f"train_time:{self.clock_ms}ms step_avg:{avg}")


def _block(t: Trainer, kind: str) -> list[str]:
    rng = t.rng
    if kind == "train":
        return t.train(rng.randint(1, 300))
    if kind == "val":
        return [t.val()]
    if kind == "val_twice":  # (two in a row: no step between)
        return [t.val(), t.val()]
    if kind == "val_later":  # a clock that ran on through the evaluation: its line seconds after its step's (the step
        t.clock_ms += rng.randint(1500, 9000)  # printed again, apart in time, no training line of the lines' spacing)
        return [t.val()]
    if kind == "every_125":  # the record scripts' cadence
        lines = []
        for _ in range(rng.randint(2, 6)):
            lines.extend(t.train(125))
            lines.append(t.val())
        return lines
    if kind == "restart":  # an evaluation before and after: the run started again from step 0
        before = [t.val()] if rng.random() < 0.5 else []
        t.step, t.clock_ms = rng.randint(0, max(0, t.step - 1)), 0
        return [*before, t.val()]
    if kind == "no_loss":
        return t.train(1, loss=False)
    if kind == "slow":  # seconds a step: its samples, looks and hours come between evaluations
        t.slow = not t.slow
        return []
    return [rng.choice(["", "Running Python 3.12.7", "=" * 40, "step:"])]


KINDS = ["train", "train", "val", "val_twice", "every_125", "restart", "no_loss", "slow", "junk", "val_later"]


def _log(seed: int, kinds: list[str], *, first_val: bool, last_val: bool) -> list[str]:
    t = Trainer(random.Random(seed), 20_000)
    lines = ["Running Python 3.12.7", "=" * 68]
    if first_val:
        lines.append(t.val())  # step 0's: the log's first record
    for kind in kinds:
        lines.extend(_block(t, kind))
    if last_val:
        lines.append(t.val())  # the log's last line
    return lines


def _imported(path: Path, *, runs: bool) -> tuple[list[Observation], str]:
    """What the import stores, and what its tracker shows at the end (test_replay_rows' reading, a nanoGPT-family log)."""
    return imported(path, "nanogpt", runs=runs)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=25),
       first_val=st.booleans(), last_val=st.booleans(), batch_bytes=st.sampled_from([301, 4096, 1 << 20]))
def test_evaluation_lines_anywhere_store_what_one_event_at_a_time_stores(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, seed: int, kinds: list[str],
        first_val: bool, last_val: bool, batch_bytes: int) -> None:
    lines = _log(seed, kinds, first_val=first_val, last_val=last_val)
    path = tmp_path_factory.mktemp("evals") / "train.log"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(replay_module, "READ_BYTES", batch_bytes)
    assert repr(_imported(path, runs=True)) == repr(_imported(path, runs=False))


@pytest.mark.parametrize("batch", [3, 200, 100_000])
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=25),
       first_val=st.booleans(), last_val=st.booleans())
def test_evaluation_lines_read_in_bulk_are_the_events_each_line_reads_as(
        batch: int, seed: int, kinds: list[str], first_val: bool, last_val: bool) -> None:
    lines = _log(seed, kinds, first_val=first_val, last_val=last_val)
    bulk, alone = create_parser("nanogpt"), create_parser("nanogpt")
    for first in range(0, len(lines), batch):
        part = lines[first:first + batch]
        assert one_by_one(bulk.feed_runs(part)) == alone.feed(part)  # type: ignore[attr-defined]


def test_hours_of_steps_with_an_evaluation_every_125_store_each_evaluation_as_one_event_at_a_time(
        tmp_path: Path) -> None:
    """The bench's shape: the runs between evaluations cross the rate's samples, looks and hours."""
    kinds = ["every_125"] * 12 + ["slow"] + ["every_125"] * 4 + ["restart"] + ["every_125"] * 6
    lines = _log(11, kinds, first_val=True, last_val=True)
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    in_runs = _imported(path, runs=True)
    assert repr(in_runs) == repr(_imported(path, runs=False))
    evals = [point for obs in in_runs[0] for point in obs.evals if point.name == "val_loss"]
    printed = [e for e in create_parser("nanogpt").feed(lines) if isinstance(e, EvalResult)]
    assert len(printed) > 80 and len({(p.step, p.value) for p in evals}) == len({(e.step, e.value) for e in printed})
    assert sum(len(obs.losses) for obs in in_runs[0]) > 8_000


def _stage_states(path: Path, *, runs: bool) -> list[tuple[object, ...]]:
    """The step stage as each of the import's looks finds it (what the rate, the wait and the evaluations read)."""
    states: list[tuple[object, ...]] = []

    class Looked(replay_module.StepReplay):
        def observe(self, at: float) -> None:
            stage = self.tracker.progress.stage
            if stage is not None:
                states.append((at, stage.latest, stage.step_time, stage.start, stage.lines, stage.timed_lines,
                               list(stage.line_durations), list(stage.covered), list(stage.ended_wait), stage.timed_step,
                               list(stage.line_gaps), stage.spaced,
                               dict(stage.evals), list(stage.eval_steps), list(stage.eval_times),
                               list(stage.eval_pauses), stage.evaluated_last, stage.pause,
                               stage.evaluated, stage.clock_from, stage.clock_to, stage.loss, len(stage.steps),
                               stage.steps.total(at - 1200, at), self.tracker.progress.steps_total))
            super().observe(at)

    original = replay_module.StepReplay
    replay_module.StepReplay = Looked  # type: ignore[misc]
    try:
        assert replay_module.replay_steps(path, "nanogpt", NOW, MTIME, {}, threading.Event(), lambda _: None, runs=runs)
    finally:
        replay_module.StepReplay = original  # type: ignore[misc]
    return states


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_each_look_finds_the_stage_as_one_event_at_a_time_leaves_it(tmp_path: Path, seed: int) -> None:
    """The rows can hide a difference the next look would read (the wait the step after an evaluation ends,
    the latest step's time): the stage itself, at every look, is the same."""
    kinds = ["every_125"] * 8 + ["slow"] + ["every_125"] * 3 + ["val"] + ["train"] + ["restart"] + ["every_125"] * 5
    path = tmp_path / "train.log"
    path.write_text("\n".join(_log(seed, kinds, first_val=True, last_val=seed % 2 == 1)) + "\n")
    in_runs = _stage_states(path, runs=True)
    assert len(in_runs) > 10 and any(True in state[8] for state in in_runs)  # type: ignore[operator]
    assert in_runs == _stage_states(path, runs=False)


@pytest.mark.parametrize("seed", [0, 27])  # (each puts such a line among the latest 21 of a stretch read in bulk)
def test_each_look_finds_the_lines_spacing_as_one_event_at_a_time_leaves_it(tmp_path: Path, seed: int) -> None:
    """Evaluation lines seconds after their step's (the step printed again, apart in time, no training loss) are
    left out of the lines' spacing the stall limit rests on: read in bulk or one at a time, the same."""
    kinds = ["train", "val_later", "train", "val_later", "val_twice", "train", "every_125", "val_later", "slow",
             "val_later", "train", "val_later", "val_later", "no_loss", "val_later", "no_loss", "no_loss", "val_later",
             "no_loss", "val_twice", "no_loss", "val_later", "no_loss", "train", "val_later"]
    path = tmp_path / "train.log"
    path.write_text("\n".join(_log(seed, kinds, first_val=True, last_val=seed % 2 == 1)) + "\n")
    in_runs = _stage_states(path, runs=True)
    assert in_runs == _stage_states(path, runs=False)
