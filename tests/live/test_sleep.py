"""Sleep and wake: fake ``pmset`` and ``journalctl`` on PATH replay composed outputs (tests/data/tools).

By hand: the worker's log (tests/data/shell/worker-cli.log) ends 02:13:35; the Mac slept at
02:14:07 (34 s later: within the 10 min after the last line) and woke at 06:50:12, a DarkWake
between (it slept on). At 07:00:00 the log is silent 4 h 46 min (4 h 46 min 25 s).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.ingest.sleeplog import SleepWatch, parse_journal, parse_pmset, sleep_command
from app.stats.iota.shell import SleepSpan

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tests" / "data" / "tools"
WORKER = ROOT / "tests" / "data" / "shell" / "worker-cli.log"
SLEPT = 1_790_734_447.0  # 2026-09-30 02:14:07 UTC
WOKE = 1_790_751_012.0  # 2026-09-30 06:50:12 UTC


def fake_tool(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_pmset_and_the_journal_read_as_the_same_span() -> None:
    assert parse_pmset((TOOLS / "pmset-log.txt").read_text()) == [SleepSpan(SLEPT, WOKE)]
    assert parse_journal((TOOLS / "journal-suspend.txt").read_text()) == [SleepSpan(SLEPT, WOKE, "machine")]
    assert parse_pmset("2026-09-30 02:14:07 +0000 Sleep  \tEntering Sleep state") == [SleepSpan(SLEPT, None)]


def test_the_tool_is_pmset_then_journalctl_then_none(tmp_path: Path) -> None:
    found = {"pmset": "/x/pmset", "journalctl": "/x/journalctl"}
    command = sleep_command(found.get)
    assert command is not None and command[0] == ["/x/pmset", "-g", "log"]
    command = sleep_command({"journalctl": "/x/journalctl"}.get)
    assert command is not None and command[0][0] == "/x/journalctl"
    assert sleep_command(lambda name: None) is None
    watch = SleepWatch(clock=time.time, command=None)
    watch._command = None  # no tool on this machine
    watch.explain()
    assert not watch.available and watch.runs == 0 and watch.spans() == ()


def test_a_fake_pmset_on_path_labels_the_silence(tmp_path: Path) -> None:
    folder = tmp_path / "IOTA Train at Home"
    folder.mkdir()
    shutil.copy(WORKER, folder / "2026-09-30-cli.log")
    tools = tmp_path / "bin"
    fake_tool(tools, "pmset", f'cat "{TOOLS / "pmset-log.txt"}"')
    env = {**os.environ, "TZ": "UTC", "PATH": f"{tools}:{os.environ['PATH']}"}
    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "once", "--log", str(folder), "--at", "2026-09-30 07:00:00"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=True, env=env,
    )
    assert result.stdout.splitlines()[0] == "L2 · log silent 4 h 46 min — Mac slept 02:14–06:50"


def test_a_past_silence_on_the_timeline_says_the_mac_slept_and_another_cause_unknown(tmp_path: Path) -> None:
    # The worker's log again after the wake (composed): the silence is a past span of the timeline.
    log = tmp_path / "2026-09-30-cli.log"
    log.write_text(WORKER.read_text() + "[2026-09-30 06:51:00.000] [info]  2026-09-30 06:51:00.000 | DEBUG    | "
                   "miner.training.activation_queue:fetch:88 - Cache size: 1\n")
    tools = tmp_path / "bin"
    fake_tool(tools, "pmset", f'cat "{TOOLS / "pmset-log.txt"}"')
    env = {**os.environ, "TZ": "UTC", "PATH": f"{tools}:{os.environ['PATH']}"}
    import json

    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "once", "--json", "--log", str(log), "--at", "2026-09-30 06:52:00"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=True, env=env,
    )
    texts = [e["text"] for e in json.loads(result.stdout)["events"]]
    assert "log silent for 4 h 37 min — Mac slept 02:14–06:50" in texts
    fake_tool(tools, "pmset", "echo 'Time stamp  Domain  Message'")  # a record with no sleep in it
    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "once", "--json", "--log", str(log), "--at", "2026-09-30 06:52:00"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=True, env=env,
    )
    texts = [e["text"] for e in json.loads(result.stdout)["events"]]
    assert "log silent for 4 h 37 min — cause unknown" in texts


@pytest.mark.parametrize(("body", "problem"), [
    ("sleep 30", "did not answer"),  # a tool that hangs is killed at its timeout
    ("echo 'garbage [N/A]'; exit 3", None),  # nonsense and a failing status: no span, no error
])
def test_a_hanging_or_failing_tool_never_holds_anything(tmp_path: Path, body: str, problem: str | None) -> None:
    tool = fake_tool(tmp_path / "bin", "pmset", body)
    watch = SleepWatch(clock=time.time, command=([str(tool), "-g", "log"], parse_pmset), timeout_seconds=0.5)
    started = time.monotonic()
    watch.explain()
    watch.explain()  # asked again at once: not run twice
    watch.wait(10)
    assert time.monotonic() - started < 8
    assert watch.runs == 1 and watch.spans() == ()
    assert (watch.problem is None) if problem is None else (problem in (watch.problem or ""))
    watch.stop()


def test_stopping_kills_a_run_in_progress(tmp_path: Path) -> None:
    tool = fake_tool(tmp_path / "bin", "pmset", "sleep 30")
    watch = SleepWatch(clock=time.time, command=([str(tool), "-g", "log"], parse_pmset), timeout_seconds=60)
    watch.explain()
    deadline = time.monotonic() + 10
    while not watch._tool.running and time.monotonic() < deadline:
        time.sleep(0.01)
    started = time.monotonic()
    watch.stop(timeout=10)
    assert time.monotonic() - started < 5
    assert watch._thread is not None and not watch._thread.is_alive()
