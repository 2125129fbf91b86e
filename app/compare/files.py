"""Another log file read into runs, through the same parsers as the live view and placed in time
as the history import places it (app/record/replay.py), without touching the history."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..ingest.formats import create_parser, detect, kind_of
from ..record.replay import DETECT_LINES, placed_times, read_lines
from ..record.spool import EventSpool
from ..stats.events import EvalResult, Event, StepFigures, StepRun, TrainStep
from ..stats.kinds import STEPS
from .runs import Run, RunCutter

MAX_COMPARE_BYTES = 512 << 20  # a log read for a comparison, at most


class NotComparable(ValueError):
    """A file that cannot be compared: missing, unreadable, too large, not a step trainer's log."""


def read_runs(paths: Sequence[Path], format_name: str = "auto", stop: threading.Event | None = None) -> list[Run]:
    """The runs of these logs read one after another (oldest first): a later log that begins inside
    or just after an earlier one's last run resumes it (raises :class:`NotComparable`)."""
    cutter = RunCutter()
    for path in paths:
        cutter.begin_file()
        _feed(cutter, path, format_name, stop or threading.Event())
    return cutter.finish()


def _feed(cutter: RunCutter, path: Path, format_name: str, stop: threading.Event) -> None:
    try:
        size = path.stat().st_size
        mtime = path.stat().st_mtime
        if not path.is_file():
            raise NotComparable(f"{path}: not a file")
        if size > MAX_COMPARE_BYTES:
            raise NotComparable(f"{path}: {size >> 20} MiB, more than the {MAX_COMPARE_BYTES >> 20} MiB a comparison reads")
        first = next(read_lines(path, stop, min(size, 4 << 20)), [])
    except OSError as e:
        raise NotComparable(f"{path}: {e.strerror or e}") from e
    name = format_name if format_name != "auto" else detect(first[:DETECT_LINES])
    if name is None:
        raise NotComparable(f"{path}: not a log tokwatch recognises")
    if kind_of(name) != STEPS:
        raise NotComparable(f"{path}: a miner's log (compare a miner's weeks instead)")
    spool = EventSpool()
    try:
        times = placed_times(path, name, mtime, {}, stop, size, spool)
        _cut(cutter, spool.read() if spool.usable else _parsed(path, name, mtime, size, stop), times)
    except OSError as e:
        raise NotComparable(f"{path}: {e.strerror or e}") from e
    finally:
        spool.close()


def _parsed(path: Path, name: str, mtime: float, size: int, stop: threading.Event) -> Iterable[Iterable[Event | StepRun]]:
    """The file's events again, in the runs :func:`placed_times` read (when the spool could not keep them)."""
    parser = create_parser(name)
    parser.reference_time = mtime
    read = getattr(parser, "feed_runs", parser.feed)
    for lines in read_lines(path, stop, size):
        yield read(lines)


def _cut(cutter: RunCutter, batches: Iterable[Iterable[Event | StepRun]], times: Sequence[float]) -> None:
    """Feed each logged loss and evaluation, at its placed time, to ``cutter``."""
    i = 0
    stage: str | None = None
    step: int | None = None
    for events in batches:
        for item in events:
            if isinstance(item, StepRun):
                lines = item.evaluation_lines(0, len(item)) if item.evals else []
                for first, after in item.step_spans(0, len(item)) if lines else [(0, len(item))]:
                    for k, value in enumerate(item.step_losses(first, after), first):
                        at = times[i + k] if i + k < len(times) else math.nan
                        cutter.loss(item.stage, item.steps[k], value if math.isfinite(value) else math.inf, at)
                    while lines and lines[0][0] < after + 1:  # (an evaluation's line after these steps)
                        line, lines = lines[0], lines[1:]
                        for k in range(line[0] + 1, line[1]):
                            evaluation = item.event(k)
                            assert isinstance(evaluation, EvalResult)
                            figure = evaluation.value
                            cutter.evaluation(item.stage, evaluation.name, item.steps[k],
                                              figure if figure is not None and math.isfinite(figure) else None)
                stage, step = item.stage, item.steps[-1]
                i += len(item)
                continue
            at = item.at if item.at is not None else (times[i] if i < len(times) else math.nan)
            i += 1
            if isinstance(item, TrainStep):
                stage, step = item.stage, item.step
                if item.loss is not None:
                    cutter.loss(item.stage, item.step, item.loss if math.isfinite(item.loss) else math.inf, at)
            elif isinstance(item, StepFigures) and item.loss is not None and stage is not None and step is not None:
                cutter.loss(stage, step, item.loss if math.isfinite(item.loss) else math.inf, at)
            elif isinstance(item, EvalResult) and stage is not None:
                at_step = item.step if item.step is not None else step
                if at_step is not None:
                    figure = item.value if item.value is not None and math.isfinite(item.value) else None
                    cutter.evaluation(stage, item.name, at_step, figure)
            elif isinstance(item, EvalResult) and item.step is not None:
                cutter.evaluation(None, item.name, item.step, item.value)
