"""Sleeping on a folder's inotify events: woken by writes and by stop, never by reading or by nothing."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from app.ingest import wake
from app.ingest.tailer import Tailer
from app.ingest.wake import ALL, FolderEvents, FolderGone, Waker
from tests.ingest.logs import append
from tests.ingest.test_tailer import RecordingSink, wait_until

pytestmark = pytest.mark.skipif(not wake.available(), reason="inotify is Linux's; elsewhere the tailer uses watchfiles")


@pytest.fixture
def waker() -> Iterator[Waker]:
    w = Waker()
    yield w
    w.close()


def test_an_append_is_reported_by_name(tmp_path: Path, waker: Waker) -> None:
    log = tmp_path / "miner.log"
    log.write_text("")
    with closing(FolderEvents(tmp_path, waker)) as events:
        append(log, "a line\n")
        assert "miner.log" in events.wait(5)


def test_reading_the_log_wakes_nobody(tmp_path: Path, waker: Waker) -> None:
    log = tmp_path / "miner.log"
    log.write_text("line\n" * 1000)
    with closing(FolderEvents(tmp_path, waker)) as events:
        with open(log, "rb") as f:
            f.read()
        os.stat(log)
        assert events.wait(0.3) == set()


def test_a_quiet_folder_sleeps_until_the_deadline(tmp_path: Path, waker: Waker) -> None:
    with closing(FolderEvents(tmp_path, waker)) as events:
        started = time.monotonic()
        assert events.wait(0.4) == set()
        assert time.monotonic() - started >= 0.35


def test_a_wake_cuts_the_sleep_short(tmp_path: Path, waker: Waker) -> None:
    with closing(FolderEvents(tmp_path, waker)) as events:
        threading.Timer(0.1, waker.wake).start()
        started = time.monotonic()
        assert events.wait(30) == set()
        assert time.monotonic() - started < 10
        # The wake-up was used up: the next sleep is a full one again.
        assert events.wait(0.2) == set()


def test_renames_creations_and_deletions_are_reported(tmp_path: Path, waker: Waker) -> None:
    log = tmp_path / "miner.log"
    log.write_text("x\n")
    with closing(FolderEvents(tmp_path, waker)) as events:
        log.rename(tmp_path / "miner.log.1")
        (tmp_path / "miner.log").write_text("")
        (tmp_path / "miner.log.1").unlink()
        seen: set[str] = set()
        deadline = time.monotonic() + 5
        while {"miner.log", "miner.log.1"} - seen and time.monotonic() < deadline:
            seen |= events.wait(1)
        assert {"miner.log", "miner.log.1"} <= seen


def test_a_change_to_the_folder_itself_asks_for_everything(tmp_path: Path, waker: Waker) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    with closing(FolderEvents(folder, waker)) as events:
        folder.chmod(0o750)
        assert ALL in events.wait(5)


def test_the_folder_going_away_ends_the_watch(tmp_path: Path, waker: Waker) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    with closing(FolderEvents(folder, waker)) as events:
        shutil.rmtree(folder)
        with pytest.raises(FolderGone):
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                events.wait(1)


def test_a_missing_folder_cannot_be_watched(tmp_path: Path, waker: Waker) -> None:
    with pytest.raises(FileNotFoundError):
        FolderEvents(tmp_path / "nowhere", waker)


class CountingTailer(Tailer):
    """A tailer that counts its polls (each a wake-up of its thread)."""

    polls = 0

    def _poll(self) -> None:
        self.polls += 1
        super()._poll()


def test_a_quiet_log_wakes_the_tailer_only_for_its_heartbeat(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    log.write_text("first\n")
    sink = RecordingSink()
    tailer = CountingTailer(log, sink, poll_interval_s=0.5)
    tailer.start()
    try:
        wait_until(lambda: sink.backlog_calls == 1)
        # A neighbour writing another file in the same folder is no reason to look either.
        for _ in range(20):
            append(tmp_path / "other.txt", "noise\n")
        before = tailer.polls
        time.sleep(2.0)
        polls = tailer.polls - before
        append(log, "second\n")
        wait_until(lambda: sink.live() == ["second"])
    finally:
        tailer.stop()
    assert 2 <= polls <= 5, polls  # the heartbeat, every 0.5 s; watchfiles' 20 ms step would be ~100


def test_stop_wakes_a_tailer_asleep_on_a_long_heartbeat(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    log.write_text("first\n")
    sink = RecordingSink()
    tailer = Tailer(log, sink, poll_interval_s=3600)
    tailer.start()
    wait_until(lambda: sink.backlog_calls == 1)
    time.sleep(0.2)
    started = time.monotonic()
    tailer.stop(timeout=30)
    assert tailer._thread is not None and not tailer._thread.is_alive()
    assert time.monotonic() - started < 10


def test_without_inotify_watchfiles_still_follows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.ingest.tailer.available", lambda: False)
    log = tmp_path / "miner.log"
    log.write_text("first\n")
    sink = RecordingSink()
    tailer = Tailer(log, sink, poll_interval_s=30)
    assert not tailer._native
    tailer.start()
    try:
        wait_until(lambda: sink.backlog_calls == 1)
        deadline = time.monotonic() + 5
        while not sink.live():  # watchfiles starts just after the first poll
            assert time.monotonic() < deadline, "no change events from watchfiles"
            append(log, "ping\n")
            time.sleep(0.1)
    finally:
        tailer.stop()


def test_a_filesystem_without_events_is_still_read_by_the_heartbeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # NFS and WSL-mounted drives accept an inotify watch but never report a remote writer's lines.
    def no_events(self: FolderEvents, timeout_seconds: float) -> set[str]:
        time.sleep(max(0.0, min(timeout_seconds, 0.05)))
        return set()

    monkeypatch.setattr(FolderEvents, "wait", no_events)
    log = tmp_path / "miner.log"
    log.write_text("first\n")
    sink = RecordingSink()
    tailer = Tailer(log, sink, poll_interval_s=0.3)
    tailer.start()
    try:
        wait_until(lambda: sink.backlog_calls == 1)
        append(log, "second\n")
        wait_until(lambda: sink.live() == ["second"], timeout=3, message="the heartbeat's read")
    finally:
        tailer.stop()


def test_a_tailer_on_inotify_never_loads_watchfiles(tmp_path: Path) -> None:
    # What only a system without inotify or kqueue needs is not in every server's memory.
    import subprocess
    import sys

    log = tmp_path / "train.log"
    log.write_text("iter 0: loss 4.0000, time 100.00ms, mfu 40.00%\n")
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from app.ingest.tailer import Tailer\n"
        "from tests.ingest.test_tailer import RecordingSink, wait_until\n"
        "sink = RecordingSink()\n"
        f"tailer = Tailer(Path({str(log)!r}), sink, poll_interval_s=0.2)\n"
        "tailer.start()\n"
        "wait_until(lambda: sink.backlog_calls == 1)\n"
        "time.sleep(0.5)\n"  # a few heartbeats asleep in inotify
        "tailer.stop()\n"
        "print('watchfiles' in sys.modules)\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "False"
