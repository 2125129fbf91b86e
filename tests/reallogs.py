"""Real trainer logs kept under tests/data/real/: each file opens with a header comment naming its
source and the figures expected from it, worked out by hand from the lines."""

from __future__ import annotations

from pathlib import Path

REAL = Path(__file__).resolve().parent / "data" / "real"


def body(name: str) -> list[str]:
    """The log's lines as the trainer wrote them: the file without its header comment."""
    lines = (REAL / name).read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    while lines and lines[0].startswith("# "):
        lines.pop(0)
    return lines


def line(name: str, starting: str) -> str:
    """The first line of a real log that starts with ``starting``."""
    return next(text for text in body(name) if text.startswith(starting))
