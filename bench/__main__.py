"""tokwatch's benchmark: each figure next to its reference from the same run.

    make bench                   # the full run (about half an hour on 2 idle cores; see docs/performance.md)
    make bench ARGS=--quick      # shorter CPU windows and files (about 13 minutes on 2 loaded cores)
    .venv/bin/python -m bench --only latency,cpu

Writes ``bench/out/bench-<time>.json``, ``bench/out/latest.json`` and ``latest.md`` (the docs' table), prints a short table.
Everything runs against 127.0.0.1 and files under ``bench/out/``, removed afterwards.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bench import (
    coldstart,
    compare,
    history,
    hub,
    ingest,
    live,
    loss_store,
    memory,
    page,
    quiet,
    reload,
    steps,
    throughput,
)
from bench.report import Figure, git_revision, machine, skipped, table, write_report

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"

Measure = Callable[..., Figure]
FIGURES: dict[str, tuple[str, str, Measure]] = {
    "throughput": ("1 parse throughput", ">= 100 MB/s and >= 5x naive, worst case too", throughput.measure),
    "cold_start": ("2 cold start 10 GiB", "<= 1.2x the tail alone", coldstart.measure),
    "latency": ("3 latency p99, miner cadence", "p99 <= 150 ms at the miner's cadence, <= 60 ms lone; <= 4 pushes/s",
                live.measure_latency),
    "fanout": ("4 fan-out 32 clients p95", "p95 <= 250 ms", live.measure_fanout),
    "cpu": ("5 CPU, quiet log (20 lines/s)", "quiet <= 0.3 %, 20 lines/s <= 3 %", live.measure_cpu),
    "memory": ("6 RSS after day 7", "<= 80 MB, no growth", memory.measure),
    # The history figures share one week of logs and one server; the RSS figure stops it, so it is last.
    "history_import": ("7 first-start import, 7 days", "<= 60 s; live p95 <= 100 ms", history.measure_import),
    "history_api": ("8 /api/history?range=7d p95", "p95 <= 50 ms", history.measure_api),
    "history_write": ("9 one 30-s write p95", "p95 <= 20 ms", history.measure_write),
    "history_size": ("10 history file, week (year)", "<= 10 MB a week, <= 50 MB a year", history.measure_size),
    "history_rss": ("11 RSS after a week, history on", "<= 50 MB with history, and with alerts on", history.measure_rss),
    "hub": ("12 hub, 100 agents: CPU", "CPU <= 5 %, take p99 <= 50 ms, push p99 <= 1 s", hub.measure),
    "page": ("13 page: status line shown", "first load <= 100 KB on the wire; status <= 300 ms (median)", page.measure),
    "reload_history": ("13b reload of a trainer's whole-run chart",
                       "a reload's /api/history <= 1,000 B on the wire (revalidated, 304)", reload.measure),
    "quiet_new": ("14 quiet CPU added by history, alerts, agent", "<= 0.1 % of a core", quiet.measure_new_parts),
    "loss_history": ("15 /api/history, 1,000,000-step run, afresh", "p95 <= 50 ms computed afresh",
                     loss_store.measure),
    "step_import": ("16 step-log import (31 MB, every step)",
                    "<= 5 s of a core; server + import child <= 80 MB at peak", steps.measure_import),
    "long_miner_import": ("16c one 1 GiB miner log's import: process tree",
                          "server + import child <= 80 MB at peak", steps.measure_long_miner_import),
    "step_import_formats": ("16b step-log import per trainer (every step)", "each <= 4x the miner log's import",
                            steps.measure_import_formats),
    "step_open": ("17 a 1,000,000-step run opens", "latest step <= 2 s, whole-run loss chart <= 5 s in /api/history",
                  steps.measure_open),
    "page_chart": ("17b the whole run's chart in a browser, 1,000,000 steps",
                   "<= 3 s from the server's start to the page's chart (median of rounds)", steps.measure_page_chart),
    "step_once": ("18 once on a long step log", "<= 2x once on a miner log of the same size", steps.measure_once),
    "step_idle": ("19 idle step trainer's page", "<= 0.5 % of a core at 10 min, 1 h and 2 h of quiet",
                  steps.measure_idle),
    "ingest": ("20 end-to-end ingest", ">= 0.25 of Python's line loop on the usual log, >= 0.15 on unique noise",
               ingest.measure),
    "compare_runs": ("21 two 1,000,000-step runs compared, afresh", "p95 <= 50 ms afresh, as one run's whole chart",
                     compare.measure),
    "fleet_page": ("22 fleet page, 1,000 agents", "<= 20 KB/s to an open page; hub <= 15 % of a core",
                   hub.measure_fleet_page),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs: 10 s CPU windows, smaller files")
    parser.add_argument("--only", default="", help=f"comma-separated subset of: {', '.join(FIGURES)}")
    parser.add_argument("--out", type=Path, default=OUT, help="where the JSON report goes (default bench/out)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a goal is missed")
    args = parser.parse_args(argv)
    wanted = [k.strip() for k in args.only.split(",") if k.strip()] or list(FIGURES)
    unknown = [k for k in wanted if k not in FIGURES]
    if unknown:
        parser.error(f"unknown figure(s) {', '.join(unknown)}; known: {', '.join(FIGURES)}")

    logging.basicConfig(level=logging.ERROR)  # the in-process reference tailer's notices are noise here
    info = machine()
    print(
        f"tokwatch bench{' --quick' if args.quick else ''}: {info['nproc']} cores, {info['cpu_model']}, "
        f"{info['ram_gib']} GiB RAM, Python {info['python']}",
        flush=True,
    )
    workdir = args.out / f"work-{os.getpid()}"  # two runs at once must not share it
    workdir.mkdir(parents=True, exist_ok=True)
    # Every server the bench starts keeps its history here, never in the user's data dir.
    os.environ["XDG_DATA_HOME"] = str(workdir / "xdg-data")
    figures: list[Figure] = []
    seconds: dict[str, float] = {}  # each figure's wall time: what makes a full run long
    started = time.perf_counter()
    try:
        for key in wanted:
            title, goal, measure = FIGURES[key]
            print(f"  {title} …", end="", flush=True)
            t0 = time.perf_counter()
            try:
                # The table's own title: each figure's module once carried its number, and they drifted.
                figure = replace(measure(workdir, quick=args.quick), title=title)
            except Exception as e:  # noqa: BLE001 - one broken figure must not cost the other five
                traceback.print_exc()
                figure = skipped(key, title, goal, f"{type(e).__name__}: {e}")
            figures.append(figure)
            seconds[key] = round(time.perf_counter() - t0, 1)
            print(f" {seconds[key]:.0f} s", flush=True)
    finally:
        history.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)
    meta = {
        "command": "python -m bench " + " ".join(argv if argv is not None else sys.argv[1:]),
        "quick": args.quick,
        "revision": git_revision(ROOT),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "seconds": round(time.perf_counter() - started, 1),
        "figure_seconds": seconds,
        "machine": info,
    }
    path = write_report(args.out, figures, meta)
    print()
    print(table(figures))
    print(f"\nreport: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    missed = [f.title for f in figures if f.met is False]
    if missed:
        print(f"goals missed: {'; '.join(missed)}")
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
