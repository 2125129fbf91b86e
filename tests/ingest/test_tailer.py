"""The tailer on real files in tmp_path, with a real thread and a recording sink."""

from __future__ import annotations

import itertools
import logging
import os
import shutil
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.ingest import files, reader
from app.ingest.tailer import Tailer
from tests.ingest.logs import append, numbered

# Short, so the heartbeat re-stat (the only path when native events are missing) is quick too.
POLL_S = 0.2


def wait_until(cond: Callable[[], object], timeout: float = 15.0, message: str = "") -> None:
    """Poll ``cond`` until it is truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {message or cond}")
        time.sleep(0.01)


class RecordingSink:
    """Records every call; ``pull`` limits how many backlog chunks it takes (None: all)."""

    def __init__(self, pull: int | None = None) -> None:
        self.pull = pull
        self.lock = threading.Lock()
        self.calls: list[tuple[str, Any]] = []
        self.backlog_calls = 0
        self.repeats: list[bool] = []
        self.head: list[str] | None = None  # the file's first 100 bytes' lines, as the backlog offered them

    def backlog(self, chunks: Iterator[list[str]], head: Callable[[int], list[str]] | None = None) -> None:
        # Read here, on the tailer's thread, as a sink does: the file is the tailer's.
        self.head = head(100) if head is not None else None
        for chunk in itertools.islice(chunks, self.pull):  # pulls no chunk beyond ``pull``
            with self.lock:
                self.calls.append(("backlog", chunk))
        # Counted once the pull is over, so a test that waits on it sees the whole backlog.
        self.backlog_calls += 1

    def lines(self, lines: list[str]) -> None:
        with self.lock:
            self.calls.append(("lines", list(lines)))

    def restarted(self, reason: str, *, repeats: bool = False) -> None:
        with self.lock:
            self.calls.append(("restarted", reason))
            self.repeats.append(repeats)

    def of(self, kind: str) -> list[Any]:
        with self.lock:
            return [arg for k, arg in self.calls if k == kind]

    def live(self) -> list[str]:
        return [line for batch in self.of("lines") for line in batch]

    def backlog_in_order(self) -> list[str]:
        return [line for chunk in reversed(self.of("backlog")) for line in chunk]

    def stream(self) -> list[str]:
        """Lines and restarts in call order, restarts as ``<reason>``."""
        with self.lock:
            calls = list(self.calls)
        out: list[str] = []
        for kind, arg in calls:
            if kind == "lines":
                out.extend(arg)
            elif kind == "restarted":
                out.append(f"<{arg}>")
        return out


@pytest.fixture
def start_tailer() -> Iterator[Callable[..., Tailer]]:
    started: list[Tailer] = []

    def start(path: Path, sink: RecordingSink, *, settle: bool = True, **kwargs: Any) -> Tailer:
        kwargs.setdefault("poll_interval_s", POLL_S)
        t = Tailer(path, sink, **kwargs)
        existed = settle and path.is_file() or (path.is_dir() and any(path.glob("*.log")))
        t.start()
        started.append(t)
        if existed:  # so what a test appends next is live, not part of the backlog
            wait_until(lambda: sink.backlog_calls == 1, message="the backlog")
        return t

    yield start
    for t in started:
        t.stop()


# --- following ---------------------------------------------------------------


def test_backlog_then_follow_without_loss_or_repeat(
    tmp_path: Path, start_tailer: Callable[..., Tailer]
) -> None:
    log = tmp_path / "a.log"
    log.write_text(numbered(300) + "half a li")
    sink = RecordingSink()
    t = start_tailer(log, sink, chunk_bytes=256)
    wait_until(lambda: sink.backlog_calls == 1, message="backlog")
    assert len(sink.of("backlog")) > 3
    assert sink.backlog_in_order() == numbered(300).splitlines()
    append(log, "ne\nnext\n")
    wait_until(lambda: sink.live() == ["half a line", "next"], message="the finished line")
    assert t.status().lines_read == 302
    assert sink.backlog_calls == 1
    assert sink.of("restarted") == []


def test_a_finished_log_s_last_line_without_a_newline_is_read(
    tmp_path: Path, start_tailer: Callable[..., Tailer]
) -> None:
    """modded-nanogpt's records end without a newline: the run is over, its last line counts."""
    log = tmp_path / "a.log"
    log.write_text(numbered(3) + "peak memory allocated: 53988 MiB reserved: 56448 MiB")
    old = time.time() - 3600
    os.utime(log, (old, old))
    sink = RecordingSink()
    start_tailer(log, sink)
    wait_until(lambda: sink.live() == ["peak memory allocated: 53988 MiB reserved: 56448 MiB"], message="the last line")
    time.sleep(3 * POLL_S)
    assert len(sink.live()) == 1  # given once, however many polls follow


