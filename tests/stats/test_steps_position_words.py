"""Where a run is, in words that say only what its lines print.

fairseq's legacy lines print the run's update count beside the place in the epoch
(``| epoch 010:   1000 / 2737 loss=6.144, … num_updates=25634``, fairseq issue #514): both are
said, the epoch's share from its own count (1000 / 2737 = 36.5 %). A log of dicts without step numbers (HF's Trainer)
counts its records: a loss spike among them is at no step.
"""

from __future__ import annotations

from app.stats.events import TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report

T0 = 1_700_000_000.0


def test_an_update_count_beside_the_place_in_its_epoch_says_both() -> None:
    progress = StepProgress()
    progress.apply(TrainStep(T0, "train", 25634, loss=6.144, epoch=10.0, epoch_batch=1000, epoch_batches=2737), T0)
    r = report(progress, T0)
    assert r.status_line.startswith("step 25634 · epoch 10 · 1000/2737 in the epoch · ")
    assert "Stage train · step 25634 · epoch 10 · 1000/2737 in the epoch (36.5% of the epoch)" in r.details
    assert r.training.step == 25634 and r.training.total_steps is None


def test_without_the_epoch_batch_the_position_is_the_step_alone() -> None:
    progress = StepProgress()
    progress.apply(TrainStep(T0, "train", 25634, loss=6.144, epoch=10.0), T0)
    r = report(progress, T0)
    assert r.status_line.startswith("step 25634 · ") and "in the epoch" not in r.status_line
    assert "Stage train · step 25634" in r.details


def test_a_spike_in_a_log_of_dicts_names_no_step() -> None:
    """Records 1..60 at loss 2.0 ± 0.01, record 61 at 9.0 (a spike), then 2.0 again: the record count is no step."""
    progress = StepProgress()
    for n in range(1, 70):
        loss = 9.0 if n == 61 else 2.0 + (0.01 if n % 2 else -0.01)
        progress.apply(TrainStep(None, "train", n, loss=loss, epoch=n / 100, logged=True), T0 + n)
    details = report(progress, T0 + 70).details
    spikes = [line for line in details if line.startswith("Loss spikes")]
    assert spikes == ["Loss spikes 1 (the latest, recovered)"]


def test_one_line_is_one_step() -> None:
    """A run read at its last step alone (Lightning's bar at 100/100, its step time printed): one step, said so."""
    progress = StepProgress()
    progress.apply(TrainStep(T0, "train", 100, total_steps=100, step_seconds=0.5), T0)
    details = report(progress, T0).details
    assert "no rate: 1 step line over less than 3 min of its own time" in details


def test_words_of_completion_short_of_the_count_are_no_end_reached() -> None:
    """JoePenna's Dreambooth (tests/data/real/crash-dreambooth-joepenna-issue45-…): the bar at 1/2020, the script's
    "Training complete. max_training_steps reached or we blew up." then a traceback: crashed, and nothing says the
    training had reached its end (its own count says 1 of 2020)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parent.parent.parent
    log = root / "tests/data/real/crash-dreambooth-joepenna-issue45-lightning-bar-training-complete-then-traceback.log"
    done = subprocess.run([sys.executable, "run.py", "once", "--log", str(log), "--at", "end", "--no-history"],
                          capture_output=True, text=True, check=True, cwd=root, timeout=120)
    assert done.stdout.startswith("epoch 0 · 1/2020 in the epoch · crashed")
    assert "Training had reached" not in done.stdout


def test_a_diverged_run_waits_for_no_second_line() -> None:
    """tinyllm's one line at step 100000 with a nan loss (tests/data/real/broken-custom-tinyllm-issue31-loss-nan.log):
    diverged, so no stall limit "until a second step line"."""
    progress = StepProgress()
    progress.apply(TrainStep(T0, "train", 100000, loss=float("nan"), step_seconds=2.006), T0)
    r = report(progress, T0)
    assert r.status_line.startswith("step 100000 · diverged")
    assert not any("until a second step line" in line for line in r.details)


def test_one_dict_is_one_logged_record() -> None:
    """TRL's GRPO run with one dict (trl issue #3857): "1 logged record", never "1 logged records"."""
    progress = StepProgress()
    progress.apply(TrainStep(None, "train", 1, loss=0.0, epoch=0.33, logged=True), T0)
    assert "Stage train · epoch 0.33 (1 logged record: no step number read)" in report(progress, T0).details
