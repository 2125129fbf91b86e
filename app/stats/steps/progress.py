"""A step trainer's progress: step events (their times given) in, a report at ``now`` out.

Throughput follows the shared rules (app/stats/tracker.py), with steps for passes:

* tokens/h = tokens in (now − 20 min, now] ÷ observed, observed = now − start of the current
  stage (or stretch), capped at 20 min; hidden until ≥ 3 steps and ≥ 3 min observed;
* the tokens a step carries come from what the trainer prints: tokens in the line
  (nanochat's old SFT ``num_tokens``, RL sequences × mean length), tokens per iteration ×
  steps (nanoGPT), tok/s × the step's duration (nanochat, llm.c; torchtitan's per-device tps ×
  devices × the time between its lines), or HF's ``num_input_tokens_seen`` counter;
* a stage (nanochat base → SFT → RL) or a restart (the step goes back) starts a new stretch.

When step lines are undated, app/stats/steps/timing.py places them; when a run is stalled,
app/stats/steps/rules.py says.
"""

from __future__ import annotations

import math
import operator
from bisect import bisect_left
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from functools import reduce
from itertools import accumulate, chain, compress, count, islice, repeat
from typing import Any

from ..events import (
    RUN_SECONDS,
    AllReduceResult,
    CollabProgress,
    EvalResult,
    Event,
    LinesLeftOut,
    PeerGroup,
    RunInfo,
    StageEnd,
    StageStart,
    StepFigures,
    StepRun,
    TrainerError,
    TrainingPause,
    TrainingResumed,
    TrainStep,
    spanned,
)
from ..tracker import WARMUP_COUNT
from . import rules
from .health import RunHealth
from .intervals import Intervals
from .placing import placed_times
from .stage import (
    EARLY_LOSSES,
    EXPLODED_FACTOR,
    RECENT_LINES,
    SAME_MOMENT_SECONDS,
    AllReduce,
    Errors,
    RunFacts,
    Stage,
    counts_evaluation,
    epoch_counted,
    finished,
    finite,
    lines_needed,
    measure,
    redrawn_after_end,
    same_position,
    scored_by,
)
from .swarm import Swarm
from .timing import (
    clock_contradicts,
    clock_gap,
    covered_steps,
    line_seconds,
    timeline_covered,
    timeline_offset,
)

# An epoch's first line that came more than this many times its steps' own time after the last line of the
# epoch before: the epoch's end held a pause (an evaluation, a checkpoint), and the rate starts again after it.
EPOCH_PAUSE_FACTOR = 1.1

# A stage's first lines whose steps each took this many times as long as a step of the line after them or more were
# one-off steps (tinygrad's two compile steps of 93 s and 102 s before steps of 4.3 s; nanoGPT's iteration 0 that
# compiles; the iteration after an evaluation a tail starts at): not the run's pace, so its rate is measured from
# that line on. Only within the stage's first :data:`ONE_OFF_LINES` lines (the warm-up's count): later, a slow
# line is an evaluation or a checkpoint the run makes again and again, part of its pace.
ONE_OFF_FACTOR = 3.0
ONE_OFF_LINES = WARMUP_COUNT

# Lines that covered the same number of steps, in a row, before a step line's count is the log's printed cadence: an
# undated line that comes more steps after the one before than that cadence follows steps the log does not show (an
# author's "..." over an excerpt's middle, lines left out); its time would be made up of the printed step time
# times steps nobody saw run, so the rate is measured again from that line on.
CADENCE_LINES = 3


def skips_steps(stage: Stage, event: TrainStep, covered: int) -> bool:
    """``event`` is undated, timed by its printed time of one step alone, and comes ``covered`` steps after the
    stage's latest line, more than the :data:`CADENCE_LINES` lines before it each covered (all alike; a count that
    restarts, SN38's inner steps, is no gap). A trainer's own clock on both lines (modded-nanogpt's
    ``train_time``, a bar's elapsed time) or its tokens over its tokens a second time the steps between them,
    whatever they were: those lines are no gap in what is measured."""
    recent = stage.covered
    if (event.at is not None or event.outer_step is not None or len(recent) < CADENCE_LINES
            or event.step_seconds is None or (event.tokens and event.tokens_per_second)
            or (event.elapsed_seconds is not None and stage.latest.elapsed_seconds is not None)):
        return False
    cadence = recent[-1]
    return covered > cadence and all(lines == cadence for lines in islice(reversed(recent), CADENCE_LINES))


def partial_first_epoch(stage: Stage, previous: TrainStep | None, event: TrainStep) -> bool:
    """``event`` moves on from the stage's first epoch, which its lines each printed again (``Epoch 16 - Batch loss:
    …`` a batch, a T5 fine-tune's): that epoch began before the log's first line of it, as an excerpt cut mid-epoch
    does, so the time from that line to this one is no epoch's, and nothing is measured across it (an epoch's time only
    from one seen whole, its start and end in the log). One line an epoch (a closing summary's) times the whole epoch
    between two lines and is no such case, nor is a first line that says it is at its epoch's start (``Epoch 1
    [0%]``)."""
    return (previous is not None and stage.reprinted and stage.lines == 1 and previous.step == stage.first_step
            and stage.first_share != 0 and epoch_counted(previous) and epoch_counted(event))


def timer_before(stage: Stage, seconds: float, covered: int) -> bool:
    """The stage's first line, counted as one step of its printed time, printed :data:`ONE_OFF_FACTOR` times less
    than a step of this line (``seconds`` over ``covered`` steps) takes: a timer's first reading, not a step's time
    (PaddleDetection's ``iter: 0, … batch_cost: 0.00008 sec`` before steps of 23 s), so the rate starts at that line,
    as for a line that printed no time; counting it would credit one step more than the span measured holds."""
    fastest = stage.fastest_step
    return (fastest is not None and stage.lines == 1 and seconds > 0 and covered > 0
            and fastest * ONE_OFF_FACTOR <= seconds / covered)


def one_off_before(stage: Stage, seconds: float, covered: int) -> bool:
    """The steps measured so far, in the stage's first lines, each took :data:`ONE_OFF_FACTOR` times as long as
    a step of this line (``seconds`` over ``covered`` steps) or more: they were one-off (compiling, a first
    batch's loading), and the run's pace starts with this line."""
    fastest = stage.fastest_step
    return (fastest is not None and seconds > 0 and covered > 0
            and stage.lines < ONE_OFF_LINES and fastest >= ONE_OFF_FACTOR * seconds / covered)


# A line's time that is its printed clock's span to within this (placed by it, not dated): seconds.
PLACED_SLACK_SECONDS = 1e-3


def placed_by_clock(t: float, before: float, seconds: float) -> bool:
    """A line at ``t`` sits ``seconds`` after the line before it (at ``before``) to within :data:`PLACED_SLACK_SECONDS`:
    placed by its printed clock's span alone, not dated."""
    return abs(t - before - seconds) <= PLACED_SLACK_SECONDS


def untimed_pause(stage: Stage, t: float, seconds: float | None, clock: bool, since: float | None = None) -> bool:
    """The step line after an evaluation sits at ``t`` only by the trainer's own clock (``clock``: its elapsed
    time on both lines, ``seconds`` its span; ``since``: the line before's time, else the stage's latest step's),
    where that clock starts again after the evaluation (a new epoch's bar) or stops while it runs (modded-nanogpt's
    ``train_time``): the evaluation's pause is in no time measured, and is forgotten; True then. (A bar's clock
    that runs on through a validation, Lightning's ``2014/2015 [08:13`` then ``2015/2015 [08:24``, holds it.)"""
    before = stage.step_time if since is None else since
    if (not clock or seconds is None or before is None or stage.clock_over_printed
            or not placed_by_clock(t, before, seconds)):
        return False
    while stage.eval_times and stage.eval_times[-1] >= before - PLACED_SLACK_SECONDS:
        stage.eval_times.pop()  # (an undated evaluation sits at the step line before it: timed by nothing)
    return True


