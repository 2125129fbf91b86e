"""Code a server may never use (comparing runs) is loaded on the first request that needs it, and works.

Each module loaded stays resident for the weeks a dashboard runs; a real server on port 0 in a
child process shows which ones it holds before and after the request.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.receiver import Receiver

ROOT = Path(__file__).resolve().parents[2]

SERVER_PROBE = """
import json, sys, urllib.parse, urllib.request
from pathlib import Path
from app.config import Config
from app.live.monitor import Monitor
from app.serve.process import Dashboard

log, data = Path(sys.argv[1]), Path(sys.argv[2])
dashboard = Dashboard(Config(log_path=log, port=0, data_dir=data), Monitor(log))
config = dashboard.start()
base = f"http://127.0.0.1:{config.port}"

def loaded():
    return sorted(m for m in sys.modules if m == "app.compare" or m.startswith("app.compare."))

def get(path):
    with urllib.request.urlopen(base + path, timeout=30) as answer:
        return answer.status, json.loads(answer.read())

try:
    print(json.dumps(loaded()))
    get("/api/snapshot")
    print(json.dumps(loaded()))
    status, listing = get("/api/runs")
    print(json.dumps(loaded()))
    run_id = f"file:{log / 'train.log'}"
    print(json.dumps([status, run_id, get("/api/compare?" + urllib.parse.urlencode({"run": run_id}))]))
    print(json.dumps("app.hub.report" in sys.modules))
finally:
    dashboard.stop()
"""


def test_a_server_loads_the_compare_code_on_the_first_comparison_and_it_compares(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    # nanoGPT's own line (karpathy/nanoGPT train.py: "iter {iter_num}: loss {lossf:.4f}, time ..."),
    # a run of three steps: its final loss is the third line's, 2.9000.
    (logs / "train.log").write_text(
        "iter 0: loss 3.5000, time 100.00ms, mfu -100.00%\n"
        "iter 1: loss 3.2000, time 100.00ms, mfu -100.00%\n"
        "iter 2: loss 2.9000, time 100.00ms, mfu -100.00%\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-c", SERVER_PROBE, str(logs), str(tmp_path / "data")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    started, serving, after, compared, hub_report = (json.loads(line) for line in done.stdout.splitlines())
    assert started == [] and serving == []  # started and answering, the compare code not loaded
    assert "app.compare.catalogue" in after  # the listing loaded it
    status, run_id, (compare_status, answer) = compared
    assert status == 200 and compare_status == 200
    [run] = answer["runs"]
    assert run["id"] == run_id
    assert run["figures"]["final_loss"] == {"step": 2, "value": 2.9}
    assert hub_report is False  # a hub's report checks: a dashboard that is no hub never loads them


REPORT_PROBE = """
import json, sys, time, urllib.request
from pathlib import Path
from app.config import Config
from app.live.monitor import Monitor
from app.serve.process import Dashboard

log, notify = Path(sys.argv[1]), tuple(sys.argv[2:])
dashboard = Dashboard(Config(log_path=log, port=0, history=False, notify_urls=notify), Monitor(log))
config = dashboard.start()
base = f"http://127.0.0.1:{config.port}"

def get(path):
    with urllib.request.urlopen(base + path, timeout=30) as answer:
        return answer.read().decode()

try:
    # (the whole log read, not its first batch: a report asked for in between covers part of it)
    lines = len(log.read_bytes().splitlines())
    deadline = time.monotonic() + 60
    while json.loads(get("/api/snapshot"))["source"]["lines_read"] < lines and time.monotonic() < deadline:
        time.sleep(0.05)
    report = get("/api/report.txt")
    steps = sorted(m for m in sys.modules if m.startswith("app.stats.steps.") and m != "app.stats.steps.timing")
    print(json.dumps([report, steps, "app.alerts.delivery" in sys.modules]))
    if notify:
        input()  # the test says when its receiver has the message

finally:
    dashboard.stop()
