"""A log that says training goes on again after an evaluation (``Training...``, ``- TRAIN``) ends that pause.

The pause an evaluation announced holds a stall off until the next step line; once the trainer says it trains again,
the pause is over: the snapshot no longer says paused, and a silence from then on is the usual stall.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.coldread import read_cold

DATA = Path(__file__).resolve().parents[1] / "data" / "real"

# Composed: 100 iterations every 100 s, then a validation of 61 s, then the trainer's own word that training goes on.
STEPS = [
    "2026-03-02 10:00:00,000 - epoch 1 iter 100/1000 loss 2.5000",
    "2026-03-02 10:01:40,000 - epoch 1 iter 200/1000 loss 2.4000",
    "2026-03-02 10:03:20,000 - epoch 1 iter 300/1000 loss 2.3000",
    "2026-03-02 10:05:00,000 - epoch 1 iter 400/1000 loss 2.2000",
    "2026-03-02 10:05:01,000 - VALID",
    "2026-03-02 10:06:01,000 - VALID LOSS:2.1000",
]
LAST = datetime(2026, 3, 2, 10, 6, 2, tzinfo=UTC).timestamp()  # the resumed line's time


@pytest.mark.parametrize("said", ["2026-03-02 10:06:02,000 - TRAIN", "2026-03-02 10:06:02,000 - Training...",
                                  "2026-03-02 10:06:02,000 - Start training"])
def test_training_said_to_go_on_ends_the_evaluations_pause(tmp_path: Path, said: str) -> None:
    data = read_cold(tmp_path, [*STEPS, said], dated=True)
    assert data["training"]["paused"] is None and data["state"] == "training"


def test_without_the_word_the_evaluation_still_pauses(tmp_path: Path) -> None:
    data = read_cold(tmp_path, STEPS, dated=True)
    assert data["training"]["paused"] == "evaluation"


def test_a_silence_after_training_resumed_is_a_stall_not_the_evaluation(tmp_path: Path) -> None:
    # 40 min after the last step (its lines 100 s apart): stalled once training was said to go on; held as the
    # evaluation's pause without that word.
    later = LAST + 40 * 60
    resumed = read_cold(tmp_path, [*STEPS, "2026-03-02 10:06:02,000 - TRAIN"], at=later)
    assert resumed["state"] == "stalled"
    (tmp_path / "b").mkdir()
    pausing = read_cold(tmp_path / "b", STEPS, at=later)
    assert pausing["state"] != "stalled" and pausing["training"]["paused"] == "evaluation"


def test_a_word_before_any_step_or_inside_a_sentence_is_no_resume(tmp_path: Path) -> None:
    lines = [*STEPS, "2026-03-02 10:06:02,000 - Stop training now"]
    assert read_cold(tmp_path, lines, dated=True)["training"]["paused"] == "evaluation"


@pytest.mark.parametrize("name", [
    # demucs issue #315: ``Valid Summary | Epoch 35 | …``, a rule, then ``[04-04 22:58:54][demucs.solver][INFO] - Training...``
    "generic-demucs-issue315-solver-train-epoch-35-of-332-it-sec-valid-summary.log",
    # asr end2end issue #39: ``VALID SET 0 LOSS:0.1735 CER:5.59%``, ``SHUFFLE``, then ``2020-11-13 13:56:35,349 - TRAIN``
    "generic-asr-end2end-issue39-dated-epoch-20-21-train-loss-valid-shuffle-train-4h22m-per-epoch.log",
])  # fmt: skip
def test_real_logs_ending_on_training_resumed_pause_no_more(tmp_path: Path, name: str) -> None:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    data = read_cold(tmp_path, lines, dated=True)
    assert data["training"]["paused"] is None
    cut = read_cold(tmp_path, lines[:-1], name="cut.log", dated=True)  # (without its last line: still validating)
    assert cut["training"]["paused"] == "evaluation"
