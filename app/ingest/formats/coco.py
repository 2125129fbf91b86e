"""detectron2's COCO evaluation tables, as the generic step reader reads them (its forks' too, cvpods').

``COCOEvaluator`` prints a title (``Evaluation results for bbox:``), a pipe table's header of ``AP`` columns
(``|   AP   |  AP50  |  AP75  | …``), its rule (``|:------:|:------:|…``), then one row of figures.
The row is one evaluation's figures (``bbox AP``, ``bbox AP50``…); the generic reader makes it its evaluation line.
"""

from __future__ import annotations

import math
import re

from .fields import number
from .grammar import Field, Reading

# detectron2's ``_derive_coco_results``: ``Evaluation results for bbox:`` above a pipe table of ``AP``, ``AP50``,
# ``APs``… (keypoints': ``APm``, ``APl``), the ``---`` rule under its header, then one row of figures.
_COCO_TITLE = re.compile(r"Evaluation results for (bbox|segm|keypoints):\s*$")
_COCO_NAME = re.compile(r"AP(?:50|75|s|m|l)?")
_TABLE_RULE = re.compile(r":?-{3,}:?")


class CocoTable:
    """One COCO evaluation table at a time, read a line after another."""

    def __init__(self) -> None:
        self.kind = ""  # the table under way (``bbox``), its column names next
        self.columns: list[str] = []

    def row(self, s: str) -> list[Reading] | None:
        """detectron2's COCO evaluation table (its forks' too, cvpods'): ``Evaluation results for bbox:`` over a
        pipe table ``|   AP   |  AP50  | …`` whose one row holds the figures. Returns the row's evaluation (``bbox
        AP``; a ``nan`` cell, an area with no object, is left out), no readings for the title, header or rule,
        None for a line that is neither (which ends the table)."""
        titled = _COCO_TITLE.search(s)
        if titled is not None:
            self.kind, self.columns = titled.group(1), []
            return []
        cells = [c.strip() for c in s.strip().strip("|").split("|")] if s.startswith("|") else []
        if cells and not self.columns and all(_COCO_NAME.fullmatch(c) for c in cells):
            self.columns = cells
            return []
        if cells and self.columns and all(_TABLE_RULE.fullmatch(c) for c in cells):
            return []
        kind, columns = self.kind, self.columns
        self.kind, self.columns = "", []
        if len(cells) != len(columns) or not all(c == "nan" or number(c) is not None for c in cells):
            return None
        return [Reading(Field.EVAL_LOSS, f"{kind} {name}", value) for name, cell in zip(columns, cells, strict=True)
                if (value := number(cell)) is not None and not math.isnan(value)]
