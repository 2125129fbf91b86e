"""An RL run's frames a second named first and qualified after (rl_games' ``fps step: … fps step and policy inference: …
fps total: … epoch: 14/1000``): the environment's frames a second, shown under their printed names, never tokens, never an
optimizer's steps a second, and no step's time made of them.

Real: Denys88/rl_games issue 170 (tests/data/real, its header; its snapshot in tests/live/test_real_logs.py), and the line
isaac-sim/IsaacLab's docs/source/overview/reinforcement-learning/training_guide.rst shows rl_games printing (at commit
086437aea992faf56ce245ccdccada8fa0fef297, section "RL-Games": ``fps step: 112918 fps step and policy inference: 104337 fps
total: 78179 epoch: 1/150 frames: 0``; one line, too few for a log of its own). Composed: lines worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.classes import Kin, beside, kin_of
from tests.coldread import read_cold

ISAACLAB = "fps step: 112918 fps step and policy inference: 104337 fps total: 78179 epoch: 1/150 frames: 0"
RL_GAMES = "fps step: 524282.0 fps step and policy inference: 349520.9  fps total: 209712.3 epoch: 14/1000"


@pytest.mark.parametrize(("name", "kin"), [
    ("fps total", Kin.RATE),
    ("fps step and policy inference", Kin.RATE),
    ("fps", Kin.RATE),
    ("env fps", Kin.RATE),
    ("fpsx", None),  # (a word that only starts with the letters)
])  # fmt: skip
def test_frames_a_second_named_first(name: str, kin: Kin | None) -> None:
    assert kin_of(name, None) is kin


@pytest.mark.parametrize(("line", "rates"), [
    (ISAACLAB, {"fps step and policy inference": 104337.0, "fps total": 78179.0}),
    (RL_GAMES, {"fps step and policy inference": 349520.9, "fps total": 209712.3}),
])  # fmt: skip
def test_a_real_rl_games_line_s_rates(line: str, rates: dict[str, float]) -> None:
    found = {n.name: n.value for n in beside(line) if n.kin is Kin.RATE}
    assert found == rates


def test_frames_a_second_make_no_step_time(tmp_path: Path) -> None:
    # composed: rl_games' lines for epochs 1 to 4 of 150, undated: the newest line's rates as printed, no step's time
    lines = [f"fps step: {step} fps step and policy inference: {inference} fps total: {total} epoch: {e}/150"
             for e, step, inference, total in ((1, 112918, 104337, 78179), (2, 110000, 100000, 75000),
                                               (3, 120000, 101000, 76000), (4, 118000, 99000, 74500))]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["total_steps"], training["step_unit"]) == (4, 150, "epoch")
    assert training["step_seconds"] is None and training["tokens_per_second"] is None
    assert training["figures"] == {"rate/fps step and policy inference": 99000.0, "rate/fps total": 74500.0}
    assert "Rates fps step and policy inference 99000 · fps total 74500" in data["details"]
