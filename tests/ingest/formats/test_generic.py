"""The generic step reader: the field grammar on real lines of trainers without a parser of their own."""

from __future__ import annotations

import math
import os
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats.generic import GenericParser, step_line
from app.ingest.formats.grammar import Field, pairs
from app.stats.events import EvalResult, StageEnd, StepFigures, Tick, TrainingPause, TrainStep
from tests.reallogs import line

MEGATRON = "generic-megatron-lm-issue756-mixtral-h100.log"


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def one(text: str) -> TrainStep:
    (step,) = steps([text])
    return step


# One line per family (verbatim from tests/data/real/), and what it gives.
FAMILIES: list[tuple[str, str, dict[str, Any]]] = [
    ("Megatron-LM", line(MEGATRON, " [2024-04-06 02:57:10] iteration       17/"),
     {"step": 17, "total_steps": 100, "loss": 1.918353, "lr": 3.4e-06, "grad_norm": 2.911, "step_seconds": 5.7063}),
    ("Megatron-LM 2019, no colons", line("generic-megatron-lm-issue5-bert-lm-nsp-loss.log", " iteration      500/"),
     {"step": 500, "total_steps": 20000, "loss": 8.258979, "lr": 5.051e-06, "step_seconds": 0.313}),
    ("Megatron-DeepSpeed tgs", line("generic-megatron-deepspeed-argonne-megatron-deepspeed-file-alcf-readme-ckpt-crash.log",
                                    "        iteration      200/"),
     {"step": 200, "total_steps": 317892, "loss": 5.897035, "tokens_per_second": 1126.713, "per_device": True,
      "step_seconds": 14.5414}),
    ("GPT-NeoX lm_loss", line("generic-gpt-neox-issue947-llama-bf16.log", " samples/sec: 4.904"),
     {"step": 2, "total_steps": 55000, "loss": 2.175701, "lr": 2.424e-09, "step_seconds": 6.5247}),
    ("Lightning bar without a total", line("generic-lightning-rvt-issue40-max-steps-reached.log", "Epoch 2: : 17671it"),
     {"step": 17671, "total_steps": None, "loss": 2.15, "step_seconds": 1 / 4.49, "elapsed_seconds": 3934, "epoch": 2}),
    ("NeMo bar", line("generic-nemo-nemo-framework-launcher-issue55-reduced-train-loss.log", "Epoch 0:"),
     {"step": 795, "total_steps": 77225, "loss": 3.09, "step_seconds": 41.36, "trainer_eta_seconds": 3160908,
      "epoch": 0}),
    ("litgpt", line("generic-litgpt-issue1607-gpt2-pretrain-remaining-time.log", "Epoch 34 | iter 3051000"),
     {"step": 610200, "loss": 2.857, "step_seconds": 5 * 0.11149, "trainer_eta_seconds": 82, "epoch": 34}),
    ("lit-gpt", line("generic-litgpt-issue689-loss-not-decreasing.log", "iter 97 step 49"),
     {"step": 49, "loss": 10.8259, "step_seconds": 2 * 0.21537}),
    ("MLX", line("generic-mlx-lm-pr421-apertus-report20.log", "Iter 80:"),
     {"step": 80, "loss": 1.704, "lr": 1e-05, "step_seconds": 1 / 1.447, "tokens_per_second": 142.277}),
    ("torchtune", line("generic-torchtune-pr1358-step-loss-tokens-per-second.log", "Step 9 |"),
     {"step": 9, "loss": 0.6810362935066223, "lr": 2e-05, "tokens_per_second": 698.9489335304891, "per_device": True}),
    ("torchtune bar", line("generic-torchtune-pr2620-multinode-lora-bars.log", "[trainer0|0]:1|27|Loss: 1.1958776712417603:  28%"),
     {"step": 28, "total_steps": 101, "loss": 1.1958776712417603, "step_seconds": 15.84, "epoch": 1}),
    ("llama-recipes", line("generic-llama-recipes-llama-cookbook-issue320-epoch1-bars.log",
                           "Training Epoch: 1/3, step 16/36"),
     {"step": 4, "total_steps": 9, "loss": 0.17207536101341248, "step_seconds": 64.93, "elapsed_seconds": 277,
      "trainer_eta_seconds": 324, "epoch": 1}),
    ("trainer_log.jsonl", line("generic-llamafactory-trainer-log-jsonl-qwen2.5-7b-medical-finetune-head.log",
                               '{"current_steps": 200'),
     {"step": 200, "total_steps": 6750, "loss": 1.9129, "lr": 2.9481481481481483e-05, "elapsed_seconds": 614,
      "trainer_eta_seconds": 20122, "progress_percent": 2.96}),
    ("llama2.c", line("generic-custom-llama2c-issue461-tinystories-mps.log", "650 |"),
     {"step": 650, "loss": 5.3185, "lr": 4.986305e-05, "step_seconds": 9.85273, "mfu": 0.19}),
]  # fmt: skip


@pytest.mark.parametrize(("family", "text", "expected"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_a_real_step_line_of_each_family(family: str, text: str, expected: dict[str, Any]) -> None:
    step = one(text)
    for key, value in expected.items():
        got = getattr(step, key)
        assert got == (pytest.approx(value, rel=1e-4) if isinstance(value, float) else value), key


# The grammar: names × separators × value shapes, each alone on a line with a step.
GRAMMAR: list[tuple[str, dict[str, Any]]] = [
    ("step 120 loss 2.31", {"step": 120, "loss": 2.31}),
    ("iter 120: loss=2.31", {"step": 120, "loss": 2.31}),
    ("iteration 120/5000 | loss: 2.31", {"step": 120, "total_steps": 5000, "loss": 2.31}),
    ("Iter 10: Train loss 2.1, It/sec 4.0", {"step": 10, "loss": 2.1, "step_seconds": 0.25}),
    ("Step 120 | lm loss: 2.310E+00", {"step": 120, "loss": 2.31}),
    ("{'step': 120, 'loss': 2.31, 'lr': 3e-4}", {"step": 120, "loss": 2.31, "lr": 3e-4}),
    ('{"step": 120, "loss": "2.31", "step_time_ms": 250}', {"step": 120, "loss": 2.31, "step_seconds": 0.25}),
    ("global_step=120 reduced_train_loss=2.31 loss=2.5", {"step": 120, "loss": 2.31}),  # the model's loss
    ("step 120 | loss train: 2.31 | iter time: 250 ms", {"step": 120, "loss": 2.31, "step_seconds": 0.25}),
    ("iteration 120 | elapsed time per iteration (ms): 812.3 | lm loss 2.3", {"step": 120, "step_seconds": 0.8123}),
    ("step: 120, loss: nan, time 0.5s", {"step": 120, "step_seconds": 0.5}),  # (a second or more: undecided alone)
    # a step's time with its unit in words
    ("Step 120 loss 2.31 12.3 seconds/step", {"step": 120, "loss": 2.31, "step_seconds": 12.3}),
    ("Step 120 loss 2.31 (12.3 sec/it)", {"step": 120, "loss": 2.31, "step_seconds": 12.3}),
    ("Step 120 loss 2.31, 12.3 s/iter", {"step": 120, "loss": 2.31, "step_seconds": 12.3}),
    ("Step 120: loss 2.31, 12.3 seconds per step", {"step": 120, "loss": 2.31, "step_seconds": 12.3}),
    ("Step 120 - loss 2.31 - 850 ms per iteration", {"step": 120, "loss": 2.31, "step_seconds": 0.85}),
    ("Step 120 loss 2.31 850 milliseconds/step", {"step": 120, "loss": 2.31, "step_seconds": 0.85}),
    # a total printed with ``of`` (``epoch 3 of 20, step 120 of 500``)
    ("epoch 3 of 20, step 120 of 500, loss = 1.25", {"step": 120, "total_steps": 500, "epoch": 3, "loss": 1.25}),
    # the mean squared error a line names alone is its loss; beside a ``loss`` it is not
    ("Epoch: [2/50] step: [4/10] time: 0.5s, mse: 0.321", {"loss": 0.321, "step_seconds": 0.5}),
    ("step 40, loss: 0.25, mse: 0.125", {"loss": 0.25}),
    # the run's clock as ``time elapsed`` in hours, minutes and seconds, the time left beside it
    ("epoch 2 | batch 300 | loss: 0.125 | time elapsed: 00h05m00s | time left: 01h00m00s",
     {"step": 300, "elapsed_seconds": 300.0, "trainer_eta_seconds": 3600.0}),
    # a batch's time: the step is a batch (``| 198.6 ms/batch``, ``0.42 s/batch``)
    ("Epoch 3 | Iter 120 | Loss 2.31 | 198.6 ms/batch", {"step": 120, "loss": 2.31, "step_seconds": 0.1986}),
    ("step 120, loss 2.31, 0.42 sec/batch", {"step": 120, "loss": 2.31, "step_seconds": 0.42}),
    ("training step 120 | learning rate 1.0E-04 | tokens/sec 12,500", {"lr": 1e-4, "tokens_per_second": 12500}),
    ("step 120 loss 2.3 tok/s/gpu 900", {"tokens_per_second": 900, "per_device": True}),
    ("step 120 loss 2.3 eta 1:02:03", {"trainer_eta_seconds": 3723}),
    ("120/5000 [01:00<40:00,  2.00it/s, loss=2.3]", {"step": 120, "total_steps": 5000, "step_seconds": 0.5}),
    ("Epoch 3:  45%|████▌     | 450/1000 [01:58<02:10,  3.46s/it, loss=2.3]",
     {"step": 450, "total_steps": 1000, "step_seconds": 3.46, "epoch": 3}),
    ("1|120|Loss: 2.31:  12%|█▏        | 120/1000 [10:00<73:20,  5.00s/it]",
     {"step": 120, "total_steps": 1000, "loss": 2.31, "epoch": 1}),
    # shapes of other trainers
    (("Training epoch 0, iteration 10/99 | lr: 1.499e-05 | global_batch_size: 32 | global_step: 10 | "
      "reduced_train_loss: 2.345 | train_step_timing in s: 1.23 | consumed_samples: 352"),
     {"step": 10, "total_steps": 99, "loss": 2.345, "lr": 1.499e-05, "step_seconds": 1.23, "epoch": 0}),
    (("Epoch 0: :  10%|█         | 100/1000 [03:20<30:00, reduced_train_loss=2.980, global_step=99.00, "
      "consumed_samples=12800.0, train_step_timing in s=2.000]"),  # NeMo's own bar: no rate
     {"step": 100, "total_steps": 1000, "loss": 2.98, "step_seconds": 2.0, "trainer_eta_seconds": 1800}),
    ("Steps:  10%|█         | 100/1000 [01:00<09:00,  1.66it/s, lr=1e-05, step_loss=0.123]",
     {"step": 100, "total_steps": 1000, "loss": 0.123, "lr": 1e-05, "elapsed_seconds": 60, "trainer_eta_seconds": 540}),
    ("Epoch 0/9  ━━━━━━━━━━━━━━━━━━━━━ 157/469 0:00:12 • 0:00:25 12.63it/s v_num: 0 train_loss: 0.312",
     {"step": 157, "total_steps": 469, "loss": 0.312, "trainer_eta_seconds": 25, "epoch": 0}),
    ("[Epoch 1/10] [Batch 100/500] loss: 2.3 lr: 1e-4", {"step": 100, "total_steps": 500, "epoch": 1}),
    ('{"trainer/global_step": 120, "train/loss": 2.31, "train/lr": 1e-4}', {"step": 120, "loss": 2.31, "lr": 1e-4}),
    ("Train Epoch: 1 [6400/60000 (11%)]\tLoss: 0.293", {"step": 6400, "total_steps": 60000, "epoch": 1, "loss": 0.293}),
    ("Epoch [1/10], Step [100/600], Loss: 0.2345", {"step": 100, "total_steps": 600, "epoch": 1, "loss": 0.2345}),
    ("Epoch(train)  [1][  50/1000]  lr: 1.0000e-04  eta: 1:23:45  time: 0.5000  data_time: 0.0100  loss: 0.5000",
     {"step": 50, "total_steps": 1000, "epoch": 1, "trainer_eta_seconds": 5025, "step_seconds": 0.5}),  # mmengine
    ("Iter(train) [  50/1000]  lr: 1.0000e-04  eta: 0:10:00  time: 0.5000  loss: 0.5000",
     {"step": 50, "total_steps": 1000, "loss": 0.5, "step_seconds": 0.5}),
    # mmcv's text logger: a TAB, commas; ``data_time`` is not the iteration's time
    ("Epoch [2][100/500]\tlr: 1.000e-02, eta: 0:20:00, data_time: 0.020, time: 0.412, loss: 1.2500",
     {"step": 100, "total_steps": 500, "epoch": 2, "loss": 1.25, "step_seconds": 0.412}),
    # torchvision's and DETR's MetricLogger: ``[i/n]`` of epoch e; the window's loss before its average
    (("Epoch: [2]  [ 50/782]  eta: 0:03:10  lr: 0.100000  img/s: 812.5  loss: 2.4061 (2.5103)  acc1: 43.7500 (40.1)"
      "  time: 0.2431  data: 0.0021  max mem: 4321"),
     {"step": 50, "total_steps": 782, "epoch": 2, "loss": 2.4061, "lr": 0.1, "step_seconds": 0.2431,
      "trainer_eta_seconds": 190}),
    # nanoGPT's evaluation shape with a day-counted run clock and mean step time: the run's position
    ("step 1500: train loss 2.2500, val loss 2.3000, mem 512.0 MiB @ 01 02:00:00.000, mean 00 00:00:05.250",
     {"step": 1500, "loss": 2.25, "step_seconds": 5.25, "elapsed_seconds": 93600.0}),
    # a time of day is no step's duration: ``Time=07:29:43``, ``time 12:03:44``
    ("| Training Device=xla:0/1 Epoch=2 Step=60 Loss=0.25000 Rate=900.00 Time=23:59:58",
     {"step": 60, "epoch": 2, "loss": 0.25, "step_seconds": None}),
    ("step 40 loss 1.75 time 12:03:44", {"step": 40, "loss": 1.75, "step_seconds": None}),
    ("step 40 loss 1.75 iter time 0:00:02", {"step": 40, "loss": 1.75, "step_seconds": 2.0}),
    ("Stage [train] iter: [10/500], data_time: 1.0402(1.0402), time: 1.4696(1.4696), loss: 0.0978(0.0978)",
     {"step": 10, "total_steps": 500, "loss": 0.0978}),
    ("steps: 100 loss: 7.1234 iter time (s): 1.234 samples/sec: 51.8",  # DeepSpeed's pipeline engine
     {"step": 100, "loss": 7.1234, "step_seconds": 1.234}),
    ("{'Step': 10, 'Loss': '3.4376', 'Learning Rate': '1.00e-04', 'Tokens/sec': '302'}",
     {"step": 10, "loss": 3.4376, "lr": 1e-4, "tokens_per_second": 302}),
    ("step 100/1000 | loss 2.345 | 123.4ms/step | 12,345 tok/s", {"step_seconds": 0.1234, "tokens_per_second": 12345}),
    ("Training Epoch0: 100%|██████████| 388/388 [3:34:24<00:00, 33.16s/it]", {"epoch": 0, "total_steps": None}),
    ("1|100|Loss: 1.23: 100%|██████████| 100/100 [05:00<00:00,  3.00s/it]", {"epoch": 1, "total_steps": None}),
    ("epoch 001:    100 / 1000 loss=9.2, nll_loss=9.1, ppl=550, wps=12000, ups=2.1, num_updates=100, lr=1e-4, gnorm=1.5",
     {"step": 100, "loss": 9.2, "tokens_per_second": 12000, "step_seconds": 1 / 2.1, "grad_norm": 1.5}),
]  # fmt: skip


def test_keras_bars_take_the_epoch_printed_above_them() -> None:
    got = steps(
        [
            "Epoch 3/10",
            "100/1000 [==>...........................] - ETA: 1:23 - loss: 2.3012 - accuracy: 0.1234",
            "1000/1000 [==============================] - 25s 25ms/step - loss: 0.2000 - val_loss: 0.3000",
            "Epoch 4/10",
            "  20/1000 ━━━━━━━━━━━━━━━━━━━━ 1:23 86ms/step - accuracy: 0.9 - loss: 0.25",
        ]
    )
    assert [(s.step, s.total_steps, s.epoch, s.loss, s.step_seconds, s.trainer_eta_seconds) for s in got] == [
        (100, 1000, 3, 2.3012, None, 83),
        (1000, None, 3, 0.2, 0.025, None),  # a full epoch's bar is not the run's end
        (20, 1000, 4, 0.25, 0.086, None),
    ]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # derekchen14/snippet_rnn results/0508_results.rb (Keras 1, fit(verbose=2)): each line under its
        # ``Epoch N/15`` is that epoch, 67 s then 64 s; the run is in epoch 3 after them
        (["Train on 8000 samples, validate on 2000 samples", "Epoch 1/15",
          "67s - loss: 2.4808 - acc: 0.2275 - val_loss: 2.1192 - val_acc: 0.4365", "Epoch 2/15",
          "64s - loss: 1.7988 - acc: 0.4308 - val_loss: 1.9340 - val_acc: 0.4770", "Epoch 3/15"],
         [(1, 15, 1, 2.4808, 67.0), (2, 15, 2, 1.7988, 64.0)]),
        # KyotoSunshine/CNN-for-handwritten-kanji logs/model_for_augmented_dataset_training_log.py: 3083 s and 3086 s
        (["Train on 400000 samples, validate on 10000 samples", "Epoch 1/10",
          "3083s - loss: 1.7197 - acc: 0.5893 - val_loss: 0.3504 - val_acc: 0.8959", "Epoch 2/10",
          "3086s - loss: 0.6644 - acc: 0.8074 - val_loss: 0.2832 - val_acc: 0.9182"],
         [(1, 10, 1, 1.7197, 3083.0), (2, 10, 2, 0.6644, 3086.0)]),
        # Composed in Keras 2's words: the leading ``- `` and a time under ten seconds, rounded to the second: the
        # epoch is read, and its time as printed (the line is the epoch: 4 s an epoch)
        (["Epoch 7/20", " - 4s - loss: 0.3100 - val_loss: 0.3500"], [(7, 20, 7, 0.31, 4.0)]),
    ],
)
def test_keras_1_epoch_lines_are_their_epochs_with_their_time(
    lines: list[str], expected: list[tuple[int, int, int, float, float | None]]
) -> None:
    got = steps(lines)
    assert [(s.step, s.total_steps, s.epoch, s.loss, s.step_seconds) for s in got] == expected
    evals = [e for e in GenericParser().feed(lines) if isinstance(e, EvalResult)]
    assert [e.name for e in evals] == ["val_loss"] * len(expected)


