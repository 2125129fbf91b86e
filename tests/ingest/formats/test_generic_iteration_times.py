"""One iteration's time printed under a name that says per iteration: read as the step's time, with its unit.

The name carries the unit (``sec/iter: 0.25``), the value does (``0.40 s/iter``), or neither does: a time per iteration
with no unit is in seconds, as Python's ``time.time()`` differences are (NLUT's ``time/iter: 0.49``, UCTransNet's
running mean of its batches' times ``(AvgTime 1.4)``), like char-rnn's ``time/batch`` and Paddle's ``batch_cost``.
A bare ``time`` stays unread as a step's time (a run's clock as often: DCGAN's ``time: 235.7465``).

Real: semchan/NLUT issue #11 and McGregorWwww/UCTransNet issue #2 (tests/data/real, their headers). Composed: lines whose
times are worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold
from tests.reallogs import body


@pytest.mark.parametrize(("lines", "seconds", "said"), [
    ([f"iter {100 * k}, loss: 2.{k}, sec/iter: 0.25" for k in range(1, 6)], 0.25, "step 250 ms (as printed)"),
    ([f"Iter {100 * k} | loss 2.{k} | 0.40 s/iter" for k in range(1, 6)], 0.40, "step 400 ms (as printed)"),
    ([f"iter {100 * k}  time/iter: 0.30  loss: 2.{k}" for k in range(1, 6)], 0.30, "step 300 ms (as printed)"),
    ([f"Epoch: [1][{k}/50]  Loss:0.{k} (Avg 0.5)  (AvgTime 1.2)" for k in range(1, 6)], 1.2, "step 1.20 s (as printed)"),
])  # fmt: skip
def test_a_time_per_iteration_is_the_step_s_time(tmp_path: Path, lines: list[str], seconds: float, said: str) -> None:
    data = read_cold(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(seconds)
    assert said in data["details"]


def test_nlut_s_time_per_iteration(tmp_path: Path) -> None:
    data = read_cold(tmp_path, body("generic-nlut-issue11-iter-3500-to-4500-time-per-iter-losses-nan.log"))
    assert data["training"]["step_seconds"] == pytest.approx(0.49) and data["state"] == "diverged"
    assert "step 490 ms (as printed)" in data["details"]


def test_uctransnet_s_average_time(tmp_path: Path) -> None:
    data = read_cold(tmp_path, body("generic-uctransnet-issue2-train-epoch-1-batch-208-to-219-of-4899-avgtime.log"))
    assert data["training"]["step_seconds"] == pytest.approx(1.4) and data["training"]["loss"] == pytest.approx(0.564)
    assert "step 1.40 s (as printed)" in data["details"]


def test_a_bare_time_is_still_no_step_s_time(tmp_path: Path) -> None:
    data = read_cold(tmp_path, [f"iter {100 * k}, loss: 2.{k}, time: {10 * k}.5" for k in range(1, 6)])
    assert data["training"]["step_seconds"] is None
