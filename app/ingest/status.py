"""What the tailer is following and how it is going, shared between its thread and readers."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from pathlib import Path

from .folder import Following

log = logging.getLogger("app.ingest.tailer")


@dataclass(frozen=True)
class SourceStatus:
    """What the tailer is following and how it is going, for the page and ``--once``."""

    path: str
    size_bytes: int | None
    lines_read: int
    invalid_utf8_lines: int
    long_lines_cut: int
    truncations: int
    rotations: int
    problem: str | None
    following: Following | None = None  # folder mode: which file and why, what was ignored
    modified_at: float | None = None  # the open file's modification time, as last read


class StatusBoard:
    """The current :class:`SourceStatus`: written by the tailer's thread, read from any thread."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()  # guards _status only
        self._status = SourceStatus(str(path), None, 0, 0, 0, 0, 0, None)
        self._last_error: str | None = None

    @property
    def status(self) -> SourceStatus:
        """The status now."""
        with self._lock:
            return self._status

    def update(self, **changes: object) -> None:
        """Replace some fields."""
        with self._lock:
            self._status = replace(self._status, **changes)  # type: ignore[arg-type]

    def count(self, lines: int, invalid: int, cut: int) -> None:
        """Add lines read, and how many needed a UTF-8 repair or were cut."""
        with self._lock:
            s = self._status
            self._status = replace(
                s,
                lines_read=s.lines_read + lines,
                invalid_utf8_lines=s.invalid_utf8_lines + invalid,
                long_lines_cut=s.long_lines_cut + cut,
            )

    def set_problem(self, problem: str | None) -> None:
        """Say what is wrong (None: nothing), logging each change once."""
        if problem != self._status.problem:
            if problem is None:
                self._last_error = None
                log.info("following %s", self._status.path)
            else:
                log.warning("%s", problem)
            self.update(problem=problem)

    def report_unexpected(self, e: Exception) -> None:
        """An error nobody foresaw: logged once per distinct message, shown as the problem."""
        message = f"unexpected error while following {self._path}: {e!r}; retrying"
        if message != self._last_error:  # weeks of the same failure must not flood the log
            log.error("%s", message, exc_info=e)
            self._last_error = message
        self.set_problem(message)