# An evaluation whose result is printed within this of its step's own line, with no pass lines of its own, took no time
# the log shows (TensorFlow 1's retrain: ``Step 90: Cross entropy = …`` then ``Step 90: Validation accuracy = …`` 40 ms
# later, every logged step): no pause, the next line's time is its steps' own.
INSTANT_EVAL_SECONDS = 0.1


def instant_evaluation(stage: Stage) -> bool:
    """The evaluation printed since the latest step line took no time of its own in the log (INSTANT_EVAL_SECONDS): its
    result dated by its own line (an undated one sits at the step before it by default, its time unknown)."""
    return (stage.eval_dated and not stage.eval_lines and stage.eval_batches is None and stage.step_time is not None
            and bool(stage.eval_times) and 0.0 <= stage.eval_times[-1] - stage.step_time <= INSTANT_EVAL_SECONDS)


SCORED_KEPT = 4096  # how many first printings of evaluation figures are kept, at most, per run
TRAIN_LOSS_EVAL = "train_loss"  # an evaluation of the training split's loss (nanoGPT's ``train loss`` beside ``val loss``)
EVAL_LOSS_NOTE = "estimated over evaluation batches"


class StepProgress:
    """Accumulates step-trainer events (times from the tracker) and reports at ``now``."""

    def __init__(self) -> None:
        self._stage: Stage | None = None
        self._restarting = False
        self._pending_evals: dict[str, tuple[float | None, int | None]] = {}
        # Those of them already filed in the current stage at their earlier step: no next stage's once a step goes on
        self._placed_early: dict[str, tuple[float | None, int | None]] = {}
        # Each evaluation figure's value, by what it scores, at the step it was first printed: a best's own step
        self._first_scored: dict[tuple[frozenset[str], float], int] = {}
        self._evaluating: TrainingPause | None = None  # a validation pass under way before any training step
        self._evaluating_ended = False  # a result read after that pass's latest line: it is over
        # A log that only evaluates (the lecture GPT's ``step 500: train loss 2.0049, val loss 2.0904`` every 500
        # steps): the step of its latest training-loss evaluation while no step line came, and whether its
        # evaluations now stand for the run's steps (see _eval_as_step).
        self._train_eval_step: int | None = None
        self._evals_step = False
        self._run = RunFacts()
        self._all_reduce: AllReduce | None = None
        self._errors: Errors | None = None
        self._restart_at: float | None = None
        # When batches of step lines arrived: a block-buffered stdout (python's print to a file)
        # delivers dozens of steps at once, every few minutes; that is not a stall.
        self._last_arrival: float | None = None
        self._arrival_gaps: deque[float] = deque(maxlen=rules.ARRIVAL_GAPS)
        self._arrival_steps: deque[int] = deque(maxlen=rules.ARRIVAL_GAPS)  # step lines in each
        # Running totals over every stage (never decrease): /metrics' counters.
        self.steps_total = 0
        self.tokens_total = 0.0
        self.health = RunHealth()
        self.swarm = Swarm()
        self._collab: CollabProgress | None = None
        # An evaluation job's end read before any training step: (its line, when it was read).
        self._evaluated: tuple[str, float | None] | None = None
        # When the trainer announced that training starts, before any step line (HF's ``Running training``).
        self._training_since: float | None = None
        # The run's end read before any step line (HF's summary dict alone, a stop in words): (its words, when,
        # whether it said it stopped short of its plan).
        self._ended: tuple[str, float | None, bool] | None = None
        self._ended_step: int | None = None  # the run's last step its closing lines name, no step line read
        self._start_step: tuple[str, int] | None = None  # the step its start line says training starts from, no step read
        self._summarised = False  # and it is the trainer's summary of its training (HF's dict or train block)

    def carry_health(self, before: StepProgress) -> None:
        """Take over ``before``'s run health (crash, fp16 overflows, grad-norm streaks), reported
        errors and swarm (a hivemind log found to be an SN38 miner's): the same log, read by another
        format's parser since it switched."""
        self.health = before.health
        self._errors = before._errors
        self.swarm = before.swarm

    # --- applying -------------------------------------------------------------

    def place(self, events: Sequence[Event], arrival: float, not_before: float | None) -> list[float | None]:
        """Each event's time in a batch read at ``arrival`` (:func:`placed_times`); note the arrival."""
        self.note_arrival(sum(1 for event in events if isinstance(event, TrainStep)), arrival)
        return placed_times(events, arrival, not_before)

    def note_arrival(self, steps: int, arrival: float) -> None:
        """A batch of ``steps`` step lines was read at ``arrival``."""
        if steps:
            if self._last_arrival is not None and arrival > self._last_arrival:
                self._arrival_gaps.append(arrival - self._last_arrival)
                self._arrival_steps.append(steps)
            self._last_arrival = arrival

    def apply(self, event: Event, t: float | None) -> None:
        """Apply one event seen at ``t`` (None: the time is not known)."""
        self.health.apply(event, t)
        if isinstance(event, TrainStep):
            self._evals_step = False  # (a step line of its own: evaluations are evaluations again)
            stage = self._stage
            before = stage.latest if stage is not None and not self._restarting else None
            offset = timeline_offset(before, event, stage.offset if stage is not None else 0)
            self.swarm.apply(event, t, offset)
            self._step(event, t, offset)
            return
        self.swarm.apply(event, t)
        if isinstance(event, StepFigures):
            self._figures(event, t)
        elif isinstance(event, EvalResult):
            self._eval(event, t)
        elif isinstance(event, TrainingPause):
            if self._stage is not None:
                self._stage.pause = event.reason
                if event.reason == "evaluation" and event.batches is not None:
                    self._stage.eval_batches = event.batches
                self._stage.take_eval_pass(event, t)
                if event.bar is not None:
                    self._stage.take_shared_bar(event.bar)
            elif event.reason == "evaluation" and event.done is not None and event.batches is not None:
                self._evaluating = event  # (mmengine's ``Epoch(val) [2][3550/21046]`` lines alone: validating)
                self._evaluating_ended = False
        elif isinstance(event, LinesLeftOut):
            if self._stage is not None:
                self._stage.lines_left_out = True
        elif isinstance(event, TrainingResumed):
            stage = self._stage
            if stage is not None and stage.pause is not None and stage.pause != "all-reduce":
                # The pause is over (no longer held off as one), though the next step line's time still holds it.
                stage.resumed = stage.resumed or stage.pause == "evaluation"
                stage.evaluated = stage.evaluated or stage.pause == "evaluation"
                stage.pause = None
                stage.end_eval_pass()
        elif isinstance(event, StageEnd) and event.evaluation:
            # An evaluation job wrote its results: the run's end only when it trained nothing
            # (inside a training run it is one more evaluation, its figures already taken).
            if self._stage is None:
                self._evaluated = (event.summary or "evaluation finished", t)
        elif isinstance(event, StageEnd) and self.health.crash is not None:
            # Printed after the run died (wandb's closing block, a hook's training-time summary in a
            # ``finally``): how it exits, not an end it reached.
            pass
        elif isinstance(event, StageEnd) and event.said:
            self._said_end(event, t)
        elif isinstance(event, StageEnd):
            if self._stage is None:
                self._end_without_steps(t)
            if self._stage is None and self._ended is None:
                self._ended = (event.summary or "finished", t, event.early)  # (no step line before it)
                self._summarised = True
            elif self._stage is None and self._ended is not None and event.amends and event.summary:
                self._ended = (event.summary, self._ended[1], self._ended[2])  # (the same end, its block read further)
            if self._stage is not None and not (
                    event.summary and self._stage.finished and event.summary in self._stage.finished):
                # (unless the end was already said in more words: a closing summary that holds this line)
                self._stage.finished = event.summary or "finished"
                if self._stage.done_at is None:
                    self._stage.done_at = t if t is not None else self._stage.step_time
        elif isinstance(event, StageStart):
            if self._stage is not None:
                self._restarting = True
                self._restart_at = t
            elif self._training_since is None:
                self._training_since = t  # (the wait for a first step is timed from here, by the log's dates)
        elif isinstance(event, TrainerError):
            errors = self._errors = self._errors or Errors()
            errors.count += 1
            errors.last, errors.last_at = event.error, t
        elif isinstance(event, RunInfo):
            self._run_info(event)
        elif isinstance(event, CollabProgress):
            self._collab = event
        elif isinstance(event, PeerGroup):
            self._all_reduce = self._all_reduce or AllReduce()
            self._all_reduce.peers = event.peers
        elif isinstance(event, AllReduceResult) and event.again and self._all_reduce is not None:
            self._all_reduce.last_error = event.error  # the last failure, told more fully
        elif isinstance(event, AllReduceResult):
            counts = self._all_reduce = self._all_reduce or AllReduce()
            counts.last_ok = event.ok
            if event.peers is not None:
                counts.peers = event.peers
            if event.ok:
                counts.succeeded += 1
            else:
                counts.failed += 1
                counts.last_error = event.error

    def _said_end(self, event: StageEnd, t: float | None) -> None:
        """A stop message (app/ingest/formats/endings.py): the end unless a step follows (Stage.take forgets
        it), so not sticky; the first one says it, and the first that says the run stopped short of its plan."""
        stage = self._stage
        if event.figures and event.summary and self._closing_figures(event.summary):
            return
        if stage is None and not event.saved and self._ended is None:
            self._ended = (event.summary or "finished", t, event.early)  # (no step line before it)
        if stage is None and event.step is not None:
            self._ended_step = event.step  # (the last that names one: wandb's summary after the history it uploaded)
        if stage is None or stage.done_at is not None:
            return
        at = t if t is not None else stage.step_time
        if event.saved:
            if stage.finished is None and stage.saved_at is None:
                stage.saved_at, stage.saved_message = at, event.summary or "model saved"
        elif stage.finished is None:
            # (a save said just before is the plainest words for the end)
            stage.finished = stage.saved_message or event.summary or "finished"
            stage.said_end_at = stage.saved_at if stage.saved_at is not None else at
        if event.early and stage.stop_message is None:
            stage.stop_message = event.summary or "stopped early"

    def _closing_figures(self, summary: str) -> bool:
        """Add a closing block's final figures to the end already said (``Training completed in 3 days`` then
        ``Final training loss: 1.14``): True when there was one, so the figures are its, not a second end."""
        stage = self._stage
        if stage is not None and stage.finished is not None:
            if summary not in stage.finished:
                stage.finished = f"{stage.finished} · {summary}"
            return True
        if stage is None and self._ended is not None:
            said, at, early = self._ended
            if summary not in said:
                self._ended = (f"{said} · {summary}", at, early)
            return True
        return False

    # --- a run of usual steps, in bulk (the history import of an every-step log) -----

    def run_end(self, run: StepRun, start: int, times: Sequence[float]) -> int:
        """How far from ``start`` :meth:`apply_run` may take ``run``'s steps at ``times`` (the clock's,
        one a step from ``start``) as :meth:`apply` would take them one by one; ``start`` for none.

        The stretch goes on while each step follows the one before in the same stage (a stage that
        is measuring, past its warm-up and its early losses), with a duration, a loss that is a
        number and has not exploded, and no more than the stall floor after the step before.
        """
        if run.evals:
            lines = run.evaluation_lines(start, start + len(times))
            if lines:
                return self._evaluated_run_end(run, start, times, lines)
        stage = self._stage
        if (stage is None or self._restarting or stage.name != run.stage or stage.latest.logged
                or stage.latest.outer_step is not None or stage.start is None or stage.step_time is None
                or stage.timed_lines < WARMUP_COUNT or len(stage.early_losses) < EARLY_LOSSES
                or not times or not self.health.can_take_steps(run.steps[start])
                or not _bulk_columns(run, stage, start, len(times))):
            return start
        end = start + len(times)
        steps = run.steps[start:end]
        baseline = stage.early_median
        ceiling = EXPLODED_FACTOR * baseline if baseline is not None and baseline > 0 else math.inf
        losses = run.step_losses(start, end)
        taken = len(times)
        step_ms = run.step_ms[start:end]
        # (a line that covers no more steps than any line before it skips none: skips_steps)
        fewest = min(stage.covered, default=math.inf)
        if (stage.latest.step < steps[0] <= stage.latest.step + fewest and steps[-1] - steps[0] == taken - 1
                and steps == tuple(range(steps[0], steps[-1] + 1)) and min(step_ms) > 0
                and math.isfinite(sum(step_ms)) and math.isfinite(sum(losses)) and max(losses) < ceiling
                and max(map(operator.sub, times, chain((stage.step_time,), times))) <= rules.STALL_FLOOR_SECONDS):
            return end  # (one step a line, all of them: the usual case, checked at once)
        covered = list(map(operator.sub, steps, chain((stage.latest.step,), steps)))
        for checks in (
            map(operator.lt, chain((stage.latest.step,), steps), steps),  # each step after the one before
            map(operator.lt, repeat(0.0), step_ms),  # a duration
            map(operator.lt, losses, repeat(ceiling)),  # a loss that has not exploded (nor is nan or inf)
            map(operator.gt, losses, repeat(-math.inf)),
            map(operator.le, map(operator.sub, times, chain((stage.step_time,), times)),
                repeat(rules.STALL_FLOOR_SECONDS)),  # no stall to look for
            map(operator.le, covered, accumulate(chain((fewest,), covered), min)),  # no steps the log leaves out
        ):
            taken = first_false(islice(checks, taken), taken)
        return start + taken

    def _evaluated_run_end(self, run: StepRun, start: int, times: Sequence[float], lines: list[tuple[int, int]]) -> int:
        """:meth:`run_end` where evaluation lines (``lines``: StepRun.evaluation_lines) are among the steps:
        the steps between them as one stretch, each evaluation's line applied as :meth:`apply` applies it,
        up to the first of them that a step after it could not follow in bulk (its clock not on, its total
        reached) or that is this stretch's first (applied alone)."""
        if lines[0][0] <= start:
            return start
        end = start + len(times)
        elapsed, totals = run.column("elapsed_seconds"), run.column("total_steps")
        cut = end
        if elapsed is None or any(name not in ("elapsed_seconds", "total_steps") for name, _ in run.columns):
            cut = lines[0][0]  # (steps after an evaluation this has not been held to: alone)
        else:
            for first, after in lines:
                following = after if after < end else None
                figures = run.evals[bisect_left(run.evals, first + 1, key=operator.itemgetter(0)):][:after - first - 1]
                if ((totals is not None and (totals[first] is None or run.steps[first] >= totals[first]))
                        or elapsed[first] is None or elapsed[first - 1] is None or elapsed[first] < elapsed[first - 1]
                        or (following is not None and (elapsed[following] is None
                                                       or not elapsed[following] > elapsed[first]))
                        or any(name == TRAIN_LOSS_EVAL or value is None or not math.isfinite(value)
                               for _, name, value in figures)):
                    cut = first  # (its clock back, the run's total reached, a figure not a number: alone)
                    break
        spans = run.step_spans(start, cut)
        taken = self.run_end(run.steps_only(spans), 0, spanned(times, spans, start))
        for first, after in spans:  # (the place of the first step not taken, or the cut)
            if taken < after - first:
                return first + taken
            taken -= after - first
        return cut

    def apply_run(self, run: StepRun, start: int, times: Sequence[float]) -> None:
        """Apply ``run``'s steps from ``start``, one at each of ``times``, as :meth:`apply` would one by
        one; only as far as :meth:`run_end` allows (evaluation lines among them: :meth:`_apply_evaluated`)."""
        end = start + len(times)
        lines = run.evaluation_lines(start, end) if run.evals else []
        at = start
        if lines and lines[0][0] <= start:  # (the stretch starts inside an evaluation's line: the rest of it alone)
            for k in range(start, min(lines[0][1], end)):
                self.apply(run.event(k), times[k - start])
            at = min(lines[0][1], end)
            lines = lines[1:]
        if at >= end:
            return
        if lines:
            self._apply_evaluated(run, at, times[at - start :] if at > start else times, lines)
        else:
            self._apply_steps(run, at, times[at - start :] if at > start else times)

    def _apply_evaluated(self, run: StepRun, start: int, times: Sequence[float], lines: list[tuple[int, int]]) -> None:
        """:meth:`apply_run` of steps from ``start`` (a step's place) with evaluation lines among them
        (``lines``: StepRun.evaluation_lines, each after a step of the stretch): what applying each
        event one by one leaves. An evaluation's step is the step before it printed again (no line, no
        time, no rate: it becomes the latest step, its time the stage's step time); its figures are the
        stage's evaluations, and the step after them is timed from its clock and ends the wait."""
        end = start + len(times)
        spans = run.step_spans(start, end)
        waits: list[int] = []  # (where among the steps one follows an evaluation's line)
        clock_before: list[float] | None = None
        elapsed = run.column("elapsed_seconds")
        if elapsed is not None:  # (each step's clock is read against the line before it: an evaluation's)
            assert self._stage is not None
            clock_before = [self._stage.latest.elapsed_seconds,  # type: ignore[list-item]
                      *spanned(elapsed, [(spans[0][0] + 1, spans[0][1]), *spans[1:]], 1)]
        steps = 0
        for first, after in spans:
            if first > start:
                waits.append(steps)
            steps += after - first
        # (each evaluation line's step, the step before it printed again, at its time: a line of the lines' spacing,
        # by the place among the steps of the step after it)
        repeats: dict[int, list[tuple[float, bool]]] = {}
        for first, after in lines:
            before_it = sum(min(span_after, first) - span_first for span_first, span_after in spans if span_first < first)
            repeats.setdefault(before_it, []).append((times[first - start], run.step(first).loss is not None))
        stage = self._stage
        assert stage is not None
        # (untimed_pause: the step lines after an evaluation's placed only by the trainer's clock, which stopped)
        untimed = set() if elapsed is None or stage.clock_over_printed else {
            after for first, after in lines if after < end and elapsed[after] is not None
            and (clock := elapsed[first] if first >= start else stage.latest.elapsed_seconds) is not None
            and (since := times[first - start] if first >= start else stage.step_time) is not None
            and placed_by_clock(times[after - start], since, elapsed[after] - clock)}
        self._apply_steps(run.steps_only(spans), 0, spanned(times, spans, start), clock_before=clock_before,
                          waits=waits, repeats=repeats)
        for t, trains in repeats.get(steps, [])[:-1]:
            stage.space(t, trains)  # (evaluation lines after the stretch's last step, before the last one: _step of each)
            stage.step_time = t
        for first, after in lines:  # (each figure as _eval takes it: finite, a step that is the latest's)
            step = run.steps[first]
            for k in range(first + 1, min(after, end)):
                t = times[k - start]
                _, name, value = run.evals[bisect_left(run.evals, k, key=operator.itemgetter(0))]
                stage.take_eval(name, value, step, t)
                if not stage.eval_steps or stage.eval_steps[-1] != step:
                    stage.eval_steps.append(step)
                if after not in untimed:
                    stage.eval_times.append(t)
        for first, _ in spans[1:] if spans[0][0] == start else spans:
            # (_step: the step line after an evaluation's holds its pause, from its last figure's time)
            if first not in untimed:
                stage.eval_pauses.append((times[first - 1 - start], times[first - start]))
        first, after = lines[-1]
        last = run.step(first)
        self.swarm.apply(last, times[first - start], stage.offset)  # (the latest step applied alone, as it was)
        if spans[-1][1] <= first:  # (the stretch ends with an evaluation's line)
            if last.step_seconds is not None and math.isfinite(last.step_seconds):
                stage.timed_step = last
            if not same_position(stage.latest, last):
                stage.moved_at, stage.spaced = times[first - start], False
            else:
                stage.space(times[first - start], last.loss is not None)
            stage.before_latest = stage.latest  # (Stage.take of the step printed again: the one before is the same)
            stage.latest, stage.step_time = last, times[first - start]
            self.health.apply(last, times[-1])  # (the same step: only when it was read, the latest event's time)
            if end > first + 1:
                stage.pause, stage.evaluated = "evaluation", True

    def _apply_steps(self, run: StepRun, start: int, times: Sequence[float], *, clock_before: list[float] | None = None,
                     waits: list[int] | None = None, repeats: dict[int, list[tuple[float, bool]]] | None = None) -> None:
        """:meth:`apply_run` of steps only (``clock_before``: the trainer's clock on the line before each step,
        where that is not the step before it; ``waits``: the steps, by their place from ``start``, that
        end an evaluation's wait; ``repeats``: by the same places, the times of lines before each step that printed
        the step before it again)."""
        self._evals_step = False  # (step lines of their own: Stage.apply's)
        stage = self._stage
        assert stage is not None
        taken = len(times)
        end = start + taken
        steps = run.steps[start:end]
        latest = stage.latest
        one_each = steps[-1] - latest.step == taken  # (each step after the one before: one step a line)
        covered = [1] * taken if one_each else list(map(operator.sub, steps, chain((latest.step,), steps)))
        elapsed = run.column("elapsed_seconds")
        if elapsed is not None and clock_before is not None:
            seconds = list(map(operator.sub, elapsed[start:end], clock_before))
        elif elapsed is not None:  # the trainer's own clock between lines (timing.line_seconds)
            seconds = list(map(operator.sub, elapsed[start:end], chain((latest.elapsed_seconds,), elapsed[start:end])))
        elif one_each and (latest.step_seconds is None or math.isfinite(latest.step_seconds)):
            # one step a line: each line's own time (timing.line_seconds)
            seconds = list(map(operator.truediv, run.step_ms[start:end], repeat(1000)))
        else:
            step_seconds = list(map(operator.truediv, run.step_ms[start:end], repeat(1000)))
            before = chain((latest.step_seconds,), step_seconds)
            seconds = [(own if other is None else min(own, other)) * (lines - 1) + own
                       for own, other, lines in zip(step_seconds, before, covered, strict=False)]
        began = list(map(operator.sub, times, seconds))
        line_spans = Intervals(began, times)  # (the steps' and the tokens' windows take the same lines)
        stage.steps.add_intervals(line_spans, covered)
        self.steps_total += sum(covered)
        per_step = self._run.tokens_per_step
        rates = run.column("tokens_per_second")
        if rates is not None or per_step is not None:
            if rates is not None:  # the trainer's tokens a second over each line's time (_tokens)
                tokens = list(map(operator.mul, rates[start:end], seconds))
            elif one_each:
                tokens = [float(per_step)] * taken  # type: ignore[arg-type]
            else:
                tokens = [float(per_step * lines) for lines in covered]  # type: ignore[operator]
            self.tokens_total = reduce(operator.add, tokens, self.tokens_total)
            if stage.token_source != "counter":
                if stage.tokens_since is None:
                    stage.tokens_since, stage.token_source = began[0], "step"
                stage.tokens.add_intervals(line_spans, tokens)
                stage.step_tokens = tokens[-1] / covered[-1]
        elif stage.token_source == "step":
            stage.tokens.clear()  # steps that carry no tokens: the count restarts after the last
            stage.tokens_since = times[-1]
            stage.step_tokens = None
        stage.printed_timing = True
        stage.timed_lines += taken
        stage.lines += taken
        stage.line_durations.extend(seconds[-RECENT_LINES:])
        if stage.spaced or repeats:
            stage.line_gaps.extend(line_gaps(stage.step_time, stage.spaced, times, seconds, repeats or {})[-RECENT_LINES:])
        else:
            stage.line_gaps.extend(seconds[-RECENT_LINES:])
        stage.spaced = False
        stage.covered.extend(covered[-RECENT_LINES:])
        # (_step: the latest line's time held an evaluation printed since the line before it)
        stage.evaluated_last = (taken == 1 and (stage.pause == "evaluation" or stage.evaluated)) or (
            waits is not None and bool(waits) and waits[-1] == taken - 1)
        if (stage.pause == "evaluation" or stage.resumed) and taken <= RECENT_LINES:
            stage.ended_wait.append(True)  # (_step: the first line after an evaluation's ended a wait)
            taken_after = taken - 1
        else:
            taken_after = min(taken, RECENT_LINES)  # (no stall: run_end stops a run before one)
        stage.ended_wait.extend(repeat(False, taken_after))
        if waits:
            for place in waits:
                if place >= taken - RECENT_LINES:
                    stage.ended_wait[place - taken] = True  # (_step: the line after an evaluation's ended a wait)
        last = run.step(end - 1)
        lrs, grads = run.column("lr"), run.column("grad_norm")
        self.health.took_steps(taken, steps[0], last.step, times[-1], lr=_last(lrs, start, end),
                               grad_norms=grads is not None)
        # Stage.take of each: the last is the latest; a finite loss that has not exploded clears a divergence.
        step_time_before = stage.step_time
        stage.before_latest = run.step(end - 2) if end - start > 1 else stage.latest  # (Stage.take of each)
        stage.latest, stage.step_time, stage.moved_at = last, times[-1], times[-1]  # (each step after the one before)
        if last.step_seconds is not None and math.isfinite(last.step_seconds) and not last.logged:
            stage.timed_step = last  # (Stage.take of each: the latest printed step time)
        if elapsed is not None:  # (Stage.take of each: the clock's span)
            stage.note_clock(steps[0] + stage.offset, elapsed[start])
            stage.note_clock(last.step + stage.offset, elapsed[end - 1])
        if (stage.pause == "evaluation" or stage.evaluated) and stage.eval_times and not untimed_pause(
                stage, times[0], seconds[0], clock=elapsed is not None, since=step_time_before):
            stage.eval_pauses.append((stage.eval_times[-1], times[0]))  # (apply: the first line holds the pause)
        # (Stage.take of each: the recent lines' printed times, those after an evaluation's line held its pause)
        held_first, after_evaluation = stage.pause_held(), set(waits or ())
        kept = max(taken - RECENT_LINES, 0)
        for place, each in enumerate(step_seconds_of(run, start + kept, end, rates), kept):
            stage.note_pace(*each, held_first if place == 0 else "evaluation" if place in after_evaluation else None)
        stage.pause = None  # (Stage.take of each: no pause, no evaluation since the latest step, no batches of one)
        stage.evaluated = stage.resumed = False
        stage.eval_batches = None
        stage.eval_lines = False
        stage.end_eval_pass()
        stage.forget_said_end()
        stage.figures.pop(RUN_SECONDS, None)  # (Stage.take of each: a run's time printed before them was no end)
        stage.exploded = False
        stage.diverged_at = stage.diverged_step = stage.diverged_epoch = None
        if stage.eval_diverged and last.loss is not None and math.isfinite(last.loss):
            stage.eval_broken.update(stage.eval_diverged)  # (Stage.take_figures: the training outlived them)
            stage.eval_diverged.clear()
        stage.loss, stage.loss_note = last.loss, last.loss_note
        epochs = run.column("epoch")
        losses = run.step_losses(start, end)
        stage.rise.take_many(steps, losses, None if epochs is None else epochs[start:end], stage.epoch)
        for name in ("lr", "grad_norm", "epoch"):  # (Stage.take_figures: the last a line printed)
            value = _last(run.column(name), start, end)
            if value is not None:
                setattr(stage, name, value)
        if stage.offset:
            steps = tuple(step + stage.offset for step in steps)
        stage.spikes.take_many(steps, losses)

    def _end_without_steps(self, t: float | None) -> None:
        """An end summary read with no step line before it (a tail that holds only the run's end):
        the run is at the step its last evaluations name."""
        steps = [step for _, step in self._pending_evals.values() if step is not None]
        if steps:
            self._new_stage(TrainStep(at=t, stage="train", step=max(steps)), t)

    def _run_info(self, event: RunInfo) -> None:
        run = self._run
        if event.tokens_per_step is not None and event.tokens_per_step > 0:
            run.tokens_per_step = event.tokens_per_step
        if event.device_count is not None and event.device_count > 0:
            run.device_count = event.device_count
        if event.total_steps is not None and event.total_steps > 0:
            run.total_steps = event.total_steps
        if event.total_epochs is not None and event.total_epochs > 0:
            run.total_epochs = event.total_epochs
        if event.gpu_name is not None:
            run.gpu_name = event.gpu_name
        if event.peak_flops is not None or event.peak_flops_unknown:
            run.peak_flops = finite(event.peak_flops)
            run.peak_unknown = event.peak_flops_unknown
        if event.begins and self._stage is None and self._ended is not None and not self._summarised:
            # (an end said with no step line, then training said to start again: that end was the run before's)
            self._ended = self._ended_step = None
        if event.start_step is not None and self._stage is None:
            self._start_step = event.start_step

    def _step(self, event: TrainStep, t: float | None, offset: int) -> None:
        """Take a step line (``offset``: what places it on the run's timeline, timing.timeline_offset)."""
        stage = self._stage
        previous = stage.latest if stage is not None else None
        if stage is not None and not self._restarting and counts_evaluation(stage, event):
            return  # (the evaluation's batches, counted on by the training's bar: no step, no step time)
        if stage is not None and not self._restarting and redrawn_after_end(stage, event):
            return  # (a leftover redraw as the script exits: the end stands, at the position it said)
        # A count that restarts while the run goes on (an epoch's batches counted again) is the same stretch,
        # its steps since the last line counted on the run's one timeline: the rate, the stall limit and the
        # lines seen carry over the epoch's end.
        covered = None if self._restarting or stage is None else \
            timeline_covered(previous, event, stage.offset, offset)
        rolled = stage is not None and covered is not None and covered_steps(stage.latest, event) is None
        if rolled and stage is not None:
            # (the count started again: an evaluation's step was the last epoch's count, not this one's)
            stage.evals = {name: (value, None) for name, (value, _) in stage.evals.items()}
            stage.eval_steps.clear()
        if stage is None or self._restarting or covered is None:
            if stage is not None and previous is not None and same_position(previous, event):
                evaluated_here = (event.loss is not None and t is not None and stage.moved_at is not None
                                  and bool(stage.eval_steps) and stage.eval_steps[-1] == event.step
                                  and bool(stage.eval_times) and stage.eval_times[-1] >= stage.moved_at)
                if offset != stage.offset or evaluated_here:
                    # (its place on the run's timeline moved, though no step is counted; or the step's training record
                    # printed once its evaluation's pass is over, Caffe's ``Iteration 7000, loss = …`` after its ``Testing
                    # net``: the steps after it ran from here, the pass's time is none of theirs)
                    stage.moved_at = t
                stage.offset = offset  # (a new epoch's count may be back where the last one ended)
                stage.space(t, event.loss is not None)  # (a line of its own: when the next is due)
                # (a later training line at the same epoch; a record written twice at one moment is no such line)
                later = (event.loss is not None and t is not None and stage.step_time is not None
                         and t > stage.step_time)
                stage.reprinted = stage.reprinted or later
                if later and t is not None and stage.step_time is not None and epoch_counted(event):
                    stage.reprint_gaps.append(t - stage.step_time)
                stage.take(event, t)  # the same step printed again
                if event.step_seconds is not None or event.elapsed_seconds is not None:
                    stage.printed_timing = True  # (PaddleNLP's bar after its dict at the same step)
                return
            stage = self._new_stage(event, t)
            covered = None
        elif self._placed_early:
            for name, figure in self._placed_early.items():  # (the stage went on: they were its own, filed already)
                if self._pending_evals.get(name) == figure:
                    del self._pending_evals[name]
        self._placed_early = {}
        stage.offset = offset
        self._restarting = False
        if event.step_seconds is not None or event.elapsed_seconds is not None:
            stage.printed_timing = True
        # (an evaluation printed since the last step line: this line's time holds the evaluation's too)
        evaluated = stage is not None and (stage.pause == "evaluation" or stage.evaluated)
        # (an evaluation with no time of its own: this line's time is its steps', unless it came as late as a stall's)
        paused = evaluated and stage is not None and not instant_evaluation(stage)
        waited = (self._note_time(stage, t) or paused) if t is not None else False
        seconds = line_seconds(previous, event, covered) if covered is not None else event.step_seconds
        if covered is not None and previous is not None and seconds is not None:
            gap = clock_gap(previous, event)
            # (a counter printed rounded, ``step:50K``, says too little of the steps between two lines to contradict them)
            if gap is not None and event.step_printed is None and (stage.clock_over_printed or clock_contradicts(seconds, gap)):
                # The log's own dates over a printed time they contradict (timing.clock_contradicts).
                stage.clock_over_printed = True
                seconds = gap
        # (the trainer's running clock's span, when that is what the line's time is: untimed_pause)
        clock_seconds = seconds if (previous is not None and covered is not None and event.elapsed_seconds is not None
                                    and previous.elapsed_seconds is not None
                                    and (rolled or event.elapsed_training_only)) else None
        if t is not None and stage.start is None:
            # The first step we can place: it began one step time earlier (when printed).
            counted = 1 if event.step_seconds is not None else 0
            stage.start = t - event.step_seconds if event.step_seconds is not None else t
            self._count(stage, event, t, counted, event.step_seconds)
            stage.fastest_step = finite(event.step_seconds)
        elif t is not None and covered is not None:
            if seconds is None and stage.step_time is not None:
                # No time printed: the steps took the time since the counter last moved, not since the line before,
                # which may have printed the same step again (PaddleOCR's ``epoch: [9/10]`` on each of the epoch's
                # lines): one epoch spread over that line's minutes would read as an epoch every few minutes.
                seconds = t - (stage.moved_at if stage.moved_at is not None else stage.step_time)
            if (rolled and seconds is not None and stage.step_time is not None
                    and t - stage.step_time > EPOCH_PAUSE_FACTOR * seconds + 1.0):
                # The epoch's end held a pause (its evaluation, a checkpoint) beyond its steps' own time: the
                # rate is measured from this epoch's steps, as the step time beside it is.
                self._measure_from(stage, t - seconds)
            elif seconds is not None and one_off_before(stage, seconds, covered):
                self._measure_from(stage, t - seconds)
            elif seconds is not None and stage.step_time is not None and timer_before(stage, seconds, covered):
                self._measure_from(stage, stage.step_time)
            self._count(stage, event, t, covered, seconds)
            if seconds is not None and covered > 0:
                each = seconds / covered
                stage.fastest_step = each if stage.fastest_step is None else min(stage.fastest_step, each)
            if (stage.lines_left_out or (not rolled and skips_steps(stage, event, covered))
                    or partial_first_epoch(stage, previous, event)):
                # (its steps are counted, as they ran; no time is measured across the steps the log leaves out, where it
                # marks them left out or where its cadence shows them)
                self._measure_from(stage, t, after_this_line=True)
                stage.measured_after_left_out = stage.lines_left_out
            elif seconds is not None:
                stage.line_durations.append(seconds)
                # (after lines that printed the step again: the time since the latest of them, the lines' spacing)
                spaced = t - stage.step_time if stage.spaced and stage.step_time is not None else seconds
                stage.line_gaps.append(spaced)
                stage.covered.append(covered)
                stage.ended_wait.append(waited)
                stage.evaluated_last = evaluated
            if event.row_group is not None:
                self._row_groups(stage, previous, event, covered)
        if evaluated and t is not None and stage.eval_times and not untimed_pause(stage, t, clock_seconds, True):
            stage.eval_pauses.append((stage.eval_times[-1], t))
        stage.lines += 1
        stage.lines_left_out = False
        stage.moved_at, stage.spaced = t, False  # (a new stage's first step, or steps counted: the counter moved)
        stage.reprinted = False
        stage.take(event, t)

    @staticmethod
    def _measure_from(stage: Stage, start: float, after_this_line: bool = False) -> None:
        """Measure the stage's rate from ``start`` on (its lines, cadence and figures stay). The warm-up's words count
        the lines measured from then on: those after the line being taken, or that line and those after it."""
        stage.lines_before_start = stage.lines + (1 if after_this_line else 0)
        stage.measured_after_left_out = False
        stage.steps.clear()
        stage.tokens.clear()
        stage.start = start
        stage.fastest_step = None
        if stage.tokens_since is not None:
            stage.tokens_since = start

    def _note_time(self, stage: Stage, t: float) -> bool:
        """A timed line: count it for the warm-up; after a stall, training resumes with it. True when
        it came after a stall or a pause (an evaluation, a save): its time is not its steps'."""
        stage.timed_lines += 1
        if stage.timed_lines == lines_needed(stage):
            stage.warm_at = t
        gap = t - stage.step_time if stage.step_time is not None else 0.0
        # (the floor first: most steps come well within it, and the full check takes medians)
        if gap <= rules.STALL_FLOOR_SECONDS:
            return False
        verdict = rules.stall(stage, t, self._arrival_gaps, False)
        if verdict.stalled and not finished(stage):
            stage.resumed_at = t
        return verdict.stalled or verdict.pause is not None

    def _new_stage(self, event: TrainStep, t: float | None) -> Stage:
        self._evaluated = None
        previous = self._stage
        # (a stage's first line that counts its epoch says so alone: ``Epoch 1 complete [80%]  Loss: 0.431``)
        stage = Stage(name=event.stage, latest=event, step_time=t, moved_at=t, began_at=t,
                      counts_epochs=epoch_counted(event), first_step=event.step, first_share=event.epoch_percent)
        if (previous is not None and not event.ends_at_total and event.epoch is not None
                and previous.epoch is not None and event.epoch > previous.epoch):
            # A new epoch's count of batches, not a restart: the last epoch's evaluation still stands
            # (its step was the last epoch's count, not this one's).
            stage.evals = {name: (value, None) for name, (value, _) in previous.evals.items()}
            stage.eval_diverged, stage.eval_broken = dict(previous.eval_diverged), set(previous.eval_broken)
        elif (previous is not None and previous.latest.logged and not event.logged and not self._restarting
              and event.stage == previous.name and event.step > 0):
            # Numbered steps after dicts that printed none (HF's bar drawn again after its evaluation's dict): the
            # same run, now counted; the evaluations and the epoch its dicts logged still stand (at no step: a logged
            # count is none).
            stage.evals = {name: (value, None) for name, (value, _) in previous.evals.items()}
            stage.eval_diverged, stage.eval_broken = dict(previous.eval_diverged), set(previous.eval_broken)
            if event.epoch is None:
                stage.epoch = previous.epoch
        # Evaluations printed before a stage's first step (step 0's validation) are its own.
        for name, (value, step) in self._pending_evals.items():
            stage.take_eval(name, value, step, t)
        stage.eval_steps.extend(sorted({s for _, s in self._pending_evals.values() if s is not None}))
        self._pending_evals = {}
        self._stage = stage
        return stage

    def _count(self, stage: Stage, event: TrainStep, t: float, covered: int, seconds: float | None) -> None:
        began = t - seconds if seconds is not None and seconds > 0 else t
        if covered > 0:
            stage.steps.add(began, t, covered)
            self.steps_total += covered
        tokens = self._tokens(event, covered, seconds)
        if tokens is not None and covered > 0:
            self.tokens_total += tokens
        if tokens is not None and stage.token_source != "counter":
            if stage.tokens_since is None:
                stage.tokens_since = began if covered > 0 else t
                stage.token_source = "step"
            if covered > 0:
                stage.tokens.add(began, t, tokens)
                stage.step_tokens = tokens / covered
        elif tokens is None and stage.token_source == "step":
            # A step that carries no tokens: restart the token count from here, never guess.
            stage.tokens.clear()
            stage.tokens_since = t
            stage.step_tokens = None

    def _tokens(self, event: TrainStep, covered: int, seconds: float | None) -> float | None:
        if covered <= 0:
            return None
        if event.tokens is not None:
            return finite(event.tokens)
        if self._run.tokens_per_step is not None and event.tokens_per_second is None:
            return float(self._run.tokens_per_step * covered)
        rate = finite(event.tokens_per_second)
        if rate is not None and seconds is not None and seconds >= 0:
            if event.per_device and self._run.device_count is not None:
                rate *= self._run.device_count
            return rate * seconds
        return None

    def _row_groups(self, stage: Stage, previous: TrainStep | None, event: TrainStep, covered: int) -> None:
        if (
            previous is not None
            and event.row_group is not None
            and previous.row_group is not None
            and event.parquet_index == previous.parquet_index
            and event.epoch == previous.epoch
            and event.row_group >= previous.row_group
        ):
            stage.row_groups.append((event.row_group - previous.row_group, covered))

    def _figures(self, event: StepFigures, t: float | None) -> None:
        stage = self._stage
        if stage is None:
            return
        stage.take_figures(event, t)
        seen = event.tokens_seen
        if seen is None or t is None or stage.token_source == "step":
            return
        last = stage.counter
        stage.counter = (t, seen)
        if last is None or seen < last[1]:
            stage.tokens.clear()
            stage.tokens_since = None
            return
        if stage.tokens_since is None:
            stage.tokens_since = last[0]
            stage.token_source = "counter"
        stage.tokens.add(last[0], t, float(seen - last[1]))

    def _eval_as_step(self, event: EvalResult, t: float | None) -> bool:
        """Take a training-loss evaluation as the run's step where the log prints no step line: a second one at a
        later step with no step line between says the evaluations are the run's only record (one at step 0, before
        the first step line, is only nanoGPT's first evaluation; a resumed run's first one is followed by its step)."""
        if event.name != TRAIN_LOSS_EVAL or event.step is None or event.value is None:
            return False
        if self._stage is not None and not self._evals_step:
            return False
        previous, self._train_eval_step = self._train_eval_step, event.step
        if not self._evals_step and (previous is None or event.step <= previous):
            return False
        if self._stage is not None and event.step <= self._stage.latest.step:
            return False
        self._pending_evals.pop(TRAIN_LOSS_EVAL, None)  # (the earlier ones were this loss too, not an evaluation)
        self.apply(TrainStep(None, "train", event.step, loss=event.value, loss_note=EVAL_LOSS_NOTE), t)
        self._evals_step = True
        return True

    @staticmethod
    def _earlier_step(stage: Stage, step: int | None) -> bool:
        """Whether an evaluation's step is one this stage trained through already (a step 0's is none: the validation a
        run starts with, the next stage's)."""
        return step is not None and stage.finished is None and 0 < step < stage.latest.step

    def _eval(self, event: EvalResult, t: float | None) -> None:
        if self._eval_as_step(event, t):
            return
        stage = self._stage
        figure = (event.value, event.step)
        if (
            stage is None
            # (after the end, at its last step: the run's final evaluation, ``Final eval accuracy: 0.83``; at
            # another step, the next stage's first)
            or (event.step is not None and stage.finished is not None and event.step != stage.latest.step)
            # (an earlier step's: held, or placed below; one printed late, tied to its step by the checkpoint saved
            # after it, is that step's at once)
            or (event.step is not None and event.step < stage.latest.step and not event.late)
        ):
            # Printed before the next stage's first step (its step-0 validation).
            self._pending_evals[event.name] = figure
            if stage is None:
                self._evaluating_ended = True  # (a result of the pass before any step: it is over)
            if stage is None or not self._earlier_step(stage, event.step):
                return
            # An earlier step of this stage's (``eval at step 400: acc 0.71`` printed at step 600, an evaluation run
            # beside the training): that step's evaluation now, the position kept; still the next stage's too where a
            # step going back starts one (a resumed run's validation of the step it resumes from)
            self._placed_early[event.name] = figure
        step: int | None = event.step if event.step is not None else stage.latest.step
        scored = scored_by(event.name)
        if scored is not None and event.value is not None:
            if scored[0]:
                # A best so far is the step's where that figure was first printed (``Best test accuracy: 85.38%``
                # after the last epoch, reached at epoch 32): that step, or none where it was never read.
                step = self._first_scored.get((scored[1], event.value))
            elif step is not None and len(self._first_scored) < SCORED_KEPT:
                self._first_scored.setdefault((scored[1], event.value), step)
        stage.take_eval(event.name, event.value, step, t)
        if event.step is None:
            stage.evals_placed.add(event.name)  # (JointBERT's results block prints no step: at the one logged before it)
        else:
            stage.evals_placed.discard(event.name)
        if event.step is not None and (not stage.eval_steps or stage.eval_steps[-1] < event.step):
            stage.eval_steps.append(event.step)  # (an earlier step's, printed late, says nothing of the cadence)
        stage.end_eval_pass()  # (its result printed: the pass is over, whatever the run does next)
        if stage.finished is None:
            # (an evaluation's last line ends it: YOLO's ``all`` row, after which the next epoch trains)
            stage.pause = None if event.closes else "evaluation"
            stage.evaluated = True
        at = t if t is not None else stage.step_time
        if at is not None:
            stage.eval_times.append(at)
        stage.eval_dated = event.at is not None  # (its own time printed: instant_evaluation)

    # --- reading ----------------------------------------------------------------

    def tokens_per_hour(self, now: float) -> float | None:
        """The measured rate at ``now``, or None (the value the history ring keeps)."""
        stage = self._stage
        if stage is None:
            return None
        return measure(stage, now).tokens_per_hour

    # --- what the verdict reads (app/stats/steps/report.py) --------------------------

    @property
    def stage(self) -> Stage | None:
        """The current stage, or None before the first step."""
        return self._stage

    @property
    def restarting(self) -> bool:
        """A new run announced itself and its first step is not read yet."""
        return self._restarting

    @property
    def restart_at(self) -> float | None:
        return self._restart_at

    @property
    def run(self) -> RunFacts:
        return self._run

    @property
    def all_reduce(self) -> AllReduce | None:
        return self._all_reduce

    @property
    def errors(self) -> Errors | None:
        return self._errors

    @property
    def collab(self) -> CollabProgress | None:
        return self._collab

    @property
    def ended(self) -> tuple[str, float | None, bool] | None:
        """The run's end read before any step line: its words, when it was read, whether it stopped early."""
        return self._ended

    @property
    def ended_step(self) -> int | None:
        """The run's last step as its closing lines name it (wandb's), when no step line was read; else None."""
        return self._ended_step if self._stage is None else None

    @property
    def summarised(self) -> bool:
        """True when that end is the trainer's summary of its training (not only a stop said in words)."""
        return self._summarised

    @property
    def start_step(self) -> tuple[str, int] | None:
        """The step the run's start line says training starts from (its unit's word, the count), while no step is read."""
        return self._start_step if self._stage is None else None

    @property
    def training_since(self) -> float | None:
        """When the trainer announced that training starts, if it did before any step line."""
        return self._training_since

    @property
    def evaluated(self) -> tuple[str, float | None] | None:
        """An evaluation job's end read before any training step: its line, when it was read."""
        return self._evaluated

    @property
    def evaluating(self) -> TrainingPause | None:
        """A validation pass under way before any training step (its batches done and planned), or None."""
        return self._evaluating

    @property
    def validating(self) -> bool:
        """The validation pass before any training step is under way: its latest line short of its batches, no result
        read after it."""
        under_way = self._evaluating
        return (under_way is not None and not self._evaluating_ended and under_way.done is not None
                and under_way.batches is not None and under_way.done < under_way.batches)

    @property
    def pending_evals(self) -> dict[str, tuple[float | None, int | None]]:
        """Evaluations read before the next stage's first step: name → (value, step)."""
        return self._pending_evals

    @property
    def arrival_gaps(self) -> Sequence[float]:
        return self._arrival_gaps

    @property
    def arrival_steps(self) -> Sequence[int]:
        return self._arrival_steps

    def counts_tokens(self) -> bool:
        """True when this stage's steps carry token counts, so a tok/h can be measured at all
        (an RL stage or an SN38 miner prints none)."""
        stage = self._stage
        return stage is not None and (stage.tokens_since is not None or self._run.tokens_per_step is not None)

    def tokens_per_device(self) -> bool:
        """The trainer's tok/s is per device and the device count is not known: a rate per GPU."""
        stage = self._stage
        return (stage is not None and stage.latest.per_device and stage.latest.tokens is None
                and self._run.device_count is None and stage.token_source == "step")  # a step's own tokens are global


