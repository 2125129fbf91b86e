"""Where logs are and how one is opened: the only place a log file is opened."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Protocol

# Where the IOTA "Train at Home" app writes its dated ``<YYYY-MM-DD>-cli.log`` files (macOS).
IOTA_LOG_DIR_PARTS = ("Library", "Logs", "IOTA Train at Home")
LOG_SUFFIX = ".log"
# A trainer's own record of its run, followed in a folder as a log is: the HF Trainer's state
# (``trainer_state.json``, rewritten whole at each save) and LLaMA-Factory's ``trainer_log.jsonl``.
RECORD_NAMES = frozenset({"trainer_state.json", "trainer_log.jsonl"})


def followable(name: str) -> bool:
    """True for a file name a folder's log may have: a ``*.log``, or a trainer's own record."""
    return name.endswith(LOG_SUFFIX) or name in RECORD_NAMES

FileIdentity = tuple[int, int]


class ReadableFile(Protocol):
    """The few calls the readers make on an open log."""

    def read(self, size: int = -1, /) -> bytes | None: ...

    def seek(self, offset: int, whence: int = 0, /) -> int: ...

    def fileno(self) -> int: ...

    def close(self) -> None: ...


class NotRegularFile(OSError):
    """The path names a FIFO, a device or a socket: reading it could block forever or never end."""


def describe_mode(mode: int) -> str:
    """Say what kind of file a stat mode is, for a message a person reads."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def open_for_reading(path: Path) -> ReadableFile:
    """Open ``path`` for unbuffered binary reading: the one place a log file is opened.

    Opened non-blocking, so a FIFO put at the path cannot hang the open (it would wait for a
    writer), and refused (``NotRegularFile``) unless the descriptor is a regular file: a
    device such as /dev/zero never ends.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(f"{path} is {describe_mode(mode)}, not a regular file")
        os.set_blocking(fd, True)
        return open(fd, "rb", buffering=0, closefd=True)
    except BaseException:
        os.close(fd)
        raise


def default_log_path(home: Path | None = None) -> Path | None:
    """Return the IOTA Train at Home log folder when it exists, else None."""
    folder = (home if home is not None else Path.home()).joinpath(*IOTA_LOG_DIR_PARTS)
    return folder if folder.is_dir() else None


def identity(st: os.stat_result) -> FileIdentity:
    """The (device, inode) pair: the same file under any name, until it is deleted."""
    return (st.st_dev, st.st_ino)


def stat_or_none(path: Path | None) -> os.stat_result | None:
    """The file's stat (through links), or None without a path or when it cannot be read."""
    if path is None:
        return None
    try:
        return path.stat()
    except OSError:
        return None


def stat_log(path: Path) -> tuple[os.stat_result | None, str | None]:
    """Stat ``path`` as a log file: (its stat, None), or (None, a problem a person can act on)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if not path.parent.is_dir():
            return None, f"waiting for {path} to appear (the folder {path.parent} does not exist yet)"
        return None, f"waiting for {path} to appear"
    except NotADirectoryError:
        return None, f"waiting for {path} to appear (part of its folder path is a file)"
    except PermissionError:
        return None, f"permission denied reading {path}"
    except OSError as e:
        return None, f"cannot read {path}: {e.strerror or e}"
    if stat.S_ISDIR(st.st_mode):
        return None, f"{path} is a directory, not a log file"
    if not stat.S_ISREG(st.st_mode):
        return None, f"{path} is {describe_mode(st.st_mode)}, not a regular file"
    return st, None


class LogPathError(ValueError):
    """A path that is no log to follow (missing, unreadable, a FIFO or a device), said plainly."""


def check_log_path(path: Path, *, missing_ok: bool) -> bool:
    """Refuse (LogPathError) a path that is no log to follow; return True when it is a folder.

    A FIFO, a device or a socket is refused before anything opens it: opening a FIFO waits
    for a writer, and /dev/zero never ends.
    """
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError) as e:
        if missing_ok:
            return False
        raise LogPathError(f"{path}: no such file or directory") from e
    except OSError as e:  # a folder on the way that tokwatch may not search, a loop of links
        raise LogPathError(f"{path}: cannot read ({e.strerror or e})") from e
    if stat.S_ISDIR(st.st_mode):
        try:
            with os.scandir(path):
                pass
        except OSError as e:
            raise LogPathError(f"{path}: cannot list this folder ({e.strerror or e})") from e
        return True
    if not stat.S_ISREG(st.st_mode):
        raise LogPathError(f"{path} is {describe_mode(st.st_mode)}, not a regular file: tokwatch reads log files")
    try:
        open_for_reading(path).close()
    except OSError as e:
        raise LogPathError(f"{path}: cannot read ({e.strerror or e})") from e
    return False
