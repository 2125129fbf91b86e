"""Chainer's trainer (ESPnet1 and every Chainer script): ``PrintReport``'s table and ``ProgressBar``'s lines.

``chainer.training.extensions.PrintReport`` prints a header of the reported names (``epoch  iteration
main/loss  validation/main/loss  elapsed_time``) and under it one row each time it reports, each value
left-aligned under its name (a name reported only at some rows leaves its cell blank: validation runs once
an epoch). ``iteration`` is the step, ``epoch`` the epochs done, ``main/loss`` the loss (its parts
``main/loss_*`` in the details), ``lr`` the learning rate, ``validation/…`` (``val/…``) the evaluation at that
iteration, ``elapsed_time`` the seconds since the trainer started (the run's clock). ``ProgressBar`` redraws
its lines beneath (``     100 iter, 0 epoch / 100 epochs``): the run's epochs.
"""

from __future__ import annotations

import re

from ...stats.events import EvalResult, Event, TrainStep
from .fields import Kind, finite, integer, number
from .pipeline import Emit, EmitLines
from .prefix import LineTimes

_NAME = re.compile(r"\S+")
_EPOCHS = re.compile(r"^\s*\d{1,12} iter, \d{1,9} epoch / (\d{1,9}) epochs\s*$")
_EVALS = ("validation/", "val/")
# The plain names PrintReport's header may hold beside the reported ones (the trainer's own and a schedule's).
_PLAIN = frozenset({"iteration", "elapsed_time", "lr", "alpha", "eps"})
_REPORTED = ("main/", *_EVALS)  # names only a reporter's observation carries (``main/loss``, ``validation/main/loss``)


def _nothing() -> list[Event]:
    return []


_READ: Emit = _nothing  # the header, or a progress line read for what it adds


class ChainerParser(EmitLines):
    """Chainer's report table in, step and evaluation events out."""

    name = "chainer"

    def __init__(self) -> None:
        self._times = LineTimes()
        self._start_emitting()
        self._columns: list[tuple[str, int]] = []  # the header's names and where each starts
        self._epochs: int | None = None

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """The report's header or a row under it, or the progress bar's epochs; anything else is not Chainer's."""
        if text.startswith("epoch ") and ("iteration" in text or "/" in text):
            columns = [(m.group(), m.start()) for m in _NAME.finditer(text)]
            names = [name for name, _ in columns]
            if (names[:2] == ["epoch", "iteration"] or ("iteration" in names and len(names) >= 3)
                    or (len(names) >= 2 and all(name.startswith(_REPORTED) or name in _PLAIN for name in names[1:])
                        and any(name.startswith(_REPORTED) for name in names))):
                self._columns = columns
                # a header the terminal wrapped inside its last name (``elapsed_`` then ``time``): joined with the next line
                return (Kind.PARTIAL, None) if names[-1].endswith("_") else (Kind.FULL, _READ)
        if " epochs" in text:
            epochs = _EPOCHS.match(text)
            if epochs is not None:
                self._epochs = int(epochs.group(1))
                return Kind.FULL, _READ
        if self._columns and text[:1].isdigit() and text.rstrip()[-1:].isdigit():
            return self._row(text.rstrip())  # (a row ends in a number: one ending otherwise has another line glued on)
        return Kind.OTHER, None

    def _row(self, text: str) -> tuple[Kind, Emit | None]:
        columns = self._columns
        cells: dict[str, str] = {}
        for k, (name, start) in enumerate(columns):
            end = columns[k + 1][1] if k + 1 < len(columns) else len(text)
            cell = text[start:end].strip()
            if " " in cell:
                return Kind.OTHER, None  # not a row of this table (its columns do not line up)
            if cell:
                cells[name] = cell
        epoch = finite(number(cells.get("epoch")))
        by_epoch = not any(name == "iteration" for name, _ in columns)
        # (a table of no iteration is reported once an epoch: its epoch is its step)
        step = integer(cells.get("epoch" if by_epoch else "iteration"))
        if step is None:
            return Kind.OTHER, None
        loss = number(cells.get("main/loss"))
        parts = tuple((f"loss/{name.removeprefix('main/')}", value) for name, text_value in cells.items()
                      if name.startswith("main/loss_") and (value := finite(number(text_value))) is not None)
        event = TrainStep(
            at=None,
            stage="train",
            step=step,
            loss=loss,
            loss_note="the report's mean" if loss is not None else None,
            lr=finite(number(cells.get("lr"))),
            elapsed_seconds=finite(number(cells.get("elapsed_time"))),
            epoch=epoch,
            epoch_total=self._epochs,
            figures=parts if len(parts) >= 2 else (),
        )
        events: list[Event] = [event]
        events.extend(EvalResult(at=None, name=name, value=value, step=step) for name, text_value in cells.items()
                      if name.startswith(_EVALS) and (value := number(text_value)) is not None)
        # A row ends in a bare number (its elapsed time): a wrap may still continue it.
        return Kind.OPEN, lambda: events
