"""One stage of a step trainer's run and what is measured in it: the state the tracker keeps."""

from __future__ import annotations

import math
import statistics
from collections import deque
from dataclasses import dataclass, field

from app.snapshot import RateView, WarmupView
from app.stats.events import StepFigures, TrainStep
from app.stats.tracker import RATE_WINDOW_SECONDS, WARMUP_COUNT, WARMUP_SECONDS
from app.stats.window import SlidingWindow

RECENT_LINES = 21


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


@dataclass(slots=True)
class Stage:
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


    def take(self, event: TrainStep, t: float | None) -> None:
        """Make ``event`` the latest step (seen at ``t``): it ends a pause and any end summary."""
        self.latest = event
        if t is not None:
            self.step_time = t
        self.pause = self.pause_at = None
        self.finished = None
        self.take_figures(event)

    def take_figures(self, event: TrainStep | StepFigures) -> None:
        """Keep the loss, learning rate, grad norm, epoch and other figures the line carries."""
        if event.loss is not None:
            self.loss, self.loss_note = event.loss, event.loss_note
        if event.lr is not None:
            self.lr = event.lr
        if event.grad_norm is not None:
            self.grad_norm = event.grad_norm
        if event.epoch is not None:
            self.epoch = event.epoch
        self.figures.update(event.figures)


@dataclass(slots=True)
class AllReduce:
    """The all-reduce rounds of a decentralised run (SN38): counts and the last error."""

    succeeded: int = 0
    failed: int = 0
    peers: int | None = None
    last_error: str | None = None
    last_ok: bool | None = None


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
            passes_needed=WARMUP_COUNT,
            observed_seconds=self.observed_seconds,
            seconds_needed=float(WARMUP_SECONDS),
            done=self.done,
        )



def measure(stage: Stage, now: float) -> Measure:
    start = stage.start
    observed = 0.0 if start is None else min(max(now - start, 0.0), float(RATE_WINDOW_SECONDS))
    in_window = stage.steps.total(now - RATE_WINDOW_SECONDS, now) if start is not None else 0.0
    done = start is not None and stage.lines >= WARMUP_COUNT and observed >= WARMUP_SECONDS
    steps_per_hour = in_window / observed * 3600 if done and observed > 0 else None
    tokens_per_hour = None
    if done and stage.tokens_since is not None:
        token_observed = min(max(now - stage.tokens_since, 0.0), float(RATE_WINDOW_SECONDS))
        if token_observed >= WARMUP_SECONDS:
            tokens_per_hour = stage.tokens.total(now - RATE_WINDOW_SECONDS, now) / token_observed * 3600
    return Measure(start, observed, stage.lines, in_window, steps_per_hour, tokens_per_hour, done)


def same_position(a: TrainStep, b: TrainStep) -> bool:
    return a.stage == b.stage and a.step == b.step and a.outer_step == b.outer_step


def step_seconds(stage: Stage) -> float | None:
    """The latest printed time of one step, else the median measured between lines."""
    printed = finite(stage.latest.step_seconds)
    if printed is not None and stage.latest.elapsed_seconds is None:
        return printed
    if stage.step_durations:
        return statistics.median(stage.step_durations)
    return printed


def row_groups_per_step(stage: Stage) -> float | None:
    return statistics.median(stage.row_groups) if stage.row_groups else None
