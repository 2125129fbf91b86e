"""RLlib's result blocks and Ray Tune's trial tables: one trial's iterations as steps.

Real logs (tests/data/real/rllib-*.log, each citing its source) and composed blocks whose figures are
worked out by hand below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats import create_parser
from app.stats.events import StageEnd, TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body


def events(lines: list[str]) -> list[object]:
    return [e for e in create_parser("rllib").feed(lines) if type(e).__name__ != "Tick"]


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in events(lines) if isinstance(e, TrainStep)]


def cold(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    return read_cold(tmp_path, lines, name="rllib.log", at=T0)


def block(iteration: int, *, reward: float, loss: float, seconds: float, total: float, stamp: int,
          done: str = "false", indent: str = "") -> list[str]:
    """A result block as RLlib's pretty_print writes it (keys sorted), its figures given."""
    lines = ["custom_metrics: {}", f"done: {done}", f"episode_reward_mean: {reward}", "info:", "  learner:",
             "    default_policy:", "      learner_stats:", "        cur_lr: 5.0e-05", f"        total_loss: {loss}",
             f"iterations_since_restore: {iteration}", f"time_this_iter_s: {seconds}", f"time_total_s: {total}",
             f"timestamp: {stamp}", f"timesteps_total: {4000 * iteration}", f"training_iteration: {iteration}", ""]
    return [indent + line if line else line for line in lines]


def test_real_bare_blocks_each_iteration_a_step_with_its_own_figures() -> None:
    got = steps(body("rllib-ray-issue3908-ppo-bare-results-iteration-5-tail-then-6-then-7-begun.log"))
    # iteration 5's tail: its time and clock; iteration 6 whole; iteration 7 begun (no iteration printed): no step
    assert [s.step for s in got] == [5, 6]
    assert (got[0].step_seconds, got[0].elapsed_seconds, got[0].at) == (2.784257650375366, 33.571396589279175, 1548971782)
    six = got[1]
    assert (six.loss, six.lr, six.step_seconds, six.elapsed_seconds, six.at) == (
        2228198.5, 4.999999873689376e-05, 2.884826421737671, 36.456223011016846, 1548971784)
    # the environment's timesteps (``timesteps_total: 24000``) are a total of what it sampled: shown as printed, never
    # the run's steps, nor tokens
    assert dict(six.figures) == {"reward": -2928.05, "total/timesteps": 24000.0}
    assert six.tokens is None and six.total_steps is None


def test_real_block_under_result_for_cut_before_its_iteration_line_is_read_at_the_batch_s_end() -> None:
    (one,) = steps(body("rllib-ray-pr27093-result-for-ppo-cartpole-indented-block-iteration-1-cut.log"))
    assert (one.step, one.loss, one.lr, one.step_seconds) == (1, 8.862993240356445, 4.999999873689376e-05, None)
    # (its ``num_env_steps_sampled: 4000``, the environment's steps so far: the block's one value, nested or not)
    assert dict(one.figures) == {"reward": 22.577142857142857, "total/timesteps": 4000.0}


@pytest.mark.parametrize(("name", "step", "elapsed", "figures"), [
    ("rllib-tune-ray-issue5996-boxed-trial-table-sac-iter-66.log", 66, 163.499, {"reward": -1105.85}),
    # (its ``ts`` column: the environment's timesteps so far)
    ("rllib-tune-rllib-energyplus-issue1-boxed-trial-table-ppo-iter-118.log", 118, 336.243,
     {"reward": -55148.4, "total/timesteps": 120832.0}),
])  # fmt: skip
def test_real_tune_boxed_tables_give_the_trial_s_iteration_clock_and_reward(
    name: str, step: int, elapsed: float, figures: dict[str, float]
) -> None:
    (row,) = steps(body(name))
    assert (row.step, row.elapsed_seconds, row.loss, dict(row.figures)) == (step, elapsed, None, figures)


