"""nanoGPT / llm.c / modded-nanogpt parser: each family's lines, forks' tails, sentinels, wraps."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats import create_parser
from app.ingest.formats.nanogpt import LLMC_MFU_NOTE, NANOGPT_MFU_NOTE, NanogptParser
from app.stats.events import EvalResult, RunInfo, StageEnd, TrainingPause, TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body, line

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


NAN = float("nan")

# Real lines (tests/data/real/, each file names its source): figures read by hand.
REAL_STEPS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "llm.c diverged: padded nan (anthonix/llm.c#2)",
        line("llmc-anthonix-issue2-nan.log", "step   20/74"),
        {"step": 20, "total_steps": 74, "loss": NAN, "grad_norm": NAN, "lr": 3.0e-4, "step_seconds": 0.03674,
         "mfu": 9.1, "tokens_per_second": 111854.0},
    ),
    (
        "llm.c diverged: -nan grad norm (anthonix/llm.c#2)",
        line("llmc-anthonix-issue2-minus-nan.log", "step  160/190"),
        {"step": 160, "total_steps": 190, "loss": NAN, "grad_norm": NAN, "step_seconds": 0.40395, "mfu": 13.3},
    ),
    (
        "llm.c main.log (modded-nanogpt records)",
        line("llmc-main-log-no-timing.log", "s:19559 "),
        {"step": 19559, "loss": 3.2217, "lr": 0.0, "grad_norm": 0.22, "step_seconds": None},
    ),
    (
        "llm.c main.log, old format",
        line("llmc-main-log-old-format.log", "s:9535 "),
        {"step": 9535, "loss": 3.340180, "lr": None, "grad_norm": None},
    ),
    (
        "nanoGPT every 10 iterations (nanoGPT#466)",
        line("nanogpt-issue466-every-10.log", "iter 390:"),
        {"step": 390, "loss": 4.6022, "step_seconds": 33.63729, "mfu": 0.96},
    ),
    (
        "nanoGPT without mfu (nanoGPT#110)",
        line("nanogpt-issue110-every-iteration.log", "iter 1641:"),
        {"step": 1641, "loss": 3.9748, "step_seconds": 0.56731, "mfu": None},
    ),
    (
        "modded-nanogpt 2024 record",
        line("modded-nanogpt-2024-10-10-muon.txt", "step:6200/6200 train_loss"),
        {"step": 6200, "total_steps": 6200, "loss": 3.2533, "elapsed_seconds": 1339.065, "step_seconds": 0.21633},
    ),
    (
        "modded-nanogpt 2025 record: no train loss",
        line("modded-nanogpt-2025-09-15-no-train-loss.txt", "step:1659/1660"),
        {"step": 1659, "total_steps": 1660, "loss": None, "elapsed_seconds": 153.823, "step_seconds": 0.09272},
    ),
    (
        "a fork's padded step with ' | ' between pairs, train_time in seconds, peak_vram in MB",
        line("modded-nanogpt-rtx4070-laptop-training-log-step150-of-3250.txt", "step: 150/3250"),
        {"step": 150, "total_steps": 3250, "loss": None, "elapsed_seconds": 742.9, "step_seconds": 4.9528, "figures": ()},
    ),
    (
        "parameter-golf fork: extra train key",
        line("parameter-golf-8xh100-fullrun.log", "step:8400/20000 train_loss"),
        {"step": 8400, "total_steps": 20000, "loss": 2.0967, "elapsed_seconds": 598.53},
    ),
]


def same(got: object, want: object) -> bool:
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, float):
        return got == pytest.approx(want)
    return got == want


@pytest.mark.parametrize(("source", "text", "expected"), REAL_STEPS, ids=[s[0] for s in REAL_STEPS])
def test_real_step_lines(source: str, text: str, expected: dict[str, Any]) -> None:
    events, bad = read([text])
    assert bad == 0
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    for key, value in expected.items():
        assert same(getattr(step, key), value), key


REAL_EVALS: list[tuple[str, str, int, dict[str, float | None]]] = [
    (
        "parameter-golf: val_loss and val_bpb, padded",
        line("parameter-golf-baseline-seed42.log", "step:178/20000 val_loss"),
        178,
        {"val_loss": 5.0593, "val_bpb": 2.9964},
    ),
    (
        "parameter-golf: the last validation after the cap",
        line("parameter-golf-8xh100-fullrun.log", "step:8420/20000"),
        8420,
        {"val_loss": 2.0794, "val_bpb": 1.2315},
    ),
    (
        "modded-nanogpt step 0: step_avg nan",
        line("modded-nanogpt-2024-10-10-muon.txt", "step:0/6200"),
        0,
        {"val_loss": 10.9264},
    ),
    (
        "a fork's padded step 0 with ' | ' between pairs: step_avg nan",
        line("modded-nanogpt-rtx4070-laptop-training-log-step150-of-3250.txt", "step:   0/3250"),
        0,
        {"val_loss": 10.8258},
    ),
    (
        "modded-nanogpt 2025: final validation",
        line("modded-nanogpt-2025-09-15-no-train-loss.txt", "step:1660/1660 val_loss"),
        1660,
        {"val_loss": 3.2769},
    ),
]


@pytest.mark.parametrize(("source", "text", "step", "figures"), REAL_EVALS, ids=[s[0] for s in REAL_EVALS])
def test_real_validation_lines_keep_every_figure_and_the_position(
    source: str, text: str, step: int, figures: dict[str, float | None]
) -> None:
    events, bad = read([text])
    assert bad == 0
    position = [e for e in events if isinstance(e, TrainStep)]
    assert [(p.step, p.loss) for p in position] == [(step, None)]
    assert {e.name: e.value for e in events if isinstance(e, EvalResult)} == pytest.approx(figures)
    assert {e.step for e in events if isinstance(e, EvalResult)} == {step}


@pytest.mark.parametrize("text", [
    "step:150/3250 | val_loss:5.4178 | train_time:742.9s | step_avg:4952.8ms | peak_vram:3840MB",
    "step: 150/3250 | val_loss: 5.4178 | train_time: 742.9s | step_avg: 4952.8ms | peak_vram: 3840MB",
    "step:  150/3250  val_loss:5.4178  train_time:742900ms  step_avg:4952.80ms  peak_mem:3.75GiB",
])  # fmt: skip
def test_a_fork_s_separators_spacing_and_units_read_alike(text: str) -> None:
    events, bad = read([text])
    assert bad == 0
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    assert (step.step, step.total_steps, step.elapsed_seconds, step.step_seconds, step.figures) == (
        150, 3250, pytest.approx(742.9), pytest.approx(4.9528), ())
    assert [(e.name, e.value) for e in events if isinstance(e, EvalResult)] == [("val_loss", 5.4178)]


def test_a_padded_validation_line_reads_like_a_plain_one() -> None:
    events, bad = read(["step:0/20000    val_loss:6.9469 val_bpb:4.1143 train_time:0ms"])
    assert bad == 0 and [e.name for e in events if isinstance(e, EvalResult)] == ["val_loss", "val_bpb"]


@pytest.mark.parametrize(
    ("name", "steps"),
    [
        ("modded-nanogpt-2024-10-10-muon.txt", 34),
        ("modded-nanogpt-2025-09-15-no-train-loss.txt", 56),
        ("parameter-golf-8xh100-fullrun.log", 23),
        ("parameter-golf-baseline-seed42.log", 14),
        ("llmc-anthonix-issue2-nan.log", 11),
        ("llmc-main-log-no-timing.log", 22),
        ("nanogpt-issue178-shakespeare.log", 25),
        ("modded-nanogpt-rtx4070-laptop-training-log-step150-of-3250.txt", 22),
    ],
)
def test_real_logs_read_without_a_bad_line(name: str, steps: int) -> None:
    """The script some trainers print first is a preamble, and a fork's own lines are no torn tails."""
    events, bad = read(body(name))
    assert bad == 0
    assert len([e for e in events if isinstance(e, TrainStep)]) == steps


