"""A time of day with no date leading a record (prefix.py), dated by the lines' order: a run past midnight is the
next day, so a step's time comes from the lines' times.

A real log (tests/data/real/, citing its source) and composed lines whose times are worked out by hand below, on a
UTC clock handed to the reader (the machine's zone plays no part).
"""

from __future__ import annotations

import calendar
import time
from pathlib import Path

import pytest

from app.ingest.formats import detect
from app.ingest.formats.prefix import PrefixReader
from tests.coldread import read_cold
from tests.reallogs import body

VERSE = "generic-verse-medical-issue31-time-of-day-prefix-train-iter-loss-net-nan.log"
NOON = calendar.timegm((2026, 3, 3, 12, 0, 0, 0, 0, 0))  # 2026-03-03 12:00:00 UTC


def utc_reader(reference: float) -> PrefixReader:
    reader = PrefixReader(lambda y, mo, d, h, mi, s: float(calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0))),
                          lambda t: time.gmtime(t)[:3])
    reader.reference_time = reference
    return reader


def test_a_time_of_day_leading_a_record_is_its_time_and_its_colon_goes() -> None:
    read = utc_reader(NOON).read("02:29:53: train iter: 0 loss_net: 0.9443")
    assert read.message == "train iter: 0 loss_net: 0.9443"
    assert read.at == calendar.timegm((2026, 3, 3, 2, 29, 53, 0, 0, 0))
    read = utc_reader(NOON).read("11:58:01.250 step 5 loss 2.1")
    assert (read.message, read.at) == ("step 5 loss 2.1", NOON - 118.75)


def test_a_run_past_midnight_is_the_next_day() -> None:
    # the file last written at 00:30 on 3 March: 23:59:50 was 2 March's, 00:00:10 a day on from it (20 s later)
    reader = utc_reader(calendar.timegm((2026, 3, 3, 0, 30, 0, 0, 0, 0)))
    first = reader.read("23:59:50 step 100 loss 2.5").at
    second = reader.read("00:00:10 step 101 loss 2.4").at
    assert first == calendar.timegm((2026, 3, 2, 23, 59, 50, 0, 0, 0))
    assert second is not None and first is not None and second - first == 20.0


def test_a_first_time_later_than_the_file_was_written_is_the_day_before() -> None:
    # written at noon: 13:30 cannot be today's (more than an hour after), so it was yesterday's, as a lone time is
    reader = utc_reader(NOON)
    assert reader.read("13:30:00 step 1 loss 3").at == calendar.timegm((2026, 3, 2, 13, 30, 0, 0, 0, 0))


def test_a_time_that_breaks_the_order_dates_nothing() -> None:
    # written at noon: after 11:00 today, 13:30 would be after the file was written: no wall clock of this log
    reader = utc_reader(NOON)
    assert reader.read("11:00:00 step 1 loss 3").at == NOON - 3600
    assert reader.read("13:30:00 step 2 loss 3").at is None
    assert reader.read("11:00:10 step 3 loss 3").at == NOON - 3590


@pytest.mark.parametrize(
    "line",
    [
        "25:10:03 elapsed, step 4",  # a duration past a day: no time of day
        "[05:19:47<07:28, 1.56it/s] Epoch: [1]",  # tqdm's elapsed clock, its remaining time after it
        "[05:19:47] Epoch: [1]  [1480/1504]",  # a whole-second bracket before no dmlc-core line may be an elapsed clock
        "[05:19:47]Epoch: [1]  [1480/1504]",  # no space after the bracket: no prefix
        "12:00:01,step 5",  # no space after it: no prefix
        "  12:00:01 step 5",  # indented: a copy's
    ],
)
def test_what_is_no_time_of_day_prefix(line: str) -> None:
    read = utc_reader(NOON).read(line)
    assert read.at is None