def test_a_keras_epoch_line_without_its_epoch_above_stays_an_evaluation() -> None:
    # (a log cut after its ``Epoch N/M`` header: no position is made up)
    assert steps(["67s - loss: 2.4808 - acc: 0.2275 - val_loss: 2.1192 - val_acc: 0.4365"]) == []


@pytest.mark.parametrize(
    ("lines", "seconds"),
    [
        # a full bar that prints its epoch's time and no unit time says no unit of its count (steps or samples): no
        # step's time is made of it (verbose=2's line, composed: 31 s is the epoch's)
        (["Epoch 2/10", "187/187 - 31s - loss: 0.8885 - accuracy: 0.7352 - val_loss: 0.7696"], None),
        # Keras 1's verbose=1 bar, composed: 25 s over 20,000 of a count whose unit is unsaid is no step's time
        (["Epoch 2/2", "20000/20000 [==============================] - 25s - loss: 0.0534 - acc: 0.9810"], None),
        # mnrmja007/keras README.md: 2 s, whole seconds, is too coarse for a step's time (withheld)
        (["# Epoch 16/20", ("33600/33600 [==============================] - 2s - loss: 0.0219 - acc: 0.9932 - "
                            "val_loss: 0.0650 - val_acc: 0.9851")], None),
        # a time a step printed beside it stays the one read
        (["Epoch 3/10", "1000/1000 [==============================] - 25s 25ms/step - loss: 0.2000"], 0.025),
    ],
)
def test_a_full_keras_bar_s_epoch_time_is_a_step_s_time_only_where_its_unit_is_said(lines: list[str], seconds: float | None) -> None:
    (got,) = steps(lines)
    assert got.step_seconds == (pytest.approx(seconds) if seconds is not None else None)


@pytest.mark.parametrize(("text", "expected"), GRAMMAR, ids=[g[0][:40] for g in GRAMMAR])
def test_the_grammar_reads_names_separators_and_values(text: str, expected: dict[str, Any]) -> None:
    step = one(text)
    for key, value in expected.items():
        got = getattr(step, key)
        assert got == (pytest.approx(value, rel=1e-4) if isinstance(value, float) else value), key


def test_a_nan_loss_is_read_as_printed() -> None:
    step = one(line("generic-megatron-lm-chinese-transformer-xl-issue7-lm-loss-nan.log", " iteration      700/"))
    assert step.loss is not None and step.loss != step.loss


NOT_STEPS = [
    # a step without a training figure
    "[2023-05-22 21:52:36,066] [INFO] [logging.py:96:log_dist] [Rank 0] step=2, skipped=0, lr=[2.4e-09, 2.4e-09]",
    (
        "[2024-03-07 15:27:17,188] [INFO] [timer.py:260:stop] epoch=0/micro_step=200/global_step=200, "
        "RunningAvgSamplesPerSec=58.73, CurrSamplesPerSec=58.75, MemAllocated=6.01GB"
    ),
    "Epoch 2, global step 400000: 'val/AP' was not in top 1",
    "saving checkpoint at iteration     200 to checkpoints/ds_stage2",
    "Step:120 | Block:2410417 | Stake:0.0 | Rank:0.0 | Trust:0.0 | Incentive:0.0 | Emission:0.0",
    # an evaluation, a loader, a download: no training bar
    "Evaluating iter 3/32",
    "evaluating Epoch: 100%|██████████| 84/84 [04:29<00:00,  3.21s/it]",
    "Loading checkpoint shards: 100%|██████████| 2/2 [00:03<00:00,  1.52s/it]",
    " 28%|██▊       | 17/60 [1:24:14<3:32:31, 296.54s/it]",  # no description, no loss: whose bar?
    # numbers without names, names inside words, paths and queries
    "490 | 5.7543 | 4.9e-05 | 8060.78ms",
    "Step Time : 4.65s GPU utilization: 59892.5TFLOP/s/GPU",
    '127.0.0.1 - - [10/Oct/2024:13:55:36 +0000] "GET /runs?step=3&loss=0.5 HTTP/1.1" 200 2326',
    "At step 100 the loss was 2.3 and the learning rate had decayed.",
    "warmup_steps: 100, gradient_accumulation_steps: 8, lr: 1e-4",  # settings, not a position
    "# Expected: step 17 (of 100); loss 1.918353E+00; lr 3.4E-06; step time 5706.3 ms",  # a comment
    "Traceback (most recent call last):",
    "RuntimeError: CUDA error: uncorrectable ECC error encountered",
]


@pytest.mark.parametrize("text", NOT_STEPS)
def test_lines_that_are_not_steps(text: str) -> None:
    assert steps([text]) == []
    assert not step_line(text)


def test_a_loss_of_another_kind_is_not_the_loss() -> None:
    assert one("iteration 5/10 | lm loss: 2.0 | nsp loss: 0.5 | load_balancing_loss: 1.1").loss == 2.0
    assert one("step 5 | nsp loss 0.5 | lr 1e-4").loss is None
    assert one("step 5 | Val loss 3.0 | lr 1e-4").loss is None


def test_an_evaluation_line_is_an_evaluation() -> None:
    events = GenericParser().feed(
        [
            " iteration     1000/    3000 | elapsed time per iteration (ms): 12955.2 | lm loss 4.454510E+00 |",
            " validation loss at iteration 1000 | LM loss: 4.503653E+00 | LM PPL: 9.034661E+01",
            "Iter 5: Val loss 3.044, Val took 57.845s",
            "step 500: train loss 5.7373, val loss 5.9544",
            "step 500: validation lm loss 4.5, test lm loss 4.6",
        ]
    )
    assert [type(e) for e in events] == [TrainStep] + [EvalResult] * 7
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        ("val_loss", 4.503653, 1000),
        ("lm_ppl", 90.34661, 1000),  # (the validation's perplexity beside its loss: that validation's too)
        ("val_loss", 3.044, 5),
        ("train_loss", 5.7373, 500),
        ("val_loss", 5.9544, 500),
        ("val_loss", 4.5, 500),
        ("test_loss", 4.6, 500),
    ]


def test_a_repeated_validation_figure_is_one_evaluation() -> None:
    """litgpt prints the last validation loss on every step line."""
    lines = [t for t in _body("generic-litgpt-issue1607-gpt2-pretrain-remaining-time.log")]
    events = GenericParser().feed(lines)
    assert sum(isinstance(e, EvalResult) for e in events) == 1
    assert sum(isinstance(e, TrainStep) for e in events) == 7


def test_a_hard_wrapped_record_is_joined() -> None:
    """BLOOM's log pasted at a terminal's width: each record over three lines."""
    events = GenericParser().feed(_body("generic-megatron-deepspeed-bigscience-file-tr11-176B-chronicles-wrapped-throughput-drop.log"))
    got = [(e.step, e.loss, e.lr) for e in events if isinstance(e, TrainStep)]
    assert got[-1] == (42784, 2.127643, 4.475e-05) and len(got) == 5


def test_a_traceback_after_a_cut_record_stays_its_own_line() -> None:
    parser = GenericParser()
    cut = "iteration 5/10 | consumed samples: 80 | elapsed time per iteration (ms): 10.0 | learning"
    events = parser.feed([cut, "Traceback (most recent call last):"])
    assert events == [] and parser.bad_lines == 1  # the cut record: counted, never guessed


def test_tokens_come_from_a_running_count() -> None:
    got = steps(['{"step": 20, "loss": 2.0, "tokens": 1000}', '{"step": 40, "loss": 2.0, "tokens": 3000}',
                 '{"step": 20, "loss": 2.1, "tokens": 1000}'])  # fmt: skip
    assert [s.tokens for s in got] == [None, 2000.0, None]  # the first has no interval; a relaunch restarts


def test_the_end_and_a_checkpoint() -> None:
    events = GenericParser().feed(
        [
            "Epoch 2: : 115816it [7:02:37,  4.57it/s, loss=2.1, v_num=3hqp]",
            "`Trainer.fit` stopped: `max_steps=400000` reached.",
            "Epoch 2: : 115816it [7:03:13,  4.56it/s, loss=2.1, v_num=3hqp]",  # the bar's close
            "Iter 5: Saved adapter weights to adapters/adapters.safetensors.",
        ]
    )
    assert [type(e) for e in events] == [TrainStep, StageEnd, TrainingPause]


AUTOM3L = "generic-lightning-autom3l-file-readme-result-loss-nan-max-epochs-done.log"
NEMO_MAX_STEPS = "generic-nemo-speech-issue13140-async-checkpoints-not-in-top-1-then-max-steps-10-reached.log"


def test_lightning_s_checkpoint_line_is_its_evaluation_at_the_global_step_it_names() -> None:
    # (composed in Lightning's ModelCheckpoint wording: ``{monitor!r} reached {current:0.5f} (best …)``)
    events = GenericParser().feed([("Epoch 0, global step 874: 'val_loss' reached 0.09610 (best 0.09610), saving model to"
                                   " '/ckpt/best-checkpoint.ckpt' as top 1")])  # fmt: skip
    assert events == [EvalResult(at=None, name="val_loss", value=0.0961, step=874),
                      TrainingPause(at=None, reason="checkpoint")]  # fmt: skip
    # named as printed: a metric with a slash is no ``val_loss``
    (named, _) = GenericParser().feed([("Epoch 0, global step 26637: 'val/nll' reached 0.98462 (best 0.98462), saving"
                                       " model to '/out/best.ckpt' as top 1")])  # fmt: skip
    assert named == EvalResult(at=None, name="val/nll", value=0.98462, step=26637)
    # no figure printed, no model saved: nothing read
    assert GenericParser().feed(["Epoch 1, global step 200: 'val_loss' was not in top 1"]) == []


def test_a_checkpoint_line_glued_to_a_cut_bar_is_both() -> None:
    # autom3l's bar, its postfix cut by the checkpoint line at global step 51 (a count of its epoch's batches, 1007,
    # is no global step: the figure is the bar's latest)
    events = GenericParser().feed([line(AUTOM3L, "Epoch 0:  50%")])
    bar, evaluation, pause = events
    assert isinstance(bar, TrainStep) and (bar.step, bar.total_steps, bar.epoch) == (1007, 2015, 0.0)
    assert evaluation == EvalResult(at=None, name="val_accuracy", value=0.02055, step=None)
    assert pause == TrainingPause(at=None, reason="checkpoint")


def test_max_steps_reached_is_the_run_s_last_step_at_its_total() -> None:
    # NeMo: the checkpoint's ``global step 9`` (counted from zero), then ``max_steps=10`` reached: ten steps of ten
    events = GenericParser().feed(_body(NEMO_MAX_STEPS))
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    assert (step.step, step.total_steps, step.epoch) == (10, 10, 0)
    assert isinstance(events[events.index(step) + 1], StageEnd)
    assert not any(isinstance(e, EvalResult) for e in events)  # (``val_loss=0.00`` is only in file names)
    # composed: the last step line printed step 99 of a run of 100, counted from zero
    got = steps(["step 99 | loss 2.25", "`Trainer.fit` stopped: `max_steps=100` reached."])
    assert [(s.step, s.total_steps) for s in got] == [(99, None), (100, 100)]
    # the step line was the last step already: not said twice
    got = steps(["step 100 | loss 2.25", "`Trainer.fit` stopped: `max_steps=100` reached."])
    assert [s.step for s in got] == [100]
    # a step the log does not come near (the bar counts its epoch's batches): no step is made up
    got = steps(["step 350 | loss 2.25", "`Trainer.fit` stopped: `max_steps=100000` reached."])
    assert [s.step for s in got] == [350]


SAFELIFE = "stopped-safelife-issue23-keyboard-interrupt-in-words.log"


def test_a_record_led_by_its_count_n_is_that_step_and_its_val_a_value_estimate() -> None:
    # SafeLife's PPO records: ``n=`` leads each (behind the logger's padded level); ``val=`` is the critic's value
    # estimate beside RL figures, never a validation loss
    events = GenericParser().feed([line(SAFELIFE, "INFO     n=960:"), line(SAFELIFE, "INFO     n=1920:")])
    assert [(e.step, e.loss) for e in events if isinstance(e, TrainStep)] == [(960, 0.304), (1920, 1.68)]
    assert not any(isinstance(e, EvalResult) for e in events)
    # (composed) ``n=`` not leading the record is no step
    assert steps(["episode done, n=12: reward=3.5"]) == []


TEXTSIM = "generic-textsim-issue2-tpu-estimator-global-step-sec-doubled-absl-glog-lines.log"


def test_tf_estimator_s_stable_global_step_warning_is_the_step_its_rate_lines_tie_to() -> None:
    events = GenericParser().feed(_body(TEXTSIM))
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    assert (step.step, step.loss, step.step_seconds) == (97, None, None)
    rates = [value for name, value in step.figures if name == "rate/global_step/sec"]
    assert rates[-1] == 0.291327 and min(rates) == 0.285283  # (as printed; each printed twice)
    # (composed) the warning's wording without its figures is no step
    assert steps(["It seems that global step (tf.train.get_global_step) has not been increased."]) == []


