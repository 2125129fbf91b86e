"""A machine's first day with a hub: its own past reaches the hub as soon as its first start imported it.

An agent started for the first time (a fresh home, no history yet) on a Train-at-Home log that
has trained for 6 h: registered in layer 1 6 h 10 min ago, a pass (3,200 tokens) a minute since,
the last one 30 s ago. The machine's page must chart those 6 h without the agent being restarted,
while its live reports go on as ever.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.hub.store import HubStore
from tests.conftest import LogWriter
from tests.hub.test_e2e import get, launch, ready, start

HOURS = 6


def six_hours(path: Path, now: float) -> None:
    writer = LogWriter(path)
    lines = writer.registered(1, now - HOURS * 3600 - 600)
    for k in range(HOURS * 60):  # a pass a minute, the last 30 s ago
        lines += writer.forward(1, now - 30 - 60 * (HOURS * 60 - 1 - k))
    writer.write(lines)


@pytest.mark.timeout(180)
def test_a_first_start_shows_its_six_hours_on_the_hub_without_a_restart(tmp_path: Path) -> None:
    now = time.time()
    hub_home = tmp_path / "hub"
    store = HubStore(hub_home / "data" / "tokwatch" / "hub.sqlite3")
    key = store.enroll("day-one", now)
    store.close()
    log = tmp_path / "miner.log"
    six_hours(log, now)
    hub = start(hub_home, "--hub")
    agent = None
    try:
        began = time.monotonic()
        agent = ready(*launch(tmp_path / "agent", "--log", str(log), "--report-to", hub.url,
                              "--report-key", key, "--name", "day-one", "--report-every", "1"))
        first_report = charted = None
        reports_then = 0
        while time.monotonic() - began < 150:
            page = get(f"{hub.url}/api/fleet/day-one")
            if first_report is None and page["card"]["online"]:
                first_report = time.monotonic() - began
            chart = get(f"{hub.url}/api/fleet/day-one/chart?span=6h")
            # A point a minute over the 6 h span: the log's passes from its first hour's end on.
            known = [v for _, v in chart["points"] if v is not None]
            if len(known) >= HOURS * 60 - 15:
                charted = time.monotonic() - began
                reports_then = page["reports"]
                break
            time.sleep(0.5)
        assert first_report is not None, (hub.stderr_path.read_text(), agent.stderr_path.read_text())
        assert charted is not None, f"{len(known)} minutes charted after {time.monotonic() - began:.0f} s"
        print(f"\nfirst report on the hub {first_report:.1f} s after the agent's start; "
              f"6 h of its past on the machine page after {charted:.1f} s")
        # Its live reports went on meanwhile: about one a second (--report-every 1), none held up.
        assert reports_then >= charted - first_report - 5
        assert charted < 90
    finally:
        if agent is not None:
            agent.kill()
        hub.kill()
