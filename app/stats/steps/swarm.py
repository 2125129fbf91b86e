"""A collaborator's place in its swarm (SN38 miners, hivemind peers): joined or not, in sync or not,
averaging with whom — events in, a :class:`SwarmFacts` at ``now`` out.

Rounds: a round opens when the miner is called to average (``Received All Reduce Call``, hivemind's
``Beginning optimizer step``) and closes with its result, the first line that names it (the parser
merges one failure's several reports). Its length runs from the call to that line; its group is
the peer mapping's size, the parts per peer, or hivemind's ``with N peers``. A result with no call
before it (hivemind prints only ``Averaged gradients with 6 peers``) is a round of unknown length.

A round that never says how it ended is over when the next training step comes (the miner
pauses its training for a round): it is dropped, neither ok nor failed.

Peers: the newer miner names each peer of a round (``UID:55 - PeerID:k2P``) as it works with it,
fails with it, or bans it; the table keeps at most ``PEERS_KEPT``, the least recently seen dropped.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Literal

from ...snapshot import PeerView, RoundView
from ..events import (
    COLLABORATION_RATE,
    AllReduceResult,
    CollabProgress,
    Event,
    PeerGroup,
    RoundPeer,
    StepFigures,
    SwarmNews,
    TrainingPause,
    TrainStep,
)

# This peer's own pace, as hivemind's example trainer prints it (``Performance: 41.337 samples/sec``).
LOCAL_RATE = "samples_per_second"

# The SN38 README's known error retries the DHT 8 times, seconds apart: three failed attempts in a row
# with no peer in between are no longer bad luck, nor is five minutes of trying.
JOIN_FAILURES = 3
JOIN_SECONDS = 5 * 60
# A state download that failed twice in a row (hivemind #653: timeouts, each retried, for ever) is
# not a slow peer but a peer that cannot catch up.
DOWNLOAD_FAILURES = 2
# A round open longer than this is no longer a pause: the stall rule may speak.
ROUND_LIMIT_SECONDS = 30 * 60
ROUNDS_KEPT = 200
ROUNDS_SHOWN = 24
PEERS_KEPT = 256
PEERS_SHOWN = 12
HOUR = 3600.0


@dataclass
class _Round:
    started_at: float | None
    ended_at: float | None = None
    peers: int | None = None
    ok: bool | None = None  # None: under way
    error: str | None = None
    checkpoint: int | None = None
    failed: tuple[str, ...] = ()
    banned: tuple[str, ...] = ()
    step: int | None = None  # the step the run was at when it began

    def view(self) -> RoundView:
        length = None
        if self.started_at is not None and self.ended_at is not None:
            length = max(0.0, self.ended_at - self.started_at)
        outcome: Literal["ok", "failed", "running"] = "running" if self.ok is None else ("ok" if self.ok else "failed")
        return RoundView(self.started_at, self.ended_at, length, self.peers, outcome, self.error, self.checkpoint,
                         self.failed, self.banned, step=self.step)


@dataclass
class _Peer:
    uid: int | None
    peer: str
    rounds: int = 0
    failures: int = 0
    banned: bool = False
    last_seen: float | None = None
    last_round: int = -1  # the round it was last counted in


@dataclass(frozen=True, slots=True)
class SwarmFacts:
    """Where the collaborator stands at ``now``: what the step verdict needs, and the details' figures."""

    now: float
    join_failures: int  # in a row, no peer since
    join_failed_since: float | None
    join_cause: str | None
    join_error: str | None
    join_causes: tuple[tuple[str, int], ...]  # each usual meaning of the failures in a row, how many times
    cannot_join: bool
    out_of_sync_since: float | None
    download_failures: int  # in a row
    download_error: str | None
    sync_failing: bool
    averaging_since: float | None  # a round under way (and not past its limit)
    alone_since: float | None
    rounds: tuple[RoundView, ...]  # newest first
    rounds_ok: int
    rounds_failed: int
    last_good_round_at: float | None
    averaging_share_last_hour: float | None
    averaging_share_seconds: float | None  # the time that share covers: an hour, or the log's time when shorter
    peers: tuple[PeerView, ...]
    peers_known: int
    training_round: str | None = None  # the swarm's round it says it trains in now (rl-swarm), as said
    setting_up: str | None = None  # what it says it is doing to set itself up, while that is its latest news


