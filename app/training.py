"""Step-based trainers (issue 5): a pure tracker from step events to the status, details and
the snapshot's ``training`` object. The clock is always an argument.

Throughput follows the IOTA engine's rules (app/engine.py), with steps for passes:

* tokens/h = tokens in (now − 20 min, now] ÷ observed, observed = now − start of the current
  stage (or stretch), capped at 20 min; hidden until ≥ 3 steps and ≥ 3 min observed;
* the tokens a step carries come from what the trainer prints: tokens in the line
  (nanochat's old SFT ``num_tokens``, RL sequences × mean length), tokens per iteration ×
  steps (nanoGPT), tok/s × the step's duration (nanochat, llm.c; torchtitan's per-device tps ×
  devices × the time between its lines), or HF's ``num_input_tokens_seen`` counter;
* a stage (nanochat base → SFT → RL) or a restart (the step goes back) starts a new stretch.

Time. torchtitan and SN38 print their own times. nanochat, nanoGPT, llm.c and HF print none, so
their parsers emit ``at=None`` and :func:`place_in_time` gives those events times before the
engine applies them: the last line of a batch gets the moment it was read (its arrival; for a
cold start, the log file's modification time, when its last line was written) and each earlier
line steps back by the durations the trainer printed itself (``dt``, ``time …ms``, ``… ms``,
tqdm's elapsed clock). So a cold start on an undated log is measured at once on the trainer's
own clock (which leaves out the evaluation pauses the trainer does not time), and live lines
are measured on arrival. Where no duration is printed (nanochat RL) earlier lines stay undated:
their figures show, and the window fills from live arrivals.

Stall: no step for max(6 × the median time between recent step lines, 90 s) while training →
``stalled``; when step lines arrive in bursts (python's block-buffered print to a file delivers
dozens at once), not before twice the usual gap between bursts either. Before a stage's first
step (warm-up, compilation), after the trainer's end summary, while it evaluates, checkpoints or all-reduces (an announced pause, an evaluation line after the
last step, or the next step is due an evaluation by the cadence seen so far, or is the last one)
it is not a stall, up to an hour.
"""

from __future__ import annotations

import math
import statistics
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app import text
from app.events import (
    AllReduceResult,
    EvalResult,
    Event,
    PeerGroup,
    RunInfo,
    StageEnd,
    StageStart,
    StepFigures,
    TrainingPause,
    TrainStep,
)
from app.snapshot import RateView, State, WarmupView
from app.window import SlidingWindow

# The IOTA engine's rules (app/engine.py); tests/test_training.py checks they stay the same.
RATE_WINDOW_SECONDS = 20 * 60
WARMUP_STEPS = 3
WARMUP_SECONDS = 3 * 60
STALL_FACTOR = 6
STALL_FLOOR_SECONDS = 90.0
# An announced pause (evaluation, checkpoint, all-reduce) holds off a stall this long at most.
PAUSE_LIMIT_SECONDS = 60 * 60
RECENT_LINES = 21
# Step lines that arrive in bursts: no stall before twice the usual gap between bursts.
ARRIVAL_GAPS = 9
BURST_GAPS_NEEDED = 3
BURST_FACTOR = 2.0
EVALS_SHOWN = 4

_STAGE_LABELS = {"sft": "SFT ", "mid": "mid ", "rl": "RL "}


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def covered_steps(previous: TrainStep | None, step: TrainStep) -> int | None:
    """How many steps ``step``'s line accounts for after ``previous`` (None: not comparable)."""
    if previous is None or previous.stage != step.stage:
        return None
    if step.outer_step is not None and previous.outer_step is not None and step.outer_step != previous.outer_step:
        # SN38: the inner step restarts at 0 with each outer step (DiLoCo round).
        return step.step + 1 if step.outer_step > previous.outer_step else None
    delta = step.step - previous.step
    return delta if delta > 0 else None


