"""The history file's size and /api/history's query time for a step trainer that logs every one of
1,000,000 steps (a loss a step, an evaluation every 250 and a 30-s point every 300 steps).

    python -m bench.loss_store [STEPS]
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
import time
from pathlib import Path

from app.record.logged import LoggedSteps
from app.stats.events import EvalResult, TrainStep
from app.store import History, Observation, SourceKey
from app.store.records import StepPoint

SOURCE = SourceKey("box", "/logs/train.log", "steps")


def main(steps: int) -> None:
    now = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        history = History(Path(tmp), clock=lambda: now)
        history.start()
        logged = LoggedSteps()
        start = now - steps * 0.1
        batch: list[TrainStep | EvalResult] = []
        points: list[StepPoint] = []
        began = time.perf_counter()
        for s in range(steps):
            at = start + s * 0.1
            batch.append(TrainStep(at=at, stage="train", step=s, loss=2.5 + math.exp(-s / 1e5) + 0.01 * math.sin(s)))
            if s % 250 == 0:
                batch.append(EvalResult(at=at, name="val loss", value=2.6 + math.exp(-s / 1e5), step=s))
            if s % 300 == 0:
                points.append(StepPoint("train", s, at, None, 3.6e8, 36_000.0))
            if len(batch) >= 20_000:
                rows, evals = logged.feed(batch, now)
                history.submit(Observation(SOURCE, losses=tuple(rows), steps=tuple(points), evals=tuple(evals)))
                batch, points = [], []
        rows, evals = logged.feed(batch, now)
        history.submit(Observation(SOURCE, losses=tuple(rows), steps=tuple(points), evals=tuple(evals)))
        history.flush(600)
        written = time.perf_counter() - began
        history.stop()
        files = list(Path(tmp).glob("history.sqlite3*"))
        size = sum(f.stat().st_size for f in files)
        history = History(Path(tmp), clock=lambda: now)
        history.start()
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            chart = history.chart(SOURCE, "30d", now)
            times.append(time.perf_counter() - t0)
        history.stop()
        run = chart["steps"]
        body = len(json.dumps(chart, separators=(",", ":"), allow_nan=False).encode())
        print(f"steps {steps:,}: file {size / 1e6:.1f} MB ({size / steps:.1f} B a step), written in {written:.0f} s;"
              f" whole-run query median {sorted(times)[2] * 1000:.0f} ms, {len(run['loss'])} loss points"
              f" (buckets of {run['loss_bucket_steps']} steps), {len(run['evals']['val loss'])} evaluations,"
              f" {len(run['tokens_per_hour'])} rate points; /api/history?range=30d body {body / 1024:.0f} KiB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
