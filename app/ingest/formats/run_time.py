"""The whole run's time, printed once as the run ends: a duration beside a run-level word.

The PyTorch transfer-learning tutorial's ``Training complete in 24m 31s`` (copied into many scripts, some naming their
model: ``Training resnet-18 complete in 304m 5s``), ``Total training time: 0:10:28.642483`` (``str(timedelta)``, days
included past one: ``1 day, 2:03:04``), ``Training took 123.4 seconds``, ``Finished training in 2h 3m``, ``Training
time: 94.78s``: how long the whole run took, never one step's or one epoch's time. A line that names an epoch, a step,
an iteration or a batch (``Epoch 3 complete in 1m 2s``, ``Epoch: [2] Total time: 0:02:52``) times that, not the run.
A time with no unit printed (``Total Time: 94.78``) is not read here: its unit is the trainer's to say.
"""

from __future__ import annotations

import re

from .grammar import DURATION, duration_seconds, match_message

# What the whole run's time is said with, at the start of the message: the training (or the run) complete, finished,
# done, or how long it took, maybe naming its model (one word: ``resnet-18``, never an epoch's or a step's word);
# training finished; the training's (or run's) total time.
_COUNTED = r"(?!(?:epochs?|steps?|iter\w*|batch\w*|rounds?|episodes?)\b)"
_RUN_TIME = re.compile(
    r"(?i)^[^\w\s]{0,4}\s{0,2}(?:"
    rf"(?:total )?(?:training|train|the run|run)(?: {_COUNTED}[\w.+-]{{1,40}})? (?:is |was |has )?"
    r"(?:complete|completed|finished|done|ended|over)(?: in| after)?"
    r"|(?:training|train|the run|run) took"
    r"|(?:finished|completed|done) (?:the )?(?:training|run)(?: in| after)?"
    r"|total (?:training |train |run |elapsed |wall[- ]?clock )?time(?: taken| elapsed| spent)?"
    r"|(?:training|train|run|wall[- ]?clock) time(?: taken| elapsed| spent)?"
    r")\s?[:=]?\s{0,4}"
    rf"(?:{DURATION})"
    r"(?:\s{0,2}\([^()]{0,60}\))?[.!]?\s*$"
)
# A prefix that names what is counted (``Epoch: [251] Total time: 0:00:52``, MAE's MetricLogger) times that, no run.
_COUNTED_PREFIX = re.compile(r"(?i)\b(?:epoch|step|iter|batch|round|episode)")
# The cheap test, on the lowered line.
MAYBE = re.compile(r"train|run|total")


def run_seconds(message: str) -> float | None:
    """The seconds of the whole run's time that ``message`` prints as the run ended, or None."""
    if MAYBE.search(message.lower()) is None:
        return None
    said = match_message(_RUN_TIME, message, prefix_ok=lambda prefix: _COUNTED_PREFIX.search(prefix) is None)
    return None if said is None else duration_seconds(said)

