"""The live pipeline tells the tracker when the file changes under it, and says what it read."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.live.monitor import Monitor
from app.snapshot import Snapshot
from tests.cli.test_cli import training_log
from tests.conftest import LogWriter, iota_line

DATA = Path(__file__).resolve().parents[1] / "data"


def wait_for(monitor: Monitor, check: Callable[[Snapshot], bool], what: str, timeout: float = 20.0) -> Snapshot:
    deadline = time.monotonic() + timeout
    while True:
        snap = monitor.snapshot()
        if check(snap):
            return snap
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}: {snap.status_line} {snap.details}")
        time.sleep(0.05)


def test_folder_mode_switch_to_a_newer_log_drops_the_old_logs_facts(tmp_path: Path) -> None:
    # The old launch's log trained in layer 2 78 days ago (epoch 49, GPU 3.00 GB); the new
    # launch's log starts and joins the queue at #77.
    now = time.time()
    old = tmp_path / "2026-07-04-cli.log"
    start = now - 78 * 86400
    lines = training_log(start, 30, layer=2)
    lines.append(iota_line(start + 1790, "DEBUG", "subnet.model.utils:log_gpu_memory_usage:354",
                           "GPU memory usage: 3.00GB / 3.86GB -- starting training forward pass"))
    old.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(old, (start + 1800, start + 1800))
    monitor = Monitor(tmp_path)
    monitor.start()
    try:
        before = wait_for(monitor, lambda s: s.layer == 2, "the old log")
        assert "Epoch 48 · training" in before.details and before.state == "silent"
        new = tmp_path / "2026-09-20-cli.log"
        writer = LogWriter(new)
        writer.write([
            iota_line(now - 20, "INFO", "miner.new_miner:run_miner:1723", "🚀 Starting miner 🚀"),
            *writer.queued(77, t=now - 10),
        ])
        snap = wait_for(monitor, lambda s: s.status_line == "Queue #77", "the switch")
        assert snap.source.path == str(new)
        assert snap.run is None and snap.gpu_memory is None and snap.step is None
        assert not any(word in line for line in snap.details for word in ("Epoch", "GPU", "Run", "Step"))
        assert ("source_changed", "now following 2026-09-20-cli.log") in [(e.kind, e.text) for e in snap.events]
    finally:
        monitor.stop()


def test_a_forced_format_that_matches_nothing_counts_what_it_read() -> None:
    lines = (DATA / "sample-nanochat.log").read_text(encoding="utf-8").splitlines()
    monitor = Monitor(None, format_name="iota")
    monitor.lines(lines)
    snap = monitor.snapshot()
    assert (snap.state, snap.status_line) == ("unrecognised", "log format not recognised")
    assert snap.source.problem == (f"{len(lines)} lines read, none looks like an IOTA miner log; "
                                   "without --format, tokwatch tries every format")  # the next step


def test_unrecognised_lines_under_auto_say_how_many() -> None:
    monitor = Monitor(None)
    monitor.lines(["hello", "world", "not a training log"])
    snap = monitor.snapshot()
    assert snap.source.problem == "3 lines read, none in a format tokwatch reads"
    assert Monitor(None).snapshot().status_line == "waiting for log"


def test_a_queued_miners_backlog_reads_the_queue_history_further_back() -> None:
    # Ninety minutes of polls (every 75 s, a reset at the start) then 80 more minutes of polls:
    # the usual cold start stops at 80 minutes, but a queue's resets over 24 h are evidence.
    now = time.time()
    writer = LogWriter(Path("/dev/null"))
    lines: list[str] = []
    t = now - 3 * 3600
    positions = [100, 40, 1500] + [1500 - 10 * i for i in range(1, 140)]
    for i, position in enumerate(positions):
        lines.extend(writer.queued(position, t=t + 75 * i))
    # Every other fact a cold start looks for is in the last hour: it would stop at 80 minutes.
    lines[-40:-40] = [
        iota_line(now - 3000, "DEBUG", "miner.training.training:forward:191", "Got activation shape: torch.Size([4, 800, 32])"),
        iota_line(now - 3000, "SUCCESS", "miner.training.training:backward:461", "✅ Optimization step #3 | hotkey=5HmQx7Rc"),
        iota_line(now - 3000, "DEBUG", "subnet.common_api_client:orchestrator_request:84",
                  "Successfully completed request to /miner/heartbeat?expected_phase=training; response: "
                  "{'run_id': '4.12.16.5-tah', 'layer': 1, 'epoch': 48, 'phase': 'training'}"),
    ]
    monitor = Monitor(None, format_name="iota")
    from tests.live.test_monitor import chunks_newest_first

    monitor.backlog(iter(chunks_newest_first(lines, 20)))
    snap = monitor.snapshot(t + 75 * (len(positions) - 1))
    assert snap.queue is not None and snap.queue.resets_24h == 1
    assert snap.queue.last_reset_at == pytest.approx(t + 150, abs=0.001)


def test_a_truncated_log_shows_its_facts_with_their_age_until_said_again() -> None:
    now = time.time()
    lines = training_log(now - 1800, 20, layer=2)  # heartbeats say epoch 48, last about 10 min ago
    monitor = Monitor(None, format_name="iota", clock=lambda: now)
    monitor.lines(lines)
    assert monitor.snapshot(now).run is not None
    monitor.restarted("truncated")
    snap = monitor.snapshot(now)
    assert snap.run is None
    assert any(line.startswith("Epoch 48 · training · ") and line.endswith(" min ago") for line in snap.details)
    assert ("source_changed", "log truncated") in [(e.kind, e.text) for e in snap.events]
