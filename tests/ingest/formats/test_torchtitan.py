"""torchtitan parser: colours, rank prefixes, duplicate ranks, version drift, validation, mesh."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats.torchtitan import TorchtitanParser
from app.stats.events import EvalResult, RunInfo, StageEnd, StageStart, Tick, TrainingPause, TrainStep
from tests.reallogs import body

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample-torchtitan.log"
PREFIX = "[rank0]:[titan] 2026-05-18 16:04:29,296 - root - INFO - "


def utc(year: int, month: int, day: int, hour: int, minute: int, second: int) -> float:
    """A fixed zone for tests: local time = UTC."""
    import calendar

    return float(calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)))


T0 = utc(2026, 5, 18, 16, 4, 29) + 0.296


def read(lines: list[str], parser: TorchtitanParser | None = None) -> tuple[list[object], int]:
    parser = parser or TorchtitanParser(utc)
    return list(parser.feed(lines)), parser.bad_lines


def coloured(step: int, loss: str) -> str:
    return (
        f"\x1b[31mstep: {step:2}  \x1b[32mloss: {loss}  \x1b[38;2;180;60;0mgrad_norm:  5.5219  "
        "\x1b[38;2;54;234;195mmemory: 66.91GiB(37.51%)  \x1b[34mtps: 7,806  \x1b[36mtflops: 452.75  "
        "\x1b[35mmfu: 45.78%\x1b[39m"
    )


VERSIONS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "2026 coloured, grad_norm, loss %8.5f",
        PREFIX + coloured(10, " 7.85803"),
        {"at": T0, "step": 10, "loss": 7.85803, "grad_norm": 5.5219, "tokens_per_second": 7806.0,
         "per_device": True, "mfu": 45.78,
         "figures": (("memory_gib", 66.91), ("memory_percent", 37.51), ("tflops", 452.75))},
    ),
    (
        "2025 no grad_norm, loss %7.4f",
        ("[rank0]:[titan] 2025-06-16 22:31:04,970 - root - INFO - step: 210  loss:  6.0388  memory: 49.66GiB(52.28%)"
        "  tps: 5,593  tflops: 323.92  mfu: 32.75%"),
        {"step": 210, "loss": 6.0388, "grad_norm": None, "tokens_per_second": 5593.0},
    ),
    (
        "early 2024 wps, no tflops",
        ("[titan] 2024-03-01 10:00:00,000 - root - INFO - step:  5  loss:  9.1000  memory: 10.00GiB(12.50%)"
        "  wps: 4,100  mfu: 20.10%"),
        {"step": 5, "tokens_per_second": 4100.0, "mfu": 20.1},
    ),
    (
        "a fork's extra fields",
        ("[titan] 2026-02-24 19:46:19,145 - root - INFO - step:  5  loss:  7.07623  grad_norm: 46.5000"
        "  memory: 66.91GiB(37.51%)  tps: 10,007  tflops: 313.36  mfu: 13.93%  step_time: 0.81 | iso_mfu: 12.0%"),
        {"step": 5, "loss": 7.07623, "mfu": 13.93},
    ),
]


@pytest.mark.parametrize(("version", "line", "expected"), VERSIONS, ids=[v[0] for v in VERSIONS])
def test_step_lines(version: str, line: str, expected: dict[str, Any]) -> None:
    events, bad = read([line])
    assert bad == 0
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    for key, value in expected.items():
        got = getattr(step, key)
        assert got == (pytest.approx(value) if isinstance(value, float) else value), key
    assert isinstance(events[-1], Tick)


def test_other_messages() -> None:
    events, _ = read(
        [
            PREFIX + "Building 2-D device mesh with ['dp_shard', 'tp'], [4, 2]",
            PREFIX + "Training starts at step 1",
            PREFIX + "\x1b[33mvalidate step: 100  \x1b[32mloss:  3.1893  \x1b[38;2;54;234;195mmemory: 66.91GiB(37.51%)"
            "  \x1b[34mtps: 21,407\x1b[39m",
            PREFIX + "Saving the checkpoint (or staging if async is enabled).",
            PREFIX + "Peak flops undefined for: NVIDIA A10G, fallback to A100",
            PREFIX + "Training completed",
            PREFIX + "[GC] Peforming periodical GC collection. 0.06 seconds.",
        ]
    )
    assert events[:-1] == [
        RunInfo(T0, device_count=8),
        StageStart(T0),
        EvalResult(T0, "val_loss", 3.1893, 100),
        TrainingPause(T0, "checkpoint"),
        RunInfo(T0, gpu_name="NVIDIA A10G", peak_flops_unknown=True),
        StageEnd(T0, "Training completed"),
    ]


def test_the_fallback_peak_is_noted_on_mfu() -> None:
    parser = TorchtitanParser(utc)
    read([PREFIX + "Peak flops undefined for: NVIDIA A10G, fallback to A100"], parser)
    events, _ = read([PREFIX + coloured(10, " 7.85803")], parser)
    step = events[0]
    assert isinstance(step, TrainStep) and step.mfu == 45.78
    assert step.mfu_note == "vs A100 peak: NVIDIA A10G not in torchtitan's table"


def test_every_rank_printing_the_same_step_counts_once() -> None:
    lines = [f"[rank{r}]:[titan] 2026-05-18 16:04:29,296 - root - INFO - " + coloured(s, f" {9 - s / 10:.5f}")
             for s in (10, 20) for r in (3, 1, 0, 2)]
    events, bad = read(lines)
    steps = [e.step for e in events if isinstance(e, TrainStep)]
    # rank 3 speaks first and is followed until rank 0 shows up (its step 10 is the same one);
    # then only rank 0
    assert steps == [10, 20] and bad == 0


def test_the_same_step_repeated_without_a_prefix_counts_once() -> None:
    line = "[titan] 2026-05-18 16:04:29,296 - root - INFO - " + coloured(10, " 7.85803")
    events, _ = read([line, line, line])
    assert sum(isinstance(e, TrainStep) for e in events) == 1


def test_a_restart_at_step_1_is_not_a_duplicate() -> None:
    events, _ = read([PREFIX + coloured(1, "11.43121"), PREFIX + "Training starts at step 1", PREFIX + coloured(1, "11.43121")])
    assert sum(isinstance(e, TrainStep) for e in events) == 2


def test_a_wrapped_step_line_is_joined() -> None:
    line = PREFIX + coloured(10, " 7.85803")
    whole, _ = read([line])
    cut = line.index("tps")
    events, bad = read([line[:cut], line[cut:]])
    assert events == whole and bad == 0


def test_impossible_times_are_bad_lines() -> None:
    events, bad = read(["[titan] 2026-02-30 10:00:00,000 - root - INFO - " + coloured(10, " 7.85803")])
    assert events == [] and bad == 1


def test_the_sample_reads_whole() -> None:
    events, bad = read(SAMPLE.read_text(encoding="utf-8").splitlines())
    assert bad == 0
    assert [e.step for e in events if isinstance(e, TrainStep)] == [1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
    assert EvalResult(utc(2026, 5, 18, 16, 6, 14) + 0.158, "val_loss", 3.1893, 100) in events


def test_the_init_line_gives_the_total_steps() -> None:
    """torchtitan PR 533 (2024, no ``[titan]`` tag) and PR 1625 (2025): ``total steps N (warmup W)``."""
    parser = TorchtitanParser()
    events = parser.feed(body("torchtitan-pr533-total-steps-wps.log"))
    assert RunInfo(events[0].at, total_steps=100) in events
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.total_steps) for s in steps] == [(1, 100), (10, 100), (20, 100), (30, 100), (40, 100)]
    later = TorchtitanParser().feed(body("torchtitan-pr1625-init-only-warmup-adjusted.log"))
    assert [e.total_steps for e in later if isinstance(e, RunInfo) and e.total_steps] == [10]


def test_a_pipeline_stage_without_the_loss_prints_a_placeholder() -> None:
    """Composed in torchtitan's 2025 template: a first pipeline stage logs ``loss: -1.0000``."""
    line = ("[rank0]:[titan] 2025-08-22 08:00:00,000 - root - INFO - step:  5  loss: -1.0000  memory: 20.00GiB(21.05%)"
            "  tps: 1,234  tflops: 50.00  mfu: 5.06%")
    step = next(e for e in TorchtitanParser().feed([line]) if isinstance(e, TrainStep))
    assert (step.loss, step.loss_note) == (None, "loss is on the last pipeline stage")


