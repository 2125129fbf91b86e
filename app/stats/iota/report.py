"""The queue report: plain text a miner can paste into a bug report about queue resets.

Formatted here, in Python, from what the log holds (the tracker keeps each reset with its
before/after for 7 days of log time). Times are this machine's local time with its UTC offset,
as the miner's log writes them.
"""

from __future__ import annotations

import time

from ... import text
from ...snapshot import Snapshot
from .queue import RESET_MIN_JUMP, RESET_SMALL_MIN_JUMP, QueueTracker, trend_words

DAY_SECONDS = 24 * 3600
WEEK_SECONDS = 7 * DAY_SECONDS


def local_time(at: float) -> str:
    """A unix time as this machine's local wall time, to the second."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))


def queue_report(snapshot: Snapshot, queue: QueueTracker | None, read_from: float | None, now: float) -> str:
    """The report's text (``queue`` None: this log is not an IOTA miner's; ``read_from``: the
    oldest log time read, so the reader knows how far back "what the log holds" goes)."""
    offset = time.strftime("%z", time.localtime(now))
    lines = [
        "tokwatch queue report",
        f"Generated: {local_time(now)} (local time, UTC{offset[:3]}:{offset[3:]})",
        f"Log: {snapshot.source.path or '(none)'}",
    ]
    if queue is None:
        lines.append(f"This log is not an IOTA miner log ({snapshot.format or 'format not recognised'}): no queue.")
        return "\n".join(lines) + "\n"
    first, last = read_from, snapshot.source.last_event_at
    if first is not None and last is not None:
        lines.append(f"Log read: {local_time(first)} to {local_time(last)} ({text.duration(last - first)})")
    lines.append(f"Status: {snapshot.status_line} ({snapshot.state})")
    if queue.since is not None:
        # The sentence miners write by hand in their issues: resets in how long, best position, same id.
        best = f", best position {queue.best_position}" if queue.best_position is not None else ""
        same = ", same queue_id" if queue.queue_id else ""
        lost = f", {queue.positions_lost:,} positions lost" if queue.entry_resets else ""
        lines.append(f"Summary: {text.plural(queue.entry_resets, 'reset', 'resets')} to the back in "
                     f"{text.duration(now - queue.since)} in the queue{best}{same}{lost}")
        ident = f", queue id {queue.queue_id}" if queue.queue_id else ""
        lines.append(f"In the queue since {local_time(queue.since)} ({text.duration(now - queue.since)}){ident}")
        if queue.best_position is not None:
            lines.append(f"Best position reached: #{queue.best_position}")
        trend = queue.trend(now)
        if trend is None:
            lines.append("Trend (last 10 min): not enough polls yet")
        else:
            eta = f"; front in ~{text.duration(trend.eta_seconds)}" if trend.eta_seconds is not None else "; no ETA"
            lines.append(f"Trend (last 10 min): {trend_words(trend.per_hour)}{eta}")
        if queue.entry_resets:
            lines.append(f"This queue: {text.plural(queue.entry_resets, 'reset', 'resets')}, "
                         f"{queue.positions_lost:,} positions lost to them")
    day = queue.resets_between(now - DAY_SECONDS, now)
    week = queue.resets_between(now - WEEK_SECONDS, now)
    lines.append(
        f"Queue resets (same queue id, position up by more than {RESET_MIN_JUMP}, or by more than "
        f"{RESET_SMALL_MIN_JUMP} while doubling): {len(day)} in the last 24 h, {len(week)} in the last 7 days"
    )
    for reset in reversed(week):
        ident = f"  queue {reset.queue_id}" if reset.queue_id else ""
        lines.append(f"  {local_time(reset.at)}  #{reset.before} → #{reset.after}{ident}")
    restarts = queue.rejoins_between(now - WEEK_SECONDS, now)
    if restarts:
        lines.append(f"App restarts that joined a new queue (back of the queue): {len(restarts)} in the last 7 days")
        for rejoin in reversed(restarts):
            before = f"#{rejoin.before}" if rejoin.before is not None else "?"
            after = f"#{rejoin.after}" if rejoin.after is not None else "?"
            lines.append(f"  {local_time(rejoin.at)}  {before} → {after}  queue {rejoin.old_id} → {rejoin.new_id}")
    backend = snapshot.backend_errors
    lines.append(
        f"Backend errors (last {int(backend.window_seconds // 60)} min): "
        f"{backend.queue_state_503}×503 queue_state, {backend.not_found_404}×404"
    )
    lines.extend(why_lines(snapshot))
    lines.append("Read from the miner's own log by tokwatch; not an official figure.")
    return "\n".join(lines) + "\n"


def why_lines(snapshot: Snapshot) -> list[str]:
    """What the report says of why it stopped and whether the work lands: delivery, the app's version
    and the line shapes tokwatch does not read yet (for the user to send), the last pause and its cause."""
    lines: list[str] = []
    delivery = snapshot.delivery
    if delivery is not None:
        lines.append(delivery.line if delivery.text is None else f"{delivery.line} — {delivery.text}")
    drift = snapshot.drift
    if drift is not None:
        if drift.version is not None:
            lines.append(f"App version: {drift.version}")
        if drift.text is not None:
            lines.append(f"Changes: {drift.text}")
        for shape in drift.shapes:
            lines.append(f"  new line shape: {shape}")
    for event in snapshot.events:
        if event.kind in ("silent", "idle", "crashed"):
            lines.append(f"Last pause: {local_time(event.at)} {event.text}")
            break
    return lines
