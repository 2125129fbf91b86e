"""Throughputs the generic reader reads as the rate they name: a short name its log's legend spells out, DeepSpeed's
samples a second under its step, an MFU's unit where the log says it (and shown as printed where it does not)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.legends import legend_row, spelled_out
from tests.coldread import read_cold

# saforem2/wordplay's legend rows (drapi222/ai-science-training-series, argonne-lcf/ai-science-training-series Curry_HW6)
WORDPLAY_LEGEND = [
    "                Training Legend",
    "┏━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
    "┃        abbr ┃ desc                           ┃",
    "┡━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩",
    "│        step │ Current training iteration     │",
    "│        loss │ Loss value                     │",
    "│          dt │ Elapsed time per training step │",
    "│         sps │ Samples per second             │",
    "│ sps_per_gpu │ Samples per second (per GPU)   │",
    "│         tps │ Tokens per second              │",
    "│ tps_per_gpu │ Tokens per second (per GPU)    │",
    "│         mfu │ Model flops utilization        │",
    "└─────────────┴────────────────────────────────┘",
]


@pytest.mark.parametrize(
    ("row", "read"),
    [
        ("│         tps │ Tokens per second              │", ("tps", "tokens_per_second")),
        ("│ tps_per_gpu │ Tokens per second (per GPU)    │", ("tps_per_gpu", "tokens_per_second_per_gpu")),
        ("│     sps     │ Samples per second             │", ("sps", "samples_per_second")),
        ("| tps | Tokens per second |", ("tps", "tokens_per_second")),
        # a description that names no rate this reader knows, or a per-GPU samples rate it does not show: not read
        ("│ sps_per_gpu │ Samples per second (per GPU)   │", None),
        ("│          dt │ Elapsed time per training step │", None),
        ("│         mfu │ Model flops utilization        │", None),
        # a name the reader knows already is a table's header, no legend's short name
        ("│ step │ samples per second │", None),
        # a row of figures, not of words
        ("│ 12 │ 3.5 per second │", None),
    ],
)
def test_a_legend_row_spells_out_a_rate_s_short_name(row: str, read: tuple[str, str] | None) -> None:
    assert legend_row(row) == read


def test_a_record_s_short_names_are_spelled_out_only_as_names() -> None:
    legend = {"tps": "tokens_per_second", "sps": "samples_per_second"}
    assert spelled_out("step=10 loss=3.2 sps=28.18 sps_per_gpu=3.52 tps=1.84693e+06", legend) == (
        "step=10 loss=3.2 samples_per_second=28.18 sps_per_gpu=3.52 tokens_per_second=1.84693e+06")
    assert spelled_out("saving ckpt_tps=3/model", legend) == "saving ckpt_tps=3/model"


def _wordplay(record: str) -> list[str]:
    return [f"[2024-11-09 20:00:{s:02d}.000000][INFO][trainer.py:892] - step={10 * (i + 1)} loss=3.{i} {record}"
            for i, s in enumerate((6, 9, 12))]


def test_tps_and_sps_under_the_log_s_legend_are_tokens_and_samples_a_second(tmp_path: Path) -> None:
    """Composed on wordplay's own legend: 1,500 tokens a second and 12.5 samples a second as printed."""
    data = read_cold(tmp_path, [*WORDPLAY_LEGEND, *_wordplay("dt=0.3 sps=12.5 tps=1500 tps_per_gpu=187.5")], dated=True)
    training = data["training"]
    assert (training["tokens_per_second"], training["tokens_per_second_scope"]) == (1500.0, "global")
    assert training["figures"] == {"samples_per_second": 12.5}
    assert "12.5 samples/s" in data["details"]


def test_tps_and_sps_without_a_legend_are_not_read(tmp_path: Path) -> None:
    """The same records with no legend above them (a log cut after it): no unit guessed for ``tps`` or ``sps``."""
    data = read_cold(tmp_path, _wordplay("dt=0.3 sps=12.5 tps=1500 tps_per_gpu=187.5"), dated=True)
    assert data["training"]["tokens_per_second"] is None
    assert not data["training"]["figures"]


@pytest.mark.parametrize(
    ("records", "mfu", "as_printed"),
    [
        # no sign, never above 1: a fraction or a percent, the log does not say; shown as printed
        (["mfu=0.42", "mfu=0.43"], None, 0.43),
        # its `%` sign says percent
        (["mfu=0.42%", "mfu=0.43%"], 0.43, None),
        # a record above 1 says the log's MFU is a percent: the later 0.9 is 0.9 %
        (["mfu=1.2", "mfu=0.9"], 0.9, None),
    ],
)
def test_an_mfu_s_unit_is_told_only_where_the_log_says_it(tmp_path: Path, records: list[str], mfu: float | None,
                                                        as_printed: float | None) -> None:
    lines = [f"2024-05-01 10:00:{10 * i:02d} step={10 * (i + 1)} loss=3.{i} {record}" for i, record in enumerate(records)]
    data = read_cold(tmp_path, lines, dated=True)
    training = data["training"]
    assert training["mfu"] == mfu
    assert (training["figures"] or {}).get("mfu_as_printed") == as_printed
    details = " ".join(data["details"])
    if as_printed is not None:
        assert "MFU 0.43 (as printed: the log does not say whether a fraction or a percent)" in details
        assert "%" not in details.split("MFU 0.43")[1][:5]
    else:
        assert f"MFU {mfu:.2f}%" in details


def test_a_throughput_timer_line_at_another_step_is_not_the_step_s(tmp_path: Path) -> None:
    """DeepSpeed's timer line amends the step just read only at that step: a count that is not it is left alone."""
    lines = ["[2022-03-11 02:06:58,985] [INFO] [logging.py:69:log_dist] [Rank 0] step=40, skipped=2, lr=[5e-05]",
             "[2022-03-11 02:06:58,985] [INFO] [timer.py:189:stop] 0/39, SamplesPerSec=83.48609168106144"]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["training"]["step"] == 40
    assert not data["training"]["figures"]
