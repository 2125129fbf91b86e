"""What the page shows before its scripts run: the live snapshot's headline, placed as view.js places it.

The page's first paint then already reads the state and the status line, instead of waiting for
its modules and the websocket's first message; when that message arrives, view.js draws the same
words again in the same place (it does not trust these rules, so a drift corrects itself at once). Only the headline is placed here (the state's word, the status
line, the sentence under it, the tab title and the notices above it): every other figure is the
scripts' alone. The rules below mirror static/view.js and static/app.js (``renderStatus``,
``renderState``, ``renderTitle``); a test in Chromium holds each to the other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..states import STATE_EXPLANATIONS, STATE_WORDS

# view.js gives a status line longer than this (in UTF-16 code units, as JavaScript counts) a smaller size.
LONG_STATUS = 16
WARNING_LEVELS = frozenset({"warning", "problem"})


@dataclass(frozen=True)
class Headline:
    """The page's top as the scripts would first draw it from one snapshot."""

    state: str
    level: str
    word: str  # the state's short word, "" when it has none
    status_line: str
    status_head: str  # the words that may wrap, with their trailing space ("" when none)
    status_tail: str  # the last piece, kept together ("383/29000 · …")
    long: bool
    explanation: str
    title: str
    demo: bool
    problem: str
    problems: tuple[str, ...]

    @property
    def problems_key(self) -> str:
        """The key view.js keeps on the problems' list (``JSON.stringify`` of its lines), so it leaves them be."""
        return json.dumps(list(self.problems), ensure_ascii=False, separators=(",", ":"))


def split_status(line: str) -> tuple[str, str]:
    """The status line's head (wrapping freely) and its tail (kept on one line), as view.js splits it."""
    words = line.split(" ")
    keep = 3 if len(words) >= 3 and words[-2] == "·" else min(2, len(words))
    head = " ".join(words[: len(words) - keep])
    return (f"{head} " if head else ""), " ".join(words[len(words) - keep :])


def utf16_length(text: str) -> int:
    """The length JavaScript gives a string."""
    return len(text.encode("utf-16-le")) // 2


def headline(snapshot: dict[str, Any]) -> Headline:
    """The headline of a snapshot in its JSON form (``to_dict``): the same fields the page reads."""
    state = str(snapshot.get("state") or "")
    level = str(snapshot.get("level") or "")
    word = " ".join(STATE_WORDS.get(state, "").split())
    status_line = str(snapshot.get("status_line") or "")
    head, tail = split_status(status_line)
    source = snapshot.get("source") or {}
    lost = (snapshot.get("lost_layer") or {}).get("text") or ""
    delivery = snapshot.get("delivery") or {}
    undelivered = delivery.get("text") or "" if delivery and delivery.get("level") != "ok" else ""
    generic = "" if snapshot.get("cause") else " ".join(STATE_EXPLANATIONS.get(state, "").split())
    explanation = "" if source.get("problem") else lost or undelivered or generic
    title = status_line
    if level in WARNING_LEVELS and word and word not in title:
        title = f"{word} · {title}"
    return Headline(
        state=state,
        level=level,
        word=word,
        status_line=status_line,
        status_head=head,
        status_tail=tail,
        long=utf16_length(status_line) > LONG_STATUS,
        explanation=explanation,
        title=title,
        demo=bool(source.get("demo")),
        problem=str(source.get("problem") or ""),
        problems=tuple(str(line) for line in snapshot.get("problems") or ()),
    )
