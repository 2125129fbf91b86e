"""Where logs are found: a file, the right ``*.log`` of a folder, the IOTA app's folder; opening one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.ingest.files import NotRegularFile, default_log_path, open_for_reading
from app.ingest.folder import resolve_log


def test_resolve_log(tmp_path: Path) -> None:
    assert resolve_log(tmp_path / "missing") == (None, None)
    assert resolve_log(tmp_path)[0] is None
    old, new = tmp_path / "2026-01-01-cli.log", tmp_path / "2026-01-02-cli.log"
    old.write_text("x\n")
    new.write_text("y\n")
    (tmp_path / "zzz.txt").write_text("not a log\n")
    os.utime(old, ns=(2_000_000_000_000_000_000, 2_000_000_000_000_000_000))
    os.utime(new, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    assert resolve_log(tmp_path)[0] == old  # by mtime, not by name
    assert resolve_log(new) == (new, None)


def test_default_log_path(tmp_path: Path) -> None:
    assert default_log_path(tmp_path) is None
    folder = tmp_path / "Library" / "Logs" / "IOTA Train at Home"
    folder.mkdir(parents=True)
    assert default_log_path(tmp_path) == folder


@pytest.mark.parametrize("kind", ["fifo", "device", "socket"])
def test_only_a_regular_file_is_opened_and_a_fifo_never_blocks(tmp_path: Path, kind: str) -> None:
    import socket

    path = tmp_path / "x.log"
    held = None
    if kind == "fifo":
        os.mkfifo(path)  # opening it for reading would wait for a writer: it must not
    elif kind == "device":
        path = Path("/dev/zero")
    else:
        held = socket.socket(socket.AF_UNIX)
        held.bind(str(path))
    try:
        # A socket cannot even be opened (ENXIO); the others are refused once open.
        with pytest.raises(OSError) as refused:
            open_for_reading(path)
        assert kind == "socket" or isinstance(refused.value, NotRegularFile)
    finally:
        if held is not None:
            held.close()
