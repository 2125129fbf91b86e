"""A figure said as printed never has more digits than the log printed: no ``86.0000`` for a log's ``86``.

Four decimals are the most a loss, an evaluation or a reward is said with; a figure printed with fewer keeps its own
(the value's shortest form: ``0.358``, ``12``, ``0``), so the page never claims precision the trainer did not print.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold
from tests.reallogs import body


@pytest.mark.parametrize(("name", "said", "unsaid"), [
    # ultralytics/yolov3 #1503: the bar's ``3.99     0.358         0`` losses (GIoU, obj, cls)
    ("crash-yolov3-issue1503-traceback-compute-loss-cuda-oom-then-glued-bar-epoch-0-of-299-batch-34-of-54-1-26s-it.log",
     "Losses GIoU_loss 3.99 · obj_loss 0.358 · cls_loss 0", "3.9900"),
    # liampetti/DDPG #2: ``| Reward: 12  | Episode 680 | Qmax: 34.4757``
    ("generic-ddpg-liampetti-issue2-cartpole-pipe-reward-episode-669-to-680-qmax-no-loss.log", "Reward 12", "12.0000"),
    # isaac-sim/IsaacLab #5084: rsl-rl's block ``Mean reward: -4.08``
    ("generic-isaaclab-issue5084-rsl-rl-learning-iteration-1-of-10-blocks.log", "Reward -4.08", "-4.0800"),
    # keras-rl/keras-rl #51: ``mean reward: -0.250``
    ("generic-keras-rl-issue51-numbered-steps-18080-to-18092-of-100000-episode-3691-to-3694-episode-steps-4.log",
     "Reward -0.25", "-0.2500"),
    # AnswerDotAI/ModernBERT #233: HF's ``'loss': 0.0`` once the gradients went nan
    ("broken-hf-modernbert-issue233-gradnan-then-loss0.log", "Loss 0 (mean since the last log, as printed)", "0.0000"),
])
def test_a_figure_is_said_with_no_more_digits_than_printed(tmp_path: Path, name: str, said: str, unsaid: str) -> None:
    details = read_cold(tmp_path, body(name))["details"]
    assert any(line.startswith(said) for line in details), details
    assert not any(unsaid in line for line in details)


def test_a_composed_figure_keeps_its_printed_digits_and_four_at_most(tmp_path: Path) -> None:
    # composed: a loss printed with 2 decimals, then 6; an evaluation printed as a whole number
    lines = ["step 1/10 loss 2.50 lr 1e-3", "step 2/10 loss 2.25 lr 1e-3", "step 3/10 loss 2.123456 lr 1e-3",
             "step 3/10 val_loss 86"]
    data = read_cold(tmp_path, lines)
    assert "Loss 2.1235 (as printed)" in data["details"]
    assert any(line.startswith("Eval val_loss 86") and "86.0" not in line for line in data["details"]), data["details"]
