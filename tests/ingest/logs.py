"""Helpers that write real log files for the ingest tests."""

from __future__ import annotations

from pathlib import Path


def append(path: Path, data: bytes | str) -> None:
    """Append bytes (or text, as UTF-8) to ``path``."""
    with open(path, "ab") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def numbered(n: int, start: int = 0, width: int = 0) -> str:
    """``n`` distinct lines of varied length, each ending in a newline."""
    return "".join(f"line {i} {'x' * (i % 37 + width)}\n" for i in range(start, start + n))
