"""Faults around the log file, end to end: real file → Tailer → Monitor (parser + tracker) → snapshot.

Every case writes a real-shaped miner log (``bench.synth``: DEBUG-heavy, a pass every ~15 s, one
training stretch), breaks the file the way the world does, and checks the same four things:
tokwatch keeps following, it loses no pass (``warmup.passes`` equals the passes written), it
counts none twice (``source.lines_read`` equals the lines written: nothing read twice, nothing
dropped), and the snapshot's ``source`` says what happened (problem, skipped counters).
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.ingest import files
from app.ingest import tailer as tailer_module
from app.live.monitor import Monitor
from app.snapshot import Snapshot
from bench.synth import IotaSynth, Truth
from tests.live.following import Live, append, following

START = time.mktime((2026, 9, 14, 9, 0, 0, 0, 0, -1))


def synth_log(minutes: float, *, seed: int = 1) -> tuple[list[bytes], Truth]:
    """A single-stretch miner log of ``minutes`` as lines with their newlines, and what it holds."""
    synth = IotaSynth(seed=seed, start=START, epoch_seconds=None, requeue_seconds=None, error_seconds=None)
    lines = [line.encode("utf-8") + b"\n" for line in synth.run(minutes * 60)]
    return lines, synth.truth


@pytest.fixture
def follow() -> Iterator[Callable[[Path], Live]]:
    yield from following(START + 86400)


def assert_whole(snap: Snapshot, truth: Truth, *, lines: int | None = None) -> None:
    """No pass lost or doubled, every line read exactly once, nothing unreadable, no open problem."""
    assert snap.warmup.passes == truth.passes
    assert snap.source.lines_read == (truth.lines if lines is None else lines)
    assert snap.source.bad_lines == 0
    assert snap.source.problem is None
    assert snap.layer == truth.layer
    assert snap.source.last_event_at == pytest.approx(truth.last_at, abs=0.001)


def test_rotation_by_rename_while_a_writer_appends(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(8)
    log = tmp_path / "miner.log"
    live = follow(log)
    live.wait("the tailer to look", lambda s: s.source.problem is not None)
    rotate_at = len(lines) // 2
    f = open(log, "ab")  # noqa: SIM115 - the writer's handle outlives the rename, as a real writer's does
    try:
        for i in range(0, len(lines), 40):
            if i >= rotate_at and not (tmp_path / "miner.log.1").exists():
                os.rename(log, tmp_path / "miner.log.1")
                # The writer has not noticed yet: these land in the renamed file.
                f.write(b"".join(lines[i : i + 40]))
                f.flush()
                f.close()
                f = open(log, "ab")  # noqa: SIM115
                continue
            f.write(b"".join(lines[i : i + 40]))
            f.flush()
            time.sleep(0.002)
    finally:
        f.close()
    snap = live.caught_up(truth.lines)
    time.sleep(0.05)  # a double read would show now
    snap = live.snap()
    assert_whole(snap, truth)
    assert snap.source.skipped["rotations"] == 1
    assert snap.source.path == str(log)


def test_copytruncate(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(6)
    half = len(lines) // 2
    log = tmp_path / "miner.log"
    log.write_bytes(b"")
    live = follow(log)
    live.wait("the tailer to open the file", lambda s: s.source.size_bytes == 0)
    append(log, b"".join(lines[:half]))
    live.caught_up(half)
    # logrotate copytruncate: copy, then cut the live file to zero; the writer goes on at 0.
    shutil.copyfile(log, tmp_path / "miner.log.1")
    os.truncate(log, 0)
    live.wait("the truncation", lambda s: s.source.skipped.get("truncations") == 1)
    append(log, b"".join(lines[half:]))
    snap = live.caught_up(truth.lines)
    assert_whole(snap, truth)
    assert snap.source.skipped["truncations"] == 1
    assert snap.source.skipped["rotations"] == 0


def test_deleted_then_recreated(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(6)
    half = len(lines) // 2
    log = tmp_path / "miner.log"
    log.write_bytes(b"")  # the miner's log exists when tokwatch starts, as usual
    live = follow(log)
    append(log, b"".join(lines[:half]))
    live.caught_up(half)
    log.unlink()
    snap = live.wait("the missing file reported", lambda s: "waiting for" in (s.source.problem or ""))
    assert snap.warmup.passes > 0  # the figures survive the gap
    append(log, b"".join(lines[half:]))
    snap = live.caught_up(truth.lines)
    assert_whole(snap, truth)
    assert snap.source.skipped["rotations"] == 1


def test_replaced_by_a_directory(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(6)
    half = len(lines) // 2
    log = tmp_path / "miner.log"
    log.write_bytes(b"")
    live = follow(log)
    append(log, b"".join(lines[:half]))
    live.caught_up(half)
    log.unlink()
    log.mkdir()
    snap = live.wait("the directory reported", lambda s: "is a directory" in (s.source.problem or ""))
    passes_meanwhile = snap.warmup.passes
    log.rmdir()
    append(log, b"".join(lines[half:]))
    snap = live.caught_up(truth.lines)
    assert passes_meanwhile > 0
    assert_whole(snap, truth)


def test_a_file_that_appears_mid_poll_then_is_replaced_by_a_directory(
    tmp_path: Path, follow: Callable[[Path], Live], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race, made deterministic: the poll's mode check never sees the file it then reads."""
    lines, truth = synth_log(6)
    half = len(lines) // 2
    log = tmp_path / "miner.log"
    real_stat = os.stat

    def stat_before_the_file(path: object, *args: object, **kwargs: object) -> os.stat_result:
        # Only the mode check in Tailer._poll loses the race; _stat_log, which opens the file, wins it.
        if os.fspath(path) == str(log) and sys._getframe(1).f_code.co_name == "_poll":  # type: ignore[arg-type]
            raise FileNotFoundError(2, "No such file or directory", str(log))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tailer_module.os, "stat", stat_before_the_file)
    live = follow(log)
    live.wait("the tailer to look", lambda s: s.source.problem is not None)
    append(log, b"".join(lines[:half]))
    live.caught_up(half)
    log.unlink()
    log.mkdir()
    monkeypatch.setattr(tailer_module.os, "stat", real_stat)  # from here on the mode check sees the folder
    live.wait("the directory reported", lambda s: "directory" in (s.source.problem or ""))
    log.rmdir()
    append(log, b"".join(lines[half:]))
    snap = live.caught_up(truth.lines, timeout=3)
    assert_whole(snap, truth)


