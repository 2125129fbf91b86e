"""A step record's other figures beside the loss it trains by, each under its own name, as the generic reader reads them.

A record that prints its loss often prints more beside it: a training accuracy (Keras' CSVLogger rows ``epoch,accuracy,
loss,val_accuracy,val_loss``; ``Epoch 3 | loss: 0.41 | acc: 0.87``), a second loss (``Train Loss: 0.0047, Train L1 Loss:
0.4555``: the one named plainly a loss is the loss, the other its part under its name), a rate of successes (an RL loop's
``Win Rate: 18.00%`` beside its reward). Each is shown under the name printed, never as the loss nor as an evaluation;
a setting, a count or a clock beside them is no such figure, and a name printed twice on the line (a training and a
validation ``Token Acc``, told apart only by their place) is left out rather than shown under a meaning it may not have.
"""

from __future__ import annotations

import re

from .classes import NOT_LONE, kin_of
from .fields import FIGURE_PART, number
from .grammar import EVAL_WORDS, SCORED_WORDS, normalise

# The most such figures kept from one record (beyond, a table of its own that other rules read).
RECORD_FIGURES_MAX = 4
# Names whose figure says how the run explores or is set, not how well it does (an RL loop's ``Epsilon``).
_SETTING_WORDS = frozenset({"epsilon", "eps", "lr", "temperature", "beta", "alpha", "gamma", "tau", "ratio"})
# A reward's or a return's words: the RL rules read those (episodes.py).
_OTHER_RULES_WORDS = frozenset({"reward", "rewards", "return", "returns", "fitness"})
# A share of successes under its own words (``Win Rate``, ``Success Rate``, ``Solved``): a score the run raises.
_SUCCESS_WORDS = frozenset({"win", "wins", "success", "solved", "solve", "hit", "correct"})
# A value not finite printed before the name, read as part of it (``nan loss_c``).
_GLUED = re.compile(r"^(?i:[-+]?(?:nan|inf))\s+")
# A verb after a name said in prose (``acc is: [1.]``, ``the emd loss is 0.11``): not part of the name.
_VERB = re.compile(r"\s+(?:is|was|are)$")
# A share printed in per cent keeps its sign in its name: ``Win Rate 18%``.
PERCENT_MARK = " %"


def record_figures(unknown: list[tuple[str, str | None, str, str | None]],
                   shown: frozenset[float] = frozenset()) -> tuple[tuple[str, float], ...]:
    """The figures a step record prints beside its loss or reward under names no other rule reads, each a score's
    (``accuracy``, ``Win Rate``) or a loss's other part (``Train L1 Loss``), as ``figure/<name as printed>`` parts; a
    share in per cent as ``figure/<name> %``. None of an evaluation's (its own rules read those), a setting's, a count's
    or a clock's; none whose name the line prints twice; none whose value another rule shows already (``shown``: an
    episode's ``Score``, read as its reward). A name said in prose keeps its words but the verb (``acc is: [1.]``)."""
    # (a value not finite before the next name reads glued to it, ``loss_mn: nan loss_c: nan``: the name is its own)
    unknown = [(_GLUED.sub("", raw), paren, value_text, unit) for raw, paren, value_text, unit in unknown]
    names = [normalise(raw) for raw, *_ in unknown]
    found: list[tuple[str, float]] = []
    for (raw, paren, value_text, unit), name in zip(unknown, names, strict=True):
        if paren is not None or unit not in (None, "%") or names.count(name) > 1:
            continue
        words = set(name.split(" "))
        if words & (EVAL_WORDS | NOT_LONE | _SETTING_WORDS | _OTHER_RULES_WORDS) or kin_of(name, None) is not None:
            continue  # (a reward or a return is the episode rules'; a name classed elsewhere is its class's)
        if not (words & (SCORED_WORDS | _SUCCESS_WORDS) or "loss" in words or name.endswith("accuracy")):
            continue
        if "loss" in words and unit is not None:
            continue
        if value_text.lstrip("+-").isdigit() and unit is None:
            continue  # (a whole number counts something: no score so printed)
        value = number(value_text)
        if value is None or value in shown:
            continue
        said = _VERB.sub("", raw.strip())
        found.append((FIGURE_PART + said + (PERCENT_MARK if unit == "%" else ""), value))
    return tuple(found[:RECORD_FIGURES_MAX])


# The epoch a line says has just ended (``Epoch 49 completed``, ``✅ Epoch 1 completed in 4730.85s``, ``Epoch 3
# finished``), and the loss it sums that epoch by, under its printed name (``Average loss: 0.0278``, ``Avg Loss:``).
_EPOCH_CLOSED = re.compile(r"(?i)\bepoch\s*\[?\s*(\d+)(?:\s*/\s*\d+)?\s*\]?\s*(?:is\s+)?(?:completed?|finished|done|ended)\b")
_SUMMED_LOSS = re.compile(r"(?i)\b((?:average|avg\.?|mean|train(?:ing)?|epoch)\s+loss|loss)(?:\s*[:=]\s*|\s+)(\S+)")
# Figures kept under ``summary/``: the epoch a summary closed (``summary/epoch``) and its loss under the printed name.
SUMMARY_PART = "summary/"


