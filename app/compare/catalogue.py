"""Which runs a comparison may show, and each one's figures: the history's runs, the logs given at
start (``--compare``) and the followed folder's logs; nothing else.

A page on the LAN holds the token, but the token is not a licence to read the machine's files:
a log is opened only when its real path (symlinks followed) is one given at start, or a file in
the followed folder (a folder given as ``--log``, or the folder of the file given). Anything
else is refused with the rule in words, the same for every client.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..store.runs import StoredRun, find_run, run_series, stored_runs
from .files import NotComparable, read_runs
from .runs import Run
from .view import RunFigures, from_run, run_name

T = TypeVar("T")
Reader = Callable[[Callable[[sqlite3.Connection], T]], T | None]
CACHED_FILES = 4
LISTED_BYTES = 64 << 20  # the followed log is read for its runs when listing only up to this size
LOG_SUFFIXES = frozenset({".log", ".txt", ".jsonl", ".json", ".out"})
MAX_RUNS = 6  # runs on one chart, at most


class RunRefused(ValueError):
    """A run a comparison may not open (the message says why and what may be opened)."""


class RunNotFound(LookupError):
    """A run id that names nothing (any more)."""


@dataclass(frozen=True, slots=True)
class Followed:
    """What the server follows: the log given (a file or a folder) and the file read now."""

    given: Path | None
    current: Path | None


class Catalogue:
    """The runs a comparison may show, read on demand (files cached while unchanged)."""

    def __init__(self, read_history: Reader[Any] | None, followed: Callable[[], Followed],
                 given: Sequence[Path] = (), live_source: Callable[[], tuple[str, str] | None] | None = None,
                 format_name: str = "auto", clock: Callable[[], float] = time.time) -> None:
        self._read = read_history
        self._followed = followed
        self.given = tuple(given)
        self._live_source = live_source
        self._format = format_name
        self._clock = clock
        self._files: OrderedDict[tuple[str, int, int], list[Run]] = OrderedDict()
        self._lock = threading.Lock()  # one file read at a time: the machine is the trainer's

    # --- what may be opened --------------------------------------------------------

    def folder(self) -> Path | None:
        """The followed folder: the ``--log`` folder, or the folder of the ``--log`` file."""
        followed = self._followed()
        base = followed.given or followed.current
        if base is None:
            return None
        return base if base.is_dir() else base.parent

    def check_path(self, text: str) -> Path:
        """The real path of a log the page asked for, if the rule lets it be opened (raises RunRefused)."""
        folder = self.folder()
        path = Path(text).expanduser()
        if not path.is_absolute():
            if folder is None:
                raise RunRefused("a relative path needs a followed folder")
            path = folder / path
        real = Path(os.path.realpath(path))
        if any(real == Path(os.path.realpath(p)) for p in self.given):
            return real
        if folder is not None:
            root = Path(os.path.realpath(folder))
            followed = self._followed()
            inside = real.parent == root if followed.given is not None and not followed.given.is_dir() else (
                root in real.parents)
            if inside:
                if not real.is_file():
                    raise RunNotFound(f"{path.name}: no such log")
                return real
        where = f"a log in {folder}" if folder is not None else "no folder is followed"
        raise RunRefused(f"{path.name}: only the history's runs, the logs given with --compare and "
                         f"{where} can be opened")

    # --- listing -------------------------------------------------------------------

    def stored(self) -> list[StoredRun]:
        if self._read is None:
            return []
        return self._read(stored_runs) or []

    def listing(self) -> dict[str, Any]:
        """``/api/runs``: the history's runs, the logs given at start and their runs, the live run's id."""
        now = self._clock()
        runs = [{"id": run.run_id, "name": self._stored_name(run, now), "origin": "history", "stage": run.stage,
                 "key": run.key, "machine": run.machine, "started_at": run.started_at, "ended_at": run.ended_at,
                 "first_step": run.first_step, "last_step": run.last_step, "losses": run.losses}
                for run in self.stored()]
        files = []
        for path in self.given:
            entry: dict[str, Any] = {"path": str(path), "runs": [], "problem": None}
            try:
                found = self._file_runs(Path(os.path.realpath(path)))
            except NotComparable as e:
                entry["problem"] = str(e)
            else:
                for i, run in enumerate(found, 1):
                    entry["runs"].append({"id": f"file:{path}#{i}", "name": self._file_name(path, run, i, found, now),
                                          "origin": "file", "stage": run.stage, "first_step": run.first_step,
                                          "last_step": run.last_step})
            files.append(entry)
        folder = self.folder()
        return {"runs": runs, "files": files, "followed": self._followed_runs(now), "folder_logs": self.folder_logs(),
                "live": self.live_id(), "folder": str(folder) if folder else None, "max_runs": MAX_RUNS}

    def _followed_runs(self, now: float) -> list[dict[str, Any]]:
        """The followed log's own runs read as a file (each restart apart, which the history keys as
        one), when it is small enough to read on a page's asking; else none."""
        current = self._followed().current
        try:
            if current is None or current.stat().st_size > LISTED_BYTES:
                return []
            found = self._file_runs(Path(os.path.realpath(current)))
        except (OSError, NotComparable):
            return []
        if len(found) < 2:
            return []  # one run: the history's (the live run) is the same
        return [{"id": f"file:{current}#{i}", "name": self._file_name(current, run, i, found, now), "origin": "file",
                 "stage": run.stage, "first_step": run.first_step, "last_step": run.last_step}
                for i, run in enumerate(found, 1)]

    def folder_logs(self) -> list[str]:
        """The names of the logs in the followed folder a page may open (newest first, at most 50; a
        followed folder's own and its subfolders', never deeper: a folder of many runs is listed fast)."""
        folder = self.folder()
        if folder is None:
            return []
        followed = self._followed()
        deep = followed.given is not None and followed.given.is_dir()
        try:
            found = [p for p in (itertools.chain(folder.glob("*"), folder.glob("*/*")) if deep else folder.iterdir())
                     if p.suffix in LOG_SUFFIXES and p.is_file() and p != followed.current]
            found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            return []
        return [str(p.relative_to(folder)) for p in found[:50]]

    def live_id(self) -> str | None:
        """The id of the run the server follows now: its history run, else its log file."""
        source = self._live_source() if self._live_source is not None else None
        if source is not None:
            machine, key = source
            mine = [run for run in self.stored() if run.machine == machine and run.key == key]
            if mine:
                return max(mine, key=lambda run: run.ended_at).run_id
        current = self._followed().current
        return f"file:{current}" if current is not None else None

    # --- one run's figures ---------------------------------------------------------

    def figures(self, run_id: str, *, with_times: bool) -> RunFigures:
        """The run ``run_id`` names: ``h:SOURCE:STAGE`` (the history), ``file:PATH`` (its last run) or
        ``file:PATH#N`` (its N-th), ``live`` (the followed run). Raises RunRefused or RunNotFound."""
        now = self._clock()
        if run_id == "live":
            found = self.live_id()
            if found is None:
                raise RunNotFound("no run is followed yet")
            run_id = found
        if run_id.startswith("h:"):
            return self._stored_figures(run_id, now, with_times)
        if run_id.startswith("file:"):
            text, _, number = run_id[5:].rpartition("#")
            if not text or not number.isdigit():
                text, number = run_id[5:], ""
            path = self.check_path(text)
            try:
                runs = self._file_runs(path)
            except NotComparable as e:
                raise RunNotFound(str(e)) from e
            if not runs:
                raise RunNotFound(f"{path.name}: no loss logged")
            index = int(number) if number else len(runs)
            if not 1 <= index <= len(runs):
                raise RunNotFound(f"{path.name} has {len(runs)} runs, not {index}")
            run = runs[index - 1]
            label = path.name if len(runs) == 1 else f"{path.name} run {index}"
            return from_run(run, f"file:{text}#{index}" if number else f"file:{text}", label, now)
        raise RunNotFound(f"{run_id!r}: a run is h:SOURCE:STAGE, file:PATH[#N] or live")

    def _stored_figures(self, run_id: str, now: float, with_times: bool) -> RunFigures:
        sid_text, _, stage = run_id[2:].partition(":")
        if not sid_text.isdigit() or self._read is None:
            raise RunNotFound(f"{run_id!r}: no such run in the history")
        sid = int(sid_text)

        def read(conn: sqlite3.Connection) -> tuple[StoredRun, dict[str, Any]] | None:
            run = find_run(conn, sid, stage)
            return None if run is None else (run, run_series(conn, run, with_times=with_times))

        found = self._read(read)
        if found is None:
            raise RunNotFound(f"{run_id!r}: no such run in the history")
        run, series = found
        return RunFigures(
            run_id=run.run_id, name=self._stored_name(run, now), origin="history", stage=run.stage,
            loss=series["loss"], loss_bucket_steps=series["loss_bucket_steps"], loss_at=series.get("loss_at"),
            evals=series["evals"], eval_at=series.get("eval_at"), final_loss=series["final_loss"],
            best_loss=series["best_loss"], started_at=run.started_at, first_step=run.first_step,
            last_step=run.last_step,
        )

    def _file_runs(self, path: Path) -> list[Run]:
        try:
            stat = path.stat()
        except OSError as e:
            raise NotComparable(f"{path.name}: {e.strerror or e}") from e
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        with self._lock:
            if key in self._files:
                self._files.move_to_end(key)
                return self._files[key]
            runs = read_runs([path], self._format)
            self._files[key] = runs
            while len(self._files) > CACHED_FILES:
                self._files.popitem(last=False)
            return runs

    @staticmethod
    def _stored_name(run: StoredRun, now: float) -> str:
        label = Path(run.key).name or run.key
        return run_name(f"{label} {run.stage}", run.started_at, run.last_step, now)

    @staticmethod
    def _file_name(path: Path, run: Run, index: int, runs: list[Run], now: float) -> str:
        label = path.name if len(runs) == 1 else f"{path.name} run {index}"
        started = run.times[0] if run.times and run.times[0] == run.times[0] else None
        return run_name(label, started, run.last_step, now)
