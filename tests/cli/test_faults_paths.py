"""``run.py`` given paths that are no log to follow, as a real subprocess: one line, exit 2, never a hang.

Every case has a hard timeout: before these were refused, a FIFO blocked ``run.py`` forever in
its open (``--once`` and serving alike), ``/dev/zero`` read as an empty log and exited 0, and a
log in a folder tokwatch may not search ended in a traceback and exit 1.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "data" / "iota-sample.log"
SHELL_LINES = "[2026-09-14 09:20:00.000] [info]  Checking for update\n"


def run_py(*args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "run.py"), *args],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT, check=False,
    )


def one_line_refusal(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tokwatch: "), result.stderr
    for word in words:
        assert word in err[0], err[0]


@pytest.mark.parametrize("mode", [["--once"], ["--once", "--json"], ["--port", "0"]])
def test_a_fifo_is_refused_in_every_mode(tmp_path: Path, mode: list[str]) -> None:
    fifo = tmp_path / "miner.log"
    os.mkfifo(fifo)
    one_line_refusal(run_py(*mode, "--log", str(fifo)), "FIFO", "not a regular file")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("mode", [["--once"], ["--port", "0"]])
def test_a_device_is_refused(device: str, mode: list[str]) -> None:
    one_line_refusal(run_py(*mode, "--log", device), "device", "not a regular file")


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "miner.log"
    held = socket.socket(socket.AF_UNIX)
    held.bind(str(path))
    try:
        one_line_refusal(run_py("--once", "--log", str(path)), "socket")
        one_line_refusal(run_py("--port", "0", "--log", str(path)), "socket")
    finally:
        held.close()


def test_a_log_in_a_folder_that_may_not_be_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Root may search any folder, so the refusal is made where the kernel makes it: at stat.
    log = tmp_path / "private" / "miner.log"
    real_stat = os.stat

    def no_search(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if os.fspath(path).startswith(str(tmp_path / "private")):  # type: ignore[call-overload]
            raise PermissionError(13, "Permission denied", os.fspath(path))  # type: ignore[call-overload]
        return real_stat(path, *args, **kwargs)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(os, "stat", no_search)
    for args in (["--once", "--log", str(log)], ["--port", "0", "--log", str(log)]):
        assert main(args) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [f"tokwatch: {log}: cannot read (Permission denied)"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root searches any folder; the monkeypatched case covers it")
def test_a_folder_without_search_permission_as_a_user(tmp_path: Path) -> None:
    folder = tmp_path / "private"
    folder.mkdir()
    (folder / "miner.log").write_text(SAMPLE.read_text())
    folder.chmod(0o600)
    try:
        one_line_refusal(run_py("--once", "--log", str(folder / "miner.log")), "cannot read")
    finally:
        folder.chmod(0o700)


def test_once_json_reports_what_was_skipped(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    log.write_bytes(SAMPLE.read_bytes() + b"bad \xff\xfe bytes\n")
    result = run_py("--once", "--json", "--log", str(log))
    assert result.returncode == 0, result.stderr
    source = json.loads(result.stdout)["source"]
    assert source["skipped"]["invalid_utf8_lines"] == 1
    assert set(source["skipped"]) >= {"invalid_utf8_lines", "long_lines_cut", "truncations", "rotations"}
    assert source["following"] is None


def test_once_on_the_train_at_home_folder_reads_the_miners_log(tmp_path: Path) -> None:
    folder = tmp_path / "IOTA Train at Home"
    folder.mkdir()
    cli = folder / "2026-09-13-cli.log"
    cli.write_bytes(SAMPLE.read_bytes())
    shell = folder / "main.log"
    shell.write_text(SHELL_LINES)
    os.utime(cli, (1_700_000_000, 1_700_000_000))  # main.log is the newest file
    result = run_py("--once", "--json", "--at", "end", "--log", str(folder))
    assert result.returncode == 0, result.stderr
    snap = json.loads(result.stdout)
    assert snap["source"]["path"] == str(cli) and snap["format"] == "iota"
    assert snap["source"]["following"]["ignored"] == [str(shell)]
    # A folder with nothing tokwatch recognises says so, and what it passed over.
    cli.unlink()
    one_line_refusal(run_py("--once", "--log", str(folder)), "ignored 1 other *.log")
