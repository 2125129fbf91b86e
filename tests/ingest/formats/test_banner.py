"""A start-of-training banner's planned length, read by its role words before any step (banner.py).

Real banners (tests/data/real/stall-*.log and startup-*.log, each citing its source) and composed lines whose readings
are worked out by hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import detect
from app.ingest.formats.banner import (
    Planned,
    Started,
    header_without_rows,
    planned_run,
    started_run,
    table_header,
)
from tests.coldread import T0, read_cold
from tests.reallogs import body

KOHYA_CACHE = "stall-kohya-ss-issue1626-backticked-cache-bars-then-running-training-banner-1520-steps-no-step-yet.log"
KOHYA = "stall-kohya-ss-issue2305-running-training-banner-3900-steps-10-epochs-no-bar-yet.log"
HF = "stall-hf-open-r1-issue483-explicit-format-running-training-banner-196-steps-no-step-yet.log"


@pytest.mark.parametrize(
    ("line", "planned"),
    [
        ("  total optimization steps / 学習ステップ数: 1520", Planned("steps", 1520, "total optimization steps")),
        ("  num epochs / epoch数: 2", Planned("epochs", 2, "num epochs")),
        ("Total optimization steps = 9,375", Planned("steps", 9375, "Total optimization steps")),
        ("  Num Epochs = 3", Planned("epochs", 3, "Num Epochs")),
        ("max steps: 500", Planned("steps", 500, "max steps")),
        ("Max number of iterations = 100", Planned("steps", 100, "Max number of iterations")),
        ("  max_steps = 1000", Planned("steps", 1000, "max_steps")),
        # counts of something else: per epoch, batches, warmup, accumulation, a bare count with no role word
        ("  num batches per epoch / 1epochのバッチ数: 760", None),
        ("  gradient accumulation steps / 勾配を合計するステップ数 = 1", None),
        ("num warmup steps: 100", None),
        ("Total train batch size (w. parallel, distributed & accumulation) = 224", None),
        ("  num train images * repeats / 学習画像の数×繰り返し回数: 760", None),
        ("total eval steps: 40", None),
        ("steps: 1520", None),
        ("total steps: 0", None),
        ("100%|████| 76/76 [00:00<00:00, 610.67it/s]", None),
        # the total among counts a line lists without a colon (verl's SFT trainer, tests/data/real/verl-sft-*.log);
        # its other counts (per epoch, the epochs) are no total, nor is a total of warmup steps or a zero
        ("Number of steps/epoch 35, number of epochs 3, total number of steps 105",
         Planned("steps", 105, "total number of steps")),
        ("Number of steps/epoch 0, number of epochs 6, total number of steps 0", None),
        ("batch size 8, total warmup steps 50", None),
        ("Number of steps/epoch 35, number of epochs 3", None),
        ("total steps 10 (warmup 2)", None),
    ],
)
def test_a_banner_line_says_the_run_s_length_by_its_role_words(line: str, planned: Planned | None) -> None:
    assert planned_run(line) == planned


@pytest.mark.parametrize(("name", "fmt", "total"), [(KOHYA_CACHE, "generic", 1520), (KOHYA, "generic", 3900), (HF, "hf-trainer", 196)])
def test_a_run_that_printed_its_banner_waits_for_its_first_step_with_its_total(tmp_path: Path, name: str, fmt: str,
                                                                                total: int) -> None:
    lines = body(name)
    assert detect(lines) == fmt
    data = read_cold(tmp_path, lines, name=name, at=T0)
    training = data["training"]
    assert data["state"] != "unrecognised"
    # no step: the cache check's ``76/76`` bar (kohya #1626) is no progress, the 390 batches an epoch (#2305) no total
    assert (training["step"], training["total_steps"], training["loss"]) == (None, total, None)
    assert f"of {total:,} planned" in " ".join(data["details"])


def test_a_banner_alone_in_a_trainer_s_own_words_is_a_run_about_to_start(tmp_path: Path) -> None:
    lines = ["Starting training", "  Num Epochs = 3", "  Max steps = 500"]
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    assert (data["training"]["step"], data["training"]["total_steps"]) == (None, 500)


def test_a_line_of_prose_with_no_role_word_is_no_banner() -> None:
    assert detect(["Loading the model", "steps: 1520", "done"]) is None


@pytest.mark.parametrize(
    ("line", "planned"),
    [
        # YOLOv5's and Ultralytics' sentence as training starts (tests/data/real/startup-yolov5-peshmerge-*.log)
        ("Starting training for 300 epochs...", Planned("epochs", 300, "Starting training")),
        ("Start training for 1,000 iterations.", Planned("steps", 1000, "Start training")),
        # a setting after the plan leaves it the plan (start_sentences.py); a rest of a resumed run, a part of the run
        ("Starting training for 50 epochs on 2 GPUs", Planned("epochs", 50, "Starting training")),
        ("Starting training for 50 more epochs", None),
        ("Starting warmup for 5 epochs", None),
        # a script's print as it starts (and again at each restart), its settings after a comma, no ``for``; or the model's
        # name before ``for`` (print formats of CISC-867/Project's TTS trainer and of a classifier's ``run()``, composed)
        ("Beginning training 500 epochs, logging every 1, saving every 50, batch size 4.",
         Planned("epochs", 500, "Beginning training")),
        ("Beginning training 10 epochs, saving every 10.", Planned("epochs", 10, "Beginning training")),
        ("Beginning training resnet18 for 30 epochs...", Planned("epochs", 30, "Beginning training resnet18")),
        # a sentence that says more than the plan, no count, or a zero: none
        ("Beginning training 500 epochs later than planned", None),
        ("Beginning training model.npy", None),
        ("Starting training...", None),
        ("Starting training for 0 epochs...", None),
    ],
)
def test_a_start_sentence_says_the_run_s_length(line: str, planned: Planned | None) -> None:
    assert planned_run(line) == planned


SPACY_HEADER = "Itn.  Dep Loss  NER Loss  UAS     NER P.  NER R.  NER F.  Tag %   Token %  CPU WPS  GPU WPS"
YOLO_HEADER = "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size"


@pytest.mark.parametrize(
    ("line", "header"),
    [
        # spaCy v2's (explosion/spaCy issue 3166, tests/data/real/startup-spacy-*.log), YOLOv5's (startup-yolov5-*.log),
        # Ultralytics' (composed in its shape), and a tab-separated one (composed)
        (SPACY_HEADER, True),
        ("     Epoch   gpu_mem       box       obj       cls    labels  img_size", True),
        (YOLO_HEADER, True),
        ("Itn.\tDep Loss\tNER Loss\tUAS", True),
        # its first name no counter (YOLO's validation table), a row, too few names, a sentence
        ("                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95)", False),
        ("       1/10       2.8G      1.158       1.23      1.214        127", False),
        ("Epoch  Loss  Acc", False),
        ("Epoch 1/10 took 12s  loss 0.5  acc 0.9  lr 0.1", False),
    ],
)
def test_a_table_s_header_names_its_counter_then_its_figures(line: str, header: bool) -> None:
    assert table_header(line) is header


def test_a_header_with_no_row_under_it_is_a_run_begun() -> None:
    bar_at_zero = "  0%|          | 0/3280 [00:00<?, ?it/s]"
    assert header_without_rows(["learn_rate = 0.001 by default", SPACY_HEADER])
    assert header_without_rows([YOLO_HEADER, bar_at_zero])  # (a bar at 0: no batch done)
    assert not header_without_rows([YOLO_HEADER, "       1/10       2.8G      1.158       1.23      1.214        127"])
    assert not header_without_rows(["learn_rate = 0.001 by default"])


# A YOLO start-up (composed in Ultralytics' shape): its plan, the epoch's header, the first bar at 0 of the epoch's 3280
# batches, no rate (``?it/s``)
YOLO_START = ["Logging results to runs/detect/train", "Starting training for 50 epochs...", "", YOLO_HEADER,
              "  0%|          | 0/3280 [00:00<?, ?it/s]"]


def test_a_yolo_start_up_waits_at_batch_0_of_its_first_epoch(tmp_path: Path) -> None:
    assert detect(YOLO_START) == "generic"
    data = read_cold(tmp_path, YOLO_START, at=T0)
    training = data["training"]
    assert data["status_line"] == "50 epochs planned · 0/3280 in the epoch · no step yet"
    assert data["state"] == "working"
    assert (training["step"], training["total_steps"], training["loss"], training["step_seconds"]) == (0, 3280, None, None)


def test_a_yolo_start_up_before_its_bar_says_its_planned_epochs(tmp_path: Path) -> None:
    data = read_cold(tmp_path, YOLO_START[:-1], at=T0)
    assert data["status_line"] == "waiting for first step"
    assert "waiting for the first training step (50 epochs planned)" in data["details"]
    assert data["training"]["step"] is None


def test_a_bar_at_0_under_no_header_is_no_step(tmp_path: Path) -> None:
    # (a data loader's or a cache's bar after the plan, no table begun: nothing of the run's position)
    data = read_cold(tmp_path, [*YOLO_START[:2], "  0%|          | 0/76 [00:00<?, ?it/s]"], at=T0)
    assert (data["status_line"], data["training"]["step"]) == ("waiting for first step", None)


def test_a_start_up_with_a_row_after_it_is_no_run_waiting(tmp_path: Path) -> None:
    # an epoch's row after the start-up (cut short under the header, no bar): the start-up is not the run's last word,
    # so the log is not said to wait for its first step; the row is the run's epoch 1 (yolo_rows.py)
    lines = [*YOLO_START[:-1], "       1/50       2.8G      1.158       1.23      1.214        127"]
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    assert not data["status_line"].startswith("waiting")
    assert data["status_line"] == "epoch 1/50 · …"


def test_a_bar_at_0_under_a_header_with_no_plan_said_is_a_run_begun_with_no_position(tmp_path: Path) -> None:
    # (no ``Starting training for N epochs``: the bar's 3280 is no known unit's count, never shown as the run's steps)
    data = read_cold(tmp_path, YOLO_START[3:], at=T0)
    assert (data["status_line"], data["training"]["step"], data["training"]["total_steps"]) == (
        "waiting for first step", None, None)


@pytest.mark.parametrize(
    ("line", "started"),
    [
        # accelerate's state as a training script logs it before its loop (its distributed type, then more lines)
        ("Distributed environment: MULTI_GPU  Backend: nccl", Started()),
        ("Distributed environment: DistributedType.NO", Started()),
        ("Distributed environment: DEEPSPEED  Backend: nccl", Started()),
        # glued behind a terminal's title sequence: found anywhere in its line
        ('--push_to_hub;0566cfaa-2a7a10/27/2024 01:39:14 - INFO - __main__ - Distributed environment: NO', Started()),
        ("***** Running training *****", Started()),
        # a loop starting from a step: the step it names
        ("Starting training from iteration 16000", Started(16000, "iteration")),
        ("Starting training from iteration:600000", Started(600000, "iteration")),
        ("Resuming training from step 500", Started(500, "step")),
        ("Continuing training from global step 1200", Started(1200, "global step")),
        # not a start: a plan (banner.py's own), a question, the words inside other prose, another environment
        ("Starting training for 300 epochs...", None),
        ("Why does it keep starting training from iteration 0?", None),
        ("Distributed environment: unknown", None),
        ("Running training and evaluation", None),
        # LightGBM's records as a booster is built on its training data (behind R's [1] "…" too), before any round
        ("[LightGBM] [Info] Number of data points in the train set: 48210, number of used features: 12", Started()),
        ("[LightGBM] [Info] Start training from score -0.071580", Started()),
        ('[1] "[LightGBM] [Info] Start training from score 0.482113"', None),  # (R's quotes close the record: not whole)
        # not a start: the data set's other records, its advice, a sentence that names the words
        ("[LightGBM] [Info] Number of positive: 24117, number of negative: 24093", None),
        ("[LightGBM] [Info] Total Bins 255", None),
        ("[LightGBM] [Warning] Auto-choosing row-wise multi-threading, the overhead of testing was 0.004187 seconds.", None),
        ("How many data points does [LightGBM] [Info] Number of data points in the train set: print?", None),
        # PyTorch Lightning's start-up as fit begins: its devices, the ModelSummary (header, rows, 2.x's Mode column) and
        # its totals
        ("GPU available: True (cuda), used: True", Started()),
        ("GPU available: False, used: False", Started()),
        ("LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]", Started()),
        ("  | Name    | Type       | Params", Started()),
        ("  | Name  | Type | Params | Mode ", Started()),
        ("0 | encoder | Sequential | 100 K ", Started()),
        ("12 | model.decoder.layers.0 | Linear | 1.5 M  | train", Started()),
        ("201 K     Trainable params", Started()),
        ("0         Non-trainable params", Started()),
        ("1.4 B     Total params", Started()),
        ("0.806     Total estimated model params size (MB)", Started()),
        # not a start: a table row of figures, a sentence on the GPU, parameters counted in words
        ("0 | 2.3051 | 0.1000 | 12.5", None),
        ("Is a GPU available: True", None),
        ("Total params: 1,234,567", None),
    ],
)
def test_a_start_of_training_said_with_no_plan(line: str, started: Started | None) -> None:
    assert started_run(line) == started


# A resumed run whose loop ends at once (its checkpoint already at the planned last step): detectron2's lines as
# facebookresearch/detectron2 issue 3756's run printed them, its start moved from iteration 16000 to 90000.
RESUMED_DONE = [
    "[12/04 05:54:37 d2.engine.train_loop]: Starting training from iteration 90000",
    "[12/04 05:54:37 d2.engine.hooks]: Total training time: 0:00:00 (0:00:00 on hooks)",
    "[12/04 05:54:38 d2.data.common]: Serializing 500 elements to byte tensors and concatenating them all ...",
]


def test_a_run_that_ends_with_no_step_after_its_start_line_is_done_where_it_started(tmp_path: Path) -> None:
    assert detect(RESUMED_DONE) == "generic"
    data = read_cold(tmp_path, RESUMED_DONE, at=T0)
    training = data["training"]
    assert (data["status_line"], data["state"]) == ("done at iteration 90000 (where its start line put it; no step after)",
                                                     "done")
    assert (training["step"], training["step_said"], training["loss"], training["step_seconds"]) == (
        90000, "the run's start line", None, None)


def test_a_start_line_with_steps_after_it_is_no_position_of_its_own(tmp_path: Path) -> None:
    lines = [RESUMED_DONE[0],
             "[12/04 05:55:04 d2.utils.events]:  eta: 0:01:23  iter: 90019  total_loss: 1.475  time: 0.2951  lr: 0.001",
             "[12/04 05:55:10 d2.utils.events]:  eta: 0:01:17  iter: 90039  total_loss: 1.383  time: 0.3084  lr: 0.001"]
    data = read_cold(tmp_path, lines, at=T0)
    assert data["training"]["step"] == 90039
    assert "step_said" not in data["training"]


def test_a_start_line_alone_is_a_run_waiting_for_its_first_step(tmp_path: Path) -> None:
    for lines in (RESUMED_DONE[:1], ["Resuming training from step 500"],
                  # (accelerate's state block as pixeli99/SVD_Xtend issue 39's run logged it)
                  ["04/27/2024 17:50:48 - INFO - __main__ - Distributed environment: MULTI_GPU  Backend: nccl",
                   "Num processes: 6", "Process index: 4", "Local process index: 4", "Device: cuda:4", "",
                   "Mixed precision type: fp16"]):
        assert detect(lines) == "generic"
        data = read_cold(tmp_path, lines, at=T0)
        assert (data["status_line"], data["state"], data["training"]["step"]) == ("waiting for first step", "working", None)


def test_a_resumed_run_that_ends_in_its_own_words_is_done_at_its_start_step(tmp_path: Path) -> None:
    data = read_cold(tmp_path, ["Resuming training from step 500", "Training complete."], at=T0)
    assert data["status_line"] == "done at step 500 (where its start line put it; no step after)"
    assert data["training"]["step"] == 500


def test_real_start_ups_with_no_plan_wait_for_their_first_step(tmp_path: Path) -> None:
    for name in ("startup-lincir-issue14-accelerate-state-multi-gpu-warning-then-model-config-no-step-yet.log",
                 "startup-diffusers-issue9778-accelerate-state-distributedtype-no-behind-terminal-title-no-step-yet.log"):
        lines = body(name)
        assert detect(lines) == "generic"
        assert read_cold(tmp_path, lines, at=T0)["status_line"] == "waiting for first step"


def test_real_lightgbm_start_ups_wait_for_their_first_round(tmp_path: Path) -> None:
    # optuna's LightGBMTunerCV building a booster a fold; two workers' distributed start, its trees' warnings after
    for name in ("startup-optuna-issue2909-lightgbm-tuner-cv-folds-data-set-built-no-round-yet.log",
                 "startup-lightgbm-pr2851-two-workers-data-sets-start-from-score-no-iteration-yet.log"):
        lines = body(name)
        assert detect(lines) == "generic"
        data = read_cold(tmp_path, lines, at=T0)
        # the overhead's seconds are no step time, the Warnings no crash, the score it starts from no loss
        assert (data["status_line"], data["state"]) == ("waiting for first step", "working")
        training = data["training"]
        assert (training["step"], training["loss"], training["step_seconds"], training["crash"]) == (None, None, None, None)


def test_a_lightgbm_start_up_with_its_rounds_after_it_is_read_at_its_rounds(tmp_path: Path) -> None:
    # composed: the CLI's records (read already as rounds: 2.436162 seconds elapsed, finished iteration 10), after a start
    lines = ["[LightGBM] [Info] Number of data points in the train set: 6513, number of used features: 116",
             "[LightGBM] [Info] Start training from score 0.482113",
             "[LightGBM] [Info] Iteration:10, training binary_logloss : 0.206",
             "[LightGBM] [Info] 2.436162 seconds elapsed, finished iteration 10"]
    data = read_cold(tmp_path, lines, at=T0)
    assert (data["training"]["step"], data["training"]["loss"]) == (10, 0.206)


@pytest.mark.parametrize(
    ("line", "planned"),
    [
        # BasicSR's and its forks' epochs worked out for the iterations the run stops at: the iterations are the plan
        ("Total epochs needed: 405 for iters 500,000", Planned("steps", 500000, "iters")),
        ("Total epochs needed: 7 for iters 250000", Planned("steps", 250000, "iters")),
        ("Total epochs needed: 12 for 60000 iterations", Planned("steps", 60000, "iterations")),
        # the epochs alone, a count of iterations an epoch, a sentence about them: no plan
        ("Total epochs needed: 405", None),
        ("Number of train images: 19,749, iters: 1,235", None),
        ("Total epochs needed: 405 for iters 0", None),
        ("How many total epochs needed: 405 for iters 500,000?", None),
    ],
)
def test_the_iterations_a_run_stops_at_beside_the_epochs_they_need_are_its_plan(line: str, planned: Planned | None) -> None:
    assert planned_run(line) == planned


@pytest.mark.parametrize(("name", "total"), [
    ("startup-edvr-issue72-three-train-images-epochs-for-600000-iters-network-print-no-iteration.log", 600000),
    ("startup-spsr-issue38-lmdb-datasets-epochs-for-500000-iters-init-no-iteration.log", 500000),
])  # fmt: skip
def test_real_basicsr_start_ups_wait_for_their_first_iteration_of_the_planned(tmp_path: Path, name: str, total: int) -> None:
    # EDVR's start on two processes, its network's print after it; SPSR's data sets and initialisation
    lines = body(name)
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, name=name, at=T0)
    training = data["training"]
    # the epochs (3000, 5377), an epoch's iterations (1, 93) and the parameters (2,996,259) are no step, total or loss
    assert (data["status_line"], data["state"]) == ("waiting for first step", "working")
    assert (training["step"], training["total_steps"], training["loss"], training["crash"]) == (None, total, None, None)
    assert f"of {total:,} planned" in " ".join(data["details"])


def test_a_basicsr_start_up_s_plan_is_the_total_of_the_iterations_after_it(tmp_path: Path) -> None:
    # composed: the older logger's start-up then its records every 200 iterations
    lines = ["19-03-02 09:00:00.000 - INFO: Number of train images: 3,200, iters: 200",
             "19-03-02 09:00:00.001 - INFO: Total epochs needed: 150 for iters 30,000",
             "19-03-02 09:00:05.000 - INFO: Start training from epoch: 0, iter: 0",
             "19-03-02 09:01:45.000 - INFO: <epoch:  0, iter:     200, lr:2.000e-04> l_pix: 4.1250e-02",
             "19-03-02 09:03:25.000 - INFO: <epoch:  1, iter:     400, lr:2.000e-04> l_pix: 3.8750e-02"]
    data = read_cold(tmp_path, lines, at=T0)
    training = data["training"]
    assert (training["step"], training["total_steps"], training["loss"]) == (400, 30000, 0.03875)


# Composed: PyTorch Lightning's start-up as ``Trainer.fit`` prints it (1.x's words), cut before its first batch
LIGHTNING_STARTUP = [
    "GPU available: True, used: True",
    "TPU available: False, using: 0 TPU cores",
    "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0]",
    "",
    "  | Name    | Type       | Params",
    "---------------------------------------",
    "0 | encoder | Sequential | 100 K ",
    "1 | decoder | Sequential | 101 K ",
    "---------------------------------------",
    "201 K     Trainable params",
    "0         Non-trainable params",
    "201 K     Total params",
    "0.806     Total estimated model params size (MB)",
]


@pytest.mark.parametrize("cut", [3, 5, 7, 11, 13])
def test_a_lightning_start_up_cut_before_its_first_step_waits_for_it(tmp_path: Path, cut: int) -> None:
    lines = LIGHTNING_STARTUP[:cut]
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    assert (data["status_line"], data["state"]) == ("waiting for first step", "working")
    assert (data["training"]["step"], data["training"]["loss"], data["training"]["crash"]) == (None, None, None)
