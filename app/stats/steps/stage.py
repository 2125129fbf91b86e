"""One stage of a step trainer's run and what is measured in it: the state the tracker keeps."""

from __future__ import annotations

import math
import re
import statistics
from collections import deque
from dataclasses import dataclass, field, replace

from ... import text
from ...snapshot import RateView, WarmupView
from ..events import (
    DATA_UNITS,
    EPOCH_SECONDS,
    EPOCH_STEP_SECONDS,
    LOGGING_INTERVAL_SECONDS,
    RUN_SECONDS,
    TIMED_EPOCH,
    SharedBar,
    StepFigures,
    TrainingPause,
    TrainStep,
)
from ..tracker import RATE_WINDOW_SECONDS, WARMUP_COUNT, WARMUP_SECONDS
from .intervals import IntervalWindow
from .rising import LossRise
from .spikes import Spikes

RECENT_LINES = 21
# No step for this many times the usual time between step lines is a stall (app/stats/steps/rules.py);
# lines further apart than the rate window hold their rate this long (:func:`measure`).
STALL_FACTOR = 6
# A line that prints the latest step again less than this after the line before is the same moment printed again (a
# dict and its bar; each of an FSDP run's ranks, its bar's whole-second clock a second off the others':
# meta-llama/llama-cookbook#408), not a line of its own in the lines' spacing. Lines this close could only set the stall floor (90 s / 6).
SAME_MOMENT_SECONDS = 15.0
LOGGED_WARMUP_COUNT = 2
# Evaluation figures that go to nan or inf only when the model has (val loss, bits per byte,
# perplexity); an accuracy or a score may be nan for reasons of its own (nothing to score).
DIVERGENCE_EVALS = re.compile(r"loss|bpb|perplexity|ppl")
# A loss that grows by orders of magnitude has diverged while still a number (an fp32 run's loss
# going 0.6 → 2e5 → 2e10 before it ever prints nan): at EXPLODED_FACTOR times the median of the
# run's first EARLY_LOSSES finite losses or more. Healthy runs fall from their early loss; noise,
# a new data mix or a warm restart moves a loss by a few times, not a thousand.
EXPLODED_FACTOR = 1000.0
EARLY_LOSSES = 5
# A step line's printed time that held a pause (an evaluation or a checkpoint's save printed since the line before, its
# trainer timing the whole loop: nanoGPT's ``iter 5000: … time 4749.53ms`` after ``step 5000: train loss …``) and is more
# than PAUSED_STEP_FACTOR times the median of the recent printed times that held none is the pause's more than the step's:
# that median, of STEADY_LINES lines at least, is the step time shown. A time that rose with no pause before it is the
# run's own slowdown and is shown as printed.
PAUSED_STEP_FACTOR = 2.0
STEADY_LINES = 3


def finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


@dataclass(slots=True)
class RunFacts:
    """What the trainer printed about the whole run (tokens per step, devices, GPU)."""

    tokens_per_step: int | None = None
    device_count: int | None = None
    gpu_name: str | None = None
    peak_flops: float | None = None
    peak_unknown: bool = False
    total_steps: int | None = None  # planned, as an init line says (torchtitan, HF's header)
    total_epochs: int | None = None  # planned epochs, said before the first step (YOLO's ``Starting training for 50 epochs...``)


