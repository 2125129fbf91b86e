"""A long step run's whole loss curve at a glance, before the history has imported it.

The first-start import reads every line of the log (a million-step run is a minute or more of a
core), yet the page opens on the run's whole loss chart. Until the history holds the run, that
chart is drawn from losses sampled at evenly spaced places of the log, each place's first logged
loss read with the log's own parser: a few hundred KB read, well under a second. A sample shows
the curve, not every spike; the history's chart (each bucket's lowest and highest) takes its
place once the import is done.
"""

from __future__ import annotations

import math
import os
from contextlib import closing
from pathlib import Path
from typing import Any

from ..ingest import files
from ..ingest.backwards import read_at
from ..ingest.formats import create_parser
from ..ingest.lines import decode
from ..stats.events import TrainStep
from ..store.records import LossPoint
from .logged import LoggedSteps

SAMPLE_PLACES = 1000  # a chart is about a thousand pixels across
WINDOW_BYTES = 2 << 10  # read at each place, doubled while it holds no logged loss
MAX_WINDOW_BYTES = 64 << 10
FEED_LINES = 2  # a place's lines are parsed two at a time, up to its first loss


def _window_lines(f: files.ReadableFile, offset: int, size: int, window: int) -> list[str]:
    """The complete lines in ``window`` bytes at ``offset`` (the first only when it starts there)."""
    data = read_at(f, offset, min(window, size - offset))
    if offset > 0:
        data = data[data.find(b"\n") + 1 :]  # the line begun before the place
    lines, _ = decode(data[: data.rfind(b"\n") + 1].split(b"\n")[:-1])  # and one not ended in it
    return lines


def _place_losses(format_name: str, lines: list[str], first_only: bool) -> list[LossPoint]:
    """The logged losses of one place's lines, read on a parser of their own."""
    parser = create_parser(format_name)
    logged = LoggedSteps()
    found: list[LossPoint] = []
    for i in range(0, len(lines), FEED_LINES):
        # A step that only counts logged lines (a place read without the log's start) is no step number, nor is
        # an SN38 inner step: its place on the run's timeline counts the outer steps before it.
        events = [e for e in parser.feed(lines[i : i + FEED_LINES])
                  if not (isinstance(e, TrainStep) and (e.logged or e.outer_step is not None))]
        losses, _ = logged.feed(events, 0.0)
        found += losses
        if found and first_only:
            return found[:1]
    return found


def sample_losses(path: Path, format_name: str, places: int = SAMPLE_PLACES) -> list[LossPoint]:
    """Logged losses at ``places`` evenly spaced places of the log, and its last one, in log order."""
    points: list[LossPoint] = []
    window = WINDOW_BYTES  # as wide as the place before needed: a log's lines are alike
    with closing(files.open_for_reading(path)) as f:
        size = os.fstat(f.fileno()).st_size
        for i in range(places + 1):
            last = i == places  # the window that ends the log: its last loss is the run's latest
            while True:
                offset = max(0, size - window) if last else size * i // places
                losses = _place_losses(format_name, _window_lines(f, offset, size, window), first_only=not last)
                if losses or window >= MAX_WINDOW_BYTES or window >= size:
                    break
                window *= 2
            if losses:
                points.append(losses[-1])
    return points


def sampled_steps(points: list[LossPoint], places: int = SAMPLE_PLACES) -> dict[str, Any] | None:
    """The latest stage's sampled losses as /api/history's ``steps`` gives them, with
    ``sample_text``; None without a loss."""
    if not points:
        return None
    stage = points[-1].stage
    by_step: dict[int, LossPoint] = {}
    for point in points:
        if point.stage == stage:
            by_step[point.step] = point  # a run started again over the same steps: the later
    steps = sorted(by_step)
    finite = [s for s in steps if math.isfinite(by_step[s].value)]
    spacing = max(1, -(-(steps[-1] - steps[0]) // places))
    return {
        "stage": stage,
        "loss": [[s, by_step[s].value] for s in finite],
        "loss_bucket_steps": spacing,
        "loss_sampled": True,
        "not_finite": [s for s in steps if not math.isfinite(by_step[s].value)],
        "lr": [[s, by_step[s].lr] for s in steps if by_step[s].lr is not None],
        "tokens_per_hour": [],
        "steps_per_hour": [],
        "evals": {},
        "sample_text": (f"Sampled: a logged loss about every {spacing:,} steps across the run, steps "
                        f"{steps[0]:,}–{steps[-1]:,}, while the history reads the whole log; its chart "
                        "(each span's lowest and highest) follows when that is done."),
    }


def covers(stored: dict[str, Any] | None, sampled: dict[str, Any]) -> bool:
    """Whether the history's chart already holds the run the sample spans, start to end."""
    if stored is None or stored.get("stage") != sampled["stage"] or not stored.get("loss"):
        return False
    width = max(stored.get("loss_bucket_steps") or 1, sampled["loss_bucket_steps"])
    first, last = sampled["loss"][0][0] if sampled["loss"] else 0, sampled["loss"][-1][0] if sampled["loss"] else 0
    return bool(stored["loss"][0][0] <= first + width and stored["loss"][-1][0] >= last - width)
