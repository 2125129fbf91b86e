"""run.py and the history: --once reads an existing history and never writes one, --no-history keeps nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from app.record.backfill import import_logs
from app.record.recorder import machine_name
from app.store import History, SourceKey
from bench.harness import Server
from tests.conftest import LogWriter

ROOT = Path(__file__).resolve().parents[2]


def four_hours(folder: Path, now: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    writer = LogWriter(folder / (time.strftime("%Y-%m-%d", time.localtime(now)) + "-cli.log"))
    lines = writer.registered(1, now - 4 * 3600)
    t = now - 4 * 3600 + 5
    while t <= now:
        lines += writer.forward(1, t)
        t += 15
    writer.write(lines)
    return writer.path


def once(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "run.py"), "--once", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=env, check=False)


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()} if folder.exists() else {}


def test_once_without_a_history_creates_none(tmp_path: Path) -> None:
    four_hours(tmp_path / "logs", time.time())
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    result = once("--log", str(tmp_path / "logs"), env=env)
    assert result.returncode == 0, result.stderr
    assert "today:" not in result.stdout and "vs your usual" not in result.stdout
    assert not (tmp_path / "xdg").exists()


def test_once_prints_the_figures_from_the_past_and_writes_nothing(tmp_path: Path) -> None:
    now = time.time()
    log = four_hours(tmp_path / "logs", now)
    data = tmp_path / "data"
    history = History(data)
    history.start()
    source = SourceKey(machine_name(), str((tmp_path / "logs").resolve()), "miner")
    import_logs([log], history, source, clock=time.time, stop=threading.Event())
    assert history.flush(30)
    history.stop()
    before = listing(data)
    result = once("--log", str(tmp_path / "logs"), "--data-dir", str(data), env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "L1 · 768k tok/h"
    assert "  vs your usual on L1: ±0 %" in lines
    assert any(line.startswith("  today: ") and "passes · training" in line for line in lines)
    assert any(line.startswith("  since ") and line.endswith(" passes") for line in lines)
    assert listing(data) == before  # not a byte written, not even a lock or WAL file
    as_json = json.loads(once("--json", "--log", str(log), "--data-dir", str(data), env=dict(os.environ)).stdout)
    assert as_json["usual"]["tokens_per_hour"] == 768_000 and as_json["usual"]["basis_hours"] >= 3
    assert as_json["today"]["passes"] > 0
    assert once("--log", str(log), "--no-history", "--data-dir", str(data), env=dict(os.environ)).returncode == 2


def _serve_and_ask(log: Path, env_home: Path, *args: str) -> dict:
    os.environ["XDG_DATA_HOME"] = str(env_home)  # the child inherits it (conftest restores it)
    server = Server(log, *args).start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.http_port}/healthz", timeout=10) as r:
            health: dict = json.loads(r.read())
    finally:
        server.stop()
    return health


def test_no_history_keeps_nothing_on_disk(tmp_path: Path) -> None:
    log = four_hours(tmp_path / "logs", time.time())
    health = _serve_and_ask(log, tmp_path / "off", "--no-history")
    assert health["history"]["mode"] == "off"
    assert not (tmp_path / "off").exists()
    health = _serve_and_ask(log, tmp_path / "on")
    assert health["history"]["mode"] in ("opening", "writing")
    assert (tmp_path / "on" / "tokwatch" / "history.sqlite3").is_file()


def test_the_history_names_the_machine_as_name_does_and_once_finds_it_under_an_older_name(tmp_path: Path) -> None:
    now = time.time()
    log = four_hours(tmp_path / "logs", now)
    data = tmp_path / "data"
    server = Server(log, "--data-dir", str(data), "--name", "rig 7").start()
    try:
        deadline = time.monotonic() + 30
        while True:
            with urllib.request.urlopen(f"http://127.0.0.1:{server.http_port}/api/history?range=24h", timeout=10) as r:
                chart = json.loads(r.read())
            if chart["status"]["importing"] is None and chart["totals"] and chart["totals"]["passes"] >= 960:
                break
            assert time.monotonic() < deadline, chart["status"]
            time.sleep(0.2)
        assert chart["source"]["machine"] == "rig 7"  # as alerts and the fleet say it
    finally:
        server.stop()
    # The same history read by --once under another name of this machine's (an earlier --name).
    result = once("--log", str(tmp_path / "logs"), "--data-dir", str(data), "--name", "rig-7", env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    assert any(line.startswith("  since ") and line.endswith(" passes") for line in result.stdout.splitlines())