@dataclass(slots=True)
class Stage:
    """One stage (or stretch after a restart) and everything measured in it."""

    name: str
    latest: TrainStep
    step_time: float | None  # when the latest step was seen
    # When the counter last moved (the latest step's first line, or its count's place on the run's timeline moved): later
    # lines may print the same step again (a counter that moves once every several lines: PaddleOCR's ``epoch: [9/10]``
    # on each of an epoch's lines).
    moved_at: float | None = None
    # The step line before the latest (a bar's redraw is matched against either: two counters may take turns,
    # verl's epoch bar and its ``step:N`` records).
    before_latest: TrainStep | None = None
    start: float | None = None  # measurement start: when the first counted step began
    first_step: int | None = None  # the count of the stage's first step line (the run's share a printed run time spans)
    tokens_since: float | None = None
    token_source: str | None = None  # "step" (each line carries tokens) or "counter" (HF)
    step_tokens: float | None = None  # tokens a step of the latest counted line (each line carries tokens)
    lines: int = 0
    lines_before_start: int = 0  # of those, the lines before the measurement's start (the warm-up's words leave them out)
    timed_lines: int = 0  # lines placed in time (the warm-up counts these)
    printed_timing: bool = False  # a line carried a duration or a clock of its own
    # The log's own dates contradicted a printed duration (timing.clock_contradicts): the field is not a step's
    # time, and dated lines are timed by the dates from then on.
    clock_over_printed: bool = False
    steps: IntervalWindow = field(default_factory=lambda: IntervalWindow(RATE_WINDOW_SECONDS))
    tokens: IntervalWindow = field(default_factory=lambda: IntervalWindow(RATE_WINDOW_SECONDS))
    line_durations: deque[float] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    # The time between the stage's step lines, any two in a row: when the next line is due (the stall limit). Where a
    # counter prints the same step again between its moves (PaddleOCR's ``epoch: [9/10]`` on each of an epoch's dated
    # lines, minutes apart), those lines too; line_durations holds the time between moves (the rate's). Elsewhere the two
    # are the same.
    line_gaps: deque[float] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    spaced: bool = False  # a line printed the latest step again, apart in time, since the counter last moved
    # A training line printed the latest step again since the counter last moved (an epoch's every batch line names it:
    # ``Epoch 16 - Batch loss: 0.0029``): the stage's first such epoch began before its first line, where the log does
    # not show (progress.partial_first_epoch).
    reprinted: bool = False
    # The time between such training lines of one epoch, each after the line before (its lines' pace, where they name
    # only their epoch and no batch: the one time the lines measure before an epoch is seen whole).
    reprint_gaps: deque[float] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    first_share: float | None = None  # the stage's first line's share of its epoch, where printed (``Epoch 1 [0%]``)
    covered: deque[int] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    ended_wait: deque[bool] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))  # after a stall or a pause
    row_groups: deque[tuple[int, int]] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))  # (groups, steps)
    figures: dict[str, float] = field(default_factory=dict)
    loss: float | None = None
    loss_note: str | None = None
    lr: float | None = None
    grad_norm: float | None = None
    epoch: float | None = None
    counter: tuple[float, int] | None = None  # (time, tokens seen) of HF's last counter reading
    evals: dict[str, tuple[float | None, int | None]] = field(default_factory=dict)
    eval_steps: deque[int] = field(default_factory=lambda: deque(maxlen=4))
    # evaluations read with no step, kept at the step logged before them (said so where shown)
    evals_placed: set[str] = field(default_factory=set)
    pause: str | None = None
    evaluated: bool = False  # an evaluation printed since the latest step line (the next line's time holds it)
    resumed: bool = False  # training said it went on after that evaluation's pause (the next line's time holds it)
    lines_left_out: bool = False  # the log marked lines left out since the latest step line (events.LinesLeftOut)
    measured_after_left_out: bool = False  # the rate is measured again from the step line after such a mark
    evaluated_last: bool = False  # the latest line's time held an evaluation printed since the line before it
    eval_batches: int | None = None  # the total of the evaluation's own bar since the latest step line
    # An evaluation's pass under way since the latest step line: its latest record (its batches done and its bar's
    # total, where printed; none: its start said alone), and when the pass's first record came. A result, a step line
    # or the training said to go on again ends it.
    eval_pass: TrainingPause | None = None
    # The epoch's bar counting that pass on after the training's batches, as its newest record says (events.SharedBar):
    # where the epoch is, and its time left. Kept until the next step line (the bar's close at its total is no step).
    shared_bar: SharedBar | None = None
    eval_lines: bool = False  # an evaluation's pass printed lines of its own since the latest step line
    eval_dated: bool = False  # the latest evaluation's result carried its own time (its line's)
    eval_pass_since: float | None = None
    finished: str | None = None  # the trainer's end summary
    # When the state began: measuring (the stage's start), training (warm-up over or a step after
    # a stall), done (the last step, or the end summary), diverged (the first non-finite loss).
    began_at: float | None = None
    warm_at: float | None = None  # when the third timed line arrived
    resumed_at: float | None = None
    done_at: float | None = None
    said_end_at: float | None = None  # when the run said it stops (a stop message), until a step follows
    stop_message: str | None = None  # the run said it stopped before its plan (a wall-clock cap, an early stop)
    # When the run said only that it saved its model (mid-run saves look the same), until a step follows: the
    # end once the next step is overdue (app/stats/steps/verdict.py), and that message.
    saved_at: float | None = None
    saved_message: str | None = None
    diverged_at: float | None = None
    diverged_step: int | None = None  # the step whose loss was first not a number
    # Its epoch, where its step counts batches (or samples) within an epoch: a Keras bar's 9595 is no step of the run.
    diverged_epoch: float | None = None
    # Evaluations of a loss whose latest figure is not a number, and when each first was.
    eval_diverged: dict[str, float | None] = field(default_factory=dict)
    # Those a finite training loss came after: the same weights still give a number (an evaluation's own overflow in
    # half precision, an empty batch), so the evaluation broke, not the run.
    eval_broken: set[str] = field(default_factory=set)
    early_losses: list[float] = field(default_factory=list)  # the first finite ones (the explosion's baseline)
    early_median: float | None = None  # their median, kept as they come (not sorted again at every step)
    exploded: bool = False  # the latest loss is EXPLODED_FACTOR × the early ones or more
    spikes: Spikes = field(default_factory=Spikes)  # loss spikes that recover (spikes.py)
    rise: LossRise = field(default_factory=LossRise)  # a loss that keeps rising (rising.py)
    offset: int = 0  # the latest step's place on the run's one timeline is its step + this (timing.timeline_offset)
    line_stride: int | None = None  # steps between the latest two step lines taken one by one (untimed lines)
    # Each line's step is its epoch, and it moved from one line to the next (one line an epoch: CLTR's
    # ``Training Epoch:[855/1500]``, a JSON log of epochs): its count, time and rate are the epochs'.
    counts_epochs: bool = False
    # The trainer's own clock read on a step (StyleTTS2's ``Time elasped:`` under each step line): the first and latest
    # (place on the timeline, seconds) since the clock last went back, for a step time worked out from the two.
    clock_from: tuple[int, float] | None = None
    clock_to: tuple[int, float] | None = None
    # The trainer's own ETA read on the latest two lines of one bar (Keras' ``34/100 [=====>....] - ETA: 1:48`` then
    # ``35/100 … - ETA: 1:47``), where no line prints a step's time: for a step time worked out from them.
    eta_from: TrainStep | None = None
    eta_to: TrainStep | None = None
    # The latest step line that printed its step's time (a closing bar's ``1.14s/it``): kept where the lines after it
    # print none (the next epoch's bar at ``0/101 [00:00<?, ?it/s]``, then a crash).
    timed_step: TrainStep | None = None
    # The shortest time of one step among the lines measured since the rate's start (progress.one_off_before).
    fastest_step: float | None = None
    # When the latest evaluations were printed (their line's time, else the step's before them): a rate measured over
    # one holds its pause (Measure.evaluations).
    eval_times: deque[float] = field(default_factory=lambda: deque(maxlen=4))
    # Each of those pauses as it ended: (the evaluation's time, the time of the step line after it, which holds it).
    eval_pauses: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=4))
    # The recent step lines' printed times of one step whose time held no pause, each with its tokens a second where
    # printed (steady_step), and the pause the latest step line's time held ("evaluation", "checkpoint"), else None.
    steady: deque[tuple[float, float | None]] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    held_pause: str | None = None
    # The latest epoch's average seconds an iteration as printed when it ended: (that epoch, the seconds).
    epoch_average: tuple[float, float] | None = None
    # The latest epoch whose own time a line printed, and those seconds (MXNet's ``Epoch[5] Time cost=1.627``): still
    # that epoch's once the next epoch's lines go on without one.
    epoch_time: tuple[float | None, float] | None = None

    def take_eval(self, name: str, value: float | None, step: int | None, t: float | None) -> None:
        """Keep an evaluation's figure; a loss-like one that is not a number is a divergence."""
        self.evals[name] = (value, step)
        if not DIVERGENCE_EVALS.search(name.lower()) or value is None:
            return
        if math.isfinite(value):
            self.eval_diverged.pop(name, None)
            self.eval_broken.discard(name)
        elif name not in self.eval_diverged:
            self.eval_broken.discard(name)
            self.eval_diverged[name] = t if t is not None else self.step_time

    def space(self, t: float | None, trains: bool) -> None:
        """Keep the time since the line before of a line at ``t`` that prints the latest step again, where it is a
        training line (``trains``: it prints a training loss; an evaluation's line, or one that only names the step,
        times the evaluation, not the training's lines: Caffe's test outputs after its last iteration's line)."""
        if trains and t is not None and self.step_time is not None and t - self.step_time >= SAME_MOMENT_SECONDS:
            self.line_gaps.append(t - self.step_time)
            self.spaced = True

    def take_eval_pass(self, pause: TrainingPause, t: float | None) -> None:
        """Keep an evaluation's record of its pass (its start, or its batches so far) as where that pass is; another
        pause (a checkpoint's) ends it."""
        if pause.reason != "evaluation":
            self.end_eval_pass()
            return
        self.eval_lines = True
        if self.eval_pass is None:
            # (a log whose lines carry no time of their own gives none for its evaluation: no "since" is claimed)
            self.eval_pass_since = t if pause.at is not None or self.latest.at is not None else None
        self.eval_pass = pause

    def take_shared_bar(self, bar: SharedBar) -> None:
        """Keep the newest record of the epoch's bar that counts the validation on after the training (events.SharedBar).
        The latest step, where it is the training's last batch read on that bar (``3/13`` before a validation of 10),
        counts the epoch's training share: its batches of the epoch are those 3, never the bar's 13."""
        latest = self.latest
        if latest.step == bar.trained and latest.total_steps == bar.total and not latest.ends_at_total:
            trained = replace(latest, total_steps=None, epoch_steps=bar.trained)
            if self.timed_step is latest:
                self.timed_step = trained
            self.latest = trained
        self.shared_bar = bar

    def end_eval_pass(self) -> None:
        """The evaluation's pass is over (its result, a step line, the training said to go on)."""
        self.eval_pass = self.eval_pass_since = None

    def forget_said_end(self) -> None:
        """A step came after the run said it stops (or summed up): it was not the end."""
        self.finished = None
        self.said_end_at = self.stop_message = self.saved_at = self.saved_message = None

    def note_clock(self, place: int, seconds: float | None) -> None:
        """Keep the trainer's clock at the step at ``place`` on the timeline; a clock or a step that goes back
        (a restart, an epoch's own clock) starts the span again."""
        if seconds is None or not math.isfinite(seconds):
            return
        newest = self.clock_to or self.clock_from
        if newest is None or seconds < newest[1] or place < newest[0]:
            self.clock_from, self.clock_to = (place, seconds), None
        elif place > newest[0]:
            self.clock_to = (place, seconds)

    def note_eta(self, event: TrainStep) -> None:
        """Keep the trainer's ETA on ``event`` beside the one before where it goes on that line's bar (the same total,
        epoch and count's unit, further on); any other line with an ETA starts the pair again, one without ends it."""
        newest = self.eta_to or self.eta_from
        if finite(event.trainer_eta_seconds) is None or event.total_steps is None or event.logged or event.run_eta:
            self.eta_from = self.eta_to = None
        elif (newest is None or newest.total_steps != event.total_steps or newest.epoch != event.epoch
              or newest.counter != event.counter or event.step <= newest.step):
            self.eta_from, self.eta_to = event, None
        else:
            self.eta_from, self.eta_to = newest, event

    def pause_held(self) -> str | None:
        """The pause printed since the latest step line, which the next step line's time holds: an evaluation (its
        results, its pass), else a checkpoint's save; None where there was none."""
        if self.pause == "evaluation" or self.evaluated:
            return "evaluation"
        return "checkpoint" if self.pause == "checkpoint" or self.saved_at is not None else None

    def note_pace(self, seconds: float | None, rate: float | None, held: str | None) -> None:
        """Keep a new step line's printed time of one step (and its tokens a second) among the steady ones where it
        held no pause (``held``: the one printed since the line before), and the pause it held."""
        self.held_pause = held
        if held is None and seconds is not None and math.isfinite(seconds) and seconds > 0:
            self.steady.append((seconds, finite(rate)))

    def take(self, event: TrainStep, t: float | None) -> None:
        """Make ``event`` the latest step (seen at ``t``): it ends a pause and any end summary."""
        amends = event.amends and event is not self.latest and same_position(self.latest, event)
        if event is self.latest or not same_position(self.latest, event):
            self.note_pace(None if event.logged else event.step_seconds, event.tokens_per_second, self.pause_held())
        elif (held := self.pause_held()) is not None:
            self.held_pause = held  # (the same step printed again after a pause: its time holds that pause too)
        self.note_clock(event.step + self.offset, event.elapsed_seconds)
        self.note_eta(event)
        if event.step_seconds is not None and math.isfinite(event.step_seconds) and not event.logged:
            self.timed_step = event
        if event.step > self.latest.step and event.stage == self.latest.stage:
            self.line_stride = event.step - self.latest.step
        shared = event.epoch_percent is not None and event.epoch_percent != self.latest.epoch_percent
        if event.step != self.latest.step or event.stage != self.latest.stage or shared:
            # (a share of the epoch that moved is the epoch's line going on: ``Epoch 1 [70%]`` then ``[80%]``)
            self.counts_epochs = event.stage == self.latest.stage and epoch_counted(self.latest) and epoch_counted(event)
        elif self.line_stride is None and event is not self.latest and not amends:
            # (the first line's position said again before it moved: no epoch a line, litgpt's ``Epoch 1 | iter 46 step 1``
            # held over its iterations)
            self.counts_epochs = False
        part, self.latest = self.latest, event
        if not amends:
            self.before_latest = part  # (a record completed by a later read is the same step: the one before stays)
        if t is not None and not amends:
            self.step_time = t  # (a record completed by a later read is its step's, seen when its first part was)
        self.pause = None
        self.evaluated = self.resumed = False
        self.eval_batches = None
        self.eval_lines = False
        self.end_eval_pass()
        self.shared_bar = None
        self.forget_said_end()
        if not amends:
            self.figures.pop(RUN_SECONDS, None)  # (a step after a run's time printed: that time was not the run's end)
        if amends:
            # (the whole record's figures in place of its part's; a loss it gives where the part gave one is that
            # step's loss read again from the whole record, not one more logged: shown, not counted)
            for name, _ in part.figures:
                self.figures.pop(name, None)
            self.take_figures(replace(event, loss=None, loss_note=None) if part.loss is not None else event, t)
            if event.loss is not None and part.loss is not None:
                self.loss, self.loss_note = event.loss, event.loss_note
        else:
            self.take_figures(event, t)
        if (self.done_at is None and event.total_steps and event.step >= event.total_steps
                and event.ends_at_total):
            self.done_at = t if t is not None else self.step_time

    def take_figures(self, event: TrainStep | StepFigures, t: float | None = None) -> None:
        """Keep the loss, learning rate, grad norm, epoch and other figures the line carries."""
        loss = event.loss
        if loss is not None:
            self.exploded = exploded(self.early_median, loss)
            if math.isfinite(loss) and not self.exploded:
                if len(self.early_losses) < EARLY_LOSSES:
                    self.early_losses.append(loss)
                    self.early_median = statistics.median(self.early_losses)
                self.diverged_at = self.diverged_step = None
                if self.eval_diverged:
                    self.eval_broken.update(self.eval_diverged)
                    self.eval_diverged.clear()
            elif self.diverged_at is None and self.diverged_step is None:  # (an undated log's time is None)
                self.diverged_at = t if t is not None else self.step_time
                self.diverged_step = self.latest.step
                self.diverged_epoch = event.epoch if event.epoch is not None else self.epoch
            self.loss, self.loss_note = event.loss, event.loss_note
            self.spikes.take(self.latest.step + self.offset, loss)
            self.rise.take(self.latest.step, loss, event.epoch if event.epoch is not None else self.epoch)
        if event.lr is not None:
            self.lr = event.lr
        if event.grad_norm is not None:
            self.grad_norm = event.grad_norm
        if event.epoch is not None:
            self.epoch = event.epoch
        if event.figures:
            figures = dict(event.figures)
            average = figures.pop(EPOCH_STEP_SECONDS, None)
            if average is not None and event.epoch is not None and math.isfinite(average) and average > 0:
                self.epoch_average = (event.epoch, average)
            timed = figures.pop(TIMED_EPOCH, None)  # (the epoch the time is of, where its line says)
            took = figures.get(EPOCH_SECONDS)
            if took is not None and math.isfinite(took) and took > 0:
                self.epoch_time = (timed if timed is not None else event.epoch if event.epoch is not None else self.epoch,
                                   took)
            self.figures.update(figures)
        if isinstance(event, TrainStep) and event.step_seconds is not None:
            # (a logging interval's time kept as printed while the steps it spans were not in the log: a step timed
            # since is the run's time now, and the older interval no figure of the latest line's)
            self.figures.pop(LOGGING_INTERVAL_SECONDS, None)
            if not any(name == "time/time" for name, _ in event.figures):
                # (a bare ``time:`` an earlier record printed, where no step's time was read from it: this record's was,
                # and the older figure no figure of the latest record's)
                self.figures.pop("time/time", None)