def test_a_bracketed_clock_with_its_fraction_is_peeled_and_dated_as_a_time_of_day() -> None:
    """MAE's ``misc.py`` clock before every line: the record behind it is read as its own (``Training time 5:47:14``,
    the run's end) and the clock dates it; dmlc-core's whole-second one (XGBoost's CLI, MXNet) the same, and a
    boosting round's bracket after it stays the record's (``[9]\ttest-error:…``)."""
    peel = PrefixReader(dates=False)
    assert peel.read("[07:20:32.390498] Training time 5:47:14").message == "Training time 5:47:14"
    assert peel.read("[20:01:41] [9]\ttest-error:0.027195").message == "[9]\ttest-error:0.027195"
    read = utc_reader(NOON).read("[11:59:50] [9]\ttest-error:0.027195\ttrain-error:0.010231")
    assert (read.message, read.at) == ("[9]\ttest-error:0.027195\ttrain-error:0.010231", NOON - 10)
    read = utc_reader(NOON).read("[07:20:32.390498] Training time 5:47:14")
    assert read.message == "Training time 5:47:14"
    assert read.at == pytest.approx(calendar.timegm((2026, 3, 3, 7, 20, 32, 0, 0, 0)) + 0.390498)


def test_a_bracketed_clock_past_midnight_is_the_next_day() -> None:
    # written at 00:30 on 3 March: [23:59:50.5] was 2 March's, [00:00:10.5] a day on from it (20 s later), as the bare
    # clock's lines are dated
    reader = utc_reader(calendar.timegm((2026, 3, 3, 0, 30, 0, 0, 0, 0)))
    first = reader.read("[23:59:50.500000] Epoch: [3]  [100/500]  loss: 2.5").at
    second = reader.read("[00:00:10.500000] Epoch: [3]  [110/500]  loss: 2.4").at
    assert first == calendar.timegm((2026, 3, 2, 23, 59, 50, 0, 0, 0)) + 0.5
    assert second is not None and first is not None and second - first == pytest.approx(20.0)


def test_verse_s_step_time_comes_from_its_lines_times(tmp_path: Path) -> None:
    lines = body(VERSE)
    assert detect(lines) == "generic"
    snapshot = read_cold(tmp_path, lines, name=VERSE)
    # 02:31:56 -> 02:33:59 for iterations 100 -> 200: 123 s over 100 iterations, 1.23 s each (not the 123 s that
    # ``seconds: 123.053`` prints for the interval); the loss nan since iteration 100
    training = snapshot["training"]
    assert training["step"] == 200
    assert training["step_seconds"] == pytest.approx(1.23, abs=0.005)
    assert snapshot["state"] == "diverged"


def test_a_time_of_day_after_a_dated_record_is_on_that_record_s_day() -> None:
    # XGBoost4J's tracker dates its rounds in full, the booster stamps a time of day only (salesforce/TransmogrifAI#370):
    # the file written on 3 March 2026, the lines are 22 July 2019's, 16:37:26.989 then 16:37:27 (0.011 s later)
    reader = utc_reader(NOON)
    dated = reader.read("[INFO] [07/22/2019 16:37:26.989] [RabitTracker-akka.actor.default-dispatcher-17]"
                        " [akka://RabitTracker/user/Handler] [22]        train-error:0.139785").at
    clock = reader.read("[16:37:27] /xgboost/src/tree/updater_prune.cc:74: tree pruning end, 1 roots, 8 extra nodes").at
    assert dated == pytest.approx(calendar.timegm((2019, 7, 22, 16, 37, 26, 0, 0, 0)) + 0.989)
    assert clock == calendar.timegm((2019, 7, 22, 16, 37, 27, 0, 0, 0))
    # past midnight after a dated record: the next day (20 s after 23:59:50 on 2 March 2026)
    reader = utc_reader(NOON)
    assert reader.read("2026-03-02 23:59:50 INFO step 100 loss 2.5").at == calendar.timegm((2026, 3, 2, 23, 59, 50, 0, 0, 0))
    assert reader.read("00:00:10 step 101 loss 2.4").at == calendar.timegm((2026, 3, 3, 0, 0, 10, 0, 0, 0))


def test_the_real_mixed_stamps_log_is_not_stalled_for_years(tmp_path: Path, utc_zone: None) -> None:
    lines = body("generic-transmogrifai-issue370-akka-dated-rounds-beside-xgboost-time-only-stamps.log")
    snapshot = read_cold(tmp_path, lines)
    assert snapshot["training"]["step"] == 23 and snapshot["training"]["stalled"] is False
    # its latest time is its last round's, 16:37:26.992 on 22 July 2019 (the clock lines after it, whole seconds, are
    # 16:37:26 that day): not the day the file was written, years on
    assert snapshot["source"]["last_event_at"] == calendar.timegm((2019, 7, 22, 16, 37, 26, 0, 0, 0)) + 0.992