def test_source_printed_after_the_first_record_is_still_counted() -> None:
    """Only a preamble is forgiven: a torn record tail later in the log is a bad line."""
    _, bad = read(["step:1/10 train_time:100ms step_avg:100.00ms", "2.0967 train_time:598530ms step_avg:71.25ms"])
    assert bad == 1


def test_llmc_first_step_lines_read_with_their_time() -> None:
    """train_gpt2cu's April 2024 line: no total, no MFU; the ``took`` is the step's duration; a nan
    loss stays nan."""
    events, bad = read(["val loss 5.325531", "step 0: train loss 5.356189 (took 1000.5 ms)",
                        "step 1: train loss nan (took 250.25 ms)"])
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.total_steps, s.step_seconds, s.mfu) for s in steps] == [(0, None, 1.0005, None),
                                                                                 (1, None, 0.25025, None)]
    assert steps[0].loss == 5.356189 and steps[1].loss is not None and math.isnan(steps[1].loss)
    assert bad == 0


def test_a_speedrun_fork_s_short_keys_are_its_loss_clock_and_average() -> None:
    # openai/parameter-golf ternary_log_42.txt (tests/data/real/stopself-parameter-golf-ternary-…): ``loss``,
    # ``t`` and ``avg`` for train_loss, train_time and step_avg.
    from app.ingest.formats import create_parser
    from app.stats.events import TrainStep

    got = [e for e in create_parser("modded-nanogpt").feed(["step:6000/10000 loss:3.0211 t:550871ms avg:91.8ms"])
           if isinstance(e, TrainStep)]
    assert [(e.step, e.total_steps, e.loss, e.elapsed_seconds) for e in got] == [(6000, 10000, 3.0211, 550.871)]
    assert got[0].step_seconds == pytest.approx(0.0918)


