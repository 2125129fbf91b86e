"""A run's start-up with no step yet: a script's bare word that training starts, the pretrained weights it loads, the
arguments it echoes with the run's epochs (banner.py, run_args.py, detect.py).

Real excerpts (tests/data/real/startup-*.log, each citing its source) and composed logs whose readings are worked out by
hand below: a log of start-up lines alone waits for its first step, its plan the epochs its arguments name, never a
step, never a crash; a sentence of prose or an evaluation's arguments is no start of a run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import detect
from app.ingest.formats.banner import Started, started_run
from tests.coldread import T0, read_cold
from tests.reallogs import body

EFFICIENTDET = "startup-efficientdet-issue228-keras-config-dict-epochs-10-then-tf-profiler-no-epoch-yet.log"
FASTER_RCNN = "startup-faster-rcnn-pytorch-issue84-called-with-args-namespace-max-epochs-1-then-config-no-step-yet.log"


@pytest.mark.parametrize(
    ("line", "started"),
    [
        # a script's bare word, the whole line, its punctuation as printed
        ("Starting training...", Started()),
        ("Starting training", Started()),
        ("Start training!", Started()),
        ("start training", Started()),
        ("Training started.", Started()),
        ("Training has started", Started()),
        ("Begin training:", Started()),
        ("Starting training…", Started()),
        # not a bare start: a plan (banner.py's own), the words inside a sentence, a stage of another kind
        ("Starting training for 300 epochs...", None),
        ("After a minute it prints Starting training... and hangs", None),
        ("Starting training the model on 4 GPUs", None),
        ("Training started at 12:00 and never printed an epoch", None),
        ("Starting preprocess with 24 processes...", None),
        ("Training finished.", None),
    ],
)
def test_a_bare_start_of_training(line: str, started: Started | None) -> None:
    assert started_run(line) == started


def _waiting(tmp_path: Path, lines: list[str]) -> dict[str, object]:
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    training = data["training"]
    assert (data["status_line"], data["state"]) == ("waiting for first step", "working")
    assert (training["step"], training["total_steps"], training["loss"], training["step_seconds"], training["crash"]) == (
        None, None, None, None, None)
    return data


def test_a_bare_start_then_pretrained_weights_loaded_waits_for_its_first_step(tmp_path: Path) -> None:
    # Composed: a voice trainer's console after its feature extraction (its bar the extraction's, done): the start, then
    # the generator's and discriminator's pretrained weights loaded, no epoch yet
    lines = ["Embedding extraction completed in 3.12 seconds.",
             "Starting training...",
             "Loaded pretrained (G) 'models/pretrained_v2/f0G48k.pth'",
             "Loaded pretrained (D) 'models/pretrained_v2/f0D48k.pth'"]
    data = _waiting(tmp_path, lines)
    assert data["details"][0] == "waiting for the first training step"


def test_a_start_said_in_prose_is_no_run(tmp_path: Path) -> None:
    # Composed: a README's sentence and a question, each with the words inside it: no log of a run
    assert detect(["Run python train.py; once you see Starting training... the first epoch follows in a minute.",
                   "Why does it stop after Training started?"]) is None


def test_arguments_that_plan_epochs_wait_for_the_first_step_with_the_plan(tmp_path: Path) -> None:
    # Composed: a detector's DDP start-up, argparse's echo with epochs=5 (its batch and image sizes no count of steps), a
    # TensorFlow library line dated before its level letter: 5 epochs planned, no step
    lines = ["Using CUDA device0 _CudaDeviceProperties(name='Tesla T4', total_memory=15109MB)",
             "",
             "Namespace(batch_size=16, data='data/voc.yaml', epochs=5, img_size=[640, 640], weights='yolov5m.pt')",
             ("2021-03-02 10:14:05.118201: I tensorflow/stream_executor/platform/default/dso_loader.cc:49] Successfully "
              "opened dynamic library libcudart.so.11.0")]
    data = _waiting(tmp_path, lines)
    assert data["details"][0] == "waiting for the first training step (5 epochs planned)"


def test_a_config_dict_s_steps_beside_its_epochs_are_no_step(tmp_path: Path) -> None:
    # Composed: a Keras script's dict echo, 'steps' the batches an epoch it was asked for, 'epochs' the run's plan
    data = _waiting(tmp_path, ["{'batch_size': 8, 'epochs': 50, 'steps': 1000, 'phi': 1}"])
    assert data["details"][0] == "waiting for the first training step (50 epochs planned)"


@pytest.mark.parametrize("echo", [
    "Namespace(batch_size=32, epochs=300, task='test', weights='runs/exp0/weights/best.pt')",
    "Namespace(batch_size=1, epochs=10, evaluate=True, resume='model_best.pth.tar')",
    "{'do_train': False, 'do_eval': True, 'num_train_epochs': 3}",
])
def test_an_evaluation_s_arguments_plan_no_run(echo: str) -> None:
    # Composed: an evaluation or test script's echo names the epochs it was trained with, and trains none
    assert detect([echo, "Fusing layers... "]) is None


def test_arguments_with_a_step_after_them_are_read_as_the_run(tmp_path: Path) -> None:
    # Composed: the echo, the bare start, then two steps: the steps are the run's position, no start-up is left
    lines = ["Namespace(batch_size=16, epochs=5, lr=0.01)", "Starting training...",
             "Epoch 1 Step 10 Loss 2.5000", "Epoch 1 Step 20 Loss 2.2500"]
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    assert (data["training"]["step"], data["training"]["loss"]) == (20, 2.25)


@pytest.mark.parametrize(("name", "plan"), [(EFFICIENTDET, "10 epochs"), (FASTER_RCNN, "1 epoch")])
def test_real_start_ups_with_their_arguments_wait_with_their_plan(tmp_path: Path, name: str, plan: str) -> None:
    data = _waiting(tmp_path, body(name))
    assert data["details"][0] == f"waiting for the first training step ({plan} planned)"
