"""Where logs are and how one is opened: the only place a log file is opened."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import NamedTuple, Protocol

# Where the IOTA "Train at Home" app writes its dated ``<YYYY-MM-DD>-cli.log`` files (macOS).
IOTA_LOG_DIR_PARTS = ("Library", "Logs", "IOTA Train at Home")
LOG_SUFFIX = ".log"

FileIdentity = tuple[int, int]


class ReadableFile(Protocol):
    """The few calls the readers make on an open log."""

    def read(self, size: int = -1, /) -> bytes | None: ...

    def seek(self, offset: int, whence: int = 0, /) -> int: ...

    def fileno(self) -> int: ...

    def close(self) -> None: ...


def open_for_reading(path: Path) -> ReadableFile:
    """Open ``path`` for unbuffered binary reading: the one place a log file is opened."""
    return open(path, "rb", buffering=0)


def default_log_path(home: Path | None = None) -> Path | None:
    """Return the IOTA Train at Home log folder when it exists, else None."""
    folder = (home if home is not None else Path.home()).joinpath(*IOTA_LOG_DIR_PARTS)
    return folder if folder.is_dir() else None


class LogFile(NamedTuple):
    """A ``*.log`` in a folder and its stat."""

    path: Path
    st: os.stat_result

    @property
    def order(self) -> tuple[int, str]:
        """Newest last: by modification time, then by name."""
        # Dated names break mtime ties on coarse-timestamp file systems (FAT, some NFS).
        return (self.st.st_mtime_ns, self.path.name)


def log_files(folder: Path) -> list[LogFile]:
    """List the regular ``*.log`` files in ``folder`` (not recursive)."""
    found: list[LogFile] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if not entry.name.endswith(LOG_SUFFIX):
                continue
            try:
                st = entry.stat()  # follows symlinks, like opening it will
            except OSError:
                continue  # vanished or unreadable between listing and stat
            if stat.S_ISREG(st.st_mode):
                found.append(LogFile(Path(entry.path), st))
    return found


def resolve_log(path: Path) -> Path | None:
    """Return ``path`` if it is a file, the newest ``*.log`` in it by mtime if a folder, else None."""
    try:
        st = path.stat()
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode):
        return path
    try:
        logs = log_files(path)
    except OSError:
        return None
    return max(logs, key=lambda f: f.order).path if logs else None


def identity(st: os.stat_result) -> FileIdentity:
    """The (device, inode) pair: the same file under any name, until it is deleted."""
    return (st.st_dev, st.st_ino)


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
        return None, f"{path} is not a regular file"
    return st, None
