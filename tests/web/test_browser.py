"""The page in a real Chromium (Playwright): live updates, polling fallback, phone layout, dark mode,
warm-up, token flow, step-trainer fields. Screenshots go to test-artifacts/ for a human to look at.

Without Chromium these tests skip, unless TOKWATCH_REQUIRE_BROWSER=1 (CI), where that is a failure.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from app.config import Config
from app.demo import write_demo_log
from app.live.monitor import Monitor
from tests.conftest import LogWriter, RunningServer, iota_line, start_server
from tests.pages import watched_page

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DATA = Path(__file__).resolve().parents[1] / "data"
PHONE = {"width": 390, "height": 844}
TOKEN = "browser-test-token"
FIXED_NOW = 1_790_000_000.0


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A phone-sized page that fails the test on any console error (a CSP violation included)."""
    # A refused websocket is logged by Chromium itself; anything else is ours (see allow_errors).
    yield from watched_page(browser, expected=["WebSocket connection", "401"], viewport=PHONE, device_scale_factor=2)


def allow_errors(page: Any, *fragments: str) -> None:
    """Console errors Chromium itself logs in this test (a refused fetch while the server is down)."""
    page.expected_errors.extend(fragments)


def restart(running: RunningServer, **changes: Any) -> RunningServer:
    """Stop a server and start another on the same HTTP port, as a user restarting tokwatch would."""
    running.dashboard.stop()
    config = replace(running.config, **changes)
    assert config.log_path is not None
    return start_server(config, Monitor(config.log_path))


def favicon(page: Any) -> str:
    """The favicon's SVG text."""
    return unquote(page.evaluate("document.getElementById('favicon').href"))


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def as_users_log(page: Any, composed: Path, shown: str) -> None:
    """For the docs' pictures: the page gets the composed log's snapshots as a user's tokwatch would
    send them for ``shown`` (that path wherever the composed log's tmp path was); call before goto."""
    real, users = json.dumps(str(composed))[1:-1], json.dumps(shown)[1:-1]

    def from_server(route: Any) -> None:
        answer = route.fetch()
        route.fulfill(response=answer, body=answer.text().replace(real, users))

    def socket(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda message: ws.send(message.replace(real, users) if isinstance(message, str) else message))

    page.route(re.compile(r"/api/snapshot"), from_server)
    page.route_web_socket(re.compile(r"/ws$"), socket)


def phone_shot(page: Any, name: str) -> None:
    """A whole-page picture of a touch phone's page, as the phone lays it out.

    Playwright's full_page capture of a mobile context lays the page out again without the touch
    emulation (``hover: none`` stops matching), so the viewport is made as tall as the page instead.
    """
    ARTIFACTS.mkdir(exist_ok=True)
    viewport = page.viewport_size
    page.set_viewport_size({"width": viewport["width"], "height": page.evaluate("document.documentElement.scrollHeight")})
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.set_viewport_size(viewport)


def no_horizontal_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px screen"


@pytest.fixture
def demo_server(config: Config, tmp_path: Path) -> Iterator[tuple[RunningServer, Monitor]]:
    """A server over a composed log with a frozen clock, so the page and the test see one snapshot."""
    path = write_demo_log(tmp_path / "demo.log", now=FIXED_NOW)
    monitor = Monitor(path, demo=True, clock=lambda: FIXED_NOW)
    running = start_server(replace(config, log_path=path), monitor)
    yield running, monitor
    running.dashboard.stop()


def test_status_line_and_tab_title_follow_the_log(server: RunningServer, log_writer: LogWriter, page: Any) -> None:
    page.goto(server.http_url)
    expect()(page.locator("#connection")).to_have_text("live")
    expect()(page.locator("#status")).to_have_text("waiting for log")

    log_writer.write(log_writer.registered(3))
    expect()(page.locator("#status")).to_have_text("L3 · …", timeout=2000)
    expect()(page).to_have_title("L3 · …")
    log_writer.write(log_writer.queued(1583))
    expect()(page.locator("#status")).to_have_text("Queue #1583", timeout=2000)
    expect()(page).to_have_title("Queue #1583")
    expect()(page.locator("#freshness")).to_contain_text("updated")
    assert page.evaluate("document.getElementById('favicon').href").startswith("data:image/svg+xml")
    shot(page, "live-queue")


