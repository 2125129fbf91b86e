"""A machine's past as minutes for its hub: what an agent sends so the hub's chart shows the time
before the hub knew the machine (or while it was offline).

Read from the history file read-only (the agent is not its writer): the last 48 h from the 30-s
samples, a point a minute; before that a point per 5-minute bucket.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .files import FILE_NAME, read_quietly
from .write import FIVE_MINUTES

Minute = tuple[int, float | None, str, int | None, int | None]  # t, tok/h, state, queue position, layer


def machine_minutes(data_dir: Path, machine: str, since: float, until: float) -> list[Minute]:
    """The machine's minutes in [since, until), oldest first; [] when there is no history file."""
    return read_quietly(data_dir / FILE_NAME, lambda conn: _minutes(conn, machine, since, until), [])


def _minutes(conn: sqlite3.Connection, machine: str, since: float, until: float) -> list[Minute]:
    # The machine's log source with the newest record (one machine follows one log at a time).
    row = conn.execute(
        "SELECT id FROM source WHERE machine = ? ORDER BY (SELECT max(t) FROM rollup WHERE source_id = source.id) DESC"
        " LIMIT 1",
        (machine,),
    ).fetchone()
    if row is None:
        return []
    sid = int(row[0])
    minutes: dict[int, Minute] = {}
    raw_from = None
    for t, tph, state, queue, layer in conn.execute(
        "SELECT t, tokens_per_hour, state, queue_position, layer FROM sample WHERE source_id = ? AND t >= ? AND t < ?"
        " ORDER BY t",
        (sid, int(since), int(until)),
    ):
        raw_from = t if raw_from is None else raw_from
        minute = t - t % 60
        previous = minutes.get(minute)
        if previous is not None and tph is not None and previous[1] is not None:
            tph = (tph + previous[1]) / 2
        elif previous is not None and tph is None:
            tph = previous[1]
        known_state = state or (previous[2] if previous else None) or ("training" if tph is not None else "idle")
        minutes[minute] = (minute, tph, known_state, queue, layer)
    before = raw_from if raw_from is not None else until
    for t, samples, measured, training, total, queue, layer in conn.execute(
        "SELECT t, samples, measured, training, tph_sum, queue_max, layer FROM rollup"
        " WHERE source_id = ? AND span = ? AND t >= ? AND t + ? <= ? ORDER BY t",
        (sid, FIVE_MINUTES, int(since), FIVE_MINUTES, int(before)),
    ):
        tph = total / measured if measured and total is not None else None
        state = "training" if samples and training * 2 >= samples else "queued" if queue is not None else "idle"
        minutes[int(t)] = (int(t), tph, state, queue, layer)
    return [minutes[t] for t in sorted(minutes)]


def imported_mark(data_dir: Path) -> tuple[int, int] | None:
    """What changes when the history imports a log (its files and bytes imported), or None without a history file.

    The agent sends its last 7 days again then: on a first start the past arrives after the first report.
    """
    return read_quietly(data_dir / FILE_NAME, _imported, None)


def _imported(conn: sqlite3.Connection) -> tuple[int, int]:
    row = conn.execute("SELECT COUNT(*), COALESCE(SUM(size_bytes), 0) FROM imported").fetchone()
    return int(row[0]), int(row[1])
