"""The page in a real Chromium, fed snapshots over a mocked websocket: every state's word, colour
and shape in both themes, the screen-reader announcements, WCAG contrast computed from the
computed styles in every state (dimmed included), the warm-up sentence and bar, the Backend
line's explanation, the events list, step-trainer cards, the token screen, keyboard and zoom.

The snapshots start from a real one (the composed DEMO log through the real engine) and change
only the fields a test is about, so the page sees the contract as the server writes it.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.demo import write_demo_log
from app.live.monitor import Monitor
from app.snapshot import to_dict
from tests.conftest import RunningServer, start_server
from tests.pages import watched_page
from tests.web.wcag import COLLECT_TEXT, backdrop, contrast_ratio, parse_colour, text_ratios

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
PHONE = {"width": 390, "height": 844}
FIXED_NOW = 1_790_000_000.0
TOKEN = "page-test-token-1"

# state → level, as the shared contract defines it
LEVELS = {
    "training": "ok",
    "measuring": "ok",
    "done": "ok",
    "waiting": "waiting",
    "queued": "waiting",
    "working": "waiting",
    "idle": "warning",
    "stalled": "warning",
    "silent": "problem",
    "diverged": "problem",
    "crashed": "problem",
    "broken": "warning",
    "unrecognised": "problem",
}
STATUS_LINES = {
    "training": "L1 · 796k tok/h",
    "measuring": "L1 · …",
    "done": "done · step 5567/5568",
    "waiting": "waiting for log",
    "queued": "Queue #1583",
    "working": "working",
    "idle": "L1 · idle 12 min",
    "stalled": "step 383/29000 · stalled 1 h 00 min",
    "silent": "L1 · log silent 12 min",
    "diverged": "diverged · step 1200",
    "crashed": "step 17/60 · crashed",
    "broken": "epoch 0.05 · broken",
    "unrecognised": "log format not recognised",
}


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


@pytest.fixture(scope="module")
def real_snapshot(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A snapshot of the composed DEMO log as the real engine makes it."""
    path = write_demo_log(tmp_path_factory.mktemp("demo") / "demo.log", now=FIXED_NOW)
    monitor = Monitor(path, demo=False, clock=lambda: FIXED_NOW)
    try:
        from app.ingest.backwards import read_backwards

        monitor.backlog(read_backwards(path))
        return to_dict(monitor.snapshot(FIXED_NOW))
    finally:
        monitor.stop()


def in_state(base: dict[str, Any], state: str, **changes: Any) -> dict[str, Any]:
    """The real snapshot moved to another state, with that state's level and status line."""
    snapshot = copy.deepcopy(base)
    snapshot.update(state=state, level=LEVELS[state], status_line=STATUS_LINES[state])
    snapshot.update(changes)
    return snapshot


class Feed:
    """The page's websocket, answered by the test: each send() is a snapshot pushed to the page."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.sockets: list[Any] = []
        page.route_web_socket(re.compile(r"^ws://"), lambda ws: self.sockets.append(ws))
        # The day's events are the fed snapshot's (the server's own log is not the one fed).
        self.events: list[Any] = []
        page.route("**/api/events", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps({"events": self.events})))

    def send(self, snapshot: dict[str, Any]) -> None:
        expect()(self.page.locator("#connection")).to_have_text("live")
        self.events = list(snapshot.get("events") or [])
        self.sockets[-1].send(json.dumps(snapshot))


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A phone-sized page that fails the test on any console error (a CSP violation included)."""
    yield from watched_page(browser, expected=["401", "Failed to load resource", "WebSocket connection"],
                            viewport=PHONE, device_scale_factor=1)


@pytest.fixture
def fed(server: RunningServer, page: Any) -> Callable[[dict[str, Any]], None]:
    """Open the page with its websocket in the test's hands; returns the send function."""
    feed = Feed(page)
    page.goto(server.http_url)
    return feed.send


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def colour_of(page: Any, selector: str, prop: str = "color") -> str:
    return str(page.locator(selector).first.evaluate(f"el => getComputedStyle(el).{prop}"))


def page_background(page: Any) -> tuple[float, float, float]:
    return parse_colour(page.evaluate("getComputedStyle(document.body).backgroundColor"))[0]


def low_contrast_text(page: Any) -> list[str]:
    """Every visible text under 4.5:1 against what is behind it."""
    samples = page.evaluate(COLLECT_TEXT)
    assert len(samples) > 5, "the collector found the page's text"
    return [f"{m.what}: {m.ratio:.2f}" for m in text_ratios(samples, page_background(page)) if m.ratio < 4.5]


