"""A record led by the data split its figures were measured on, its fields apart by ``|``.

A script that scores each split as its epoch ends may print one record a split, the split's word first, then ``|``, ``:``
or ``-``, then its figures ``Name: value`` apart by ``|``::

    TRAIN | Acc: 0.8818 | F1: 0.8797 | P: 0.8800 | R: 0.8797 | Loss: 0.3693
    TEST  | Acc: 0.9938 | F1: 0.9938 | P: 0.9938 | R: 0.9937

The split's word scopes every figure on the record: a training split's ``Loss`` is the training loss, an evaluation
split's figures (test, val, valid, eval) are that evaluation's whether or not a loss is among them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LED = re.compile(r"(?i)^\s*(train(?:ing)?|test|val(?:id(?:ation)?)?|eval(?:uation)?)\s*[|:-]\s*")
_FIELD = re.compile(r"\s*([A-Za-z][\w@/ .-]{0,30}?)\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|(?i:nan|inf))\s*")
TRAIN = "train"


@dataclass(frozen=True, slots=True)
class SplitRecord:
    """The split a record names (``train``, or the evaluation split's word as printed, lowercased) and its figures in
    the order printed, their names lowercased."""

    split: str
    figures: tuple[tuple[str, float], ...]

    @property
    def loss(self) -> float | None:
        return next((value for name, value in self.figures if name == "loss"), None)


def split_record(text: str) -> SplitRecord | None:
    """The record's split and figures (the module's docstring), or None: two fields at least, each ``Name: value``."""
    led = _LED.match(text)
    if led is None or "|" not in text[led.end():]:
        return None
    fields = text[led.end():].split("|")
    if len(fields) < 2:
        return None
    figures = []
    for cell in fields:
        m = _FIELD.fullmatch(cell)
        if m is None:
            return None
        figures.append((m.group(1).strip().lower(), float(m.group(2))))
    word = led.group(1).lower()
    return SplitRecord(TRAIN if word.startswith("train") else word, tuple(figures))
