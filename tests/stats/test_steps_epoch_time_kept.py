"""An epoch's own time, printed once the epoch ended, stays shown as that epoch's while the next epoch's lines print
none: never "no duration or time read" on a log that printed one.

Real: tests/data/real/generic-mxnet-issue4900-module-fit-speedometer-epochs-0-2-time-cost-validation.log (apache/mxnet
#4900, ``Epoch[1] Time cost=4.611``), generic-mxnet-k8s-pr1-module-fit-epochs-4-6-time-cost-then-next-epoch-batches.log
(aws-samples/machine-learning-using-k8s#1, ``Epoch[5] Time cost=1.627``), and generic-mos-issue12-word-language-model-fork-
epochs-9-10-end-of-epoch-valid-saving.log (zihangdai/mos#12, ``| end of epoch   9 | time: 126.72s | …``) read live as
epoch 10's batches go on. Each figure below is the log's own, rounded as the details round it.

A time printed without its unit, shown under its printed name, is never denied either: generic-rocm-tensorflow-issue48-
dcgan-mnist-epoch-4-of-25-batch-15-to-19-of-1093.log (ROCmSoftwarePlatform/tensorflow#48, DCGAN-tensorflow's ``time:
342.2326``, the run's clock) and generic-mlds2018spring-issue3-ppo-pong-episode-59-to-73-avg-reward.log (an RL loop's
``Time: 4.03`` an episode, tests/ingest/formats/test_generic_own_counters.py).
"""

from __future__ import annotations

from pathlib import Path

from app.stats.events import EPOCH_SECONDS, TrainStep
from app.stats.steps.progress import StepProgress
from app.stats.steps.report import report
from tests.coldread import read_cold
from tests.reallogs import body

T0 = 1_700_000_000.0


def test_mxnet_s_time_cost_stays_epoch_1_s_during_epoch_2(tmp_path: Path) -> None:
    """Epoch 1's ``Time cost=4.611`` (4.61 s); epoch 2's batches 100 and 200 print samples a second, no time: the
    rate's line says each epoch's time is printed, no step's (12 batch lines read)."""
    details = read_cold(tmp_path, body("generic-mxnet-issue4900-module-fit-speedometer-epochs-0-2-time-cost-validation.log"))[
        "details"]
    assert "epoch 1 took 4.61 s (as printed)" in details
    assert ("no timing read from this log (12 step lines, each epoch's time printed, no step's): measured as lines arrive"
            in details)
    assert not any("no duration or time read" in line for line in details)


def test_mxnet_under_kubernetes_shows_epoch_5_s_time_cost_in_epoch_6(tmp_path: Path) -> None:
    """Epoch 5's ``Time cost=1.627`` (1.63 s), then epoch 6's batches 100 … 600: 15 batch lines in all (9 of epoch 5,
    6 of epoch 6)."""
    details = read_cold(tmp_path, body("generic-mxnet-k8s-pr1-module-fit-epochs-4-6-time-cost-then-next-epoch-batches.log"))[
        "details"]
    assert "epoch 5 took 1.63 s (as printed)" in details
    assert ("no timing read from this log (15 step lines, each epoch's time printed, no step's): measured as lines arrive"
            in details)


def test_word_language_model_s_epoch_time_is_its_own_beside_the_next_epoch_s_batch_time(tmp_path: Path) -> None:
    """The mos trainer read as epoch 10's 400th batch is written: its own ``ms/batch 107.13`` is the step's time (107
    ms), and epoch 9's ``time: 126.72s`` (2 min 6.72 s, 2 min 7 s said) is epoch 9's, not the batch's."""
    lines = body("generic-mos-issue12-word-language-model-fork-epochs-9-10-end-of-epoch-valid-saving.log")
    cut = next(n for n, text in enumerate(lines) if text.startswith("| epoch  10 |   400/"))
    details = read_cold(tmp_path, lines[:cut + 1])["details"]
    assert "step 107 ms (as printed) · epoch 9 took 2 min 7 s (as printed)" in details


def test_the_epoch_s_own_line_says_its_time_as_before() -> None:
    """The step the epoch's time was printed beside is the latest: its time is said as its own, no epoch named."""
    progress = StepProgress()
    progress.apply(TrainStep(T0, "train", 900, epoch=1.0), T0)
    progress.apply(TrainStep(T0 + 5, "train", 900, epoch=1.0, figures=((EPOCH_SECONDS, 4.611),), amends=True), T0 + 5)
    details = report(progress, T0 + 5).details
    assert "epoch 4.61 s (as printed)" in details
    assert not any("took" in line for line in details)


def test_an_epoch_time_with_no_epoch_named_is_said_as_an_epoch_s() -> None:
    """A time printed as its epoch's where no line named the epoch: ``an epoch took`` it, never a numbered one."""
    progress = StepProgress()
    progress.apply(TrainStep(T0, "train", 100, figures=((EPOCH_SECONDS, 12.5),)), T0)
    progress.apply(TrainStep(T0 + 1, "train", 200), T0 + 1)
    assert any(line.endswith("an epoch took 12.50 s (as printed)") for line in report(progress, T0 + 1).details)


def test_dcgan_s_unitless_clock_is_no_time_denied(tmp_path: Path) -> None:
    """``time: 342.2326`` on each of 5 batch lines, no unit printed and no step's time: shown as printed, and the rate's
    line says only such a time was printed, never "no duration or time read"."""
    details = read_cold(tmp_path, body("generic-rocm-tensorflow-issue48-dcgan-mnist-epoch-4-of-25-batch-15-to-19-of-1093.log"))[
        "details"]
    assert "Times time 342.2326 (printed beside a step, unit not printed)" in details
    assert ("no timing read from this log (5 step lines, only a time without its unit printed): measured as lines arrive"
            in details)
    assert not any("no duration or time read" in line for line in details)
