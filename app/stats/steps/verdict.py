"""A step trainer's state at ``now``, decided once, before any word is written.

The precedence, in one place (the shape of app/stats/iota/status.py's ``verdict``):

    crashed > stopped > diverged > broken > done > cannot join > sync failing > out of sync > averaging > joining
            > restarting > stalled > alone > no step yet > evaluating > finishing > training > measuring

    (a collaborator that died while failing to join the DHT, no peer reached, cannot join: its crash is
    how that ended, shown as a detail)

* A **collaborator** (SN38, hivemind) is judged by its place in the swarm before its steps: locked
  out of the DHT (``JOIN_FAILURES`` failed attempts in a row, or minutes of them, with no peer
  between), a state download failing again and again, behind the collaboration (out of sync,
  loading the state), or in an averaging round (training paused on purpose) say more than its
  last step does, and a round's pause is no stall while it lasts (app/stats/steps/swarm.py's
  ``ROUND_LIMIT_SECONDS``). Alone (no other peer to average with) is said only when nothing
  worse is: it trains, but for nobody.

* **crashed** outranks everything: a dead run is measured as it stood when it died, and no
  stall, pause or time to its end competes with it; it stays crashed however late it is read.
  **stopped** is the same end brought by someone (Ctrl-C, SIGTERM, a scheduler's cancel: the crash
  line's ``stopped``), not an error: measured and shown the same way, never stalled, only its words
  differ. A run over (crashed, stopped, done) shows the rate it had at its last step.
* **diverged** (a loss that is not a number, or exploded) outranks **broken** (numbers that
  learn nothing): the loss is the plainer news. A broken run has no stall or pause either.
* **done** (the last planned step, the trainer's end summary, a stop message it printed with no
  step after it: app/ingest/formats/endings.py, or its closing acts, an evaluation or a save, after a last
  step whose count ends nothing by itself: stage.py's ``closed_after_last_step``, or no step for the whole wait its closing
  acts are allowed after it: ``quiet_after_last_step``) is never stalled, however late. A stop message that only
  says the model was saved (mid-run saves look the same) is the end once the next step is overdue
  (past the stall limit and 5 minutes).
* **evaluating**: the last records are an evaluation's pass under way after the latest step — its start said
  (``***** Running Evaluation *****``, a test loop's first line, Caffe's ``Iteration 1950, Testing net (#0)``) or its
  batches so far short of its bar's total (Jittor's ``Test in epoch 49 iteration 2``, mmengine's
  ``Epoch(val) [2][3550/21046]``), no result printed yet —
  dated or not: the run is evaluating, neither measuring nor training, until a result, a step line or the
  training said to go on again ends the pass. A pass that outlasts the stall limit is stalled.
* **no step yet**: a stage whose only line is a counter at step 0 with nothing done (a progress bar at
  0/58) has made no step; the bar's own clock says how long it has waited, and that wait, not the
  line's age, is held to the first step's limit (``rules.FIRST_STEP_SECONDS``), then it is stalled.
* Before the first step: crashed (or stopped) > broken > the swarm's states in the order above > done (an
  evaluation job's end) > working. A collaborator whose swarm's progress lines come (``accumulated
  N samples for epoch #E from P peers``) and that is in none of those states is ``training``: it
  trains with its peers whether or not it prints steps of its own.

:func:`decide` returns a frozen :class:`Verdict`: the state, since when, which status line and
which detail lines to show (kinds, never words); app/stats/steps/text.py then writes only those.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum, auto

from ...snapshot import State
from ..tracker import WARMUP_SECONDS
from . import rules
from .health import Broken, Crash, said_position
from .rules import Stall
from .stage import (
    Measure,
    Stage,
    closed_after_last_step,
    diverged,
    diverged_at,
    evaluating,
    finished,
    finite,
    line_spacing,
    lines_needed,
    measure,
    no_step_yet,
    no_timing,
    printed_step_seconds,
    steady_step,
    waiting_since,
)
from .swarm import SwarmFacts


class Status(Enum):
    """Which status line the run shows."""

    CRASHED = auto()
    STOPPED = auto()  # someone stopped it (the crash line's ``stopped``)
    BROKEN = auto()
    DIVERGED = auto()
    DONE = auto()
    RESTARTING = auto()
    STALLED = auto()
    FINISHING = auto()
    EVALUATING = auto()  # the last records are an evaluation's pass under way
    LOGGED = auto()  # a log of dicts without step numbers: its epoch and loss
    TOKENS = auto()
    STEPS = auto()
    NO_TIMING = auto()
    NO_STEP_YET = auto()  # a counter at step 0, nothing done yet
    MEASURING = auto()
    # before the first step
    WAITING = auto()
    COLLABORATING = auto()
    ALL_REDUCE_FAILED = auto()
    ERRORS = auto()
    OVERFLOWS = auto()
    VALIDATION_ONLY = auto()
    EVALUATION_ONLY = auto()
    # a collaborator's place in its swarm (before or after its first step)
    CANNOT_JOIN = auto()
    SYNC_FAILING = auto()
    OUT_OF_SYNC = auto()
    AVERAGING = auto()
    JOINING = auto()
    ALONE = auto()
    TRAINING_ROUND = auto()  # no step of its own yet, in a round of its swarm's that it says it trains in
    SETTING_UP = auto()  # no step of its own yet, a node or server setting itself up, in its own words


class Line(Enum):
    """A detail line whose presence the verdict decides (the figures' lines follow the figures)."""

    CRASH = auto()  # "Crashed: …" (or "Stopped by hand at …"), first
    REACHED_END = auto()  # the training had reached its end before the crash (or the stop)
    BROKEN = auto()  # the broken-run sentence, first
    # the rate (one at most)
    RATE_TOKENS = auto()
    RATE_STEPS = auto()
    BEFORE_THE_CRASH = auto()  # the rate line, said as it stood when the run died
    NO_RATE_SUMMARY_ONLY = auto()
    NO_RATE_TOO_SHORT = auto()
    WHOLE_RUN_RATE = auto()  # a finished run too short to measure: its steps over the trainer's own clock
    NO_RATE_NO_TIME = auto()  # a finished run none of whose step lines was read with a duration or a time
    NO_RATE_TOO_FEW = auto()  # a finished run whose dated step lines are fewer than a rate needs
    NO_TIMING = auto()
    NO_STEP_YET = auto()  # how long the run has waited for its first step
    WARMUP = auto()
    # the situation (one at most)
    FINISHED_SUMMARY = auto()
    STOPPED_EARLY = auto()  # the run said it stopped before its planned total
    FINISHED_LAST_STEP = auto()
    STALLED = auto()
    FINISHING = auto()
    EVALUATING = auto()  # where the evaluation's pass under way is
    PAUSED = auto()
    FIRST_LINE_LIMIT = auto()
    STAGE = auto()  # where the run is: always, once a step is read
    ETA = auto()
    # notes on the run's health, under the lead line
    GRAD_WARNING = auto()
    LOSS_SPIKES = auto()  # the logged loss spiked above its recent level (spikes.py)
    LOSS_RISING = auto()  # the logged loss keeps rising, still a number (rising.py): a warning, no state of its own
    # before the first step
    WAITING = auto()
    VALIDATION_ONLY = auto()
    EVALUATION_ONLY = auto()
    ENDED_EVALUATION = auto()  # the evaluation figures read beside a run's end with no step line
    COLLABORATION = auto()
    SWARM = auto()  # the swarm state's sentence (why it cannot join, how far behind, how long averaging)


RATE_LINES = (Line.RATE_TOKENS, Line.RATE_STEPS, Line.NO_RATE_SUMMARY_ONLY, Line.NO_RATE_TOO_SHORT,
              Line.WHOLE_RUN_RATE, Line.NO_RATE_NO_TIME, Line.NO_RATE_TOO_FEW, Line.NO_TIMING, Line.NO_STEP_YET, Line.WARMUP)
SITUATION_LINES = (Line.FINISHED_SUMMARY, Line.STOPPED_EARLY, Line.FINISHED_LAST_STEP, Line.STALLED, Line.FINISHING,
                   Line.EVALUATING, Line.PAUSED, Line.FIRST_LINE_LIMIT)
# What a crash takes away: a rate still being measured, the wait for a step, a pause, the time to
# the end, the end summary (said instead as how far training got).
_GONE_AFTER_A_CRASH = frozenset({Line.NO_TIMING, Line.NO_STEP_YET, Line.WARMUP, Line.STALLED, Line.EVALUATING, Line.PAUSED,
                                 Line.ETA,
                                 Line.FINISHED_SUMMARY, Line.STOPPED_EARLY, Line.FINISHED_LAST_STEP, Line.WAITING})


@dataclass(frozen=True, slots=True)
class Verdict:
    """The decision about a step run at one moment: state, since when, and what to show."""

    state: State
    since: float | None
    status: Status
    shows: frozenset[Line]
    # The line the health notes (grad-norm warning, fp16 skips, collaboration) go under; None:
    # they lead (what led was taken away by the crash).
    lead: Line | None
    measure: Measure
    stall: Stall  # as it stands once a crash or a broken run has had its say (no stall, no pause)
    eta_seconds: float | None  # tokwatch's time to the last step, when one is ahead
    # The trainer's printed time left, when the log's own steps left and pace do not contradict it (rules.trainer_eta)
    trainer_eta_seconds: float | None = None
    crash: Crash | None = None
    broken: Broken | None = None
    # Not the time left, nor when it would be called stalled: a dead or broken run gets nowhere.
    hides_time_left: bool = False
    hides_stall_limit: bool = False
    swarm: SwarmFacts | None = None

    @property
    def finishing(self) -> bool:
        """After the last epoch's bar: no step left to time, no rate to wait for."""
        return self.stall.pause == "finishing"


def decide(
    stage: Stage, now: float, arrival_gaps: Sequence[float], restarting: bool, restart_at: float | None,
    crash: Crash | None, broken: Broken | None, grad_warning: bool, swarm: SwarmFacts | None = None,
) -> Verdict:
    """The verdict on a run with a step read, at ``now`` (``swarm``: a collaborator's place in its swarm)."""
    stall = rules.stall(stage, now, arrival_gaps, restarting)
    if stall.pause == "all-reduce" and swarm is not None and _round_ended_since(swarm, stage.step_time, -math.inf):
        # The round that paused training has ended, ok or failed: no pause any more (the next step's time
        # still leaves the round out, app/stats/steps/stage.py).
        stall = Stall(stall.stalled, stall.since, stall.limit, None, stall.allowed, stall.first_line)
    if stall.stalled and swarm is not None and stall.allowed is not None and \
            _round_ended_since(swarm, stage.step_time, now - stall.allowed):
        # A round's time is averaging, not a stall: the wait counts again from the round's end.
        stall = Stall(False, stall.since, stall.limit, None, stall.allowed, stall.first_line)
    saved_end = saved_and_quiet(stage, stall)
    closed = closed_after_last_step(stage) or quiet_after_last_step(stage, stall)
    is_done = finished(stage) or saved_end or closed
    # A dead run is measured as it stood when it died: at its last step, not over the minutes
    # it lay dead before the crash was printed (a watchdog's timeout, a hung collective); a run
    # over by its own end, at its last step too.
    at = now if crash is None or crash.at is None else min(now, crash.at)
    if (crash is not None or is_done) and stage.step_time is not None:
        at = min(at, stage.step_time)
    m = replace(measure(stage, at), steady=steady_step(stage))  # (the steady pace worked out once, for every reader)
    if crash is not None or broken is not None or saved_end or closed:
        stall = Stall(False, stall.since, stall.limit, None, stall.allowed)
    is_diverged = diverged(stage)
    finishing = stall.pause == "finishing"

    state, status, since = _state(stage, m, stall, restarting, restart_at, is_diverged, is_done, crash, broken, swarm)
    if status is Status.DONE and since is None and closed:
        since = stage.step_time  # (over at its last step: what came after it closed the run)
    if status in _SWARM_BEFORE_STALL and stall.stalled:
        stall = Stall(False, stall.since, stall.limit, stall.pause, stall.allowed)  # the swarm's news, not a stall
    broken_shown = broken is not None and not is_diverged

    rate = _rate_line(stage, m, stall, is_diverged, is_done)
    situation = _situation_line(stage, stall, is_diverged, is_done)
    eta = rules.eta(stage, m) if crash is None and broken is None and not is_diverged and not finishing else None
    trainer_eta = rules.trainer_eta(stage, eta)
    if is_done:
        # A run that is over has no time left: none when it stopped short of its total (its own ETA too).
        eta = eta if not eta else None
        trainer_eta = trainer_eta if not trainer_eta else None
    latest = stage.latest
    epoch_total = latest.epoch_steps if latest.epoch_steps is not None else (
        latest.total_steps if not latest.ends_at_total else None)
    if not latest.run_eta and epoch_total is not None and latest.step >= epoch_total:
        # An epoch's bar at its total: that epoch's steps are done (its evaluation or the next epoch comes),
        # and the bar's time left (0 s) is no time left of anything still to come.
        eta = trainer_eta = None
    if stage.shared_bar is not None and not is_done and crash is None and broken is None and not is_diverged:
        # The epoch's bar counting its validation on after the training: its newest record's time left is the epoch's,
        # the validation included (an older record's, the training's last, is no longer what is left)
        eta, trainer_eta = None, finite(stage.shared_bar.eta_seconds)
    shows = {Line.STAGE}
    if rate is not None:
        shows.add(rate)
    if situation is not None:
        shows.add(situation)
    if not is_done and not finishing and not is_diverged and not broken_shown and (eta is not None or trainer_eta is not None):
        shows.add(Line.ETA)
    lead = rate or situation or Line.STAGE
    if crash is not None:
        shows -= _GONE_AFTER_A_CRASH
        shows.add(Line.CRASH)
        if is_done and not short_of_total(stage):
            shows.add(Line.REACHED_END)
        if m.steps_per_hour is not None:
            shows.add(Line.BEFORE_THE_CRASH)
    elif broken_shown:
        shows -= {Line.ETA, Line.EVALUATING, Line.PAUSED}
        shows.add(Line.BROKEN)
    elif grad_warning:
        shows.add(Line.GRAD_WARNING)
    if status in _SWARM_STATUSES:
        shows.add(Line.SWARM)
        shows -= {Line.STALLED, Line.EVALUATING, Line.PAUSED}  # the swarm's sentence says it (a round's pause, how long)
        lead = Line.SWARM
    if stage.spikes.count and not is_diverged:
        shows.add(Line.LOSS_SPIKES)
    if not is_diverged and not broken_shown and stage.rise.rising() is not None:
        # A climb that is still a number: said beside the state, which it does not change (no nan, no explosion).
        shows.add(Line.LOSS_RISING)
    return Verdict(
        state=state, since=since, status=status, shows=frozenset(shows), lead=lead if lead in shows else None,
        measure=m, stall=stall, eta_seconds=eta, trainer_eta_seconds=trainer_eta, crash=crash, broken=broken if broken_shown else None,
        hides_time_left=crash is not None or broken_shown, hides_stall_limit=crash is not None, swarm=swarm,
    )


def saved_and_quiet(stage: Stage, stall: Stall) -> bool:
    """The run said it saved its model and no step came for longer than the usual time between its
    lines (the stall limit) and ``rules.SAVE_QUIET_SECONDS``: that save was its end, not one of its
    mid-run saves (an evaluation may follow those before the next step)."""
    return (stage.saved_at is not None and not finished(stage) and stall.since is not None
            and stall.limit is not None and stall.since > max(stall.limit, rules.SAVE_QUIET_SECONDS))


def quiet_after_last_step(stage: Stage, stall: Stall) -> bool:
    """After its last step (the last epoch's bar full) no step came for the whole wait its closing acts are allowed
    (``rules.stall``'s finishing): the run is over, its end line one tokwatch does not know or none at all (Keras
    prints none), far likelier than a hang at its very last step; it is done, never stalled."""
    return (rules.finishing(stage) and stall.since is not None and stall.allowed is not None
            and stall.since > stall.allowed)


def _round_ended_since(swarm: SwarmFacts, step_time: float | None, since: float) -> bool:
    """Whether a round ended after the last step and after ``since``."""
    return any(r.ended_at is not None and r.ended_at > since and (step_time is None or r.ended_at > step_time)
               for r in swarm.rounds[:1] if r.outcome != "running")


# The swarm's states that outrank a restart and a stall, in their precedence; then the one below them.
_SWARM_BEFORE_STALL = (Status.CANNOT_JOIN, Status.SYNC_FAILING, Status.OUT_OF_SYNC, Status.AVERAGING, Status.JOINING)
_SWARM_STATUSES = frozenset({*_SWARM_BEFORE_STALL, Status.ALONE})


def ended_joining(crash: Crash | None, swarm: SwarmFacts | None) -> bool:
    """A collaborator that died while its DHT failed to start, no peer reached: it could not join (the
    crash is how it ended, a detail), however few its attempts."""
    return crash is not None and swarm is not None and swarm.join_failures > 0


def swarm_state(swarm: SwarmFacts | None, crash: Crash | None = None) -> tuple[State, Status, float | None] | None:
    """A collaborator's state when its place in the swarm outranks its steps (the precedence above)."""
    if swarm is None:
        return None
    if swarm.cannot_join or ended_joining(crash, swarm):
        return "cannot_join", Status.CANNOT_JOIN, swarm.join_failed_since
    if swarm.sync_failing:
        return "sync_failing", Status.SYNC_FAILING, swarm.out_of_sync_since
    if swarm.out_of_sync_since is not None:
        return "out_of_sync", Status.OUT_OF_SYNC, swarm.out_of_sync_since
    if swarm.averaging_since is not None:
        return "averaging", Status.AVERAGING, swarm.averaging_since
    if swarm.join_failures:
        return "joining", Status.JOINING, swarm.join_failed_since
    return None


def _state(
    stage: Stage, m: Measure, stall: Stall, restarting: bool, restart_at: float | None, is_diverged: bool,
    is_done: bool, crash: Crash | None, broken: Broken | None, swarm: SwarmFacts | None,
) -> tuple[State, Status, float | None]:
    """The state, its status line and when it began, by the precedence above."""
    if crash is not None and not ended_joining(crash, swarm):
        if crash.stopped is not None:
            return "stopped", Status.STOPPED, crash.at
        return "crashed", Status.CRASHED, crash.at
    if is_diverged:
        return "diverged", Status.DIVERGED, diverged_at(stage)
    if broken is not None:
        return "broken", Status.BROKEN, broken.since
    if is_done:
        ended = (stage.done_at, stage.said_end_at, stage.saved_at)
        return "done", Status.DONE, next((at for at in ended if at is not None), None)
    placed = swarm_state(swarm, crash)
    if placed is not None:
        return placed
    if restarting:
        return "working", Status.RESTARTING, restart_at
    if stall.stalled:
        # The run stopped stepping at its last step: "stalled 2h00m" counts from there too (the
        # limit only decides when that is called a stall).
        return "stalled", Status.STALLED, waiting_since(stage) if no_step_yet(stage) else stage.step_time
    if swarm is not None and swarm.alone_since is not None:
        return "alone", Status.ALONE, swarm.alone_since
    if no_step_yet(stage):
        # A bar at 0/58: nothing to measure, how long it has waited is the news.
        return "working", Status.NO_STEP_YET, waiting_since(stage)
    if evaluating(stage):
        return "evaluating", Status.EVALUATING, stage.eval_pass_since
    measured = m.steps_per_hour is not None
    if stall.pause == "finishing":
        status = Status.FINISHING
    elif stage.latest.logged:
        status = Status.LOGGED
    elif m.tokens_per_hour is not None:
        status, measured = Status.TOKENS, True
    elif measured:
        status = Status.STEPS
    else:
        status = Status.NO_TIMING if no_timing(stage, m) else Status.MEASURING
    if measured:
        return "training", status, _training_since(stage)
    return "measuring", status, stage.began_at


def _training_since(stage: Stage) -> float | None:
    """Training since the warm-up was over, or since a step came after a stall."""
    warm = None
    if stage.start is not None and stage.warm_at is not None:
        warm = max(stage.start + WARMUP_SECONDS, stage.warm_at)
    candidates = [c for c in (warm, stage.resumed_at) if c is not None]
    return max(candidates) if candidates else None


def _rate_line(stage: Stage, m: Measure, stall: Stall, is_diverged: bool, is_done: bool) -> Line | None:
    if m.tokens_per_hour is not None and m.steps_per_hour is not None:
        return Line.RATE_TOKENS
    if m.steps_per_hour is not None:
        return Line.RATE_STEPS
    if is_done or is_diverged or stall.stalled or stall.pause == "finishing":
        # A run that is over, finishing, stalled or whose loss is not a number is measured no further.
        if is_done:
            if stage.lines == 0:
                return Line.NO_RATE_SUMMARY_ONLY
            whole = stage.latest.elapsed_seconds
            if (whole is not None and whole > 0 and stage.latest.step > stage.lines and not stage.latest.logged
                    and stage.latest.epoch is None):  # (an epoch's bar counts and times that epoch alone)
                return Line.WHOLE_RUN_RATE  # a closing bar's count and elapsed time: the run's own figures
            if not stage.printed_timing and (stage.timed_lines < lines_needed(stage) or (
                    stage.latest.at is None and stage.began_at is not None and stage.step_time == stage.began_at)):
                # no time of its own to say anything of (undated lines read at once all stand at the file's time);
                # dated lines did give their times (a step time measured between two): only too few of them
                return Line.NO_RATE_TOO_FEW if stage.latest.at is not None else Line.NO_RATE_NO_TIME
            return Line.NO_RATE_TOO_SHORT
        return None
    if no_step_yet(stage):
        return Line.NO_STEP_YET
    return Line.NO_TIMING if no_timing(stage, m) else Line.WARMUP


def short_of_total(stage: Stage) -> bool:
    """The latest line's own count is short of its total: words that say the training is complete (a script's
    "Training complete … or we blew up" on its way out) are contradicted by the count (1/2020)."""
    latest = stage.latest
    return latest.total_steps is not None and latest.step < latest.total_steps


def stopped_early(stage: Stage) -> bool:
    """The run said it stopped before its plan (a wall-clock cap, an early stop), short of its planned total."""
    total = stage.latest.total_steps
    return stage.stop_message is not None and (total is None or stage.latest.step < total)


def usual_gap(stage: Stage) -> float:
    """The usual time between step lines: the median of the recent lines', else the trainer's time per step."""
    spacing = line_spacing(stage)
    return spacing if spacing is not None else printed_step_seconds(stage) or 0.0


def _situation_line(stage: Stage, stall: Stall, is_diverged: bool, is_done: bool) -> Line | None:
    if is_done and stopped_early(stage):
        return Line.STOPPED_EARLY
    if stage.finished is not None or (is_done and stage.saved_message is not None):
        return Line.FINISHED_SUMMARY
    if is_done:
        return Line.FINISHED_LAST_STEP
    if stall.stalled and stall.since is not None and stall.limit is not None:
        return Line.STALLED
    if stall.pause == "finishing" and stall.since is not None and stall.allowed is not None:
        return Line.FINISHING
    if evaluating(stage) and not is_diverged:
        return Line.EVALUATING
    gap = usual_gap(stage)
    if stall.pause is not None and stall.since is not None and not is_diverged and 0 < gap < stall.since:
        # (said once the next line is later than usual: an evaluation's line alone says it has ended; a log
        # whose lines carry no time has no usual, and its quiet says nothing of a pause)
        return Line.PAUSED
    if stall.first_line is not None and stall.limit is not None and not is_diverged:
        # (a diverged run is measured no further: no stall to wait for)
        return Line.FIRST_LINE_LIMIT
    return None


@dataclass(frozen=True, slots=True)
class EarlyVerdict:
    """The decision about a run before its first step."""

    state: State
    since: float | None
    status: Status
    shows: frozenset[Line]
    lead: Line | None  # the line the fp16 skips go under (None: they lead)
    crash: Crash | None = None
    broken: Broken | None = None
    finished: bool = False  # an evaluation job wrote its end (whatever came after)
    swarm: SwarmFacts | None = None
    # Where a crash's own words place the run (``("iteration", 2137)``), when it crashed with no step line read
    said_at: tuple[str, int] | None = None
    said_start: bool = False  # it is the step its start line says training starts from, no step after it


def decide_before_steps(
    crash: Crash | None, broken: Broken | None, grad_warning: bool, collaborating: bool, validation: bool,
    evaluated_at: float | None, evaluated: bool, all_reduce_failed: bool, errors: bool, overflows: bool,
    swarm: SwarmFacts | None = None, training_since: float | None = None, now: float | None = None,
    ended: tuple[str, float | None, bool] | None = None, summarised: bool = False, validating: bool = False,
    ended_step: int | None = None, start_step: tuple[str, int] | None = None,
) -> EarlyVerdict:
    """The verdict on a run with no step read yet (``evaluated``: an evaluation job wrote its end;
    ``training_since``: when the trainer announced that training starts, by the log's own dates; ``summarised``:
    ``ended`` is the trainer's summary of its training, not only a stop said in words; ``validating``: its
    validation pass is under way, its latest line short of its batches and no result after it: evaluating).

    Once training was announced, no step line for :data:`rules.FIRST_LINE_WAIT_SECONDS` of the log's own
    time is a stall (a bar at step 0 is held to the first step's 10 minutes instead: its own clock says no
    step was done; with no line at all, the log may print only every N steps)."""
    shows: set[Line] = set()
    state: State = "working"
    since = None
    if all_reduce_failed:
        status = Status.ALL_REDUCE_FAILED
    elif errors:
        status = Status.ERRORS
    elif overflows:
        status = Status.OVERFLOWS
    else:
        status = Status.WAITING
    opening = Line.WAITING
    if validation and status is Status.WAITING:
        # A log of validation lines alone: say so, with the figures, rather than wait forever.
        status, opening = Status.VALIDATION_ONLY, Line.VALIDATION_ONLY
        if evaluated:
            # An evaluation job that wrote its results has finished: it trains nothing.
            state, status, since, opening = "done", Status.EVALUATION_ONLY, evaluated_at, Line.FINISHED_SUMMARY
            shows.add(Line.EVALUATION_ONLY)
        elif validating:
            state = "evaluating"
    if ended is not None and (status in (Status.WAITING, Status.VALIDATION_ONLY)
                              or (status is Status.EVALUATION_ONLY and summarised)):
        # The run's end with no step line before it (HF's summary dict or its train metrics block alone, a stop in its
        # own words): it is over, and nothing of its steps is known; validation figures beside it are its
        # evaluation's, and so are an evaluation job's beside the training's own summary (HF's eval metrics block
        # after its train block): it trained. (An evaluation job's end with only a stop said after it, wandb closing,
        # is still that job alone.)
        _, ended_at, early = ended
        state, status, since, opening = "done", Status.DONE, ended_at, Line.FINISHED_SUMMARY
        shows.discard(Line.EVALUATION_ONLY)
        shows.add(Line.STOPPED_EARLY if early else Line.NO_RATE_SUMMARY_ONLY)
        if validation:
            shows.add(Line.ENDED_EVALUATION)
    elif status is Status.WAITING and training_since is not None and now is not None:
        since = training_since
        if now - training_since > rules.FIRST_LINE_WAIT_SECONDS:
            state, status = "stalled", Status.STALLED
    shows.add(opening)
    if collaborating:
        shows.add(Line.COLLABORATION)
        if state in ("working", "stalled") and status in (Status.WAITING, Status.STALLED):
            # Its swarm's progress lines: it trains with its peers, whether or not it prints steps of its own.
            state, status = "training", Status.COLLABORATING
            shows.discard(Line.WAITING)
    if swarm is not None and swarm.training_round is not None and state == "working" and status is Status.WAITING:
        # The swarm's round says it trains (rl-swarm's ``Training round: 331 stage: 1``), no step of its own printed.
        state, status, since = "training", Status.TRAINING_ROUND, None
        shows.discard(Line.WAITING)
    elif swarm is not None and swarm.setting_up is not None and state == "working" and status is Status.WAITING:
        # A node or server setting itself up (a Petals server loading its blocks, rl-swarm's launcher): it is
        # not a trainer waiting for a step, and says what it is doing.
        status = Status.SETTING_UP
        shows.discard(Line.WAITING)
    lead = Line.COLLABORATION if collaborating else opening
    if crash is not None:
        shows -= _GONE_AFTER_A_CRASH
        shows.add(Line.CRASH)
        if crash.stopped is not None:
            state, status, since = "stopped", Status.STOPPED, crash.at
        else:
            state, status, since = "crashed", Status.CRASHED, crash.at
    elif broken is not None:
        shows.add(Line.BROKEN)
        state, status, since = "broken", Status.BROKEN, broken.since
    elif grad_warning:
        shows.add(Line.GRAD_WARNING)
    placed = swarm_state(swarm, crash)
    if placed is None and swarm is not None and swarm.alone_since is not None:
        placed = "alone", Status.ALONE, swarm.alone_since
    if placed is not None and ended_joining(crash, swarm):
        state, status, since = placed  # its crash stays a detail line: how it ended
        shows.add(Line.SWARM)
        lead = Line.SWARM
    elif placed is not None and crash is None and broken is None and state in ("working", "training"):
        state, status, since = placed
        shows.discard(Line.WAITING)
        shows.add(Line.SWARM)
        lead = Line.SWARM
    said_at = said_position(crash) if crash is not None and status is Status.CRASHED else None
    said_start = False
    if status is Status.DONE and ended_step is not None:
        said_at = ("step", ended_step)  # (the last step the run's closing lines name: wandb's, as the run finished)
    elif status is Status.DONE and start_step is not None:
        # (the step its start line says training starts from, the run's end read with no step after it: a run resumed
        # at its last step ends where it started, detectron2's ``Total training time: 0:00:00``)
        said_at, said_start = start_step, True
    return EarlyVerdict(state, since, status, frozenset(shows), lead if lead in shows else None, crash, broken,
                        finished=Line.EVALUATION_ONLY in shows or status is Status.DONE, swarm=swarm, said_at=said_at,
                        said_start=said_start)
