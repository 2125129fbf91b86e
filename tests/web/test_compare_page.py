"""Runs side by side on a trainer's page in a real Chromium, phone and desktop, both themes.

The followed run is composed (nanoGPT's lines, loss 4 - step/8,000 at every 100 iterations from 0
to 6,000, val at 0, 2,000, 4,000 and 6,000): a "higher learning rate" run beside the run of
tests/compare/resume.py (loss 4 - step/10,000, resumed from step 4,000), whose figures are worked
out by hand there. The history imports the followed log; the other is a log in the followed folder.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from app.config import Config
from app.live.monitor import Monitor
from app.record.recorder import Recorder
from app.serve.process import Dashboard
from app.store import History
from tests import pages
from tests.compare.resume import first_run, resumed_run, text
from tests.compare.weeks import miner_dashboard, two_weeks
from tests.web.test_browser import PHONE, as_users_log, expect
from tests.web.test_chart import ChartServer

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"  # `make screenshots` copies them into docs/
DESKTOP = {"width": 1280, "height": 900}


def faster_run() -> list[str]:
    lines = ["tokens per iteration will be: 491,520", "Initializing a new model from scratch"]
    vals = {0: "4.1000", 2000: "3.8000", 4000: "3.5500", 6000: "3.3500"}
    for step in range(0, 6001, 100):
        if step in vals:
            lines.append(f"step {step}: train loss {4 - step / 8000 + 0.01:.4f}, val loss {vals[step]}")
        lines.append(f"iter {step}: loss {4 - step / 8000:.4f}, time 290.00ms, mfu 39.00%")
    return lines


@pytest.fixture
def compare_server(tmp_path: Path) -> Iterator[ChartServer]:
    folder = tmp_path / "runs"
    folder.mkdir()
    log_path = folder / "lr-6e-4.log"
    log_path.write_text(text(faster_run()))
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(log_path)
    recorder = Recorder(History(tmp_path / "data"), log_path, machine="trainer-test")
    dashboard = Dashboard(config, monitor, recorder=recorder)
    started = dashboard.start()
    deadline = time.monotonic() + 120
    while (recorder.progress is None or not recorder.progress.done) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert recorder.progress is not None and recorder.progress.done and recorder.history.flush(20)
    # Written after the import: the other run is a log in the folder, not the followed one's history.
    (folder / "lr-3e-4.log").write_text(text(first_run() + resumed_run()))
    yield ChartServer(dashboard, monitor, f"http://127.0.0.1:{started.port}")
    dashboard.stop()


def inspect(page: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        found: dict[str, Any] | None = page.evaluate("import('/static/compare.js').then((m) => m.inspectCompare())")
        if found is not None:
            return found
        page.wait_for_timeout(50)  # a frame or so; the loop waits for the plot, not for a time
    raise AssertionError("no comparison was drawn")


def wait_until(page: Any, condition: Any) -> bool:
    """Whether the drawn comparison meets ``condition`` within 15 s (looked at every frame or so)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if condition(inspect(page)):
            return True
        page.wait_for_timeout(50)
    return False


@pytest.fixture
def browsed(browser: Any) -> Iterator[Any]:
    """Pages in contexts of their own (viewport and options given), each closed when the test ends:
    a page left open would go on polling a server the next test has stopped."""
    contexts: list[Any] = []

    def open_page(viewport: dict[str, int], **extra: Any) -> Any:
        page = pages.open_page(browser, viewport=viewport, locale="en-US", **extra)
        contexts.append(page.context)
        return page

    yield open_page
    for context in contexts:
        context.close()