def test_tune_s_plain_table_follows_the_first_trial_only() -> None:
    # Ray 2.x's table under a rule of dash runs, two trials: the first row's trial is followed, the other's
    # iteration never read as the run's
    lines = ["Trial name           status      iter    total time (s)     ts    reward",
             "-------------------  --------  ------  ----------------  -----  --------",
             "APPO_CartPole_00000  RUNNING        3           30.3035  46550  190.75",
             "APPO_CartPole_00001  RUNNING        5           50.1083  75850   25.9221"]
    (row,) = steps(lines)
    assert (row.step, row.elapsed_seconds, dict(row.figures)) == (3, 30.3035, {"reward": 190.75, "total/timesteps": 46550.0})


def test_a_status_line_repeating_an_iteration_read_from_its_block_is_no_second_step() -> None:
    lines = [*block(7, reward=-1070.0, loss=1.5, seconds=50.0, total=313.0, stamp=1544524382),
             "== Status ==", "RUNNING trials:", " - DDPG_Pendulum-v0_0:\tRUNNING [pid=86], 313 s, 7 iter, 7000 ts, -1.07e+03 rew",
             " - DDPG_Pendulum-v0_0:\tRUNNING [pid=86], 367 s, 8 iter, 8000 ts, -955.6 rew"]
    got = steps(lines)
    assert [(s.step, s.elapsed_seconds) for s in got] == [(7, 313.0), (8, 367.0)]
    assert dict(got[1].figures) == {"reward": -955.6, "total/timesteps": 8000.0}


def test_a_block_with_several_policies_losses_shows_no_one_loss_and_done_ends_the_run() -> None:
    lines = block(3, reward=1.0, loss=2.0, seconds=1.0, total=3.0, stamp=1_700_000_000, done="true")
    lines[9:9] = ["    other_policy:", "      learner_stats:", "        total_loss: 9.5"]
    got = events(lines)
    step, end = got
    assert isinstance(step, TrainStep) and isinstance(end, StageEnd)
    assert (step.step, step.loss) == (3, None)


def test_composed_indented_blocks_rate_from_the_results_own_timestamps(tmp_path: Path) -> None:
    # four iterations under ``Result for``, 60 s apart by their ``timestamp``: 60 iterations an hour; the
    # printed ``time_this_iter_s`` 58.0 is the step's time as printed
    lines: list[str] = []
    for i in (1, 2, 3, 4):
        stamp = int(T0) - 60 * (4 - i)
        lines += ["Result for PPO_CartPole-v1_0:",
                  *block(i, reward=10.0 * i, loss=0.5, seconds=58.0, total=60.0 * i, stamp=stamp, indent="  ")]
    data = cold(tmp_path, lines)
    assert data["format"] == "rllib"
    training = data["training"]
    assert (training["step"], training["loss"], training["step_seconds"]) == (4, 0.5, 58.0)
    assert data["status_line"] == "step 4 · 60 steps/h"


def test_real_rounded_result_box_gives_the_iteration_its_loss_and_the_trial_s_end() -> None:
    got = events(body("rllib-tune-ray-issue36790-air-output-trial-completed-20-iterations-result-box.log"))
    step, end = got
    assert isinstance(step, TrainStep) and isinstance(end, StageEnd)
    assert (step.step, step.loss, step.step_seconds, step.elapsed_seconds, step.lr) == (20, 0.6204, 0.16039, 9.51638, None)


def test_ray_2_s_rounded_status_table_follows_the_first_trial() -> None:
    # columns apart by two spaces or more inside the box; a row with a blank cell (no result yet) is no row
    lines = ["╭──────────────────────────────────────────────────────────────────────╮",
             "│ Trial name                    status       iter     total time (s)     reward │",
             "├──────────────────────────────────────────────────────────────────────┤",
             "│ PPO_CartPole-v1_1b6e5_00000   RUNNING         4            40.25     118.5 │",
             "│ PPO_CartPole-v1_1b6e5_00001   PENDING                                      │",
             "╰──────────────────────────────────────────────────────────────────────╯"]
    (row,) = steps(lines)
    assert (row.step, row.elapsed_seconds, dict(row.figures)) == (4, 40.25, {"reward": 118.5})


