"""A figure written in prose on a line of its own, as the generic step reader reads it.

A loop that logs through ``logging`` often writes each figure as a sentence's end, one a line, and no step beside it:
rl_replicas' VPG (``Loss of the current policy:         -0.0405``, ``Loss of the current value function: 124``,
``Avarage Policy Loss:    -0.0306``), RLCard's DQN (``Average reward is -0.376``). Such a line is read when its
name says what the figure is by a word tokwatch knows: a loss (``loss``), an RL run's mean reward or return (the name
classes' reward names: ``Average Episode Return``, ``average reward``), its environment's steps so far (``Total env
interactions``). A loss so named is one part of the loop's losses (a policy's, a value function's), never the model's one
loss; a name that makes the figure some other one (``Difference of the previous policy loss``, ``Std Episode Return``,
``Maximum Episode Return``) is not read, nor is a figure with no such word (``Average Episode Length: 46``, ``Time: 127``:
its unit not printed).
"""

from __future__ import annotations

import re

from .classes import Kin, kin_of
from .fields import ENV_TIMESTEPS, LOSS_PART, NUM, number
from .grammar import EVAL_WORDS, normalise

# ``name: value``, ``name = value`` or ``name is value``, the value alone after it (trailing spaces allowed); spaces only:
# a name, a tab, a figure is a one-figure-a-line block's row (deeprm's ``Loss:\t 0.3``), whose reader needs its position.
_PROSE = re.compile(rf"([A-Za-z][A-Za-z ()'-]{{2,80}}?)(?: *[:=] *| +is +)({NUM}) *")
# Words that make a figure named with ``loss`` some other one: a change of it, an extreme, a spread, a weight.
_NOT_THE_FIGURE = frozenset({"difference", "diff", "delta", "change", "previous", "prev", "last", "best", "min", "max",
                             "minimum", "maximum", "std", "var", "variance", "weight", "scale", "coef", "ratio", "target",
                             "lowest", "highest", "initial",
                             # the run's closing summary (``Final train loss: 3.08``, ``Total training time``): the end's
                             "final", "total",
                             # a setting printed before the run (``Number of loss terms: 3``, ``loss threshold: 0.01``)
                             "number", "num", "count", "size", "interval", "every", "freq", "frequency", "patience",
                             "threshold", "factor", "coefficient", "lambda", "alpha", "beta", "gamma", "epsilon", "eps",
                             "clip", "temperature", "type"})
# A stage's figure on a line of its own (``train loss: 0.45``, ``Val accuracy: 0.8``) is its summary's, an epoch's or an
# evaluation's table row: the readers of those read it, never as the loop's own record.
_STAGE_WORDS = EVAL_WORDS | {"train", "training"}
REWARD = "reward"  # a step's figure: an RL run's mean reward, as the one-figure-a-line tables give it


def one_figure(text: str) -> tuple[str, float] | None:
    """A line that is one figure after a name in words (``Average Episode Length: 46``): its name and value, or None.
    Flush left only: an indented one is a right-aligned block's row (rsl_rl's ``   Mean value loss: 19.74``), whose
    reader holds it with its block's title."""
    if text[:1].isspace():
        return None
    m = _PROSE.fullmatch(text.rstrip())
    if m is None:
        return None
    value = number(m.group(2))
    return (m.group(1).strip(), value) if value is not None else None


def prose_figure(name: str, value: float) -> tuple[str, float] | None:
    """The figure such a line gives, under its key (``loss/<name as printed>``, ``reward``, ``total/timesteps``), when its
    name says what it is; None otherwise."""
    words = normalise(name).split(" ")
    if set(words) & _STAGE_WORDS:
        return None
    kin = kin_of(" ".join(words), None)
    if kin is Kin.TIMESTEPS:
        return ENV_TIMESTEPS, value  # (a count so far: ``Total env interactions: 152000``)
    if set(words) & _NOT_THE_FIGURE:
        return None
    if "loss" in words:
        return LOSS_PART + name, value
    if kin is Kin.REWARD:
        return REWARD, value
    return None


# A figure said of the epoch it sums up, the epoch after its name (DuReader's baseline, ``Average train loss for epoch 10
# is 8.694``; ``Train loss of epoch 3: 0.52``): the same record as ``epoch 10 Average train loss is 8.694``, the epoch
# leading it.
_OF_EPOCH = re.compile(rf"^(?P<name>[A-Za-z][A-Za-z _-]{{1,60}}?) (?:for|of|in|at|after) (?:the )?epoch (?P<epoch>\d{{1,6}})"
                       rf"(?P<rest> *(?:[:=]| is ) *{NUM}\b.*)$", re.IGNORECASE)


def figure_of_epoch(s: str) -> str | None:
    """A figure said of an epoch named after it (see ``_OF_EPOCH``) as the record led by that epoch, or None."""
    m = _OF_EPOCH.match(s)
    if m is None:
        return None
    return f"epoch {m.group('epoch')} {m.group('name')}{m.group('rest')}"
