"""tinygrad's MLPerf step lines: the step first, its wall time as ``ms run`` or ``s run``, the loss and the LR.

Real lines, each cited, and the real log tests/data/real/tinygrad-*.log read end to end.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.stats.events import TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import REAL, body

LLAMA = "tinygrad-pr13803-mlperf-llama-steps-1-to-10-s-run-loss-lr-gb-used.log"


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in create_parser("tinygrad").feed(lines) if isinstance(e, TrainStep)]


def test_real_bert_line_s_run_time_in_ms_is_the_step_s_not_its_parts() -> None:
    # tinygrad/tinygrad PR #9706 (chenyuxyz's example run on MI300X): the step's 2269.50 ms, not its python,
    # fetch or device parts
    line = ("3211 2269.50 ms run,   52.72 ms python,   9.12 ms fetch data, 2207.66 ms AMD * 8,  1.36 loss, "
            "0.000003 LR, 1085.78 GB used, 511371.64 GFLOPS")
    assert detect([line]) == "tinygrad"
    (step,) = steps([line])
    assert (step.step, step.step_seconds, step.loss, step.lr) == (3211, 2.2695, 1.36, 0.000003)
    # the memory and ops are every device's: shown as printed, no tokens made of them
    assert step.tokens_per_second is None and step.figures == (("memory/used GB", 1085.78), ("rate/GFLOPS", 511371.64))


def test_real_llama_log_reads_each_step_s_seconds_as_printed() -> None:
    got = steps(body(LLAMA))
    assert [s.step for s in got] == list(range(1, 11))
    assert [s.step_seconds for s in got[:3]] == [93.44, 101.78, 7.34]
    assert (got[-1].loss, got[-1].lr, got[-1].step_seconds) == (11.875, 0.000000000005, 4.40)


def test_real_llama_log_read_cold(tmp_path: Path) -> None:
    data = read_cold(tmp_path, (REAL / LLAMA).read_text(encoding="utf-8").splitlines(), name=LLAMA, at=T0)
    assert data["format"] == "tinygrad"
    training = data["training"]
    assert (training["step"], training["total_steps"], training["loss"], training["step_seconds"]) == (10, None, 11.875, 4.40)
    assert training["tokens_per_second"] is None


@pytest.mark.parametrize(("line", "want"), [
    # examples/hlb_cifar10.py's print: f"{i:3d} {run:7.2f} ms run, {python:7.2f} ms python, {cl:7.2f} ms CL,
    # {loss:7.2f} loss, {mem:.2f} GB used, {gflops:9.2f} GFLOPS"
    ("  7  532.12 ms run,  498.30 ms python,   33.82 ms CL,    2.31 loss, 0.42 GB used,    12.37 GFLOPS", (7, 0.53212, 2.31)),
    # examples/train_resnet.py-style print with an accuracy after the loss (no memory, no LR)
    ("  3  812.40 ms run,  790.01 ms python,   22.39 ms CL,    1.98 loss,   31.25% acc", (3, 0.8124, 1.98)),
])  # fmt: skip
def test_the_other_trainers_heads_read_alike(line: str, want: tuple[int, float, float]) -> None:
    assert detect([line]) == "tinygrad"
    (step,) = steps([line])
    assert (step.step, step.step_seconds, step.loss) == want
