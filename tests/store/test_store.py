"""The history store on an explicit clock: rollups, gaps, idempotency, usual/today, and file safety."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.store import History, Observation, PassFact, Sample, SourceKey
from app.store.files import FILE_NAME
from app.store.records import EvalPoint, EventRow, StepPoint, samples_from
from app.store.schema import VERSION
from tests.snapshots import snapshot

SRC = SourceKey("box", "/logs/iota", "miner")
# 2026-11-20 12:00:00 local time: every figure below is counted from here by hand.
T0 = int(time.mktime((2026, 11, 20, 12, 0, 0, 0, 0, -1)))
T0 -= T0 % 3600  # an hour boundary in UTC too (whole-hour zones keep it on the hour)


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def miner(start: int, end: int, *, tph: float | None = 360_000.0, layer: int = 1, tpp: int = 2048,
          state: str = "training", pass_every: int = 15, tag: str = "a") -> Observation:
    """Samples every 30 s in [start, end) and a pass every ``pass_every`` s, ids named by time."""
    samples = tuple(Sample(t, tph, state, layer, tpp) for t in range(start, end, 30))
    passes = tuple(PassFact(t + 1.0, f"{tag}-{t}", tpp) for t in range(start, end, pass_every)) if pass_every else ()
    return Observation(SRC, samples=samples, passes=passes)


@pytest.fixture
def clock() -> Clock:
    return Clock(T0 + 3600)


@pytest.fixture
def history(tmp_path: Path, clock: Clock):
    h = History(tmp_path / "data", clock=clock)
    h.start()
    yield h
    h.stop()


def put(h: History, *batches: Observation) -> None:
    for obs in batches:
        assert h.submit(obs)
    assert h.flush(20)


def series(chart: dict, name: str) -> dict[int, float | None]:
    return {int(t): v for t, v in chart["series"][name]}


def test_rollup_keeps_min_max_mean_and_count(history: History, clock: Clock) -> None:
    # Ten samples in the 12:00 bucket: 100k, 200k, … 1M → mean 550k; a pass every 15 s → 20 passes.
    samples = tuple(Sample(T0 + 30 * i, 100_000.0 * (i + 1), "training", 1, 2048) for i in range(10))
    passes = tuple(PassFact(T0 + 15 * i + 1, f"p{i}", 2048) for i in range(20))
    put(history, Observation(SRC, samples=samples, passes=passes))
    chart = history.chart(SRC, "24h")
    assert chart["bucket_seconds"] == 300
    assert series(chart, "tokens_per_hour")[T0] == pytest.approx(550_000)
    assert series(chart, "tokens_per_hour_min")[T0] == 100_000
    assert series(chart, "tokens_per_hour_max")[T0] == 1_000_000
    assert series(chart, "passes")[T0] == 20
    hourly = history.chart(SRC, "30d")
    hour = T0 - T0 % 3600
    assert series(hourly, "tokens_per_hour")[hour] == pytest.approx(550_000)
    assert series(hourly, "passes")[hour] == 20
    assert chart["totals"]["passes"] == 20 and chart["totals"]["tokens"] == 20 * 2048
    assert chart["totals"]["since"] == T0


def test_gaps_stay_gaps_never_zeros(history: History, clock: Clock) -> None:
    put(history, miner(T0, T0 + 600), miner(T0 + 1200, T0 + 1800))
    # A sample that exists but is not measured (warm-up) is null too, and not training.
    put(history, Observation(SRC, samples=(Sample(T0 + 1800, None, "measuring", 1, 2048),)))
    clock.now = T0 + 1830
    raw = history.chart(SRC, "1h")
    tph, passes = series(raw, "tokens_per_hour"), series(raw, "passes")
    assert tph[T0 + 570] == 360_000 and tph[T0 + 1200] == 360_000
    for t in range(T0 + 600, T0 + 1200, 30):
        assert tph[t] is None and passes[t] is None, t
    assert tph[T0 + 1800] is None and series(raw, "training_fraction")[T0 + 1800] == 0.0
    assert passes[T0 + 600 - 30] == 2
    five = history.chart(SRC, "24h")
    assert series(five, "tokens_per_hour")[T0 + 600] is None
    assert series(five, "passes")[T0 + 900] is None
    assert series(five, "passes")[T0 + 300] == 20
    assert all(v is None for t, v in series(five, "tokens_per_hour").items() if t < T0)


def test_reading_the_same_log_again_counts_nothing_twice(history: History, clock: Clock) -> None:
    batch = miner(T0, T0 + 1800)
    put(history, batch, batch, miner(T0 + 900, T0 + 1800))  # a restart re-reads the last 15 min
    figures = history.read(lambda conn: conn.execute("SELECT count(*) FROM pass").fetchone()[0])
    assert figures == 120
    assert history.chart(SRC, "24h")["totals"]["passes"] == 120
    assert series(history.chart(SRC, "24h"), "passes")[T0 + 900] == 20


def test_a_log_copied_back_after_its_raw_rows_are_gone_counts_nothing_twice(tmp_path: Path) -> None:
    clock = Clock(T0 + 3600)
    h = History(tmp_path / "d", clock=clock)
    h.start()
    put(h, miner(T0, T0 + 3600))
    clock.now = T0 + 4 * 86400  # raw rows are kept 48 h; the writer prunes on its next write
    put(h, miner(T0 + 4 * 86400 - 600, T0 + 4 * 86400, tag="b"))
    raw_left = h.read(lambda c: c.execute("SELECT count(*) FROM pass WHERE t < ?", (T0 + 3600,)).fetchone()[0])
    assert raw_left == 0
    put(h, miner(T0, T0 + 150))  # a copy of the old log cut short, half-way through a 5-min bucket
    assert series(h.chart(SRC, "7d"), "passes")[T0] == 60  # the 15-min bucket: three of 20
    put(h, miner(T0, T0 + 3600))  # the whole old log comes back
    week = h.chart(SRC, "7d")
    assert series(week, "passes")[T0] == 60
    assert week["totals"]["passes"] == 240 + 40
    h.stop()


def test_first_import_of_old_days_fills_the_rollups(history: History, clock: Clock) -> None:
    # Three days ago, never seen: taken, rolled up, then raw rows dropped by retention.
    clock.now = T0 + 3 * 86400
    put(history, miner(T0, T0 + 3600))
    week = history.chart(SRC, "7d")
    assert series(week, "tokens_per_hour")[T0 + 900] == 360_000
    assert history.chart(SRC, "30d")["totals"]["passes"] == 240


V1_SCHEMA = """
CREATE TABLE source (id INTEGER PRIMARY KEY, machine TEXT NOT NULL, key TEXT NOT NULL, kind TEXT NOT NULL,
    first_at REAL, UNIQUE (machine, key));
