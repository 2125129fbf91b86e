"""nanochat parser: every step-line version since 2025-10, the other scripts' lines, wraps."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats.nanochat import MFU_ZERO_NOTE, NanochatParser
from app.stats.events import EvalResult, RunInfo, StageEnd, TrainingPause, TrainStep

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample-nanochat.log"


def steps(lines: list[str]) -> tuple[list[TrainStep], int]:
    parser = NanochatParser()
    events = parser.feed(lines)
    return [e for e in events if isinstance(e, TrainStep)], parser.bad_lines


# One line per version in research note §1.2, with what must be read from it.
VERSIONS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "2025-10 initial: mfu:, no eta, no epoch",
        ("step 00000/21400 (0.00%) | loss: 10.457789 | lrm: 0.03 | dt: 38412.77ms | tok/sec: 27,297 | mfu: 1.65"
        " | total time: 0.00m"),
        {"stage": "base", "step": 0, "total_steps": 21400, "loss": 10.457789, "lr_multiplier": 0.03,
         "step_seconds": 38.41277, "tokens_per_second": 27297.0, "mfu": 1.65, "trainer_eta_seconds": None,
         "epoch": None},
    ),
    (
        "2025-11 grad norm after loss",
        ("step 00100/02000 (5.00%) | loss: 3.100000 | grad norm: 0.2345 | lrm: 1.00 | dt: 989.44ms"
        " | tok/sec: 529,882 | mfu: 74.13 | total time: 1.50m | eta: 29.0m"),
        {"stage": "base", "step": 100, "grad_norm": 0.2345, "tokens_per_second": 529882.0, "mfu": 74.13,
         "trainer_eta_seconds": 29.0 * 60},
    ),
    (
        "2026-01-05 eta appended (grad norm gone 01-08)",
        ("step 00011/05568 (0.20%) | loss: 7.225809 | lrm: 0.30 | dt: 1044.72ms | tok/sec: 1,003,693"
        " | mfu: 60.59 | total time: 0.02m | eta: 96.8m"),
        {"step": 11, "grad_norm": None, "trainer_eta_seconds": 96.8 * 60, "tokens_per_second": 1003693.0},
    ),
    (
        "2026-01-13 epoch N",
        ("step 00250/05568 (4.49%) | loss: 3.194928 | lrm: 1.00 | dt: 1053.08ms | tok/sec: 995,718"
        " | mfu: 60.11 | epoch: 1 | total time: 4.20m | eta: 93.0m"),
        {"step": 250, "epoch": 1, "parquet_index": None, "row_group": None},
    ),
    (
        "2026-01-17 unknown GPU: MFU printed 0.00",
        ("step 00383/29000 (1.32%) | loss: 3.369286 | lrm: 1.00 | dt: 4052.93ms | tok/sec: 129,360"
        " | mfu: 0.00 | epoch: 1 | total time: 25.43m | eta: 1951.2m"),
        {"mfu": None, "mfu_note": MFU_ZERO_NOTE},
    ),
    (
        "2026-02-10 bf16_mfu",
        ("step 00010/05568 (0.18%) | loss: 7.383039 | lrm: 0.28 | dt: 1046.01ms | tok/sec: 1,002,454"
        " | bf16_mfu: 60.52 | epoch: 1 | total time: 0.00m"),
        {"mfu": 60.52, "mfu_note": None},
    ),
    (
        "2026-03-04 epoch pq rg (seed 004's line)",
        ("step 00383/29000 (1.32%) | loss: 3.369286 | lrm: 1.00 | dt: 4052.93ms | tok/sec: 129,360"
        " | bf16_mfu: 62.46 | epoch: 1 pq: 0 rg: 279 | total time: 25.43m | eta: 1951.2m"),
        {"stage": "base", "step": 383, "total_steps": 29000, "progress_percent": 1.32, "loss": 3.369286,
         "loss_note": "smoothed (EMA, debiased)", "epoch": 1, "parquet_index": 0, "row_group": 279,
         "mfu": 62.46, "trainer_eta_seconds": 1951.2 * 60},
    ),
    (
        "old mid_train: no total, no epoch",
        ("step 00012 (1.71%) | loss: 1.234567 | lrm: 1.00 | dt: 523.71ms | tok/sec: 1,001,095 | mfu: 60.43"
        " | total time: 0.00m"),
        {"stage": "mid", "step": 12, "total_steps": None, "progress_percent": 1.71},
    ),
    (
        "chat_sft since 2026-01-31: no total, epoch, still mfu:",
        ("step 00002 (0.31%) | loss: 1.814882 | lrm: 1.00 | dt: 523.71ms | tok/sec: 1,001,095 | mfu: 60.43"
        " | epoch: 0 | total time: 0.00m"),
        {"stage": "sft", "step": 2, "total_steps": None, "epoch": 0, "mfu": 60.43},
    ),
    (
        "chat_sft before 2026-01-31 (no space before the pipes)",
        "Step 00012/00701 | Training loss: 1.234567| lrm: 1.000000| num_tokens: 12,345",
        {"stage": "sft", "step": 12, "total_steps": 701, "loss": 1.234567, "lr_multiplier": 1.0,
         "tokens": 12345},
    ),
    (
        "chat_rl step summary",
        "Step 1/467 | Average reward: 0.09765625 | Average sequence length: 208.91",
        {"stage": "rl", "step": 1, "total_steps": 467, "figures": (("reward", 0.09765625),
                                                                  ("sequence_length", 208.91))},
    ),
    (
        "a future field inserted before total time is ignored",
        ("step 00005/00100 (5.00%) | loss: 2.000000 | lrm: 1.00 | dt: 100.00ms | tok/sec: 10,000"
        " | bf16_mfu: 50.00 | newfield: 7 | epoch: 1 pq: 2 rg: 3 | total time: 0.10m | eta: 1.0m"),
        {"step": 5, "parquet_index": 2, "row_group": 3},
    ),
]


@pytest.mark.parametrize(("version", "line", "expected"), VERSIONS, ids=[v[0] for v in VERSIONS])
def test_every_step_line_version(version: str, line: str, expected: dict[str, Any]) -> None:
    found, bad = steps([line])
    assert bad == 0
    assert len(found) == 1, version
    for key, value in expected.items():
        got = getattr(found[0], key)
        if isinstance(value, float):
            assert got == pytest.approx(value), key
        else:
            assert got == value, key


OTHER_LINES: list[tuple[str, list[object]]] = [
    ("Step 00250 | Validation bpb: 1.061822", [EvalResult(None, "val_bpb", 1.061822, 250)]),
    ("Step 00000 | Validation bpb: 0.4386", [EvalResult(None, "val_bpb", 0.4386, 0)]),
    ("Step 05568 | CORE metric: 0.2598", [EvalResult(None, "core", 0.2598, 5568)]),
    (
        "Step 00650 | ChatCORE: 0.2412 | ChatCORE_cat: 0.3208",
        [EvalResult(None, "chatcore", 0.2412, 650), EvalResult(None, "chatcore_cat", 0.3208, 650)],
    ),
    (
        "Step 0 | Pass@1: 0.0625, Pass@2: 0.0938",
        [EvalResult(None, "pass@1", 0.0625, 0), EvalResult(None, "pass@2", 0.0938, 0)],
    ),
    ("Step 0/467 | Example step 0 | Pass 0 | loss: -0.000412 | Average reward: 0.0625", []),
    (
        "GPU: NVIDIA H100 80GB HBM3 | Peak FLOPS (BF16): 9.89e+14",
        [RunInfo(None, gpu_name="NVIDIA H100 80GB HBM3", peak_flops=9.89e14)],
    ),
    (
        "GPU: NVIDIA GeForce RTX 4070 | Peak FLOPS (BF16): inf",
        [RunInfo(None, gpu_name="NVIDIA GeForce RTX 4070", peak_flops=None, peak_flops_unknown=True)],
    ),
    ("Total training time: 97.21m", [StageEnd(None, "Total training time: 97.21m")]),
    (
        "Evaluating: arc_easy (10-shot, type: multiple_choice)... accuracy: 0.6934 | centered: 0.5912 | time: 12.08s",
        [TrainingPause(None, "evaluation"), EvalResult(None, "arc_easy", 0.6934)],
    ),
    (
        ("Evaluating: squad (10-shot, type: language_modeling)... accuracy: 0.0000 | centered: 0.0000 | evaluated: 10570"
         " | skipped: 0 | time: 839.18s"),
        [TrainingPause(None, "evaluation"), EvalResult(None, "squad", 0.0)],
    ),
    ("Evaluating: copa (0-shot, type: multiple_choice)... ", [TrainingPause(None, "evaluation")]),
    (
        "Results written to: /home/u/.cache/nanochat/base_eval/base_model_200000.csv",
        [StageEnd(None, "Results written to: /home/u/.cache/nanochat/base_eval/base_model_200000.csv", evaluation=True)],
    ),
    (
        "CORE                               ,           , 0.221946  ",
        [EvalResult(None, "core", 0.221946), StageEnd(None, "CORE metric: 0.221946", evaluation=True)],
    ),
    ("", []),
    ("ARC-Easy accuracy: 64.31%", [EvalResult(None, "ARC-Easy", 64.31)]),
    ("ChatCORE metric: 0.2412", [EvalResult(None, "chatcore", 0.2412), StageEnd(None, "ChatCORE metric: 0.2412", evaluation=True)]),
    ("val bpb: 0.725203", [EvalResult(None, "val_bpb", 0.725203)]),
    ("CORE metric: 0.2598", [EvalResult(None, "core", 0.2598)]),
    ("  ARC-Easy: 64.31%", [EvalResult(None, "ARC-Easy", 64.31)]),
    ("Peak memory usage: 52311.47MiB", []),
    ("Vocab size: 32,768", []),
    ("The capital of France is Paris. step by step, we", []),
]


@pytest.mark.parametrize(("line", "expected"), OTHER_LINES, ids=[line[:40] for line, _ in OTHER_LINES])
def test_other_lines(line: str, expected: list[object]) -> None:
    parser = NanochatParser()
    assert parser.feed([line]) == expected
    assert parser.bad_lines == 0


def test_rl_tokens_are_sequences_times_mean_length() -> None:
    found, _ = steps(["Total sequences per step: 256", "Step 0/467 | Average reward: 0.0859375 | Average sequence length: 212.47"])
    assert found[0].tokens == pytest.approx(256 * 212.47)


def test_rank_prefix_is_dropped() -> None:
    found, bad = steps(["[rank0]:" + VERSIONS[-1][1]])
    assert bad == 0 and found[0].step == 5


SEED_PREVIOUS = (
    "step 00382/29000 (1.32%) | loss: 3.370001 | lrm: 1.00 | dt: 4052.10ms | tok/sec: 129,387 | bf16_mfu: 62.47"
    " | epoch: 1 pq: 0 rg: 278 | total time: 25.36m | eta: 1951.3m"
)
SEED_LINE = VERSIONS[6][1]


def test_seed_004_wrapped_tail_is_joined_back() -> None:
    """Seed 004: ``h: 1`` opens a line: the tail of the previous line's ``epoch: 1``."""
    cut = SEED_PREVIOUS.index("epoch: 1") + len("epoc")
    found, bad = steps([SEED_PREVIOUS[:cut], SEED_PREVIOUS[cut:] + SEED_LINE])
    assert bad == 0
    assert [(s.step, s.row_group, s.epoch) for s in found] == [(382, 278, 1), (383, 279, 1)]
    assert found[0].trainer_eta_seconds == pytest.approx(1951.3 * 60)


