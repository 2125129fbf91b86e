"""Figure 2: cold start, ``run.py --once`` on a 10 GiB log next to the same tail alone.

The tail is the last four hours of a continuous synthetic miner log (about 23 MiB): more than
a cold start reads back (the rate window behind the hour of history, the backend errors' hour,
the facts still unknown), so the tail alone and the big log hold the same answer. The 10 GiB
log is a sparse file: a hole of NULs ending in a newline (one 10 GiB line, no disk used), then
that tail. A 1 GiB log whose earlier hours are real lines (the same block repeated, its last
copy running straight into the tail) is measured too: there a reader that went back too far
would parse real records, not skip a hole.

Anything that grows with the file's size shows in the ratio: reading from the start or
scanning it, fingerprinting it whole, a history backfill in the ``--once`` path. The files'
pages are dropped from the page cache before every run (``posix_fadvise(DONTNEED)``, these
files only); the runs rotate tail, 10 GiB, 1 GiB, and each figure is the median of its runs.
Wall time of the whole process, interpreter start included. The files are deleted afterwards,
and the figure is skipped unless the disk has room for them (the sparse file counted whole
when the file system cannot leave a hole).
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
BIG_BYTES = 10 << 30
REAL_BYTES = 1 << 30
TAIL_SECONDS = 4 * 3600  # more than any cold start reads back
GOAL_RATIO = 1.2
TITLE = "2 cold start 10 GiB"
GOAL = f"<= {GOAL_RATIO}x the tail alone"
SPARE_BYTES = 1 << 30  # left free for everything else on the disk


def _tail_and_block() -> tuple[bytes, bytes]:
    """Four hours of continuous log (the tail) and the four hours before them (the block)."""
    synth = IotaSynth(seed=22, start=time.time() - 2 * 86400)
    block = synth.text(TAIL_SECONDS).encode("utf-8")
    tail = synth.text(TAIL_SECONDS).encode("utf-8")
    return tail, block


def _write_sparse(path: Path, size: int, tail: bytes) -> None:
    """A hole of ``size - len(tail)`` bytes ending in a newline, then ``tail``."""
    with path.open("wb") as f:
        f.truncate(size - len(tail) - 1)
        f.seek(0, os.SEEK_END)
        f.write(b"\n")
        f.write(tail)
        f.flush()
        os.fsync(f.fileno())


def _write_real(path: Path, size: int, block: bytes, tail: bytes) -> None:
    """``block`` repeated, then ``tail``, to exactly ``size`` bytes of whole lines."""
    with path.open("wb") as f:
        copies = (size - len(tail)) // len(block)
        filler = size - len(tail) - copies * len(block)
        # A line-aligned piece of the block's end pads to the exact size.
        pad = block[len(block) - filler :]
        start = pad.find(b"\n") + 1
        f.write(b"\n" * start)  # blank lines keep the size exact and the lines whole
        f.write(pad[start:])
        for _ in range(copies):
            f.write(block)
        f.write(tail)
        f.flush()
        os.fsync(f.fileno())


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


def _room(workdir: Path, tail: bytes) -> str | None:
    """Why the files cannot be written here, or None. Probes whether holes stay holes."""
    free = shutil.disk_usage(workdir).free
    probe = workdir / "cold-hole-probe"
    try:
        with probe.open("wb") as f:
            f.truncate(64 << 20)
        sparse = probe.stat().st_blocks * 512 < (1 << 20)
    finally:
        probe.unlink(missing_ok=True)
    need = REAL_BYTES + 3 * len(tail) + SPARE_BYTES + (0 if sparse else BIG_BYTES)
    if free < need:
        return f"needs {need / 2**30:.1f} GiB free in {workdir}, has {free / 2**30:.1f} GiB"
    return None


def measure(workdir: Path, *, quick: bool) -> Figure:
    tail, block = _tail_and_block()
    problem = _room(workdir, tail)
    if problem is not None:
        return skipped("cold_start", TITLE, GOAL, problem)
    runs = 3 if quick else 7
    small, big, real = workdir / "cold-tail.log", workdir / "cold-10GiB.log", workdir / "cold-1GiB.log"
    seconds: dict[str, list[float]] = {"tail": [], "big": [], "real": []}
    snaps: dict[str, dict[str, Any]] = {}
    bare: list[float] = []
    try:
        small.write_bytes(tail)
        _write_sparse(big, BIG_BYTES, tail)
        _write_real(real, REAL_BYTES, block, tail)
        sizes = {"big_bytes": big.stat().st_size, "big_allocated_bytes": big.stat().st_blocks * 512}
        _once(small)  # warm the interpreter's own files once, as a user's second start would be
        for _ in range(runs):
            for key, path in (("tail", small), ("big", big), ("real", real)):
                elapsed, snaps[key] = _once(path)
                seconds[key].append(elapsed)
            bare.append(_interpreter_seconds())
    finally:
        for path in (small, big, real):
            path.unlink(missing_ok=True)
    tail_s, big_s, real_s = (median(seconds[key]) for key in ("tail", "big", "real"))
    ratio = big_s / tail_s
    lines = {key: snap.get("source", {}).get("lines_read") for key, snap in snaps.items()}
    same = len({snap.get("status_line") for snap in snaps.values()}) == 1 and len(set(lines.values())) == 1
    return Figure(
        key="cold_start",
        title=TITLE,
        value=big_s,
        unit="s",
        reference=f"the same {len(tail) / 2**20:.0f} MiB tail alone",
        reference_value=tail_s,
        ratio=ratio,
        ratio_label="x",
        goal=GOAL,
        met=ratio <= GOAL_RATIO and same,
        note=(
            f"1 GiB of real lines before the tail: {real_s:.3f} s, {real_s / tail_s:.2f}x; "
            f"bare interpreter start {median(bare):.3f} s; "
            + ("the same lines read and status in all three" if same else f"lines read differ: {lines}")
        ),
        details={
            "runs": runs,
            "statistic": "median",
            **sizes,
            "real_bytes": REAL_BYTES,
            "tail_bytes": len(tail),
            "tail_seconds": seconds["tail"],
            "big_seconds": seconds["big"],
            "real_seconds": seconds["real"],
            "real_x_tail": real_s / tail_s,
            "python_startup_seconds": bare,
            "status_lines": {key: snap.get("status_line") for key, snap in snaps.items()},
            "lines_read": lines,
        },
    )
