"""Runs on one axis for ``/api/compare`` and ``tokwatch once --compare``: each run's losses and
evaluations (against step, or seconds since the run began), its overlaps, and its final and best
figures, in numbers and in words."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .. import text
from ..store.losses import LOSS_BUCKETS, LOSS_POINTS
from .runs import Run

Axis = Literal["step", "time"]
AXES: tuple[Axis, ...] = ("step", "time")
Point = tuple[int, float]


@dataclass(slots=True)
class RunFigures:
    """One run, ready to draw: losses and evaluations by step, and each point's time (None: unknown)."""

    run_id: str
    name: str
    origin: str  # "history", "file" or "live"
    stage: str
    loss: list[Point]
    loss_bucket_steps: int = 1
    loss_at: list[float | None] | None = None
    evals: dict[str, list[tuple[int, float | None]]] = field(default_factory=dict)
    eval_at: dict[str, list[float | None]] | None = None
    final_loss: Point | None = None
    best_loss: Point | None = None
    overlaps: list[dict[str, Any]] = field(default_factory=list)
    pieces: int = 1
    started_at: float | None = None
    first_step: int | None = None
    last_step: int | None = None


def run_name(label: str, started_at: float | None, last_step: int | None, now: float) -> str:
    """``train · started Nov 28 14:02 · to step 6,200``: what a person tells two runs apart by."""
    parts = [label]
    if started_at is not None:
        parts.append(f"started {text.clock_time(started_at, now)}")
    if last_step is not None:
        parts.append(f"to step {last_step:,}")
    return " · ".join(parts)


def from_run(run: Run, run_id: str, label: str, now: float, origin: str = "file") -> RunFigures:
    """A run read from a log, its losses bucketed as the whole-run chart buckets them when there are many."""
    finite = [(s, v) for s, v in zip(run.steps, run.losses) if math.isfinite(v)]
    final = finite[-1] if finite else None
    best = min(finite, key=lambda p: p[1]) if finite else None
    drawn, width, at = _bucketed(run.steps, run.losses, run.times)
    evals = {name: sorted(points.items()) for name, points in sorted(run.evals.items())}
    started = run.times[0] if run.times and not math.isnan(run.times[0]) else None
    # An evaluation's time: that of the loss logged at or just before its step (a file places losses).
    step_times = dict(zip(run.steps, run.times))
    eval_at = {name: [_time_near(step_times, run.steps, s) for s, _ in points] for name, points in evals.items()}
    return RunFigures(
        run_id=run_id, name=run_name(label, started, run.last_step, now), origin=origin, stage=run.stage,
        loss=drawn, loss_bucket_steps=width, loss_at=at, evals=evals, eval_at=eval_at,
        final_loss=final, best_loss=best, pieces=run.pieces, started_at=started,
        first_step=run.first_step, last_step=run.last_step,
        overlaps=[{"first": o.first, "last": o.last, "replaced": o.replaced} for o in run.overlaps],
    )


def _time_near(step_times: dict[int, float], steps: list[int], step: int) -> float | None:
    at = step_times.get(step)
    if at is None and steps:
        from bisect import bisect_right
        i = bisect_right(steps, step) - 1
        at = step_times[steps[max(i, 0)]]
    return None if at is None or math.isnan(at) else at