def line_seconds(previous: TrainStep | None, step: TrainStep) -> float | None:
    """The time ``step``'s line accounts for, from the trainer's own printed durations."""
    covered = covered_steps(previous, step)
    if previous is not None and covered is not None:
        if step.elapsed_seconds is not None and previous.elapsed_seconds is not None:
            delta = step.elapsed_seconds - previous.elapsed_seconds
            if delta >= 0:
                return delta
        if step.step_seconds is not None:
            # nanoGPT's ``time`` is the last iteration's only, and the iteration after an
            # evaluation (or the first, compiling) includes that pause: the other iterations of
            # the interval took the smaller of this line's and the previous line's time.
            others = step.step_seconds
            if previous.step_seconds is not None:
                others = min(others, previous.step_seconds)
            return others * (covered - 1) + step.step_seconds
        return None
    return step.step_seconds


def place_in_time(events: Sequence[Event], end_at: float, not_before: float | None = None) -> list[Event]:
    """Give undated events times: the last one ``end_at``, earlier ones back by printed durations.

    Dated events keep their time and re-anchor what precedes them. Before a step whose duration
    is unknown, events stay undated. No time is placed before ``not_before``.
    """
    seconds: dict[int, float | None] = {}
    previous: TrainStep | None = None
    for i, event in enumerate(events):
        if isinstance(event, TrainStep):
            seconds[i] = line_seconds(previous, event)
            previous = event
        elif isinstance(event, StageStart):
            previous = None
    placed = list(events)
    t: float | None = end_at
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        if event.at is not None:
            t = event.at
        elif t is None:
            continue
        else:
            placed[i] = replace(event, at=t if not_before is None else max(t, not_before))
        if i in seconds and t is not None:
            duration = seconds[i]
            t = t - duration if duration is not None else None
    return placed


@dataclass(frozen=True, slots=True)
class TrainingReport:
    """What the engine's snapshot takes from the tracker."""

    state: State
    status_line: str
    details: tuple[str, ...]
    rate: RateView
    warmup: WarmupView
    step: int | None
    training: dict[str, Any]


@dataclass(slots=True)
class _Stage:
    """One stage (or stretch after a restart) and everything measured in it."""

    name: str
    latest: TrainStep
    step_time: float | None  # when the latest step was seen
    start: float | None = None  # measurement start: when the first counted step began
    tokens_since: float | None = None
    token_source: str | None = None  # "step" (each line carries tokens) or "counter" (HF)
    lines: int = 0
    steps: SlidingWindow = field(default_factory=lambda: SlidingWindow(RATE_WINDOW_SECONDS))
    tokens: SlidingWindow = field(default_factory=lambda: SlidingWindow(RATE_WINDOW_SECONDS))
    line_durations: deque[float] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    step_durations: deque[float] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    covered: deque[int] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    row_groups: deque[float] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    figures: dict[str, float] = field(default_factory=dict)
    loss: float | None = None
    loss_note: str | None = None
    lr: float | None = None
    grad_norm: float | None = None
    epoch: float | None = None
    counter: tuple[float, int] | None = None  # (time, tokens seen) of HF's last counter reading
    evals: dict[str, tuple[float | None, int | None]] = field(default_factory=dict)
    eval_steps: deque[int] = field(default_factory=lambda: deque(maxlen=4))
    pause: str | None = None
    pause_at: float | None = None
    finished: str | None = None  # the trainer's end summary


@dataclass(slots=True)
class _AllReduce:
    succeeded: int = 0
    failed: int = 0
    peers: int | None = None
    last_error: str | None = None
    last_ok: bool | None = None


