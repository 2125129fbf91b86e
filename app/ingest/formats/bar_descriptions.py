"""What a tqdm bar's description says of the run: its epoch and its loss (``Epoch 2, Step 5, Loss: 1.1681: 10%|…``).

A custom loop over one bar of the whole run names the epoch, the step in it and the last loss in the
bar's description (DeepSpeed-Chat's and its forks' ``progress_bar.set_description``), and says each
epoch's start on a line of its own: ``Beginning of Epoch 2/18, Total Micro Batches 8`` (DeepSpeed-Chat's
``print_rank_0``), the run's epochs and an epoch's batches. The bar's count stays the run's position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .grammar import Field, pairs

_EPOCH_BEGINS = re.compile(r"\bBeginning of Epoch (\d{1,6})/(\d{1,6}), Total Micro Batches (\d{1,12})\b")


@dataclass(frozen=True, slots=True)
class Described:
    """A bar description's figures (None: not printed)."""

    epoch: float | None
    step_in_epoch: int | None
    loss: float | None


def described(head: str) -> Described | None:
    """The epoch, step and loss a bar's description prints before the bar (None: no loss printed there)."""
    if "oss" not in head:
        return None
    readings = pairs(head, [])
    loss = next((r.value for r in readings if r.field is Field.LOSS), None)
    if loss is None:
        return None
    epoch = next((r.value for r in readings if r.field is Field.EPOCH), None)
    step = next((r.value for r in readings if r.field is Field.STEP), None)
    return Described(epoch, int(step) if step is not None and epoch is not None else None, loss)


def epoch_begins(text: str) -> tuple[int, int, int] | None:
    """(epoch, the run's epochs, the epoch's batches) from ``Beginning of Epoch 2/18, Total Micro Batches 8``."""
    m = _EPOCH_BEGINS.search(text) if "Beginning of Epoch" in text else None
    return None if m is None else (int(m.group(1)), int(m.group(2)), int(m.group(3)))
