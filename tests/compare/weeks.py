"""A miner's tok/h history written through the real store, under a real dashboard over its log."""

from __future__ import annotations

from pathlib import Path

from app.config import Config
from app.ingest.folder import source_key_path
from app.live.monitor import Monitor
from app.record.recorder import Recorder
from app.serve.process import Dashboard
from app.store import History, Observation, Sample, SourceKey
from app.text import path_text

HOUR, DAY = 3600, 86400


def two_weeks(now: float) -> list[tuple[int, float, float, int]]:
    """tests/store/test_spans.py's two weeks (their medians worked out by hand there), dated before ``now``:
    (start, hours, tok/h, layer) of training."""
    last_week, this_week = int(now - 12 * DAY) // 300 * 300, int(now - 5 * DAY) // 300 * 300
    return [(last_week, 10, 300_000, 1), (last_week + 11 * HOUR, 4, 320_000, 1),
            (this_week, 6, 330_000, 1), (this_week + 7 * HOUR, 6, 350_000, 1),
            (this_week + 14 * HOUR, 1, 360_000, 1), (this_week + DAY, 5, 200_000, 2)]


def miner_dashboard(tmp_path: Path, log_path: Path, stretches: list[tuple[int, float, float, int]]) -> Dashboard:
    """A dashboard (not started) over ``log_path`` whose history holds ``stretches`` of training, a sample each 30 s."""
    key = SourceKey("miner-box", path_text(source_key_path(log_path).resolve()), "miner")
    history = History(tmp_path / "data")
    history.start()
    for start, hours, tph, layer in stretches:
        samples = tuple(Sample(t, tph, "training", layer, 2048) for t in range(start, start + int(hours * HOUR), 30))
        assert history.submit(Observation(key, samples=samples))
    assert history.flush(30)
    history.stop()
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    recorder = Recorder(History(tmp_path / "data"), log_path, machine="miner-box", import_siblings=False)
    return Dashboard(config, Monitor(log_path), recorder=recorder)
