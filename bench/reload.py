"""Figure 13b: a reload of a step trainer's page revalidates its whole-run chart instead of fetching it again.

A server (history on, a fresh data dir) on an every-step nanoGPT log, its first-start import let
finish; Chromium opens the page, waits for the whole run's loss chart, and reloads twice. Bytes
are Chromium's own Resource Timing for ``/api/history``: ``transferSize`` (headers and body as
they came over the wire; a revalidated answer is its headers alone) against ``encodedBodySize``
(the body the page holds). The reference is the first load's.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.harness import Server
from bench.report import Figure
from bench.steps import PAGE_WHOLE_RUN, _browser_or_reason, _write
from bench.synth import nanogpt_log

STEPS = 100_000
GOAL_BYTES = 1000  # a 304: headers only, where the whole run is tens of KB
HISTORY_BYTES = """() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/history'))
  .map((e) => ({wire: e.transferSize, body: e.encodedBodySize}))"""


def _imported(server: Server, timeout: float) -> float:
    """Wait until the server's first-start import is done; its seconds."""
    began = time.perf_counter()
    url = f"http://127.0.0.1:{server.http_port}/healthz"
    while time.perf_counter() - began < timeout:
        with urllib.request.urlopen(url, timeout=30) as answer:
            if json.loads(answer.read())["history"]["importing"] is None:
                return time.perf_counter() - began
        time.sleep(0.25)
    raise TimeoutError(f"the import was not done in {timeout:.0f} s")


def measure(workdir: Path, *, quick: bool) -> Figure:
    title = "13b reload of a trainer's whole-run chart"
    goal = f"a reload's /api/history <= {GOAL_BYTES:,} B on the wire (revalidated, 304)"
    steps = STEPS // 5 if quick else STEPS
    folder = workdir / "reload"
    log = _write(folder / "train.log", nanogpt_log(steps, seed=19))
    loads: list[list[dict[str, Any]]] = []
    playwright, browser, reason = _browser_or_reason()
    if browser is None:
        log.unlink(missing_ok=True)
        return Figure(key="reload_history", title=title, value=None, unit="B", reference="", reference_value=None,
                      ratio=None, ratio_label="", goal=goal, met=None, note=f"not measured: {reason}")
    server = Server(log, "--data-dir", str(folder / "data"), stderr_path=folder / "server.err")
    try:
        server.start(timeout=120)
        imported = _imported(server, 300.0)
        tab = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        tab.goto(f"http://127.0.0.1:{server.http_port}/")
        for again in range(3):
            if again:
                tab.reload()
            tab.wait_for_function(PAGE_WHOLE_RUN, arg=steps, timeout=60_000)
            # Chromium queues a fetch's Resource Timing entry after the answer is in the page's hands: the chart
            # can be drawn before its entry is listed.
            tab.wait_for_function(f"() => ({HISTORY_BYTES})().length > 0", timeout=10_000)
            loads.append(tab.evaluate(HISTORY_BYTES))
    finally:
        server.stop()
        browser.close()
        playwright.stop()
        log.unlink(missing_ok=True)
    first = sum(entry["wire"] for entry in loads[0])
    reloads = [sum(entry["wire"] for entry in load) for load in loads[1:]]
    value = reloads[-1]
    return Figure(
        key="reload_history", title=title, value=value, unit="B", reference="the first load's /api/history",
        reference_value=first, ratio=value / first if first else None, ratio_label="x", goal=goal,
        met=value <= GOAL_BYTES,
        note=(f"nanoGPT, {steps:,} steps, its import done ({imported:.1f} s); /api/history on the wire: first load "
              f"{first:,} B ({loads[0][-1]['body']:,} B of gzipped body), reloads {', '.join(f'{b:,}' for b in reloads)} B"),
        details={"steps": steps, "loads": loads},
    )
