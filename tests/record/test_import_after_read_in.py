"""The first-start import waits for the live view's cold start: the import child's memory never
sits on top of the cold start's peak (the process tree's peak is the larger of the two, not their sum)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.record import recorder as recorder_module
from app.record.recorder import Recorder
from app.store import History


def nanogpt_log(steps: int) -> str:
    """nanoGPT's own print (``iter N: loss X, time Yms, mfu Z%``)."""
    return "".join(f"iter {s}: loss {10 - s / 1000:.4f}, time 120.00ms, mfu 30.00%\n" for s in range(1, steps + 1))


class AskedMonitor(Monitor):
    """A monitor that says when the import first asks whether its cold start is done."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.asked = threading.Event()

    def wait_read_in(self, timeout: float) -> bool:
        self.asked.set()
        return super().wait_read_in(timeout)


def wait_for(condition: threading.Event | None, test: object = None, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if (condition is not None and condition.is_set()) or (callable(test) and test()):
            return
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


def test_the_import_starts_only_once_the_live_view_has_read_the_log_in(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    log_path = tmp_path / "train.log"
    log_path.write_text(nanogpt_log(2000))
    listed = threading.Event()
    files_to_import = recorder_module.files_to_import

    def listing(*args: object, **kwargs: object) -> list[Path]:
        listed.set()
        return files_to_import(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(recorder_module, "files_to_import", listing)
    monitor = AskedMonitor(log_path)  # not started: its cold start is run below, by hand
    recorder = Recorder(History(tmp_path / "data"), log_path, machine="read-in-test")
    recorder.start(monitor)
    try:
        progress = recorder.progress
        assert progress is not None
        wait_for(None, lambda: monitor.asked.is_set() or listed.is_set())
        assert not listed.is_set(), "the import began before the live view's cold start"
        assert not progress.done
        monitor.backlog(read_backwards(log_path))
        wait_for(None, lambda: progress.done, seconds=60)
        assert listed.is_set() and progress.problem is None and progress.files_done == 1
    finally:
        recorder.stop()
        monitor.stop()


def test_the_monitor_is_read_in_after_its_backlog_or_its_first_lines(tmp_path: Path) -> None:
    log_path = tmp_path / "train.log"
    log_path.write_text(nanogpt_log(50))
    read_back = Monitor(log_path)
    assert not read_back.wait_read_in(0)
    read_back.backlog(read_backwards(log_path))
    assert read_back.wait_read_in(0)
    empty = Monitor(log_path)
    empty.backlog(iter([]))  # a file with nothing to read back
    assert empty.wait_read_in(0)
    appeared = Monitor(tmp_path / "later.log")  # no file at start: its first lines come as new lines
    assert not appeared.wait_read_in(0)
    appeared.lines(nanogpt_log(3).splitlines())
    assert appeared.wait_read_in(0)