def test_seed_004_orphan_tail_is_dropped_and_counted() -> None:
    """A copy that starts at the ``h: 1`` tail: the tail is unreadable, the next line is read."""
    cut = SEED_PREVIOUS.index("epoch: 1") + len("epoc")
    found, bad = steps([SEED_PREVIOUS[cut:] + " " + SEED_LINE])
    assert bad == 1
    assert [s.step for s in found] == [383]


def test_two_lines_run_into_one_are_split() -> None:
    found, bad = steps([SEED_PREVIOUS + SEED_LINE + "Step 00384 | Validation bpb: 1.000000"])
    assert bad == 0 and [s.step for s in found] == [382, 383]


def _expected(line: str) -> TrainStep:
    (step,) = steps([line])[0]
    return step


@pytest.mark.parametrize("cut", range(1, len(SEED_LINE)))
def test_a_wrap_anywhere_reads_the_same_figures(cut: int) -> None:
    found, bad = steps([SEED_LINE[:cut], SEED_LINE[cut:]])
    assert found == [_expected(SEED_LINE)]
    assert bad == 0


@pytest.mark.parametrize("cut", range(1, len(SEED_LINE)))
def test_a_wrap_whose_tail_is_lost_never_gives_a_wrong_figure(cut: int) -> None:
    """The continuation never came: the head is dropped and counted, or read whole but its eta."""
    found, bad = steps([SEED_LINE[:cut], SEED_PREVIOUS])
    assert found[-1] == _expected(SEED_PREVIOUS)
    if len(found) == 2 and SEED_LINE[:cut].rstrip("| ") == SEED_LINE[: SEED_LINE.index(" | epoch")]:
        # cut right before ``| epoch``: every figure up to the MFU is whole (a step line cut so)
        assert found[0] == replace(_expected(SEED_LINE), trainer_eta_seconds=None, epoch=None, parquet_index=None,
                                   row_group=None)
        assert bad == 0
    elif len(found) == 2:
        assert cut >= SEED_LINE.index(" | eta")
        assert found[0] == replace(_expected(SEED_LINE), trainer_eta_seconds=None)
        assert bad == 0
    else:
        assert bad == 1


