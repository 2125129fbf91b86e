"""tokwatch's config file: ``$XDG_CONFIG_HOME/tokwatch/config.toml`` (else ``~/.config/tokwatch/``),
and its shape: this machine's name and the ``[alerts]`` table, read into one :class:`FileSettings`.

It may hold notification URLs, which carry secrets (bot tokens, topics, webhook keys), so a
file that other users can read or write is refused, the way ssh refuses a private key that
others can read: ``chmod 600`` fixes it. A missing file is no error: every setting has a default.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paths
from .alerts import AlertSettings, SettingsError, settings_from_table

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI (mypy checks as 3.10 where it may not be installed)
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

CONFIG_FILE_NAME = "config.toml"


class ConfigFileError(ValueError):
    """A config file tokwatch cannot use, named with its path and what is wrong."""


@dataclass(frozen=True, slots=True)
class FileSettings:
    """What the config file says: this machine's name, where alerts go, and the alert rules."""

    name: str | None = None
    notify: tuple[str, ...] = ()
    heartbeat_url: str | None = None
    dashboard_url: str | None = None  # the link in messages, when this machine's address is not it
    alert_settings: AlertSettings = field(default_factory=AlertSettings)


# The file's top-level keys, and the keys of its [alerts] table (its rules are read in alerts.py).
FILE_KEYS = ("name", "alerts")
ALERT_KEYS = ("notify", "heartbeat_url", "dashboard_url", "reopen_minutes", "rules")


