"""A miner's chart in a real Chromium: a queued miner's positions over time, and a rate line that
breaks where the layer changed, each segment named by its layer.

Composed history (values computed here): queued from 5 h before ``NOW`` to now, polled every
60 s, the position falling from 600 by two a poll (120 an hour) until the reset #360 → #1500
2 h in (the issue's pair), then falling from 1500 again; and, for another miner,
a rate of 300k on layer 2 until 3 h before ``NOW`` and 750k on layer 1 after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.ingest.folder import source_key_path
from app.store import History
from app.store.records import EventRow, Observation, Sample, SourceKey
from tests.conftest import LogWriter, iota_line
from tests.web.test_browser import ARTIFACTS, as_users_log, expect
from tests.web.test_chart import MACHINE, NOW, ChartServer, chart_page, inspect, start

__all__ = ["chart_page"]  # the fixture, used by name

HOUR = 3600
QUEUED_FROM = NOW - 5 * HOUR
CHANGE_AT = NOW - 3 * HOUR


RESET_AT = QUEUED_FROM + 2 * HOUR


def position(t: int) -> int:
    if t < RESET_AT:
        return 600 - (t - QUEUED_FROM) // 30
    return 1500 - (t - RESET_AT) // 30


def source_of(log_file: Path) -> SourceKey:
    """The history's key for the test server's log (app/record/recorder.py makes it so)."""
    return SourceKey(MACHINE, str(source_key_path(log_file).resolve()), "miner")


def fill(data_dir: Path, source: SourceKey, samples: tuple[Sample, ...], events: tuple[EventRow, ...] = ()) -> None:
    history = History(data_dir, clock=lambda: NOW)
    history.start()
    assert history.submit(Observation(source, samples=samples, events=events))
    assert history.flush(20)
    history.stop()


@pytest.fixture
def queued_server(log_file: Path, tmp_path: Path) -> Iterator[ChartServer]:
    writer = LogWriter(log_file)
    writer.write([line for t in range(NOW - 600, NOW + 1, 60) for line in writer.queued(position(t), t)])
    samples = tuple(Sample(t, None, "queued", queue_position=position(t)) for t in range(QUEUED_FROM, NOW - 600, 60))
    events = (EventRow(RESET_AT, "queue_reset", f"queue reset #{position(RESET_AT - 60)} → #{position(RESET_AT)}"),)
    fill(tmp_path / "data", source_of(log_file), samples, events)
    running = start(log_file, tmp_path, data_dir=tmp_path / "data", compose=False)
    yield running
    running.dashboard.stop()


@pytest.fixture
def layer_server(log_file: Path, tmp_path: Path) -> Iterator[ChartServer]:
    writer = LogWriter(log_file)
    writer.write(writer.registered(1, NOW - 5 * 60))
    samples = tuple(
        Sample(t, 300_000.0 if t < CHANGE_AT else 750_000.0, "training", 2 if t < CHANGE_AT else 1, 3200)
        for t in range(NOW - 5 * HOUR, NOW - HOUR, 30)
    )
    fill(tmp_path / "data", source_of(log_file), samples, (EventRow(CHANGE_AT, "layer_changed", "layer 2 → 1"),))
    running = start(log_file, tmp_path, data_dir=tmp_path / "data", compose=False)
    yield running
    running.dashboard.stop()


def test_a_queued_miner_charts_its_positions(queued_server: ChartServer, chart_page: Any) -> None:
    # Its picture in the docs shows the log where the miner writes it, not the test's tmp folder.
    assert queued_server.monitor.log_path is not None
    as_users_log(chart_page, queued_server.monitor.log_path,
                 "/Users/ana/Library/Logs/IOTA Train at Home/2026-12-01-cli.log")
    chart_page.goto(queued_server.url)
    expect()(chart_page.locator("#status")).to_contain_text("Queue #")
    expect()(chart_page.locator("#history-title")).to_have_text("queue position, last hour", timeout=10_000)
    chart_page.locator('#chart-ranges button[data-range="6h"]').click()
    expect()(chart_page.locator("#history-title")).to_have_text("queue position, last 6 h", timeout=10_000)
    [plot] = inspect(chart_page)
    assert plot["unit"] == "position"
    drawn = [v for v in plot["values"] if v is not None]
    expected = [position(t) for t in range(QUEUED_FROM, NOW - 600, 60)]
    assert drawn[: len(expected)] == expected
    before = position(RESET_AT - 60)  # 600 − 7140 // 30 = 362, the last poll before the reset
    assert before == 362 and drawn[drawn.index(before) + 1] == 1500  # the reset, from one poll to the next
    snapshot_position = queued_server.monitor.snapshot().queue.position
    assert plot["current"]["y"] == snapshot_position
    ARTIFACTS.mkdir(exist_ok=True)
    chart_page.screenshot(path=str(ARTIFACTS / "queued-phone-light.png"), full_page=True)
    chart_page.emulate_media(color_scheme="dark")
    chart_page.wait_for_timeout(300)
    chart_page.screenshot(path=str(ARTIFACTS / "queued-phone-dark.png"), full_page=True)
    chart_page.set_viewport_size({"width": 1280, "height": 900})
    chart_page.wait_for_timeout(300)
    chart_page.screenshot(path=str(ARTIFACTS / "queued-desktop-dark.png"), full_page=True)
    chart_page.emulate_media(color_scheme="light")
    chart_page.wait_for_timeout(300)
    chart_page.screenshot(path=str(ARTIFACTS / "queued-desktop-light.png"), full_page=True)


def test_a_layer_change_breaks_the_rate_line_and_names_each_layer(layer_server: ChartServer, chart_page: Any) -> None:
    chart_page.goto(layer_server.url)
    expect()(chart_page.locator("#status")).to_contain_text("L1")
    chart_page.locator('#chart-ranges button[data-range="6h"]').click()
    expect()(chart_page.locator("#history-title")).to_have_text("tok/h, last 6 h", timeout=10_000)
    plot = inspect(chart_page)[0]
    assert plot["labels"] == ["L2", "L1"]
    assert plot["segments"] == 2
    values = plot["values"]
    # No bucket joins the two layers: the last 300k and the first 750k have a gap between them.
    last_l2 = max(i for i, v in enumerate(values) if v == 300_000.0)
    first_l1 = min(i for i, v in enumerate(values) if v == 750_000.0)
    assert first_l1 > last_l2 + 1 and all(v is None for v in values[last_l2 + 1:first_l1])


@pytest.fixture
def live_layer_server(log_file: Path, tmp_path: Path) -> Iterator[ChartServer]:
    """The last hour: on layer 2 from 50 min before NOW (a pass every 15 s), on layer 1 from 25 min before."""
    writer = LogWriter(log_file)
    lines = writer.registered(2, NOW - 50 * 60)
    lines += [line for t in range(NOW - 50 * 60 + 10, NOW - 25 * 60, 15) for line in writer.forward(2, t)]
    lines += writer.registered(1, NOW - 25 * 60)
    lines += [line for t in range(NOW - 25 * 60 + 10, NOW, 12) for line in writer.forward(1, t)]
    writer.write(lines)
    running = start(log_file, tmp_path, data_dir=None, compose=False)
    yield running
    running.dashboard.stop()


def test_the_live_hour_names_each_segment_by_its_own_layer(live_layer_server: ChartServer, chart_page: Any) -> None:
    chart_page.goto(live_layer_server.url)
    expect()(chart_page.locator("#status")).to_contain_text("L1")
    expect()(chart_page.locator("#history-title")).to_have_text("tok/h, last hour")
    expect()(chart_page.locator("#chart canvas")).to_have_count(1)
    [plot] = inspect(chart_page)
    # The segment before the change is layer 2's, the one after it layer 1's: two runs of points.
    assert plot["labels"] == ["L2", "L1"]
    assert plot["segments"] == 2


# A queued miner whose polls stopped: every 75 s from 55 to 40 min before NOW (with the issue's
# reset #360 → #1500), none for 10 min, again from 30 to 20 min before NOW, then silence.
SILENT_POLLS = ([(NOW - 55 * 60 + 75 * i, p) for i, p in enumerate([600, 520, 440, 360, 1500, 1420, 1340, 1260])]
                + [(NOW - 30 * 60 + 75 * i, p) for i, p in enumerate([1180, 1100, 1020, 940, 860, 780, 700, 620, 540])])


def at_sample(t: int) -> int:
    """The 30-s sample that follows a poll at ``t`` (the history's resolution)."""
    return -(-t // 30) * 30


@pytest.fixture
def silent_queued_server(log_file: Path, tmp_path: Path) -> Iterator[ChartServer]:
    writer = LogWriter(log_file)
    writer.write([line for t, p in SILENT_POLLS for line in writer.queued(p, t)])
    # What the import wrote of the same polls: a point at each poll's sample, nothing else.
    samples = tuple(Sample(at_sample(t), None, "queued", queue_position=p) for t, p in SILENT_POLLS)
    fill(tmp_path / "data", source_of(log_file), samples)
    running = start(log_file, tmp_path, data_dir=tmp_path / "data", compose=False)
    yield running
    running.dashboard.stop()


def test_a_silent_queued_miner_keeps_its_chart_with_gaps_where_no_poll_came(
    silent_queued_server: ChartServer, chart_page: Any
) -> None:
    chart_page.goto(silent_queued_server.url)
    expect()(chart_page.locator("#status")).to_contain_text("log silent")
    # Its hour is still its queue, from the history (not the live rate chart, which has nothing).
    expect()(chart_page.locator("#history-title")).to_have_text("queue position, last hour", timeout=10_000)
    [plot] = inspect(chart_page)
    assert plot["unit"] == "position"
    # One point per poll, in order, the reset among them; one break where the polls stopped for
    # 10 min; nothing drawn after the last poll (silence is not a position), and no "now" dot.
    assert [v for v in plot["values"] if v is not None] == [p for _, p in SILENT_POLLS]
    breaks = [i for i, v in enumerate(plot["values"]) if v is None]
    assert len(breaks) == 1 and plot["values"][breaks[0] - 1] == 1260 and plot["values"][breaks[0] + 1] == 1180
    assert plot["segments"] == 2
    assert max(plot["xs"]) == at_sample(SILENT_POLLS[-1][0])
    assert plot["current"] is None
    ARTIFACTS.mkdir(exist_ok=True)
    chart_page.screenshot(path=str(ARTIFACTS / "queued-silent-phone-light.png"), full_page=True)
    chart_page.emulate_media(color_scheme="dark")
    chart_page.wait_for_timeout(300)
    chart_page.screenshot(path=str(ARTIFACTS / "queued-silent-phone-dark.png"), full_page=True)


# A night on the 24 h chart (5-min buckets): training 5 h to 4 h before NOW, idle from the last
# pass at 4 h to 2 h 30 min, training to 2 h, the log silent (no record, the timeline's span) to
# 1 h, training since. Each stretch starts and ends on a bucket boundary, so the band is exact.
NIGHT = [(NOW - 5 * HOUR, NOW - 4 * HOUR, "training"), (NOW - 4 * HOUR, NOW - 9000, "idle"),
         (NOW - 9000, NOW - 2 * HOUR, "training"), (NOW - 2 * HOUR, NOW - HOUR, "silent"), (NOW - HOUR, NOW - 600, "training")]


@pytest.fixture
def night_server(log_file: Path, tmp_path: Path) -> Iterator[ChartServer]:
    writer = LogWriter(log_file)
    writer.write(writer.registered(1, NOW - 5 * 60))
    samples = tuple(
        Sample(t, 600_000.0 if state == "training" else None, state, 1, 3200)
        for start, end, state in NIGHT if state != "silent" for t in range(start, end, 30)
    )
    events = (
        EventRow(NOW - 4 * HOUR, "idle", "passes stopped · was 600k tok/h"),
        EventRow(NOW - 9000, "resumed", "passes resumed after 1 h 30 min"),
        EventRow(NOW - 2 * HOUR, "silent", "log silent for 1 h"),
        EventRow(NOW - HOUR, "resumed", "log lines again after 1 h"),
    )
    fill(tmp_path / "data", source_of(log_file), samples, events)
    running = start(log_file, tmp_path, data_dir=tmp_path / "data", compose=False)
    yield running
    running.dashboard.stop()


def test_idle_and_silence_are_told_apart_on_the_long_chart(night_server: ChartServer, chart_page: Any) -> None:
    chart_page.goto(night_server.url)
    chart_page.locator('#chart-ranges button[data-range="24h"]').click()
    expect()(chart_page.locator("#history-title")).to_have_text("tok/h, last 24 h", timeout=10_000)
    [plot] = inspect(chart_page)
    assert plot["bands"] == ["training", "idle", "training", "silent", "training"]
    expect()(chart_page.locator("#state-keys")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        chart_page.emulate_media(color_scheme=scheme)
        chart_page.wait_for_timeout(300)
        chart_page.screenshot(path=str(ARTIFACTS / f"night-phone-{scheme}.png"), full_page=True)
    chart_page.set_viewport_size({"width": 1280, "height": 900})
    chart_page.wait_for_timeout(300)
    chart_page.screenshot(path=str(ARTIFACTS / "night-desktop-dark.png"), full_page=True)
    chart_page.locator('#chart-ranges button[data-range="1h"]').click()
    expect()(chart_page.locator("#state-keys")).to_be_hidden()


# A miner's hour from the snapshot: registered 40 min before NOW, a pass every 15 s from then to
# 20 min before NOW (the last pass), then only heartbeats every 30 s: idle since its last pass.
LAST_PASS = NOW - 20 * 60


@pytest.fixture
def just_idle_server(log_file: Path, tmp_path: Path) -> Iterator[ChartServer]:
    writer = LogWriter(log_file)
    lines = writer.registered(1, NOW - 40 * 60)
    lines += [line for t in range(NOW - 40 * 60 + 15, LAST_PASS + 1, 15) for line in writer.forward(1, t)]
    lines += [iota_line(t, "DEBUG", "subnet.common_api_client:orchestrator_request:89",
                        "Successfully completed request to /miner/heartbeat?expected_phase=training; response: "
                        "{'run_id': '4.12.16.5-tah', 'layer': 1, 'epoch': 48, 'phase': 'training'}")
              for t in range(LAST_PASS + 30, NOW + 1, 30)]
    writer.write(lines)
    running = start(log_file, tmp_path, data_dir=None, compose=False)
    yield running
    running.dashboard.stop()


def test_the_hour_of_a_miner_gone_idle_draws_no_rate_after_its_last_pass_and_bands_it_idle(
    just_idle_server: ChartServer, chart_page: Any
) -> None:
    chart_page.goto(just_idle_server.url)
    expect()(chart_page.locator("#status")).to_have_text("L1 · idle 20 min")
    [plot] = inspect(chart_page)
    # No rate at a point past the last pass: the minutes before idleness was known are blanked.
    assert all(v is None for t, v in zip(plot["xs"], plot["values"], strict=True) if t > LAST_PASS)
    assert any(v is not None for t, v in zip(plot["xs"], plot["values"], strict=True) if t <= LAST_PASS)
    assert plot["bands"][-2:] == ["training", "idle"]
    expect()(chart_page.locator("#state-keys")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    chart_page.screenshot(path=str(ARTIFACTS / "just-idle-phone-light.png"), full_page=True)