@dataclass(slots=True)
class AllReduce:
    """The all-reduce rounds of a decentralised run (SN38): counts and the last error."""

    succeeded: int = 0
    failed: int = 0
    peers: int | None = None
    last_error: str | None = None
    last_ok: bool | None = None


@dataclass(slots=True)
class Errors:
    """Errors the trainer reported besides all-reduce results: how many, and the last."""

    count: int = 0
    last: str | None = None
    last_at: float | None = None


@dataclass(frozen=True, slots=True)
class Measure:
    """The stage's rate at one moment, under the shared rules."""

    start: float | None
    observed_seconds: float
    lines: int
    steps_in_window: float
    steps_per_hour: float | None
    tokens_per_hour: float | None
    done: bool
    needed: int = WARMUP_COUNT  # timed lines before a rate is shown
    logged: bool = False  # the lines are logged dicts, not numbered steps
    paced: bool = False  # the rate is the trainer's own time per step (lines too sparse to wait for)
    untimed: bool = False  # no line gave a time to measure by (no_timing): no warm-up to count down
    epochs: bool = False  # the lines count epochs, one a line (Stage.counts_epochs)
    evaluations: bool = False  # the stretch measured holds an evaluation's pause (the run's pace, said so)
    # The usual time between lines, where the stretch outlasts the window (the time observed, capped, tells no pace).
    line_pace: float | None = None
    counter: str | None = None  # the log's own word for what its lines count, where no step (TrainStep.counter)
    # The steps' steady pace before a pause the latest line's time held (steady_step): worked out once a verdict
    # (verdict.decide), read by the step time, its note and the tokens a second shown
    steady: tuple[float, float | None] | None = None

    def rate_view(self, tokens_per_step: int | None) -> RateView:
        per_step = tokens_per_step
        if self.tokens_per_hour is not None and self.steps_per_hour:
            per_step = int(self.tokens_per_hour / self.steps_per_hour)
        return RateView(
            measured=self.tokens_per_hour is not None,
            tokens_per_hour=self.tokens_per_hour,
            passes_per_hour=self.steps_per_hour,
            tokens_per_pass=per_step,
            passes_in_window=int(self.steps_in_window),
            observed_seconds=self.observed_seconds,
            window_seconds=float(RATE_WINDOW_SECONDS),
        )

    def warmup_view(self) -> WarmupView:
        return WarmupView(
            passes=self.lines,
            passes_needed=self.needed,
            observed_seconds=self.observed_seconds,
            seconds_needed=float(WARMUP_SECONDS),
            done=self.done,
            text=None if self.done else self._warmup_text(),
        )

    def _warmup_text(self) -> str:
        """The warm-up in words; with no time between its lines yet (one line, or lines an undated log
        gave all at once, or less than the second the words count in) no span is claimed: no ``0 s``.
        A log whose lines carry no time at all counts down to nothing: no rate is due from them."""
        unit = count_unit(self.counter, self.epochs)
        noun, plural_noun = ("logged record", "logged records") if self.logged else (unit, f"{unit}s")
        if not self.untimed and self.counter in DATA_UNITS:
            noun, plural_noun = f"{self.counter} line", f"{self.counter} lines"  # (the warm-up counts lines)
        if self.untimed:
            return f"no timing read from this log (no duration or time read for its {plural_noun}): measured as lines arrive"
        return text.warmup(self.lines, self.needed, self.observed_seconds, float(WARMUP_SECONDS),
                           noun, plural_noun, show_observed=self.observed_seconds >= 1.0, pace_seconds=self.line_pace)



