"""The fleet view: every enrolled machine's card and the header's totals, from the hub's rows at ``now``.

Pure: rows and the clock in, plain JSON-ready data out (``GET /api/fleet`` and the fleet
page's push carry exactly this). A machine is offline once it has missed three reports (its
own interval, 15 s by default): an offline card is a problem (a dead machine cannot say so
itself), shows that, when it was last seen and what it was last doing since when, never its last
figures, and counts nowhere in the totals. The summed tok/h is production: machines training.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from .. import text
from .store import PRODUCING, MachineRow

MISSED_REPORTS_OFFLINE = 3
DEFAULT_INTERVAL_SECONDS = 15.0
# The card's colour, for states a snapshot may not yet carry a level for.
_LEVELS = {
    "training": "ok", "measuring": "ok", "evaluating": "ok", "done": "ok",
    "waiting": "waiting", "queued": "waiting", "working": "waiting", "processing": "waiting",
    "confirmed": "waiting", "registering": "waiting", "initializing": "waiting", "failed": "problem",
    "idle": "warning", "stalled": "warning", "broken": "warning", "stopped": "warning",
    "silent": "problem", "diverged": "problem", "crashed": "problem", "unrecognised": "problem",
    "joining": "waiting", "averaging": "ok", "out_of_sync": "warning", "alone": "warning",
    "cannot_join": "problem", "sync_failing": "problem",
}
LEVELS = ("ok", "waiting", "warning", "problem")
# Counted as queued in the header: waiting to be placed, past the queue too.
_WAITING_TO_BE_PLACED = ("queued", "processing", "confirmed", "registering")


def is_online(row: MachineRow, now: float, missed: int = MISSED_REPORTS_OFFLINE) -> bool:
    """True while the machine's newest report is younger than ``missed`` of its intervals."""
    if row.received_at is None:
        return False
    interval = row.interval_seconds or DEFAULT_INTERVAL_SECONDS
    return now - row.received_at <= missed * interval


def offline_at(row: MachineRow, missed: int = MISSED_REPORTS_OFFLINE) -> float | None:
    """The last moment :func:`is_online` holds for this machine without a new report (None: never reported)."""
    if row.received_at is None:
        return None
    return row.received_at + missed * (row.interval_seconds or DEFAULT_INTERVAL_SECONDS)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _queue_text(queue: Mapping[str, Any] | None) -> str | None:
    if not isinstance(queue, Mapping) or _number(queue.get("position")) is None:
        return None
    words = f"#{int(queue['position'])}"
    trend = _number(queue.get("trend_per_hour"))
    trend_text = queue.get("trend_text")
    if isinstance(trend_text, str) and trend_text:
        words += f" · {trend_text}"  # the agent's words: ▼ −120/h nearer the front, ▲ +300/h further back
    elif trend is not None and trend != 0:  # an older agent: its trend is towards the front
        words += f" · {'▼ −' if trend > 0 else '▲ +'}{abs(trend):.0f}/h"
    eta = _number(queue.get("eta_seconds"))
    if eta is not None and eta > 0:
        words += f" · front in ~{text.duration(eta)}"
    resets = _number(queue.get("resets_24h"))
    if resets:
        words += f" · {int(resets)} {'reset' if resets == 1 else 'resets'} in 24 h"
    best = _number(queue.get("best_position"))
    if best is not None:
        words += f" · best #{int(best)}"
    return words


def level_of(snap: Mapping[str, Any]) -> str:
    """The card's colour: the snapshot's own level when it has one, else from its state."""
    level = snap.get("level")
    if level in LEVELS:
        return str(level)
    if (snap.get("source") or {}).get("problem"):
        return "problem"
    return _LEVELS.get(str(snap.get("state")), "problem")


def ago_text(seconds: float) -> str:
    """'just now', '40 s ago', '3 min ago', '2 h 05 min ago'."""
    if seconds < 5:
        return "just now"
    return f"{text.duration(seconds)} ago"


def last_seen_text(received_at: float | None, now: float) -> str:
    """A card's age in words: 'never reported', 'just now', '40 s ago'."""
    return "never reported" if received_at is None else ago_text(now - received_at)


def reported_today_tokens(snap: Mapping[str, Any] | None) -> float | None:
    """A report's own count of the machine's tokens today (from its history), or None."""
    return _number(((snap or {}).get("today") or {}).get("tokens"))


def with_clock_words(card: dict[str, Any], now: float) -> dict[str, Any]:
    """A kept card (see :meth:`CardMemo.cards`) whole at ``now``: a copy with its age's words written afresh."""
    return {**card, "last_seen_text": last_seen_text(card["last_seen_at"], now)}


