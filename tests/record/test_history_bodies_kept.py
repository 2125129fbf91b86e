"""``/api/history``'s bodies are reused until the history's next write, and only the latest of each
range is kept: a server answering every range for weeks holds one body a range, never the stale ones."""

from __future__ import annotations

from pathlib import Path

from app.record.recorder import Recorder
from app.store import RANGES, History, Observation
from app.store.records import Sample
from tests.snapshots import snapshot

NOW = 1_790_000_100.0


def test_a_body_is_reused_until_a_write_and_the_stale_one_is_let_go(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    log.write_text("")
    history = History(tmp_path / "data", clock=lambda: NOW)
    recorder = Recorder(history, log, machine="box", clock=lambda: NOW, import_siblings=False)
    history.start()
    try:
        recorder.decorate(snapshot("training", NOW))
        source = recorder.source
        first = {name: recorder.chart_json(name) for name in RANGES}
        # Nothing written since: the very same bodies, not built again.
        assert all(recorder.chart_json(name) is first[name] for name in RANGES)
        for i in range(3):  # three writes, each range asked again after each
            assert history.submit(Observation(source, samples=(Sample(NOW - 600 + 30 * i, 4.2e8, "training"),)),
                                  wait_seconds=30)
            assert history.flush(60)
            again = {name: recorder.chart_json(name) for name in RANGES}
            assert all(again[name] is not first[name] for name in RANGES)  # written since: built afresh
            first = again
        # One body a range is kept (the latest), however many were built.
        kept = recorder._bodies  # what the server holds is the behaviour under test
        assert sorted(kept) == sorted(RANGES)
        assert all(body is first[name] for name, (_, body) in kept.items())
    finally:
        history.stop()