class TrainingTracker:
    """Accumulates step-trainer events (times from the engine) and reports at ``now``."""

    def __init__(self) -> None:
        self._stage: _Stage | None = None
        self._restarting = False
        self._pending_evals: dict[str, tuple[float | None, int | None]] = {}
        self._tokens_per_step: int | None = None
        self._device_count: int | None = None
        self._gpu_name: str | None = None
        self._peak_flops: float | None = None
        self._peak_unknown = False
        self._all_reduce: _AllReduce | None = None
        # When batches of step lines arrived: a block-buffered stdout (python's print to a file)
        # delivers dozens of steps at once, every few minutes; that is not a stall.
        self._last_arrival: float | None = None
        self._arrival_gaps: deque[float] = deque(maxlen=ARRIVAL_GAPS)

    # --- applying -------------------------------------------------------------

    def place(self, events: Sequence[Event], arrival: float, not_before: float | None) -> list[Event]:
        """Place a batch read at ``arrival`` in time (:func:`place_in_time`) and note the arrival."""
        if any(isinstance(event, TrainStep) for event in events):
            if self._last_arrival is not None and arrival > self._last_arrival:
                self._arrival_gaps.append(arrival - self._last_arrival)
            self._last_arrival = arrival
        return place_in_time(events, arrival, not_before)

    def apply(self, event: Event, t: float | None) -> None:
        """Apply one event seen at ``t`` (None: the time is not known)."""
        if isinstance(event, TrainStep):
            self._step(event, t)
        elif isinstance(event, StepFigures):
            self._figures(event, t)
        elif isinstance(event, EvalResult):
            self._eval(event, t)
        elif isinstance(event, TrainingPause):
            if self._stage is not None:
                self._stage.pause, self._stage.pause_at = event.reason, t
        elif isinstance(event, StageEnd):
            if self._stage is not None:
                self._stage.finished = event.summary or "finished"
        elif isinstance(event, StageStart):
            if self._stage is not None:
                self._restarting = True
        elif isinstance(event, RunInfo):
            self._run_info(event)
        elif isinstance(event, PeerGroup):
            self._all_reduce = self._all_reduce or _AllReduce()
            self._all_reduce.peers = event.peers
        elif isinstance(event, AllReduceResult):
            counts = self._all_reduce = self._all_reduce or _AllReduce()
            counts.last_ok = event.ok
            if event.peers is not None:
                counts.peers = event.peers
            if event.ok:
                counts.succeeded += 1
            else:
                counts.failed += 1
                counts.last_error = event.error

    def _run_info(self, event: RunInfo) -> None:
        if event.tokens_per_step is not None and event.tokens_per_step > 0:
            self._tokens_per_step = event.tokens_per_step
        if event.device_count is not None and event.device_count > 0:
            self._device_count = event.device_count
        if event.gpu_name is not None:
            self._gpu_name = event.gpu_name
        if event.peak_flops is not None or event.peak_flops_unknown:
            self._peak_flops = _finite(event.peak_flops)
            self._peak_unknown = event.peak_flops_unknown

    def _step(self, event: TrainStep, t: float | None) -> None:
        stage = self._stage
        previous = stage.latest if stage is not None else None
        covered = covered_steps(previous, event)
        if stage is None or self._restarting or covered is None:
            if stage is not None and previous is not None and _same_position(previous, event):
                self._update(stage, event, t)  # the same step printed again
                return
            stage = self._new_stage(event, t)
            covered = None
        self._restarting = False
        seconds = line_seconds(previous, event) if covered is not None else event.step_seconds
        if t is not None and stage.start is None:
            # The first step we can place: it began one step time earlier (when printed).
            counted = 1 if event.step_seconds is not None else 0
            stage.start = t - event.step_seconds if event.step_seconds is not None else t
            self._count(stage, event, t, counted, event.step_seconds)
        elif t is not None and covered is not None:
            if seconds is None and stage.step_time is not None:
                seconds = t - stage.step_time
            self._count(stage, event, t, covered, seconds)
            if seconds is not None:
                stage.line_durations.append(seconds)
                stage.step_durations.append(seconds / covered)
                stage.covered.append(covered)
            self._row_groups(stage, previous, event, covered)
        stage.lines += 1
        self._update(stage, event, t)

    def _new_stage(self, event: TrainStep, t: float | None) -> _Stage:
        stage = _Stage(name=event.stage, latest=event, step_time=t)
        # Evaluations printed before a stage's first step (step 0's validation) are its own.
        stage.evals.update(self._pending_evals)
        stage.eval_steps.extend(sorted({s for _, s in self._pending_evals.values() if s is not None}))
        self._pending_evals = {}
        self._stage = stage
        return stage

    def _count(self, stage: _Stage, event: TrainStep, t: float, covered: int, seconds: float | None) -> None:
        if covered > 0:
            stage.steps.add(t, covered)
        tokens = self._tokens(event, covered, seconds)
        if tokens is not None and stage.token_source != "counter":
            if stage.tokens_since is None:
                stage.tokens_since = t - seconds if seconds is not None and covered > 0 else t
                stage.token_source = "step"
            if covered > 0:
                stage.tokens.add(t, tokens)
        elif tokens is None and stage.token_source == "step":
            # A step that carries no tokens: restart the token count from here, never guess.
            stage.tokens.clear()
            stage.tokens_since = t

    def _tokens(self, event: TrainStep, covered: int, seconds: float | None) -> float | None:
        if covered <= 0:
            return None
        if event.tokens is not None:
            return _finite(event.tokens)
        if self._tokens_per_step is not None and event.tokens_per_second is None:
            return float(self._tokens_per_step * covered)
        rate = _finite(event.tokens_per_second)
        if rate is not None and seconds is not None and seconds >= 0:
            if event.per_device and self._device_count is not None:
                rate *= self._device_count
            return rate * seconds
        return None

    def _row_groups(self, stage: _Stage, previous: TrainStep | None, event: TrainStep, covered: int) -> None:
        if (
            previous is not None
            and event.row_group is not None
            and previous.row_group is not None
            and event.parquet_index == previous.parquet_index
            and event.epoch == previous.epoch
            and event.row_group >= previous.row_group
        ):
            stage.row_groups.append((event.row_group - previous.row_group) / covered)

    def _update(self, stage: _Stage, event: TrainStep, t: float | None) -> None:
        stage.latest = event
        if t is not None:
            stage.step_time = t
        stage.pause = stage.pause_at = None
        stage.finished = None
        if event.loss is not None:
            stage.loss, stage.loss_note = event.loss, event.loss_note
        if event.lr is not None:
            stage.lr = event.lr
        if event.grad_norm is not None:
            stage.grad_norm = event.grad_norm
        if event.epoch is not None:
            stage.epoch = event.epoch
        stage.figures.update(event.figures)

    def _figures(self, event: StepFigures, t: float | None) -> None:
        stage = self._stage
        if stage is None:
            return
        if event.loss is not None:
            stage.loss, stage.loss_note = event.loss, event.loss_note
        if event.lr is not None:
            stage.lr = event.lr
        if event.grad_norm is not None:
            stage.grad_norm = event.grad_norm
        if event.epoch is not None:
            stage.epoch = event.epoch
        stage.figures.update(event.figures)
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
        stage.tokens.add(t, float(seen - last[1]))

    def _eval(self, event: EvalResult, t: float | None) -> None:
        stage = self._stage
        figure = (_finite(event.value), event.step)
        if (
            stage is None
            or (event.step is not None and stage.finished is not None)
            or (event.step is not None and event.step < stage.latest.step)
        ):
            # Printed before the next stage's first step (its step-0 validation).
            self._pending_evals[event.name] = figure
            return
        step = event.step if event.step is not None else stage.latest.step
        stage.evals[event.name] = (figure[0], step)
        if event.step is not None and (not stage.eval_steps or stage.eval_steps[-1] != event.step):
            stage.eval_steps.append(event.step)
        if stage.finished is None:
            stage.pause, stage.pause_at = "evaluation", t

    # --- reading ----------------------------------------------------------------

    def tokens_per_hour(self, now: float) -> float | None:
        """The measured rate at ``now``, or None (the value the history ring keeps)."""
        stage = self._stage
        if stage is None:
            return None
        return _measure(stage, now).tokens_per_hour

    def report(self, now: float) -> TrainingReport:
        """Everything the snapshot shows at ``now``."""
        stage = self._stage
        if stage is None:
            return self._report_before_steps()
        m = _measure(stage, now)
        stall = self._stall(stage, now)
        progress = _progress(stage.latest)
        per_gpu = " per GPU" if self._tokens_per_device(stage) else ""
        if stage.finished is not None:
            state: State = "working"
            status = f"{_STAGE_LABELS.get(stage.name, '')}done · {_position(stage.latest)}"
        elif self._restarting:
            state, status = "working", f"{progress} · restarting"
        elif stall.stalled:
            state, status = "stalled", f"{progress} · stalled {_short(stall.since or 0.0)}"
        elif m.tokens_per_hour is not None:
            unit = "tok/h/GPU" if per_gpu else "tok/h"
            state, status = "training", f"{progress} · {text.compact(m.tokens_per_hour)} {unit}"
        elif m.steps_per_hour is not None:
            state, status = "training", f"{progress} · {text.compact(m.steps_per_hour)} steps/h"
        else:
            state, status = "measuring", f"{progress} · …"
        eta = self._eta(stage, m)
        return TrainingReport(
            state=state,
            status_line=status,
            details=tuple(self._details(stage, m, stall, eta, per_gpu)),
            rate=m.rate_view(self._tokens_per_step),
            warmup=m.warmup_view(),
            step=stage.latest.step,
            training=self._training(stage, m, stall, eta),
        )

    def _report_before_steps(self) -> TrainingReport:
        empty = _Measure(None, 0.0, 0, 0.0, None, None, False)
        details = ["waiting for the first training step"]
        details.extend(self._run_details())
        training: dict[str, Any] = dict.fromkeys(_TRAINING_KEYS)
        training.update(stalled=False, finished=False)
        return TrainingReport(
            state="working",
            status_line="waiting for first step",
            details=tuple(details),
            rate=empty.rate_view(self._tokens_per_step),
            warmup=empty.warmup_view(),
            step=None,
            training=training,
        )

    def _tokens_per_device(self, stage: _Stage) -> bool:
        return stage.latest.per_device and self._device_count is None and stage.token_source == "step"

    def _stall(self, stage: _Stage, now: float) -> _Stall:
        if stage.step_time is None:
            return _Stall(False, None, None, None)
        since = max(0.0, now - stage.step_time)
        median = statistics.median(stage.line_durations) if stage.line_durations else None
        limit = max(STALL_FACTOR * median, STALL_FLOOR_SECONDS) if median is not None else STALL_FLOOR_SECONDS
        if len(self._arrival_gaps) >= BURST_GAPS_NEEDED:
            limit = max(limit, BURST_FACTOR * statistics.median(self._arrival_gaps))
        pause = stage.pause
        if pause is None and since > limit:
            # Only once the wait is longer than a step's: then say why it is not a stall.
            expected = self._expected_pause(stage)
            pause = f"{expected} due" if expected is not None else None
        allowed = max(limit, PAUSE_LIMIT_SECONDS) if pause is not None else limit
        stalled = stage.finished is None and not self._restarting and since > allowed
        return _Stall(stalled, since, limit, pause)

    def _expected_pause(self, stage: _Stage) -> str | None:
        """An evaluation (or the end-of-run evaluation) due before the next step line."""
        latest = stage.latest
        ahead = int(statistics.median(stage.covered)) if stage.covered else 1
        if latest.total_steps is not None and latest.step + ahead >= latest.total_steps:
            return "final evaluation"
        steps = list(stage.eval_steps)
        if len(steps) >= 2 and steps[-1] > steps[-2]:
            every = steps[-1] - steps[-2]
            due = steps[-1] + every * max(1, math.ceil((latest.step + 1 - steps[-1]) / every))
            if latest.step < due <= latest.step + ahead:
                return "evaluation"
        return None

    def _eta(self, stage: _Stage, m: _Measure) -> float | None:
        latest = stage.latest
        if m.steps_per_hour is None or m.steps_per_hour <= 0:
            return None
        remaining: float | None = None
        if latest.total_steps is not None:
            remaining = max(0, latest.total_steps - latest.step)
        elif latest.progress_percent is not None and latest.progress_percent >= 1.0:
            # chat_sft prints no total, only the percentage done (2 decimals).
            remaining = latest.step * (100.0 - latest.progress_percent) / latest.progress_percent
        if remaining is None:
            return None
        return remaining / m.steps_per_hour * 3600

    # --- text -----------------------------------------------------------------

    def _details(self, stage: _Stage, m: _Measure, stall: _Stall, eta: float | None, per_gpu: str) -> list[str]:
        lines: list[str] = []
        latest = stage.latest
        if m.tokens_per_hour is not None and m.steps_per_hour is not None:
            lines.append(
                f"{text.compact(m.tokens_per_hour)} tok/h{per_gpu} · {text.compact(m.steps_per_hour)} steps/h"
                f" (over {text.minutes(m.observed_seconds)} min)"
            )
        elif m.steps_per_hour is not None:
            lines.append(
                f"{text.compact(m.steps_per_hour)} steps/h (over {text.minutes(m.observed_seconds)} min)"
                " · tokens per step not printed"
            )
        else:
            lines.append(f"measuring… ({stage.lines} steps so far)")
        if stage.finished is not None:
            lines.append(f"Finished: {_clip(stage.finished, 90)}")
        elif stall.stalled and stall.since is not None and stall.limit is not None:
            lines.append(f"Stalled: no step for {text.duration(stall.since)} (limit {text.duration(stall.limit)})")
        elif stall.pause is not None and stall.since is not None:
            lines.append(f"Paused: {stall.pause} ({text.duration(stall.since)} since the last step)")
        lines.append(_stage_line(stage))
        if stage.loss is not None:
            loss = f"{stage.loss:.4f}" if math.isfinite(stage.loss) else f"{stage.loss}"
            note = f"{stage.loss_note}, as printed" if stage.loss_note else "as printed"
            extra = ""
            if stage.grad_norm is not None:
                extra = f" · grad norm {stage.grad_norm:.4g}"
            lines.append(f"Loss {loss} ({note}){extra}")
            if not math.isfinite(stage.loss):
                lines.append("Loss is not a number: the run may have diverged")
        if latest.lr_multiplier is not None:
            lines.append(f"LR × {latest.lr_multiplier:.2f} (multiplier)")
        elif stage.lr is not None:
            lines.append(f"LR {stage.lr:.3g}")
        speed = self._speed_parts(stage)
        if speed:
            lines.append(" · ".join(speed))
        if stage.finished is None and (eta is not None or latest.trainer_eta_seconds is not None):
            parts = []
            if eta is not None:
                parts.append(f"{text.duration(eta)} (tokwatch)")
            if latest.trainer_eta_seconds is not None:
                parts.append(f"{text.duration(latest.trainer_eta_seconds)} (trainer)")
            lines.append("ETA " + " · ".join(parts))
        evals = _latest_evals(stage)
        if evals:
            lines.append("Eval " + " · ".join(f"{name} {_figure(value)}" for name, value, _ in evals)
                         + _eval_where(evals))
        data = _data_line(stage)
        if data:
            lines.append(data)
        lines.extend(_figure_lines(stage.figures))
        if self._all_reduce is not None:
            ar = self._all_reduce
            peers = f" · last group {ar.peers} peers" if ar.peers is not None else ""
            lines.append(f"All-reduce: {ar.succeeded} ok · {ar.failed} failed{peers}")
            if ar.last_error is not None and ar.last_ok is False:
                lines.append(f"Last all-reduce error: {_clip(ar.last_error, 90)}")
        lines.extend(self._run_details())
        return lines

    def _speed_parts(self, stage: _Stage) -> list[str]:
        latest = stage.latest
        parts: list[str] = []
        seconds = _step_seconds(stage)
        if seconds is not None:
            parts.append(f"step {_seconds(seconds)}")
        rate = _finite(latest.tokens_per_second)
        if rate is not None and rate >= 0:
            parts.append(f"{text.compact(rate)} tok/s{'/GPU' if latest.per_device else ''}")
        if latest.mfu is not None:
            parts.append(f"MFU {latest.mfu:.2f}%" + (f" ({latest.mfu_note})" if latest.mfu_note else ""))
        elif latest.mfu_note is not None:
            parts.append(f"MFU {latest.mfu_note}")
        elif self._peak_unknown and self._gpu_name is not None:
            parts.append("MFU unknown (no peak FLOPS for this GPU)")
        return parts

    def _run_details(self) -> list[str]:
        if self._gpu_name is None and self._device_count is None:
            return []
        parts = []
        if self._gpu_name is not None:
            peak = ""
            if self._peak_flops is not None:
                peak = f" · peak {text.compact(self._peak_flops / 1e12)} TFLOPS"
            elif self._peak_unknown:
                peak = " · peak FLOPS unknown to the trainer"
            parts.append(f"GPU {_clip(self._gpu_name, 60)}{peak}")
        if self._device_count is not None:
            parts.append(f"{self._device_count} devices")
        return [" · ".join(parts)]

    def _training(self, stage: _Stage, m: _Measure, stall: _Stall, eta: float | None) -> dict[str, Any]:
        latest = stage.latest
        rate = _finite(latest.tokens_per_second)
        scope = None if rate is None else ("device" if latest.per_device else "global")
        evals = {name: {"value": value, "step": step} for name, (value, step) in stage.evals.items()}
        data = None
        if latest.epoch is not None or latest.parquet_index is not None or stage.epoch is not None:
            data = {
                "epoch": _json_number(latest.epoch if latest.epoch is not None else stage.epoch),
                "parquet_index": latest.parquet_index,
                "row_group": latest.row_group,
                "row_groups_per_step": _json_number(_row_groups_per_step(stage)),
            }
        all_reduce = None
        if self._all_reduce is not None:
            ar = self._all_reduce
            all_reduce = {
                "succeeded": ar.succeeded,
                "failed": ar.failed,
                "peers": ar.peers,
                "last_error": ar.last_error,
            }
        return {
            "stage": stage.name,
            "step": latest.step,
            "total_steps": latest.total_steps,
            "outer_step": latest.outer_step,
            "progress_percent": _json_number(latest.progress_percent),
            "loss": _json_number(stage.loss),
            "loss_note": stage.loss_note,
            "lr": _json_number(stage.lr),
            "lr_multiplier": _json_number(latest.lr_multiplier),
            "grad_norm": _json_number(stage.grad_norm),
            "step_seconds": _json_number(_step_seconds(stage)),
            "tokens_per_second": _json_number(rate),
            "tokens_per_second_scope": scope,
            "mfu": _json_number(latest.mfu),
            "mfu_note": latest.mfu_note,
            "tokens_per_hour": _json_number(m.tokens_per_hour),
            "steps_per_hour": _json_number(m.steps_per_hour),
            "eta_seconds": _json_number(eta),
            "trainer_eta_seconds": _json_number(latest.trainer_eta_seconds),
            "eval": evals or None,
            "data": data,
            "all_reduce": all_reduce,
            "figures": {k: v for k, v in stage.figures.items() if math.isfinite(v)} or None,
            "paused": stall.pause if not stall.stalled else None,
            "seconds_since_step": _json_number(stall.since),
            "stall_after_seconds": _json_number(stall.limit),
            "stalled": stall.stalled,
            "finished": stage.finished is not None,
        }


