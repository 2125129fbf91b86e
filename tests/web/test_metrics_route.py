"""/metrics on a dashboard: the text format, the token rules of /api/*, the running counters."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families

from app.config import Config
from app.live.monitor import Monitor
from tests.conftest import LogWriter, web_app


def values(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_metrics_follow_the_log(client: FlaskClient, monitor: Monitor, log_writer: LogWriter) -> None:
    t = 1_796_000_000.0
    lines = log_writer.registered(1, t - 600)
    for k in range(6):
        lines += log_writer.forward(1, t - 360 + 60 * k)
    monitor.lines(lines)
    monitor.lines(lines[-2:])  # the last pass's lines again (a log read twice): it counts once
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    got = values(response.get_data(as_text=True))
    assert got[("tokwatch_passes_total", ())] == 6
    assert got[("tokwatch_tokens_total", ())] == 6 * 3200  # torch.Size([4, 800, 32])
    assert got[("tokwatch_layer", ())] == 1
    state = client.get("/api/snapshot").get_json()["state"]
    states = {labels[0][1]: value for (name, labels), value in got.items() if name == "tokwatch_state"}
    assert states[state] == 1 and sum(states.values()) == 1
    assert ("process_resident_memory_bytes", ()) in got


def test_metrics_need_the_token_off_loopback(config: Config, monitor: Monitor) -> None:
    app = web_app(replace(config, token="metrics-token-1"), monitor)
    client = app.test_client()
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong-token-1"}).status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer metrics-token-1"}).status_code == 200


def test_a_hub_without_a_log_exports_no_figures_of_its_own(tmp_path: Path) -> None:
    config = Config(log_path=None, port=0, hub=True, data_dir=tmp_path / "data", config_dir=tmp_path / "config")
    from app.hub.service import Hub
    from app.hub.store import HubStore

    store = HubStore(tmp_path / "data" / "hub.sqlite3")
    store.enroll("rig-a", 1_796_000_000.0)
    app = web_app(config, Monitor(None), hub=Hub(store))
    text = app.test_client().get("/metrics").get_data(as_text=True)
    assert "tokwatch_state{" not in text  # nothing reported yet, and the hub itself follows no log
    assert 'tokwatch_machine_online{machine="rig-a"} 0.0' in text
    store.close()
