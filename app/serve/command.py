"""Run the dashboard: the watcher, waitress for HTTP, Werkzeug for /ws, until Ctrl-C or SIGTERM.

``servers`` says which server runs what, ``dashboard`` owns the running parts and their
shutdown, ``console`` what the terminal shows; this is the command that ties them together.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from ..config import Config
from ..ingest.sleeplog import SleepWatch
from ..live.monitor import Monitor
from ..live.shell import ShellLog, shell_folder_for
from ..record.recorder import Recorder
from ..web.pairing import local_url
from ..web.security import load_or_create_token, token_path
from .console import open_in_browser, print_banner
from .process import Dashboard
from .servers import ServeError

if TYPE_CHECKING:
    from ..demo import DemoLog

__all__ = ["ServeError", "build_recorder", "serve", "with_token"]

# Where the main thread cannot sleep on the signal wake-up descriptor (Windows), it looks up this often.
MAIN_WAIT_SECONDS = 0.5
BACKLOG_WAIT_SECONDS = 3.0


def serve(config: Config, *, out: TextIO | None = None) -> int:
    """Run the dashboard until Ctrl-C or SIGTERM; return the exit status.

    Raises ServeError (a port in use), TokenStoreError or ConfigError (a bad token): the CLI
    turns them into a message.
    """
    from ..ingest.files import default_log_path

    out = out if out is not None else sys.stdout
    log_path = config.log_path
    hub_only = config.hub and log_path is None and not config.demo  # a hub follows no log unless given one
    if log_path is None and not config.demo and not hub_only:
        log_path = default_log_path()
    config = with_token(config)
    demo: DemoLog | None = None
    if not hub_only and (config.demo or log_path is None):
        from ..demo import DemoLog  # (only the DEMO needs it: a server on a log never loads it)

        demo = DemoLog.create()
        log_path = demo.path

    monitor = Monitor(log_path, format_name=config.format_name, demo=demo is not None)
    if demo is None:
        monitor.shell = shell_log_for(config, log_path, monitor)
        monitor.sleep = SleepWatch(clock=time.time, on_change=monitor.changes.bump)
    recorder = None if log_path is None else build_recorder(config, log_path, demo=demo is not None)
    dashboard = Dashboard(config, monitor, demo=demo, recorder=recorder)
    try:
        config = dashboard.start()
    except BaseException:
        dashboard.stop()  # also deletes the demo file
        raise

    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    # SIGHUP too: closing the terminal window must still stop cleanly (and delete a DEMO log).
    stopping = [signal.SIGINT, signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {sig: signal.signal(sig, on_signal) for sig in stopping}
    try:
        # Print the URL once the backlog is in, so the first page shows figures, not "waiting".
        if log_path is not None and log_path.exists():
            monitor.changes.wait_for_change(0, timeout=BACKLOG_WAIT_SECONDS)
        if not stop.is_set():
            print_banner(config, log_path, demo=demo is not None, given_demo=config.demo, out=out)
            if config.open_browser:
                open_in_browser(local_url(config), out=out)
            print("  Ctrl-C to stop", file=out, flush=True)
        sleep_until_stopped(stop)
        print("tokwatch: stopping…", file=out, flush=True)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        dashboard.stop()
    return 0


def sleep_until_stopped(stop: threading.Event) -> None:
    """Sleep until a stopping signal's handler has set ``stop``; call from the main thread.

    The kernel hands a signal to any one of the process's threads, and Python runs the handler
    in the main thread only when that thread next runs: a main thread asleep on a lock would
    never wake when the signal lands elsewhere. So it sleeps in ``select`` on the wake-up
    descriptor Python's own C-level handler writes to, whichever thread the signal lands on.
    """
    if os.name != "posix":
        while not stop.wait(MAIN_WAIT_SECONDS):
            pass
        return
    receive, send = socket.socketpair()
    receive.setblocking(False)
    send.setblocking(False)
    previous = signal.set_wakeup_fd(send.fileno(), warn_on_full_buffer=False)
    try:
        while not stop.is_set():
            select.select([receive], [], [])
            with contextlib.suppress(BlockingIOError):
                while receive.recv(64):
                    pass
    finally:
        signal.set_wakeup_fd(previous)
        receive.close()
        send.close()


def shell_log_for(config: Config, log_path: Path | None, monitor: Monitor) -> ShellLog | None:
    """The app's shell log to read beside the miner's: the one given, else one looked for beside it."""
    folder = shell_folder_for(log_path)
    if config.shell_log_path is None and folder is None:
        return None
    return ShellLog(config.shell_log_path, folder=folder, on_change=monitor.changes.bump)


def build_recorder(config: Config, log_path: Path, *, demo: bool) -> Recorder:
    """The history for this log: in ``--data-dir`` or the user's data dir; none with ``--no-history``.

    The demo's made-up figures are kept only where ``--data-dir`` says, never in the user's history.
    """
    from ..store import History

    data_dir = config.resolved_data_dir
    keep = config.history and (not demo or config.data_dir is not None)
    return Recorder(History(data_dir if keep else None), log_path, format_name=config.format_name, machine=config.name)


def with_token(config: Config) -> Config:
    """Give a non-loopback config its token: ``--token``, else the one kept in the config dir."""
    if config.token is not None or config.loopback_only:
        return config
    directory = config.resolved_config_dir
    return replace(config, token=load_or_create_token(directory), token_file=token_path(directory))
