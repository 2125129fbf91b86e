"""Read a log from its end backwards, one chunk of complete lines at a time."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

from . import files
from .files import ReadableFile
from .lines import LineCounters, cut_line, decode

READ_BLOCK_BYTES = 64 * 1024
# How far back from the end a cold start looks for a line's start (the last newline, or the
# start of a line too long to keep) before giving up: a multi-GiB file with no newline costs
# this much reading, not the whole file.
LONG_LINE_SCAN_BYTES = 16 << 20


def read_at(f: ReadableFile, offset: int, size: int) -> bytes:
    """Read up to ``size`` bytes at ``offset`` (fewer only if the file is shorter now)."""
    f.seek(offset)
    parts: list[bytes] = []
    remaining = size
    while remaining > 0:
        data = f.read(remaining)
        if not data:
            break
        parts.append(data)
        remaining -= len(data)
    return b"".join(parts)


def scan_bytes(max_line_bytes: int) -> int:
    """How far back from the end a cold start looks for a line's start before giving up."""
    return max(LONG_LINE_SCAN_BYTES, 2 * (max_line_bytes + 1))


def complete_end(f: ReadableFile, size: int, max_scan_bytes: int | None = None) -> int | None:
    """Return the offset just past the last b"\\n" before ``size`` (0 if the file has none).

    Looks back at most ``max_scan_bytes``: None when no newline is that close to the end (the
    file ends inside a line far longer than any line kept), so a 2 GiB file without a newline
    is not read end to end.
    """
    limit = size if max_scan_bytes is None else max_scan_bytes
    pos = size
    while pos > 0 and size - pos < limit:
        start = max(0, pos - READ_BLOCK_BYTES, size - limit)
        i = read_at(f, start, pos - start).rfind(b"\n")
        if i >= 0:
            return start + i + 1
        pos = start
    return 0 if pos == 0 else None


def backward_chunks(
    f: ReadableFile, end: int, chunk_bytes: int, max_line_bytes: int, max_scan_bytes: int | None = None
) -> Iterator[tuple[list[bytes], int]]:
    """Yield (lines, lines cut) for the complete lines before ``end``, newest chunk first.

    Reads one ``chunk_bytes`` block per chunk pulled. The head of each block (up to its first
    newline) belongs to a line that starts earlier, so it is carried into the next, older chunk.
    A carried line longer than ``max_line_bytes`` is dropped from memory and its prefix re-read
    once its start is found — unless its start lies more than ``max_scan_bytes`` back: reading
    stops there, as if the log began with that line.
    """
    pos = end
    carry = b""  # bytes [pos, ...) ending with b"\n": the end of a line that starts before pos
    carry_dropped = False  # that line is over max_line_bytes; carry holds none of it
    carry_end = end  # where the carried line ends
    while pos > 0:
        start = max(0, pos - chunk_bytes)
        data = read_at(f, start, pos - start)
        if len(data) != pos - start:
            return  # truncated meanwhile; the live reader notices and restarts the stream
        body_at = data.find(b"\n") + 1 if start > 0 else 0
        if body_at == 0 and start > 0:  # the whole block lies inside one line
            if not carry_dropped:
                carry = data + carry
                if len(carry) > max_line_bytes + 1:
                    carry, carry_dropped = b"", True
            pos = start
            if max_scan_bytes is not None and carry_end - pos > max_scan_bytes:
                return  # a line this long is no log line; what precedes it is not read
            continue
        region = data[body_at:]
        if carry_dropped:
            parts = region.split(b"\n")
            long_start = start + body_at + len(region) - len(parts[-1])
            parts[-1] = read_at(f, long_start, max_line_bytes + 1)
        else:
            parts = (region + carry).split(b"\n")
            parts.pop()  # empty: the joined bytes end with b"\n"
        cut = 0
        for i, body in enumerate(parts):
            if len(body) > max_line_bytes:
                parts[i] = cut_line(body, max_line_bytes)
                cut += 1
        carry, carry_dropped = data[:body_at], False
        carry_end = start + body_at
        if len(carry) > max_line_bytes + 1:
            carry, carry_dropped = b"", True
        pos = start
        if parts:
            yield parts, cut


def read_head(f: ReadableFile, end: int, max_bytes: int) -> list[str]:
    """The complete lines in the first ``max_bytes`` of the file (before ``end``), in order.

    A cold start that reads a long log from its end reads this too, for the facts a trainer
    prints only once, at its start (its total steps, its tokens per step).
    """
    data = read_at(f, 0, min(end, max_bytes))
    if len(data) < end:
        data = data[: data.rfind(b"\n") + 1]  # the line cut at max_bytes is not read
    lines, _ = decode(data.split(b"\n")[:-1])
    return lines


def path_head(path: Path, max_bytes: int) -> list[str]:
    """:func:`read_head` of ``path`` (no lines when it cannot be read now)."""
    try:
        with closing(files.open_for_reading(path)) as f:
            size = os.fstat(f.fileno()).st_size
            return read_head(f, size, max_bytes)
    except OSError:
        return []


def read_backwards(
    path: Path,
    *,
    chunk_bytes: int = 1 << 20,
    max_line_bytes: int = 1 << 20,
    stats: LineCounters | None = None,
    unfinished: bool = False,
) -> Iterator[list[str]]:
    """Yield chunks of complete lines from the end of ``path`` backwards, newest chunk first.

    Lines inside a chunk are in forward order. An unfinished last line (no newline yet) is
    not yielded, unless ``unfinished`` (its writer has gone quiet: it is the run's last line).
    Only the chunks pulled are read, so stopping early is cheap on any file size. ``stats``
    counts the lines yielded and their repairs.
    """
    scan = scan_bytes(max_line_bytes)
    with closing(files.open_for_reading(path)) as f:
        size = os.fstat(f.fileno()).st_size
        end = complete_end(f, size, scan)
        tail: list[str] = []
        if unfinished and end is not None and size > end:
            raw_tail = read_at(f, end, min(size - end, max_line_bytes + 1))
            cut_tail = len(raw_tail) > max_line_bytes
            tail, invalid = decode([cut_line(raw_tail, max_line_bytes) if cut_tail else raw_tail])
            if stats is not None:
                stats.lines += 1
                stats.invalid_utf8_lines += invalid
                stats.long_lines_cut += int(cut_tail)
        if end is None:  # it ends inside a line longer than any kept: nothing before it is read
            if stats is not None:
                stats.long_lines_cut += 1
            return
        for raw, cut in backward_chunks(f, end, chunk_bytes, max_line_bytes, scan):
            lines, invalid = decode(raw)
            if stats is not None:
                stats.lines += len(lines)
                stats.invalid_utf8_lines += invalid
                stats.long_lines_cut += cut
            yield lines + tail
            tail = []
        if tail:
            yield tail