_TRAINING_KEYS = (
    "stage", "step", "total_steps", "outer_step", "progress_percent", "loss", "loss_note", "lr",
    "lr_multiplier", "grad_norm", "step_seconds", "tokens_per_second", "tokens_per_second_scope", "mfu",
    "mfu_note", "tokens_per_hour", "steps_per_hour", "eta_seconds", "trainer_eta_seconds", "eval", "data",
    "all_reduce", "figures", "paused", "seconds_since_step", "stall_after_seconds", "stalled", "finished",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Stall:
    stalled: bool
    since: float | None  # seconds since the last step
    limit: float | None  # the stall limit while training
    pause: str | None  # the pause under way, if any


@dataclass(frozen=True, slots=True)
class _Measure:
    start: float | None
    observed_seconds: float
    lines: int
    steps_in_window: float
    steps_per_hour: float | None
    tokens_per_hour: float | None
    done: bool

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
            passes_needed=WARMUP_STEPS,
            observed_seconds=self.observed_seconds,
            seconds_needed=float(WARMUP_SECONDS),
            done=self.done,
        )


def _measure(stage: _Stage, now: float) -> _Measure:
    start = stage.start
    observed = 0.0 if start is None else min(max(now - start, 0.0), float(RATE_WINDOW_SECONDS))
    in_window = stage.steps.total(now - RATE_WINDOW_SECONDS, now) if start is not None else 0.0
    done = start is not None and stage.lines >= WARMUP_STEPS and observed >= WARMUP_SECONDS
    steps_per_hour = in_window / observed * 3600 if done and observed > 0 else None
    tokens_per_hour = None
    if done and stage.tokens_since is not None:
        token_observed = min(max(now - stage.tokens_since, 0.0), float(RATE_WINDOW_SECONDS))
        if token_observed >= WARMUP_SECONDS:
            tokens_per_hour = stage.tokens.total(now - RATE_WINDOW_SECONDS, now) / token_observed * 3600
    return _Measure(start, observed, stage.lines, in_window, steps_per_hour, tokens_per_hour, done)


