"""An SN38 miner's card on a running hub's fleet page (real Chromium): its swarm state's colour and its
last round, beside an IOTA miner whose tok/h alone makes the fleet's total."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.hub.store import HubStore
from app.live.monitor import Monitor
from tests.conftest import RunningServer, start_server
from tests.hub.test_fleet_page import Agents, expect


@pytest.fixture
def swarm_hub(tmp_path: Path) -> Iterator[tuple[RunningServer, Agents]]:
    data_dir = tmp_path / "data"
    store = HubStore(data_dir / "hub.sqlite3")
    keys = {name: store.enroll(name, time.time()) for name in ("sn38-box", "iota-box")}
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    yield running, Agents(running.http_url.rstrip("/"), keys)
    running.dashboard.stop()


def test_an_sn38_card_shows_its_swarm_state_and_last_round(swarm_hub: tuple[RunningServer, Agents],
                                                           browser: Any) -> None:
    server, agents = swarm_hub
    now = time.time()
    swarm = {"rounds": [{"started_at": now - 300, "ended_at": now - 240, "peers": 3, "outcome": "failed"}],
             "rounds_ok": 0, "rounds_failed": 1}
    agents.send("sn38-box", state="alone", status="outer 43 · step 5 · alone · 38 steps/h",
                training={"steps_per_hour": 38.0, "swarm": swarm}, level="warning")
    agents.send("iota-box", status="L1 · 300k tok/h", tph=300_000.0, layer=1)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server.http_url}/fleet")
    card = page.locator('.machine-card[data-name="sn38-box"]')
    expect()(card).to_have_attribute("data-level", "warning")
    expect()(card.locator(".state")).to_have_text("alone")
    expect()(card.locator(".fig", has_text="last round")).to_contain_text("failed · 3 peers · 4 min ago")
    expect()(page.locator("#t-rate")).to_have_text("300k tok/h")
    context.close()
