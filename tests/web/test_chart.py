"""The rate chart in a real Chromium over a real server: the hour from the snapshot, longer ranges
from a history filled with composed samples whose values are known, events, gaps, themes, a phone.

Composed history (values computed here, not read back from the code): a miner on layer 1 from
5 h to 2 h before ``NOW``, one sample every 30 s, its rate a staircase that climbs 10k tok/h every
10 minutes from 300k; nothing recorded from 4 h to 3 h 30 min before ``NOW`` (a gap); a layer
change 3 h before ``NOW``. Screenshots go to test-artifacts/ for a human to look at.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.live.monitor import Monitor
from app.record.recorder import Recorder
from app.serve.process import Dashboard
from app.snapshot import to_dict
from app.store import History
from app.store.records import EventRow, Observation, Sample, SourceKey
from tests.conftest import LogWriter
from tests.pages import watched_page
from tests.web.test_browser import ARTIFACTS, PHONE, expect, no_horizontal_overflow

NOW = 1_790_000_100  # a 5-minute boundary, so the ranges' buckets line up with the composed samples
HOUR = 3600
MACHINE = "chart-test"
STAIR_FROM = NOW - 5 * HOUR
STAIR_TO = NOW - 2 * HOUR
GAP = (NOW - 4 * HOUR, NOW - 3 * HOUR - 30 * 60)
LAYER_CHANGE_AT = NOW - 3 * HOUR + 15
LAYER_CHANGE_TEXT = "moved to layer 2"


def stair(t: int) -> float:
    """The composed rate: 300k, climbing 10k every 10 minutes."""
    return 300_000.0 + 10_000.0 * ((t - STAIR_FROM) // 600)


def composed_times() -> list[int]:
    return [t for t in range(STAIR_FROM, STAIR_TO + 1, 30) if not GAP[0] <= t < GAP[1]]


def fill_history(data_dir: Path, source: SourceKey) -> None:
    """Write the composed samples and events through the store's own writer."""
    history = History(data_dir, clock=lambda: NOW)
    history.start()
    samples = tuple(Sample(t, stair(t), "training", 1, 3200) for t in composed_times())
    events = (
        EventRow(STAIR_FROM + 5, "registered", "registered in layer 1"),
        EventRow(LAYER_CHANGE_AT, "layer_changed", LAYER_CHANGE_TEXT),
    )
    assert history.submit(Observation(source, samples=samples, events=events))
    assert history.flush(20)
    history.stop()


@dataclass
class ChartServer:
    dashboard: Dashboard
    monitor: Monitor
    url: str


def start(log_path: Path, tmp_path: Path, *, data_dir: Path | None, compose: bool, demo: bool = False) -> ChartServer:
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(log_path, clock=lambda: NOW, demo=demo)
    recorder = Recorder(History(data_dir, clock=lambda: NOW), log_path, machine=MACHINE, clock=lambda: NOW,
                        import_siblings=False)
    if compose:
        assert data_dir is not None
        fill_history(data_dir, recorder.source)
    dashboard = Dashboard(config, monitor, recorder=recorder)
    started = dashboard.start()
    # The tailer has read the whole log (its backlog comes in chunks, newest first).
    lines = len(log_path.read_text().splitlines()) if log_path.exists() else 0
    deadline = time.monotonic() + 10
    while monitor.snapshot().source.lines_read < lines and time.monotonic() < deadline:
        time.sleep(0.05)
    return ChartServer(dashboard, monitor, f"http://127.0.0.1:{started.port}")


@pytest.fixture
def training_log(log_file: Path) -> Path:
    """A miner registered 50 min before NOW, passing every 15 s, then every 12 s for the last 20 min."""
    writer = LogWriter(log_file)
    lines = writer.registered(1, NOW - 50 * 60)
    for t in [*range(NOW - 50 * 60 + 10, NOW - 20 * 60, 15), *range(NOW - 20 * 60, NOW, 12)]:
        lines += writer.forward(1, t)
    writer.write(lines)
    return log_file


@pytest.fixture
def stopped_server(log_file: Path, tmp_path: Path) -> Iterator[ChartServer]:
    """A miner registered 50 min before NOW, passing every 15 s, then quiet for the last 10 min."""
    writer = LogWriter(log_file)
    lines = writer.registered(1, NOW - 50 * 60)
    for t in range(NOW - 50 * 60 + 10, NOW - 10 * 60, 15):
        lines += writer.forward(1, t)
    writer.write(lines)
    running = start(log_file, tmp_path, data_dir=None, compose=False)
    yield running
    running.dashboard.stop()