def test_the_page_polls_when_the_websocket_port_is_closed(
    server: RunningServer, log_writer: LogWriter, page: Any
) -> None:
    page.route_web_socket(re.compile(r"^ws://"), lambda ws: ws.close())  # as a firewall would
    page.goto(server.http_url)
    expect()(page.locator("#connection")).to_have_text("polling every 5 s", timeout=5000)
    expect()(page.locator("#status")).to_have_text("waiting for log")

    log_writer.write(log_writer.registered(2))
    expect()(page.locator("#status")).to_have_text("L2 · …", timeout=7000)
    expect()(page).to_have_title("L2 · …")
    shot(page, "polling")


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone as the README pictures it: 390 px, touch, no hover (a narrow desktop window is not one)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def test_phone_layout_fits_and_dark_mode_renders(
    demo_server: tuple[RunningServer, Monitor], phone: Any, browser: Any
) -> None:
    server, monitor = demo_server
    page = phone
    page.goto(server.http_url)
    status = page.locator("#status")
    expect()(status).to_have_text(re.compile(r"L1 · \d+k tok/h"))
    expect()(page.locator("#demo")).to_be_visible()
    expect()(page.locator("#details li")).to_have_count(len(monitor.snapshot().details))
    expect()(page.locator("#warmup")).to_be_hidden()
    expect()(page.locator("#chart canvas")).to_have_count(1)
    # The pairing card is for the computer running tokwatch: a phone cannot scan its own screen.
    expect()(page.locator("#pairing")).to_be_hidden()
    no_horizontal_overflow(page)
    light_background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    phone_shot(page, "phone-light")

    page.emulate_media(color_scheme="dark")
    dark_background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    dark_text = page.evaluate("getComputedStyle(document.getElementById('status')).color")
    assert light_background != dark_background
    assert luminance(dark_background) < 0.1 < luminance(dark_text)
    no_horizontal_overflow(page)
    phone_shot(page, "phone-dark")

    desktop = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=2, color_scheme="dark")
    try:
        page = desktop.new_page()
        page.goto(server.http_url)
        expect()(page.locator("#status")).to_have_text(re.compile(r"L1 · \d+k tok/h"))
        expect()(page.locator("#chart canvas")).to_have_count(1)
        expect()(page.locator("#pairing")).to_be_visible()  # here it is: this is the computer running it
        shot(page, "desktop-dark")
    finally:
        desktop.close()


def luminance(css_colour: str) -> float:
    """Relative luminance (0 black … 1 white) of an ``rgb(r, g, b)`` colour."""
    red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", css_colour)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def test_warm_up_shows_one_bar_until_measured(server: RunningServer, log_writer: LogWriter, page: Any) -> None:
    log_writer.write(log_writer.registered(4) + log_writer.forward(4) + log_writer.forward(4))
    page.goto(server.http_url)
    expect()(page.locator("#status")).to_have_text("L4 · …")
    expect()(page.locator("#warmup")).to_be_visible()
    assert page.locator("#warmup [role=progressbar]").count() == 1
    expect()(page.locator("#warmup-text")).to_have_text(re.compile(r"^measuring… \(2 passes so far\) · rate in about \d+ min"))
    # 2 of 3 passes, but seconds of 3 minutes observed: the bar shows the part furthest from done.
    assert int(page.locator("#warmup-bar").get_attribute("aria-valuenow")) < 20
    # One count, the seed's, said once: in the card, not again in the details.
    expect()(page.locator("#details")).not_to_contain_text("passes so far")
    expect()(page.locator("#details")).not_to_contain_text("of 3 passes")
    no_horizontal_overflow(page)
    shot(page, "warm-up")


def test_a_quiet_log_is_called_out(server: RunningServer, log_writer: LogWriter, page: Any) -> None:
    # Queued, polling every 75 s: silent only past 4 × 75 s = 5 min; at 4 min the page's freshness
    # line is what says the log has gone quiet.
    last = time.time() - 4 * 60 - 5
    log_writer.write([line for k in range(6, -1, -1) for line in log_writer.queued(1583, t=last - 75 * k)])
    page.goto(server.http_url)
    # Five polls at #1583 in the last 10 minutes: a queue that does not move.
    expect()(page.locator("#status")).to_have_text("Queue #1583 · = 0/h")
    freshness = page.locator("#freshness")
    expect()(freshness).to_have_text("no new log line for 4 min")
    expect()(freshness).to_have_class(re.compile(r"\bquiet\b"))
    shot(page, "quiet")


