"""Dates whose day and month cannot be swapped, leading a record: peeled with their time and read as the record's.

ctime's (``time.ctime()``, ``asctime()``, C and C++ trainers' ``ctime``: ``Mon Dec  7 22:59:59 2026``), a month named day
first or year first (``%d-%b-%Y``, Python's logging HOWTO's ``%d-%b-%y``, Boost's ``to_simple_string``: ``2026-Dec-07``),
a dotted date day first (``%d.%m.%Y``, ``[07.12.26 22:59]``), and CenterNet's stamp dashed to the minute before a colon
(``2020-04-15-15-52: epoch: 1 |loss …``; the real logs are in tests/data/real, CenterNet's and FairMOT's). A slashed
date stays read as before (month first, as HF's example scripts print it; day first where its first number is over 12).
A number shaped like one of them whose day, month or clock is no calendar's is a figure, never a time.

Composed: lines whose times are worked out by hand (local time, as a logger prints it).
"""

from __future__ import annotations

import time

import pytest

from app.ingest.formats.fields import clean
from app.ingest.formats.generic import GenericParser
from app.ingest.formats.prefix import PrefixReader
from app.stats.events import TrainStep


def local(year: int, month: int, day: int, hour: int, minute: int, second: float) -> float:
    return time.mktime((year, month, day, hour, minute, int(second), 0, 0, -1)) + second % 1


AT = local(2026, 12, 7, 22, 59, 59)  # 7 December 2026, 22:59:59


def reader() -> PrefixReader:
    r = PrefixReader()
    r.reference_time = AT + 86400
    return r


@pytest.mark.parametrize(("prefix", "at"), [
    ("Mon Dec  7 22:59:59 2026 ", AT),  # time.ctime(): the day padded with a space
    ("Mon Dec 07 22:59:59 2026 ", AT),  # datefmt="%a %b %d %H:%M:%S %Y"
    ("[Mon Dec  7 22:59:59 2026] ", AT),
    ("Mon Dec  7 22:59:59 2026: ", AT),  # print(time.ctime() + ": " + …)
    ("Mon Dec  7 22:59:59 2026 - INFO - ", AT),
    ("07-Dec-2026 22:59:59 ", AT),
    ("07-Dec-26 22:59:59 - INFO - ", AT),  # the logging HOWTO's datefmt='%d-%b-%y %H:%M:%S'
    ("[07-Dec-2026 22:59:59.250] ", AT + 0.25),
    ("2026-Dec-07 22:59:59 ", AT),  # Boost's to_simple_string
    ("2026-Dec-07 22:59:59.500000 ", AT + 0.5),
    ("07.12.2026 22:59:59 ", AT),
    ("07.12.2026 22:59:59,125 INFO ", AT + 0.125),
    ("[07.12.26 22:59] ", AT - 59),  # whole minutes
    ("07.12.2026 22:59:59 | INFO | ", AT),
    ("2026-12-07-22-59: ", AT - 59),  # CenterNet's logger: every field dashed, whole minutes
    ("2026-12-07-22-59-59: ", AT),
])  # fmt: skip
def test_a_date_that_cannot_be_swapped_is_the_record_s_time(prefix: str, at: float) -> None:
    message = "step 7/100 loss 2.4500"
    got = reader().read(clean(prefix + message))
    assert got.message == message
    assert got.at == pytest.approx(at)


@pytest.mark.parametrize("line", [
    "13.13.2026 22:59:59 step 7 loss 2.45",  # no thirteenth month
    "10.25.30 12:30 step 7 loss 2.45",  # (a version or a figure: month 25)
    "07.12.2026 25:10:03 step 7 loss 2.45",  # a duration past a day, no clock
    "07-Dex-2026 22:59:59 step 7 loss 2.45",  # no month of that name
    "Mon Dec 32 22:59:59 2026 step 7 loss 2.45",
    "2026-13-07-22-59: step 7 loss 2.45",
    "2026-12-07-22-59 step 7 loss 2.45",  # CenterNet's stamp always closes with its colon
    "7.12.2026 22:59:59 step 7 loss 2.45",  # a one-digit day: no logger's zero-padded date
])  # fmt: skip
def test_a_number_shaped_like_a_date_is_no_time_where_its_calendar_is_impossible(line: str) -> None:
    got = reader().read(line)
    assert got.at is None
    assert got.message == line


def test_the_sniffer_peels_the_date_without_reading_its_time() -> None:
    got = PrefixReader(dates=False).read("Mon Dec  7 22:59:59 2026 step 7/100 loss 2.4500")
    assert (got.message, got.at) == ("step 7/100 loss 2.4500", None)


@pytest.mark.parametrize("stamp", [
    "%a %b {day:>2} %H:%M:%S %Y",  # ctime
    "%d-%b-%Y %H:%M:%S",
    "%Y-%b-%d %H:%M:%S",
    "%d.%m.%Y %H:%M:%S",
])  # fmt: skip
def test_a_log_of_such_dates_is_measured_on_its_own_clock(stamp: str) -> None:
    # steps 10, 20, …, 100, a line every 30 s from 7 December 2026 22:50:30: 270 s for the 90 steps between the first
    # and the last line, 3 s a step; each line's time its own
    start = local(2026, 12, 7, 22, 50, 30)
    lines = []
    for i in range(10):
        t = time.localtime(start + 30 * i)
        lines.append(time.strftime(stamp.replace("{day:>2}", f"{t.tm_mday:>2}"), t) + f" step {10 * (i + 1)}/1000 loss 2.{90 - i}")
    parser = GenericParser()
    steps = [e for e in parser.feed(lines) if isinstance(e, TrainStep)]
    assert [s.step for s in steps] == [10 * (i + 1) for i in range(10)]
    assert [s.at for s in steps] == [pytest.approx(start + 30 * i) for i in range(10)]
    assert (steps[-1].at - steps[0].at) / (steps[-1].step - steps[0].step) == pytest.approx(3.0)
