"""The kqueue sleeper (macOS, the BSDs), tested on any system through a fake kqueue at its seam.

The fake stands where ``select.kqueue`` and ``select.kevent`` would: it records what is
registered and hands back the events a test fires. What runs for real is everything else: the
descriptors opened on the folder and the file, the names returned, the file let go of and watched
again after a delete or a rename, the tailer reading on those wake-ups and on its heartbeat. Only
the kernel's side (which events macOS sends for which write) is left to a Mac.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.ingest import kqueue
from app.ingest.kqueue import (
    FILE_NOTES,
    FOLDER_NOTES,
    KQ_FILTER_READ,
    KQ_FILTER_VNODE,
    KQ_NOTE_DELETE,
    KQ_NOTE_EXTEND,
    KQ_NOTE_RENAME,
    KQ_NOTE_WRITE,
    FileEvents,
)
from app.ingest.tailer import Tailer
from app.ingest.wake import ALL, FolderGone, Waker
from tests.ingest.logs import append
from tests.ingest.test_tailer import RecordingSink, wait_until


@dataclass
class KEvent:
    ident: int
    filter: int
    flags: int = 0
    fflags: int = 0


class FakeKqueue:
    """A kqueue whose events are fired by the test; ``control`` sleeps until one is, or its timeout."""

    def __init__(self) -> None:
        self.registered: list[KEvent] = []
        self.timeouts: list[float | None] = []
        self.closed = False
        self._fired: list[KEvent] = []
        self._ready = threading.Condition()

    def control(self, changelist: list[KEvent] | None, max_events: int, timeout: float | None = None) -> list[KEvent]:
        if changelist:
            self.registered.extend(changelist)
        if max_events == 0:
            return []
        self.timeouts.append(timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._ready:
            while not self._fired:
                self._fire_readable()  # as the kernel would: a waker's pipe with a byte in it
                left = None if deadline is None else deadline - time.monotonic()
                if self._fired or (left is not None and left <= 0):
                    break
                self._ready.wait(0.02 if left is None else min(left, 0.02))
            events, self._fired = self._fired[:max_events], self._fired[max_events:]
            return events

    def _fire_readable(self) -> None:
        readers = {e.ident for e in self.registered if e.filter == KQ_FILTER_READ}
        if readers:
            with contextlib.suppress(OSError, ValueError):  # a descriptor closed meanwhile
                ready, _, _ = select.select(sorted(readers), [], [], 0)
                self._fired.extend(KEvent(fd, KQ_FILTER_READ) for fd in ready)

    def close(self) -> None:
        self.closed = True

    def fire(self, ident: int, fflags: int = 0, filter: int = KQ_FILTER_VNODE) -> None:
        with self._ready:
            self._fired.append(KEvent(ident, filter, 0, fflags))
            self._ready.notify_all()

    def watched(self, path: Path) -> int:
        """The newest descriptor registered for ``path`` (its VNODE filter), found through /proc."""
        for event in reversed(self.registered):
            if event.filter == KQ_FILTER_VNODE:
                try:
                    if os.readlink(f"/proc/self/fd/{event.ident}") == str(path):
                        return event.ident
                except OSError:
                    continue
        raise AssertionError(f"{path} is not watched")


pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the fake finds descriptors in /proc")


@pytest.fixture
def waker() -> Iterator[Waker]:
    w = Waker()
    yield w
    w.close()


@pytest.fixture
def fake() -> FakeKqueue:
    return FakeKqueue()


def _events(folder: Path, waker: Waker, file: Path | None, fake: FakeKqueue) -> FileEvents:
    return FileEvents(folder, waker, file, kqueue=lambda: fake, kevent=KEvent)


def test_the_folder_the_file_and_the_waker_are_registered(tmp_path: Path, waker: Waker, fake: FakeKqueue) -> None:
    log = tmp_path / "miner.log"
    log.write_text("")
    with closing(_events(tmp_path, waker, log, fake)):
        kinds = {(e.filter, e.fflags) for e in fake.registered}
        assert (KQ_FILTER_READ, 0) in kinds
        assert fake.registered[0].ident == waker.fileno()
        assert fake.watched(tmp_path) != fake.watched(log)
        file_event = next(e for e in fake.registered if e.ident == fake.watched(log))
        assert file_event.fflags == KQ_NOTE_WRITE | KQ_NOTE_EXTEND | KQ_NOTE_DELETE | KQ_NOTE_RENAME == FILE_NOTES
        folder_event = next(e for e in fake.registered if e.ident == fake.watched(tmp_path))
        assert folder_event.fflags == FOLDER_NOTES
    assert fake.closed


@pytest.mark.parametrize("note", [KQ_NOTE_WRITE, KQ_NOTE_EXTEND])
def test_a_write_to_the_file_is_reported_by_its_name(tmp_path: Path, waker: Waker, fake: FakeKqueue, note: int) -> None:
    log = tmp_path / "miner.log"
    log.write_text("")
    with closing(_events(tmp_path, waker, log, fake)) as events:
        fake.fire(fake.watched(log), note)
        assert events.wait(5) == {"miner.log"}


def test_nothing_sleeps_until_the_timeout_and_says_nothing(tmp_path: Path, waker: Waker, fake: FakeKqueue) -> None:
    with closing(_events(tmp_path, waker, None, fake)) as events:
        started = time.monotonic()
        assert events.wait(0.2) == set()
        assert time.monotonic() - started >= 0.15
        assert fake.timeouts[-1] == pytest.approx(0.2)


def test_the_waker_cuts_the_sleep_short(tmp_path: Path, waker: Waker, fake: FakeKqueue) -> None:
    with closing(_events(tmp_path, waker, None, fake)) as events:
        waker.wake()
        fake.fire(waker.fileno(), filter=KQ_FILTER_READ)
        assert events.wait(5) == set()
        with pytest.raises(BlockingIOError):  # drained: no wake-up left pending
            os.read(waker.fileno(), 1)


def test_a_change_in_the_folder_may_be_any_name(tmp_path: Path, waker: Waker, fake: FakeKqueue) -> None:
    with closing(_events(tmp_path, waker, tmp_path / "miner.log", fake)) as events:
        assert events.file is None  # not there yet
        (tmp_path / "miner.log").write_text("")
        fake.fire(fake.watched(tmp_path), KQ_NOTE_WRITE)
        assert events.wait(5) == {ALL}
        events.wait(0)  # the file, now there, is watched from the next wait on
        assert events.file == tmp_path / "miner.log"
        fake.watched(tmp_path / "miner.log")


@pytest.mark.parametrize("note", [KQ_NOTE_RENAME, KQ_NOTE_DELETE])
def test_a_file_renamed_or_deleted_is_let_go_of_and_its_successor_watched(
    tmp_path: Path, waker: Waker, fake: FakeKqueue, note: int
) -> None:
    log = tmp_path / "miner.log"
    log.write_text("old\n")
    with closing(_events(tmp_path, waker, log, fake)) as events:
        old_fd = fake.watched(log)
        if note == KQ_NOTE_RENAME:
            log.rename(tmp_path / "miner.log.1")
        else:
            log.unlink()
        fake.fire(old_fd, note)
        assert events.wait(5) == {"miner.log"}
        assert events.file is None
        with pytest.raises(AssertionError, match="is not watched"):
            fake.watched(tmp_path / "miner.log.1" if note == KQ_NOTE_RENAME else log)  # its descriptor closed
        log.write_text("new\n")
        events.wait(0)
        assert events.file == log
        new_fd = fake.watched(log)
        fake.fire(new_fd, KQ_NOTE_WRITE)
        assert events.wait(5) == {"miner.log"}


def test_the_folder_going_away_ends_the_watch(tmp_path: Path, waker: Waker, fake: FakeKqueue) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    with closing(_events(folder, waker, None, fake)) as events:
        fake.fire(fake.watched(folder), KQ_NOTE_DELETE)
        with pytest.raises(FolderGone):
            events.wait(5)


def test_follow_moves_the_watch_to_another_file(tmp_path: Path, waker: Waker, fake: FakeKqueue) -> None:
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text("")
    b.write_text("")
    with closing(_events(tmp_path, waker, a, fake)) as events:
        a_fd = fake.watched(a)
        assert a_fd >= 0
        events.follow(b)
        assert events.file == b
        assert fake.watched(b) >= 0
        with pytest.raises(AssertionError, match="is not watched"):
            fake.watched(a)  # its descriptor closed (the number may be b's now)


# --- the tailer on the fake kqueue --------------------------------------------------------


@pytest.fixture
def on_kqueue(monkeypatch: pytest.MonkeyPatch, fake: FakeKqueue) -> FakeKqueue:
    """The tailer as on macOS: no inotify, ``select.kqueue`` there (the fake)."""
    monkeypatch.setattr("app.ingest.tailer.available", lambda: False)
    monkeypatch.setattr(kqueue, "available", lambda: True)
    monkeypatch.setattr(select, "kqueue", lambda: fake, raising=False)
    monkeypatch.setattr(select, "kevent", KEvent, raising=False)
    return fake


def test_the_tailer_reads_on_the_files_events_and_reopens_after_a_rename(tmp_path: Path, on_kqueue: FakeKqueue) -> None:
    fake = on_kqueue
    log = tmp_path / "miner.log"
    log.write_text("first\n")
    sink = RecordingSink()
    tailer = Tailer(log, sink, poll_interval_s=60)  # no heartbeat within the test: only events wake it
    assert tailer._native
    tailer.start()
    try:
        wait_until(lambda: sink.backlog_calls == 1)
        wait_until(lambda: any(e.filter == KQ_FILTER_VNODE and e.fflags == FILE_NOTES for e in fake.registered))
        append(log, "second\n")
        fake.fire(fake.watched(log), KQ_NOTE_EXTEND)
        wait_until(lambda: sink.live() == ["second"], timeout=3, message="the read on NOTE_EXTEND")
        old_fd = fake.watched(log)
        log.rename(tmp_path / "miner.log.1")
        log.write_text("third\n")
        fake.fire(old_fd, KQ_NOTE_RENAME)
        wait_until(lambda: "third" in sink.live(), timeout=3, message="the new file read after the rename")
        wait_until(lambda: sum(e.fflags == FILE_NOTES for e in fake.registered) == 2, timeout=3,
                   message="the new file watched")
        assert fake.watched(log) >= 0
        append(log, "fourth\n")
        fake.fire(fake.watched(log), KQ_NOTE_WRITE)
        wait_until(lambda: sink.live()[-1:] == ["fourth"], timeout=3, message="the new file's write")
    finally:
        tailer.stop()


def test_the_tailer_on_kqueue_keeps_its_heartbeat(tmp_path: Path, on_kqueue: FakeKqueue) -> None:
    # A log on a network share: the kernel sends nothing for another machine's writes.
    log = tmp_path / "miner.log"
    log.write_text("first\n")
    sink = RecordingSink()
    tailer = Tailer(log, sink, poll_interval_s=0.3)
    tailer.start()
    try:
        wait_until(lambda: sink.backlog_calls == 1)
        append(log, "second\n")
        wait_until(lambda: sink.live() == ["second"], timeout=3, message="the heartbeat's read")
        assert all(t is not None and t <= 0.31 for t in on_kqueue.timeouts)
    finally:
        tailer.stop()