def low_contrast_graphics(page: Any) -> list[str]:
    """Bars, lines and marks under 3:1 against the card or page behind them."""
    found = []
    checks = [
        ("#warmup-bar .meter-fill", "backgroundColor", "#warmup-bar"),
        ("#warmup-bar", "borderTopColor", "#warmup"),
        ("#spark-line", "stroke", "#history"),
        ("#state", "borderTopColor", "body"),
        ("#state .state-mark", "backgroundColor", "body"),
    ]
    for selector, prop, behind_selector in checks:
        element = page.locator(selector)
        if element.count() == 0 or not element.first.is_visible():
            continue
        colour, alpha = parse_colour(colour_of(page, selector, prop))
        if alpha == 0:
            continue  # a hollow mark: its border carries it (checked as the pill's border)
        chain = page.locator(behind_selector).first.evaluate(
            "el => { const out = []; for (let n = el; n; n = n.parentElement) "
            "out.push(getComputedStyle(n).backgroundColor); return out; }"
        )
        behind = backdrop(chain, page_background(page))
        ratio = contrast_ratio(colour, behind)
        if ratio < 3:
            found.append(f"{selector} {prop}: {ratio:.2f}")
    return found


# --- state at a glance ------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_state_has_its_word_and_its_level_colour(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any, scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)
    colours: dict[str, set[str]] = {}
    words = {}
    for state, level in LEVELS.items():
        fed(in_state(real_snapshot, state))
        expect()(page.locator("#status")).to_have_text(STATUS_LINES[state])
        expect()(page.locator("#state")).to_have_attribute("data-level", level)
        word = page.locator("#state-word").inner_text().strip()
        assert word, f"{state} has a word"
        words[state] = word.lower()
        # The headline and the pill share the level's colour; the pill's shape differs by level.
        status_colour = colour_of(page, "#status")
        assert colour_of(page, "#state") == status_colour, state
        colours.setdefault(level, set()).add(status_colour)
        assert not low_contrast_text(page), (state, scheme, low_contrast_text(page))
        shot(page, f"state-{state}-{scheme}")
    assert all(len(found) == 1 for found in colours.values()), colours
    assert len({next(iter(found)) for found in colours.values()}) == 4, "four levels, four colours"
    assert len(set(words.values())) == len(words), words
    assert words["idle"] == "idle" and words["silent"] == "log silent"


