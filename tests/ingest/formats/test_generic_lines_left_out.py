"""A person's mark over lines left out of an excerpt (``..........``, ``[...]``, ``^^^^ 3000 iter ^^^^``): the step line
after it comes steps later that nobody saw run, so no time is measured across it: the step time is that of lines printed
one after the other. And the step's training record printed again after its evaluation's pass (Caffe's ``Iteration 7000,
loss = …`` after ``Iteration 7000, Testing net``): the steps after it ran from there, the pass's time none of theirs.

Real: the marks in PaddlePaddle/PaddleCustomDevice's MLU README (``... ...``), a Kaggle README's Keras log (``...``) and
verl's SFT log in RLDecisionAgent's README (``...``); Caffe's tests every 40 iterations in BVLC/caffe pull request #2350;
tests/data/real (their headers; their snapshots in tests/live/test_real_logs.py). Composed: lines whose reading is worked
out by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import LinesLeftOut, TrainStep
from tests.coldread import read_cold
from tests.reallogs import REAL


@pytest.mark.parametrize("mark", ["...", "..........", "   ......", ". . .", "... ...", "…", "[...]", "(…)",
                                  "[... 3000 lines ...]", "^^^^^^^^^^^^^ 3000 iter ^^^^^^^^^^^^^"])
def test_a_mark_over_lines_left_out(mark: str) -> None:
    events = GenericParser().feed(["step 100 loss 2.5", mark, "step 900 loss 2.1"])
    assert [type(e).__name__ for e in events] == ["TrainStep", "LinesLeftOut", "TrainStep"]


@pytest.mark.parametrize("line", ["Loading...", "...done", "[INFO] ...", "....... 50%", "[1/3] ...", "^^^"])
def test_no_mark_in_other_lines(line: str) -> None:
    events = GenericParser().feed(["step 100 loss 2.5", line, "step 200 loss 2.1"])
    assert not any(isinstance(e, LinesLeftOut) for e in events)


def test_a_mark_before_any_step_says_nothing() -> None:
    events = GenericParser().feed(["..........", "step 100 loss 2.5"])
    assert [type(e) for e in events] == [TrainStep]


def _dated(rows: list[tuple[str, int]]) -> list[str]:
    return [f"[2018-09-20 {clock},000 INFO] Step {step}/100000; acc:  40.00; ppl: 50.00; xent: 3.90; lr: 0.00100"
            if step else clock for clock, step in rows]


def test_composed_dated_steps_across_a_mark_are_not_timed_across_it(tmp_path: Path) -> None:
    # 100 steps every 10 s before the mark, 4 h left out, then 100 steps every 9 s: the step time is that of the lines
    # printed one after the other, (20 + 27) s over 200 + 300 steps, 94 ms; never the mean across the mark,
    # (4 h 00 min 27 s) / 5200 = 2.77 s
    rows = [("15:00:00", 100), ("15:00:10", 200), ("15:00:20", 300), ("..........", 0),
            ("19:00:00", 5000), ("19:00:09", 5100), ("19:00:18", 5200), ("19:00:27", 5300)]
    data = read_cold(tmp_path, _dated(rows))
    assert data["training"]["step"] == 5300
    assert data["training"]["step_seconds"] == pytest.approx(47 / 500)
    assert data["training"]["steps_per_hour"] is None  # (27 s measured since the mark: the warm-up's 3 min not yet)


def test_composed_without_the_mark_the_lines_are_one_stretch(tmp_path: Path) -> None:
    # the same lines without the mark: nothing says steps were left out (a trainer may print every 4700 steps), so the
    # stretch is one: the time between the records over their steps, the 4 h among them
    rows = [("15:00:00", 100), ("15:00:10", 200), ("15:00:20", 300),
            ("19:00:00", 5000), ("19:00:09", 5100), ("19:00:18", 5200), ("19:00:27", 5300)]
    data = read_cold(tmp_path, _dated(rows))
    assert data["training"]["step_seconds"] != pytest.approx(47 / 500)


def test_composed_caffe_step_time_leaves_out_its_test_pass(tmp_path: Path) -> None:
    # a test of 40 s at iteration 1000, its loss line after it, then two lines of 100 iterations each 30 s apart: 60 s
    # over 200 iterations, 0.3 s each (before the warm-up's 3 min); never the test's 40 s among them (100 s over 200)
    lines = [
        "I0509 10:00:00.000000 20669 solver.cpp:266] Iteration 1000, Testing net (#0)",
        "I0509 10:00:40.000000 20669 solver.cpp:315]     Test net output #0: accuracy = 0.5",
        "I0509 10:00:40.000000 20669 solver.cpp:189] Iteration 1000, loss = 2.5",
        "I0509 10:01:10.000000 20669 solver.cpp:189] Iteration 1100, loss = 2.4",
        "I0509 10:01:40.000000 20669 solver.cpp:189] Iteration 1200, loss = 2.3",
    ]
    data = read_cold(tmp_path, lines)
    assert (data["training"]["step"], data["training"]["loss"]) == (1200, 2.3)
    assert data["training"]["step_seconds"] == pytest.approx(0.3)


def _real(tmp_path: Path, name: str) -> dict[str, Any]:
    lines = [line for line in (REAL / name).read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return read_cold(tmp_path, lines)


def test_paddle_s_lines_after_its_readme_s_mark_are_measured_alone(tmp_path: Path) -> None:
    # ``... ...`` between epoch 1's iteration 2 and epoch 2's iteration 10: the time measured is iterations 11-14's
    # printed batch_cost, 0.16232 + 0.15278 + 0.14467 + 0.13775 = 0.59752 s over their 4 iterations, never a span from
    # epoch 1 across the mark
    data = _real(tmp_path, "paddle-customdevice-mlu-readme-lenet-epochs-2-of-2-eta-zero-from-iter-10-of-14.log")
    assert (data["warmup"]["passes"], data["warmup"]["observed_seconds"]) == (4, pytest.approx(0.59752, rel=1e-4))


@pytest.mark.parametrize(("name", "said"), [
    # Keras' epochs 1-3, ``...``, epochs 48-50: the bars of epochs 49 and 50 measured, 48's time spans the mark
    ("generic-keras-hayatochigi-kaggle-readme-tf21-fit-samples-us-per-sample-epochs-1-3-then-48-50.log",
     "no rate: the last 2 of its 6 sample lines, after lines left out, over less than 3 min of its own time"),
    # verl's step 1, ``...``, steps 100-105 (its bar's clock over the epochs left out is no time of the steps seen)
    ("verl-sft-rldecisionagent-file-char-count-readme-105-final-validation-then-leftover-bar-redraw.log",
     "no rate: the last 5 of its 8 step lines, after lines left out, over less than 3 min of its own time"),
])  # fmt: skip
def test_a_finished_run_s_lines_after_a_mark_are_said_measured_alone(tmp_path: Path, name: str, said: str) -> None:
    assert said in _real(tmp_path, name)["details"]
