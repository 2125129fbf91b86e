"""Figures 16–19 (the table's numbers): a long step-trainer run, each beside a miner log of the same size in the same run.

* 16, import: the first start's history import of an every-step nanoGPT log (31 MB, 600,000
  steps), the import child as the server starts it (``python -m app.record.child``): its CPU
  and peak RSS (``wait4``), beside the same child on a miner log of the same size.
* 16c, one 1 GiB miner log: a server's first start on it (history on), the process tree's peak
  memory (server + import child: the sum of their RSS, and of their PSS) until the import is done.
* 17, opening: ``run.py`` with the history on (an empty data dir) on a 1,000,000-step nanoGPT log
  (52 MB); a websocket client from the start: when the page first has the latest step with its
  loss and a measured rate, and when ``/api/history?range=30d`` first holds the whole run's loss
  (its first and last logged steps), beside the first snapshot of the miner log of the same size.
* 17b, the page: Chromium opens the page as soon as a server on a fresh data dir
  answers; when the page's own loss chart holds the whole run (the figure a user sees), with where
  the seconds went, rounds alternated with TensorBoard on the same losses.
* 18, ``once``: ``run.py once --no-history`` on the nanoGPT log, an HF Trainer log with ``\\r``
  bars and a torchtitan log, each of the miner log's size: CPU of the process (median of 3,
  alternated with the miner log's).
* 19, idle: a server with one page open on the nanoGPT log whose last line was written 10 min,
  1 h and 2 h ago (its modification time set back: the step lines carry no times), CPU over a
  window once its start-up work is done (the cold start reads the hour behind its first view
  after showing it), beside a server on the quiet miner log over the same windows.

TensorBoard is not a dependency (``make bench`` installs it, the ``bench`` extra): figure 17b times
it on the same run's losses (bench/tensorboard.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench import tensorboard
from bench.harness import ROOT, Server, Viewer, proc_rss_mb
from bench.report import Figure, median
from bench.steplogs import hf_bars_log, llmc_log, modded_log, nanochat_log, sized, torchtitan_log
from bench.synth import IotaSynth, nanogpt_log

IMPORT_STEPS = 600_000  # ~31 MB
OPEN_STEPS = 1_000_000  # ~52 MB
IMPORT_GOAL_SECONDS = 5.0
TREE_GOAL_MB = 80.0  # server + import child, at the import's peak
# Every-step logs of the other trainers: each row's usual line is read and applied in bulk, as nanoGPT's.
FORMATS_GOAL_RATIO = 4.0
LATEST_GOAL_SECONDS = 2.0
CHART_GOAL_SECONDS = 5.0
PAGE_CHART_GOAL_SECONDS = 3.0
# The page's loss chart holds the run from its first logged step to its last (within a bucket).
# Asked only once the page has shown its first snapshot: its modules are loaded by then.
PAGE_WHOLE_RUN = """(steps) => performance.getEntriesByName('tokwatch:status').length > 0
    && import('/static/chart.js').then((m) => {
  const plot = m.inspectChart().find((p) => p.kind === 'loss');
  if (!plot || !plot.lossPoints.length) return false;
  const width = plot.bucketSteps || 1;
  const xs = plot.lossPoints;
  return xs[0][0] <= width && xs[xs.length - 1][0] >= steps - width;
})"""
ONCE_GOAL_RATIO = 2.0
IDLE_GOAL_PERCENT = 0.5
QUIET_AGES = (600, 3600, 7200)


def _write(path: Path, text: str, mtime: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def _miner_log(path: Path, target_bytes: int) -> Path:
    """A continuous miner log of about ``target_bytes`` whose last line is about now."""
    probe = IotaSynth(seed=15, start=0.0).text(600).encode()
    seconds = 600 * target_bytes / len(probe)
    return _write(path, IotaSynth(seed=15, start=time.time() - seconds).text(seconds))


def _peak_rss_mb(pid: int) -> float:
    """The process's peak RSS since its exec (``VmHWM``: ``wait4``'s counts the bench's own pages it was forked with)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _child(args: list[str], stdin: bytes = b"") -> tuple[float, float, float, int]:
    """Run ``args`` (output discarded); (wall seconds, CPU seconds, peak RSS MB read until it ends, exit status)."""
    began = time.perf_counter()
    process = subprocess.Popen(args, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    assert process.stdin is not None
    process.stdin.write(stdin)
    process.stdin.close()
    peak = 0.0
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, _peak_rss_mb(process.pid))
        time.sleep(0.05)
    process.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - began, usage.ru_utime + usage.ru_stime, peak, process.returncode


