"""A real Prometheus (Debian's ``prometheus``) scrapes a tokwatch on port 0, and its query API returns
the figures: the metrics are proven against their consumer, not only a text parser.

The log is composed here: a miner registered on layer 1 with a pass every 30 s (torch.Size
[4, 800, 32]: 3,200 tokens), the last 5 s before a frozen clock. Worked by hand: 40 passes in the
20-minute window → 120 passes/h × 3,200 = 384,000 tok/h.

Without /usr/bin/prometheus the test skips with the reason, except in CI
(TOKWATCH_REQUIRE_PROMETHEUS=1), where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.live.monitor import Monitor
from tests.conftest import LogWriter, RunningServer, start_server

CONTRIB = Path(__file__).resolve().parent.parent / "contrib"
FROZEN_NOW = 1_796_000_000.0


def prometheus_binary() -> str:
    found = shutil.which("prometheus") or ("/usr/bin/prometheus" if Path("/usr/bin/prometheus").exists() else None)
    if found is None:
        reason = "prometheus not found (apt-get install prometheus)"
        if os.environ.get("TOKWATCH_REQUIRE_PROMETHEUS") == "1":
            pytest.fail(reason + " — TOKWATCH_REQUIRE_PROMETHEUS=1 makes that a failure")
        pytest.skip(reason)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def tokwatch(config: Config, tmp_path: Path) -> Iterator[RunningServer]:
    log = tmp_path / "miner.log"
    writer = LogWriter(log)
    lines = writer.registered(1, FROZEN_NOW - 45 * 60)
    for k in range(80):
        lines += writer.forward(1, FROZEN_NOW - 5 - 30 * (79 - k))
    writer.write(lines)
    running = start_server(replace(config, log_path=log), Monitor(log, clock=lambda: FROZEN_NOW))
    yield running
    running.dashboard.stop()


def query(port: int, expr: str) -> list[dict[str, Any]]:
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=5) as response:
        body = json.load(response)
    assert body["status"] == "success", body
    result: list[dict[str, Any]] = body["data"]["result"]
    return result


def test_prometheus_scrapes_tokwatch(tokwatch: RunningServer, tmp_path: Path) -> None:
    binary = prometheus_binary()
    port = free_port()
    target = tokwatch.http_url.removeprefix("http://").rstrip("/")
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        f"rule_files: [{json.dumps(str(CONTRIB / 'prometheus' / 'tokwatch-rules.yml'))}]\n"
        "scrape_configs:\n  - job_name: tokwatch\n    static_configs:\n"
        f"      - targets: [{json.dumps(target)}]\n",
        encoding="utf-8",
    )
    with (tmp_path / "prometheus.log").open("w") as stderr:
        process = subprocess.Popen(
            [binary, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'data'}",
             f"--web.listen-address=127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=stderr,
        )
    try:
        deadline = time.monotonic() + 40
        rate: list[dict[str, Any]] = []
        while time.monotonic() < deadline and not rate:
            time.sleep(0.5)
            try:
                rate = query(port, "tokwatch_tokens_per_hour")
            except OSError:
                continue  # not listening yet
        assert rate, (tmp_path / "prometheus.log").read_text()[-2000:]
        (sample,) = rate
        assert sample["metric"]["job"] == "tokwatch" and sample["metric"]["instance"] == target
        assert float(sample["value"][1]) == 384_000.0
        assert float(query(port, 'tokwatch_state{state="training"}')[0]["value"][1]) == 1.0
        assert float(query(port, "tokwatch_passes_total")[0]["value"][1]) == 80.0
        assert float(query(port, "tokwatch_layer")[0]["value"][1]) == 1.0

        # Every expression of the Grafana dashboard is one Prometheus accepts.
        dashboard = json.loads((CONTRIB / "grafana" / "tokwatch-fleet.json").read_text(encoding="utf-8"))
        for panel in dashboard["panels"]:
            for target_query in panel.get("targets", []):
                expr = target_query["expr"].replace("$machine", ".*").replace("$__range", "1h")
                query(port, expr)
        # The alert rules loaded and evaluate without error.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/rules", timeout=5) as response:
            groups = json.load(response)["data"]["groups"]
        rules = [rule for group in groups for rule in group["rules"]]
        assert len(rules) == 9 and all(rule["health"] in ("ok", "unknown") for rule in rules), rules
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
