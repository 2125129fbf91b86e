"""A log of dicts without a step number: no step is shown (the log prints none), and its run's loss chart
still draws, each dict at its record index: in a real Chromium without a history (the curve read since
tokwatch started), and in the history's points.

The log is tests/data/real/hf-trl-issue733-dicts-only.log (TRL issue #733): 11 dicts, losses read here
from the log's own text.
"""

from __future__ import annotations

import ast
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.live.monitor import Monitor
from app.record.backfill import ImportProgress
from app.record.recorder import Recorder
from app.serve.process import Dashboard
from app.stats.steps.table import training_table
from app.store import History
from tests.pages import watched_page
from tests.reallogs import body
from tests.web.test_chart import ChartServer
from tests.web.test_trainer_chart import loss_plot

DICTS = [line.rstrip() for line in body("hf-trl-issue733-dicts-only.log")]
LOSSES = [float(ast.literal_eval(line)["loss"]) for line in DICTS]


def serve(tmp_path: Path, data_dir: Path | None) -> ChartServer:
    log_path = tmp_path / "train.log"
    log_path.write_text("\n".join(DICTS) + "\n")
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config")
    monitor = Monitor(log_path)
    recorder = Recorder(History(data_dir), log_path, machine="trainer-test", import_siblings=False)
    dashboard = Dashboard(config, monitor, recorder=recorder)
    started = dashboard.start()
    recorder.progress = ImportProgress(files_total=1)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        training = monitor.snapshot().training
        if training is not None and training.logged_records == len(DICTS):
            break
        time.sleep(0.05)
    return ChartServer(dashboard, monitor, f"http://127.0.0.1:{started.port}")


@pytest.fixture
def dict_log_server(tmp_path: Path) -> Iterator[ChartServer]:
    """As ``--no-history`` runs."""
    running = serve(tmp_path, None)
    yield running
    running.dashboard.stop()


@pytest.fixture
def chart_page(browser: Any) -> Iterator[Any]:
    yield from watched_page(browser, console=False, viewport={"width": 1280, "height": 800}, locale="en-US")


def test_a_log_of_dicts_shows_no_step_and_its_whole_run_draws(dict_log_server: ChartServer, chart_page: Any) -> None:
    snapshot = dict_log_server.monitor.snapshot()
    assert snapshot.step is None and snapshot.training is not None and snapshot.training.step is None
    assert snapshot.training.logged_records == 11
    rows = {row.label: row.value for row in training_table(snapshot.training)}
    assert rows["logged records"] == "11" and "step" not in rows
    chart_page.goto(dict_log_server.url)
    plot = loss_plot(chart_page, "loss by step, read since tokwatch started")
    drawn = {int(index): value for index, value in plot["lossPoints"]}
    assert drawn == {index: pytest.approx(value) for index, value in enumerate(LOSSES, start=1)}
    assert plot["current"] == {"x": 11, "y": pytest.approx(LOSSES[-1])}  # the latest dict, where its loss is drawn


def test_the_history_keeps_a_log_of_dicts_at_its_record_index(tmp_path: Path) -> None:
    """No step, yet the history's step point is there: at record 11, with the 11th dict's loss."""
    running = serve(tmp_path, tmp_path / "data")
    try:
        url = f"{running.url}/api/history?range=30d"
        deadline = time.monotonic() + 30
        loss: list[Any] = []
        while not loss and time.monotonic() < deadline:
            with urllib.request.urlopen(url) as answer:
                loss = (json.loads(answer.read()).get("steps") or {}).get("loss") or []
            time.sleep(0.05)
        assert loss and loss[-1] == [11, pytest.approx(LOSSES[-1])]
    finally:
        running.dashboard.stop()