def counts_evaluation(stage: Stage, event: TrainStep) -> bool:
    """``event`` is the training bar counting the evaluation's batches on: Lightning 1.x's ``Epoch 0: 46%|…| 6/13``
    after its ``Validating: 0/10`` bar, whose total is the training batches plus the validation's (3 + 10), so that
    the bar's count past the training's is the validation's, and neither a step nor a step's time."""
    latest, batches, shared = stage.latest, stage.eval_batches, stage.shared_bar
    if shared is not None and stage.pause == "evaluation" and latest.stage == event.stage and event.epoch == latest.epoch:
        # (the bar's own record read: the training's share of it is known, whatever total the latest step keeps)
        return event.total_steps == shared.total and shared.trained < event.step <= shared.total
    return (stage.pause == "evaluation" and batches is not None and batches > 0 and latest.stage == event.stage
            and event.epoch == latest.epoch and latest.total_steps is not None
            and event.total_steps == latest.total_steps and latest.step + batches == latest.total_steps
            and latest.step < event.step <= latest.total_steps)


def epoch_counted(step: TrainStep) -> bool:
    """The line's step is its epoch (a whole epoch a line, or a share of it: ``Epoch 1 [80%]``), not a batch in it nor a
    count of dicts."""
    return (step.epoch is not None and float(step.step) == step.epoch and not step.logged and step.outer_step is None
            and (step.ends_at_total or step.epoch_percent is not None) and step.epoch_steps is None)