def test_a_stopped_miner_has_no_current_value_on_the_chart(stopped_server: ChartServer, chart_page: Any) -> None:
    # Silent for 10 min: no rate now, and none on the chart since 3 min after the last line.
    snap = to_dict(stopped_server.monitor.snapshot())
    assert snap["state"] == "silent" and snap["rate"]["tokens_per_hour"] is None
    last_line = NOW - 605  # the last pass: NOW − 2990 + 15 × 159
    assert all(v is None for t, v in snap["history"] if t >= last_line + 180)
    chart_page.goto(stopped_server.url)
    expect()(chart_page.locator("#chart canvas")).to_have_count(1)
    [plot] = inspect(chart_page)
    assert plot["current"] is None


@pytest.fixture
def live_server(training_log: Path, tmp_path: Path) -> Iterator[ChartServer]:
    running = start(training_log, tmp_path, data_dir=tmp_path / "data", compose=False)
    yield running
    running.dashboard.stop()


@pytest.fixture
def history_server(log_file: Path, tmp_path: Path) -> Iterator[ChartServer]:
    """The composed history, and a live log that only says the miner registered (no rate yet)."""
    LogWriter(log_file).write(LogWriter(log_file).registered(1, NOW - 5 * 60))
    running = start(log_file, tmp_path, data_dir=tmp_path / "data", compose=True)
    yield running
    running.dashboard.stop()


@pytest.fixture
def chart_page(browser: Any) -> Iterator[Any]:
    """A phone-sized page in a fixed locale that fails the test on any console error (CSP included)."""
    yield from watched_page(browser, expected=["WebSocket connection"], viewport=PHONE, device_scale_factor=2, locale="en-US")