def machine_card(row: MachineRow, now: float) -> dict[str, Any]:
    """One machine as the fleet API and page show it."""
    online = is_online(row, now)
    card: dict[str, Any] = {
        "name": row.name,
        "online": online,
        "last_seen_at": row.received_at,
        "last_seen_text": last_seen_text(row.received_at, now),
    }
    snap = row.snapshot
    if not online or snap is None:
        card.update(status_line="offline" if row.received_at is not None else "not reported yet",
                    state="offline", level="problem" if row.received_at is not None else "waiting", layer=None,
                    tokens_per_hour=None, tokens_per_hour_text=None, was_text=None,
                    queue_position=None, queue_text=None, network_bytes_per_second=None, network_text=None,
                    last_doing_text=_last_doing(snap) if snap is not None else None, mark_text=None,
                    power_text=None)
        return card
    # A rate is shown only while producing (an older agent reports an idle miner's decaying window).
    tph = _number((snap.get("rate") or {}).get("tokens_per_hour")) if snap.get("state") in PRODUCING else None
    was = _number((snap.get("rate") or {}).get("was_tokens_per_hour"))
    network = _number((snap.get("network") or {}).get("bytes_per_second"))
    queue = snap.get("queue")
    card.update(
        status_line=snap.get("status_line"),
        state=snap.get("state"),
        level=level_of(snap),
        layer=snap.get("layer"),
        tokens_per_hour=tph,
        tokens_per_hour_text=None if tph is None else f"{text.compact(tph)} tok/h",
        was_text=None if was is None or tph is not None else f"was {text.compact(was)}",
        last_doing_text=None,
        queue_position=(queue or {}).get("position") if isinstance(queue, Mapping) else None,
        queue_text=_queue_text(queue),
        network_bytes_per_second=network,
        # The dashboard's own words for the figure (its "Network 27 kB/s"), not a second formatter.
        network_text=None if network is None or network < 0 else text.bytes_per_second(network),
        mark_text=_mark(snap),
        power_text=_power(snap),
        round_text=_round_text(snap, now),
    )
    return card


def _power(snap: Mapping[str, Any]) -> str | None:
    """The card's power figure: `62 W · 0.27 Wh/Mtok` (with --hardware on the machine), else None."""
    hardware = snap.get("hardware")
    if not isinstance(hardware, Mapping):
        return None
    watts, per_mtok = _number(hardware.get("watts")), _number(hardware.get("wh_per_million_tokens"))
    parts = ([f"{watts:.0f} W"] if watts is not None else []) + (
        [f"{per_mtok:.0f} Wh/Mtok" if per_mtok >= 10 else f"{per_mtok:.2g} Wh/Mtok"] if per_mtok is not None else [])
    if hardware.get("throttled") is True:
        parts.append("throttled")
    return " · ".join(parts) or None


def _mark(snap: Mapping[str, Any]) -> str | None:
    """A mark the card shows under its status: the forwards not delivered, in the dashboard's words."""
    delivery = snap.get("delivery")
    if not isinstance(delivery, Mapping) or delivery.get("level") not in ("warning", "problem"):
        return None
    words = delivery.get("text")
    return words if isinstance(words, str) else None


def _round_text(snap: Mapping[str, Any], now: float) -> str | None:
    """A collaborator's (SN38, hivemind) last averaging round: 'ok · 3 peers · 4 min ago', or None."""
    swarm = (snap.get("training") or {}).get("swarm") if isinstance(snap.get("training"), Mapping) else None
    rounds = swarm.get("rounds") if isinstance(swarm, Mapping) else None
    last = rounds[0] if isinstance(rounds, list) and rounds and isinstance(rounds[0], Mapping) else None
    if last is None:
        return None
    outcome = {"ok": "ok", "failed": "failed", "running": "under way"}.get(str(last.get("outcome")), "?")
    peers = last.get("peers")
    at = _number(last.get("ended_at")) if last.get("outcome") != "running" else _number(last.get("started_at"))
    parts = [outcome, *([f"{peers} peers"] if isinstance(peers, int) else []),
             *([f"{text.duration(max(0.0, now - at))} ago"] if at is not None else [])]
    return " · ".join(parts)


def _last_doing(snap: Mapping[str, Any]) -> str | None:
    """What an offline machine was last doing, and since when: 'was training (L1 · 768k tok/h) since 14:02'."""
    state, line = snap.get("state"), snap.get("status_line")
    if not isinstance(state, str):
        return None
    words = f"was {state}" + (f" ({line})" if isinstance(line, str) and line else "")
    since = _number(snap.get("state_since"))
    return words + (f" since {text.clock(since)}" if since is not None else "")


