"""A step's time worked out from the trainer's ETA, where a bar prints only that (stage.eta_step_seconds).

Keras' ETA is its average time a step so far times the steps left: the ETA over the steps left is that average, and
where two lines of the same bar agree on it (within 10 %, both ETAs 10 s or more) it is the step's time, said how.
Composed logs, figures by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold


def bar(done: int, total: int, eta: str, loss: float) -> str:
    return f"{done}/{total} [==>...........................] - ETA: {eta} - loss: {loss:.4f}"


def test_two_lines_of_one_pace_give_a_step_s_time(tmp_path: Path) -> None:
    # 100 s for the 50 left at 50/100 and 80 s for the 40 left at 60/100: 2.0 s a step on both
    data = read_cold(tmp_path, [bar(40, 100, "2:00", 0.9), bar(50, 100, "1:40", 0.8), bar(60, 100, "1:20", 0.7)])
    training = data["training"]
    assert training["step_seconds"] == pytest.approx(2.0)
    note = "worked out: the trainer's ETA over the steps left, 80 s for 40 at 60/100, 100 s for 50 at 50/100"
    assert training["step_seconds_note"] == note
    assert f"step 2.00 s ({note})" in data["details"]
    assert training["trainer_eta_seconds"] == 80.0
    assert training["steps_per_hour"] is None  # (no rate is measured from an undated log)
    assert any("only the trainer's ETA printed, a step's time worked out from it" in line for line in data["details"])
    # The status line and the rate's line say the step's time worked out below them, never "no timing" above it
    assert data["status_line"] == "60/100 in the pass · step 2.00 s (from the trainer's ETA)"
    assert data["details"][0].startswith("no rate read from this log (3 step lines, only the trainer's ETA printed")
    assert not any("no timing" in line for line in [data["status_line"], *data["details"]])


@pytest.mark.parametrize("lines", [
    # the pace still falling from a slow first step: 60 / 90 = 0.67 s at 10/100, 40 / 80 = 0.5 s at 20/100
    [bar(10, 100, "1:00", 0.9), bar(20, 100, "40s", 0.8)],
    # ETAs under 10 s: 8 / 8 = 1 s at 92/100, 6 / 7 = 0.86 s at 93/100, each rounded to the second
    [bar(92, 100, "8s", 0.9), bar(93, 100, "6s", 0.8)],
    # one line of the latest bar (another total before it): no two lines to agree
    [bar(50, 100, "1:40", 0.9), bar(10, 200, "6:20", 0.8)],
])  # fmt: skip
def test_no_step_time_where_the_two_latest_lines_do_not_say_one(tmp_path: Path, lines: list[str]) -> None:
    data = read_cold(tmp_path, lines)
    assert data["training"]["step_seconds"] is None
    assert data["training"].get("step_seconds_note") is None
    assert not any("worked out" in line for line in data["details"])
    assert "trainer's ETA" not in data["status_line"]  # (nothing worked out: none said above)