def test_permission_denied_at_the_open_seam(
    tmp_path: Path, follow: Callable[[Path], Live], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As root chmod denies nothing, so the tailer's one open call refuses instead; then it is allowed again."""
    lines, truth = synth_log(6)
    half = len(lines) // 2
    log = tmp_path / "miner.log"
    live = follow(log)
    append(log, b"".join(lines[:half]))
    live.caught_up(half)

    denied = threading.Event()
    denied.set()
    real_open = files.open_for_reading

    def guarded_open(path: Path) -> files.ReadableFile:
        if denied.is_set():
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path)

    monkeypatch.setattr(files, "open_for_reading", guarded_open)
    os.rename(log, tmp_path / "miner.log.1")
    append(log, b"".join(lines[half:]))  # the new file exists but cannot be opened
    snap = live.wait("the refusal reported", lambda s: "permission denied" in (s.source.problem or ""))
    assert snap.source.lines_read == half
    denied.clear()
    snap = live.caught_up(truth.lines)
    assert_whole(snap, truth)


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file modes; the open-seam test covers the refusal")
def test_permission_denied_by_file_mode(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(6)
    half = len(lines) // 2
    log = tmp_path / "miner.log"
    live = follow(log)
    append(log, b"".join(lines[:half]))
    live.caught_up(half)
    os.rename(log, tmp_path / "miner.log.1")
    append(log, b"".join(lines[half:]))
    log.chmod(0)
    try:
        live.wait("the refusal reported", lambda s: "permission denied" in (s.source.problem or ""))
    finally:
        log.chmod(0o644)
    snap = live.caught_up(truth.lines)
    assert_whole(snap, truth)


def test_folder_missing_at_start_created_later(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(6)
    log = tmp_path / "Logs" / "IOTA Train at Home" / "2026-09-14-cli.log"
    live = follow(log)
    snap = live.wait("the missing folder reported", lambda s: "does not exist yet" in (s.source.problem or ""))
    assert snap.state == "waiting"
    log.parent.mkdir(parents=True)
    append(log, b"".join(lines[:100]))
    live.caught_up(100)
    append(log, b"".join(lines[100:]))
    snap = live.caught_up(truth.lines)
    assert_whole(snap, truth)


def test_folder_mode_missing_at_start_created_later(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    """``--log`` names the Train-at-Home folder, which the app has not created yet."""
    lines, truth = synth_log(6)
    folder = tmp_path / "IOTA Train at Home"
    live = follow(folder)
    live.wait("the missing folder reported", lambda s: s.source.problem is not None)
    folder.mkdir()
    log = folder / "2026-09-14-cli.log"
    append(log, b"".join(lines[:100]))
    live.caught_up(100)
    append(log, b"".join(lines[100:]))
    snap = live.caught_up(truth.lines)
    assert_whole(snap, truth)
    assert snap.source.path == str(log)


def test_a_log_that_appears_with_thousands_of_lines_is_read_whole(
    tmp_path: Path, follow: Callable[[Path], Live]
) -> None:
    """The file shows up already holding ~4000 lines: the tailer hands them over in one batch."""
    lines, truth = synth_log(6)
    log = tmp_path / "miner.log"
    live = follow(log)
    live.wait("the tailer to look", lambda s: s.source.problem is not None)
    (tmp_path / "staged.log").write_bytes(b"".join(lines))
    os.rename(tmp_path / "staged.log", log)
    snap = live.caught_up(truth.lines)
    assert_whole(snap, truth)


def test_truncated_and_refilled_past_the_old_offset_between_two_polls(
    tmp_path: Path, follow: Callable[[Path], Live]
) -> None:
    """A rewrite in one write (or a fast copytruncate): the size never goes back, the content does."""
    first, _ = synth_log(6, seed=1)
    lines, truth = synth_log(10, seed=2)  # a new run, its registration at the start
    assert sum(map(len, lines)) > sum(map(len, first))
    log = tmp_path / "miner.log"
    log.write_bytes(b"".join(first))
    live = follow(log)
    live.caught_up(len(first))
    with open(log, "r+b") as f:  # one open, truncate and refill before the tailer looks again
        f.truncate(0)
        f.write(b"".join(lines))
    snap = live.caught_up(len(first) + len(lines))
    time.sleep(0.05)
    snap = live.snap()
    assert snap.source.skipped["truncations"] == 1
    assert snap.source.lines_read == len(first) + len(lines)  # nothing of the new content skipped
    assert snap.warmup.passes == truth.passes  # its stretch, from its own registration
    assert snap.source.problem is None


def test_a_new_stream_dated_before_the_last_time_seen_counts(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    """After a rotation the relaunched miner's clock is 30 min behind (a DST fall-back, another
    machine's clock): its passes count, by activation id, none twice."""
    first, first_truth = synth_log(20, seed=1)
    log = tmp_path / "miner.log"
    log.write_bytes(b"".join(first))
    live = follow(log)
    live.caught_up(len(first))
    synth = IotaSynth(seed=2, start=START - 1800, epoch_seconds=None, requeue_seconds=None, error_seconds=None)
    second = [line.encode() + b"\n" for line in synth.run(15 * 60)]
    os.rename(log, tmp_path / "miner.log.1")
    log.write_bytes(b"".join(second))
    snap = live.caught_up(len(first) + len(second))
    time.sleep(0.05)
    snap = live.snap()
    assert snap.source.skipped["rotations"] == 1
    assert snap.warmup.passes == synth.truth.passes  # the relaunch's own stretch, every pass
    assert snap.source.last_event_at == pytest.approx(first_truth.last_at, abs=0.001)  # the clock never goes back
    assert snap.source.lines_read == len(first) + len(second)


def test_a_log_replaced_by_a_copy_of_itself_reads_on(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    """rsync or a sync client swaps the file for a copy plus new lines: read on from the same offset."""
    lines, truth = synth_log(8)
    half = len(lines) // 2
    log = tmp_path / "miner.log"
    log.write_bytes(b"".join(lines[:half]))
    live = follow(log)
    live.caught_up(half)
    staged = tmp_path / ".miner.log.partial"
    staged.write_bytes(b"".join(lines))
    os.replace(staged, log)
    snap = live.caught_up(truth.lines)
    time.sleep(0.05)
    snap = live.snap()
    assert_whole(snap, truth)  # every line once: nothing read again from byte 0
    assert snap.source.skipped["rotations"] == 1 and snap.source.skipped["truncations"] == 0


def test_a_huge_file_with_no_newline_is_not_read_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 2 GiB file with no newline (sparse: no disk used): a cold start reads a bounded tail."""
    from app.ingest.backwards import LONG_LINE_SCAN_BYTES

    big = tmp_path / "nonl.log"
    with open(big, "wb") as f:
        f.truncate(2 << 30)
    read_bytes = 0
    real_open = files.open_for_reading

    class Counting:
        def __init__(self, inner: files.ReadableFile) -> None:
            self.inner = inner

        def read(self, size: int = -1, /) -> bytes | None:
            nonlocal read_bytes
            data = self.inner.read(size)
            read_bytes += len(data or b"")
            return data

        def seek(self, offset: int, whence: int = 0, /) -> int:
            return self.inner.seek(offset, whence)

        def fileno(self) -> int:
            return self.inner.fileno()

        def close(self) -> None:
            self.inner.close()

    monkeypatch.setattr(files, "open_for_reading", lambda path: Counting(real_open(path)))
    monitor = Monitor(big, clock=lambda: START)
    monitor.read_once(big)
    snap = monitor.snapshot(START)
    assert read_bytes <= LONG_LINE_SCAN_BYTES + (1 << 20)
    assert snap.source.skipped["long_lines_cut"] == 1 and snap.source.lines_read == 0
    # Live: the tailer starts at the end and drops the rest of that line, then reads on.
    live = Live(big, START)
    live.monitor.start()
    try:
        live.wait("the long line counted", lambda s: s.source.skipped.get("long_lines_cut") == 1)
        append(big, b"rest of the long line\nnext line\n")
        snap = live.wait("the next line", lambda s: s.source.lines_read == 1)
    finally:
        live.monitor.stop()
    assert read_bytes <= 2 * LONG_LINE_SCAN_BYTES + (2 << 20)
