"""verl (RL post-training): ``step:N - key:value - …`` lines, its ``Training Progress`` bar and its end.

verl's console logger prints a step's metrics dict as ``step:N - key:value - …`` (``verl/utils/
tracking.py``), usually behind Ray's ``(TaskRunner pid=N)`` / ``(main_task pid=N)`` prefix (read by
the pipeline). Its figures: ``timing_s/step`` (the step's seconds), ``perf/total_num_tokens`` (the
step's tokens), ``perf/throughput`` (tokens per second per GPU), ``critic/score/mean`` (the reward),
``response_length/mean``, ``actor/pg_loss`` (read as the loss) and, on a validation step,
``val/*`` and ``val-core/*`` (evaluations). ``ray_trainer.fit`` draws a tqdm bar ``Training Progress``
whose count is the last step done, prints ``Total training steps: N`` before it, and on its last
step pprints ``Final validation metrics: {…}`` and returns; ``ray job submit`` closes with
``Job 'raysubmit_…' succeeded``.
"""

from __future__ import annotations

import re

from ...stats.events import EvalResult, Event, RunInfo, StageEnd, TrainStep
from .fields import Kind, clock_seconds, finite, number
from .pipeline import Emit, EmitLines
from .prefix import LineTimes

_HEAD = re.compile(r"step:(\d{1,12}) - ")
_BAR = re.compile(
    r"Training Progress:\s*(?:\d{1,3}%\|[^|]{0,400}\|\s*)?(\d{1,12})/(\d{1,12}) \[(\d[\d:]{0,11})"
    r"(?:<[\d:?]{1,12})?(?:,\s*(?:(\d{1,9}(?:\.\d+)?)(s/it|it/s)|\?it/s))?"
)
_TOTAL = re.compile(r"Total training steps: (\d{1,12})\s*$")
_FINAL = re.compile(r"""^\(?["']?Final validation metrics: """)
_JOB_END = re.compile(r"^Job '[\w-]{1,120}' succeeded$")
_EVAL_PREFIXES = ("val/", "val-core/")
_VALIDATION_PREFIXES = (*_EVAL_PREFIXES, "val-aux/")  # every key a validation's: no training step
LOSS_KEY = "actor/pg_loss"
LOSS_NOTE = "actor/pg_loss"
# The figures a step's details show, by tokwatch's own names (app/stats/steps/text.py).
_FIGURES = (("critic/score/mean", "reward"), ("response_length/mean", "response_length"),
            # the GPU memory's peak, as printed (the details' memory, its unit the key's)
            ("perf/max_memory_allocated_gb", "memory/max_memory_allocated GB"))


class VerlParser(EmitLines):
    """verl's console lines in, step, evaluation and end events out."""

    name = "verl"

    def __init__(self) -> None:
        self._times = LineTimes()
        self._start_emitting()
        self._last_step: int | None = None  # the last step a metrics line printed
        self._total: int | None = None
        self._bar_rate: tuple[int, float] | None = None  # (step, seconds a step) the bar printed before any metrics line

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """A metrics line, the progress bar, the planned steps or the run's end; anything else is not verl's."""
        head = _HEAD.match(text)
        if head is not None:
            return self._metrics(int(head.group(1)), text[head.end() :])
        if "Training Progress" in text:
            return self._bar(text)
        if text.startswith("Total training steps"):
            m = _TOTAL.match(text)
            if m is not None:
                self._total = int(m.group(1))
                info = RunInfo(at=None, total_steps=self._total)
                return Kind.FULL, lambda: [info]
        if _FINAL.match(text) or _JOB_END.match(text):
            end = StageEnd(at=None, summary=text.strip("(\"' "))
            return Kind.FULL, lambda: [end]
        return Kind.OTHER, None

    def _metrics(self, step: int, tail: str) -> tuple[Kind, Emit | None]:
        pairs: dict[str, float] = {}
        for part in tail.split(" - "):
            key, sep, value = part.strip().rpartition(":")
            figure = number(value) if sep else None
            if figure is not None and key:
                pairs[key] = figure
        if not pairs:
            return Kind.PARTIAL, None
        if all(key.startswith(_VALIDATION_PREFIXES) for key in pairs):
            # Validation alone (ray_trainer's ``val_before_train``: ``step:0 - val-core/…:0.508``): its figures at
            # that step, no training step of its own.
            evals: list[Event] = [EvalResult(at=None, name=key, value=value, step=step) for key, value in pairs.items()
                     if key.startswith(_EVAL_PREFIXES)]
            return Kind.OPEN, lambda: evals
        self._last_step = step if self._last_step is None else max(step, self._last_step)
        step_seconds = finite(pairs.get("timing_s/step"))
        if step_seconds is None and self._bar_rate is not None and self._bar_rate[0] == step:
            step_seconds = self._bar_rate[1]  # (a metrics line without its timing keys: the bar's rate at that step)
        tokens = finite(pairs.get("perf/total_num_tokens"))
        event = TrainStep(
            at=None,
            stage="train",
            step=step,
            total_steps=self._total,
            loss=pairs.get(LOSS_KEY),
            loss_note=LOSS_NOTE if LOSS_KEY in pairs else None,
            grad_norm=pairs.get("actor/grad_norm"),
            step_seconds=step_seconds if step_seconds is not None and step_seconds > 0 else None,
            tokens=tokens if tokens is not None and tokens > 0 else None,
            tokens_per_second=finite(pairs.get("perf/throughput")),
            per_device="perf/throughput" in pairs,
            figures=tuple((name, v) for key, name in _FIGURES if (v := finite(pairs.get(key))) is not None),
        )
        events: list[Event] = [event]
        events.extend(
            EvalResult(at=None, name=key, value=value, step=step)
            for key, value in pairs.items()
            if key.startswith(_EVAL_PREFIXES)
        )
        # A line that ends in a bare number may still be continued by a wrap.
        return Kind.OPEN, lambda: events

    def _bar(self, text: str) -> tuple[Kind, Emit | None]:
        bar = None
        for bar in _BAR.finditer(text):
            pass  # the newest redraw on the line counts
        if bar is None:
            return Kind.OTHER, None
        done, total = int(bar.group(1)), int(bar.group(2))
        self._total = total
        if self._last_step is not None:
            # Beside metrics lines the bar only gives the total: it is redrawn around them on another
            # stream (before or after a step's line) and closed at the last step but one. Before any,
            # a bar at 0 is a step 0 with nothing done: its clock says how long the first step has taken.
            info = RunInfo(at=None, total_steps=total)
            return Kind.FULL, lambda: [info]
        rate = number(bar.group(4)) if bar.group(4) else None
        seconds = None
        if rate is not None and rate > 0:
            seconds = rate if bar.group(5) == "s/it" else 1.0 / rate
            self._bar_rate = (done, seconds)
        event = TrainStep(
            at=None,
            stage="train",
            step=done,
            total_steps=total,
            step_seconds=seconds,
            elapsed_seconds=clock_seconds(bar.group(3)),
        )
        return Kind.FULL, lambda: [event]
