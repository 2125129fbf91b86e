"""A crash in either log is a crash: the worker's panic, abort or traceback, the shell's exit by signal.

Composed logs in tests/data/shell (their headers say what happens): ``worker-panic-cli.log`` ends
in the Rust panic of macrocosm-os/iota#202 at 02:13:36, ``worker-traceback-cli.log`` in a Python
traceback at 02:13:36; both after the passes of ``worker-cli.log`` (192k tok/h, last pass 02:13:35).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.ingest.formats.iota import IotaParser
from app.stats.events import WorkerCrashed

# Times are worked out in UTC: this process reads local time as UTC (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("utc_zone")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "shell"
PANIC = "thread 'tokio-runtime-worker' panicked at src/p2p/peer_score.rs:88:17: attempt to divide by zero"
OOM = "RuntimeError: MPS backend out of memory (MPS allocated: 17.5 GB, other allocations: 1.2 GB)"


def once(log: Path, at: str, *more: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "once", "--log", str(log), "--at", f"2026-09-30 {at}", *more],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=False, env={**os.environ, "TZ": "UTC"},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize(
    ("log", "at", "expected"),
    [
        # 02:30:00 − 02:13:36.102 = 16 min 23 s: silent, and the worker's own words say why
        ("worker-panic-cli.log", "02:30:00", ["L2 · log silent 16 min — the miner crashed at 02:13", "  was 192k tok/h",
                                              "  last pass 16 min ago", f"  last line: {PANIC}",
                                              "  State: crashed (problem) · last log line 16 min ago"]),
        # 24 s after the abort: not silent yet, but the process cannot have lived on
        ("worker-panic-cli.log", "02:14:00", ["L2 · crashed at 02:13", "  was 192k tok/h", "  last pass 25 s ago",
                                              f"  last line: {PANIC}", "  State: crashed (problem) · last log line 23 s ago"]),
        ("worker-traceback-cli.log", "02:30:00", ["L2 · log silent 16 min — the miner crashed at 02:13", "  was 192k tok/h",
                                                  "  last pass 16 min ago", f"  last line: {OOM}",
                                                  "  State: crashed (problem) · last log line 16 min ago"]),
        # a traceback may have been caught: while the log talks, it is no crash yet
        ("worker-traceback-cli.log", "02:14:00", ["L2 · 192k tok/h", "  192k tok/h · 60 passes/h (over 20 min)",
                                                  "  last pass 25 s ago", "  State: training (ok) · last log line 24 s ago"]),
    ],
)
def test_the_worker_s_own_last_words(log: str, at: str, expected: list[str]) -> None:
    assert once(DATA / log, at) == expected


def test_the_shell_s_exit_names_the_signal_and_the_worker_s_line_is_quoted(tmp_path: Path) -> None:
    shutil.copy(DATA / "worker-panic-cli.log", tmp_path / "2026-09-30-cli.log")
    shutil.copy(DATA / "main-crash.log", tmp_path / "main.log")
    lines = once(tmp_path, "02:30:00")
    assert lines[0] == "L2 · log silent 16 min — the miner crashed (SIGABRT) at 02:13"
    assert f"  last line: {PANIC}" in lines


def test_a_crash_is_forgotten_once_the_miner_works_again() -> None:
    lines = (DATA / "worker-panic-cli.log").read_text(encoding="utf-8").splitlines()
    lines.append("[2026-09-30 02:20:00.000] [info]  2026-09-30 02:20:00.000 | INFO     | miner.new_miner:run_miner:1723"
                 " - 🚀 Starting miner 🚀")
    from app.snapshot import SourceView
    from app.stats.iota.tracker import IotaTracker

    tracker = IotaTracker()
    tracker.apply_all(IotaParser(to_epoch=_utc).feed(lines))
    snap = tracker.snapshot(_utc(2026, 9, 30, 2, 21, 0), SourceView("/x", 1, 1, 0, None))
    assert snap.state != "crashed"
    assert any(e.kind == "crashed" and e.text == f"the miner crashed: {PANIC}" for e in snap.events)


def _utc(year: int, month: int, day: int, hour: int, minute: int, second: int) -> float:
    import calendar

    return float(calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)))


@pytest.mark.parametrize(
    ("lines", "crash"),
    [
        (["[2026-09-30 02:13:36.100] [info]  Abort trap: 6"], WorkerCrashed(0, "Abort trap: 6", True)),
        (["[2026-09-30 02:13:36.100] [info]  fatal runtime error: stack overflow"],
         WorkerCrashed(0, "fatal runtime error: stack overflow", True)),
        (["thread 'main' panicked at 'index out of bounds', src/lib.rs:3:5"],  # older Rust, unwrapped
         WorkerCrashed(0, "thread 'main' panicked at 'index out of bounds', src/lib.rs:3:5", False)),
        (["Traceback (most recent call last):", '  File "a.py", line 1, in <module>', "KeyError: 'layer'"],
         WorkerCrashed(0, "KeyError: 'layer'", False)),
    ],
)
def test_each_crash_line_is_read(lines: list[str], crash: WorkerCrashed) -> None:
    parser = IotaParser(to_epoch=lambda *_: 0.0)
    first = "[2026-09-30 02:13:35.000] [info]  2026-09-30 02:13:35.000 | INFO     | miner.x:y:1 - hello"
    found = [e for e in parser.feed([first, *lines]) if isinstance(e, WorkerCrashed)]
    assert [(e.line, e.fatal) for e in found] == [(crash.line, crash.fatal)]
    # and again on a second read of the same lines: a crash's lines are never remembered as quiet
    found = [e for e in parser.feed([first, *lines]) if isinstance(e, WorkerCrashed)]
    assert [(e.line, e.fatal) for e in found] == [(crash.line, crash.fatal)]


def test_a_lone_shell_log_says_what_it_is(tmp_path: Path) -> None:
    shutil.copy(DATA / "main-crash.log", tmp_path / "main.log")
    lines = once(tmp_path / "main.log", "02:30:00")
    assert lines[0] == "the app's shell log, not the miner's"
    assert "  the shell's last word: the miner exited (SIGABRT) at 02:13" in lines
    assert not any("log format not recognised" in line for line in lines)
