"""Records that span lines: a logger's key/value table between rules, read as one record of the position it prints.

Spinning Up's EpochLogger prints one table an epoch (``|             Epoch |              34 |`` rows between rules of
dashes); its names are abbreviations (``AverageEpRet``, ``TotalEnvInteracts``, ``LossPi``) read as the words other loops
print. A table the log ends in, before its closing rule, is its epoch's record all the same.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold
from tests.reallogs import body

RULE = "-" * 39


def _table(epoch: int, ret: str, interacts: str, loss_pi: str, time: str) -> list[str]:
    """One EpochLogger table of PPO's keys, composed in Spinning Up's layout (``| %17s | %15s |``)."""
    rows = [("Epoch", str(epoch)), ("AverageEpRet", ret), ("StdEpRet", "3.1"), ("EpLen", "200"),
            ("TotalEnvInteracts", interacts), ("LossPi", loss_pi), ("LossV", "45.6"), ("KL", "0.004"),
            ("Time", time)]
    return [RULE, *(f"| {name:>17} | {value:>15} |" for name, value in rows), RULE]


def test_a_table_the_log_ends_in_is_its_own_epoch_s_record(tmp_path: Path) -> None:
    # composed: epochs 33 and 34 of 4000 environment steps each; the log ends after epoch 34's last row, before its rule
    lines = _table(33, "-12.5", "1.36e+05", "-0.0123", "812") + _table(34, "-11", "1.4e+05", "-0.01", "836")[:-1]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 34 and data["training"]["loss"] == -0.01
    assert data["training"]["figures"] == {"reward": -11.0, "total/timesteps": 140000.0}
    # (the run's clock is no time of an epoch's own: 836 s is not said as one)
    assert not any("836" in line for line in data["details"])


def test_a_closed_table_reads_the_same(tmp_path: Path) -> None:
    lines = _table(33, "-12.5", "1.36e+05", "-0.0123", "812") + _table(34, "-11", "1.4e+05", "-0.01", "836")
    data = read_cold(tmp_path, lines)
    assert data["step"] == 34 and data["training"]["loss"] == -0.01
    assert data["training"]["figures"] == {"reward": -11.0, "total/timesteps": 140000.0}


def test_a_table_s_tail_alone_is_no_record(tmp_path: Path) -> None:
    # the log begins inside a table (after its Epoch row): no position, no step
    data = read_cold(tmp_path, _table(34, "-11", "1.4e+05", "-0.01", "836")[3:-1])
    assert data["step"] is None


def test_a_real_epochlogger_table_cut_before_its_rule(tmp_path: Path) -> None:
    # openai/spinningup#37: PPO's epoch 48 on HalfCheetah
    data = read_cold(tmp_path, body("generic-spinningup-issue37-epochlogger-table-epoch-48-cut-before-closing-rule.log"))
    assert data["step"] == 48 and data["training"]["loss"] == 2.81e-08
    assert data["training"]["figures"] == {"reward": 7020.0, "total/timesteps": 196000.0}
    assert data["training"]["eval"] is None and not any("127" in line for line in data["details"])


def test_an_off_policy_table_s_test_return_is_its_epoch_s_evaluation(tmp_path: Path) -> None:
    # composed in TD3's keys: ``AverageTestEpRet``, the mean return of the epoch's test episodes (deterministic policy)
    rows = [("Epoch", "2"), ("AverageEpRet", "-8.9"), ("AverageTestEpRet", "-0.189"), ("TestEpLen", "999"),
            ("TotalEnvInteracts", "1.6e+04"), ("LossPi", "0.0964"), ("LossQ", "7.62e-05"), ("Time", "51.2")]
    data = read_cold(tmp_path, [RULE, *(f"| {n:>17} | {v:>15} |" for n, v in rows), RULE])
    assert data["step"] == 2 and data["training"]["loss"] == 0.0964
    assert data["training"]["eval"] == {"test_episode_return": {"value": -0.189, "step": 2}}


# JSON lines written by an RL or training loop: the step (or, with none, the episode) the position; the figures the
# name classes know beside it (the reward, the environment's steps and episodes so far, an evaluation's score).

def test_an_episode_record_with_its_reward_is_that_episode_s_step(tmp_path: Path) -> None:
    # composed: one record an episode, no step key
    lines = ['{"episode": 119, "mean_episode_reward": 12.5}', '{"episode": 120, "mean_episode_reward": 13.2}']
    data = read_cold(tmp_path, lines)
    assert data["step"] == 120 and data["training"]["figures"] == {"reward": 13.2}
    assert data["training"]["loss"] is None


def test_a_step_key_is_the_position_over_the_episode(tmp_path: Path) -> None:
    # composed in the eval stream's shape: the environment's step the position, the episode a number beside it
    lines = ['{"episode": 110, "mean_episode_reward": 12.5, "step": 340000}',
             '{"episode": 120, "mean_episode_reward": 13.2, "step": 350000}']
    data = read_cold(tmp_path, lines)
    assert data["step"] == 350000 and data["training"]["figures"] == {"reward": 13.2}


def test_an_episode_record_without_a_figure_is_no_step(tmp_path: Path) -> None:
    data = read_cold(tmp_path, ['{"episode": 1, "seed": 3}', '{"episode": 2, "seed": 4}'])
    assert data["step"] is None


def test_a_json_record_s_score_is_its_evaluation(tmp_path: Path) -> None:
    # composed in DeiT's log.txt shape: the test accuracy beside the test loss, that epoch's evaluation
    lines = ['{"train_loss": 3.76, "test_loss": 1.26, "test_acc1": 71.3, "epoch": 100}', '{"train_loss": 3.75, "epoch": 101}']
    data = read_cold(tmp_path, lines)
    assert data["training"]["eval"] == {"test_loss": {"value": 1.26, "step": 100}, "test_acc1": {"value": 71.3, "step": 100}}


def test_real_dreamer_metrics_read_their_return(tmp_path: Path) -> None:
    # epistoteles/dreamer-goal-conditioned: ``{"step": 5000, "train/return": 35.15625, "train/length": 500, "episodes": 5}``
    data = read_cold(tmp_path, body("generic-dreamer-goal-conditioned-metrics-jsonl-walker-steps-1000-to-5000-train-return.jsonl"))
    assert data["step"] == 5000 and data["training"]["figures"] == {"reward": 35.15625, "total/episodes": 5.0}
    # chenghands-on/World_model_assemble (DreamerV3): the last record is the step alone
    data = read_cold(tmp_path, body("generic-dreamerv3-torch-world-model-assemble-metrics-jsonl-step-0-returns-then-step-5000-alone.jsonl"))
    assert data["step"] == 5000 and data["training"]["figures"] == {"reward": 49.929046630859375}
