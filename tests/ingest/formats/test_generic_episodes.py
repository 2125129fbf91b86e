"""An RL loop's line per episode, its reward beside it and no step: the episode is the position, said as an episode
(never a "step": the log counts episodes, not updates), the reward the figure.

Where the line prints a running mean of the reward (``Avg. reward``) that is the figure shown; else the episode's own.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold
from tests.reallogs import body

# Composed in a custom Pong loop's shape: each episode's actions, reward, running mean and seconds.
PONG = [
    "Episode: 7, Actions: 1000, reward: -21, Avg. reward: -21.000, Time: 2.00, T/A: 2.00ms",
    "Episode: 8, Actions: 1500, reward: -19, Avg. reward: -20.000, Time: 3.00, T/A: 2.00ms",
    "Episode: 9, Actions: 1200, reward: -20, Avg. reward: -20.000, Time: 2.40, T/A: 2.00ms",
]


def test_the_episode_is_the_position_and_the_running_mean_the_reward(tmp_path: Path) -> None:
    data = read_cold(tmp_path, PONG)
    assert data["status_line"].startswith("episode 9 · ") and data["training"]["loss"] is None
    assert "Reward -20" in data["details"] and "Stage train · episode 9" in data["details"]
    assert data["training"]["total_steps"] is None and data["training"]["step_unit"] == "episode"
    assert not any(line.startswith("step ") or " step " in line for line in data["details"])


def test_a_line_naming_an_episode_without_a_reward_is_no_step(tmp_path: Path) -> None:
    data = read_cold(tmp_path, ["Episode: 7, Actions: 1000", "Episode: 8, Actions: 1500"])
    assert data["training"] is None or data["training"].get("step") is None


def test_a_real_ddpg_log_reads_its_episodes_and_their_reward(tmp_path: Path) -> None:
    # liampetti/DDPG issue #2: ``| Reward: 12  | Episode 680 | Qmax: 34.4757``
    data = read_cold(tmp_path, body("generic-ddpg-liampetti-issue2-cartpole-pipe-reward-episode-669-to-680-qmax-no-loss.log"))
    assert data["status_line"].startswith("episode 680 · ")
    assert "Reward 12" in data["details"] and data["training"]["loss"] is None
    assert not any("34.4757" in line or "Loss" in line for line in data["details"])


def test_a_step_line_s_episode_reward_stays_beside_its_step(tmp_path: Path) -> None:
    # cleanrl's ``global_step=3553, episodic_return=…``: its step is the environment's, unchanged
    data = read_cold(tmp_path, body("generic-cleanrl-issue11-global-step-episode-reward-lines.log"))
    assert data["status_line"].startswith("step 3553 · ")
