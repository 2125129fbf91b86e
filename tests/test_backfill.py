"""First-start import of the followed log and its dated siblings, through the real parser and tracker."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from app.backfill import files_to_import, import_logs, source_key_path
from app.store import History, SourceKey
from bench.synth import IotaSynth

NOW = time.mktime((2026, 11, 20, 18, 0, 0, 0, 0, -1))


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Ticking(Clock):
    """A clock that moves ten minutes every time it is read: retention may prune at every write."""

    def __call__(self) -> float:
        self.now += 600
        return self.now


def dated_logs(folder: Path) -> tuple[list[Path], int, list[tuple[float, float]]]:
    """Three launches of the app on three days, each its own dated file; returns files, passes written, spans."""
    folder.mkdir(parents=True, exist_ok=True)
    files, passes, spans = [], 0, []
    for days_ago, hours in ((3, 2.0), (2, 1.5), (1, 1.0)):
        start = NOW - days_ago * 86400
        synth = IotaSynth(seed=days_ago, start=start, fetcher=False, epoch_seconds=None, requeue_seconds=None)
        text = synth.text(hours * 3600)
        path = folder / (time.strftime("%Y-%m-%d", time.localtime(start)) + "-cli.log")
        path.write_text(text, encoding="utf-8")
        os.utime(path, (synth.t, synth.t))
        files.append(path)
        passes += synth.truth.passes
        spans.append((start, synth.t))
    (folder / "notes.txt").write_text("not a log\n")
    return files, passes, spans


def test_siblings_are_the_dated_logs_of_the_folder_oldest_first(tmp_path: Path) -> None:
    files, _, _ = dated_logs(tmp_path / "logs")
    old = tmp_path / "logs" / "2026-09-01-cli.log"
    old.write_text("old\n")
    os.utime(old, (NOW - 60 * 86400, NOW - 60 * 86400))  # beyond what the 5-minute tier keeps
    assert files_to_import(tmp_path / "logs", NOW) == files
    assert files_to_import(files[-1], NOW) == files  # a dated file: its folder is the source
    assert source_key_path(files[-1]) == tmp_path / "logs"
    plain = tmp_path / "train.log"
    plain.write_text("x\n")
    assert files_to_import(plain, NOW) == [plain] and source_key_path(plain) == plain


def test_import_counts_every_pass_once_and_leaves_gaps_between_launches(tmp_path: Path) -> None:
    files, passes, spans = dated_logs(tmp_path / "logs")
    source = SourceKey("box", str(tmp_path / "logs"), "miner")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        stop = threading.Event()
        done = import_logs(files, history, source, clock=Clock(NOW), stop=stop)
        assert history.flush(60)
        assert done.files_done == 3 and done.done
        chart = history.chart(source, "7d")
        assert chart["totals"]["passes"] == passes  # the generator's own count, one per activation id
        assert chart["totals"]["since"] == pytest.approx(spans[0][0], abs=60)
        tph = {int(t): v for t, v in chart["series"]["tokens_per_hour"]}
        # Measured while each launch trained; nothing (null, not zero) between launches.
        mid = int(spans[0][0] + 3600)
        assert tph[mid - mid % 900] is not None and tph[mid - mid % 900] > 0
        gap = int(spans[0][1] + 6 * 3600)
        assert tph[gap - gap % 900] is None
        # Read again (a restart): every file is skipped or counts nothing new.
        import_logs(files, history, source, clock=Clock(NOW), stop=stop)
        with files[-1].open("a") as f:
            f.write("\n")  # the current log grew: it is read again, harmlessly
        import_logs(files, history, source, clock=Clock(NOW), stop=stop)
        assert history.flush(60)
        assert history.chart(source, "7d")["totals"]["passes"] == passes
    finally:
        history.stop()


def test_a_stopped_import_stops_at_once(tmp_path: Path) -> None:
    files, _, _ = dated_logs(tmp_path / "logs")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    stop = threading.Event()
    stop.set()
    done = import_logs(files, history, SourceKey("box", "x", "miner"), clock=Clock(NOW), stop=stop)
    assert done.files_done == 0
    history.stop()


def test_a_day_rotated_mid_bucket_loses_no_pass_even_after_pruning(tmp_path: Path) -> None:
    # One miner running across the daily rotation, three days ago: the 5-min bucket around the
    # rotation is written from two files, in two batches, on a history that has pruned already.
    folder = tmp_path / "logs"
    folder.mkdir()
    synth = IotaSynth(seed=9, start=NOW - 3 * 86400 - 7 * 3600 + 17, fetcher=False, epoch_seconds=None,
                      requeue_seconds=None)
    files = []
    for i, hours in enumerate((5.0, 3.0)):
        path = folder / f"2026-11-{17 + i:02d}-cli.log"
        path.write_text(synth.text(hours * 3600 + 101), encoding="utf-8")
        os.utime(path, (synth.t, synth.t))
        files.append(path)
    source = SourceKey("box", str(folder), "miner")
    clock = Ticking(NOW)  # time passes while importing: retention would prune between batches
    history = History(tmp_path / "data", clock=clock)
    history.start()
    try:
        from app.store import Observation, Sample

        assert history.submit(Observation(source, samples=(Sample(int(NOW) - int(NOW) % 30, None),)))
        assert history.flush(20)  # the first write prunes: anything older than 48 h is "pruned"
        import_logs(files, history, source, clock=clock, stop=threading.Event())
        assert history.flush(60)
        assert history.chart(source, "7d")["totals"]["passes"] == synth.truth.passes
    finally:
        history.stop()
