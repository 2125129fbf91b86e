"""MXNet's records led by their epoch in brackets (``Epoch[0] Batch [100]\\tSpeed: … samples/sec\\t…``, a Gluon loop's
``Epoch[087] Batch[449/478] Speed: …, Loss:(pitch, yaw, roll)/(6.754, 3.166, 5.652)``) and the epoch's own lines after them
(``Time cost=…``, ``Cost=229 sec``, ``Validation-accuracy=…``, ``val  : MAE:(…)/(…)``): the epoch and the batch in it, the
samples a second, a named tuple's members each under its name (a loss tuple's are parts, none the one loss), the epoch's
time, the validation's figures.

Real: apache/mxnet issue #4900, awslabs/sockeye issues #706 and #664, BigDeviltjj/mxnet-cornernet issue #1, FX-STAR/Optim_Hopenet issue #3, gluon-cv's
``[Epoch 3][Batch 11499], LR: …, Speed: …, ObjLoss=…`` (sufeidechabei/gluon-mobilenet-yolov3 issue #11, dmlc/gluon-cv issue #506)
(tests/data/real, their headers; their snapshots in tests/live/test_real_logs.py). Composed: lines whose reading is worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.bracketed_epochs import batch_record, epoch_record, speed_named
from app.ingest.formats.classes import Kin, Named
from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep
from tests.coldread import read_cold


def test_a_batch_record_as_the_grammar_s_pairs() -> None:
    assert batch_record("Epoch[087] Batch[449/478] Speed: 526.21 samples/sec, Loss:(pitch, yaw, roll)/(6.754, 3.166, 5.652)") == (
        "epoch: 087 | batch: 449/478 | samples/sec: 526.21 | pitch loss: 6.754 | yaw loss: 3.166 | roll loss: 5.652")
    assert batch_record("Epoch[0] Batch [20-40]\tSpeed: 6.30 samples/sec\tLoss=55.327309") == (
        "epoch: 0 | batch: 40 | samples/sec: 6.30 | Loss=55.327309")
    assert batch_record("Epoch[0] Time cost=12.300") is None
    assert batch_record("[Epoch 0][Batch 99], Speed: 81.676 samples/sec, CrossEntropy=6.699, SmoothL1=2.947") == (
        "epoch: 0 | batch: 99 | samples/sec: 81.676 | CrossEntropy=6.699, SmoothL1=2.947")


def test_a_speed_in_samples_a_second_is_named_by_its_unit() -> None:
    assert speed_named("step 5, Speed: 28.997 samples/sec, loss=1") == "step 5, samples/sec: 28.997, loss=1"
    assert speed_named("Rate=2983.97 samples/sec") == "Rate=2983.97 samples/sec"  # (no speed: left as printed)


def test_an_epoch_s_own_lines_as_their_classed_figures() -> None:
    assert epoch_record("Epoch[0] Time cost=12.300") == [Named(Kin.EPOCH_TIME, "epoch time", 12.3, "Time cost")]
    assert epoch_record("Epoch[0] Validation-accuracy=0.700000") == [
        Named(Kin.EVAL, "val accuracy", 0.7, "Validation-accuracy")]
    assert epoch_record("Epoch[0] Train-accuracy=0.650000") == []  # (the training's metric again: no class shown)
    assert epoch_record("Epoch[1] val  : MAE:(a, b)/(1.5, 2.5), Loss:(a, b)/(10, 20)") == [
        Named(Kin.EVAL, "val a mae", 1.5, "val a mae"), Named(Kin.EVAL, "val b mae", 2.5, "val b mae"),
        Named(Kin.EVAL, "val a loss", 10.0, "val a loss"), Named(Kin.EVAL, "val b loss", 20.0, "val b loss")]
    assert epoch_record("Epoch[1] train: MAE:(a, b)/(1.5, 2.5), Cost=229 sec, lr=0.001") == [
        Named(Kin.EPOCH_TIME, "epoch time", 229.0, "Cost")]
    assert epoch_record("Epoch[0] Resetting Data Iterator") is None
    assert epoch_record("Epoch[3] train: loss=0.5, acc=0.9") is None  # (no tuple, no cost: read as any line)


def test_composed_speedometer_epochs(tmp_path: Path) -> None:
    # epoch 0: batches 100, 200, its time 12.3 s and validation 0.7; epoch 1 at batch 100, 1240.5 samples/s, no loss printed
    lines = ["INFO:root:Epoch[0] Batch [100]\tSpeed: 1234.50 samples/sec\taccuracy=0.512000",
             "INFO:root:Epoch[0] Batch [200]\tSpeed: 1250.10 samples/sec\taccuracy=0.601000",
             "INFO:root:Epoch[0] Train-accuracy=0.650000",
             "INFO:root:Epoch[0] Time cost=12.300",
             "INFO:root:Epoch[0] Validation-accuracy=0.700000",
             "INFO:root:Epoch[1] Batch [100]\tSpeed: 1240.50 samples/sec\taccuracy=0.712000"]
    data = read_cold(tmp_path, lines)
    assert data["status_line"] == "epoch 1 · 100 in the epoch · no timing"
    training = data["training"]
    assert (training["step"], training["total_steps"], training["loss"]) == (100, None, None)
    assert training["figures"]["samples_per_second"] == 1240.5
    assert training["eval"] == {"val_accuracy": {"value": 0.7, "step": None}}


def test_composed_loss_tuple_is_parts_and_the_epoch_s_cost_its_time(tmp_path: Path) -> None:
    # batch 9 of 10 in epoch 3, losses a 1.5 and b 2.5 (no sum printed: none made), then the epoch's 61 s
    lines = ["Epoch[003] Batch[004/010] Speed: 100.00 samples/sec, Loss:(a, b)/(1.700, 2.900)",
             "Epoch[003] Batch[009/010] Speed: 120.00 samples/sec, Loss:(a, b)/(1.500, 2.500)",
             "Epoch[003] train: MAE:(a, b, mean)/(0.1, 0.2, 0.15), Cost=61 sec, lr=0.01"]
    data = read_cold(tmp_path, lines)
    assert data["status_line"].startswith("epoch 3 · 9/10 in the epoch · ")
    training = data["training"]
    assert training["loss"] is None
    assert training["figures"] == {"loss/a loss": 1.5, "loss/b loss": 2.5, "samples_per_second": 120.0,
                                   "epoch_seconds": 61.0}


def test_composed_gluoncv_records_camelcase_losses_are_parts(tmp_path: Path) -> None:
    # batch 199 of epoch 2: 40.5 samples/s, two losses each a part (ObjLoss 3.5, ClassLoss 1.25), no one loss made of them
    lines = ["INFO:root:[Epoch 2][Batch 99], LR: 1.00E-03, Speed: 40.000 samples/sec, ObjLoss=3.600, ClassLoss=1.300",
             "INFO:root:[Epoch 2][Batch 199], LR: 1.00E-03, Speed: 40.500 samples/sec, ObjLoss=3.500, ClassLoss=1.250"]
    data = read_cold(tmp_path, lines)
    assert data["status_line"].startswith("epoch 2 · 199 in the epoch · ")
    training = data["training"]
    assert (training["loss"], training["lr"]) == (None, 0.001)
    assert training["figures"] == {"loss/ObjLoss": 3.5, "loss/ClassLoss": 1.25, "samples_per_second": 40.5}


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


# MXNet R's Speedometer names no epoch on its batches (``Batch [50] Speed: … samples/sec Train-accuracy=…``), its round's end
# is the round's number in brackets (``[1] Train-accuracy=…``): apache/mxnet#3932 and the R package's CustomIterator
# tutorial in tests/live/test_real_logs.py.
def test_batches_naming_no_round_are_the_round_the_next_round_end_names() -> None:
    # composed: round 1's batches 50 and 100, its end, round 2's batch 50 (counted from 50 again)
    got = [(s.step, s.epoch, s.figures) for s in steps([
        "Batch [50] Speed: 1000.0 samples/sec Train-accuracy=0.5", "Batch [100] Speed: 1200.0 samples/sec Train-accuracy=0.6",
        "[1] Train-accuracy=0.65", "Batch [50] Speed: 1100.0 samples/sec Train-accuracy=0.7"])]
    assert got == [(50, None, (("samples_per_second", 1000.0),)), (100, 1.0, (("samples_per_second", 1200.0),)),
                   (50, 2.0, (("samples_per_second", 1100.0),))]


def test_a_round_s_end_with_no_batch_before_it_is_no_record() -> None:
    # (the log begins at a round's end: the batches after it name no round the log has shown begun)
    assert [(s.step, s.epoch) for s in steps(["[3] Train-accuracy=0.9", "Batch [50] Speed: 1100.0 samples/sec"])] == [
        (50, None)]


def test_early_feedforward_batches_are_the_epoch_its_iteration_lines_end() -> None:
    # composed after MXNet's early Python ``FeedForward.fit`` with its Speedometer: ``Batch [200]\tSpeed: …`` under no
    # epoch, the epoch's end ``Iteration[0] Train-accuracy=…`` (from 0), its time and validation on lines of their own
    got = [(s.step, s.epoch) for s in steps([
        "Batch [200]\tSpeed: 157.49 samples/sec", "Batch [400]\tSpeed: 144.49 samples/sec",
        "Iteration[0] Train-accuracy=0.184423", "Iteration[0] Time cost=342.269", "Iteration[0] Validation-accuracy=0.279757",
        "Batch [200]\tSpeed: 142.65 samples/sec"])]
    assert got == [(200, None), (400, 0.0), (200, 1.0)]
def test_sockeye_s_speedometer_names_each_throughput_by_its_unit() -> None:
    # awslabs/sockeye issue #706's record: the tokens and the updates a second after the samples a second
    assert batch_record("Epoch[0] Batch [3050]   Speed: 1094.56 samples/sec 36824.90 tokens/sec 6.30 updates/sec "
                        "perplexity=306.464540   accuracy=0.223189") == (
        "epoch: 0 | batch: 3050 | samples/sec: 1094.56 | tokens/s: 36824.90 | ups: 6.30 | "
        "perplexity=306.464540   accuracy=0.223189")


@pytest.mark.parametrize(("speed", "kept"), [
    ("154.75 samples/sec 8548.6  8 tokens/sec 1.60 updates/sec", "samples/sec: 154.75 | ups: 1.60"),
    ("154.75 samples/sec 8548.68 tokens/sec 1.  60 updates/sec", "samples/sec: 154.75 | tokens/s: 8548.68"),
])
def test_a_figure_a_terminal_s_width_broke_is_no_figure(speed: str, kept: str) -> None:
    # the wrap leaves two spaces inside the number (8548.6  8 is 8548.68): neither its head nor its tail is read
    assert batch_record(f"Epoch[0] Batch [3000]   Speed: {speed}   perplexity=38.275190") == (
        f"epoch: 0 | batch: 3000 | {kept} | perplexity=38.275190")


def test_sockeye_s_checkpoint_lines_give_its_validation() -> None:
    assert epoch_record("Checkpoint [3]  Validation-perplexity=19.245108") == [
        Named(Kin.EVAL, "val perplexity", 19.245108, "Validation-perplexity")]
    assert epoch_record("Checkpoint [3]  Train-perplexity=38.275190") == []
    assert epoch_record("Checkpoint [3]  Updates=3000 Epoch=0 Samples=315607 Time-cost=698.434 Updates/sec=1.432") is None


def test_composed_sockeye_checkpoint_with_a_broken_figure(tmp_path: Path) -> None:
    # awslabs/sockeye issue #706's lines, the last one's tokens a second broken as a terminal's width breaks it, then its
    # checkpoint's lines (sockeye prints them so: ``Checkpoint [N]  Train-perplexity=…``, ``Validation-perplexity=…``)
    lines = [
        ("[INFO:sockeye.training] Epoch[0] Batch [2950]   Speed: 1403.56 samples/sec 37229.08 tokens/sec 6.23 updates/sec "
         "perplexity=319.220110   accuracy=0.219384"),
        ("[INFO:sockeye.training] Epoch[0] Batch [3000]   Speed: 1194.45 samples/sec 37001.8  6 tokens/sec 6.24 updates/sec "
         "perplexity=312.760530   accuracy=0.221292"),
        "[INFO:sockeye.training] Checkpoint [3]  Train-perplexity=312.760530",
        "[INFO:sockeye.training] Checkpoint [3]  Validation-perplexity=250.123456",
    ]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["step_seconds"]) == (3000, pytest.approx(1 / 6.24))
    assert training["tokens_per_second"] is None  # the broken figure's: never 6 nor 37001.8
    assert training["figures"]["samples_per_second"] == 1194.45
    assert training["eval"] == {"val_perplexity": {"value": 250.123456, "step": None}}
