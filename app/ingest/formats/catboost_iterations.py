"""CatBoost's iteration line (``verbose``), as the generic step reader reads it: a step, its evaluation sets' figures.

CatBoost prints the iteration, the training set's metric (``learn``), each evaluation set's (``test``, ``test1``), the
best so far and its iteration, the run's clock so far (``total``) and its own remaining time, tab-separated (spaces once
pasted): ``0:\tlearn: 0.6569860\ttest: 0.6570642\tbest: 0.6570642 (0)\ttotal: 70.1ms\tremaining: 1m 10s``; its releases
of 2018 print no colon after ``learn`` and the iteration's own time before the clock (``13:\tlearn 0.2893642169passed:
17.7 sec\ttotal: 6m 57s\tremaining: 27m 49s``). Its times: ``0us``, ``57.2ms``, ``1.54s``, ``6m 57s``, ``3h 42m 6s``.
"""

from __future__ import annotations

import re

from .fields import NUM, number
from .grammar import Field, Reading

# CatBoost's first evaluation set: labelled ``test``, as printed (a bare ``test`` is a test loss's)
SET_LABEL = "catboost test"
_CATBOOST_TIME = r"(?:\d+(?:\.\d+)?(?:us|ms|s|m|h|d)\b ?){1,4}"
_CATBOOST_ITERATION = re.compile(
    rf"(?P<iteration>\d{{1,9}}):\s+(?:learn:?\s?(?P<learn>{NUM})\s*)?(?P<sets>(?:test\d*:?\s?{NUM}\s+)*)"
    rf"(?:best(?:Test)?:?\s?{NUM}(?:\s?\(\d{{1,9}}\))?\s+)?(?:passed:\s?(?P<passed>{NUM})\s?sec\s+)?"
    rf"total:\s?(?P<total>{_CATBOOST_TIME})\s*remaining:\s?(?P<remaining>{_CATBOOST_TIME})\s*$"
)
_CATBOOST_SET = re.compile(rf"(test\d*):?\s?({NUM})")
_CATBOOST_PART = re.compile(r"(\d+(?:\.\d+)?)(us|ms|s|m|h|d)")
_CATBOOST_SECONDS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def _catboost_seconds(text: str) -> float:
    """A CatBoost time (``6m 57s``, ``57.2ms``) in seconds."""
    return sum(float(figure) * _CATBOOST_SECONDS[unit] for figure, unit in _CATBOOST_PART.findall(text))


def catboost_iteration(s: str) -> tuple[list[Reading], str | None] | None:
    """The readings of CatBoost's iteration line ``s`` and what its loss is: its ``learn`` figure the latest loss as
    printed (CatBoost prints the metric it stops by, the loss itself unless another is set), each ``test`` set's that
    iteration's evaluation, ``total`` the run's clock, ``remaining`` CatBoost's own remaining time, ``passed`` the
    iteration's own time; None for any other line. The best so far is an earlier iteration's figure, not read."""
    m = _CATBOOST_ITERATION.match(s)
    if m is None:
        return None
    readings = [Reading(Field.STEP, "iteration", float(m.group("iteration")))]
    note = None
    learn = number(m.group("learn")) if m.group("learn") is not None else None
    if learn is not None:
        readings.append(Reading(Field.LOSS, "loss", learn))
        note = "learn"
    for name, text in _CATBOOST_SET.findall(m.group("sets")):
        value = number(text)
        if value is not None:
            # (under its name as printed: CatBoost names no metric, which is the loss only where no other is set)
            readings.append(Reading(Field.EVAL_LOSS, SET_LABEL if name == "test" else name, value))
    passed = number(m.group("passed")) if m.group("passed") is not None else None
    if passed is not None:
        readings.append(Reading(Field.STEP_TIME, "passed", passed))
    readings.append(Reading(Field.ELAPSED, "total", _catboost_seconds(m.group("total"))))
    readings.append(Reading(Field.ETA, "remaining", _catboost_seconds(m.group("remaining"))))
    return readings, note
