"""The snapshot's ``training`` object for a step trainer (docs/snapshot.md)."""

from __future__ import annotations

import math
from typing import Any

from ..events import CollabProgress
from .health import Broken, Crash
from .stage import (
    AllReduce,
    Errors,
    Stage,
    finished,
    finite,
    row_groups_per_step,
    step_seconds,
)
from .verdict import Verdict


def training_payload(stage: Stage, v: Verdict, all_reduce: AllReduce | None) -> dict[str, Any]:
    """Every figure of the stage, JSON-ready: null where unknown or not finite (or what the verdict hides)."""
    latest, m, stall = stage.latest, v.measure, v.stall
    eta = None if v.hides_time_left else v.eta_seconds
    trainer_eta = None if v.hides_time_left else latest.trainer_eta_seconds
    rate = finite(latest.tokens_per_second)
    scope = None if rate is None else ("device" if latest.per_device else "global")
    evals = {name: {"value": json_number(value), "step": step} for name, (value, step) in stage.evals.items()}
    data = None
    if latest.epoch is not None or latest.parquet_index is not None or stage.epoch is not None:
        data = {
            "epoch": json_number(latest.epoch if latest.epoch is not None else stage.epoch),
            "parquet_index": latest.parquet_index,
            "row_group": latest.row_group,
            "row_groups_per_step": json_number(row_groups_per_step(stage)),
        }
    return {
        "stage": stage.name,
        "step": latest.step,
        "total_steps": latest.total_steps,
        "outer_step": latest.outer_step,
        "progress_percent": json_number(latest.progress_percent),
        "loss": json_number(stage.loss),
        "loss_note": stage.loss_note,
        "lr": json_number(stage.lr),
        "lr_multiplier": json_number(latest.lr_multiplier),
        "grad_norm": printed_number(stage.grad_norm),
        "step_seconds": json_number(step_seconds(stage)),
        "tokens_per_second": json_number(rate),
        "tokens_per_second_scope": scope,
        "mfu": json_number(latest.mfu),
        "mfu_note": latest.mfu_note,
        "tokens_per_hour": json_number(m.tokens_per_hour),
        "steps_per_hour": json_number(m.steps_per_hour),
        "eta_seconds": json_number(eta),
        "trainer_eta_seconds": json_number(trainer_eta),
        "eval": evals or None,
        "data": data,
        "all_reduce": all_reduce_view(all_reduce),
        "figures": {k: v for k, v in stage.figures.items() if math.isfinite(v)} or None,
        "paused": stall.pause if not stall.stalled else None,
        "seconds_since_step": json_number(stall.since),
        "stall_after_seconds": None if v.hides_stall_limit else json_number(stall.limit),
        "stalled": stall.stalled,
        "finished": finished(stage),
        "logged_steps": latest.logged,
        "errors": None,
    }


def add_health(training: dict[str, Any], collab: CollabProgress | None, crash: Crash | None,
               broken: Broken | None) -> None:
    """Put the collaboration, the crash and the broken-run sentence in the object."""
    training["collaboration"] = None if collab is None else {
        "epoch": collab.epoch, "samples": collab.samples, "peers": collab.peers,
        "eta_seconds": json_number(collab.eta_seconds)}
    training["crash"] = None if crash is None else {"error": crash.error, "at": json_number(crash.at)}
    training["broken"] = None if broken is None else broken.sentence


def all_reduce_view(all_reduce: AllReduce | None) -> dict[str, Any] | None:
    """The all-reduce counts, JSON-ready, or None for a trainer without rounds."""
    if all_reduce is None:
        return None
    return {
        "succeeded": all_reduce.succeeded,
        "failed": all_reduce.failed,
        "peers": all_reduce.peers,
        "last_error": all_reduce.last_error,
    }


def errors_view(errors: Errors | None) -> dict[str, Any] | None:
    """The trainer's other errors: how many, the last one and when, or None."""
    if errors is None:
        return None
    return {"count": errors.count, "last_error": errors.last, "last_at": json_number(errors.last_at)}


def empty_payload() -> dict[str, Any]:
    """The object before the first step: every key, null."""
    training: dict[str, Any] = dict.fromkeys(TRAINING_KEYS)
    training.update(stalled=False, finished=False, logged_steps=False)
    return training


TRAINING_KEYS = (
    "stage", "step", "total_steps", "outer_step", "progress_percent", "loss", "loss_note", "lr",
    "lr_multiplier", "grad_norm", "step_seconds", "tokens_per_second", "tokens_per_second_scope", "mfu",
    "mfu_note", "tokens_per_hour", "steps_per_hour", "eta_seconds", "trainer_eta_seconds", "eval", "data",
    "all_reduce", "figures", "paused", "seconds_since_step", "stall_after_seconds", "stalled", "finished",
    "logged_steps", "errors", "crash", "broken", "collaboration",
)  # fmt: skip


def printed_number(value: float | None) -> float | str | None:
    """A figure as the trainer printed it: a number, or ``"nan"``/``"inf"``/``"-inf"`` as text.

    JSON has no NaN (the snapshot is serialised with ``allow_nan=False``), and null would read as
    "not printed"; a gradient norm of nan is the very news.
    """
    if value is None or math.isfinite(value):
        return value
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")


def json_number(value: float | None) -> float | int | None:
    if value is None or isinstance(value, int):
        return value
    return value if math.isfinite(value) else None
