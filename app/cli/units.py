"""The files that keep tokwatch running without a terminal: a systemd user unit, a launchd agent.

Pure: the command line in, the file's text out; :mod:`.service` writes them and starts them.
"""

from __future__ import annotations

import plistlib
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

UNIT_NAME = "tokwatch.service"
LAUNCHD_LABEL = "local.tokwatch"
LOG_FILE_NAME = "tokwatch.log"
# systemd and launchd wait this long before starting a failed tokwatch again.
RESTART_SECONDS = 10

# Options whose value is a secret: a unit file, a plist and `ps` would show it to anyone who looks.
SECRET_OPTIONS = {
    "--token": "use --token-file PATH (a file only you can read) or TOKWATCH_TOKEN in the service's environment",
    "--report-key": "use --report-key-file PATH (a file only you can read) or TOKWATCH_REPORT_KEY in the "
    "service's environment",
    "--notify": "put notify = [\"…\"] under [alerts] in the config file (chmod 600)",
    "--heartbeat-url": "put heartbeat_url = \"…\" under [alerts] in the config file (chmod 600)",
}
# Options whose value is a path: the service starts in another folder, so a relative path is made absolute.
PATH_OPTIONS = ("--log", "--data-dir", "--token-file", "--report-key-file", "--notify-file", "--heartbeat-url-file")

# What systemd takes as one word without quotes (specifiers % and variables $ are escaped apart).
_SYSTEMD_BARE = re.compile(r"[A-Za-z0-9_@+=:,./-]+")


class ServiceOptionError(ValueError):
    """An option the service cannot carry (a secret, a character a unit file cannot hold)."""


def full_option(option: str, known: Iterable[str]) -> str:
    """The option an abbreviation stands for (``--data`` → ``--data-dir``, as argparse reads it), else itself."""
    names = frozenset(known)
    if not option.startswith("--") or option in names:
        return option
    matches = [name for name in names if name.startswith(option)]
    return matches[0] if len(matches) == 1 else option


def check_options(args: Sequence[str], known: Iterable[str] = ()) -> None:
    """Refuse secrets and control characters among the options the service will run with."""
    known = frozenset(known)
    for arg in args:
        option = full_option(arg.split("=", 1)[0], known)
        if option in SECRET_OPTIONS:
            raise ServiceOptionError(
                f"{option} would be written into the service's file in clear: {SECRET_OPTIONS[option]}"
            )
        if any(ord(c) < 32 or ord(c) == 127 for c in arg):
            raise ServiceOptionError(f"{arg!r}: a service's options cannot hold control characters (a newline, a tab)")


def absolute_paths(args: Sequence[str], cwd: Path, home: Path, known: Iterable[str] = ()) -> list[str]:
    """The options with every path value absolute (``~`` expanded), as the service must see them.

    ``known``: every option, so an abbreviation (``--data`` for ``--data-dir``) is written in full.
    """
    known = frozenset(known)
    out: list[str] = []
    expects_path = False
    for arg in args:
        if expects_path:
            out.append(_absolute(arg, cwd, home))
            expects_path = False
            continue
        option, eq, value = arg.partition("=")
        option = full_option(option, known)
        if option in PATH_OPTIONS and eq:
            out.append(f"{option}={_absolute(value, cwd, home)}")
        elif option in PATH_OPTIONS:
            out.append(option)
            expects_path = True
        else:
            out.append(arg)
    return out


def _absolute(value: str, cwd: Path, home: Path) -> str:
    path = Path(home, value[2:]) if value == "~" or value.startswith("~/") else Path(value)
    return str(path if path.is_absolute() else cwd / path)


def systemd_quote(arg: str) -> str:
    """One word of a unit file's ExecStart: specifiers (%) and variables ($) escaped, quoted if it must be."""
    escaped = arg.replace("%", "%%").replace("$", "$$")
    if _SYSTEMD_BARE.fullmatch(arg):
        return escaped
    return '"' + escaped.replace("\\", "\\\\").replace('"', '\\"') + '"'


def systemd_unit(executable: str, args: Sequence[str], env_file: str) -> str:
    """A systemd user unit running ``executable args…``, restarted when it fails."""
    command = " ".join(systemd_quote(word) for word in (executable, *args))
    return f"""[Unit]
Description=tokwatch: a live dashboard for training logs
# Written by `tokwatch service install`; `tokwatch service uninstall` removes it.

[Service]
Type=exec
ExecStart={command}
Restart=on-failure
RestartSec={RESTART_SECONDS}
# Secrets may go here (TOKWATCH_TOKEN=…, TOKWATCH_REPORT_KEY=…), never on the command line.
EnvironmentFile=-{env_file}
Environment=PYTHONUNBUFFERED=1

[Install]
WantedBy=default.target
"""


def launchd_plist(executable: str, args: Sequence[str], log_file: Path) -> bytes:
    """A launchd agent running ``executable args…`` at login, started again when it fails."""
    agent = {
        "Label": LAUNCHD_LABEL,
        "ProgramArguments": [executable, *args],
        "RunAtLoad": True,
        # Start it again when it exits with an error; a clean stop (exit 0) stays stopped.
        "KeepAlive": {"SuccessfulExit": False},
        "ThrottleInterval": RESTART_SECONDS,
        "StandardOutPath": str(log_file),
        "StandardErrorPath": str(log_file),
        "EnvironmentVariables": {"PYTHONUNBUFFERED": "1"},
        "ProcessType": "Background",
    }
    return plistlib.dumps(agent)
