"""A validation's scores, each marked with ``#``, as BasicSR and the restoration codes built on it log them.

The ESRGAN/EDVR/mmsr codes (and their forks: HDRUNet, SPSR, IRN) log a validation's result as a heading ruled
with hashes, the scores after it (``# Validation # PSNR: 2.8150e+01, norm_PSNR: 4.1e+01``); BasicSR 1.x logs the
validated set's name then each score behind a ``#`` (``Validation ValSet,\\t\\t # psnr: 24.1773``), from 1.3.5 a score
a line under its heading with the best so far beside it (``Validation Set14`` then ``\\t # psnr: 28.1500\\tBest:
28.2000 @ 35000 iter``). The scores are the validation's, run at the step just logged; the best so far and the
iteration it was reached at are a running extreme, never this validation's figure, never a step.

The mmsr codes (and IRN, SR3, ESRGAN's trainers copied from them) also log each validation on a line of its own, its
position in the training logger's angle brackets with no learning rate, the scores after it (``<epoch: 99, iter:
5,000> psnr: 2.9862e+01``, to the validation's own logger, often a file of such lines alone): the validation's scores
at the iteration it names.
"""

from __future__ import annotations

import re

from .classes import Kin, Named
from .fields import number
from .grammar import normalise

# The heading: ``# Validation #`` (ruled with hashes), or ``Validation`` and the set's name; then the first ``#``
_HEADING = re.compile(r"\s*(?:#\s*Validation\s*#|Validation(?:\s+[^\s#,:]{1,60})?\s*,?\s*(?=#))")
# One score: ``# psnr: 24.1773``, ``PSNR: 2.0776e+01`` (after the heading's own hash), then the best so far where printed
_SCORE = re.compile(r"\s*#?\s*(?P<name>[A-Za-z][\w.-]{0,30})\s*:\s*(?P<value>[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)"
                    r"(?:\s*Best:\s*[-+]?[\d.]+(?:e[-+]?\d+)?\s*@\s*\d+\s*iter)?\s*[,.]?\s*")
# A validation's own line: the training logger's position in angle brackets, nothing else in them (no ``lr:``)
_POSITIONED = re.compile(r"\s*<epoch:\s*(?P<epoch>\d{1,7}),\s*iter:\s*(?P<iter>\d{1,3}(?:,\d{3}){0,4}|\d{1,15})>\s+")
# A score's name: a fidelity or perceptual measure of the restored image, as these codes name them (``psnr``,
# ``norm_PSNR``, ``mu_PSNR``, ``ssim``, ``lpips``), never a loss a training record prints in the same brackets.
_SCORE_NAME = re.compile(r"(?:^|\s)(?:psnr|ssim|lpips|niqe|psnr y|ssim y)$")
# The heading's start alone (``Validation Set14``), its scores on the lines under it
_HEADING_ALONE = re.compile(r"\s*Validation\s+[^\s#,:]{1,60}\s*$")


def marked_scores(text: str) -> list[Named] | None:
    """The validation's scores a marked line prints (the module's docstring), or None: every figure on it a score."""
    heading = _HEADING.match(text)
    if heading is None:
        return None
    return _scores(text, heading.end())


def positioned_scores(text: str) -> tuple[int, int, list[Named]] | None:
    """The epoch, the iteration and the scores of a validation's own line (``<epoch: 99, iter:   5,000> psnr:
    2.9862e+01``, the module's docstring), or None: every figure after its position a score."""
    position = _POSITIONED.match(text)
    if position is None:
        return None
    scores = _scores(text, position.end())
    if scores is None or not all(_SCORE_NAME.search(score.name) for score in scores):
        return None
    return int(position.group("epoch")), int(position.group("iter").replace(",", "")), scores


def heading_alone(text: str) -> bool:
    """True when the line is BasicSR's heading with its scores on the lines under it (``Validation Set14``)."""
    return text[:10] == "Validation" and _HEADING_ALONE.match(text) is not None


def score_under_heading(text: str) -> list[Named] | None:
    """A score a line under that heading prints (``\\t # psnr: 28.1500\\tBest: 28.2000 @ 35000 iter``), or None."""
    stripped = text.lstrip()
    return _scores(stripped, 0) if stripped[:1] == "#" else None


def _scores(text: str, start: int) -> list[Named] | None:
    """The scores from ``start`` to the line's end, every one named and valued, else None."""
    found: list[Named] = []
    i = start
    while i < len(text):
        m = _SCORE.match(text, i)
        if m is None or m.end() == i:
            return None
        value = number(m.group("value"))
        if value is None:
            return None
        found.append(Named(Kin.EVAL, normalise(m.group("name")), value, m.group("name")))
        i = m.end()
    return found or None
