"""A table drawn a row at a time between box verticals, one row a record (neupy's training table).

neupy (0.6) prints a row an epoch: ``│  3.5858e+06 │    0.042621 │    0.022126 │       23 ms │``, the epoch (``%g``:
e-notation past six digits), the training and the validation error, and the epoch's time with its unit (``23 ms``,
``0.5 sec``, ``00:00:15``: ``neupy.helpers.table.format_time``). Its header (``│ Epoch # │ Train err │ Valid err │ Time
│``) is drawn once, above the first row; a copy of the rows that lost it (a paste of a long run's rows from epoch
3.5857e+06 on) still says what it can by the columns' shapes:

- a first column of whole numbers that rises steadily row on row (by one, or by the rounding of its e-notation: 100 at
  3.5858e+06) is the epoch (the table is written as each epoch ends);
- a column of durations with their unit is that epoch's time;
- a column of other numbers has no name the log prints: it is shown as the table's column, by its place, never under a
  name made up for it (not "loss", not "valid"). Two rows are needed to see the rise: the first is no record yet.

Under a header of names the rows are read by those names, as any ``name: value`` record. (Rows of names and figures in
one cell, RLinf's ``│ Global Step: 51/1000 │``, and a table of figures by data split, Ludwig's, are generic.py's.)
"""

from __future__ import annotations

import re

from .fields import number
from .grammar import Field, lookup, normalise

# A cell that is a duration with its unit, as neupy's ``format_time`` prints it (``23 ms``, ``1.5 sec``, ``04:10:45``).
_DURATION = re.compile(r"(\d+(?:\.\d+)?) ?(ms|s|sec|min)|(\d{1,3}:\d\d:\d\d)")
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|nan|inf")
# A header's cell: a name (``Epoch #``, ``Train err``), no figure in it.
_NAME = re.compile(r"[A-Za-z][\w .()/%#-]{0,40}")
_POSITION_NAME = re.compile(r"(?i)(epoch|step|iteration|iter)\s*#?")
COLUMN_PART = "column/"  # a figure of a table whose header is not in the log: its column's place (``column/2``)
_MAX_CELLS = 16
# A row read: its ``name: value | …`` record ("" for none yet), and the figures beside it that no name of the log's names.
Row = tuple[str, tuple[tuple[str, float], ...]]


class BoxRows:
    """The rows of one table drawn between box verticals, and its header when the log has it."""

    def __init__(self) -> None:
        self._names: list[str] = []  # the header's names, when it was read
        self._last: tuple[int, float, float | None] | None = None  # a headerless row's cells, first figure, its rise

    def row(self, cells: list[str]) -> Row | None:
        """A row as a ``name: value | …`` record and the unnamed figures beside it; ``("", ())`` for a header row
        (remembered) or a first headerless row (no record yet); None for a row of no such table (it ends one)."""
        if not 2 <= len(cells) <= _MAX_CELLS:
            return self._end()
        if all(_NAME.fullmatch(c) and number(c) is None and _DURATION.fullmatch(c) is None for c in cells):
            position = _POSITION_NAME.fullmatch(cells[0])
            if position is None:
                return self._end()
            self._names, self._last = [position.group(1).lower(), *cells[1:]], None
            return "", ()
        if not all(_NUMBER.fullmatch(c) or _DURATION.fullmatch(c) for c in cells[1:]):
            return self._end()
        first = number(cells[0]) if _NUMBER.fullmatch(cells[0]) else None
        if first is None or not first.is_integer() or first < 0:
            return self._end()
        if self._names:
            if len(cells) != len(self._names):
                return self._end()
            by_epoch = lookup(normalise(self._names[0]))[0] is Field.EPOCH
            pairs = [(self._timed(name, cell, by_epoch), cell) for name, cell in zip(self._names, cells, strict=True)]
            return " | ".join(f"{name}: {_as_read(cell)}" for name, cell in pairs), ()
        last = self._last
        rise = None if last is None or last[0] != len(cells) else first - last[1]
        self._last = (len(cells), first, rise)
        durations = [k for k, cell in enumerate(cells) if k and _DURATION.fullmatch(cell)]
        if last is None or rise is None or rise <= 0 or len(durations) > 1 or (last[2] is not None and rise != last[2]):
            return "", ()  # (a first row, or one whose first figure does not rise as steadily as before it)
        if not durations and rise != 1:
            return "", ()  # (no time beside it and no rise by one: nothing says the first column counts epochs)
        record = [f"epoch: {first:.0f}"] + [f"step time: {_as_read(cells[k])}" for k in durations]
        unnamed = tuple((f"{COLUMN_PART}{k + 1}", value) for k, cell in enumerate(cells)
                        if k and k not in durations and (value := number(cell)) is not None)
        return " | ".join(record), unnamed

    def _end(self) -> Row | None:
        """No row of this table: the table, its header and its rise forgotten."""
        self._names, self._last = [], None
        return None

    @staticmethod
    def _timed(name: str, cell: str, by_epoch: bool) -> str:
        """A header's name for its cell: a duration under ``Time`` in a table an epoch a row is that epoch's time."""
        if by_epoch and _DURATION.fullmatch(cell) and lookup(normalise(name))[0] in (Field.STEP_TIME, None):
            return "step time"
        return name


def _as_read(cell: str) -> str:
    """A cell as the grammar reads it: a duration's unit glued to its figure (``23ms``, ``1.5s``)."""
    duration = _DURATION.fullmatch(cell)
    if duration is None or duration.group(3):
        return cell
    unit = {"sec": "s"}.get(duration.group(2), duration.group(2))
    return f"{duration.group(1)}{unit}"
