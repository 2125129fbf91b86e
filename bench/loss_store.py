"""The history file's size and /api/history's body for a step trainer that logs every one of
1,000,000 steps (a loss a step, an evaluation every 250 and a 30-s point every 300 steps).

    python -m bench.loss_store [STEPS]
    python -m bench --only loss_history
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app.record.encode import ENCODER, chart_json
from app.record.logged import LoggedSteps
from app.stats.events import EvalResult, TrainStep
from app.store import History, Observation, SourceKey
from app.store.records import StepPoint
from bench.report import Figure, median, percentile

SOURCE = SourceKey("box", "/logs/train.log", "steps")
RANGE = "30d"


def compose(folder: Path, steps: int, now: float, source: SourceKey = SOURCE, shift: float = 0.0) -> float:
    """Write the run into a history in ``folder`` (its losses ``shift`` higher); return the seconds it took."""
    history = History(folder, clock=lambda: now)
    history.start()
    logged = LoggedSteps()
    start = now - steps * 0.1
    batch: list[TrainStep | EvalResult] = []
    points: list[StepPoint] = []
    began = time.perf_counter()
    for s in range(steps):
        at = start + s * 0.1
        batch.append(TrainStep(at=at, stage="train", step=s, loss=2.5 + shift + math.exp(-s / 1e5) + 0.01 * math.sin(s)))
        if s % 250 == 0:
            batch.append(EvalResult(at=at, name="val loss", value=2.6 + math.exp(-s / 1e5), step=s))
        if s % 300 == 0:
            points.append(StepPoint("train", s, at, None, 3.6e8, 36_000.0))
        if len(batch) >= 20_000:
            rows, evals = logged.feed(batch, now)
            history.submit(Observation(source, losses=tuple(rows), steps=tuple(points), evals=tuple(evals)))
            batch, points = [], []
    rows, evals = logged.feed(batch, now)
    history.submit(Observation(source, losses=tuple(rows), steps=tuple(points), evals=tuple(evals)))
    history.flush(900)
    history.stop()
    return time.perf_counter() - began


def body(chart: dict[str, Any]) -> str:
    """The JSON as /api/history writes it (app/record/encode.py)."""
    return chart_json(chart)


def afresh(folder: Path, now: float, runs: int) -> tuple[list[float], list[float], dict[str, Any]]:
    """The whole run's chart computed afresh (query + JSON) and, interleaved, its JSON alone (ms each)."""
    history = History(folder, clock=lambda: now)
    history.start()
    fresh: list[float] = []
    serialised: list[float] = []
    chart: dict[str, Any] = {}
    try:
        for _ in range(runs):
            t0 = time.perf_counter()
            chart = history.chart_rows(SOURCE, RANGE, now)  # as the recorder reads it
            body(chart)
            fresh.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            body(chart)
            serialised.append((time.perf_counter() - t0) * 1000)
    finally:
        history.stop()
    return fresh, serialised, chart


def measure(workdir: Path, *, quick: bool) -> Figure:
    steps = 250_000 if quick else 1_000_000
    now = time.time()
    folder = workdir / "loss-store"
    written = compose(folder, steps, now)
    fresh, serialised, chart = afresh(folder, now, 30 if quick else 60)
    size = sum(f.stat().st_size for f in folder.glob("history.sqlite3*"))
    run = chart["steps"]
    p95, ref = percentile(fresh, 95), percentile(serialised, 95)
    return Figure(
        key="loss_history",
        title=f"15 /api/history, {steps:,}-step run, afresh",
        value=p95,
        unit="ms",
        reference="its JSON alone p95",
        reference_value=ref,
        ratio=p95 / ref if ref else None,
        ratio_label="x",
        goal="p95 <= 50 ms computed afresh (query + JSON)",
        met=p95 <= 50,
        note=(
            f"range={RANGE}, {len(fresh)} reads each, p50 {median(fresh):.1f} ms; {len(body(chart)) / 1024:.0f} KiB"
            f" by {ENCODER}:"
            f" {len(run['loss'])} loss points (buckets of {run['loss_bucket_steps']} steps),"
            f" {len(run['evals']['val loss'])} evaluations, {len(run['tokens_per_hour'])} rate points;"
            f" file {size / 1e6:.1f} MB ({size / steps:.1f} B a step), written in {written:.0f} s"
        ),
        details={"p50_ms": median(fresh), "body_bytes": len(body(chart)), "file_bytes": size, "steps": steps,
                 "encoder": ENCODER},
    )


def main(steps: int) -> None:
    now = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        written = compose(Path(tmp), steps, now)
        size = sum(f.stat().st_size for f in Path(tmp).glob("history.sqlite3*"))
        fresh, serialised, chart = afresh(Path(tmp), now, 15)
    run = chart["steps"]
    print(f"steps {steps:,}: file {size / 1e6:.1f} MB ({size / steps:.1f} B a step), written in {written:.0f} s;"
          f" whole-run chart afresh median {median(fresh):.0f} ms (its JSON alone {median(serialised):.0f} ms),"
          f" {len(run['loss'])} loss points (buckets of {run['loss_bucket_steps']} steps),"
          f" {len(run['evals']['val loss'])} evaluations, {len(run['tokens_per_hour'])} rate points;"
          f" /api/history?range={RANGE} body {len(body(chart)) / 1024:.0f} KiB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
