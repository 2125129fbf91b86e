"""A time stamp with its zone after a space, as ``%z``/``%Z`` print it: peeled whole, the zone applied.

Python logging with ``datefmt="%Y-%m-%d %H:%M:%S %z"`` and gunicorn's error log print ``[2016-11-07 15:48:45 +0000] ``
(mozilla-services/antenna, docs/dev.rst: ``[2016-11-07 15:48:45 +0000] [INFO] antenna.breakpad_resource: … saved``);
Haskell's katip (cardano-db-sync, as Plutonomicon/cardano-transaction-lib's doc/blockfrost.md shows it) prints
``[2023-03-06 15:09:27.39 UTC] Starting epoch 38``; ``%Z`` behind python logging's fraction, ``2026-05-02
06:07:24,390 UTC - INFO - ``. Until now the reader took the time and left ``+0000] ``/``UTC] `` at the head of the
message, and read the time as local. The zone is applied (as a glued one, ``Z`` or ``+08:00``, always was): times are
compared within one log, and a log whose lines print different zones must not go backwards. A spaced zone is one only
before a space or the bracket's end: a figure of the message after the time (``12:00:00 -1``) stays the message's.

Composed: lines whose times are worked out by hand.
"""

from __future__ import annotations

import calendar
from pathlib import Path

import pytest

from app.ingest.formats.fields import clean
from app.ingest.formats.generic import GenericParser
from app.ingest.formats.prefix import PrefixReader
from app.stats.events import TrainStep
from tests.coldread import read_cold

DEC_14 = calendar.timegm((2022, 12, 14, 14, 41, 34, 0, 0, 0))  # 2022-12-14 14:41:34 UTC


def reader() -> PrefixReader:
    r = PrefixReader()
    r.reference_time = DEC_14 + 86400
    return r


@pytest.mark.parametrize(("prefix", "at"), [
    ("[2022-12-14 14:41:34 +0000] ", DEC_14),
    ("[2022-12-14 14:41:34 UTC] ", DEC_14),
    ("[2022-12-14 14:41:34 GMT] ", DEC_14),
    ("[2022-12-14 15:41:34 +0100] ", DEC_14),  # an hour east of UTC: the same instant
    ("[2022-12-14 09:41:34 -05:00] ", DEC_14),
    ("2022-12-14 22:41:34 +0800 ", DEC_14),
    ("[2022-12-14 14:41:34.39 UTC] ", DEC_14 + 0.39),  # katip's hundredths (cardano-db-sync)
    ("[2022-12-14 14:41:34 +0000] [INFO] ", DEC_14),  # (antenna's docs/dev.rst, its logger's name left to the message)
    ("2022-12-14 14:41:34,390 UTC - INFO - ", DEC_14 + 0.39),
    ("2022-12-14 14:41:34 +0000 - INFO - ", DEC_14),
    ("2022-12-14T14:41:34.123456Z ", DEC_14 + 0.123456),  # (glued, as before)
    ("2022-12-14 22:41:34+08:00 ", DEC_14),
])  # fmt: skip
def test_a_spaced_zone_is_peeled_with_its_time_and_applied(prefix: str, at: float) -> None:
    message = "step 7/100 loss 2.4500"
    got = reader().read(clean(prefix + message))
    assert got.message == message
    assert got.at == pytest.approx(at)


@pytest.mark.parametrize("line", [
    "2022-12-14 14:41:34 -1 2.45",  # a figure, not a zone
    "2022-12-14 14:41:34 +0100abc",
    "2022-12-14 14:41:34 UTCX",
])  # fmt: skip
def test_a_figure_after_the_time_is_never_taken_for_its_zone(line: str) -> None:
    got = reader().read(line)
    assert got.message == line[len("2022-12-14 14:41:34 "):]
    assert got.at is not None


def test_a_log_whose_lines_print_different_zones_keeps_its_order() -> None:
    # five steps 2 s apart in UTC, printed alternately in UTC and in UTC+1 (a host's zone changed mid-run):
    # 14:41:10Z, 15:41:12+0100 (14:41:12Z), 14:41:14Z, 15:41:16+0100 (14:41:16Z), 14:41:18Z
    lines = [
        f"[2022-12-14 {14 + i % 2}:41:{10 + 2 * i:02d} {'+0100' if i % 2 else '+0000'}] step {i + 1}/100 loss 2.{50 - i}"
        for i in range(5)
    ]
    parser = GenericParser()
    steps = [e for e in parser.feed(lines) if isinstance(e, TrainStep)]
    assert [s.step for s in steps] == [1, 2, 3, 4, 5]
    start = calendar.timegm((2022, 12, 14, 14, 41, 10, 0, 0, 0))
    assert [s.at for s in steps] == [start + 2 * i for i in range(5)]
    assert [s.loss for s in steps] == [2.50, 2.49, 2.48, 2.47, 2.46]


def test_a_composed_log_with_bracketed_utc_stamps_is_measured(tmp_path: Path) -> None:
    # five steps at 14:41:10, :12, :14, :16, :18 UTC: 2 s a step; the last is step 5 of 100, its loss 2.46
    lines = [f"[2022-12-14 14:41:{10 + 2 * i:02d} UTC] step {i + 1}/100 loss 2.{50 - i}" for i in range(5)]
    snap = read_cold(tmp_path, lines, mtime=DEC_14 + 60, dated=True)
    training = snap["training"]
    assert training["step_seconds"] == pytest.approx(2.0)
    assert training["loss"] == pytest.approx(2.46)
    assert snap["state_since"] is not None