def test_a_queued_miner_whose_log_died_is_red(server: RunningServer, log_writer: LogWriter, page: Any) -> None:
    log_writer.write(log_writer.queued(1583, t=time.time() - 25 * 60 - 5))
    page.goto(server.http_url)
    expect()(page.locator("#status")).to_have_text(re.compile(r"^Queue #1583 · log silent 2[56] min$"))
    expect()(page.locator("#state")).to_have_attribute("data-level", "problem")
    assert "<rect" in favicon(page) and "#dc2626" in favicon(page)  # problem: a red square


def test_a_silent_log_is_said_once_by_the_status_line(
    server: RunningServer, log_writer: LogWriter, page: Any
) -> None:
    log_writer.write(log_writer.registered(2, t=time.time() - 12 * 60 - 5))
    page.goto(server.http_url)
    expect()(page.locator("#status")).to_have_text(re.compile(r"^L2 · log silent 1[23] min$"))
    expect()(page.locator("#state-word")).to_have_text("log silent")
    expect()(page.locator("#state")).to_have_attribute("data-level", "problem")
    expect()(page.locator("#freshness")).to_be_hidden()  # not "no new log line for 12 min" again
    assert "<rect" in favicon(page) and "#dc2626" in favicon(page)  # problem: a red square


def test_a_log_quiet_for_days_reads_in_days(server: RunningServer, log_writer: LogWriter, page: Any) -> None:
    log_writer.write(log_writer.queued(1583, t=time.time() - 3 * 86400 - 5 * 3600 - 60))
    page.goto(server.http_url)
    # As app/text.py's duration() writes it, not "77 h 01 min".
    expect()(page.locator("#status")).to_have_text("Queue #1583 · log silent 3 d 5 h")


def test_a_source_problem_is_shown(config: Config, tmp_path: Path, page: Any) -> None:
    missing = tmp_path / "not-yet" / "miner.log"
    monitor = Monitor(missing)
    running = start_server(replace(config, log_path=missing), monitor)
    try:
        page.goto(running.http_url)
        problem = monitor.snapshot().source.problem
        assert problem, "the tailer reports a missing log as a problem"
        expect()(page.locator("#problem")).to_have_text(problem)
        expect()(page.locator("#status")).to_have_text("waiting for log")
        no_horizontal_overflow(page)
        shot(page, "problem")
    finally:
        page.close()
        running.dashboard.stop()


def test_the_token_comes_from_the_link_and_is_kept(config: Config, monitor: Monitor, page: Any) -> None:
    running = start_server(replace(config, token=TOKEN), monitor)
    try:
        page.goto(running.http_url)
        expect()(page.locator("#auth")).to_be_visible()
        expect()(page.locator("#auth")).to_contain_text("#token=")
        expect()(page.locator("#connection")).to_have_text("needs token")
        expect()(page.locator("#figures")).to_be_hidden()
        no_horizontal_overflow(page)
        shot(page, "needs-token")

        page.goto(f"{running.http_url}/#token={TOKEN}")
        expect()(page.locator("#status")).to_have_text("waiting for log")
        expect()(page.locator("#connection")).to_have_text("live")
        expect()(page.locator("#auth")).to_be_hidden()
        assert page.evaluate("location.hash") == ""  # the secret leaves the address bar

        page.goto(running.http_url)  # a bookmark without the fragment still works here
        expect()(page.locator("#connection")).to_have_text("live")
        expect()(page.locator("#auth")).to_be_hidden()
    finally:
        page.close()  # before the server goes, or its polls would log refused connections
        running.dashboard.stop()


def test_a_step_trainer_shows_its_fields(config: Config, tmp_path: Path, page: Any) -> None:
    log = tmp_path / "nanochat.log"
    shutil.copy(DATA / "sample-nanochat.log", log)
    monitor = Monitor(log)
    running = start_server(replace(config, log_path=log), monitor)
    try:
        snapshot = monitor.snapshot()
        page.goto(running.http_url)
        expect()(page.locator("#status")).to_have_text(snapshot.status_line)
        training = page.locator("#training")
        if snapshot.training is None:
            expect()(training).to_be_hidden()
            return
        expect()(training).to_be_visible()
        page.locator("#training summary").click()
        expect()(page.locator("#training-fields th").first).to_be_visible()
        no_horizontal_overflow(page)
        shot(page, "step-trainer")
    finally:
        page.close()
        running.dashboard.stop()


# --- the link to the dashboard itself ---------------------------------------------------------

