"""The trainer's running clock printed value first, then its unit and ``elapsed``: the seconds since it began.

Legacy OpenNMT-py ends each report with it (``Epoch 13, 64500/64667; acc: …; 5294 tgt tok/s;  18163 s elapsed``; since
0.4 ``Step 9900/100000; …; 294/312 tok/s;  35748 sec``), and the
LightGBM CLI prints it on a line of its own after each iteration's metrics (``2.436162 seconds elapsed, finished 1000
iteration`` in its first releases, ``… finished iteration 500`` since). It is a running total, never one step's time:
a step's time is the clock between two records over the steps between them, (clock₂ − clock₁) / (step₂ − step₁), never
the clock over the step count (an excerpt may begin mid-run, and a run resumed from a checkpoint starts its clock again).
"""

from __future__ import annotations

import re

# ``18163 s elapsed``, ``2.436162 seconds elapsed``, ``90 sec elapsed``: one such clock a record.
_VALUE_ELAPSED = re.compile(r"(?<![\w.])(\d{1,9}(?:\.\d{1,9})?) ?(?:s|secs?|seconds?) elapsed\b")
# OpenNMT-py's report since 0.4 ends in its clock, its unit alone after it, behind its tokens a second (``…; lr: 0.00100;
# 294/312 tok/s;  35748 sec``).
_TOKENS_THEN_SECONDS = re.compile(r"tok/s;\s{1,12}(\d{1,9}) sec\s*$")
# LightGBM's clock line, the iteration it closes after it (both word orders its CLI has printed).
_FINISHED = re.compile(
    r"(?<![\w.])(\d{1,9}(?:\.\d{1,9})?) seconds elapsed, finished (?:(\d{1,12}) iterations?|iteration (\d{1,12}))\s*$"
)

# XGBoost's clock line, the number of rounds done before it (round ``[0]``'s metrics, then ``boosting round 1``).
_BOOSTED = re.compile(r"^boosting round (\d{1,12}), (\d{1,9}(?:\.\d{1,9})?) sec elapsed\s*$")


def value_elapsed(text: str) -> float | None:
    """The seconds of the one ``N s elapsed`` a record prints (or OpenNMT-py's ``… tok/s;  N sec`` that ends it); None for
    none, or more than one (whose is whose?)."""
    found = _VALUE_ELAPSED.findall(text)
    if not found and text.endswith("sec") and (ended := _TOKENS_THEN_SECONDS.search(text)) is not None:
        return float(ended.group(1))
    return float(found[0]) if len(found) == 1 else None


def finished_clock(text: str) -> tuple[float, int] | None:
    """(the clock, the iteration) of a line that ends in LightGBM's ``S seconds elapsed, finished N iteration``."""
    m = _FINISHED.search(text)
    return None if m is None else (float(m.group(1)), int(m.group(2) or m.group(3)))


def boosted_clock(text: str) -> tuple[float, int] | None:
    """(the clock, the rounds done) of XGBoost's ``boosting round 9, 40.8379 sec elapsed`` (its time-of-day peeled)."""
    m = _BOOSTED.match(text)
    return None if m is None else (float(m.group(2)), int(m.group(1)))
