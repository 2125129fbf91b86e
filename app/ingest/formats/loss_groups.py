"""A network's loss printed with its own parts in parentheses after its name.

A GAN's trainer may print one network's loss as the parts it sums, grouped under that network's loss name: each part
named inside the parentheses beside its figure (tensorlayer's SRGAN: ``g_loss(mse:0.000, vgg:0.000, adv:0.001) d_loss:
1.386``), or the parts' names there and their figures after the colon in the same order (PyTorch-SRGAN's
``Discriminator_Loss: 0.8301 Generator_Loss (Content/Advers/Total): 0.0022/1.5216/0.0037``). Read as pairs, a part's
name is taken alone (``mse``, the model's loss to the grammar) or the group is no pair at all, and the other network's
loss is left the record's only one. Both networks' losses are the record's parts: each group's under its loss's name and
its part's (``g_loss mse``, ``Generator_Loss Total``), the other network's under its own; none is the model's loss.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .fields import NUM, number

# A loss's name (the word ``loss`` glued or joined to its network's word, or alone), then its parts in parentheses.
_NAME = r"(?<![\w/])((?:[A-Za-z]\w{0,24}?[ _]?)?(?i:loss))"
_PART = r"[A-Za-z]\w{0,15}"
# ``g_loss(mse:0.000, vgg:0.000, adv:0.001)``: each part named beside its figure.
_NAMED_PARTS = re.compile(rf"{_NAME}\s?\(((?:\s*{_PART}\s?[:=]\s?{NUM}\s*,?){{2,8}})\)")
_NAMED_PART = re.compile(rf"({_PART})\s?[:=]\s?({NUM})")
# ``Generator_Loss (Content/Advers/Total): 0.0022/1.5216/0.0037``: the parts' names, then their figures in that order.
_SLASHED_PARTS = re.compile(rf"{_NAME}\s?\(({_PART}(?:/{_PART}){{1,7}})\)\s?[:=]\s?({NUM}(?:/{NUM}){{1,7}})(?![\w./])")


@dataclass(frozen=True)
class LossGroups:
    """The parts read from a record's loss groups (name as printed, figure) and its text with the groups blanked."""

    parts: tuple[tuple[str, float], ...]
    rest: str


def loss_groups(text: str) -> LossGroups | None:
    """The parts of every loss printed with its parts in parentheses, and the text left when they are taken out (of the
    same length, so positions in it are the text's); None where the record prints no such group."""
    if "(" not in text or "oss" not in text.lower():
        return None
    parts: list[tuple[str, float]] = []
    rest = list(text)
    for m in _NAMED_PARTS.finditer(text):
        for part in _NAMED_PART.finditer(m.group(2)):
            value = number(part.group(2))
            if value is not None:
                parts.append((f"{m.group(1)} {part.group(1)}", value))
        rest[m.start():m.end()] = " " * (m.end() - m.start())
    for m in _SLASHED_PARTS.finditer(text):
        names, figures = m.group(2).split("/"), m.group(3).split("/")
        if len(names) != len(figures):
            continue  # (the figures are not the parts named: a ratio, a count of a total)
        for name, figure in zip(names, figures, strict=True):
            value = number(figure)
            if value is not None:
                parts.append((f"{m.group(1)} {name}", value))
        rest[m.start():m.end()] = " " * (m.end() - m.start())
    if not parts:
        return None
    return LossGroups(tuple(parts), "".join(rest))
