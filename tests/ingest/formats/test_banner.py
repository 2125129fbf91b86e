"""A start-of-training banner's planned length, read by its role words before any step (banner.py).

Real banners (tests/data/real/stall-*.log, each citing its source) and composed lines whose readings
are worked out by hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import detect
from app.ingest.formats.banner import Planned, planned_run
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
