"""Two hub machines' tok/h on one chart: ``/api/compare/machines`` and the machine page's "compare
with…", in a real Chromium on a phone and a desktop, both themes.

The hub and its reports are test_fleet_page.py's: rig-a reported 300,000 + 2,000 × m tok/h on
layer 1 at each of the 30 minutes m before now (the highest, 360,000, 30 minutes ago) and 358,400
now; rig-b one report of 1,000,000 tok/h on layer 3.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.conftest import RunningServer
from tests.hub.test_fleet_page import DESKTOP, PHONE, Agents, expect, fits, hub, page  # noqa: F401 - fixtures

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"  # `make screenshots` copies them into docs/


def get(server: RunningServer, path: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"{server.http_url.rstrip('/')}{path}", timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def inspect(shown: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        found = shown.evaluate("import('/static/machine-compare.js').then((m) => m.inspectCompare())")
        if found is not None:
            return dict(found)
        shown.wait_for_timeout(50)
    raise AssertionError("no comparison drawn")


def test_two_machines_on_one_chart_with_their_layers(hub: tuple[RunningServer, Agents]) -> None:  # noqa: F811
    server, agents = hub
    status, answer = get(server, "/api/compare/machines?machine=rig-a&machine=rig-b&span=6h")
    assert status == 200
    rig_a, rig_b = answer["machines"]
    assert (rig_a["legend"], rig_b["legend"]) == ("rig-a · L1", "rig-b · L3")
    values_a = [v for _, v in rig_a["points"] if v is not None]
    assert max(values_a) == 360_000 and len(values_a) == 31  # 30 minutes of history and the report now
    assert [v for _, v in rig_b["points"] if v is not None] == [1_000_000]
    assert [t for t, _ in rig_a["points"]] == [t for t, _ in rig_b["points"]]  # one time axis
    # A machine that moved layers says so in the legend: rig-b on layer 4 three minutes before its L3 report.
    agents.send("rig-b", status="L4 · 900k tok/h", tph=900_000.0, layer=4, at=time.time() - 180)
    _, answer = get(server, "/api/compare/machines?machine=rig-b&span=6h")
    assert answer["machines"][0]["legend"] == "rig-b · L4 → L3"
    assert get(server, "/api/compare/machines?machine=nobody")[0] == 404
    assert get(server, "/api/compare/machines")[0] == 400


def test_the_machine_page_compares_with_another_from_its_url(
        hub: tuple[RunningServer, Agents], page: Any) -> None:  # noqa: F811
    server, _ = hub
    page.goto(f"{server.http_url.rstrip('/')}/fleet/rig-a?compare=rig-b")
    inspect(page)
    page.click('[data-span="6h"]')  # the page's span is the comparison's
    deadline = time.monotonic() + 15
    while inspect(page)["span"] != "6h" and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    found = inspect(page)
    assert found["span"] == "6h"
    assert [m["legend"] for m in found["machines"]] == ["rig-a · L1", "rig-b · L3"]
    assert found["machines"][0]["colour"] != found["machines"][1]["colour"]
    # No usual rate yet (half an hour of reports is under the 3 h it takes): the legend says none.
    expect()(page.locator("#compare-key li")).to_have_text(["━ rig-a · L1", "━ rig-b · L3 remove"])
    fits(page, PHONE["width"])
    page.locator("#compare").screenshot(path=str(ARTIFACTS / "compare-machines-phone-light.png"))
    # Another machine picked from the list goes into the URL.
    page.locator("#compare-machine").select_option("rig-d")
    expect()(page.locator("#compare-key li")).to_have_count(3)
    assert page.url.endswith("?compare=rig-b&compare=rig-d")
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size(DESKTOP)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:  # the plot follows the wider box and the dark theme's colours
        found = inspect(page)
        if found["machines"][0]["colour"] == "#5eead4" and found["width"] > PHONE["width"]:
            break
        page.wait_for_timeout(50)
    assert found["machines"][0]["colour"] == "#5eead4" and found["width"] > PHONE["width"], found
    page.locator("#history").screenshot(path=str(ARTIFACTS / "compare-machines-desktop-dark.png"))


def test_a_late_comparison_for_the_span_before_is_not_drawn(
        hub: tuple[RunningServer, Agents], page: Any) -> None:  # noqa: F811
    """The first comparison (24 h) answers only after the user chose 6 h and its answer was drawn."""
    server, _ = hub
    held: list[Any] = []

    def hold_first_day(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/compare/machines?*span=24h*", hold_first_day)
    page.goto(f"{server.http_url.rstrip('/')}/fleet/rig-a?compare=rig-b")
    deadline = time.monotonic() + 15
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # lets the route handler run; the condition is the hold itself
    assert len(held) == 1
    page.click('[data-span="6h"]')
    assert inspect(page)["span"] == "6h"
    with page.expect_event("requestfinished", lambda r: "span=24h" in r.url):
        held[0].continue_()
    # The late answer's body read and handled by the page: two frames on from its arrival.
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert inspect(page)["span"] == "6h"


def test_a_machine_named_compare_keeps_its_own_json(tmp_path: Path) -> None:
    from app.config import Config
    from app.hub.store import HubStore
    from app.live.monitor import Monitor
    from tests.conftest import start_server

    data_dir = tmp_path / "data"
    store = HubStore(data_dir / "hub.sqlite3")
    keys = {name: store.enroll(name, time.time()) for name in ("compare", "rig-a")}
    store.close()
    running = start_server(Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config"),
                           Monitor(None))
    try:
        agents = Agents(running.http_url.rstrip("/"), keys)
        agents.send("compare", status="L2 · 400k tok/h", tph=400_000.0, layer=2)
        agents.send("rig-a", status="L1 · 300k tok/h", tph=300_000.0, layer=1)
        status, machine = get(running, "/api/fleet/compare")
        assert status == 200 and machine["card"]["name"] == "compare"  # the machine, not the comparison
        status, answer = get(running, "/api/compare/machines?machine=compare&machine=rig-a&span=6h")
        assert status == 200 and [m["legend"] for m in answer["machines"]] == ["compare · L2", "rig-a · L1"]
    finally:
        running.dashboard.stop()
