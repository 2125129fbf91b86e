"""A start line's step and the run's total beside it, and a run that ends before its first step keeping its plan.

A start line may name the step the loop starts at and the run's total together (StableCascade's trainer prints
``STARTING AT STEP: {start_iter}/{max_iters}``, Stability-AI/StableCascade train/base.py; ``Starting training from step
1200 of 40000``, ``Resuming at step N/M``): the total is the run's plan (banner.py). A run that crashes or is stopped
before its first step keeps the plan its start lines said, whatever said it: ``no step yet (25,000 planned) · crashed``.

Real logs (tests/data/real, each citing its source), from three repositories, whose totals were read and now shown on
their status line too: PrimeIntellect-ai/prime-rl issue 1360 (``max_steps=100`` then SIGTERM before step 0 ends),
Bl4ckd09/nanochat-on-rtx4070 (615,173 iterations calculated, then an out-of-memory error in the first step),
KotoHanon/VERL-Maze verl_demo.log (``Total training steps: 30``, then NotImplementedError). Composed lines below carry
figures of their own, each answer worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import detect
from app.ingest.formats.banner import Started, started_run
from tests.coldread import T0, read_cold
from tests.reallogs import body

TRACEBACK = ["Traceback (most recent call last):",
             '  File "/srv/diffusion/train_prior.py", line 318, in <module>',
             "    trainer.fit(loader)",
             "RuntimeError: CUDA error: an illegal memory access was encountered"]


@pytest.mark.parametrize(
    ("line", "started"),
    [
        ("STARTING AT STEP: 1/25000", Started(1, "step", 25000)),
        ("Starting training from step 1200 of 40000", Started(1200, "step", 40000)),
        ("Resuming at step 300/5000", Started(300, "step", 5000)),
        ("Resuming training at iteration 64 out of 2,000", Started(64, "iteration", 2000)),
        ("Continuing from global step 7 / 90.", Started(7, "global step", 90)),
        # no total beside the step: the start line as it was read before (a step, no plan)
        ("Starting training from step 1200", Started(1200, "step")),
        # not a start with a total: a step past its total, other words after it, a start inside a sentence
        ("STARTING AT STEP: 50/40", None),
        ("Starting at step 3/7 of the pipeline", None),
        ("We were resuming at step 300/5000 when it hung", None),
        ("step 300/5000", None),
    ],
)
def test_a_start_line_says_its_step_and_the_run_s_total(line: str, started: Started | None) -> None:
    assert started_run(line) == started


def test_a_crash_before_any_step_keeps_the_total_its_start_line_said(tmp_path: Path) -> None:
    # (the bar at 0 counts no step: 0 of 25000 done)
    lines = ["**TRAINING STARTING...**", "STARTING AT STEP: 1/25000",
             "  0%|                                         | 0/25000 [00:00<?, ?it/s]", *TRACEBACK]
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    training = data["training"]
    assert (data["status_line"], data["state"]) == ("no step yet (25,000 planned) · crashed", "crashed")
    assert (training["step"], training["total_steps"], training["loss"]) == (None, 25000, None)
    assert training["crash"]["error"] == "RuntimeError: CUDA error: an illegal memory access was encountered"


def test_a_resumed_run_stopped_before_its_next_step_keeps_its_total(tmp_path: Path) -> None:
    lines = ["Resuming at step 300/5000", "^CTraceback (most recent call last):",
             '  File "/srv/diffusion/train_prior.py", line 318, in <module>', "KeyboardInterrupt"]
    data = read_cold(tmp_path, lines, at=T0)
    assert (data["status_line"], data["state"]) == ("no step yet (5,000 planned) · stopped by hand", "stopped")
    assert (data["training"]["step"], data["training"]["total_steps"]) == (None, 5000)


def test_a_start_line_with_its_total_alone_waits_for_its_first_step_of_that_total(tmp_path: Path) -> None:
    data = read_cold(tmp_path, ["Starting training from step 1200 of 40000"], at=T0)
    assert (data["status_line"], data["state"]) == ("waiting for first step", "working")
    assert "waiting for the first training step of 40,000 planned" in data["details"]
    assert data["training"]["total_steps"] == 40000


def test_a_start_line_with_steps_after_it_gives_way_to_their_position(tmp_path: Path) -> None:
    lines = ["Resuming at step 300/5000",
             "step 300/5000 | loss 2.4172 | lr 3.0e-04",
             "step 301/5000 | loss 2.4035 | lr 3.0e-04"]
    data = read_cold(tmp_path, lines, at=T0)
    assert (data["training"]["step"], data["training"]["total_steps"], data["training"]["loss"]) == (301, 5000, 2.4035)


def test_a_crash_with_no_total_said_says_none(tmp_path: Path) -> None:
    data = read_cold(tmp_path, ["Starting training from step 1200", *TRACEBACK], at=T0)
    assert data["status_line"] == "no step yet · crashed"
    assert "total_steps" not in data["training"] or data["training"]["total_steps"] is None


@pytest.mark.parametrize(
    ("name", "status", "total"),
    [
        # prime-rl: ``Starting training loop (max_steps=100)``, then torch elastic's SIGTERM before step 0 ends
        ("crash-generic-prime-rl-issue1360-sigterm-at-step0.log", "no step yet (100 planned) · stopped", 100),
        # nanochat: ``Calculated number of iterations from target data:param ratio: 615,173``, then out of memory
        ("crash-nanochat-rtx4070-step0-oom-optimizer.log", "no step yet (615,173 planned) · crashed", 615173),
        # verl: ``Total training steps: 30``, then NotImplementedError before step 1
        ("verl-VERL-Maze-crash-before-step1-notimplemented.log", "no step yet (30 planned) · crashed", 30),
    ],
)
def test_real_runs_dead_before_their_first_step_show_their_planned_total(tmp_path: Path, name: str, status: str,
                                                                          total: int) -> None:
    data = read_cold(tmp_path, body(name), at=T0)
    assert (data["status_line"], data["training"]["total_steps"], data["training"]["step"]) == (status, total, None)