def test_the_level_has_a_shape_as_well_as_a_colour(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    shapes = set()
    for state in ("training", "queued", "idle", "silent"):
        fed(in_state(real_snapshot, state))
        expect()(page.locator("#state")).to_have_attribute("data-level", LEVELS[state])
        mark = page.locator("#state .state-mark")
        shapes.add(
            mark.evaluate(
                "el => { const s = getComputedStyle(el); "
                "return [s.borderRadius, s.clipPath, s.backgroundColor === 'rgba(0, 0, 0, 0)'].join('|'); }"
            )
        )
    assert len(shapes) == 4, shapes


def test_favicon_and_title_carry_the_state(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    icons = {}
    for state in ("training", "queued", "stalled", "unrecognised"):
        fed(in_state(real_snapshot, state))
        expect()(page.locator("#status")).to_have_text(STATUS_LINES[state])
        icons[state] = page.evaluate("decodeURIComponent(document.getElementById('favicon').href)")
    assert len(set(icons.values())) == 4, icons
    expect()(page).to_have_title("log format not recognised")  # the line says it already
    # Something wrong that the line does not name: the tab says the state's word first.
    fed(in_state(real_snapshot, "silent", status_line="L1 · 412k tok/h"))
    expect()(page).to_have_title("log silent · L1 · 412k tok/h")
    fed(in_state(real_snapshot, "idle"))
    expect()(page).to_have_title("L1 · idle 12 min")  # the line says it already
    fed(in_state(real_snapshot, "training"))
    expect()(page).to_have_title("L1 · 796k tok/h")


def test_the_connection_is_labelled_as_the_dashboards(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    fed(in_state(real_snapshot, "idle"))
    box = page.locator("#connection-box")
    expect()(box).to_have_text(re.compile(r"^\s*dashboard connection:\s+live\s*$"))
    # It is not the miner's state: it sits apart from the state word and the status line.
    assert not page.locator(".now").locator("#connection").count()


def test_the_live_region_announces_a_change_of_state_not_of_figures(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    announcer = page.locator("#announcer")
    assert announcer.get_attribute("aria-live") == "polite"
    fed(in_state(real_snapshot, "training"))
    expect()(announcer).to_have_text("training: L1 · 796k tok/h")
    fed(in_state(real_snapshot, "training", status_line="L1 · 801k tok/h"))
    expect()(page.locator("#status")).to_have_text("L1 · 801k tok/h")
    expect()(announcer).to_have_text("training: L1 · 796k tok/h")  # a figure: not announced
    fed(in_state(real_snapshot, "idle"))
    expect()(announcer).to_have_text("idle: L1 · idle 12 min")
    fed(in_state(real_snapshot, "idle", status_line="L1 · idle 13 min"))
    expect()(page.locator("#status")).to_have_text("L1 · idle 13 min")
    expect()(announcer).to_have_text("idle: L1 · idle 12 min")
    fed(in_state(real_snapshot, "silent"))
    expect()(announcer).to_have_text("log silent: L1 · log silent 12 min")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_contrast_holds_in_every_state_and_when_dimmed(
    real_snapshot: dict[str, Any], server: RunningServer, page: Any, scheme: str
) -> None:
    feed = Feed(page)
    page.emulate_media(color_scheme=scheme)
    page.goto(server.http_url)
    measuring = in_state(real_snapshot, "measuring")
    measuring["warmup"] = {**measuring["warmup"], "passes": 2, "observed_seconds": 100.0, "done": False,
                           "text": "measuring: 2 of 3 passes · 1 min 40 s of 3 min — rate in about 1 min"}
    measuring["events"] = [{"at": FIXED_NOW - 30, "kind": "error", "text": "ERROR: connection reset"},
                           {"at": FIXED_NOW - 300, "kind": "idle", "text": "no pass for 5 min"}]
    for state in LEVELS:
        snapshot = measuring if state == "measuring" else in_state(real_snapshot, state)
        feed.send(snapshot)
        expect()(page.locator("#status")).to_have_text(snapshot["status_line"])
        assert not low_contrast_text(page), (state, low_contrast_text(page))
        assert not low_contrast_graphics(page), (state, low_contrast_graphics(page))
    shot(page, f"contrast-measuring-{scheme}")

    # Dimmed: the dashboard out of reach (no websocket, no poll answer), figures kept for reference.
    page.route("**/api/snapshot", lambda route: route.abort())
    feed.sockets[-1].close()
    expect()(page.locator("#freshness")).to_contain_text("dashboard unreachable", timeout=9000)
    expect()(page.locator("body")).to_have_class(re.compile(r"\boffline\b"))
    assert float(page.locator("#status").evaluate("el => getComputedStyle(el).opacity")) == 1
    assert not low_contrast_text(page), ("unreachable", low_contrast_text(page))
    assert not low_contrast_graphics(page), ("unreachable", low_contrast_graphics(page))
    shot(page, f"contrast-unreachable-{scheme}")


# --- warm-up, words, details ------------------------------------------------------------------


def test_warm_up_is_one_sentence_and_one_bar_then_gone(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    sentence = "measuring: 2 of 3 passes · 1 min 40 s of 3 min — rate in about 1 min"
    snapshot = in_state(real_snapshot, "measuring")
    snapshot["warmup"] = {"passes": 2, "passes_needed": 3, "observed_seconds": 100.0,
                          "seconds_needed": 180.0, "done": False, "text": sentence}
    snapshot["details"] = [sentence, "Step 54"]
    fed(snapshot)
    expect()(page.locator("#warmup-text")).to_have_text(sentence)
    bar = page.locator("#warmup-bar")
    # The part furthest from done: 100 s of 180 s (56 %) is behind 2 of 3 passes (67 %).
    expect()(bar).to_have_attribute("aria-valuenow", "56")
    expect()(page.locator("#details li")).to_have_text(["Step 54"])  # said once, in the card
    assert page.locator("#warmup .meter").count() == 1

    snapshot["warmup"] = {**snapshot["warmup"], "passes": 1, "observed_seconds": 170.0}
    fed(snapshot)
    expect()(bar).to_have_attribute("aria-valuenow", "33")  # now the passes lag

    fed(in_state(real_snapshot, "training"))
    expect()(page.locator("#warmup")).to_be_hidden()


def test_the_backend_line_explains_itself_on_tap_and_by_keyboard(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    snapshot = in_state(real_snapshot, "queued")
    line = "Backend: 9×503 queue_state, 2×404"
    snapshot["backend_errors"] = {**snapshot["backend_errors"], "text": line}
    assert line in snapshot["details"]
    fed(snapshot)
    button = page.get_by_role("button", name=line)
    expect()(button).to_have_attribute("aria-expanded", "false")
    help_box = page.locator("#backend-help")
    expect()(help_box).to_be_hidden()
    button.focus()
    page.keyboard.press("Enter")
    expect()(help_box).to_be_visible()
    expect()(help_box).to_contain_text("503 queue_state")
    expect()(help_box).to_contain_text("expected while queued")
    expect()(help_box).to_contain_text("404")
    expect()(button).to_have_attribute("aria-expanded", "true")
    fed(snapshot)  # the next push keeps it open
    expect()(help_box).to_be_visible()
    shot(page, "backend-explained")
    button.click()
    expect()(help_box).to_be_hidden()


def test_each_state_explains_itself_once(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    waiting = in_state(real_snapshot, "waiting", details=["waiting for log"])
    waiting["source"] = {**waiting["source"], "last_event_at": None}
    fed(waiting)
    expect()(page.locator("#explain")).to_be_visible()
    expect()(page.locator("#freshness")).to_be_hidden()  # no "no log line read yet" on top

    problem = "256 lines read, none looks like an IOTA miner log"
    next_step = [("tokwatch reads these formats: iota, nanochat; if this log is one of them, start tokwatch "
                  "with --format NAME"), "line 1 looks like: N-N-N N:N:N epoch=N … saved"]
    unrecognised = in_state(real_snapshot, "unrecognised", details=next_step)
    unrecognised["source"] = {**unrecognised["source"], "problem": problem}
    fed(unrecognised)
    expect()(page.locator("#problem")).to_have_text(problem)
    expect()(page.locator("#explain")).to_be_hidden()  # the problem explains it
    expect()(page.locator("#details li")).to_have_text(next_step)  # and the details say what to do
    expect()(page.locator("#history")).to_be_hidden()  # no empty tok/h card
    shot(page, "unrecognised")


def test_events_are_listed_newest_first_with_ages(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    snapshot = in_state(real_snapshot, "idle")
    as_of = snapshot["as_of"]
    snapshot["events"] = [
        {"at": as_of - 240, "kind": "idle", "text": "idle: no pass for 5 min"},
        {"at": as_of - 3 * 3600 - 300, "kind": "queue_reset", "text": "queue reset: #63 → #1613"},
    ] + [{"at": as_of - 90_000 - i, "kind": "registered", "text": f"registered in layer {i}"} for i in range(8)]
    fed(snapshot)
    items = page.locator("#event-list li")
    expect()(items).to_have_count(6)
    expect()(items.nth(0)).to_contain_text("4 min ago")
    expect()(items.nth(0)).to_contain_text("idle: no pass for 5 min")
    expect()(items.nth(1)).to_contain_text("3 h 05 min ago")
    expect()(items.nth(2)).to_contain_text("1 d 1 h ago")
    expect()(page.locator("#events-more-count")).to_have_text("4")
    assert items.nth(0).locator("time").get_attribute("datetime").startswith("20")

    fed(in_state(real_snapshot, "training", events=[]))
    # The day's list is asked for again within 5 s of a change in the live one.
    expect()(page.locator("#events")).to_be_hidden(timeout=10_000)


def test_step_trainers_show_their_fields_as_a_labelled_table(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    snapshot = in_state(real_snapshot, "training", status_line="outer 42 · step 2 · 35 steps/h")
    snapshot.update(
        format="sn38",
        history=[[t, None] for t, _ in snapshot["history"]],
        history_unit=None,
        training={"stage": "train", "step": 2},
        training_fields=[
            {"label": "step time", "value": "47.1", "unit": "s"},
            {"label": "learning rate", "value": "0.0004", "unit": ""},
        ],
    )
    fed(snapshot)
    page.locator("#training summary").click()
    rows = page.locator("#training-fields tr")
    expect()(rows).to_have_count(2)
    expect()(rows.nth(0).locator("th")).to_have_text("step time")
    expect()(rows.nth(0).locator("td")).to_have_text(["47.1", "s"])
    expect()(page.locator("#training thead th")).to_have_text(["field", "value", "unit"])

    fed(in_state(real_snapshot, "training"))  # the miner: no training table
    expect()(page.locator("#history")).to_be_visible()
    expect()(page.locator("#training")).to_be_hidden()


@pytest.mark.parametrize("line", ["RL step 1/467 · …", "L1 · …", "step 383/29000 · …"])
def test_the_headline_never_orphans_its_ellipsis(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any, line: str
) -> None:
    for width in (280, 320, 390):
        page.set_viewport_size({"width": width, "height": 800})
        fed(in_state(real_snapshot, "measuring", status_line=line))
        status = page.locator("#status")
        expect()(status).to_have_text(line)
        # The "…" shares its line with what precedes it: the tail never splits, never stands alone.
        tail = status.locator(".tail")
        assert tail.evaluate("el => el.getClientRects().length") == 1
        assert tail.inner_text().endswith("…") and len(tail.inner_text()) > 1


# --- report ----------------------------------------------------------------------------------


def test_copy_report_copies_what_the_server_wrote(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    report = "tokwatch report\nstate: idle (L1 · idle 12 min)\nqueue resets, last 24 h: 2\n"
    asked: list[str] = []

    def answer(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(status=200, content_type="text/plain; charset=utf-8", body=report)

    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.route("**/api/report.txt", answer)
    fed(in_state(real_snapshot, "idle"))
    page.get_by_role("button", name="Copy report").click()
    expect()(page.locator("#report-result")).to_contain_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == report
    assert len(asked) == 1


def test_copy_report_says_when_the_server_cannot(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    page.route("**/api/report.txt", lambda route: route.fulfill(status=500, body="boom"))
    fed(in_state(real_snapshot, "idle"))
    page.get_by_role("button", name="Copy report").click()
    expect()(page.locator("#report-result")).to_have_text(re.compile(r"could not make the report \(HTTP 500\)"))


# --- keyboard and zoom -------------------------------------------------------------------------


def test_everything_that_acts_is_reachable_by_keyboard(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any
) -> None:
    snapshot = in_state(real_snapshot, "queued")
    snapshot["backend_errors"] = {**snapshot["backend_errors"], "text": "Backend: 9×503 queue_state, 2×404"}
    snapshot["events"] = [{"at": snapshot["as_of"] - 60 * i, "kind": "queued", "text": f"queue #{i}"}
                          for i in range(9)]
    snapshot["training"] = {"stage": "train"}
    snapshot["training_fields"] = [{"label": "step", "value": "2", "unit": ""}]
    fed(snapshot)
    reached = []
    for _ in range(20):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.textContent.trim().slice(0, 30)"))
    for wanted in ("Backend: 9×503", "Older (3)", "All training fields (1)", "Copy report"):
        assert any(r.startswith(wanted) for r in reached), (wanted, reached)
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"


@pytest.mark.parametrize("width", [320, 640])
def test_nothing_is_cut_at_200_percent_zoom(
    real_snapshot: dict[str, Any], fed: Callable[[dict[str, Any]], None], page: Any, width: int
) -> None:
    # 200 % zoom of a 640 px and a 1280 px window: the page gets half the CSS pixels.
    page.set_viewport_size({"width": width, "height": 700})
    snapshot = in_state(real_snapshot, "queued")
    snapshot["backend_errors"] = {**snapshot["backend_errors"], "text": "Backend: 9×503 queue_state, 2×404"}
    snapshot["events"] = [{"at": snapshot["as_of"] - 100, "kind": "error",
                           "text": "ERROR | Error making orchestrator request to endpoint /miner/register: 404 ×12"}]
    snapshot["training"] = {"stage": "train"}
    snapshot["training_fields"] = [{"label": "tokens per second (per device)", "value": "123456789.123",
                                    "unit": "tok/s"}]
    fed(snapshot)
    page.get_by_role("button", name=re.compile("^Backend")).click()
    page.locator("#training summary").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    cut = page.evaluate(
        """(width) => [...document.querySelectorAll('body *')].filter((el) => {
             if (!el.getClientRects().length || el.closest('.visually-hidden')) return false;
             const r = el.getBoundingClientRect();
             const s = getComputedStyle(el);
             const clipped = s.overflow !== 'visible' && el.scrollWidth > el.clientWidth + 1;
             return r.right > width + 0.5 || clipped;
           }).map((el) => el.id || el.className || el.tagName)""",
        width,
    )
    assert not cut, cut
    shot(page, f"zoom-{width}")


# --- the token screen -------------------------------------------------------------------------


@pytest.fixture
def token_server(config: Config, monitor: Monitor) -> Iterator[RunningServer]:
    running = start_server(replace(config, token=TOKEN), monitor)
    yield running
    running.dashboard.stop()


def header_on_one_line(page: Any) -> bool:
    heights = page.evaluate("""() => [document.querySelector('header.bar'), document.querySelector('.brand')]
        .map((el) => el.getBoundingClientRect().height)""")
    return bool(heights[0] < 1.5 * heights[1])


def test_the_first_visit_is_a_calm_pairing_screen_without_a_file_path(
    token_server: RunningServer, page: Any
) -> None:
    page.goto(token_server.http_url)
    auth = page.locator("#auth")
    expect()(auth).to_be_visible()
    expect()(page.locator("#auth-title")).to_have_text("Pair this browser with tokwatch")
    expect()(page.locator("#auth-missing")).to_contain_text("scan the code tokwatch shows on that computer")
    expect()(page.locator("#auth-wrong")).to_be_hidden()
    expect()(page.locator("#auth-replaced")).to_be_hidden()
    # Not an error: the first visit is not drawn in the alert colours.
    assert "alert" not in (auth.get_attribute("class") or "")
    assert colour_of(page, "#auth", "backgroundColor") != colour_of(page, "#problem", "backgroundColor")
    # Nothing of this computer's file system (the user's home, their name) to a visitor without the token.
    assert str(token_server.config.resolved_config_dir) not in page.content()
    assert "/home/" not in page.content() and "config folder on the computer" in page.content()
    # At 390 px the header keeps to one line and the placeholder is whole.
    assert header_on_one_line(page)
    field = page.get_by_label("Link or token")
    assert field.evaluate("el => { el.value = el.placeholder; return el.scrollWidth <= el.clientWidth; }")
    field.fill("")
    shot(page, "token-first-visit")


def test_a_token_replaced_on_the_computer_is_called_replaced_not_wrong(
    config: Config, monitor: Monitor, page: Any
) -> None:
    first = start_server(replace(config, token=TOKEN), monitor)
    page.goto(f"{first.http_url}/#token={TOKEN}")
    expect()(page.locator("#connection")).to_have_text("live")
    first.dashboard.stop()
    # tokwatch restarted with --new-token: same address, another token.
    second = start_server(replace(first.config, token="a-new-token-456"), monitor)
    try:
        page.reload()
        expect()(page.locator("#auth-replaced")).to_be_visible()
        expect()(page.locator("#auth-wrong")).to_be_hidden()
        expect()(page.locator("#connection")).to_have_text("token replaced")
        assert header_on_one_line(page)
        shot(page, "token-replaced")
        # A mistyped token pasted now is wrong, not replaced.
        field = page.get_by_label("Link or token")
        field.fill("a-wrong-token-123")
        field.press("Enter")
        expect()(page.locator("#token-result")).to_contain_text("Wrong token")
        expect()(page.locator("#auth-wrong")).to_be_visible()
        expect()(page.locator("#auth-replaced")).to_be_hidden()
    finally:
        second.dashboard.stop()


def test_a_token_can_be_pasted_and_a_wrong_one_is_called_wrong(token_server: RunningServer, page: Any) -> None:
    page.goto(token_server.http_url)
    auth = page.locator("#auth")
    expect()(auth).to_be_visible()
    expect()(page.locator("#auth-missing")).to_be_visible()
    expect()(page.locator("#connection")).to_have_text("needs token")
    field = page.get_by_label("Link or token")

    field.fill("short")
    page.get_by_role("button", name="Use").click()
    expect()(page.locator("#token-result")).to_contain_text("not a tokwatch token")

    field.fill("a-wrong-token-123")
    field.press("Enter")
    expect()(page.locator("#token-result")).to_contain_text("Wrong token")
    expect()(page.locator("#connection")).to_have_text("token refused")
    expect()(page.locator("#auth-wrong")).to_be_visible()
    expect()(page.locator("#auth-missing")).to_be_hidden()
    shot(page, "token-wrong")

    # The whole printed link works as well as the bare token.
    field.fill(f"http://192.168.1.20:{token_server.config.port}/#token={TOKEN}")
    page.get_by_role("button", name="Use").click()
    expect()(page.locator("#connection")).to_have_text("live")
    expect()(auth).to_be_hidden()
    expect()(page.locator("#status")).to_have_text("waiting for log")
    assert page.evaluate("localStorage.getItem('tokwatch.token')") == TOKEN
    assert TOKEN not in page.content()
