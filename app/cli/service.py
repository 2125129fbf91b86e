"""``tokwatch service install|uninstall|status``: run tokwatch at login, restarted when it fails.

Linux: a systemd user unit (~/.config/systemd/user/tokwatch.service), enabled and started with
``systemctl --user`` when a user manager answers, else the commands are printed. macOS: a launchd
agent (~/Library/LaunchAgents/local.tokwatch.plist) logging to ~/Library/Logs/tokwatch/.
"""

from __future__ import annotations

import os
import plistlib
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..config import paths
from ..errors import CommandError
from .parse import UsageError, long_options, parse
from .units import (
    LAUNCHD_LABEL,
    LOG_FILE_NAME,
    UNIT_NAME,
    ServiceOptionError,
    absolute_paths,
    check_options,
    launchd_plist,
    systemd_unit,
)

# Runs a command; returns its exit status (the output goes to the terminal).
Runner = Callable[[Sequence[str]], int]


class ServiceError(CommandError):
    """The service's file could not be written or removed, or its manager refused it."""


@dataclass(frozen=True)
class Place:
    """Where this platform keeps the service, and how to read its log."""

    platform: str  # "systemd" or "launchd"
    file: Path
    log_hint: str
    log_file: Path | None = None  # launchd: where the agent's output goes (systemd: the journal)


def place(home: Path, environ: Mapping[str, str], platform: str) -> Place:
    """The service's file and log for this user on this platform."""
    if platform == "darwin":
        log_file = home / "Library" / "Logs" / "tokwatch" / LOG_FILE_NAME
        return Place("launchd", home / "Library" / "LaunchAgents" / f"{LAUNCHD_LABEL}.plist",
                     f"tail -f {_shown(str(log_file))}", log_file)
    if platform.startswith("linux"):
        units = paths.config_dir(environ, home=home).parent / "systemd" / "user"
        return Place("systemd", units / UNIT_NAME, "journalctl --user -u tokwatch -f")
    raise ServiceError(f"tokwatch service knows systemd (Linux) and launchd (macOS), not {platform}")


def tokwatch_executable(argv0: str, python: str) -> str:
    """The absolute path of the installed ``tokwatch`` command the service runs."""
    candidates = [argv0] if Path(argv0).name == "tokwatch" else []
    candidates += [str(Path(python).parent / "tokwatch"), shutil.which("tokwatch") or ""]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK) and Path(candidate).is_file():
            return os.path.abspath(candidate)
    raise ServiceError("the tokwatch command is not installed (pip install tokwatch, or make install in a "
                       "checkout): the service runs it")


def run_service(action: str, args: Sequence[str], *, home: Path | None = None,
                environ: Mapping[str, str] | None = None, platform: str = sys.platform,
                runner: Runner | None = None, cwd: Path | None = None) -> int:
    """Install, uninstall or report on the service; return the exit status."""
    environ = os.environ if environ is None else environ
    home = home if home is not None else Path(environ.get("HOME") or Path.home())
    where = place(home, environ, platform)
    run = runner if runner is not None else _run
    manager = _can_manage(where, environ) if runner is None else True
    if action == "install":
        return install(where, args, home=home, cwd=cwd or Path.cwd(), run=run, manager=manager, environ=environ)
    if args:
        raise UsageError(f"service {action} takes no options")
    if action == "uninstall":
        return uninstall(where, run=run, manager=manager, environ=environ)
    return status(where, run=run, manager=manager, environ=environ)


def install(where: Place, args: Sequence[str], *, home: Path, cwd: Path, run: Runner, manager: bool,
            environ: Mapping[str, str]) -> int:
    """Write the service's file with these options, and start it (or say how)."""
    known = long_options()
    try:
        check_options(args, known)
    except ServiceOptionError as e:
        raise UsageError(str(e)) from e
    invocation = parse(list(args))  # a bad option is refused now, not by a service failing at login
    if invocation.command != "serve":
        raise UsageError("a service serves the dashboard (or a hub): give it the options of `tokwatch` or "
                         "`tokwatch hub`, not a command that exits")
    options = absolute_paths(args, cwd, home, known)
    log = _absolute_log(options)
    log_path = None if log is None else Path(log)
    if log_path is not None and not log_path.exists():
        if not log_path.parent.is_dir():  # a typo: the service would wait at login for a log that never comes
            raise UsageError(f"--log {log_path}: neither it nor its folder exists; give the log's path")
        print(f"tokwatch: note: {log_path} does not exist yet; the service waits for it")
    previous = _previous_command(where.file)
    executable = tokwatch_executable(sys.argv[0], sys.executable)
    if where.log_file is not None:
        log_file = where.log_file
        text = launchd_plist(executable, options, log_file)
        commands = [["launchctl", "bootstrap", f"gui/{os.getuid()}", str(where.file)]]
        folders = [where.file.parent, log_file.parent]
    else:
        env_file = paths.config_dir(environ, home=home) / "service.env"
        text = systemd_unit(executable, options, str(env_file)).encode("utf-8")
        commands = [["systemctl", "--user", "daemon-reload"], ["systemctl", "--user", "enable", "--now", UNIT_NAME]]
        folders = [where.file.parent]
    if where.file.exists() and manager:
        _stop(where, run)  # a new version of the file replaces the running one
    try:
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
        where.file.write_bytes(text)
    except OSError as e:
        raise ServiceError(f"{where.file}: cannot write ({e.strerror or e})") from e
    if previous is not None:
        print(f"tokwatch: it replaces the service installed before, which ran: {previous}")
    print(f"tokwatch: the service is written to {where.file}")
    print(f"  it runs: {executable}" + "".join(f" {_shown(a)}" for a in options))
    _start(where, commands, run, manager)
    print(f"  its log: {where.log_hint}")
    if where.platform == "systemd":
        print("  to keep it running while you are logged out: loginctl enable-linger $USER")
    return 0


