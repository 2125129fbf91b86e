"""The page as a browser gets it: bytes on the wire for a first load and a reload, and the time from
navigation to the status line showing the server's figures, in a real Chromium over loopback.

Each round opens a fresh browser context (an empty cache, a new connection), as a first visit:
once with the browser's own ``Accept-Encoding`` (gzip) and once asking for ``identity``, the
uncompressed reference, interleaved so a neighbour's burst costs both alike. The gzip page is then
reloaded, as a user pressing F5 would. Bytes are Chromium's own count of what each request took
on the wire, headers included (CDP ``Network.loadingFinished.encodedDataLength``), for every file
the page fetched from the HTTP port; the websocket's handshake and first snapshot are counted
apart. The time is when the status line was first painted with the server's words: its Element
Timing entry (``elementtiming="status"`` on the line; its ``renderTime``), or, for a page without
one, ``performance.mark("tokwatch:status")``, which the page sets when the status line first shows
the live snapshot. Both are kept (the mark as "live"), against the same load's DOMContentLoaded
(Navigation Timing): the median of the rounds for each.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.harness import Server
from bench.report import Figure, median, skipped
from bench.synth import IotaSynth

BYTES_GOAL = 100 * 1024
STATUS_GOAL_MS = 300.0
ROUNDS = 10
QUICK_ROUNDS = 5
HISTORY_SECONDS = 3600.0
CHROMIUM = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
MARK = "tokwatch:status"
SETTLE_SECONDS = 0.5  # after the load event: the favicon and anything late still arrive
# Element Timing's entries are not in the performance timeline: a buffered observer hands them over.
TIMING = """async () => {
  const nav = performance.getEntriesByType('navigation')[0];
  const mark = performance.getEntriesByName('MARK')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const painted = await new Promise((done) => {
    if (!PerformanceObserver.supportedEntryTypes.includes('element')) return done(null);
    const observer = new PerformanceObserver((list) => {
      const entry = list.getEntries().find((e) => e.identifier === 'status');
      observer.disconnect();
      done(entry ? entry.renderTime || entry.loadTime : null);
    });
    observer.observe({type: 'element', buffered: true});
    setTimeout(() => done(null), 1000);  // no entry at all: the buffered callback never comes
  });
  return {status: painted === null ? mark.startTime : Math.min(painted, mark.startTime), painted, live: mark.startTime,
          dcl: nav.domContentLoadedEventEnd, response_end: nav.responseEnd, load: nav.loadEventEnd,
          fcp: paint ? paint.startTime : null};
}""".replace("MARK", MARK)


@dataclass
class Load:
    """One navigation: what each request cost on the wire, and when things happened."""

    files: dict[str, int] = field(default_factory=dict)  # url -> bytes on the wire
    statuses: dict[str, int] = field(default_factory=dict)  # url -> HTTP status
    websocket_bytes: int = 0
    timing: dict[str, float | None] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.files.values())


class Recorder:
    """Counts a page's requests through a CDP session on its own (Playwright's is not exposed)."""

    def __init__(self, context: Any, page: Any, http_origin: str) -> None:
        self.origin = http_origin
        self.cdp = context.new_cdp_session(page)
        self.urls: dict[str, str] = {}
        self.load = Load()
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.webSocketFrameReceived", self._frame)
        self.cdp.send("Network.enable")

    def start(self) -> Load:
        self.urls = {}
        self.load = Load()
        return self.load

    def _response(self, event: dict[str, Any]) -> None:
        url = event["response"]["url"]
        if url.startswith(self.origin) and "/api/" not in url:
            self.urls[event["requestId"]] = url
            self.load.statuses[url] = int(event["response"]["status"])

    def _finished(self, event: dict[str, Any]) -> None:
        url = self.urls.get(event["requestId"])
        if url is not None:
            self.load.files[url] = int(event["encodedDataLength"])

    def _frame(self, event: dict[str, Any]) -> None:
        self.load.websocket_bytes += len(event["response"].get("payloadData", "").encode("utf-8"))


def navigate(page: Any, recorder: Recorder, url: str, *, reload: bool = False) -> Load:
    """Load (or reload) the page, wait for the status line and the load event; what it cost."""
    load = recorder.start()
    if reload:
        page.reload(wait_until="load")
    else:
        page.goto(url, wait_until="load")
    page.wait_for_function(f"() => performance.getEntriesByName('{MARK}').length > 0", timeout=15000)
    time.sleep(SETTLE_SECONDS)
    load.timing = page.evaluate(TIMING)
    return load


def first_visit(browser: Any, url: str, origin: str, *, identity: bool) -> tuple[Load, Load | None]:
    """A fresh context's first load (and, unless identity, its reload)."""
    headers = {"Accept-Encoding": "identity"} if identity else {}
    context = browser.new_context(viewport={"width": 1280, "height": 900}, extra_http_headers=headers)
    try:
        page = context.new_page()
        recorder = Recorder(context, page, origin)
        first = navigate(page, recorder, url)
        again = None if identity else navigate(page, recorder, url, reload=True)
        return first, again
    finally:
        context.close()


