"""A tokwatch process started as a user starts it, read until it says it is serving."""

from __future__ import annotations

import subprocess
import time

READY_LINE = "Ctrl-C to stop"  # the last line of the banner: the servers are up


def printed_until_ready(process: subprocess.Popen[str], seconds: float) -> tuple[str, bool]:
    """What ``process`` printed up to its :data:`READY_LINE` (True), or up to its end or ``seconds``
    (False); a line is read whole before the time is looked at again."""
    assert process.stdout is not None
    printed = ""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        printed += line
        if READY_LINE in line:
            return printed, True
    return printed, False
