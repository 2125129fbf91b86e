"""Scalars printed one a line as TensorBoard logs them: ``tag value step``.

A loop that mirrors its ``writer.add_scalar(tag, value, step)`` calls to the console prints
``losses/policy_loss 53.2737 195000``, ``losses/q1_loss 51.155754 195000``, … (rl-blox's JAX/Flax
SAC; cleanrl-style scripts): a tag with its path, the value, the step. The lines of one step,
one after another, are one record; :class:`TaggedScalars` holds them and gives them back as one
``step: N | name: value | …`` record for the generic reader's grammar, once a line of another
step or of another kind shows the record is whole. A tag's last part names the figure
(``losses/q1_loss`` is ``q1_loss``); a data split before it stays (``val/loss`` is ``val_loss``).
A value that is no number (``losses/alpha [0.0157]``, a one-element array's print) is left out.
"""

from __future__ import annotations

import re

from .fields import NUM, number, tag_name

_TAGGED = re.compile(rf"^\s*([A-Za-z_][\w.-]{{0,40}}(?:/[\w.-]{{1,60}}){{1,4}})\s+(\[?{NUM}\]?)\s+(\d{{1,12}})\s*$")
# A record holds this many figures at most (a runaway of tags at one step is cut, never grown without bound).
_MOST = 64


def tagged(text: str) -> bool:
    """Whether the line is one ``tag value step`` scalar."""
    return "/" in text and _TAGGED.match(text) is not None


class TaggedScalars:
    """The ``tag value step`` lines of one step, held until the record is whole."""

    def __init__(self) -> None:
        self.step: int | None = None
        self._figures: list[tuple[str, str]] = []
        # The step's figures already handed on at a batch's end (:meth:`close`): its record, once whole, completes
        # that one (``completes``), and is none when no figure came after them.
        self.released = 0
        self.completes = False

    def line(self, text: str) -> tuple[bool, str | None]:
        """(True, record or None) for a tagged line (held; the record of the step before when this one starts
        another), (False, record or None) for any other line (the held record, now whole)."""
        m = _TAGGED.match(text) if "/" in text else None
        if m is None:
            return False, self.record()
        step = int(m.group(3))
        record = self.record() if self.step is not None and step != self.step else None
        self.step = step
        value = m.group(2)
        if value[:1] != "[" and number(value) is not None and len(self._figures) < _MOST:
            self._figures.append((tag_name(m.group(1)), value))
        return True, record

    def record(self) -> str | None:
        """The held lines as one ``step: N | name: value | …`` record (None when nothing is held)."""
        step, figures = self.step, self._figures
        self.step, self._figures = None, []
        released, self.released = self.released, 0
        self.completes = released > 0
        if step is None or len(figures) <= released:
            return None
        return " | ".join([f"step: {step}", *(f"{name}: {value}" for name, value in figures)])

    def close(self) -> str | None:
        """The lines held at a batch's end as their step's record so far (the log ends there, or a live read fell
        among them); they stay held, for the lines of the same step a later read brings."""
        step, figures, released = self.step, list(self._figures), self.released
        record = self.record()
        self.step, self._figures = step, figures
        self.released = len(figures) if record is not None else released
        return record
