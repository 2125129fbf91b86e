"""The queue chart is the log's: one point per logged poll, the reset visible, a gap where polls stopped.

COMPOSED, NOT REAL: a TAH 3.7.0 worker's queue polls (templates of research/iota-log-format.md
§2.6: the status answer, then about 12 s later the 503 queue_state warning), one every 75 s,
with the issue's reset #360 → #1500 under the same queue id, then 20 minutes without a line,
then polls again. Every answer is worked out from the series below, not read from the code.
"""

from __future__ import annotations

import math
import os
import threading
import time
from pathlib import Path

from app.ingest.formats import create_parser
from app.record.backfill import import_logs
from app.snapshot import SourceView
from app.stats.iota.tracker import IotaTracker
from app.store import History, Observation, SourceKey

NOW = time.mktime((2026, 11, 20, 18, 0, 0, 0, 0, -1))
START = int(NOW) - 3600 + 7  # 17:00:07, local time as the log writes it
QID = "4462ebfc-5f91-4ef0-9cfb-ac6e7687a66e"
# (seconds after START, position): 75 s apart, the reset at the 8th poll, then a 20-minute silence.
FIRST = [600, 520, 440, 360, 1500, 1420, 1340, 1260]
AFTER = [1180, 1100, 1020]
SILENCE_AT = 75 * len(FIRST) + 20 * 60  # the next poll after the silence
POLLS = [(75 * i, p) for i, p in enumerate(FIRST)] + [(SILENCE_AT + 75 * i, p) for i, p in enumerate(AFTER)]


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def stamp(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at)) + ".000"


def lines() -> list[str]:
    out = []
    for offset, position in POLLS:
        at = START + offset
        t = stamp(at)
        body = f"{{'queue_id': '{QID}', 'status': 'queued', 'position': {position}, 'poll_after': 60}}"[:100]
        out.append(f"[{t}] [info]  {t} | DEBUG    | subnet.common_api_client:orchestrator_request:84 - "
                   f"Successfully completed request; response: {body}")
        w = stamp(at + 12)
        out.append(f"[{w}] [info]  {w} | WARNING  | miner.utils.node_control_mixin:register_set_queue_state:221 - "
                   "register_set_queue_state exhausted retries (3): POST /register/queue_state failed 503: "
                   '{"detail":"unsupported: No handler for register.queue_state"}')
    return out


def expected_points() -> list[tuple[int, int | None]]:
    """Each poll at the 30-s sample that follows it; a null where the polls stopped for 20 min."""
    points: list[tuple[int, int | None]] = []
    for i, (offset, position) in enumerate(POLLS):
        at = START + offset
        t = math.ceil(at / 30) * 30
        if i == len(FIRST):  # the first poll after the silence: the line breaks before it
            points.append((points[-1][0] + 30, None))
        points.append((t, position))
    return points


def write_log(tmp_path: Path) -> Path:
    log = tmp_path / "queued-cli.log"
    log.write_text("\n".join(lines()) + "\n", encoding="utf-8")
    last = START + POLLS[-1][0] + 12
    os.utime(log, (last, last))
    return log


def queue_chart(history: History, source: SourceKey) -> list[tuple[int, int | None]]:
    chart = history.chart(source, "1h", NOW)
    return [(int(t), v) for t, v in chart["queue"]]


def test_an_imported_queue_charts_each_poll_with_its_reset_and_a_gap(tmp_path: Path) -> None:
    log = write_log(tmp_path)
    source = SourceKey("box", str(log), "miner")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        import_logs([log], history, source, clock=Clock(NOW), stop=threading.Event())
        assert history.flush(60)
        points = queue_chart(history, source)
        assert points == expected_points()
        # The reset is there: #360 then #1500 at the next poll, 75 s on.
        positions = [v for _, v in points]
        assert positions[3:5] == [360, 1500]
    finally:
        history.stop()


def test_the_start_up_fill_landing_first_does_not_flatten_the_imported_backlog(tmp_path: Path) -> None:
    # The monitor reads the log's last hour at start and the recorder writes it at once; the
    # import of the same log may land after it (a loaded machine). Whichever lands first, the
    # chart holds the logged polls: the fill knows only the newest one.
    log = write_log(tmp_path)
    source = SourceKey("box", str(log), "miner")
    parser = create_parser("iota")
    tracker = IotaTracker()
    for event in parser.feed(log.read_text(encoding="utf-8").splitlines()):
        tracker.apply(event, NOW)
    view = SourceView(path=str(log), size_bytes=1, lines_read=len(lines()), bad_lines=0, last_event_at=tracker.clock)
    snap = tracker.snapshot(NOW, view)
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        assert history.submit(Observation(source, snapshot=snap), wait_seconds=10)
        assert history.flush(60)
        # The fill alone: only the newest poll is a position (the old code drew #1020 flat over the hour).
        assert [p for p in queue_chart(history, source) if p[1] is not None] == [expected_points()[-1]]
        import_logs([log], history, source, clock=Clock(NOW), stop=threading.Event())
        assert history.flush(60)
        assert queue_chart(history, source) == expected_points()
    finally:
        history.stop()


def test_rates_written_after_the_last_pass_are_no_rate_once_the_miner_is_known_idle(tmp_path: Path) -> None:
    # The live view wrote 750k at 17:50:00 and 17:50:30 (its window still held passes); the last
    # pass was 17:49:45, and by 17:55 the miner is known idle since then: those points were no rate.
    from app.store.records import Sample

    source = SourceKey("box", "/logs/m.log", "miner")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        last_pass = NOW - 615.0
        written = tuple(Sample(int(t), 750_000.0, "training", 1, 3200) for t in (NOW - 660, NOW - 630, NOW - 600, NOW - 570))
        assert history.submit(Observation(source, samples=written))
        assert history.flush(30)
        assert history.submit(Observation(source, no_rate_after=last_pass))
        assert history.flush(30)
        rates = {int(t): v for t, v in history.chart(source, "1h", NOW)["series"]["tokens_per_hour"] if v is not None}
        assert rates == {int(NOW - 660): 750_000.0, int(NOW - 630): 750_000.0}  # before the last pass: kept
    finally:
        history.stop()