def test_the_steps_rate_alone_is_a_record_of_no_step_timed_by_that_rate() -> None:
    # (composed) TPUEstimator's reports, each printed twice (tensorflow's logger, then absl's): one record each, its
    # step time the rate's, the data's rate on the next line its own
    events = GenericParser().feed([
        "INFO:tensorflow:global_step/sec: 0.5", "I0326 17:01:05.290932 1404 tpu_estimator.py:2307] global_step/sec: 0.5",
        "INFO:tensorflow:examples/sec: 4", "I0326 17:01:05.291049 1404 tpu_estimator.py:2308] examples/sec: 4",
        "INFO:tensorflow:global_step/sec: 0.25",
    ])
    got = [e for e in events if isinstance(e, TrainStep)]
    assert [(e.step, e.logged, e.unnumbered, e.step_seconds, dict(e.figures)) for e in got] == [
        (1, True, True, 2.0, {"rate/global_step/sec": 0.5, "samples_per_second": 4.0}),
        (2, True, True, 4.0, {"rate/global_step/sec": 0.25}),
    ]
    # (composed) the data's rate alone, before any step, is no record
    assert steps(["INFO:tensorflow:examples/sec: 4", "INFO:tensorflow:examples/sec: 5"]) == []
    # google/automl#59, google-research/tapas#91: six reports each, the last rates as printed
    for name, last in (("generic-automl-issue59-tpu-estimator-global-step-sec-examples-sec-only-no-step-doubled.log", 1.04328), ("generic-tapas-issue91-tpu-estimator-global-step-sec-examples-sec-only-printed-total-loss-tensor.log", 2.41037)):
        reports = [e for e in GenericParser().feed(_body(name)) if isinstance(e, TrainStep)]
        assert [e.step for e in reports] == [1, 2, 3, 4, 5, 6]
        assert all(e.loss is None and e.unnumbered for e in reports)
        assert dict(reports[-1].figures)["rate/global_step/sec"] == last


def test_a_logging_interval_s_time_spans_the_steps_since_the_step_line_before() -> None:
    # (composed) TF Estimator's logging hook: 124.394 s since step 0's record, 100 steps: 1.24394 s a step
    _, second = steps(["INFO:tensorflow:loss = 96.96749, step = 0", "INFO:tensorflow:loss = 4.264659, step = 100 (124.394 sec)"])
    assert (second.step_seconds, dict(second.figures)) == (pytest.approx(1.24394), {})
    # (composed) no step line before it: the interval's time as printed, no step's
    (alone,) = steps(["INFO:tensorflow:loss = 1.87, step = 31601 (182.200 sec)"])
    assert (alone.step_seconds, dict(alone.figures)) == (None, {"logging_interval_seconds": 182.2})
    # LONG-9621/VoxNet's README: one hook line, step 208 (7.759 sec)
    (voxnet,) = [e for e in GenericParser().feed(_body("generic-voxnet-readme-estimator-one-logging-hook-line-step-208-interval-then-final-step.log")) if isinstance(e, TrainStep) and e.step == 208][:1]
    assert (voxnet.step_seconds, dict(voxnet.figures)) == (None, {"logging_interval_seconds": 7.759})


def test_a_full_epoch_bar_is_not_the_runs_end() -> None:
    bar = "Epoch 9: 100%|██████████| 195/195 [01:58<00:00,  1.64it/s, train/loss_step=3.860]"
    assert one(bar).total_steps is None
    last = "Training Epoch: 3/3, step 387/388 completed (loss: 1.67): 100%|█████| 388/388 [3:33:37<00:00, 33.03s/it]"
    assert (one(last).total_steps, one(last).ends_at_total) == (388, False)  # the trainer's end line says
    events = GenericParser().feed([last, "Key: avg_train_prep, Value: 5.1879143714904785"])
    assert [type(e) for e in events] == [TrainStep, StageEnd]


@pytest.mark.parametrize(("record", "step", "elapsed"), [
    # LLaMA-Factory's last record: its loss and learning rate null, the step at its total
    (('{"current_steps": 8712, "total_steps": 8712, "loss": null, "learning_rate": null, "epoch": 3.0,'
      ' "percentage": 100.0, "elapsed_time": "4 days, 7:19:52", "remaining_time": "0:00:00"}'),
     (8712, 8712), 4 * 86400 + 7 * 3600 + 19 * 60 + 52),
    ('{"step": 500, "max_steps": 500, "loss": null, "elapsed": "1 day, 0:00:01"}', (500, 500), 86401),
])  # fmt: skip
def test_a_record_of_where_the_run_is_is_a_step(record: str, step: tuple[int, int], elapsed: float) -> None:
    got = one(record)
    assert ((got.step, got.total_steps), got.loss, got.elapsed_seconds) == (step, None, elapsed)


def test_a_step_without_its_total_or_a_clock_is_still_no_record() -> None:
    assert steps(['{"step": 500, "loss": null}', '{"step": 500, "max_steps": 500}']) == []


def test_a_total_on_a_line_of_its_own() -> None:
    got = steps(["Starting training..., iters: 400", "Iter 20: Train loss 2.135, It/sec 0.189"])
    assert got[0].total_steps == 400


def test_pairs_name_what_they_read() -> None:
    fields = [r.field for r in pairs("Iter 20: Train loss 2.135, Learning Rate 1.000e-05, It/sec 0.189, "
                                     "Tokens/sec 281.103, Trained Tokens 35004, Peak 65.006 GB")]  # fmt: skip
    assert fields == [Field.STEP, Field.LOSS, Field.LR, Field.ITS, Field.TOKENS_PER_SECOND, Field.TOKENS]


def _body(name: str) -> list[str]:
    from tests.reallogs import body

    return body(name)


def test_an_evaluation_a_new_epochs_bar_repeats_belongs_to_the_new_stretch() -> None:
    events = GenericParser().feed(
        [
            "Epoch 0: 100%|██████████| 100/100 [00:11<00:00,  9.01it/s, v_num=0, train_loss=0.401, val_loss=0.455]",
            "Epoch 1:  30%|███       | 30/100 [00:03<00:07,  9.71it/s, v_num=0, train_loss=0.377, val_loss=0.455]",
        ]
    )
    evals = [(e.value, e.step) for e in events if isinstance(e, EvalResult)]
    assert evals == [(0.455, None), (0.455, 30)]  # the step went back: said again, for the new stretch


def test_a_json_record_dates_itself() -> None:
    events = GenericParser().feed(
        [
            '{"step": 10, "train": {"loss": 2.3}, "timestamp": "2024-05-01T12:00:00Z"}',
            '{"step": 20, "loss": 2.2, "_timestamp": 1714564860.5}',
        ]
    )
    assert [(e.step, e.loss, e.at) for e in events if isinstance(e, TrainStep)] == [
        (10, 2.3, 1714564800.0),
        (20, 2.2, 1714564860.5),
    ]
    assert isinstance(events[-1], Tick) and events[-1].at == 1714564860.5


def test_a_bar_redrawn_thousands_of_times_on_one_line_reads_its_newest_redraw() -> None:
    redraws = [f"Epoch 0:  {n // 50:2d}%|█    | {n}/5000 [00:{n // 100:02d}<01:00, 50.00it/s, loss={n / 1000:.3f}]"
               for n in range(1, 5001)]  # fmt: skip
    got = steps(["\r".join(redraws)])
    assert got[-1].step == 5000 and got[-1].loss == 5.0
    assert all(a.step < b.step for a, b in pairwise(got))  # nothing cut read as a step


def test_a_message_glued_after_a_bar_is_read_on_its_own() -> None:
    """NVIDIA's BERT example: dllogger's line printed straight after the training bar."""
    glued = (
        "Iteration:  23%|█████     | 650/2771 [01:23<04:25,  7.98it/s]DLL 2022-04-05 05:10:36.324733 - "
        "Training Epoch: 0 Training Iteration: 651  step_loss : 2.0511345863342285  learning_rate : 2.93e-05"
    )
    got = steps([glued])
    assert [(s.step, s.total_steps, s.loss, s.lr) for s in got] == [(650, 2771, None, None), (651, 2771, 2.0511345863342285, 2.93e-05)]


def test_lightnings_minus_one_count_is_no_step() -> None:
    assert steps(["Training: -1it [00:00, ?it/s]"]) == []


def test_a_total_another_line_printed_is_kept_but_not_past_a_full_epoch() -> None:
    got = steps(
        [
            " iteration      100/    3000 | elapsed time per iteration (ms): 1000.0 | lm loss 4.5 |",
            "steps: 110 loss: 4.4 iter time (s): 1.000 samples/sec: 51.8",
        ]
    )
    assert [s.total_steps for s in got] == [3000, 3000]
    got = steps(
        [
            "Epoch 0:  50%|█████     | 50/100 [00:05<00:05,  9.51it/s, loss=0.5]",
            "Epoch 0: 100%|██████████| 100/100 [00:10<00:00,  9.61it/s, loss=0.4]",
        ]
    )
    assert [s.total_steps for s in got] == [100, None]


@pytest.mark.parametrize(("text", "seconds"), [
    ("iter 97 step 49: loss 10.8259, iter time: 215.37ms", 2 * 0.21537),  # 98 iterations, 49 steps: 2 a step
    ("iter 3051000 step 610200: loss 2.857, iter time: 111.49ms", 5 * 0.11149),
    ("Epoch 1 | iter 62 step 1 | loss train: 3.669, val: n/a | iter time: 40.78 ms", None),  # 32 to 63 a step
])  # fmt: skip
def test_a_step_time_from_an_iteration_s_only_when_the_counters_say_how_many(text: str, seconds: float | None) -> None:
    got = one(text).step_seconds
    assert got == (pytest.approx(seconds) if seconds is not None else None)


def test_lightning_s_last_epoch_full_bar_waits_for_fit_to_stop() -> None:
    """A rich bar names its epoch out of the total: full in the last epoch, the run still validates."""
    bar = "Epoch 9/9 ━━━━━━━━━━━━━━━━ 195/195 0:02:31 • 0:00:00 1.29it/s v_num: 0 loss: 0.312"
    step = one(bar)
    assert (step.step, step.total_steps, step.epoch, step.ends_at_total) == (195, 195, 9, False)
    events = GenericParser().feed([bar, "`Trainer.fit` stopped: `max_epochs=10` reached."])
    assert [type(e) for e in events] == [TrainStep, StageEnd]


@pytest.mark.parametrize("text", [
    ("/opt/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py:557: UserWarning: slow Epoch 1:  45%|████▌"
     "     | 9/20 [00:18<00:22,  2.00s/it, loss=1.23]"),
    ("Epoch 1:  45%|████▌     | 9/20 [00:18<00:22,  2.00s/it, loss=1.23]/opt/venv/lib/python3.11/site-packages/torch/"
     "utils/data/dataloader.py:557: UserWarning: slow"),
])  # fmt: skip
def test_text_glued_on_either_side_of_a_bar_never_hides_it(text: str) -> None:
    step = one(text)
    assert (step.step, step.total_steps, step.loss, step.step_seconds) == (9, 20, 1.23, 2.0)


def test_rank_prefixed_copies_count_once_and_the_highest_step_is_the_position() -> None:
    """Four ranks print iteration 10 (rank 3 first), then only rank 2's iteration 20 made it into the log
    before rank 0's: the run is at 20, each step read once, and rank 1's late copy of 10 is dropped."""
    def at(rank: int, step: int, loss: float) -> str:
        return f"[rank{rank}]: iteration {step:>4}/ 100 | lm loss: {loss:.4f} | elapsed time per iteration (ms): 500.0"

    lines = [at(3, 10, 2.5), at(0, 10, 2.5), at(2, 10, 2.5), at(2, 20, 2.25), at(1, 10, 2.5), at(0, 20, 2.25)]
    parser = GenericParser()
    steps = [e for e in parser.feed(lines) if isinstance(e, TrainStep)]
    assert [(s.step, s.loss) for s in steps] == [(10, 2.5), (20, 2.25)]


def test_a_bar_whose_postfix_a_message_cut_keeps_its_position_and_whole_pairs() -> None:
    """A checkpoint message printed over a Lightning bar before its postfix closed (autom3l's log)."""
    glued = line("generic-lightning-autom3l-file-readme-result-loss-nan-max-epochs-done.log", "Epoch 0:  50%")
    got = steps([glued])
    assert [(s.step, s.total_steps, s.epoch, s.step_seconds) for s in got] == [(1007, 2015, 0, pytest.approx(1 / 4.14))]
    assert got[0].loss is not None and got[0].loss != got[0].loss  # ``loss=nan``, whole before its comma
    # a wrap that cut the postfix: the pair it cut is no figure
    (cut,) = steps(["Epoch 3:  40%|████      | 40/100 [00:20<00:30,  2.00it/s, lr=0.0003, loss=1.2"])
    assert (cut.step, cut.total_steps, cut.lr, cut.loss) == (40, 100, 0.0003, None)


def test_a_full_epoch_bar_the_trainer_ends_on_keeps_its_total() -> None:
    full = "Epoch 4: 100%|██████████| 430/430 [01:48<00:00,  3.97it/s, v_num=2, train_loss=0.301]"
    events = GenericParser().feed([full, "`Trainer.fit` stopped: `max_epochs=5` reached."])
    assert [type(e) for e in events] == [TrainStep, TrainStep, StageEnd]
    first, last = (e for e in events if isinstance(e, TrainStep))
    assert (first.total_steps, last.step, last.total_steps) == (None, 430, 430)


