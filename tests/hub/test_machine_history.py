"""A machine's past on the hub: its agent sends the history it kept before the hub knew it, and the
machine's page charts it (uPlot, the dashboard's chart code) with its usual rate and state strip.

Composed history (values computed here): the machine ``rig-old`` trained on layer 1 at 772,000
tok/h from 30 h to 26 h ago (a sample every 30 s, as its own tokwatch keeps them) and was idle
from 26 h to 20 h ago; the hub is started afterwards and has never heard of it. Then the agent
reports once (720,000 tok/h now) and sends its history, which the hub takes once however often
it is sent.
"""

from __future__ import annotations

import functools
import itertools
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.changes import Changes
from app.config import Config
from app.hub.agent import Agent
from app.hub.report import MAX_HISTORY_BYTES, MAX_HISTORY_POINTS
from app.hub.spool import Spool
from app.hub.store import HubStore
from app.live.monitor import Monitor
from app.snapshot import Snapshot
from app.store import History, Observation, Sample, SourceKey
from app.store.minutes import machine_minutes
from tests.conftest import RunningServer, start_server
from tests.pages import open_page, wait_for_module
from tests.snapshots import snapshot

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
NAME = "rig-old"
HOUR = 3600
RATE = 772_000.0


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


@pytest.fixture
def machine_history(tmp_path: Path) -> tuple[Path, float]:
    """The machine's own data dir, with the history its tokwatch kept (the hub not yet started)."""
    data_dir = tmp_path / "machine"
    now = time.time()
    start = int(now - 30 * HOUR) // 300 * 300
    history = History(data_dir, clock=lambda: now)
    history.start()
    samples = [Sample(t, RATE, "training", 1, 3200) for t in range(start, start + 4 * HOUR, 30)]
    samples += [Sample(t, None, "idle", 1, 3200) for t in range(start + 4 * HOUR, start + 10 * HOUR, 30)]
    assert history.submit(Observation(SourceKey(NAME, "/logs/miner", "miner"), samples=tuple(samples)))
    assert history.flush(30)
    history.stop()
    return data_dir, float(start)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[RunningServer, str]]:
    data_dir = tmp_path / "hub"
    store = HubStore(data_dir / "hub.sqlite3")
    key = store.enroll(NAME, time.time())
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    yield running, key
    running.dashboard.stop()


class FixedSource(Changes):
    """A live feed whose snapshot never changes: a machine training at 720k tok/h."""

    def snapshot(self) -> Snapshot:
        return snapshot("training", time.time(), status_line="L1 · 720k tok/h", layer=1,
                        rate={"measured": True, "tokens_per_hour": 720_000.0})

    def section_changed(self) -> None:
        self.bump()


def agent_for(url: str, key: str, data_dir: Path, spool_path: Path) -> Agent:
    return Agent(url=url, key=key, machine=NAME, spool=Spool(spool_path), source=FixedSource(),
                 history=functools.partial(machine_minutes, data_dir, NAME))


def report_all(url: str, key: str, data_dir: Path, spool_path: Path) -> None:
    """The machine's agent sends its snapshot and its whole history to the hub at ``url``, then stops."""
    agent = agent_for(url, key, data_dir, spool_path)
    try:
        agent.take(agent._snapshot())
        assert agent.flush() and agent.send_history()
    finally:
        agent.stop()


def week_drawn(start: float) -> str:
    """The page's 7-day chart is drawn (not the 24-hour one, 288 points, nor the 6-hour one, 360 minutes
    from 6 h ago), as a JS function of machine-chart.js."""
    return ("(m) => { const p = m.inspectMachineChart()[0];"
            f" return p !== undefined && p.xs.length > 300 && p.x[0] <= {start}; }}")


