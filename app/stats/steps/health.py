"""Whether a step trainer's run is still alive and still learning: crashed, or broken while it prints.

Two judgements every step trainer shares, made from events any step parser produces (the crash
lines and skipped steps come from app/ingest/formats/crash.py, read for every format):

* **crashed**: the run died (a traceback's last line, a kill, a fatal NCCL or launcher error).
  It holds until a training step other than the one the crash interrupted is printed: the run
  was started again in the same file.
* **broken**: the run still prints numbers but learns nothing. Each rule needs several logs in
  a row, because one odd log is normal (see the thresholds below); any log that breaks the
  streak clears it.

  - The gradient norm is not a number (``nan``, ``inf``) at ``NONFINITE_GRAD_LOGS`` logs in a row:
    every update is thrown away (fp16's scaler skips the step) or poisons the weights.
  - The loss is exactly 0 at ``ZERO_LOSS_LOGS`` logs in a row *and* nothing else moves: the grad
    norm is 0 or not a number, or (no grad norm printed) the learning rate is frozen. A loss of 0
    alone is not enough: TRL's GRPO prints ``'loss': 0.0`` for hours in a healthy run (its loss
    is β·KL, which rounds to 0.0), with a finite grad norm, a moving reward and a decaying LR.
  - The fp16 loss scaler skips ``SKIPPED_STEPS`` steps in a row (every step in between skipped
    too), past its warm-up: scalers start high (torch's 2^16, DeepSpeed's 2^16 or more, CogVideo's
    2^32) and halve on each overflow until the scale fits, so a burst of overflows at a scale of
    ``WARMUP_LOSS_SCALE`` or more is the warm-up, not a fault, while it is the run's start: no step
    has gone through yet and the step is at most ``WARMUP_STEPS``. Once a step has gone through
    (or far into a run, after a resume, whose scale comes back with the checkpoint), the scale is
    found: an overflow now and then is the scaler trying a higher one, but ``OVERFLOW_WARNING``
    within ``OVERFLOW_WINDOW_STEPS`` steps is a warning (the gradients blow up). Or it skips
    ``FLOOR_SKIPPED_STEPS`` in a row at its floor: the scale 1 or less (DeepSpeed's and Megatron's
    default minimum), or no lower than the overflow before (``Attempted loss scale: 128, reducing
    to 128``: a ``min_loss_scale`` reached). With no scale left to halve, an overflow there is
    never the warm-up: every update is thrown away.
"""

from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass

from ...snapshot import EventView
from ..events import Event, RunCrashed, StageStart, StepFigures, StepSkipped, SwarmNews, TrainStep

# One nan grad norm is an fp16 overflow the scaler already handled (it skips that step and halves
# the scale); two can be a slow warm-up; three logs apart (each usually many steps) is a run
# whose every update is being dropped.
NONFINITE_GRAD_LOGS = 3
# A trainer that logs every step (``logging_steps=1``): the fp16 scaler's warm-up from 2^16 can
# overflow several steps running (each halves the scale) before it fits, so when the logs carry
# step numbers the streak must also span this many steps.
NONFINITE_GRAD_STEPS = 8
ZERO_LOSS_LOGS = 3
# Five consecutive skipped steps below the warm-up scale: the scale has been halved five times
# in a row (÷32) without one step fitting, which a healthy run never needs once it has settled.
SKIPPED_STEPS = 5
WARMUP_LOSS_SCALE = 2.0**14
# The scale is found within a few dozen steps of the start (DeepSpeed halves from 2^32 at most, a
# step or two for each halving): overflows past this step are not the start's warm-up.
WARMUP_STEPS = 100
# Past the warm-up, the scaler tries a higher scale after a window of clean steps (DeepSpeed's
# 1000, torch's 2000) and the next overflow halves it back: one at a time, far apart. Three within
# ten steps have divided the scale by 8 without it fitting.
OVERFLOW_WARNING = 3
OVERFLOW_WINDOW_STEPS = 10
# At its floor the scaler cannot halve any more: one overflow there may be one bad batch, a third
# in a row is a run that cannot fit a step. (DeepSpeed's hysteresis keeps the scale once at the
# start of a streak, ``2048, reducing to 2048``; the next overflow halves it.)
FLOOR_SKIPPED_STEPS = 3
FLOOR_LOSS_SCALE = 1.0
EVENTS_KEPT = 50


