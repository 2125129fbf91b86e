"""An evaluation's figures printed on a line of their own after a word saying they are the current result.

PaddleOCR's trainer (``tools/program.py``, and PaddleX's models built on it) evaluates every ``eval_batch_step`` steps
and prints the result between its step records as ``cur metric, precision: 0.9986, recall: 0.9968, hmean: 0.9977, fps:
19.99`` (a detector's; a recogniser's ``cur metric, acc: 0.83, norm_edit_dis: 0.95, fps: …``), then the best so far as
``best metric, hmean: …, is_float16: False, …, best_epoch: 7``. No step or training record reads such a line.

Which lines count: the message begins ``cur metric`` or ``current metric`` (``metrics`` too) with a comma or a colon
after it, then only ``name: value`` pairs joined by commas. Each number is that evaluation's figure under its printed
name, at the step last logged. Left out: ``fps`` (the evaluation's own images a second, no pace of the training's) and
a value that is no number (``is_float16: False``). A ``best metric`` line is the best evaluation so far, its
``best_epoch`` an older epoch's: none of its figures is this evaluation's, and it is not read.

A script's own evaluation printed as a dict after words that name it (DuReader's baseline, ``Dev eval result:
{'Bleu-4': 0.1066, 'Rouge-L': 0.2418}``; ``eval results: {'acc': 0.81, 'f1': 0.79}``, ``Validation metrics = {…}``):
each number in the dict is that evaluation's figure under its key, at the step (or epoch) last logged; the words must
name an evaluation's split or the evaluation itself, then ``result(s)``, ``metrics`` or ``scores``.
"""

from __future__ import annotations

import re

from .classes import Kin, Named
from .fields import NUM, number
from .grammar import normalise

# The lead: ``cur metric, `` / ``current metrics: ``.
_LEAD = re.compile(r"(?i)(?:cur|current) metrics?\s*[,:]\s*")
# One pair: ``name: value``, the value a number or a word (a word's pair is left out), a comma after it unless last.
_PAIR = re.compile(rf"\s*(?P<name>[A-Za-z][\w.@-]{{0,40}})\s*:\s*(?:(?P<value>{NUM})|[A-Za-z]\w*)\s*(?:,|$)")
# Figures of the evaluation's own pace, not its result.
_PACE = frozenset({"fps", "ips", "time", "cost"})


def current_metric(text: str) -> list[Named] | None:
    """The evaluation's figures such a line prints (the module's docstring), or None: not such a line."""
    lead = _LEAD.match(text)
    if lead is None:
        return None
    return _entries(text, lead.end(), _PAIR)  # (anything else on it: a sentence, no line of figures)


# ``Dev eval result: {…}``, ``eval results: {…}``, ``Validation metrics = {…}``: an evaluation named, then its dict.
_EVAL_DICT = re.compile(r"(?i)(?:dev|valid|validation|val|eval|evaluation|test)(?: ?set)?(?: eval(?:uation)?)?"
                        r" (?:results?|metrics|scores?)\s*[:=]\s*\{(?P<body>[^{}]{1,2000})\}\s*")
# One entry of it: ``'name': value`` (a value that is no number is left out: a list, a string).
_ENTRY = re.compile(rf"\s*['\"](?P<name>[^'\"]{{1,60}})['\"]\s*:\s*(?:(?P<value>{NUM})(?=\s*(?:,|$))|[^,]*)\s*(?:,|$)")


def evaluation_dict(text: str) -> list[Named] | None:
    """The figures of an evaluation printed as a dict after words naming it (the module's docstring), or None."""
    whole = _EVAL_DICT.fullmatch(text)
    if whole is None:
        return None
    return _entries(whole.group("body"), 0, _ENTRY)  # (anything else in it: no dict of figures)


def _entries(text: str, i: int, entry: re.Pattern[str]) -> list[Named] | None:
    """The evaluation's figures ``entry`` reads one after the other from ``i`` to the text's end (a figure of its
    pace, or a value that is no number, left out), or None where anything else stands between them."""
    found: list[Named] = []
    while i < len(text):
        m = entry.match(text, i)
        if m is None or m.end() == i:
            return None
        i = m.end()
        value = number(m.group("value")) if m.group("value") is not None else None
        name = m.group("name")
        if value is not None and name.lower() not in _PACE:
            found.append(Named(Kin.EVAL, normalise(name), value, name))
    return found or None
