"""The DEMO log: composed, parseable, measured at once, and kept live in real time."""

from __future__ import annotations

import re
import time
from pathlib import Path

from app.demo import COMPOSED_HEADER, PASS_SECONDS, DemoLog, compose, write_demo_log
from app.ingest.backwards import read_backwards
from app.ingest.formats.iota import IotaParser
from app.live.monitor import Monitor

END = 1_790_000_000.0  # a fixed "now"
TIMESTAMP = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\] \[info\]  \1 \| [A-Z]+ +\| \S+:\d+ - ")


def measured(path: Path, now: float) -> Monitor:
    """A demo monitor that has read ``path`` the way a cold start does."""
    monitor = Monitor(path, demo=True, clock=lambda: now)
    monitor.backlog(read_backwards(path))
    return monitor


def test_the_log_is_marked_composed_and_deterministic() -> None:
    lines, _ = compose(END)
    again, _ = compose(END)
    assert lines == again
    assert lines[0] == COMPOSED_HEADER and "COMPOSED" in lines[0]


def test_every_line_is_a_train_at_home_line_or_a_continuation() -> None:
    lines, _ = compose(END)
    parser = IotaParser()
    parser.feed(lines[1:])
    records = [line for line in lines if TIMESTAMP.match(line)]
    assert parser.bad_lines == 0
    assert len(records) > 1500  # 55 minutes of passes, heartbeats, steps…
    shapes = " ".join(lines)
    for needle in (
        "Got activation shape: torch.Size([4, 800, 32])",
        "✅ FORWARD complete | layer=1",
        "🔄 BACKWARD pass | layer=1",
        "✅ Optimization step #",
        "/miner/heartbeat?expected_phase=training",
        "GPU memory usage: ",
        "💾 GPU memory: ",
        "High GPU memory usage detected: ",
        "register.queue_state",
        "'status': 'queued', 'position': 412",
    ):
        assert needle in shapes, needle


def test_activation_ids_are_unique() -> None:
    lines, _ = compose(END)
    ids = re.findall(r"FORWARD complete \| layer=1 activation=(\S+)", "\n".join(lines))
    assert len(ids) == len(set(ids)) > 150


def test_nothing_is_dated_after_now() -> None:
    lines, last_pass = compose(END)
    stamps = [time.mktime(time.strptime(m.group(1)[:19], "%Y-%m-%d %H:%M:%S")) for m in map(TIMESTAMP.match, lines) if m]
    assert max(stamps) <= END
    assert END - last_pass < 2 * PASS_SECONDS


def test_a_new_user_sees_a_measured_rate_at_once(tmp_path: Path) -> None:
    path = write_demo_log(tmp_path / "demo.log", now=END)
    snapshot = measured(path, END).snapshot()
    assert snapshot.source.demo is True
    assert snapshot.state == "training"
    assert re.fullmatch(r"L1 · \d{3}k tok/h", snapshot.status_line)
    assert snapshot.backend_errors.queue_state_503 >= 1
    measured_points = [value for _, value in snapshot.history if value is not None]
    assert len(measured_points) > 60  # most of the hour's sparkline is there


def test_the_writer_appends_passes_in_real_time(tmp_path: Path) -> None:
    clock = [END]
    demo = DemoLog.create(tmp_path, clock=lambda: clock[0])
    before = demo.path.stat().st_size
    assert demo.append_due() == 0
    assert demo.path.stat().st_size == before
    clock[0] += 4 * PASS_SECONDS
    written = demo.append_due()
    assert 3 <= written <= 5
    monitor = measured(demo.path, clock[0])
    assert monitor.snapshot().source.last_event_at is not None
    assert clock[0] - monitor.snapshot().source.last_event_at < 2 * PASS_SECONDS


def test_the_writer_thread_stops_and_removes_its_file(tmp_path: Path) -> None:
    demo = DemoLog.create(tmp_path)
    demo.start()
    started = time.monotonic()
    demo.stop()
    demo.stop()  # twice is fine
    assert time.monotonic() - started < 2
    assert not demo.path.exists()