def chart(url: str, span: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/fleet/{NAME}/chart?span={span}", timeout=5) as response:
        data: dict[str, Any] = json.load(response)
    return data


def test_the_agent_sends_its_history_once_and_the_hub_keeps_it_once(
    machine_history: tuple[Path, float], hub: tuple[RunningServer, str], tmp_path: Path
) -> None:
    data_dir, _ = machine_history
    server, key = hub
    url = server.http_url.rstrip("/")
    minutes = machine_minutes(data_dir, NAME, time.time() - 7 * 86400, time.time())
    # A minute each while the 30-s samples are kept (48 h): 10 h of them.
    assert len(minutes) == 10 * 60
    assert {m[1] for m in minutes[: 4 * 60]} == {RATE} and {m[2] for m in minutes[4 * 60:]} == {"idle"}
    agent = agent_for(url, key, data_dir, tmp_path / "spool.sqlite3")
    try:
        agent.take(agent._snapshot())
        assert agent.flush()
        began = time.monotonic()
        assert agent.send_history()
        # Two batches, each answered in milliseconds: paced by the hub's answers, not by a fixed wait.
        assert -(-len(minutes) // MAX_HISTORY_POINTS) == 2
        assert time.monotonic() - began < 0.5
    finally:
        agent.stop()
    day = chart(url, "7d")
    rates = [v for _, v in day["points"] if v is not None]
    assert max(rates) == RATE
    assert "idle" in {s for _, s in day["states"]}
    # Sent again (another start of the agent): nothing new, nothing counted twice.
    again = agent_for(url, key, data_dir, tmp_path / "spool2.sqlite3")
    try:
        assert again.send_history()
    finally:
        again.stop()
    assert chart(url, "7d")["points"] == day["points"]


def test_the_machine_page_charts_the_history_from_before_the_hub(
    machine_history: tuple[Path, float], hub: tuple[RunningServer, str], tmp_path: Path, browser: Any
) -> None:
    data_dir, start = machine_history
    server, key = hub
    url = server.http_url.rstrip("/")
    report_all(url, key, data_dir, tmp_path / "spool.sqlite3")
    page = open_page(browser, viewport={"width": 1280, "height": 800}, locale="en-US")
    context, errors = page.context, page.errors
    try:
        page.goto(f"{url}/fleet/{NAME}")
        expect()(page.locator("#status")).to_have_text("L1 · 720k tok/h")
        page.click('[data-span="7d"]')
        # The 7-day chart, not the 24-hour one still drawn while its fetch is under way.
        wait_for_module(page, "/static/machine-chart.js", week_drawn(start))
        plots = page.evaluate("import('/static/machine-chart.js').then((m) => m.inspectMachineChart())")
        rate = plots[0]
        assert rate["unit"] == "tok/h"
        shown = {t: v for t, v in zip(rate["xs"], rate["values"], strict=True) if v is not None}
        # The 30-min buckets of the 4 h it trained, long before the hub started, at its real rate.
        trained = [t for t in shown if start <= t < start + 4 * HOUR - 1800]
        # On a failure, say whether the hub itself holds those minutes (the page or the intake then).
        served = {t for t, v in chart(url, "7d")["points"] if v is not None and start <= t < start + 4 * HOUR - 1800}
        assert len(trained) >= 6 and all(shown[t] == RATE for t in trained), (len(served), rate["x"], rate["xs"][:2])
        assert rate["y"][1] >= RATE
        assert {"training", "idle"} <= set(rate["bands"])
        # Hover reads a value; the arrow keys walk the points.
        page.locator("#chart").focus()
        page.keyboard.press("Home")
        expect()(page.locator("#chart-readout")).to_contain_text("772,000 tok/h")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "machine-history-desktop-light.png"), full_page=True)
        page.emulate_media(color_scheme="dark")
        page.wait_for_function("() => matchMedia('(prefers-color-scheme: dark)').matches")
        page.screenshot(path=str(ARTIFACTS / "machine-history-desktop-dark.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        # The chart follows the new width (its resize observer), however busy the machine is.
        page.wait_for_function("() => document.documentElement.scrollWidth <= 390")
        page.screenshot(path=str(ARTIFACTS / "machine-history-phone-dark.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors


def test_a_late_answer_for_the_range_before_never_replaces_the_range_chosen(
    machine_history: tuple[Path, float], hub: tuple[RunningServer, str], tmp_path: Path, browser: Any
) -> None:
    """A slow phone or a busy hub: the page's first chart answer (24 h) comes back only after the
    user chose 7 d and its answer was drawn. The 7-day chart stays; the late 24 h one is not drawn."""
    data_dir, start = machine_history
    server, key = hub
    url = server.http_url.rstrip("/")
    report_all(url, key, data_dir, tmp_path / "spool.sqlite3")
    held: list[Any] = []

    def hold_first_day(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page = open_page(browser, viewport={"width": 1280, "height": 800}, locale="en-US")
    context, errors = page.context, page.errors
    week = week_drawn(start)
    try:
        page.route(f"**/api/fleet/{NAME}/chart?span=24h", hold_first_day)
        page.goto(f"{url}/fleet/{NAME}")
        expect()(page.locator("#status")).to_have_text("L1 · 720k tok/h")
        deadline = time.monotonic() + 10
        while not held and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # lets the route handler run; the condition is the hold itself
        assert len(held) == 1
        page.click('[data-span="7d"]')
        wait_for_module(page, "/static/machine-chart.js", week)
        with page.expect_event("requestfinished", lambda r: "span=24h" in r.url):
            held[0].continue_()
        # The late answer's body read and handled by the page: two frames on from its arrival.
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert page.evaluate(f"import('/static/machine-chart.js').then({week})") is True
        assert page.get_attribute('[data-span="7d"]', "aria-pressed") == "true"
    finally:
        context.close()
    assert not errors, errors


def test_a_week_goes_in_bounded_batches_each_paced_by_the_hubs_answer(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A week of minutes (10,079) to a hub that takes 50 ms to answer each batch: every batch within the
    cap, each sent only after the agent waited as long as the hub took, every minute sent once."""
    now = int(time.time()) // 60 * 60
    week = [(t, RATE, "training", None, 1) for t in range(now - 7 * 86400 + 60, now, 60)]
    agent = Agent(url="http://127.0.0.1:9", key="k" * 16, machine=NAME, spool=Spool(tmp_path / "spool.sqlite3"),
                  source=FixedSource(), history=lambda since, until: [m for m in week if since <= m[0] < until])
    sends: list[tuple[float, float, int]] = []  # when each batch went, when the hub answered, its size

    def slow_hub(body: str, url: str | None = None) -> str:
        began = time.monotonic()
        time.sleep(0.05)
        points = json.loads(body)["points"]
        assert len(body.encode()) <= MAX_HISTORY_BYTES and len(points) <= MAX_HISTORY_POINTS
        sends.append((began, time.monotonic(), len(points)))
        return "taken"

    monkeypatch.setattr(agent, "_send", slow_hub)
    try:
        assert agent.send_history()
    finally:
        agent.stop()
    assert sum(n for _, _, n in sends) == len(week)
    assert len(sends) == -(-len(week) // MAX_HISTORY_POINTS)
    gaps = [nxt[0] - prev[1] for prev, nxt in itertools.pairwise(sends)]
    assert min(gaps) >= 0.045  # as long as the hub took, not the 20-ms floor
