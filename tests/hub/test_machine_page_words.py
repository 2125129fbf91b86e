"""A machine's page says what is true: before its first minute on the hub the chart has "no data" (not
"offline"), and an empty events panel says why it is empty."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.hub.report import report_body
from app.hub.store import HubStore
from app.live.monitor import Monitor
from tests.conftest import RunningServer, start_server
from tests.pages import wait_for_module


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[str, str]]:
    store = HubStore(tmp_path / "hub" / "hub.sqlite3")
    key = store.enroll("rig-new", time.time())
    store.enroll("rig-never", time.time())
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=tmp_path / "hub", config_dir=tmp_path / "config")
    running: RunningServer = start_server(config, Monitor(None))
    yield running.http_url.rstrip("/"), key
    running.dashboard.stop()


def post(url: str, key: str) -> None:
    now = time.time()
    snap = {"status_line": "L1 · 700k tok/h", "state": "training", "as_of": now, "layer": 1,
            "rate": {"tokens_per_hour": 700_000.0}, "events": []}
    body = report_body(machine="rig-new", stream="d" * 16, seq=1, sent_at=now, interval_seconds=15.0, snapshot=snap)
    request = urllib.request.Request(f"{url}/hub/report", data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def test_the_api_says_since_when_and_why_no_events(hub: tuple[str, str]) -> None:
    url, key = hub
    assert get(f"{url}/api/fleet/rig-never")["events_empty_text"] == "not reported yet"
    assert get(f"{url}/api/fleet/rig-never/chart?span=6h")["since"] is None
    post(url, key)
    assert get(f"{url}/api/fleet/rig-new")["events_empty_text"] == "none in its last report"
    chart = get(f"{url}/api/fleet/rig-new/chart?span=6h")
    assert chart["since"] == int(time.time()) // 60 * 60 or chart["since"] == int(time.time()) // 60 * 60 - 60


def test_hovering_before_the_first_minute_reads_no_data(hub: tuple[str, str], browser: Any) -> None:
    from playwright.sync_api import expect

    url, key = hub
    post(url, key)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{url}/fleet/rig-new")
        expect(page.locator("#status")).to_have_text("L1 · 700k tok/h")
        expect(page.locator("#events-empty")).to_have_text("none in its last report")
        wait_for_module(page, "/static/machine-chart.js", "(m) => m.inspectMachineChart()[0] !== undefined")
        box = page.locator("#chart .u-over").first.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + 3, box["y"] + box["height"] / 2)  # 6 h ago, long before its first report
        expect(page.locator("#chart-readout")).to_contain_text("no data")
        expect(page.locator("#chart-readout")).not_to_contain_text("offline")
    finally:
        context.close()
