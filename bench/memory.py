"""Figure 6: memory over a simulated week, the real pipeline in a child process.

The child (``bench.memchild``) follows a real file with the real tailer and Monitor. The parent
appends seven simulated days of log as fast as it can generate them (about 10 lines a second
of miner time, hourly epoch changes, a lost registration with a queue spell and a layer change
each day, heartbeat 500s and nginx 404 bodies), waits after each day until the child has read
every line, and reads the child's resident set size from ``/proc/<pid>/status``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from bench.report import Figure, skipped
from bench.synth import IotaSynth

ROOT = Path(__file__).resolve().parent.parent
DAYS = 7
GOAL_MB = 80.0
# RSS moves by a few hundred kB with allocator noise alone; more than this from day 1 to day 7
# is growth.
GROWTH_NOISE_MB = 1.0
TITLE = "6 RSS after day 7"
GOAL = f"<= {GOAL_MB:.0f} MB, no growth"


def _proc_status(pid: int) -> dict[str, int]:
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])  # kB
    return fields


def _ask(child: subprocess.Popen[str]) -> dict[str, Any]:
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write("?\n")
    child.stdin.flush()
    reply = child.stdout.readline()
    if not reply:
        raise RuntimeError("the memory child exited")
    data: dict[str, Any] = json.loads(reply)
    return data


def _wait_caught_up(child: subprocess.Popen[str], lines: int, timeout_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        state = _ask(child)
        if state["lines_read"] >= lines:
            return state
        if time.monotonic() > deadline:
            raise TimeoutError(f"the child read {state['lines_read']} of {lines} lines in {timeout_s:.0f} s")
        time.sleep(0.05)


def measure(workdir: Path, *, quick: bool) -> Figure:
    # One figure read top to bottom: the child, seven days appended, RSS after each, the report.
    if not Path("/proc/self/status").exists():
        return skipped("memory", TITLE, GOAL, "no /proc on this system")
    log = workdir / "mem" / "miner.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_bytes(b"")
    child = subprocess.Popen(
        [sys.executable, "-m", "bench.memchild", str(log)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
    )
    per_day: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        assert child.stdout is not None
        child.stdout.readline()  # ready
        _wait_caught_up(child, 0, 10)
        empty_kb = _proc_status(child.pid)["VmRSS"]
        synth = IotaSynth(seed=7, start=time.time() - (DAYS + 1) * 86400)
        f: IO[str]
        with log.open("a", encoding="utf-8", newline="\n") as f:
            for day in range(1, DAYS + 1):
                for _ in range(24):
                    f.write(synth.text(3600.0))
                    f.flush()
                state = _wait_caught_up(child, synth.truth.lines, 600)
                status = _proc_status(child.pid)
                per_day.append(
                    {
                        "day": day,
                        "rss_kb": status["VmRSS"],
                        "hwm_kb": status["VmHWM"],
                        "lines": synth.truth.lines,
                        "bytes": f.tell(),
                        "status_line": state["status_line"],
                        "elapsed_s": round(time.perf_counter() - started, 1),
                    }
                )
        total_bytes = log.stat().st_size
    finally:
        if child.stdin is not None:
            child.stdin.close()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        log.unlink(missing_ok=True)
    day1 = per_day[0]["rss_kb"] / 1024
    day7 = per_day[-1]["rss_kb"] / 1024
    growth = day7 - day1
    return Figure(
        key="memory",
        title=TITLE,
        value=day7,
        unit="MB",
        reference="RSS after day 1",
        reference_value=day1,
        ratio=day7 / day1,
        ratio_label="x",
        goal=GOAL,
        met=day7 <= GOAL_MB and growth <= GROWTH_NOISE_MB,
        note=(
            f"{total_bytes / 2**30:.2f} GiB of log ({synth.truth.lines:,} lines) read in "
            f"{per_day[-1]['elapsed_s']:.0f} s; growth day 1 -> 7 {growth:+.1f} MB; peak "
            f"{max(d['hwm_kb'] for d in per_day) / 1024:.1f} MB; before any log {empty_kb / 1024:.1f} MB"
        ),
        details={
            "per_day": per_day,
            "rss_before_log_kb": empty_kb,
            "growth_mb": growth,
            "growth_noise_allowance_mb": GROWTH_NOISE_MB,
            "epochs_changed": synth.truth.epochs_changed,
            "requeues": synth.truth.requeues,
            "log_bytes": total_bytes,
            "quick": quick,
        },
    )
