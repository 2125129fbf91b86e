"""Whether the miner's work lands: forward activations not delivered to the next layer's peers.

macrocosm-os/iota#195: forwards time out to the neighbouring layer's peers (``connect timeout
after 5s``) and are dropped after retries, while the miner trains and submits normally — so the
rate alone reads green. The community watchdog (oakvillechen/iota-train-at-home-watchdog v1.4.0,
research ``iota-2026.md`` §2) counts ``Failed to send forward activation`` / ``Peer unreachable
for forward activation`` per 10 minutes and reads ``Broadcast peer status: N/M ok``; its yellow
and red thresholds are the ones here. Pure: the clock is an argument.
"""

from __future__ import annotations

from collections import deque
from typing import Literal

from ... import text
from ...snapshot import DeliveryView
from ..events import ForwardUndelivered, PeerStatus
from .window import SlidingWindow

DELIVERY_WINDOW_SECONDS = 600  # the watchdog's 10 minutes
# The watchdog's yellow: ≥ 5 drops in 10 min, ≥ 3 unreachable peers, or ≥ 20 % unreachable;
# its red: ≥ 15 drops or ≥ 50 %. tokwatch reads the percentages of the forwards too (not
# delivered ÷ forwards completed in the window), so a miner with few forwards is judged by share.
WARN_DROPS = 5
PROBLEM_DROPS = 15
WARN_UNREACHABLE_PEERS = 3
WARN_SHARE = 0.20
PROBLEM_SHARE = 0.50
PEERS_NAMED = 5  # the peers named in failures, newest first

DeliveryLevel = Literal["ok", "warning", "problem"]


class Delivery:
    """Counts forwards and the ones not delivered over a sliding 10 minutes; bounded."""

    def __init__(self) -> None:
        self._failed = SlidingWindow(DELIVERY_WINDOW_SECONDS)
        self._unreachable = SlidingWindow(DELIVERY_WINDOW_SECONDS)
        self._forwards = SlidingWindow(DELIVERY_WINDOW_SECONDS)
        self._peers: deque[tuple[float, str]] = deque(maxlen=64)
        self._status: PeerStatus | None = None
        self.seen = False  # any failure or peer status in this log: the figure exists
        self.undelivered_total = 0

    def forward(self, at: float) -> None:
        """A forward pass completed (one activation to deliver, unless this is the last layer)."""
        self._forwards.add(at)

    def undelivered(self, at: float, event: ForwardUndelivered) -> None:
        """A forward not delivered."""
        self.seen = True
        self.undelivered_total += 1
        (self._failed if event.reason == "failed" else self._unreachable).add(at)
        if event.peer is not None:
            self._peers.append((at, event.peer))

    def peer_status(self, event: PeerStatus) -> None:
        """The last broadcast's peer status."""
        self.seen = True
        self._status = event

    def evict(self, at: float) -> float:
        """Forget what fell out of the window; return the time from which the next thing is forgotten."""
        return min(self._failed.evict(at), self._unreachable.evict(at), self._forwards.evict(at))

    def view(self, now: float, working: bool, state_words: str = "training") -> DeliveryView | None:
        """The figure at ``now`` (None: this log never told of delivery); ``working``: the miner
        holds a layer (queued or registering: no alarm, nothing is sent)."""
        if not self.seen:
            return None
        start = now - DELIVERY_WINDOW_SECONDS
        failed = self._failed.count(start, now)
        unreachable = self._unreachable.count(start, now)
        forwards = self._forwards.count(start, now)
        dropped = failed + unreachable
        share = dropped / max(forwards, dropped) if dropped else (0.0 if forwards else None)
        status = self._status
        if status is not None and (status.at is None or status.at < start):
            status = None  # an old broadcast says nothing of now
        peers_ok = status.ok if status is not None else None
        peers_total = status.total if status is not None else None
        peers_down = (peers_total - peers_ok) if peers_ok is not None and peers_total is not None else 0
        peers_down_share = peers_down / peers_total if peers_total else 0.0
        named = tuple(dict.fromkeys(peer for at, peer in reversed(self._peers) if at >= start))[:PEERS_NAMED]
        level: DeliveryLevel = "ok"
        if working:
            if dropped >= PROBLEM_DROPS or (share or 0.0) >= PROBLEM_SHARE or peers_down_share >= PROBLEM_SHARE:
                level = "problem"
            elif (dropped >= WARN_DROPS or (share or 0.0) >= WARN_SHARE or peers_down >= WARN_UNREACHABLE_PEERS
                  or peers_down_share >= WARN_SHARE):
                level = "warning"
        words = _sentence(state_words, dropped, share, peers_ok, peers_total) if level != "ok" else None
        line = _line(dropped, forwards, share, peers_ok, peers_total, named)
        return DeliveryView(float(DELIVERY_WINDOW_SECONDS), failed, unreachable, forwards, share, peers_ok,
                            peers_total, named, level, words, line)


def _percent(share: float) -> str:
    return f"{round(share * 100)} %"


def _sentence(state: str, dropped: int, share: float | None, ok: int | None, total: int | None) -> str:
    """The state's sentence: what the rate does not say."""
    if dropped and share is not None:
        return f"{state}, but {_percent(share)} of forwards were not delivered in 10 min"
    if dropped:
        return f"{state}, but {text.plural(dropped, 'forward was', 'forwards were')} not delivered in 10 min"
    return f"{state}, but only {ok} of {total} peers answered the last broadcast"


def _line(dropped: int, forwards: int, share: float | None, ok: int | None, total: int | None,
          named: tuple[str, ...]) -> str:
    parts = [f"Forwards: {dropped} of {max(forwards, dropped)} not delivered in 10 min"
             + (f" ({_percent(share)})" if dropped and share is not None else "")]
    if ok is not None and total is not None:
        parts.append(f"peers {ok}/{total} ok")
    if named:
        parts.append("to " + ", ".join(named))
    return " · ".join(parts)