def default_config_file(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """``$XDG_CONFIG_HOME/tokwatch/config.toml``, else ``~/.config/tokwatch/config.toml``."""
    return paths.config_dir(environ, home=home) / CONFIG_FILE_NAME


def read_config_file(path: Path) -> FileSettings:
    """The settings in the file at ``path`` (defaults when there is none); raises ConfigFileError."""
    try:
        return file_settings(load_config_file(path))
    except SettingsError as e:
        raise ConfigFileError(f"{path}: {e}") from e


def file_settings(table: Mapping[str, Any]) -> FileSettings:
    """Read the file's parsed TOML; raises SettingsError naming the key."""
    unknown = sorted(set(table) - set(FILE_KEYS))
    if unknown:
        raise SettingsError(f"unknown setting {unknown[0]!r} (known: {', '.join(FILE_KEYS)})")
    name = table.get("name")
    if name is not None and not isinstance(name, str):
        raise SettingsError("name must be a string")
    alerts = table.get("alerts", {})
    if not isinstance(alerts, Mapping):
        raise SettingsError("alerts must be a table, like [alerts]")
    unknown = sorted(set(alerts) - set(ALERT_KEYS))
    if unknown:
        raise SettingsError(f"alerts: unknown key {unknown[0]!r} (known: {', '.join(ALERT_KEYS)})")
    notify = alerts.get("notify", [])
    if isinstance(notify, str):
        notify = [notify]
    if not isinstance(notify, list) or not all(isinstance(u, str) and u.strip() for u in notify):
        raise SettingsError('alerts.notify must be a list of URLs, like notify = ["ntfys://my-topic"]')
    heartbeat = alerts.get("heartbeat_url")
    if heartbeat is not None and not (isinstance(heartbeat, str) and is_http_url(heartbeat)):
        raise SettingsError("alerts.heartbeat_url must be an http:// or https:// URL")
    dashboard = alerts.get("dashboard_url")
    if dashboard is not None and not (isinstance(dashboard, str) and is_http_url(dashboard)):
        raise SettingsError("alerts.dashboard_url must be an http:// or https:// URL")
    return FileSettings(name, tuple(u.strip() for u in notify), heartbeat, dashboard, settings_from_table(alerts))


def is_http_url(url: str) -> bool:
    """True for an http:// or https:// URL with something after the scheme."""
    return url.lower().startswith(("http://", "https://")) and len(url) > len("https://")


def _check_owner(path: Path, st: os.stat_result) -> None:
    """Refuse a file others may read, change, own or swap (its folder writable by them)."""
    if st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigFileError(
            f"{path}: other users can read or change it, and it may hold notification secrets; "
            f"run: chmod 600 {path}"
        )
    user = os.geteuid()
    if st.st_uid != user:
        raise ConfigFileError(f"{path}: owned by user id {st.st_uid}, not by you ({user}); it may hold secrets "
                              "someone else chose: make it your own (chown) or remove it")
    # The link's folder and, for a symlink, the target's: either one writable by others lets them swap it.
    folders = dict.fromkeys([path.parent, Path(os.path.realpath(path)).parent])
    for folder in folders:
        try:
            folder_st = os.stat(folder)
        except OSError as e:
            raise ConfigFileError(f"{folder}: cannot check the folder ({e.strerror or e})") from e
        sticky = bool(folder_st.st_mode & stat.S_ISVTX)  # like /tmp: others cannot swap a file they do not own
        if folder_st.st_uid not in (user, 0) or (folder_st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not sticky):
            raise ConfigFileError(f"{path}: other users can replace it (its folder {folder} is theirs or writable by "
                                  f"them); run: chmod go-w {folder}")


def load_config_file(path: Path) -> dict[str, Any]:
    """The file's settings as a dict ({} when there is no file); raises ConfigFileError.

    Refused: a file other users can read or change, one they own, one in a folder they can
    write (they could swap it), and anything that is not a regular file (a FIFO would hold
    start-up for ever), checked before a byte is read.
    """
    try:
        # Non-blocking: opening a FIFO for reading would wait for a writer; the check below refuses it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        return {}
    except IsADirectoryError as e:
        raise ConfigFileError(f"{path}: is a directory, not a config file") from e
    except OSError as e:
        raise ConfigFileError(f"{path}: cannot read ({e.strerror or e})") from e
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ConfigFileError(f"{path}: is a directory, not a config file")
        if not stat.S_ISREG(st.st_mode):
            raise ConfigFileError(f"{path}: not a regular file (a FIFO, a device or a socket); not reading it")
        if os.name == "posix":
            _check_owner(path, st)
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = -1  # the file object closes it now
            data = f.read()
    except OSError as e:
        raise ConfigFileError(f"{path}: cannot read ({e.strerror or e})") from e
    finally:
        if fd >= 0:
            os.close(fd)
    try:
        table: dict[str, Any] = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ConfigFileError(f"{path}: not UTF-8 text") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigFileError(f"{path}: not valid TOML ({e})") from e
    return table


# A file of secrets (URLs, a key) is a few lines: past this it is not one (and is never read whole).
MAX_SECRET_FILE_BYTES = 1 << 20


def read_secret_file(path: Path, what: str) -> list[str]:
    """The non-blank, non-comment lines of a file that holds secrets (``--notify-file``, ``--report-key-file``, …).

    Kept out of the command line (``ps`` shows it to every user); refused on the same terms as
    the config file: others may not read, own or swap it; not a regular file (a FIFO would hold
    start-up for ever, ``/dev/zero`` never ends); larger than ``MAX_SECRET_FILE_BYTES``.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise ConfigFileError(f"{what} {path}: cannot read ({e.strerror or e})") from e
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ConfigFileError(f"{what} {path}: is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise ConfigFileError(f"{what} {path}: not a regular file (a FIFO, a device or a socket); not reading it")
        if st.st_size > MAX_SECRET_FILE_BYTES:
            raise ConfigFileError(f"{what} {path}: {st.st_size:,} bytes; a secrets file holds at most "
                                  f"{MAX_SECRET_FILE_BYTES:,}")
        if os.name == "posix":
            _check_owner(path, st)
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = -1
            data = f.read(MAX_SECRET_FILE_BYTES + 1)
        if len(data) > MAX_SECRET_FILE_BYTES:  # it grew while read
            raise ConfigFileError(f"{what} {path}: larger than {MAX_SECRET_FILE_BYTES:,} bytes")
    except OSError as e:
        raise ConfigFileError(f"{what} {path}: cannot read ({e.strerror or e})") from e
    finally:
        if fd >= 0:
            os.close(fd)
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as e:
        raise ConfigFileError(f"{what} {path}: not UTF-8 text") from e
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
