"""nanoGPT / llm.c / modded-nanogpt parser: each family's lines, forks' tails, sentinels, wraps."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats.nanogpt import LLMC_MFU_NOTE, NANOGPT_MFU_NOTE, NanogptParser
from app.stats.events import EvalResult, RunInfo, StageEnd, TrainingPause, TrainStep

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample-nanogpt.log"


def read(lines: list[str]) -> tuple[list[object], int]:
    parser = NanogptParser()
    events: list[object] = list(parser.feed(lines))
    return events, parser.bad_lines


STEPS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "nanoGPT",
        "iter 10: loss 10.5228, time 290.40ms, mfu 39.28%",
        {"step": 10, "loss": 10.5228, "step_seconds": 0.2904, "mfu": 39.28, "total_steps": None,
         "loss_note": "last micro-batch"},
    ),
    (
        "nanoGPT first iterations: mfu -100.00%",
        "iter 0: loss 10.9838, time 43512.37ms, mfu -100.00%",
        {"step": 0, "mfu": None, "mfu_note": NANOGPT_MFU_NOTE, "step_seconds": 43.51237},
    ),
    (
        "fork: lr inserted, tokens appended",
        "iter 20: loss 9.3969, time 290.63ms, lr 6.000000e-04, mfu 39.28%, tokens 9,830,400",
        {"step": 20, "lr": 6e-4, "mfu": 39.28},
    ),
    ("fork: ms/step", "iter 30: loss 8.5029, time 290.37ms/step, mfu 39.28%", {"step": 30, "step_seconds": 0.29037}),
    ("fork: a tail of anything", "iter 40: loss 7.7089, time 291.66ms, mfu 39.26%, lr=6e-4 | tok/s 1.7M", {"step": 40}),
    ("nanoGPT nan loss", "iter 50: loss nan, time 296.06ms, mfu 39.19%", {"step": 50}),
    (
        "llm.c",
        ("step  200/18865 | loss 6.118203 (-0.42z)| norm 0.8821 (+0.17z)| lr 1.68e-04 | 331.12 ms | 46.2% bf16 MFU"
        " | 1583012 tok/s"),
        {"step": 200, "total_steps": 18865, "loss": 6.118203, "grad_norm": 0.8821, "lr": 1.68e-4,
         "step_seconds": 0.33112, "mfu": 46.2, "tokens_per_second": 1583012.0},
    ),
    (
        "llm.c on an unknown GPU: -100.0% MFU, +nan z-scores",
        ("step    1/18865 | loss 11.009375 (+nanz)| norm 15.4230 (+nanz)| lr 8.39e-07 | 3341.70 ms | -100.0% bf16 MFU"
        " | 156894 tok/s"),
        {"step": 1, "mfu": None, "mfu_note": LLMC_MFU_NOTE, "tokens_per_second": 156894.0},
    ),
    (
        "llm.c PyTorch reference",
        "step  201/18865 | train loss 6.109911 | norm 0.8734 | lr 1.69e-04 | (330.87 ms | 1584562 tok/s)",
        {"step": 201, "total_steps": 18865, "loss": 6.109911, "step_seconds": 0.33087,
         "tokens_per_second": 1584562.0},
    ),
    ("llm.c main.log", "s:100 trl:3.4567 lr:0.000600 norm:0.42", {"step": 100, "loss": 3.4567, "lr": 6e-4}),
    (
        "modded-nanogpt (current: no train loss)",
        "step:1/2285 train_time:112ms step_avg:112.47ms",
        {"step": 1, "total_steps": 2285, "loss": None, "elapsed_seconds": 0.112, "step_seconds": 0.11247},
    ),
    (
        "modded-nanogpt (2024 records: train_loss)",
        "step:12/1480 train_loss:7.1934 train_time:2311ms step_avg:231.10ms",
        {"step": 12, "loss": 7.1934, "elapsed_seconds": 2.311},
    ),
]


@pytest.mark.parametrize(("family", "line", "expected"), STEPS, ids=[s[0] for s in STEPS])
def test_step_lines(family: str, line: str, expected: dict[str, Any]) -> None:
    events, bad = read([line])
    assert bad == 0
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    for key, value in expected.items():
        got = getattr(step, key)
        assert got == (pytest.approx(value) if isinstance(value, float) else value), key


OTHERS: list[tuple[str, list[object]]] = [
    ("tokens per iteration will be: 491,520", [RunInfo(None, tokens_per_step=491520)]),
    (
        "step 1000: train loss 3.9812, val loss 3.9947",
        [EvalResult(None, "train_loss", 3.9812, 1000), EvalResult(None, "val_loss", 3.9947, 1000)],
    ),
    ("saving checkpoint to out", [TrainingPause(None, "checkpoint")]),
    ("val loss 6.102844", [EvalResult(None, "val_loss", 6.102844)]),
    ("HellaSwag: 2934/10042 = 0.292173", [EvalResult(None, "hellaswag", 0.292173)]),
    ("s:100 tel:3.5", [EvalResult(None, "val_loss", 3.5, 100)]),
    ("step:250/2285 val_loss:4.5521 train_time:15328ms step_avg:61.31ms", [EvalResult(None, "val_loss", 4.5521, 250)]),
    ("step:0/1480 val_loss:7.7109 train_time:0ms step_avg:nanms", [EvalResult(None, "val_loss", 7.7109, 0)]),
    ("total average iteration time: 331.120000 ms", [StageEnd(None, "total average iteration time: 331.120000 ms")]),
    (
        "peak memory allocated: 30121 MiB reserved: 32510 MiB",
        [StageEnd(None, "peak memory allocated: 30121 MiB reserved: 32510 MiB")],
    ),
    ("number of parameters: 123.59M", []),
    ("compiling the model... (takes a ~minute)", []),
]


@pytest.mark.parametrize(("line", "expected"), OTHERS, ids=[line[:40] for line, _ in OTHERS])
def test_other_lines(line: str, expected: list[object]) -> None:
    events, bad = read([line])
    assert events == expected and bad == 0


def test_hellaswag_progress_redrawn_with_carriage_returns() -> None:
    events, bad = read(["evaluating HellaSwag: 1/10042\revaluating HellaSwag: 2/10042\rHellaSwag: 2934/10042 = 0.292173"])
    assert events[-1] == EvalResult(None, "hellaswag", 0.292173)
    assert TrainingPause(None, "evaluation") in events and bad == 0


def test_two_lines_run_into_one() -> None:
    events, bad = read(["iter 10: loss 10.5228, time 290.40ms, mfu 39.28%iter 20: loss 9.3969, time 290.63ms, mfu 39.28%"])
    assert [e.step for e in events if isinstance(e, TrainStep)] == [10, 20] and bad == 0


LINE = "iter 1000: loss 3.3227, time 62092.88ms, mfu 35.12%"


@pytest.mark.parametrize("cut", range(1, len(LINE)))
def test_a_wrap_anywhere_reads_the_same_figures(cut: int) -> None:
    whole, _ = read([LINE])
    events, bad = read([LINE[:cut], LINE[cut:]])
    assert events == whole and bad == 0


@pytest.mark.parametrize("cut", range(1, len(LINE)))
def test_a_lost_wrap_tail_never_gives_a_wrong_figure(cut: int) -> None:
    whole, _ = read([LINE])
    events, bad = read([LINE[:cut], "iter 1010: loss 3.3694, time 295.99ms, mfu 35.46%"])
    assert [e.step for e in events if isinstance(e, TrainStep)][-1] == 1010
    if len(events) == 2:
        # read without the part the wrap took: mfu at most goes missing, nothing is made up
        assert events[0] in (whole[0], replace(whole[0], mfu=None))
    else:
        assert bad == 1


def test_the_sample_reads_whole() -> None:
    events, bad = read(SAMPLE.read_text(encoding="utf-8").splitlines())
    assert bad == 0
    assert events[0] == RunInfo(None, tokens_per_step=491520)
    assert len([e for e in events if isinstance(e, TrainStep)]) == 25


def test_name_follows_the_registry() -> None:
    assert NanogptParser("llmc").name == "llmc"
