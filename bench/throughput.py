"""Figure 1: parse throughput of parser + tracker, next to the naive baseline and ``grep -c``.

All three read the same synthetic log in the same run, in turns, and each keeps its best of N
repeats: on a shared machine a neighbour's burst then costs a repeat, not the figure. tokwatch and the naive baseline get the same in-memory lines (decoding is not
timed, it is the same for both); ``grep -c`` reads the file, as the floor nothing in Python
could beat. A second tokwatch figure, the tailer's end-to-end ingest (file → lines → parser →
tracker through ``Monitor``), is kept in the details.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from bench.naive import naive_parse
from bench.report import Figure
from bench.synth import IotaSynth

BATCH_LINES = 5000  # the tailer's batch size
GREP_PATTERN = "FORWARD complete"
GOAL_MB_S = 100.0  # on the usual log and when no two noise lines are alike
GOAL_X_NAIVE = 5.0


def _write_log(path: Path, target_bytes: int, *, unique_noise: bool = False) -> tuple[list[str], int, int]:
    synth = IotaSynth(seed=11, start=time.time() - 30 * 86400, unique_noise=unique_noise)
    written = 0
    with path.open("w", encoding="utf-8", newline="\n") as f:
        while written < target_bytes:
            text = synth.text(3600.0)
            f.write(text)
            written += len(text.encode("utf-8"))
    data = path.read_bytes()
    lines = data.decode("utf-8").split("\n")
    lines.pop()  # after the last newline
    return lines, len(data), synth.truth.stretch_passes


def tokwatch_parse(lines: list[str], now: float) -> int:
    """Run lines through the real parser and tracker in tailer-sized batches; return stretch passes."""
    from app.ingest.formats import create_parser
    from app.stats.iota.tracker import IotaTracker

    parser = create_parser("iota")
    tracker = IotaTracker("iota")
    for at in range(0, len(lines), BATCH_LINES):
        tracker.apply_all(parser.feed(lines[at : at + BATCH_LINES]), now)
    return tracker.stretch_passes


def _grep_seconds(path: Path) -> tuple[float, int]:
    env = {**os.environ, "LC_ALL": "C"}
    start = time.perf_counter()
    out = subprocess.run(["grep", "-c", "-F", GREP_PATTERN, str(path)], capture_output=True, text=True, env=env,
                         timeout=120, check=False)
    elapsed = time.perf_counter() - start
    return elapsed, int(out.stdout.strip() or 0)


def _tailer_ingest_seconds(path: Path, lines: int, workdir: Path) -> float | None:
    """Time the real tailer + Monitor reading the whole file from offset 0, or None on timeout."""
    from app.live.monitor import Monitor

    live = workdir / "ingest" / "miner.log"
    live.parent.mkdir(exist_ok=True)
    monitor = Monitor(live, format_name="iota")
    monitor.start()
    try:
        deadline = time.monotonic() + 5
        while monitor.snapshot().source.problem is None and time.monotonic() < deadline:
            time.sleep(0.01)  # wait until the tailer has looked and found nothing
        time.sleep(0.3)  # and until its folder watch is up: a change before that waits for the heartbeat
        start = time.perf_counter()
        os.link(path, live)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if monitor.snapshot().source.lines_read >= lines:
                return time.perf_counter() - start
            time.sleep(0.005)
        return None
    finally:
        monitor.stop()
        live.unlink(missing_ok=True)


def measure(workdir: Path, *, quick: bool) -> Figure:
    # One figure read top to bottom: the log, interleaved repeats of all three readers, the report.
    target = (16 if quick else 64) << 20
    repeats = 3 if quick else 5
    path = workdir / "throughput.log"
    lines, nbytes, truth_passes = _write_log(path, target)
    now = time.time()
    ours: list[float] = []
    naive: list[float] = []
    grep: list[float] = []
    counted = grep_count = 0
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            counted = tokwatch_parse(lines, now)
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            naive_parse(lines)
            naive.append(time.perf_counter() - start)
            seconds, grep_count = _grep_seconds(path)
            grep.append(seconds)
        ingest = _tailer_ingest_seconds(path, len(lines), workdir)
        # The worst case for a parser that remembers noise: no two fetcher lines alike.
        unique_lines, unique_bytes, _ = _write_log(path, target // 4, unique_noise=True)
        unique: list[float] = []
        unique_naive: list[float] = []
        for _ in range(repeats):
            start = time.perf_counter()
            tokwatch_parse(unique_lines, now)
            unique.append(time.perf_counter() - start)
            start = time.perf_counter()
            naive_parse(unique_lines)
            unique_naive.append(time.perf_counter() - start)
    finally:
        path.unlink(missing_ok=True)
    mb = nbytes / 1e6
    ours_s, naive_s, grep_s = min(ours), min(naive), min(grep)
    ours_mb_s = mb / ours_s
    ratio = naive_s / ours_s
    unique_mb_s = unique_bytes / 1e6 / min(unique)
    unique_ratio = min(unique_naive) / min(unique)
    return Figure(
        key="throughput",
        title="1 parse throughput",
        value=ours_mb_s,
        unit="MB/s",
        reference="naive: every regex on every line",
        reference_value=mb / naive_s,
        ratio=ratio,
        ratio_label="x naive",
        goal=f">= {GOAL_MB_S:.0f} MB/s and >= {GOAL_X_NAIVE:.0f}x naive, worst case too",
        met=min(ours_mb_s, unique_mb_s) >= GOAL_MB_S and min(ratio, unique_ratio) >= GOAL_X_NAIVE,
        note=(
            f"grep -c floor {mb / grep_s:,.0f} MB/s, tokwatch is {grep_s / ours_s:.3f} of it; "
            f"worst case (no two noise lines alike) {unique_mb_s:.0f} MB/s, {unique_ratio:.2f}x naive"
        ),
        details={
            "bytes": nbytes,
            "lines": len(lines),
            "repeats": repeats,
            "statistic": "best of repeats",
            "tokwatch_seconds": ours,
            "naive_seconds": naive,
            "grep_seconds": grep,
            "tokwatch_lines_per_s": len(lines) / ours_s,
            "naive_lines_per_s": len(lines) / naive_s,
            "grep_mb_per_s": mb / grep_s,
            "fraction_of_grep": grep_s / ours_s,
            "tailer_ingest_mb_per_s": (mb / ingest) if ingest else None,
            "unique_noise_mb_per_s": unique_mb_s,
            "unique_noise_x_naive": unique_ratio,
            "unique_noise_tokwatch_seconds": unique,
            "unique_noise_naive_seconds": unique_naive,
            "passes_counted": counted,
            "passes_written_in_stretch": truth_passes,
            "forward_lines_grep_counted": grep_count,
        },
    )
