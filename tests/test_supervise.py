"""Every long-lived thread comes back after an exception, and says so until it has recovered.

Each test starts a real dashboard with everything that runs a thread (the tailer, the history's
writer and observer, alerts with a notification target and a heartbeat, both broadcasters, the
hub's ticker and an agent), makes one thread's target raise once, and checks the failure shows
in ``/healthz`` and the snapshot's ``problems``, the target runs again, and the problem goes once
it has run a while.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app import supervise
from app.alerts.delivery import Delivery
from app.alerts.heartbeat import Heartbeat
from app.alerts.service import AlertService
from app.config import Config
from app.hub.agent import Agent
from app.hub.runtime import FleetRuntime
from app.ingest.tailer import Tailer
from app.live.monitor import Monitor
from app.record.recorder import Recorder
from app.serve.command import build_recorder
from app.serve.process import Dashboard
from app.store.history import History
from app.web.broadcast import Broadcaster
from tests.conftest import LogWriter
from tests.receiver import Receiver

THREADS: list[tuple[type, str, str]] = [
    (Tailer, "_run", "tokwatch-tailer"),
    (Recorder, "_observe_loop", "history-observer"),
    (History, "_run", "history-writer"),
    (AlertService, "_run", "tokwatch-alerts"),
    (Delivery, "_work", "tokwatch-notify"),
    (Heartbeat, "_run", "tokwatch-heartbeat"),
    (Broadcaster, "_run", "tokwatch-broadcaster"),
    (FleetRuntime, "_tick", "tokwatch-hub-ticker"),
    (Agent, "_run", "tokwatch-agent"),
]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    yield running
    running.close()


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


@pytest.mark.parametrize(("cls", "method", "name"), THREADS, ids=[name for _, _, name in THREADS])
def test_a_thread_that_raises_is_restarted_and_shown_until_it_recovers(
    cls: type, method: str, name: str, tmp_path: Path, log_file: Path, log_writer: LogWriter,
    receiver: Receiver, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(supervise, "FIRST_BACKOFF_SECONDS", 0.05)
    monkeypatch.setattr(supervise, "RECOVERED_SECONDS", 3.0)  # long enough to be read on a busy machine
    original = getattr(cls, method)
    calls: list[float] = []
    failed = threading.Event()

    def flaky(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(time.monotonic())
        if len(calls) == 1:
            failed.set()
            raise RuntimeError("injected failure")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cls, method, flaky)
    log_writer.write(log_writer.registered(1))
    config = Config(log_path=log_file, port=0, config_dir=tmp_path / "config", data_dir=tmp_path / "data",
                    hub=True, report_to="http://127.0.0.1:9", report_key="twk_" + "a" * 43,
                    report_interval_seconds=1.0, notify_urls=(f"json://127.0.0.1:{receiver.port}/",),
                    heartbeat_url=f"http://127.0.0.1:{receiver.port}/ping", name="rig-a")
    monitor = Monitor(log_file)
    dashboard = Dashboard(config, monitor, recorder=build_recorder(config, log_file, demo=False))
    try:
        started = dashboard.start()
        base = f"http://127.0.0.1:{started.port}"
        assert failed.wait(10), f"{name} never started"
        # The failure is set just before the raise: the supervisor records it a moment later.
        assert wait_for(lambda: get_json(f"{base}/healthz")["status"] == "degraded"), f"{name}'s failure never shown"
        health = get_json(f"{base}/healthz")
        assert any(p.startswith(name) and "injected failure" in p for p in health["problems"]), health
        assert any(p.startswith(name) for p in get_json(f"{base}/api/snapshot")["problems"])
        assert wait_for(lambda: len(calls) >= 2), f"{name} was not restarted"
        assert wait_for(lambda: not supervise.problems(), 15), supervise.problems()
        health = get_json(f"{base}/healthz")
        # Recovered: no thread's problem is left; only the agent's own (its hub at port 9 never answers).
        assert health["problems"] == [health["report"]["problem"]] and "hub unreachable" in health["problems"][0]
        alive = [t for t in threading.enumerate() if t.name.startswith(name)]
        assert alive and all(t.is_alive() for t in alive)
    finally:
        dashboard.stop()


def test_the_page_shows_the_problems_plainly(
    tmp_path: Path, log_file: Path, log_writer: LogWriter, browser: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setattr(supervise, "FIRST_BACKOFF_SECONDS", 0.05)
    monkeypatch.setattr(supervise, "RECOVERED_SECONDS", 60.0)  # still shown while the page is looked at
    original = Tailer._run
    calls: list[float] = []

    def flaky(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise RuntimeError("injected failure")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Tailer, "_run", flaky)
    log_writer.write(log_writer.registered(1))
    config = Config(log_path=log_file, port=0, config_dir=tmp_path / "config", data_dir=tmp_path / "data")
    dashboard = Dashboard(config, Monitor(log_file))
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        started = dashboard.start()
        assert wait_for(lambda: len(calls) >= 2), "the tailer was not restarted"
        problems = get_json(f"http://127.0.0.1:{started.port}/api/snapshot")["problems"]
        assert len(problems) == 1 and problems[0].startswith("tokwatch-tailer thread failed once"), problems
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"http://127.0.0.1:{started.port}/")
        shown = page.locator("#problems li")
        expect(shown).to_have_count(1)
        expect(shown.first).to_have_text(problems[0])  # as written, not summarised
        expect(page.locator("#problems")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        artifacts = Path(__file__).resolve().parents[1] / "test-artifacts"
        artifacts.mkdir(exist_ok=True)
        page.screenshot(path=str(artifacts / "problems-phone-light.png"), full_page=True)
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=str(artifacts / "problems-phone-dark.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
        dashboard.stop()
