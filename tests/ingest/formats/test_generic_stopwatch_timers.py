"""A stopwatch's time and a rate printed in the forms a script writes them: ``Timer: 0.6720`` (no unit), ``|| Timer: 0.4567
sec.``, ``samples_per_sec=412.5``, ``imgs/s 812.3``.

Composed logs in the shapes the scripts print (S3FD.pytorch's and DSFD's ``print('Timer: %.4f' % (t1 - t0))`` before
``epoch:E || iter:I || Loss:X``; DBPN's ``===> Epoch[E](I/N): Loss: X || Timer: T
sec.``); every reading below worked out by hand from the lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import T0, read_cold

DSFD = ["Loading base network...", "Timer: 0.6720", "epoch:0 || iter:10 || Loss:25.3421",
        "->> pal1 conf loss:3.1200 || pal1 loc loss:2.2100", "->>lr:0.0005", "Timer: 0.6698",
        "epoch:0 || iter:20 || Loss:21.1180", "->> pal1 conf loss:3.0100 || pal1 loc loss:2.1000", "->>lr:0.0005",
        "Timer: 0.6731", "epoch:0 || iter:30 || Loss:18.9003"]


def test_a_unitless_timer_alone_is_shown_as_printed_never_as_a_step_time(tmp_path: Path) -> None:
    # no dates and no rate to check its unit against: the figure under its name, the step's time not made up
    snapshot = read_cold(tmp_path, DSFD, at=T0)
    training = snapshot["training"]
    assert training["step"] == 30 and training["loss"] == 18.9003
    assert training["step_seconds"] is None
    assert training["figures"]["time/Timer"] == 0.6731
    assert "Times Timer 0.6731 (as printed, unit not printed)" in snapshot["details"]


def test_a_unitless_timer_in_the_record_is_shown_as_printed(tmp_path: Path) -> None:
    lines = [f"epoch:0 || iter:{i} || Loss:{loss} || timer: {t}"
             for i, loss, t in ((10, 25.3421, 0.6720), (20, 21.118, 0.6698), (30, 18.9003, 0.6731))]
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["training"]["step_seconds"] is None
    assert "Times timer 0.6731 (as printed, unit not printed)" in snapshot["details"]


@pytest.mark.parametrize("lines", [
    # DBPN's record, its stopwatch with its unit after a space
    [f"===> Epoch[1]({i}/100): Loss: 0.0123 || Timer: 0.4567 sec." for i in (10, 20, 30)],
    [f"iter {i} loss 0.0123 || Timer: 0.4567 sec." for i in (10, 20, 30)],
])
def test_a_timer_with_its_unit_is_the_step_s_time(tmp_path: Path, lines: list[str]) -> None:
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["training"]["step"] == 30
    assert snapshot["training"]["step_seconds"] == pytest.approx(0.4567)
    assert not any("unit not printed" in line for line in snapshot["details"])


def test_a_unitless_timer_on_dated_records_is_seconds_where_the_dates_agree(tmp_path: Path) -> None:
    # 10 iterations 6.7 s apart by the dates: 0.67 s each, as the timer prints
    lines = [f"2024-05-01 10:00:{s:02d} epoch:0 || iter:{i} || Loss:{loss} || timer: 0.67"
             for s, i, loss in ((0, 10, 3.2), (7, 20, 3.1), (13, 30, 3.0), (20, 40, 2.9))]
    snapshot = read_cold(tmp_path, lines)
    assert snapshot["training"]["step_seconds"] == pytest.approx(0.67)


@pytest.mark.parametrize(("record", "label"), [
    ("iter {i} loss 3.21 samples_per_sec=412.5", "412.5 samples/s"),
    ("[epoch 0][iter {i}] loss: 1.21 samples/sec: 412.5", "412.5 samples/s"),
    ("Epoch 1 step {i} loss 1.21 imgs/s 412.5", "imgs/s 412.5"),
])
def test_a_rate_under_a_library_s_name_is_read(tmp_path: Path, record: str, label: str) -> None:
    lines = [record.format(i=i) for i in (10, 20, 30)]
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["training"]["step"] == 30
    assert any(label in line for line in snapshot["details"]), snapshot["details"]
    assert snapshot["training"]["step_seconds"] is None  # (a rate of samples is no step's time)
