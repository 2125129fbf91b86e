"""The fleet page and a machine's page in a real Chromium: cards, totals, filter and sort, live push,
offline cards, a hostile agent's text kept as text, phone (390 px) and desktop in both themes.

Screenshots go to test-artifacts/ (fleet-phone-light.png, …) for a human to look at. Without
Chromium these tests skip, unless TOKWATCH_REQUIRE_BROWSER=1 (CI), where that is a failure.
"""

from __future__ import annotations

import json
import re
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
from tests.pages import wait_for_module, watched_page

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1">'
GONE_SINCE = float(int(time.time()) - 3600)  # "gone" trained from an hour before the test


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


class Agents:
    """Posts reports to a running hub as its enrolled machines would."""

    def __init__(self, url: str, keys: dict[str, str]) -> None:
        self.url = url
        self.keys = keys
        self.seq: dict[str, int] = {}

    def send(self, name: str, *, state: str = "training", status: str | None = None, tph: float | None = None,
             layer: int | None = None, queue: dict[str, Any] | None = None, network: float | None = None,
             at: float | None = None, interval: float = 15.0, was: float | None = None, **extra: Any) -> None:
        at = time.time() if at is None else at
        self.seq[name] = self.seq.get(name, 0) + 1
        snap: dict[str, Any] = {
            "status_line": status or state, "state": state, "layer": layer, "queue": queue, "as_of": at,
            "rate": {"measured": tph is not None, "tokens_per_hour": tph, "was_tokens_per_hour": was},
            "network": None if network is None else {"bytes_per_second": network, "window_seconds": 1200.0},
            "details": extra.pop("details", [f"{name} detail"]), **extra,
        }
        # sent now, as an agent stamps it: the hub places the report at its age (now − as_of)
        body = report_body(machine=name, stream="d" * 16, seq=self.seq[name], sent_at=time.time(),
                           interval_seconds=interval, snapshot=snap)
        request = urllib.request.Request(f"{self.url}/hub/report", data=json.dumps(body).encode(), method="POST",
                                         headers={"Authorization": f"Bearer {self.keys[name]}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert json.load(response)["taken"]


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[RunningServer, Agents]]:
    data_dir = tmp_path / "data"
    store = HubStore(data_dir / "hub.sqlite3")
    names = ("rig-a", "rig-b", "rig-c", "rig-d", "evil", "gone")
    keys = {name: store.enroll(name, time.time()) for name in names}
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    agents = Agents(running.http_url.rstrip("/"), keys)
    now = time.time()
    # The hub keeps a minute's last report: each in the middle of its own minute, so the time a
    # report takes to arrive (long on a loaded machine) never moves two into one minute.
    middle = now // 60 * 60 - 30
    for minutes_ago in range(30, 0, -1):  # half an hour of rig-a's history, for its chart
        agents.send("rig-a", status="L1 · 300k tok/h", tph=300_000.0 + 2000 * minutes_ago, layer=1,
                    at=middle - 60 * (minutes_ago - 1))
    agents.send("rig-a", status="L1 · 358k tok/h", tph=358_400.0, layer=1, network=12_300_000.0,
                events=[{"at": now - 120, "kind": "layer", "text": "moved to layer 1"}])
    agents.send("rig-b", status="L3 · 1M tok/h", tph=1_000_000.0, layer=3)
    agents.send("rig-c", state="queued", status="Queue #1583", queue={"position": 1583, "trend_per_hour": -40.0, "eta_seconds": 36 * 3600.0})
    # An idle machine whose (older) agent still reports its decaying window: not production.
    agents.send("rig-d", state="idle", status="L2 · idle 31 min", tph=182_000.0, was=772_000.0, layer=2)
    agents.send("evil", state="working", status=HOSTILE, details=["</li><script>document.body.dataset.pwned=1</script>"],
                run={"id": "<b>run</b>", "epoch": 1, "phase": "x"})
    agents.send("gone", status="L4 · 9M tok/h", tph=9_000_000.0, layer=4, interval=0.5,  # offline 1.5 s later
                state_since=GONE_SINCE)
    yield running, agents
    running.dashboard.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from watched_page(browser, viewport=PHONE, device_scale_factor=2)


def local_midnight() -> float:
    t = time.localtime()
    return time.mktime((t.tm_year, t.tm_mon, t.tm_mday, 0, 0, 0, 0, 0, -1))


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def fits(page: Any, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page is {scroll} px wide on a {width} px screen"


def uncut(page: Any) -> None:
    """Every card's words are whole: none runs past its box or ends in an ellipsis."""
    cut = page.evaluate("""[...document.querySelectorAll(
        '.machine-card .name, .machine-card .state, .card-status, .fig-label, .fig-value, .seen, .last-doing')]
      .filter((node) => node.scrollWidth > node.clientWidth + 1 || node.getBoundingClientRect().right >
                        node.closest('.machine-card').getBoundingClientRect().right)
      .map((node) => node.textContent)""")
    assert not cut, f"cut on the card: {cut}"


def card(page: Any, name: str) -> Any:
    return page.locator(f'.machine-card[data-name="{name}"]')


def test_the_fleet_on_a_phone_and_a_desktop(hub: tuple[RunningServer, Agents], page: Any) -> None:
    server, agents = hub
    time.sleep(1.6)  # "gone" has missed three of its half-second reports
    page.goto(f"{server.http_url}/fleet")
    expect()(page.locator("#connection")).to_have_text("live")
    expect()(page.locator(".machine-card")).to_have_count(6)
    expect()(page.locator("#t-online")).to_have_text("5/6")
    expect()(page.locator("#t-training")).to_have_text("2")
    expect()(page.locator("#t-queued")).to_have_text("1")
    expect()(page.locator("#t-idle")).to_have_text("1")
    # 358,400 + 1,000,000: the machines training; the idle one's 182k and the offline one's 9M
    # count nowhere.
    expect()(page.locator("#t-rate")).to_have_text("1.3M tok/h")
    expect()(page.locator("#t-rate + .total-label")).to_have_text("summed, training")
    if time.time() - local_midnight() > 40 * 60:  # all of the composed half hour is today
        # No agent sent a count of its own: the hub's estimate, a minute at each minute's rate.
        # rig-a: (Σ 300,000 + 2,000·m for m = 1…30, + 358,400) / 60 = 171,473; rig-b 1M/60 = 16,667;
        # "gone" ran a minute at 9M: 150,000. Sum 338,140 → "338k".
        expect()(page.locator("#t-today")).to_have_text("338k")

    rig_a = card(page, "rig-a")
    expect()(rig_a.locator(".card-status")).to_have_text("L1 · 358k tok/h")
    expect()(rig_a).to_contain_text("L1")
    expect()(rig_a).to_contain_text("12 MB/s")
    expect()(card(page, "rig-c").locator(".fig", has_text="queue")).to_contain_text("#1583 · ▲ +40/h · front in ~1 d 12 h")
    assert card(page, "rig-a").get_attribute("data-level") == "ok"
    assert card(page, "rig-d").get_attribute("data-level") == "warning"
    # Idle: no rate, what it was doing.
    expect()(card(page, "rig-d").locator(".fig", has_text="tok/h")).to_have_text(re.compile(r"tok/h\s*was 772k"))

    gone = card(page, "gone")
    expect()(gone.locator(".card-status")).to_have_text("offline")
    expect()(gone.locator(".figs")).to_have_count(0)  # no current figure: 9M only as what it was doing
    expect()(gone.locator(".seen")).to_contain_text("offline · last seen")
    # A problem (red), saying what it was last doing and since when.
    assert gone.get_attribute("data-level") == "problem"
    since = time.strftime("%H:%M", time.localtime(GONE_SINCE))
    expect()(gone.locator(".last-doing")).to_have_text(f"was training (L4 · 9M tok/h) since {since}")

    # The hostile agent's markup is text on its own card, and nothing ran.
    evil = card(page, "evil")
    expect()(evil.locator(".card-status")).to_have_text(HOSTILE)
    assert page.locator(".cards img").count() == 0
    assert page.evaluate("document.body.dataset.pwned") is None

    fits(page, PHONE["width"])
    uncut(page)
    shot(page, "fleet-phone-light")
    page.emulate_media(color_scheme="dark")
    fits(page, PHONE["width"])
    uncut(page)
    shot(page, "fleet-phone-dark")
    page.set_viewport_size(DESKTOP)
    shot(page, "fleet-desktop-dark")
    page.emulate_media(color_scheme="light")
    shot(page, "fleet-desktop-light")

    # Live: a new report shows without a reload.
    agents.send("rig-b", status="L3 · 1.1M tok/h", tph=1_100_000.0, layer=3)
    expect()(card(page, "rig-b").locator(".card-status")).to_have_text("L3 · 1.1M tok/h")
    expect()(page.locator("#t-rate")).to_have_text("1.4M tok/h")


def test_filter_and_sort(hub: tuple[RunningServer, Agents], page: Any) -> None:
    server, _ = hub
    time.sleep(1.6)
    page.goto(f"{server.http_url}/fleet")
    expect()(page.locator(".machine-card")).to_have_count(6)
    page.select_option("#filter", "queued")
    expect()(page.locator(".machine-card")).to_have_count(1)
    expect()(page.locator(".machine-card .name")).to_have_text("rig-c")
    page.select_option("#filter", "offline")
    expect()(page.locator(".machine-card .name")).to_have_text("gone")
    page.select_option("#filter", "attention")  # idle (warning) and offline (a problem)
    expect()(page.locator(".machine-card .name")).to_have_text(["gone", "rig-d"])
    page.select_option("#filter", "all")
    page.select_option("#sort", "rate")
    expect()(page.locator(".machine-card .name").first).to_have_text("rig-b")
    page.select_option("#sort", "name")
    names = page.locator(".machine-card .name").all_inner_texts()
    assert names == sorted(names)
    page.reload()  # the choice is kept
    assert page.eval_on_selector("#sort", "el => el.value") == "name"


def test_a_machine_page_with_its_chart(hub: tuple[RunningServer, Agents], page: Any) -> None:
    server, _ = hub
    page.goto(f"{server.http_url}/fleet")
    card(page, "rig-a").locator("a").click()
    page.wait_for_url(re.compile(r"/fleet/rig-a$"))
    expect()(page.locator("#status")).to_have_text("L1 · 358k tok/h")
    expect()(page.locator("#details li")).to_have_text(["rig-a detail"])
    expect()(page.locator("#events li")).to_contain_text(["moved to layer 1"])
    # Its time as the dashboard writes one ("4 min ago"), not the browser's "12/1/2026, 2:19:52 PM".
    expect()(page.locator("#events li time").first).to_have_text(re.compile(r"^(just now|\d+ (s|min) ago|\d+ h \d\d min ago)$"))
    page.click('[data-span="6h"]')
    wait_for_module(page, "/static/machine-chart.js", "(m) => (m.inspectMachineChart()[0]?.xs.length ?? 0) === 360")
    [rate] = page.evaluate("import('/static/machine-chart.js').then((m) => m.inspectMachineChart())")
    assert max(v for v in rate["values"] if v is not None) == 360_000  # 300,000 + 2,000 × 30 min ago
    fits(page, PHONE["width"])
    shot(page, "machine-phone-light")
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size(DESKTOP)
    shot(page, "machine-desktop-dark")
    # An offline machine's page: red, and what it was last doing instead of stale details.
    time.sleep(1.6)
    page.goto(f"{server.http_url}/fleet/gone")
    expect()(page.locator("#status")).to_have_text("offline")
    expect()(page.locator("#machine")).to_have_attribute("data-level", "problem")
    since = time.strftime("%H:%M", time.localtime(GONE_SINCE))
    expect()(page.locator("#details li")).to_have_text([f"was training (L4 · 9M tok/h) since {since}"])


def test_the_fleet_needs_the_token_off_loopback(tmp_path: Path, browser: Any) -> None:
    data_dir = tmp_path / "data"
    store = HubStore(data_dir / "hub.sqlite3")
    store.enroll("rig-a", time.time())
    store.close()
    config = Config(log_path=None, port=0, hub=True, data_dir=data_dir, token="fleet-token-123",
                    config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{running.http_url}/api/fleet", timeout=5)
        assert refused.value.code == 401
        refused.value.close()
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{running.http_url}/fleet")
        expect()(page.locator("#auth")).to_be_visible()
        expect()(page.locator("#auth-missing")).to_contain_text("scan the code it shows on that computer")
        assert str(tmp_path) not in page.locator("#auth").inner_text()
        # The fleet's screen has the paste field: a wrong token is called wrong, the printed link works.
        field = page.get_by_label("Link or token")
        field.fill("a-wrong-token-123")
        field.press("Enter")
        expect()(page.locator("#auth-wrong")).to_be_visible()
        expect()(page.locator("#auth-missing")).to_be_hidden()
        fits(page, PHONE["width"])
        shot(page, "fleet-token-wrong")
        field = page.get_by_label("Link or token")
        field.fill(f"{running.http_url}/fleet#token=fleet-token-123")
        field.press("Enter")
        expect()(page.locator(".machine-card")).to_have_count(1)
        expect()(page.locator("#auth")).to_be_hidden()
        context.close()
        # The hub's data folder (the user's home) is in the enrol command on this computer only;
        # another device on the LAN, token or not, gets the command without it.
        lan = urllib.request.Request(f"{running.http_url}/fleet",
                                     headers={"Host": f"192.168.1.20:{running.config.port}"})
        with urllib.request.urlopen(lan, timeout=5) as answer:
            elsewhere = answer.read().decode()
        assert str(tmp_path) not in elsewhere
        assert "tokwatch hub enroll NAME</code>" in elsewhere and "the hub was started with" in elsewhere
        with urllib.request.urlopen(f"{running.http_url}/fleet", timeout=5) as answer:
            assert f"--data-dir {data_dir}" in answer.read().decode()
    finally:
        running.dashboard.stop()


def test_an_empty_hub_says_how_to_enrol_the_first_machine(tmp_path: Path, browser: Any) -> None:
    config = Config(log_path=None, port=0, hub=True, data_dir=tmp_path / "data", config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    try:
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{running.http_url}/fleet")
        none = page.locator("#none")
        expect()(none).to_be_visible()
        expect()(none).to_contain_text("No machine has joined this hub yet")
        expect()(none.locator("code")).to_contain_text("tokwatch hub enroll NAME")
        expect()(page.locator("#empty")).to_be_hidden()  # not "No machine matches."
        expect()(page.locator("#add")).to_have_attribute("open", "")
        fits(page, PHONE["width"])
        shot(page, "fleet-empty")
        context.close()
    finally:
        running.dashboard.stop()


def test_a_machine_pages_ages_tick_between_reports(hub: tuple[RunningServer, Agents], page: Any) -> None:
    server, agents = hub
    now = time.time()
    # One report, then none for the rest of the test (the agent reports every 15 s): the ages the
    # agent's words hold, and the report's own, move on the page every second all the same.
    agents.send("rig-d", state="idle", status="L2 · idle 50 s", layer=2, details=["last pass 50 s ago", "layer 2"],
                ticking=[{"line": -1, "at": now - 50, "template": "L2 · idle {}", "style": "duration"},
                         {"line": 0, "at": now - 50, "template": "last pass {} ago", "style": "ago"}],
                events=[{"at": now - 50, "kind": "idle", "text": "passes stopped"}], interval=60.0)
    page.goto(f"{server.http_url}/fleet/rig-d")
    expect()(page.locator("#status")).to_have_text(re.compile(r"^L2 · idle 5\d s$"))
    expect()(page.locator("#status")).to_have_text(re.compile(r"^L2 · idle (5[3-9]|6\d) s$|^L2 · idle 1 min$"),
                                                   timeout=6000)
    expect()(page.locator("#details li").first).to_have_text(re.compile(r"^last pass (5[3-9]|60) s ago$|^last pass 1 min ago$"))
    expect()(page.locator("#details li").nth(1)).to_have_text("layer 2")
    expect()(page.locator("#events li time").first).to_have_text(re.compile(r"^(5[3-9]|60) s ago$|^1 min ago$"))
    # the page's own poll (every 5 s) brings the same report again: still ticking, never back to 50 s
    page.wait_for_timeout(5500)
    expect()(page.locator("#status")).not_to_have_text("L2 · idle 50 s")
    assert int(re.sub(r"\D", "", page.locator("#details li").first.inner_text()) or 0) != 50
