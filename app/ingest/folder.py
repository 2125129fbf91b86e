"""Which log in a folder to follow: the newest one of the right kind, and what was passed over.

A folder holds more than the training log. The IOTA Train at Home app writes a dated
``<YYYY-MM-DD>-cli.log`` per launch *and* its Electron shell's own ``main.log`` beside it; a
run folder may hold a data loader's or a profiler's log. Following "the newest ``*.log``" moved
onto whichever file was written last. So a file is followed for what it is:

* in the Train at Home folder, by name: the miner's ``*-cli.log`` (the app names them so);
* anywhere else, by content: a file whose lines the chosen format (``--format``) recognises,
  or with ``--format auto`` any format — and once one is followed, only a file of that same
  kind (parser family) may replace it.

A newer file of the right kind replaces the followed one (a relaunch starts a new dated log);
anything newer that is not is listed as ignored. :class:`FolderPolicy` decides (pure);
:class:`FolderScout` lists the folder and reads the first and last lines of the files the
policy asks about, remembering each verdict while the file is unchanged.
"""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from .backwards import read_at
from .files import LOG_SUFFIX, RECORD_NAMES, followable, open_for_reading

# The folder the Train at Home app writes its logs to (macOS: ~/Library/Logs/IOTA Train at Home).
MINER_FOLDER_NAME = "IOTA Train at Home"
MINER_LOG_SUFFIX = "-cli.log"
# A log named by its day (the Train at Home app's ``<YYYY-MM-DD>-cli.log``): one of a folder's many.
DATED_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}")
# How many ignored paths are listed (newest first); ``ignored_total`` counts them all.
IGNORED_LISTED = 20
# What is read of a file to tell its kind: its first and last bytes.
SNIFF_BYTES = 64 * 1024
# A file not recognised is looked at again when it has grown, but not more often than this.
RESNIFF_SECONDS = 5.0
# A trainer's record (RECORD_NAMES) ranks as if written this much earlier: beside a log of the same
# run, written at every step or bar redraw, it is newer only once that log has been quiet this
# long. The log says more (every step, the crash that ends a run); the record only logged steps.
RECORD_RANK_NS = 5 * 60 * 10**9

