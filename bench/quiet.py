"""What a quiet server costs: wake-ups per thread, and figure 14, the quiet CPU the new parts add.

Figure 14 runs two servers side by side on the same quiet log, each with one page open: one as
a user with everything on runs it (the history, alerts to a ``--notify`` URL, an agent reporting
to a real hub, ``run.py --hub``), the other with ``--no-history`` and nothing else. Both are
measured over the same windows (``utime + stime`` from ``/proc``), so a neighbour's burst
lands on both; the figure is the difference over the whole run, and the windows' median
difference is kept beside it.

Wake-ups are counted from each thread's ``voluntary_ctxt_switches`` in ``/proc``: a thread that
sleeps in a wait and is woken (by a timer or an event) counts one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench.harness import ROOT, Server, Viewer, proc_cpu_seconds, thread_wakeups, wakeups_per_second
from bench.report import Figure, median, skipped

NEW_PARTS_GOAL_PERCENT = 0.1
MACHINE_NAME = "bench-rig"


class _Quiet(BaseHTTPRequestHandler):
    """Takes any POST or GET with 200 (the notification channel)."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.server.hits += 1  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: Any) -> None:
        pass


class Receiver:
    """A local notification receiver on 127.0.0.1, port 0."""

    def __init__(self) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
        self.server.hits = 0  # type: ignore[attr-defined]
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, name="receiver", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class HubProcess:
    """``run.py --hub --port 0`` on a data dir with one enrolled machine; ``key`` is its report key."""

    def __init__(self, data_dir: Path, stderr: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        enrolled = subprocess.run(
            [sys.executable, str(ROOT / "run.py"), "--data-dir", str(data_dir), "--enroll", MACHINE_NAME],
            cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
        )
        self.key = enrolled.stdout.strip().splitlines()[-1].strip()
        self._stderr = stderr.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-u", str(ROOT / "run.py"), "--hub", "--data-dir", str(data_dir), "--port", "0"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=self._stderr, text=True,
        )
        assert self.process.stdout is not None
        self.url = ""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            if "open http://" in line and not self.url:
                self.url = line.split("open ", 1)[1].strip().rstrip("/")
            if "Ctrl-C to stop" in line:
                break
        if not self.url:
            self.stop()
            raise RuntimeError("the hub printed no URL")
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for _ in self.process.stdout:
            pass

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._stderr.close()


def measure_new_parts(workdir: Path, *, quick: bool) -> Figure:
    # One figure read top to bottom: the hub, the receiver, both servers, the windows, the report.
    from bench.live import LiveLog, settle

    title = "14 quiet CPU added by history, alerts, agent"
    goal = f"<= {NEW_PARTS_GOAL_PERCENT} % of a core"
    windows, window_seconds = (2, 15.0) if quick else (4, 30.0)
    base = workdir / "quiet-new"
    base.mkdir(parents=True, exist_ok=True)
    log = base / "miner.log"
    live = LiveLog(log, seed=66)
    receiver = Receiver()
    hub: HubProcess | None = None
    servers: list[Server] = []
    viewers: list[Viewer] = []
    try:
        hub = HubProcess(base / "hub-data", base / "hub.err")
        full = Server(log, "--data-dir", str(base / "agent-data"), "--name", MACHINE_NAME,
                      "--notify", f"json://127.0.0.1:{receiver.port}/notify",
                      "--report-to", hub.url, "--report-key", hub.key, stderr_path=base / "full.err")
        bare = Server(log, "--no-history", stderr_path=base / "bare.err")
        servers = [full.start(), bare.start()]
        viewers = [Viewer(s.ws_url()) for s in servers]
        for viewer in viewers:
            settle(viewer)
        time.sleep(8.0)  # start-up work: the history's first write and import, the first report
        cpu = {s.pid: [proc_cpu_seconds(s.pid)] for s in servers}
        wakes = {s.pid: thread_wakeups(s.pid) for s in servers}
        started = time.perf_counter()
        marks = [started]
        for _ in range(windows):
            time.sleep(window_seconds)
            marks.append(time.perf_counter())
            for s in servers:
                cpu[s.pid].append(proc_cpu_seconds(s.pid))
        elapsed = marks[-1] - started
        wake_rates = {s.pid: wakeups_per_second(wakes[s.pid], thread_wakeups(s.pid), elapsed) for s in servers}
        alive = all(s.alive() for s in servers)
        online = _hub_sees(hub.url)
    finally:
        for viewer in viewers:
            viewer.close()
        for s in servers:
            s.stop()
        if hub is not None:
            hub.stop()
        receiver.close()
        live.close()
        log.unlink(missing_ok=True)
    if len(servers) != 2:
        return skipped("quiet_new", title, goal, "a server did not start")
    full_pid, bare_pid = servers[0].pid, servers[1].pid

    def percent(pid: int, i: int, j: int) -> float:
        return (cpu[pid][j] - cpu[pid][i]) / (marks[j] - marks[i]) * 100

    full_percent, bare_percent = percent(full_pid, 0, windows), percent(bare_pid, 0, windows)
    added = full_percent - bare_percent
    per_window = [percent(full_pid, i, i + 1) - percent(bare_pid, i, i + 1) for i in range(windows)]
    return Figure(
        key="quiet_new",
        title=title,
        value=added,
        unit="%",
        reference="same server, --no-history, same log and windows",
        reference_value=bare_percent,
        ratio=full_percent / bare_percent if bare_percent > 0 else None,
        ratio_label="x",
        goal=goal,
        met=added <= NEW_PARTS_GOAL_PERCENT and alive and online is True,
        note=(
            f"{windows} windows of {window_seconds:.0f} s, both servers at once: everything on "
            f"{full_percent:.3f} %, --no-history {bare_percent:.3f} % (window medians: +{median(per_window):.3f} %); "
            f"wake-ups/s {sum(wake_rates[full_pid]):.1f} vs {sum(wake_rates[bare_pid]):.1f}; "
            f"the hub shows the machine {'online' if online else 'NOT online'}"
        ),
        details={
            "window_seconds": window_seconds,
            "windows": windows,
            "full_percent": full_percent,
            "bare_percent": bare_percent,
            "added_percent_per_window": per_window,
            "full_wakeups_per_s_by_thread": wake_rates[full_pid],
            "bare_wakeups_per_s_by_thread": wake_rates[bare_pid],
            "hub_shows_machine_online": online,
            "servers_alive_at_end": alive,
            "clock_ticks_per_s": os.sysconf("SC_CLK_TCK"),
        },
    )


def _hub_sees(url: str) -> bool | None:
    """Whether the hub shows the machine online (its reports arrive), None if it cannot be asked."""
    import json
    import urllib.request

    try:
        with urllib.request.urlopen(f"{url}/api/fleet", timeout=5) as response:
            fleet = json.loads(response.read())
    except (OSError, ValueError):
        return None
    return any(card.get("name") == MACHINE_NAME and card.get("online") for card in fleet.get("machines", []))