def _same_position(a: TrainStep, b: TrainStep) -> bool:
    return a.stage == b.stage and a.step == b.step and a.outer_step == b.outer_step


def _position(step: TrainStep) -> str:
    if step.outer_step is not None:
        return f"outer {step.outer_step} · step {step.step}"
    if step.total_steps is not None:
        return f"step {step.step}/{step.total_steps}"
    return f"step {step.step}"


def _progress(step: TrainStep) -> str:
    return _STAGE_LABELS.get(step.stage, "") + _position(step)


def _stage_line(stage: _Stage) -> str:
    latest = stage.latest
    where = _position(latest)
    if latest.progress_percent is not None:
        where += f" ({latest.progress_percent:.2f}%)"
    elif latest.total_steps:
        where += f" ({100 * latest.step / latest.total_steps:.1f}%)"
    return f"Stage {stage.name} · {where}"


def _step_seconds(stage: _Stage) -> float | None:
    """The latest printed time of one step, else the median measured between lines."""
    printed = _finite(stage.latest.step_seconds)
    if printed is not None and stage.latest.elapsed_seconds is None:
        return printed
    if stage.step_durations:
        return statistics.median(stage.step_durations)
    return printed


def _row_groups_per_step(stage: _Stage) -> float | None:
    return statistics.median(stage.row_groups) if stage.row_groups else None