def count_unit(counter: str | None, epochs: bool = False) -> str:
    """What a count counts, in one word: ``epoch`` where each line is one, the log's own word for its count where that
    is no training step (an RL loop's ``episode``, a script's ``iteration``, Keras' ``sample``), else ``step``. Every
    line of text that names the count says it with this word."""
    return "epoch" if epochs else counter or "step"


def count_noun(stage: Stage) -> str:
    """What the stage's lines count, in one word (count_unit of its latest line)."""
    return count_unit(stage.latest.counter, stage.counts_epochs)


def counts_a_pass(step: TrainStep, epoch: float | None) -> bool:
    """The line's count starts again with each pass of the loop and names no epoch (Keras 3's closing ``15/15`` of one
    ``fit`` call, an unsized bar's ``11it`` of one pass): where that pass is, never the run's step. ``epoch``: the one a
    line before it named."""
    return step.per_pass and step.epoch is None and epoch is None and not step.logged and step.outer_step is None


def evaluating(stage: Stage) -> bool:
    """The stage's last records are an evaluation's pass under way: its start said, or its batches so far short of its
    bar's total (a bar at its total has done them: its result is what comes, and the training after it)."""
    under_way = stage.eval_pass
    return under_way is not None and (under_way.done is None or under_way.batches is None
                                       or under_way.done < under_way.batches)


def no_step_yet(stage: Stage) -> bool:
    """The stage's lines are a counter at step 0 of its total with nothing done yet (a progress bar at
    0/58, a validation before the first step: ``step:0/9000 val_loss:…``): no loss, not a log of dicts.
    (A bare ``Step 0`` may be the first step's end: hivemind's callback prints it so.)"""
    latest = stage.latest
    if latest.step != 0 or latest.loss is not None or latest.logged or latest.outer_step is not None:
        return False
    if stage.offset > 0:
        return False  # (the count started again at 0 after steps were done: the next epoch's first batch)
    if latest.total_steps is not None:
        return True
    # A step-0 line whose only figures are its evaluations (verl's ``step:0 - val-core/…``: the validation
    # before training): no time, no tokens, nothing trained.
    untimed = latest.step_seconds is None and latest.elapsed_seconds is None and latest.tokens is None \
        and latest.tokens_per_second is None
    return untimed and any(step == 0 for _, step in stage.evals.values())


def waiting_since(stage: Stage) -> float | None:
    """When a stage with :func:`no_step_yet` began to wait: the bar's start by its own clock (a bar at 0/58
    after ``[07:16<?]`` began 7 min 16 s before the line), else its first line."""
    elapsed = finite(stage.latest.elapsed_seconds)
    if elapsed is not None and elapsed > 0 and stage.step_time is not None:
        return stage.step_time - elapsed
    return stage.began_at


def last_of_epochs(event: TrainStep) -> bool:
    """The line is in the last of its printed epochs and the trainer's time left is none: the run's last step, where
    its step counts no total of its own (PaddleOCR's ``epoch: [100/100], global_step: 100000, … eta: 0:00:00``; its
    evaluation and saves come after it). Whether the trainer's time left is the run's or the epoch's, in the last
    epoch both end there. A count with a total says it better: a time left in whole seconds is 0 some steps before
    (Paddle's ``Epoch [2/2], Iter [11/14], … eta: 0:00:00``)."""
    return (event.epoch_total is not None and event.epoch is not None and event.epoch >= event.epoch_total
            and event.trainer_eta_seconds == 0 and event.total_steps is None and not event.logged)


def at_last_step(stage: Stage) -> bool:
    """The latest line is the run's last step, though not one whose total ends the run by itself: the last epoch's
    bar full (its total one epoch's), or :func:`last_of_epochs`, or the last of the run's planned epochs counted from
    zero (a record of ``epoch 49`` of a plan of 50, endings.py's ``last_planned_epoch_from_zero``). The trainer evaluates
    and saves before it ends."""
    latest = stage.latest
    full = latest.total_steps is not None and latest.step >= latest.total_steps and not latest.ends_at_total
    planned_last = latest.last_of_epochs is not None and latest.total_steps is None and latest.epoch == latest.step
    return full or planned_last or last_of_epochs(latest)


def closed_after_last_step(stage: Stage) -> bool:
    """After its last step (:func:`at_last_step`) the run evaluated or saved, and no step came: its closing acts
    (PaddleOCR's final ``eval model`` bar and ``save model in …/iter_epoch_100``), so it is over."""
    return at_last_step(stage) and not finished(stage) and (
        stage.pause in ("evaluation", "checkpoint") or stage.evaluated or stage.saved_at is not None)


def said_ended(stage: Stage) -> bool:
    """The run printed its end summary, or said it stops or saved its model (each until a step follows)."""
    return stage.finished is not None or stage.said_end_at is not None or stage.saved_at is not None


