"""Composed logs, read cold end to end, of what a trainer says besides its step lines: its end
line, its start-up records, its saved state file, a crash glued to its bar. The figures are
worked out by hand from the lines (another trainer's or version's wording than the real logs
under tests/data/real/ with the same class)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import to_json

T0 = 1_800_000_000.0


def cold(tmp_path: Path, name: str, text: str, now: float = T0 + 60) -> dict[str, Any]:
    log = tmp_path / name
    log.write_text(text, encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: now)
    monitor.backlog(read_backwards(log))
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(now)))
    return data


def test_the_trainer_s_end_line_through_a_logger_ends_the_run(tmp_path: Path) -> None:
    """An older Trainer through python logging: bars, dicts, then ``Training completed.`` and
    a final evaluation, no ``train_runtime`` dict kept: done at step 30 of 30, not evaluating."""
    bar = "100%|██████████| 30/30 [01:00<00:00,  2.00s/it]"
    lines = [
        "[INFO|trainer.py:1700] 2023-03-01 10:00:00,000 >> ***** Running training *****",
        "[INFO|trainer.py:1706] 2023-03-01 10:00:00,000 >>   Total optimization steps = 30",
        " 33%|███▎      | 10/30 [00:20<00:40,  2.00s/it]{'loss': 2.5, 'learning_rate': 4e-05, 'epoch': 1.0}",
        " 67%|██████▋   | 20/30 [00:40<00:20,  2.00s/it]{'loss': 2.1, 'learning_rate': 2e-05, 'epoch': 2.0}",
        bar + "{'loss': 1.9, 'learning_rate': 0.0, 'epoch': 3.0}",
        "[INFO|trainer.py:1934] 2023-03-01 10:01:00,000 >> ",
        "",
        "Training completed. Do not forget to share your model on huggingface.co/models =)",
        "",
        "[INFO|trainer.py:3100] 2023-03-01 10:01:01,000 >> ***** Running Evaluation *****",
        "[INFO|trainer.py:3102] 2023-03-01 10:01:01,000 >>   Num examples = 100",
    ]
    data = cold(tmp_path, "train.log", "\n".join(lines) + "\n")
    assert (data["state"], data["training"]["step"], data["training"]["total_steps"]) == ("done", 30, 30)
    assert data["training"]["loss"] == 1.9 and data["training"]["paused"] is None
