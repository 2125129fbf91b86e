"""Figure 7b: one long miner log's first-start import, per byte, against the same bytes in dated files.

A miner that never rotates its log (the headless miner writing to one file, a Train at Home
folder copied whole) hands the import one long file: 1 GiB here (``--quick``: 100 MiB) of the
bench's miner, DEBUG fetcher noise off (``IotaSynth``, seed 12, from 98 days back: about 73
days), the shape the import found slowest. The same bytes are also cut at each local midnight
into ``<YYYY-MM-DD>-cli.log`` files, as Train at Home rotates them. Both are imported by the
import child as the server starts it (``python -m app.record.backfill``, niced, its batches
read and dropped), the two alternated, best of each; the figure is bytes over the child's CPU
seconds (``wait4``), so a neighbour's load on this shared machine costs wall time, not the figure.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.report import Figure
from bench.synth import IotaSynth

ROOT = Path(__file__).resolve().parent.parent
GOAL_MB_PER_S = 50.0
PER_BYTE_NOISE = 0.1  # the one file may be this much slower per byte than the dated files (noise)
DAYS_BACK = 98


def _write(folder: Path, target_bytes: int) -> tuple[Path, list[Path]]:
    """One long log of ``target_bytes`` or a little more, and the same bytes cut at each local midnight."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "dated").mkdir(exist_ok=True)
    day = time.localtime(time.time() - DAYS_BACK * 86400)
    synth = IotaSynth(seed=12, start=time.mktime((day.tm_year, day.tm_mon, day.tm_mday, 0, 0, 0, 0, 0, -1)),
                      fetcher=False)
    single = folder / "miner.log"
    dated: list[Path] = []
    size = 0
    with single.open("w", encoding="utf-8", newline="\n") as out:
        while size < target_bytes:
            text = synth.text(3600.0)
            out.write(text)
            size += len(text)
            while text:  # the host wrapper's date opens each record: a new date opens a new file
                date = text[1:11] if text[0] == "[" or not dated else dated[-1].name[:10]  # (a continuation line)
                cut = text.find("\n[", 0) + 1
                while cut and text[cut + 1 : cut + 11] == date:
                    cut = text.find("\n[", cut) + 1
                part, text = (text[:cut], text[cut:]) if cut else (text, "")
                path = folder / "dated" / f"{date}-cli.log"
                if not dated or dated[-1] != path:
                    dated.append(path)
                with path.open("a", encoding="utf-8", newline="\n") as f:
                    f.write(part)
    return single, dated


def _import_cpu_seconds(files: list[Path]) -> tuple[float, float, int]:
    """The import child on ``files`` as the server starts it: (CPU seconds, wall seconds, bytes it handed back)."""
    args = [sys.executable, "-m", "app.record.backfill", "--now", repr(time.time()), "--format", "auto"]
    for path in files:
        with path.open("rb") as f:
            head = hashlib.sha256(f.read(1024)).hexdigest()
        args += [str(path), str(path.stat().st_size), head]
    began = time.perf_counter()
    process = subprocess.Popen(args, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"[]")
    process.stdin.close()
    handed = 0
    while chunk := process.stdout.read(1 << 20):
        handed += len(chunk)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"the import child exited with {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - began, handed


def measure(workdir: Path, *, quick: bool) -> Figure:
    folder = workdir / "long-import"
    repeats = 2 if quick else 1
    try:
        single, dated = _write(folder, (100 if quick else 1024) << 20)
        size = single.stat().st_size
        one: list[tuple[float, float, int]] = []
        days: list[tuple[float, float, int]] = []
        for _ in range(repeats):
            one.append(_import_cpu_seconds([single]))
            days.append(_import_cpu_seconds(dated))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    one_cpu = min(cpu for cpu, _, _ in one)
    days_cpu = min(cpu for cpu, _, _ in days)
    one_rate, days_rate = size / 1e6 / one_cpu, size / 1e6 / days_cpu
    per_byte = one_rate / days_rate
    return Figure(
        key="long_import",
        title="7b one long miner log's import",
        value=one_rate,
        unit="MB/s",
        reference=f"the same bytes in {len(dated)} dated files",
        reference_value=days_rate,
        ratio=per_byte,
        ratio_label="x the dated files' rate",
        goal=f">= {GOAL_MB_PER_S:g} MB/s of the import child's CPU; as fast per byte as dated files",
        met=one_rate >= GOAL_MB_PER_S and per_byte >= 1 - PER_BYTE_NOISE,
        note=(f"{size / 1e6:,.0f} MB in one file: {one_cpu:.1f} s of CPU ({one_rate:.1f} MB/s, wall "
              f"{min(wall for _, wall, _ in one):.1f} s); in {len(dated)} dated files {days_cpu:.1f} s "
              f"({days_rate:.1f} MB/s); goal {GOAL_MB_PER_S:g} MB/s"),
        details={"bytes": size, "dated_files": len(dated), "repeats": repeats, "statistic": "best CPU of repeats",
                 "one_file": [{"cpu_seconds": c, "wall_seconds": w, "batch_bytes": b} for c, w, b in one],
                 "dated": [{"cpu_seconds": c, "wall_seconds": w, "batch_bytes": b} for c, w, b in days]},
    )
