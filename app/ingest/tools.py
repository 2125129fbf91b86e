"""An outside tool (pmset, journalctl, nvidia-smi, macmon) run once at a time, never trusted to end.

Each run is in its own process group with a timeout, so a tool that hangs is killed with whatever it
started; :meth:`ToolRun.kill` ends a run in progress when its owner stops.
"""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ToolAnswer:
    """What one run gave: its output, or why there is none (``problem``), and its exit status."""

    output: str | None
    problem: str | None
    returncode: int | None = None


class ToolRun:
    """Runs a tool with a timeout; one run at a time, killable from another thread."""

    def __init__(self, timeout_seconds: float) -> None:
        self.timeout_seconds = timeout_seconds
        self._process: subprocess.Popen[str] | None = None

    def run(self, argv: list[str], name: str) -> ToolAnswer:
        """Run ``argv`` and wait for its output, at most the timeout; ``name`` is how problems call it."""
        try:
            process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                       text=True, errors="replace", start_new_session=True)
        except OSError as e:
            return ToolAnswer(None, f"{name} could not run: {e.strerror or e}")
        self._process = process
        try:
            output, _ = process.communicate(timeout=self.timeout_seconds)
        except subprocess.TimeoutExpired:
            kill_group(process)
            process.communicate()
            return ToolAnswer(None, f"{name} did not answer within {self.timeout_seconds:.0f} s")
        finally:
            self._process = None
        return ToolAnswer(output, None, process.returncode)

    @property
    def running(self) -> bool:
        """True while a run is in progress."""
        return self._process is not None

    def kill(self) -> None:
        """Kill the run in progress, if any."""
        process = self._process
        if process is not None and process.poll() is None:
            kill_group(process)


def kill_group(process: subprocess.Popen[str]) -> None:
    """Kill a tool started in its own session, and everything it started."""
    killpg = getattr(os, "killpg", None)  # POSIX only
    try:
        if killpg is None:
            raise OSError("no process groups")
        killpg(process.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
    except OSError:
        process.kill()