"""


def _report_and_step_modules(log: Path) -> tuple[str, list[str]]:
    done = subprocess.run([sys.executable, "-c", REPORT_PROBE, str(log)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report, steps, delivery = json.loads(done.stdout)
    assert delivery is False  # no notification URL: the delivery code (and Apprise's plugins) never loads
    return report, steps


def test_a_server_with_a_notification_url_loads_the_delivery_and_notifies_a_real_receiver() -> None:
    receiver = Receiver()
    try:
        # The sample's miner has been silent for months: the first look tells the receiver so.
        with subprocess.Popen([sys.executable, "-c", REPORT_PROBE, str(ROOT / "tests" / "data" / "iota-sample.log"),
                               receiver.json_url("/notify")], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as probe:
            assert probe.stdout is not None and probe.stdin is not None
            _, _, delivery = json.loads(probe.stdout.readline())
            message = receiver.wait_for(1, timeout=60)[0]
            probe.stdin.write("\n")
            probe.stdin.close()
            assert probe.wait(timeout=60) == 0
    finally:
        receiver.close()
    assert delivery is True
    assert message.path == "/notify" and "silent" in message.json["message"].lower()


def test_a_miners_server_never_loads_the_step_trackers_code(tmp_path: Path) -> None:
    report, steps = _report_and_step_modules(ROOT / "tests" / "data" / "iota-sample.log")
    # The sample's own lines: layer 1, 16 minutes of them (21:02:10 to 21:18:30 in its stamps).
    assert report.startswith("tokwatch queue report\n")
    assert " to 2026-09-13 " in report and " (16 min)\n" in report and "\nStatus: L1 · " in report
    assert "Swarm:" not in report
    assert steps == []


def test_a_swarm_trainers_server_loads_it_and_its_report_carries_the_swarm(tmp_path: Path) -> None:
    report, steps = _report_and_step_modules(ROOT / "tests" / "data" / "sample-sn38.log")
    assert "app.stats.steps.tracker" in steps and "app.stats.steps.report" in steps
    assert "Swarm: " in report


HUB_PROBE = """
import json, sys
from pathlib import Path
from app.config import Config
from app.live.monitor import Monitor
from app.serve.process import Dashboard

log, data, hub = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "hub"
config = Config(log_path=log, port=0, data_dir=data, config_dir=data / "config", hub=hub)
dashboard = Dashboard(config, Monitor(log))
config = dashboard.start()
base = f"http://127.0.0.1:{config.port}"
HUB_ONLY = ("app.web.hub", "app.web.hub_runs", "app.web.fleet_push", "app.hub.store", "app.hub.runs")
CLIENT = ("app.alerts.heartbeat", "app.outgoing", "urllib.request")

def status(path):
    import urllib.error, urllib.request  # the probe's own client, once the server's modules are listed

    try:
        with urllib.request.urlopen(base + path, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as e:
        return e.code

try:
    loaded = [m for m in HUB_ONLY + CLIENT if m in sys.modules]  # before this probe's own client is used
    answers = {path: status(path) for path in ("/", "/api/snapshot", "/api/fleet", "/api/compare/fleet-runs")}
    print(json.dumps([loaded, answers]))
finally:
    dashboard.stop()
"""


def _hub_probe(tmp_path: Path, mode: str) -> tuple[list[str], dict[str, int]]:
    done = subprocess.run(
        [sys.executable, "-c", HUB_PROBE, str(ROOT / "tests" / "data" / "iota-sample.log"), str(tmp_path / mode), mode],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded, answers = json.loads(done.stdout)
    return loaded, answers


def test_a_dashboard_that_is_no_hub_never_loads_the_hubs_routes_nor_an_http_client_and_a_hub_serves_them(
    tmp_path: Path,
) -> None:
    loaded, answers = _hub_probe(tmp_path, "dashboard")
    # The hub's routes, the fleet's store and runs, and the heartbeat's HTTP client stay unloaded
    # for the weeks a dashboard runs; it never served the hub's routes.
    assert loaded == []
    assert answers == {"/": 200, "/api/snapshot": 200, "/api/fleet": 404, "/api/compare/fleet-runs": 404}
    loaded, answers = _hub_probe(tmp_path, "hub")
    assert {"app.web.hub", "app.web.hub_runs", "app.hub.store", "app.hub.runs"} <= set(loaded)
    assert answers == {"/": 200, "/api/snapshot": 200, "/api/fleet": 200, "/api/compare/fleet-runs": 200}
