"""The history store's figures: first-start import of a week of rotated logs, /api/history on that
week, the cost of one 30-s write, the file's size per week and per year, and the server's RSS.

A week of Train-at-Home logs (7 dated ``<YYYY-MM-DD>-cli.log`` files, DEBUG-heavy like the other
figures) is written once and shared by the figures; the server is ``run.py`` as a user runs it,
first start on an empty data dir.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness import Server
from bench.report import Figure, median, percentile
from bench.synth import IotaSynth

DAYS = 7
SINGLE_FILE_NOISE = 0.1  # one long file's import may be this much slower per byte (a shared machine's noise)
GOAL_WIRE_BYTES = 60_000  # the 7-day range gzipped, headers included


@dataclass
class _Week:
    folder: Path
    data_dir: Path
    bytes: int
    passes: int
    import_seconds: float
    snapshot_ms_during_import: list[float]
    server: Server
    start: float


_week: dict[Path, _Week] = {}


def _write_week(folder: Path, quick: bool) -> tuple[int, int, float]:
    """Seven days of logs, one dated file a day (the app's daily rotation), ending now."""
    folder.mkdir(parents=True, exist_ok=True)
    start = time.time() - DAYS * 86400
    synth = IotaSynth(seed=12, start=start, fetcher=not quick)
    total = 0
    for day in range(DAYS):
        day_start = synth.t
        path = folder / (time.strftime("%Y-%m-%d", time.localtime(day_start)) + "-cli.log")
        with path.open("w", encoding="utf-8", newline="\n") as f:
            for _ in range(24):
                f.write(synth.text(3600.0))
            total += f.tell()
        os.utime(path, (synth.t, synth.t))
    return total, synth.truth.passes, start


def _get(url: str, timeout: float = 10.0) -> tuple[float, bytes]:
    t0 = time.perf_counter()
    with urllib.request.urlopen(url, timeout=timeout) as response:
        body = response.read()
    return (time.perf_counter() - t0) * 1000, body


def _get_gzip(url: str, timeout: float = 10.0) -> tuple[float, int, int]:
    """As a browser asks (gzip taken): milliseconds, the body's bytes on the wire, the headers' bytes."""
    t0 = time.perf_counter()
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        body = response.read()
        if response.headers.get("Content-Encoding") != "gzip":
            raise RuntimeError(f"{url} was not gzipped for a client that takes it")
        headers = len(str(response.headers).encode())
    return (time.perf_counter() - t0) * 1000, len(body), headers


def _week_of(workdir: Path, quick: bool) -> _Week:
    if workdir in _week:
        return _week[workdir]
    folder = workdir / "history" / "IOTA Train at Home"
    data_dir = workdir / "history" / "data"
    size, passes, start = _write_week(folder, quick)
    server = Server(folder, "--data-dir", str(data_dir)).start()
    seconds, latencies = _imported(server)
    week = _Week(folder, data_dir, size, passes, seconds, latencies, server, start)
    _week[workdir] = week
    return week


def _imported(server: Server) -> tuple[float, list[float]]:
    """Wait until the server has imported its logs; the seconds it took, /api/snapshot's times meanwhile."""
    base = f"http://127.0.0.1:{server.http_port}"
    t0 = time.perf_counter()
    latencies: list[float] = []
    while True:
        ms, _ = _get(f"{base}/api/snapshot")
        latencies.append(ms)
        _, body = _get(f"{base}/healthz")
        history = json.loads(body).get("history") or {}
        if history.get("mode") == "writing" and history.get("importing") is None and time.perf_counter() - t0 > 1:
            break
        if time.perf_counter() - t0 > 900:
            raise RuntimeError("import did not finish within 15 min")
        time.sleep(0.2)
    return time.perf_counter() - t0, latencies


def _single_file_seconds(workdir: Path, week: _Week) -> tuple[float, int | None]:
    """The week's seven files as one long log (a miner that never rotates), imported by a fresh server."""
    folder = workdir / "history-single"
    folder.mkdir(exist_ok=True)
    single = folder / "miner.log"
    try:
        with single.open("wb") as out:
            for path in sorted(week.folder.glob("*-cli.log")):
                with path.open("rb") as f:
                    shutil.copyfileobj(f, out, 1 << 20)
        server = Server(single, "--data-dir", str(folder / "data")).start()
        try:
            seconds, _ = _imported(server)
            chart = json.loads(_get(f"http://127.0.0.1:{server.http_port}/api/history?range=7d")[1])
            return seconds, (chart.get("totals") or {}).get("passes")
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _parse_only_seconds(folder: Path) -> float:
    """The reference: the same files through the parser and tracker alone, no snapshots, no store."""
    from app.ingest.formats import create_parser
    from app.record.backfill import files_to_import, read_lines
    from app.stats.kinds import tracker_for

    t0 = time.perf_counter()
    for path in files_to_import(folder, time.time()):
        parser, tracker = create_parser("iota"), tracker_for("miner", "iota")
        for lines in read_lines(path, threading.Event()):
            tracker.apply_all(parser.feed(lines), time.time())
    return time.perf_counter() - t0


def measure_import(workdir: Path, *, quick: bool) -> Figure:
    week = _week_of(workdir, quick)
    reference = _parse_only_seconds(week.folder)
    p95 = percentile(week.snapshot_ms_during_import, 95)
    chart = json.loads(_get(f"http://127.0.0.1:{week.server.http_port}/api/history?range=7d")[1])
    counted = (chart.get("totals") or {}).get("passes")
    single_seconds, single_counted = _single_file_seconds(workdir, week)
    mib = week.bytes / 2**20
    per_byte = week.import_seconds / single_seconds  # > 1: the single file is faster per byte
    return Figure(
        key="history_import",
        title="7 first-start import, 7 days",
        value=week.import_seconds,
        unit="s",
        reference="parser + tracker alone",
        reference_value=reference,
        ratio=week.import_seconds / reference if reference else None,
        ratio_label="x",
        goal="<= 60 s for the week; /api/snapshot p95 <= 100 ms meanwhile; one long file as fast per byte",
        met=(week.import_seconds <= 60 and p95 <= 100 and counted == week.passes
             and per_byte >= 1 - SINGLE_FILE_NOISE and single_counted == week.passes),
        note=(
            f"{mib:.0f} MiB in 7 dated files ({mib / week.import_seconds:.0f} MiB/s "
            f"in the running server); /api/snapshot while importing p50 {median(week.snapshot_ms_during_import):.1f} ms,"
            f" p95 {p95:.1f} ms; passes stored {counted} of {week.passes} written; the same bytes as one file: "
            f"{single_seconds:.1f} s ({mib / single_seconds:.0f} MiB/s, {per_byte:.2f}x the week's rate), "
            f"passes stored {single_counted}"
        ),
        details={"bytes": week.bytes, "passes_written": week.passes, "passes_stored": counted,
                 "snapshot_ms_p95": p95, "requests_during_import": len(week.snapshot_ms_during_import),
                 "single_file_seconds": single_seconds, "single_file_passes_stored": single_counted,
                 "single_file_rate_vs_week": per_byte},
    )


def measure_api(workdir: Path, *, quick: bool) -> Figure:
    week = _week_of(workdir, quick)
    base = f"http://127.0.0.1:{week.server.http_port}"
    runs = 60 if quick else 200
    history_ms: list[float] = []
    gzip_ms: list[float] = []
    snapshot_ms: list[float] = []
    size = wire = 0
    for _ in range(runs):  # interleaved, so a neighbour's burst hits both
        ms, body = _get(f"{base}/api/history?range=7d")
        history_ms.append(ms)
        size = len(body)
        ms, zipped, headers = _get_gzip(f"{base}/api/history?range=7d")
        gzip_ms.append(ms)
        wire = zipped + headers
        snapshot_ms.append(_get(f"{base}/api/snapshot")[0])
    p95, ref = percentile(history_ms, 95), percentile(snapshot_ms, 95)
    uncached = _uncached_ms(week, source_of(json.loads(_get(f"{base}/api/history?range=7d")[1])), runs // 3)
    return Figure(
        key="history_api",
        title="8 /api/history?range=7d p95",
        value=p95,
        unit="ms",
        reference="/api/snapshot p95",
        reference_value=ref,
        ratio=p95 / ref if ref else None,
        ratio_label="x",
        goal="p95 <= 50 ms on a week of data, also when computed afresh",
        met=p95 <= 50 and percentile(uncached, 95) <= 50 and percentile(gzip_ms, 95) <= 50 and wire <= GOAL_WIRE_BYTES,
        note=(
            f"{runs} requests each; p50 {median(history_ms):.1f} ms; {size / 1024:.0f} KiB of JSON; "
            f"gzipped as a browser takes it {wire / 1000:.1f} KB on the wire (goal <= {GOAL_WIRE_BYTES // 1000} KB), "
            f"p95 {percentile(gzip_ms, 95):.1f} ms. "
            f"A body is reused until the next write (every 30 s) or bucket: computed afresh (query + JSON, "
            f"in-process on the same file) p50 {median(uncached):.1f} ms, p95 {percentile(uncached, 95):.1f} ms"
        ),
        details={"p50_ms": median(history_ms), "p95_ms": p95, "bytes": size, "uncached_ms": uncached,
                 "gzip_wire_bytes": wire, "gzip_p95_ms": percentile(gzip_ms, 95)},
    )


def source_of(chart: dict[str, Any]) -> tuple[str, str, str]:
    source = chart["source"]
    return source["machine"], source["key"], source["kind"]


def _uncached_ms(week: _Week, source: tuple[str, str, str], runs: int) -> list[float]:
    """The chart computed and serialised afresh each time, on a read-only view of the server's file."""
    from app.record.encode import chart_json
    from app.store import History, SourceKey

    history = History(week.data_dir, write=False)
    history.start()
    key = SourceKey(*source)
    taken: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        chart_json(history.chart_rows(key, "7d"))  # as the recorder does
        taken.append((time.perf_counter() - t0) * 1000)
    history.stop()
    return taken


def _file_bytes(data_dir: Path) -> int:
    return sum(p.stat().st_size for p in data_dir.glob("history.sqlite3*") if not p.name.endswith("-shm"))


def measure_size(workdir: Path, *, quick: bool) -> Figure:
    """Size after the imported week, and after a simulated year written hour by hour (steady state)."""
    from app.store.files import open_checked
    from app.store.records import EventRow, Observation, PassFact, Sample, SourceKey
    from app.store.write import prune, write

    week = _week_of(workdir, quick)
    week_bytes = _file_bytes(week.data_dir)
    path = workdir / "history" / "year" / "history.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    conn, _ = open_checked(path, time.time())
    source = SourceKey("bench", "/logs", "miner")
    days = 120 if quick else 365
    start = int(time.time()) - days * 86400
    start -= start % 3600
    per_week: list[int] = []
    t0 = time.perf_counter()
    for hour in range(days * 24):
        base = start + hour * 3600
        samples = tuple(Sample(base + 30 * i, 358_400.0 + i, "training", 1, 3200) for i in range(120))
        passes = tuple(PassFact(base + 15 * i + 1, f"{hour:06d}-{i:03d}-4f55-afa7-3207237751aa", 3200) for i in range(240))
        events = (EventRow(base + 7, "error", "register_set_queue_state failed 503 (×3)"),)
        write(conn, Observation(source, samples=samples, passes=passes, events=events), base + 3600)
        if hour % 24 == 23:
            prune(conn, base + 3600)
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if (hour + 1) % (24 * 7) == 0:
                per_week.append(path.stat().st_size)
    seconds = time.perf_counter() - t0
    conn.close()
    year_bytes = path.stat().st_size
    return Figure(
        key="history_size",
        title="10 history file, week (year)",
        value=week_bytes / 1e6,
        unit="MB",
        reference=f"after {days} simulated days",
        reference_value=year_bytes / 1e6,
        ratio=year_bytes / week_bytes if week_bytes else None,
        ratio_label="x",
        goal="bounded: <= 10 MB a week, <= 50 MB a year",
        met=week_bytes <= 10e6 and year_bytes <= 50e6,
        note=(
            f"week: the imported logs as the server keeps them ({week.passes:,} passes); "
            f"{days} days of one source written hour by hour in {seconds:.0f} s, size every 4 weeks: "
            + ", ".join(f"{b / 1e6:.1f}" for b in per_week[3::4]) + " MB"
        ),
        details={"week_bytes": week_bytes, "simulated_days": days, "simulated_bytes": year_bytes,
                 "bytes_per_week": per_week},
    )


def measure_write(workdir: Path, *, quick: bool) -> Figure:
    """One live observation (a snapshot's hour of history, two passes, fifty events) into a week-full file."""
    from dataclasses import replace

    from app.snapshot import EventView, SourceView
    from app.stats.unknown import UnknownTracker
    from app.store.files import open_checked
    from app.store.records import Observation, PassFact, SourceKey
    from app.store.write import write

    week = _week_of(workdir, quick)
    copy = workdir / "history" / "write" / "history.sqlite3"
    copy.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{week.data_dir / 'history.sqlite3'}?mode=ro", uri=True)
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    conn, _ = open_checked(copy, time.time())
    key = conn.execute("SELECT machine, key, kind FROM source LIMIT 1").fetchone()
    source = SourceKey(*key)
    now = int(time.time()) + 60
    now -= now % 30
    events = tuple(EventView(at=now - 600 + i, kind="error", text=f"backend 503 ({i})") for i in range(50))
    empty, no_source = UnknownTracker(), SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0,
                                                    last_event_at=None)
    runs = 100 if quick else 300
    write_ms: list[float] = []
    floor_ms: list[float] = []
    conn.execute("CREATE TABLE IF NOT EXISTS bench_floor (t INTEGER PRIMARY KEY, v REAL)")
    for i in range(runs):
        t = now + 30 * i
        snap = replace(empty.snapshot(t, no_source), state="training", layer=1, as_of=t,
                       history=tuple((t - 30 * k, 358_400.0) for k in range(119, -1, -1)),
                       rate=replace(empty.snapshot(t, no_source).rate, tokens_per_pass=3200), events=events)
        obs = Observation(source, snapshot=snap,
                          passes=(PassFact(t - 20, f"w{i}a", 3200), PassFact(t - 5, f"w{i}b", 3200)))
        t0 = time.perf_counter()
        write(conn, obs.expanded(t - 30), t)
        write_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO bench_floor VALUES (?, 1.0)", (t,))
        conn.execute("COMMIT")
        floor_ms.append((time.perf_counter() - t0) * 1000)
    conn.close()
    p95, ref = percentile(write_ms, 95), percentile(floor_ms, 95)
    return Figure(
        key="history_write",
        title="9 one 30-s write p95",
        value=p95,
        unit="ms",
        reference="one-row insert + commit p95",
        reference_value=ref,
        ratio=p95 / ref if ref else None,
        ratio_label="x",
        goal="p95 <= 20 ms (on the writer thread)",
        met=p95 <= 20,
        note=f"{runs} writes into a copy of the week's file; p50 {median(write_ms):.2f} ms",
        details={"p50_ms": median(write_ms), "p95_ms": p95},
    )


RANGE_NAMES = ("1h", "6h", "24h", "7d", "30d")
# A notification URL nothing listens on: alerts on (rules, the service, its worker), nothing delivered.
SILENT_NOTIFY_URL = "json://127.0.0.1:9/"


def _caught_up_rss_mb(server: Server, *, ranges: bool) -> float:
    """The server's RSS once it has read its log (and answered every range): the median of 5 reads 0.2 s apart."""
    base = f"http://127.0.0.1:{server.http_port}"
    deadline = time.time() + 60
    while time.time() < deadline and '"lines_read":0' in _get(f"{base}/api/snapshot")[1].decode():
        time.sleep(0.2)
    if ranges:
        for range_name in RANGE_NAMES:
            _get(f"{base}/api/history?range={range_name}")
    time.sleep(1.5)  # a trim asked for by the last request runs within a second
    reads = []
    for _ in range(5):
        reads.append(server.rss_kb() / 1024)
        time.sleep(0.2)
    return median(reads)


def measure_rss(workdir: Path, *, quick: bool) -> Figure:
    """The server's RSS after the week's import and every range, beside the same server without history.

    Then the same server restarted with alerts on (one notification URL) on the kept history.
    """
    week = _week_of(workdir, quick)
    try:
        rss = _caught_up_rss_mb(week.server, ranges=True)
    finally:
        week.server.stop()
        _week.pop(workdir, None)
    bare = Server(week.folder, "--no-history").start()
    try:
        reference = _caught_up_rss_mb(bare, ranges=False)
    finally:
        bare.stop()
    alerting = Server(week.folder, "--data-dir", str(week.data_dir), "--notify", SILENT_NOTIFY_URL).start()
    try:
        alerts_rss = _caught_up_rss_mb(alerting, ranges=True)
    finally:
        alerting.stop()
    return Figure(
        key="history_rss",
        title="11 RSS after a week, history on",
        value=rss,
        unit="MB",
        reference="same log, --no-history",
        reference_value=reference,
        ratio=rss / reference if reference else None,
        ratio_label="x",
        goal="<= 50 MB with history, and with alerts on",
        met=rss <= 50 and alerts_rss <= 50,
        note=(f"server that imported {week.bytes / 2**20:.0f} MiB of logs and answered every range (median of 5 "
              f"reads); restarted on that history with alerts on (one notification URL): {alerts_rss:.1f} MB"),
        details={"rss_mb": rss, "no_history_rss_mb": reference, "alerts_on_rss_mb": alerts_rss},
    )


def cleanup() -> None:
    """Stop a server left by an interrupted run."""
    for week in list(_week.values()):
        week.server.stop()
    _week.clear()

