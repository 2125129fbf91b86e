"""A step trainer's whole run is kept whatever its log's dates; the store is bounded by runs, not by age.

Composed runs: 300 losses (loss(step) = 5 - step / 100), an evaluation every 100 steps and one
marker, all dated two years before the clock.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.store import History, Observation, SourceKey
from app.store.records import EvalPoint, EventRow, LossPoint, StepPoint
from app.store.schema import VERSION
from app.store.write import RUN_SOURCES_KEPT, prune, write

NOW = 1_790_000_000.0
TWO_YEARS = 2 * 365 * 86400
START = NOW - TWO_YEARS


def run(key: str, start: float = START) -> Observation:
    source = SourceKey("box", key, "steps")
    return Observation(
        source,
        steps=tuple(StepPoint("train", s, start + s, 5 - s / 100, None, 3600.0) for s in range(0, 300, 30)),
        losses=tuple(LossPoint("train", s, start + s, 5 - s / 100) for s in range(300)),
        evals=tuple(EvalPoint("train", "val_loss", s, start + s, 4.5 - s / 100) for s in range(0, 300, 100)),
        events=(EventRow(start + 150, "loss_spike", "loss spike at step 150"),),
    )


def test_a_run_two_years_old_keeps_its_whole_curve_after_retention(tmp_path: Path) -> None:
    history = History(tmp_path, clock=lambda: NOW)
    history.start()
    try:
        old = run("/logs/2024-diverged.log")
        assert history.submit(old)
        assert history.flush(20)
        history.read(lambda conn: prune(conn, NOW))  # retention as the writer runs it
        steps = history.chart(old.source, "30d", NOW)["steps"]
        assert steps is not None
        assert len(steps["loss"]) == 300 and steps["loss"][0] == [0, 5.0] and steps["loss"][-1] == [299, 2.01]
        assert steps["evals"] == {"val_loss": [[0, 4.5], [100, 3.5], [200, 2.5]]}
        events = history.chart(old.source, "30d", NOW)["events"]
        assert [e["text"] for e in events] == ["loss spike at step 150"]
    finally:
        history.stop()


def test_the_store_keeps_the_runs_written_last_and_drops_the_oldest_written(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "h.sqlite3", isolation_level=None)
    from app.store.schema import migrate

    migrate(conn)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == VERSION
    # One more run than is kept, each written a second after the last (the first written goes first,
    # whatever its log's dates: the newest log date is the first run's).
    for i in range(RUN_SOURCES_KEPT + 1):
        write(conn, run(f"/logs/run{i}.log", START - i * 1000), NOW + i)
    prune(conn, NOW + RUN_SOURCES_KEPT + 1)
    kept = {key for (key,) in conn.execute(
        "SELECT key FROM source WHERE id IN (SELECT source_id FROM loss) AND id IN (SELECT source_id FROM step)"
        " AND id IN (SELECT source_id FROM eval) AND id IN (SELECT source_id FROM event)")}
    assert kept == {f"/logs/run{i}.log" for i in range(1, RUN_SOURCES_KEPT + 1)}
    assert conn.execute("SELECT count(*) FROM loss_bucket WHERE source_id = 1").fetchone()[0] == 0
