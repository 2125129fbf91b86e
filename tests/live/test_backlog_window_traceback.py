"""A backlog's window that opens inside a traceback the program caught: the run's timeline keeps no crash it never had.

A step log read cold is read back only as far as its figures need (the newest megabyte at least: app/live/backlog.py),
so the window's first line can be inside a traceback whose header and the record above it (``… retrying``) are not
read. Composed log: a step a second, dated; after step 2000 a logged, caught error's traceback; then steps on to the
end, so many that the window's first line is the traceback's second frame (its bytes worked out below). Read from the
log's first line, the same traceback is caught (its record above it), and nothing of it shows.
"""

from __future__ import annotations

import calendar
import time
from pathlib import Path

import pytest

from tests.coldread import read_cold

pytestmark = pytest.mark.slow  # (a megabyte's log read cold, twice)

WINDOW_BYTES = 1 << 20  # the least a step log's cold start reads back (STEP_MIN_BYTES)
START = calendar.timegm((2024, 5, 1, 12, 0, 0, 0, 0, 0))
TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "/work/train.py", line 210, in save',
    "    torch.save(state, path)",
    '  File "/venv/lib/python3.11/site-packages/torch/serialization.py", line 628, in save',
    "    with _open_zipfile_writer(f) as opened_zipfile:",
    "OSError: [Errno 28] No space left on device",
]


def stamp(seconds: int) -> str:
    y, mo, d, h, mi, s = time.gmtime(START + seconds)[:6]
    return f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d},000"


def step(i: int) -> str:
    return f"{stamp(i)} INFO train: step {i} | loss {2.0 + (i % 7) / 100:.4f} | lr 3.0e-04"


def composed(opening: int) -> tuple[list[str], int]:
    """The log whose window opens at ``TRACEBACK[opening]``, and its last step."""
    head = [step(i) for i in range(1, 2001)] + [f"{stamp(2000)} WARNING train: failed to write the checkpoint, retrying"]
    after: list[str] = []
    size, i = sum(len(line) + 1 for line in TRACEBACK[opening:]), 2001
    while size + len(step(i)) + 1 < WINDOW_BYTES:
        after.append(step(i))
        size += len(after[-1]) + 1
        i += 1
    # the last line padded so that the newest lines reach the window's size at TRACEBACK[opening], not a line later
    after[-1] += " " * (WINDOW_BYTES - size)
    return head + TRACEBACK + after, i - 1


def test_a_window_opening_inside_a_caught_traceback_keeps_no_crash(tmp_path: Path, utc_zone: None) -> None:
    for opening in (1, 2):  # its second line (a frame's), its third (that frame's source line)
        lines, last = composed(opening)
        data = read_cold(tmp_path, lines, name=f"window-{opening}.log", mtime=START + last + 1)
        assert data["training"]["step"] == last
        assert data["training"]["crash"] is None
        assert [e for e in data["events"] if e["kind"] in ("crashed", "restart")] == [], opening
