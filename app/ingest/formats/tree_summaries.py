"""An epoch's summary drawn as a tree, its figures grouped by stage (Deci's super-gradients).

super-gradients closes each epoch with a tree of its figures, a stage a branch, each figure's history under it::

    SUMMARY OF EPOCH 4
    ├── Training
    │   ├── Ppyoloeloss/loss = 2.2669
    │   │   ├── Best until now = 1.9485 (↗ 0.3184)
    │   │   └── Epoch N-1      = 2.1715 (↗ 0.0954)
    └── Validation
        ├── F1@0.50 = 0.0463
        ├── Map@0.50 = 0.0511

A figure one level under a stage is that stage's, this epoch's; the lines under a figure are other epochs' (the best
so far, the epoch before) and are never read. The figures of a validation stage are the evaluation's.
"""

from __future__ import annotations

import re

from .fields import NUM, number
from .grammar import EVAL_WORDS

# A branch: the drawing before it (``│`` and spaces, four characters a level), then ``├── `` or ``└── ``.
_BRANCH = re.compile(r"^(?P<indent>(?:[│ ]   )*)[├└]── (?P<text>.{1,120})$")
_FIGURE = re.compile(rf"^(?P<name>[A-Za-z][^=]{{0,60}}?)\s*=\s*(?P<value>{NUM})(?:\s.{{0,60}})?$")
_STAGE = re.compile(r"^[A-Za-z][\w ]{0,30}$")
INDENT = 4


class TreeSummary:
    """The stage the tree's branches are under, while its lines follow."""

    def __init__(self) -> None:
        self._stage: tuple[int, str] | None = None  # (its level, its name, normalised)
        self.reading = False  # the last line was one of a tree's branches


    def read(self, text: str) -> tuple[str, float] | None:
        """An evaluation's figure (its name as printed, its value) when ``text`` is one under a validation stage;
        None for any other line (another branch, or a line that is no branch, which ends the tree)."""
        m = _BRANCH.match(text)
        self.reading = m is not None
        if m is None:
            self._stage = None
            return None
        level = len(m.group("indent")) // INDENT
        body = m.group("text").strip()
        figure = _FIGURE.match(body)
        if figure is None:
            self._stage = (level, body.lower()) if _STAGE.match(body) else None
            return None
        stage = self._stage
        if stage is None or level != stage[0] + 1 or stage[1].split(" ")[0] not in EVAL_WORDS:
            return None  # (a training stage's figure, or a figure's own history under it)
        value = number(figure.group("value"))
        return None if value is None else (figure.group("name").strip(), value)

    @staticmethod
    def maybe(text: str) -> bool:
        """The cheap test: can the line be a branch at all?"""
        return "── " in text