def test_compare_with_a_log_in_the_folder_from_the_page_and_open_it_again_from_the_url(
        compare_server: ChartServer, browsed: Any) -> None:
    page = browsed(DESKTOP)
    log_path = compare_server.monitor.log_path
    assert log_path is not None
    as_users_log(page, log_path, "/home/ana/nanoGPT/runs/lr-6e-4.log")
    page.goto(compare_server.url)
    expect()(page.locator("#status")).to_contain_text("6000")
    status = page.locator("#status").text_content()
    pages.open_panel(page, "#compare")
    page.locator("#compare-path").fill("lr-3e-4.log")
    page.locator("#compare-form button").click()
    found = inspect(page)
    assert found["x"] == "step"
    followed, other = found["runs"]
    assert followed["points"] == 61  # iterations 0 … 6,000, every 100
    assert other["points"] == 61 and other["replaced"] == 11  # stitched: 40 + 21; 4,000–5,000 replaced
    assert other["overlaps"] == [[4000, 5000]]
    assert followed["colour"] != other["colour"]
    assert parse_qs(urlparse(page.url).query) == {"compare": ["file:lr-3e-4.log"]}
    # The figures beneath, the server's words (worked out by hand in tests/compare/resume.py).
    table = page.locator("#compare-table")
    expect()(table.locator("tr", has_text="best loss")).to_contain_text("3.55 (step 6,000)")
    expect()(table.locator("tr", has_text="best loss")).to_contain_text("3.25 (step 6,000)")
    expect()(table.locator("tr", has_text="logged twice")).to_contain_text("4,000–5,000")
    # The hover names each run and its loss at the step.
    page.locator("#compare-chart").scroll_into_view_if_needed()
    where = page.evaluate("import('/static/compare.js').then((m) => m.comparePoint(4500))")
    page.mouse.move(where["x"], where["y"])
    readout = page.locator("#compare-readout")
    expect()(readout).to_contain_text("step 4,500")
    expect()(readout).to_contain_text("lr-6e-4.log")
    expect()(readout).to_contain_text("replaced 3.55")
    # A comparison never changes the status line.
    assert page.locator("#status").text_content() == status
    page.mouse.move(0, 0)
    # The docs' picture shows the folder where a user keeps the log, not the test's tmp folder.
    page.evaluate("document.getElementById('compare-path').placeholder = 'a log in /home/ana/nanoGPT/runs'")
    page.locator("#history").screenshot(path=str(ARTIFACTS / "compare-desktop-light.png"))
    page.emulate_media(color_scheme="dark")
    assert wait_until(page, lambda found: found["runs"][0]["colour"] == "#5eead4")
    page.locator("#history").screenshot(path=str(ARTIFACTS / "compare-desktop-dark.png"))
    # By time: seconds since each run's start; the URL says so.
    page.locator('#compare-axis button[data-x="time"]').click()
    expect()(page.locator('#compare-axis button[data-x="time"]')).to_have_attribute("aria-pressed", "true")
    assert wait_until(page, lambda found: found["x"] == "time")
    assert parse_qs(urlparse(page.url).query) == {"compare": ["file:lr-3e-4.log"], "x": ["time"]}
    url = page.url
    assert not page.errors, page.errors

    # The link on a phone opens the same comparison, at 390 px, nothing wider than the screen.
    phone = browsed(PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    as_users_log(phone, log_path, "/home/ana/nanoGPT/runs/lr-6e-4.log")
    phone.goto(url)
    again = inspect(phone)
    assert again["x"] == "time" and len(again["runs"]) == 2
    phone.evaluate("document.getElementById('compare-path').placeholder = 'a log in /home/ana/nanoGPT/runs'")
    assert phone.locator("#compare").evaluate("(el) => el.open")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert again["width"] <= PHONE["width"]
    phone.locator('#compare-axis button[data-x="step"]').click()
    assert wait_until(phone, lambda found: found["x"] == "step")
    phone.locator("#compare").screenshot(path=str(ARTIFACTS / "compare-phone-light.png"))
    phone.emulate_media(color_scheme="dark")
    assert wait_until(phone, lambda found: found["runs"][1]["colour"] == "#fdba74")
    phone.locator("#compare").screenshot(path=str(ARTIFACTS / "compare-phone-dark.png"))
    assert not phone.errors, phone.errors


def test_a_page_asking_for_a_file_outside_the_folder_is_told_why(compare_server: ChartServer, browsed: Any) -> None:
    page = browsed(PHONE)
    page.goto(compare_server.url + "/?compare=file:/etc/passwd")
    expect()(page.locator("#compare-note")).to_contain_text("can be opened", timeout=15_000)
    assert page.locator("#status").text_content() != ""
    page.errors = [e for e in page.errors if "403" not in e]
    assert not page.errors, page.errors


def test_an_open_comparison_sees_a_step_appended_to_the_compared_log_without_a_reload(
        compare_server: ChartServer, browsed: Any) -> None:
    """The refresh shortened to a second by its page setting: the compared log (61 losses, the last
    3.5500 at 6,000) gains iteration 6,100 at loss 3.65 - 2,100/20,000 = 3.5450, its new best."""
    page = browsed(DESKTOP)
    page.add_init_script("localStorage.setItem('tokwatch.compareRefreshSeconds', '1')")
    page.goto(f"{compare_server.url}/?compare=file:lr-3e-4.log")
    assert wait_until(page, lambda found: len(found["runs"]) == 2 and found["runs"][1]["points"] == 61)
    page.evaluate("window.notReloaded = true")
    table = page.locator("#compare-table")
    expect()(table.locator("tr", has_text="best loss")).to_contain_text("3.55 (step 6,000)")
    log_path = compare_server.monitor.log_path
    assert log_path is not None
    with (log_path.parent / "lr-3e-4.log").open("a") as log:
        log.write("iter 6100: loss 3.5450, time 290.00ms, mfu 39.00%\n")
    assert wait_until(page, lambda found: found["runs"][1]["points"] == 62), inspect(page)
    expect()(table.locator("tr", has_text="best loss")).to_contain_text("3.545 (step 6,100)")
    assert page.evaluate("window.notReloaded === true")
    assert not page.errors, page.errors


def test_a_miners_week_against_the_last_on_a_phone_and_a_desktop(tmp_path: Path, browsed: Any) -> None:
    """tests/store/test_spans.py's two weeks (medians by hand there) under a real miner log's page."""
    log_path = tmp_path / "miner.log"
    log_path.write_text((Path(__file__).resolve().parents[1] / "data" / "iota-sample.log").read_text())
    dashboard = miner_dashboard(tmp_path, log_path, two_weeks(time.time()))
    started = dashboard.start()
    try:
        phone = browsed(PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        phone.goto(f"http://127.0.0.1:{started.port}/?weeks=last")
        status = phone.locator("#status")
        expect()(status).not_to_have_text("")
        shown = status.text_content()
        weeks = weeks_drawn(phone)
        assert [span["label"] for span in weeks["spans"]] == ["this week", "last week"]
        assert all(span["points"] > 0 for span in weeks["spans"])
        expect()(phone.locator("#weeks-lines li")).to_have_text([
            "L1 · this week 350k tok/h (13 h 00 min) · last week 300k tok/h (14 h 00 min) · +16.7 %",
            "L2 · this week 200k tok/h (5 h 00 min) · last week not on this layer",
        ])
        assert weeks["colours"][0] != weeks["colours"][1]
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert status.text_content() == shown  # the weeks never change the status line
        phone.locator("#weeks").screenshot(path=str(ARTIFACTS / "compare-weeks-phone-light.png"))
        desktop = browsed(DESKTOP, color_scheme="dark")
        desktop.goto(f"http://127.0.0.1:{started.port}/")
        pages.open_panel(desktop, "#weeks")
        desktop.wait_for_function("() => new URLSearchParams(location.search).get('weeks') === 'last'")  # set as it opens
        assert parse_qs(urlparse(desktop.url).query) == {"weeks": ["last"]}
        dark = weeks_drawn(desktop)
        assert dark["colours"][0] == "#5eead4" and dark["width"] > PHONE["width"]
        desktop.locator("#history").screenshot(path=str(ARTIFACTS / "compare-weeks-desktop-dark.png"))
        assert not phone.errors and not desktop.errors, (phone.errors, desktop.errors)
    finally:
        dashboard.stop()


def test_a_weeks_line_breaks_where_its_layer_changes(tmp_path: Path, browsed: Any) -> None:
    """This week: 4 h on layer 1 then, with no pause, 4 h on layer 2; last week 8 h on layer 1 alone.
    The hours side by side on different layers are not joined; last week's 8 h are one line."""
    from app.record.backfill import source_key_path
    from app.store import Observation, Sample, SourceKey
    from app.text import path_text

    log_path = tmp_path / "miner.log"
    log_path.write_text((Path(__file__).resolve().parents[1] / "data" / "iota-sample.log").read_text())
    now = time.time()
    hour, day = 3600, 86400
    key = SourceKey("miner-box", path_text(source_key_path(log_path).resolve()), "miner")
    # Whole hours of the spans (which begin at now - 7 d and now - 14 d), so no hour is on two layers.
    this_week = int(now - 7 * day) + 24 * hour
    last_week = this_week - 7 * day

    def stretch(start: int, hours: float, tph: float, layer: int) -> Observation:
        return Observation(key, samples=tuple(Sample(t, tph, "training", layer, 2048)
                                              for t in range(start, start + int(hours * hour), 30)))

    history = History(tmp_path / "data")
    history.start()
    for obs in (stretch(this_week, 4, 300_000, 1), stretch(this_week + 4 * hour, 4, 200_000, 2),
                stretch(last_week, 8, 310_000, 1)):
        assert history.submit(obs)
    assert history.flush(30)
    history.stop()
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    recorder = Recorder(History(tmp_path / "data"), log_path, machine="miner-box", import_siblings=False)
    dashboard = Dashboard(config, Monitor(log_path), recorder=recorder)
    started = dashboard.start()
    try:
        page = browsed(DESKTOP)
        page.goto(f"http://127.0.0.1:{started.port}/?weeks=last")
        weeks = weeks_drawn(page)
        answer = page.evaluate("fetch('/api/compare/spans').then((r) => r.json())")
        layers = {offset: layer for offset, _, layer in answer["spans"][0]["points"]}
        changes = [offset // hour for offset, layer in sorted(layers.items())
                   if layers.get(offset - hour) not in (None, layer)]
        assert len(changes) == 1  # the hour layer 2 began, after an hour of layer 1
        this, last = weeks["spans"]
        assert [changes[0] - 1, changes[0]] in this["gaps"]  # no line from the last L1 hour to the first L2 hour
        inside = [gap for gap in last["gaps"] if gap[0] != gap[1] and min(layers) // hour < gap[1] <= max(layers) // hour]
        assert this["points"] >= 8 and last["points"] >= 8 and not inside, last["gaps"]
        assert not page.errors, page.errors
    finally:
        dashboard.stop()


def weeks_drawn(page: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        found: dict[str, Any] | None = page.evaluate("import('/static/compare-weeks.js').then((m) => m.inspectWeeks())")
        if found is not None:
            return found
        page.wait_for_timeout(50)
    raise AssertionError("the weeks were not drawn")