class Swarm:
    """Follows one collaborator's swarm events."""

    def __init__(self) -> None:
        self.seen = False  # any swarm event at all: the log is a collaborator's
        self._first_at: float | None = None
        self._join_failures = 0
        self._join_since: float | None = None
        self._join_cause: str | None = None
        self._join_error: str | None = None
        self._join_causes: dict[str, int] = {}
        self._sync_since: float | None = None
        self._downloads_failed = 0
        self._download_error: str | None = None
        self._alone_since: float | None = None
        self._rounds: deque[_Round] = deque(maxlen=ROUNDS_KEPT)
        self._open: _Round | None = None
        self._count = 0  # rounds begun, ever (a peer's ``last_round``)
        self.rounds_ok = 0
        self.rounds_failed = 0
        self._last_good: float | None = None
        self._peers: dict[str, _Peer] = {}
        self.samples_per_second: float | None = None  # the collaboration's
        self.local_samples_per_second: float | None = None  # this peer's, as it prints it
        self._step: int | None = None  # the latest step's place on the run's timeline (where a round begins on the loss chart)
        self.swarm_round: str | None = None  # where the swarm's own rounds have it (rl-swarm), as said last
        self.swarm_round_said = 0  # how many times in a row
        self.training_round: str | None = None  # the swarm's round it says it trains in now, as said
        self.setting_up: str | None = None  # what it says it is doing to set itself up, while that is its news
        self._download_began: float | None = None  # a state download under way began
        self.state_download_seconds: float | None = None  # how long the last state download took
        self.warnings = 0  # records logged at WARN that said nothing else read
        self.last_warning: str | None = None

    def apply(self, event: Event, t: float | None, offset: int = 0) -> None:
        """Take one event seen at ``t`` (``offset``: a step's, that places it on the run's timeline)."""
        if t is not None and self._first_at is None:
            self._first_at = t
        if isinstance(event, SwarmNews):
            self.seen = True
            self._news(event, t)
        elif isinstance(event, TrainingPause) and event.reason == "all-reduce":
            self.seen = True
            self._joined()
            if self._open is None:
                self._open = _Round(t, step=self._step)
                self._count += 1
        elif isinstance(event, PeerGroup):
            self.seen = True
            self._joined()
            self._current(t).peers = event.peers
        elif isinstance(event, RoundPeer):
            self.seen = True
            self._joined()
            self._peer(event, t)
        elif isinstance(event, AllReduceResult):
            self.seen = True
            self._result(event, t)
        elif isinstance(event, CollabProgress):
            self.seen = True
            self._joined()
            if event.peers <= 1:
                self._alone_since = self._alone_since or t
            else:
                self._alone_since = None
        elif isinstance(event, StepFigures) and event.figures:
            for name, value in event.figures:
                if name == COLLABORATION_RATE:
                    self.samples_per_second = value
                elif name == LOCAL_RATE:
                    self.local_samples_per_second = value
        elif isinstance(event, TrainStep):
            # Training goes on: a round that never said how it ended is over, and a peer that was behind
            # has its state (loaded, or it gave up and trains on its own).
            self._open = None
            self._sync_since, self._downloads_failed, self._download_error = None, 0, None
            self._joined()  # (a collaborator trains once its DHT is up)
            self._step = event.step + offset

    def _joined(self) -> None:
        self._join_failures, self._join_since = 0, None
        self._join_causes.clear()

    def _news(self, event: SwarmNews, t: float | None) -> None:
        kind = event.kind
        if kind == "join_failed":
            if event.again and self._join_failures:  # the same failure, said more fully
                self._join_cause = event.cause or self._join_cause
                self._join_error = event.detail
                return
            self._join_failures += 1
            self._join_since = self._join_since or t
            self._join_cause, self._join_error = event.cause, event.detail
            cause = event.cause or "cause not known"
            if cause in self._join_causes or len(self._join_causes) < 8:
                self._join_causes[cause] = self._join_causes.get(cause, 0) + 1
            return
        if kind == "warning":  # (says nothing of joining)
            self.warnings += 1
            self.last_warning = event.detail
            return
        self._joined()
        self.setting_up = None  # (any news of the swarm's but a warning is newer than the set-up's)
        if kind in ("round", "training_round", "setting_up"):
            # (the round it trains in, until the swarm's rounds say otherwise)
            self.training_round = event.detail if kind == "training_round" else None
            self.setting_up = event.detail if kind == "setting_up" else None
            if kind == "setting_up" and event.detail is None:  # the trainer's first record: the set-up is over
                self.swarm_round, self.swarm_round_said = None, 0
                return
            detail = f"setting up · {event.detail}" if kind == "setting_up" else event.detail
            same = detail == self.swarm_round
            self.swarm_round, self.swarm_round_said = detail, (self.swarm_round_said + 1 if same else 1)
            return
        if kind == "downloading":
            self._download_began = t
        elif kind == "downloaded" and self._download_began is not None and t is not None:
            self.state_download_seconds = max(0.0, t - self._download_began)
            self._download_began = None
        if kind in ("out_of_sync", "downloading"):
            self._sync_since = self._sync_since or t
        elif kind == "download_failed":
            self._sync_since = self._sync_since or t
            self._downloads_failed += 1
            self._download_error = event.detail
        elif kind in ("downloaded", "catching_up"):
            self._sync_since, self._downloads_failed, self._download_error = None, 0, None
        elif kind == "alone":
            self._alone_since = self._alone_since or t
            self._open = None  # no other peer: the round called is skipped, training goes on

    def _current(self, t: float | None) -> _Round:
        """The round under way; one opened now when the log named none."""
        if self._open is None:
            self._open = _Round(t, step=self._step)
            self._count += 1
        return self._open

    def _peer(self, event: RoundPeer, t: float | None) -> None:
        key = f"uid {event.uid}" if event.uid is not None else event.peer
        row = self._peers.pop(key, None)  # (re-inserted last: the dict runs least recently seen first)
        if row is None:
            row = _Peer(event.uid, event.peer)
            if len(self._peers) >= PEERS_KEPT:
                del self._peers[next(iter(self._peers))]
        if len(event.peer) > len(row.peer):
            row.peer = event.peer  # the mapping's longer form
        self._peers[key] = row
        row.last_seen = t if t is not None else row.last_seen
        current = self._current(t)
        if row.last_round != self._count:
            row.last_round = self._count
            row.rounds += 1
        label = row.peer if event.uid is None else f"UID {event.uid}"
        if event.outcome == "failed":
            row.failures += 1
            if label not in current.failed:
                current.failed = (*current.failed, label)
        elif event.outcome == "banned":
            row.banned = True
            if label not in current.banned:
                current.banned = (*current.banned, label)

    def _result(self, event: AllReduceResult, t: float | None) -> None:
        self._joined()
        if event.again and self._rounds and self._rounds[-1].ok is False:
            last = self._rounds[-1]  # the same failure, told more fully
            last.error = event.error or last.error
            last.checkpoint = last.checkpoint if last.checkpoint is not None else event.checkpoint
            last.ended_at = last.ended_at if last.ended_at is not None else t
            return
        r = self._open if self._open is not None else _Round(None, step=self._step)
        if self._open is None:
            self._count += 1
        self._open = None
        r.ended_at = t
        r.ok = event.ok
        if event.peers is not None:
            r.peers = event.peers
        r.error, r.checkpoint = event.error, event.checkpoint
        self._rounds.append(r)
        if event.ok:
            self.rounds_ok += 1
            self._last_good = t if t is not None else self._last_good
            self._sync_since, self._downloads_failed = None, 0  # it averaged with the swarm: in sync
            if r.peers is None or r.peers > 1:
                self._alone_since = None
        else:
            self.rounds_failed += 1

    def facts(self, now: float) -> SwarmFacts:
        """Where the collaborator stands at ``now``."""
        since = self._join_since
        cannot = self._join_failures >= JOIN_FAILURES or (
            self._join_failures > 0 and since is not None and now - since >= JOIN_SECONDS)
        open_round = self._open
        averaging = None
        if open_round is not None and open_round.started_at is not None \
                and now - open_round.started_at <= ROUND_LIMIT_SECONDS:
            averaging = open_round.started_at
        under_way = [open_round.view()] if open_round is not None else []
        share = self._share(now)
        rounds = under_way + [r.view() for r in reversed(self._rounds)]
        return SwarmFacts(
            now=now, join_failures=self._join_failures, join_failed_since=since, join_cause=self._join_cause,
            join_error=self._join_error, join_causes=tuple(self._join_causes.items()), cannot_join=cannot, out_of_sync_since=self._sync_since,
            download_failures=self._downloads_failed, download_error=self._download_error,
            sync_failing=self._downloads_failed >= DOWNLOAD_FAILURES, averaging_since=averaging,
            alone_since=self._alone_since, rounds=tuple(rounds[:ROUNDS_SHOWN]), rounds_ok=self.rounds_ok,
            rounds_failed=self.rounds_failed, last_good_round_at=self._last_good,
            averaging_share_last_hour=None if share is None else share[0],
            averaging_share_seconds=None if share is None else share[1], peers=self._peer_views(), peers_known=len(self._peers),
            training_round=self.training_round, setting_up=self.setting_up,
        )

    def markers(self) -> tuple[RoundView, ...]:
        """Every round kept, oldest first (the chart's markers and group-size line)."""
        return tuple(r.view() for r in self._rounds)

    def _share(self, now: float) -> tuple[float, float] | None:
        """The share of the last hour (of the log's time, when it covers less) spent in rounds, and the
        seconds it covers; None when no round's start is known (its length is not)."""
        timed = [(r.started_at, r.ended_at) for r in self._rounds if r.started_at is not None]
        if self._open is not None and self._open.started_at is not None:
            timed.append((self._open.started_at, now))
        if self._first_at is None or not timed:
            return None
        start = max(now - HOUR, self._first_at)
        span = now - start
        if span <= 0:
            return None
        paused = 0.0
        for began, ended in timed:
            if began is None or ended is None or ended <= start:
                continue
            paused += max(0.0, min(ended, now) - max(began, start))
        return min(1.0, paused / span), span

    def _peer_views(self) -> tuple[PeerView, ...]:
        """The table: peers that failed first (most failures), then the most recently seen."""
        rows = sorted(self._peers.values(),
                      key=lambda p: (-(p.failures + (1 if p.banned else 0)), -(p.last_seen or 0.0)))
        return tuple(PeerView(p.uid, p.peer, p.rounds, p.failures, p.banned, p.last_seen) for p in rows[:PEERS_SHOWN])