def test_fairseq_s_legacy_progress_line_is_the_update_in_its_epoch() -> None:
    name = "generic-fairseq-issue301-legacy-epoch-progress-valid.log"
    got = one(line(name, "| epoch 011  3000 / 8223"))
    assert (got.step, got.total_steps, got.epoch, got.loss, got.lr, got.grad_norm, got.tokens_per_second) == (
        3000, 8223, 11, 0.75, 0.001, 2.0545, 963)
    assert not got.ends_at_total  # the epoch's updates, not the run's
    # fairseq's later ``| epoch 001:    100 / 8223 …``; its epoch summary and validation lines are no steps
    later = one("| epoch 001:    100 / 8223 loss=9.873, nll_loss=9.801, ppl=891.8, wps=17342, ups=2, lr=0.0005")
    assert (later.step, later.total_steps, later.epoch, later.loss) == (100, 8223, 1, 9.873)
    assert steps([line(name, "| epoch 010 | train loss"), line(name, "| epoch 010 | valid on 'valid' subset  1000")]) == []
    events = GenericParser().feed([line(name, "| epoch 010 | valid on 'valid' subset | valid loss")])
    # (its ``valid ppl 3.83`` too: a score beside the evaluation's loss, by its name)
    assert [(e.name, e.value) for e in events if isinstance(e, EvalResult)] == [("val_loss", 1.94), ("valid_ppl", 3.83)]
    # a pipe between the epoch and the position; the later validation record, whose loss is named ``loss``
    piped = one("| epoch 011 | 3000 / 8223 loss=0.75 (1.35), wps=963, lr=0.001, gnorm=2.0545")
    assert (piped.step, piped.total_steps, piped.epoch, piped.loss) == (3000, 8223, 11, 0.75)
    later_valid = "| epoch 001 | valid on 'valid' subset | loss 5.412 | ppl 42.55 | num_updates 1000 | best_loss 5.412"
    events = GenericParser().feed([later_valid])
    assert [(type(e), e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        (EvalResult, "val_loss", 5.412, 1000)]  # (alone, the run not yet placed: its ``ppl`` may be a sentence's)
    assert steps([later_valid]) == []


@pytest.mark.parametrize(
    ("text", "mfu", "unknown"),
    [
        ("step 120/5000 | loss 4.15 | dt 500.00ms | 8,192 tok/s | mfu 0.00%", None, True),
        ("step 120/5000 | loss 4.15 | dt 500.00ms | mfu 0.00%", None, True),
        ("step 120/5000 | loss 4.15 | dt 500.00ms | 8,192 tok/s | mfu 31.20%", 31.2, False),
        ("step 120/5000 | loss 4.15 | mfu 0.00%", 0.0, False),  # nothing says the GPU worked
    ],
)
def test_an_mfu_of_zero_beside_a_throughput_is_a_placeholder(text: str, mfu: float | None, unknown: bool) -> None:
    step = one(text)
    assert step.mfu == mfu
    assert (step.mfu_note is not None) is unknown


def test_a_box_drawn_table_s_rows_up_to_the_next_border_are_one_record() -> None:
    # Composed after RLinf's MetricTable: the step and its total on one row, the clocks on the next.
    from app.ingest.formats import create_parser
    from app.stats.events import TrainStep

    lines = [
        "╭──────────────────────────────╮",
        "├──────── Metric Table ────────┤",
        "│ Global Step:   12/300 │ Progress: █░░░ │   4.0% │",
        "│ Elapsed: 00:20:00 │ ETA: 08:00:00 │ Step Time: 100.0s │",
        "├──────────── Time ────────────┤",
        "│actor/run_training=60.5 │ step=98.2 │",
        "├───────── Environment ────────┤",
    ]
    steps = [e for e in create_parser("generic").feed(lines) if isinstance(e, TrainStep)]
    assert [(s.step, s.total_steps, s.step_seconds, s.elapsed_seconds, s.trainer_eta_seconds) for s in steps] == [
        (12, 300, 100.0, 1200.0, 8 * 3600.0)]


def test_ppo_fields_joined_by_bars_without_spaces_keep_their_nan_loss(tmp_path: Path) -> None:
    # Composed: a PPO loop's ``key: value`` fields joined by ``|``; its policy loss goes nan at update 2.
    from app.ingest.formats import create_parser
    from app.stats.events import TrainStep

    lines = ["update: 1|policy_loss: 0.0123|value_loss: 0.5|entropy: 1.2|fps: 340",
             "update: 2|policy_loss: nan|value_loss: nan|entropy: nan|fps: 340",
             "update: 3|policy_loss: nan|value_loss: nan|entropy: nan|fps: 340"]
    steps = [e for e in create_parser("generic").feed(lines) if isinstance(e, TrainStep)]
    assert [s.step for s in steps] == [1, 2, 3]
    assert steps[0].loss == 0.0123 and all(math.isnan(s.loss or 0.0) for s in steps[1:])
    log = tmp_path / "ppo.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    from app.ingest.backwards import read_backwards
    from app.live.monitor import Monitor

    monitor = Monitor(log, clock=lambda: 1_800_000_000.0)
    monitor.backlog(read_backwards(log))
    snap = monitor.snapshot(1_800_000_000.0)
    assert snap.state == "diverged"
    assert "Loss not a number since step 2" in snap.details  # the first nan, not the latest (undated lines)


RPPG = "generic-rppg-mae-issue8-metriclogger-epoch12-then-test-pipes.log"


def test_a_metric_logger_s_iteration_is_its_epoch_s_and_keeps_the_epoch() -> None:
    # torchvision's MetricLogger (rPPG-MAE issue #8, tests/data/real): ``Epoch: [12]  [ 60/208]  eta: 0:00:21``
    # counts epoch 12's 208 batches from 0; its ``eta`` is the epoch's and reaching 208 ends no run.
    from tests.reallogs import body

    got = steps(body(RPPG))
    assert [(s.step, s.total_steps, s.epoch) for s in got] == [(n, 208, 12.0) for n in (*range(60, 201, 20), 207)]
    assert not any(s.ends_at_total for s in got)
    assert (got[0].trainer_eta_seconds, got[-1].trainer_eta_seconds, got[-1].step_seconds) == (21.0, 0.0, 0.1172)
    # the ``| me: 3.9034 | std: … | mae: 6.6979 |`` test record after it names no step: nothing
    assert steps(["| me: 3.9034 | std: 14.9148 | mae: 6.6979 | rmse: 15.4171 | mer: 0.1479 | p: 0.8989"]) == []


def test_an_epoch_s_total_is_not_carried_to_a_run_s_step() -> None:
    # Composed: a batch counted in its epoch (``batch: 130/500`` beside ``epoch: 3``), then a line of the
    # run's own ``global step``: 500 is the epoch's batches, never the run's planned steps.
    got = steps(["epoch: 3 | batch: 130/500 | current loss: 2.345", "global step: 1630 | loss: 2.3 | time: 0.5s"])
    assert [(s.step, s.total_steps, s.epoch, s.ends_at_total) for s in got] == [
        (130, 500, 3.0, False), (1630, None, None, True)]


@pytest.mark.parametrize(("text", "expected"), [
    # Composed ``|``-separated records that name the step ``batch``/``iter``/``global step`` and the loss
    # ``current loss``, with and without spaces.
    ("epoch:3|batch:120|current loss:2.345|lr:0.001", (120, None, 3.0, 2.345, False)),
    ("2024-05-01 12:00:00 | INFO | epoch: 1 | batch: 100 | current loss: 2.3456", (100, None, 1.0, 2.3456, False)),
    ("batch: 120 | current loss: 2.3", (120, None, None, 2.3, True)),
    ("iter:20|current loss:3.4|lr:0.01", (20, None, None, 3.4, True)),
    ("global step: 20 | current loss: 3.4", (20, None, None, 3.4, True)),
])  # fmt: skip
def test_bar_separated_records_name_their_step_and_loss(text: str, expected: tuple[Any, ...]) -> None:
    got = one(text)
    assert (got.step, got.total_steps, got.epoch, got.loss, got.ends_at_total) == expected


@pytest.mark.parametrize("text", [
    "batch 32 loss 2.3",  # a size in prose: no ``|`` record, no epoch, no total
    "| epoch 010 | train loss 1.44 | words/batch    906 | lr 0.001000",  # fairseq's epoch summary (tests/data/real)
])  # fmt: skip
def test_a_batch_that_is_a_size_is_no_step(text: str) -> None:
    assert steps([text]) == []


# gaggenwaschke/NoProp, logs/log_cifar100.md (https://github.com/gaggenwaschke/NoProp/blob/
# dc1d2a1874062b02818fbab28038f0b342494322/logs/log_cifar100.md), lines as printed: one line an epoch.
NOPROP = ["Epoch 004 loss  10.3886 | train 2.2s",
          "Epoch 005 loss   9.5198 | train 2.2s | Acc 13.52% | infer 4.5s",
          "Epoch 006 loss   8.8812 | train 2.5s"]


def test_a_loop_that_logs_once_an_epoch_counts_its_epochs() -> None:
    got = steps(NOPROP)
    assert [(s.step, s.epoch, s.loss, s.step_seconds) for s in got] == [
        (4, 4.0, 10.3886, 2.2), (5, 5.0, 9.5198, 2.2), (6, 6.0, 8.8812, 2.5)]


def test_an_epoch_s_summary_in_a_log_of_steps_is_no_step() -> None:
    # Composed: step lines, then the epoch's summary (``Epoch 1 loss 2.2``): the position stays the step.
    got = steps(["step 100 | loss 2.3", "step 200 | loss 2.2", "Epoch 1 loss 2.25 | val loss 2.4"])
    assert [s.step for s in got] == [100, 200]


# simpx/buildyourownllm, babygpt_v12_wandb.py (the run's output kept at the end of the script, commit
# 278aa76a92f1c80911793a2974d8e508af75541b), lines as printed: ``time`` is the run's clock so far.
BABYGPT = ["step 0: train loss 8.0529, val loss 8.0512, speed: 55304.00 tokens/sec, time: 0m 0.3s",
           "step 50: train loss 5.9337, val loss 6.0072, speed: 102707.49 tokens/sec, time: 0m 8.1s",
           "step 100: train loss 5.7529, val loss 5.8782, speed: 104971.14 tokens/sec, time: 0m 15.8s",
           "step 400: train loss 4.8080, val loss 5.0865, speed: 105914.43 tokens/sec, time: 1m 2.0s"]


def test_a_printed_clock_is_the_run_s_time() -> None:
    got = steps(BABYGPT)
    assert [(s.step, s.elapsed_seconds, s.step_seconds, s.tokens_per_second) for s in got] == [
        (0, 0.3, None, 55304.0), (50, 8.1, None, 102707.49), (100, 15.8, None, 104971.14), (400, 62.0, None, 105914.43)]


@pytest.mark.parametrize(("text", "field", "value"), [
    ("step 5 | loss 2 | time: 0m 54.2s", Field.ELAPSED, 54.2),
    ("step 5 | loss 2 | time: 1h 2m 3s", Field.ELAPSED, 3723.0),
    ("step 5 | loss 2 | elapsed 2h05m", Field.ELAPSED, 7500.0),
    ("step 5 | loss 2 | elapsed 01:23:45", Field.ELAPSED, 5025.0),
    ("step 5 | loss 2 | time 54.2s", Field.STEP_TIME, 54.2),  # one unit: a step's own time
    ("step 5 | loss 2 | time 54ms", Field.STEP_TIME, 0.054),
])  # fmt: skip
def test_a_duration_in_several_units_is_one_clock(text: str, field: Field, value: float) -> None:
    (timing,) = [r for r in pairs(text) if r.field in (Field.ELAPSED, Field.STEP_TIME)]
    assert (timing.field, timing.value) == (field, pytest.approx(value))


@pytest.mark.parametrize("text", [
    # A data set's, a loader's or an evaluation's bar: its count is never the run's position.
    "Generating train split: 100%|██████████| 1000/1000 [00:00<00:00, 5000.00 examples/s]",
    "Map (num_proc=8): 100%|██████████| 51760/51760 [00:03<00:00, 15000.00 examples/s]",
    "Loading checkpoint shards: 100%|##########| 2/2 [00:00<00:00,  8.39it/s]",
    "Running tokenizer on train dataset: 45%|████▌     | 450/1000 [00:01<00:01, 300.00it/s]",
])  # fmt: skip
def test_a_side_job_s_bar_is_no_step(text: str) -> None:
    assert steps([text]) == []
    assert not step_line(text)


def test_a_log_that_prints_its_clock_is_timed_by_it(tmp_path: Path) -> None:
    # The four babygpt lines above: 0.3 s to 62.0 s of the run's own clock is 61.7 s measured, not "no timing".
    from app.ingest.backwards import read_backwards
    from app.live.monitor import Monitor

    log = tmp_path / "babygpt.log"
    log.write_text("\n".join(BABYGPT) + "\n", encoding="utf-8")
    os.utime(log, (1_800_000_000.0, 1_800_000_000.0))  # undated lines: the last one written now
    monitor = Monitor(log, clock=lambda: 1_800_000_000.0)
    monitor.backlog(read_backwards(log))
    snap = monitor.snapshot(1_800_000_000.0)
    assert snap.details[0] == "measuring: 4 steps · 1 min 1 s of 3 min — rate in about 2 min"  # (four lines seen)
    assert not any("no timing" in line for line in snap.details)


def test_counts_printed_with_an_si_suffix_are_read_whole() -> None:
    # huggingface/nanotron PR #23 (https://github.com/huggingface/nanotron/pull/23), a line as printed (cut after grad_norm):
    got = one("iteration: 993 / 1000 | consumed_tokens: 636K | elapsed_time_per_iteration_ms: 39.4 | tokens_per_sec: 16.2K"
              " | tokens_per_sec_per_gpu: 2.03K | global_batch_size: 20 | lm_loss: 10.6 | lr: 1e-05 | grad_norm: 0.514")
    assert (got.step, got.total_steps, got.tokens_per_second, got.loss, got.step_seconds) == (
        993, 1000, pytest.approx(16200.0), 10.6, pytest.approx(0.0394))
    assert [r.value for r in pairs("step 5 | loss 2.3M")] == [5.0]  # a loss is never so printed: no loss


def test_seconds_per_step_in_brackets_is_the_step_time() -> None:
    # tensorflow/models issue #2980 (https://github.com/tensorflow/models/issues/2980), a line as printed:
    got = one("INFO:tensorflow:global step 2: loss = 72.8609 (17.053 sec/step)")
    assert (got.step, got.loss, got.step_seconds) == (2, 72.8609, 17.053)


def test_mmengine_s_eta_is_the_run_s_and_a_metric_logger_s_its_epoch_s() -> None:
    # AILab-CVC/YOLO-World issue #190 (https://github.com/AILab-CVC/YOLO-World/issues/190), mmengine's line as printed:
    mm = one("03/25 23:58:44 - mmengine - INFO - Epoch(train) [100][  50/4309]  base_lr: 2.0000e-03 lr: 5.9600e-05"
             "  eta: 12:14:32  time: 0.7842  data_time: 0.0205  memory: 7657  grad_norm: 993.2860  loss: 1111.4113")
    assert (mm.step, mm.total_steps, mm.epoch, mm.ends_at_total, mm.run_eta, mm.trainer_eta_seconds) == (
        50, 4309, 100.0, False, True, 12 * 3600 + 14 * 60 + 32)
    from tests.reallogs import body

    metric_logger = steps(body(RPPG))[0]
    assert (metric_logger.ends_at_total, metric_logger.run_eta) == (False, False)


# MouseLand/cellpose issue #450 (https://github.com/MouseLand/cellpose/issues/450), lines as printed: ``Time`` is the
# run's, in seconds since it started (the issue asks just that).
CELLPOSE = ["2022-02-18 00:38:30,706 [INFO] Epoch 5, Time 4981.4s, Loss 0.5731, LR 0.1111",
            "2022-02-18 01:46:44,126 [INFO] Epoch 10, Time 9074.8s, Loss 0.5035, LR 0.2000",
            "2022-02-18 07:02:39,069 [INFO] Epoch 20, Time 28029.8s, Loss 0.4754, LR 0.2000",
            "2022-02-18 09:17:43,068 [INFO] Epoch 30, Time 36133.8s, Loss 0.4614, LR 0.2000"]


def test_a_time_that_keeps_growing_is_the_run_s_clock_not_a_step_s() -> None:
    got = steps(CELLPOSE)
    assert [(s.step, s.step_seconds, s.elapsed_seconds) for s in got[2:]] == [(20, None, 28029.8), (30, None, 36133.8)]
    # a step's own time wavers around its mean: it stays a step time (the first line alone cannot say which)
    wavering = steps([f"step {n} | loss 2.0 | time {t}s" for n, t in ((1, 1.2), (2, 1.1), (3, 1.3), (4, 1.25))])
    assert [s.step_seconds for s in wavering] == [None, 1.1, 1.3, 1.25]
    rising = steps([f"step {n} | loss 2.0 | time {t}s" for n, t in ((1, 1.2), (2, 1.3), (3, 1.25), (4, 1.3))])
    assert [s.step_seconds for s in rising] == [None, None, 1.25, 1.3]
    # under a second, a first reading is the step's at once: a clock that short would have run its steps in a blink
    quick = steps([f"step {n} | loss 2.0 | time {t}s" for n, t in ((100, 0.2), (200, 0.3), (300, 0.25))])
    assert [s.step_seconds for s in quick] == [0.2, 0.3, 0.25]


# flairNLP/flair pull request #2983 (https://github.com/flairNLP/flair/pull/2983), lines as printed: ``time (sec)``
# is the epoch's clock, 5.65 s at iter 122 of 1227, 10.81 s at 244: read as steps' times, the first two would be
# 46 and 89 times the real 0.042 s an iteration.
FLAIR = [
    "2022-11-08 11:14:32,333 epoch 1 - iter 122/1227 - loss 0.93329908 - time (sec): 5.65 - samples/sec: 86.35 - lr: 0.000030",
    "2022-11-08 11:14:37,495 epoch 1 - iter 244/1227 - loss 0.74046560 - time (sec): 10.81 - samples/sec: 90.26 - lr: 0.000030",
    "2022-11-08 11:14:42,687 epoch 1 - iter 366/1227 - loss 0.64291186 - time (sec): 16.01 - samples/sec: 91.47 - lr: 0.000030",
]


def test_a_growing_time_s_first_readings_are_no_step_s_time_before_it_is_known_a_clock() -> None:
    got = steps(FLAIR)
    assert [(s.step, s.step_seconds, s.elapsed_seconds) for s in got] == [
        (122, None, None), (244, None, None), (366, None, 16.01)]


def test_keras_bars_count_their_epoch_and_a_loss_part_is_no_validation_loss() -> None:
    # ayoolaolafenwa/PixelLib issue #59 (https://github.com/ayoolaolafenwa/PixelLib/issues/59), Keras fit lines (cut
    # after the validation losses): the bar before any ``Epoch N/M`` line is an epoch's too, and
    # ``val_mrcnn_mask_loss`` is a part of the validation loss, not it.
    lines = [("100/100 [==============================] - 143s 1s/step - batch: 49.5000 - size: 4.0000 - loss: 1.1848"
             " - rpn_class_loss: 0.0233 - val_loss: 1.4737 - val_mrcnn_mask_loss: 0.4449"),
             "Epoch 15/100",
             ("100/100 [==============================] - 145s 1s/step - batch: 49.5000 - size: 4.0000 - loss: 1.2337"
             " - rpn_class_loss: 0.0271 - val_loss: 1.4419 - val_mrcnn_mask_loss: 0.4413")]  # fmt: skip
    events = GenericParser().feed(lines)
    got = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.total_steps, s.ends_at_total, s.loss) for s in got] == [
        (100, None, False, 1.1848), (100, None, False, 1.2337)]
    evals = [(e.name, e.value) for e in events if isinstance(e, EvalResult)]
    assert ("val_loss", 1.4419) in evals and ("val_loss", 0.4449) not in evals and ("val_loss", 0.4413) not in evals


