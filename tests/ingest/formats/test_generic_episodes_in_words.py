"""An RL loop's episode as the counter's own unit where the line names it inside words, its reward the figure shown
(never a loss) and the environment's steps so far beside it where printed; an episode's own length never the position.

Real: the Q-learning script's ``Total rewards in episode 88 is 3.799999999999999 total number of steps are 4361``
(hardikbansal/Qlearning issue #2), the Keras DQN example's ``running reward: 0.19 at episode 277536, frame count
11630000`` (keras-team/keras-io issue #89) and keras-rl's ``40336/50000: episode: 572, …, episode steps: 393, …``
(keras-rl/keras-rl pull request #80), in tests/live/test_real_logs.py. Composed: pytorch-soft-actor-critic's print
(``Episode: N, total numsteps: S, episode steps: E, reward: R``), dated 30 s apart, its rate worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold
from tests.reallogs import body


@pytest.mark.parametrize(
    ("name", "episode", "reward", "env_steps"),
    [("generic-qlearning-hardikbansal-issue2-total-rewards-in-episode-73-to-88-constant-reward-total-steps.log",
      88, 3.799999999999999, 4361),
     ("generic-keras-io-issue89-dqn-breakout-running-reward-at-episode-frame-count-elided.log", 277536, 0.19, 11630000)],
)  # fmt: skip
def test_an_episode_named_inside_words_is_the_position_and_its_reward_the_figure(
    tmp_path: Path, name: str, episode: int, reward: float, env_steps: int
) -> None:
    data = read_cold(tmp_path, body(name))
    assert data["status_line"] == f"episode {episode} · no timing"
    training = data["training"]
    assert (training["step"], training["step_unit"], training["total_steps"], training["loss"]) == (
        episode, "episode", None, None)
    assert training["figures"]["reward"] == reward
    assert training["figures"]["total/timesteps"] == env_steps  # the environment's, never the position
    assert training["steps_per_hour"] is None  # undated: no rate
    assert not any(line.startswith(("step", "Loss")) or "steps/h" in line for line in data["details"])


def test_a_constant_reward_over_many_episodes_is_no_loss(tmp_path: Path) -> None:
    # the same reward 16 episodes running (the agent stuck): a reward, shown as printed, never a loss nor its plateau
    data = read_cold(tmp_path, body(
        "generic-qlearning-hardikbansal-issue2-total-rewards-in-episode-73-to-88-constant-reward-total-steps.log"))
    assert data["state"] == "measuring" and data["level"] == "ok"
    assert data["training"]["loss"] is None and "Reward 3.8" in data["details"]


def test_an_episode_s_own_length_is_never_the_position(tmp_path: Path) -> None:
    # keras-rl: ``episode steps`` 13, 337, 446, 393 (rising, then not) are episodes' lengths; the run's step is 40336/50000
    data = read_cold(tmp_path, body(
        "generic-keras-rl-pr80-sarsa-numbered-steps-39160-to-40336-of-50000-episode-steps-13-337-446-393.log"))
    assert data["status_line"] == "step 40336/50000 · …"
    assert (data["training"]["step"], data["training"]["total_steps"]) == (40336, 50000)


def test_composed_soft_actor_critic_episodes_half_a_minute_apart(tmp_path: Path) -> None:
    # episodes 110..120, 30 s apart: 10 episodes in 5 min is 120 an hour, 30 s each; ``total numsteps`` the environment's
    # steps so far (24000 at the last); ``episode steps: 200`` each episode's length, no position
    lines = [f"2024-05-01 10:{30 * i // 60:02d}:{30 * i % 60:02d} Episode: {110 + i}, total numsteps: {200 * (110 + i)}, "
             f"episode steps: 200, reward: -{1200 - 10 * i}.5" for i in range(11)]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["status_line"] == "episode 120 · 120 episodes/h"
    assert "episode 30.00 s (measured from the lines' times)" in data["details"]
    training = data["training"]
    assert (training["step"], training["step_unit"], training["loss"]) == (120, "episode", None)
    assert training["figures"] == {"reward": -1100.5, "total/timesteps": 24000.0}
    assert not any("steps/h" in line or line.startswith("step") for line in data["details"])
