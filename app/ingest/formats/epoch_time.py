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

_NUMBER = r"\[?\s{{0,3}}(?P<{0}>\d{{1,6}})(?:\s{{0,2}}/\s{{0,2}}(?P<{0}_of>\d{{1,6}}))?\]?"  # (``3``, ``[2/10]``, ``01``)
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
    # (the same, nnU-Net v2's: ``Epoch time: 148.59 s`` after its epoch's ``train_loss``, ``val_loss`` and Dice lines)
    r"|epoch time"
    # (the epoch ended, then its time taken: pix2pix's and CycleGAN's ``End of epoch 118 / 500000 \t Time Taken: 5.06 sec``)
    rf"|end of epoch\s{{0,2}}{_NUMBER.format('ended')}\s{{0,4}}[|,-]?\s{{0,4}}time taken"
    r")\s?[:=]?\s{0,4}"
    rf"(?:{DURATION})"
    r"(?:\s{0,2}\([^()]{0,60}\))?[.!]?\s*$"
)
# Where a prefix ends, the message after it: a logger's, or a date's (nnU-Net's ``2021-05-15
# 01:12:54.150438: This epoch took 2298.705742 s``).
_STARTS = (*MESSAGE_STARTS, ": ")
# nnU-Net's date before its message, taken off first where the message has a colon of its own (``2024-04-26
# 09:41:39.505914: Epoch time: 148.59 s``)
_DATED = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?: ")
# The cheap test, on the lowered line.
MAYBE = re.compile(r"epoch")


def epoch_time(message: str) -> tuple[int | None, float] | None:
    """The epoch ``message`` prints the time of (None: the one just recorded) and its seconds, or None."""
    said = _said(message)
    if said is None:
        return None
    seconds = duration_seconds(said)
    epoch = said.group("done") or said.group("named") or said.group("then") or said.group("ended")
    return None if seconds is None else (None if epoch is None else int(epoch), seconds)


def epochs_planned(message: str) -> int | None:
    """The run's epochs where ``message``, an epoch's time, says its epoch out of them (``Epoch [2/10] took``), or None."""
    said = _said(message)
    if said is None:
        return None
    total = said.group("done_of") or said.group("named_of") or said.group("then_of") or said.group("ended_of")
    return None if total is None else int(total)


def _said(message: str) -> re.Match[str] | None:
    """The match of an epoch's time in ``message``, or None."""
    if MAYBE.search(message.lower()) is None:
        return None
    return match_message(_EPOCH_TIME, _DATED.sub("", message, count=1), _STARTS)
