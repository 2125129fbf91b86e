"""A date printed without a year takes its year from the log's own lines printed with one.

glog's and absl's ``W0418 09:41:07.512300 913 device_context.cc:372] ``, syslog's ``Dec 07 22:59:59 ``, a ``%m-%d`` date
(``[04-18 09:41:07][demucs.solver][INFO] - ``): a framework's C++ under a trainer's logger prints them beside records
dated in full (Paddle's device lines among ``2022-04-18 09:41:03,120 - INFO - `` records), and the file may be read years
after it was written. The year is taken from the nearest dated line before it (before any dated line, the first dated
line after it among the lines read with it): of its year and the years either side, the one nearest its date; with no
dated line at all, the reference time's (the file's modification time), as before. The real logs are in
tests/data/real (VoiceprintRecognition-PaddlePaddle's and AAE_paddle's READMEs).

Composed: lines whose times are worked out by hand (local time, as a logger prints it).
"""

from __future__ import annotations

import time

import pytest

from app.ingest.formats.generic import GenericParser
from app.ingest.formats.prefix import PrefixReader, newest_time
from app.stats.events import Tick, TrainStep


def local(year: int, month: int, day: int, hour: int, minute: int, second: float) -> float:
    return time.mktime((year, month, day, hour, minute, int(second), 0, 0, -1)) + second % 1


REFERENCE = local(2026, 12, 7, 22, 59, 59)  # the file's modification time, years after the lines


def times(lines: list[str], reference: float | None = REFERENCE) -> list[float | None]:
    """Each line's time as one reader reads the lines in order, told of them all first (as a batch is fed)."""
    r = PrefixReader()
    r.reference_time = reference
    r.ahead(lines)
    return [r.read(line).at for line in lines]


@pytest.mark.parametrize(("lines", "at"), [
    # after a dated line in the same month: that line's year
    (["2022-04-18 09:41:03,120 - INFO - use_gpu: True, epochs: 12",
      "W0418 09:41:07.512300   913 device_context.cc:372] device: 0, cuDNN Version: 8.1."],
     local(2022, 4, 18, 9, 41, 7.5123)),
    # a month later than the dated line's: the same year
    (["2022-01-15 10:00:00,000 - INFO - start", "I0301 09:00:00.250000  1 train.py:88] step 100"],
     local(2022, 3, 1, 9, 0, 0.25)),
    # a month earlier than the dated line's: a new year came between them
    (["2021-12-31 23:59:58,000 - INFO - saving", "I0101 00:00:01.000000  1 train.py:88] step 1"],
     local(2022, 1, 1, 0, 0, 1)),
    # syslog's month name, and a %m-%d date in brackets, after a dated line: its year
    (["2021-12-06 10:00:00,000 - INFO - start", "Dec 07 22:59:59 node1 train[42]: step 1"], local(2021, 12, 7, 22, 59, 59)),
    (["2019-04-12 17:00:00,000 - INFO - start", "[04-12 17:05:20][demucs.solver][INFO] - step 1"],
     local(2019, 4, 12, 17, 5, 20)),
])  # fmt: skip
def test_a_date_without_a_year_takes_the_year_of_the_dated_line_before_it(lines: list[str], at: float) -> None:
    assert times(lines)[-1] == pytest.approx(at, abs=1e-6)


@pytest.mark.parametrize(("lines", "at"), [
    # before any dated line: the first dated line's after it, the same month
    (["I0424 08:57:03.707505  3377 nccl_context.cc:74] init nccl context nranks: 2",
      "------------------------------------------------",
      "[2022-04-24 09:25:10.481272] Train epoch [0/30], batch: [7500/8290], loss: 9.03724"],
     local(2022, 4, 24, 8, 57, 3.707505)),
    # a month later than that line's: the year before it (a new year came between them)
    (["W1231 23:59:59.500000     1 device_context.cc:447] Please NOTE: device: 0",
      "2022-01-01 00:00:02,000 - INFO - epoch: 0, batch_id: 0, loss: 0.5"],
     local(2021, 12, 31, 23, 59, 59.5)),
])  # fmt: skip
def test_a_date_without_a_year_before_any_dated_line_takes_the_year_of_the_first_after_it(lines: list[str],
                                                                                           at: float) -> None:
    assert times(lines)[0] == pytest.approx(at, abs=1e-6)


