"""MXNet's records, led by their epoch in brackets: ``Epoch[3] Batch [100]`` and the epoch's own lines after them.

MXNet's ``Module.fit`` and its ``Speedometer`` callback print (python/mxnet/callback.py, module/base_module.py)::

    Epoch[0] Batch [100]	Speed: 1234.50 samples/sec	accuracy=0.512000
    Epoch[0] Train-accuracy=0.650000
    Epoch[0] Time cost=12.300
    Epoch[0] Validation-accuracy=0.700000

and Gluon loops copy the shape with their own figures, a group of them often written as a named tuple, the names in
one pair of parentheses and the values in the next (Optim_Hopenet's ``Epoch[087] Batch[449/478] Speed: 526.21
samples/sec, Loss:(pitch, yaw, roll)/(6.754, 3.166, 5.652)``, its ``Epoch[087] train: MAE:(…)/(…), Cost=229 sec``).

sockeye (MXNet) prints the same Speedometer with its tokens and updates a second after the samples (``Epoch[0] Batch [3000]
Speed: 154.75 samples/sec 8548.68 tokens/sec 1.60 updates/sec  perplexity=38.275190``) and leads its checkpoint's own lines
with it (``Checkpoint [3]  Validation-perplexity=19.245108``), as MXNet leads an epoch's.

A batch's record is given back as the grammar's ``name: value`` pairs: the epoch, the batch in it (the last of a
``[0-20]`` range; its total where printed), the samples a second, each member of a tuple under its own name (a loss
tuple's members are parts, none the model's one loss: their sum is not printed and not made up). An epoch's own line is
given back as its classed figures: its time (``Time cost`` in seconds, as ``Module.fit`` measures it, a difference
of the wall clock; ``Cost=229 sec`` as printed), its validation's scores and losses (the evaluation's). The training
metric it repeats for the epoch (``Train-accuracy``, ``train: MAE:(…)``) is no class tokwatch shows and is left out.
"""

from __future__ import annotations

import re

from .classes import Kin, Named
from .fields import NUM, number
from .grammar import normalise

