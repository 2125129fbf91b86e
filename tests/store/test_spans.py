"""A miner's two weeks side by side (app/store/spans.py), on a history written as the recorder writes
it, each week's medians per layer worked out by hand.

Composed (each 30-s sample training, tokens per pass 2,048):
* last week (days 8–14 back): layer 1 at 300,000 tok/h for 10 h, then 320,000 for 4 h.
  Median by hand: 14 h in all, half is 7 h; sorted, 300k covers the first 10 h ≥ 7 h → 300,000.
* this week (days 1–7 back): layer 1 at 330,000 for 6 h, 350,000 for 6 h and 360,000 for 1 h
  (13 h, half 6.5 h: 330k covers 6 h < 6.5, 350k reaches 12 h → 350,000); layer 2 at 200,000 for
  5 h → 200,000.
* a measuring stretch (state measuring, 999,999 tok/h) that must not count.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.compare.view import span_lines
from app.store import History, Observation, Sample, SourceKey
from app.store.queries import find_source
from app.store.spans import span_figures, weeks

SRC = SourceKey("miner-box", "/logs/iota", "miner")
HOUR = 3600
DAY = 24 * HOUR
NOW = 1_790_006_400  # a multiple of an hour: each stretch starts on a 5-minute boundary


def stretch(start: int, hours: float, tph: float, layer: int, state: str = "training") -> Observation:
    samples = tuple(Sample(t, tph, state, layer, 2048) for t in range(start, start + int(hours * HOUR), 30))
    return Observation(SRC, samples=samples)


@pytest.fixture
def history(tmp_path: Path):
    h = History(tmp_path / "data", clock=lambda: NOW)
    h.start()
    last_week, this_week = NOW - 12 * DAY, NOW - 5 * DAY
    for obs in (
        stretch(last_week, 10, 300_000, 1), stretch(last_week + 11 * HOUR, 4, 320_000, 1),
        stretch(this_week, 6, 330_000, 1), stretch(this_week + 7 * HOUR, 6, 350_000, 1),
        stretch(this_week + 14 * HOUR, 1, 360_000, 1), stretch(this_week + DAY, 5, 200_000, 2),
        stretch(this_week + 2 * DAY, 2, 999_999, 1, state="measuring"),
    ):
        assert h.submit(obs)
    assert h.flush(30)
    yield h
    h.stop()


def test_this_week_against_last_week_per_layer_with_the_medians(history: History) -> None:
    def read(conn):  # type: ignore[no-untyped-def]
        sid = find_source(conn, SRC)
        return [span_figures(conn, sid, span, NOW) for span in weeks(NOW)]

    this_week, last_week = history.read(read)
    assert this_week["layers"] == {"1": {"median": 350_000, "basis_hours": 13.0},
                                   "2": {"median": 200_000, "basis_hours": 5.0}}
    assert last_week["layers"] == {"1": {"median": 300_000, "basis_hours": 14.0}}
    # Hourly points against the time since each week began: the same hour of each week overlays.
    offset = (NOW - 5 * DAY) - (NOW - 7 * DAY)
    points = {(p[0], p[2]): p[1] for p in this_week["points"]}
    assert points[(offset, 1)] == 330_000 and points[(offset + DAY, 2)] == 200_000
    assert not any(p[1] == 999_999 for p in this_week["points"])
    assert span_lines([this_week, last_week]) == [
        "L1 · this week 350k tok/h (13 h 00 min) · last week 300k tok/h (14 h 00 min) · +16.7 %",
        "L2 · this week 200k tok/h (5 h 00 min) · last week not on this layer",
    ]
