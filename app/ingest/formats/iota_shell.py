"""Parse the Train at Home app's shell log (``main.log`` / ``*-main*.log``) into shell events.

The Electron shell writes electron-log lines, ``[2026-09-30 02:14:05.120] [info]  <text>``, in
the machine's local time (a community guardian's note: "Electron writes timestamps in the
machine's local timezone"). Its wording is not documented: what is read here are the substrings
community parsers match (research ``iota-2026.md`` §c.3, the IOTA Local Guardian and Guardian V6),
so each is looked for anywhere in a line, case aside, and a dated line none of them matches is
counted, not an error. Pure: no clock, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...stats.events import ShellEvent
from .base import LocalToEpoch, local_to_epoch

# electron-log's default prefix; the level and the brackets may vary, the stamp may use "T".
_STAMP = re.compile(
    r"\s*\[?(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,6}))?\]?\s*(?:\[(\w+)\]\s*)?(.*)",
    re.ASCII,
)
_EXITED = re.compile(r"miner process exited\b.*?code=(-?\d+|null|undefined)(?:.*?signal=(\w+))?", re.ASCII | re.IGNORECASE)
_EXITED_CODE = re.compile(r"training(?: process)? exited with code[= ](-?\d+)", re.ASCII | re.IGNORECASE)
_TRAINING_STATE = re.compile(r"training\.state accepted \{\s*state:\s*['\"]?(\w+)", re.ASCII)
_VERSION = re.compile(r"\bv?(\d{1,3}\.\d{1,3}\.\d{1,4})\b", re.ASCII)
_APP_VERSION = re.compile(r"(?:app(?:lication)? version|version)[\s:=]+v?(\d{1,3}\.\d{1,3}\.\d{1,4})\b",
                          re.ASCII | re.IGNORECASE)
# An updater line announces a new version in hand with one of these words (electron-updater's
# events: "update-downloaded", "Update downloaded", "quitAndInstall", "installing").
_UPDATED_WORDS = ("downloaded", "install")
# The longest line kept to quote (a crash's line).
LINE_QUOTED_MAX = 200


class ShellParser:
    """Lines of the shell log in, :class:`ShellEvent` out; counts what it could not place."""

    name = "iota-shell"

    def __init__(self, to_epoch: LocalToEpoch = local_to_epoch) -> None:
        self._to_epoch = to_epoch
        self.lines_read = 0
        self.dated_lines = 0
        self.unread_lines = 0  # dated lines that hold none of the texts read here
        self.bad_lines = 0  # a stamp that cannot be a time

    def feed(self, lines: Iterable[str]) -> list[ShellEvent]:
        """Parse lines in log order; undated lines (a multi-line message's rest) are skipped."""
        events: list[ShellEvent] = []
        for line in lines:
            self.lines_read += 1
            match = _STAMP.match(line)
            if match is None:
                continue
            year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
            try:
                at = float(self._to_epoch(year, month, day, hour, minute, second))
            except (OverflowError, ValueError, OSError):
                self.bad_lines += 1
                continue
            if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 61):
                self.bad_lines += 1
                continue
            if match.group(7):
                at += float("0." + match.group(7))
            self.dated_lines += 1
            event = self._read(at, match.group(9).rstrip("\r"))
            if event is False:
                self.unread_lines += 1
            elif isinstance(event, ShellEvent):
                events.append(event)
        return events

    def _read(self, at: float, text: str) -> ShellEvent | bool:
        """The event a line's text stands for; True for a known line with nothing to show, False: not understood."""
        lower = text.lower()
        if "miner process exited" in lower:
            exited = _EXITED.search(text)
            code = _code(exited.group(1)) if exited is not None else None
            signal = exited.group(2) if exited is not None and exited.group(2) else None
            if signal is not None and signal.lower() in ("null", "undefined", "none"):
                signal = None
            return ShellEvent(at, "miner_exited", code=code, signal=signal, line=_quoted(text))
        if "exited with code" in lower:
            exited_code = _EXITED_CODE.search(text)
            if exited_code is not None:
                return ShellEvent(at, "miner_exited", code=_code(exited_code.group(1)), line=_quoted(text))
            return False
        if "closing iota cli" in lower:
            return ShellEvent(at, "quit")
        if "connecting to channel" in lower:
            return ShellEvent(at, "session_started")
        if "training.state accepted" in text:
            state = _TRAINING_STATE.search(text)
            if state is not None:
                return ShellEvent(at, "training_state", state=state.group(1))
            return False
        if "failed to execute script" in lower:
            return ShellEvent(at, "script_failed", line=_quoted(text))
        if "host gating failed" in lower:
            return ShellEvent(at, "host_gate_failed", line=_quoted(text))
        if "[autoupdater]" in lower:
            version = _VERSION.search(text)
            if version is not None and any(word in lower for word in _UPDATED_WORDS):
                return ShellEvent(at, "updated", version=version.group(1))
            return True
        app_version = _APP_VERSION.search(text)
        if app_version is not None:
            return ShellEvent(at, "version", version=app_version.group(1))
        # Known, nothing to show: read in the worker's log already, or the shell's own chatter.
        return "no handler for register.queue_state" in lower or "[iota-cli" in lower


def _code(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:  # "null": killed by a signal, no exit code
        return None


def _quoted(text: str) -> str:
    text = text.strip()
    return text if len(text) <= LINE_QUOTED_MAX else text[: LINE_QUOTED_MAX - 1] + "…"


def looks_like_shell_log(lines: Iterable[str]) -> bool:
    """True when dated lines hold a text only the app's shell log writes (to say so of a lone shell log)."""
    for line in lines:
        match = _STAMP.match(line)
        if match is None:
            continue
        lower = match.group(9).lower()
        if "[iota-cli " in lower or "training.state accepted" in lower or "miner process exited" in lower:
            return True
    return False
