"""The history wired in: a real server keeps and serves it, a restart leaves no hole, and the
snapshot carries "vs your usual" and "today"."""

from __future__ import annotations

import gzip
import json
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from app.config import Config
from app.live.monitor import Monitor
from app.record.recorder import Recorder, today_line, usual_line
from app.serve.process import Dashboard
from app.snapshot import TodayView, training_dict
from app.store import History
from tests.conftest import LogWriter

TOKEN = "history-test-token"


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def write_training(writer: LogWriter, start: float, end: float, *, layer: int = 1, register: bool = True) -> None:
    """A miner registered at ``start`` passing every 15 s until ``end`` (4 × 800 tokens a pass)."""
    lines = writer.registered(layer, start) if register else []
    t = start + 5
    while t <= end:
        lines += writer.forward(layer, t)
        t += 15
    writer.write(lines)


class Running:
    def __init__(self, folder: Path, data: Path, clock: Clock, *, token: str | None = None) -> None:
        self.clock = clock
        config = Config(log_path=folder, port=0, config_dir=data.parent / "config", token=token, data_dir=data)
        self.monitor = Monitor(folder, clock=clock)
        self.recorder = Recorder(History(data, clock=clock), folder, clock=clock, observe_seconds=0.1)
        self.dashboard = Dashboard(config, self.monitor, recorder=self.recorder)
        self.config = self.dashboard.start()
        self.url = f"http://127.0.0.1:{self.config.port}"

    def get(self, path: str, token: str | None = None) -> tuple[int, str, str]:
        request = urllib.request.Request(self.url + path)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.headers.get("Content-Type", ""), response.read().decode()
        except urllib.error.HTTPError as e:
            with e:  # its answer's socket closed now, not whenever the garbage collector runs
                return e.code, e.headers.get("Content-Type", ""), e.read().decode()

    def settle(self, token: str | None = None) -> None:
        """Until the import is done and everything queued is written."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            status = self.recorder.status()
            if status["mode"] == "writing" and status["importing"] is None and self.monitor.changes.version > 0:
                break
            time.sleep(0.05)
        time.sleep(0.3)  # a few observations
        assert self.recorder.history.flush(20)

    def stop(self) -> None:
        self.dashboard.stop()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "IOTA Train at Home"
    path.mkdir()
    return path


def dated(folder: Path, t: float) -> LogWriter:
    return LogWriter(folder / (time.strftime("%Y-%m-%d", time.localtime(t)) + "-cli.log"))


def points(chart: dict, name: str) -> dict[int, float | None]:
    return {int(t): v for t, v in chart["series"][name]}


def test_the_api_serves_the_imported_and_live_history(tmp_path: Path, folder: Path) -> None:
    now = time.time()
    yesterday = dated(folder, now - 86400)
    write_training(yesterday, now - 86400 - 3 * 3600, now - 86400 - 3600)  # an older launch, a dated sibling
    today = dated(folder, now)
    today.passes = yesterday.passes  # activation ids go on (the writer numbers them)
    write_training(today, now - 2 * 3600, now)
    running = Running(folder, tmp_path / "data", Clock(now), token=TOKEN)
    try:
        running.settle()
        assert running.get("/api/history?range=24h")[0] == 401  # the same token rules as /api/snapshot
        assert running.get("/api/history.csv?range=24h")[0] == 401
        status, kind, body = running.get("/api/history?range=24h", TOKEN)
        assert status == 200 and kind.startswith("application/json")
        chart = json.loads(body)
        assert chart["bucket_seconds"] == 300 and len(chart["series"]["tokens_per_hour"]) == 288
        # Two launches: 4 passes a minute × 3200 tokens = 768k tok/h while training, gaps around.
        inside_new = int(now - 3600)
        assert points(chart, "tokens_per_hour")[inside_new - inside_new % 300] == pytest.approx(768_000, rel=0.02)
        week = json.loads(running.get("/api/history?range=7d", TOKEN)[2])
        tph = points(week, "tokens_per_hour")
        inside_old = int(now - 86400 - 2 * 3600)
        assert tph[inside_old - inside_old % 900] == pytest.approx(768_000, rel=0.02)
        between = int(now - 12 * 3600)
        assert tph[between - between % 900] is None
        # The timeline's events of both launches: the older one's from the import.
        registered = [e for e in week["events"] if e["kind"] == "registered"]
        assert [round(e["at"]) for e in registered] == [round(now - 86400 - 3 * 3600), round(now - 2 * 3600)]
        assert chart["totals"]["passes"] == today.passes == 2 * 480
        assert any(e["kind"] == "restart" for e in chart["events"])
        assert chart["source"]["kind"] == "miner" and chart["status"]["mode"] == "writing"
        status, kind, body = running.get("/api/history.csv?range=1h", TOKEN)
        assert status == 200 and kind.startswith("text/csv")
        rows = body.strip().splitlines()
        assert rows[0].startswith("time_utc,unix,tokens_per_hour,") and len(rows) == 121
        assert running.get("/api/history?range=2h", TOKEN)[0] == 400
        health = json.loads(running.get("/healthz")[2])
        assert health["history"]["mode"] == "writing" and health["history"]["problem"] is None
    finally:
        running.stop()


def test_a_restart_leaves_no_hole_and_is_marked(tmp_path: Path, folder: Path) -> None:
    end = time.time()
    first_stop = end - 30 * 60
    writer = dated(folder, end)
    write_training(writer, end - 3 * 3600, first_stop)
    running = Running(folder, tmp_path / "data", Clock(first_stop))
    running.settle()
    running.stop()
    # tokwatch is off for 30 minutes; the miner goes on writing.
    write_training(writer, first_stop + 15, end, register=False)
    running = Running(folder, tmp_path / "data", Clock(end))
    try:
        running.settle()
        chart = json.loads(running.get("/api/history?range=1h")[2])
        tph = points(chart, "tokens_per_hour")
        holes = [t for t, v in tph.items() if v is None and t <= end - 60]
        assert holes == []
        restarts = [e["at"] for e in chart["events"] if e["kind"] == "restart"]
        assert restarts == [pytest.approx(first_stop), pytest.approx(end)]
        assert chart["totals"]["passes"] == writer.passes
        deadline = time.monotonic() + 10
        snap = running.dashboard.feed.snapshot()
        while (snap.today is None or snap.today.passes == 0) and time.monotonic() < deadline:
            time.sleep(0.1)  # figures are recomputed at most once a second while writes go on
            snap = running.dashboard.feed.snapshot()
        assert snap.today is not None and snap.today.passes > 0
    finally:
        running.stop()


def test_usual_and_today_reach_the_snapshot_and_its_details(tmp_path: Path, folder: Path) -> None:
    now = time.time()
    writer = dated(folder, now)
    write_training(writer, now - 5 * 3600, now)
    running = Running(folder, tmp_path / "data", Clock(now))
    try:
        running.settle()
        deadline = time.monotonic() + 10
        snap = running.dashboard.feed.snapshot()
        while snap.usual is None and time.monotonic() < deadline:  # figures are recomputed at most once a second
            time.sleep(0.1)
            snap = running.dashboard.feed.snapshot()
        assert snap.usual is not None and snap.usual.basis_hours >= 3
        assert snap.usual.tokens_per_hour == pytest.approx(768_000, rel=0.02)
        assert snap.usual.delta_percent is not None and abs(snap.usual.delta_percent) < 3
        assert any(line.startswith("vs your usual on L1: ") for line in snap.details)
        assert snap.today is not None and snap.today.observed_seconds > 0
        assert any(line.startswith("today: ") for line in snap.details)
        # Twenty minutes without a line: the log is silent, its rate 0; "vs your usual: −100 %" would
        # say nothing of the miner's pace, so the line gives the usual figure alone.
        running.clock.now = now + 20 * 60
        deadline = time.monotonic() + 10
        snap = running.dashboard.feed.snapshot()
        while "usual 768k on L1" not in snap.details and time.monotonic() < deadline:
            time.sleep(0.1)
            snap = running.dashboard.feed.snapshot()
        assert snap.state in ("silent", "idle"), snap.state
        assert "usual 768k on L1" in snap.details
        assert snap.usual is not None and snap.usual.delta_percent is None  # no current rate: null, not −100
        assert not any(line.startswith("vs your usual") for line in snap.details)
    finally:
        running.stop()


def test_lines_read_as_a_person_would() -> None:
    assert usual_line(1, -18.4) == "vs your usual on L1: \u221218 %"
    assert usual_line(2, 4.6) == "vs your usual on L2: +5 %"
    assert usual_line(2, 0.2) == "vs your usual on L2: ±0 %"
    today = TodayView(tokens=8_123_456, passes=2530, training_seconds=0.87 * 3600, observed_seconds=3600.0)
    assert today_line(today, "miner") == "today: 8.1M tokens · 2,530 passes · training 87 % of the time"
    # A silent or idle miner has no pace to compare: the usual figure alone.
    assert usual_line(1, None, 772_000.0) == "usual 772k on L1"
    # Nothing today (a queued miner): no line at all.
    assert today_line(TodayView(tokens=0, passes=0, training_seconds=0.0, observed_seconds=7200.0), "miner") is None
    # Passes but no training time yet (measuring), or too little time to share: no share.
    measuring = TodayView(tokens=90_000, passes=12, training_seconds=0.0, observed_seconds=3600.0)
    assert today_line(measuring, "miner") == "today: 90k tokens · 12 passes"
    early = TodayView(tokens=90_000, passes=12, training_seconds=100.0, observed_seconds=120.0)
    assert today_line(early, "miner") == "today: 90k tokens · 12 passes"


def test_no_history_keeps_nothing(tmp_path: Path, folder: Path) -> None:
    now = time.time()
    write_training(dated(folder, now), now - 3600, now)
    config = Config(log_path=folder, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(folder)
    recorder = Recorder(History(None), folder)
    dashboard = Dashboard(config, monitor, recorder=recorder)
    started = dashboard.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{started.port}/api/history?range=1h", timeout=10) as r:
            chart = json.loads(r.read())
        assert chart["status"]["mode"] == "off"
        assert all(v is None for _, v in chart["series"]["tokens_per_hour"])
        snap = dashboard.feed.snapshot()
        assert snap.usual is None and snap.today is None
    finally:
        dashboard.stop()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["IOTA Train at Home"]



def test_a_full_history_is_a_visible_problem_and_the_live_view_goes_on(tmp_path: Path, folder: Path) -> None:
    now = time.time()
    write_training(dated(folder, now), now - 2 * 3600, now)
    clock = Clock(now)
    config = Config(log_path=folder, port=0, config_dir=tmp_path / "config", data_dir=tmp_path / "data")
    monitor = Monitor(folder, clock=clock)
    history = History(tmp_path / "data", clock=clock, max_file_bytes=80 << 10)  # room for the schema and little else
    recorder = Recorder(history, folder, clock=clock, observe_seconds=0.1)
    dashboard = Dashboard(config, monitor, recorder=recorder)
    started = dashboard.start()
    try:
        deadline = time.monotonic() + 30
        while recorder.status()["problem"] is None and time.monotonic() < deadline:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{started.port}"
        with urllib.request.urlopen(base + "/healthz", timeout=10) as r:
            health = json.loads(r.read())
        assert "writes stopped" in health["history"]["problem"]
        with urllib.request.urlopen(base + "/api/snapshot", timeout=10) as r:
            snap = json.loads(r.read())
        assert snap["status_line"] == "L1 · 768k tok/h"
        assert any("writes stopped" in line and "live view goes on" in line for line in snap["details"])
    finally:
        dashboard.stop()


def test_a_step_trainer_keeps_its_steps_loss_and_rate(tmp_path: Path) -> None:
    from app.ingest.backwards import read_backwards

    log = tmp_path / "train.log"
    log.write_bytes((Path(__file__).parents[1] / "data" / "sample-nanogpt.log").read_bytes())
    clock = Clock(time.time())
    monitor = Monitor(log, clock=clock)
    monitor.backlog(read_backwards(log))
    recorder = Recorder(History(tmp_path / "data", clock=clock), log, clock=clock, observe_seconds=3600)
    recorder.start(monitor)
    try:
        assert recorder.observe()
        assert recorder.history.flush(20)
        snap = monitor.snapshot()
        assert snap.training is not None
        chart = json.loads(recorder.chart_json("1h"))
        assert chart["source"]["kind"] == "steps" and "passes" not in chart["series"]
        steps = chart["steps"]
        assert steps is not None and steps["stage"] == training_dict(snap.training)["stage"]
        assert steps["loss"] == [[training_dict(snap.training)["step"], training_dict(snap.training)["loss"]]]
        # Every 30-s point of the snapshot's hour is kept as it was shown.
        kept = points(chart, "tokens_per_hour")
        shown = [(int(t), v) for t, v in snap.history if v is not None and int(t) in kept]
        assert shown and all(kept[t] == pytest.approx(v) for t, v in shown)
    finally:
        recorder.stop()
        monitor.stop()


def test_a_relaunch_onto_a_new_dated_log_is_marked_and_continues_the_history(tmp_path: Path, folder: Path) -> None:
    now = time.time()
    first = dated(folder, now - 3600)
    write_training(first, now - 3600, now - 60)
    running = Running(folder, tmp_path / "data", Clock(now))
    try:
        running.settle()
        later = LogWriter(folder / "9999-12-31-cli.log")  # the app's next launch: a newer dated file
        later.passes = first.passes
        write_training(later, now - 45, now)
        deadline = time.monotonic() + 20
        events: list[dict] = []
        while time.monotonic() < deadline:
            chart = json.loads(running.get("/api/history?range=1h")[2])
            events = [e for e in chart["events"] if e["kind"] == "log_switched"]
            if events:
                break
            time.sleep(0.1)
        assert events and events[0]["text"] == "now reading 9999-12-31-cli.log"
        assert running.recorder.history.flush(20)
        deadline = time.monotonic() + 20
        while running.recorder.history.chart(running.recorder.source, "1h")["totals"]["passes"] < later.passes:
            assert time.monotonic() < deadline, "the new log's passes never reached the history"
            time.sleep(0.1)
    finally:
        running.stop()


def test_every_range_button_of_the_page_round_trips_through_the_api(tmp_path: Path, folder: Path) -> None:
    # The page asks /api/history?range=<the button's data-range> and titles the chart by the
    # answer's "range": each button must name a range the API serves, with its documented grid,
    # and a value stored at a known time must come back in the bucket that holds that time.
    import re

    template = (Path(__file__).resolve().parents[2] / "templates" / "index.html").read_text(encoding="utf-8")
    buttons = re.findall(r'data-range="([^"]+)"', template)
    assert buttons == ["1h", "6h", "24h", "7d", "30d"]
    grid = {"1h": (30, 120), "6h": (30, 720), "24h": (300, 288), "7d": (900, 672), "30d": (3600, 720)}
    now = time.time()
    write_training(dated(folder, now), now - 2 * 3600, now)
    running = Running(folder, tmp_path / "data", Clock(now))
    try:
        running.settle()
        for name in buttons:
            status, _, body = running.get(f"/api/history?range={name}")
            assert status == 200, name
            chart = json.loads(body)
            bucket, count = grid[name]
            assert (chart["range"], chart["bucket_seconds"]) == (name, bucket)
            assert len(chart["series"]["tokens_per_hour"]) == count
            assert chart["to"] - chart["from"] == (count - 1) * bucket
            inside = int(now - 1800)
            assert points(chart, "tokens_per_hour")[inside - inside % bucket] == pytest.approx(768_000, rel=0.02), name
    finally:
        running.stop()


def test_a_weeks_history_goes_gzipped_and_a_reload_of_it_unchanged_is_a_304(tmp_path: Path, folder: Path) -> None:
    now = time.time()
    for day in range(7, -1, -1):  # a pass every 2 min for a week, one dated file a day
        start = max(now - 7 * 86400, now - day * 86400 - 86400 + 60)
        write_training(dated(folder, now - day * 86400), start, now - day * 86400, register=day == 7)
    running = Running(folder, tmp_path / "data", Clock(now))
    try:
        running.settle()
        plain = urllib.request.Request(running.url + "/api/history?range=7d")
        with urllib.request.urlopen(plain, timeout=10) as r:
            whole = r.read()
        zipped = urllib.request.Request(running.url + "/api/history?range=7d", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(zipped, timeout=10) as r:
            assert r.headers["Content-Encoding"] == "gzip" and r.headers["Vary"] == "Accept-Encoding"
            body, etag = r.read(), r.headers["ETag"]
        assert gzip.decompress(body) == whole and len(body) <= 60_000 and len(body) < len(whole) // 3
        again = urllib.request.Request(running.url + "/api/history?range=7d",
                                       headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
        with pytest.raises(urllib.error.HTTPError) as reload:
            urllib.request.urlopen(again, timeout=10)
        assert reload.value.code == 304 and reload.value.read() == b""
        reload.value.close()
    finally:
        running.stop()
