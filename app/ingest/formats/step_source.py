"""Which of a log's numbered series is the run's training step, and what each other series is.

A log may print more than one series of numbered records, and only one of them is where training is:

- a validation or test pass counts its own batches and names its stage in the record (mmengine's
  ``Epoch(val) [2][3550/21046]``, the PyTorch examples' ``Test Epoch: 33<TAB>Accuracy: 9466/11005 (86%)``):
  an evaluation under way, or its result, never a training step; a score printed as a count of a total with its
  share (``Accuracy: 9466/11005 (86%)``) is that evaluation's figure;
- an engine's own progress record, a count that ticks at a steady cadence beside the throughput it measured
  (DeepSpeed's ``[timer.py:166:stop] 0/240, SamplesPerSec=36.18``), is the run's position where no other
  record names one (series.py reads it by repetition);
- a user's print of a figure at a step (``[200] Loss : 6.38``, once from each of three ranks) beside that
  progress: a step that is not past the position the chosen series gave carries that step's figures, not a
  new position.

The generic reader asks here what a record is: :func:`evaluation_stage` and :func:`evaluation_position` for an
evaluation under way, :func:`shares` for a score, and its :class:`StepSource` whether a record of another shape than the
series that gives the run's position (the one series.py read by how it ticks) carries only figures.
"""

from __future__ import annotations

import re

from ...stats.events import PERCENT_SUFFIX
from .grammar import EVAL_WORDS, normalise

# A record's stage named in brackets after its counter's name (mmengine's ``Epoch(val)``, ``Iter(test)``).
_STAGE_TAG = re.compile(r"(?i)\b(?:epoch|iter|iteration|step)\s?\(\s?(\w{1,12})\s?\)")
# A score printed as a count of a total, then its share (``Accuracy: 9466/11005 (86%)``).
_SHARE = re.compile(r"([A-Za-z][A-Za-z_ ]{0,30}?)\s?[:=]\s?(\d{1,12})\s?/\s?(\d{1,12})\s?\(\s?(\d{1,3}(?:\.\d+)?)\s?%\s?\)")


# A record led by its stage, an evaluation's, then its position in brackets (torchvision's and DETR's MetricLogger
# ``Test:  [ 100/5000]``, ``Validation: [50/500]``).
_STAGE_POSITION = re.compile(r"^\W{0,4}([A-Za-z]{2,12})\W{0,3}\s*\[\s*(\d{1,12})\s*/\s*(\d{1,12})\s*\]")


# A figure named by its data split alone (PyG's ``Train: 0.5429, Val: 0.5406, Test: 0.4877``, ``Val: 65.75%,``), led by
# the line's start or a separator: ``loss train: 2.846`` (litgpt's, a loss by split) is no split alone. Said to be
# approximate (DGL's examples: ``Approx. Train: 0.5776, Approx. Val: 0.6248``), it is named so.
_SPLIT_ALONE = re.compile(r"(?i)(?:^|[,|;:]\s*)((?:approx\.\s)?(?:train|val|valid|validation|test|dev))\s?[:=]\s?"
                          r"([-+]?\d+(?:\.\d+)?)(\s?%)?(?![\w.])")
# The training split named alone with a figure (``Train: 0.83``), or an evaluation's loss named in words (``Best Val loss:
# 0.9427``): beside either, a split named alone is no loss.
_NOT_LOSSES = re.compile(r"(?i)(?:(?:^|[,|;:]\s*)(?:approx\.\s)?train\s?[:=]\s?\d|\b(?:val|valid|validation|test|dev)[\s_]loss\b)")


def split_scores(text: str) -> list[tuple[str, float]]:
    """The figures a record names by their data split alone, under the names printed, where they are no loss: a line
    that names no loss (``Train: 0.5429, Val: 0.5406, Test: 0.4877``), or names its losses apart beside a training
    split's figure or an evaluation's loss in words (``Epoch: 005, Loss: 0.51, Train: 0.83, Val: 0.79, Test: 0.80``;
    ``Best Val loss: 0.9427, Accs: Train: 0.7351, Val: 0.7079``), is scoring each split;
    one printed in per cent (``Val: 65.75%``) is a share, named so (``val_percent``). Empty where a split's figure may
    be its loss (litgpt's ``loss train: 2.846, val: 2.861``; ``loss: 3.16 | val: 2.97``)."""
    # (a whole number is no score but the split's count or epoch: timm's ``Train: 3 [   0/246]``)
    found = [(m.group(1).lower(), float(m.group(2)), m.group(3) is not None) for m in _SPLIT_ALONE.finditer(text)
             if "." in m.group(2) or m.group(3) is not None]
    if not found:
        return []
    scored = "loss" not in text.lower() or _NOT_LOSSES.search(text) is not None
    return [(split + PERCENT_SUFFIX if percent else split, value) for split, value, percent in found
            if percent or scored]


def evaluation_position(text: str) -> tuple[int, int] | None:
    """The batches done and planned of an evaluation pass whose record leads with its stage (``Test:  [ 100/5000]``),
    or None."""
    led = _STAGE_POSITION.match(text)
    if led is None or led.group(1).lower() not in EVAL_WORDS:
        return None
    done, planned = int(led.group(2)), int(led.group(3))
    return (done, planned) if done <= planned else None


