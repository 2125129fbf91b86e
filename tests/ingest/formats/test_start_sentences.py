"""A run's start-up said in words, before its first step: a start sentence's plan and settings, a unit announced as it
begins, an epoch's header alone (start_sentences.py, banner.py, detect.py).

Real logs (tests/data/real/startup-knowledge-distillation-*.log, startup-keras-issue8595-*.log, each citing its source) and composed lines and logs whose
readings are worked out by hand below: a log cut in its start-up waits for its first step, its plan shown only where the
line says it in the run's own unit; a log of another program (an install, a test run, a web server) is no run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import detect
from app.ingest.formats.banner import Planned, header_epochs, planned_run
from app.ingest.formats.start_sentences import StartSentence, start_sentence
from tests.coldread import T0, read_cold
from tests.reallogs import body

KNOWLEDGE_DISTILLATION = ("startup-knowledge-distillation-pytorch-file-base-cnn-train-log-three-starts-30-epochs-epoch-1-"
                          "header-no-step.log")
KERAS_HEADER = "startup-keras-issue8595-comment-script-prints-then-epoch-1-of-15-header-no-bar-yet.log"


@pytest.mark.parametrize(
    ("line", "plan"),
    [
        # a verb of starting, a training word, a plan and settings in any order, behind a banner's decoration
        ("Starting training for 20 epochs...", ("epochs", 20)),
        ("Starting training for 30 epoch(s)", ("epochs", 30)),
        ("Starting training for 50 epochs on 2 GPUs", ("epochs", 50)),
        ("Start training from epoch 0 to 300", ("epochs", 300)),
        ("Starting training from iteration 0 to 40000", ("steps", 40000)),
        ("==> Training for 100 epochs", ("epochs", 100)),
        ("*** Start training ***", (None, None)),
        ("---------- Begin training ----------", (None, None)),
        ("Begin training with 8 GPUs", (None, None)),
        ("Training started", (None, None)),
        ("Start train...", (None, None)),
        # an emoji a script dresses its words in, before or after them, and its words in capitals
        ("🚀 STARTING TRAINING", (None, None)),
        ("⚙️  Starting training for 3 epochs...", ("epochs", 3)),
        ("==> 🏁 Training started 🎉", (None, None)),
        # a named method in place of the training word, with its plan
        ("Starting MAML for 20 meta epoch(s)", ("epochs", 20)),
        # a unit announced as it begins: a start, its plan only where it counts the run's epochs
        ("Training batch 0 begins.", (None, None)),
        ("Start epoch 0 of training", (None, None)),
        ("Starting epoch 3/50", ("epochs", 50)),
    ],
)
def test_a_start_sentence_says_its_plan(line: str, plan: tuple[str | None, int | None]) -> None:
    sentence = start_sentence(line)
    assert sentence is not None
    assert (sentence.unit, sentence.count) == plan


@pytest.mark.parametrize(
    "line",
    [
        # prose around the words, an object after them, another stage, a plan of a part of the run or of its rest
        "After a minute it prints Starting training... and hangs",
        "Training started at 12:00 and never printed an epoch",
        "Starting training the model on 4 GPUs",
        "Starting preprocess with 24 processes...",
        "Starting the evaluation for 10 epochs",
        "Starting warmup for 5 epochs",
        "Starting training for 50 more epochs",
        "Training finished.",
        "Training for the win",
        # another program's start, a data-loading line that says start
        "Starting nginx",
        "Starting server on port 8000",
        "Start data loading",
        "Loading data, start index 0",
        "Starting download for 3 files",
        "Start backup for 20 steps",
        # the same behind an emoji: still another program's, or a stage's, or prose
        "🚀 Starting server on port 8000",
        "✅ Training complete",
        "🚀 Starting QLoRA fine-tuning of the tokenizer's merges",
        "📊 Monitor training with: tensorboard --logdir runs",
    ],
)
def test_no_start_of_a_run(line: str) -> None:
    assert start_sentence(line) is None


def test_a_sentence_s_name_is_as_printed() -> None:
    assert start_sentence("Starting MAML for 20 meta epoch(s)") == StartSentence("Starting MAML", "epochs", 20)


@pytest.mark.parametrize(("line", "epochs"), [("Epoch 1/50", 50), ("Epoch [1/50]", 50), ("==> Epoch 1 of 50", 50),
                                             ("Epoch 1/50 loss 0.3", None), ("Epoch 60/50", None), ("Epoch 1", None)])
def test_an_epoch_s_header_alone_says_the_run_s_epochs(line: str, epochs: int | None) -> None:
    assert header_epochs(line) == epochs


STARTUP = ["Loading data from ./data", "Building model resnet18"]


@pytest.mark.parametrize(
    ("last", "detail"),
    [
        ("Starting training for 20 epochs...", "waiting for the first training step (20 epochs planned)"),
        ("Start training from epoch 0 to 300", "waiting for the first training step (300 epochs planned)"),
        ("==> Training for 100 epochs", "waiting for the first training step (100 epochs planned)"),
        ("Starting MAML for 20 meta epoch(s)", "waiting for the first training step (20 epochs planned)"),
        ("Begin training with 8 GPUs", "waiting for the first training step"),
        ("Training started", "waiting for the first training step"),
        ("Training batch 0 begins.", "waiting for the first training step"),
        # behind python logging's prefix, an emoji and capitals
        ("INFO:__main__:🚀 STARTING TRAINING", "waiting for the first training step"),
        # Keras' epoch header before its first bar: epoch 1 begun, no batch of it trained
        ("Epoch 1/50", "waiting for the first training step (50 epochs planned)"),
    ],
)
def test_a_log_cut_in_its_start_up_waits_for_its_first_step(tmp_path: Path, last: str, detail: str) -> None:
    # Composed: data loading and model building, then the run's start said in its own words, nothing after
    lines = [*STARTUP, last]
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    training = data["training"]
    assert (data["status_line"], data["state"], data["details"][0]) == ("waiting for first step", "working", detail)
    assert (training["step"], training["total_steps"], training["loss"], training["crash"]) == (None, None, None, None)


def test_restarts_with_their_config_dumps_then_a_start_sentence(tmp_path: Path) -> None:
    # Composed: a meta-learning script started twice, each echoing its arguments (no key of the run's length the reader
    # knows) and building its model, the second cut at its start sentence: 20 epochs planned, no crash, no step
    echo = ("Namespace(dataset='omniglot', num_ways=5, num_shots=1, meta_lr=0.001, inner_lr=0.4, meta_epochs=20, "
            "batch_size=32)")
    lines = [echo, "Loading dataset omniglot from ./data", "Building model: ConvNet(4 layers, 64 filters)",
             echo, "Loading dataset omniglot from ./data", "Building model: ConvNet(4 layers, 64 filters)",
             "Starting MAML for 20 meta epoch(s)"]
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    assert data["details"][0] == "waiting for the first training step (20 epochs planned)"
    assert (data["training"]["step"], data["training"]["crash"]) == (None, None)


def test_a_plan_in_epochs_is_no_total_of_the_steps_that_follow(tmp_path: Path) -> None:
    # Composed: the start sentence plans 20 epochs, then records count steps: step 20 with its loss, no total of steps
    # (20 is epochs, not steps), no progress share made up from it
    lines = ["Starting training for 20 epochs...", "Epoch 1 Step 10 Loss 2.5000", "Epoch 1 Step 20 Loss 2.2500"]
    data = read_cold(tmp_path, lines, at=T0)
    training = data["training"]
    assert (training["step"], training["loss"], training["total_steps"], training["progress_percent"]) == (
        20, 2.25, None, None)


def test_a_range_of_iterations_is_the_run_s_total_of_steps(tmp_path: Path) -> None:
    # Composed: ``from iteration 0 to 40000`` said before the first step, then iteration records: 40000 is their total
    lines = ["Starting training from iteration 0 to 40000", "iter 100 loss 3.21", "iter 200 loss 3.02"]
    data = read_cold(tmp_path, lines, at=T0)
    assert (data["training"]["step"], data["training"]["total_steps"]) == (200, 40000)


@pytest.mark.parametrize(("name", "epochs"), [(KNOWLEDGE_DISTILLATION, 30), (KERAS_HEADER, 15)])
def test_real_logs_cut_at_their_first_epoch_s_header(tmp_path: Path, name: str, epochs: int) -> None:
    lines = body(name)
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, name=name, at=T0)
    training = data["training"]
    assert (data["status_line"], data["state"]) == ("waiting for first step", "working")
    assert data["details"][0] == f"waiting for the first training step ({epochs} epochs planned)"
    assert (training["step"], training["total_steps"], training["loss"], training["crash"]) == (None, None, None, None)


PIP_INSTALL = [
    "Collecting torch==2.1.0",
    "  Downloading torch-2.1.0-cp310-cp310-manylinux1_x86_64.whl (670.2 MB)",
    "     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 670.2/670.2 MB 3.1 MB/s eta 0:00:00",
    "Requirement already satisfied: filelock in ./venv/lib/python3.10/site-packages (from torch==2.1.0) (3.12.4)",
    "Installing collected packages: mpmath, sympy, torch",
    "Successfully installed mpmath-1.3.0 sympy-1.12 torch-2.1.0",
]
PYTEST_RUN = [
    "============================= test session starts ==============================",
    "platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0",
    "rootdir: /home/user/project",
    "collected 12 items",
    "",
    "tests/test_train.py ....F.......                                        [100%]",
    "=========================== short test summary info ============================",
    "FAILED tests/test_train.py::test_start_training - AssertionError: assert 3 == 4",
    "========================= 1 failed, 11 passed in 2.31s =========================",
]
NGINX = [
    '127.0.0.1 - - [10/Oct/2023:13:55:36 +0000] "GET /train/start HTTP/1.1" 200 612 "-" "curl/7.81.0"',
    '127.0.0.1 - - [10/Oct/2023:13:55:37 +0000] "POST /api/training/started HTTP/1.1" 201 48 "-" "python-requests/2.31"',
    '2023/10/10 13:55:38 [notice] 1#1: start worker processes',
    '2023/10/10 13:55:38 [notice] 1#1: start worker process 29',
]
BACKUP_JOB = ["Begin backup with 4 workers", "Backup started", "Start backup for 20 steps", "Backup finished in 12 s"]
DOCKER_BUILD = ["Sending build context to Docker daemon  2.048kB", "Step 1/3 : FROM python:3.9", " ---> 1234abcd",
                "Step 2/3 : RUN pip install torch", " ---> Running in 5678", 'Step 3/3 : CMD ["python", "train.py"]',
                "Successfully built 9abc"]
# A deploy script that dresses its lines in emoji as training scripts do, behind python logging's prefix
EMOJI_DEPLOY = ["INFO:__main__:🚀 STARTING DEPLOYMENT", "INFO:__main__:✅ Image built successfully",
                "INFO:__main__:📦 Pushing image to registry...", "INFO:__main__:🚀 Starting server on port 8000",
                "INFO:__main__:✅ Service started"]
DATA_LOADING = ["Loading images from ./data/train", "start index 0, end index 5000", "Start loading annotations...",
                "Done (t=0.52s)"]


INSTALLER_STEPS = ["2024-05-01 10:00:01 INFO Step 1 of 4 started", "2024-05-01 10:00:05 INFO Downloading packages from mirror"]
ETL_BATCHES = ["2024-05-01 10:00:01 INFO Batch 1 started", "2024-05-01 10:00:05 INFO wrote 1000 rows"]


@pytest.mark.parametrize("lines", [PIP_INSTALL, PYTEST_RUN, NGINX, DATA_LOADING, BACKUP_JOB, DOCKER_BUILD, EMOJI_DEPLOY,
                                   INSTALLER_STEPS, ETL_BATCHES],
                         ids=["pip-install", "pytest-run", "nginx", "data-loading", "backup-job", "docker-build",
                              "emoji-deploy", "installer-steps", "etl-batches"])
def test_logs_of_other_programs_are_no_run(lines: list[str]) -> None:
    # Composed in each program's own shape: an install, a test run whose test is named after training, a web server's
    # access and error lines with start and training in their paths and notices, a data loader's start lines, a backup
    # job that starts with its workers and its steps, a Docker build's steps, a deploy script's emoji-dressed lines, an
    # installer's and a data job's steps and batches that start (no training word, no epoch: any job's)
    assert detect(lines) is None


@pytest.mark.parametrize("rule", ["=", "-", "|", "."])
def test_a_long_rule_before_more_text_is_no_sentence(rule: str) -> None:
    # a banner's rule of 60 marks with text after it: no start sentence, read at once (the decoration's pattern repeats
    # one class of marks, never a repeat inside a repeat, which would take ages on such a line)
    assert start_sentence("Training " + rule * 60 + " [gpu0]") is None
    assert start_sentence("Start training " + rule * 60) == StartSentence("Start training")


@pytest.mark.parametrize(
    ("line", "planned"),
    [
        # the run's length among counts a line lists with colons or equals signs: the one a role word names
        ("Total epochs: 50, steps per epoch: 782", Planned("epochs", 50, "Total epochs")),
        ("total_epochs=50, batch_size=64", Planned("epochs", 50, "total_epochs")),
        ("Total steps: 39100, warmup steps: 500", Planned("steps", 39100, "Total steps")),
        # another unit with no role word beside it (BasicSR stops at its iterations), two plans, a record's position
        ("Total epochs: 40000; iters: 200000.", None),
        ("Total epochs: 50, Total steps: 39100", None),
        ("epoch: 3, loss: 0.5, total epochs: 10", None),
    ],
)
def test_a_list_of_counts_says_the_run_s_length_by_its_role_word(line: str, planned: Planned | None) -> None:
    assert planned_run(line) == planned


def test_a_list_of_counts_alone_waits_with_its_plan(tmp_path: Path) -> None:
    # Composed: the start-up's counts in one line, the epochs the run's, the steps an epoch's (no total of steps)
    lines = [*STARTUP, "Total epochs: 50, steps per epoch: 782"]
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    assert data["details"][0] == "waiting for the first training step (50 epochs planned)"
    assert (data["training"]["step"], data["training"]["total_steps"]) == (None, None)


YAML_DUMP = ["model:", "  name: resnet50", "  num_classes: 1000", "train:", "  epochs: 90", "  batch_size: 256",
             "  lr: 0.1", "Building model resnet50", "Loading ImageNet train split: 1281167 images"]


def test_a_configuration_dumped_one_key_a_line_plans_the_run(tmp_path: Path) -> None:
    # Composed: a YAML dump with ``epochs: 90`` among its keys, then model building and data loading, no step
    assert detect(YAML_DUMP) == "generic"
    data = read_cold(tmp_path, YAML_DUMP, at=T0)
    assert data["details"][0] == "waiting for the first training step (90 epochs planned)"
    assert data["training"]["step"] is None


def test_a_dump_that_says_it_tests_or_a_lone_key_plans_no_run() -> None:
    # Composed: the same dump for a test run (``mode: test``); a lone ``epochs: 90`` line outside any dump
    assert detect([*YAML_DUMP[:4], "  mode: test", *YAML_DUMP[4:]]) is None
    assert detect(["Loading the data", "epochs: 90", "done"]) is None
