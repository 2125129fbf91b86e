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
instead, as training starts: YOLOv5's and Ultralytics' ``Starting training for 300 epochs...``. BasicSR and the ESRGAN/EDVR/HDRUNet codes built on it say both counts,
the epochs their loop will run and the iterations it stops at (``Total epochs needed: 405 for iters 500,000``,
``Total epochs needed: 63 for 400000 iterations``): the run stops at its iterations, so they are its plan.

A table's header is a start-up line too: the names of the columns its rows will fill, printed before
the first row (spaCy v2's ``Itn.  Dep Loss  NER Loss  UAS …``, YOLO's ``Epoch  GPU_mem  box_loss …``).
With no row under it yet, the run has started and made no step.

So is a trainer's word that training starts, with no plan in it: the HF Trainer's and accelerate scripts'
``***** Running training *****`` heading, accelerate's process state as a script logs it before its loop
(``Distributed environment: MULTI_GPU  Backend: nccl``), detectron2's ``Starting training from iteration 16000``,
LightGBM's records of the data set its booster is built on (``[LightGBM] [Info] Number of data points in the train set:
160000, number of used features: 5``: ``lgb.cv`` prints one a fold before any round), PyTorch Lightning's start-up as
``Trainer.fit`` begins (the devices it found, its ModelSummary table and the parameter totals under it).
The last names the step the loop starts from (a resumed run's checkpoint): until a step is printed, that is
the run's position, and a run that ends with no step after it (resumed at its last iteration: detectron2's
``Total training time: 0:00:00`` at once) ended there. A start line may name the run's total beside that step
(StableCascade's ``STARTING AT STEP: 1/40000``, ``Starting training from step 1200 of 40000``, ``Resuming at step N/M``):
that is its plan, whatever the run's end (a crash before any step keeps it). A script's own bare line says it too, a whole line of its own
(an RVC voice trainer's ``Starting training...``, ``Training started``, ``Start training``); never those words inside a sentence.
What a trainer prints next as it starts, the pretrained weights it loads (``Loaded pretrained (G) 'f0G48k.pth'``),
is start-up, no record of a step.

An evaluation's settings block is headed the same way (``***** Running Evaluation *****``, ``Running Prediction``): the
counts printed under it are the pass's (PaddleNLP's ``Total prediction steps = 192``, ViT-pytorch's ``Num steps = 79``),
never a plan of the run, however they are named; the run's is the training block's (``Total optimization steps =
306100.0``).
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
# The plan said in a sentence as training starts (YOLOv5, YOLOv7, Ultralytics: ``Starting training for 300 epochs...``), its
# ``for`` left out or the model's name before it, the rest of its settings after a comma (a script's ``print(f"Beginning
# training {epochs} epochs, logging every {log_every_n}, saving every {save_every_n}, batch size {batch_size}.")``, printed
# again at each restart; ``print(f"Beginning training {self.args.model} for {self.args.epochs} epochs...")``).
_SENTENCE = re.compile(r"(?i)\s*(?P<name>(?:start(?:ing)?|begin(?:ning)?) training) (?:for |[\w.-]{1,40} for )?"
                       r"(?P<count>\d{1,3}(?:,\d{3})+|\d{1,12}) (?P<unit>steps|iterations|iters|epochs)\b(?:\W*$|, )")
# BasicSR's (and its forks') epochs worked out for the iterations it stops at: ``Total epochs needed: 405 for iters 500,000``
_EPOCHS_FOR_ITERS = re.compile(r"(?i)\s*total epochs needed: \d[\d,]*\s+for\s+(?:(?P<name>iters|iterations) (?P<count>\d{1,3}(?:,\d{3})+|\d{1,12})"
                               r"|(?P<count2>\d{1,3}(?:,\d{3})+|\d{1,12}) (?:iters|iterations))\s*\.?\s*$")
# A start of training said with no plan: the heading above the HF Trainer's and accelerate scripts' settings, accelerate's
# state as a script logs it before its loop (its distributed type then its backend), a loop starting from a step.
_HEADING = re.compile(r"\s*\*{3,}\s*Running training\s*\*{3,}\s*$")
# The heading of an evaluation's or a prediction's settings block, as the HF Trainer and its forks print it
# (``***** Running Evaluation *****``, PaddleNLP's ``***** Running Prediction *****``, ViT-pytorch's ``Running Validation``)
_EVALUATION_HEADING = re.compile(r"(?i)\s*\*{3,}\s*Running (?:evaluation|prediction|validation|test(?:ing)?)\s*\*{3,}\s*$")
# (found anywhere in its line: a terminal's title sequence may be glued before the logger's record)
_ACCELERATE_STATE = re.compile(
    r"\bDistributed environment: (?:DistributedType\.)?(?:NO|MULTI_[A-Z]{3,4}|DEEPSPEED|FSDP|MEGATRON_LM|TPU|XLA)\b")
# A script's bare word that training starts, the whole line: ``Starting training...``, ``Training started.``
_BARE_START = re.compile(r"(?i)\s*(?:(?:start(?:ing|s)?|begin(?:ning|s)?) (?:the )?training|training (?:has )?(?:started|begun|begins|starts))"
                         r"\s*(?:\.{1,3}|…|!|:)?\s*$")
# LightGBM's own records as a booster is built on its training data, before its first round (the C++ library's, through
# every binding: Python, R, the CLI): the data set read, ``[LightGBM] [Info] Number of data points in the train set: 160000,
# number of used features: 5``, and the score it starts from, ``[LightGBM] [Info] Start training from score -0.071580``.
# (found anywhere in its line: behind a prefix, or R's ``[1] "…"``)
_LIGHTGBM_SETUP = re.compile(r"\[LightGBM\] \[Info\] (?:Number of data points in the train set: \d+, number of used features: "
                             r"\d+|Start training from score [-+]?\d[\d.e+-]*)\s*$")
# PyTorch Lightning's own start-up as ``Trainer.fit`` prints it before its first batch: the devices it found
# (``GPU available: True (cuda), used: True``, ``LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0]``) and the ModelSummary table,
# its header (``  | Name | Type | Params``), its rows (``0 | encoder | Sequential | 100 K``, more columns after in 2.x:
# ``| train``) and its totals (``201 K     Trainable params``, ``0.806     Total estimated model params size (MB)``).
# (found anywhere in its line: behind Lightning's ``[rank: 0] `` or a logger's prefix)
_LIGHTNING_SETUP = re.compile(
    r"\bGPU available: (?:True|False)\b.*, used: (?:True|False)\b|\bLOCAL_RANK: \d+ - CUDA_VISIBLE_DEVICES: "
    r"|^\s*\|\s*Name\s*\|\s*Type\s*\|\s*Params\b"
    r"|^\s*\d{1,6}\s*\|\s*[\w.-]{1,300}\s*\|\s*[A-Za-z_][\w.]{0,200}\s*\|\s*\d[\d.,]*\s?[KMBT]?\s*(?:\|.*)?$"
    r"|^\s*\d[\d.,]*\s?[KMBT]?\s+(?:Trainable|Non-trainable|Total) params\s*$|\bTotal estimated model params size \(MB\)\s*$"
)
# A whole echo of the arguments, as a script prints it before its first step: argparse's ``Namespace(…)``, a config dict
_ECHO = re.compile(r"\s*(?:Namespace\(|\{['\"])")
_STARTS_FROM = re.compile(r"(?i)\s*(?:start(?:ing)?|resum(?:e|ing)|continu(?:e|ing)) training from (?:the )?"
                          r"(?P<unit>iteration|iter|step|global step)\s*:?\s*(?P<count>\d{1,12})\W*$")
# A start line naming the step the loop starts at and the run's total beside it, the whole line (StableCascade's
# ``STARTING AT STEP: 1/40000``, ``Starting training from step 1200 of 40000``, ``Resuming at step 300/5000``)
_STARTS_AT = re.compile(r"(?i)\s*(?:start(?:ing)?|resum(?:e|ing)|continu(?:e|ing))(?: training)? (?:at|from) (?:the )?"
                        r"(?P<unit>iteration|iter|step|global step)\s*:?\s*(?P<count>\d{1,12})\s*(?:/|of|out of)\s*"
                        r"(?P<total>\d{1,3}(?:,\d{3})+|\d{1,12})\W*$")
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
    if "epochs needed" in text:
        needed = _EPOCHS_FOR_ITERS.match(text)
        if needed is not None:
            count = int((needed.group("count") or needed.group("count2")).replace(",", ""))
            return Planned("steps", count, needed.group("name") or "iterations") if count > 0 else None
    m = _BANNER.match(text)
    if m is None and "," in text and "otal" in text:
        m = _LISTED.search(text)
    if m is None and "raining " in text:
        m = _SENTENCE.match(text)
    if m is None or _OTHER.search(m.group("name")) is not None:
        return None
    count = int(m.group("count").replace(",", ""))
    if count <= 0:
        return None
    unit = m.group("unit").lower()
    return Planned("epochs" if unit == "epochs" else "steps", count, m.group("name").strip())


@dataclass(frozen=True, slots=True)
class Started:
    """A trainer's word that training starts (the module's docstring); ``step``: the step it starts from, where said."""

    step: int | None = None
    unit: str = "step"  # as printed (``iteration``)
    total: int | None = None  # the run's steps, where the start line says them beside its step (``1/40000``)


def may_say_start(text: str) -> bool:
    """True when the line holds a word every start of training :func:`started_run` reads has (a cheap test first)."""
    return ("raining" in text or "environment: " in text or "[LightGBM] [Info] " in text or "|" in text
            or " params" in text or "GPU available: " in text or "LOCAL_RANK: " in text
            or (("tep" in text or "TEP" in text or "ter" in text or "TER" in text) and any(c.isdigit() for c in text)))


def started_run(text: str) -> Started | None:
    """The start of training a line says with no plan in it (the module's docstring), or None."""
    if "[LightGBM] [Info] " in text and _LIGHTGBM_SETUP.search(text):
        return Started()
    if ("|" in text or " params" in text or "GPU available: " in text or "LOCAL_RANK: " in text) and _LIGHTNING_SETUP.search(text):
        return Started()
    if "unning training" in text and _HEADING.match(text):
        return Started()
    if "environment: " in text and _ACCELERATE_STATE.search(text):
        return Started()
    if "raining" in text and _BARE_START.match(text):
        return Started()
    if " training from " in text:
        m = _STARTS_FROM.match(text)
        if m is not None:
            unit = m.group("unit").lower()
            return Started(int(m.group("count")), "iteration" if unit == "iter" else unit)
    m = _STARTS_AT.match(text)
    if m is not None:
        unit, total = m.group("unit").lower(), int(m.group("total").replace(",", ""))
        if 0 <= int(m.group("count")) <= total:
            return Started(int(m.group("count")), "iteration" if unit == "iter" else unit, total)
    return None


def evaluation_block(text: str) -> bool:
    """True when the line heads an evaluation's or a prediction's settings block (``***** Running Evaluation *****``):
    the counts under it (``Num examples = 12241``, PaddleNLP's ``Total prediction steps = 192``, ViT-pytorch's ``Num
    steps = 79``) are that pass's, never the run's plan, whatever their names."""
    return "Running " in text and _EVALUATION_HEADING.match(text) is not None


def whole_echo(text: str) -> bool:
    """True when the line is a script's whole echo of its arguments (argparse's ``Namespace(…)``, a config dict), printed
    as it starts: every count in it is a setting, none a record's (a dict's ``'steps': 4`` is the batches an epoch it was
    asked for); the run's length among them is its plan (run_args.py)."""
    return _ECHO.match(text) is not None


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