def _proc_pss_mb(pid: int) -> float:
    """A process's proportional set size (``Pss`` of ``/proc/PID/smaps_rollup``), in MB: its pages,
    each shared one divided among the processes that map it (the interpreter's library, once)."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _tree_rss_mb(pid: int) -> tuple[float, int, float]:
    """RSS of ``pid`` and every process under it, in MB, how many processes that was, and their PSS.

    A child not yet past its ``exec`` is still its parent's memory (``vfork``: the same pages, and
    /proc shows the parent's RSS for it): it is not counted until it runs its own program.
    """
    total, count, pss = 0.0, 0, 0.0
    todo: list[tuple[int, bytes | None]] = [(pid, None)]
    while todo:
        current, parent_cmdline = todo.pop()
        try:
            cmdline = Path(f"/proc/{current}/cmdline").read_bytes()
            if cmdline != parent_cmdline:
                total += proc_rss_mb(current)
                count += 1
                pss += _proc_pss_mb(current)
            for task in Path(f"/proc/{current}/task").iterdir():
                todo.extend((int(child), cmdline) for child in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue  # it ended meanwhile
    return total, count, pss


def _server_import(path: Path, data_dir: Path, timeout: float) -> dict[str, Any]:
    """A server's first start on ``path`` (history on, an empty data dir): the peak of the whole
    process tree's memory (server + import child, read every 20 ms from /proc until its import is
    done): the sum of their RSS (``peak_mb``, the goal's measure) and of their PSS (``peak_pss_mb``:
    pages both map, the interpreter's library among them, counted once)."""
    server = Server(path, "--data-dir", str(data_dir), stderr_path=data_dir.parent / f"{path.stem}-tree.err")
    began = time.perf_counter()
    found: dict[str, Any] = {"peak_mb": 0.0, "peak_pss_mb": 0.0, "server_peak_mb": 0.0, "child_peak_mb": 0.0,
                             "processes": 1}
    try:
        server.start(timeout=120)
        url = f"http://127.0.0.1:{server.http_port}/healthz"
        deadline = began + timeout
        last_look = 0.0
        while time.perf_counter() < deadline:
            total, count, pss = _tree_rss_mb(server.pid)
            server_mb = proc_rss_mb(server.pid)
            found["peak_mb"] = max(found["peak_mb"], total)
            found["peak_pss_mb"] = max(found["peak_pss_mb"], pss)
            found["server_peak_mb"] = max(found["server_peak_mb"], server_mb)
            found["child_peak_mb"] = max(found["child_peak_mb"], total - server_mb)
            found["processes"] = max(found["processes"], count)
            if time.perf_counter() - last_look > 0.25:
                last_look = time.perf_counter()
                with urllib.request.urlopen(url, timeout=30) as answer:
                    if json.loads(answer.read())["history"]["importing"] is None and count == 1:
                        found["seconds"] = last_look - began
                        break
            time.sleep(0.02)
        found["server_hwm_mb"] = _peak_rss_mb(server.pid)
    finally:
        server.stop()
    return found


def _import(path: Path) -> tuple[float, float, float, int]:
    with path.open("rb") as f:
        head = hashlib.sha256(f.read(1024)).hexdigest()
    args = [sys.executable, "-m", "app.record.child", "--now", repr(time.time()), "--format", "auto",
            str(path), str(path.stat().st_size), head]
    return _child(args, b"[]")


def measure_import(workdir: Path, *, quick: bool) -> Figure:
    title = "16 step-log import (31 MB, every step)"
    goal = f"<= {IMPORT_GOAL_SECONDS:g} s of a core; server + import child <= {TREE_GOAL_MB:g} MB at peak"
    steps = IMPORT_STEPS // 10 if quick else IMPORT_STEPS
    folder = workdir / "step-import"
    step_log = _write(folder / "train.log", nanogpt_log(steps, seed=15))
    size_mb = step_log.stat().st_size / 1e6
    miner_log = _miner_log(folder / "miner.log", step_log.stat().st_size)
    try:
        step = _import(step_log)
        miner = _import(miner_log)
        step_tree = _server_import(step_log, folder / "data-steps", 300.0)
        miner_tree = _server_import(miner_log, folder / "data-miner", 300.0)
    finally:
        step_log.unlink(missing_ok=True)
        miner_log.unlink(missing_ok=True)
    return Figure(
        key="step_import", title=title, value=step[1], unit="s", reference="miner log of the same size, CPU",
        reference_value=miner[1], ratio=step[1] / miner[1] if miner[1] else None, ratio_label="x", goal=goal,
        met=step[1] <= IMPORT_GOAL_SECONDS and step[3] == 0
        and max(step_tree["peak_mb"], miner_tree["peak_mb"]) <= TREE_GOAL_MB,
        note=(f"nanoGPT, {steps:,} steps, {size_mb:.0f} MB: CPU {step[1]:.1f} s (wall {step[0]:.1f} s), "
              f"peak RSS of the import process {step[2]:.1f} MB; miner log: CPU {miner[1]:.1f} s, "
              f"peak RSS {miner[2]:.1f} MB. A server's first start, whole process tree (server + import "
              f"child, sum of RSS): step log {step_tree['peak_mb']:.1f} MB at peak (server alone "
              f"{step_tree['server_peak_mb']:.1f}, child {step_tree['child_peak_mb']:.1f}; sum of PSS "
              f"{step_tree['peak_pss_mb']:.1f}), miner log {miner_tree['peak_mb']:.1f} MB (server alone "
              f"{miner_tree['server_peak_mb']:.1f}, child {miner_tree['child_peak_mb']:.1f}; PSS "
              f"{miner_tree['peak_pss_mb']:.1f})"),
        details={"steps": steps, "step": dict(zip(("wall", "cpu", "rss_mb", "status"), step)),
                 "miner": dict(zip(("wall", "cpu", "rss_mb", "status"), miner)),
                 "step_tree": step_tree, "miner_tree": miner_tree},
    )


LONG_MINER_BYTES = 1 << 30  # one file, about three months of a miner's log


def _long_miner_log(path: Path, target_bytes: int) -> Path:
    """One miner log of about ``target_bytes`` (no fetcher noise: the shape of a long single file)
    whose last line is about now, written an hour of log at a time (never held whole)."""
    probe = IotaSynth(seed=12, start=0.0, fetcher=False).text(3600).encode()
    seconds = 3600 * target_bytes / len(probe)
    synth = IotaSynth(seed=12, start=time.time() - seconds, fetcher=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as f:
        while f.tell() < target_bytes:
            f.write(synth.text(3600))
    return path


def measure_long_miner_import(workdir: Path, *, quick: bool) -> Figure:
    """Figure 16c: a server's first start on one 1 GiB miner log (history on): the process tree's
    peak memory (server + import child) over the whole import, beside the server's own peak."""
    title = "16c one 1 GiB miner log's import: process tree"
    goal = f"server + import child <= {TREE_GOAL_MB:g} MB at peak"
    folder = workdir / "long-miner"
    log = _long_miner_log(folder / "miner.log", LONG_MINER_BYTES // 10 if quick else LONG_MINER_BYTES)
    size_mb = log.stat().st_size / 1e6
    try:
        tree = _server_import(log, folder / "data", 3600.0)
    finally:
        log.unlink(missing_ok=True)
    seconds = tree.get("seconds")
    took = f"{seconds:.0f} s" if seconds is not None else "not done in time"
    return Figure(
        key="long_miner_import", title=title, value=tree["peak_mb"], unit="MB",
        reference="the server alone, peak RSS", reference_value=tree["server_peak_mb"],
        ratio=tree["peak_mb"] / tree["server_peak_mb"] if tree["server_peak_mb"] else None, ratio_label="x",
        goal=goal, met=seconds is not None and tree["peak_mb"] <= TREE_GOAL_MB,
        note=(f"{size_mb:,.0f} MB in one file; sum of RSS of server and import child, read every 20 ms until "
              f"the import is done ({took}): "
              f"{tree['peak_mb']:.1f} MB at peak (server alone {tree['server_peak_mb']:.1f}, child alone "
              f"{tree['child_peak_mb']:.1f}); sum of PSS {tree['peak_pss_mb']:.1f} MB"),
        details={"bytes": round(size_mb * 1e6), "tree": tree},
    )


def measure_import_formats(workdir: Path, *, quick: bool) -> Figure:
    """Figure 16 per trainer: the history import of an every-step log of nanoGPT, nanochat, llm.c and
    modded-nanogpt, each the size of the nanoGPT log, beside a miner log of that size in the same run
    (CPU, median of 3, the logs alternated: a 2-core shared machine drifts, a ratio does not)."""
    title = "16b step-log import per trainer (every step)"
    goal = f"each <= {FORMATS_GOAL_RATIO:g}x the miner log's import"
    steps = IMPORT_STEPS // 10 if quick else IMPORT_STEPS
    folder = workdir / "step-import-formats"
    nano = _write(folder / "nanogpt.log", nanogpt_log(steps, seed=16))
    size = nano.stat().st_size
    logs = {
        "nanogpt": nano,
        "nanochat": _write(folder / "nanochat.log", sized(nanochat_log, size, seed=16)),
        "llmc": _write(folder / "llmc.log", sized(llmc_log, size, seed=16)),
        "modded-nanogpt": _write(folder / "modded.log", sized(modded_log, size, seed=16)),
    }
    miner = _miner_log(folder / "miner.log", size)
    runs: dict[str, list[float]] = {name: [] for name in (*logs, "miner")}
    try:
        for _ in range(3):
            for name, path in (*logs.items(), ("miner", miner)):
                runs[name].append(_import(path)[1])
    finally:
        for path in (*logs.values(), miner):
            path.unlink(missing_ok=True)
    med = {name: median(values) for name, values in runs.items()}
    ratios = {name: med[name] / med["miner"] if med["miner"] else 0.0 for name in logs}
    worst = max(logs, key=lambda name: med[name])
    return Figure(
        key="step_import_formats", title=title, value=med[worst], unit="s",
        reference="import of a miner log of the same size, CPU", reference_value=med["miner"], ratio=ratios[worst],
        ratio_label="x", goal=goal, met=all(ratio <= FORMATS_GOAL_RATIO for ratio in ratios.values()),
        note=(f"{size / 1e6:.0f} MB each, CPU median of 3: "
              + ", ".join(f"{name} {med[name]:.2f} s ({ratios[name]:.2f}x)" for name in logs)
              + f"; miner {med['miner']:.2f} s; the figure is the slowest ({worst})"),
        details={"bytes": size, "cpu_seconds": runs},
    )


def _first_snapshot(log: Path, data_dir: Path, done: Any, chart: Any | None, timeout: float) -> dict[str, Any]:
    """Start a server with the history on; seconds until ``done(snapshot)`` and ``chart(history)`` hold."""
    server = Server(log, "--data-dir", str(data_dir), stderr_path=data_dir.parent / f"{log.stem}.err")
    began = time.perf_counter()
    found: dict[str, Any] = {}
    try:
        server.start(timeout=120)
        viewer = Viewer(server.ws_url())
        deadline = began + timeout
        while "latest" not in found and time.perf_counter() < deadline:
            text = viewer.last_text
            if text and done(json.loads(text)):
                found["latest"] = time.perf_counter() - began
                found["status_line"] = json.loads(text).get("status_line")
            time.sleep(0.005)
        viewer.close()
        url = f"http://127.0.0.1:{server.http_port}/api/history?range=30d"
        while chart is not None and "chart" not in found and time.perf_counter() < deadline:
            with urllib.request.urlopen(url, timeout=30) as answer:
                body = json.loads(answer.read())
            if chart(body):
                found["chart"] = time.perf_counter() - began
            else:
                time.sleep(0.25)
        found["rss_mb"] = server.rss_kb() / 1024
    finally:
        server.stop()
    return found


# Where the page's seconds went, read from the page itself once it holds the run: Navigation and
# Resource Timing (ms from the navigation's start) and the status line's mark.
PAGE_TIMELINE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const status = performance.getEntriesByName('tokwatch:status')[0];
  const history = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/history'));
  return {
    html: nav.responseEnd, dcl: nav.domContentLoadedEventEnd, status: status ? status.startTime : null,
    history: history.map((e) => ({asked: e.startTime, answered: e.responseEnd, bytes: e.transferSize,
                                  body: e.decodedBodySize})),
  };
}"""


def _page_chart(log: Path, data_dir: Path, steps: int, timeout: float, browser: Any) -> dict[str, Any]:
    """Seconds from the server's start until Chromium's page draws the whole run's loss (the page
    opened as soon as the server answers, in a fresh context of a browser already running), with
    where they went: the server's start, the page's load, each /api/history ask and answer, the draw."""
    from playwright.sync_api import Error as PlaywrightError

    found: dict[str, Any] = {}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        tab = context.new_page()
        tab.goto("about:blank")
        server = Server(log, "--data-dir", str(data_dir), stderr_path=data_dir.parent / f"{log.stem}-page.err")
        began = time.perf_counter()
        try:
            server.start(timeout=120)
            found["server_up"] = time.perf_counter() - began  # its banner: both ports listening
            tab.goto(f"http://127.0.0.1:{server.http_port}/", wait_until="commit")
            found["opened"] = time.perf_counter() - began
            while time.perf_counter() < began + timeout:
                try:
                    whole = tab.evaluate(PAGE_WHOLE_RUN, steps)
                except PlaywrightError:
                    whole = False  # the page's modules not yet loaded
                if whole:
                    found["chart"] = time.perf_counter() - began
                    break
                time.sleep(0.02)
            found["timeline"] = tab.evaluate(PAGE_TIMELINE)
            # The navigation's start on the bench's clock: the page's own times are ms from it.
            page_now = tab.evaluate("performance.now()") / 1000
            found["navigation_start"] = round(time.perf_counter() - began - page_now, 3)
        finally:
            server.stop()
    finally:
        context.close()
    return found


def _browser_or_reason() -> tuple[Any, Any, str | None]:
    """(playwright, browser, None), or (None, None, why the page cannot be measured here)."""
    from bench.page import CHROMIUM_ARGS, find_chromium

    executable = find_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None, None, "Playwright is not installed"
    if executable is None:
        return None, None, "no Chromium found"
    playwright = sync_playwright().start()
    return playwright, playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS), None


def _breakdown(found: dict[str, Any]) -> str:
    """One round's seconds, in the order they were spent."""
    timeline, nav = found.get("timeline") or {}, found.get("navigation_start")
    if not timeline or nav is None:
        return "no timeline"

    def at(ms: float) -> float:  # the page's ms on the bench's clock
        return float(nav + ms / 1000)

    asks = ", ".join(f"asked {at(h['asked']):.2f} answered {at(h['answered']):.2f} ({h['body'] / 1000:.0f} KB)"
                     for h in timeline["history"])
    status = timeline.get("status")
    return (f"server up {found['server_up']:.2f}, page asked {nav:.2f}, HTML {at(timeline['html']):.2f}, "
            f"DOMContentLoaded {at(timeline['dcl']):.2f}, status line "
            f"{'-' if status is None else f'{at(status):.2f}'}; /api/history {asks or 'none'}; "
            f"whole run seen {_seconds(found.get('chart'))}")


def measure_page_chart(workdir: Path, *, quick: bool) -> Figure:
    """Figure 17b: the whole run's loss chart on the page in Chromium, from the server's start, rounds
    alternated with TensorBoard's time to the same run's last step (its scalars route), same losses."""
    title = "17b the whole run's chart in a browser, 1,000,000 steps"
    goal = f"<= {PAGE_CHART_GOAL_SECONDS:g} s from the server's start to the page's chart (median of rounds)"
    steps = OPEN_STEPS // 10 if quick else OPEN_STEPS
    rounds = 2 if quick else 3
    timeout = 120.0 if quick else 300.0
    folder = workdir / "page-chart"
    text = nanogpt_log(steps, seed=16)
    step_log = _write(folder / "train.log", text)
    version = tensorboard.installed()
    events = tensorboard.write_events(text, folder / "tensorboard" / "run") if version else 0
    del text
    pages: list[dict[str, Any]] = []
    peers: list[dict[str, Any]] = []
    playwright, browser, reason = _browser_or_reason()
    try:
        if browser is not None:
            warm = browser.new_page()  # a user's browser is running before they open the page
            warm.goto("about:blank")
        for round_ in range(rounds):
            if browser is not None:
                pages.append(_page_chart(step_log, folder / f"data-{round_}", steps, timeout, browser))
            if version:
                peers.append(tensorboard.time_to_last_step(folder / "tensorboard" / "run", steps, timeout=timeout,
                                                           stderr=folder / "tensorboard.err"))
    finally:
        if browser is not None:
            browser.close()
            playwright.stop()
        step_log.unlink(missing_ok=True)
    page_s = [p["chart"] for p in pages if "chart" in p]
    peer_s = [p["seconds"] for p in peers if "seconds" in p]
    value = median(page_s) if len(page_s) == len(pages) and pages else None
    ref = median(peer_s) if peer_s and len(peer_s) == len(peers) else None
    peer_note = ("TensorBoard not installed (not measured; make bench installs it)" if not version else
                 f"TensorBoard {version} on the same losses ({events:,} events in its own file), from its start to "
                 f"its scalars route holding the last step: {', '.join(_seconds(p.get('seconds')) for p in peers)}")
    return Figure(
        key="page_chart", title=title, value=value, unit="s",
        reference=f"TensorBoard {version}, same run, median" if version else "TensorBoard (not installed)",
        reference_value=ref, ratio=value / ref if value and ref else None, ratio_label="x", goal=goal,
        met=None if reason is not None else value is not None and value <= PAGE_CHART_GOAL_SECONDS,
        note=(f"not measured: {reason}; {peer_note}" if reason is not None else
              f"nanoGPT, {steps:,} steps, history on, a fresh data dir each round; page "
              + ", ".join(_seconds(p.get("chart")) for p in pages)
              + f"; {peer_note}. Where the median round's seconds went: "
              + _breakdown(sorted(pages, key=lambda p: p.get("chart") or 1e9)[len(pages) // 2])),
        details={"steps": steps, "pages": pages, "tensorboard": peers, "tensorboard_version": version},
    )


def measure_open(workdir: Path, *, quick: bool) -> Figure:
    title = "17 a 1,000,000-step run opens"
    goal = f"latest step <= {LATEST_GOAL_SECONDS:g} s, whole-run loss chart <= {CHART_GOAL_SECONDS:g} s in /api/history"
    steps = OPEN_STEPS // 10 if quick else OPEN_STEPS
    folder = workdir / "step-open"
    text = nanogpt_log(steps, seed=16)
    step_log = _write(folder / "train.log", text)
    size = step_log.stat().st_size
    miner_log = _miner_log(folder / "miner.log", size)
    timeout = 120.0 if quick else 300.0

    def latest(snap: dict[str, Any]) -> bool:
        # nanoGPT prints its tokens per iteration once, at the start: the rate is steps/h.
        training = snap.get("training") or {}
        return bool(snap.get("step") == steps and training.get("loss") is not None
                    and (snap.get("rate") or {}).get("passes_per_hour"))

    def whole(body: dict[str, Any]) -> bool:
        run = body.get("steps") or {}
        loss = run.get("loss") or []
        width = run.get("loss_bucket_steps") or 1
        return bool(loss) and loss[0][0] <= width and loss[-1][0] >= steps - width

    try:
        step = _first_snapshot(step_log, folder / "data-steps", latest, whole, timeout)
        miner = _first_snapshot(miner_log, folder / "data-miner",
                                lambda snap: (snap.get("source") or {}).get("lines_read", 0) > 0, None, timeout)
    finally:
        step_log.unlink(missing_ok=True)
        miner_log.unlink(missing_ok=True)
    latest_s, chart_s, ref = step.get("latest"), step.get("chart"), miner.get("latest")
    return Figure(
        key="step_open", title=title, value=latest_s, unit="s", reference="miner log of the same size, first snapshot",
        reference_value=ref, ratio=latest_s / ref if latest_s and ref else None, ratio_label="x", goal=goal,
        met=latest_s is not None and latest_s <= LATEST_GOAL_SECONDS and chart_s is not None
        and chart_s <= CHART_GOAL_SECONDS,
        note=(f"nanoGPT, {steps:,} steps, {size / 1e6:.0f} MB, history on: latest step, loss and rate "
              f"{_seconds(latest_s)} ('{step.get('status_line')}'); whole-run loss in /api/history "
              f"{_seconds(chart_s)} (waited at most {timeout:.0f} s; the page's chart is 17b); server RSS "
              f"{step.get('rss_mb', 0):.1f} MB; miner log's first snapshot {_seconds(ref)}"),
        details={"steps": steps, "bytes": size, "step": step, "miner": miner},
    )


def _seconds(value: float | None) -> str:
    return "not reached" if value is None else f"{value:.2f} s"


def _once(path: Path) -> float:
    _, cpu, _, status = _child([sys.executable, str(ROOT / "run.py"), "once", "--no-history", "--log", str(path)])
    if status != 0:
        raise RuntimeError(f"once on {path.name} ended with status {status}")
    return cpu


def measure_once(workdir: Path, *, quick: bool) -> Figure:
    title = "18 once on a long step log"
    goal = f"<= {ONCE_GOAL_RATIO:g}x once on a miner log of the same size (nanoGPT, HF bars, torchtitan)"
    steps = OPEN_STEPS // 10 if quick else OPEN_STEPS
    folder = workdir / "step-once"
    nano = _write(folder / "nanogpt.log", nanogpt_log(steps, seed=17))
    size = nano.stat().st_size
    logs = {
        "nanogpt": nano,
        "hf-bars": _write(folder / "hf.log", sized(hf_bars_log, size, seed=17)),
        "torchtitan": _write(folder / "torchtitan.log", sized(torchtitan_log, size, seed=17)),
    }
    miner = _miner_log(folder / "miner.log", size)
    runs: dict[str, list[float]] = {name: [] for name in (*logs, "miner")}
    try:
        for _ in range(3):
            for name, path in (*logs.items(), ("miner", miner)):
                runs[name].append(_once(path))
    finally:
        for path in (*logs.values(), miner):
            path.unlink(missing_ok=True)
    med = {name: median(values) for name, values in runs.items()}
    ratios = {name: med[name] / med["miner"] for name in logs}
    worst = max(ratios, key=lambda name: ratios[name])
    return Figure(
        key="step_once", title=title, value=med[worst], unit="s", reference="once on a miner log of the same size, CPU",
        reference_value=med["miner"], ratio=ratios[worst], ratio_label="x", goal=goal,
        met=all(r <= ONCE_GOAL_RATIO for r in ratios.values()),
        note=(f"{size / 1e6:.0f} MB each, CPU median of 3: "
              + ", ".join(f"{name} {med[name]:.2f} s ({ratios[name]:.2f}x)" for name in logs)
              + f"; miner {med['miner']:.2f} s; the figure is the worst ({worst})"),
        details={"bytes": size, "cpu_seconds": runs},
    )


def measure_idle(workdir: Path, *, quick: bool) -> Figure:
    title = "19 idle step trainer's page"
    goal = f"<= {IDLE_GOAL_PERCENT:g} % of a core at 10 min, 1 h and 2 h of quiet"
    seconds = 15.0 if quick else 60.0
    steps = OPEN_STEPS // 10 if quick else OPEN_STEPS
    folder = workdir / "step-idle"
    text = nanogpt_log(steps, seed=18)
    miner = _miner_log(folder / "miner.log", len(text.encode()))
    percents: dict[str, float] = {}
    reference: list[float] = []
    settling: list[float] = []
    try:
        for age in QUIET_AGES:
            step_log = _write(folder / f"train-{age}.log", text, time.time() - age)
            servers = [Server(step_log, "--no-history", stderr_path=folder / "step.err"),
                       Server(miner, "--no-history", stderr_path=folder / "miner.err")]
            viewers: list[Viewer] = []
            try:
                for server in servers:
                    server.start(timeout=120)
                    viewers.append(Viewer(server.ws_url()))
                for viewer in viewers:
                    viewer.wait_for(lambda lines: lines > 0, 60)
                settled = _settle(servers)  # the cold start's hour behind the first view is read
                cpu0, t0 = [s.cpu_seconds() for s in servers], time.perf_counter()
                time.sleep(seconds)
                cpu1, t1 = [s.cpu_seconds() for s in servers], time.perf_counter()
                percents[_age(age)] = (cpu1[0] - cpu0[0]) / (t1 - t0) * 100
                settling.append(settled)
                reference.append((cpu1[1] - cpu0[1]) / (t1 - t0) * 100)
            finally:
                for viewer in viewers:
                    viewer.close()
                for server in servers:
                    server.stop()
                step_log.unlink(missing_ok=True)
    finally:
        miner.unlink(missing_ok=True)
    worst = max(percents.values())
    ref = median(reference)
    return Figure(
        key="step_idle", title=title, value=worst, unit="%", reference="quiet miner log, same windows",
        reference_value=ref, ratio=worst / ref if ref > 0 else None, ratio_label="x", goal=goal,
        met=worst <= IDLE_GOAL_PERCENT,
        note=(f"{seconds:.0f} s windows, one page open, nanoGPT {steps:,} steps: "
              + ", ".join(f"{age} of quiet {p:.3f} %" for age, p in percents.items())
              + f"; the quiet miner log beside it {', '.join(f'{p:.3f}' for p in reference)} %; "
              + f"the step server's start-up work took {', '.join(f'{s:.0f}' for s in settling)} s of wall time; "
              + _tensorboard()),
        details={"seconds_each": seconds, "percent_by_age": percents, "miner_percent": reference},
    )


def _settle(servers: list[Server], limit: float = 300.0) -> float:
    """Wait until every server has used under 2 % of a core over 2 s (its start-up work done); the seconds waited."""
    began = time.perf_counter()
    while time.perf_counter() - began < limit:
        cpu0 = [s.cpu_seconds() for s in servers]
        time.sleep(2.0)
        if all(s.cpu_seconds() - c < 0.04 for s, c in zip(servers, cpu0)):
            break
    return time.perf_counter() - began


def _age(seconds: int) -> str:
    return f"{seconds // 3600} h" if seconds >= 3600 else f"{seconds // 60} min"


def _tensorboard() -> str:
    version = tensorboard.installed()
    if version is None:
        return "TensorBoard not installed (not measured)"
    return f"TensorBoard {version} installed; its idle is not measured (it needs its page open in a browser)"
