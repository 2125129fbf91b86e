"""Whether the work lands: forwards not delivered, peers answering, retries — on composed logs.

``tests/data/iota-undelivered.log`` (its header works out every figure: 4 of 12 forwards not
delivered in 10 min = 33 %, peers 5/9 ok, 2 retries to submit_activation) and its clean twin
``iota-delivered.log``; the scenario tests use an explicit clock.
"""

from __future__ import annotations

import calendar
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.alerts.rules import Undelivered
from app.hub.fleet import machine_card
from app.hub.report import SNAPSHOT
from app.hub.store import MachineRow
from app.ingest.formats.iota import IotaParser
from app.prometheus import SnapshotCollector, exposition, registry_for
from app.snapshot import SourceView, to_dict
from app.stats.events import ForwardUndelivered, GpuMemory, PeerStatus, QueueUpdate, RequestRetry
from app.stats.iota.report import queue_report
from app.stats.iota.tracker import IotaTracker

# Times are worked out in UTC: this process reads local time as UTC (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("utc_zone")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SOURCE = SourceView(path="/x.log", size_bytes=1, lines_read=1, bad_lines=0, last_event_at=None)
AT_1030 = float(calendar.timegm((2026, 9, 30, 10, 30, 0, 0, 0, 0)))


def utc(year: int, month: int, day: int, hour: int, minute: int, second: int) -> float:
    return float(calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)))


def tracker_of(name: str) -> IotaTracker:
    tracker = IotaTracker()
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    tracker.apply_all(IotaParser(to_epoch=utc).feed(lines))
    return tracker


