"""What a step trainer's snapshot shows at ``now``: the verdict first, then its words and figures.

The progress accumulates (app/stats/steps/progress.py); the verdict decides the state and which
lines to show (app/stats/steps/verdict.py); the text writes those lines (app/stats/steps/text.py)
and the payload the figures. Nothing here edits a line once written.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ...snapshot import EventView, RateView, Snapshot, State, TrainingView, WarmupView
from . import payload, rules
from . import text as step_text
from .progress import StepProgress
from .stage import Measure
from .verdict import Status, decide, decide_before_steps


@dataclass(frozen=True, slots=True)
class StepReport:
    """What the tracker's snapshot takes from the progress."""

    state: State
    status_line: str
    details: tuple[str, ...]
    rate: RateView
    warmup: WarmupView
    step: int | None
    training: TrainingView
    state_since: float | None = None
    events: tuple[EventView, ...] = ()  # newest first


def report(progress: StepProgress, now: float, *, words: bool = True) -> StepReport:
    """Everything the snapshot shows at ``now`` (``words`` False: no status line or detail lines, for
    what the history stores, which reads none)."""
    stage = progress.stage
    if stage is None:
        return _before_steps(progress, now)
    health = progress.health
    facts = progress.swarm.facts(now) if progress.swarm.seen else None
    v = decide(stage, now, progress.arrival_gaps, progress.restarting, progress.restart_at, health.crash,
               health.broken(), health.warning() is not None, facts)
    swarm = payload.swarm_view(progress.swarm, facts) if facts is not None else None
    per_gpu = " per GPU" if progress.tokens_per_device() else ""
    details: list[str] = []
    if words:
        notes = [note for note in (health.skip_line(), step_text.collaboration_line(progress.collab))
                 if note is not None]
        # A collaborator's rounds are said round by round (its counts are in them).
        all_reduce = progress.all_reduce if swarm is None else None
        details = step_text.details(v, stage, per_gpu, progress.run, all_reduce, notes, health.warning())
        details.extend(step_text.swarm_lines(swarm, now))
        details.extend(step_text.error_lines(progress.errors))
        buffered = rules.buffered(progress.arrival_gaps, progress.arrival_steps)
        if buffered is not None:
            details.append(buffered)
    training = replace(payload.with_health(payload.training_view(stage, v, progress.all_reduce, progress.errors),
                                           progress.collab, health.crash, health.broken()), swarm=swarm)
    m = v.measure
    return StepReport(
        state=v.state,
        status_line=step_text.status(v, stage, per_gpu) if words else "",
        details=tuple(details),
        rate=m.rate_view(progress.run.tokens_per_step),
        warmup=replace(m.warmup_view(), text=None) if v.finishing else m.warmup_view(),
        step=None if stage.latest.logged else stage.latest.step,
        training=training,
        state_since=v.since,
        events=tuple(reversed(health.events)),
    )


def _before_steps(progress: StepProgress, now: float) -> StepReport:
    empty = Measure(None, 0.0, 0, 0.0, None, None, False)
    ar, errors, health = progress.all_reduce, progress.errors, progress.health
    pending = [(name, value, step) for name, (value, step) in progress.pending_evals.items()]
    evaluated = progress.evaluated
    crash, broken = health.crash, health.broken()
    facts = progress.swarm.facts(now) if progress.swarm.seen else None
    swarm = payload.swarm_view(progress.swarm, facts) if facts is not None else None
    v = decide_before_steps(
        crash, broken, health.warning() is not None, progress.collab is not None,
        bool(pending) or progress.evaluating is not None,
        evaluated[1] if evaluated is not None else None, evaluated is not None,
        ar is not None and ar.failed > 0 and not ar.succeeded, errors is not None, health.skipped_total > 0, facts,
        progress.training_since, now, progress.ended, progress.summarised, progress.validating,
        progress.ended_step, progress.start_step,
    )
    if progress.ended is not None and (evaluated is None or v.status is Status.DONE):
        said: str | None = progress.ended[0]  # (a run's end before or after its evaluation job's: the run's)
    else:
        said = evaluated[0] if evaluated is not None else None
    details = step_text.early_details(
        v, now, progress.run.total_steps, pending, said, progress.run,
        ar if swarm is None else None, errors, step_text.collaboration_line(progress.collab), health.skip_line(),
        health.warning(), progress.evaluating,
    )
    details.extend(step_text.swarm_lines(swarm, now))
    training = replace(payload.with_health(
        payload.before_steps_view(progress.run.total_steps, progress.pending_evals, ar, errors, v.finished,
                                  v.state == "stalled"),
        progress.collab, crash, broken), swarm=swarm)
    if v.said_at is not None:
        # (no step line was read: the position the crash or the run's closing lines name is the run's, said to come
        # from their words)
        said_by = ("the crash's own words" if v.status is Status.CRASHED
                   else "the run's start line" if v.said_start else "the run's closing lines")
        training = replace(training, step=v.said_at[1], step_said=said_by)
    return StepReport(
        state=v.state,
        status_line=step_text.early_status(v, ar, errors, health.skipped_total, pending, progress.collab, now,
                                             progress.run.total_steps),
        details=tuple(details),
        rate=empty.rate_view(progress.run.tokens_per_step),
        warmup=empty.warmup_view(),
        step=None,
        training=training,
        state_since=v.since,
        events=tuple(reversed(health.events)),
    )


def recognised(progress: StepProgress) -> str | None:
    """The figures the latest step line gave, for a log read by the generic reader; before any
    step line, what it read instead (a crash, skipped fp16 steps)."""
    if progress.stage is not None:
        return step_text.recognised(progress.stage)
    health = progress.health
    read = [what for what, present in (("a crash", health.crash is not None),
                                       ("fp16 overflows", health.skipped_total > 0),
                                       ("grad norm warnings", health.warning() is not None)) if present]
    return f"generic: {', '.join(read)}, no step line" if read else None


def swarm_report(snapshot: Snapshot, now: float) -> str:
    """Copy report's part for a collaborator (SN38, hivemind): its state, its rounds and its peer table;
    "" for any other log."""
    swarm = snapshot.training.swarm if snapshot.training is not None else None
    if swarm is None:
        return ""
    lines = [f"Swarm: {snapshot.state} — {snapshot.status_line}"]
    lines.extend(line for line in (step_text.rounds_line(swarm, now), step_text.pace_line(swarm)) if line)
    for r in swarm.rounds:
        when = _local(r.started_at if r.started_at is not None else r.ended_at)
        lines.append(f"  {when}  {step_text.round_text(r, now)}")
    if swarm.peers:
        lines.append(f"Peers ({len(swarm.peers)} of {swarm.peers_known}; UID, peer, rounds, failures, banned, last seen):")
        for p in swarm.peers:
            uid = str(p.uid) if p.uid is not None else "-"
            seen = _local(p.last_seen)
            lines.append(f"  {uid:>5}  {p.peer}  {p.rounds}  {p.failures}  {'banned' if p.banned else '-'}  {seen}")
    return "\n".join(lines) + "\n"


def _local(at: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at)) if at is not None else "time unknown"