def test_a_step_line_with_only_a_throughput_column_reads() -> None:
    """A build that prints no grad norm, tflops or mfu: step, loss, memory and ``wps`` (early torchtitan's
    name) still make a step line, timed by its prefix; no MFU is invented."""
    lines = [
        "[rank0]:[titan] 2026-05-18 10:00:00,000 - root - INFO - step:  5  loss:  6.5000  memory:  3.10GiB(4.00%)  wps: 9,000",
        "[rank0]:[titan] 2026-05-18 10:00:02,500 - root - INFO - step: 10  loss:  6.2500  memory:  3.10GiB(4.00%)  wps: 9,500",
    ]
    events, bad = read(lines)
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.loss, s.tokens_per_second, s.mfu) for s in steps] == [(5, 6.5, 9000, None), (10, 6.25, 9500, None)]
    assert steps[1].at is not None and steps[0].at is not None and steps[1].at - steps[0].at == pytest.approx(2.5)
    assert bad == 0


def test_another_ranks_line_for_a_later_step_moves_the_run_on() -> None:
    """Rank 0 is followed, but the log's last line is rank 1's step 20 (rank 0's copy was cut): the run
    is at step 20; rank 0's copy arriving after it counts once; older steps of other ranks are dropped."""
    def at(rank: int, step: int, loss: str) -> str:
        return f"[rank{rank}]:[titan] 2026-05-18 16:04:{step:02d},000 - root - INFO - " + coloured(step, loss)

    lines = [at(0, 10, " 7.50000"), at(1, 10, " 7.50000"), at(1, 20, " 7.10000"), at(2, 10, " 7.50000"),
             at(0, 20, " 7.10000")]
    events, bad = read(lines)
    assert [e.step for e in events if isinstance(e, TrainStep)] == [10, 20] and bad == 0