# The epoch in brackets leading the record (``Iter[0]`` in MXNet's oldest Speedometer, ``Iteration[0]`` on the epoch's
# lines of its ``FeedForward.fit``).
_EPOCH = re.compile(r"(?:Epoch|Iteration|Iter)\[\s*(\d{1,6})\]\s?")
# sockeye's checkpoint leading its own lines after the batches (``Checkpoint [3]  Validation-perplexity=19.245108``), as
# an epoch leads MXNet's: a validation's figures of the checkpoint, which the last batch reached.
_CHECKPOINT = re.compile(r"Checkpoint \[(\d{1,6})\]\s{1,4}")
# The batch of the epoch: ``Batch [100]``, ``Batch[449/478]``, a range of batches ``Batch [0-20]`` (its last one).
_BATCH = re.compile(r"Batch\s?\[\s*(?:\d{1,12}-)?(\d{1,12})(?:/(\d{1,12}))?\]\s*")
# gluon-cv's training scripts: ``[Epoch 0][Batch 99], Speed: 81.676 samples/sec, CrossEntropy=6.699, SmoothL1=2.947``.
_GLUON_LEAD = re.compile(r"\[Epoch (\d{1,6})\]\s?\[Batch (\d{1,12})(?:/(\d{1,12}))?\],?\s*")
_SPEED = re.compile(rf"Speed:\s?({NUM})\s?samples/sec,?\s*")
# sockeye's Speedometer goes on with the tokens and the updates a second (``Speed: 154.75 samples/sec 8548.68 tokens/sec
# 1.60 updates/sec``); a figure a terminal's width broke keeps the two spaces the wrap left inside it (awslabs/sockeye#694's
# paste: ``8548.6  8 tokens/sec``, which is 8548.68): no figure, never its tail (8) nor its head (8548.6).
_UNIT_RATE = re.compile(rf"({NUM})(?P<broken> {{2}}[\d.]+)?\s?(tokens|updates)/sec,?\s*")
_UNIT_RATE_NAMES = {"tokens": "tokens/s", "updates": "ups"}  # (``ups``: updates a second, as fairseq names them)
# A named tuple: ``Loss:(pitch, yaw, roll)/(6.754, 3.166, 5.652)``.
_TUPLE = re.compile(r"([A-Za-z][\w-]{0,30}):\s?\(([^()]{1,300})\)/\(([^()]{1,300})\),?\s*")
# An epoch's line: MXNet's ``Train-accuracy=…``, ``Validation-accuracy=…``, ``Time cost=…``; a loop's ``train: …``/``val  : …``.
_STAGE = re.compile(r"(train|val|valid|validation|test)\s*:\s*", re.IGNORECASE)
_METRIC = re.compile(rf"(Train|Validation)-([\w-]{{1,60}})=({NUM})")
_COST = re.compile(rf"(?:Time cost|Cost)=({NUM})(?:\s?(sec|s)\b)?")
_EVAL_STAGES = frozenset({"val", "valid", "validation", "test"})
# MXNet's R package names no epoch on its batches (R-package/R/callback.R's ``mx.callback.log.speedometer``):
# ``Batch [50] Speed: 26130.01 samples/sec Train-accuracy=0.11``; its round's end after them is the round's number in
# brackets and the training metric (R-package/R/model.R): ``[1] Train-accuracy=0.702357104700855``. MXNet's early
# Python ``FeedForward.fit`` did the same, its Speedometer's ``Batch [200]\tSpeed: 157.49 samples/sec`` under no epoch,
# the epoch's end ``Iteration[0] Train-accuracy=0.184423`` (counted from 0, as ``Epoch[0]`` is).
_ROUND_END = re.compile(rf"(?:Iteration)?\[(\d{{1,6}})\] Train-[\w-]{{1,60}}={NUM}\s*$")


def is_bracketed(s: str) -> bool:
    """Whether the record leads with its epoch in brackets."""
    if s[:7] == "[Epoch ":
        return _GLUON_LEAD.match(s) is not None
    if s[:11] == "Checkpoint ":
        return _CHECKPOINT.match(s) is not None
    return s[:1] in "EI" and _EPOCH.match(s) is not None


def batch_record(s: str) -> str | None:
    """A batch's record as the grammar's pairs (``epoch: 3 | batch: 100/478 | samples/sec: 526.21 | pitch loss: …``);
    None when the record names no batch. gluon-cv's ``[Epoch 0][Batch 99], …`` leads its records the same way."""
    gluon = _GLUON_LEAD.match(s) if s[:1] == "[" else None
    if gluon is not None:
        epoch_number, batch_number, batches, rest = gluon.group(1), gluon.group(2), gluon.group(3), s[gluon.end():]
    else:
        epoch = _EPOCH.match(s)
        batch = _BATCH.match(s, epoch.end()) if epoch is not None else None
        if epoch is None or batch is None:
            return None
        epoch_number, batch_number, batches, rest = epoch.group(1), batch.group(1), batch.group(2), s[batch.end():]
    position = batch_number + (f"/{batches}" if batches else "")
    pieces = [f"epoch: {epoch_number}", f"batch: {position}"]
    speed = _SPEED.search(rest)
    if speed is not None:
        pieces.append(f"samples/sec: {speed.group(1)}")
        end = speed.end()
        while (rate := _UNIT_RATE.match(rest, end)) is not None:
            if rate.group("broken") is None:
                pieces.append(f"{_UNIT_RATE_NAMES[rate.group(3)]}: {rate.group(1)}")
            end = rate.end()
        rest = rest[: speed.start()] + rest[end:]
    for name, value in _tuple_members(rest):
        pieces.append(f"{name}: {value}")
    rest = _TUPLE.sub("", rest).replace("\t", " | ").strip(" ,|")
    if rest:
        pieces.append(rest)
    return " | ".join(pieces)


