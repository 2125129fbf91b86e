"""A step record's figures under names no rule knows, beside its position alone: one named as a loss (steppy's ``epoch 0
batch 418 sum: 2.32141``, TEACH's ``Epoch 69: Train_rf 4.856e-01   Memory 10.0%``, ``L: 2.3``) is shown as its loss under
the name as printed; any other (a GAN's ``G:``, ``entropy``, ``reward``, PyMC's ``ELBO``) under its own name at that step,
never as the loss, the step and its position still read; never where the name says it is an evaluation's, a count, a
rate or a setting. Composed logs whose answers are worked out by hand; the real excerpts (minerva-ml/open-solution-
googleai-object-detection issue 87, the maintainer saying its ``sum`` is the training loss; pymc-devs/pymc pull request
991's ELBO; Yujiro-13/adv2025's DCGAN ``D:``/``G:``; scikit-learn issue 20223's KMeans inertia) are in
tests/live/test_real_logs.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold


def test_a_dated_epoch_s_one_figure_is_its_loss_as_printed_and_its_memory_no_loss(tmp_path: Path) -> None:
    """Epochs 57-59 a minute apart (day first: 13/12/22): epoch 59, Train_rf 0.4856 the loss as printed, 60 s an epoch
    from the clock; ``Memory 10.0%`` (a figure with its unit) no loss."""
    lines = [f"[13/12/22 11:{13 + n}:56][teach.callback.progress][INFO] -   Epoch {57 + n}: Train_rf 4.856e-01   Memory 10.0%"
             for n in range(3)]
    data = read_cold(tmp_path, lines, dated=True)
    training = data["training"]
    assert (training["step"], training["loss"], training["loss_note"]) == (59, 0.4856, "Train_rf")
    assert "epoch 1 min (measured from the lines' times)" in data["details"]


def test_a_batch_s_one_figure_is_its_loss_as_printed(tmp_path: Path) -> None:
    """steppy's logger, its dashed time: epoch 0, batch 3 in the epoch, sum 1.95351 the loss as printed."""
    lines = ["2019-03-22 14-23-06 steps >>> epoch 0 batch 1 sum:     1.74406",
             "2019-03-22 14-23-07 steps >>> epoch 0 batch 2 sum:     2.26457",
             "2019-03-22 14-23-08 steps >>> epoch 0 batch 3 sum:     1.95351"]
    data = read_cold(tmp_path, lines, dated=True)
    training = data["training"]
    assert (training["step"], training["loss"], training["loss_note"]) == (3, 1.95351, "sum")
    assert "Loss 1.9535 (sum, as printed)" in data["details"]


@pytest.mark.parametrize(
    ("name", "loss"),  # (True: the loss under its name; None: the loss, the grammar's own word; False: no loss)
    [
        # names that are a loss: a letter for one, a criterion, a cost or an error, a training split's, steppy's sum
        # (``ce`` and ``cost`` the grammar reads as the loss itself: no name beside it)
        ("L", True), ("J", True), ("nll", True), ("ce", None), ("cost", None), ("err", True), ("error", True),
        ("objective", True), ("inertia", True), ("sum", True), ("Train_rf", True),
        # names that are not: a network's letter, a term, a bound raised, a score, a reward, a fitness
        ("G", False), ("x", False), ("entropy", False), ("kl", False), ("value", False), ("metric", False),
        ("ELBO", False), ("fitness", False), ("reward", False), ("acc", False), ("score", False), ("Train_acc", False),
    ],
)
def test_a_step_s_one_figure_is_its_loss_only_where_its_name_says_so(tmp_path: Path, name: str, loss: bool | None) -> None:
    """``step 3 {name}: 0.37`` after steps 1 and 2: step 3 read either way; 0.37 the loss under its name as printed, or
    a figure under that name (``figure/{name}``) and no loss."""
    data = read_cold(tmp_path, [f"step {n} {name}: {0.41 - 0.02 * (n - 1):.2f}" for n in range(1, 4)])
    training = data["training"]
    assert training["step"] == 3
    if loss is None:
        assert (training["loss"], training["loss_note"], training["figures"]) == (0.37, None, None)
    elif loss:
        assert (training["loss"], training["loss_note"], training["figures"]) == (0.37, name, None)
        assert f"Loss 0.37 ({name}, as printed)" in data["details"]
    else:
        assert (training["loss"], training["loss_note"], training["figures"]) == (None, None, {f"figure/{name}": 0.37})
        assert f"Figure {name} 0.37 (as printed beside a step; not read as its loss)" in data["details"]
        assert not any(line.startswith("Loss") for line in data["details"])


