"""An RL loop's step printed with the return of the episode that just ended and nothing else (cleanrl's
``global_step=N, episodic_return=R``): a step whose figure is that return, the step said to be the
environment's (``global_step`` counts every environment's steps, not the updates).

A real log (tests/data/real/, citing its source) and composed lines whose readings are worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.stats.events import TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body

CLEANRL = "generic-cleanrl-issue11-global-step-episode-reward-lines.log"


def test_cleanrl_s_episode_lines_are_steps_with_their_reward(tmp_path: Path) -> None:
    lines = body(CLEANRL)
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, name=CLEANRL, at=T0)
    training = data["training"]
    # ``global_step=3553, episode_reward=28.04640999748334``: the last of seven
    assert training["step"] == 3553
    assert training["figures"]["reward"] == pytest.approx(28.04640999748334)
    assert training["figures"]["total/timesteps"] == 3553  # (the environment's steps: what the step counts)
    assert training["loss"] is None and training["lr"] is None
    assert data["state"] != "unrecognised"


@pytest.mark.parametrize(
    ("line", "step", "reward"),
    [
        ("global_step=4096, episodic_return=[12.]", 4096, 12.0),  # a vectorised env's return, in brackets
        ("global_step=8192, episodic_return=-128.11478247765032", 8192, -128.11478247765032),
        ("step: 30 | episode return: 7.5", 30, 7.5),
    ],
)
def test_a_step_with_an_episode_s_return_alone_is_a_step(line: str, step: int, reward: float) -> None:
    steps = [e for e in create_parser("generic").feed([line]) if isinstance(e, TrainStep)]
    assert [(s.step, s.loss) for s in steps] == [(step, None)]
    assert dict(steps[0].figures)["reward"] == pytest.approx(reward)


def test_a_return_without_a_step_is_no_step() -> None:
    assert not [e for e in create_parser("generic").feed(["episodic_return=12.5"]) if isinstance(e, TrainStep)]