# nanoGPT's configurator (configurator.py) echoes a config file whole, then prints each command-line override as
# ``Overriding: key = value``; the last ``max_iters`` printed is the run's. Its loop (train.py) trains ``iter_num`` 0 to
# ``max_iters`` inclusive: ``if iter_num > max_iters: break`` after the step, so ``iter N`` of N is its last step.
_CONFIG = ["Overriding config with config/train_shakespeare_char.py:", "max_iters = 5000",
           "lr_decay_iters = 5000 # make equal to max_iters usually"]


def _iters(*steps: int) -> list[str]:
    return [f"iter {s}: loss {3 - s / 100:.4f}, time 56.27ms, mfu 1.00%" for s in steps]


@pytest.mark.parametrize(("lines", "status", "total"), [
    # the command line's override after the file's (by hand: 20, and iter 20 its last step: done)
    ([*_CONFIG, "Overriding: max_iters = 20", *_iters(0, 10, 20)], "done · step 20/20", 20),
    # the file's alone: iter 20 of 5000
    ([*_CONFIG, *_iters(0, 10, 20)], "step 20/5000 · …", 5000),
    # lr_decay_iters, an unset plan (0) and a key's look-alike are no total
    (["lr_decay_iters = 5000", "Overriding: max_iters = 0", "Overriding: max_iters_x = 9", *_iters(0, 10, 20)],
     "step 20 · …", None),
])  # fmt: skip
def test_the_configurators_max_iters_is_the_total_of_the_iterations(
        tmp_path: Path, lines: list[str], status: str, total: int | None) -> None:
    data = read_cold(tmp_path, lines, name="train.log", at=T0)
    assert data["format"] == "nanogpt"
    assert (data["status_line"], data["training"]["total_steps"]) == (status, total)


def test_a_step_that_prints_its_own_total_keeps_it() -> None:
    # (llm.c and modded-nanogpt share the parser: their ``/M`` is theirs, whatever a max_iters line said)
    events = create_parser("modded-nanogpt").feed(
        ["Overriding: max_iters = 50", "step:10/20 train_loss:3.1000 train_time:500ms step_avg:50.00ms"])
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert [s.total_steps for s in steps] == [20]
