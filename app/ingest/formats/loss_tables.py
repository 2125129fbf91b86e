"""A tab-separated table of losses whose header names no counter: each row under it is one logged record.

A loop may write its losses as a table, a header of their names then one row a logging interval, and number none of
its rows (PGNet's ``train_log.txt``: ``total loss<TAB>score loss<TAB>border loss<TAB>direc loss<TAB>ctc loss``, each row its
five figures, a tab after the last). With no step, iteration or epoch column, a row is a record the log holds, counted as
such, never a step. The one column the field grammar names as the model's loss (``total loss``, ``loss``) is the
record's loss; the other columns named as losses (``score loss``, ``ctc loss``: its parts) are shown under their names
as printed. A header that names a counter, or no loss or several, is no such table: the other readers take it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .fields import LOSS_PART, number
from .grammar import Field, lookup, loss_words, normalise

_MAX_COLUMNS = 32
_MAX_NAME_CHARS = 40


@dataclass(frozen=True, slots=True)
class LossTable:
    """A table's column names as printed, and which of them is the model's loss."""

    columns: tuple[str, ...]
    loss_at: int


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().split("\t")]


def loss_table_header(line: str) -> LossTable | None:
    """The table a tab-separated header line begins (None: no such header)."""
    cells = _cells(line)
    if not 2 <= len(cells) <= _MAX_COLUMNS or not all(cell[:1].isalpha() and len(cell) <= _MAX_NAME_CHARS for cell in cells):
        return None
    fields = [lookup(normalise(cell))[0] for cell in cells]
    if any(field in (Field.STEP, Field.EPOCH, Field.TOTAL) for field in fields):
        return None  # (a table with its counter: its rows are steps, read as such elsewhere)
    losses = [i for i, field in enumerate(fields) if field is Field.LOSS]
    if len(losses) != 1 or not all(loss_words(normalise(cell)) is not None for cell in cells):
        return None  # (every column a loss's: a table of other figures is not read here)
    return LossTable(tuple(cells), losses[0])


def loss_table_row(table: LossTable, line: str) -> tuple[float, tuple[tuple[str, float], ...]] | None:
    """A row's loss and its other losses (under ``loss/`` and their printed names); None when the line is no row."""
    cells = _cells(line)
    if len(cells) != len(table.columns):
        return None
    values = [number(cell) for cell in cells]
    if any(value is None for value in values):
        return None
    loss = values[table.loss_at]
    assert loss is not None
    parts = tuple((LOSS_PART + name, value) for i, (name, value) in enumerate(zip(table.columns, values, strict=True))
                  if i != table.loss_at and value is not None)
    return loss, parts
