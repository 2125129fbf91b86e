"""An undated log read cold says nothing of time its lines do not hold.

A log of dicts without dates or durations (HF's Trainer, TRL) gives its records no time apart: read after the file
was last written, its quiet is the file's age, and nothing says how far apart its records come (every
``logging_steps``, 500 by default). So no stall limit of a minute and a half, no "paused for evaluation" after an
evaluation's dict (its line says the evaluation ended), no count-down to a rate, and a record is said as one,
never as a step.
Real logs: tests/data/real/hf-sentence-transformers-pr2449-v3-loss-dicts-epoch-0.38-then-eval-dict.log (ten loss
dicts then an eval dict) and hf-trl-issue733-dicts-only.log (each cites its source).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import Snapshot
from tests.reallogs import body

T0 = time.mktime((2024, 5, 1, 12, 0, 0, 0, 0, -1))
ST = [line.rstrip() for line in body("hf-sentence-transformers-pr2449-v3-loss-dicts-epoch-0.38-then-eval-dict.log")]
TRL = [line.rstrip() for line in body("hf-trl-issue733-dicts-only.log")]
# Composed: three loss dicts and an eval dict, no dates, no durations.
COMPOSED = [
    "{'loss': 2.5, 'learning_rate': 4e-05, 'epoch': 0.1}",
    "{'loss': 2.25, 'learning_rate': 3e-05, 'epoch': 0.2}",
    "{'loss': 2.0, 'learning_rate': 2e-05, 'epoch': 0.3}",
    "{'eval_loss': 2.125, 'eval_runtime': 10.0, 'epoch': 0.3}",
]


def read(tmp_path: Path, lines: list[str], after_seconds: float) -> Snapshot:
    """The log written at T0, read cold ``after_seconds`` later."""
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    now = T0 + after_seconds
    monitor = Monitor(log, clock=lambda: now)
    monitor.backlog(read_backwards(log))
    return monitor.snapshot(now)


@pytest.mark.parametrize("lines", [ST, TRL, COMPOSED], ids=["sentence-transformers", "trl", "composed"])
def test_sixteen_minutes_after_its_last_write_an_undated_log_is_not_stalled_nor_paused(
        tmp_path: Path, lines: list[str]) -> None:
    snap = read(tmp_path, lines, 16 * 60)
    assert snap.state == "measuring" and "stalled" not in snap.status_line
    assert snap.training is not None and snap.training.stall_after_seconds == 3600.0  # (the hour HF's dicts may take)
    assert not any(line.startswith(("Paused", "Stalled")) for line in snap.details)
    assert snap.warmup.text is not None and "rate in" not in snap.warmup.text and "3 min of 3 min" not in snap.warmup.text
    assert snap.warmup.text.startswith("no timing read from this log")


@pytest.mark.parametrize("lines", [ST, COMPOSED], ids=["sentence-transformers", "composed"])
def test_two_hours_after_its_last_write_it_is_stalled_in_records_not_steps(tmp_path: Path, lines: list[str]) -> None:
    snap = read(tmp_path, lines, 2 * 3600)
    assert snap.state == "stalled"
    assert "Stalled: no logged record for 2 h 00 min (limit 1 h 00 min)" in snap.details
    assert not any("no step for" in line or "since the last step" in line for line in snap.details)


LLMC = [line.rstrip() for line in body("llmc-main-log-no-timing.log")]
FAIRSEQ = [line.rstrip() for line in body("generic-fairseq-issue301-legacy-epoch-progress-valid.log")]
# Composed: step lines 100 apart, no dates, no durations.
STEPS = [f"step {n} loss {3.0 - n / 1000:.3f}" for n in (100, 200, 300, 400)]


@pytest.mark.parametrize(("lines", "later"), [(LLMC, "measuring"), (FAIRSEQ, "stalled"), (STEPS, "stalled")],
                         ids=["llm.c", "fairseq", "composed"])
def test_untimed_step_lines_read_cold_are_held_to_the_first_lines_floor(
        tmp_path: Path, lines: list[str], later: str) -> None:
    """Step lines with no time of their own: five minutes after the file's last write is no stall (90 s would rest
    on nothing the log says); past ten minutes it is, unless an evaluation came last (llm.c's ``s:19560 tel:…``
    after its last step: a pause is held off for the hour)."""
    quiet = read(tmp_path, lines, 5 * 60)
    assert quiet.state != "stalled" and quiet.training is not None and quiet.training.stall_after_seconds == 600.0
    assert read(tmp_path, lines, 11 * 60).state == later
