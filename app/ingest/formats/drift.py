"""The drift guard's eye: record shapes of a recognised log that tokwatch reads nothing from, first seen late.

A wording change on the miner's side breaks a parser silently (the menu-bar monitor's notes; in
September 2026 the success line changed twice). Every record tokwatch reads nothing from has a
*shape*: its text after the timestamp with numbers, ids, keys and home folders masked, so no
private text is kept. The shapes seen in the log's first ``BASELINE_SECONDS`` (of log time) are
its usual ones; a shape first seen after that is new, and told once. Bounded; pure.
"""

from __future__ import annotations

import re

# The log time over which a log's usual shapes are learnt, from its first record read.
BASELINE_SECONDS = 30 * 60
SHAPES_KNOWN_MAX = 4096  # beyond this many distinct shapes, the log is not one whose shapes mean much
SHAPE_CHARS = 160
WORDS_KNOWN_MAX = 4096  # words whose shapes are remembered (ids among them: then forgotten at once)

# Masked, in this order: a home folder's user, a UUID or hex id, any token mixing letters and
# digits (hotkeys, peer ids, activation ids), then every run of digits.
_HOME = re.compile(r"/(Users|home)/[^/\s]+")
_HEX_ID = re.compile(r"\b[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\b|\b[0-9a-fA-F]{12,}\b")
_MIXED = re.compile(r"\b(?=[A-Za-z_]*[0-9])(?=[0-9_]*[A-Za-z])[A-Za-z0-9_]{8,}\b")
_DIGITS = re.compile(r"[0-9]+")
_QUOTED = re.compile(r"'[^']{24,}'|\"[^\"]{24,}\"")  # a long quoted value: a message, a path, a name


def line_shape(rest: str) -> str:
    """A record's text (after its timestamp) as a shape: numbers, ids, keys and home folders masked."""
    # Runs of whitespace as one space, stripped: str.split() splits at what ``\s`` matches in a str pattern.
    return _cut(" ".join(_masked(rest).split()).lstrip("| "))


def _masked(text: str) -> str:
    """``text`` with its home folders' users, ids, keys, long quoted values and numbers masked."""
    # (each pattern only where its text can be: a record's rest is looked at whenever the memo of quiet
    # shapes meets one it does not know, as every line naming an activation id does)
    shape = _HOME.sub(r"/\1/…", text) if "/Users/" in text or "/home/" in text else text
    shape = _HEX_ID.sub("…", shape)
    shape = _MIXED.sub("…", shape)
    shape = _QUOTED.sub("'…'", shape) if "'" in shape or '"' in shape else shape
    return _DIGITS.sub("N", shape)


def _cut(shape: str) -> str:
    return shape if len(shape) <= SHAPE_CHARS else shape[: SHAPE_CHARS - 1] + "…"


class ShapeWatch:
    """Shapes seen so far; answers whether a shape, seen at a log time, is new after the baseline."""

    def __init__(self) -> None:
        self._known: set[str] = set()
        self._first_at: float | None = None
        self.full = False
        # Each word's shape (see _shape): a miner's records repeat their words, ids aside.
        self._words: dict[str, str] = {}

    def _shape(self, rest: str) -> str:
        """:func:`line_shape` of ``rest``, made a word at a time where no quote can join words.

        No mask reaches over whitespace (no pattern matches it, none puts it in, and a word's edge
        is one to ``\b`` alone as in its line), so a quote-free rest's shape is its words' shapes
        joined by spaces: each word's is remembered, and a record naming an activation id masks that
        word alone, not the whole line again (the masks' patterns try every position of a text).
        """
        if "'" in rest or '"' in rest:
            return line_shape(rest)
        words = self._words
        shaped: list[str] = []
        for word in rest.split():
            shape = words.get(word)
            if shape is None:
                if len(words) >= WORDS_KNOWN_MAX:
                    words.clear()  # full of ids; the usual words come back
                shape = words[word] = _masked(word)
            shaped.append(shape)
        return _cut(" ".join(shaped).lstrip("| "))

    def see(self, rest: str, at: float | None) -> str | None:
        """The shape of ``rest`` when it is new after the baseline (told once), else None."""
        if self.full:
            return None
        shape = self._shape(rest)
        if shape in self._known:
            return None
        if len(self._known) >= SHAPES_KNOWN_MAX:
            self.full = True  # every line differs: shapes say nothing here
            return None
        self._known.add(shape)
        if at is None:
            return None
        if self._first_at is None:
            self._first_at = at
        return shape if at - self._first_at >= BASELINE_SECONDS else None