def test_the_record_under_an_evaluation_heading_is_the_evaluation_s() -> None:
    # roomylee/rcnn-relation-extraction issue #1 (https://github.com/roomylee/rcnn-relation-extraction/issues/1), as printed:
    lines = ["2018-05-17T18:34:23.984973: step 4500, loss 0.0454917, acc 1", "", "Evaluation:",
             "2018-05-17T18:34:32.532720: step 4500, loss 2.17796, acc 0.635",
             "(2*9+1)-Way Macro-Average F1 Score (excluding Other): 0.640892", "",
             "2018-05-17T18:34:55.364092: step 4510, loss 0.14097, acc 0.984375"]
    events = GenericParser().feed(lines)
    assert [(s.step, s.loss) for s in events if isinstance(s, TrainStep)] == [(4500, 0.0454917), (4510, 0.14097)]
    # (its ``acc 0.635`` beside the evaluation's loss: that evaluation's accuracy)
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [("val_loss", 2.17796, 4500),
                                                                                        ("acc", 0.635, 4500)]


@pytest.mark.parametrize(("text", "expected"), [
    # CaryBond/data-science-project, test_result_CGCNN/R2_0.9384/readme_output_aws.txt (https://github.com/CaryBond/
    # data-science-project/blob/be0822d0b70bb3eb39031c1769afcb51ef8e8e76/test_result_CGCNN/R2_0.9384/readme_output_aws.txt)
    ("2025-07-07 13:59:41.751 INFO: Epoch [005/300] - Train Loss: 52.35379, Valid Loss: 47.12104, LR: [0.001]\r",
     (5, 300, 52.35379)),
    # caiyuanhao1998/MST issue #7 (https://github.com/caiyuanhao1998/MST/issues/7)
    ("2022-07-20 11:54:51,376 - INFO: ===> Epoch 132 Complete: Avg. Loss: 0.014821 time: 666.83", (132, None, 0.014821)),
])  # fmt: skip
def test_an_epoch_that_leads_its_record_is_the_position_of_a_loop_that_logs_once_an_epoch(
    text: str, expected: tuple[Any, ...]
) -> None:
    got = one(text)
    assert (got.step, got.total_steps, got.loss) == expected


def test_a_validation_loss_on_an_epoch_s_line_is_that_epoch_s() -> None:
    # The cgcnn lines above (CaryBond/data-science-project): each epoch's line prints its own validation loss.
    lines = ["2025-07-07 13:59:41.751 INFO: Epoch [005/300] - Train Loss: 52.35379, Valid Loss: 47.12104, LR: [0.001]",
             "2025-07-07 14:00:45.312 INFO: Epoch [006/300] - Train Loss: 53.96416, Valid Loss: 73.27421, LR: [0.001]"]
    evals = [e for e in GenericParser().feed(lines) if isinstance(e, EvalResult)]
    assert [(e.name, e.value, e.step) for e in evals] == [("val_loss", 47.12104, 5), ("val_loss", 73.27421, 6)]


# Kyakaka/DySPN issue #4 "training log" (https://github.com/Kyakaka/DySPN/issues/4), a comment by PatrickZoo, lines
# as printed: a comma-separated, space-padded table whose header row names the columns; the epoch leads each row,
# and row 7's validation cell is empty.
DYSPN = ["Epoch ,FinishTime     ,LR    ,RMSE_Train ,RMSE_Val",
         "    6 ,04.29_09:45:01 ,0.001 ,  744.2525 ,839.5559",
         "    7 ,04.29_10:21:29 ,0.001 ,  731.0956 ,",
         "    8 ,04.29_12:50:13 ,[0.001]    ,   635.966 , 810.576"]


def test_a_table_s_header_row_names_the_rows_under_it() -> None:
    got = steps(DYSPN)
    assert [(s.step, s.epoch, s.lr, s.loss) for s in got] == [(6, 6.0, 0.001, None), (7, 7.0, 0.001, None),
                                                              (8, 8.0, 0.001, None)]


def test_a_csv_logger_s_rows_are_steps_with_their_losses() -> None:
    # Composed: Keras' CSVLogger (``epoch,loss,val_loss``, one row an epoch) and Lightning's metrics.csv (``step``,
    # a training row and a validation row with the other's cells empty).
    keras = GenericParser().feed(["epoch,accuracy,loss,val_accuracy,val_loss", "0,0.80,0.50,0.85,0.40",
                                  "1,0.85,0.40,0.86,0.38"])
    assert [(e.step, e.loss) for e in keras if isinstance(e, TrainStep)] == [(0, 0.5), (1, 0.4)]
    # (its ``val_accuracy`` is an evaluation's figure too, by its name: each row's is that epoch's)
    assert [(e.name, e.value, e.step) for e in keras if isinstance(e, EvalResult)] == [
        ("val_loss", 0.4, 0), ("val_accuracy", 0.85, 0), ("val_loss", 0.38, 1), ("val_accuracy", 0.86, 1)]
    lightning = GenericParser().feed(["epoch,step,train_loss,val_loss", "0,49,2.3,", "0,99,2.1,", "0,99,,2.2",
                                      "1,149,2.0,"])
    assert [(e.step, e.epoch, e.loss) for e in lightning if isinstance(e, TrainStep)] == [
        (49, 0.0, 2.3), (99, 0.0, 2.1), (149, 1.0, 2.0)]
    assert [(e.name, e.value, e.step) for e in lightning if isinstance(e, EvalResult)] == [("val_loss", 2.2, 99)]
    # a line of prose with commas is no header, and no row follows one
    assert steps(["Loading data, model, optimizer", "0,1,2"]) == []


@pytest.mark.parametrize(("text", "expected"), [
    # Composed in PyTorch-GAN's print shape: the batch in its epoch, two losses and none the model's one.
    ("[Epoch 3/10] [Batch 120/500] [D loss: 0.450000] [G loss: 1.200000]", (120, 500, 3.0, None, None, False)),
    # Composed in pytorch/examples' word_language_model shape: ``ms/batch`` is the step's time in ms.
    ("| epoch   1 |   200/ 2983 batches | lr 20.00 | ms/batch 45.20 | loss  7.63 | ppl  2063.45",
     (200, 2983, 1.0, 7.63, 0.0452, False)),
])  # fmt: skip
def test_a_batch_in_its_epoch_with_its_losses_or_its_time_per_batch(text: str, expected: tuple[Any, ...]) -> None:
    got = one(text)
    seconds = None if got.step_seconds is None else round(got.step_seconds, 6)
    assert (got.step, got.total_steps, got.epoch, got.loss, seconds, got.ends_at_total) == expected


def test_detectron2_s_total_loss_and_its_seconds_per_iteration() -> None:
    # Composed in detectron2's CommonMetricPrinter shape (its ``time`` is seconds per iteration, as mmengine's;
    # its ``eta`` the run's; ``total_loss`` the loss whose parts follow it).
    got = one("[03/16 21:22:52 d2.utils.events]:  eta: 0:14:36  iter: 19  total_loss: 2.053  loss_cls: 0.7523"
              "  loss_box_reg: 0.6532  time: 0.4385  data_time: 0.0195  lr: 4.9953e-06  max_mem: 2594M")
    assert (got.step, got.loss, got.step_seconds, got.trainer_eta_seconds, got.lr) == (
        19, 2.053, 0.4385, 14 * 60 + 36, 4.9953e-06)


def test_timm_s_position_is_its_epoch_s() -> None:
    # Composed in timm's train.py shape: ``Train: <epoch> [<batch>/<batches> (<pct>%)]``, its ``Time`` the batch's.
    got = one("Train: 3 [ 100/1251 (  8%)]  Loss: 6.890 (6.91)  Time: 0.334s, 3065.98/s  (0.352s, 2909.48/s)"
              "  LR: 1.000e-06  Data: 0.012 (0.020)")
    assert (got.step, got.total_steps, got.epoch, got.loss, got.step_seconds, got.ends_at_total) == (
        100, 1251, 3.0, 6.89, 0.334, False)


# RETURNN, four GPUs interleaved, verbatim (rwth-i6/returnn issue 1484, a comment by albertz): each rank
# names its device in the record; rank 0's lines are the run.
RETURNN = [
    "ep 272 train, step 176, ce 0.424, ctc_4 0.958, ctc_8 0.577, fer 0.088, mem_usage:cuda:2 7.3GB",
    "ep 272 train, step 177, ce 0.506, ctc_4 1.136, ctc_8 1.017, fer 0.106, mem_usage:cuda:2 7.3GB",
    "ep 272 train, step 177, ce 0.451, ctc_4 0.860, ctc_8 0.509, fer 0.081, mem_usage:cuda:3 7.4GB",
    "ep 272 train, step 177, ce 0.590, ctc_4 1.281, ctc_8 0.823, fer 0.118, mem_usage:cuda:1 7.4GB",
    "ep 272 train, step 177, ce 0.358, ctc_4 0.839, ctc_8 0.442, fer 0.062, mem_usage:cuda:0 7.4GB",
    "ep 272 train, step 178, ce 0.350, ctc_4 0.551, ctc_8 0.398, fer 0.055, mem_usage:cuda:0 7.4GB",
    "ep 272 train, step 178, ce 0.544, ctc_4 0.915, ctc_8 0.654, fer 0.094, mem_usage:cuda:2 7.3GB",
    "ep 272 train, step 178, ce 0.271, ctc_4 0.564, ctc_8 0.245, fer 0.039, mem_usage:cuda:3 7.4GB",
]


def test_ranks_interleaved_in_one_log_are_one_run_of_the_lowest_rank() -> None:
    # 176 and 177 from rank 2 (no rank 0 yet: the first rank seen is followed), rank 0's copy of 177 is
    # no second 177, then rank 0's 178; ranks 1 and 3, and rank 2 once rank 0 printed, add no step.
    assert [(s.step, s.loss, s.epoch) for s in steps(RETURNN)] == [(176, 0.424, 272), (177, 0.506, 272),
                                                                  (178, 0.350, 272)]


@pytest.mark.parametrize("prefix", ["rank {} | ", "worker {}: ", "Rank {}: "])
def test_a_rank_named_before_its_record_picks_the_run_s_lines(prefix: str) -> None:
    # Composed: ranks 0 and 1 print the same steps with their own losses; rank 0's are the run's.
    lines = [prefix.format(0) + "step 1, loss 2.0", prefix.format(1) + "step 1, loss 9.0",
             prefix.format(0) + "step 2, loss 1.5", prefix.format(1) + "step 2, loss 8.0"]
    assert [(s.step, s.loss) for s in steps(lines)] == [(1, 2.0), (2, 1.5)]


# DySPN's training table, verbatim (Kyakaka/DySPN issue 4, a comment by PatrickZoo): each row's finish
# time is ``%m.%d_%H:%M:%S``, the only time the log prints.
DYSPN_FIRST_ROWS = [
    "Epoch ,FinishTime     ,LR    ,RMSE_Train ,RMSE_Val",
    "    0 ,04.29_01:45:54 ,0.001 , 1434.0919 ,1103.956",
    "    1 ,04.29_02:22:17 ,0.001 ,  873.6441 , 921.05",
    "    2 ,04.29_07:19:17 ,0.001 ,  812.9779 ,888.2791",
]


def test_a_month_day_clock_printed_in_a_record_is_its_time() -> None:
    parser = GenericParser()
    parser.reference_time = 1_777_500_000.0  # 2026-04-29 22:00 UTC: the rows are that day's
    events = parser.feed(DYSPN_FIRST_ROWS)
    got = [s.at for s in events if isinstance(s, TrainStep)]
    # Tests run with TZ=UTC: 2026-04-29 01:45:54 UTC is 1777427154.
    assert got == [1_777_427_154.0, 1_777_427_154.0 + 36 * 60 + 23, 1_777_427_154.0 + 5 * 3600 + 33 * 60 + 23]
    assert [e.at for e in events if isinstance(e, Tick)] == [got[-1]]


def test_a_time_of_day_leading_a_record_is_its_time_near_the_log_s_own() -> None:
    # Composed: 2026-04-29 22:00 UTC is the reference (1777500000); 21:00:01 that day is 3599 s before it.
    parser = GenericParser()
    parser.reference_time = 1_777_500_000.0
    got = [e.at for e in parser.feed(["21:00:01 step 5, loss 2.1", "21:00:11 step 6, loss 2.0", "00:05:12 step 7, loss 1.9"])
           if isinstance(e, TrainStep)]
    # 00:05:12 would be 22 h before the reference: an elapsed clock, which dates nothing.
    assert got == [1_777_496_401.0, 1_777_496_411.0, None]


def test_another_rank_s_crash_is_the_run_s() -> None:
    from app.ingest.formats import create_parser
    from app.stats.events import RunCrashed

    # Composed: rank 0's steps are the run; rank 1's traceback still ends it.
    lines = ["rank 0 | step 1, loss 2.0", "rank 1 | step 1, loss 9.0", "rank 0 | step 2, loss 1.5",
             "rank 1 | Traceback (most recent call last):", 'rank 1 |   File "train.py", line 3, in <module>',
             "rank 1 |     loss.backward()", "rank 1 | RuntimeError: CUDA error: an illegal memory access was encountered"]
    events = create_parser("generic").feed(lines)
    assert [(e.step, e.loss) for e in events if isinstance(e, TrainStep)] == [(1, 2.0), (2, 1.5)]
    (crash,) = [e for e in events if isinstance(e, RunCrashed)]
    assert "illegal memory access" in crash.error


# --- record shapes the generic reader learned as classes (composed in each trainer's printed shape; the real
# excerpts they come from are in tests/data/real/ and tests/live/test_real_logs.py) --------------------------


