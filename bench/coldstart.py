"""Figure 2: cold start, ``run.py --once`` on a 1 GiB log next to a 1 MiB log with the same tail.

The 1 MiB log is the last MiB of a continuous synthetic log. The 1 GiB log is the same log's
earlier hours repeated until the file is 1 GiB, then that same last MiB: the final copy of the
block runs straight into the tail, so everything a reader could reasonably look at (the last
hours) is continuous, and only the far prefix repeats its times. The file's pages are dropped
from the page cache before every run (``posix_fadvise(DONTNEED)``, this file only), and the
runs alternate small, big, small, big.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.report import Figure, median, skipped
from bench.synth import IotaSynth

ROOT = Path(__file__).resolve().parent.parent
BIG_BYTES = 1 << 30
TAIL_BYTES = 1 << 20
HISTORY_SECONDS = 4 * 3600  # the block before the tail: more than any reader goes back
GOAL_RATIO = 3.0
GOAL_SECONDS = 1.0
TITLE = "2 cold start 1 GiB"
GOAL = f"<= {GOAL_RATIO:.0f}x and < {GOAL_SECONDS:.0f} s"


def _make_logs(workdir: Path) -> tuple[Path, Path]:
    synth = IotaSynth(seed=22, start=time.time() - 2 * 86400)
    data = synth.text(HISTORY_SECONDS).encode("utf-8")
    cut = data.index(b"\n", len(data) - TAIL_BYTES) + 1
    block, tail = data[:cut], data[cut:]
    small = workdir / "cold-1MiB.log"
    big = workdir / "cold-1GiB.log"
    small.write_bytes(tail)
    with big.open("wb") as f:
        copies = (BIG_BYTES - len(tail)) // len(block)
        filler = BIG_BYTES - len(tail) - copies * len(block)
        # A line-aligned piece of the block's end pads to exactly 1 GiB.
        pad = block[len(block) - filler :]
        start = pad.find(b"\n") + 1
        f.write(b"\n" * start)  # blank lines keep the size exact and the lines whole
        f.write(pad[start:])
        for _ in range(copies):
            f.write(block)
        f.write(tail)
        f.flush()
        os.fsync(f.fileno())
    return small, big


def _evict(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fdatasync(fd)
        if hasattr(os, "posix_fadvise"):
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def _once(path: Path) -> tuple[float, dict[str, Any]]:
    _evict(path)
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "--once", "--json", "--at", "end", "--log", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    elapsed = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(f"run.py --once failed on {path.name}: {out.stderr.strip()[-500:]}")
    return elapsed, json.loads(out.stdout)


def _interpreter_seconds() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=30)
    return time.perf_counter() - start


def measure(workdir: Path, *, quick: bool) -> Figure:
    free = shutil.disk_usage(workdir).free
    if free < 3 * BIG_BYTES:
        return skipped("cold_start", TITLE, GOAL, f"needs 3 GiB free in {workdir}, has {free / 2**30:.1f} GiB")
    runs = 3 if quick else 7
    small, big = _make_logs(workdir)
    small_s: list[float] = []
    big_s: list[float] = []
    bare: list[float] = []
    small_snap: dict[str, Any] = {}
    big_snap: dict[str, Any] = {}
    try:
        _once(small)  # warm the interpreter's own files once, as a user's second start would be
        for _ in range(runs):
            seconds, small_snap = _once(small)
            small_s.append(seconds)
            seconds, big_snap = _once(big)
            big_s.append(seconds)
            bare.append(_interpreter_seconds())
        big_size = big.stat().st_size
    finally:
        small.unlink(missing_ok=True)
        big.unlink(missing_ok=True)
    big_median, small_median = median(big_s), median(small_s)
    ratio = big_median / small_median
    return Figure(
        key="cold_start",
        title=TITLE,
        value=big_median,
        unit="s",
        reference="same tail, 1 MiB log",
        reference_value=small_median,
        ratio=ratio,
        ratio_label="x",
        goal=GOAL,
        met=ratio <= GOAL_RATIO and big_median < GOAL_SECONDS,
        note=f"bare interpreter start {median(bare):.3f} s",
        details={
            "runs": runs,
            "big_bytes": big_size,
            "small_bytes": TAIL_BYTES,
            "big_seconds": big_s,
            "small_seconds": small_s,
            "python_startup_seconds": bare,
            "big_status": big_snap.get("status_line"),
            "small_status": small_snap.get("status_line"),
            "big_lines_read": big_snap.get("source", {}).get("lines_read"),
            "small_lines_read": small_snap.get("source", {}).get("lines_read"),
        },
    )