CREATE TABLE sample (source_id INTEGER NOT NULL, t INTEGER NOT NULL, tokens_per_hour REAL, state TEXT,
    layer INTEGER, tokens_per_pass INTEGER, queue_position INTEGER, step INTEGER,
    PRIMARY KEY (source_id, t)) WITHOUT ROWID;
CREATE TABLE pass (source_id INTEGER NOT NULL, activation_id TEXT NOT NULL, t REAL NOT NULL, tokens INTEGER,
    PRIMARY KEY (source_id, activation_id)) WITHOUT ROWID;
CREATE INDEX pass_by_time ON pass (source_id, t);
CREATE TABLE rollup (source_id INTEGER NOT NULL, span INTEGER NOT NULL, t INTEGER NOT NULL,
    samples INTEGER NOT NULL, measured INTEGER NOT NULL, training INTEGER NOT NULL, tph_min REAL,
    tph_max REAL, tph_sum REAL, passes INTEGER NOT NULL, tokens REAL NOT NULL, layer INTEGER,
    tokens_per_pass INTEGER, queue_min INTEGER, queue_max INTEGER, step_max INTEGER,
    PRIMARY KEY (source_id, span, t)) WITHOUT ROWID;
CREATE TABLE event (source_id INTEGER NOT NULL, at REAL NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (source_id, at, kind)) WITHOUT ROWID;
CREATE TABLE imported (path TEXT PRIMARY KEY, size_bytes INTEGER NOT NULL, head TEXT NOT NULL);
PRAGMA user_version = 1;
"""


def test_a_version_1_file_is_migrated_with_its_data(tmp_path: Path, clock: Clock) -> None:
    data = tmp_path / "d"
    data.mkdir()
    conn = sqlite3.connect(data / FILE_NAME)
    conn.executescript(V1_SCHEMA)
    conn.execute("INSERT INTO source VALUES (1, 'box', '/logs/iota', 'miner', ?)", (T0,))
    conn.execute("INSERT INTO sample VALUES (1, ?, 123456.0, 'training', 1, 2048, NULL, NULL)", (T0 + 60,))
    conn.commit()
    conn.close()
    h = History(data, clock=clock)
    h.start()
    assert h.flush(20)
    assert h.status().mode == "writing"
    assert h.read(lambda c: c.execute("PRAGMA user_version").fetchone()[0]) == VERSION
    assert series(h.chart(SRC, "1h"), "tokens_per_hour")[T0 + 60] == 123456.0
    steps = Observation(SourceKey("box", "/logs/nano", "steps"), snapshot=snapshot(
        "training", T0 + 100, training={"stage": "base", "step": 5, "loss": 3.25}))
    put(h, steps)
    assert h.read(lambda c: c.execute("SELECT step, loss FROM step").fetchall()) == [(5, 3.25)]
    h.stop()


def test_a_file_from_a_newer_tokwatch_is_left_alone(tmp_path: Path, clock: Clock) -> None:
    data = tmp_path / "d"
    data.mkdir()
    conn = sqlite3.connect(data / FILE_NAME)
    conn.execute("PRAGMA user_version = 99")
    conn.execute("CREATE TABLE future (x)")
    conn.commit()
    conn.close()
    before = (data / FILE_NAME).read_bytes()
    h = History(data, clock=clock)
    h.start()
    h.flush(20)
    status = h.status()
    assert status.mode == "off" and status.problem is not None and "schema version 99" in status.problem
    assert not h.submit(miner(T0, T0 + 60)) or h.flush(5)
    h.stop()
    assert (data / FILE_NAME).read_bytes() == before


def test_a_corrupt_file_is_moved_aside_and_a_fresh_one_started(tmp_path: Path, clock: Clock) -> None:
    data = tmp_path / "d"
    data.mkdir()
    garbage = b"this is not a database\n" * 400
    (data / FILE_NAME).write_bytes(garbage)
    h = History(data, clock=clock)
    h.start()
    put(h, miner(T0, T0 + 600))
    status = h.status()
    assert status.mode == "writing" and status.problem is None
    assert status.notice is not None and "moved aside to history.sqlite3.corrupt-" in status.notice
    aside = [p for p in data.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == garbage
    assert series(h.chart(SRC, "1h"), "passes")[T0 + 30] == 2
    h.stop()


def test_a_file_broken_while_running_is_moved_aside(tmp_path: Path, clock: Clock) -> None:
    data = tmp_path / "d"
    h = History(data, clock=clock)
    h.start()
    put(h, miner(T0, T0 + 600))
    other = sqlite3.connect(data / FILE_NAME)
    other.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page now lives in the main file
    other.close()
    # Scribble over every page after the first, as a failing disk or a stray write would.
    with (data / FILE_NAME).open("r+b") as f:
        f.seek(4096)
        f.write(b"\xff" * 200_000)
    for i in range(5):
        put(h, miner(T0 + 600 + 300 * i, T0 + 900 + 300 * i, tag=f"x{i}"))
        if h.status().notice:
            break
    status = h.status()
    assert status.mode == "writing" and status.problem is None
    assert status.notice is not None and "moved aside" in status.notice
    put(h, miner(T0 + 2400, T0 + 2700, tag="after"))
    assert series(h.chart(SRC, "1h"), "passes")[T0 + 2400] == 2
    h.stop()


WRITER = """
import sys, time
from pathlib import Path
from app.store import History, Observation, Sample, SourceKey
h = History(Path(sys.argv[1]), clock=lambda: {now})
h.start()
h.submit(Observation(SourceKey("box", "/logs/iota", "miner"), samples=(Sample({t}, 250000.0, "training", 1, 2048),)))
h.flush(20)
print(h.status().mode, flush=True)
sys.stdin.read()
h.stop()
"""


def test_a_second_tokwatch_on_the_same_data_dir_only_reads(tmp_path: Path, clock: Clock) -> None:
    data = tmp_path / "d"
    code = WRITER.format(now=clock.now, t=T0 + 120)
    proc = subprocess.Popen([sys.executable, "-c", code, str(data)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
        h = History(data, clock=clock)
        h.start()
        status = h.status()
        assert status.mode == "read_only" and status.holder_pid == proc.pid
        assert status.notice is not None and f"pid {proc.pid}" in status.notice
        assert not h.submit(miner(T0, T0 + 600))
        assert series(h.chart(SRC, "1h"), "tokens_per_hour")[T0 + 120] == 250_000
        h.stop()
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(20)
        if proc.stdout is not None:
            proc.stdout.close()
    check = sqlite3.connect(data / FILE_NAME)
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert check.execute("SELECT count(*) FROM sample").fetchone()[0] == 1
    check.close()


def test_the_file_bound_stops_writes_with_a_problem_and_reads_go_on(tmp_path: Path, clock: Clock) -> None:
    h = History(tmp_path / "d", clock=clock, max_file_bytes=160 << 10)
    h.start()
    put(h, miner(T0, T0 + 300))
    for i in range(200):
        h.submit(miner(T0, T0 + 3600, pass_every=1, tag=f"flood{i}"))
        h.flush(20)
        if h.status().problem:
            break
    problem = h.status().problem
    assert problem is not None and "writes stopped" in problem and "bound" in problem
    assert series(h.chart(SRC, "1h"), "tokens_per_hour")[T0 + 30] == 360_000  # reads go on
    assert h.submit(miner(T0, T0 + 60, tag="later"))  # never raises, never blocks
    assert h.flush(20)
    h.stop()


def _mount_tiny_disk(where: Path) -> bool:
    image = where.parent / "disk.img"
    try:
        subprocess.run(["dd", "if=/dev/zero", f"of={image}", "bs=1M", "count=2"], check=True, capture_output=True)
        subprocess.run(["mkfs.ext4", "-q", str(image)], check=True, capture_output=True)
        where.mkdir()
        subprocess.run(["mount", "-o", "loop", str(image), str(where)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


def test_a_full_disk_stops_writes_with_a_problem(tmp_path: Path, clock: Clock) -> None:
    disk = tmp_path / "disk"
    if not _mount_tiny_disk(disk):
        pytest.skip("needs root and loop devices to mount a 2 MiB file system")
    try:
        h = History(disk / "tokwatch", clock=clock)
        h.start()
        for i in range(400):
            h.submit(miner(T0, T0 + 3600, pass_every=1, tag=f"flood{i}"))
            h.flush(20)
            if h.status().problem:
                break
        problem = h.status().problem
        assert problem is not None and "disk full" in problem and "writes stopped" in problem
        assert h.chart(SRC, "1h")["series"]["tokens_per_hour"]
        h.stop()
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_usual_is_the_median_on_this_layer_over_a_week(history: History, clock: Clock) -> None:
    now = T0 + 5 * 86400
    clock.now = now
    # Four days ago: 2 h at 300k (rolled up by the time it is read), on layer 1.
    put(history, miner(T0 + 86400, T0 + 86400 + 7200, tph=300_000.0))
    # Today: 1 h at 360k, 30 min at 400k; and what must not count: layer 2, another batch, idle.
    put(history, miner(now - 7200, now - 3600, tph=360_000.0), miner(now - 3600, now - 1800, tph=400_000.0),
        miner(now - 1800, now - 1200, tph=900_000.0, layer=2, tag="l2"),
        miner(now - 1200, now - 900, tph=900_000.0, tpp=4096, tag="b"),
        miner(now - 900, now, tph=50_000.0, state="idle", tag="i"))
    usual, _ = history.figures(SRC, 1, 2048)
    assert usual is not None
    assert usual.basis_hours == pytest.approx(3.5)
    # 240 samples at 300k, 120 at 360k, 60 at 400k: the 210th of 420 is 300k.
    assert usual.tokens_per_hour == 300_000
    assert history.figures(SRC, 2, 2048)[0] is None  # 10 min of basis is not enough


def test_usual_needs_three_hours(history: History, clock: Clock) -> None:
    put(history, miner(T0, T0 + 3600))
    clock.now = T0 + 3600
    assert history.figures(SRC, 1, 2048)[0] is None


def test_today_counts_from_local_midnight(tmp_path: Path) -> None:
    midnight = int(time.mktime((2026, 11, 21, 0, 0, 0, 0, 0, -1)))
    clock = Clock(midnight + 3600)
    h = History(tmp_path / "d", clock=clock)
    h.start()
    put(h, miner(midnight - 3600, midnight + 1800), miner(midnight + 1800, midnight + 3600, tph=None,
                                                            state="measuring", pass_every=0))
    _, today = h.figures(SRC, 1, 2048)
    assert today == {"tokens": 120 * 2048, "passes": 120, "training_seconds": 1800.0, "observed_seconds": 3600.0}
    h.stop()


def test_step_trainer_points_and_evaluations(history: History, clock: Clock) -> None:
    nano = SourceKey("box", "/runs/nanochat.log", "steps")
    for step, loss in ((100, 4.0), (200, 3.5), (300, 3.25)):
        snap = snapshot("training", T0 + step, history=[(T0 + step, 4.6e8)], step=step,
                        source={"last_event_at": T0 + step},
                        training={"stage": "base", "step": step, "loss": loss, "tokens_per_hour": 4.6e8,
                                  "steps_per_hour": 3600.0, "eval": {"val_bpb": {"value": 0.91, "step": 250}}})
        put(history, Observation(nano, snapshot=snap))
    chart = history.chart(nano, "1h")
    assert chart["steps"]["loss"] == [[100, 4.0], [200, 3.5], [300, 3.25]]
    assert chart["steps"]["evals"] == {"val_bpb": [[250, 0.91]]}
    assert "passes" not in chart["series"]
    assert series(chart, "step")[T0 + 300] == 300


@pytest.mark.parametrize(("points", "drawn"), [
    # 1,500 points: every one. 3,001: every 3rd (3 = ceil(3001 / 1500)), the last among them.
    # 3,002: every 3rd and the last, 1,001 + 1.
    (1500, list(range(1500))), (3001, list(range(0, 3001, 3))), (3002, [*range(0, 3002, 3), 3001]),
])
def test_a_step_trainers_rate_points_are_every_kth_and_the_last(
        history: History, clock: Clock, points: int, drawn: list[int]) -> None:
    run = SourceKey("box", "/runs/long.log", "steps")
    # Step i at T0 + 60 + i / 2 (the hour drawn begins at T0 + 30); steps are 10 apart; the rate is the step's.
    rows = tuple(StepPoint("train", 10 * i, T0 + 60 + i / 2, None, 1e6 + i, None if i % 2 else 7.0) for i in range(points))
    evals = (EvalPoint("train", "val", 40, T0 + 80, 0.5), EvalPoint("train", "acc", 20, T0 + 70, None),
             EvalPoint("train", "val", 10, T0 + 65, 0.75), EvalPoint("train", "old", 0, T0 - 7200, 1.0),
             EvalPoint("warmup", "val", 0, T0 + 60, 9.0))
    put(history, Observation(run, steps=rows, evals=evals))
    steps = history.chart(run, "1h")["steps"]
    assert steps["tokens_per_hour"] == [[10 * i, 1e6 + i] for i in drawn]
    assert steps["steps_per_hour"] == [[10 * i, None if i % 2 else 7.0] for i in drawn]
    # Each name's evaluations in the range by step, the names in order; one only before the range is not drawn.
    assert list(steps["evals"].items()) == [("acc", [[20, None]]), ("val", [[10, 0.75], [40, 0.5]])]


def test_events_are_kept_once_and_a_repeat_count_updates_in_place(history: History) -> None:
    first = EventRow(T0 + 105, "error", "backend 503")
    put(history, Observation(SRC, events=(first, EventRow(T0 + 101, "registered", "registered on L1"))))
    put(history, Observation(SRC, events=(EventRow(T0 + 105, "error", "backend 503 (×3)"),)))
    events = history.chart(SRC, "1h")["events"]
    assert events == [{"at": T0 + 101, "kind": "registered", "text": "registered on L1"},
                      {"at": T0 + 105, "kind": "error", "text": "backend 503 (×3)"}]


def test_snapshot_points_get_the_state_only_where_it_is_known() -> None:
    snap = snapshot("training", T0 + 90, since=T0 + 45, layer=3, rate={"tokens_per_pass": 512}, step=7,
                    history=[(T0, 1.0), (T0 + 30, 2.0), (T0 + 60, None), (T0 + 90, 4.0)])
    rows = samples_from(snap, since=T0)
    assert [(s.t, s.tokens_per_hour, s.state, s.layer) for s in rows] == [
        (T0 + 30, 2.0, None, None), (T0 + 60, None, "training", 3), (T0 + 90, 4.0, "training", 3)]
    # A queue position only at the sample that follows its poll: silence is not a position.
    queued = snapshot("queued", T0 + 60, history=[(T0, 1.0), (T0 + 30, None), (T0 + 60, None)],
                      queue={"position": 12, "last_poll_at": T0 + 14})
    assert [s.queue_position for s in samples_from(queued, None)] == [None, 12, None]


def test_no_data_dir_keeps_nothing(tmp_path: Path, clock: Clock) -> None:
    h = History(None, clock=clock)
    h.start()
    assert h.status().mode == "off"
    assert not h.submit(miner(T0, T0 + 60))
    chart = h.chart(SRC, "6h")
    assert len(chart["series"]["tokens_per_hour"]) == 720
    assert all(v is None for _, v in chart["series"]["tokens_per_hour"])
    assert h.figures(SRC, 1, 2048) == (None, None)
    h.stop()
    assert list(tmp_path.iterdir()) == []


def test_unknown_range_is_refused(history: History) -> None:
    from app.store import UnknownRange

    with pytest.raises(UnknownRange):
        history.chart(SRC, "2h")
