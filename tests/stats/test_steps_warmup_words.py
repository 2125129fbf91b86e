"""The warm-up's words claim no span of the log's time the log does not hold.

The dicts are the ones of tests/data/real/hf-trl-issue733-dicts-only.log (TRL issue #733): undated,
so a file read at once gives its lines no time apart; a printed step time does (nanoGPT issue #110).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from tests.reallogs import body

DICTS = [line.rstrip() for line in body("hf-trl-issue733-dicts-only.log")]
ITERS = [line.rstrip() for line in body("generic-custom-nanogpt-issue110-iter-loss-time.log") if line.startswith("iter ")]
T0 = time.mktime((2024, 5, 1, 12, 0, 0, 0, 0, -1))


def warmup_text(tmp_path: Path, lines: list[str]) -> str | None:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    return monitor.snapshot(T0).warmup.text


def test_one_undated_record_claims_no_seconds_observed(tmp_path: Path) -> None:
    assert warmup_text(tmp_path, DICTS[:1]) == "measuring: 1 of 2 logged records"


def test_undated_records_read_at_once_claim_no_seconds_observed(tmp_path: Path) -> None:
    """Two dicts arrive together: the log says nothing of the time between them, so no ``0 s of 3 min``."""
    text = warmup_text(tmp_path, DICTS[:2])
    assert text is not None and "0 s" not in text and text.startswith("measuring: 2 of ")


def test_a_printed_step_time_is_time_observed(tmp_path: Path) -> None:
    """``time 561.94ms`` + ``time 563.15ms``: 1.1 s of the run's own time, said."""
    assert warmup_text(tmp_path, ITERS[:2]) == "measuring: 2 of 3 steps · 1 s of 3 min — rate in about 3 min"
