"""The fleet page's push: the whole fleet once, then only what changed (changed cards' fields, the header).

At a thousand machines the whole fleet is about 570 KB, and a fleet reports several times a
second: sending it whole twice a second cost an open page over 1 MB/s. A :class:`FleetFrame` is
the fleet at one moment; each client is sent the text that takes it from the frame it has to
the newest (:meth:`FleetFrame.text_after`): the delta from the frame just before is made once and
shared by every client that has that one; a client that missed frames gets its own.

A delta: ``{"delta": true, "as_of": …, "cards": {name: {field: value, …}}, "gone": [name…]}``, with
``totals`` and ``alerts_problem`` when they changed. A card new to the client comes whole; a
field a card no longer has comes as null. ``last_seen_text`` ("40 s ago") changes with the clock
alone: it is not a change (the page writes a reported machine's age from ``last_seen_at``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from .broadcast import Frame

# Words that move with the clock alone, written by the page from the card's other fields.
CLOCK_ONLY = frozenset({"last_seen_text"})
HEADER = ("totals", "alerts_problem")


def _text(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def card_changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``new`` that differ from ``old`` (a field ``new`` lacks: null); {} when none."""
    # Most cards of a push are unchanged but for their age: one comparison of whole dicts says so.
    same = dict(new)
    for key in CLOCK_ONLY:
        if key in old:
            same[key] = old[key]
    if same == old:
        return {}
    changed = {key: value for key, value in new.items() if key not in CLOCK_ONLY and old.get(key, ...) != value}
    for key in old.keys() - new.keys():
        changed[key] = None
    return changed


ClockWords = Callable[[dict[str, Any], float], dict[str, Any]]


class FleetFrame:
    """The fleet at one moment (the ``/api/fleet`` body), and the texts that bring a page to it.

    ``clock_words``: given, the fleet's cards are kept ones (their ``CLOCK_ONLY`` words as of when
    each was made, each the same object from frame to frame while nothing else in it changed);
    it writes a card whole at the frame's moment, for a page that gets the card whole.
    """

    def __init__(self, fleet: dict[str, Any], previous: FleetFrame | None = None, *,
                 clock_words: ClockWords | None = None) -> None:
        self.fleet = fleet
        self.cards: dict[str, dict[str, Any]] = {card["name"]: card for card in fleet.get("machines", [])}
        self._previous = previous
        self._clock_words = clock_words
        self._lock = threading.Lock()
        self._full: str | None = None
        self._delta: str | None = None

    def _whole(self, card: dict[str, Any]) -> dict[str, Any]:
        return card if self._clock_words is None else self._clock_words(card, self.fleet["as_of"])

    def full_text(self) -> str:
        """The whole fleet (a page's first message)."""
        with self._lock:
            if self._full is None:
                fleet = self.fleet if self._clock_words is None else {
                    **self.fleet, "machines": [self._whole(card) for card in self.fleet.get("machines", [])]}
                self._full = _text(fleet)
            return self._full

    def text_after(self, sent: Frame | None) -> str:
        """What a page holding ``sent`` needs to hold this frame (None: it holds nothing yet)."""
        if not isinstance(sent, FleetFrame):
            return self.full_text()
        with self._lock:
            if sent is self._previous:
                if self._delta is None:
                    self._delta = self._delta_from(sent)
                return self._delta
        return self._delta_from(sent)

    def _delta_from(self, sent: FleetFrame) -> str:
        delta: dict[str, Any] = {"delta": True, "as_of": self.fleet.get("as_of")}
        for key in HEADER:
            if self.fleet.get(key) != sent.fleet.get(key):
                delta[key] = self.fleet.get(key)
        cards: dict[str, dict[str, Any]] = {}
        for name, card in self.cards.items():
            old = sent.cards.get(name)
            if old is card:
                continue  # a kept card, the same object: nothing but its age moved
            fields = self._whole(card) if old is None else card_changes(old, card)
            if fields:
                cards[name] = fields
        delta["cards"] = cards
        delta["gone"] = [name for name in sent.cards if name not in self.cards]
        return _text(delta)


class FleetFrames:
    """Makes each push's frame from the hub's fleet, linked to the frame pushed before it.

    ``kept``: the fleet with kept cards for the pushes (``clock_words`` writes one whole at a
    moment), so a push compares only the cards that changed; a page's first message is ``fleet``.
    """

    def __init__(self, fleet: Callable[[], dict[str, Any]], *, kept: Callable[[], dict[str, Any]] | None = None,
                 clock_words: ClockWords | None = None) -> None:
        self._fleet = fleet
        self._kept = kept
        self._clock_words = clock_words if kept is not None else None
        self._lock = threading.Lock()
        self._last: FleetFrame | None = None

    def next(self) -> FleetFrame:
        """The fleet now, as the frame after the last one pushed (the broadcaster's payload)."""
        with self._lock:
            last = self._last
            if last is not None:
                with last._lock:
                    last._previous = None  # frames link one back only: the older ones can go
            frame = FleetFrame((self._kept or self._fleet)(), last, clock_words=self._clock_words)
            self._last = frame
            return frame

    def first(self) -> FleetFrame:
        """The fleet now, for a page that has just connected (its first message is the whole fleet)."""
        return FleetFrame(self._fleet())