def evaluation_stage(head: str) -> bool:
    """True when a record names its stage, in brackets after its counter, as an evaluation (``Epoch(val)``)."""
    tag = _STAGE_TAG.search(head)
    return tag is not None and tag.group(1).lower() in EVAL_WORDS


# A named accuracy printed as a count of a total and the fraction they make, on a line of its own (build-nanogpt's
# ``HellaSwag accuracy: 3045/10042=0.3032``, after its ``validation loss:``): a benchmark's or a split's score.
_COUNTED_SCORE = re.compile(
    r"^([A-Za-z][\w.-]{0,30}(?: [A-Za-z][\w.-]{0,30}){0,2}) (acc(?:uracy)?|acc_norm)\s?:\s?(\d{1,12})\s?/\s?(\d{1,12})"
    r"\s?=\s?(\d(?:\.\d+)?)$", re.IGNORECASE)


def counted_score(text: str) -> tuple[str, str, float] | None:
    """The name, as printed, and the fraction of a named accuracy printed as ``count/total=fraction``
    (``HellaSwag accuracy: 3045/10042=0.3032`` → ``("HellaSwag accuracy", "hellaswag accuracy", 0.3032)``), where
    the count is of the total and the fraction theirs; None for any other line."""
    m = _COUNTED_SCORE.match(text)
    if m is None:
        return None
    count, total, fraction = int(m.group(3)), int(m.group(4)), float(m.group(5))
    if not 0 < total or count > total or fraction > 1 or abs(count / total - fraction) > 0.001:
        return None
    printed = f"{m.group(1)} {m.group(2)}"
    return printed, normalise(printed), fraction


def shares(text: str) -> list[tuple[str, float]]:
    """The scores a record prints as a count of a total and its share (``Accuracy: 9466/11005 (86%)`` →
    ``("accuracy", 86.0)``: the share as printed, in per cent)."""
    got: list[tuple[str, float]] = []
    for m in _SHARE.finditer(text):
        name, count, total, share = m.groups()
        if int(count) <= int(total) and float(share) <= 100:
            got.append((normalise(name), float(share)))
    return got


# A top-k accuracy printed in per cent on an evaluation's line, its ``k`` after an ``@`` (the PyTorch ImageNet example's
# ``Acc@1``, ``Prec@5``): ``Test set: Average loss: 2.2228, Acc@1: 48.516%, Acc@5: 74.858%``.
_TRAINING_BEFORE = re.compile(r"(?i)\btrain(?:ing)?[\s_]*$")  # (``Train Acc@1: 44.0%``: the training's, no evaluation's)
# A plain accuracy in per cent is one too, the line's stage its owner (SiaStegNet's ``Test set: Loss: 0.7222, Accuracy:
# 50.06%)``: the test's); a training's (``Train Accuracy: 83.50%``) never.
_TOP_K_SCORE = re.compile(r"(?i)(?<![\w@])((?:acc|prec)@\d{1,2}|acc(?:uracy)?)\s?[:=]?\s?(\d{1,3}(?:\.\d+)?)\s?%")


def top_k_scores(text: str) -> list[tuple[str, float]]:
    """The top-k and plain accuracies an evaluation's record prints in per cent (``Acc@1: 48.516%`` → ``("acc@1",
    48.516)``, ``Accuracy: 50.06%`` → ``("accuracy", 50.06)``)."""
    return [(m.group(1).lower(), float(m.group(2))) for m in _TOP_K_SCORE.finditer(text)
            if float(m.group(2)) <= 100 and not _TRAINING_BEFORE.search(text[max(0, m.start() - 12):m.start()])]


# The top-k accuracies an evaluation's pass sums up with, once its batches are done, on a line led by a star and no per
# cent sign (the PyTorch ImageNet example's and DeiT's ``* Acc@1 88.381 Acc@5 96.779 loss 0.445``, torchvision's
# reference ``* Acc@1 76.130 Acc@5 92.862``): that pass's result.
STARRED_SUMMARY = re.compile(r"(?i)^\*\s{0,4}(?:acc|prec)@\d{1,2}\s")
_STARRED_SCORE = re.compile(r"(?i)(?<![\w@])((?:acc|prec)@\d{1,2})\s+(\d{1,3}(?:\.\d+)?)(?![\w.%])")


def starred_top_k(text: str) -> list[tuple[str, float]]:
    """The top-k accuracies of a starred summary line (``* Acc@1 88.381 Acc@5 96.779`` → ``("acc@1", 88.381)``, …), in
    per cent as printed; none for another line."""
    if not STARRED_SUMMARY.match(text):
        return []
    return [(m.group(1).lower(), float(m.group(2))) for m in _STARRED_SCORE.finditer(text) if float(m.group(2)) <= 100]


class StepSource:
    """The series the run's position comes from, and what a step record of another series is beside it."""

    def __init__(self) -> None:
        self._shape: str | None = None  # the shape (digits dropped) of the series chosen by how it ticks
        self._last: int | None = None  # … and the last position it gave

    def chosen(self, shape: str, step: int) -> None:
        """A record read by its series (its numbers judged by how they tick) gave the run's position."""
        self._shape, self._last = shape, step

    def figures_only(self, shape: str, step: int) -> bool:
        """True when a step record of another shape than the chosen series' is no position of its own: its step is
        not past the one that series gave (a user's print of the loss at a step the engine's progress reached)."""
        return self._shape is not None and shape != self._shape and self._last is not None and step <= self._last
