"""TensorFlow's Estimator and its hooks' lines, as the generic step reader reads them.

TF Estimator's ``train()`` logs its loss every N steps through its logging hook (``loss = 4.26, step = 100 (124.394
sec)``: the time since its last record), warns when the global step it read did not move, says when the loss went NaN
(its NanTensorHook), writes out each evaluation (``Saving dict for global step 214: accuracy = 0.6466, …``) and the last
step's loss as ``train()`` returns (``Loss for final step: 0.79459095.``).
"""

from __future__ import annotations

import re

from .fields import NUM
from .grammar import Field, Reading

# A trainer's own words that its loss went NaN (TensorFlow's NanTensorHook, NanLossDuringTrainingError's message).
_NAN_SAID = re.compile(r"\b(?:Model diverged with loss = NaN|NaN loss during training)\b")
# TF Estimator's ``train()`` returning: ``Loss for final step: 0.79459095.``, the last step's loss (its step unprinted).
_FINAL_STEP_LOSS = re.compile(rf"^Loss for final step: ({NUM})\.?$")
# TF Estimator's evaluation written out: ``Saving dict for global step 214: accuracy = 0.6466, global_step = 214,
# loss = 2.4514768``, its figures ``name = value`` after the step it evaluated.
_ESTIMATOR_EVAL = re.compile(r"^Saving dict for global step (\d{1,12}): (.{1,2000})$")
_ESTIMATOR_FIGURE = re.compile(rf"([A-Za-z][\w/.-]{{0,120}}) = ({NUM})(?=,|$)")
# TF Estimator's ``It seems that global step (tf.train.get_global_step) has not been increased. Current value (could be
# stable): 97 vs previous value: 97.``
_TF_STABLE_STEP = re.compile(r"\bglobal step \(tf\.train\.get_global_step\) has not been increased\. Current value "
                             r"\(could be stable\): (\d{1,12}) vs previous value: \d{1,12}\b")
# The time a logging hook's interval took, after the step it reached (TensorFlow's ``step = 100 (124.394 sec)``).
_INTERVAL = re.compile(r"\bstep = (\d{1,12}) \((\d+(?:\.\d+)?) sec\)")


def final_step_loss(s: str) -> float | None:
    """The last step's loss ``train()`` prints as it returns (its step unprinted), or None for any other line."""
    final = _FINAL_STEP_LOSS.match(s)
    return None if final is None else float(final.group(1))


def estimator_eval(s: str) -> list[Reading] | None:
    """An evaluation written out: the global step it evaluated and its figures, the loss as ``eval loss``; None for any
    other line."""
    saved = _ESTIMATOR_EVAL.match(s)
    if saved is None:
        return None
    readings = [Reading(Field.STEP, "global step", float(saved.group(1)))]
    for name, value in _ESTIMATOR_FIGURE.findall(saved.group(2)):
        if name != "global_step":
            readings.append(Reading(Field.EVAL_LOSS, "eval loss" if name == "loss" else name, float(value)))
    return readings


def nan_said(s: str) -> bool:
    """Whether ``s`` is the trainer's own word that its loss went NaN."""
    return _NAN_SAID.search(s) is not None


def stable_step(s: str) -> float | None:
    """The global step Estimator's warning says it read twice (where the run is), or None for any other line."""
    stable = _TF_STABLE_STEP.search(s)
    return None if stable is None else float(stable.group(1))


def logging_interval(text: str) -> tuple[int, float] | None:
    """The step a logging hook's record reached and the seconds its interval took, or None where it prints none."""
    interval = _INTERVAL.search(text)
    return None if interval is None else (int(interval.group(1)), float(interval.group(2)))