def test_a_script_printing_the_iteration_first_gives_it_the_figures_under_it() -> None:
    # a training loop's own prints (``print("training_iteration: %d" % result["training_iteration"])`` then the
    # rewards, a blank line between iterations): iteration 2's reward is the one printed under it, never 1's
    lines = ["training_iteration: 1", "date:  2021-03-01_10-00-00", "episode_reward_mean: -300.000000", "", "",
             "training_iteration: 2", "date:  2021-03-01_10-01-00", "episode_reward_mean: -250.000000", "", ""]
    assert [(s.step, dict(s.figures)) for s in steps(lines)] == [(1, {"reward": -300.0}), (2, {"reward": -250.0})]
    # cut after its iteration line: the iteration, its figures none
    assert [(s.step, s.figures) for s in steps(lines[:6])] == [(1, (("reward", -300.0),)), (2, ())]


def test_a_paste_beginning_at_a_block_s_last_line_is_not_taken_for_a_script_leading_with_it() -> None:
    lines = ["training_iteration: 4", "", *block(5, reward=-10.0, loss=1.0, seconds=2.0, total=10.0, stamp=1_700_000_000)]
    got = steps(lines)
    assert [(s.step, dict(s.figures), s.loss) for s in got] == [
        (4, {}, None), (5, {"reward": -10.0, "total/timesteps": 20000.0}, 1.0)]


# --- the environment's steps, and several trials ------------------------------------------------------------------


def test_real_result_blocks_env_steps_by_each_name_rllib_gave_them() -> None:
    """ray#3908 turn 7 (bare PPO blocks): iteration 6 prints ``timesteps_total: 24000``; ray#27093 (a ``Result for``
    block cut before its iteration): ``num_env_steps_sampled: 4000``, nested and top level alike."""
    six = steps(body("rllib-ray-issue3908-ppo-bare-results-iteration-5-tail-then-6-then-7-begun.log"))[-1]
    assert dict(six.figures)["total/timesteps"] == 24000.0
    (one,) = steps(body("rllib-ray-pr27093-result-for-ppo-cartpole-indented-block-iteration-1-cut.log"))
    assert dict(one.figures)["total/timesteps"] == 4000.0


def test_a_block_cut_before_timesteps_total_gives_its_own_sampled_count_never_the_block_before_s() -> None:
    """ray PR #3498's DDPG shape: iteration 8's block is cut after ``time_total_s`` (its ``timesteps_total`` not
    printed); its ``info:`` section's ``num_steps_sampled: 8000`` is its own count, the 7000 of iteration 7's
    ``timesteps_total`` is not."""
    seven = block(7, reward=-1070.0, loss=1.5, seconds=50.0, total=313.0, stamp=1544524382)
    eight = ["Result for DDPG_Pendulum-v0_0:", "  custom_metrics: {}", "  done: false",
             "  episode_reward_mean: -955.6174202410659", "  info:", "    grad_time_ms: 14.604",
             "    num_steps_sampled: 8000", "    num_steps_trained: 1664000", "  iterations_since_restore: 8",
             "  time_this_iter_s: 53.974600076675415", "  time_total_s: 367.3194589614868"]
    got = steps([*seven, *eight])
    assert [(s.step, dict(s.figures).get("total/timesteps")) for s in got] == [(7, 28000.0), (8, 8000.0)]


def test_old_status_lines_and_tables_give_each_trial_s_figures_beside_its_name(tmp_path: Path) -> None:
    """Ray Tune's table with two RUNNING trials (ray#33150's shape): the first is followed (its iteration the step,
    its ``ts`` the timesteps); the second is never merged into it, and the details say there are two, each with its
    own figures."""
    lines = ["Trial name                    status      iter    total time (s)     ts    reward",
             "----------------------------  --------  ------  ----------------  -----  --------",
             "APPO_CartPole-v1_29116_00000  RUNNING        3           30.3035  46550  190.75",
             "APPO_CartPole-v1_29116_00001  RUNNING        1           10.1083  15850   25.9221"]
    data = cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["figures"]["reward"], training["figures"]["total/timesteps"]) == (3, 190.75, 46550)
    assert ("Trials 2, the first followed: APPO_CartPole-v1_29116_00000 iter 3 · reward 190.75 · ts 46,550; "
            "APPO_CartPole-v1_29116_00001 iter 1 · reward 25.9221 · ts 15,850") in data["details"]
    # one trial alone: no such line
    data = cold(tmp_path, lines[:3])
    assert not any(line.startswith("Trials") for line in data["details"])
