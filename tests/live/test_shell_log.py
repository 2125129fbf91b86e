"""The app's shell log read beside the worker's: the cause of a silence, its entries, and its cost.

Composed folders: ``tests/data/shell/worker-cli.log`` (its header works out its figures: last
line 02:13:35, was 192k tok/h) beside one composed shell log each (``main-*.log``, their headers
say what happens). Every answer below is worked out by hand from those headers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.live.monitor import Monitor
from app.live.shell import ShellLog, shell_folder_for, shell_log_in

# Times are worked out in UTC: this process reads local time as UTC (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("utc_zone")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "shell"
UTC = {"TZ": "UTC"}


def folder_with(tmp_path: Path, shell: str | None, name: str = "main.log") -> Path:
    folder = tmp_path / "IOTA Train at Home"
    folder.mkdir(parents=True)
    shutil.copy(DATA / "worker-cli.log", folder / "2026-09-30-cli.log")
    if shell is not None:
        shutil.copy(DATA / shell, folder / name)
    return folder


def once_json(*args: str) -> dict[str, object]:
    import os

    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "once", "--json", *args],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=False, env={**os.environ, **UTC},
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def texts(snapshot: dict[str, object]) -> list[str]:
    return [e["text"] for e in snapshot["events"]]  # type: ignore[index, union-attr]


@pytest.mark.parametrize(
    ("shell", "name", "at", "state", "status"),
    [
        # 02:30:00 − 02:13:35 = 16 min 25 s; the quit at 02:14:05 is 30 s after the last line
        ("main-quit.log", "main.log", "02:30:00", "silent", "L2 · log silent 16 min — you quit the app at 02:14"),
        # the exit by signal 5 s after the last line: a crash, whatever the worker's log says
        ("main-crash.log", "2026-09-30-main.log", "02:30:00", "crashed",
         "L2 · log silent 16 min — the miner crashed (SIGABRT) at 02:13"),
        ("main-exit-code.log", "main.log", "02:30:00", "crashed",
         "L2 · log silent 16 min — the miner crashed (exit code 1) at 02:13"),
        # 07:00:00 − 02:13:35 = 4 h 46 min 25 s; quit, then reopened at 06:50 with nothing in the worker's log
        ("main-never-started.log", "main.log", "07:00:00", "silent",
         "L2 · log silent 4 h 46 min — you quit the app at 02:14; the app reopened at 06:50, training never started"),
        # a quit 2 h after the silence began explains nothing
        ("main-elsewhere.log", "main.log", "05:00:00", "silent", "L2 · log silent 2 h 46 min"),
        (None, "main.log", "02:30:00", "silent", "L2 · log silent 16 min"),
    ],
)
def test_each_cause_of_a_silence(tmp_path: Path, shell: str | None, name: str, at: str, state: str, status: str) -> None:
    folder = folder_with(tmp_path, shell, name)
    snap = once_json("--log", str(folder), "--at", f"2026-09-30 {at}")
    assert (snap["state"], snap["status_line"]) == (state, status)
    silent = [t for t in texts(snap) if t.startswith("log went silent")]
    cause = status.partition(" — ")[2] or "cause unknown"
    assert silent == [f"log went silent — {cause}"]


def test_the_shell_s_events_are_on_the_timeline_and_the_update_is_named(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, "main-never-started.log")
    snap = once_json("--log", str(folder), "--at", "2026-09-30 07:00:00")
    assert texts(snap)[:5] == [
        "app: updated to 3.8.0",
        "app: training state waiting_training",
        "app: session started",
        "app: quit by you",
        "log went silent — you quit the app at 02:14; the app reopened at 06:50, training never started",
    ]


def test_an_explicit_shell_log_path_is_read_and_what_follows_the_moment_asked_is_not(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, None)
    shell = tmp_path / "elsewhere.log"
    shutil.copy(DATA / "main-never-started.log", shell)
    snap = once_json("--log", str(folder / "2026-09-30-cli.log"), "--shell-log", str(shell), "--at", "2026-09-30 03:00:00")
    assert snap["status_line"] == "L2 · log silent 46 min — you quit the app at 02:14"
    assert "app: updated to 3.8.0" not in texts(snap)


def test_the_shell_log_never_changes_what_the_worker_s_log_proves(tmp_path: Path) -> None:
    # At 02:13:00 the worker trains (its last pass 02:12:35): a shell line saying the miner exited by
    # a signal at 02:00 (composed) changes neither the state nor the rate; it is only an entry.
    folder = folder_with(tmp_path, None)
    (folder / "main.log").write_text("[2026-09-30 02:00:00.000] [error] miner process exited code=null signal=SIGKILL\n")
    without = once_json("--log", str(folder_with(tmp_path / "b", None)), "--at", "2026-09-30 02:13:00")
    with_shell = once_json("--log", str(folder), "--at", "2026-09-30 02:13:00")
    assert with_shell["state"] == without["state"] == "training"
    assert with_shell["status_line"] == without["status_line"]
    assert with_shell["rate"] == without["rate"]
    assert "app: the miner exited (SIGKILL)" in texts(with_shell)


def test_where_the_shell_log_is_looked_for(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, None)
    assert shell_folder_for(folder) == folder
    assert shell_folder_for(folder / "2026-09-30-cli.log") == folder
    assert shell_folder_for(tmp_path / "train.log") is None  # a trainer's log has no shell beside it
    assert shell_log_in(folder) is None
    (folder / "2026-09-29-main.log").write_text("x\n")
    newer = folder / "2026-09-30-main.log"
    newer.write_text("x\n")
    import os

    os.utime(folder / "2026-09-29-main.log", (1, 1))
    assert shell_log_in(folder) == newer


def _wait(condition: object, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_live_a_quit_written_to_the_shell_log_names_the_cause(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, "main-quit.log")
    shell_path = folder / "main.log"
    lines = shell_path.read_text().splitlines(keepends=True)
    shell_path.write_text("".join(lines[:-1]))  # everything but the quit
    clock = [1_790_000_000.0]
    import calendar

    at_0230 = float(calendar.timegm((2026, 9, 30, 2, 30, 0, 0, 0, 0)))
    clock[0] = at_0230
    monitor = Monitor(folder, clock=lambda: clock[0])
    monitor.shell = ShellLog(folder=shell_folder_for(folder), on_change=monitor.changes.bump)
    monitor.start()
    try:
        _wait(lambda: monitor.snapshot().layer == 2 and monitor.shell is not None and monitor.shell.tailing)
        assert monitor.snapshot().status_line == "L2 · log silent 16 min"
        with open(shell_path, "a") as f:
            f.write(lines[-1])
        _wait(lambda: monitor.snapshot().status_line.endswith("— you quit the app at 02:14"))
    finally:
        monitor.stop()
    assert not any(t.name == "tokwatch-shell-log" and t.is_alive() for t in threading.enumerate())


def test_no_shell_log_means_no_tailer_and_no_thread_but_a_rare_look(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, None)
    shell = ShellLog(folder=folder)
    shell.start()
    try:
        _wait(lambda: any(t.name == "tokwatch-shell-log" for t in threading.enumerate()))
        assert not shell.tailing and shell.figures() is None
    finally:
        shell.stop()
    assert not any(t.name == "tokwatch-shell-log" and t.is_alive() for t in threading.enumerate())
    assert ShellLog().figures() is None  # nothing given, nothing looked for


def test_the_silent_alert_says_the_cause(tmp_path: Path) -> None:
    import calendar

    from app.alerts.rules import Silent
    from app.ingest.formats.iota import IotaParser
    from app.ingest.formats.iota_shell import ShellParser
    from app.snapshot import SourceView
    from app.stats.iota.shell import ShellRecord
    from app.stats.iota.tracker import IotaTracker

    def utc(*wall: int) -> float:
        return float(calendar.timegm((*wall, 0, 0, 0)))

    tracker = IotaTracker()
    tracker.apply_all(IotaParser(to_epoch=utc).feed((DATA / "worker-cli.log").read_text().splitlines()))
    now = utc(2026, 9, 30, 2, 30, 0)
    snap = tracker.snapshot(now, SourceView("/x", 1, 1, 0, None))
    assert snap.cause is None
    record = ShellRecord("main.log")
    record.apply(ShellParser(to_epoch=utc).feed((DATA / "main-quit.log").read_text().splitlines()), 1, 0)
    tracker.shell = record.figures()
    snap = tracker.snapshot(now, SourceView("/x", 1, 1, 0, None))
    assert snap.cause is not None and (snap.cause.kind, snap.cause.text) == ("quit", "you quit the app at 02:14")
    finding = Silent().observe(snap, now)
    assert finding is not None and finding.text.endswith("— you quit the app at 02:14")


def test_a_newer_shell_log_in_the_folder_is_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app starts a new dated ``*-main.log`` while tokwatch runs: its lines are read (here the
    quit at 02:14:05), what the first one said stays, and the first one's tailer stops."""
    import os

    from app.live import shell as shell_module

    monkeypatch.setattr(shell_module, "LOOK_SECONDS", 0.05)
    folder = folder_with(tmp_path, "main-quit.log", name="2026-09-29-main.log")
    first = folder / "2026-09-29-main.log"
    lines = first.read_text().splitlines(keepends=True)
    first.write_text("".join(lines[:-1]))  # everything but the quit
    os.utime(first, (1, 1))
    def tailers() -> int:
        return sum(1 for t in threading.enumerate() if t.name == "tokwatch-tailer" and t.is_alive())

    tailers_before = tailers()
    shell = ShellLog(folder=folder)
    shell.start()
    try:
        _wait(lambda: shell.tailing and getattr(shell.figures(), "lines_read", 0) > 0)
        figures = shell.figures()
        assert figures is not None and figures.path == str(first)
        assert not any(e.kind == "quit" for e in figures.events)
        read_before = figures.lines_read
        kinds_before = [e.kind for e in figures.events]
        newer = folder / "2026-09-30-main.log"
        newer.write_text(lines[-1])
        _wait(lambda: any(e.kind == "quit" for e in getattr(shell.figures(), "events", ())))
        figures = shell.figures()
        assert figures is not None and figures.path == str(newer)
        assert [e.kind for e in figures.events] == [*kinds_before, "quit"]  # nothing read twice
        assert figures.lines_read == read_before + 1
        assert tailers() == tailers_before + 1  # the first log's tailer stopped
    finally:
        shell.stop()
    assert tailers() == tailers_before
    assert not any(t.name == "tokwatch-shell-log" and t.is_alive() for t in threading.enumerate())
