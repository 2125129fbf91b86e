"""The whole run reaches an open page the moment the server has more of it (a push, not the page's
30-s refresh), and a reload revalidates the history it already has (ETag, 304) in a real Chromium.

The log is test_trainer_chart's composed modded-nanogpt run (4,000 steps, every loss computed there).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.live.monitor import Monitor
from app.record.backfill import ImportProgress
from app.record.recorder import Recorder
from app.serve.process import Dashboard
from app.store import History
from tests.pages import watched_page
from tests.web.test_chart import ChartServer, inspect
from tests.web.test_trainer_chart import STEPS, composed_log, loss_plot, recorded, train_loss

# Well under the page's 30-s refresh: only a push brings the chart this soon.
PUSHED_SECONDS = 8.0


@pytest.fixture
def importing_server(tmp_path: Path) -> Iterator[tuple[ChartServer, Recorder]]:
    """A dashboard whose import is under way and whose run is not sampled yet (the test samples it)."""
    log_path = tmp_path / "train.log"
    log_path.write_text(composed_log())
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(log_path)
    recorder = Recorder(History(tmp_path / "data"), log_path, machine="trainer-test", import_siblings=False)
    dashboard = Dashboard(config, monitor, recorder=recorder)
    started = dashboard.start()
    recorder.progress = ImportProgress(files_total=1)
    deadline = time.monotonic() + 30
    while monitor.snapshot().step != STEPS and time.monotonic() < deadline:
        time.sleep(0.05)
    yield ChartServer(dashboard, monitor, f"http://127.0.0.1:{started.port}"), recorder
    dashboard.stop()


@pytest.fixture
def chart_page(browser: Any) -> Iterator[Any]:
    yield from watched_page(browser, console=False, viewport={"width": 1280, "height": 800}, locale="en-US")


def test_the_whole_run_is_asked_for_again_as_soon_as_the_server_has_it(
    importing_server: tuple[ChartServer, Recorder], chart_page: Any
) -> None:
    server, recorder = importing_server
    asked: list[float] = []
    chart_page.on("request", lambda r: asked.append(time.monotonic()) if "/api/history" in r.url else None)
    # The page asks before the server has the run's first view (on a slow start): nothing to sample yet.
    recorder._sample_once = lambda: False  # type: ignore[method-assign]
    chart_page.goto(server.url)
    chart_page.wait_for_function("() => document.querySelector('#chart-note') && !document.querySelector('#chart-note').hidden")
    assert len(asked) == 1, "the page asked for its whole run once, before the server had it"
    assert not [p for p in inspect(chart_page) if p["kind"] == "loss" and p["points"]]
    del recorder._sample_once

    began = time.monotonic()
    recorder._sample()  # what the sampler thread does once the page has its first view
    plot = loss_plot(chart_page, "loss by step, the whole run")
    took = time.monotonic() - began
    assert took < PUSHED_SECONDS, f"the whole run arrived {took:.1f} s after the server had it"
    drawn = {int(step): value for step, value in plot["lossPoints"]}
    assert min(drawn) == 1 and max(drawn) == STEPS
    assert all(f"{value:.4f}" == train_loss(step) for step, value in drawn.items())
    assert len(asked) == 2


def test_the_first_ask_for_the_whole_run_gets_its_sample_without_waiting_for_the_sampler(
    importing_server: tuple[ChartServer, Recorder], chart_page: Any
) -> None:
    # The first view is in, the import under way, and no sampler thread runs here: the page's own
    # first ask must bring the run, drawn from the sample, in that one answer.
    server, _ = importing_server
    asked: list[str] = []
    chart_page.on("request", lambda r: asked.append(r.url) if "/api/history" in r.url else None)
    chart_page.goto(server.url)
    plot = loss_plot(chart_page, "loss by step, the whole run")
    drawn = {int(step): value for step, value in plot["lossPoints"]}
    assert min(drawn) == 1 and max(drawn) == STEPS
    assert all(f"{value:.4f}" == train_loss(step) for step, value in drawn.items())
    assert chart_page.locator("#chart-note").text_content().startswith("Sampled:")
    assert len(asked) == 1, "one ask: the answer held the run"


class WireStatuses:
    """What the server answered /api/history on the wire (Chromium reports a revalidated answer as
    its cached 200 to the page and to Playwright; the raw status is in CDP's extra info, which may
    come before or after the request's own event)."""

    def __init__(self, page: Any) -> None:
        self.ids: list[str] = []
        self.raw: dict[str, int] = {}
        self.seen = 0
        cdp = page.context.new_cdp_session(page)
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceivedExtraInfo", self._answered)
        cdp.send("Network.enable")

    def _sent(self, event: dict[str, Any]) -> None:
        if "/api/history" in event["request"]["url"] and event["requestId"] not in self.ids:
            self.ids.append(event["requestId"])

    def _answered(self, event: dict[str, Any]) -> None:
        self.raw[event["requestId"]] = int(event["statusCode"])

    def clear(self) -> None:
        self.seen = len(self.ids)

    def answered(self, page: Any) -> list[int]:
        """The statuses of the requests since the last clear, once each has one."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            fresh = self.ids[self.seen:]
            if fresh and all(i in self.raw for i in fresh):
                return [self.raw[i] for i in fresh]
            page.wait_for_timeout(50)
        return [self.raw.get(i, 0) for i in self.ids[self.seen:]]


def test_a_reload_revalidates_the_history_and_a_changed_run_is_sent_again(tmp_path: Path, chart_page: Any) -> None:
    for server in recorded(tmp_path, composed_log()):
        recorder = server.dashboard.recorder
        assert recorder is not None
        for thread in recorder._threads:  # the import's last revision, then nothing moves it
            if thread.name == "history-advance":
                thread.join(20)
        wire = WireStatuses(chart_page)
        chart_page.goto(server.url)
        loss_plot(chart_page)
        assert wire.answered(chart_page)[-1:] == [200]
        # An observation (the first soon after start, then every 30 s) may write between two
        # loads: judge a reload only when nothing was written across it and the load before it.
        statuses: list[int] = []
        for _ in range(5):
            written = recorder.history.generation
            chart_page.reload()
            loss_plot(chart_page)
            wire.answered(chart_page)
            wire.clear()
            chart_page.reload()
            loss_plot(chart_page)
            statuses = wire.answered(chart_page)
            if recorder.history.generation == written:
                break
        assert statuses == [304], "the reload's history is the same: no body again"

        # The run goes on: the stored history changes, and the next ask gets the new body.
        with server.monitor.log_path.open("a") as log:  # type: ignore[union-attr]
            log.write(f"step:{STEPS + 1}/{STEPS} train_loss:2.9000 train_time:{(STEPS + 1) * 200}ms step_avg:200.00ms\n")
        deadline = time.monotonic() + 20
        while server.monitor.snapshot().step != STEPS + 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.monitor.snapshot().step == STEPS + 1
        assert recorder.observe() and recorder.history.flush(10)
        wire.clear()
        chart_page.reload()
        loss_plot(chart_page)
        assert wire.answered(chart_page) == [200], "a changed run is sent again in full"