def test_a_json_record_an_epoch_counts_its_whole_epochs_wherever_the_key_stands() -> None:
    # DeiT/timm/MAE ``log.txt``: ``{"train_lr": …, "train_loss": …, "epoch": N, …}``
    got = steps(['{"train_lr": 0.001, "train_loss": 2.50, "epoch": 3, "n_parameters": 5000}',
                 '{"train_lr": 0.001, "train_loss": 2.40, "test_loss": 1.9, "epoch": 4, "n_parameters": 5000}'])
    assert [(s.step, s.epoch, s.loss) for s in got] == [(3, 3.0, 2.5), (4, 4.0, 2.4)]
    # a fractional epoch is a share of one, no position; a whole number printed as a float may be one too
    assert steps(['{"train_loss": 2.50, "epoch": 0.25}', '{"train_loss": 2.40, "epoch": 1.0}']) == []


@pytest.mark.parametrize(("text", "seconds"), [
    ("Train | Epoch 3 | 10/100 | 2.5 it/sec | Loss 0.5000", 0.4),  # demucs' solver
    ("Train | Epoch 3 | 10/100 | 4 iters/s | Loss 0.5000", 0.25),
    ("Train | Epoch 3 | 10/100 | 2 steps/sec | Loss 0.5000", 0.5),
])  # fmt: skip
def test_iterations_a_second_in_any_spelling_are_the_step_s_rate(text: str, seconds: float) -> None:
    assert one(text).step_seconds == pytest.approx(seconds)


def test_an_epoch_s_summary_closes_the_epoch_whose_batches_were_counted() -> None:
    # (every 25 of 100, the last at 75: a line of that stride, at 100, was still to come)
    got = steps(["Train | Epoch 3 | 50/100 | Loss 0.5000", "Train | Epoch 3 | 75/100 | Loss 0.4000",
                 "Train Summary | Epoch 3 | Loss=0.4500", "Valid Summary | Epoch 3 | Loss=0.6000"])
    assert [(s.step, s.total_steps, s.epoch_steps, s.epoch, s.loss) for s in got] == [
        (50, 100, None, 3.0, 0.5), (75, 100, None, 3.0, 0.4), (100, None, 100, 3.0, None)]
    # another epoch's summary, or one with no batches counted, closes nothing
    assert [s.step for s in steps(["Train | Epoch 3 | 40/100 | Loss 0.5000", "Train Summary | Epoch 2 | Loss=0.4"])] == [40]


def test_an_epoch_s_summary_after_its_stride_s_last_line_leaves_the_position_as_printed() -> None:
    # every 40 of 100, the last at 80 (80 + 40 > 100): no line of that stride was left to come, the 20 batches after it
    # never printed; the summary closes the epoch where the log left it, 80/100, no step 100 made up
    got = steps(["Train | Epoch 3 | 40/100 | Loss 0.5000", "Train | Epoch 3 | 80/100 | Loss 0.4000",
                 "Train Summary | Epoch 3 | Loss=0.4500"])
    assert [(s.step, s.total_steps, s.loss) for s in got] == [(40, 100, 0.5), (80, 100, 0.4)]
    # the same in other words (``Step N/205`` every 20, then ``Epoch 1 completed in …``)
    got = steps(["Epoch 1 | Step 180/205 | Loss: 0.5200", "Epoch 1 | Step 200/205 | Loss: 0.5100",
                 "Epoch 1 completed in 95.20s | Avg Loss: 0.5300"])
    assert [(s.step, s.total_steps) for s in got] == [(180, 205), (200, 205)]
    # one line alone has no stride: the summary still closes its epoch at its total
    assert [s.step for s in steps(["Train | Epoch 3 | 80/100 | Loss 0.4000", "Train Summary | Epoch 3 | Loss=0.4500"])] == [
        80, 100]


# ultralytics' training table, as printed (the row's bar cut at the terminal's width in the second)
YOLO = ["      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
        "        1/3      2.05G      1.201      2.113      1.305         12        640: 100%|██████████| 50/50 [00:25<00:00,  2.00it/s]",
        "                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95): 100%|██████████| 4/4",
        "                   all         60         80      0.512      0.403      0.431      0.288",
        "",
        "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
        "        2/3      2.07G      1.102      1.903      1.255         15        640: 100%|█"]


def test_a_table_s_header_names_the_columns_of_the_rows_under_it() -> None:
    got = steps(YOLO)
    # epoch 1's bar: 50 of its 50 batches at 2 it/s; epoch 2's row (its bar cut): the epoch of 3 alone
    assert [(s.step, s.total_steps, s.epoch, s.step_seconds) for s in got] == [(50, None, 1.0, 0.5), (2, 3, 2.0, None)]
    # a header without a position column, or text after the table, reads nothing
    assert steps(["  Class  Images  Instances  mAP50", "    all      60         80  0.431"]) == []


def evaluations(lines: list[str]) -> list[tuple[str, float]]:
    return [(e.name, e.value) for e in GenericParser().feed(lines) if isinstance(e, EvalResult)]


def test_a_loss_printed_in_parts_keeps_each_part_and_a_class_table_s_all_row_is_the_evaluation() -> None:
    # the composed ultralytics table above: epoch 1's row prints three parts of its loss, none the model's one loss
    first = steps(YOLO)[0]
    assert (first.loss, first.figures) == (None, (("loss/box_loss", 1.201), ("loss/cls_loss", 2.113), ("loss/dfl_loss", 1.305),
                                                  ("memory/GPU_mem G", 2.05)))  # (its memory, as printed)
    # its validation: the ``all`` row under ``Box(P  R  mAP50  mAP50-95)``, Images and Instances are counts
    assert evaluations(YOLO) == [("precision", 0.512), ("recall", 0.403), ("mAP50", 0.431), ("mAP50-95", 0.288)]
    # one class's own row is no figure of the run's; a segmenting model's second group keeps its name
    seg = ["      Epoch    GPU_mem   box_loss   seg_loss   cls_loss   dfl_loss  Instances       Size",
           "        1/3      2.05G      1.201     0.9000      2.113      1.305         12        640: 100%|█| 5/5 [00:05<00:00,  1.00it/s]",
           "                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95)     Mask(P          R      mAP50  mAP50-95): 100%|█| 1/1",
           "                   all         60         80      0.512      0.403      0.431      0.288      0.500      0.400      0.420      0.250",
           "                   cat         60         40      0.600      0.500      0.550      0.350      0.590      0.480      0.530      0.300"]
    assert evaluations(seg)[3:6] == [("mAP50-95", 0.288), ("mask_precision", 0.5), ("mask_recall", 0.4)]
    assert len(evaluations(seg)) == 8
    assert steps(seg)[0].figures[1] == ("loss/seg_loss", 0.9)


# YOLOv5's older table (https://github.com/ultralytics/yolov5/issues/8401, its losses named by part alone and no
# total column) and YOLOv7's (https://github.com/WongKinYiu/yolov7/issues/849, with ``total``: the sum of the parts).
YOLOV5 = ["     Epoch   gpu_mem       box       obj       cls    labels  img_size",
          "   298/299        0G  0.008621  0.002274         0         9       640: 100%|██████████| 49/49 [01:17<00:00,  1.59s/it]",
          "               Class     Images     Labels          P          R     mAP@.5 mAP@.5:.95: 100%|██████████| 25/25 [00:19<00:00,  1.29it/s]",
          "                 all        245        258      0.986      0.961      0.988      0.793"]
YOLOV7 = ["     Epoch   gpu_mem       box       obj       cls     total    labels  img_size",
          "   33/4999     70.1G   0.05069   0.01035   0.03706    0.0981        14      1856: 100%|██████████| 295/295 [12:39<00:00,  2.57s/it]",
          "               Class      Images      Labels           P           R      mAP@.5  mAP@.5:.95: 100%|██████████| 50/50 [01:10<00:00,  1.42s/it]"]


def test_an_older_yolo_names_its_loss_parts_alone_and_its_map_by_iou() -> None:
    (got,) = steps(YOLOV5)
    assert (got.step, got.epoch, got.epoch_total, got.step_seconds, got.loss) == (49, 298.0, 299, 1.59, None)
    assert got.figures == (("loss/box_loss", 0.008621), ("loss/obj_loss", 0.002274), ("loss/cls_loss", 0.0))
    assert evaluations(YOLOV5) == [("precision", 0.986), ("recall", 0.961), ("mAP50", 0.988), ("mAP50-95", 0.793)]
    (v7,) = steps(YOLOV7)
    # ``total`` is the model's loss, the sum of its parts: 0.05069 + 0.01035 + 0.03706 = 0.0981
    assert (v7.loss, v7.figures) == (0.0981, (("loss/box_loss", 0.05069), ("loss/obj_loss", 0.01035), ("loss/cls_loss", 0.03706),
                                              ("memory/gpu_mem G", 70.1)))
    # a header of counts alone (no mAP) is no evaluation table
    assert evaluations(["  Class  Images  Instances  Size", "    all      60         80   640"]) == []


SB3 = ["-----------------------------------",
       "| rollout/           |            |",
       "|    ep_rew_mean     | -213       |",
       "| time/              |            |",
       "|    fps             | 8507       |",
       "|    iterations      | 17         |",
       "|    total_timesteps | 69632      |",
       "| train/             |            |",
       "|    learning_rate   | 0.001      |",
       "|    loss            | 0.0541     |",
       "-----------------------------------",
       "-----------------------------------",
       "| rollout/           |            |",
       "|    ep_rew_mean     | -200       |",
       "| time/              |            |",
       "|    iterations      | 18         |",
       "|    total_timesteps | 73728      |",
       "| train/             |            |",
       "|    loss            | 0.482      |",
       "-----------------------------------"]


def test_a_record_printed_one_figure_a_line_is_one_step() -> None:
    # stable-baselines3's table: ``learn(total_timesteps=…)`` measures the run in timesteps, its position; the count of
    # iterations (rollouts) is none, and ``fps`` (8507 timesteps a second) the rate: 1 / 8507 s a timestep
    got = steps(SB3)
    assert [(s.step, s.total_steps, s.loss, s.lr) for s in got] == [(69632, None, 0.0541, 0.001), (73728, None, 0.482, None)]
    assert got[0].step_seconds == pytest.approx(1 / 8507)
    assert dict(got[0].figures) == {"rate/fps": 8507.0, "reward": -213.0}
    # rsl_rl's block: ``Learning iteration N/M`` centred, then right-aligned figures; its steps are the environment's
    rsl = ["                        Learning iteration 4/100                        ", "",
           "                       Total steps: 2048 ", "                  Steps per second: 1581 ",
           "                   Mean value loss: 19.6685", "-" * 80]
    assert [(s.step, s.total_steps, s.step_seconds) for s in steps(rsl)] == [(4, 100, None)]
    # a table's tail without its position (the paste began inside it) is no step
    assert steps(SB3[7:11]) == []


def test_a_time_beside_its_running_mean_is_a_batch_s_seconds() -> None:
    # PyTorch's ImageNet example (AverageMeter): ``Time  0.312 ( 0.402)`` with no unit
    got = one("Epoch: [0][ 10/500]\tTime  0.312 ( 0.402)\tData  0.001 ( 0.079)\tLoss 6.9078e+00 (6.9100e+00)")
    assert (got.step, got.total_steps, got.step_seconds, got.loss) == (10, 500, 0.312, 6.9078)
    # alone, a bare time with no unit says nothing
    assert one("Epoch: [0][ 10/500]\tTime 0.312\tLoss 6.9078").step_seconds is None


def test_a_logging_hook_s_interval_time_is_its_steps_time() -> None:
    # TensorFlow's LoggingTensorHook: ``step = N (X sec)``, X the time since its last record
    got = steps(["INFO:tensorflow:loss = 2.0, step = 0", "INFO:tensorflow:loss = 1.5, step = 200 (50.0 sec)",
                 "INFO:tensorflow:loss = 1.4, step = 300 (30.0 sec)"])
    assert [(s.step, s.step_seconds) for s in got] == [(0, None), (200, 0.25), (300, 0.3)]


def test_a_record_led_by_its_step_in_brackets() -> None:
    # clu's metric writer behind absl's prefix
    got = steps([("I1002 21:38:13.425730 139917864867392 logging_writer.py:35] [100] steps_per_second=4.0, "
                 "train_learning_rate=0.1, train_loss=2.5")])
    assert [(s.step, s.loss, s.lr, s.step_seconds) for s in got] == [(100, 2.5, 0.1, 0.25)]
    assert steps(["[100] hello world"]) == []


def test_an_epoch_s_header_gives_its_steps_the_run_s_epochs() -> None:
    # bot-mmorpg-ai issue 76's shape: ``==== EPOCH 8/10 ====`` then ``[Epoch 8] Batch 10/126 | loss=…``
    got = steps(["============================== EPOCH 8/10 ==============================",
                 "[Epoch 8] Batch 10/126 | loss=0.0483", "[Epoch 8] Batch 20/126 | loss=0.0166"])
    assert [(s.step, s.total_steps, s.epoch, s.epoch_total) for s in got] == [(10, 126, 8.0, 10), (20, 126, 8.0, 10)]
    # another epoch's header says nothing of this one's
    assert [s.epoch_total for s in steps(["==== EPOCH 7/10 ====", "[Epoch 8] Batch 10/126 | loss=0.0483"])] == [None]


def test_a_unit_in_parentheses_after_the_value() -> None:
    # FastMaskRCNN's ``time:1.722(sec)`` (issue 172); on the third such line it is the step's time
    lines = [f"iter {n}: image-id:0254212, time:{t}(sec), regular_loss: 0.248765, total-loss 0.5882(0.0360)"
             for n, t in ((142, 1.702), (143, 1.69), (144, 1.722))]
    assert [(s.step, s.step_seconds, s.loss) for s in steps(lines)] == [(142, None, 0.5882), (143, 1.69, 0.5882),
                                                                       (144, 1.722, 0.5882)]


def test_a_box_table_of_figures_by_split_gives_the_evaluation_s_figures() -> None:
    # Ludwig's (tabulate's fancy grid), composed in its shape: a header of names, a row per data split
    table = ["╒════════════╤════════╤═══════════╕", "│ Survived   │   loss │   roc_auc │",
             "╞════════════╪════════╪═══════════╡", "│ train      │ 0.4524 │    0.8530 │",
             "├────────────┼────────┼───────────┤", "│ vali       │ 0.4184 │    0.8406 │",
             "├────────────┼────────┼───────────┤", "│ test       │ 0.4240 │    0.8660 │",
             "╘════════════╧════════╧═══════════╛"]
    events = GenericParser().feed(table)
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        ("vali_loss", 0.4184, None), ("vali_roc_auc", 0.8406, None), ("test_loss", 0.424, None),
        ("test_roc_auc", 0.866, None)]  # (each split's score beside its loss, by its name)
    assert not any(isinstance(e, TrainStep) for e in events)  # the train split's row is no step


def test_a_box_table_s_train_row_after_a_step_is_that_step_s_loss() -> None:
    # composed in Ludwig's shape: an epoch's training bar, then its table; the header's ``loss`` column (not ``error``,
    # 0.1 before it in the row, nor the first figure) is the train row's loss: 0.9779, said for the step read (22/22)
    table = ["Epoch  6", "Training: 100%|██████████| 22/22 [00:01<00:00, 16.29it/s]",
             "╒═══════╤═════════╤════════╤════════╕", "│ y     │   error │   loss │     r2 │",
             "╞═══════╪═════════╪════════╪════════╡", "│ train │ -0.1000 │ 0.9779 │ 1.0000 │",
             "├───────┼─────────┼────────┼────────┤", "│ vali  │ -0.1726 │ 1.3901 │ 1.0000 │",
             "╘═══════╧═════════╧════════╧════════╛"]
    events = GenericParser().feed(table)
    assert [(s.step, s.loss) for s in events if isinstance(s, TrainStep)] == [(22, None)]
    assert [(f.loss, f.loss_note) for f in events if isinstance(f, StepFigures)] == [
        (0.9779, "the train row of its epoch's table")]
    assert sorted((e.name, e.value) for e in events if isinstance(e, EvalResult)) == [
        ("vali_error", -0.1726), ("vali_loss", 1.3901), ("vali_r2", 1.0)]  # the train row's error and r2: no evaluation's
    # a header with no ``loss`` column gives the train row no loss
    unnamed = [line.replace("  loss", "score") if "loss" in line else line for line in table]
    assert not any(isinstance(f, StepFigures) and f.loss is not None for f in GenericParser().feed(unnamed))