def test_a_restart_on_another_websocket_port_reloads_the_page(
    server: RunningServer, log_writer: LogWriter, page: Any
) -> None:
    allow_errors(page, "Failed to load resource")  # polls while the server is down
    log_writer.write(log_writer.registered(3))
    page.goto(server.http_url)
    expect()(page.locator("#connection")).to_have_text("live")
    expect()(page.locator("#status")).to_have_text("L3 · …")
    old_port = server.config.effective_ws_port
    page.evaluate("window.notReloaded = true")
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))

    second = restart(server, ws_port=0)  # a new ephemeral websocket port
    try:
        new_port = second.config.effective_ws_port
        assert new_port != old_port
        # The next poll says where /ws is now; only a reload gets a CSP that lets the page go there.
        expect()(page.locator("html")).to_have_attribute("data-ws-port", str(new_port), timeout=9000)
        expect()(page.locator("#connection")).to_have_text("live")
        expect()(page.locator("#status")).to_have_text("L3 · …")
        assert page.evaluate("window.notReloaded") is None, "the page was not reloaded"
        assert sockets and f":{new_port}/" in sockets[-1]
    finally:
        page.close()
        second.dashboard.stop()


def test_a_websocket_port_mismatch_reloads_once_not_in_a_loop(server: RunningServer, page: Any) -> None:
    loads: list[float] = []
    page.on("load", lambda _: loads.append(time.monotonic()))
    tries: list[str] = []

    def refuse(ws: Any) -> None:
        tries.append(ws.url)
        ws.close()

    def elsewhere(route: Any) -> None:  # a server that keeps saying /ws is on another port
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "x-tokwatch-ws-port": "9"})

    page.route_web_socket(re.compile(r"^ws://"), refuse)
    page.route("**/api/snapshot", elsewhere)
    page.goto(server.http_url)
    deadline = time.monotonic() + 10
    while len(loads) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(loads) == 2, "the page did not reload to reach the websocket's new port"
    expect()(page.locator("#connection")).to_have_text("polling every 5 s", timeout=5000)
    told = len(tries)  # the reloaded page's first poll said "not this port"
    page.wait_for_timeout(2500)
    assert len(loads) == 2, f"{len(loads)} page loads: one reload, then polling, is the most"
    # After the server said "not this port", no try at the old port; before it, one a page load
    # (a second, on a slow machine, when the backoff's retry came before the poll's answer).
    assert len(tries) == told, tries
    assert 2 <= told <= 4, tries
    expect()(page.locator("#status")).to_have_text("waiting for log")


def test_an_unreachable_dashboard_is_not_blamed_on_the_miner(
    server: RunningServer, log_writer: LogWriter, page: Any
) -> None:
    allow_errors(page, "Failed to load resource")
    log_writer.write(log_writer.registered(2, t=time.time() - 12 * 60 - 5))
    page.goto(server.http_url)
    freshness = page.locator("#freshness")
    # Registered 12 min ago and quiet since: the log is silent (the clock may have ticked on).
    expect()(page.locator("#status")).to_have_text(re.compile(r"^L2 · log silent 1[23] min$"))
    expect()(freshness).to_be_hidden()
    live_icon = favicon(page)
    assert 'fill="none"' not in live_icon

    server.dashboard.stop()
    expect()(freshness).to_have_text(re.compile(r"^dashboard unreachable since \S.* \(\d+ s\)$"))
    expect()(freshness).not_to_have_class(re.compile(r"\bquiet\b"))
    expect()(page).to_have_title(re.compile(r"^⚠ L2 · log silent 1[23] min$"))
    icon = favicon(page)
    assert 'fill="none"' in icon and icon != live_icon, icon  # a grey ring: disconnected
    expect()(page.locator("body")).to_have_class(re.compile(r"\boffline\b"))  # figures dimmed
    shot(page, "unreachable")

    second = restart(server)  # same ports
    try:
        expect()(page).to_have_title(re.compile(r"^L2 · log silent 1[23] min$"), timeout=9000)
        expect()(freshness).to_be_hidden()
        expect()(page.locator("#connection")).to_have_text("live", timeout=9000)
        assert favicon(page) == live_icon
        expect()(page.locator("body")).not_to_have_class(re.compile(r"\boffline\b"))
    finally:
        page.close()
        second.dashboard.stop()


