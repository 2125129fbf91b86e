"""``tokwatch once``: read the log's tail once, print a snapshot (text, JSON or the queue report)."""

from __future__ import annotations

import functools
import json
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .. import text
from ..config import Config
from ..ingest.files import check_log_path, default_log_path
from ..snapshot import Snapshot
from .parse import Invocation, Output, UsageError, parse_local_time

if TYPE_CHECKING:
    from ..compare.view import RunFigures
    from ..ingest.folder import Following
    from ..record.recorder import Recorder


def run_once(invocation: Invocation) -> int:
    """Read the log's tail once, print a snapshot, exit 0."""
    config = invocation.config
    if config.demo and config.log_path is None:
        from ..demo import write_demo_log

        # The composed log lives as long as this command: nothing is left behind in /tmp.
        with tempfile.TemporaryDirectory(prefix="tokwatch-demo-") as folder:
            log_path = write_demo_log(Path(folder) / "demo.log")
            return _print_once(config, invocation.output, invocation.at, log_path, None)
    log_path, following = resolve_log(config)
    return _print_once(config, invocation.output, invocation.at, log_path, following)


def resolve_log(config: Config) -> tuple[Path, Following | None]:
    """The log file to read: the one given, or the one its folder's rules pick (raises UsageError)."""
    from ..ingest.folder import resolve_log as resolve_in_folder
    from ..ingest.formats.detect import family, log_kind

    given = config.log_path
    path = given if given is not None else default_log_path()
    if path is None:
        raise UsageError("no log found (looked for ~/Library/Logs/IOTA Train at Home/); pass --log PATH or --demo")
    if not check_log_path(path, missing_ok=False):
        return path, None
    kind = None if config.format_name == "auto" else family(config.format_name)
    try:
        classify = functools.partial(log_kind, format_name=config.format_name)
        resolved, following = resolve_in_folder(path, classify, kind)
    except OSError as e:
        raise UsageError(f"{path}: cannot list this folder ({e.strerror or e})") from e
    if resolved is None:
        if following is not None and following.ignored_total:
            raise UsageError(f"{path}: {following.reason} (ignored {following.ignored_total} other *.log)")
        raise UsageError(f"{path}: no *.log file in this directory")
    check_log_path(resolved, missing_ok=False)
    return resolved, following


def _print_once(config: Config, output: Output, at_text: str | None, log_path: Path,
                following: Following | None) -> int:
    from ..live.feed import LiveFeed
    from ..live.monitor import Monitor
    from ..live.shell import ShellLog, shell_folder_for
    from ..snapshot import to_dict

    monitor = Monitor(log_path, format_name=config.format_name, demo=config.demo)
    at = parse_local_time(at_text) if at_text not in (None, "end") else None
    monitor.dated_end = at_text == "end"
    monitor.read_once(log_path, following, until=at)
    shell_folder = shell_folder_for(config.log_path if config.log_path is not None else log_path)
    if config.shell_log_path is not None or shell_folder is not None:
        monitor.shell = ShellLog(config.shell_log_path, folder=shell_folder, until=at)
        monitor.shell.read_once()
    if at_text == "end":
        now = monitor.last_event_at() or time.time()
    elif at is not None:
        now = at
    else:
        now = time.time()
    if not config.demo:
        from ..ingest.sleeplog import TOOL_TIMEOUT_SECONDS, SleepWatch

        monitor.sleep = SleepWatch(clock=time.time)
        monitor.snapshot(now)  # asks for the sleep records when a silence needs explaining
        monitor.sleep.wait(TOOL_TIMEOUT_SECONDS + 1)
    recorder = _history_reader(config, log_path)
    try:
        snapshot = LiveFeed(monitor, recorder=recorder).snapshot(now)
        totals = recorder.totals_line() if recorder is not None else None
    finally:
        if recorder is not None:
            recorder.history.stop()
    compared = _compared(config, log_path) if config.compare_paths and output != "report" else None
    if output == "report":
        print(monitor.queue_report(now), end="")
    elif output == "json":
        body = to_dict(snapshot)
        if compared is not None:
            from ..compare.view import comparison

            body["compare"] = comparison(compared, "step")
        print(json.dumps(body, ensure_ascii=False, indent=2))
    else:
        print(snapshot.status_line)
        for line in snapshot.details:
            print(f"  {line}")
        if totals:
            print(f"  {totals}")
        print(f"  {state_line(snapshot, now)}")
        if snapshot.source.problem:
            print(f"  ({snapshot.source.problem})")
        if compared is not None:
            from ..compare.view import side_by_side

            print("Compared:")
            for line in side_by_side(compared):
                print(f"  {line}")
    return 0


def _compared(config: Config, log_path: Path) -> list[RunFigures]:
    """The followed log's last run and each ``--compare`` log's (raises UsageError for one that cannot be read)."""
    from ..compare.files import NotComparable, read_runs
    from ..compare.view import from_run

    found: list[RunFigures] = []
    now = time.time()
    for path in (log_path, *config.compare_paths):
        try:
            runs = read_runs([path], config.format_name if path == log_path else "auto")
        except NotComparable as e:
            raise UsageError(f"--compare: {e}") from e
        if not runs:
            raise UsageError(f"--compare: {path}: no loss logged")
        label = path.name if len(runs) == 1 else f"{path.name} run {len(runs)} of {len(runs)}"
        found.append(from_run(runs[-1], f"file:{path}", label, now))
    return found


def state_line(snapshot: Snapshot, now: float) -> str:
    """The state, its level and the log's age: what a script or a person checks first."""
    last = snapshot.source.last_event_at
    if last is not None:
        age = f"last log line {text.ago(now - last)} ago"
    elif snapshot.source.lines_read:
        age = f"{snapshot.source.lines_read} lines read, none dated"
    else:
        age = "nothing read yet"
    return f"State: {snapshot.state} ({snapshot.level}) · {age}"


def _history_reader(config: Config, log_path: Path) -> Recorder | None:
    """The history for ``once``: read only, and only when it already exists.

    A one-shot look neither creates a history nor writes to one (it may be a log copied from
    another machine, read with --at); it shows the figures a running tokwatch has kept.
    """
    from ..record.recorder import Recorder
    from ..store import History
    from ..store.files import FILE_NAME

    if not config.history or config.demo:
        return None
    data_dir = config.resolved_data_dir
    if not (data_dir / FILE_NAME).is_file():
        return None
    given = config.log_path if config.log_path is not None else default_log_path()
    history = History(data_dir, write=False)
    history.start()
    return Recorder(history, given if given is not None else log_path, format_name=config.format_name,
                    machine=config.name)