def test_a_gan_s_two_figures_are_each_under_its_own_name(tmp_path: Path) -> None:
    """``Epoch [3/5] D: 0.35, G: 1.37``: epoch 3 of 5, D 0.35 and G 1.37 each under its letter, neither the loss."""
    lines = [f"Epoch [{n}/5] D: {0.29 + 0.03 * n:.2f}, G: {1.43 - 0.02 * n:.2f}" for n in range(1, 4)]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["total_steps"], training["loss"]) == (3, 5, None)
    assert training["figures"] == {"figure/D": 0.38, "figure/G": 1.37}
    assert "Figures D 0.38 · G 1.37 (as printed beside a step; none read as its loss)" in data["details"]


@pytest.mark.parametrize(
    "record",
    [
        "epoch {n} batch 12 acc: 0.91",  # a score: under its own name (above), never the loss
        "epoch {n} batch 12 val_rf: 0.91",  # an evaluation's
        "step={n}, skipped=0, lr=[0.1]",  # a whole number counts (DeepSpeed's skipped steps)
        "epoch {n} batch 12 SamplesPerSec=83.73",  # a rate
        "epoch {n} batch 12 sum: 2.3 other: 1.1",  # two figures: which one is the loss the line does not say
        "epoch {n} batch 12 lr 0.001 sum: 2.3",  # a figure beside others the rules know
    ],
)
def test_what_is_no_lone_figure(tmp_path: Path, record: str) -> None:
    data = read_cold(tmp_path, [record.format(n=n) for n in range(1, 4)])
    assert data["training"] is None or data["training"]["loss"] is None


@pytest.mark.parametrize(
    ("lines", "step", "loss", "evaluation"),
    [
        # a score at the step just logged: that step's evaluation, the step's loss kept
        (["Step 100 loss 2.30", "Step 200 loss 2.20", "Step 200 accuracy: 0.81", "Step 300 loss 2.10",
          "Step 300 accuracy: 0.83"], 300, 2.10, {"accuracy": {"value": 0.83, "step": 300}}),
        # a score at a step before the last logged: that step's evaluation, filed at step 50, never the position going
        # back to 50, the loss kept
        (["Epoch 1, Step 100, loss 2.30", "Epoch 1, Step 200, loss 2.20", "Step 50 acc: 0.8123"], 200, 2.20,
         {"acc": {"value": 0.8123, "step": 50}}),
        # and where the run goes on after it: still step 50's, the position the latest step's
        (["Epoch 1, Step 100, loss 2.30", "Epoch 1, Step 200, loss 2.20", "Step 50 acc: 0.8123",
          "Epoch 1, Step 300, loss 2.10"], 300, 2.10, {"acc": {"value": 0.8123, "step": 50}}),
    ],
)
def test_a_score_at_a_step_already_logged_is_an_evaluation_never_a_step(
        tmp_path: Path, lines: list[str], step: int, loss: float, evaluation: dict[str, object]) -> None:
    training = read_cold(tmp_path, lines)["training"]
    assert (training["step"], training["loss"], training["figures"]) == (step, loss, None)
    assert training["eval"] == evaluation


@pytest.mark.parametrize(
    ("lines", "step", "loss", "evaluation"),
    [
        # an evaluation run beside the training, its result printed two logged steps later: step 400's (500 to 600)
        (["step 500 loss 1.90", "step 600 loss 1.85", "Step 400: eval_loss 1.95"], 600, 1.85,
         {"eval_loss": {"value": 1.95, "step": 400}}),
        # … and the training going on after it: still step 400's, the position the latest step's
        (["step 500 loss 1.90", "step 600 loss 1.85", "Evaluation at step 400: accuracy = 0.71, eval_loss = 1.95",
          "step 700 loss 1.80"], 700, 1.80,
         {"eval_loss": {"value": 1.95, "step": 400}, "accuracy": {"value": 0.71, "step": 400}}),
        # a run started again from step 0, its first validation before its first step: the new run's, at step 0
        (["step 500 loss 1.90", "step 600 loss 1.85", "Step 0: eval_loss 2.95", "step 10 loss 2.90"], 10, 2.90,
         {"eval_loss": {"value": 2.95, "step": 0}}),
        # a run resumed from step 400's checkpoint, that step's validation before its first step: the resumed run's
        (["step 500 loss 1.90", "step 600 loss 1.85", "Step 400: eval_loss 1.97", "step 410 loss 1.88"], 410, 1.88,
         {"eval_loss": {"value": 1.97, "step": 400}}),
    ],
)
def test_an_evaluation_printed_for_an_earlier_step_is_that_step_s_and_never_moves_the_position_back(
        tmp_path: Path, lines: list[str], step: int, loss: float, evaluation: dict[str, object]) -> None:
    training = read_cold(tmp_path, lines)["training"]
    assert (training["step"], training["loss"]) == (step, loss)
    assert training["eval"] == evaluation