def test_a_table_of_iterations_closed_by_its_bottom_rule_is_the_training_s_end() -> None:
    # composed in Turi Create's shape: rules over and under the header, rows that run unruled, the closing rule
    rule, head = "+-----------+--------------+--------------+", "| Iteration | Loss         | Elapsed Time |"
    rows = [f"| {n:<9} | {5 - n / 10:<12} | {n}.0{'':<10} |" for n in range(1, 5)]
    events = GenericParser().feed([rule, head, rule, *rows, rule])
    assert [e.step for e in events if isinstance(e, TrainStep)] == [1, 2, 3, 4]
    ends = [e for e in events if isinstance(e, StageEnd)]
    assert len(ends) == 1 and ends[0].said  # (said: a step after it would say it was not the end)
    # cut before the closing rule: no end
    assert not any(isinstance(e, StageEnd) for e in GenericParser().feed([rule, head, rule, *rows]))
    # a table ruled between every row (Turi Create's drawing classifier, apple/turicreate issue 1931): a rule under one
    # row is that row's border, never the end
    ruled = [rule, head, rule, *[line for row in rows for line in (row, rule)]]
    assert not any(isinstance(e, StageEnd) for e in GenericParser().feed(ruled))
    # a closed table whose rows are no steps (a data set's ``Images Processed`` count) ends nothing
    counted = ["+------------------+--------------+", "| Images Processed | Elapsed Time |",
               "+------------------+--------------+", "| 1                | 7.64s        |", "| 17               | 8.48s        |",
               "+------------------+--------------+"]
    assert not any(isinstance(e, StageEnd) for e in GenericParser().feed(counted))


def test_fastai_s_table_an_epoch_a_row_its_time_the_epoch_s() -> None:
    # timeseriesAI/tsai issue 639 (qixing0375, 2022-12-08), fastai's table pasted with tabs, as printed; its rows count
    # from 0 (fastai's Recorder writes its loop's ``self.epoch`` as each epoch ends): rows 0 and 1 are epochs 1 and 2 done
    tabs = ["epoch\ttrain_loss\tvalid_loss\taccuracy\ttime", "0\tnan\tnan\t0.958595\t00:03", "1\tnan\tnan\t0.958595\t00:03"]
    got = steps(tabs)
    assert [(s.step, s.epoch, s.step_seconds) for s in got] == [(1, 1.0, 3.0), (2, 2.0, 3.0)]
    assert all(s.loss is not None and math.isnan(s.loss) for s in got)
    # the same table as a terminal prints it, padded with spaces (composed in fastai's shape)
    spaced = ["epoch     train_loss  valid_loss  error_rate  time    ", "0         1.231517    0.345321    0.102041    00:21     ",
              "1         0.617003    0.256213    0.080311    00:20     "]
    assert [(s.step, s.loss, s.step_seconds) for s in steps(spaced)] == [(1, 1.231517, 21.0), (2, 0.617003, 20.0)]


def test_fastai_s_metrics_are_its_validation_s_and_each_fit_counts_its_own_epochs() -> None:
    # composed in fastai's ``fine_tune(2)`` shape: one frozen epoch, then a table of its own for the two unfrozen ones
    # (each ``fit`` prints its header again, its rows from 0 again); the error rate is the validation set's
    table = ["epoch     train_loss  valid_loss  error_rate  time    ", "0         0.500000    0.400000    0.150000    00:21     ",
             "epoch     train_loss  valid_loss  error_rate  time    ", "0         0.300000    0.250000    0.100000    00:20     ",
             "1         0.200000    0.220000    0.080000    00:19     "]
    events = GenericParser().feed(table)
    assert [(e.step, e.loss, e.step_seconds) for e in events if isinstance(e, TrainStep)] == [
        (1, 0.5, 21.0), (1, 0.3, 20.0), (2, 0.2, 19.0)]
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        ("val_loss", 0.4, 1), ("valid_error_rate", 0.15, 1), ("val_loss", 0.25, 1), ("valid_error_rate", 0.1, 1),
        ("val_loss", 0.22, 2), ("valid_error_rate", 0.08, 2)]


def test_an_epoch_column_counting_from_1_is_read_as_printed() -> None:
    # n-waves/multifit ``results/logs/ja.md``: an early fastai v1 printed its rows from 1, with no time column
    table = ["epoch     train_loss  valid_loss  accuracy", "1         3.211025    3.328014    0.396197",
             "2         3.119410    3.286294    0.395946"]
    assert [(s.step, s.epoch, s.loss) for s in steps(table)] == [(1, 1.0, 3.211025), (2, 2.0, 3.119410)]


def test_yolov5_s_table_with_its_validation_line_between_header_and_row() -> None:
    # WongKinYiu/yolov7 issue 849 (Roland-Pfeiffer, 2022-09-26), as printed: the header names no loss (``box``,
    # ``obj``, ``cls``), the last validation's ``all`` line comes between it and the epoch's row
    lines = ["     Epoch   gpu_mem       box       obj       cls     total    labels  img_size",
             "                 all         787        2054       0.736      0.0185     0.00493     0.00334",
             ("   32/4999     55.1G   0.05461   0.01017   0.03715    0.1019        26      1856: 100%|██████████| "
             "295/295 [12:51<00:00,  2.62s/it]")]
    got = steps(lines)
    assert [(s.step, s.epoch, s.epoch_total, s.step_seconds) for s in got] == [(295, 32.0, 4999, 2.62)]


def _keras_bar(n: int, total: int, loss: float) -> str:
    done = 30 * n // total
    return f"{n:>{len(str(total))}}/{total} [{'=' * max(done - 1, 0)}{'>' if done < 30 else '='}{'.' * (30 - done)}] - ETA: 9s - loss: {loss:.4f}"


def test_keras_bars_redrawn_with_backspaces_read_as_redraws() -> None:
    # Keras' interactive Progbar backspaces over its last bar (``\b`` × the bar's width) before drawing the next
    width = len(_keras_bar(10, 100, 2.3))
    line = ("\b" * width).join([_keras_bar(10, 100, 2.3), _keras_bar(20, 100, 2.2)]) + "\b" * width + (
        "100/100 [==============================] - 10s 100ms/step - loss: 2.0000 - val_loss: 2.1000")
    got = steps(["Epoch 1/5", line, "Epoch 2/5", _keras_bar(50, 100, 1.9)])
    assert [(s.step, s.epoch, s.loss) for s in got] == [(10, 1.0, 2.3), (20, 1.0, 2.2), (100, 1.0, 2.0), (50, 2.0, 1.9)]
    # a whole epoch of redraws on one line, longer than a line is kept: its newest redraws are read
    long_line = ("\b" * 62).join(_keras_bar(n, 5000, 3 - n / 5000) for n in range(1, 5001))
    last = steps(["Epoch 1/3", long_line])[-1]
    assert (last.step, last.epoch_steps, last.loss) == (5000, 5000, 2.0)  # (a full epoch's bar: no run's total)


def test_a_step_counted_to_a_total_after_the_run_s_epochs_counts_its_epoch() -> None:
    # yunjey/pytorch-tutorial (tutorials/01-basics/feedforward_neural_network/main.py) prints
    # ``'Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'.format(epoch+1, num_epochs, i+1, total_step, …)`` with
    # ``total_step = len(train_loader)``: 600 is an epoch's batches, composed in that shape
    got = steps(["Epoch [1/5], Step [500/600], Loss: 0.2574", "Epoch [1/5], Step [600/600], Loss: 0.1928",
                 "Epoch [2/5], Step [100/600], Loss: 0.1755"])
    assert [(s.step, s.total_steps, s.epoch, s.epoch_total, s.ends_at_total) for s in got] == [
        (500, 600, 1.0, 5, False), (600, None, 1.0, 5, False), (100, 600, 2.0, 5, False)]
    # a count with no total of its own, or before the epochs, stays the run's (torch-rnn issue 229's
    # ``Epoch 43.28 / 50, i = 822990 / 973300``: ``i`` is the run's iteration)
    assert [(s.step, s.total_steps, s.ends_at_total) for s in steps(["step 300/1000 | epoch 1/5 | loss 2.0"])] == [
        (300, 1000, True)]


def test_pytorch_s_cifar_tutorial_pair_is_its_epoch_and_mini_batch() -> None:
    # the PyTorch CIFAR-10 tutorial prints ``'[%d, %5d] loss: %.3f' % (epoch + 1, i + 1, running_loss / 2000)``
    got = steps(["[1,  2000] loss: 2.187", "[1,  4000] loss: 1.852", "[2,  2000] loss: 1.563"])
    assert [(s.step, s.epoch, s.loss, s.ends_at_total) for s in got] == [
        (2000, 1.0, 2.187, False), (4000, 1.0, 1.852, False), (2000, 2.0, 1.563, False)]


XGB = "generic-xgboost-issue3366-train-valid-logloss-every-10-stopping-best-iteration.log"


@pytest.mark.parametrize(("name", "expected"), [
    # XGBoost, tabs: the training set's loss (its name kept), the other set's metric that round's evaluation
    (XGB, (320, 0.241036, "train-logloss", {"valid_logloss": 0.392591})),
    # the scikit-learn wrapper's eval set alone, tabs pasted as spaces: no training loss
    ("generic-xgboost-issue1288-sklearn-validation-0-rmse-spaces-stopping-best-31.log",
     (41, None, None, {"validation_0_rmse": 4.680334})),
    # xgb.cv: the mean over the folds, its ``+`` spread no figure
    ("generic-xgboost-issue807-xgb-cv-mean-plus-std-every-5.log", (2150, 0.528952, "train-logloss",
                                                                   {"test_logloss": 0.529977})),
    # LightGBM's Python and R packages: ``set's metric: value``, ``[N]:``
    ("generic-lightgbm-ashrae-pr63-train-loss-eval-rmse-every-25-running.log",
     (525, 0.712426, "train_loss's rmse", {"eval_rmse": 0.967885})),
    ("generic-lightgbm-issue3145-r-package-round-colon-l2-every-round.log",
     (30, 0.0850142, "train's l2", {"valid_l2": 0.0935492})),
])  # fmt: skip
def test_a_boosting_round_is_a_step_with_its_data_sets_metrics(name: str, expected: tuple[Any, ...]) -> None:
    events = GenericParser().feed(_body(name))
    got = [e for e in events if isinstance(e, TrainStep)]
    last = got[-1]
    evals = {e.name: e.value for e in events if isinstance(e, EvalResult) and e.step == last.step}
    assert (last.step, last.loss, last.loss_note, evals) == expected
    assert all(s.total_steps is None and s.step_seconds is None for s in got)  # no total, no time printed
    assert [a.step < b.step for a, b in pairwise(got)] == [True] * (len(got) - 1)  # the best round's repeat: no step


def test_a_boosting_round_s_loss_is_only_the_training_set_s_error() -> None:
    # composed in XGBoost's words: a score (``auc``) is no loss, nor is another set's error; a metric gone
    # wrong is still read; a round line with a field that is no data set's metric is another record
    got = steps(["[0]\ttrain-auc:0.71\teval-auc:0.69", "[1]\teval-rmse:0.5\ttrain-rmse:0.4\ttrain-mae:0.3",
                 "[2]\ttrain-rmse:nan\teval-rmse:nan", "[3]\ttrain-rmse:0.39 seconds"])
    assert [(s.step, s.loss, s.loss_note) for s in got[:2]] == [(0, None, None), (1, 0.4, "train-rmse")]
    assert got[2].step == 2 and got[2].loss is not None and math.isnan(got[2].loss)
    assert len(got) == 3
    # the best round's line after the end words is a repeat, and only that one line
    after = steps(["[9]\ttrain-rmse:0.3", "Stopping. Best iteration:", "[7]\ttrain-rmse:0.31", "[8]\ttrain-rmse:0.2"])
    assert [s.step for s in after] == [9, 8]


def test_an_epoch_record_led_by_its_stage_word_counts_its_epochs() -> None:
    # composed in CLTR's shape (``Training Epoch:[844/1500]\t loss=…``): one line an epoch, its epoch the position
    got = steps(["Training Epoch:[3/10]\t loss=2.5\t lr=0.1", "Train Epoch 4/10 loss=2.25 lr=0.1"])
    assert [(s.step, s.total_steps, s.loss) for s in got] == [(3, 10, 2.5), (4, 10, 2.25)]
    # (PyTorch's MNIST example keeps its position in the epoch's samples)
    (mnist,) = steps(["Train Epoch: 1 [6400/60000 (11%)]\tLoss: 0.290000"])
    assert (mnist.step, mnist.total_steps, mnist.epoch) == (6400, 60000, 1.0)


def test_an_rsl_rl_iteration_is_timed_by_its_collection_and_learning() -> None:
    # composed in rsl_rl's older wording: 0.5 s collecting + 0.25 s learning = 0.75 s an iteration; its
    # ``Mean surrogate loss`` (PPO's policy loss) the loss, its value loss another figure
    block = ["#" * 80, " " * 20 + "Learning iteration 7/100", "",
             " " * 10 + "Computation: 9000 steps/s (collection: 0.500s, learning 0.250s)",
             " " * 10 + "Value function loss: 12.5000", " " * 13 + "Surrogate loss: -0.0100", "-" * 80]
    (got,) = steps(block)
    assert (got.step, got.total_steps, got.step_seconds, got.loss) == (7, 100, 0.75, -0.01)


def test_an_evaluation_s_mean_loss_named_with_what_it_was_taken_over() -> None:
    # composed in ST-GCN's processor's words: the mean test loss over the test batches is the evaluation's loss (the
    # count of batches no figure); a training mean so named is not an evaluation
    step = "[ Mon Jan  1 10:00:00 2024 ] \tBatch(100/200) done. Loss: 2.5000  lr:0.100000"
    assert evaluations([step, "[ Mon Jan  1 10:05:00 2024 ] \tMean test loss of 40 batches: 1.75."]) == [("test_loss", 1.75)]
    assert evaluations([step, "Mean training loss of 200 batches: 2.25."]) == []


def test_a_full_validation_bar_s_loss_is_the_evaluation_s() -> None:
    # composed in DMRGCN's shape: a training bar, then the validation's own bar with its loss in its description; only
    # the full bar's is its result (a bar part way is the running loss of the batches so far)
    train = "Train Epoch: 3 Loss: 0.4125: 100%|██████████| 200/200 [00:10<00:00, 20.00it/s]"
    part = "Valid Epoch: 3 Loss: 0.9000: 50%|█████     | 25/50 [00:01<00:01, 25.00it/s]"
    full = "Valid Epoch: 3 Loss: 0.7500: 100%|██████████| 50/50 [00:02<00:00, 25.00it/s]"
    assert evaluations([train, part]) == []
    assert evaluations([train, part, full]) == [("val_loss", 0.75)]
    assert [s.loss for s in steps([train, part, full])] == [0.4125]


