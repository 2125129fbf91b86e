"""A progress bar a script draws by hand, and the epoch header above it.

GLPDepth's ``utils/logging.py`` (and the depth estimation repositories that copied it) draws
``[=====>]  St 6057/6057  Tot: 41m50s | Rem: 10h28s | Depth Loss: 0.1365 (0.0447)`` under an
``Epoch: 010 - 025`` header, or with the count inside the bar: ``[==== 6057/6057 404ms | Tot: 40m47s |
Rem: 9h31m | Depth Loss: nan (nan)``. The bar is redrawn in place, so a shorter redraw leaves the
longer one's tail behind it (``(nan)n))n)31)2)``): only the first figure after each name is read.
:func:`drawn_bar` gives the bar back as a ``name: value, …`` record for the generic reader: its
count (the epoch's batches), its step's time, the epoch's time so far and its loss. A bar with no loss (its
validation's: ``[=== 654/654 ===>]  Step: 052ms``) is no training step.
"""

from __future__ import annotations

import re

from .fields import NUM

_DRAWN = re.compile(r"^\[[=>\-#. ]{0,200}?(?:\]\s+[A-Za-z]{0,8}\s*)?(\d{1,12})/(\d{1,12})(?:\s+(\d{1,6})ms)?\b")
_LOSS = re.compile(rf"(?i)\b((?:[A-Za-z]{{1,20}} )?loss):\s*({NUM})")
_ELAPSED = re.compile(r"\bTot:\s*((?:\d{1,5}[hms]){1,3})(?![\dm])")
# ``Epoch: 010 - 025``: the epoch, then the run's epochs, each padded to the same width.
_EPOCH_HEADER = re.compile(r"^Epoch:\s*(\d{1,6})\s+-\s+(\d{1,6})\s*$")


def epoch_header(s: str) -> tuple[int, int] | None:
    """(epoch, the run's epochs) from a header ``Epoch: 010 - 025`` alone on its line."""
    m = _EPOCH_HEADER.match(s)
    if m is None or len(m.group(1)) != len(m.group(2)) or int(m.group(1)) > int(m.group(2)):
        return None
    return int(m.group(1)), int(m.group(2))


def drawn_bar(s: str) -> str | None:
    """A hand-drawn training bar as a ``batch count: N/M, …, loss: L`` record (None: not one, or no loss)."""
    m = _DRAWN.match(s)
    if m is None:
        return None
    loss = _LOSS.search(s, m.end())
    if loss is None:
        return None
    parts = [f"batch count: {m.group(1)}/{m.group(2)}"]
    if m.group(3) is not None:
        parts.append(f"step time: {int(m.group(3))} ms")
    elapsed = _ELAPSED.search(s, m.end())
    if elapsed is not None:
        parts.append(f"elapsed: {elapsed.group(1)}")  # (its ``Rem:`` is left: the epoch's or the run's, it does not say)
    parts.append(f"loss: {loss.group(2)}")
    return ", ".join(parts)  # (commas: a last field of ``nan`` after ``|`` would read as a wrapped record)


_RULE = re.compile(r"^={20,}$")
_SCORE_NAME = re.compile(r"[A-Za-z][\w.@-]{0,20}")
_SCORE = re.compile(r"-?\d{1,9}(?:\.\d{1,9})?(?:[eE][-+]?\d{1,3})?|nan")
_MOST_SCORES = 32


class RuledScores:
    """An evaluation's scores in a table between rules of ``=`` (GLPDepth's and monodepth's ``d1  d2  d3  abs_rel …``
    over one row of figures): the row's figures under the header's names, once the row is read."""

    def __init__(self) -> None:
        self._ruled = False  # the line before was a rule
        self._names: list[str] = []  # the header read under a rule, waiting for its row

    @property
    def waiting(self) -> bool:
        """A rule or a ruled header was the line before: the next line may be the table's."""
        return self._ruled or bool(self._names)

    def line(self, s: str) -> list[tuple[str, float]] | None:
        """The scores when ``s`` (stripped) is the row under a ruled header; None for any other line."""
        names, self._names = self._names, []
        ruled, self._ruled = self._ruled, _RULE.match(s) is not None
        cells = s.split()
        if ruled and 3 <= len(cells) <= _MOST_SCORES and all(_SCORE_NAME.fullmatch(c) for c in cells):
            self._names = cells
            return None
        if names and len(cells) == len(names) and all(_SCORE.fullmatch(c) for c in cells):
            return [(name, float(cell)) for name, cell in zip(names, cells, strict=True)]
        return None