@pytest.mark.parametrize(
    "line",
    [
        # nanochat-on-rtx4070 (d24 r40 log), its line cut before ``| epoch`` as a narrow terminal keeps it
        "step 836413/1025288 (81.58%) | loss: 2.635102 | lrm: 0.23 | dt: 2291.65ms | tok/sec: 7,149 | mfu: 0.00",
        "step 836413/1025288 (81.58%) | loss: 2.635102 | lrm: 0.23 | dt: 2291.65ms | tok/sec: 7,149 | mfu: 0.00 |",
        # and indented, as a README quotes it
        "    step 836413/1025288 (81.58%) | loss: 2.635102 | lrm: 0.23 | dt: 2291.65ms | tok/sec: 7,149 | mfu: 0.00",
    ],
)
def test_a_step_line_cut_before_its_epoch_is_a_step(line: str) -> None:
    found, bad = steps([line])
    assert [(s.step, s.total_steps, s.loss, s.lr_multiplier, s.tokens_per_second, s.epoch) for s in found] == [
        (836413, 1025288, 2.635102, 0.23, 7149, None)]
    assert found[0].step_seconds == pytest.approx(2.29165) and bad == 0


def test_a_step_line_cut_inside_a_figure_is_no_step() -> None:
    found, _ = steps(["step 836415/1025288 (81.58%) | loss: 2.620835 | lrm: 0.23 | dt: 2952.42ms | tok/sec: 5,5"])
    assert found == []


