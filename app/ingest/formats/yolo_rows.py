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
