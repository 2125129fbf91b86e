"""``/api/history``'s body for a long step-trainer run, as the recorder serves it afresh: every figure
is the one computed here from the composed run, not from the store's own code.

The run (values chosen here): steps 0 to 119,999, a loss at each, 4 + sin(step / 50) with a spike
to 9 at every multiple of 997 and a NaN at step 1,234; steps 25,601 to 25,855 are not logged, so
their 256-step bucket holds one loss (step 25,600). The learning rate is 6e-5 × (1 − step / 200,000)
(small enough that Python writes it as ``5.99997e-05``); an evaluation every 250 steps, 3 + 1 / (step
+ 1); a 30-s point every 20 steps at 3.6e8 + step tok/h and 36,000 steps/h; and two whole hours of
30-s samples at 4.2e8 tok/h, training, step 1,000 + i.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from app.record.logged import LoggedSteps
from app.record.recorder import Recorder
from app.stats.events import EvalResult, TrainStep
from app.store import History, Observation
from app.store.records import Sample, StepPoint
from tests.snapshots import snapshot
from tests.store.test_loss_points import NAN_STEP, loss  # the same run's losses: a NaN, spikes, a wave

NOW = 1_790_000_100.0
STEPS = 120_000
HOLE = range(25_601, 25_856)  # not logged: bucket 100 (steps 25,600–25,855) holds step 25,600 alone
WIDTH = 256  # 119,745 losses over 469 buckets of 256 steps: the finest level of at most 1,500 buckets
HOUR = 3600


def lr(step: int) -> float:
    return 6e-5 * (1 - step / 200_000)


def logged_steps() -> list[int]:
    return [s for s in range(STEPS) if s not in HOLE]


def at(step: int) -> float:
    return NOW - STEPS * 0.1 + step * 0.1


def expected_losses() -> tuple[list[list[Any]], list[int], list[list[Any]]]:
    """Each 256-step bucket's lowest and highest finite loss at their own steps (once when one step
    is both), the steps whose loss was not a number, and each bucket's last learning rate."""
    by_bucket: dict[int, list[int]] = {}
    for s in logged_steps():
        by_bucket.setdefault(s // WIDTH, []).append(s)
    drawn: list[list[Any]] = []
    last_lr: list[list[Any]] = []
    for bucket in sorted(by_bucket):
        finite = [s for s in by_bucket[bucket] if not math.isnan(loss(s))]
        low, high = min(finite, key=loss), max(finite, key=loss)
        drawn += [[s, loss(s)] for s in sorted({low, high})]
        last = max(by_bucket[bucket])
        last_lr.append([last, lr(last)])
    return drawn, [NAN_STEP], last_lr


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The composed run written into a history; ``/api/history?range=30d`` as the recorder serves it."""
    folder = tmp_path_factory.mktemp("run")
    log = folder / "train.log"
    log.write_text("")
    history = History(folder / "data", clock=lambda: NOW)
    recorder = Recorder(history, log, machine="box", clock=lambda: NOW, import_siblings=False)
    history.start()
    recorder.decorate(snapshot("training", NOW, format="nanogpt"))  # the log is a step trainer's
    source = recorder.source
    assert source.kind == "steps"
    events: list[TrainStep | EvalResult] = []
    for s in range(STEPS):
        if s not in HOLE:
            events.append(TrainStep(at=at(s), stage="train", step=s, loss=loss(s), lr=lr(s)))
        if s % 250 == 0:
            events.append(EvalResult(at=at(s), name="val loss", value=3 + 1 / (s + 1), step=s))
    logged = LoggedSteps()
    for i in range(0, len(events), 50_000):
        rows, evals = logged.feed(events[i:i + 50_000], NOW)
        assert history.submit(Observation(source, losses=tuple(rows), evals=tuple(evals)), wait_seconds=30)
    points = tuple(StepPoint("train", s, at(s), None, 3.6e8 + s, 36_000.0) for s in range(0, STEPS, 20))
    hour = int(NOW) // HOUR * HOUR
    samples = tuple(Sample(t, 4.2e8, "training", step=1000 + i)
                    for i, t in enumerate(range(hour - 2 * HOUR, hour, 30)))
    assert history.submit(Observation(source, steps=points, samples=samples), wait_seconds=30)
    assert history.flush(60)
    try:
        body = recorder.chart_json("30d")
        old = history.chart(source, "30d", NOW)  # the lists History.chart has always given
    finally:
        history.stop()
    return {"chart": json.loads(body), "old": old, "hour": hour}


def test_the_losses_are_each_buckets_lowest_and_highest(served: dict[str, Any]) -> None:
    steps = served["chart"]["steps"]
    drawn, not_finite, last_lr = expected_losses()
    assert steps["stage"] == "train" and steps["loss_bucket_steps"] == WIDTH
    assert [25_600, loss(25_600)] in drawn and len(drawn) == 2 * 469 - 1  # the lone step once
    assert steps["loss"] == drawn
    assert steps["not_finite"] == not_finite
    assert steps["lr"] == last_lr


def test_every_evaluation_and_every_kth_rate_point(served: dict[str, Any]) -> None:
    steps = served["chart"]["steps"]
    assert steps["evals"] == {"val loss": [[s, 3 + 1 / (s + 1)] for s in range(0, STEPS, 250)]}
    # 6,000 points: every 4th (4 = ceil(6,000 / 1,500)), then the last (119,980 is not a 4th).
    kept = [*range(0, STEPS, 80), STEPS - 20]
    assert steps["tokens_per_hour"] == [[s, 3.6e8 + s] for s in kept]
    assert steps["steps_per_hour"] == [[s, 36_000.0] for s in kept]


def test_the_hours_series_and_the_totals(served: dict[str, Any]) -> None:
    chart, hour = served["chart"], served["hour"]
    assert (chart["from"], chart["to"], chart["bucket_seconds"]) == (hour - 719 * HOUR, hour, HOUR)
    full = {hour - 2 * HOUR: 1119, hour - HOUR: 1239}  # each hour's highest step
    for name, value in (("tokens_per_hour", 4.2e8), ("tokens_per_hour_min", 4.2e8), ("tokens_per_hour_max", 4.2e8),
                        ("training_fraction", 1.0), ("step", None)):
        points = chart["series"][name]
        assert [t for t, _ in points] == list(range(hour - 719 * HOUR, hour + 1, HOUR))
        assert {t: v for t, v in points if v is not None} == (full if value is None else dict.fromkeys(full, value))
    # The steps the run kept (0 to 119,999) × the tokens a step (the newest point: (3.6e8 + 119,980) / 36,000).
    assert chart["totals"]["passes"] == STEPS - 1
    assert chart["totals"]["tokens"] == round((STEPS - 1) * (3.6e8 + STEPS - 20) / 36_000)


def test_the_body_reads_back_as_history_chart_gives_it(served: dict[str, Any]) -> None:
    chart = dict(served["chart"])
    assert chart.pop("source")["kind"] == "steps" and chart.pop("status")["mode"] == "writing"
    assert chart == served["old"]
