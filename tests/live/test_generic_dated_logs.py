"""The generic reader dates a line by its prefix, whichever logger wrote it: rates and stalls come
from the times printed, read cold at a modification time long after the last line.

Composed logs: one line every 30 s, 50 iterations apart (mmengine's default ``interval=50``),
for 10 minutes: 50 × 120 lines an hour = 6000 steps/h, worked out from the times alone (no line
prints a duration with a unit, so nothing else can give it).
"""

from __future__ import annotations

import calendar
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import to_json

START = calendar.timegm((2024, 1, 2, 12, 0, 0, 0, 0, 0))  # 2024-01-02 12:00:00 UTC
LINES = 21  # 0 … 600 s


def local(t: float, fmt: str) -> str:
    return time.strftime(fmt, time.localtime(t))


def utc(t: float, fmt: str) -> str:
    return time.strftime(fmt, time.gmtime(t))


PREFIXED: dict[str, Callable[[float, int], str]] = {
    "mmengine": lambda t, i: (f"{local(t, '%Y/%m/%d %H:%M:%S')} - mmengine - INFO - Iter(train) [{50 * i:4d}/5000]"
                              f"  lr: 1.0000e-04  eta: 1:22:00  time: 0.6000  data_time: 0.0100  loss: {2.5 - i / 100:.4f}"),
    "python logging asctime": lambda t, i: (f"{local(t, '%Y-%m-%d %H:%M:%S')},789 - __main__ - INFO - step {50 * i}"
                                            f" loss={2.5 - i / 100:.4f} lr=1e-4"),
    "bracketed date": lambda t, i: f"[{local(t, '%Y-%m-%d %H:%M:%S')}] step: {50 * i}, loss: {2.5 - i / 100:.4f}",
    "ISO-8601 with T and Z": lambda t, i: f"{utc(t, '%Y-%m-%dT%H:%M:%S')}.000Z iteration {50 * i} | loss {2.5 - i / 100:.4f}",
}


def read(tmp_path: Path, lines: list[str], now: float) -> dict[str, Any]:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (now, now))
    monitor = Monitor(log, clock=lambda: now)
    monitor.backlog(read_backwards(log))
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(now)))
    return data


@pytest.mark.parametrize("name", sorted(PREFIXED))
def test_a_date_prefix_gives_the_rate(tmp_path: Path, name: str) -> None:
    lines = [PREFIXED[name](START + 30 * i, i) for i in range(LINES)]
    last = START + 30 * (LINES - 1)
    data = read(tmp_path, lines, last)
    assert data["format"] == "generic" and data["step"] == 1000
    assert data["source"]["last_event_at"] == pytest.approx(last, abs=1.0)
    assert data["training"]["steps_per_hour"] == pytest.approx(6000, rel=1e-3)


@pytest.mark.parametrize("name", sorted(PREFIXED))
def test_a_date_prefix_gives_the_stall(tmp_path: Path, name: str) -> None:
    """Read two hours after the last line (and the second its asctime's 0.789 s may add): stalled, counted
    from the last line's own time."""
    lines = [PREFIXED[name](START + 30 * i, i) for i in range(LINES)]
    last = START + 30 * (LINES - 1)
    data = read(tmp_path, lines, last + 7201)
    assert data["state"] == "stalled" and data["state_since"] == pytest.approx(last, abs=1.0)
    assert data["status_line"].endswith("stalled 2h00m")
