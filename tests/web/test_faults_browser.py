"""The server restarted under an open page: the page reconnects and shows fresh data, no reload.

A real Chromium (Playwright) on a real ``run.py`` process. Without Chromium this skips, unless
TOKWATCH_REQUIRE_BROWSER=1 (CI), where that is a failure.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.harness import Server
from bench.synth import IotaSynth
from tests.pages import watched_page

# What Chromium itself logs while the server is away; anything else on the console is the page's.
EXPECTED_WHILE_DOWN = ("WebSocket connection", "ERR_CONNECTION_REFUSED", "Failed to load resource", "Failed to fetch")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from watched_page(browser, expected=EXPECTED_WHILE_DOWN, viewport={"width": 390, "height": 844})


def queue_line(position: int) -> bytes:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime()) + ".000"
    response = str({"queue_id": "4462ebfc", "status": "queued", "position": position, "poll_after": 60})
    return (
        f"[{stamp}] [info]  {stamp} | DEBUG    | subnet.common_api_client:orchestrator_request:84 - "
        f"Successfully completed request; response: {response}\n"
    ).encode()


def test_the_page_reconnects_to_a_restarted_server_without_reloading(tmp_path: Path, page: Any) -> None:
    from playwright.sync_api import expect

    log = tmp_path / "miner.log"
    synth = IotaSynth(seed=8, start=time.time() - 40 * 60, epoch_seconds=None, requeue_seconds=None)
    log.write_text(synth.text(40 * 60), encoding="utf-8")
    first = Server(log, stderr_path=tmp_path / "first.err").start()
    second: Server | None = None
    try:
        page.goto(f"http://127.0.0.1:{first.http_port}/")
        expect(page.locator("#connection-box")).to_have_attribute("data-connection", "live", timeout=10_000)
        expect(page.locator("#status")).to_contain_text(f"L{synth.truth.layer} · ", timeout=10_000)
        page.evaluate("window.notReloaded = true")

        assert first.stop() == 0
        expect(page.locator("#connection-box")).not_to_have_attribute("data-connection", "live", timeout=10_000)
        with open(log, "ab") as f:  # the miner goes on while the dashboard is down
            f.write(queue_line(1583))

        # Same ports, as a user restarting it from the shell history would.
        second = Server(
            log, "--ws-port", str(first.ws_port), stderr_path=tmp_path / "second.err", port=first.http_port
        ).start()
        expect(page.locator("#status")).to_have_text("Queue #1583", timeout=15_000)
        expect(page.locator("#connection-box")).to_have_attribute("data-connection", "live", timeout=15_000)
        # Live again, not merely polling: the next line arrives by push.
        with open(log, "ab") as f:
            f.write(queue_line(1200))
        expect(page.locator("#status")).to_have_text("Queue #1200", timeout=3_000)
        assert page.evaluate("window.notReloaded === true"), "the page was reloaded"
    finally:
        first.stop()
        if second is not None:
            second.stop()
