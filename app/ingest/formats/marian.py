"""Marian NMT: ``Ep. 62 : Up. 20000 : Sen. 21,587 : Cost 0.06380463 * 898,943 @ 2,380 after 35,885,885 : Time 111.22s :
8082.72 words/s : gNorm 0.6358 : L.r. 3.0000e-04`` and ``[valid] Ep. 62 : Up. 20000 : bleu : 99.5307 : new best``.

``src/training/scheduler.h`` prints one line every ``--disp-freq`` updates, behind Marian's own ``[date time]`` (read
by the pipeline): ``Ep.`` the data epoch (a fraction under ``--logical-epoch``), ``Up.`` the updates so far (the step),
``Sen.`` the sentences of this epoch seen (no step), ``Cost`` the training cost since the last display (by its
``--cost-type``; 1.7+ follows it with its labels ``* N``, the batches' ``@ N`` and the labels seen ``after N``),
``Time`` the seconds since the last display (its updates', together), ``words/s`` the target words (tokens) a second
over them, ``gNorm`` (1.10+) the gradient's norm and ``L.r.`` the learning rate. Each ``--valid-metrics`` metric is
a ``[valid]`` line at its update, its value whatever follows (``new best``, ``stalled 4 times (last best: …)``).
Saving a model is no end: ``Training finished`` is. The first display line's Time is over updates no line says: its
step time is left to the lines' clock.
"""

from __future__ import annotations

import re

from ...stats.events import EvalResult, Event, StageEnd, TrainStep
from .fields import NUM, Kind, finite, number
from .pipeline import Emit, EmitLines
from .prefix import LineTimes

_HEAD = re.compile(r"^(?:\[valid\] )?Ep\. (\d{1,9}(?:\.\d+)?) : Up\. (\d{1,12}) : ")
_COST = re.compile(rf"^Sen\. [\d,]{{1,20}} : Cost ({NUM})(?: \* [\d,]+)?(?: @ [\d,]+)?(?: after [\d,]+)? : ")
_TIME = re.compile(rf"Time ({NUM})s : ({NUM}) words/s\b")
_NAMED = re.compile(rf" : (gNorm|L\.r\.) ({NUM})")
_VALID = re.compile(rf"^([\w.@-]{{1,60}}) : ({NUM})(?: : |\s*$)")
# Its end as the first versions spelled it in ``src/training/training.h`` (the later ``Training finished`` is read as any
# trainer's closing words are, by the crash watch's endings).
_FINISHED = "Training finshed"
COST_NOTE = "the cost since the last display, by its cost type"
TIME_NOTE = "the display's Time over its updates"


class MarianParser(EmitLines):
    """Marian's display and validation lines in, step and evaluation events out."""

    name = "marian"

    def __init__(self) -> None:
        self._times = LineTimes()
        self._start_emitting()
        self._update: int | None = None  # the update of the last display line: the next line's Time is since it

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """A display line (a step), a ``[valid]`` line (an evaluation) or its end; else not Marian's."""
        head = _HEAD.match(text) if "Up. " in text else None
        if head is None:
            if text == _FINISHED:
                return Kind.FULL, lambda: [StageEnd(at=None, summary=text)]
            return Kind.OTHER, None
        epoch, update = finite(number(head.group(1))), int(head.group(2))
        rest = text[head.end():]
        if not rest.startswith("Sen. "):
            # a validation line (its ``[valid] `` tag is peeled with the time before it, as any logger's field is)
            valid = _VALID.match(rest)
            if valid is None:
                return Kind.OTHER, None
            result = EvalResult(at=None, name=f"valid/{valid.group(1)}", value=number(valid.group(2)), step=update)
            return Kind.FULL, lambda: [result]
        cost = _COST.match(rest)
        if cost is None:
            return Kind.OTHER, None
        return Kind.FULL, self._step(epoch, update, number(cost.group(1)), rest[cost.end():])

    def _step(self, epoch: float | None, update: int, cost: float | None, rest: str) -> Emit:
        timed = _TIME.match(rest)
        named = {m.group(1): finite(number(m.group(2))) for m in _NAMED.finditer(rest)}
        seconds = finite(number(timed.group(1))) if timed is not None else None
        words = finite(number(timed.group(2))) if timed is not None else None

        def emit() -> list[Event]:
            # Time covers the updates since the display before, which only that line's update says.
            since = update - self._update if self._update is not None and update > self._update else None
            self._update = update
            step_seconds = seconds / since if seconds is not None and seconds > 0 and since is not None else None
            return [TrainStep(
                at=None,
                stage="train",
                step=update,
                loss=cost,
                loss_note=COST_NOTE if cost is not None else None,
                lr=named.get("L.r."),
                grad_norm=named.get("gNorm"),
                step_seconds=step_seconds,
                step_seconds_note=TIME_NOTE if step_seconds is not None else None,
                interval_average=step_seconds is not None,
                tokens_per_second=words if words is not None and words > 0 else None,
                epoch=epoch,
            )]

        return emit
