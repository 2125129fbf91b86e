"""Figures a trainer prints in a field or shape the step reader did not know: a step's time under mmcv's JSON
``"time"`` key, a position said as a fraction of an epoch, a bar whose description is a bracketed list of losses.
Composed lines in those shapes (each cited in its real log's header under tests/data/real/), the answers worked out
by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.ingest.formats.grammar import Field, pairs
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


# --- mmcv's ``.log.json``: ``"time"`` beside ``"data_time"`` -------------------------------------------------------

@pytest.mark.parametrize(("record", "seconds"), [
    # mmdetection's record: the iteration took 1.43558 s, 0.05129 of them loading
    (('{"mode": "train", "epoch": 1, "iter": 50, "lr": 0.00198, "memory": 3729, "data_time": 0.05129, "loss": 1.63, '
      '"time": 1.43558}'), 1.43558),
    # the key order mmdetection v1 wrote (``time`` before ``data_time``)
    ('{"mode": "train", "epoch": 1, "iter": 100, "lr": 0.00014, "time": 0.3997, "data_time": 0.01581, "loss": 5412.9}',
     0.3997),
    # a ``time`` with no loader's share beside it says no unit: no step's time
    ('{"epoch": 1, "iter": 100, "loss": 1.2, "time": 0.3997}', None),
])  # fmt: skip
def test_mmcv_s_json_time_beside_data_time_is_the_iteration_s_seconds(record: str, seconds: float | None) -> None:
    got = steps([record])
    assert len(got) == 1
    assert got[0].step_seconds == seconds


# --- an epoch printed with its fraction beside the run's iteration --------------------------------------------------

def test_a_fractional_epoch_beside_an_iteration_count_is_the_run_s_share_of_its_epochs() -> None:
    # torch-rnn's train.lua: 956 iterations an epoch, 50 epochs (47800); its first lines print ``1.00``
    got = steps(["Epoch 1.00 / 50, i = 1 / 47800, loss = 4.163415",
                 "Epoch 1.00 / 50, i = 2 / 47800, loss = 4.054132",
                 "Epoch 1.06 / 50, i = 60 / 47800, loss = 2.941200",
                 "Epoch 1.12 / 50, i = 118 / 47800, loss = 2.511822"])
    assert [(s.step, s.total_steps, s.epoch, s.epoch_total) for s in got] == [
        (1, 47800, 1.0, 50), (2, 47800, 1.0, 50), (60, 47800, 1.06, 50), (118, 47800, 1.12, 50)]
    assert all(s.ends_at_total for s in got)  # the run's iterations, no epoch's batches


def test_a_whole_epoch_beside_a_step_count_still_counts_that_epoch_s_batches() -> None:
    # PyTorch's tutorials: ``Epoch [1/5], Step [100/600]``: 600 batches an epoch
    got = steps(["Epoch [1/5], Step [100/600], Loss: 0.2217", "Epoch [1/5], Step [200/600], Loss: 0.1917"])
    assert [(s.step, s.total_steps, s.epoch, s.ends_at_total) for s in got] == [
        (100, 600, 1.0, False), (200, 600, 1.0, False)]


@pytest.mark.parametrize(("line", "read"), [
    # char-rnn's setup line: batches of each split, no evaluation
    ("data load done. Number of data batches in train: 190, val: 10, test: 0", []),
    # litgpt's: the validation loss named by its stage alone, printed with its fraction
    ("iter 600: loss train: 2.846, val: 2.861 | iter time: 12.31 ms", [("val_loss", 2.861)]),
])  # fmt: skip
def test_a_stage_named_alone_is_its_loss_only_as_a_fraction(line: str, read: list[tuple[str, float]]) -> None:
    from app.stats.events import EvalResult

    got = [(e.name, e.value) for e in GenericParser().feed([line]) if isinstance(e, EvalResult)]
    assert got == read


# --- a bar described by a bracketed list of losses (trlx) ------------------------------------------------------------

def test_a_bar_described_by_its_namespaced_losses_is_a_step_with_the_total_loss() -> None:
    # trlx's PPO bar: ``losses/`` is its logger's namespace, ``total_loss`` the sum it optimises (64/128 in 60 s, 1.05 it/s)
    got = steps([("[losses/total_loss: 1.15 | losses/policy_loss: 0.12 | losses/value_loss: 1.03]:  50%|█████     "
                  "| 64/128 [01:00<01:00,  1.05it/s]")])
    assert [(s.step, s.total_steps, s.loss) for s in got] == [(64, 128, 1.15)]
    assert got[0].step_seconds == pytest.approx(1 / 1.05)


@pytest.mark.parametrize(("name", "field"), [
    ("losses/total_loss", "loss"),  # trlx's PPO
    ("losses/loss", "loss"),  # trlx's ILQL
    ("losses/policy_loss", "loss"),  # PPO's policy loss, as ``policy_loss`` alone reads
    ("losses/value_loss", None),  # another figure than the loss
])  # fmt: skip
def test_a_losses_namespace_keeps_the_name_it_holds(name: str, field: str | None) -> None:
    from app.ingest.formats.grammar import lookup, normalise

    found, _ = lookup(normalise(name))
    assert (found.value if found is not None else None) == field


# --- a dated line an epoch, alone -----------------------------------------------------------------------------------

@pytest.mark.parametrize("lines", [
    # a live log after its first epoch: one dated record
    ["2023-05-01 12:00:00 Epoch 1 complete [80%]    Loss: 0.431"],
    ["2023-05-01 12:00:00,123 INFO Epoch 3/10 done, loss=0.52"],
])  # fmt: skip
def test_one_dated_record_is_a_run_s_log(lines: list[str]) -> None:
    from app.ingest.formats import detect

    assert detect(lines) == "generic"


@pytest.mark.parametrize("lines", [
    # the same words undated: one line could be a sentence that says "epoch" and "loss"
    ["Epoch 1 complete [80%]    Loss: 0.431"],
    # a dated line that names no training figure
    ["2023-05-01 12:00:00 Epoch 1 complete"],
])  # fmt: skip
def test_one_undated_or_figureless_line_is_not(lines: list[str]) -> None:
    from app.ingest.formats import detect

    assert detect(lines) is None


# --- Keras's time a sample ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "seconds"), [
    # three figures printed: the sample's own time as printed
    ("60000/60000 [==============================] - 43s 721us/sample - loss: 0.2632 - accuracy: 0.9195", 721e-6),
    ("1000/1000 [==============================] - 1s 631us/sample - loss: 1.3699", 631e-6),
    # one whole millisecond says 1 for 39 s over 37800 samples (1.03 ms): the epoch's time over its samples
    ("37800/37800 [==============================] - 39s 1ms/sample - loss: 0.1540 - accuracy: 0.9514", 39 / 37800),
    # a whole-ms step time is left as printed (its rounding is the step's, as before)
    ("469/469 [==============================] - 43s 91ms/step - loss: 0.2632", 0.091),
])  # fmt: skip
def test_keras_s_time_a_sample_is_the_bar_s_unit_time(line: str, seconds: float) -> None:
    from app.ingest.formats.keras_bars import keras_line

    read = keras_line(line)
    assert read is not None
    assert read.step_seconds == pytest.approx(seconds)


# --- a step's time under a qualified name ----------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "seconds"), [
    ("INFO:tensorflow:Step 100 per-step time 0.813s loss=1.396", 0.813),  # TF2 Object Detection API
    ("Epoch 1 Step 100 loss 2.3 time/step 0.45s", 0.45),
    # with no unit a time is no duration (RL's ``time_step`` counts)
    ("Epoch 1 Step 100 loss 2.3 time_step: 1000", None),
])  # fmt: skip
def test_a_qualified_step_time_name_is_the_step_s_time(line: str, seconds: float | None) -> None:
    got = steps([line])
    assert len(got) == 1
    assert got[0].step_seconds == seconds


# --- a GAN's criteria named err and the network's letter, beside its time ---------------------------------------------

def test_dcgan_torch_s_record_is_a_step_of_two_network_losses_and_its_time() -> None:
    # dcgan.torch's main.lua: 237 batches an epoch; Time is its torch.Timer's seconds, DataTime the loader's share
    got = steps(["Epoch: [2][      57 /      237]\t Time: 0.126  DataTime: 0.000    Err_G: 2.1104  Err_D: 0.3253\t",
                 "Epoch: [2][      58 /      237]\t Time: 0.128  DataTime: 0.000    Err_G: 1.9118  Err_D: 0.3386\t"])
    assert [(s.step, s.total_steps, s.epoch, s.loss, s.step_seconds) for s in got] == [
        (57, 237, 2.0, None, 0.126), (58, 237, 2.0, None, 0.128)]
    assert dict(got[-1].figures) == {"loss/Err_G": 1.9118, "loss/Err_D": 0.3386}


@pytest.mark.parametrize("line", [
    # a classifier's error rate is no network's loss, one figure alone no record of parts
    "Epoch: [2][58/237] Time: 0.128 DataTime: 0.000 top1_err: 23.4 err_rate: 0.12",
    "Epoch: [2][58/237] Time: 0.128 DataTime: 0.000 Err_G: 1.9118",
])  # fmt: skip
def test_an_error_rate_or_one_part_is_no_gan_s_losses(line: str) -> None:
    assert all(not s.figures or not any(name.startswith("loss/") for name, _ in s.figures) for s in steps([line]))


# --- a figure said in prose on a step line ---------------------------------------------------------------------------

@pytest.mark.parametrize(("lines", "step", "loss"), [
    # a PaddlePaddle script's ``… avg loss so far is …`` (the verb and its ``so far`` no part of the name)
    (["Epoch 0, Step 25, total used time 7.18 (s), avg loss so far is 0.1098",
      "Epoch 0, Step 50, total used time 14.06 (s), avg loss so far is 0.0823"], 50, 0.0823),
    # said in the past (``was``), the grammar's ``mean loss``
    (["Iter 100, mean loss was 2.31", "Iter 200, mean loss was 2.05"], 200, 2.05),
    # MindSpore's LossMonitor, ``loss is`` alone
    (["epoch: 1 step: 41, loss is 0.8319108", "epoch: 2 step: 41, loss is 0.46052963"], 41, 0.46052963),
])  # fmt: skip
def test_a_figure_said_as_name_is_value_on_a_step_line_is_read_by_its_name(
        lines: list[str], step: int, loss: float) -> None:
    got = steps(lines)
    assert [s.step for s in got][-1] == step
    assert got[-1].loss == loss


@pytest.mark.parametrize("lines", [
    # no counter beside it: a sentence's figure, never a position made of prose
    ["The loss is 0.3", "The loss is 0.2"],
    ["avg loss so far is 0.0379", "avg loss so far is 0.0375"],
    # a counter named in prose too (``Step is 3``) is no counter the line prints
    ["Step is 3, loss is 0.5"],
])  # fmt: skip
def test_a_figure_said_in_prose_with_no_counter_read_beside_it_is_no_step_s_loss(lines: list[str]) -> None:
    # (a figure alone on its line stays prose_figures.py's: one part of a loop's losses, never the loss)
    assert all(s.loss is None for s in steps(lines))
    assert all(r.field is not Field.LOSS for line in lines for r in pairs(line))