def test_figures_go_dim_when_the_token_stops_working(
    config: Config, monitor: Monitor, log_writer: LogWriter, page: Any
) -> None:
    allow_errors(page, "Failed to load resource")
    log_writer.write(log_writer.registered(3))
    running = start_server(replace(config, token=TOKEN), monitor)
    second: RunningServer | None = None
    try:
        page.goto(f"{running.http_url}/#token={TOKEN}")
        expect()(page.locator("#connection")).to_have_text("live")
        expect()(page.locator("#status")).to_have_text("L3 · …")

        second = restart(running, token="a-new-token")  # the old link's token no longer works
        # The token this browser last held good is refused: the server's token was replaced, said as such.
        expect()(page.locator("#connection")).to_have_text("token replaced", timeout=9000)
        expect()(page.locator("#auth")).to_be_visible()
        expect()(page.locator("#auth-replaced")).to_be_visible()
        expect()(page.locator("#auth-wrong")).to_be_hidden()
        expect()(page.locator("#freshness")).to_contain_text("token was replaced")
        expect()(page).to_have_title("⚠ L3 · …")
        expect()(page.locator("body")).to_have_class(re.compile(r"\blocked\b"))
        assert 'fill="none"' in favicon(page)
        no_horizontal_overflow(page)
        shot(page, "needs-token-stale")
    finally:
        page.close()
        running.dashboard.stop()
        if second is not None:
            second.dashboard.stop()


def test_a_poll_overtaken_by_the_websocket_does_not_overwrite_it(
    server: RunningServer, log_writer: LogWriter, page: Any
) -> None:
    tries: list[str] = []

    def second_try_gets_through(ws: Any) -> None:
        tries.append(ws.url)
        if len(tries) == 1:
            ws.close()  # the page starts polling
        else:
            ws.connect_to_server()

    held: list[tuple[Any, Any]] = []

    def hold_the_first_poll(route: Any) -> None:
        if held:
            route.continue_()
            return
        held.append((route, route.fetch()))  # the snapshot as it is now ("waiting for log")…
        log_writer.write(log_writer.registered(3))  # …which the websocket's first message will outdate

    page.route_web_socket(re.compile(r"^ws://"), second_try_gets_through)
    page.route("**/api/snapshot", hold_the_first_poll)
    page.goto(server.http_url)
    expect()(page.locator("#connection")).to_have_text("live", timeout=5000)
    expect()(page.locator("#status")).to_have_text("L3 · …")
    assert held, "the page polled while the websocket was down"

    route, response = held[0]
    with suppress(Exception):  # the page may have aborted it already
        route.fulfill(response=response)
    page.wait_for_timeout(500)
    expect()(page.locator("#status")).to_have_text("L3 · …")
    expect()(page).to_have_title("L3 · …")


def test_a_garbled_token_in_the_link_is_ignored(config: Config, monitor: Monitor, page: Any) -> None:
    running = start_server(replace(config, token=TOKEN), monitor)
    try:
        page.goto(f"{running.http_url}/#token=%E0%A4%A")  # a bad percent-escape
        expect()(page.locator("#connection")).to_have_text("needs token")
        expect()(page.locator("#auth")).to_be_visible()
        assert page.evaluate("location.hash") == ""
    finally:
        page.close()
        running.dashboard.stop()


def test_a_websocket_closed_before_its_first_message_backs_off(server: RunningServer, page: Any) -> None:
    tries: list[float] = []
    accepted: list[Any] = []

    def accept(ws: Any) -> None:  # a mocked socket: the page sees it open…
        tries.append(time.monotonic())
        accepted.append(ws)

    page.route_web_socket(re.compile(r"^ws://"), accept)
    page.goto(server.http_url)
    end = time.monotonic() + 5
    while time.monotonic() < end:
        while accepted:
            accepted.pop().close()  # …then closed before any message, as a server erring at once would
        page.wait_for_timeout(50)
    # Backing off (1 s, 2 s, 4 s, jittered down to half) allows 4 tries in 5 s; a backoff reset
    # on every open would retry every 0.5–1 s.
    assert len(tries) <= 4, [round(t - tries[0], 2) for t in tries]


