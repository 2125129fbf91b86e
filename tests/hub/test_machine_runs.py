"""A trainer's run on one machine beside a run on another, through a real hub: ``POST /hub/runs``
(each machine's report key), ``GET /api/compare/fleet-runs`` and ``GET /api/compare/fleet``.

rig-a ran tests/web/test_compare_page.py's "higher learning rate" log (loss 4 - step/8,000 every
100 iterations from 0 to 6,000; val 4.1, 3.8, 3.55, 3.35 at 0, 2,000, 4,000, 6,000); rig-b the
run of tests/compare/resume.py and its resume from step 4,000 (worked out by hand there). By hand:
rig-a has 61 losses, final and best 3.2500 at step 6,000 (4 - 6,000/8,000), val_loss final and
best 3.35 at 6,000; rig-b 61 losses (stitched), final and best 3.5500 at 6,000, val_loss final
and best 3.6 at 6,000, its val at 4,000 the resume's 3.7.

Each body is what an agent sends of its run: the run read from its log as a comparison reads it
(:func:`app.compare.view.from_run`), through :func:`app.hub.runs.run_body`.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.compare.files import read_runs
from app.compare.view import RunFigures, from_run
from app.config import Config
from app.hub.runs import MAX_PART_BYTES, MAX_RUNS_PER_MACHINE, RunReportError, check_run, run_parts
from app.hub.store import HubStore
from app.live.monitor import Monitor
from tests import pages
from tests.compare.resume import first_run, resumed_run, text
from tests.conftest import RunningServer, start_server
from tests.web.test_compare_page import browsed, faster_run  # noqa: F401 - a fixture


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[RunningServer, dict[str, str]]]:
    data_dir = tmp_path / "data"
    store = HubStore(data_dir / "hub.sqlite3")
    keys = {name: store.enroll(name, time.time()) for name in ("rig-a", "rig-b", "gone")}
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    yield running, keys
    running.dashboard.stop()


def parts_of(tmp_path: Path, machine: str, name: str, lines: list[str], upload: str = "upload-1") -> list[bytes]:
    path = tmp_path / name
    path.write_text(text(lines))
    (run,) = read_runs([path])
    return run_parts(machine, from_run(run, f"file:{path}", name, time.time()), upload)


def send(server: RunningServer, key: str, parts: list[bytes]) -> tuple[int, dict[str, Any]]:
    """Each part in turn, as an agent sends them; the last answer (or the first refusal)."""
    for part in parts:
        status, answer = post(server, key, part)
        if status != 200:
            return status, answer
    return status, answer


def post(server: RunningServer, key: str | None, body: bytes | dict[str, Any]) -> tuple[int, dict[str, Any]]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(f"{server.http_url.rstrip('/')}/hub/runs", data=data, method="POST",
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as e:
        found = e.read()
        return e.code, json.loads(found) if found.startswith(b"{") else {"text": found.decode()}


def get(server: RunningServer, path: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{server.http_url.rstrip('/')}{path}", timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def test_two_machines_runs_overlaid_with_their_figures(
        hub: tuple[RunningServer, dict[str, str]], tmp_path: Path) -> None:
    server, keys = hub
    rig_a = parts_of(tmp_path, "rig-a", "lr-6e-4.log", faster_run())
    rig_b = parts_of(tmp_path, "rig-b", "lr-3e-4.log", first_run() + resumed_run())
    assert len(rig_a) == 1  # 61 losses and 4 evaluations: one request
    status, answer = send(server, keys["rig-a"], rig_a)
    assert (status, answer["points"]) == (200, 61)
    assert send(server, keys["rig-b"], rig_b)[0] == 200
    assert send(server, keys["rig-b"], parts_of(tmp_path, "rig-b", "lr-3e-4.log", first_run() + resumed_run(),
                                                "upload-2"))[0] == 200  # sent again: the same run, kept once

    status, listing = get(server, "/api/compare/fleet-runs")
    assert status == 200
    assert [(run["machine"], run["last_step"]) for run in listing["runs"]] == [("rig-b", 6000), ("rig-a", 6000)]
    assert listing["runs"][0]["name"].startswith("rig-b: lr-3e-4.log")

    ids = "&".join(f"run={run['id']}" for run in reversed(listing["runs"]))
    status, answer = get(server, f"/api/compare/fleet?{ids}")
    assert status == 200 and answer["x"] == "step"
    a, b = answer["runs"]
    assert (a["origin"], len(a["loss"]), a["loss"][0], a["loss"][-1]) == ("machine", 61, [0, 4.0], [6000, 3.25])
    assert a["figures"]["final_loss"] == {"step": 6000, "value": 3.25}
    assert a["figures"]["best_loss"] == {"step": 6000, "value": 3.25}
    assert a["figures"]["evals"]["val_loss"] == {"final": {"step": 6000, "value": 3.35},
                                                 "best": {"step": 6000, "value": 3.35}}
    assert len(b["loss"]) == 61 and b["loss"][-1] == [6000, 3.55]
    assert b["figures"]["final_loss"] == {"step": 6000, "value": 3.55}
    assert b["figures"]["best_loss"] == {"step": 6000, "value": 3.55}
    assert dict(map(tuple, b["evals"]["val_loss"]))[4000] == 3.7  # type: ignore[arg-type]
    assert b["figures"]["evals"]["val_loss"]["best"] == {"step": 6000, "value": 3.6}
    assert answer["table"][1] == ["final loss", "3.25 (step 6,000)", "3.55 (step 6,000)"]


def test_a_long_run_goes_as_the_whole_run_charts_buckets(
        hub: tuple[RunningServer, dict[str, str]], tmp_path: Path) -> None:
    """20,000 losses (4 - step/100,000 at steps 0 … 19,999): past 6,400 the run goes as 1,500
    buckets of ceil(20,000 / 1,500) = 14 steps (1,429 of them, the last of 8 steps), each drawn as
    its lowest and highest, two points (the loss falls: its last and first step); final and best
    from every loss: 4 - 19,999/100,000 = 3.80001 at step 19,999."""
    server, keys = hub
    lines = ["tokens per iteration will be: 491,520"] + [
        f"iter {step}: loss {4 - step / 100_000:.5f}, time 290.00ms, mfu 39.00%" for step in range(20_000)]
    parts = parts_of(tmp_path, "rig-a", "long.log", lines)
    bodies = [json.loads(part) for part in parts]
    assert all(len(part) < MAX_PART_BYTES for part in parts) and len(parts) > 1
    assert {body["run"]["loss_bucket_steps"] for body in bodies} == {14}
    assert sum(len(body["run"]["loss"]) for body in bodies) == 2 * 1429
    # Out of order and with a stranger's part of another upload between: the run is put together.
    assert post(server, keys["rig-a"], parts[-1]) == (200, {"part": len(parts) - 1, "parts": len(parts)})
    status, answer = send(server, keys["rig-a"], parts[:-1])
    assert (status, answer["points"]) == (200, 2 * 1429), answer
    _, listing = get(server, "/api/compare/fleet-runs")
    _, shown = get(server, f"/api/compare/fleet?run={listing['runs'][0]['id']}")
    assert shown["runs"][0]["figures"]["final_loss"] == {"step": 19_999, "value": 3.80001}
    assert shown["runs"][0]["loss_bucket_steps"] == 14


def test_the_hub_keeps_only_what_a_key_may_send(hub: tuple[RunningServer, dict[str, str]], tmp_path: Path) -> None:
    server, keys = hub
    (body,) = parts_of(tmp_path, "rig-a", "lr-6e-4.log", faster_run())
    assert post(server, None, body)[0] == 401
    assert post(server, "tw_" + "x" * 43, body)[0] == 401
    assert post(server, keys["rig-b"], body) == (403, {"error": "this key belongs to rig-b, not rig-a"})

    def changed(change: Any) -> bytes:
        data = json.loads(body)
        change(data)
        return json.dumps(data).encode()

    assert post(server, keys["rig-a"], changed(lambda d: d["run"]["loss"].__setitem__(3, [300, "NaN"])))[0] == 400
    assert post(server, keys["rig-a"], changed(lambda d: d["run"]["loss"].reverse())) == (
        400, {"error": "loss must be in step order"})
    assert post(server, keys["rig-a"], changed(lambda d: d.__setitem__("parts", 65)))[0] == 400
    assert post(server, keys["rig-a"], changed(lambda d: d.__setitem__("upload", "../x")))[0] == 400
    assert post(server, keys["rig-a"], b"x" * (MAX_PART_BYTES + 1))[0] == 413
    assert get(server, "/api/compare/fleet-runs")[1]["runs"] == []
    # An agent sends at most the whole-run chart's 6,400 points; a hub takes no more.
    with pytest.raises(RunReportError, match="at most 6400"):
        check_run({"id": "r", "name": "r", "first_step": 0, "last_step": 6400,
                   "loss": [[s, 1.0] for s in range(6401)]})
    many = RunFigures(run_id="r", name="r", origin="file", stage="train", loss=[(s, 1.0) for s in range(6401)],
                      first_step=0, last_step=6400)
    assert sum(len(json.loads(p)["run"]["loss"]) for p in run_parts("rig-a", many, "upload-9")) == 6400
    # A machine keeps its newest runs only.
    for i in range(MAX_RUNS_PER_MACHINE + 2):
        assert post(server, keys["rig-a"], changed(lambda d, i=i: d["run"].__setitem__("id", f"run-{i}")))[0] == 200
    ids = [run["id"] for run in get(server, "/api/compare/fleet-runs")[1]["runs"]]
    assert ids == [f"m:rig-a:run-{i}" for i in range(MAX_RUNS_PER_MACHINE + 1, 1, -1)]
    assert get(server, "/api/compare/fleet?run=m:rig-a:run-0")[0] == 404  # gone
    assert get(server, "/api/compare/fleet?run=h:1:train")[0] == 404
    assert get(server, "/api/compare/fleet")[0] == 400


@pytest.mark.socket  # real run.py processes, started through tests/hub/test_e2e.py's helpers
def test_two_agents_send_their_runs_to_a_real_hub(tmp_path: Path) -> None:
    """A hub and two agents, each a real ``run.py``: each agent's history imports its log on its
    first start and its run goes to the hub by itself; the figures are the ones worked out above."""
    from tests.hub.test_e2e import get as get_json
    from tests.hub.test_e2e import launch, ready, start, wait_for

    now = time.time()
    hub_home = tmp_path / "hub"
    store = HubStore(hub_home / "data" / "tokwatch" / "hub.sqlite3")
    keys = {name: store.enroll(name, now) for name in ("rig-a", "rig-b")}
    store.close()
    hub = start(hub_home, "--hub")
    procs = [hub]
    try:
        launched = []
        for name, lines in (("rig-a", faster_run()), ("rig-b", first_run() + resumed_run())):
            log = tmp_path / f"{name}.log"
            log.write_text(text(lines))
            launched.append(launch(tmp_path / name, "--log", str(log), "--report-to", hub.url,
                                   "--report-key", keys[name], "--name", name, "--report-every", "1"))
        procs += [ready(*found) for found in launched]
        listing = wait_for("both machines' runs on the hub", lambda: (
            found if len((found := get_json(f"{hub.url}/api/compare/fleet-runs"))["runs"]) == 2 else None), 90)
        by_machine = {run["machine"]: run for run in listing["runs"]}
        assert by_machine["rig-a"]["name"].startswith("rig-a: rig-a.log train")
        assert by_machine["rig-b"]["last_step"] == 6000
        shown = get_json(f"{hub.url}/api/compare/fleet?run={by_machine['rig-a']['id']}&run={by_machine['rig-b']['id']}")
        a, b = shown["runs"]
        assert len(a["loss"]) == 61 and len(b["loss"]) == 61  # rig-b's resume stitched by its history
        assert (a["figures"]["final_loss"], a["figures"]["best_loss"]) == ({"step": 6000, "value": 3.25},) * 2
        assert (b["figures"]["final_loss"], b["figures"]["best_loss"]) == ({"step": 6000, "value": 3.55},) * 2
        assert a["figures"]["evals"]["val_loss"]["final"] == {"step": 6000, "value": 3.35}
        assert b["figures"]["evals"]["val_loss"]["best"] == {"step": 6000, "value": 3.6}
        # rig-a's own page, through its hub: "compare with…" offers rig-b's run, and draws it.
        rig_a_page = procs[1].url
        offered = {run["id"] for run in get_json(f"{rig_a_page}/api/runs")["fleet"]}
        assert by_machine["rig-b"]["id"] in offered
        beside = get_json(f"{rig_a_page}/api/compare?run=live&run={by_machine['rig-b']['id']}")["runs"]
        assert [run["figures"]["final_loss"] for run in beside] == [{"step": 6000, "value": 3.25},
                                                                   {"step": 6000, "value": 3.55}]
        assert beside[1]["name"].startswith("rig-b: rig-b.log train")
        # The hub's runs need a report key: a stranger reads nothing.
        try:
            get_json(f"{hub.url}/hub/runs")
        except urllib.error.HTTPError as e:
            assert e.code == 401
        else:
            raise AssertionError("the hub's runs were read without a key")
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            assert "twk_" not in proc.stderr_path.read_text(), "a report key was written to a log"


def test_compare_with_offers_a_fleet_machines_run_on_a_hub_that_follows_a_trainer(
        tmp_path: Path, browsed: Any) -> None:  # noqa: F811
    """A hub that follows rig-a's log (the "higher learning rate" run) and holds rig-b's reported
    run: "compare with…" offers "rig-b: <run name>", and the two overlay with the figures above."""
    from app.record.recorder import Recorder
    from app.serve.process import Dashboard
    from app.store import History
    from tests.web.test_compare_page import DESKTOP, expect, inspect, wait_until

    data_dir = tmp_path / "data"
    store = HubStore(data_dir / "hub.sqlite3")
    key = store.enroll("rig-b", time.time())
    store.close()
    log_path = tmp_path / "lr-6e-4.log"
    log_path.write_text(text(faster_run()))
    config = Config(log_path=log_path, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config")
    recorder = Recorder(History(data_dir), log_path, machine="rig-a")
    dashboard = Dashboard(config, Monitor(log_path), recorder=recorder)
    started = dashboard.start()
    try:
        deadline = time.monotonic() + 120
        while (recorder.progress is None or not recorder.progress.done) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert recorder.progress is not None and recorder.progress.done and recorder.history.flush(20)
        server = RunningServer(dashboard, started)
        assert send(server, key, parts_of(tmp_path, "rig-b", "lr-3e-4.log", first_run() + resumed_run()))[0] == 200
        assert get(server, "/api/runs")[0] == 200
        _, listing = get(server, "/api/runs")
        (fleet_run,) = listing["fleet"]
        assert fleet_run["name"].startswith("rig-b: lr-3e-4.log")
        assert get(server, f"/api/compare?run=live&run={fleet_run['id']}&x=time")[0] == 400
        page = browsed(DESKTOP)
        page.goto(f"http://127.0.0.1:{started.port}/")
        pages.open_panel(page, "#compare")
        picker = page.locator("#compare-run")
        expect()(picker.locator("option", has_text="rig-b: lr-3e-4.log")).to_have_count(1)
        picker.select_option(fleet_run["id"])
        assert wait_until(page, lambda found: len(found["runs"]) == 2)
        followed, other = inspect(page)["runs"]
        assert (followed["points"], other["points"]) == (61, 61)
        assert other["name"].startswith("rig-b: lr-3e-4.log")
        table = page.locator("#compare-table")
        expect()(table.locator("tr", has_text="best loss")).to_contain_text("3.55 (step 6,000)")
        expect()(table.locator("tr", has_text="best loss")).to_contain_text("3.25 (step 6,000)")
        assert not page.errors, page.errors
    finally:
        dashboard.stop()


def test_a_key_sends_two_whole_runs_at_once_then_a_part_each_two_seconds(tmp_path: Path) -> None:
    from app.hub.runs import MAX_PARTS, MachineRuns

    store = HubStore(tmp_path / "hub.sqlite3")
    key = store.enroll("rig-a", 1000.0)
    clock = [1000.0]
    runs = MachineRuns(store, clock=lambda: clock[0])
    (part,) = parts_of(tmp_path, "rig-a", "lr-6e-4.log", faster_run())
    try:
        for _ in range(2 * MAX_PARTS):
            assert runs.take(f"Bearer {key}", part)[0] == 200
        status, answer = runs.take(f"Bearer {key}", part)
        assert status == 429 and answer["retry_after"] == pytest.approx(2.0)
        clock[0] += 2.0
        assert runs.take(f"Bearer {key}", part)[0] == 200
    finally:
        store.close()