def test_a_line_being_written_waits_for_the_writer_to_go_quiet(
    tmp_path: Path, start_tailer: Callable[..., Tailer], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "QUIET_TAIL_SECONDS", 1.0)
    log = tmp_path / "a.log"
    log.write_text(numbered(3))
    sink = RecordingSink()
    start_tailer(log, sink)
    append(log, "step 10 | loss 2.")
    time.sleep(3 * POLL_S)
    assert sink.live() == []  # still being written
    wait_until(lambda: sink.live() == ["step 10 | loss 2."], message="the quiet tail")
    append(log, "5\n")  # it went on after all: the whole line, again
    wait_until(lambda: sink.live() == ["step 10 | loss 2.", "step 10 | loss 2.5"], message="the whole line")
    append(log, "done")
    wait_until(lambda: sink.live()[-1:] == ["done"], message="the next quiet tail")
    append(log, "\n")  # only its newline followed: not given twice
    append(log, "next\n")
    wait_until(lambda: sink.live()[-1:] == ["next"], message="the next line")
    assert sink.live() == ["step 10 | loss 2.", "step 10 | loss 2.5", "done", "next"]


def test_backlog_stops_where_the_sink_stops(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    log = tmp_path / "a.log"
    log.write_text(numbered(1000))
    sink = RecordingSink(pull=1)
    t = start_tailer(log, sink, chunk_bytes=512)
    wait_until(lambda: sink.backlog_calls == 1)
    (chunk,) = sink.of("backlog")
    assert chunk == numbered(1000).splitlines()[-len(chunk) :]
    append(log, "after\n")
    wait_until(lambda: sink.live() == ["after"])
    assert t.status().lines_read == len(chunk) + 1


def test_a_backlog_stopped_short_can_still_read_the_log_s_first_lines(
    tmp_path: Path, start_tailer: Callable[..., Tailer]
) -> None:
    """What a trainer prints only at its start (its total steps) is read without the middle."""
    log = tmp_path / "a.log"
    log.write_text(numbered(1000))
    sink = RecordingSink(pull=1)
    start_tailer(log, sink, chunk_bytes=512)
    wait_until(lambda: sink.backlog_calls == 1)
    head = sink.head
    assert head is not None
    assert head == numbered(1000).splitlines()[: len(head)] and 0 < len("\n".join(head)) <= 100  # whole lines only
    append(log, "after\n")
    wait_until(lambda: sink.live() == ["after"])  # reading the head moved no read position


def test_append_arrives_by_native_event_within_well_under_a_second(
    tmp_path: Path, start_tailer: Callable[..., Tailer]
) -> None:
    log = tmp_path / "a.log"
    log.write_text("")
    sink = RecordingSink()
    # A 30 s heartbeat: only a native change event can deliver these lines in time.
    start_tailer(log, sink, poll_interval_s=30.0)
    # The watcher starts just after the first poll; ping until it is listening.
    deadline = time.monotonic() + 5
    while not sink.live():
        assert time.monotonic() < deadline, "no native change events"
        append(log, "ping\n")
        time.sleep(0.05)
    latencies = []
    for i in range(5):
        seen = len(sink.live())
        started = time.monotonic()
        append(log, f"timed {i}\n")
        wait_until(lambda seen=seen: len(sink.live()) > seen, timeout=2)
        latencies.append(time.monotonic() - started)
    assert sorted(latencies)[2] < 0.5, latencies
    assert sink.live()[-5:] == [f"timed {i}" for i in range(5)]


def test_partial_line_is_held_until_its_newline(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    log = tmp_path / "a.log"
    log.write_text("")
    sink = RecordingSink()
    t = start_tailer(log, sink)
    append(log, "abc")
    wait_until(lambda: t.status().size_bytes == 3, message="the partial write to be read")
    assert sink.live() == []
    append(log, "def\r\nghi\r\n")
    wait_until(lambda: len(sink.live()) == 2)
    assert sink.live() == ["abcdef\r", "ghi\r"]  # CRLF: only the \n is a separator


def test_bytes_are_repaired_and_counted(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    log = tmp_path / "a.log"
    log.write_text("")
    sink = RecordingSink()
    t = start_tailer(log, sink)
    append(log, b"ok\n\xff\xfebad\nnul\x00byte\n\xc3\xa9t\xc3\xa9\n")
    wait_until(lambda: len(sink.live()) == 4)
    assert sink.live() == ["ok", "\ufffd\ufffdbad", "nul\x00byte", "été"]
    assert t.status().invalid_utf8_lines == 1


def test_truncation_restarts_the_stream(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    log = tmp_path / "a.log"
    log.write_text("")
    sink = RecordingSink()
    t = start_tailer(log, sink)
    append(log, numbered(5))
    wait_until(lambda: len(sink.live()) == 5)
    with open(log, "r+b") as f:  # logrotate copytruncate: same file, cut to zero, written on
        f.truncate(0)
    append(log, "fresh\n")
    wait_until(lambda: sink.stream()[-2:] == ["<truncated>", "fresh"], message="restart then fresh")
    assert t.status().truncations == 1
    assert t.status().rotations == 0


def test_rotation_by_rename_while_writing_loses_and_repeats_nothing(
    tmp_path: Path, start_tailer: Callable[..., Tailer]
) -> None:
    log = tmp_path / "a.log"
    log.write_text("")
    sink = RecordingSink()
    t = start_tailer(log, sink)
    files, per_file = 4, 150
    written: list[str] = []

    def writer() -> None:
        # Like logging.handlers.RotatingFileHandler: write, close, rename away, open anew.
        for k in range(files):
            with open(log, "a", buffering=1) as f:
                for i in range(per_file):
                    line = f"n {k * per_file + i}"
                    f.write(line + "\n")
                    written.append(line)
                    if i % 10 == 0:
                        time.sleep(0.002)
            if k < files - 1:
                # Let the tailer see each rotation before the next; several between two polls
                # would skip the middle file, which no tailer can see.
                wait_until(lambda k=k: t.status().rotations == k, timeout=5)
                os.rename(log, tmp_path / f"a.log.{k + 1}")

    thread = threading.Thread(target=writer)
    thread.start()
    thread.join(timeout=20)
    wait_until(lambda: len(sink.live()) >= files * per_file, message="every line")
    assert sink.live() == written
    assert sink.of("restarted") == ["replaced"] * (files - 1)
    assert t.status().rotations == files - 1


def test_delete_and_recreate(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    log = tmp_path / "a.log"
    log.write_text("")
    sink = RecordingSink()
    t = start_tailer(log, sink)
    append(log, "one\ntorn")
    wait_until(lambda: sink.live() == ["one"])
    log.unlink()
    wait_until(lambda: (t.status().problem or "").startswith("waiting for"), message="problem")
    log.write_text("new one\n")
    # The old file's unfinished last line ends with its stream; the new file is read from 0.
    wait_until(lambda: sink.stream() == ["one", "torn", "<replaced>", "new one"], message="new stream")
    assert t.status().problem is None
    assert t.status().rotations == 1


def test_directory_mode_switches_to_the_newer_log(
    tmp_path: Path, start_tailer: Callable[..., Tailer]
) -> None:
    older, current = tmp_path / "2026-01-01-cli.log", tmp_path / "2026-01-02-cli.log"
    older.write_text("older\n")
    os.utime(older, (1_000_000_000, 1_000_000_000))
    current.write_text("backlog 1\n")
    (tmp_path / "notes.txt").write_text("ignored\n")
    sink = RecordingSink()
    t = start_tailer(tmp_path, sink)
    wait_until(lambda: sink.backlog_calls == 1)
    assert sink.backlog_in_order() == ["backlog 1"]
    assert t.status().path == str(current)
    append(current, "live 1\n")
    wait_until(lambda: sink.live() == ["live 1"])
    newer = tmp_path / "2026-01-03-cli.log"
    append(current, "last words\n")  # just before the new launch: must not be lost
    newer.write_text("hello 1\n")
    wait_until(lambda: sink.stream()[-3:] == ["last words", "<switched to 2026-01-03-cli.log>", "hello 1"])
    assert t.status().path == str(newer)
    assert t.status().rotations == 1
    # A late write to the file left behind does not flip the view back.
    append(current, "straggler\n")
    append(newer, "hello 2\n")
    wait_until(lambda: sink.live()[-1] == "hello 2")
    time.sleep(2 * POLL_S)
    assert "straggler" not in sink.live()
    assert t.status().path == str(newer)


def test_directory_mode_waits_for_a_first_log(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    sink = RecordingSink()
    t = start_tailer(tmp_path, sink)
    wait_until(lambda: "waiting for a *.log file" in (t.status().problem or ""))
    (tmp_path / "2026-01-01-cli.log").write_text("first\n")
    wait_until(lambda: sink.live() == ["first"])
    assert sink.backlog_calls == 0  # a file that appears later is all new: read from 0
    assert sink.of("restarted") == []
    assert t.status().problem is None


def test_missing_file_appears_later_in_batches(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    log = tmp_path / "a.log"
    sink = RecordingSink()
    t = start_tailer(log, sink)
    wait_until(lambda: t.status().problem == f"waiting for {log} to appear")
    text = numbered(12_000)
    log.write_text(text)
    wait_until(lambda: len(sink.live()) == 12_000)
    assert sink.live() == text.splitlines()
    assert max(len(batch) for batch in sink.of("lines")) <= reader.BATCH_MAX_LINES
    assert sink.backlog_calls == 0
    assert sink.of("restarted") == []
    assert t.status().problem is None
    # The size is the status's own figure, set once the read is done: it may trail the lines' delivery.
    wait_until(lambda: t.status().size_bytes == len(text))


def test_missing_parent_folder_created_later(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    log = tmp_path / "not" / "yet" / "a.log"
    sink = RecordingSink()
    t = start_tailer(log, sink)
    wait_until(lambda: "does not exist yet" in (t.status().problem or ""))
    log.parent.mkdir(parents=True)
    log.write_text("here\n")
    wait_until(lambda: sink.live() == ["here"])
    append(log, "and more\n")
    wait_until(lambda: sink.live() == ["here", "and more"])
    assert t.status().problem is None


@pytest.mark.parametrize("directory_mode", [False, True])
def test_watched_folder_removed_and_recreated(
    tmp_path: Path, start_tailer: Callable[..., Tailer], directory_mode: bool
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    log = folder / "a.log"
    log.write_text("one\n")
    sink = RecordingSink()
    t = start_tailer(folder if directory_mode else log, sink, poll_interval_s=1.0)
    shutil.rmtree(folder)
    wait_until(lambda: "waiting for" in (t.status().problem or ""))
    folder.mkdir()
    log.write_text("two\n")
    wait_until(lambda: sink.stream() == ["<replaced>", "two"], message="the new folder's file")
    # The old folder's watch died with it; a fresh one must deliver appends without the heartbeat.
    started = time.monotonic()
    append(log, "three\n")
    wait_until(lambda: sink.live()[-1:] == ["three"])
    assert time.monotonic() - started < 0.9


def test_path_replaced_by_a_directory_then_a_file(
    tmp_path: Path, start_tailer: Callable[..., Tailer]
) -> None:
    log = tmp_path / "a.log"
    log.write_text("before\n")
    sink = RecordingSink()
    t = start_tailer(log, sink)
    wait_until(lambda: sink.backlog_calls == 1)
    log.unlink()
    log.mkdir()
    wait_until(lambda: t.status().problem == f"{log} is a directory, not a log file")
    log.rmdir()
    log.write_text("after\n")
    wait_until(lambda: sink.stream() == ["<replaced>", "after"])
    assert t.status().problem is None


def test_permission_denied_at_the_open_seam(
    tmp_path: Path, start_tailer: Callable[..., Tailer], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "a.log"
    log.write_text("secret\n")
    denied = threading.Event()
    denied.set()
    real_open = files.open_for_reading

    def guarded_open(path: Path) -> Any:
        if denied.is_set():
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path)

    monkeypatch.setattr(files, "open_for_reading", guarded_open)
    sink = RecordingSink()
    t = start_tailer(log, sink, settle=False)
    wait_until(lambda: t.status().problem == f"permission denied reading {log}")
    denied.clear()
    # The file was there all along: once readable it starts with the backlog, as at start.
    wait_until(lambda: sink.backlog_in_order() == ["secret"])
    assert t.status().problem is None


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0,
    reason="root reads files whatever their mode; the open-seam test covers this",
)
def test_permission_denied_by_file_mode(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    log = tmp_path / "a.log"
    log.write_text("secret\n")
    log.chmod(0)
    sink = RecordingSink()
    t = start_tailer(log, sink, settle=False)
    wait_until(lambda: t.status().problem == f"permission denied reading {log}")
    log.chmod(0o644)
    wait_until(lambda: sink.backlog_in_order() == ["secret"])


def test_a_10_mib_line_is_cut_without_being_held(tmp_path: Path, start_tailer: Callable[..., Tailer]) -> None:
    log = tmp_path / "a.log"
    log.write_text("")
    sink = RecordingSink()
    max_line_bytes = 1 << 20
    t = start_tailer(log, sink, max_line_bytes=max_line_bytes)
    piece = b"x" * (1 << 20)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        for _ in range(10):
            append(log, piece)
        wait_until(lambda: t.status().size_bytes == 10 << 20, message="all 10 MiB read")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sink.live() == ["x" * max_line_bytes]  # cut as soon as it was too long
    assert t.status().long_lines_cut == 1
    assert peak < 6 << 20, f"peak {peak / 2**20:.1f} MiB while reading a 10 MiB line"
    append(log, "rest of it\nnext\n")
    wait_until(lambda: len(sink.live()) == 2)
    assert sink.live()[1] == "next"  # the rest of the long line was discarded


def test_a_failing_sink_does_not_stop_the_tailer(
    tmp_path: Path, start_tailer: Callable[..., Tailer], caplog: pytest.LogCaptureFixture
) -> None:
    log = tmp_path / "a.log"
    log.write_text("")

    class Flaky(RecordingSink):
        def lines(self, lines: list[str]) -> None:
            if lines == ["boom"]:
                raise ValueError("consumer bug")
            super().lines(lines)

    sink = Flaky()
    t = start_tailer(log, sink)
    append(log, "boom\n")
    wait_until(lambda: "consumer bug" in caplog.text, message="the sink's error logged")
    append(log, "fine\n")
    wait_until(lambda: sink.live() == ["fine"])
    assert t.status().problem is None


def test_an_unexpected_error_is_logged_and_survived(
    tmp_path: Path,
    start_tailer: Callable[..., Tailer],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    log = tmp_path / "a.log"
    log.write_text("line\n")
    failures = [RuntimeError("disk on fire")]
    real_open = files.open_for_reading

    def failing_once(path: Path) -> Any:
        if failures:
            raise failures.pop()
        return real_open(path)

    monkeypatch.setattr(files, "open_for_reading", failing_once)
    caplog.set_level(logging.ERROR, logger="app.ingest.tailer")
    sink = RecordingSink()
    t = start_tailer(log, sink)
    wait_until(lambda: sink.backlog_in_order() == ["line"], message="recovery")
    assert "disk on fire" in caplog.text
    assert t.status().problem is None


def test_stop_is_idempotent_and_fast(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text("x\n")
    sink = RecordingSink()
    never_started = Tailer(log, sink)
    never_started.stop()
    never_started.stop()
    t = Tailer(log, sink, poll_interval_s=30.0)
    t.start()
    wait_until(lambda: sink.backlog_calls == 1)
    started = time.monotonic()
    t.stop()
    t.stop()
    assert time.monotonic() - started < 2.0
    assert not any(th.name == "tokwatch-tailer" and th.is_alive() for th in threading.enumerate())
    with pytest.raises(RuntimeError):
        t.start()
