"""First-start import: replay the followed log and its older siblings of the same kind into the history.

Train at Home starts a dated ``<YYYY-MM-DD>-cli.log`` at each launch and rotates it daily, so
the days before tokwatch was installed are still on disk. Which files belong to the history is
decided by folder mode's own rules (app/ingest/folder.py): in the Train at Home folder the
miner's ``*-cli.log`` files, elsewhere the files whose lines read as the followed log's kind —
never the app's ``main.log`` or another program's log. Each file is replayed through the real
parser and tracker in log time (app/record/replay.py); what is already stored is keyed so nothing
counts twice. A file is imported once (its size and the digest of its first KiB are
remembered); one that grew since is read again, harmlessly.

The replay runs in a child process (``python -m app.record.child``, app/record/child.py) that hands
back batches, so a week of log costs the server neither its memory peak nor the interpreter's
lock; it starts once the live view's cold start is read in (app/record/recorder.py), so its memory
never sits on that peak. Every path it is given is absolute: the child runs in the project's
folder, not the user's.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import re
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

from ..allocator import TRIMMER
from ..ingest.files import RECORD_NAMES
from ..ingest.folder import (
    MINER_LOG_SUFFIX,
    Candidate,
    FolderPolicy,
    FolderScout,
    is_miner_folder,
    source_key_path,
)
from ..ingest.formats.detect import family, log_kind
from ..store import History, Observation, SourceKey, queries
from ..text import path_text
from .child import CHILD_MODULE, replay_one
from .replay import Anchors, decode, read_lines

__all__ = ["ImportProgress", "files_to_import", "import_logs", "read_lines"]

log = logging.getLogger(__name__)

PACKAGE_PARENT = Path(__file__).resolve().parents[2]

IMPORT_DAYS = 30  # the 5-minute tier's span: older files would only reach the hourly buckets
IMPORT_MAX_BYTES = 2 << 30  # newest files first, up to this much


def absolute(path: Path) -> Path:
    """``path`` from the root, as the user meant it from where they started tokwatch (symlinks kept)."""
    return Path(os.path.abspath(path))


def files_to_import(log_path: Path, now: float, format_name: str = "auto") -> list[Path]:
    """The followed log and its older siblings of the same kind (last 30 days), oldest first, absolute.

    A folder, or a dated file in one, is read with folder mode's rules: in the Train at Home
    folder the ``*-cli.log`` files; anywhere else the files whose lines read as the same kind
    of log as the followed one. Any other file is its own history.
    """
    log_path = absolute(log_path)
    folder = source_key_path(log_path)
    if folder == log_path and not log_path.is_dir():
        return _with_rotated(log_path, now)
    scout = FolderScout(folder, functools.partial(log_kind, format_name=format_name))
    policy = FolderPolicy(folder, kind=None if format_name == "auto" else family(format_name))
    try:
        listing = scout.listing()
    except OSError:
        return []
    if log_path.is_dir():
        followed, _ = policy.choose(listing, scout.kind_of)
    else:
        followed = next((c for c in listing if c.path == log_path), None)
    if followed is None or not followed.regular:
        return []
    fits = _sibling_rule(folder, followed, policy.kind, scout)
    # A trainer's record (trainer_state.json) is the same run as the log beside it, never an older one.
    found = [c for c in listing if c.regular and c.order <= followed.order
             and (c is followed or (c.order[0] >= (now - IMPORT_DAYS * 86400) * 1e9
                                    and c.path.name not in RECORD_NAMES and fits(c)))]  # fmt: skip
    found.sort(key=lambda c: c.order)
    kept: list[Candidate] = []
    total = 0
    for c in reversed(found):  # newest first, up to the byte budget
        if total + c.size > IMPORT_MAX_BYTES and kept:
            break
        total += c.size
        kept.append(c)
    return [c.path for c in reversed(kept)]


def _with_rotated(log_path: Path, now: float) -> list[Path]:
    """A file that is its own history, after the copies a size rotation renamed out of its way.

    loguru (the headless miner's ``rotation="10 MB"``) renames ``wallet.log`` to
    ``wallet.2026-11-30_12-34-56_123456.log`` and starts a new ``wallet.log``: those copies
    hold the same log's earlier hours.
    """
    if not log_path.is_file():
        return []
    rotated = re.compile(re.escape(log_path.stem) + r"\.\d{4}-\d{2}-\d{2}[\w.-]*" + re.escape(log_path.suffix) + "$")
    found: list[tuple[int, str, Path, int]] = []
    try:
        with os.scandir(log_path.parent) as entries:
            for entry in entries:
                if not rotated.match(entry.name):
                    continue
                try:
                    st = entry.stat()
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode) and st.st_mtime >= now - IMPORT_DAYS * 86400:
                    found.append((st.st_mtime_ns, entry.name, Path(entry.path), st.st_size))
    except OSError:
        return [log_path]
    found.sort()
    kept: list[Path] = []
    total = 0
    for _, _, path, size in reversed(found):
        if total + size > IMPORT_MAX_BYTES:
            break
        total += size
        kept.append(path)
    return [*reversed(kept), log_path]


def _sibling_rule(folder: Path, followed: Candidate, kind: str | None, scout: FolderScout) -> Callable[[Candidate], bool]:
    """Which other files of the folder belong to the followed log's history."""
    if is_miner_folder(folder) and followed.path.name.endswith(MINER_LOG_SUFFIX):
        return lambda c: c.path.name.endswith(MINER_LOG_SUFFIX)  # the app names its miner's logs so
    kind = kind if kind is not None else scout.kind_of(followed)
    if kind is None:
        return lambda c: False  # the followed file says nothing yet: no kind to match
    return lambda c: scout.kind_of(c) == kind


def _head_digest(path: Path) -> tuple[int, str]:
    with path.open("rb") as f:
        head = f.read(1024)
        size = os.fstat(f.fileno()).st_size
    return size, hashlib.sha256(head).hexdigest()


@dataclass
class ImportProgress:
    files_total: int = 0
    files_done: int = 0
    current: str | None = None
    samples: int = 0
    passes: int = 0
    done: bool = False
    problem: str | None = None


def import_logs(
    files: list[Path],
    history: History,
    source: SourceKey,
    *,
    format_name: str = "auto",
    clock: Callable[[], float],
    stop: threading.Event,
    progress: ImportProgress | None = None,
    in_child: bool = False,
) -> ImportProgress:
    """Replay each file not yet imported (oldest first) into the history; return what was done.

    ``in_child``: parse in a child process (``python -m app.record.child``) that hands back batches.
    """
    progress = progress if progress is not None else ImportProgress()
    progress.files_total = len(files)
    pending: list[tuple[Path, int, str]] = []
    for path in files:
        path = absolute(path)
        try:
            size, head = _head_digest(path)
        except OSError as e:
            log.warning("history import: cannot read %s: %s", path, e.strerror or e)
            continue
        if history.imported(path_text(path)) != (size, head):
            pending.append((path, size, head))
    progress.files_done = len(files) - len(pending)
    anchors = (history.read(lambda conn: queries.step_anchors(conn, source)) or {}) if pending else {}

    def emit(obs: Observation) -> None:
        _submit(history, replace(obs, source=replace(source, kind=obs.source.kind)), stop, progress)
        if obs.imported:
            progress.files_done += 1

    history.hold_pruning()
    try:
        _replay_all(pending, format_name, clock, anchors, stop, emit, progress, in_child, history)
    except ImportHalted as e:
        log.warning("history import stopped: %s; the files not done are read at the next start", e)
        progress.problem = f"import of older logs stopped ({e}); it goes on at the next start"
    finally:
        history.release_pruning()
    progress.current = None
    progress.done = True
    return progress


def _replay_all(pending: list[tuple[Path, int, str]], format_name: str, clock: Callable[[], float], anchors: Anchors,
                stop: threading.Event, emit: Callable[[Observation], None], progress: ImportProgress,
                in_child: bool, history: History) -> None:
    if in_child and pending:
        spool_dir = history.path.parent if history.path is not None else None
        _replay_in_child(pending, format_name, clock(), anchors, stop, emit, progress, spool_dir)
        return
    for path, size, head in pending:
        if stop.is_set():
            break
        progress.current = path_text(path.name)
        try:
            replay_one(path, size, head, format_name, clock(), anchors, stop, emit)
        except OSError as e:
            log.warning("history import: cannot read %s: %s", path, e.strerror or e)


def _next_batch(lines: IO[str]) -> Observation | None:
    """The child's next batch (None: it has said all); its line is let go before the batch is
    built (a megabyte of text an hour of an every-step log, beside the columns made from it)."""
    line = lines.readline()
    if not line.endswith("\n"):
        return None  # the end, or a batch the child did not finish (killed mid-line): its status says why
    data = json.loads(line)
    del line
    return decode(data)


class ImportHalted(Exception):
    """The history stopped taking writes (a full disk, its size bound, a failing file)."""


def _submit(history: History, obs: Observation, stop: threading.Event, progress: ImportProgress) -> None:
    """Hand a batch to the writer once the one before it is written; halt if that one was not.

    A batch lost to a full disk must not be followed by the mark that says its file is imported:
    the file is read again at the next start instead.
    """
    while not stop.is_set():
        # One batch in flight at a time: the queue never holds a week of log in memory.
        if history.flush(1.0):
            problem = history.status().problem
            if problem is not None:
                raise ImportHalted(problem)
            if history.submit(obs, wait_seconds=1.0):
                progress.samples += len(obs.samples)
                progress.passes += len(obs.passes)
                return
        if history.status().mode != "writing":
            return


# --- the child process -------------------------------------------------------------


def _replay_in_child(pending: list[tuple[Path, int, str]], format_name: str, now: float, anchors: Anchors,
                     stop: threading.Event, emit: Callable[[Observation], None], progress: ImportProgress,
                     spool_dir: Path | None = None) -> None:
    args = [sys.executable, "-m", CHILD_MODULE, "--now", repr(now), "--format", format_name]
    for path, size, head in pending:
        args += [str(absolute(path)), str(size), head]
    # The child's spool (its events and per-event figures, app/record/spool.py) goes beside the
    # history file, on its disk: the system's temporary folder is often memory (tmpfs).
    env = None if spool_dir is None else {**os.environ, "TMPDIR": str(spool_dir)}
    child = subprocess.Popen(args, cwd=PACKAGE_PARENT, stdout=subprocess.PIPE, stdin=subprocess.PIPE, text=True,
                             encoding="utf-8", env=env)
    assert child.stdin is not None and child.stdout is not None
    try:
        # The steps already placed in time, so the child places the same steps at the same times.
        child.stdin.write(json.dumps([[stage, step, at] for (stage, step), at in anchors.items()]))
        child.stdin.close()
    except OSError:
        pass  # the child ended already; its status says why

    def stop_child() -> None:
        while not stop.wait(0.2):
            if child.poll() is not None:
                return
        if child.poll() is None:
            child.terminate()  # tokwatch is stopping: the import resumes at the next start

    threading.Thread(target=stop_child, name="history-import-stop", daemon=True).start()
    try:
        while not stop.is_set():
            obs = _next_batch(child.stdout)
            if obs is None:
                break
            if obs.imported:
                progress.current = Path(obs.imported[0][0]).name
            emit(obs)
            del obs
            TRIMMER.request()  # the batch's text and columns are the writer's or garbage now
    finally:
        if child.poll() is None:
            child.terminate()
        child.wait(10)
        child.stdout.close()
    if child.returncode not in (0, -15) and not stop.is_set():
        raise RuntimeError(_ended(child.returncode))


def _ended(status: int) -> str:
    """Why the import child stopped, in words (a negative status is the signal that ended it)."""
    if status == -9:  # SIGKILL (no such name on Windows)
        return "the import process was killed (signal 9, often the system running out of memory)"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"the import process was ended by {name}"
    return f"the import process ended with status {status}"


if __name__ == "__main__":
    from .child import main  # the import child's own module; this name still runs it

    sys.exit(main(sys.argv[1:]))