def _absolute_log(options: Sequence[str]) -> str | None:
    """The --log value as the service will read it (absolute), or None."""
    for i, arg in enumerate(options):
        if arg == "--log" and i + 1 < len(options):
            return options[i + 1]
        if arg.startswith("--log="):
            return arg.partition("=")[2]
    return None


def _previous_command(file: Path) -> str | None:
    """What an installed service's file runs (its ExecStart or ProgramArguments), or None when there is none."""
    try:
        data = file.read_bytes()
    except OSError:
        return None
    if file.suffix == ".plist":
        try:
            return " ".join(_shown(str(a)) for a in plistlib.loads(data).get("ProgramArguments") or [])
        except (ValueError, plistlib.InvalidFileException):
            return "(unreadable)"
    for line in data.decode("utf-8", "replace").splitlines():
        if line.startswith("ExecStart="):
            return line.partition("=")[2].strip()
    return "(no ExecStart)"


def uninstall(where: Place, *, run: Runner, manager: bool, environ: Mapping[str, str]) -> int:
    """Stop the service and remove its file."""
    if not where.file.exists():
        print(f"tokwatch: no service installed ({where.file} does not exist)")
        return 0
    if manager:
        _stop(where, run)
    else:
        print("  if it is running, stop it with:")
        print(f"    {_stop_command(where)}")
    try:
        where.file.unlink()
    except OSError as e:
        raise ServiceError(f"{where.file}: cannot remove ({e.strerror or e})") from e
    if manager and where.platform == "systemd":
        run(["systemctl", "--user", "daemon-reload"])
    print(f"tokwatch: the service is removed ({where.file})")
    return 0


def status(where: Place, *, run: Runner, manager: bool, environ: Mapping[str, str]) -> int:
    """Say whether the service is installed, where its file is and how to read its log."""
    if not where.file.exists():
        print(f"tokwatch: no service installed (it would be {where.file}); tokwatch service install [OPTIONS…]")
        return 0
    print(f"tokwatch: the service is installed: {where.file}")
    if manager:
        if where.platform == "systemd":
            run(["systemctl", "--user", "--no-pager", "status", UNIT_NAME])
        else:
            run(["launchctl", "print", f"gui/{os.getuid()}/{LAUNCHD_LABEL}"])
    else:  # no manager to ask: look for the process the file runs
        words = _installed_words(where.file)
        pids = None if words is None else running_pids(words)
        if pids is None:
            print("  whether it runs cannot be told here (no service manager answers, no /proc to look in)")
        elif pids:
            print(f"  it runs now (pid {', '.join(map(str, pids))}); no service manager answers from this shell")
        else:
            print("  it does not run now; no service manager answers from this shell")
    print(f"  its log: {where.log_hint}")
    return 0


def _installed_words(file: Path) -> list[str] | None:
    """The command an installed service's file runs, word by word (None: unreadable)."""
    try:
        data = file.read_bytes()
    except OSError:
        return None
    if file.suffix == ".plist":
        try:
            return [str(a) for a in plistlib.loads(data).get("ProgramArguments") or []] or None
        except (ValueError, plistlib.InvalidFileException):
            return None
    for line in data.decode("utf-8", "replace").splitlines():
        if line.startswith("ExecStart="):
            # As systemd reads it: specifiers (%%), C-style quoted words, then variables ($$).
            try:
                return [w.replace("$$", "$") for w in shlex.split(line.partition("=")[2].replace("%%", "%"))]
            except ValueError:
                return None
    return None


def running_pids(words: Sequence[str], proc: Path = Path("/proc")) -> list[int] | None:
    """The processes running exactly ``words`` (an interpreter may come first); None without a /proc."""
    if not words or not proc.is_dir():
        return None
    wanted = [w.encode() for w in words]
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().rstrip(b"\0").split(b"\0")
        except OSError:
            continue
        if argv[-len(wanted):] == wanted or argv[-len(wanted) + 1:] == wanted[1:] and wanted[0] in argv:
            found.append(int(entry.name))
    return sorted(found)


def _start(where: Place, commands: list[list[str]], run: Runner, manager: bool) -> None:
    if manager:
        for command in commands:
            if run(command) != 0:
                raise ServiceError(f"{' '.join(command)} failed; the file is written: see the message above")
        print("  started, and it starts again at login and after a failure")
        return
    print("  no user service manager answers here; start it with:")
    for command in commands:
        print(f"    {' '.join(_shown(word) for word in command)}")


def _stop(where: Place, run: Runner) -> None:
    if where.platform == "systemd":
        run(["systemctl", "--user", "disable", "--now", UNIT_NAME])
    else:
        run(["launchctl", "bootout", f"gui/{os.getuid()}/{LAUNCHD_LABEL}"])


def _stop_command(where: Place) -> str:
    if where.platform == "systemd":
        return f"systemctl --user disable --now {UNIT_NAME}"
    return f"launchctl bootout gui/{os.getuid()}/{LAUNCHD_LABEL}"


def _can_manage(where: Place, environ: Mapping[str, str]) -> bool:
    """True when the platform's service manager is here and answers for this user."""
    if where.platform == "launchd":
        return shutil.which("launchctl") is not None
    if shutil.which("systemctl") is None:
        return False
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    return bool(environ.get("DBUS_SESSION_BUS_ADDRESS")) or bool(runtime and Path(runtime, "bus").exists())


def _run(command: Sequence[str]) -> int:
    try:
        return subprocess.run(list(command), check=False).returncode
    except OSError as e:
        raise ServiceError(f"{command[0]}: {e.strerror or e}") from e


def _shown(word: str) -> str:
    import shlex

    return shlex.quote(word)
