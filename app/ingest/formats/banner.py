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
check's ``76/76``) is never a banner: the name must say its role.
"""

from __future__ import annotations

import re
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
# Words that make a named count something else than the run's length.
_OTHER = re.compile(r"(?i)\b(?:per|warm-?up|evals?|evaluation|valid(?:ation)?|test|sav(?:e|ing)|log(?:ging)?"
                    r"|checkpoints?|accumulation|decay|cache|batch(?:es)?|samples?|examples?|images?)\b")


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
    if m is None or _OTHER.search(m.group("name")) is not None:
        return None
    count = int(m.group("count").replace(",", ""))
    if count <= 0:
        return None
    unit = m.group("unit").lower()
    return Planned("epochs" if unit == "epochs" else "steps", count, m.group("name").strip())