def _data_line(stage: _Stage) -> str | None:
    latest = stage.latest
    if latest.parquet_index is not None and latest.row_group is not None:
        line = f"Data epoch {latest.epoch:g} · pq {latest.parquet_index} · rg {latest.row_group}"
        per_step = _row_groups_per_step(stage)
        if per_step is not None:
            line += f" (≈{per_step:.3g} row groups/step)"
        return line
    epoch = latest.epoch if latest.epoch is not None else stage.epoch
    if epoch is not None:
        return f"Data epoch {epoch:g}"
    return None


def _latest_evals(stage: _Stage) -> list[tuple[str, float | None, int | None]]:
    """The figures of the latest evaluation step, in the order printed (a few at most)."""
    items = [(name, value, step) for name, (value, step) in stage.evals.items()]
    steps = [step for _, _, step in items if step is not None]
    if steps:
        newest = max(steps)
        items = [item for item in items if item[2] == newest] + [item for item in items if item[2] is None]
    return items[:EVALS_SHOWN]


def _eval_where(evals: list[tuple[str, float | None, int | None]]) -> str:
    steps = {step for _, _, step in evals}
    if len(steps) == 1:
        (step,) = steps
        return f" (step {step})" if step is not None else ""
    return ""


def _figure(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:.4f}" if abs(value) < 100 else f"{value:.1f}"


