"""contrib/: the Prometheus config and alert rules pass promtool, and the rules fire on the series they name.

Uses Debian's promtool (package ``prometheus``). Without it the tests skip with the reason,
except in CI (TOKWATCH_REQUIRE_PROMETHEUS=1), where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

CONTRIB = Path(__file__).resolve().parent.parent / "contrib"


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        if os.environ.get("TOKWATCH_REQUIRE_PROMETHEUS") == "1":
            pytest.fail("promtool not found, and TOKWATCH_REQUIRE_PROMETHEUS=1 (apt-get install prometheus)")
        pytest.skip("promtool not found (apt-get install prometheus)")
    return found


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([promtool(), *args], cwd=cwd, capture_output=True, text=True, timeout=30, check=False)


def test_config_and_rules_are_valid() -> None:
    result = run("check", "config", "prometheus.yml", cwd=CONTRIB / "prometheus")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "9 rules found" in result.stdout


RULE_TESTS = """
rule_files: [{rules}]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'tokwatch_state{{machine="rig-a",state="idle"}}'
        values: '0 0 1x20'
      - series: 'tokwatch_state{{machine="rig-a",state="training"}}'
        values: '1 1 0x20'
      - series: 'tokwatch_state{{machine="rig-b",state="training"}}'
        values: '1x40'
      - series: 'tokwatch_tokens_per_hour{{machine="rig-b"}}'
        values: '300000x40'
      - series: 'tokwatch_usual_tokens_per_hour{{machine="rig-b"}}'
        values: '700000x40'
      - series: 'tokwatch_machine_online{{machine="rig-c"}}'
        values: '1 1 0x10'
      - series: 'tokwatch_state{{machine="rig-d",state="queued"}}'
        values: '1x60'
      - series: 'tokwatch_queue_resets_24h{{machine="rig-d"}}'
        values: '0x14 1x45'
      - series: 'tokwatch_queue_growing_since_timestamp_seconds{{machine="rig-d"}}'
        values: '300x60'
      - series: 'tokwatch_state{{machine="rig-e",state="training"}}'
        values: '1x30'
      - series: 'tokwatch_forwards_undelivered{{machine="rig-e"}}'
        values: '0x4 4x25'
      - series: 'tokwatch_forwards_undelivered_ratio{{machine="rig-e"}}'
        values: '0x4 0.33x25'
      - series: 'tokwatch_state{{machine="rig-f",state="training"}}'
        values: '1x30'
      - series: 'tokwatch_forwards_undelivered{{machine="rig-f"}}'
        values: '2x30'
      - series: 'tokwatch_forwards_undelivered_ratio{{machine="rig-f"}}'
        values: '0.1x30'
    alert_rule_test:
      - eval_time: 14m
        alertname: TokwatchQueueReset
        exp_alerts: []
      - eval_time: 16m
        alertname: TokwatchQueueReset
        exp_alerts:
          - exp_labels: {{severity: warning, machine: rig-d}}
            exp_annotations:
              summary: "rig-d: sent to the back of the queue"
              description: "1 queue resets in 24 h."
      - eval_time: 26m
        alertname: TokwatchQueueReset
        exp_alerts: []
      - eval_time: 44m
        alertname: TokwatchQueueGrowing
        exp_alerts: []
      - eval_time: 46m
        alertname: TokwatchQueueGrowing
        exp_alerts:
          - exp_labels: {{severity: warning, machine: rig-d}}
            exp_annotations:
              summary: "rig-d: the queue position has only grown for 40 minutes"
              description: "The orchestrator admits miners ahead of this one; it is no nearer the front."
      - eval_time: 9m
        alertname: TokwatchForwardsUndelivered
        exp_alerts: []
      - eval_time: 11m
        alertname: TokwatchForwardsUndelivered
        exp_alerts:
          - exp_labels: {{severity: warning, machine: rig-e}}
            exp_annotations:
              summary: "rig-e: forwards are not delivered"
              description: "Forward activations failed or their peer was unreachable in the last 10 minutes."
      - eval_time: 8m
        alertname: TokwatchIdle
        exp_alerts: []
      - eval_time: 13m
        alertname: TokwatchIdle
        exp_alerts:
          - exp_labels: {{severity: warning, machine: rig-a, state: idle}}
            exp_annotations:
              summary: "rig-a: the miner is idle"
              description: "The log is alive but no pass has been done for 10 minutes."
      - eval_time: 25m
        alertname: TokwatchBelowUsual
        exp_alerts: []
      - eval_time: 31m
        alertname: TokwatchBelowUsual
        exp_alerts:
          - exp_labels: {{severity: warning, machine: rig-b}}
            exp_annotations:
              summary: "rig-b: tok/h is under half the usual"
              description: "300k tok/h for 30 minutes."
      - eval_time: 8m
        alertname: TokwatchMachineOffline
        exp_alerts:
          - exp_labels: {{severity: critical, machine: rig-c}}
            exp_annotations:
              summary: "rig-c stopped reporting to the hub"
              description: "No report for 5 minutes: the machine, its tokwatch or the network is down."
"""


def test_alert_rules_fire_when_they_should(tmp_path: Path) -> None:
    rules = CONTRIB / "prometheus" / "tokwatch-rules.yml"
    (tmp_path / "tests.yml").write_text(RULE_TESTS.format(rules=json.dumps(str(rules))), encoding="utf-8")
    result = run("test", "rules", "tests.yml", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_grafana_dashboard_is_importable_json() -> None:
    dashboard = json.loads((CONTRIB / "grafana" / "tokwatch-fleet.json").read_text(encoding="utf-8"))
    assert dashboard["__inputs"][0]["name"] == "DS_PROMETHEUS"
    titles = [panel["title"] for panel in dashboard["panels"]]
    assert "tok/h per machine" in titles and "tok/h and the usual" in titles
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel.get("targets", [])]
    assert all("tokwatch_" in expr for expr in exprs)


def _dashboard_exprs() -> list[str]:
    dashboard = json.loads((CONTRIB / "grafana" / "tokwatch-fleet.json").read_text(encoding="utf-8"))
    return [t["expr"] for panel in dashboard["panels"] for t in panel.get("targets", [])]


def test_the_queue_and_delivery_gauges_have_rules_and_panels() -> None:
    """The queue's resets, growth and best position and the forwards not delivered are watched
    by the shipped rules and drawn by the dashboard; every name either uses is one tokwatch exports."""
    import re

    rules = (CONTRIB / "prometheus" / "tokwatch-rules.yml").read_text(encoding="utf-8")
    exprs = "\n".join(_dashboard_exprs())
    for name in ("tokwatch_queue_resets_24h", "tokwatch_queue_growing_since_timestamp_seconds",
                 "tokwatch_forwards_undelivered", "tokwatch_forwards_undelivered_ratio"):
        assert name in rules and name in exprs, name
    for name in ("tokwatch_queue_best_position", "tokwatch_queue_resets_7d", "tokwatch_queue_positions_lost",
                 "tokwatch_peers_ok"):
        assert name in exprs, name
    documented = set(re.findall(r"`(tokwatch_[a-z0-9_]+)", (CONTRIB.parent / "docs" / "metrics.md").read_text()))
    used = set(re.findall(r"tokwatch_[a-z0-9_]+", rules + exprs))
    assert used <= documented, used - documented
