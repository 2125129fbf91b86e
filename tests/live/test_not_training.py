"""Progress and lines that are not the training's, read as neither its position nor its figures: a data set's scan bar,
an evaluation's bar after training ended, an evaluation's ordinal. Each class on real logs from tests/data/real/ (each
cites its source in its header) and on composed logs whose answers are worked out by hand in the comments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.coldread import read_cold
from tests.reallogs import body


def shown(tmp_path: Path, lines: list[str], name: str = "train.log") -> dict[str, Any]:
    """The snapshot of a log read cold, as ``run.py once --at end`` reads it: at its last line's time."""
    return read_cold(tmp_path, lines, name=name)


# --- a data set's scan bar (ultralytics, YOLOv5): images counted, no training step -------------------------------

def test_a_whole_scan_bar_is_no_training_step(tmp_path: Path) -> None:
    name = "startup-yolov5-issue3656-scan-bars-full-brackets-200-epochs-planned-no-row-yet.log"
    data = shown(tmp_path, body(name), name)
    # ``train: Scanning '…' images and labels...4300 found, …: 100%|…| 4300/4300 [00:31<00:00, 137.61it/s]``: 4300
    # images scanned, then ``Starting training for 200 epochs...`` and nothing more: waiting for the first step
    assert data["training"] is None or data["training"]["step"] is None
    assert "4300" not in data["status_line"] and "343" not in data["status_line"]
    assert data["state"] == "working" and data["details"] == ["waiting for the first training step (200 epochs planned)"]


def test_a_crash_after_the_scan_bar_is_before_any_step(tmp_path: Path) -> None:
    # composed: ultralytics' scan of a cached label set (its bar whole, no rate: ``[00:00<?, ?it/s]``), then a dataloader
    # worker's traceback before the first epoch's header. Crashed, its error named; no step reached.
    lines = [
        "\x1b[34m\x1b[1mtrain: \x1b[0mScanning /data/coins/labels/train.cache... 412 images, 3 backgrounds, 0 corrupt: "
        "100%|██████████| 412/412 [00:00<?, ?it/s]",
        "\x1b[34m\x1b[1mval: \x1b[0mScanning /data/coins/labels/val.cache... 88 images, 0 backgrounds, 0 corrupt: "
        "100%|██████████| 88/88 [00:00<?, ?it/s]",
        "Traceback (most recent call last):",
        '  File "/opt/conda/lib/python3.10/multiprocessing/spawn.py", line 120, in spawn_main',
        "    exitcode = _main(fd, parent_sentinel)",
        "EOFError: Ran out of input",
    ]
    data = shown(tmp_path, lines)
    assert data["state"] == "crashed"
    assert any("EOFError: Ran out of input" in d for d in data["details"])
    assert data["training"] is None or data["training"]["step"] is None
    assert "412" not in data["status_line"] and "88" not in data["status_line"]