def redrawn_after_end(stage: Stage, event: TrainStep) -> bool:
    """``event`` is a bar drawn again after the run's end with no step past the one it drew before (tqdm's leftover
    redraw as the script exits, verl's ``Epoch 3/3: 97%|…| 34/35`` after ``Final validation metrics``): no step, and
    it does not take the end back. (A line at the last step after the run reached its total needs no such care: that
    end stands whatever follows, and the line may carry the step's clock or its evaluation; but a bar of another count
    redrawn after the run's steps reached their total is a leftover all the same: verl SFT's ``Epoch 3/3: 97%|…| 34/35``
    after its ``step:105`` of 105.)"""
    other_count = stage.done_at is not None and event.total_steps != stage.latest.total_steps
    if not (said_ended(stage) or other_count) or event.logged:
        return False
    return any(drawn is not None and drawn.stage == event.stage and drawn.total_steps == event.total_steps
               and drawn.epoch == event.epoch and drawn.outer_step == event.outer_step and event.step <= drawn.step
               and not drawn.logged for drawn in (stage.latest, stage.before_latest))


def finished(stage: Stage) -> bool:
    """The run reached its last planned step, or printed its end summary."""
    return stage.finished is not None or stage.done_at is not None


def diverged(stage: Stage) -> bool:
    """The latest training loss, or the latest figure of a loss-like evaluation, is not a
    number (nan, inf), or the training loss exploded: the run has diverged."""
    lost = stage.loss is not None and (not math.isfinite(stage.loss) or stage.exploded)
    return lost or bool(stage.eval_diverged)


def exploded(baseline: float | None, loss: float) -> bool:
    """``loss`` is EXPLODED_FACTOR times ``baseline`` (the median early loss) or more (a positive baseline only)."""
    return baseline is not None and baseline > 0 and math.isfinite(loss) and loss >= EXPLODED_FACTOR * baseline


def diverged_at(stage: Stage) -> float | None:
    """When the divergence was first seen (the earliest of the training and evaluation losses')."""
    times = [t for t in (stage.diverged_at, *stage.eval_diverged.values()) if t is not None]
    if stage.loss is not None and math.isfinite(stage.loss) and not stage.exploded:
        times = [t for t in stage.eval_diverged.values() if t is not None]
    return min(times) if times else None


def measure(stage: Stage, now: float) -> Measure:
    """The rate at ``now``; a finished run's as it stood at its end.

    Each line's steps (and tokens) are spread over the time the line covers, and only the part
    of that interval inside the window counts: lines far apart would otherwise count whole.
    """
    overdue = False
    # The latest step's first line: lines after it that print the same step again (a counter that moves once every
    # several lines) hold no step done, so the window ends where the counter last moved, as at any step line.
    moved = stage.moved_at if stage.moved_at is not None else stage.step_time
    if finished(stage) and (stage.done_at is not None or moved is not None):
        # A run that is over: its rate over its own last stretch of steps, never a window slid over the
        # quiet after them (a final evaluation, the hours a finished log is read later).
        now = min(now, *(t for t in (moved, stage.done_at) if t is not None))
    elif stage.step_time is not None and moved is not None and now > moved:
        # Until the next line is due, measure up to the last one: the step in progress is not
        # done, and counting its time would drag the rate down between lines (by up to a line's
        # share of the window); once overdue, the window moves on and a stopped run decays.
        # Lines further apart than the window (Megatron printing every 100 iterations of a minute
        # each) are held until a stall is due instead: the window would empty long before.
        # The next move is due a usual time between moves on; the next line a usual time between lines on (the same,
        # unless lines print the step again between moves): once that is overdue, the run has stopped.
        typical = statistics.median(stage.line_durations) if stage.line_durations else 0.0
        spacing = line_spacing(stage) or 0.0
        hold = typical if typical < RATE_WINDOW_SECONDS else STALL_FACTOR * typical
        overdue = now - stage.step_time > STALL_FACTOR * (spacing or printed_step_seconds(stage) or 0.0)
        if spacing:
            hold = min(hold, stage.step_time - moved + STALL_FACTOR * spacing)
        now = max(moved, now - hold)
    start = stage.start
    observed = 0.0 if start is None else min(max(now - start, 0.0), float(RATE_WINDOW_SECONDS))
    in_window = stage.steps.total(now - RATE_WINDOW_SECONDS, now) if start is not None else 0.0
    needed = lines_needed(stage)
    done = start is not None and stage.timed_lines >= needed and observed >= WARMUP_SECONDS
    steps_per_hour = in_window / observed * 3600 if done and observed > 0 else None
    printed = printed_pace(stage)
    # The warm-up would wait for lines hours apart, or the window holds fewer steps than the
    # warm-up counts (steps minutes apart: one more or less in it moves the rate by half): the
    # trainer's own time per step is the rate (until the next line is long overdue: then it is no
    # longer the run's pace).
    few = steps_per_hour is not None and in_window < WARMUP_COUNT
    paced = (steps_per_hour is None or few or stage.latest.unnumbered) and printed is not None and not overdue
    if paced and printed is not None:
        steps_per_hour, done = 3600 / printed, True
    elif stage.latest.unnumbered:
        steps_per_hour = None  # (its reports counted are no steps: once its rate is no longer the run's pace, none)
    tokens_per_hour = None
    if paced and done and stage.tokens_since is not None and steps_per_hour is not None:
        # The same source as the steps: the trainer's own pace × the tokens a step (those of the
        # steps in the window since tokens were counted, or the latest line's when it holds none).
        since = max(now - RATE_WINDOW_SECONDS, stage.tokens_since)
        counted = stage.steps.total(since, now)
        per_step = stage.tokens.total(since, now) / counted if counted > 0 else stage.step_tokens
        tokens_per_hour = steps_per_hour * per_step if per_step else None
    elif done and stage.tokens_since is not None:
        token_observed = min(max(now - stage.tokens_since, 0.0), float(RATE_WINDOW_SECONDS))
        if token_observed >= WARMUP_SECONDS:
            tokens_per_hour = stage.tokens.total(now - RATE_WINDOW_SECONDS, now) / token_observed * 3600
    if not tokens_per_hour and steps_per_hour:
        tokens_per_hour = None  # steps ran but no tokens were counted: unknown, never 0
    untimed = not done and not stage.printed_timing and stage.lines >= needed and stage.timed_lines < needed
    # (lines further apart than the window: the next is due a usual interval on, not at the capped time's pace)
    line_pace = statistics.median(stage.line_durations) if (
        start is not None and now - start > RATE_WINDOW_SECONDS and stage.line_durations) else None
    return Measure(
        start, observed, stage.lines - stage.lines_before_start, in_window, steps_per_hour, tokens_per_hour, done, needed, stage.latest.logged,
        paced, untimed, stage.counts_epochs,
        evaluated_between(stage, start, now) and not paced,
        line_pace,
        stage.latest.counter,
    )


