"""A counter's kind and total from its own word: a line that counts epochs, episodes or the data (images, samples)
says so, never "step".

Real: rl_games' throughput lines, ``fps step: … fps total: 209712.3 epoch: 14/1000`` (Denys88/rl_games issue #170), one
line an epoch of the total printed; a custom PPO loop's ``Episode: 73, Actions: 2235, reward: -19, Avg. reward: -19.633``
(yao-jason/MLDS2018SPRING issue #3) and DDPG's ``| Reward: 12  | Episode 680 | Qmax: 34.4757`` (liampetti/DDPG issue #2),
one line an episode; cryoNeFEN's ``[Train Epoch: 17/20] [900/6034 images]`` (yuehuang2023/cryoNeFEN issue #2) and
cryoDRGN's ``[436000/2830676 particles]`` (ml-struct-bio/cryodrgn issue #18) in tests/live/test_real_logs.py. Composed:
dated epoch lines a minute apart, dated sample counts 30 s apart, a tf.keras bar of ``…us/sample``, their rate, time and
ETA worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold
from tests.reallogs import body


def test_rl_games_throughput_lines_count_epochs_of_their_total(tmp_path: Path) -> None:
    data = read_cold(tmp_path, body("generic-rl-games-issue170-brax-fps-lines-epoch-3-to-14-of-1000.log"))
    assert data["status_line"] == "epoch 14/1000 · no timing"
    assert "Stage train · epoch 14/1000 (1.4%)" in data["details"]
    training = data["training"]
    assert (training["step"], training["total_steps"], training["step_unit"], training["loss"]) == (14, 1000, "epoch", None)
    # (its frames a second are shown under their printed names, ``fps step and policy inference`` among them: no step's)
    assert "Rates fps step and policy inference 349521 · fps total 209712" in data["details"]
    assert not any(line.startswith("step") or " step " in line for line in data["details"] if not line.startswith("Rates "))


def test_composed_epoch_throughput_lines_a_minute_apart(tmp_path: Path) -> None:
    # epochs 3..7 of 100, a minute apart: 4 epochs in 4 min is 60 an hour; 93 left at 60 an hour is 1 h 33 min
    lines = [f"2024-05-01 10:{m:02d}:00 fps step: 5000.0 fps total: 2500.0 epoch: {3 + m}/100" for m in range(5)]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["status_line"] == "epoch 7/100 · 60 epochs/h"
    assert "epoch 1 min (measured from the lines' times)" in data["details"]
    assert "ETA 1 h 33 min (tokwatch)" in data["details"]


def test_an_episode_counter_is_said_as_episodes(tmp_path: Path) -> None:
    data = read_cold(tmp_path, body("generic-mlds2018spring-issue3-ppo-pong-episode-59-to-73-avg-reward.log"))
    assert data["status_line"] == "episode 73 · no timing"
    assert "Stage train · episode 73" in data["details"] and "Reward -19.633" in data["details"]
    # (each line's ``Time: 4.03`` is printed, without its unit: shown as printed, never said not to be there)
    assert "no timing read from this log (15 episode lines, only a time without its unit printed): measured as lines arrive" \
        in data["details"]
    assert "Times Time 4.03 (as printed, unit not printed)" in data["details"]
    assert (data["training"]["step_unit"], data["training"]["total_steps"], data["training"]["loss"]) == (
        "episode", None, None)
    fields = {row["label"]: row["value"] for row in data["training_fields"]}
    assert fields["episode"] == "73" and not any(label.startswith("step") for label in fields)


def test_a_step_line_beside_its_episode_return_stays_a_step(tmp_path: Path) -> None:
    # cleanrl's ``global_step=3553, episodic_return=…``: its count is the environment's steps, not episodes
    data = read_cold(tmp_path, body("generic-cleanrl-issue11-global-step-episode-reward-lines.log"))
    assert data["status_line"].startswith("step 3553 · ") and "step_unit" not in data["training"]


def test_a_count_of_samples_is_said_in_samples_and_timed_as_theirs(tmp_path: Path) -> None:
    # 300 samples every 30 s for 30 min: 10 samples a second, 36,000 an hour, 100 ms a sample; 6000 of the epoch's
    # 24000 left at 10 a second: 10 min
    lines = [f"2024-05-01 10:{30 * i // 60:02d}:{30 * i % 60:02d} [Train Epoch: 2/5] [{300 * (i + 1)}/24000 samples] "
             f"loss={0.9 - 0.01 * i:.2f}" for i in range(60)]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["status_line"] == "epoch 2/5 · 18000/24000 samples in the epoch · 36k samples/h"
    assert "sample 100 ms (measured from the lines' times)" in data["details"]
    assert "Epoch ends in 10 min (tokwatch)" in data["details"]
    assert not any(line.startswith("step") or " steps" in line for line in data["details"])
    training = data["training"]
    assert (training["step"], training["total_steps"], training["step_unit"]) == (18000, 24000, "sample")
    assert training["steps_per_hour"] == pytest.approx(36_000, rel=1e-3)
    fields = {row["label"]: (row["value"], row["unit"]) for row in data["training_fields"]}
    assert fields["sample"] == ("18000", "") and fields["total samples"] == ("24000", "")
    assert fields["sample time"] == ("0.1", "s") and fields["samples per hour"][1] == "samples/h"
    assert not any(label.startswith("step") for label in fields)


def test_a_keras_bar_of_samples_is_said_in_samples_and_its_lines_counted_as_lines(tmp_path: Path) -> None:
    # tf.keras' fit on arrays: ``721us/sample`` is a sample's time; one bar is one line of the three a rate needs
    lines = ["Train on 60000 samples", "Epoch 1/5",
             "60000/60000 [==============================] - 43s 721us/sample - loss: 0.3013"]
    data = read_cold(tmp_path, lines)
    assert data["status_line"] == "epoch 1/5 · 60000/60000 samples in the epoch · …"
    assert data["warmup"]["text"].startswith("measuring: 1 of 3 sample lines")
    assert "sample 0.72 ms (a sample's: 721us/sample printed, the bar counts samples)" in data["details"]
    assert (data["training"]["step_unit"], data["training"]["step_seconds"]) == ("sample", 721e-6)
