"""Reading a real log from its end backwards: chunks, cut lines, UTF-8, and only what is pulled."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from app.ingest import backwards, files
from app.ingest.backwards import read_backwards
from app.ingest.lines import LineCounters
from tests.ingest.logs import numbered


class BytesRead:
    """The bytes read from every file opened for reading since :func:`count_reads` (or since set to 0)."""

    def __init__(self) -> None:
        self.bytes = 0


def count_reads(monkeypatch: pytest.MonkeyPatch) -> BytesRead:
    """Count what each file the readers open (``files.open_for_reading``) reads, for this test."""
    read = BytesRead()
    real_open = files.open_for_reading

    class Counting:
        def __init__(self, path: Path) -> None:
            self._f = real_open(path)

        def read(self, size: int = -1, /) -> bytes | None:
            data = self._f.read(size)
            read.bytes += len(data or b"")
            return data

        def __getattr__(self, name: str) -> Any:
            return getattr(self._f, name)

    monkeypatch.setattr(files, "open_for_reading", Counting)
    return read


@pytest.mark.parametrize("chunk_bytes", [1, 7, 64, 1000, 1 << 20])
def test_read_backwards_newest_chunk_first_lines_intact(tmp_path: Path, chunk_bytes: int) -> None:
    log = tmp_path / "a.log"
    text = numbered(200)
    log.write_text(text + "unfinished")
    stats = LineCounters()
    chunks = list(read_backwards(log, chunk_bytes=chunk_bytes, stats=stats))
    assert all(chunks), "no empty chunks"
    assert chunks[0][-1] == "line 199 " + "x" * (199 % 37), "newest chunk first"
    assert [line for chunk in reversed(chunks) for line in chunk] == text.splitlines()
    assert stats.lines == 200
    if chunk_bytes >= 1000:
        assert len(chunks) < 200 * 60 // chunk_bytes + 2


@pytest.mark.parametrize("chunk_bytes", [5, 16, 64, 4096])
def test_read_backwards_cuts_long_lines_and_keeps_utf8_whole(tmp_path: Path, chunk_bytes: int) -> None:
    log = tmp_path / "a.log"
    long_ascii = "a" * 200
    long_utf8 = "é" * 100  # 200 bytes; a 51-byte cut would split a character
    log.write_text(f"short\n{long_ascii}\nmid\n{long_utf8}\nend\n", encoding="utf-8")
    stats = LineCounters()
    lines = [
        line
        for c in reversed(list(read_backwards(log, chunk_bytes=chunk_bytes, max_line_bytes=51, stats=stats)))
        for line in c
    ]
    assert lines == ["short", "a" * 51, "mid", "é" * 25, "end"]
    assert stats.long_lines_cut == 2
    assert stats.invalid_utf8_lines == 0


def test_read_backwards_reads_only_the_chunks_pulled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "big.log"
    tail = numbered(40_000, width=40).encode()  # ~3.4 MB of lines after a 200 MB sparse hole
    with open(log, "wb") as f:
        f.seek(200_000_000)
        f.write(b"\n" + tail)
    read = count_reads(monkeypatch)
    chunk_bytes = 1 << 20
    started = time.monotonic()
    chunks = read_backwards(log, chunk_bytes=chunk_bytes)
    first, second = next(chunks), next(chunks)
    chunks.close()  # type: ignore[attr-defined]
    assert time.monotonic() - started < 2.0
    assert first[-1] == tail.decode().splitlines()[-1]
    assert second[-1] == tail.decode().splitlines()[-len(first) - 1]
    assert 2 * chunk_bytes <= read.bytes <= 2 * chunk_bytes + 2 * backwards.READ_BLOCK_BYTES


def test_a_cold_start_on_10_gib_reads_what_the_tail_alone_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 10 GiB log (a hole, then two real hours) costs a cold start what those two hours alone do."""
    from app.live.monitor import Monitor
    from app.snapshot import to_dict
    from bench.synth import IotaSynth

    tail = IotaSynth(seed=3).text(2 * 3600).encode()
    alone, big = tmp_path / "tail.log", tmp_path / "big.log"
    alone.write_bytes(tail)
    with open(big, "wb") as f:
        f.truncate((10 << 30) - len(tail) - 1)
        f.seek(0, 2)
        f.write(b"\n" + tail)
    if big.stat().st_blocks * 512 > 4 * len(tail):
        pytest.skip("this file system does not leave holes in sparse files")
    read = count_reads(monkeypatch)
    snapshots, reads = [], []
    for path in (alone, big):
        read.bytes = 0
        monitor = Monitor(path, format_name="auto")
        monitor.read_once(path)
        snap = to_dict(monitor.snapshot(monitor.last_event_at()))
        snapshots.append({key: snap[key] for key in ("status_line", "details", "state")} | {
            "lines_read": snap["source"]["lines_read"]})
        reads.append(read.bytes)
    assert snapshots[0] == snapshots[1]
    assert 0 < snapshots[0]["lines_read"] < tail.count(b"\n")  # it stopped inside the tail
    assert reads[1] == reads[0] < len(tail)


def test_an_unfinished_last_line_is_read_when_asked(tmp_path: Path) -> None:
    """A run's last line without its newline, its writer quiet: read as a line, counted once."""
    log = tmp_path / "a.log"
    log.write_bytes(b"one\ntwo\nthe end")
    assert [line for chunk in read_backwards(log) for line in chunk] == ["one", "two"]
    counts = LineCounters()
    chunks = list(read_backwards(log, unfinished=True, stats=counts, chunk_bytes=4))
    assert [line for chunk in reversed(chunks) for line in chunk] == ["one", "two", "the end"]
    assert counts.lines == 3
    only = tmp_path / "b.log"
    only.write_bytes(b"no newline at all")
    assert list(read_backwards(only, unfinished=True)) == [["no newline at all"]]