def line_spacing(stage: Stage) -> float | None:
    """The usual time between the stage's step lines (the median of the recent ones'), or None before a second line."""
    return statistics.median(stage.line_gaps) if stage.line_gaps else None


def evaluated_between(stage: Stage, start: float | None, now: float) -> bool:
    """An evaluation came between two steps of the stretch measured up to ``now``: after its start (or the window's)
    and before the latest step, whose line's time holds its pause (one after the latest step is not in it yet); or the
    window opens inside such a pause, before the step line that holds it (llama2.c's iteration 600 after its
    evaluation and checkpoint, 867 s, whose line the window takes 713 s of)."""
    if start is None or stage.step_time is None:
        return False
    since, until = max(start, now - RATE_WINDOW_SECONDS), min(now, stage.step_time)
    return (any(since < at < until for at in stage.eval_times)
            or any(at <= since < end for at, end in stage.eval_pauses))


def printed_pace(stage: Stage) -> float | None:
    """The trainer's own seconds per step, when its lines are too sparse for the warm-up to wait
    for: a step takes a third of the warm-up or more (three of them fill it), or one line alone
    spans the warm-up (every N steps × T s a step). None otherwise, or at step 0 or 1, whose time
    includes the start (compilation, the first batches)."""
    latest = stage.latest
    seconds = printed_step_seconds(stage)
    if latest.unnumbered and seconds is not None and seconds > 0:
        return seconds  # (the steps' rate printed alone: a count of its reports is no steps to measure a rate by)
    if seconds is None or seconds <= 0 or latest.logged or latest.step <= 1:
        return None
    spans = bool(stage.line_durations) and stage.line_durations[-1] >= WARMUP_SECONDS
    return seconds if seconds * WARMUP_COUNT >= WARMUP_SECONDS or spans else None


def printed_step_seconds(stage: Stage) -> float | None:
    """The latest line's printed time of one step, unless the log's own dates showed that field is no
    step's time (an elapsed clock read as a duration: flair's ``time (sec)``), or no step is done yet: a time printed at
    step 0 before any training (modded-nanogpt's ``step:0/20000 val_loss:… train_time:0ms step_avg:0.01ms``, its
    validation before the first step) is its timer's placeholder, no step's time."""
    if stage.clock_over_printed or no_step_yet(stage):
        return None
    return finite(stage.latest.step_seconds)


def steady_step(stage: Stage) -> tuple[float, float | None] | None:
    """The run's steady pace where the latest line's printed step time held a pause and is far above the steps before
    it (PAUSED_STEP_FACTOR): the median of the recent printed step times that held none, and of their tokens a second
    where the latest line prints one (build-nanogpt's ``dt: 51754.23ms | tok/sec: 10130.34`` after its validation,
    HellaSwag and samples, where every step before printed ``dt: 4785 ms``, 109.6k tok/s). None otherwise."""
    seconds = printed_step_seconds(stage)
    if stage.held_pause is None or seconds is None or stage.latest.logged or len(stage.steady) < STEADY_LINES:
        return None
    usual = statistics.median(each for each, _ in stage.steady)
    if seconds <= PAUSED_STEP_FACTOR * usual:
        return None
    rates = [rate for _, rate in stage.steady if rate is not None]
    rate = statistics.median(rates) if rates and finite(stage.latest.tokens_per_second) is not None else None
    return usual, rate


def timed_before_pass(stage: Stage) -> TrainStep | None:
    """The last step that printed its own time, where the latest line is the start of an evaluation's pass at a step
    no line timed (Caffe's ``Iteration 1950, Testing net (#0)`` after ``Iteration 1560 (6.24695 iter/s, …)``): the pace
    the trainer printed stands, where the lines' times would fold its earlier tests into its iterations."""
    before, latest = stage.timed_step, stage.latest
    if (before is None or before is latest or stage.clock_over_printed or not evaluating(stage)
            or finite(before.step_seconds) is None or latest.step_seconds is not None or latest.loss is not None):
        return None
    return before


def lines_needed(stage: Stage) -> int:
    """Timed lines before a rate is shown: the shared warm-up's 3, or 2 logged dicts.

    A log of HF dicts without a bar has one line per ``logging_steps`` (500 by default): two dated
    dicts already span one whole logged interval of many optimizer steps, as much as three of
    anything else, and a third could be most of an hour away.
    """
    return LOGGED_WARMUP_COUNT if stage.latest.logged else WARMUP_COUNT


def same_position(a: TrainStep, b: TrainStep) -> bool:
    return a.stage == b.stage and a.step == b.step and a.outer_step == b.outer_step


def step_seconds(stage: Stage, m: Measure | None = None) -> float | None:
    """The trainer's own latest time of one step (tqdm's own rate for a bar), else the time a step
    took over the stretch the rate ``m`` measured: ``3600 / steps per hour``.

    One stretch for both figures, so the step time shown beside the rate never contradicts it: an
    average over the recent lines would take in a restart's hours, an evaluation's pause, or lines
    printed twice. Before a rate is measured: the time the recent lines took over the steps they
    cover, a sum over a sum (records that arrive in lumps have a median interval far below their
    average), leaving out a line that came after a stall or a pause (its time is mostly the
    wait's). A log of dicts without step numbers measures the time between logs, each of an
    unknown number of steps: no step time at all, rather than an invented one.
    """
    average = epoch_average_seconds(stage)
    if average is not None:
        return average
    steady = m.steady if m is not None else steady_step(stage)
    if steady is not None:
        return steady[0]
    printed = printed_step_seconds(stage)
    if printed is not None or stage.latest.logged:
        return printed
    before = timed_before_pass(stage)
    if before is not None:
        return before.step_seconds
    if m is not None and m.steps_per_hour:
        between = between_pauses(stage, m)
        return between if between is not None else 3600 / m.steps_per_hour
    lines = [(seconds, covered) for seconds, covered, waited
             in zip(stage.line_durations, stage.covered, stage.ended_wait) if not waited]  # fmt: skip
    steps = sum(covered for _, covered in lines)
    return sum(seconds for seconds, _ in lines) / steps if steps else None