@dataclass(frozen=True, slots=True)
class Crash:
    """The run died: the error's last line, when it was read, and the step it interrupted."""

    error: str
    at: float | None
    step: int | None
    killed: bool = False  # ended from outside (a signal, the OOM killer, the scheduler)
    # Stopped by someone, not dead: "hand" (Ctrl-C) or "signal" (SIGTERM, a scheduler); None: it crashed.
    # The death's first line that says its cause decides (a Ctrl-C's aftermath, a worker dying of it, is
    # still a stop; an error the user then stopped by hand is a crash).
    stopped: str | None = None


# A crash's own words for where the run was when it died (detectron2's ``FloatingPointError: Loss became infinite or
# NaN at iteration=2137!``, ``… died at step 7``): the counter's word and its number.
_SAID_POSITION = re.compile(r"(?i)\b(?:at (iteration|iter|step)[= ]|(iteration|iter|step)=)(\d{1,12})\b")


def said_position(crash: Crash) -> tuple[str, int] | None:
    """Where the crash's own words say the run was (``("iteration", 2137)``), or None where they name no position."""
    said = _SAID_POSITION.search(crash.error)
    if said is None:
        return None
    word = (said.group(1) or said.group(2)).lower()
    return ("iteration" if word == "iter" else word), int(said.group(3))


@dataclass(frozen=True, slots=True)
class Broken:
    """The run prints numbers but learns nothing: the plain sentence, and since when."""

    sentence: str
    since: float | None


