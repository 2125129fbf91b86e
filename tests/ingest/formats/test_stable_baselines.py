"""Stable-Baselines' logger tables: one table a record, its timesteps the position, its reward and evaluation.

Real logs (tests/data/real/stable-baselines-*.log, each citing its source) and a composed EvalCallback
sequence whose figures are worked out by hand below.
"""

from __future__ import annotations

import pytest

from app.ingest.formats import create_parser, detect
from app.stats.events import EvalResult, StepFigures, TrainStep
from tests.reallogs import body

BREAKOUT = "stable-baselines-zeshiwu-capstone-sb3-ppo-breakout-iterations-1-to-4.log"


def events(lines: list[str]) -> list[object]:
    return [e for e in create_parser("stable-baselines").feed(lines) if type(e).__name__ != "Tick"]


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in events(lines) if isinstance(e, TrainStep)]


def table(*groups: tuple[str, dict[str, str]]) -> list[str]:
    rule = "-" * 43
    rows = [rule]
    for group, figures in groups:
        rows.append(f"| {group + '/':<23} | {'':<13} |")
        rows += [f"|    {name:<20} | {value:<13} |" for name, value in figures.items()]
    return [*rows, rule]


def test_real_ppo_tables_each_iteration_a_step_at_its_timesteps_with_its_reward_and_rate() -> None:
    lines = body(BREAKOUT)
    assert detect(lines) == "stable-baselines"
    got = steps(lines)
    # ``learn(total_timesteps=…)`` counts timesteps: 2048 a rollout, iterations 1-4 at 2048 … 8192
    assert [s.step for s in got] == [2048, 4096, 6144, 8192]
    four = got[-1]
    # the environment's steps a second as printed, beside the reward; the timesteps are the step, no figure apart
    assert (four.loss, four.lr, dict(four.figures)) == (-0.102, 0.0003, {"reward": 1.87, "rate/fps": 58.0})
    assert four.step_seconds_note == "1 / the fps it prints"
    assert four.step_seconds == pytest.approx(1 / 58)
    # iteration 1 has no update yet: no loss; fps 180
    assert (got[0].loss, got[0].step_seconds) == (None, pytest.approx(1 / 180))
    assert all(s.tokens is None and s.tokens_per_second is None and s.total_steps is None for s in got)


@pytest.mark.parametrize(("name", "step", "loss", "reward"), [
    ("stable-baselines-rl-baselines3-zoo-pr521-sb3-ppo-table-iterations-18-timesteps-73728.log", 73728, 0.482, -213.0),
    # v2: ``total_timesteps`` the position (``nupdates`` none); the policy's and the value function's losses with no
    # whole loss its parts, no loss; a ``nan`` reward mean (no episode finished) none
    ("stable-baselines-sb2-stable-baselines-issue121-ppo2-table-nupdates-782-ep-rewmean-nan.log", 100096, None, None),
])  # fmt: skip
def test_real_tables_position_loss_and_reward(name: str, step: int, loss: float, reward: float | None) -> None:
    last = steps(body(name))[-1]
    assert (last.step, last.loss) == (step, loss)
    assert dict(last.figures).get("reward") == reward
    assert "rate/fps" in dict(last.figures)


def test_evalcallback_s_table_is_an_evaluation_at_the_latest_step_and_its_update_s_loss() -> None:
    # iteration 7 (loss 0.30, 7168 timesteps), then EvalCallback's table at 8000 timesteps with the next update's loss
    # 0.25, then iteration 8 (8192) without train/ rows (dumped already): the evaluation at 8000, the latest loss 0.25
    lines = [*table(("rollout", {"ep_rew_mean": "12.5"}), ("time", {"fps": "100", "iterations": "7",
                                                                       "time_elapsed": "70", "total_timesteps": "7168"}),
                    ("train", {"learning_rate": "0.0003", "loss": "0.30"})),
             "Eval num_timesteps=8000, episode_reward=20.00 +/- 1.00",
             "Episode length: 200.00 +/- 0.00",
             *table(("eval", {"mean_ep_length": "200", "mean_reward": "20"}), ("time", {"total_timesteps": "8000"}),
                    ("train", {"learning_rate": "0.0003", "loss": "0.25"})),
             *table(("rollout", {"ep_rew_mean": "13.5"}), ("time", {"fps": "100", "iterations": "8",
                                                                       "time_elapsed": "80", "total_timesteps": "8192"}))]
    got = events(lines)
    assert [type(e).__name__ for e in got] == ["TrainStep", "EvalResult", "EvalResult", "StepFigures", "TrainStep"]
    evals = [(e.name, e.value, e.step) for e in got if isinstance(e, EvalResult)]
    assert evals == [("mean_reward", 20.0, 8000), ("mean_ep_length", 200.0, 8000)]
    figures = next(e for e in got if isinstance(e, StepFigures))
    assert (figures.loss, figures.lr) == (0.25, 0.0003)
    eight = got[-1]
    assert isinstance(eight, TrainStep)
    assert (eight.step, eight.loss, dict(eight.figures)) == (8192, None, {"reward": 13.5, "rate/fps": 100.0})
    assert eight.step_seconds == 0.01  # (1 / fps 100)


def test_a_table_s_tail_without_its_position_is_no_step() -> None:
    rows = table(("time", {"fps": "100", "iterations": "7"}), ("train", {"loss": "0.3"}))
    assert steps(rows[4:]) == []