def find_chromium() -> str | None:
    for name in CHROMIUM:
        found = shutil.which(name)
        if found:
            return found
    return None


def _kb(n: float) -> str:
    return f"{n / 1024:.1f} KB"


def measure(workdir: Path, *, quick: bool) -> Figure:
    title = "13 page: status line shown"
    goal = f"first load <= {BYTES_GOAL // 1024} KB on the wire; status <= {STATUS_GOAL_MS:.0f} ms (median)"
    executable = find_chromium()
    if executable is None:
        return skipped("page", title, goal, f"no Chromium found (looked for {', '.join(CHROMIUM)})")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return skipped("page", title, goal, "Playwright is not installed (pip install playwright)")
    folder = workdir / "page"
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "miner.log"
    synth = IotaSynth(seed=13, start=time.time() - HISTORY_SECONDS - 60, epoch_seconds=None, requeue_seconds=None)
    log.write_text(synth.text(HISTORY_SECONDS), encoding="utf-8")
    server = Server(log, stderr_path=folder / "server.err")
    rounds = QUICK_ROUNDS if quick else ROUNDS
    zipped: list[Load] = []
    reloads: list[Load] = []
    plain: list[Load] = []
    try:
        server.start()
        origin = f"http://127.0.0.1:{server.http_port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                first_visit(browser, origin + "/", origin, identity=False)  # warm the server, not the browser
                for _ in range(rounds):
                    first, again = first_visit(browser, origin + "/", origin, identity=False)
                    zipped.append(first)
                    assert again is not None
                    reloads.append(again)
                    plain.append(first_visit(browser, origin + "/", origin, identity=True)[0])
            finally:
                browser.close()
    finally:
        server.stop()
        log.unlink(missing_ok=True)
    return report(title, goal, zipped, reloads, plain, quick=quick)


def report(title: str, goal: str, zipped: list[Load], reloads: list[Load], plain: list[Load], *, quick: bool) -> Figure:
    status_ms = median([float(load.timing["status"] or 0) for load in zipped])
    dcl_ms = median([float(load.timing["dcl"] or 0) for load in zipped])
    reload_ms = median([float(load.timing["status"] or 0) for load in reloads])
    live_ms = median([float(load.timing["live"] or 0) for load in zipped])
    # Painted before the live snapshot was in place: the server's words, from the HTML.
    painted = sum(1 for load in zipped if (at := load.timing.get("painted")) is not None and at < float(load.timing["live"] or 0))
    first_bytes = median([float(load.total) for load in zipped])
    plain_bytes = median([float(load.total) for load in plain])
    reload_bytes = median([float(load.total) for load in reloads])
    last_reload = reloads[-1]
    # Chromium reports a revalidated document as its cached 200; what crossed the wire says more.
    bodyless = sum(1 for url, size in last_reload.files.items() if size < zipped[-1].files.get(url, 0) // 2 or
                   last_reload.statuses.get(url) == 304)
    fcp = [float(paint) for load in zipped if (paint := load.timing.get("fcp")) is not None]
    met = first_bytes <= BYTES_GOAL and status_ms <= STATUS_GOAL_MS
    largest = sorted(zipped[-1].files.items(), key=lambda kv: -kv[1])
    return Figure(
        key="page",
        title=title,
        value=status_ms,
        unit="ms",
        reference="DOMContentLoaded, same loads",
        reference_value=dcl_ms,
        ratio=status_ms / dcl_ms if dcl_ms else None,
        ratio_label="x",
        goal=goal,
        met=met,
        note=(
            f"median of {len(zipped)} fresh loads: status {status_ms:.0f} ms (painted from the HTML in {painted} of "
            f"{len(zipped)}), DOMContentLoaded {dcl_ms:.0f} ms, first paint {median(fcp) if fcp else 0:.0f} ms, "
            f"live snapshot in place {live_ms:.0f} ms; reload: status {reload_ms:.0f} ms. "
            f"Wire: first load {_kb(first_bytes)} in {len(zipped[-1].files)} requests "
            f"(uncompressed {_kb(plain_bytes)}, {first_bytes / plain_bytes:.2f}x); reload {_kb(reload_bytes)}, "
            f"{bodyless} of {len(last_reload.files)} revalidated without a body (304); websocket first snapshot "
            f"{_kb(zipped[-1].websocket_bytes)}"
        ),
        details={
            "rounds": len(zipped),
            "quick": quick,
            "status_ms": [load.timing["status"] for load in zipped],
            "painted_ms": [load.timing.get("painted") for load in zipped],
            "live_ms": [load.timing["live"] for load in zipped],
            "dcl_ms": [load.timing["dcl"] for load in zipped],
            "fcp_ms": [load.timing.get("fcp") for load in zipped],
            "reload_status_ms": [load.timing["status"] for load in reloads],
            "first_load_bytes": [load.total for load in zipped],
            "identity_load_bytes": [load.total for load in plain],
            "reload_bytes": [load.total for load in reloads],
            "reload_statuses": last_reload.statuses,
            "reload_files": last_reload.files,
            "first_load_files": dict(largest),
            "websocket_first_bytes": zipped[-1].websocket_bytes,
        },
    )
