"""What the terminal shows: the banner first, warnings only unless --verbose, and a quiet end when
the reader of a pipe goes away (``tokwatch once | head``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.web.test_serve import ROOT, start_run_py

SAMPLE = ROOT / "tests" / "data" / "iota-sample.log"


def opened_alerts(port: int) -> list[object]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/snapshot", timeout=10) as response:
        return list(json.load(response)["alerts"]["active"])


@pytest.mark.parametrize("argv", [["once", "--json", "--at", "end"], ["--once", "--at", "end"], ["--help"]])
def test_a_pipe_closed_by_its_reader_ends_quietly(argv: list[str]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `| head` that has read what it wanted and gone
    try:
        result = subprocess.run([sys.executable, str(ROOT / "run.py"), *argv, "--log", str(SAMPLE)],
                                stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, check=False)
    finally:
        os.close(write_end)
    assert result.stderr == ""
    assert result.returncode == 0


@pytest.mark.parametrize("verbose", [False, True])
def test_the_banner_comes_first_and_info_records_only_with_verbose(tmp_path: Path, verbose: bool) -> None:
    log = tmp_path / "miner.log"
    log.write_bytes(SAMPLE.read_bytes())
    running = start_run_py(tmp_path, "--log", str(log), *(["--verbose"] if verbose else []))
    # The old sample log opens the "log silent" alert, an INFO record, at the alerts' first look.
    deadline = time.monotonic() + 30
    while not opened_alerts(running.http_port):
        assert time.monotonic() < deadline, "the silent alert never opened"
        time.sleep(0.2)
    status, stderr = running.stop()
    assert status == 0
    assert running.banner.startswith(f"tokwatch: following {log}\n")
    assert (" INFO " in stderr) is verbose, stderr


def test_once_starts_without_loading_the_web_server() -> None:
    # `once` is a snapshot in the terminal: Flask, waitress and the websocket server are not its
    # business (they cost most of its start), yet a failing command's error is still caught.
    probe = ("import sys; from app.cli.main import main; "
             f"status = main(['once', '--log', {str(SAMPLE)!r}, '--at', 'end']); "
             "print(status, sorted(m for m in ('flask', 'waitress', 'simple_websocket') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=True)
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout
