"""A hub and three agents, each a real ``run.py`` on ephemeral ports on 127.0.0.1, over composed logs.

The logs (written here, times relative to now): a miner training on layer 1 with a pass every
30 s for 40 minutes (torch.Size([4, 800, 32]): 3,200 tokens a pass), a miner in the
registration queue at #1583, and a miner registered on layer 2 whose last pass was 30 minutes
ago. Worked by hand: the rate window is 20 minutes, so the training miner has 40 passes in it
(39 when the oldest has just left) → 120 passes/h × 3,200 = 384,000 tok/h (or 374,400); the
other two contribute nothing to the sum.

Agents report every second here (``--report-every 1``, default 15) so that "offline after three
missed reports" and "the hub away" take seconds, not minutes.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.hub.store import HubStore
from tests.conftest import LogWriter, iota_line
from tests.launched import printed_until_ready

ROOT = Path(__file__).resolve().parents[2]
TOKENS_PER_PASS = 3200


@dataclass
class Proc:
    process: subprocess.Popen[str]
    banner: str
    stderr_path: Path

    @property
    def port(self) -> int:
        return int(re.search(r"http://[^/\s]+:(\d+)/", self.banner).group(1))  # type: ignore[union-attr]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=15)
        self.close()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.close()

    def close(self) -> None:
        if self.process.stdout is not None:
            self.process.stdout.close()


def env_for(home: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data"), "PYTHONUNBUFFERED": "1"}


def start(home: Path, *args: str) -> Proc:
    """Start ``run.py`` with a home of its own; return once it printed its URL."""
    return ready(*launch(home, *args))


def launch(home: Path, *args: str) -> tuple[subprocess.Popen[str], Path]:
    """Start ``run.py`` with a home of its own, without waiting for it (several start side by side)."""
    home.mkdir(parents=True, exist_ok=True)
    stderr_path = home / "stderr.txt"
    with stderr_path.open("w") as stderr:
        process = subprocess.Popen([sys.executable, str(ROOT / "run.py"), "--port", "0", *args], cwd=ROOT,
                                   env=env_for(home), stdout=subprocess.PIPE, stderr=stderr, text=True)
    return process, stderr_path


def ready(process: subprocess.Popen[str], stderr_path: Path) -> Proc:
    """The launched ``run.py`` once it printed its URL."""
    printed, started = printed_until_ready(process, 30)
    if started:
        return Proc(process, printed, stderr_path)
    process.kill()
    process.wait()
    if process.stdout is not None:
        process.stdout.close()  # left open, the pipe is a ResourceWarning in whichever test collects it next
    raise AssertionError(f"run.py did not start:\n{printed}\n{stderr_path.read_text()}")


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)


def wait_for(what: str, check: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except OSError as e:
            last = e
        else:
            if last:
                return last
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}; last: {last!r}")


def training_log(path: Path, now: float) -> None:
    writer = LogWriter(path)
    start_at = now - 45 * 60
    lines = writer.registered(1, start_at)
    for k in range(80):  # a pass every 30 s, the last 5 s ago
        lines += writer.forward(1, now - 5 - 30 * (79 - k))
    writer.write(lines)


def queued_log(path: Path, now: float) -> None:
    writer = LogWriter(path)
    lines: list[str] = []
    for k in range(10):
        lines += writer.queued(1583, now - 600 + 60 * k)
    writer.write(lines)


def idle_log(path: Path, now: float) -> None:
    writer = LogWriter(path)
    lines = writer.registered(2, now - 90 * 60)
    for k in range(60):  # passes until 30 minutes ago, then nothing but chatter
        lines += writer.forward(2, now - 90 * 60 + 60 * k)
    for k in range(30):
        lines.append(iota_line(now - 29 * 60 + 60 * k, "DEBUG", "miner.fetcher:poll:12", "Queue status: empty"))
    writer.write(lines)


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[dict[str, Any]]:
    now = time.time()
    hub_home = tmp_path / "hub"
    # Enrolled as `run.py --enroll` does (that command is tests/hub/test_pasted.py's), without a process each.
    store = HubStore(hub_home / "data" / "tokwatch" / "hub.sqlite3")
    keys = {name: store.enroll(name, now) for name in ("trainer", "queued", "idle")}
    store.close()
    hub = start(hub_home, "--hub")
    agents: dict[str, Proc] = {}
    state: dict[str, Any] = {"hub": hub, "agents": agents, "hub_home": hub_home, "tmp": tmp_path}
    try:
        launched = {}
        for name, compose in (("trainer", training_log), ("queued", queued_log), ("idle", idle_log)):
            log = tmp_path / f"{name}.log"
            compose(log, now)
            launched[name] = launch(tmp_path / name, "--log", str(log), "--report-to", hub.url,
                                    "--report-key", keys[name], "--name", name, "--report-every", "1")
        for name, (process, stderr_path) in launched.items():  # the three start side by side
            agents[name] = ready(process, stderr_path)
        yield state
    finally:
        for proc in [*agents.values(), hub, state["hub"]]:  # the test may have restarted the hub
            proc.kill()
        for proc in [*agents.values(), hub]:
            assert "twk_" not in proc.stderr_path.read_text(), "a report key was written to a log"


def cards(hub: Proc) -> dict[str, dict[str, Any]]:
    return {card["name"]: card for card in get(f"{hub.url}/api/fleet")["machines"]}


def test_three_agents_on_one_hub(fleet: dict[str, Any]) -> None:
    hub: Proc = fleet["hub"]
    agents: dict[str, Proc] = fleet["agents"]
    wait_for("three machines online", lambda: get(f"{hub.url}/api/fleet")["totals"]["online"] == 3)

    def consistent() -> tuple[dict[str, Any], dict[str, float]] | None:
        # The agents' own snapshots and the hub's cards at one moment (an agent's first report may
        # predate its backlog; the next one, a second later, does not).
        snaps = {name: get(f"{proc.url}/api/snapshot") for name, proc in agents.items()}
        own = {name: snap["rate"]["tokens_per_hour"] or 0.0 for name, snap in snaps.items()}
        view = get(f"{hub.url}/api/fleet")
        states = {card["name"]: card["state"] for card in view["machines"]}
        ok = (view["totals"]["tokens_per_hour"] == sum(own.values()) and view["totals"]["online"] == 3
              and all(states[name] == snap["state"] for name, snap in snaps.items()))
        return (view, own) if ok else None

    view, own = wait_for("the fleet's sum to equal the agents' own tok/h", consistent)
    assert own["trainer"] in (384_000.0, 374_400.0)
    by_name = {card["name"]: card for card in view["machines"]}
    assert by_name["trainer"]["state"] == "training" and by_name["trainer"]["layer"] == 1
    assert by_name["queued"]["state"] == "queued" and by_name["queued"]["queue_position"] == 1583
    assert by_name["idle"]["layer"] == 2
    assert view["totals"]["training"] >= 1 and view["totals"]["queued"] == 1

    # Killed without a word: offline after three missed reports, its figures gone from the card and the sum.
    agents["trainer"].kill()
    gone = wait_for("the killed agent to turn offline", lambda: not cards(hub)["trainer"]["online"], timeout=20)
    card = cards(hub)["trainer"]
    assert gone and card["status_line"] == "offline" and card["tokens_per_hour"] is None and card["layer"] is None
    totals = get(f"{hub.url}/api/fleet")["totals"]
    assert totals["online"] == 2 and totals["tokens_per_hour"] == 0.0

    # The hub exports every machine online with a machine label.
    with urllib.request.urlopen(f"{hub.url}/metrics", timeout=5) as response:
        metrics = response.read().decode()
    assert 'tokwatch_queue_position{machine="queued"} 1583.0' in metrics
    assert 'tokwatch_machine_online{machine="trainer"} 0.0' in metrics
    assert 'tokwatch_layer{machine="trainer"}' not in metrics


def spool_seq(home: Path) -> int:
    """The number of reports the agent has made (its spool's next number − 1)."""
    (path,) = (home / "data" / "tokwatch").glob("spool-*.sqlite3")  # one spool per machine name
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT value FROM meta WHERE key = 'next_seq'").fetchone()[0]) - 1


def test_a_hub_away_and_back_loses_no_report(fleet: dict[str, Any]) -> None:
    hub: Proc = fleet["hub"]
    hub_home: Path = fleet["hub_home"]
    port = hub.port
    wait_for("reports", lambda: get(f"{hub.url}/api/fleet/queued")["reports"] >= 2)
    before = spool_seq(fleet["tmp"] / "queued")
    hub.stop()
    # A few intervals away: the agent keeps the reports it makes meanwhile.
    wait_for("reports kept while the hub is away", lambda: spool_seq(fleet["tmp"] / "queued") >= before + 3)
    made_while_away = spool_seq(fleet["tmp"] / "queued")
    back = start(hub_home, "--hub", "--port", str(port))
    fleet["hub"] = back
    try:
        def all_taken() -> bool:
            page = get(f"{back.url}/api/fleet/queued")
            return bool(page["reports"] >= made_while_away and page["reports"] == spool_seq(fleet["tmp"] / "queued"))

        # Taken exactly as many as made: none lost while the hub was away, none counted twice.
        wait_for("every report, including those made while the hub was away", all_taken)
    finally:
        back.stop()
