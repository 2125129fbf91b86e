"""A log read cold, as ``run.py once --at end`` reads it: every line from the start, the snapshot at
the last line's time."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import to_json

T0 = 1_800_000_000.0  # the modification time an undated log is given


def read_cold(tmp_path: Path, lines: list[str], *, name: str = "train.log", mtime: float = T0,
              dated: bool = False, at: float | None = None) -> dict[str, Any]:
    """The snapshot (its JSON form) of ``lines`` written to ``tmp_path / name``, modified at ``mtime``,
    taken at the last line's time, or at ``mtime`` where no line has one (``dated``: every caller's
    log has one, and a log without is a failure); ``at``: taken at that time instead."""
    log = tmp_path / name
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (mtime, mtime))
    monitor = Monitor(log, clock=lambda: mtime)
    monitor.backlog(read_backwards(log))
    now = monitor.last_event_at() if at is None else at
    assert now is not None or not dated, "no line of the log has a time"
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(now if now is not None else mtime)))
    return data
