"""The history as a demanding user tries it: tokwatch killed (-9) while it imports and writes, two
tokwatch on one data dir, a relaunch onto a new dated log between starts, a disk that fills up and
frees again. Real ``run.py`` processes on real files; every pass counted once, the file never
moved aside."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from app.store import History, Observation, PassFact, Sample, SourceKey
from bench.harness import Server
from bench.synth import IotaSynth
from tests.store.test_store import _mount_tiny_disk


def get(server: Server, path: str) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.http_port}{path}", timeout=10) as r:
        data: dict = json.loads(r.read())
    return data


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class Miner:
    """The Train at Home app: a dated *-cli.log per launch, in its folder, with its shell's main.log."""

    def __init__(self, folder: Path, start: float) -> None:
        self.folder = folder
        folder.mkdir(parents=True)
        self.synth = IotaSynth(seed=11, start=start, epoch_seconds=None, requeue_seconds=None, error_seconds=None)
        self.current: Path | None = None
        (folder / "main.log").write_text("[2026-11-30 08:00:00.000] [info]  Checking for update\n")

    def launch(self, t: float) -> None:
        self.current = self.folder / (time.strftime("%Y-%m-%d_%H%M%S", time.localtime(t)) + "-cli.log")

    def write(self, seconds: float) -> None:
        assert self.current is not None
        with self.current.open("a", encoding="utf-8") as f:
            f.write(self.synth.text(seconds))
        os.utime(self.current, (self.synth.t, self.synth.t))


def settled(server: Server, passes: int, timeout: float = 60) -> dict:
    """The 7-day chart once the import is done and every pass written is kept."""
    deadline = time.monotonic() + timeout
    while True:
        chart = get(server, "/api/history?range=7d")
        status = chart["status"]
        if status["mode"] == "writing" and status["importing"] is None and (chart["totals"] or {}).get("passes") == passes:
            return chart
        if time.monotonic() > deadline:
            pytest.fail(f"passes kept {(chart['totals'] or {}).get('passes')} of {passes}; status {status}")
        time.sleep(0.2)


def test_killed_while_importing_and_writing_then_relaunched_counts_every_pass_once(tmp_path: Path) -> None:
    rng = random.Random(7)
    now = time.time()
    miner = Miner(tmp_path / "IOTA Train at Home", now - 24 * 3600)
    for _ in range(3):  # three launches, six hours apart, four hours of DEBUG-heavy log each (25 MB)
        miner.launch(miner.synth.t)
        miner.write(4 * 3600)
        miner.synth.t += 2 * 3600
    miner.synth.t = min(miner.synth.t, now - 3 * 3600)
    data = tmp_path / "data"
    args = ("--data-dir", str(data))
    killed_children: list[int] = []
    for attempt in range(3):
        server = Server(miner.folder, *args).start()
        if attempt == 0:  # while the import child reads and the writer writes its batches
            deadline = time.monotonic() + 20
            while not [pid for pid in children_of(server.pid) if alive(pid)]:
                assert time.monotonic() < deadline, "no import child was started"
                time.sleep(0.01)
            time.sleep(rng.uniform(0.1, 0.4))
            importer = [pid for pid in children_of(server.pid) if alive(pid)]
            assert importer, "the import ended before it could be interrupted"
            killed_children += importer
        elif attempt == 1:  # after the import, between and during the 30-s writes
            deadline = time.monotonic() + 40
            while get(server, "/healthz")["history"]["importing"] is not None:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(rng.uniform(2.5, 4.5))  # the first observation is written ~3 s after start
        os.kill(server.pid, signal.SIGKILL)
        server.process.wait(10)  # type: ignore[union-attr]
        server.stop()
        # Between starts the miner goes on, and is relaunched onto a new dated log once.
        if attempt == 1:
            miner.launch(miner.synth.t + 60)
        miner.write(20 * 60)
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in killed_children):  # an import child never outlives its server
        assert time.monotonic() < deadline, f"import children left running: {killed_children}"
        time.sleep(0.1)
    server = Server(miner.folder, *args).start()
    try:
        chart = settled(server, miner.synth.truth.passes)
        health = get(server, "/healthz")["history"]
        assert health["problem"] is None
        assert chart["status"]["notice"] is None  # nothing was found broken and moved aside
    finally:
        server.stop()
    assert not list(data.glob("*.corrupt-*"))
    conn = sqlite3.connect(data / "history.sqlite3")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # Each pass once (keyed by its activation id), and the rollups agree with the passes.
        passes, = conn.execute("SELECT count(*) FROM pass").fetchone()
        rolled, = conn.execute("SELECT sum(passes) FROM rollup WHERE span = 86400").fetchone()
    finally:
        conn.close()
    assert rolled == miner.synth.truth.passes
    assert passes <= miner.synth.truth.passes  # raw rows older than 48 h are pruned, never doubled