def test_an_eval_figure_cut_by_a_wrap_is_held_for_its_continuation() -> None:
    parser = NanochatParser()
    events = parser.feed(["Step 00250 | Validation bpb: 1.06", "1822", SEED_LINE])
    assert events[0] == EvalResult(None, "val_bpb", 1.061822, 250)
    assert parser.bad_lines == 0


def test_an_open_line_is_released_at_the_end_of_a_batch() -> None:
    parser = NanochatParser()
    assert parser.feed(["Step 00250 | Validation bpb: 1.061822"]) == [EvalResult(None, "val_bpb", 1.061822, 250)]


def test_a_head_waits_across_batches_for_its_tail() -> None:
    parser = NanochatParser()
    cut = SEED_LINE.index("tok/sec")
    assert parser.feed([SEED_LINE[:cut]]) == []
    assert parser.feed([SEED_LINE[cut:]]) == [_expected(SEED_LINE)]


def test_the_sample_reads_whole() -> None:
    parser = NanochatParser()
    events = parser.feed(SAMPLE.read_text(encoding="utf-8").splitlines())
    assert parser.bad_lines == 0
    found = [e for e in events if isinstance(e, TrainStep)]
    assert [s.stage for s in found].count("base") == 29
    assert [s.stage for s in found].count("sft") == 12
    assert [s.stage for s in found].count("rl") == 2
    assert all(e.at is None for e in events)


def test_a_traceback_glued_to_a_task_s_head_is_a_line_of_its_own() -> None:
    """The task died before printing its figures: an evaluation under way, then the traceback."""
    parser = NanochatParser()
    events = parser.feed([
        "Evaluating: boolq (10-shot, type: multiple_choice)... Traceback (most recent call last):",
        '  File "/x/base_eval.py", line 161, in evaluate_core',
        "torch.AcceleratorError: CUDA error: out of memory",
        "",
        "wandb: ",
    ])
    assert events == [TrainingPause(None, "evaluation")] and parser.bad_lines == 0
