"""Bad bytes in the log, end to end: real file → Tailer → Monitor → snapshot.

A real-shaped miner log (``bench.synth``) gets one kind of damage in its middle; tokwatch must
keep following, count every pass once (``warmup.passes``), read every line once
(``source.lines_read``) and say what it skipped (``source.skipped``, ``source.bad_lines``).
The chunk-splitting properties (hypothesis) check that where the writer's bytes happen to be
cut never changes the figures.
"""

from __future__ import annotations

import itertools
import re
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.live.monitor import Monitor
from app.snapshot import Snapshot, to_dict
from bench.synth import IotaSynth, Truth
from tests.live.following import Live, following

START = time.mktime((2026, 9, 14, 9, 0, 0, 0, 0, -1))
# Just after every log here ends (the longest runs 6 simulated minutes after its start-up), so the
# rate window still holds every pass and the figures have something to show.
NOW = START + 15 * 60
STAMP = re.compile(rb"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}")
WRAPPER = "[{s}] [info]  {s} | {level:<8} | {where} - {message}\n"


def synth_log(minutes: float, *, seed: int = 2) -> tuple[list[bytes], Truth]:
    synth = IotaSynth(seed=seed, start=START, epoch_seconds=None, requeue_seconds=None, error_seconds=None)
    return [line.encode("utf-8") + b"\n" for line in synth.run(minutes * 60)], synth.truth


def record(stamp: str, message: str, level: str = "DEBUG", where: str = "subnet.model.utils:log_gpu:354") -> bytes:
    return WRAPPER.format(s=stamp, level=level, where=where, message=message).encode("utf-8")


def stamp_of(line: bytes) -> str:
    found = STAMP.search(line)
    assert found is not None
    return found.group().decode()


def shift_stamps(line: bytes, seconds: float) -> bytes:
    """Move both timestamps of a record line by ``seconds`` (continuation lines are unchanged)."""

    def moved(m: re.Match[bytes]) -> bytes:
        text = m.group().decode()
        at = time.mktime(time.strptime(text[:19], "%Y-%m-%d %H:%M:%S")) + int(text[20:]) / 1000 + seconds
        whole = int(at)
        return (time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(whole)) + f".{round((at - whole) * 1000):03d}").encode()

    return STAMP.sub(moved, line)


@pytest.fixture
def follow() -> Iterator[Callable[[Path], Live]]:
    yield from following(NOW, looked=True)


def feed(tmp_path: Path, follow: Callable[[Path], Live], parts: list[bytes], lines: int) -> Snapshot:
    """Write ``parts`` one after another to a fresh log, each read before the next; return the end state."""
    log = tmp_path / "miner.log"
    live = follow(log)
    written = 0
    for part in parts:
        with open(log, "ab") as f:
            f.write(part)
        written += len(part)
        live.wait(f"{written} bytes read", lambda s, n=written: s.source.size_bytes == n)
    return live.wait(f"{lines} lines", lambda s: s.source.lines_read >= lines)


def reference(data: bytes) -> dict[str, Any]:
    """The figures of ``data`` decoded whole and handed straight to the monitor (no file, no tailer)."""
    monitor = Monitor(None, clock=lambda: NOW)
    text = data.decode("utf-8", errors="replace").split("\n")
    text.pop()
    monitor.lines(text)
    return figures(monitor.snapshot(NOW))


def figures(snap: Snapshot) -> dict[str, Any]:
    data = to_dict(snap)
    source = data.pop("source")
    data["lines_read"] = source["lines_read"]
    data["bad_lines"] = source["bad_lines"]
    data["last_event_at"] = source["last_event_at"]
    return data


def assert_counts(snap: Snapshot, truth: Truth, *, extra_lines: int, bad_lines: int = 0) -> None:
    assert snap.warmup.passes == truth.passes, "a pass was lost or counted twice"
    assert snap.source.lines_read == truth.lines + extra_lines, "a line was lost or read twice"
    assert snap.source.bad_lines == bad_lines
    assert snap.source.problem is None
    assert snap.layer == truth.layer


# --- one kind of damage each -----------------------------------------------------------


