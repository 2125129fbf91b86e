"""A start-of-training banner's planned length, said before any step, by its role words.

Trainers print how long the run will be before its first step, each in its own words but in one
shape: a role word (total, max, num, number of, planned), the unit counted (steps, optimization
steps, iterations, epochs) and the count after ``:`` or ``=`` — kohya sd-scripts' bilingual
``total optimization steps / 学習ステップ数: 1520`` (a translation between the name and its count),
the HF Trainer's and accelerate's ``Total optimization steps = 1,548``, ``Num Epochs = 3``,
``max steps: 500``; or, among counts a line lists without a colon, its total's (verl's SFT trainer:
``Number of steps/epoch 35, number of epochs 3, total number of steps 105``). A name counting
something per epoch or per batch (``num batches per epoch``), or steps of another kind (warmup,
evaluation, saving, logging, gradient accumulation) is no plan of the run. A bar's count (a cache
check's ``76/76``) is never a banner: the name must say its role. A trainer may say it in a sentence
instead, as training starts: YOLOv5's and Ultralytics' ``Starting training for 300 epochs...``.

A table's header is a start-up line too: the names of the columns its rows will fill, printed before
the first row (spaCy v2's ``Itn.  Dep Loss  NER Loss  UAS …``, YOLO's ``Epoch  GPU_mem  box_loss …``).
With no row under it yet, the run has started and made no step.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

_BANNER = re.compile(
    r"(?i)\s*(?P<name>(?:total|max(?:imum)?|num(?:ber of)?|planned)[ _](?:[a-z]{1,20}[ _]){0,3}?"
    r"(?P<unit>steps|iterations|iters|epochs))"
    r"(?:\s*/\s*[^:=/]{1,40})?\s*[:=]\s*(?P<count>\d{1,3}(?:,\d{3})+|\d{1,12})\s*$"
)
# A total among the counts a line lists, each ``name count`` between commas.
_LISTED = re.compile(
    r"(?i)(?:^|,)\s*(?P<name>total[ _](?:number[ _]of[ _])?(?:[a-z]{1,20}[ _]){0,2}?(?P<unit>steps|iterations|iters|epochs))"
    r" (?P<count>\d{1,3}(?:,\d{3})+|\d{1,12})\s*(?=,|$)"
)
# The plan said in a sentence as training starts (YOLOv5, YOLOv7, Ultralytics: ``Starting training for 300 epochs...``).
_SENTENCE = re.compile(r"(?i)\s*(?P<name>(?:start(?:ing)?|begin(?:ning)?) training) for (?P<count>\d{1,3}(?:,\d{3})+|\d{1,12}) "
                       r"(?P<unit>steps|iterations|iters|epochs)\b\W*$")
# Words that make a named count something else than the run's length.
_OTHER = re.compile(r"(?i)\b(?:per|warm-?up|evals?|evaluation|valid(?:ation)?|test|sav(?:e|ing)|log(?:ging)?"
                    r"|checkpoints?|accumulation|decay|cache|batch(?:es)?|samples?|examples?|images?)\b")


# A table's header: names apart by tabs or runs of spaces, the first the counter its rows lead with (spaCy v2's ``Itn.``,
# ``Epoch``, ``Step``, ``Iter``), then at least three figures'.
_COLUMN_GAP = re.compile(r"\t+ *| {2,}")
_COLUMN_NAME = re.compile(r"[A-Za-z][\w.%()/-]{0,24}(?: [A-Za-z%][\w.%()/-]{0,24})?")
_LEADING_COUNTERS = frozenset({"itn", "iter", "iters", "iteration", "epoch", "epochs", "step", "steps"})
# A table's row: it leads with a number (``0     0.000     0.000 …``, ``1/50  2.3G  1.2 …``); a bar at 0 under the header
# (``  0%|          | 0/3280 [00:00<?, ?it/s]``) is none, no step done.
_ROW = re.compile(r"\s*\d")
_BAR_AT_ZERO = re.compile(r"\s*0%\|")


@dataclass(frozen=True, slots=True)
class Planned:
    """The run's planned length as a banner said it: ``unit`` "steps" or "epochs", and the count."""

    unit: str
    count: int
    name: str  # as printed


def planned_run(text: str) -> Planned | None:
    """The planned length a banner line says (the module's docstring), or None."""
    m = _BANNER.match(text)
    if m is None and "," in text and "otal" in text:
        m = _LISTED.search(text)
    if m is None and "raining for " in text:
        m = _SENTENCE.match(text)
    if m is None or _OTHER.search(m.group("name")) is not None:
        return None
    count = int(m.group("count").replace(",", ""))
    if count <= 0:
        return None
    unit = m.group("unit").lower()
    return Planned("epochs" if unit == "epochs" else "steps", count, m.group("name").strip())


def table_header(text: str) -> bool:
    """True when the line is a table's header (the module's docstring): its counter's name, then its figures'."""
    cells = [cell for cell in _COLUMN_GAP.split(text.strip()) if cell]
    if not 4 <= len(cells) <= 64 or cells[0].lower().rstrip(".") not in _LEADING_COUNTERS:
        return False
    return all(_COLUMN_NAME.fullmatch(cell) for cell in cells)


def header_without_rows(lines: Sequence[str], read: Callable[[str], str] = str.strip) -> bool:
    """True when a table's header is among these lines and no row follows it: a run started, its first row not
    printed yet. Read from the end, each line as ``read`` gives its message (cleaned, behind no prefix)."""
    for line in reversed(lines):
        message = read(line)
        if ("\t" in message or "  " in message) and table_header(message):
            return True
        if is_row(message):
            return False
    return False


def is_row(line: str) -> bool:
    """True when the line (cleaned, behind no prefix) leads with a number, as a table's row or a step's record does: a
    start-up line before it is no longer the run's last word (a bar at 0, no step done, is no row)."""
    return _ROW.match(line) is not None and _BAR_AT_ZERO.match(line) is None
