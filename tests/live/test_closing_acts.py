"""A finished run read by its closing acts: training over, its test run, its loggers closed, with no step line read
(the Lightning-Hydra template's task wrapper logs through hydra's prefix and draws its progress with a rich bar the log
keeps none of). Composed logs in the template's words (its ``train.py`` and ``utils.close_loggers``), their answers
worked out by hand in the comments; a start said after the end is a run again, never done.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.coldread import read_cold


def shown(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    """The snapshot of a log read cold, as ``run.py once --at end`` reads it: at its last line's time."""
    return read_cold(tmp_path, lines, name="train.log")


def _line(second: int, logger: str, message: str) -> str:
    return f"[2024-03-02 10:00:{second:02d},000][{logger}][INFO] - {message}"


_RUN = [
    _line(0, "__main__", "Instantiating trainer <lightning.pytorch.trainer.Trainer>"),
    _line(1, "__main__", "Starting training!"),
    _line(7, "__main__", "Starting testing!"),
    _line(9, "__main__", "Best ckpt path: logs/train/runs/2024-03-02_10-00-00/checkpoints/epoch_004.ckpt"),
    _line(10, "src.utils.utils", "Closing loggers..."),
    _line(10, "src.utils.utils", "Output dir: logs/train/runs/2024-03-02_10-00-00"),
]


def test_a_run_whose_loggers_closed_after_its_test_is_done(tmp_path: Path) -> None:
    # trained, tested against its best checkpoint, loggers closed: the run is over, no step line to place it
    data = shown(tmp_path, _RUN)
    assert data["state"] == "done"
    assert data["training"] is None or data["training"]["step"] is None
    assert "waiting" not in data["status_line"]


def test_a_run_started_again_after_one_closed_is_waiting(tmp_path: Path) -> None:
    # a multirun's next job: the first one's loggers closed, then training said to start again and nothing since
    again = [*_RUN, _line(12, "__main__", "Instantiating trainer <lightning.pytorch.trainer.Trainer>"),
             _line(13, "__main__", "Starting training!")]
    data = shown(tmp_path, again)
    assert data["state"] == "working"
    assert data["details"] == ["waiting for the first training step"]


def test_loggers_closed_after_a_crash_leave_it_a_crash(tmp_path: Path) -> None:
    # the wrapper closes its loggers in ``finally``, after the exception is logged: the crash came first and decides
    crashed = [*_RUN[:2], "Traceback (most recent call last):",
               '  File "src/utils/utils.py", line 40, in wrap',
               "    metric_dict, object_dict = task_func(cfg=cfg)",
               "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB",
               _line(5, "src.utils.utils", "Closing loggers...")]
    data = shown(tmp_path, crashed)
    assert data["state"] == "crashed"