def test_invalid_utf8(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(4)
    mid = len(lines) // 2
    stamp = stamp_of(lines[mid - 1])
    garbage = [
        b"\xff\xfe\xfd not text at all\n",
        record(stamp, "GPU memory usage: 2.90GB / 3.75GB -- note <>").replace(b"<>", b"\xc3\x28"),
        b"a continuation cut inside a character \xe2\x82\n",
    ]
    # Mangle a real pass line too: a bad byte in the hotkey must not cost the pass.
    forward = next(i for i in range(mid, len(lines)) if b"FORWARD complete" in lines[i])
    lines[forward] = lines[forward].replace(b"hotkey=5Hm", b"hotkey=5H\xff")
    head, tail = b"".join(lines[:mid]), b"".join(lines[mid:])
    snap = feed(tmp_path, follow, [head, b"".join(garbage), tail], truth.lines + 3)
    assert_counts(snap, truth, extra_lines=3)
    assert snap.source.skipped["invalid_utf8_lines"] == 4


def test_nul_bytes(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(4)
    mid = len(lines) // 2
    damage = [
        b"\x00" * 4096 + b"\n",  # a block the file system zero-filled
        lines[mid - 1].replace(b" | DEBUG", b" |\x00DEBUG", 1),  # a NUL inside a continuation-like line
        b"text\x00with\x00nuls\n",
    ]
    snap = feed(tmp_path, follow, [b"".join(lines[:mid]), b"".join(damage), b"".join(lines[mid:])],
                truth.lines + 3)
    assert_counts(snap, truth, extra_lines=3)


def test_record_after_a_crash_padded_nul_run(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(4)
    forward = next(i for i in range(len(lines) // 2, len(lines)) if b"FORWARD complete" in lines[i])
    lines[forward] = b"\x00" * 8192 + lines[forward]
    snap = feed(tmp_path, follow, [b"".join(lines[:forward]), b"".join(lines[forward:])], truth.lines)
    assert_counts(snap, truth, extra_lines=0)


def test_a_10_mib_line_without_newline(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(4)
    mid = len(lines) // 2
    log = tmp_path / "miner.log"
    live = follow(log)
    with open(log, "ab") as f:
        f.write(b"".join(lines[:mid]))
    live.wait("the first half", lambda s: s.source.lines_read == mid)
    size = log.stat().st_size
    mib = b"x" * (1 << 20)
    tracemalloc.start()
    try:
        for i in range(1, 11):  # a 10 MiB line, written a MiB at a time, no newline yet
            with open(log, "ab") as f:
                f.write(mib)
            size += len(mib)
            live.wait(f"{i} MiB read", lambda s, n=size: s.source.size_bytes == n)
        _, peak_bytes = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The tailer holds at most 1 MiB of an unfinished line, never the whole 10 MiB.
    assert peak_bytes < 8 << 20, f"{peak_bytes / 2**20:.1f} MiB allocated while the line grew"
    with open(log, "ab") as f:
        f.write(b"\n" + b"".join(lines[mid:]))
    snap = live.wait("every line", lambda s: s.source.lines_read >= truth.lines + 1)
    assert_counts(snap, truth, extra_lines=1)
    assert snap.source.skipped["long_lines_cut"] == 1


def test_crlf_line_ends(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(4)
    lf = b"".join(lines)
    crlf = lf.replace(b"\n", b"\r\n")
    snap = feed(tmp_path, follow, [crlf[: len(crlf) // 3], crlf[len(crlf) // 3 :]], truth.lines)
    assert_counts(snap, truth, extra_lines=0)
    assert figures(snap) == reference(lf)


def test_timestamps_that_go_backwards(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    """The miner's clock is set back an hour mid-run (NTP, a DST change in a zone-less local time)."""
    lines, truth = synth_log(6)
    mid = len(lines) // 2
    newest_before = START
    for line in lines[:mid]:
        if STAMP.search(line):
            newest_before = time.mktime(time.strptime(stamp_of(line)[:19], "%Y-%m-%d %H:%M:%S"))
    moved = [shift_stamps(line, -3600) for line in lines[mid:]]
    snap = feed(tmp_path, follow, [b"".join(lines[:mid]), b"".join(moved)], truth.lines)
    assert_counts(snap, truth, extra_lines=0)
    # The clock never runs backwards: the newest time seen stays the newest.
    assert snap.source.last_event_at is not None and snap.source.last_event_at >= newest_before
    assert snap.rate.passes_in_window == truth.passes


def test_lines_from_the_far_future(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(6)
    mid = len(lines) // 2
    odd = [
        record("2099-01-01 00:00:00.000", "GPU memory usage: 2.90GB / 3.75GB -- starting training forward pass"),
        record("9999-12-31 23:59:59.999", "💾 GPU memory: 2.84GB"),
        record("2026-02-30 12:00:00.000", "💾 GPU memory: 2.84GB"),  # a date that cannot exist
    ]
    snap = feed(tmp_path, follow, [b"".join(lines[:mid]), b"".join(odd), b"".join(lines[mid:])],
                truth.lines + 3)
    assert_counts(snap, truth, extra_lines=3, bad_lines=1)
    assert snap.source.skipped["future_timestamps"] == 2
    assert snap.source.last_event_at == pytest.approx(truth.last_at, abs=0.001)
    # The composed log may end minutes before the clock (silent then): its rate is what it was.
    assert (snap.rate.measured or snap.rate.was_tokens_per_hour is not None) and snap.history


def test_future_timestamps_counts_lines() -> None:
    monitor = Monitor(None, format_name="iota", clock=lambda: NOW)
    monitor.lines([record("2099-01-01 00:00:00.000", "💾 GPU memory: 2.84GB").decode().rstrip("\n")])
    assert monitor.snapshot(NOW).source.skipped["future_timestamps"] == 1


def test_a_record_with_thousands_of_continuation_lines(tmp_path: Path, follow: Callable[[Path], Live]) -> None:
    lines, truth = synth_log(4)
    mid = len(lines) // 2
    stamp = stamp_of(lines[mid - 1])
    body = [record(stamp, "Error getting activation from queue: Traceback (most recent call last):", "ERROR")]
    for i in range(5000):
        if i % 1000 == 500:
            # Pass-shaped text inside a traceback is not a pass.
            body.append(f"    ✅ FORWARD complete | layer=2 activation=fake-{i} hotkey=5HmQx7Rc\n".encode())
        else:
            body.append(f'  File "/app/miner/training.py", line {i}, in forward\n'.encode())
    start = time.monotonic()
    snap = feed(tmp_path, follow, [b"".join(lines[:mid]), b"".join(body), b"".join(lines[mid:])],
                truth.lines + len(body))
    assert time.monotonic() - start < 5
    assert_counts(snap, truth, extra_lines=len(body))


# --- the same log, split anywhere ----------------------------------------------------------

SPLIT_LINES, SPLIT_TRUTH = synth_log(2.5, seed=5)
# A few odd lines so the splits land inside CRLF pairs, multi-byte characters and bad bytes too.
SPLIT_DATA = (
    b"".join(SPLIT_LINES[:600])
    + "a continuation with ✅ emoji and CRLF\r\n".encode()
    + b"bad \xff byte\n"
    + b"".join(SPLIT_LINES[600:])
)
SPLIT_REFERENCE = reference(SPLIT_DATA)


def cuts(data: bytes, max_cuts: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(1, len(data) - 1), max_size=max_cuts, unique=True).map(sorted)


def pieces(data: bytes, at: list[int]) -> list[bytes]:
    edges = [0, *at, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges) if b > a]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(at=cuts(SPLIT_DATA, 10))
def test_random_byte_splits_through_a_real_file_change_nothing(at: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "miner.log"
        live = Live(log, NOW)
        live.monitor.start()
        try:
            live.wait("the tailer to look", lambda s: s.source.problem is not None)
            written = 0
            for part in pieces(SPLIT_DATA, at):
                with open(log, "ab") as f:
                    f.write(part)
                written += len(part)
                live.wait(f"{written} bytes read", lambda s, n=written: s.source.size_bytes == n)
            snap = live.wait("every line", lambda s: s.source.lines_read >= SPLIT_REFERENCE["lines_read"])
        finally:
            live.monitor.stop()
    assert figures(snap) == SPLIT_REFERENCE
    assert snap.warmup.passes == SPLIT_TRUTH.passes
    assert snap.source.skipped["invalid_utf8_lines"] == 1


@settings(max_examples=150, deadline=None)
@given(at=cuts(SPLIT_DATA, 60))
def test_random_byte_splits_through_the_line_splitter_change_nothing(at: list[int]) -> None:
    """The tailer's own byte → line step (no thread, no file), many more splits than a real file allows."""
    from app.ingest.lines import LineSplitter, decode

    splitter = LineSplitter(1 << 20)
    monitor = Monitor(None, clock=lambda: NOW)
    for part in pieces(SPLIT_DATA, at):
        raw, _cut = splitter.feed(part)
        if raw:
            text, _invalid = decode(raw)
            monitor.lines(text)
    assert figures(monitor.snapshot(NOW)) == SPLIT_REFERENCE