# Lines in, the kind they read as (a parser family, e.g. "iota", "nanogpt") or None.
Classify = Callable[[Sequence[str]], "str | None"]
FileKey = tuple[int, int, str]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One ``*.log`` entry (or a trainer's record) of the folder, as listed."""

    path: Path
    # (mtime in ns, name): newest last; the name breaks mtime ties (a record's mtime less RECORD_RANK_NS)
    order: tuple[int, str]
    regular: bool  # a FIFO, device or socket named *.log is never opened
    size: int
    key: FileKey  # (device, inode, name): an inode number is reused once its file is gone


@dataclass(frozen=True, slots=True)
class Following:
    """Which file is followed and why, and which newer files were passed over."""

    path: str | None
    reason: str
    ignored: tuple[str, ...]
    ignored_total: int

    @property
    def text(self) -> str:
        """One line a person reads: why this file, and what was passed over."""
        line = self.reason[:1].upper() + self.reason[1:]
        if self.ignored:
            names = ", ".join(Path(p).name for p in self.ignored[:3])
            more = self.ignored_total - min(len(self.ignored), 3)
            line += f"; passed over {names}" + (f" and {more} more" if more > 0 else "")
        return line


def source_key_path(log_path: Path) -> Path:
    """The history's name for a log: its folder when it is a folder or a dated file in one (each
    launch writes a new one), else the file; from the root, as the user meant it (symlinks kept)."""
    log_path = Path(os.path.abspath(log_path))
    if log_path.is_dir() or DATED_NAME.match(log_path.name):
        return log_path if log_path.is_dir() else log_path.parent
    return log_path


def is_miner_folder(folder: Path) -> bool:
    """True for the Train at Home app's log folder, whose miner logs are known by name."""
    return folder.name.casefold() == MINER_FOLDER_NAME.casefold()


class FolderPolicy:
    """Decide which candidate to follow; remembers the kind of what it follows."""

    def __init__(self, folder: Path, *, kind: str | None = None, by_content: bool = True) -> None:
        """``kind``: the family ``--format`` names, None with ``--format auto`` (the first pick fixes it).

        ``by_content``: False when nothing can classify lines: any regular ``*.log`` fits.
        """
        self.folder = folder
        self.miner_folder = is_miner_folder(folder)
        self.by_content = by_content
        self.forced_kind = kind
        self.kind = kind

    def choose(
        self,
        candidates: Sequence[Candidate],
        kind_of: Callable[[Candidate], str | None],
        current: Path | None = None,
        current_order: tuple[int, str] | None = None,
    ) -> tuple[Candidate | None, Following]:
        """Return the candidate to follow (None: nothing fits yet) and what to say about it.

        ``current``: the file followed now, if any, and ``current_order`` its last known order
        (it may be gone from the listing): it is only ever replaced by a newer file that fits.
        """
        by_name = self.miner_folder and any(c.regular and self._named(c) for c in candidates)
        ordered = sorted(candidates, key=lambda c: c.order, reverse=True)
        followed = next((c for c in ordered if c.path == current), None)
        floor = followed.order if followed is not None else current_order
        pick: Candidate | None = None
        for c in ordered:
            if floor is not None and c.order <= floor:
                break
            if c is not followed and self._fits(c, by_name, kind_of):
                pick = c
                break
        chosen = pick if pick is not None else followed
        if chosen is not None and self.kind is None and self.by_content and not by_name:
            self.kind = kind_of(chosen)
        top = chosen.order if chosen is not None else floor
        ignored = [str(c.path) for c in ordered if c is not chosen and c.path != current and (top is None or c.order > top)]
        if chosen is None and current is not None:
            path: str | None = str(current)
            reason = f"{current.name} is gone from the folder; reading what was written to it"
        else:
            path = None if chosen is None else str(chosen.path)
            reason = self._reason(chosen, by_name, switched=pick is not None and current is not None)
        return chosen, Following(path, reason, tuple(ignored[:IGNORED_LISTED]), len(ignored))

    def _named(self, c: Candidate) -> bool:
        return c.path.name.endswith(MINER_LOG_SUFFIX)

    def _fits(self, c: Candidate, by_name: bool, kind_of: Callable[[Candidate], str | None]) -> bool:
        if not c.regular:
            return False
        if by_name:
            return self._named(c)
        if not self.by_content:
            return True
        kind = kind_of(c)
        return kind is not None and (self.kind is None or kind == self.kind)

    def _reason(self, chosen: Candidate | None, by_name: bool, *, switched: bool) -> str:
        if chosen is None:
            if by_name:
                return f"waiting for a *{MINER_LOG_SUFFIX} file (the miner's log) in {self.folder}"
            if not self.by_content:
                return f"waiting for a *{LOG_SUFFIX} file to appear in {self.folder}"
            what = f"read as {self.kind}" if self.kind is not None else "tokwatch recognises"
            return f"waiting for a *{LOG_SUFFIX} file whose lines {what} in {self.folder}"
        newest = "a newer" if switched else "the newest"
        if chosen.path.name in RECORD_NAMES and not by_name:
            what = f"read as {self.forced_kind} (--format)" if self.forced_kind is not None else f"read as {self.kind}"
            return f"{newest} training record in the folder, {chosen.path.name}, whose lines {what}"
        if by_name:
            return f"{newest} *{MINER_LOG_SUFFIX}: the miner's log in the Train at Home folder"
        if not self.by_content:
            return f"{newest} *{LOG_SUFFIX} in the folder"
        if self.forced_kind is not None:
            return f"{newest} *{LOG_SUFFIX} whose lines read as {self.forced_kind} (--format)"
        if switched:
            return f"{newest} *{LOG_SUFFIX} whose lines read as {self.kind}, like the one before"
        return f"{newest} *{LOG_SUFFIX} whose lines read as {self.kind}"


@dataclass(slots=True)
class _Verdict:
    size: int
    mtime_ns: int
    kind: str | None
    checked_at: float


class FolderScout:
    """List a folder's ``*.log`` entries and tell their kind, remembering verdicts; I/O only."""

    def __init__(self, folder: Path, classify: Classify | None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.folder = folder
        self.classify = classify
        self._clock = clock
        self._verdicts: dict[FileKey, _Verdict] = {}

    def listing(self) -> list[Candidate]:
        """The folder's ``*.log`` entries (not recursive); raises OSError when it cannot be listed."""
        found: list[Candidate] = []
        with os.scandir(self.folder) as entries:
            for entry in entries:
                if not followable(entry.name):
                    continue
                try:
                    st = entry.stat()  # follows symlinks, like opening it will
                except OSError:
                    continue  # vanished or unreadable between listing and stat
                if stat.S_ISDIR(st.st_mode):
                    continue
                key = (st.st_dev, st.st_ino, entry.name)
                ranked = st.st_mtime_ns - (RECORD_RANK_NS if entry.name in RECORD_NAMES else 0)
                found.append(Candidate(Path(entry.path), (ranked, entry.name), stat.S_ISREG(st.st_mode), st.st_size, key))
        keys = {c.key for c in found}
        for key in [k for k in self._verdicts if k not in keys]:
            del self._verdicts[key]  # bounded by the folder's size
        return found

    def kind_of(self, c: Candidate) -> str | None:
        """What ``c``'s first and last lines read as; read again only when it grew since a miss."""
        if self.classify is None or not c.regular:
            return None
        now = self._clock()
        verdict = self._verdicts.get(c.key)
        if verdict is not None and (
            verdict.kind is not None
            or (verdict.size, verdict.mtime_ns) == (c.size, c.order[0])
            or now - verdict.checked_at < RESNIFF_SECONDS
        ):
            return verdict.kind
        kind = self.classify(self._sniff(c.path))
        self._verdicts[c.key] = _Verdict(c.size, c.order[0], kind, now)
        return kind

    def _sniff(self, path: Path) -> list[str]:
        try:
            with closing(open_for_reading(path)) as f:
                size = os.fstat(f.fileno()).st_size
                head = read_at(f, 0, min(size, SNIFF_BYTES))
                tail_at = max(SNIFF_BYTES, size - SNIFF_BYTES)
                tail = read_at(f, tail_at, size - tail_at) if size > SNIFF_BYTES else b""
        except OSError:
            return []
        lines = head.split(b"\n")[:-1]  # complete lines only
        if tail:
            lines += tail.split(b"\n")[1:-1]  # the first may start before tail_at
        return [line.decode("utf-8", errors="replace") for line in lines]


def resolve_log(
    path: Path, classify: Classify | None = None, kind: str | None = None
) -> tuple[Path | None, Following | None]:
    """Return ``path`` if it is a file; for a folder, the log in it these rules pick and what
    they say about it; (None, …) when there is none. Raises OSError when a folder cannot be listed."""
    try:
        st = path.stat()
    except OSError:
        return None, None
    if not stat.S_ISDIR(st.st_mode):
        return path, None
    scout = FolderScout(path, classify)
    policy = FolderPolicy(path, kind=kind, by_content=classify is not None)
    chosen, following = policy.choose(scout.listing(), scout.kind_of)
    return (None if chosen is None else chosen.path), following