class RunHealth:
    """Follows crashes, restarts and the broken-run rules over one log's events."""

    def __init__(self) -> None:
        self.crash: Crash | None = None
        self._cause_open = False  # the crash read so far does not say its cause yet
        self._failed_to_join = False  # a collaborator printed that it could not join its swarm, no step since
        self.events: deque[EventView] = deque(maxlen=EVENTS_KEPT)  # newest last
        self._step: int | None = None
        self._latest_at: float | None = None
        # nan grad norms in a row: how many, the value printed, since when
        self._bad_grads = 0
        self._bad_grad_value = math.nan
        self._bad_grads_since: float | None = None
        self._bad_grads_from: int | None = None  # the step the streak began at, when steps are numbered
        self._numbered = False  # the latest step number is the trainer's own (not a count of logs)
        # zero losses in a row that nothing else explains
        self._zero_losses = 0
        self._zero_losses_why = ""
        self._zero_losses_since: float | None = None
        self._last_lr: float | None = None
        # skipped steps in a row below the warm-up scale
        self._skipped = 0
        self._skipped_since: float | None = None
        self._skipped_since_step = False
        self._floor_skips = 0  # of those in a row, at the scaler's floor
        self._scale: float | None = None
        self.skipped_total = 0
        self.warmup_skips = 0
        self._went_through = False  # a step went through (no overflow before it) since the run began
        self._late_skips: deque[tuple[int, float | None]] = deque(maxlen=OVERFLOW_WINDOW_STEPS)  # past the warm-up

    def apply(self, event: Event, t: float | None) -> None:
        """Take one event seen at ``t``."""
        if t is not None:
            self._latest_at = t
        if isinstance(event, RunCrashed):
            self._crashed(event, t)
        elif isinstance(event, SwarmNews) and event.kind == "join_failed" and event.detail:
            self._failed_to_join = True  # its own error, printed: a signal after it is the script's shutdown
        elif isinstance(event, TrainStep):
            self._failed_to_join = False
            crash = self.crash
            if crash is not None and (crash.step is None or event.step != crash.step):
                self.crash = None
                self._went_through = False
                self._note(t, "restart", f"training again at step {event.step} after the crash")
            if self._step is not None and event.step != self._step and not self._skipped_since_step:
                self._skipped, self._skipped_since, self._floor_skips = 0, None, 0  # a step went through
                self._went_through = True
            if event.step != self._step:
                self._skipped_since_step = False
            self._step = event.step
            self._numbered = not event.logged
            self._figures(event, t)
        elif isinstance(event, StepFigures):
            self._figures(event, t)
        elif isinstance(event, StepSkipped):
            self._skip(event, t)
        elif isinstance(event, StageStart) and self.crash is not None:
            self.crash = None
            self._went_through = False
            self._note(t, "restart", "a new run started after the crash")

    def can_take_steps(self, first_step: int) -> bool:
        """Whether :meth:`took_steps` may stand for applying steps from ``first_step`` one by one."""
        return self.crash is None and first_step != self._step

    def took_steps(self, count: int, first_step: int, last_step: int, last_at: float, *, lr: float | None = None,
                   grad_norms: bool = False) -> None:
        """What :meth:`apply` of ``count`` numbered steps leaves, ``first_step`` to ``last_step`` (each
        step another, each with a loss that is not zero where it has a grad norm or a learning rate),
        the last at ``last_at``; ``lr``: the last learning rate they printed, ``grad_norms``: each printed
        a finite grad norm; only when :meth:`can_take_steps`."""
        if grad_norms:
            self._bad_grads, self._bad_grads_since, self._bad_grads_from = 0, None, None
        if lr is not None:
            self._last_lr = lr
        if count > 1 or (self._step is not None and first_step != self._step and not self._skipped_since_step):
            self._skipped, self._skipped_since, self._floor_skips = 0, None, 0  # a step went through
            self._went_through = True
        self._skipped_since_step = False
        self._step, self._numbered, self._latest_at = last_step, True, last_at
        self._zero_losses, self._zero_losses_since = 0, None  # a loss with nothing to say it is stuck

    def _crashed(self, event: RunCrashed, t: float | None) -> None:
        first = self.crash is None
        # Until a line says the cause (a traceback glued to a bar, a launcher's failed child before its table),
        # the next one decides whether the run died or was stopped.
        stopped = event.stopped if first or self._cause_open or self.crash is None else self.crash.stopped
        if stopped == "signal" and self._failed_to_join:
            # The trainer printed that its DHT did not start, then its launcher shut it down (rl-swarm's ">> Shutting
            # down trainer..." and the shell's "terminated"): it died of its error, nobody stopped it.
            stopped = None
        self._cause_open = event.placeholder and (first or self._cause_open)
        self.crash = Crash(event.error, t if first or self.crash is None else self.crash.at, self._step,
                           event.killed or (self.crash is not None and self.crash.killed), stopped)
        where = f" at step {self._step}" if self._step is not None else ""
        if first:
            self._note(t, "crashed", f"crashed{where}: {event.error}")
        if stopped is not None and self.events and self.events[-1].kind == "crashed":
            # The line that said the cause came after the crash's first line: the timeline says what it was.
            last = self.events.pop()
            self.events.append(EventView(last.at, "stopped", f"stopped{where}: {event.error}"))

    def _figures(self, event: TrainStep | StepFigures, t: float | None) -> None:
        grad = event.grad_norm
        if grad is not None:
            if math.isfinite(grad):
                self._bad_grads, self._bad_grads_since, self._bad_grads_from = 0, None, None
            else:
                self._bad_grads += 1
                self._bad_grad_value = grad
                if self._bad_grads_since is None:
                    self._bad_grads_since = t
                    self._bad_grads_from = self._step if self._numbered else None
        if event.loss is not None:
            lr_frozen = event.lr is not None and event.lr == self._last_lr
            if event.loss == 0 and grad is not None and (grad == 0 or not math.isfinite(grad)):
                why = f"grad norm {grad:g}"
            elif event.loss == 0 and grad is None and lr_frozen:
                why = f"the learning rate stuck at {event.lr:g}"
            else:
                why = ""
            if why:
                self._zero_losses += 1
                self._zero_losses_why = why
                if self._zero_losses_since is None:
                    self._zero_losses_since = t
            else:
                self._zero_losses, self._zero_losses_since = 0, None
        if event.lr is not None:
            self._last_lr = event.lr

    def _skip(self, event: StepSkipped, t: float | None) -> None:
        self.skipped_total += 1
        scale, before = event.loss_scale, self._scale
        if scale is not None:
            self._scale = scale
        self._skipped_since_step = True  # the step under way did not go through
        early = not self._went_through and (self._step is None or not self._numbered or self._step <= WARMUP_STEPS)
        if early and scale is not None and scale >= WARMUP_LOSS_SCALE:
            self.warmup_skips += 1
            self._floor_skips = 0
            return
        if not early and self._numbered and self._step is not None:
            # past the warm-up: a step went through, or far into a run (a resume) before one did
            self._late_skips.append((self._step + 1, scale))  # the step it skipped: the next one
        at_floor = scale is not None and (scale <= FLOOR_LOSS_SCALE or (self._skipped > 0 and scale == before))
        self._floor_skips = self._floor_skips + 1 if at_floor else 0
        self._skipped += 1
        if self._skipped_since is None:
            self._skipped_since = t

    def broken(self) -> Broken | None:
        """The first broken-run rule that holds now, or None."""
        spanned = (self._bad_grads_from is None or self._step is None
                   or self._step - self._bad_grads_from + 1 >= NONFINITE_GRAD_STEPS)
        if self._bad_grads >= NONFINITE_GRAD_LOGS and spanned:
            value = _printed(self._bad_grad_value)
            return Broken(f"grad norm is {value} at {self._bad_grads} logs in a row: the run is broken"
                          " (its updates are skipped or corrupt)", self._bad_grads_since)
        if self._zero_losses >= ZERO_LOSS_LOGS:
            return Broken(f"loss is 0 at {self._zero_losses} logs in a row, with {self._zero_losses_why}:"
                          " the run is broken", self._zero_losses_since)
        if self._floor_skips >= FLOOR_SKIPPED_STEPS and self._scale is not None:
            return Broken(f"fp16 overflow at {self._skipped} steps in a row, every step skipped, with the loss scale"
                          f" at its floor ({_scale(self._scale)}): the run is broken", self._skipped_since)
        if self._skipped >= SKIPPED_STEPS:
            scale = f", loss scale down to {_scale(self._scale)}" if self._scale is not None else ""
            return Broken(f"fp16 overflow at {self._skipped} steps in a row, every step skipped{scale}:"
                          " the run is broken", self._skipped_since)
        return None

    def warning(self) -> str | None:
        """A details line about non-finite grad norms that are not (yet) a broken run, or None.

        One is an overflow the fp16 scaler handles; the streak is said so a person watches it.
        """
        if not self._bad_grads or self.broken() is not None:
            return None
        value = _printed(self._bad_grad_value)
        since = f" since step {self._bad_grads_from}" if self._bad_grads_from is not None else ""
        logs = f"at {self._bad_grads} logs in a row{since}" if self._bad_grads > 1 else f"(once so far{since})"
        return (f"Warning: grad norm is {value} {logs}; {NONFINITE_GRAD_LOGS} logs in a row over"
                f" {NONFINITE_GRAD_STEPS} steps make a broken run")

    def _late_overflows(self) -> list[tuple[int, float | None]]:
        """The overflows past the warm-up within the last ``OVERFLOW_WINDOW_STEPS`` steps."""
        if self._step is None:
            return []
        return [(step, scale) for step, scale in self._late_skips if step > self._step - OVERFLOW_WINDOW_STEPS]

    def skip_line(self) -> str | None:
        """A details line about skipped steps that are not (yet) a broken run, or None."""
        if not self.skipped_total or self._skipped >= SKIPPED_STEPS or self._floor_skips >= FLOOR_SKIPPED_STEPS:
            return None
        late = self._late_overflows()
        if len(late) >= OVERFLOW_WARNING:
            scales = [scale for _, scale in late if scale is not None]
            fell = ""
            if scales:
                fell = f" (loss scale {_scale(max(scales))} → {_scale(scales[-1])})" if max(scales) > scales[-1] \
                    else f" (loss scale {_scale(scales[-1])})"
            return (f"Warning: fp16 overflow at {len(late)} of the last {OVERFLOW_WINDOW_STEPS} steps, past the"
                    f" warm-up{fell}: the gradients blow up; {SKIPPED_STEPS} in a row make a broken run")
        scale = f" (loss scale {_scale(self._scale)})" if self._scale is not None else ""
        if self.warmup_skips == self.skipped_total:
            return f"fp16 loss-scale warm-up: {self.skipped_total} steps skipped on overflow{scale}, as usual"
        return f"fp16 overflow: {self.skipped_total} steps skipped{scale}"

    def _note(self, t: float | None, kind: str, text: str) -> None:
        at = t if t is not None else self._latest_at
        if at is not None:
            self.events.append(EventView(at, kind, text))


def _scale(value: float) -> str:
    """A loss scale as printed: a whole number in full (``67108864``), else as it is."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e18 else f"{value:g}"


def _printed(value: float) -> str:
    """A non-finite number as a trainer prints it: nan, inf, -inf."""
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
