"""A step log's import looks at its tracker without the page's words: what it stores is the page's snapshot's.

Every step log of tests/data and tests/data/real, read as the import reads it (placed in time, event by event):
at points through the log and at its end, the snapshot the history stores is the page's, less the status line,
the detail lines and the training table (which no stored row reads).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect, kind_of
from app.snapshot import SourceView
from app.stats.kinds import STEPS
from app.stats.steps.placing import placed_times
from app.stats.steps.tracker import StepTracker
from app.store.records import events_from, samples_from, steps_from

DATA = Path(__file__).resolve().parents[1] / "data"
VIEW = SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0, last_event_at=None)
END = 1_795_000_000.0
LOOKS = 12  # points through each log


def step_logs() -> list[tuple[str, str, list[str]]]:
    found = []
    for path in sorted([*DATA.glob("*.log"), *(DATA / "real").iterdir()]):
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        name = detect(lines[:2000])
        if name is not None and kind_of(name) == STEPS:
            found.append((path.name, name, lines))
    return found


LOGS = step_logs()


def test_the_step_logs_are_many_and_of_many_formats() -> None:
    assert len(LOGS) > 100 and len({name for _, name, _ in LOGS}) > 8


@pytest.mark.parametrize(("file", "name", "lines"), LOGS, ids=[file for file, _, _ in LOGS])
def test_what_the_history_stores_is_the_pages_snapshot_without_its_words(file: str, name: str, lines: list[str]) -> None:
    parser = create_parser(name)
    parser.reference_time = END
    events = parser.feed(lines)
    tracker = StepTracker(name)
    every = max(1, len(events) // LOOKS)
    for i, (event, at) in enumerate(zip(events, placed_times(events, END), strict=True)):
        tracker.apply(event, END, at)
        if i % every == every - 1 or i == len(events) - 1:
            now = tracker.clock if tracker.clock is not None else END
            page, stored = tracker.snapshot(now, VIEW), tracker.stored(now, VIEW)
            wordless = {"status_line": "", "details": (), "training_fields": ()}
            assert replace(stored, **wordless) == replace(page, **wordless), (file, i)
            assert samples_from(stored, None) == samples_from(page, None)
            assert steps_from(stored) == steps_from(page)
            assert events_from(stored) == events_from(page)