def _figure_lines(figures: dict[str, float]) -> list[str]:
    parts = []
    if "reward" in figures:
        parts.append(f"reward {figures['reward']:.4f}")
    if "sequence_length" in figures:
        parts.append(f"mean sequence {figures['sequence_length']:.1f} tokens")
    if "memory_gib" in figures:
        memory = f"memory {figures['memory_gib']:.2f} GiB"
        if "memory_percent" in figures:
            memory += f" ({figures['memory_percent']:.2f}%)"
        parts.append(memory)
    if "tflops" in figures:
        parts.append(f"{figures['tflops']:.2f} TFLOPS")
    if "samples_per_second" in figures:
        parts.append(f"{figures['samples_per_second']:.1f} samples/s")
    if not parts:
        return []
    line = " · ".join(parts)
    return [line[:1].upper() + line[1:]]


def _json_number(value: float | None) -> float | int | None:
    if value is None or isinstance(value, int):
        return value
    return value if math.isfinite(value) else None


def _clip(value: str, length: int) -> str:
    return value if len(value) <= length else value[: length - 1] + "…"


def _seconds(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.2f} s"
    return text.duration(seconds)


def _short(seconds: float) -> str:
    """A status-line duration: 45s, 12m, 2h05m, 3d."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 86400:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 86400}d"
