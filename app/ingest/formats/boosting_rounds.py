"""Gradient-boosting libraries' lines, as the generic step reader reads them: XGBoost's and LightGBM's rounds, the LightGBM
CLI's metric lines, and the line before the best round's figures are printed again.

Every round is a step; its figures are the data sets' metrics: the training set's that is a loss (an error to bring
down) the step's loss, every other that round's evaluation.
"""

from __future__ import annotations

import re

from .fields import NUM, number
from .grammar import Field, Reading, normalise

# A gradient-boosting library's round (XGBoost: ``[31]\tvalidation_0-rmse:4.639857``, ``xgb.cv``'s
# ``train-logloss:0.5289+0.0004``; LightGBM: ``[25]\ttrain's rmse: 1.32994\teval's rmse: 1.34434``, its R
# package's ``[5]:    train's l2:0.0950898``): the round, then each data set's metric, tab-separated (spaces
# once pasted). Every round is a step; its figures are the data sets' metrics.
_ROUND = re.compile(r"\[(\d{1,9})\]:?[ \t]+(?=[^\s:]{1,60}(?:-|'s )[^\s:]{1,60}:)")
_ROUND_METRIC = re.compile(
    rf"[ \t]*(?:(?P<set>[^\s:'-]{{1,60}})-(?P<metric>[^\s:]{{1,60}})|(?P<lset>[^\s']{{1,60}})'s (?P<lmetric>[^\s:]{{1,60}})):"
    rf" ?(?P<value>{NUM})(?: ?\+ ?(?:{NUM}))?(?=[ \t]|$)"
)
# The training set's metric that is a loss (an error to bring down), not a score (``auc``, ``ndcg@5``); XGBoost's
# classification error (``error``, ``merror``, ``error@0.7``: the share misclassified) is one, the figure its binary and
# multi-class objectives print by default.
_ROUND_LOSS = re.compile(
    r"(?i)^(?:r?mse|mae|l[12]|rmsle|mape|huber|fair|quantile|m?logloss|binary_logloss|multi_logloss|m?error(?:@[\d.]+)?|"
    r"cross_entropy|xentropy|[\w-]*nloglik[\w@.]*|[\w-]*deviance|\w*loss)$"
)
# XGBoost's ``Stopping. Best iteration:``, LightGBM's ``Early stopping, best iteration is:`` and ``Did not meet
# early stopping. Best iteration is:``: the next line repeats the best round's figures.
_BEST_ROUND = re.compile(r"(?i)^(?:stopping\. best iteration|early stopping, best iteration is"
                         r"|did not meet early stopping\. best iteration is):\s*$")
# The LightGBM CLI's line of one data set's metric at an iteration, as it prints it since 2017, behind its name and level
# (``[LightGBM] [Info] Iteration:18, training binary_logloss : 0.206054``; its first releases wrote ``training's log
# loss: 0.004594``, read as any named figure).
_CLI_METRIC = re.compile(rf"(?:\[\w{{1,20}}\] ){{0,2}}Iteration:(\d{{1,9}}), (\S{{1,80}}) ([A-Za-z][\w@.-]{{0,60}}) : ({NUM})\s*$")


def best_round_next(s: str) -> bool:
    """Whether ``s`` says the next line repeats the best round's figures (``_BEST_ROUND``): no round trained."""
    return s[:1] in "SED" and _BEST_ROUND.match(s) is not None


def cli_metric(s: str) -> tuple[int, str, str, float | None] | None:
    """A LightGBM CLI metric line's iteration, data set, metric and value (None: no number), or None for any other line."""
    if "Iteration:" not in s[:40] or (m := _CLI_METRIC.match(s)) is None:
        return None
    return int(m.group(1)), m.group(2), m.group(3), number(m.group(4))


def loss_metric(name: str) -> bool:
    """Whether a training set's metric ``name`` is a loss (``_ROUND_LOSS``), not a score."""
    return _ROUND_LOSS.match(name) is not None


def boosting_round(s: str) -> tuple[list[Reading], str | None] | None:
    """The readings of a boosting round's line ``s`` (see ``_ROUND``) and what its loss is: the training set's loss, the
    other metrics as that round's evaluations; None for any other line."""
    m = _ROUND.match(s)
    if m is None:
        return None
    readings = [Reading(Field.STEP, "round", float(m.group(1)))]
    note = None
    i = m.end()
    while i < len(s):
        metric = _ROUND_METRIC.match(s, i)
        if metric is None:
            return None  # not every field a data set's metric: another bracket-led record
        i = metric.end()
        data, name = metric.group("set") or metric.group("lset"), metric.group("metric") or metric.group("lmetric")
        value = number(metric.group("value"))
        if value is None:
            return None
        if note is None and "train" in data.lower() and _ROUND_LOSS.match(name):
            note = f"{data}-{name}" if metric.group("set") else f"{data}'s {name}"
            readings.append(Reading(Field.LOSS, "loss", value))
        else:
            readings.append(Reading(Field.EVAL_LOSS, normalise(f"{data} {name}"), value))
    return readings, note