# An epoch's summary drawn as a tree, composed in super-gradients' shape (a stage a branch, each figure's history
# under it): only the validation stage's own figures are the evaluation's
TREE = ["Train epoch 2: 100%|██████████| 40/40 [00:20<00:00,  2.00it/s, YoloLoss/loss=1.5, gpu_mem=4.1]",
        "SUMMARY OF EPOCH 2",
        "├── Training",
        "│   ├── Yololoss/loss = 1.4875",
        "│   │   ├── Best until now = 1.4875 (↘ -0.1)",
        "│   │   └── Epoch N-1      = 1.5875 (↘ -0.1)",
        "└── Validation",
        "    ├── Map@0.50 = 0.4125",
        "    │   ├── Best until now = 0.5 (↘ -0.0875)",
        "    │   └── Epoch N-1      = 0.375 (↗ 0.0375)",
        "    └── Yololoss/loss = 2.25",
        "        └── Best until now = 2.0 (↗ 0.25)",
        ""]


def test_an_epoch_summary_tree_s_validation_figures_are_the_evaluation() -> None:
    assert evaluations(TREE) == [("mAP@0.50", 0.4125), ("yololoss_loss", 2.25)]
    # the training stage's figure and every figure's history are not read; the step is the bar's
    assert [(s.step, s.epoch, s.loss) for s in steps(TREE)] == [(40, 2.0, 1.5)]


def test_a_row_s_bar_cut_after_its_clock_gives_its_count_and_its_clock_over_it() -> None:
    # composed: ultralytics' row whose bar the terminal's width cut inside its rate (``6.``): 800 batches in 2:00 (the
    # ``<`` after it shows the clock whole), 120 s / 800 = 0.15 s a batch; one cut inside its clock gives no time
    header = "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size"
    row = "      4/50      1.50G      0.612      0.301      0.812         28        640: 100%|██████████| 800/800 [02:00<00:00,  6."
    (got,) = steps([header, row])
    assert (got.step, got.epoch, got.epoch_total, got.step_seconds, got.elapsed_seconds) == (800, 4.0, 50, 0.15, 120.0)
    (cut,) = steps([header, row.split("[")[0] + "[02:0"])
    assert (cut.step, cut.epoch, cut.step_seconds) == (4, 4.0, None)


def test_ultralytics_bar_without_brackets_gives_its_count_and_rate() -> None:
    # composed in ultralytics' 8.3 shape: the row under its header, then its own bar (no tqdm brackets)
    header = "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size"
    row = "      2/10      3.87G       3.62      5.677       4.18        251        640: 100% ━━━━━━━━━━━━ 50/50 2.5it/s 20.0s"
    (got,) = steps([header, row])
    assert (got.step, got.epoch, got.epoch_total, got.step_seconds, got.elapsed_seconds) == (50, 2.0, 10, 0.4, 20.0)


def test_figures_one_a_line_after_a_tab_are_one_record_from_its_position() -> None:
    # composed in deeprm's shape: a block from its ``Iteration`` line, its ``+-`` spread dropped, closed by a rule
    block = ["Iteration: \t 4", "Loss:     \t 0.25", "MeanRew: \t -250.5 +- 60.1", "Elapsed time\t 50.0 seconds",
             "-----------------", "Iteration: \t 5", "Loss:     \t 0.20", "Elapsed time\t 40.0 seconds", "-" * 17]
    got = steps(block)
    # 50 then 40: an elapsed time that falls is each iteration's own, not the run's clock
    assert [(s.step, s.loss, s.elapsed_seconds, s.step_seconds) for s in got] == [
        (4, 0.25, 50.0, None), (5, 0.2, None, 40.0)]
    # a tab-separated pair with no position before it is no record
    assert steps(["Loss:\t 0.3", "Elapsed time\t 5 seconds"]) == []


def test_a_clock_started_again_is_still_a_clock() -> None:
    # composed: a resume restarts the run's clock (9000 s, then 120 s): it falls, from far higher, and grows again
    got = steps(["step 100 | loss 2.0 | elapsed 9000s", "step 110 | loss 1.9 | elapsed 120s",
                 "step 120 | loss 1.8 | elapsed 240s"])
    assert [(s.elapsed_seconds, s.step_seconds) for s in got] == [(9000.0, None), (120.0, None), (240.0, None)]


def test_stable_baselines_v2_table_led_by_a_space_is_one_record() -> None:
    # composed in stable-baselines v2's shape (pasted: a space before each line, columns out of line)
    table = [" " + "-" * 30, " | fps            | 142       |", " | nupdates  | 10    |",
             " | policy_loss          | -0.5  |", " | total_timesteps | 1280  |", " " + "-" * 30]
    # (its timesteps the position, its updates none; its policy's loss with no value loss beside it read as before)
    assert [(s.step, s.loss) for s in steps(table)] == [(1280, -0.5)]


def test_a_table_whose_header_a_rule_of_dash_runs_underlines() -> None:
    # spaCy's table (explosion/spaCy issue 7083, tests/data/real): names with spaces, cut by the rule's runs
    events = GenericParser().feed(_body("generic-spacy-issue7083-ner-table-tok2vec-ner-losses-every-200.log"))
    got = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.epoch, s.loss) for s in got] == [(n, 0.0, None) for n in range(0, 1001, 200)]
    evals = {e.name: e.value for e in events if isinstance(e, EvalResult) and e.step == 1000}
    assert evals == {"ents_f": 93.06, "ents_p": 92.75, "ents_r": 93.38, "score": 0.93}
    # its two loss columns each a part's under the name printed (``0    1000    25.08   1343.08 …``), none the loss
    assert dict(got[-1].figures) == {"loss/LOSS TOK2VEC": 25.08, "loss/LOSS NER": 1343.08}
    # composed: one pipe, one loss column: that is the loss, named as printed; a line of another kind ends the table
    table = ["E    #       LOSS TEXTCAT  CATS_SCORE  SCORE ", "---  ------  ------------  ----------  ------",
             "  1     400          3.25       71.20    0.71", "✔ Saved pipeline to output directory", "  2     600  1.0  2.0  3.0"]
    (row,) = steps(table)
    assert (row.step, row.epoch, row.loss, row.loss_note) == (400, 1.0, 3.25, "LOSS TEXTCAT")
    # a line of dashes with words after it, or a rule under a header that names no step, is no table
    assert steps(["Solver summary", "--- Epoch 3 ---", "name  value  other", "----  -----  -----", "1  2  3"]) == []


def test_an_epoch_said_on_its_own_line_stays_the_data_s_epoch_over_a_bar_of_the_run_s_steps() -> None:
    # kohya_ss (https://github.com/bmaltais/kohya_ss/issues/3433): ``epoch is incremented. current_epoch: 4, epoch: 5``,
    # then its bar of all the run's steps (``steps:  36%|…| 10427/28944``): epoch 5, the count still the run's
    got = steps(["epoch is incremented. current_epoch: 4, epoch: 5",
                 "steps:  36%|███▌      | 10427/28944 [3:11:30<5:40:05,  1.10s/it, avr_loss=0.0817]"])
    assert [(s.step, s.total_steps, s.epoch, s.ends_at_total) for s in got] == [(10427, 28944, 5.0, True)]
    # IRN (https://github.com/jiwoon-ahn/irn/issues/13): ``Epoch 5/5`` above its steps of the run's 3305: epoch 5 of 5
    (irn,) = steps(["Epoch 5/5", "step: 2700/ 3305 loss:0.3569 0.3068 2.8103 0.1992 imps:18.2 lr: 0.0217"])
    assert (irn.step, irn.total_steps, irn.epoch, irn.epoch_total, irn.ends_at_total) == (2700, 3305, 5.0, 5, True)
    # kohya-ss/sd-scripts (https://github.com/kohya-ss/sd-scripts/issues/2137): its ``epoch 5/80`` header, then the
    # same epoch said again without the run's 80 (``epoch is incremented``): epoch 5 of 80 stays
    (sd,) = steps(["epoch 5/80", "",
                   ("2025-06-29 11:59:59 INFO     epoch is incremented. current_epoch: 4, epoch: 5"
                    "                          train_util.py:779"),
                   ("steps:   6%|███▌                                                    | 205/3280 [04:07<1:01:47,"
                    "  1.21s/it, avr_loss=nan]")])
    assert (sd.step, sd.total_steps, sd.epoch, sd.epoch_total) == (205, 3280, 5.0, 80)
    # another epoch said without a total forgets the old one's (epoch 6 of 80 is not said by ``epoch: 6``)
    (other,) = steps(["epoch 5/80", "epoch is incremented. current_epoch: 5, epoch: 6",
                      "steps:   6%|███▌      | 206/3280 [04:08<1:01:47,  1.21s/it, avr_loss=nan]"])
    assert (other.epoch, other.epoch_total) == (6.0, None)


# char-rnn (https://github.com/karpathy/char-rnn/issues/215) and its TensorFlow port
# (https://github.com/sherjilozair/char-rnn-tensorflow/issues/138): a record led by its position alone.
CHAR_RNN = ["170/9500 (epoch 0.895), train_loss = 2.84438551, grad/param norm = 1.3375e-01, time/batch = 0.1679s\t",
            "168/446 (epoch 0), train_loss = 2.304, time/batch = 0.160"]


def test_a_record_led_by_its_position_alone_is_a_step() -> None:
    lua, tf = (one(text) for text in CHAR_RNN)
    assert (lua.step, lua.total_steps, lua.epoch, lua.loss, lua.step_seconds) == (170, 9500, 0.895, 2.84438551, 0.1679)
    # the port prints ``time/batch`` with no unit: its template formats ``time.time()`` differences, seconds
    assert (tf.step, tf.total_steps, tf.epoch, tf.loss, tf.step_seconds) == (168, 446, 0.0, 2.304, 0.16)
    # a Keras bar's count before its drawn bar is no such record
    assert one("100/1000 [==>...........................] - ETA: 1:23 - loss: 2.3000").step == 100
    assert steps(["3/10, which is to say", "12/05 (Tuesday), the run"]) == []


def test_a_global_count_beside_an_epoch_of_a_total_is_the_run_s() -> None:
    # CPM-2's finetuning (https://github.com/TsinghuaAI/CPM-2-Finetune/issues/11): 3402 is the whole run's iterations
    got = one("epoch   0/ 10 | global iteration       20/    3402 | learning rate 3e-06 | lm loss 7.72363 | loss scale 512.0 |")
    assert (got.step, got.total_steps, got.epoch, got.epoch_total, got.ends_at_total) == (20, 3402, 0.0, 10, True)
    # without ``global``, a step counted to a total after the run's epochs counted to theirs is the epoch's
    assert not one("Epoch [1/5], Step [100/600], Loss: 0.2217").ends_at_total


def test_a_record_led_by_its_stage_epoch_and_position_is_that_epoch_s_batch() -> None:
    # pytracking (https://github.com/visionml/pytracking/issues/359): a training stage's record with its test figures
    text = ("[train: 35, 50 / 1000] FPS: 4.0 (7.9)  ,  Loss/total: 3.41968  ,  Loss/segm: 1.38611  ,  "
            "Stats/acc: 0.81421  ,  ClfTrain/test_loss: 0.00287")
    got = one(text)
    assert (got.step, got.total_steps, got.epoch, got.loss, got.ends_at_total) == (50, 1000, 35.0, 3.41968, False)
    assert ("samples_per_second", 4.0) in got.figures  # its ``FPS: 4.0 (7.9)``: the mean, then the last batch's
    # a validation stage's record is an evaluation's, no step
    assert steps(["[val: 35, 10 / 100] FPS: 9.0 (9.1)  ,  Loss/total: 3.5  ,  ClfTrain/test_loss: 0.003"]) == []


# BasicSR's ESRGAN (https://github.com/XPixelGroup/BasicSR/issues/204) and SPSR (its fork's logger, seen in a pasted
# training log): ``yy-mm-dd`` dated records of losses named ``l_<part>``.
BASICSR = [("19-08-09 08:25:25.996 - INFO: <epoch: 86, iter: 107,200, lr:2.500e-05> l_g_pix: 1.4819e-03 l_g_fea: 1.0389e+00 "
           "l_g_gan: 7.2056e-02 l_d_real: 1.4378e-05 l_d_fake: 4.0903e-06 D_real: -2.5625e+01 D_fake: -4.0036e+01 "),
           ("19-08-09 08:27:27.746 - INFO: <epoch: 87, iter: 107,400, lr:2.500e-05> l_g_pix: 1.5971e-03 l_g_fea: 9.9606e-01 "
           "l_g_gan: 9.4154e-02 l_d_real: 1.4901e-08 l_d_fake: 7.4506e-09 D_real: -2.6405e+01 D_fake: -4.5235e+01 ")]


def test_losses_named_for_their_part_in_a_two_digit_year_dated_record() -> None:
    first, second = steps(BASICSR)
    assert (second.step, second.epoch, second.lr, second.loss) == (107400, 87.0, 2.5e-05, None)
    assert second.figures == (("loss/l_g_pix", 1.5971e-03), ("loss/l_g_fea", 9.9606e-01), ("loss/l_g_gan", 9.4154e-02),
                              ("loss/l_d_real", 1.4901e-08), ("loss/l_d_fake", 7.4506e-09))
    # 2019-08-09 08:25:25.996 then 08:27:27.746 (UTC in the tests): 121.75 s between them
    assert first.at is not None and second.at is not None and round(second.at - first.at, 3) == 121.75
    # one such loss alone is the loss, named
    (one_loss,) = steps(["21-05-24 02:11:29.657 - INFO: <epoch: 30, iter:   2,800, lr:1.000e-04> l_pix: 3.2022e-03"])
    assert (one_loss.step, one_loss.loss, one_loss.loss_note) == (2800, 3.2022e-03, "l_pix")


@pytest.mark.parametrize(("text", "step", "epoch", "loss"), [
    # DiT-style prints (composed after them): the counter glued to its number is the counter and its number
    ("epoch 0 iteration1300, Loss: 2.7143430709838867, Train Steps/Sec: 0.00", 1300, 0.0, 2.7143430709838867),
    ("epoch3 iter200, loss=0.51", 200, 3.0, 0.51),
    ("Step1300: loss 2.0", 1300, None, 2.0),
])  # fmt: skip
def test_a_counter_glued_to_its_number_is_that_counter(text: str, step: int, epoch: float | None, loss: float) -> None:
    readings = {r.field: r.value for r in pairs(text)}
    assert (readings[Field.STEP], readings.get(Field.EPOCH), readings[Field.LOSS]) == (step, epoch, loss)


@pytest.mark.parametrize("text", [
    "global_step1000, loss: 2.0",  # a name's tail, not a counter
    "saved ckpt/step1000 loss: 2.0",  # a path's
    "saved model-step1000 loss: 2.0",
    "loading epoch3.pth, loss: 2.0",  # a file's
    "stepsize12, loss: 2.0",  # another word
])  # fmt: skip
def test_a_glued_counter_is_never_read_inside_a_name_or_a_path(text: str) -> None:
    assert Field.STEP not in {r.field for r in pairs(text)}
    assert Field.EPOCH not in {r.field for r in pairs(text)}


def test_batch_lines_after_an_epoch_s_summary_are_the_next_epoch_s() -> None:
    """``Epoch [6/10], Loss: 0.97`` sums up epoch 6 (no step of its own): the batches before it were epoch 6's, those after it
    epoch 7's; a batch counted beside the batch's own loss (in any words around them) is a position in its epoch."""
    got = [(s.step, s.epoch, s.epoch_total, s.loss) for s in steps([
        "Batch 个数 250, 当前Batch Loss: 0.85",  # composed after a course's loop ("batch number", "this batch's loss")
        "Epoch [6/10], Loss: 0.9700",
        "Batch 个数 0, 当前Batch Loss: 1.09",
        "Batch 300, Batch Loss: 0.70",
    ])]
    assert got == [(250, 6.0, 10, 0.85), (0, 7.0, 10, 1.09), (300, 7.0, 10, 0.70)]


def test_the_last_epoch_s_summary_names_no_epoch_after_it() -> None:
    got = [(s.step, s.epoch) for s in steps(["Batch 250, Batch Loss: 0.85", "Epoch [10/10], Loss: 0.9700"])]
    assert got == [(250, 10.0)]
