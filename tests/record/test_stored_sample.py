"""A stored 30-s sample reads the same figures the page's snapshot shows at that moment: the import
asks the tracker for them alone (its words and views were a third of a long log's import).

Every 30-s boundary of the miner logs in tests/data (queue resets, a requeue, stops and resumes)
and of a composed week with requeues, idles and silences.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import create_parser
from app.snapshot import SourceView
from app.stats.iota.tracker import IotaTracker
from app.store.records import queue_point
from bench.synth import IotaSynth

DATA = Path(__file__).resolve().parents[1] / "data"
VIEW = SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0, last_event_at=None)


def logs() -> list[tuple[str, list[str]]]:
    found = [(path.name, path.read_text(encoding="utf-8").splitlines()) for path in sorted(DATA.glob("iota-*.log"))]
    # Long quiet spells: passes every 15 s, an epoch an hour, errors, a requeue a day, gaps of an hour.
    synth = IotaSynth(seed=40, start=1_790_000_000.0, requeue_seconds=20_000.0, fetcher=False)
    lines: list[str] = []
    for _ in range(3):
        lines += synth.text(30_000).splitlines()
        synth.t += 3600  # the miner stopped for an hour: silent, then back
    found.append(("composed", lines))
    return found


@pytest.mark.parametrize(("name", "lines"), logs(), ids=[name for name, _ in logs()])
def test_every_boundarys_stored_figures_are_the_snapshots(name: str, lines: list[str]) -> None:
    parser, tracker = create_parser("iota"), IotaTracker("iota")
    boundary: int | None = None
    compared = entries_seen = 0
    states: set[str] = set()
    for event in parser.feed(lines):
        at = event.at
        if at is not None:
            boundary = boundary if boundary is not None else int(at) - int(at) % 30 + 30
            while at > boundary:
                snap = tracker.snapshot(float(boundary), VIEW)
                stored = tracker.stored(float(boundary), 0)
                value = snap.history[-1][1] if snap.history and snap.history[-1][0] == boundary else snap.rate.tokens_per_hour
                assert (stored.tokens_per_hour, stored.state, stored.layer, stored.tokens_per_pass, stored.step) == (
                    value, snap.state, snap.layer, snap.rate.tokens_per_pass, snap.step), boundary
                assert stored.queue_position == queue_point(snap.queue, boundary)  # only where a poll was logged
                assert stored.events == snap.events, boundary
                entries_seen += len(snap.events)
                compared += 1
                states.add(stored.state)
                boundary += 30
        tracker.apply(event)
    assert compared > 10 and entries_seen > 0
    if name == "composed":
        assert {"training", "queued", "silent"} <= states, states