def epoch_summary(text: str) -> tuple[tuple[str, float], ...]:
    """The figures of a line that says an epoch has ended and sums it by its loss, in a log whose records are steps
    (``Epoch 49 completed | Average loss: 0.0278`` after ``Step 31250 | Loss: 0.0288``): that epoch's figures, never the
    latest step's loss, as ``summary/epoch`` and ``summary/<the loss's printed name>``; () for any other line."""
    closed = _EPOCH_CLOSED.search(text)
    if closed is None:
        return ()
    summed = _SUMMED_LOSS.search(text, closed.end())
    value = number(summed.group(2).rstrip(",|;")) if summed is not None else None
    if summed is None or value is None:
        return ()
    return (SUMMARY_PART + "epoch", float(closed.group(1))), (SUMMARY_PART + summed.group(1), value)


# What a line under an evaluation's heading may print that is no figure of the evaluation: a count of what it went through.
_BLOCK_COUNTS = frozenset({"tokens", "samples", "examples", "images", "batches", "steps", "num", "count", "size", "n",
                           "classes"})  # (DL4J's evaluation's ``# of classes:    10``)


def block_figure(readings_named: list[tuple[str, float]],
                 unknown: list[tuple[str, str | None, str, str | None]]) -> tuple[str, float] | None | bool:
    """The one figure a line under an evaluation's heading prints (``📊 Evaluation Results:`` then ``   Loss: 0.4887``,
    ``   Perplexity: 1.63``), by its printed name: that evaluation's. True for a count it went through (``Tokens:
    2,982,385``: no figure, the block goes on); None for any other line (the block has ended). ``readings_named``: the
    line's figures the grammar read, as (printed name, value)."""
    figures: list[tuple[str, float | None]] = [*readings_named, *(
        (raw.strip(), number(value_text)) for raw, paren, value_text, unit in unknown if paren is None and unit is None)]
    if len(figures) != 1 or len(readings_named) + len(unknown) != 1:
        return None
    name, value = figures[0]
    if set(normalise(name).split(" ")) & _BLOCK_COUNTS:
        return True
    if value is None or len(name) > 40:
        return None
    return name, value


# A data split's word that opens a record's second half (``… | Val Loss: 8.65 | Token Acc: 0.0683``).
_SPLIT_OPENS = re.compile(r"(?i)(?<![\w])(val|valid|validation|eval|test|dev)(?=[\s_]+[A-Za-z])")


def split_twins(text: str, unknown: list[tuple[str, str | None, str, str | None]],
                ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """The figures a record prints twice under one name, once for training and once after a data split's word opens its
    second half (``Epoch 51 | Train Loss: 8.655 | Token Acc: 0.0682 | Val Loss: 8.654 | Token Acc: 0.0683``): the first
    of each the record's own, before the split's word, as a ``figure/<name>`` part (``figure/Token Acc``), and the
    second that split's, named with the split's word as printed (``Val Token Acc``)."""
    own: list[tuple[str, float]] = []
    found: list[tuple[str, float]] = []
    seen: set[str] = set()
    for raw, paren, _value_text, unit in unknown:
        name = raw.strip()
        if name in seen or paren is not None or unit not in (None, "%"):
            continue
        seen.add(name)
        twins = [entry for entry in unknown if entry[0].strip() == name]
        if len(twins) != 2:
            continue
        places = [m.start() for m in re.finditer(rf"(?<![\w]){re.escape(name)}\s*[:=]", text)]
        if len(places) != 2:
            continue
        split = None
        for split in _SPLIT_OPENS.finditer(text, places[0], places[1]):
            pass
        words = set(normalise(name).split(" "))
        if split is None or words & (NOT_LONE | _SETTING_WORDS) or not (words & SCORED_WORDS or name.lower().endswith("accuracy")):
            continue
        first, value = number(twins[0][2]), number(twins[1][2])
        if first is not None and value is not None:
            own.append((FIGURE_PART + name, first))
            found.append((f"{split.group(1)} {name}", value))
    return own[:RECORD_FIGURES_MAX], found[:RECORD_FIGURES_MAX]


# An evaluation's scores said after the split they are on (``Validation BLEU: BLEU-1 73.94, BLEU-2 68.33``, ``Dev BLEU:``).
_SPLIT_SAID = re.compile(r"(?i)(?<![\w])(val|valid|validation|eval|evaluation|test|dev)\b[^:|]{0,24}:")


def scores_of_split(text: str, unknown: list[tuple[str, str | None, str, str | None]]) -> list[tuple[str, float]]:
    """The scores of a line that names the data split they are on before them, beside its position alone (``Epoch 16 -
    Validation BLEU: BLEU-1 73.94, BLEU-2 68.33, BLEU-3 49.11, BLEU-4 33.57``): each that split's evaluation under the
    split's word and its own name as printed (``Validation BLEU-1``), so that another split's line of the same scores
    (``Dev BLEU: BLEU-1 65.23``) is never shown as this one's; [] for any other line (a figure not a score, one with its
    unit, no split said before them)."""
    said = _SPLIT_SAID.search(text)
    if said is None or not unknown or len(unknown) > 2 * RECORD_FIGURES_MAX:
        return []
    found: list[tuple[str, float]] = []
    for raw, paren, value_text, unit in unknown:
        words = set(normalise(raw).split(" "))
        value = number(value_text)
        if (paren is not None or unit not in (None, "%") or value is None or text.find(raw) < said.end()
                or not words & SCORED_WORDS):
            return []
        found.append((f"{said.group(1)} {raw.strip()}", value))
    return found[:RECORD_FIGURES_MAX]