def test_a_second_tokwatch_only_reads_and_takes_over_when_the_first_stops(tmp_path: Path) -> None:
    now = time.time()
    miner = Miner(tmp_path / "IOTA Train at Home", now - 3 * 3600)
    miner.launch(miner.synth.t)
    miner.write(3 * 3600 - 120)
    data = tmp_path / "data"
    first = Server(miner.folder, "--data-dir", str(data)).start()
    second: Server | None = None
    try:
        settled(first, miner.synth.truth.passes)
        second = Server(miner.folder, "--data-dir", str(data)).start()
        deadline = time.monotonic() + 20
        while get(second, "/healthz")["history"]["mode"] != "read_only":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        snapshot = get(second, "/api/snapshot")
        assert f"history is kept by another tokwatch (pid {first.pid}); this one only reads it" in snapshot["details"]
        assert get(second, "/api/history?range=24h")["totals"]["passes"] == miner.synth.truth.passes
        first.stop()
        miner.write(10 * 60)
        chart = settled(second, miner.synth.truth.passes, timeout=30)  # it writes now
        assert chart["status"]["mode"] == "writing"
        assert not any("kept by another tokwatch" in line for line in get(second, "/api/snapshot")["details"])
    finally:
        first.stop()
        if second is not None:
            second.stop()


def test_a_full_disk_stops_writes_visibly_and_they_resume_once_there_is_room(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    if not _mount_tiny_disk(disk):
        pytest.skip("needs root and loop devices to mount a 2 MiB file system")
    try:
        filler = disk / "filler"
        clock_now = [time.mktime((2026, 11, 20, 12, 0, 0, 0, 0, -1))]
        h = History(disk / "tokwatch", clock=lambda: clock_now[0])
        h.start()
        source = SourceKey("box", "/logs/iota", "miner")
        t0 = int(clock_now[0]) - 7200
        h.submit(Observation(source, samples=(Sample(t0, 360_000.0, "training", 1, 2048),)))
        assert h.flush(20) and h.status().problem is None
        filler.write_bytes(b"\0" * (disk.stat().st_blksize * 8))
        with filler.open("ab") as f:  # the rest of the disk
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError:
                pass
        passes = tuple(PassFact(t0 + i, f"p{i}", 2048) for i in range(3000))
        h.submit(Observation(source, passes=passes))
        assert h.flush(20)
        problem = h.status().problem
        assert problem is not None and "disk full" in problem and "writes stopped" in problem
        filler.unlink()  # the user makes room
        clock_now[0] += 61  # writes are tried again a minute later
        h.submit(Observation(source, samples=(Sample(t0 + 30, 360_000.0, "training", 1, 2048),)))
        assert h.flush(20)
        status = h.status()
        assert status.problem is None and status.notice == "history writes resumed"
        # The passes held back while the disk was full were written with the next batch.
        assert h.chart(source, "6h", clock_now[0])["totals"]["passes"] == 3000
        h.stop()
    finally:
        subprocess.run(["umount", str(disk)], check=False)