def once_lines(name: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "once", "--log", str(DATA / name), "--at", "2026-09-30 10:30:00"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=False, env={**os.environ, "TZ": "UTC"},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_dropped_forwards_read_as_a_warning_with_their_share_and_peers() -> None:
    snap = tracker_of("iota-undelivered.log").snapshot(AT_1030, SOURCE)
    assert (snap.state, snap.status_line, snap.level) == ("training", "L2 · 230k tok/h", "warning")
    delivery = snap.delivery
    assert delivery is not None
    assert (delivery.failed, delivery.unreachable, delivery.forwards) == (3, 1, 12)
    assert delivery.share_not_delivered == pytest.approx(4 / 12)
    assert (delivery.peers_ok, delivery.peers_total, delivery.level) == (5, 9, "warning")
    assert delivery.peers_named == ("…Yp2MnE", "…Vc8PqD", "…Ab7TzK")  # newest first
    assert delivery.text == "training, but 33 % of forwards were not delivered in 10 min"
    assert snap.details[-3:] == (
        "training, but 33 % of forwards were not delivered in 10 min",
        "Forwards: 4 of 12 not delivered in 10 min (33 %) · peers 5/9 ok · to …Yp2MnE, …Vc8PqD, …Ab7TzK",
        "2 retries to submit_activation in 10 min",
    )
    finding = Undelivered().observe(snap, AT_1030)
    assert finding is not None and finding.text == delivery.text
    report = queue_report(snap, None, None, AT_1030)
    assert "not delivered" not in report  # not a miner's report without a queue: the tracker's below
    report = queue_report(snap, tracker_of("iota-undelivered.log").queue, None, AT_1030)
    assert ("Forwards: 4 of 12 not delivered in 10 min (33 %) · peers 5/9 ok · to …Yp2MnE, …Vc8PqD, …Ab7TzK"
            " — training, but 33 % of forwards were not delivered in 10 min") in report.splitlines()


def test_a_clean_log_shows_none_of_it() -> None:
    snap = tracker_of("iota-delivered.log").snapshot(AT_1030, SOURCE)
    assert (snap.state, snap.status_line, snap.level, snap.delivery) == ("training", "L2 · 230k tok/h", "ok", None)
    assert not any("Forwards" in line or "retr" in line for line in snap.details)
    assert Undelivered().observe(snap, AT_1030) is None
    assert b"tokwatch_forwards" not in exposition(registry_for(SnapshotCollector(lambda: [({}, snap)]), process=False))
    assert "Forwards" not in queue_report(snap, tracker_of("iota-delivered.log").queue, None, AT_1030)


def test_once_says_it_in_words() -> None:
    lines = once_lines("iota-undelivered.log")
    assert "  training, but 33 % of forwards were not delivered in 10 min" in lines
    assert lines[-1].startswith("  State: training (warning)")
    assert once_lines("iota-delivered.log")[-1].startswith("  State: training (ok)")


def test_the_metrics_carry_the_counts_and_the_share() -> None:
    snap = tracker_of("iota-undelivered.log").snapshot(AT_1030, SOURCE)
    text = exposition(registry_for(SnapshotCollector(lambda: [({}, snap)]), process=False)).decode()
    assert "tokwatch_forwards_undelivered 4.0" in text
    assert "tokwatch_forwards_undelivered_ratio 0.333" in text
    assert "tokwatch_peers_ok 5.0" in text and "tokwatch_peers 9.0" in text


def test_the_fleet_card_carries_the_mark_from_the_report() -> None:
    snap = tracker_of("iota-undelivered.log").snapshot(AT_1030, SOURCE)
    reported = SNAPSHOT(to_dict(snap), "snapshot")  # what the hub keeps of the report: checked fields only
    assert reported["delivery"]["text"] == "training, but 33 % of forwards were not delivered in 10 min"
    row = MachineRow(name="m1", enrolled_at=AT_1030, received_at=AT_1030, interval_seconds=15.0, snapshot=reported)
    card = machine_card(row, AT_1030)
    assert card["level"] == "warning"
    assert card["mark_text"] == "training, but 33 % of forwards were not delivered in 10 min"


def test_no_alarm_while_queued_and_a_level_never_better_than_the_state() -> None:
    t = 1_760_000_000.0
    tracker = IotaTracker()
    tracker.apply(QueueUpdate(t, "queued", 40, "q"))
    for i in range(20):
        tracker.apply(ForwardUndelivered(t + i, "failed", "abc"))
    tracker.apply(PeerStatus(t + 30, 0, 9))
    snap = tracker.snapshot(t + 40, SOURCE)
    assert snap.state == "queued" and snap.level == "waiting"
    assert snap.delivery is not None and snap.delivery.level == "ok" and snap.delivery.text is None
    assert Undelivered().observe(snap, t + 40) is None


def test_red_at_fifteen_drops_and_an_old_peer_status_says_nothing_of_now() -> None:
    tracker = tracker_of("iota-delivered.log")
    t = AT_1030 - 60
    for i in range(15):
        tracker.apply(ForwardUndelivered(t + i, "unreachable", None))
    snap = tracker.snapshot(AT_1030, SOURCE)
    assert snap.delivery is not None and snap.delivery.level == "problem" and snap.level == "problem"
    tracker = tracker_of("iota-delivered.log")
    tracker.apply(PeerStatus(AT_1030 - 700, 1, 9))  # older than the 10 minutes
    snap = tracker.snapshot(AT_1030, SOURCE)
    assert snap.delivery is not None and snap.delivery.peers_ok is None and snap.delivery.level == "ok"


def test_retries_are_counted_per_endpoint() -> None:
    tracker = tracker_of("iota-delivered.log")
    for i, endpoint in enumerate(["/miner/submit_activation", "/miner/submit_activation", "/miner/heartbeat"]):
        tracker.apply(RequestRetry(AT_1030 - 30 + i, endpoint))
    lines = tracker.snapshot(AT_1030, SOURCE).details
    assert lines[-1] == "2 retries to submit_activation, 1 retry to heartbeat in 10 min"


def test_retries_out_of_the_window_are_forgotten_while_only_gpu_lines_come() -> None:
    # 32 endpoints (the most kept) retried once each, then eleven minutes of GPU readings only (no
    # line adds to a window): the ten-minute window forgets them, so a new endpoint is counted.
    tracker = tracker_of("iota-delivered.log")
    start = AT_1030 + 60
    for i in range(32):
        tracker.apply(RequestRetry(start, f"/miner/endpoint_{i}"))
    for minute in range(1, 12):
        tracker.apply(GpuMemory(start + 60 * minute, 10.0, 24.0))
    tracker.apply(RequestRetry(start + 700, "/miner/heartbeat"))
    lines = tracker.snapshot(start + 700, SOURCE).details
    assert lines[-1] == "1 retry to heartbeat in 10 min"
