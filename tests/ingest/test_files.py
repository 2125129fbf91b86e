"""Where logs are found: a file, the newest ``*.log`` of a folder, the IOTA app's folder."""

from __future__ import annotations

import os
from pathlib import Path

from app.ingest.files import default_log_path, resolve_log


def test_resolve_log(tmp_path: Path) -> None:
    assert resolve_log(tmp_path / "missing") is None
    assert resolve_log(tmp_path) is None
    old, new = tmp_path / "2026-01-01-cli.log", tmp_path / "2026-01-02-cli.log"
    old.write_text("x\n")
    new.write_text("y\n")
    (tmp_path / "zzz.txt").write_text("not a log\n")
    os.utime(old, ns=(2_000_000_000_000_000_000, 2_000_000_000_000_000_000))
    os.utime(new, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    assert resolve_log(tmp_path) == old  # by mtime, not by name
    assert resolve_log(new) == new


def test_default_log_path(tmp_path: Path) -> None:
    assert default_log_path(tmp_path) is None
    folder = tmp_path / "Library" / "Logs" / "IOTA Train at Home"
    folder.mkdir(parents=True)
    assert default_log_path(tmp_path) == folder