class CardMemo:
    """Each machine's card kept from one fleet view to the next, made again only when its row changed.

    A fleet of a thousand machines is built whole for every push while a report changes one card:
    a card is kept until its machine's newest report (the snapshot object itself: the store shares
    it until it is replaced), interval, online state or sparkline (the list itself) changes; the
    words that move with the clock alone (its age, a swarm round's age) are written afresh each
    time. Thread-safe.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # name → (received_at, interval, snapshot, online, spark, the card as last handed out,
        # the snapshot's own tokens today)
        self._kept: dict[str, tuple[float | None, float | None, Mapping[str, Any] | None, bool,
                                    list[float | None] | None, dict[str, Any], float | None]] = {}

    def cards(self, rows: list[MachineRow], now: float, *, sparks: Mapping[str, list[float | None] | None] | None = None,
              fresh: bool = True) -> tuple[list[dict[str, Any]], list[float | None]]:
        """Every row's card at ``now``, as :func:`machine_card` makes it (with ``spark`` when ``sparks`` is
        given), and each row's :func:`reported_today_tokens`.

        ``fresh``: each card a new dict, the caller's to change. Otherwise the kept cards themselves,
        shared with every caller and never to be changed: a card is the same object from one call
        to the next until something but its age changed, and its ``last_seen_text`` is as of when
        it was made (:func:`with_clock_words` writes it at another moment).
        """
        cards = []
        reported = []
        with self._lock:
            kept, fresh_entries = self._kept, {}
            for row in rows:
                online = is_online(row, now)
                spark = None if sparks is None else sparks.get(row.name)
                entry = kept.get(row.name)
                if (entry is None or entry[0] != row.received_at or entry[1] != row.interval_seconds
                        or entry[2] is not row.snapshot or entry[3] != online or entry[4] is not spark):
                    card = machine_card(row, now)
                    if sparks is not None:
                        card["spark"] = spark
                    entry = (row.received_at, row.interval_seconds, row.snapshot, online, spark, card,
                             reported_today_tokens(row.snapshot))
                else:
                    card = entry[5]
                    # A swarm round's age moves with the clock; a report with no round has none, ever.
                    if online and row.snapshot is not None and card.get("round_text") is not None:
                        round_text = _round_text(row.snapshot, now)
                        if round_text != card["round_text"]:
                            card = {**card, "round_text": round_text}
                            entry = (*entry[:5], card, entry[6])
                    if fresh and row.received_at is not None:
                        card = {**card, "last_seen_text": ago_text(now - row.received_at)}
                fresh_entries[row.name] = entry
                cards.append(dict(card) if fresh and card is entry[5] else card)
                reported.append(entry[6])
            self._kept = fresh_entries  # a revoked machine is forgotten
        return cards, reported


def fleet_view(
    rows: Iterable[MachineRow], now: float, *, day_start: float, today_tokens: Mapping[str, float] | None = None,
    memo: CardMemo | None = None, sparks: Mapping[str, list[float | None] | None] | None = None, fresh: bool = True,
) -> dict[str, Any]:
    """The fleet: ``{machines: [card…], totals: {…}, as_of}``.

    Today's tokens: each machine's own count (its report's ``today``, from its history) when it
    reported since ``day_start`` (local midnight), else ``today_tokens``, the hub's estimate from
    its minute samples (an agent run with --no-history). ``sparks``: each card's ``spark``;
    ``fresh=False`` (with a memo): its kept cards, shared (see :meth:`CardMemo.cards`).
    """
    rows = list(rows)
    if memo is not None:
        cards, reported_tokens = memo.cards(rows, now, sparks=sparks, fresh=fresh)
    else:
        cards = [machine_card(row, now) for row in rows]
        reported_tokens = [reported_today_tokens(row.snapshot) for row in rows]
        if sparks is not None:
            for card in cards:
                card["spark"] = sparks.get(card["name"])
    # One pass over the cards (a thousand at every push), adding in the cards' order as sum() did.
    online = offline = training = queued = idle = 0
    tph: float = 0  # only producing cards carry one; an empty fleet's is 0
    for card in cards:
        state = card["state"]
        if state == "offline" and card["last_seen_at"] is not None:
            offline += 1
        if card["online"]:
            online += 1
            tph += card["tokens_per_hour"] or 0.0
            if state == "training":
                training += 1
            # Waiting to be placed, past the queue too (processing, confirmed): not idle, not training.
            elif state in _WAITING_TO_BE_PLACED:
                queued += 1
            elif state == "idle":
                idle += 1
    today = 0.0
    estimates = today_tokens or {}
    for row, tokens in zip(rows, reported_tokens, strict=True):
        reported = tokens if row.received_at is not None and row.received_at >= day_start else None
        today += reported if reported is not None else estimates.get(row.name, 0.0)
    totals = {
        "machines": len(cards),
        "online": online,
        "offline": offline,
        "training": training,
        "queued": queued,
        "idle": idle,
        "tokens_per_hour": tph,
        "tokens_per_hour_text": f"{text.compact(tph)} tok/h",
        "today_tokens": today,
        "today_tokens_text": text.compact(today),
    }
    return {"machines": cards, "totals": totals, "as_of": now}
