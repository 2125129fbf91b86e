"""The snapshot's ``training`` view for a step trainer (docs/snapshot.md): typed and frozen.

Numbers are finite or None here (a figure that is not a number is unknown, except the gradient
norm, kept as printed); app/snapshot.py's ``to_dict`` writes the JSON.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace

from ...snapshot import (
    AllReduceView,
    CollaborationView,
    CrashView,
    DataView,
    ErrorsView,
    EvalView,
    LossRiseView,
    SwarmView,
    TrainingView,
)
from ..events import CollabProgress
from .health import Broken, Crash
from .stage import (
    AllReduce,
    Errors,
    Stage,
    counts_a_pass,
    data_epoch,
    finished,
    finite,
    row_groups_per_step,
    step_seconds,
)
from .swarm import Swarm, SwarmFacts
from .text import clock_step, round_text, shown_tokens_per_second, steady_note
from .verdict import Line, Verdict


def training_view(stage: Stage, v: Verdict, all_reduce: AllReduce | None, errors: Errors | None) -> TrainingView:
    """Every figure of the stage, with what the verdict hides (a dead or broken run's time left) left out."""
    latest, m, stall = stage.latest, v.measure, v.stall
    rate = shown_tokens_per_second(stage, m.steady)
    data = None
    if latest.epoch is not None or latest.parquet_index is not None or stage.epoch is not None:
        data = DataView(
            epoch=finite(data_epoch(stage)),  # (the epoch the details say)
            parquet_index=latest.parquet_index,
            row_group=latest.row_group,
            row_groups_per_step=finite(row_groups_per_step(stage)),
            last_of_epochs=latest.last_of_epochs,
        )
    seconds, seconds_note = finite(step_seconds(stage, m)), steady_note(stage, m.steady)
    if seconds is None and (clock := clock_step(stage)) is not None:
        seconds, seconds_note = finite(clock[0]), clock[1]  # (the details' own figure, said the same way)
    return TrainingView(
        stage=stage.name,
        step=None if latest.logged else latest.step,  # (a count of dicts is no step: logged_records)
        total_steps=latest.total_steps,
        outer_step=latest.outer_step,
        chart_x=latest.step + stage.offset if stage.offset else None,
        progress_percent=finite(latest.progress_percent),
        loss=finite(stage.loss),
        loss_note=stage.loss_note,
        lr=finite(stage.lr),
        lr_multiplier=finite(latest.lr_multiplier),
        grad_norm=stage.grad_norm,
        step_seconds=seconds,
        step_seconds_note=seconds_note,
        tokens_per_second=rate,
        tokens_per_second_scope=None if rate is None else ("device" if latest.per_device else "global"),
        mfu=finite(latest.mfu),
        mfu_note=latest.mfu_note,
        tokens_per_hour=finite(m.tokens_per_hour),
        steps_per_hour=finite(m.steps_per_hour),
        eta_seconds=None if v.hides_time_left else finite(v.eta_seconds),
        trainer_eta_seconds=None if v.hides_time_left else finite(v.trainer_eta_seconds),
        eval=evals(stage.evals.items(),  # (a count of dicts, or of an epoch's batches, is no step of the run's)
                   logged=latest.logged or latest.epoch_steps is not None or not latest.ends_at_total),
        data=data,
        all_reduce=all_reduce_view(all_reduce),
        figures=tuple((k, v) for k, v in stage.figures.items() if math.isfinite(v)),
        paused=stall.pause if not stall.stalled else None,
        seconds_since_step=finite(stall.since),
        stall_after_seconds=None if v.hides_stall_limit else finite(stall.limit),
        stalled=stall.stalled,
        # A save then quiet is the end the verdict found; a crash after "Training complete" is no end.
        finished=(finished(stage) or v.state == "done") and v.state != "crashed",
        logged_steps=latest.logged,
        logged_records=latest.step if latest.logged else None,
        step_printed=latest.step_printed,
        errors=errors_view(errors),
        loss_spikes=stage.spikes.count if stage.spikes.recent else None,
        loss_spike_steps=() if latest.logged else tuple(stage.spikes.steps),  # (a count of dicts is no step)
        loss_rising=rising_view(stage, v),
        step_unit="epoch" if stage.counts_epochs else latest.counter or (
            "pass" if counts_a_pass(latest, stage.epoch) else None),
    )


def rising_view(stage: Stage, v: Verdict) -> LossRiseView | None:
    """The loss rising, where the details warn of it (the verdict's LOSS_RISING)."""
    rise = stage.rise.rising() if Line.LOSS_RISING in v.shows else None
    if rise is None:
        return None
    logged = stage.latest.logged  # (a count of dicts is no step)
    return LossRiseView(rise.low, None if logged else rise.low_step, rise.loss, None if logged else rise.step, rise.records)


def before_steps_view(total_steps: int | None, pending: dict[str, tuple[float | None, int | None]],
                      all_reduce: AllReduce | None, errors: Errors | None, finished: bool,
                      stalled: bool = False) -> TrainingView:
    """The view before the first step: the planned steps, validation figures, all-reduces and errors."""
    return TrainingView(total_steps=total_steps, eval=evals(pending.items()), all_reduce=all_reduce_view(all_reduce),
                        errors=errors_view(errors), finished=finished, stalled=stalled)


def with_health(view: TrainingView, collab: CollabProgress | None, crash: Crash | None,
                broken: Broken | None) -> TrainingView:
    """The view with the collaboration, the crash and the broken-run sentence."""
    return replace(
        view,
        collaboration=None if collab is None else CollaborationView(collab.epoch, collab.samples, collab.peers,
                                                                    finite(collab.eta_seconds)),
        crash=None if crash is None else CrashView(crash.error, finite(crash.at)),
        broken=None if broken is None else broken.sentence,
    )


def evals(items: Iterable[tuple[str, tuple[float | None, int | None]]], *, logged: bool = False) -> tuple[EvalView, ...]:
    """Evaluation figures (name, (value, step)) as views, in the order read; no step beside a log of dicts.

    A log that prints no step number counts its dicts, and that count is no step (``logged_records``).
    """
    return tuple(EvalView(name, finite(value), None if logged else step) for name, (value, step) in items)


def all_reduce_view(all_reduce: AllReduce | None) -> AllReduceView | None:
    """The all-reduce counts, or None for a trainer without rounds."""
    if all_reduce is None:
        return None
    return AllReduceView(all_reduce.succeeded, all_reduce.failed, all_reduce.peers, all_reduce.last_error)


def errors_view(errors: Errors | None) -> ErrorsView | None:
    """The trainer's other errors: how many, the last one and when, or None."""
    if errors is None:
        return None
    return ErrorsView(errors.count, errors.last, finite(errors.last_at))


def swarm_view(swarm: Swarm, facts: SwarmFacts) -> SwarmView | None:
    """A collaborator's place in its swarm, its rounds (each said in words) and peers; None for a trainer
    that has none."""
    if not swarm.seen:
        return None
    rounds = tuple(replace(r, text=round_text(r, facts.now)) for r in facts.rounds)
    return SwarmView(
        join_failures=facts.join_failures, join_cause=facts.join_cause, join_error=facts.join_error,
        join_causes=facts.join_causes,
        out_of_sync_since=finite(facts.out_of_sync_since), download_failures=facts.download_failures,
        download_error=facts.download_error, alone=facts.alone_since is not None, rounds_ok=facts.rounds_ok,
        rounds_failed=facts.rounds_failed, last_good_round_at=finite(facts.last_good_round_at),
        averaging_share_last_hour=finite(facts.averaging_share_last_hour),
        averaging_share_seconds=finite(facts.averaging_share_seconds),
        round_since=finite(facts.averaging_since), samples_per_second=finite(swarm.samples_per_second),
        local_samples_per_second=finite(swarm.local_samples_per_second), rounds=rounds, peers=facts.peers,
        peers_known=facts.peers_known, swarm_round=swarm.swarm_round, swarm_round_said=swarm.swarm_round_said,
        state_download_seconds=finite(swarm.state_download_seconds),
        warnings=swarm.warnings, last_warning=swarm.last_warning,
    )
