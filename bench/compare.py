"""Figure 21: two 1,000,000-step runs compared, beside one run's whole chart in the same run.

Both runs are written into one history as figure 15 writes its run (bench/loss_store.py: a loss a
step, an evaluation every 250 steps), the second 0.1 higher. Each round, interleaved so a busy
shared machine weighs on both alike: ``/api/compare``'s body for the two runs computed afresh (the
catalogue's reads, the runs on one step axis, the JSON) and ``/api/history``'s whole-run chart for
one of them afresh (figure 15's measure). The ratio is the comparison's p95 over the one run's.

    python -m bench --only compare_runs
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from app.compare.catalogue import Catalogue, Followed
from app.compare.view import comparison
from app.record.encode import ENCODER, chart_json
from app.store import History, SourceKey
from bench.loss_store import RANGE, SOURCE, compose
from bench.report import Figure, median, percentile

OTHER = SourceKey("box", "/logs/train-lr-3e-4.log", "steps")
GOAL_MS = 50.0  # figure 15's goal for one run's whole chart, afresh


def rounds(folder: Path, now: float, runs: int) -> tuple[list[float], list[float], dict[str, Any]]:
    """(comparison ms, one run's whole chart ms, the last comparison) over ``runs`` interleaved rounds."""
    history = History(folder, clock=lambda: now)
    history.start()
    catalogue = Catalogue(history.read, lambda: Followed(None, None), clock=lambda: now)
    ids = [run.run_id for run in catalogue.stored()]
    assert len(ids) == 2, ids
    compared: list[float] = []
    one: list[float] = []
    answer: dict[str, Any] = {}
    try:
        for _ in range(runs):
            t0 = time.perf_counter()
            answer = comparison([catalogue.figures(run_id, with_times=False) for run_id in ids], "step")
            chart_json(answer)
            compared.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            chart_json(history.chart_rows(SOURCE, RANGE, now))
            one.append((time.perf_counter() - t0) * 1000)
    finally:
        history.stop()
    return compared, one, answer


def measure(workdir: Path, *, quick: bool) -> Figure:
    steps = 250_000 if quick else 1_000_000
    now = time.time()
    folder = workdir / "compare-runs"
    written = compose(folder, steps, now) + compose(folder, steps, now, OTHER, shift=0.1)
    compared, one, answer = rounds(folder, now, 30 if quick else 60)
    p95, ref = percentile(compared, 95), percentile(one, 95)
    drawn = [len(run["loss"]) for run in answer["runs"]]
    return Figure(
        key="compare_runs",
        title=f"21 two {steps:,}-step runs compared, afresh",
        value=p95,
        unit="ms",
        reference="one run's whole chart afresh, p95 (figure 15, same rounds)",
        reference_value=ref,
        ratio=p95 / ref if ref else None,
        ratio_label="x",
        goal=f"p95 <= {GOAL_MS:g} ms computed afresh, as one run's whole chart",
        met=p95 <= GOAL_MS,
        note=(f"{len(compared)} interleaved rounds; comparison p50 {median(compared):.1f} ms, one run p50 "
              f"{median(one):.1f} ms; {len(chart_json(answer)) / 1024:.0f} KiB by {ENCODER}: "
              f"{' + '.join(map(str, drawn))} loss points (buckets of {answer['runs'][0]['loss_bucket_steps']} steps);"
              f" both runs written in {written:.0f} s"),
        details={"p50_ms": median(compared), "one_p50_ms": median(one), "steps": steps, "loss_points": drawn},
    )