def round_batch(s: str) -> str | None:
    """A batch's record that names no epoch but its samples a second (MXNet R's ``Batch [50] Speed: 26130.01
    samples/sec Train-accuracy=0.11``) as the grammar's pairs (``batch: 50 | samples/sec: 26130.01 | …``); None for
    any other line."""
    batch = _BATCH.match(s)
    speed = _SPEED.match(s, batch.end()) if batch is not None else None
    if batch is None or speed is None:
        return None
    position = batch.group(1) + (f"/{batch.group(2)}" if batch.group(2) else "")
    rest = s[speed.end():].replace("\t", " | ").strip(" ,|")
    return " | ".join(p for p in (f"batch: {position}", f"samples/sec: {speed.group(1)}", rest) if p)


def round_end(s: str) -> int | None:
    """The round a line ends (MXNet R's ``[1] Train-accuracy=0.70`` after its batches), or None."""
    ended = _ROUND_END.match(s)
    return int(ended.group(1)) if ended is not None else None


def epoch_record(s: str) -> list[Named] | None:
    """An epoch's own line (no batch) as its classed figures: its time, its validation's figures; None when the
    line is no such record (the list is empty for one whose figures are all the training's)."""
    epoch = _EPOCH.match(s) or _CHECKPOINT.match(s)
    if epoch is None or _BATCH.match(s, epoch.end()) is not None:
        return None
    rest = s[epoch.end():]
    found: list[Named] = []
    stage = _STAGE.match(rest)
    if stage is not None:
        rest = rest[stage.end():]
        if stage.group(1).lower() in _EVAL_STAGES:
            word = stage.group(1).lower()
            found.extend(Named(Kin.EVAL, normalise(f"{word} {name}"), value, f"{word} {name}")
                         for name, value in _tuple_members(rest))
    metric = _METRIC.match(rest)
    if metric is not None:
        value = number(metric.group(3))
        if metric.group(1) == "Validation" and value is not None:
            found.append(Named(Kin.EVAL, normalise(f"val {metric.group(2)}"), value, f"Validation-{metric.group(2)}"))
        return found
    cost = _COST.search(rest)
    if cost is not None and (seconds := number(cost.group(1))) is not None:
        found.append(Named(Kin.EPOCH_TIME, "epoch time", seconds, cost.group(0).split("=")[0]))
    if cost is None and _TUPLE.search(rest) is None:
        return None  # (no tuple and no cost: a record of another shape, read as any line)
    return found


def speed_named(s: str) -> str:
    """A record's ``Speed: 28.997 samples/sec`` (MXNet's and Gluon's loops, gluon-cv's ``[Epoch 3][Batch 10799], LR: …,
    Speed: 28.997 samples/sec, ObjLoss=…``) as ``samples/sec: 28.997``: the samples a second, named by its unit."""
    return _SPEED.sub(lambda m: f"samples/sec: {m.group(1)}, ", s) if "Speed" in s else s


def _tuple_members(text: str) -> list[tuple[str, float]]:
    """Each member of the named tuples in ``text`` under its own name: ``Loss:(pitch, yaw)/(6.7, 3.1)`` gives
    ``pitch loss`` 6.7 and ``yaw loss`` 3.1 (a loss's head word last, as the grammar reads a loss's part)."""
    members: list[tuple[str, float]] = []
    for m in _TUPLE.finditer(text):
        names = [n.strip() for n in m.group(2).split(",")]
        values = [number(v) for v in m.group(3).split(",")]
        if len(names) != len(values) or not all(re.fullmatch(r"[A-Za-z][\w-]{0,30}", n) for n in names):
            continue
        head = m.group(1)
        members.extend((f"{name} {head.lower()}", value) for name, value in zip(names, values, strict=True) if value is not None)
    return members
