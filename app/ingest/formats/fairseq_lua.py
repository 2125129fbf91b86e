"""fairseq-lua's records, as the generic step reader reads them (the Lua fairseq, before fairseq-py).

Its trainer prints one record an epoch and one a checkpoint, between bars: ``| epoch 009 | 0046063 updates |
words/s    7730| trainloss     3.03 | train ppl     8.14``. The generic reader reads the record this module
rewrites as ``name: value`` pairs.
"""

from __future__ import annotations

import re

from .fields import NUM
from .grammar import EVAL_WORDS

# fairseq-lua's record: ``| epoch 009 | 0046063 updates | …`` (a checkpoint's led by ``| checkpoint 010 ``), its
# figures ``name value`` pieces between bars, names glued to their stage (``trainloss``, ``validbleu``).
_LUA_FAIRSEQ = re.compile(r"^\| (?:checkpoint (\d{1,9}) \| )?epoch (\d{1,9}) \| (\d{1,12}) updates \|(.*)$")
_LUA_PIECE = re.compile(rf"([A-Za-z][\w/ ]{{0,30}}?)\s+({NUM})")
_LUA_GLUED = re.compile(r"^(train|valid|test)(loss|ppl|bleu)$")


def fairseq_lua_record(s: str) -> str | None:
    """fairseq-lua's record (``| epoch 009 | 0046063 updates | words/s    7730| trainloss     3.03 | train ppl
    8.14``) as ``epoch: 9 | num updates: 46063 | words/s: 7730 | train loss: 3.03 | …``; None for any other line.

    Its names are glued (``trainloss``, ``validloss``) and printed before values padded to a column. A checkpoint's
    record keeps only its evaluation (its ``trainloss`` repeats the epoch's mean, its words/s the epoch's rate), so
    the epoch's summary is no step of its own; a record of paths and saved models reads as nothing."""
    m = _LUA_FAIRSEQ.match(s)
    if m is None:
        return None
    checkpoint, epoch, updates, rest = m.groups()
    kept = []
    for piece in rest.split("|"):
        named = _LUA_PIECE.fullmatch(piece.strip())
        if named is None:
            continue
        name = _LUA_GLUED.sub(r"\1 \2", named.group(1))
        if checkpoint is not None and name.split(" ")[0].lower() not in EVAL_WORDS:
            continue
        kept.append(f"{name}: {named.group(2)}")
    return " | ".join([f"epoch: {int(epoch)}", f"num updates: {int(updates)}", *kept])
