"""Figures as a person reads them: durations, ages and transfer rates, rounded down."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app import text


@pytest.mark.parametrize(
    ("seconds", "written"),
    [(0, "0 s"), (59.9, "59 s"), (60, "1 min"), (12 * 60 + 59, "12 min"), (3 * 3600 + 5 * 60, "3 h 05 min"),
     (86399, "23 h 59 min"), (2 * 86400 + 4 * 3600 + 59 * 60, "2 d 4 h"), (-5, "0 s")],
)
def test_duration(seconds: float, written: str) -> None:
    assert text.duration(seconds) == written


@pytest.mark.parametrize(
    ("seconds", "written"),
    [(45, "45 s"), (90, "1 min 30 s"), (120, "2 min"), (599, "9 min 59 s"), (600, "10 min"), (3 * 3600 + 5 * 60, "3 h 05 min")],
)
def test_an_exact_duration_keeps_the_seconds_under_ten_minutes(seconds: float, written: str) -> None:
    assert text.exact_duration(seconds) == written


@pytest.mark.parametrize(("seconds", "written"), [
    (0.4, "0 s"), (45.4, "45 s"), (59.6, "1 min"),
    (77.9, "1 min 18 s"),  # a bar's 77.90s/it (whole minutes would say 1 min: 23 % low)
    (100.70498, "1 min 41 s"), (118, "1 min 58 s"), (146, "2 min 26 s"), (180, "3 min"), (599.4, "9 min 59 s"),
    (629, "10 min"),  # 10.48 min: to the nearest minute, 4.6 % low at most here
    (899, "15 min"),  # 14.98 min: rounded, not floored to 14
    (3569, "59 min"), (3571, "1 h 00 min"), (3631, "1 h 01 min"), (11100, "3 h 05 min"), (11129, "3 h 05 min"),
    (11131, "3 h 06 min"),
    (114400, "1 d 8 h"),  # 31.78 h
    (190000, "2 d 5 h"),  # 52.78 h
])
def test_a_close_duration_is_rounded_never_floored(seconds: float, written: str) -> None:
    assert text.close_duration(seconds) == written


@pytest.mark.parametrize(("value", "written"), [
    (0.8868, "0.8868"), (10.40349, "10.4035"), (-0.0076, "-0.0076"), (0.0012, "0.0012"),
    # never more digits than the value has (HF's ``'loss': 0.0``, yolov3's ``0.358``, a reward printed ``12``)
    (0.0, "0"), (-0.0, "0"), (0.358, "0.358"), (12.0, "12"), (-4.08, "-4.08"), (17610679897.699, "17610679897.699"),
    (2.00004, "2"), (float("nan"), "nan"),
    (0.000001647578983, "1.65e-06"),  # four decimals would say 0.0000
    (0.000912345678, "0.000912"), (-0.0000123, "-1.23e-05"),
])
def test_a_loss_keeps_its_significant_digits(value: float, written: str) -> None:
    assert text.loss_figure(value) == written


@pytest.mark.parametrize(
    ("seconds", "written"),
    [(0, "0 s"), (45, "45 s"), (60, "1 min"), (7199, "1 h"), (7200, "2 h"), (78 * 86400 + 3600, "78 d"), (-1, "0 s")],
)
def test_ago_reads_in_its_largest_unit(seconds: float, written: str) -> None:
    assert text.ago(seconds) == written


@pytest.mark.parametrize(
    ("value", "written"),
    [(0, "0 B/s"), (999.9, "999 B/s"), (1_000, "1.0 kB/s"), (5_496.19, "5.4 kB/s"), (13_740.5, "13 kB/s"),
     (999_999, "999 kB/s"), (1_234_567, "1.2 MB/s"), (12_500_000, "12 MB/s"), (3.4e12, "3400 GB/s")],
)
def test_bytes_per_second(value: float, written: str) -> None:
    assert text.bytes_per_second(value) == written


@pytest.mark.parametrize("value", [-1.0, float("nan"), float("inf")])
def test_bytes_per_second_refuses_what_is_not_a_rate(value: float) -> None:
    with pytest.raises(ValueError):
        text.bytes_per_second(value)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("miner.log", "miner.log"),
        ("café/miner.log", "café/miner.log"),  # UTF-8 stays as it is
        (os.fsdecode(b"runs-\xff/caf\xe9.log"), "runs-\\xff/caf\\xe9.log"),  # bytes that are not UTF-8
        ("lone \ud800", "lone \\ud800"),  # a surrogate that is no escaped byte
    ],
)
def test_visible_makes_any_path_text(value: str, shown: str) -> None:
    assert text.visible(value) == shown
    assert text.path_text(Path(value)) == shown
    shown.encode("utf-8")  # anything can carry it