def first_false(checks: Iterable[bool], default: int) -> int:
    """The index of the first false check, or ``default`` when none is."""
    return next(compress(count(), map(operator.not_, checks)), default)


# A run's columns the bulk path applies as the steps one by one would: each kept as its last value
# (the latest step's), the clock's and the token rate's read into each line's time and tokens.
_BULK_COLUMNS = frozenset({"total_steps", "progress_percent", "lr", "lr_multiplier", "grad_norm", "elapsed_seconds",
                           "tokens_per_second", "trainer_eta_seconds", "epoch"})


def _bulk_columns(run: StepRun, stage: Stage, start: int, taken: int) -> bool:
    """Whether ``run``'s other columns, from ``start``, may go in bulk after ``stage``'s latest step: none
    that needs a step alone (a new epoch, the planned total reached, a row group, a grad norm that is
    not a number, a zero loss the health reads, a time or a token rate that is missing)."""
    if not run.columns:
        return True
    end = start + taken
    latest = stage.latest
    for name, column in run.columns:
        values = column[start:end]
        if name not in _BULK_COLUMNS:
            return False
        if name == "epoch":
            if values.count(latest.epoch) != len(values):  # (a new epoch)
                return False
        elif name == "total_steps":
            least = min(values) if None not in values else None
            if not least or max(run.steps[start:end]) >= least:  # (the planned total reached: Stage.take's done_at)
                return False
        elif name == "grad_norm":
            if None in values or not math.isfinite(sum(values)):
                return False
        elif name == "elapsed_seconds":
            if None in values or latest.elapsed_seconds is None or not all(
                    map(operator.lt, chain((latest.elapsed_seconds,), values), values)):
                return False
        elif name == "tokens_per_second" and (None in values or min(values) <= 0):
            return False
    return not (0.0 in run.losses[start:end] and (run.column("lr") is not None or run.column("grad_norm") is not None))



