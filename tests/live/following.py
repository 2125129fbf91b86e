"""A Monitor following a real file with the real tailer, evaluated at a fixed time: what the live
fault tests drive while a real writer appends, rotates and truncates."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.live.monitor import Monitor
from app.snapshot import Snapshot

POLL_SECONDS = 0.01  # how often a wait looks at the snapshot again


class Live:
    """A Monitor following ``path`` with the real tailer, evaluated at ``now``."""

    def __init__(self, path: Path, now: float, format_name: str = "auto") -> None:
        self.now = now
        self.monitor = Monitor(path, format_name=format_name, clock=lambda: now)

    def snap(self) -> Snapshot:
        return self.monitor.snapshot(self.now)

    def wait(self, what: str, done: Callable[[Snapshot], bool], timeout: float = 10.0) -> Snapshot:
        """Poll the snapshot until ``done``; fail with the last source view after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            snap = self.snap()
            if done(snap):
                return snap
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}; source: {snap.source}")
            time.sleep(POLL_SECONDS)

    def caught_up(self, lines: int, timeout: float = 10.0) -> Snapshot:
        return self.wait(f"{lines} lines read", lambda s: s.source.lines_read >= lines, timeout)


def following(now: float, *, looked: bool = False) -> Iterator[Callable[..., Live]]:
    """For a fixture: start a :class:`Live` on a path (and a format) given, each stopped after the
    test; with ``looked``, once its tailer has looked at the path (a size read, or a problem)."""
    started: list[Live] = []

    def start(path: Path, format_name: str = "auto") -> Live:
        live = Live(path, now, format_name)
        live.monitor.start()
        if looked:
            live.wait("the tailer to look", lambda s: s.source.problem is not None or s.source.size_bytes is not None)
        started.append(live)
        return live

    yield start
    for live in started:
        live.monitor.stop()


def append(path: Path, data: bytes | str) -> None:
    """Append to ``path`` as a writer would: one write, then closed."""
    with open(path, "ab") as f:
        f.write(data.encode() if isinstance(data, str) else data)
