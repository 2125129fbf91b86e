"""A thousand machines on the fleet page of a phone (390 px) in a real Chromium: it lists, filters and
sorts them, and a report redraws that machine's card alone (the push carries what changed).

Machine i reports ``L1 · {i}k tok/h`` (i·1000 tok/h), every third one queued, so each filter's count
and the rate order are known here. Screenshot: test-artifacts/fleet-1000-phone.png.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.hub.report import report_body
from app.hub.service import Hub
from app.hub.store import HubStore
from app.live.monitor import Monitor
from tests.conftest import RunningServer, start_server
from tests.hub.test_fleet_page import ARTIFACTS, PHONE, Agents, expect
from tests.pages import watched_page

MACHINES = 1000
NAMES = [f"m{i:04d}" for i in range(MACHINES)]


def snap(i: int) -> dict[str, Any]:
    if i % 3 == 0:
        return {"status_line": f"Queue #{i}", "state": "queued", "layer": None, "as_of": time.time(),
                "queue": {"position": i}, "rate": {"measured": False, "tokens_per_hour": None}}
    return {"status_line": f"L1 · {i}k tok/h", "state": "training", "layer": 1, "as_of": time.time(),
            "rate": {"measured": True, "tokens_per_hour": i * 1000.0}}


@pytest.fixture
def thousand(tmp_path: Path) -> Iterator[tuple[RunningServer, Agents]]:
    data_dir = tmp_path / "data"
    store = HubStore(data_dir / "hub.sqlite3")
    keys = {name: store.enroll(name, time.time()) for name in NAMES}
    hub = Hub(store)
    for i, name in enumerate(NAMES):  # each machine's first report, through the hub's own intake
        body = report_body(machine=name, stream="e" * 16, seq=1, sent_at=time.time(), interval_seconds=600.0,
                           snapshot=snap(i))
        status, answer = hub.take(f"Bearer {keys[name]}", json.dumps(body).encode())
        assert status == 200, answer
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    agents = Agents(running.http_url, keys)
    agents.seq = dict.fromkeys(NAMES, 1)
    yield running, agents
    running.dashboard.stop()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from watched_page(browser, console=False, viewport=PHONE, device_scale_factor=2)


def names_shown(page: Any, count: int) -> list[str]:
    return page.evaluate(f"[...document.querySelectorAll('#cards > li')].slice(0, {count}).map((li) => li.dataset.name)")


def test_a_thousand_machines_list_filter_and_sort_and_a_report_redraws_one_card(
    thousand: tuple[RunningServer, Agents], phone: Any
) -> None:
    running, agents = thousand
    phone.goto(f"{running.http_url}/fleet")
    expect()(phone.locator("#shown")).to_have_text(f"{MACHINES} of {MACHINES}", timeout=20_000)
    queued = len(range(0, MACHINES, 3))
    assert names_shown(phone, 3) == ["m0000", "m0001", "m0002"]

    phone.select_option("#filter", "queued")
    expect()(phone.locator("#shown")).to_have_text(f"{queued} of {MACHINES}")
    phone.select_option("#filter", "training")
    expect()(phone.locator("#shown")).to_have_text(f"{MACHINES - queued} of {MACHINES}")
    phone.select_option("#sort", "rate")
    assert names_shown(phone, 3) == ["m0998", "m0997", "m0995"]  # 999 is queued (999 % 3 == 0)
    phone.select_option("#filter", "all")
    expect()(phone.locator("#shown")).to_have_text(f"{MACHINES} of {MACHINES}")

    # Every drawn card marked: after a report, only the card that changed is a new node.
    phone.evaluate("document.querySelectorAll('#cards > li').forEach((li) => { li.dataset.kept = '1'; })")
    agents.send("m0500", status="L1 · 2000k tok/h", tph=2_000_000.0, layer=1, interval=600.0)
    expect()(phone.locator('.machine-card[data-name="m0500"] .card-status')).to_have_text("L1 · 2000k tok/h")
    assert names_shown(phone, 1) == ["m0500"], "sorted by tok/h, it moved to the top"
    redrawn = phone.evaluate("[...document.querySelectorAll('#cards > li:not([data-kept])')].map((li) => li.dataset.name)")
    assert redrawn == ["m0500"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "fleet-1000-phone.png"))