def test_an_idle_miner_reads_idle_in_the_status_line_and_the_tab_title(
    config: Config, tmp_path: Path, page: Any
) -> None:
    # The composed log's passes stop at 10:20:00 while it keeps logging: at 10:32:00 it is idle.
    lines = (DATA / "iota-stops-and-resumes.log").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "miner.log"
    path.write_text("".join(f"{line}\n" for line in lines if line[1:20] <= "2026-09-20 10:32:00"), encoding="utf-8")
    at = time.mktime((2026, 9, 20, 10, 32, 0, 0, 0, -1))
    monitor = Monitor(path, clock=lambda: at)
    running = start_server(replace(config, log_path=path), monitor)
    try:
        page.goto(running.http_url)
        expect()(page.locator("#status")).to_have_text("L1 · idle 12 min")
        expect()(page).to_have_title("L1 · idle 12 min")
        expect()(page.locator("#details")).to_contain_text("was 768k tok/h")
        shot(page, "idle")
    finally:
        page.close()
        running.dashboard.stop()


def test_queue_resets_show_as_events_and_copy_report_copies_the_servers_report(
    config: Config, tmp_path: Path, page: Any
) -> None:
    # The composed log's header gives the answers: resets at 08:06:20 (#57 → #1613) and
    # 08:16:20 (#1093 → #1702); at 08:26:30 the miner is still queued, at #1286.
    path = tmp_path / "miner.log"
    shutil.copy(DATA / "iota-queue-resets.log", path)
    at = time.mktime((2026, 9, 21, 8, 26, 30, 0, 0, -1))
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line[1:20] <= "2026-09-21 08:26:30"]
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    monitor = Monitor(path, clock=lambda: at)
    running = start_server(replace(config, log_path=path), monitor)
    try:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.goto(running.http_url)
        expect()(page.locator("#status")).to_have_text("Queue #1286 · ▼ −2496/h · front in ~30 min")
        expect()(page.locator("#state")).to_have_attribute("data-level", "waiting")
        events = page.locator("#events")
        expect()(events).to_be_visible()
        resets = page.locator('#events li[data-kind="queue_reset"]')
        expect()(resets).to_have_count(2)
        expect()(resets.first).to_contain_text("#1093")
        expect()(resets.first).to_contain_text("#1702")
        expect()(resets.first.locator("time")).to_have_text("10 min ago")  # 08:16:20 → 08:26:30
        page.get_by_role("button", name="Copy report").click()
        expect()(page.locator("#report-result")).to_contain_text("Copied")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == monitor.queue_report(at)
        assert "#57 → #1613" in copied
        shot(page, "queue-events")
    finally:
        page.close()
        running.dashboard.stop()


def test_ages_tick_on_the_page_between_snapshots(config: Config, tmp_path: Path, page: Any) -> None:
    # The server's clock is frozen at FIXED_NOW: every snapshot it sends says the same, so any
    # age that moves is the page's own ticking. Registered 30 min before; a pass (4 × 800) every
    # 15 s up to FIXED_NOW − 55 s; then one orchestrator line at FIXED_NOW − 50 s.
    path = tmp_path / "miner.log"
    writer = LogWriter(path)
    lines = writer.registered(1, FIXED_NOW - 1800)
    for k in range(114, -1, -1):  # passes at FIXED_NOW − 55 − 15 k
        lines += writer.forward(1, FIXED_NOW - 55 - 15 * k)
    lines.append(iota_line(FIXED_NOW - 50, "DEBUG", "subnet.common_api_client:orchestrator_request:33",
                           "Making orchestrator request | method: GET | path: /miner/heartbeat"))
    writer.write(lines)
    monitor = Monitor(path, clock=lambda: FIXED_NOW)
    running = start_server(replace(config, log_path=path), monitor)
    try:
        page.goto(running.http_url)
        details = page.locator("#details")
        # Window (FIXED_NOW − 1200, FIXED_NOW]: the passes with 55 + 15 k < 1200, k = 0 … 76, 77 of
        # them → 231/h × 3200 = 739,200.
        expect()(page.locator("#status")).to_have_text("L1 · 739k tok/h")
        expect()(details).to_contain_text("last pass 55 s ago")
        expect()(page.locator("#freshness")).to_have_text(re.compile(r"^updated 5\d s ago$"))
        # Ten seconds on, with no new snapshot: both ages have moved on, in step.
        expect()(details).to_contain_text("last pass 1 min ago", timeout=12_000)
        # The last line came 5 s after the last pass: "updated" reaches a minute 5 s later.
        expect()(page.locator("#freshness")).to_have_text("updated 1 min ago", timeout=8_000)
        expect()(details).to_contain_text("last pass 1 min ago")
        assert page.evaluate("document.querySelector('#details li[data-line]').dataset.line") == "0"
    finally:
        allow_errors(page, "ERR_CONNECTION_REFUSED")  # the page polls on after the server stops
        running.dashboard.stop()
