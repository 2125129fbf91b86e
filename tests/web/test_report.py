"""GET /api/report.txt: the queue report as plain text, under the same token rules as the snapshot."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from flask.testing import FlaskClient

from app.config import Config
from app.live.monitor import Monitor
from tests.conftest import web_app

DATA = Path(__file__).resolve().parents[1] / "data"
TOKEN = "s3cret-token_for.tests"


def test_the_report_is_plain_text_with_the_resets(config: Config) -> None:
    lines = [line for line in (DATA / "iota-queue-resets.log").read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    at = time.mktime((2026, 9, 21, 8, 26, 30, 0, 0, -1))  # the log's local time, as it writes it
    monitor = Monitor(None, format_name="iota", clock=lambda: at)
    monitor.lines(lines)
    client = web_app(replace(config, port=8765), monitor).test_client()
    response = client.get("/api/report.txt")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert response.headers["Cache-Control"] == "no-store"
    body = response.get_data(as_text=True)
    assert body.startswith("tokwatch queue report\n")
    assert "  2026-09-21 08:06:20  #57 → #1613  queue 4462ebfc-5f91-4ef0-9cfb-ac6e7687a66e\n" in body
    assert "2 in the last 24 h, 2 in the last 7 days" in body


def test_the_report_needs_the_token_on_the_lan(config: Config, monitor: Monitor) -> None:
    client = web_app(replace(config, host="0.0.0.0", port=8765, token=TOKEN), monitor).test_client()
    assert client.get("/api/report.txt").status_code == 401
    assert client.get("/api/report.txt", headers={"Authorization": "Bearer nope-nope-nope"}).status_code == 401
    right = client.get("/api/report.txt", headers={"Authorization": f"Bearer {TOKEN}"})
    assert right.status_code == 200 and TOKEN not in right.get_data(as_text=True)


def test_a_step_trainer_has_no_queue_to_report(client: FlaskClient, monitor: Monitor) -> None:
    monitor.lines((DATA / "sample-nanochat.log").read_text(encoding="utf-8").splitlines())
    body = client.get("/api/report.txt").get_data(as_text=True)
    assert "not an IOTA miner log (nanochat): no queue." in body