def _bucketed(steps: Sequence[int], values: Sequence[float], times: Sequence[float]
              ) -> tuple[list[Point], int, list[float | None]]:
    """Every finite loss up to :data:`LOSS_POINTS`, else each bucket's lowest and highest at their own steps."""
    rows = [(s, v, t) for s, v, t in zip(steps, values, times) if math.isfinite(v)]
    if len(rows) <= LOSS_POINTS:
        return [(s, v) for s, v, _ in rows], 1, [None if math.isnan(t) else t for _, _, t in rows]
    width = -(-(rows[-1][0] - rows[0][0] + 1) // LOSS_BUCKETS)
    drawn: list[tuple[int, float, float]] = []
    bucket: list[tuple[int, float, float]] = []
    for row in rows:
        if bucket and row[0] // width != bucket[0][0] // width:
            drawn += _ends(bucket)
            bucket = []
        bucket.append(row)
    drawn += _ends(bucket)
    return [(s, v) for s, v, _ in drawn], width, [None if math.isnan(t) else t for _, _, t in drawn]


def _ends(bucket: list[tuple[int, float, float]]) -> list[tuple[int, float, float]]:
    low = min(bucket, key=lambda r: r[1])
    high = max(bucket, key=lambda r: r[1])
    return [low] if low is high else sorted((low, high))


def figures(run: RunFigures) -> dict[str, Any]:
    """Final and best loss, and each evaluation's final and best (lowest), as ``{step, value}``."""
    def point(p: tuple[int, float | None] | None) -> dict[str, Any] | None:
        return None if p is None or p[1] is None else {"step": p[0], "value": p[1]}

    evals: dict[str, Any] = {}
    for name, points in run.evals.items():
        known = [(s, v) for s, v in points if v is not None and math.isfinite(v)]
        evals[name] = {"final": point(known[-1] if known else None),
                       "best": point(min(known, key=lambda p: p[1]) if known else None)}
    return {"final_loss": point(run.final_loss), "best_loss": point(run.best_loss), "evals": evals}


def _figure(value: float) -> str:
    return format(value, ".7g") if abs(value) < 1000 else f"{value:,.0f}"


def headline(run: RunFigures, found: dict[str, Any] | None = None) -> str:
    """``loss 3.2217 (step 19,559) · best 3.1838 (step 19,552) · val_loss 3.2722, best 3.2722``
    (``found``: the run's :func:`figures`, when already computed)."""
    found = found if found is not None else figures(run)
    parts: list[str] = []
    final, best = found["final_loss"], found["best_loss"]
    if final is not None:
        parts.append(f"loss {_figure(final['value'])} (step {final['step']:,})")
    if best is not None:
        parts.append(f"best {_figure(best['value'])} (step {best['step']:,})")
    for name, pair in found["evals"].items():
        if pair["final"] is not None:
            parts.append(f"{name} {_figure(pair['final']['value'])}, best {_figure(pair['best']['value'])}"
                         f" (step {pair['best']['step']:,})")
    if run.overlaps:
        spans = ", ".join(f"{o['first']:,}–{o['last']:,}" for o in run.overlaps)
        parts.append(f"resumed: steps {spans} logged twice, the later kept")
    return " · ".join(parts) if parts else "no loss logged"


def _x(axis: Axis, step: int, at: float | None, start: float | None) -> float | None:
    if axis == "step":
        return step
    return None if at is None or start is None else round(at - start, 3)


def comparison(runs: Sequence[RunFigures], axis: Axis) -> dict[str, Any]:
    """``/api/compare``'s body: each run's points on ``axis`` (step, or seconds since it began) and figures."""
    listed = []
    found = [figures(run) for run in runs]
    for run, run_figures in zip(runs, found):
        start = run.started_at
        loss: Sequence[Any] = run.loss  # on the step axis the points as they are (a JSON array each)
        evals: dict[str, Any] = dict(run.evals)
        if axis == "time":
            known = [t for t in (run.loss_at or []) if t is not None]
            start = min(known) if known else start
            loss_at = run.loss_at or [None] * len(run.loss)
            loss = [[x, v] for (s, v), at in zip(run.loss, loss_at) if (x := _x(axis, s, at, start)) is not None]
            for name, points in run.evals.items():
                times = (run.eval_at or {}).get(name) or [None] * len(points)
                evals[name] = [[x, v] for (s, v), at in zip(points, times)
                               if (x := _x(axis, s, at, start)) is not None]
        overlaps = [{"first": o["first"], "last": o["last"],
                     "replaced": [[s, v] for s, v in o["replaced"] if math.isfinite(v)] if axis == "step" else []}
                    for o in run.overlaps]
        listed.append({
            "id": run.run_id, "name": run.name, "origin": run.origin, "stage": run.stage,
            "first_step": run.first_step, "last_step": run.last_step, "started_at": start,
            "pieces": run.pieces, "loss": loss, "loss_bucket_steps": run.loss_bucket_steps, "evals": evals,
            "overlaps": overlaps, "figures": run_figures, "headline": headline(run, run_figures),
            "timed": axis == "step" or bool(loss),
        })
    return {"x": axis, "runs": listed, "table": table(runs, found)}


def table(runs: Sequence[RunFigures], found: Sequence[dict[str, Any]] | None = None) -> list[list[str]]:
    """The figures beneath a comparison, one column a run: final and best loss, each evaluation's
    final and best, the steps logged twice (a header row of the runs' names first)."""
    found = found if found is not None else [figures(run) for run in runs]
    names = sorted({name for f in found for name in f["evals"]})

    def at(point: dict[str, Any] | None) -> str:
        return "–" if point is None else f"{_figure(point['value'])} (step {point['step']:,})"

    rows: list[list[str]] = [["", *(run.name for run in runs)],
                             ["final loss", *(at(f["final_loss"]) for f in found)],
                             ["best loss", *(at(f["best_loss"]) for f in found)]]
    for name in names:
        rows.append([f"{name} final", *(at((f["evals"].get(name) or {}).get("final")) for f in found)])
        rows.append([f"{name} best", *(at((f["evals"].get(name) or {}).get("best")) for f in found)])
    if any(run.overlaps for run in runs):
        rows.append(["logged twice", *(", ".join(f"{o['first']:,}–{o['last']:,}" for o in run.overlaps) or "–"
                                       for run in runs)])
    return rows


def side_by_side(runs: Sequence[RunFigures]) -> list[str]:
    """:func:`table` for a terminal, each column as wide as its longest cell."""
    rows = table(runs)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]


def span_lines(spans: Sequence[dict[str, Any]]) -> list[str]:
    """Per layer, each span's median tok/h and how far the first is from the second:
    ``L1 · this week 350k tok/h (13 h) · last week 300k tok/h (14 h) · +16.7 %``."""
    layers = sorted({int(layer) for span in spans for layer in span["layers"]})
    lines = []
    for layer in layers:
        parts = [f"L{layer}"]
        medians: list[float | None] = []
        for span in spans:
            found = span["layers"].get(str(layer))
            if found is None:
                parts.append(f"{span['label']} not on this layer")
                medians.append(None)
                continue
            hours = found["basis_hours"]
            parts.append(f"{span['label']} {text.compact(found['median'])} tok/h ({text.duration(hours * 3600)})")
            medians.append(found["median"])
        if len(medians) == 2 and medians[0] and medians[1]:
            parts.append(f"{(medians[0] / medians[1] - 1) * 100:+.1f} %")
        lines.append(" · ".join(parts))
    return lines
