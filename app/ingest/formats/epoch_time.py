"""One epoch's own time, printed in words beside its epoch: a duration beside an epoch word and its number.

The PyTorch transfer-learning tutorial's copies timing each epoch (``Epoch 3 complete in 1m 2s``), ``Epoch 5 finished in
00:01:02``, ``Epoch 2 took 61.3 s`` (``Training Epoch 1 took 1285.07 seconds.``), TensorFlow's DCGAN tutorial's ``Time for
epoch 4 is 12.5 sec`` (``Training time for epoch 1 is: 3.46 seconds``), the PyTorch sentiment tutorials' ``Epoch: 01 |
Epoch Time: 0m 53s``: how long that epoch took, never the run's (run_time.py) nor one step's. A line that names another
stage first (``Evaluating Epoch 1 took 407.5 seconds``) times that stage, not the epoch's training, and is not read here.
"""

from __future__ import annotations

import re

from .grammar import DURATION, MESSAGE_STARTS, duration_seconds, match_message

_NUMBER = r"\[?\s{{0,3}}(?P<{}>\d{{1,6}})(?:\s{{0,2}}/\s{{0,2}}\d{{1,6}})?\]?"  # (``3``, ``[2/10]``, ``01``)
_EPOCH_TIME = re.compile(
    r"(?i)^[^\w\s]{0,4}\s{0,2}(?:"
    # (the epoch, then what it did: ``Epoch 3 complete in``, ``Epoch [2/10] took``, ``Training Epoch 1 took``)
    rf"(?:training |train )?epoch:?\s{{0,2}}{_NUMBER.format('done')}:?\s(?:is |was |has )?"
    r"(?:complete|completed|finished|done|ended|over|took)(?: in| after)?"
    # (its time named: ``Time for epoch 4 is``, ``Training time for epoch 1 is:``)
    rf"|(?:training |train )?time (?:for|of) epoch\s{{0,2}}{_NUMBER.format('named')}(?: is| was| took)?"
    # (the epoch, then its time named: ``Epoch: 01 | Epoch Time:``, ``Epoch 3 time:``)
    rf"|epoch:?\s{{0,2}}{_NUMBER.format('then')}\s{{0,2}}[|,-]?\s{{0,2}}(?:epoch )?time(?: taken| elapsed| spent)?"
    # (the epoch just recorded, unnumbered: nnU-Net's ``This epoch took 1119.149543 s`` after its ``epoch:  49`` block)
    r"|this epoch (?:took|lasted)"
    r")\s?[:=]?\s{0,4}"
    rf"(?:{DURATION})"
    r"(?:\s{0,2}\([^()]{0,60}\))?[.!]?\s*$"
)
# Where a prefix ends, the message after it: a logger's, or a date's (nnU-Net's ``2021-05-15
# 01:12:54.150438: This epoch took 2298.705742 s``).
_STARTS = (*MESSAGE_STARTS, ": ")
# The cheap test, on the lowered line.
MAYBE = re.compile(r"epoch")


def epoch_time(message: str) -> tuple[int | None, float] | None:
    """The epoch ``message`` prints the time of (None: the one just recorded) and its seconds, or None."""
    if MAYBE.search(message.lower()) is None:
        return None
    said = match_message(_EPOCH_TIME, message, _STARTS)
    if said is None:
        return None
    seconds = duration_seconds(said)
    epoch = said.group("done") or said.group("named") or said.group("then")
    return None if seconds is None else (None if epoch is None else int(epoch), seconds)
