"""A step's transitions into messages, typed as the state they lead into.

A condition that ends into a worse state is no success: a crash that ends a stall, or a miner
back from the queue whose log then stops, must not send a green ✓ beside (or before) the red
message. Such an end is held and told as a line of the worse state's own message when that one
opens (``Before it: stalled for 1 min``), and only as a success of its own once the machine is
back in a state that reads well.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..snapshot import Snapshot
from .book import Transition
from .message import Message, compose

# A resolution into a state of these levels is not a success (the page is amber or red).
WORSE_LEVELS = frozenset({"warning", "problem"})


class Folding:
    """Holds the ends that led into a worse state until they can be told truthfully; one per machine."""

    def __init__(self) -> None:
        self._held: list[Transition] = []

    def messages(self, transitions: Iterable[Transition], snap: Snapshot, *, name: str,
                 dashboard_url: str | None) -> list[Message]:
        """The messages for one step's transitions at ``snap`` (in order), ends folded where they belong."""
        steps = list(transitions)
        worse = snap.level in WORSE_LEVELS
        if worse:
            self._held += [t for t in steps if t.kind == "resolved"]
            steps = [t for t in steps if t.kind != "resolved"]
        elif self._held:
            steps = self._held + steps  # back in a good state: each end is told as it was
            self._held = []
        out: list[Message] = []
        for t in steps:
            ended: list[Transition] = []
            if t.kind == "opened" and worse and self._held:
                ended, self._held = [e for e in self._held if e.rule != t.rule], []
            out.append(compose(t, snap, name=name, dashboard_url=dashboard_url, before=ended))
        return out
