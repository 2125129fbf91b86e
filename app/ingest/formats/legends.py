"""A log's own legend of the short names its records print, read where it names a rate the reader knows.

saforem2/wordplay prints a table above its records (rich's box drawing)::

                    Training Legend
    ┃        abbr ┃ desc                           ┃
    │         sps │ Samples per second             │
    │         tps │ Tokens per second              │
    │ tps_per_gpu │ Tokens per second (per GPU)    │

then ``step=10 loss=3.15 dt=0.27 … sps=3.66 sps_per_gpu=3.66 tps=240108 tps_per_gpu=240108 mfu=47.97``. ``tps`` alone
could be anything's per second; the legend says whose, so a record's short name is read as the long one the legend
gives it, and only where the legend gives one this reader knows (a rate of tokens or of samples): never guessed.
"""

from __future__ import annotations

import re

from .classes import Kin, kin_of
from .grammar import Field, lookup, normalise

__all__ = ["legend_row", "spelled_out"]

# A row of a drawn two-column table: a short name, then its description (``│ tps │ Tokens per second │``, ``| sps |
# Samples per second |``).
_ROW = re.compile(r"^[│┃|]\s*([A-Za-z]\w{0,23})\s*[│┃|]\s*([A-Za-z][A-Za-z ()-]{2,60}? per [A-Za-z ()-]{1,40}?)\s*[│┃|]?$")
_RATE_FIELDS = frozenset({Field.TOKENS_PER_SECOND, Field.TOKENS_PER_SECOND_DEVICE})
MAX_LEGEND_NAMES = 32


def legend_row(text: str) -> tuple[str, str] | None:
    """A legend's row that names a rate this reader knows: the short name and the long one (``("tps",
    "tokens_per_second")``, ``("tps_per_gpu", "tokens_per_second_per_gpu")``), else None."""
    row = _ROW.match(text)
    if row is None:
        return None
    short, description = row.group(1), row.group(2)
    name = normalise(description.replace("(", " ").replace(")", " "))
    if lookup(normalise(short))[0] is not None or kin_of(normalise(short), None) is not None:
        return None  # (a name the reader knows already, a table's header: ``│ step │ samples per sec │``)
    field, matched = lookup(name)
    if (field in _RATE_FIELDS and matched == name) or kin_of(name, None) is Kin.RATE:
        return short, name.replace(" ", "_")
    return None


def spelled_out(text: str, legend: dict[str, str]) -> str:
    """The record with each short name its legend spells out written as the long name (``tps=6401.85`` →
    ``tokens_per_second=6401.85``): read as that rate, its value as printed."""
    if not any(short + "=" in text or short + ":" in text for short in legend):
        return text
    pattern = r"(?<![\w/.])(" + "|".join(re.escape(short) for short in legend) + r")(?=\s?[=:]\s?\d)"
    return re.sub(pattern, lambda m: legend[m.group(1)], text)
