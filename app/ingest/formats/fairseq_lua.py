"""fairseq-lua's records, as the generic step reader reads them (the Lua fairseq, before fairseq-py).

Its trainer prints one record an epoch and one a checkpoint, between bars: ``| epoch 009 | 0046063 updates |
words/s    7730| trainloss     3.03 | train ppl     8.14``. The generic reader reads the record this module
rewrites as ``name: value`` pairs; a checkpoint's records are its epoch's end, its update count the step.
"""

from __future__ import annotations

import re

from .fields import NUM

# fairseq-lua's record: ``| epoch 009 | 0046063 updates | …`` (a checkpoint's led by ``| checkpoint 010 ``), its
# figures ``name value`` pieces between bars, names glued to their stage (``trainloss``, ``validbleu``).
_LUA_FAIRSEQ = re.compile(r"^\| (?:checkpoint (\d{1,9}) \| )?epoch (\d{1,9}) \| (\d{1,12}) updates \|(.*)$")
_LUA_PIECE = re.compile(rf"([A-Za-z][\w/ ]{{0,30}}?)\s+({NUM})")
_LUA_GLUED = re.compile(r"^(train|valid|test)(loss|ppl|bleu)$")


class FairseqLuaRecords:
    """fairseq-lua's records (``| epoch 009 | 0046063 updates | words/s    7730| trainloss     3.03 | train ppl
    8.14``) as ``epoch: 9 | num updates: 46063 | wps: 7730 | train loss: 3.03 | …``.

    Its names are glued (``trainloss``, ``validloss``) and printed before values padded to a column; its ``words/s``
    is fairseq's ``wps``, the words (target tokens) a second. A checkpoint ends its epoch in several records at its
    update count: ``s/checkpnt 443 | words/s 7740 | lr 0.250000`` (the epoch's time, rate and learning rate), then
    ``trainloss 3.70 | train ppl 13.03`` (the epoch's mean), then its evaluation. The epoch's rate and learning rate
    are kept for its train loss's record, so the checkpoint's last step carries all three; the epoch's seconds are no
    step's time and are not read."""

    def __init__(self) -> None:
        # the last checkpoint's (checkpoint, epoch, updates) and the rate and learning rate its summary printed
        self._summary: tuple[tuple[str, str, str], list[str]] | None = None

    def record(self, s: str) -> str | None:
        """The line as ``name: value`` pairs, or None for any other line; a record of paths and saved models reads
        as its position alone."""
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
            if name == "s/checkpnt":
                continue  # (the epoch's seconds: no step's time)
            kept.append(f"{'wps' if name == 'words/s' else name}: {named.group(2)}")
        if checkpoint is not None:
            key = (checkpoint, epoch, updates)
            if "s/checkpnt" in rest:
                self._summary = (key, kept)
            elif self._summary is not None and self._summary[0] == key and any(k.startswith("train ") for k in kept):
                kept = [*self._summary[1], *kept]
        return " | ".join([f"epoch: {int(epoch)}", f"num updates: {int(updates)}", *kept])