def test_each_dated_line_gives_the_year_to_the_dates_after_it() -> None:
    """Two runs of one file, years apart: each glog line is its own run's."""
    got = times(["2020-05-01 12:00:00,000 - INFO - start", "W0501 12:00:01.000000 1 x.cc:1] a",
                 "2023-05-01 12:00:00,000 - INFO - start", "W0501 12:00:01.000000 1 x.cc:1] b"])
    assert (got[1], got[3]) == (local(2020, 5, 1, 12, 0, 1), local(2023, 5, 1, 12, 0, 1))


def test_a_log_with_no_dated_line_keeps_the_reference_year() -> None:
    """No line prints a year: the reference time's year, the year before for a date later than it; none without one."""
    lines = ["W0603 13:55:06.825852 14255 device_context.cc:447] Please NOTE: device: 0", "[TEST] Processing batch 0/945"]
    assert times(lines)[0] == pytest.approx(local(2026, 6, 3, 13, 55, 6.825852), abs=1e-6)
    assert times(lines, local(2027, 1, 15, 0, 0, 0))[0] == pytest.approx(local(2026, 6, 3, 13, 55, 6.825852), abs=1e-6)
    assert times(lines, None)[0] is None


def test_the_newest_time_of_unread_lines_is_never_a_yearless_date_past_its_dated_neighbours() -> None:
    lines = ["2022-04-18 09:41:03,120 - INFO - start",
             "W0418 09:41:07.512300   913 device_context.cc:372] device: 0, cuDNN Version: 8.1.",
             "2022-04-18 10:02:11,450 - INFO - epoch: 1, batch_id: 900, loss:0.2171"]
    assert newest_time(lines) == pytest.approx(local(2022, 4, 18, 10, 2, 11.450), abs=1e-6)


def test_a_parser_s_batch_ends_at_its_last_dated_record_not_at_a_glog_line() -> None:
    """Fed as one batch (the pipeline looks ahead for the year): the glog line is 2022's, the batch's time the record's."""
    parser = GenericParser()
    parser.reference_time = REFERENCE
    events = parser.feed([
        "W0424 08:57:03.930370  3377 device_context.cc:447] Please NOTE: device: 0, GPU Compute Capability: 7.5",
        "[2022-04-24 09:25:10.481272] Train epoch [0/30], batch: [7500/8290], loss: 9.03724, accuracy: 0.33252",
        "[2022-04-24 09:25:32.909873] Train epoch [0/30], batch: [7600/8290], loss: 9.00004, accuracy: 0.33600",
    ])
    steps = [event for event in events if isinstance(event, TrainStep)]
    assert [(s.step, s.at) for s in steps] == [(7500, pytest.approx(local(2022, 4, 24, 9, 25, 10.481272), abs=1e-6)),
                                               (7600, pytest.approx(local(2022, 4, 24, 9, 25, 32.909873), abs=1e-6))]
    ticks = [event.at for event in events if isinstance(event, Tick)]
    assert ticks == [pytest.approx(local(2022, 4, 24, 9, 25, 32.909873), abs=1e-6)]


@pytest.mark.parametrize(("lines", "at"), [
    # glog's line flushed just after the logger's first line of May: 30 April of that year, a day before, never 2023's
    (["2022-04-30 23:59:58,100 - INFO - step 100 loss 2.31", "2022-05-01 00:00:05,100 - INFO - step 101 loss 2.30",
      "I0430 23:59:59.934594  1234 device.cc:12] late flush"], local(2022, 4, 30, 23, 59, 59.934594)),
    # the mirror, before any dated line: 1 May of the first dated line's year (2 s before it), never the year before
    (["I0501 00:00:01.134594  1234 device.cc:12] device: 0, cuDNN Version: 7.6.",
      "2022-04-30 23:59:58,100 - INFO - step 100 loss 2.31"], local(2022, 5, 1, 0, 0, 1.134594)),
])  # fmt: skip
def test_a_date_without_a_year_takes_the_year_that_puts_it_nearest_the_dated_line(lines: list[str], at: float) -> None:
    assert next(t for line, t in zip(lines, times(lines), strict=True) if line.startswith("I0")) == pytest.approx(at)
