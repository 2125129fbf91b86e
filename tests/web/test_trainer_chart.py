"""A step trainer's page in a real Chromium: the loss of its whole run is the first chart, with every
logged step (or every bucket's lowest and highest), every evaluation, smoothing and log-y.

Composed log (values computed here): modded-nanogpt's own line shape, a train loss at every step
from 1 to STEPS, loss(step) = 3 + 8·e^(−step/300) + 0.05·sin(step) printed to 4 decimals, a
validation every 125 steps, 200 ms a step. The history is filled by tokwatch's own first-start
import of that log, as a user's would be.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.live.monitor import Monitor
from app.record.recorder import Recorder
from app.serve.process import Dashboard
from app.store import History
from tests.pages import wait_for_module, watched_page
from tests.web.test_browser import ARTIFACTS, PHONE, as_users_log, expect
from tests.web.test_chart import ChartServer, inspect

STEPS = 4000
VAL_EVERY = 125
DESKTOP = {"width": 1280, "height": 800}


def train_loss(step: int) -> str:
    return f"{3 + 8 * math.exp(-step / 300) + 0.05 * math.sin(step):.4f}"


def val_loss(step: int) -> str:
    return f"{3.1 + 8 * math.exp(-step / 300):.4f}"


def composed_log() -> str:
    lines = [f"step:0/{STEPS} val_loss:{val_loss(0)} train_time:0ms step_avg:nanms"]
    for step in range(1, STEPS + 1):
        lines.append(f"step:{step}/{STEPS} train_loss:{train_loss(step)} train_time:{step * 200}ms step_avg:200.00ms")
        if step % VAL_EVERY == 0:
            lines.append(f"step:{step}/{STEPS} val_loss:{val_loss(step)} train_time:{step * 200}ms step_avg:200.00ms")
    return "\n".join(lines) + "\n"


def recorded(tmp_path: Path, text: str) -> Iterator[ChartServer]:
    """A dashboard on ``text`` written as a log, once its history import has finished cleanly."""
    log_path = tmp_path / "train.log"
    log_path.write_text(text)
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(log_path)
    recorder = Recorder(History(tmp_path / "data"), log_path, machine="trainer-test")
    dashboard = Dashboard(config, monitor, recorder=recorder)
    started = dashboard.start()
    assert recorder.progress is not None
    deadline = time.monotonic() + 120
    while not recorder.progress.done and time.monotonic() < deadline:
        time.sleep(0.2)
    assert recorder.progress.done and recorder.progress.problem is None
    assert recorder.history.flush(20)
    yield ChartServer(dashboard, monitor, f"http://127.0.0.1:{started.port}")
    dashboard.stop()


@pytest.fixture
def trainer_server(tmp_path: Path) -> Iterator[ChartServer]:
    yield from recorded(tmp_path, composed_log())


@pytest.fixture
def desktop_page(browser: Any) -> Iterator[Any]:
    yield from watched_page(browser, expected=["WebSocket connection"], viewport=DESKTOP, locale="en-US")


def loss_plot(page: Any, title: str = "loss and rate by step, the whole run") -> dict[str, Any]:
    expect()(page.locator("#history-title")).to_have_text(title, timeout=10_000)
    plots = inspect(page)
    assert plots[0]["kind"] == "loss", "the loss is the first chart"
    return plots[0]


def test_the_whole_runs_loss_opens_first_with_every_step_and_every_evaluation(
    trainer_server: ChartServer, desktop_page: Any
) -> None:
    page = desktop_page
    # Its pictures in the docs show the log where a user keeps one, not the test's tmp folder.
    log_path = trainer_server.monitor.log_path
    assert log_path is not None
    as_users_log(page, log_path, "/home/ana/modded-nanogpt/logs/4f1c2a9e-train.txt")
    page.goto(trainer_server.url)
    plot = loss_plot(page)
    expect()(page.locator("#source")).to_have_text("log: /home/ana/modded-nanogpt/logs/4f1c2a9e-train.txt")
    expect()(page.locator('#chart-ranges button[data-range="30d"]')).to_have_attribute("aria-pressed", "true")
    drawn = {int(step): value for step, value in plot["lossPoints"]}
    if plot["bucketSteps"] == 1:
        right = sum(1 for s in range(1, STEPS + 1) if s in drawn and f"{drawn[s]:.4f}" == train_loss(s))
        assert right >= 0.95 * STEPS, f"{right} of {STEPS} steps drawn with their logged loss"
    else:
        width = plot["bucketSteps"]
        for first in range(0, STEPS + 1, width):
            values = [(float(train_loss(s)), s) for s in range(max(first, 1), min(first + width, STEPS + 1))]
            if values:
                assert min(values)[1] in drawn and max(values)[1] in drawn, first
    assert plot["evalPoints"] == {"val_loss": STEPS // VAL_EVERY + 1}
    # The current loss (the last logged before it) sits on the chart.
    assert plot["current"]["x"] == STEPS

    # Smoothing: the slider redraws the same plot; log-y rebuilds it on a log scale.
    controls = page.locator("#loss-controls")
    expect()(controls).to_be_visible()
    page.locator("#log-y").check()
    wait_for_module(page, "/static/chart.js", "(m) => m.inspectChart()[0]?.logY === true")
    page.locator("#log-y").uncheck()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "trainer-desktop-light.png"), full_page=True)
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / "trainer-desktop-dark.png"), full_page=True)
    # A phone: one column, the loss chart under the status, nothing wider than the screen.
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "trainer-phone-dark.png"), full_page=True)
    page.emulate_media(color_scheme="light")
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / "trainer-phone-light.png"), full_page=True)


def test_at_1280_the_chart_is_beside_the_status_and_300_px_tall(trainer_server: ChartServer, desktop_page: Any) -> None:
    page = desktop_page
    page.goto(trainer_server.url)
    loss_plot(page)
    status = page.locator("#status").bounding_box()
    details = page.locator("#details").bounding_box()
    chart = page.locator("#chart").bounding_box()
    assert chart["x"] >= status["x"] + status["width"], (status, chart)
    assert chart["y"] < details["y"] + details["height"], "the chart starts beside the status, not under it"
    assert page.locator("#chart .uplot").first.bounding_box()["height"] >= 300
    # The status line stays on one line.
    line_height = page.evaluate("parseFloat(getComputedStyle(document.getElementById('status')).lineHeight)")
    assert status["height"] < 1.6 * line_height, status


# llm.c's own line shape (tests/data/real/llmc-issue796-mfu-unknown-gpu.log): 600 steps, a
# learning rate warming up over 100 steps to 6e-4 and then decaying linearly to 0 at step 600.
LLMC_STEPS = 600


def llmc_lr(step: int) -> float:
    return 6e-4 * step / 100 if step <= 100 else 6e-4 * (LLMC_STEPS - step) / 500


def llmc_log() -> str:
    return "\n".join(
        f"step {s:4d}/{LLMC_STEPS} | loss {4 - s / 300:.6f} (+nanz)| norm 1.4800 (+nanz)| lr {llmc_lr(s):.2e} | 44.57 ms"
        " | 40.0% bf16 MFU | 91886 tok/s"
        for s in range(1, LLMC_STEPS + 1)
    ) + "\n"


@pytest.fixture
def llmc_server(tmp_path: Path) -> Iterator[ChartServer]:
    yield from recorded(tmp_path, llmc_log())


def test_the_learning_rate_is_one_tick_away(llmc_server: ChartServer, desktop_page: Any) -> None:
    page = desktop_page
    page.goto(llmc_server.url)
    # Its history holds no 30-s rate point (the import kept its losses): the loss plot alone.
    plot = loss_plot(page, "loss by step, the whole run")
    assert len(inspect(page)) == 1
    assert plot["lrPoints"] is None
    page.locator("#show-lr").check()
    wait_for_module(page, "/static/chart.js", "(m) => m.inspectChart()[0]?.lrPoints > 0")
    plot = inspect(page)[0]
    assert plot["lrPoints"] == LLMC_STEPS
    # Hover on step 100 reads its loss and its learning rate as printed.
    from tests.web.test_chart import point

    x, y = point(page, 0, 100)
    page.mouse.move(x, y)
    expect()(page.locator("#chart-readout")).to_contain_text(f"learning rate {float(f'{llmc_lr(100):.2e}'):g}")
    page.screenshot(path=str(ARTIFACTS / "trainer-lr-desktop-light.png"), full_page=True)


@pytest.fixture
def memory_server(tmp_path: Path) -> Iterator[ChartServer]:
    """The same log with --no-history: nothing on disk, the run from what the server read."""
    log_path = tmp_path / "train.log"
    log_path.write_text(composed_log())
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(log_path)
    dashboard = Dashboard(config, monitor, recorder=Recorder(History(None), log_path, machine="trainer-test"))
    started = dashboard.start()
    deadline = time.monotonic() + 20
    while getattr(monitor.snapshot().training, "step", None) != STEPS and time.monotonic() < deadline:
        time.sleep(0.2)
    yield ChartServer(dashboard, monitor, f"http://127.0.0.1:{started.port}")
    dashboard.stop()


def test_without_a_history_the_runs_loss_comes_from_memory_and_says_which_steps(
    memory_server: ChartServer, desktop_page: Any
) -> None:
    page = desktop_page
    page.goto(memory_server.url)
    plot = loss_plot(page, "loss by step, read since tokwatch started")  # no rates kept in memory
    drawn = {int(step): value for step, value in plot["lossPoints"]}
    first, last = min(drawn), max(drawn)
    # The server read this short log whole: every step with its logged loss, every evaluation.
    assert (first, last) == (1, STEPS)
    assert plot["bucketSteps"] == 1
    assert all(f"{drawn[s]:.4f}" == train_loss(s) for s in range(first, last + 1))
    assert plot["evalPoints"] == {"val_loss": STEPS // VAL_EVERY + 1}
    expect()(page.locator("#chart-note")).to_have_text(
        f"From memory: steps {first:,}–{last:,}, the losses this tokwatch read from the log since it started;"
        " it keeps no history (--no-history).")
    # The other ranges say why they are not there; the hour and the run are.
    expect()(page.locator('#chart-ranges button[data-range="24h"]')).to_have_class("off")
    expect()(page.locator('#chart-ranges button[data-range="30d"]')).not_to_have_class("off")
    # A phone, both themes: one column, the note whole under the chart, nothing wider than the screen.
    page.set_viewport_size(PHONE)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(300)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(ARTIFACTS / f"trainer-memory-phone-{scheme}.png"), full_page=True)


@pytest.fixture
def sampling_server(tmp_path: Path) -> Iterator[ChartServer]:
    """A dashboard whose history import is under way, its run sampled meanwhile."""
    from app.record.backfill import ImportProgress

    log_path = tmp_path / "train.log"
    log_path.write_text(composed_log())
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(log_path)
    # No import runs (this short log's would end at once): the test holds one under way.
    recorder = Recorder(History(tmp_path / "data"), log_path, machine="trainer-test", import_siblings=False)
    dashboard = Dashboard(config, monitor, recorder=recorder)
    started = dashboard.start()
    recorder.progress = ImportProgress(files_total=1)
    deadline = time.monotonic() + 30
    while monitor.snapshot().step != STEPS and time.monotonic() < deadline:
        time.sleep(0.1)
    recorder._sample()
    yield ChartServer(dashboard, monitor, f"http://127.0.0.1:{started.port}")
    dashboard.stop()


def test_while_the_import_reads_the_run_its_chart_is_a_sample_and_says_so(
    sampling_server: ChartServer, desktop_page: Any
) -> None:
    page = desktop_page
    page.goto(sampling_server.url)
    plot = loss_plot(page, "loss by step, the whole run")  # a sample has no rates
    drawn = {int(step): value for step, value in plot["lossPoints"]}
    # Each point a loss the log printed at its step, from the run's first to its last.
    assert min(drawn) == 1 and max(drawn) == STEPS and len(drawn) >= 500
    assert all(f"{value:.4f}" == train_loss(step) for step, value in drawn.items())
    expect()(page.locator("#chart figcaption").first).to_have_text("loss (sampled across the run)")
    expect()(page.locator("#chart-note")).to_contain_text(
        f"Sampled: a logged loss about every 4 steps across the run, steps 1–{STEPS:,}")


def test_a_run_that_died_at_its_only_step_draws_its_chart(tmp_path: Path, desktop_page: Any) -> None:
    """Axolotl behind Ray: one bar (step 4 of 1920, 572.77 s/it), then the NCCL watchdog. The run holds
    one step: the chart spans it instead of failing on an empty range (the page would log the error)."""
    from tests.reallogs import body

    text = "\n".join(body("crash-axolotl-issue1495-ray-prefix-bar-glued-nccl-watchdog.log")) + "\n"
    server = recorded(tmp_path, text)
    chart = next(server)
    try:
        page = desktop_page
        page.goto(chart.url)
        expect()(page.locator("#status")).to_have_text("step 4/1920 · crashed")
        # It printed no loss: its rate alone, no empty loss plot, no loss controls.
        expect()(page.locator("#history-title")).to_have_text("rate by step, the whole run", timeout=10_000)
        plots = inspect(page)
        assert [plot["kind"] for plot in plots] == ["steprate"]
        expect()(page.locator("#loss-controls")).to_be_hidden()
        # Each plot's x axis is drawn around step 4.
        assert all(plot["x"][0] <= 4 <= plot["x"][1] and plot["x"][0] < plot["x"][1] for plot in plots)
    finally:
        desktop_page.goto("about:blank")  # before the server stops: no refused reconnect logged
        next(server, None)


def test_a_run_finishing_after_its_last_bar_promises_no_rate_and_no_epoch_end(tmp_path: Path, desktop_page: Any) -> None:
    """llama-recipes' FSDP run ends its last epoch's bar (2/2, 34.89 s/it) and evaluates: it is finishing.
    No steps will come to measure, so no warm-up card promises a rate, and the epoch ends in no time."""
    from tests.reallogs import body

    text = "\n".join(body("generic-llama-recipes-llama-cookbook-issue408-fsdp-4-ranks.log")) + "\n"
    server = recorded(tmp_path, text)
    chart = next(server)
    try:
        page = desktop_page
        page.set_viewport_size(PHONE)
        page.goto(chart.url)
        expect()(page.locator("#status")).to_have_text("epoch 1/1 · 2/2 in the epoch · finishing")
        expect()(page.locator("#details")).to_contain_text("Finishing: the last epoch's steps are done")
        expect()(page.locator("#warmup")).to_be_hidden()
        details = page.locator("#details li").all_inner_texts()
        assert not [line for line in details if line.startswith(("Epoch ends in", "ETA", "measuring"))], details
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        desktop_page.goto("about:blank")  # before the server stops: no refused reconnect logged
        next(server, None)


def test_a_run_behind_ray_that_died_with_no_loss_or_rate_says_its_chart_is_empty(tmp_path: Path, desktop_page: Any) -> None:
    """Ray Train's worker prefix, one bar (60/500 at 2.00 s/it), then rank 0's NCCL watchdog: no loss was
    printed and one bar times no rate, so the chart has nothing to draw and says so."""
    from tests.reallogs import body

    text = "\n".join(body("crash-composed-raytrain-prefix-bar-then-rank-watchdog.log")) + "\n"
    server = recorded(tmp_path, text)
    chart = next(server)
    try:
        page = desktop_page
        page.set_viewport_size(PHONE)
        page.goto(chart.url)
        expect()(page.locator("#status")).to_have_text("step 60/500 · crashed")
        expect()(page.locator("body")).to_have_attribute("data-level", "problem")
        expect()(page.locator("#chart-note")).to_have_text("nothing recorded in this range yet", timeout=10_000)
        details = page.locator("#details li").all_inner_texts()
        assert not [line for line in details if line.startswith(("ETA", "Epoch ends in", "measuring", "Stalled"))], details
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        desktop_page.goto("about:blank")  # before the server stops: no refused reconnect logged
        next(server, None)


def test_a_run_resumed_at_a_large_step_labels_its_step_axis_apart(tmp_path: Path, desktop_page: Any) -> None:
    """BigScience's 104B run resumed at step 17068 and overflowing at 6 of its last 10 steps: one step
    in the history, its axis a few steps wide, each tick its own step (not 17.1k three times)."""
    from tests.reallogs import body

    name = "generic-megatron-deepspeed-bigscience-file-tr8b-104B-chronicles-resume-overflow-spike.log"
    server = recorded(tmp_path, "\n".join(body(name)) + "\n")
    chart = next(server)
    try:
        page = desktop_page
        page.set_viewport_size(PHONE)
        page.goto(chart.url)
        expect()(page.locator("#details")).to_contain_text(
            "Warning: fp16 overflow at 6 of the last 10 steps, past the warm-up (loss scale 1048576 → 32768)")
        wait_for_module(page, "/static/chart.js", "(m) => m.inspectChart().length > 0")
        for plot in inspect(page):
            drawn = [tick for tick in plot["xTicks"] if tick]
            assert len(drawn) >= 2 and len(set(drawn)) == len(drawn), plot["xTicks"]
            assert "17068" in drawn, plot["xTicks"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        desktop_page.goto("about:blank")  # before the server stops: no refused reconnect logged
        next(server, None)


# Composed: a loss level of 2.0 ± 0.05 by step, a 3× spike at step 60 that recovers at once and another at
# steps 100-101 (5.0, 5.5): the detector counts two episodes, at their first steps (tests/stats/test_steps_spikes.py).
WOBBLE = [2.0, 2.05, 1.95, 2.02, 1.98, 2.04, 1.96, 2.01, 1.99, 2.03]
SPIKED = {60: 6.0, 100: 5.0, 101: 5.5}


def spiked_log(steps: int = 150) -> str:
    lines = []
    for step in range(1, steps + 1):
        loss = SPIKED.get(step, WOBBLE[step % len(WOBBLE)])
        lines.append(f"step:{step}/{steps} train_loss:{loss:.4f} train_time:{step * 200}ms step_avg:200.00ms")
    return "\n".join(lines) + "\n"


def test_loss_spikes_are_marked_on_the_chart_and_counted_in_the_details(tmp_path: Path, desktop_page: Any) -> None:
    server = recorded(tmp_path, spiked_log())
    chart = next(server)
    try:
        page = desktop_page
        page.goto(chart.url)
        expect()(page.locator("#details")).to_contain_text("Loss spikes 2 (the latest at step 100, recovered)")
        plot = loss_plot(page, "loss by step, the whole run")  # 30 s of steps: no rate point yet
        assert plot["events"] == 2, "a marker for each spike on the loss chart"
        markers = page.evaluate(
            "fetch('/api/snapshot').then((r) => r.json()).then((s) => s.training.loss_spike_steps)")
        assert markers == [60, 100]
        # Each marker's step sits inside the plotted steps, so it is drawn where the loss jumped.
        assert plot["x"][0] <= 60 and plot["x"][1] >= 101
        ARTIFACTS.mkdir(exist_ok=True)
        for width, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            page.set_viewport_size(width)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                wait_for_module(page, "/static/chart.js", "(m) => m.inspectChart()[0]?.events === 2")
                # The chart redraws at the new width on its resize: the page fits once it has (or the wait fails).
                page.wait_for_function("(w) => document.documentElement.scrollWidth <= w", arg=width["width"])
                page.screenshot(path=str(ARTIFACTS / f"trainer-spikes-{name}-{scheme}.png"), full_page=True)
    finally:
        desktop_page.goto("about:blank")  # before the server stops: no refused reconnect logged
        next(server, None)