def line_gaps(before: float | None, spaced: bool, times: Sequence[float], seconds: Sequence[float],
              repeats: dict[int, list[tuple[float, bool]]]) -> list[float]:
    """The lines' spacing of steps taken at ``times`` (``seconds``: each one's time), as Stage.space and _step of each
    line in turn keep it: ``repeats``, by the place of the step after them, lines that printed the step before again
    (their time, and whether each is a training line);
    ``before``: the latest line's time, ``spaced``: a line printed its step again, apart, since it moved."""
    gaps: list[float] = []
    for place, (t, own) in enumerate(zip(times, seconds, strict=True)):
        for again, trains in repeats.get(place, ()):
            if trains and before is not None and again - before >= SAME_MOMENT_SECONDS:
                gaps.append(again - before)
                spaced = True
            before = again
        gaps.append(t - before if spaced and before is not None else own)
        before, spaced = t, False
    return gaps


def _last(column: tuple[Any, ...] | None, start: int, end: int) -> Any:
    """The last value in ``column[start:end]`` that is not None (None: none)."""
    if column is None:
        return None
    if end > start and column[end - 1] is not None:
        return column[end - 1]  # (the usual case: the last line printed it)
    return next((value for value in reversed(column[start:end]) if value is not None), None)


def step_seconds_of(run: StepRun, start: int, end: int,
                    rates: tuple[Any, ...] | None) -> Iterator[tuple[float | None, float | None]]:
    """Each line's printed time of one step from ``start`` to ``end``, and its tokens a second (None: not printed)."""
    for k in range(start, end):
        ms = run.step_ms[k]
        yield (ms / 1000 if ms > 0 else None), (None if rates is None else rates[k])
