"""An RL loop's line an episode's: the episode named with what it returned beside it is the position, in episodes; a bare
``steps`` beside it is that episode's own length, never the run's position; ``Ep`` beside a reward is an episode, not an
epoch; a score beside an episode is its return.

Real: the SAC example's ``Average return in last 50 consecutive episodes: -116.132 steps: 286 Episode return: -137.065``
(mlpack/examples pull request #111, turn 4 by zoq: the first eight of its lines, below); keon/deep-q-learning's run kept
in its file dqn_batch.py's closing docstring (commit c99b677), ``episode: 25/1000, score: 159, loss: 0.0874…, e: 0.01``
(all of it, below: its DQN loss leaps to 28.9 at episode 12 and back, a spike the detector rightly counts, so it is no
healthy log for tests/data/real); the Rainbow DQN script's ``Episode 300 | Steps: 1276 | Score: 255.0 | Total Steps:
378900 | …`` (aryanchegini/function-approximated-RL, file TRAINING_OUTPUT_EXAMPLE.md), in tests/live/test_real_logs.py.
Composed: the three shapes below, their answers worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold

# mlpack/examples pull request #111: ``steps`` 99, 67, 286, 72, 73, 112, 101, 64 is each episode's length (it falls back)
_SAC_EPISODES = [
    "Average return in last 50 consecutive episodes: -118.577 steps: 99 Episode return: -106.08",
    "Average return in last 50 consecutive episodes: -116.224 steps: 67 Episode return: -123.188",
    "Average return in last 50 consecutive episodes: -116.132 steps: 286 Episode return: -137.065",
    "Average return in last 50 consecutive episodes: -116.173 steps: 72 Episode return: -115.798",
    "Average return in last 50 consecutive episodes: -116.044 steps: 73 Episode return: -114.356",
    "Average return in last 50 consecutive episodes: -116.235 steps: 112 Episode return: -133.005",
    "Average return in last 50 consecutive episodes: -116.446 steps: 101 Episode return: -130.069",
    "Average return in last 50 consecutive episodes: -116.248 steps: 64 Episode return: -113.556",
]

# keon/deep-q-learning, dqn_batch.py: ``print("episode: {}/{}, score: {}, loss: {}, e: {:.2}".format(e, EPISODES, …))``
_DQN_EPISODES = [
    "episode: 0/1000, score: 36, loss: 2.033647060394287, e: 0.98",
    "episode: 1/1000, score: 41, loss: 1.8614808320999146, e: 0.79",
    "episode: 2/1000, score: 80, loss: 2.5632143020629883, e: 0.53",
    "episode: 3/1000, score: 60, loss: 1.0715980529785156, e: 0.39",
    "episode: 4/1000, score: 104, loss: 0.8617762923240662, e: 0.23",
    "episode: 5/1000, score: 31, loss: 0.35747289657592773, e: 0.2",
    "episode: 6/1000, score: 16, loss: 1.6762055158615112, e: 0.18",
    "episode: 7/1000, score: 39, loss: 8.466679573059082, e: 0.15",
    "episode: 8/1000, score: 72, loss: 26.064208984375, e: 0.1",
    "episode: 9/1000, score: 165, loss: 0.3012640178203583, e: 0.044",
    "episode: 10/1000, score: 332, loss: 0.06786945462226868, e: 0.01",
    "episode: 11/1000, score: 252, loss: 0.1098066046833992, e: 0.01",
    "episode: 12/1000, score: 102, loss: 28.94289779663086, e: 0.01",
    "episode: 13/1000, score: 168, loss: 0.12261655926704407, e: 0.01",
    "episode: 14/1000, score: 113, loss: 0.1081317663192749, e: 0.01",
    "episode: 15/1000, score: 97, loss: 9.768539428710938, e: 0.01",
    "episode: 16/1000, score: 111, loss: 0.1278144121170044, e: 0.01",
    "episode: 17/1000, score: 138, loss: 8.290574073791504, e: 0.01",
    "episode: 18/1000, score: 105, loss: 0.10409928113222122, e: 0.01",
    "episode: 19/1000, score: 94, loss: 11.721243858337402, e: 0.01",
    "episode: 20/1000, score: 111, loss: 0.15777422487735748, e: 0.01",
    "episode: 21/1000, score: 114, loss: 0.06954111158847809, e: 0.01",
    "episode: 22/1000, score: 122, loss: 0.10382276773452759, e: 0.01",
    "episode: 23/1000, score: 164, loss: 0.04481598362326622, e: 0.01",
    "episode: 24/1000, score: 123, loss: 0.0731305181980133, e: 0.01",
    "episode: 25/1000, score: 159, loss: 0.08740118145942688, e: 0.01",
]


def test_an_episode_s_length_beside_its_return_is_never_the_position(tmp_path: Path) -> None:
    # no line names an episode's number nor the run's steps: nothing to place the run at, so no position at all (an
    # honest "not recognised"), never "step 64" nor a restart each time an episode runs shorter than the one before
    data = read_cold(tmp_path, _SAC_EPISODES)
    assert data["state"] == "unrecognised" and data["step"] is None
    assert not any("step 64" in line or "restart" in line for line in data["details"])


def test_composed_episode_with_its_reward_and_its_own_steps(tmp_path: Path) -> None:
    # ``Episode 120 | reward: 200.0 | steps: 195``: episode 120 the position, the reward 200.0, 195 that episode's length
    lines = [f"Episode {117 + i} | reward: {r} | steps: {n}"
             for i, (r, n) in enumerate([("180.0", 170), ("190.0", 200), ("150.0", 130), ("200.0", 195)])]
    data = read_cold(tmp_path, lines)
    assert data["status_line"] == "episode 120 · no timing"
    training = data["training"]
    assert (training["step"], training["step_unit"], training["total_steps"], training["loss"]) == (120, "episode", None, None)
    assert training["figures"] == {"reward": 200.0}


def test_composed_ep_beside_a_reward_is_an_episode_not_an_epoch(tmp_path: Path) -> None:
    # ``Ep 73 reward -20.0 running reward -20.5``: episode 73, its running reward -20.5 the figure (the mean where printed)
    lines = ["Ep 70 reward -21.0 running reward -20.6", "Ep 71 reward -20.0 running reward -20.6",
             "Ep 72 reward -21.0 running reward -20.6", "Ep 73 reward -20.0 running reward -20.5"]
    data = read_cold(tmp_path, lines)
    assert data["status_line"] == "episode 73 · no timing"
    training = data["training"]
    assert (training["step"], training["step_unit"], training["data"]) == (73, "episode", None)  # no epoch
    assert training["figures"] == {"reward": -20.5}


def test_composed_episode_of_its_total_with_a_score(tmp_path: Path) -> None:
    # keon's ``episode: 59/1000, score: 21.0, e: 0.01``: episode 59 of 1000 (5.9 %), the score 21.0 its return
    lines = [f"episode: {56 + i}/1000, score: {s}, e: 0.01" for i, s in enumerate(["15.0", "30.0", "12.0", "21.0"])]
    data = read_cold(tmp_path, lines)
    assert data["status_line"] == "episode 59/1000 · no timing"
    training = data["training"]
    assert (training["step"], training["total_steps"], training["step_unit"]) == (59, 1000, "episode")
    assert training["figures"] == {"reward": 21.0}
    assert "Stage train · episode 59/1000 (5.9%)" in data["details"]


def test_an_episode_counted_with_its_total_is_the_position_never_a_step(tmp_path: Path) -> None:
    # episode 25 of 1000 (2.5 %), the last line's loss 0.08740118145942688; the score (frames lasted) no position
    data = read_cold(tmp_path, _DQN_EPISODES)
    assert data["status_line"] == "episode 25/1000 · no timing"
    training = data["training"]
    assert (training["step"], training["total_steps"], training["step_unit"]) == (25, 1000, "episode")
    assert training["loss"] == 0.08740118145942688
    assert "Stage train · episode 25/1000 (2.5%)" in data["details"]


def test_a_loss_spike_is_placed_in_episodes_where_the_count_is_one(tmp_path: Path) -> None:
    # the replay's loss 28.94 at episode 12 between 0.11 and 0.12, then back: said at episode 12, never "step 12"
    data = read_cold(tmp_path, _DQN_EPISODES)
    assert "Loss spikes 1 (the latest at episode 12, recovered)" in data["details"]