def between_pauses(stage: Stage, m: Measure) -> float | None:
    """A measured step's time where the stretch the rate measured holds an evaluation's pause (``m.evaluations``): the
    time the recent step lines took over the steps they cover, those that came after a pause or a stall left out (their
    time is the wait's), so that the step's time is the steps' own (a distillation run's 50 steps in 56.7 s between
    its evaluations, 1.13 s a step, where the rate over 20 minutes that hold two of them reads 1.36 s). None where the
    stretch holds none, no line was left out, or fewer than STEADY_LINES lines remain: the rate's own time stands."""
    if not m.evaluations or not any(stage.ended_wait):
        return None
    lines = [(seconds, covered) for seconds, covered, waited
             in zip(stage.line_durations, stage.covered, stage.ended_wait) if not waited]  # fmt: skip
    steps = sum(covered for _, covered in lines)
    if len(lines) < STEADY_LINES or steps <= 0:
        return None
    return sum(seconds for seconds, _ in lines) / steps


def epoch_average_seconds(stage: Stage) -> float | None:
    """The seconds an iteration the latest epoch's summary printed (MetricLogger's ``Total time: 0:00:06 (0.2151 s /
    it)``), while the latest step is in that epoch or the next: the epoch's own pace, its slow first (data-loading)
    iteration included, where a line's ``time:`` is a window of the latest iterations (0.088 s at the epoch's end,
    3.06 s at the next one's start)."""
    average, epoch = stage.epoch_average, stage.latest.epoch
    if average is None or epoch is None or stage.latest.logged or not average[0] <= epoch <= average[0] + 1:
        return None
    return average[1]


def clock_step_seconds(stage: Stage) -> tuple[float, float, int] | None:
    """A step's time worked out from the trainer's clock: (seconds a step, the clock's seconds, the steps) between
    the first and the latest step it was read on (StyleTTS2: 196.28 s at step 110 and 240.36 s at step 130: 44.07 s
    over 20 steps, 2.20 s a step)."""
    if stage.clock_from is None or stage.clock_to is None:
        return None
    (start, began), (end, now) = stage.clock_from, stage.clock_to
    if now <= began:
        return None  # (a clock of whole seconds that has not moved: the steps took less than one, not none)
    return (now - began) / (end - start), now - began, end - start


# The least ETA a step's time is worked out from: printed to the second, its rounding is then 5 % of it at most.
MIN_ETA_SECONDS = 10.0
# How far the two lines' paces may differ and still be one pace: the trainer's average steady over them.
ETA_PACE_TOLERANCE = 0.1


def eta_step_seconds(stage: Stage) -> tuple[float, TrainStep, TrainStep] | None:
    """A step's time worked out from the trainer's ETA where no line prints one, with the two lines it comes from.

    Keras' ETA is its average time a step so far times the steps left, so the ETA over the steps left is that average
    (``ETA: 1:47`` at 35/100: 107 s over 65 steps, 1.65 s a step). Only where the line before on the same bar says the
    same pace (1:48 over 66 steps, 1.64 s) within ETA_PACE_TOLERANCE, and both ETAs are MIN_ETA_SECONDS or more: a
    pace still falling from a slow first step (``ETA: 19:24`` at 1/102, then 8:29 at 2/102), or an ETA of a second or
    two, says no step's time. None otherwise."""
    first, last = stage.eta_from, stage.eta_to
    if first is None or last is None or last is not stage.latest or last.total_steps is None:
        return None
    paces = []
    for line in (first, last):
        eta, left = line.trainer_eta_seconds or 0.0, last.total_steps - line.step
        if eta < MIN_ETA_SECONDS or left <= 0:
            return None
        paces.append(eta / left)
    before, now = paces
    if abs(before - now) > ETA_PACE_TOLERANCE * now:
        return None
    return now, first, last


def data_epoch(stage: Stage) -> float | None:
    """The data's epoch to show: the latest step's, or the stage's where its line printed none; a header
    after the latest step that named a later epoch (kohya's ``epoch 6/80`` after its bar at epoch 5, its
    count the run's; Keras' ``Epoch 49/200`` after epoch 48's full bar) is where the run is now, as the
    position says it (:func:`header_epoch_after`)."""
    latest = stage.latest
    epoch = latest.epoch if latest.epoch is not None else stage.epoch
    if (epoch is not None and stage.epoch is not None and stage.epoch > epoch and latest.ends_at_total
            and latest.total_steps is not None and not latest.logged):
        return stage.epoch
    later = header_epoch_after(latest, stage.epoch)
    return later if later is not None else epoch


def header_epoch_after(step: TrainStep, epoch: float | None) -> float | None:
    """The epoch a header printed after ``step`` began, where ``step`` is its own epoch's full bar and the header
    names a later one, else None. Keras prints ``Epoch 49/200`` as epoch 49 begins, counted from one, after epoch 48's
    full bar (``1562/1562 [====] - 481s - loss: …``): the run is in epoch 49, its bar not drawn yet; the headline, the
    details' data line and the JSON's ``data.epoch`` all say 49. Its callbacks' ``Epoch 00048: val_loss improved …``
    (Keras 1 counts them from zero, Keras 2 from one) are no header and name no epoch here."""
    if (step.logged or step.outer_step is not None or step.epoch_percent is not None or step.total_steps is not None
            or step.ends_at_total or step.epoch is None or epoch is None or epoch <= step.epoch):
        return None
    return epoch


def row_groups_per_step(stage: Stage) -> float | None:
    """Row groups read per step over the recent lines: their sum over the steps' sum (a median of
    per-line ratios reads 0 when the row group moves every other step)."""
    steps = sum(covered for _, covered in stage.row_groups)
    return sum(groups for groups, _ in stage.row_groups) / steps if steps else None


def no_timing(stage: Stage, m: Measure) -> bool:
    """The log gives no time to measure by: no line printed a duration or a clock, and too few
    arrived live to time them by their arrival (a cold start on llm.c's main.log)."""
    return m.untimed


# A best figure's words (``best_test_accuracy``), and a score's short names said whole, so that a best and the figure
# it is the best of (``Test Acc``) name the same score.
_BEST_WORDS = frozenset({"best"})
_WHOLE_WORDS = {"acc": "accuracy", "ppl": "perplexity"}


def scored_by(name: str) -> tuple[bool, frozenset[str]] | None:
    """Whether an evaluation figure's name says a best so far, and the words of what it scores without it
    (``best_test_accuracy`` and ``test_acc``: ``{test, accuracy}``); None for a name of no words."""
    words = [_WHOLE_WORDS.get(w, w) for w in name.lower().replace("-", "_").replace(" ", "_").split("_") if w]
    if not words:
        return None
    best = words[0] in _BEST_WORDS
    return best, frozenset(words[1:] if best else words)
