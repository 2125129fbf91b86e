"""An older ultralytics YOLO's training row with no header above it (a copy that kept only the row).

yolov3's and early YOLOv5's ``train.py`` print each batch as ``%10s %10s`` then six ``%10.3g``
figures: the epoch (``0/299``: 0-based, of ``epochs - 1``), the GPU memory (``15.8G``), the GIoU (box),
objectness and class losses, their total, the batch's targets and the image size, then the bar
(``0/299  15.8G  3.99  0.358  0  4.35  22  608:  63% 34/54 [00:42<00:25,  1.26s/it]``). Where the
header line (``Epoch  gpu_mem  GIoU  obj  cls  total  targets  img_size``) is not in the log, the row
says its own layout: the fourth figure is the sum of the three before it (to the three figures
printed), which no other column order makes true. Only then is it read under that header's names.
"""

from __future__ import annotations

import re

_ROW = re.compile(r"^\s*\d{1,6}/\d{1,6}\s+\d{1,4}(?:\.\d{1,3})?G((?:\s+-?\d[\d.]*(?:e[-+]?\d+)?){6}):\s")
YOLOV3_COLUMNS = ("Epoch", "gpu_mem", "GIoU", "obj", "cls", "total", "targets", "img_size")
_EPOCH_CELL = re.compile(r"\d{1,6}/\d{1,6}")
_MEMORY_CELL = re.compile(r"\d{1,4}(?:\.\d{1,3})?G")
# Each task's metrics in the validation's header, after its counts (``Box(P  R  mAP50  mAP50-95)``, then ``Mask(P …)``
# or ``Pose(P …)`` for a segment or pose model; YOLOv5's older ``P  R  mAP@.5  mAP@.5:.95``), in either spelling.
_METRIC_ORDER = (("P", "P"), ("R", "R"), ("mAP50", "mAP@.5"), ("mAP50-95", "mAP@.5:.95"))
_COUNTED = ("Instances", "Labels", "Targets")
# ``%10.3g`` keeps three significant figures: each part and the total may be off by half of their last digit.
_ROUNDING = 0.006


def headerless_columns(s: str) -> tuple[str, ...] | None:
    """The header's names for a yolov3 training row printed without its header (None: not such a row)."""
    m = _ROW.match(s)
    if m is None:
        return None
    box, obj, cls, total, targets, size = (float(v) for v in m.group(1).split())
    if not (targets.is_integer() and size.is_integer() and min(box, obj, cls, total) >= 0):
        return None
    if abs(box + obj + cls - total) > _ROUNDING * max(total, 1.0):
        return None
    return YOLOV3_COLUMNS


def cut_row_columns(columns: list[str], cells: list[str]) -> list[str] | None:
    """The header's names for the whole cells of a YOLO training row cut at the terminal's width (None: no such row).

    The header must be YOLO's (its memory column second), the row an epoch of the epochs, its memory and at least
    one figure more. The last cell printed may be cut inside its digits, so it is left out."""
    if not (len(columns) > len(cells) >= 4 and columns[1].lower() == "gpu_mem"):
        return None
    if not (_EPOCH_CELL.fullmatch(cells[0]) and _MEMORY_CELL.fullmatch(cells[1])):
        return None
    return columns[: len(cells) - 1]


def whole_class_header(cells: list[str]) -> list[str] | None:
    """A YOLO validation header cut at the terminal's width (``Class  Images  Instances  Box(P  R  mAP50  m``), whole.

    The group it was cut in gets its four metrics in their fixed order, a name cut short its whole name; None when
    the cells are no such header, or the names printed do not follow that order."""
    if len(cells) < 4 or cells[:2] != ["Class", "Images"] or cells[2] not in _COUNTED:
        return None
    starts = [k for k in range(3, len(cells)) if cells[k] == "P" or cells[k].endswith("(P")]
    if not starts or len(cells) - starts[-1] > len(_METRIC_ORDER):
        return None
    start = starts[-1]
    group = cells[start][:-1]  # (``Box(``, or nothing for YOLOv5's older header)
    spelling = 1 if any("@" in c for c in cells) else 0
    whole = [names[spelling] for names in _METRIC_ORDER]
    whole[0] = group + whole[0]
    if not all(want.startswith(got.rstrip(")")) for got, want in zip(cells[start:], whole, strict=False)):
        return None
    if group:
        whole[-1] += ")"
    return cells[:start] + whole
