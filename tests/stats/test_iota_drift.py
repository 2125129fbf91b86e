"""The drift guard on ``tests/data/iota-wording-drift.log`` (composed; its header says what changes when).

By hand: shapes are learnt over the first 30 min of log time (from 13:00:00); the only records
read for nothing that first appear after 13:30 are the three lines from 14:03:20 on, 5 times each:
3 new shapes, told once, whatever the batches. The heartbeats of both wordings are read.
"""

from __future__ import annotations

import calendar
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.ingest.formats.drift import line_shape
from app.ingest.formats.iota import IotaParser
from app.snapshot import SourceView
from app.stats.events import Heartbeat, LineShapeNew
from app.stats.iota.tracker import IotaTracker

# Times are worked out in UTC: this process reads local time as UTC (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("utc_zone")

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "tests" / "data" / "iota-wording-drift.log"
LINES = LOG.read_text(encoding="utf-8").splitlines()
SHAPES = (
    "INFO | miner.new_miner:peer_gate:N - Peer gate vN admitted … for layer N",
    "INFO | miner.pool.cache:sync:N - Synced cache from /Users/…/Library/Caches/iota/N.bin in N.Ns",
    "WARNING | miner.new_miner:pull:N - Activation pull deferred | id=… retry_in=Ns",
)


def utc(*wall: int) -> float:
    return float(calendar.timegm((*wall, 0, 0, 0)))


@pytest.mark.parametrize("batch", [1, 7, 300, len(LINES)])
def test_new_shapes_are_told_once_whatever_the_batches(batch: int) -> None:
    parser = IotaParser(to_epoch=utc)
    events = []
    for at in range(0, len(LINES), batch):
        events.extend(parser.feed(LINES[at : at + batch]))
    new = [e for e in events if isinstance(e, LineShapeNew)]
    assert tuple(e.shape for e in new) == SHAPES
    assert new[0].at == utc(2026, 9, 30, 14, 3, 20)
    tracker = IotaTracker()
    tracker.apply_all(events)
    snap = tracker.snapshot(utc(2026, 9, 30, 15, 0, 0), SourceView("/x", 1, 1, 0, None))
    assert snap.drift is not None and snap.drift.new_shapes == 3 and snap.drift.shapes == SHAPES
    assert "3 line shapes tokwatch does not read yet (since 14:03)" in snap.details


def test_both_wordings_of_the_success_line_are_read() -> None:
    events = IotaParser(to_epoch=utc).feed(LINES)
    beats = [e for e in events if isinstance(e, Heartbeat)]
    # every 5 min at :45 from 13:00 to 14:55: 13 before 14:02 (the :84 form, no path), 11 after (:89, with the path)
    assert len(beats) == 24
    assert {(b.run_id, b.layer, b.epoch) for b in beats} == {("4.12.16.20-tah", 2, 74)}
    verbatim = ("[2026-09-30 21:01:13.535] [info]  2026-09-30 21:01:13.535 | DEBUG    | subnet.common_api_client:"
                "orchestrator_request:89 - Successfully completed request to /miner/all_layers_training; response: True")
    parser = IotaParser(to_epoch=utc)
    assert [type(e).__name__ for e in parser.feed([verbatim])] == ["Tick"] and parser.bad_lines == 0


def test_a_shape_keeps_no_private_text() -> None:
    shape = line_shape("| INFO | a:b:12 - Miner 5F3sa2TJ at /Users/alice/x.log sent 3f2a9c1e-1b2c-4d5e-8f90-123456789abc "
                       "to 12D3KooWQx9fAb7TzK: 'a private message of some length here'")
    for private in ("5F3sa2TJ", "alice", "3f2a9c1e", "12D3KooW", "private message"):
        assert private not in shape
    assert shape == "INFO | a:b:N - Miner … at /Users/…/x.log sent … to …: '…'"


def test_the_update_and_the_shapes_in_one_line_and_in_copy_report(tmp_path: Path) -> None:
    folder = tmp_path / "IOTA Train at Home"
    folder.mkdir()
    shutil.copy(LOG, folder / "2026-09-30-cli.log")
    (folder / "main.log").write_text(
        "# composed: the app updates itself at 14:02\n"
        "[2026-09-30 12:59:00.000] [info]  App version: 3.7.0\n"
        "[2026-09-30 14:02:00.000] [info]  [AutoUpdater] Update downloaded: 3.8.0\n"
    )
    env = {**os.environ, "TZ": "UTC"}
    run = [sys.executable, str(ROOT / "run.py"), "once", "--log", str(folder), "--at", "2026-09-30 15:00:00"]
    out = subprocess.run(run, capture_output=True, text=True, timeout=60, cwd=ROOT, check=True, env=env).stdout
    assert "  the app updated to 3.8.0 at 14:02; 3 line shapes tokwatch does not read yet" in out.splitlines()
    report = subprocess.run([*run, "--report"], capture_output=True, text=True, timeout=60, cwd=ROOT, check=True,
                            env=env).stdout.splitlines()
    assert "App version: 3.8.0" in report
    assert "Changes: the app updated to 3.8.0 at 14:02; 3 line shapes tokwatch does not read yet" in report
    assert [line.removeprefix("  new line shape: ") for line in report if "new line shape" in line] == list(SHAPES)
