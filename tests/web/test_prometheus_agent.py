"""Past one hub, with standard parts: a Prometheus in agent mode beside a machine scrapes its tokwatch
and remote-writes to a central Prometheus with the remote-write receiver on (contrib/prometheus's
agent.yml and central.yml as shipped, only their addresses, name and interval changed); the
shipped rules and every Grafana panel work on the central store, labelled by machine.

Two real Prometheus processes (Debian's ``prometheus``). The log is test_prometheus's: worked by
hand there, 384,000 tok/h on layer 1 after 80 passes.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.conftest import RunningServer
from tests.test_prometheus import CONTRIB, free_port, prometheus_binary, query, tokwatch  # noqa: F401

MACHINE = "rig-behind-nat"


def start(binary: str, args: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("w") as stderr:
        return subprocess.Popen([binary, *args], stdout=subprocess.DEVNULL, stderr=stderr)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def shipped(name: str, replacements: dict[str, str]) -> str:
    text = (CONTRIB / "prometheus" / name).read_text(encoding="utf-8")
    for old, new in replacements.items():
        assert old in text, f"contrib/prometheus/{name} no longer says {old!r}"
        text = text.replace(old, new)
    return text


def test_an_agent_behind_nat_pushes_to_a_central_prometheus_whose_rules_and_dashboard_work(
    tokwatch: RunningServer, tmp_path: Path  # noqa: F811
) -> None:
    binary = prometheus_binary()
    central_port, agent_port = free_port(), free_port()
    central_config = tmp_path / "central.yml"
    central_config.write_text(shipped("central.yml", {
        "evaluation_interval: 15s": "evaluation_interval: 1s",
        "  - tokwatch-rules.yml": f"  - {json.dumps(str(CONTRIB / 'prometheus' / 'tokwatch-rules.yml'))}",
    }), encoding="utf-8")
    agent_config = tmp_path / "agent.yml"
    agent_config.write_text(shipped("agent.yml", {
        "scrape_interval: 15s": "scrape_interval: 1s",
        "machine: rig-a": f"machine: {MACHINE}",
        '"127.0.0.1:8765"': json.dumps(tokwatch.http_url.removeprefix("http://").rstrip("/")),
        "http://central.example:9090/api/v1/write": f"http://127.0.0.1:{central_port}/api/v1/write",
    }), encoding="utf-8")
    central = start(binary, [f"--config.file={central_config}", f"--storage.tsdb.path={tmp_path / 'central'}",
                             f"--web.listen-address=127.0.0.1:{central_port}", "--web.enable-remote-write-receiver"],
                    tmp_path / "central.log")
    agent = None
    try:
        agent = start(binary, ["--enable-feature=agent", f"--config.file={agent_config}",
                               f"--storage.agent.path={tmp_path / 'agent'}",
                               f"--web.listen-address=127.0.0.1:{agent_port}"], tmp_path / "agent.log")
        deadline = time.monotonic() + 60
        rate: list[dict[str, Any]] = []
        while time.monotonic() < deadline and not rate:
            time.sleep(0.5)
            try:
                rate = query(central_port, "tokwatch_tokens_per_hour")
            except OSError:
                continue  # not listening yet
        logs = (tmp_path / "agent.log").read_text()[-1500:] + (tmp_path / "central.log").read_text()[-1500:]
        assert rate, logs
        (sample,) = rate
        assert sample["metric"]["machine"] == MACHINE and sample["metric"]["job"] == "tokwatch"
        assert float(sample["value"][1]) == 384_000.0
        assert float(query(central_port, f'tokwatch_state{{state="training",machine="{MACHINE}"}}')[0]["value"][1]) == 1.0
        assert float(query(central_port, "tokwatch_layer")[0]["value"][1]) == 1.0

        # The dashboard's machine list and every panel, for this machine, read the central store.
        dashboard = json.loads((CONTRIB / "grafana" / "tokwatch-fleet.json").read_text(encoding="utf-8"))
        machines = query(central_port, "group by (machine) (tokwatch_state)")
        assert [m["metric"]["machine"] for m in machines] == [MACHINE]
        answered = 0
        for panel in dashboard["panels"]:
            for target in panel.get("targets", []):
                expr = target["expr"].replace("$machine", MACHINE).replace("$__range", "1h")
                answered += bool(query(central_port, expr))
        assert answered >= 6, "the dashboard's panels show this machine's figures"
        # The shipped alert rules loaded on the central store and evaluate.
        with urllib.request.urlopen(f"http://127.0.0.1:{central_port}/api/v1/rules", timeout=5) as response:
            groups = json.load(response)["data"]["groups"]
        rules = [rule for group in groups for rule in group["rules"]]
        rules_shipped = (CONTRIB / "prometheus" / "tokwatch-rules.yml").read_text(encoding="utf-8").count("- alert:")
        assert len(rules) == rules_shipped >= 6 and all(rule["health"] in ("ok", "unknown") for rule in rules), rules
    finally:
        if agent is not None:
            stop(agent)
        stop(central)
