"""Where tokwatch keeps things: the one rule for the user's config, data and state folders.

The XDG base-directory variables win when they hold an absolute path (the spec says to ignore
a relative value); else the platform's place: ``~/.config``, ``~/.local/share`` and
``~/.local/state``, with the data in ``~/Library/Application Support`` on macOS.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

APP_NAME = "tokwatch"


def _home(environ: Mapping[str, str], home: Path | None) -> Path:
    if home is not None:
        return home
    given = environ.get("HOME")
    return Path(given) if given else Path.home()


def _xdg(environ: Mapping[str, str], variable: str) -> Path | None:
    value = environ.get(variable, "")
    return Path(value) / APP_NAME if value and Path(value).is_absolute() else None


def config_dir(environ: Mapping[str, str] | None = None, *, home: Path | None = None) -> Path:
    """``$XDG_CONFIG_HOME/tokwatch``, else ``~/.config/tokwatch`` (the LAN token, the config file)."""
    environ = os.environ if environ is None else environ
    return _xdg(environ, "XDG_CONFIG_HOME") or _home(environ, home) / ".config" / APP_NAME


def data_dir(
    environ: Mapping[str, str] | None = None, *, home: Path | None = None, platform: str = sys.platform
) -> Path:
    """``$XDG_DATA_HOME/tokwatch``, else ``~/Library/Application Support/tokwatch`` on macOS, else
    ``~/.local/share/tokwatch`` (the history, a hub's machines, an agent's spool)."""
    environ = os.environ if environ is None else environ
    found = _xdg(environ, "XDG_DATA_HOME")
    if found is not None:
        return found
    if platform == "darwin":
        return _home(environ, home) / "Library" / "Application Support" / APP_NAME
    return _home(environ, home) / ".local" / "share" / APP_NAME


def state_dir(environ: Mapping[str, str] | None = None, *, home: Path | None = None) -> Path:
    """``$XDG_STATE_HOME/tokwatch``, else ``~/.local/state/tokwatch`` (what may be lost: logs)."""
    environ = os.environ if environ is None else environ
    return _xdg(environ, "XDG_STATE_HOME") or _home(environ, home) / ".local" / "state" / APP_NAME
