"""Fixtures that build real things: log_file → config → monitor → app → client, and a real server.

The real server binds ephemeral ports (port 0) and runs the same Dashboard as ``run.py``.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.config import Config
from app.hub.service import Hub
from app.live.feed import LiveFeed
from app.live.monitor import Monitor
from app.serve.process import Dashboard, build_web
from tests.tiers import (  # noqa: F401  the tiers' hooks, given to every test
    pytest_collection_modifyitems,
    pytest_runtest_protocol,
    pytest_terminal_summary,
)

HOTKEY = "5HmQx7Rc"


def stamp(t: float) -> str:
    """A Train-at-Home timestamp (local time, milliseconds)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + f".{int(t * 1000) % 1000:03d}"


def iota_line(t: float, level: str, where: str, message: str) -> str:
    """One Train-at-Home log line: the host wrapper around loguru's default format."""
    return f"[{stamp(t)}] [info]  {stamp(t)} | {level:<8} | {where} - {message}"


class LogWriter:
    """Appends real-shaped Train-at-Home lines to a log file, each write flushed at once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.passes = 0

    def write(self, lines: list[str]) -> None:
        """Append lines (one write, so the tailer sees them together)."""
        with self.path.open("a", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))

    def registered(self, layer: int, t: float | None = None) -> list[str]:
        """The line that puts the miner in a layer (status becomes ``L<layer> · …``)."""
        return [
            iota_line(
                time.time() if t is None else t,
                "SUCCESS",
                "miner.new_miner:_apply_registration_response:1369",
                f"✅ Miner {HOTKEY} registered successfully in layer {layer} on training epoch 48",
            )
        ]

    def queued(self, position: int, t: float | None = None) -> list[str]:
        """A registration-queue poll (status becomes ``Queue #<position>``)."""
        response = str({"queue_id": "4462ebfc", "status": "queued", "position": position, "poll_after": 60})
        return [
            iota_line(
                time.time() if t is None else t,
                "DEBUG",
                "subnet.common_api_client:orchestrator_request:84",
                f"Successfully completed request; response: {response}",
            )
        ]

    def forward(self, layer: int, t: float | None = None) -> list[str]:
        """One completed forward pass with a fresh activation id."""
        self.passes += 1
        aid = f"00000000-0000-4000-8000-{self.passes:012d}"
        at = time.time() if t is None else t
        return [
            iota_line(at, "DEBUG", "miner.training.training:forward:191", "Got activation shape: torch.Size([4, 800, 32])"),
            iota_line(
                at,
                "SUCCESS",
                "miner.training.training:forward:240",
                f"✅ FORWARD complete | layer={layer} activation={aid} hotkey={HOTKEY}",
            ),
        ]


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test keeps history in the user's data dir: servers and run.py children get one of their own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
    # Nor read this machine's config file: it may send real alerts.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg-config")))


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    """An empty miner log in a temp folder."""
    path = tmp_path / "miner.log"
    path.write_text("", encoding="utf-8")
    return path


@pytest.fixture
def log_writer(log_file: Path) -> LogWriter:
    """Writes real-shaped lines into ``log_file``."""
    return LogWriter(log_file)


@pytest.fixture
def config(log_file: Path, tmp_path: Path) -> Config:
    """Loopback, ephemeral ports, and a config folder of the test's own."""
    return Config(log_path=log_file, port=0, config_dir=tmp_path / "config")


@pytest.fixture
def monitor(config: Config) -> Iterator[Monitor]:
    """A monitor over ``log_file`` (not started: feed it with ``monitor.lines``)."""
    monitor = Monitor(config.log_path)
    yield monitor
    monitor.stop()


def web_app(config: Config, monitor: Monitor, *, hub: Hub | None = None) -> Flask:
    """The dashboard app over ``monitor``, built as the process builds it; nothing started."""
    return build_web(config, LiveFeed(monitor), hub=hub).app


@pytest.fixture
def app(config: Config, monitor: Monitor) -> Flask:
    """The dashboard app, as the process builds it (ws port 8766 as if the HTTP port were 8765)."""
    return web_app(replace(config, port=8765), monitor)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Flask's test client (Host: localhost)."""
    return app.test_client()


@dataclass(frozen=True)
class RunningServer:
    """A started Dashboard and where to reach it."""

    dashboard: Dashboard
    config: Config

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.config.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.config.effective_ws_port}/ws"

    @property
    def origin(self) -> str:
        return self.http_url


def start_server(config: Config, monitor: Monitor) -> RunningServer:
    """Start a Dashboard on ``config`` (port 0: ephemeral) and wait until the tailer has read the log."""
    dashboard = Dashboard(config, monitor)
    started = dashboard.start()
    deadline = time.monotonic() + 5
    log_exists = config.log_path is not None and config.log_path.exists()
    while log_exists and monitor.changes.version == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    return RunningServer(dashboard, started)


@pytest.fixture
def server(config: Config, monitor: Monitor) -> Iterator[RunningServer]:
    """A real server on ephemeral ports over ``log_file``, stopped after the test."""
    running = start_server(config, monitor)
    yield running
    running.dashboard.stop()


# --- a real browser ---------------------------------------------------------------

CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def find_chromium() -> str | None:
    """A Chromium-family browser on this machine (Playwright's own download does not run here)."""
    for name in CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for the session; a skip (or, in CI, a failure) when there is none."""
    executable = find_chromium()
    if executable is None:
        reason = f"no Chromium found (looked for {', '.join(CHROMIUM_CANDIDATES)}); apt-get install chromium"
        if os.environ.get("TOKWATCH_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + " — TOKWATCH_REQUIRE_BROWSER=1 makes that a failure")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def utc_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process reads local time as UTC (composed logs whose answers are worked out in UTC)."""
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