def inspect(page: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate("import('/static/chart.js').then((m) => m.inspectChart())")
    return result


def point(page: Any, index: int, x: float, y: float | None = None) -> tuple[float, float]:
    where = page.evaluate(
        "([i, x, y]) => import('/static/chart.js').then((m) => m.chartPoint(i, x, y))", [index, x, y]
    )
    return where["x"], where["y"]


# Counts the canvas pixels near a colour (a CSS custom property of the chart) in a column
# around a time, within the plot area: the line is there, or it is not.
COLUMN_PIXELS = """
async ([x, colourVar, fromTop, rows]) => {
  const m = await import('/static/chart.js');
  const [info] = m.inspectChart();
  const canvas = document.querySelector('#chart canvas');
  const hex = getComputedStyle(document.getElementById('history')).getPropertyValue(colourVar).trim();
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const rect = canvas.getBoundingClientRect();
  const scale = canvas.width / rect.width;
  const px = Math.round((x - rect.left) * scale);
  const top = info.bbox.top + fromTop;
  const height = rows || info.bbox.height;
  const data = canvas.getContext('2d').getImageData(px - 1, top, 3, height).data;
  let found = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - want[0]) + Math.abs(data[i + 1] - want[1]) + Math.abs(data[i + 2] - want[2]) < 40) found += 1;
  }
  return found;
}
"""


def column_pixels(page: Any, x: float, colour_var: str, from_top: int = 0, rows: int = 0) -> int:
    found: int = page.evaluate(COLUMN_PIXELS, [x, colour_var, from_top, rows])
    return found


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_the_hour_from_the_snapshot_starts_at_zero_and_holds_the_current_value(
    live_server: ChartServer, chart_page: Any
) -> None:
    snap = to_dict(live_server.dashboard.feed.snapshot())
    current = snap["rate"]["tokens_per_hour"]
    assert snap["rate"]["measured"] and current is not None
    hour = [(t, v) for t, v in snap["history"] if NOW - HOUR < t <= NOW]
    measured = [v for _, v in hour if v is not None]
    # The headline's own value is one more point, at the snapshot's time, past the last sample.
    expected_points = len(measured) + (1 if hour[-1][0] < NOW else 0)

    chart_page.goto(live_server.url)
    expect()(chart_page.locator("#chart canvas")).to_have_count(1)
    [plot] = inspect(chart_page)
    assert plot["kind"] == "time"
    assert plot["points"] == expected_points
    assert plot["x"] == [NOW - HOUR, NOW]
    assert plot["y"][0] == 0
    assert plot["y"][1] >= max(max(measured), current)
    assert plot["current"] == {"x": NOW, "y": current}
    # The ring marking the current value is drawn where the value is.
    x, _ = point(chart_page, 0, NOW, current)
    assert column_pixels(chart_page, x - 3, "--chart-now") > 0
    expect()(chart_page.locator("#chart-readout")).to_have_text("hover or tap the chart for values")
    no_horizontal_overflow(chart_page)
    screenshot(chart_page, "chart-hour-phone-light")


def test_hover_and_touch_show_the_value_at_a_time(live_server: ChartServer, chart_page: Any) -> None:
    snap = to_dict(live_server.dashboard.feed.snapshot())
    # A point in the middle of the passing stretch, where the rate is known to the token.
    t, value = next((t, v) for t, v in snap["history"] if t >= NOW - 30 * 60 and v is not None)
    chart_page.goto(live_server.url)
    expect()(chart_page.locator("#chart canvas")).to_have_count(1)
    x, y = point(chart_page, 0, t)
    chart_page.mouse.move(x, y)
    readout = chart_page.locator("#chart-readout")
    expect()(readout).to_contain_text(f"{round(value):,} tok/h")
    clock = chart_page.evaluate(f"new Date({t} * 1000).toLocaleString([], {{hour: 'numeric', minute: '2-digit'}})")
    expect()(readout).to_contain_text(clock)

    # A finger on the chart (pointer events of type touch) moves the readout too.
    t2, value2 = next((t2, v) for t2, v in snap["history"] if t2 >= NOW - 45 * 60 and v is not None and v != value)
    x2, y2 = point(chart_page, 0, t2)
    chart_page.locator("#chart .u-over").dispatch_event(
        "pointerdown", {"pointerType": "touch", "clientX": x2, "clientY": y2, "bubbles": True}
    )
    expect()(readout).to_contain_text(f"{round(value2):,} tok/h")

    # The keyboard reads the same points: End is the newest (the headline's value), ← the one before.
    current = snap["rate"]["tokens_per_hour"]
    before = [v for t, v in snap["history"] if NOW - HOUR < t < NOW and v is not None][-1]
    chart_page.locator("#chart").focus()
    chart_page.keyboard.press("End")
    expect()(readout).to_contain_text(f"{round(current):,} tok/h")
    chart_page.keyboard.press("ArrowLeft")
    expect()(readout).to_contain_text(f"{round(before):,} tok/h")
    chart_page.keyboard.press("Escape")
    expect()(readout).to_have_text("hover or tap the chart for values")


def test_longer_ranges_come_from_the_history_with_gaps_and_events(
    history_server: ChartServer, chart_page: Any
) -> None:
    chart_page.set_viewport_size({"width": 1280, "height": 900})
    chart_page.goto(history_server.url)
    expect()(chart_page.locator("#status")).to_contain_text("L1")
    with chart_page.expect_response(re.compile(r"/api/history\?range=6h$")) as answer:
        chart_page.locator('#chart-ranges button[data-range="6h"]').click()
    assert answer.value.status == 200
    expect()(chart_page.locator("#history-title")).to_have_text("tok/h, last 6 h")
    expect()(chart_page.locator('#chart-ranges button[data-range="6h"]')).to_have_attribute("aria-pressed", "true")
    [plot] = inspect(chart_page)
    assert plot["points"] == len(composed_times())
    assert plot["x"][0] == NOW - 6 * HOUR + 30
    assert plot["y"][0] == 0
    assert plot["y"][1] >= stair(STAIR_TO)
    assert plot["events"] >= 2  # registration and layer change (and tokwatch's own start)

    # Hover in the middle of a stair step: the stored value, to the token.
    t = STAIR_FROM + 95 * 60
    x, y = point(chart_page, 0, t)
    chart_page.mouse.move(x, y)
    expect()(chart_page.locator("#chart-readout")).to_contain_text(f"{round(stair(t)):,} tok/h")

    # A gap is drawn as a gap: no line in the middle of it, a line either side.
    gap_x, _ = point(chart_page, 0, (GAP[0] + GAP[1]) / 2)
    before_x, _ = point(chart_page, 0, GAP[0] - 10 * 60)
    after_x, _ = point(chart_page, 0, GAP[1] + 10 * 60)
    chart_page.mouse.move(0, 0)  # the cursor's own dot out of the way
    assert column_pixels(chart_page, gap_x, "--chart-line") == 0
    assert column_pixels(chart_page, before_x, "--chart-line") > 0
    assert column_pixels(chart_page, after_x, "--chart-line") > 0

    # The layer change is a marker at its time, with its text on hover.
    event_x, _ = point(chart_page, 0, LAYER_CHANGE_AT)
    assert column_pixels(chart_page, event_x, "--chart-event", 0, 12) > 0
    quiet_x, _ = point(chart_page, 0, LAYER_CHANGE_AT + 20 * 60)
    assert column_pixels(chart_page, quiet_x, "--chart-event", 0, 12) == 0
    chart_page.mouse.move(event_x + 2, y)
    expect()(chart_page.locator("#chart-readout")).to_contain_text(LAYER_CHANGE_TEXT)
    screenshot(chart_page, "chart-6h-desktop-light")

    # Another range: fetched, and drawn with its own buckets (5 minutes: min–max band).
    with chart_page.expect_response(re.compile(r"/api/history\?range=24h$")):
        chart_page.locator('#chart-ranges button[data-range="24h"]').click()
    expect()(chart_page.locator("#history-title")).to_have_text("tok/h, last 24 h")
    [plot] = inspect(chart_page)
    buckets = {t - t % 300 for t in composed_times()}
    assert plot["points"] == len(buckets)
    assert plot["x"][0] == NOW - 24 * HOUR + 300

    # Back to the hour: no request, the snapshot's hour.
    chart_page.locator('#chart-ranges button[data-range="1h"]').click()
    expect()(chart_page.locator("#history-title")).to_have_text("tok/h, last hour")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_both_themes_draw_with_their_own_colours_and_fit_a_phone(
    history_server: ChartServer, chart_page: Any, scheme: str
) -> None:
    chart_page.emulate_media(color_scheme=scheme)
    chart_page.goto(history_server.url)
    with chart_page.expect_response(re.compile(r"/api/history\?range=6h$")):
        chart_page.locator('#chart-ranges button[data-range="6h"]').click()
    expect()(chart_page.locator("#history-title")).to_have_text("tok/h, last 6 h")
    line = chart_page.evaluate("getComputedStyle(document.getElementById('history')).getPropertyValue('--chart-line')")
    card = chart_page.evaluate("getComputedStyle(document.getElementById('history')).backgroundColor")
    assert contrast(hex_rgb(line.strip()), css_rgb(card)) >= 3
    x, _ = point(chart_page, 0, STAIR_FROM + 25 * 60)
    assert column_pixels(chart_page, x, "--chart-line") > 0
    no_horizontal_overflow(chart_page)
    screenshot(chart_page, f"chart-6h-phone-{scheme}")
    chart_page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(chart_page, f"chart-6h-desktop-{scheme}")


@pytest.fixture
def no_history_server(training_log: Path, tmp_path: Path) -> Iterator[ChartServer]:
    """As ``--no-history`` runs: a history that keeps nothing."""
    running = start(training_log, tmp_path, data_dir=None, compose=False)
    yield running
    running.dashboard.stop()


def test_with_history_off_the_hour_stays_and_longer_ranges_say_why(
    no_history_server: ChartServer, chart_page: Any
) -> None:
    chart_page.goto(no_history_server.url)
    expect()(chart_page.locator("#chart canvas")).to_have_count(1)
    with chart_page.expect_response(re.compile(r"/api/history\?range=7d$")):
        chart_page.locator('#chart-ranges button[data-range="7d"]').click()
    expect()(chart_page.locator("#chart-note")).to_contain_text("--no-history")
    expect()(chart_page.locator('#chart-ranges button[data-range="1h"]')).to_have_attribute("aria-pressed", "true")
    expect()(chart_page.locator('#chart-ranges button[data-range="7d"]')).to_have_class(re.compile(r"\boff\b"))
    expect()(chart_page.locator("#history-title")).to_have_text("tok/h, last hour")
    assert inspect(chart_page)[0]["points"] > 0
    screenshot(chart_page, "chart-history-off")


def test_the_demo_says_why_its_longer_ranges_are_empty(training_log: Path, tmp_path: Path, chart_page: Any) -> None:
    # The demo keeps no history on purpose; it was not started with --no-history.
    running = start(training_log, tmp_path, data_dir=None, compose=False, demo=True)
    try:
        chart_page.goto(running.url)
        expect()(chart_page.locator("#chart canvas")).to_have_count(1)
        with chart_page.expect_response(re.compile(r"/api/history\?range=7d$")):
            chart_page.locator('#chart-ranges button[data-range="7d"]').click()
        note = chart_page.locator("#chart-note")
        expect()(note).to_contain_text("empty in the demo: it keeps no history on purpose")
        expect()(note).not_to_contain_text("--no-history")
    finally:
        chart_page.close()  # (before its server stops: a page left open polls on and is refused)
        running.dashboard.stop()


# --- contrast (WCAG relative luminance) ----------------------------------------------------


def hex_rgb(value: str) -> tuple[int, int, int]:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def css_rgb(value: str) -> tuple[int, int, int]:
    red, green, blue = (int(v) for v in re.findall(r"\d+", value)[:3])
    return red, green, blue


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    def luminance(rgb: tuple[int, int, int]) -> float:
        def channel(c: int) -> float:
            s = c / 255
            return s / 12.92 if s <= 0.03928 else float(((s + 0.055) / 1.055) ** 2.4)

        red, green, blue = (channel(c) for c in rgb)
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# --- a step trainer ------------------------------------------------------------------------

# nanochat's own line shape (tests/data/sample-nanochat.log); steps 400–600 composed, loss falling
# 0.001 a step from 3.1, 1,003,367 tok/s.
NANOCHAT_HEADER = (Path(__file__).resolve().parents[1] / "data" / "sample-nanochat.log").read_text().splitlines()[:9]
STORED_STEPS = range(0, 400, 10)
EVALS = {"val bpb": {100: 1.25, 200: 1.0625, 300: 0.9375}, "CORE": {300: 0.125}}


def stored_loss(step: int) -> float:
    return 10.0 - step * 0.0175


def stored_rate(step: int) -> float:
    """Below the live run's 3.6G tok/h, so only the current value can set the axis's top."""
    return 2.0e9 + step * 1e6


def nanochat_line(step: int) -> str:
    return (
        f"step {step:05d}/05568 ({step / 5568 * 100:.2f}%) | loss: {3.5 - step / 1000:.6f} | lrm: 1.00 | "
        "dt: 1045.06ms | tok/sec: 1,003,367 | bf16_mfu: 60.57 | epoch: 1 pq: 5 rg: 29 | total time: 4.15m | eta: 93.1m"
    )


@pytest.fixture
def steps_server(tmp_path: Path) -> Iterator[ChartServer]:
    """A nanochat run at step 600, and its earlier steps in the history (same stage)."""
    from app.store.records import EvalPoint, StepPoint

    log_path = tmp_path / "train.log"
    log_path.write_text("\n".join(NANOCHAT_HEADER + [nanochat_line(s) for s in range(400, 601)]) + "\n")
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    now = time.time()  # frozen from here on, so the page and the test see the same snapshot
    monitor = Monitor(log_path, clock=lambda: now)
    data_dir = tmp_path / "data"
    recorder = Recorder(History(data_dir, clock=lambda: now), log_path, machine=MACHINE, clock=lambda: now,
                        import_siblings=False)
    source = SourceKey(MACHINE, recorder.source.key, "steps")
    history = History(data_dir, clock=lambda: now)
    history.start()
    steps = tuple(
        StepPoint("base", s, now - 3 * HOUR + s * 10, stored_loss(s), stored_rate(s), 3400.0) for s in STORED_STEPS
    )
    evals = tuple(
        EvalPoint("base", name, s, now - 3 * HOUR + s * 10, value) for name, by in EVALS.items() for s, value in by.items()
    )
    assert history.submit(Observation(source, steps=steps, evals=evals))
    assert history.flush(20)
    history.stop()
    dashboard = Dashboard(config, monitor, recorder=recorder)
    started = dashboard.start()
    yield ChartServer(dashboard, monitor, f"http://127.0.0.1:{started.port}")
    dashboard.stop()


def test_a_step_trainer_gets_loss_and_rate_against_step_with_evaluations(
    steps_server: ChartServer, chart_page: Any
) -> None:
    chart_page.goto(steps_server.url)
    expect()(chart_page.locator("#status")).to_contain_text("step 600/5568")
    longest = chart_page.locator('#chart-ranges button[data-range="30d"]')
    expect()(longest).to_have_text("run")
    # A trainer's page opens on its whole run.
    expect()(longest).to_have_attribute("aria-pressed", "true")
    expect()(chart_page.locator("#history-title")).to_have_text("loss and rate by step, the whole run")
    training = to_dict(steps_server.dashboard.feed.snapshot())["training"]
    loss_plot, rate_plot = inspect(chart_page)
    assert loss_plot["kind"] == "loss" and rate_plot["kind"] == "steprate"
    assert loss_plot["points"] == len(STORED_STEPS)
    assert rate_plot["points"] == len(STORED_STEPS)
    # The run's current step and loss are on the chart, past the stored steps.
    assert loss_plot["current"] == {"x": 600, "y": training["loss"]}
    assert loss_plot["x"][1] >= 600
    assert loss_plot["y"][0] <= training["loss"] <= loss_plot["y"][1]
    assert rate_plot["y"][0] == 0
    assert training["tokens_per_hour"] > max(stored_rate(s) for s in STORED_STEPS)
    assert rate_plot["current"] == {"x": 600, "y": training["tokens_per_hour"]}
    assert rate_plot["y"][1] >= training["tokens_per_hour"]

    # An evaluation's point, with its value on hover.
    chart_page.locator("#chart").scroll_into_view_if_needed()
    x, y = point(chart_page, 0, 200)
    chart_page.mouse.move(x, y)
    readout = chart_page.locator("#chart-readout")
    expect()(readout).to_contain_text("step 200")
    expect()(readout).to_contain_text("val bpb 1.0625")
    expect()(readout).to_contain_text(f"loss {stored_loss(200):g}")
    screenshot(chart_page, "chart-steps-phone-light")


# --- the time axis in the browser's language ---------------------------------------------------

# (locale, a tick within a day, the date under the first tick past midnight, a tick a day apart)
LOCALES = [
    ("en-US", r"\d{1,2}:\d{2}\s(AM|PM)", r"Sep 21", r"Sep \d{1,2}"),
    ("de-DE", r"\d{1,2}:\d{2}", r"21\. Sept?\.", r"\d{1,2}\. Sept?\."),
    ("en-GB", r"\d{1,2}:\d{2}", r"21 Sept?", r"\d{1,2} Sept?"),
]


@pytest.mark.parametrize(("locale", "time_pattern", "midnight_day", "day_pattern"), LOCALES)
def test_time_ticks_follow_the_browser_locale_and_show_a_date_only_where_the_day_changes(
    history_server: ChartServer, browser: Any, locale: str, time_pattern: str, midnight_day: str, day_pattern: str
) -> None:
    # NOW is 14:15 UTC on 21 September 2026: the hour holds no midnight, the last 24 h one.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale, timezone_id="UTC")
    try:
        page = context.new_page()
        page.goto(history_server.url)
        expect()(page.locator("#status")).to_contain_text("L1")

        with page.expect_response(re.compile(r"/api/history\?range=6h$")):
            page.locator('#chart-ranges button[data-range="6h"]').click()
        expect()(page.locator("#history-title")).to_have_text("tok/h, last 6 h")
        ticks = inspect(page)[0]["xTicks"]
        assert len(ticks) >= 3
        assert all(re.fullmatch(time_pattern, tick) for tick in ticks), ticks  # times alone: no date anywhere

        with page.expect_response(re.compile(r"/api/history\?range=24h$")):
            page.locator('#chart-ranges button[data-range="24h"]').click()
        expect()(page.locator("#history-title")).to_have_text("tok/h, last 24 h")
        ticks = inspect(page)[0]["xTicks"]
        dated = [tick for tick in ticks if "\n" in tick]
        assert len(dated) == 1, ticks  # the day changes once, and says so once
        clock, day = dated[0].split("\n")
        assert re.fullmatch(time_pattern, clock) and re.fullmatch(midnight_day, day), dated
        assert all(re.fullmatch(time_pattern, tick) for tick in ticks if tick not in dated), ticks

        with page.expect_response(re.compile(r"/api/history\?range=7d$")):
            page.locator('#chart-ranges button[data-range="7d"]').click()
        expect()(page.locator("#history-title")).to_have_text("tok/h, last 7 days")
        ticks = inspect(page)[0]["xTicks"]
        assert len(ticks) >= 3 and all(re.fullmatch(day_pattern, tick) for tick in ticks), ticks
    finally:
        context.close()


def test_the_hour_has_times_and_no_date_on_its_axis(live_server: ChartServer, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US", timezone_id="UTC")
    try:
        page = context.new_page()
        page.goto(live_server.url)
        expect()(page.locator("#chart canvas")).to_have_count(1)
        ticks = inspect(page)[0]["xTicks"]
        assert len(ticks) >= 2
        assert all(re.fullmatch(r"\d{1,2}:\d{2}\s(AM|PM)", tick) for tick in ticks), ticks
    finally:
        context.close()
