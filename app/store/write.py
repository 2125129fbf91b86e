"""Writing a batch, keeping the rollups right, and pruning: pure functions of a connection and ``now``.

Every row is keyed by what it is (a source and a 30-s boundary of log time, an activation
id, a step), so a log read twice writes nothing new. Rollups are recomputed from the tier
below for the buckets a batch touched, never incremented, so they are idempotent too. Data
older than the tier below keeps (48 h, 30 days) is taken only for buckets not rolled up yet:
a log copied back cannot count its passes again once their raw rows are gone.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable

from .happened import repeat_of
from .losses import merge_losses, write_losses
from .records import SAMPLE_SECONDS, Observation, SourceKey

FIVE_MINUTES = 300
HOUR = 3600
DAY = 86400
SPANS = (FIVE_MINUTES, HOUR, DAY)
RAW_KEEP_SECONDS = 48 * HOUR
KEEP_SECONDS = {FIVE_MINUTES: 30 * DAY, HOUR: 365 * DAY, DAY: 10 * 365 * DAY}
EVENT_KEEP_SECONDS = 365 * DAY
EVENTS_KEPT_PER_SOURCE = 20_000
# A step trainer's whole run (steps, losses, evaluations, markers) is kept whatever its log's dates: a
# post-mortem of a run two years old still has its curve. The store stays bounded by runs instead:
# the step sources written most recently keep theirs, this many of them.
RUN_SOURCES_KEPT = 200
_RUN_TABLES = ("step", "eval", "loss", "loss_bucket", "loss_level", "event")
# A repeated error (`… (×72)`) replaces its earlier sights up to this long before: one row per run.
ERROR_FOLD_SECONDS = 3600


def source_id(conn: sqlite3.Connection, source: SourceKey) -> int:
    """The source's row id, created on first sight.

    The same log kept under another name this data dir's tokwatch used (the host name before
    machines were named by ``--name``, or an earlier ``--name``) is this machine's history: it
    takes the current name, so a rename never hides what was kept. Call inside a transaction.
    """
    row = conn.execute("SELECT id FROM source WHERE machine = ? AND key = ?", (source.machine, source.key)).fetchone()
    if row is None:
        kept = [int(r[0]) for r in conn.execute(
            "SELECT id FROM source WHERE key = ? AND machine IN (SELECT name FROM local_machine)"
            " ORDER BY (SELECT max(t) FROM rollup WHERE source_id = source.id) DESC, id DESC",
            (source.key,),
        )]
        if kept:
            conn.execute("UPDATE source SET machine = ? WHERE id = ?", (source.machine, kept[0]))
            for other in kept[1:]:
                merge_source(conn, other, kept[0])
        else:
            conn.execute("INSERT INTO source (machine, key, kind) VALUES (?, ?, ?)",
                         (source.machine, source.key, source.kind))
        row = conn.execute("SELECT id FROM source WHERE machine = ? AND key = ?",
                           (source.machine, source.key)).fetchone()
        conn.execute("INSERT OR IGNORE INTO local_machine VALUES (?)", (source.machine,))
    sid = int(row[0])
    conn.execute("UPDATE source SET kind = ? WHERE id = ? AND kind != ?", (source.kind, sid, source.kind))
    return sid


SOURCE_TABLES = ("sample", "pass", "rollup", "event", "step", "eval")


def merge_source(conn: sqlite3.Connection, from_id: int, into_id: int) -> None:
    """Move one source's rows into another (a row the other has already stays as it is), then drop it."""
    for table in SOURCE_TABLES:
        conn.execute(f"UPDATE OR IGNORE {table} SET source_id = ? WHERE source_id = ?", (into_id, from_id))
        conn.execute(f"DELETE FROM {table} WHERE source_id = ?", (from_id,))
    merge_losses(conn, from_id, into_id)
    conn.execute(
        "UPDATE source SET first_at = (SELECT min(first_at) FROM source WHERE id IN (?, ?)) WHERE id = ?",
        (from_id, into_id, into_id),
    )
    conn.execute("DELETE FROM source WHERE id = ?", (from_id,))


def _taken(
    conn: sqlite3.Connection, sid: int, t: float, now: float, pruned: dict[int, float], final: dict[tuple[int, int], bool]
) -> bool:
    """May a raw row at ``t`` still be written? Not once its bucket is final: rolled up, and the rows below dropped.

    ``final`` caches the answer per bucket for one batch.
    """
    if t < now - KEEP_SECONDS[HOUR]:
        return False
    # Below the raw tier's prune line a 5-min bucket may be final; below the 5-min tier's, an hour.
    for span, tier in ((FIVE_MINUTES, 0), (HOUR, FIVE_MINUTES)):
        if t >= pruned.get(tier, float("-inf")):
            continue
        bucket = int(t) - int(t) % span
        known = final.get((span, bucket))
        if known is None:
            known = _is_final(conn, sid, span, bucket)
            final[(span, bucket)] = known
        if known:
            return False
    return True


def _is_final(conn: sqlite3.Connection, sid: int, span: int, bucket: int) -> bool:
    rolled = conn.execute(
        "SELECT 1 FROM rollup WHERE source_id = ? AND span = ? AND t = ?", (sid, span, bucket)
    ).fetchone()
    if rolled is None:
        return False
    end = bucket + span
    if span == FIVE_MINUTES:
        below = conn.execute(
            "SELECT 1 FROM sample WHERE source_id = ? AND t >= ? AND t < ? UNION ALL"
            " SELECT 1 FROM pass WHERE source_id = ? AND t >= ? AND t < ? LIMIT 1",
            (sid, bucket, end, sid, bucket, end),
        ).fetchone()
    else:
        below = conn.execute(
            "SELECT 1 FROM rollup WHERE source_id = ? AND span = ? AND t >= ? AND t < ? LIMIT 1",
            (sid, FIVE_MINUTES, bucket, end),
        ).fetchone()
    return below is None  # rolled up from rows that are gone: what comes now would replace, not add


class Recounts:
    """What one writer learnt of repeated errors counted from different starts.

    The live view reads only the log's tail, so its `… (×116)` at an instant where the import
    counted the whole log's `… (×540)` is a recount from later on: the larger count is kept, and
    the live view's later repeats of that run are written on top of it (540 + each repeat since),
    never in its place — else the count would depend on where each start began to read.
    """

    def __init__(self) -> None:
        self._offsets: dict[tuple[int, str], int] = {}
        self._last: dict[tuple[int, str], int] = {}

    def count(self, conn: sqlite3.Connection, sid: int, at: float, message: str, count: int) -> int | None:
        """The count to store for ``message`` repeated ``count`` times at ``at`` (None: keep the stored row)."""
        key = (sid, message)
        if count < self._last.get(key, 0):
            self._offsets.pop(key, None)  # a new run: the reader counts again from 1
        self._last[key] = count
        row = conn.execute(
            "SELECT text FROM event WHERE source_id = ? AND at = ? AND kind = 'error'", (sid, at)
        ).fetchone()
        if row is not None:
            stored_message, stored = repeat_of(row[0])
            if stored_message == message and stored > count:
                self._offsets[key] = stored - count
                return None
        return count + self._offsets.get(key, 0)


def write(conn: sqlite3.Connection, obs: Observation, now: float, recounts: Recounts | None = None) -> int:
    """Write one batch in one transaction; return the number of new sample and pass rows."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        sid = source_id(conn, obs.source)
        conn.execute("UPDATE source SET written_at = ? WHERE id = ?", (now, sid))
        pruned = {int(tier): float(before) for tier, before in conn.execute("SELECT tier, before FROM pruned")}
        final: dict[tuple[int, int], bool] = {}
        dirty: set[int] = set()
        new = 0
        first: float | None = None
        for s in obs.samples:
            if not _taken(conn, sid, s.t, now, pruned, final):
                continue
            cur = conn.execute(
                "INSERT OR IGNORE INTO sample VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (sid, s.t, s.tokens_per_hour, s.state, s.layer, s.tokens_per_pass, s.queue_position, s.step),
            )
            if cur.rowcount:
                new += 1
                dirty.add(s.t - s.t % FIVE_MINUTES)
                first = s.t if first is None else min(first, s.t)
            elif s.queue_position is not None and conn.execute(
                "UPDATE sample SET queue_position = ? WHERE source_id = ? AND t = ? AND queue_position IS NULL",
                (s.queue_position, sid, s.t),
            ).rowcount:
                # The import's logged poll for a point the live start-up wrote first (it knows
                # only the newest poll): whichever lands first, the chart has the log's positions.
                dirty.add(s.t - s.t % FIVE_MINUTES)
        if obs.no_rate_after is not None:
            # Bounded to the last hour: the live view's points, not an old import's.
            where = "source_id = ? AND t > ? AND t > ? AND tokens_per_hour IS NOT NULL"
            bounds = (sid, obs.no_rate_after, now - HOUR)
            for (t,) in conn.execute(f"SELECT t FROM sample WHERE {where}", bounds).fetchall():
                dirty.add(t - t % FIVE_MINUTES)
            conn.execute(f"UPDATE sample SET tokens_per_hour = NULL WHERE {where}", bounds)
        for p in obs.passes:
            if not _taken(conn, sid, p.at, now, pruned, final):
                continue
            cur = conn.execute(
                "INSERT OR IGNORE INTO pass VALUES (?, ?, ?, ?)", (sid, p.activation_id, p.at, p.tokens)
            )
            if cur.rowcount:
                new += 1
                t = int(p.at)
                dirty.add(t - t % FIVE_MINUTES)
                first = p.at if first is None else min(first, p.at)
        # A step keeps the time it was first placed at (an import places the same step there again).
        conn.executemany(
            "INSERT INTO step VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source_id, stage, step) DO UPDATE SET"
            " loss = excluded.loss, tokens_per_hour = excluded.tokens_per_hour, steps_per_hour = excluded.steps_per_hour",
            [(sid, p.stage, p.step, p.at, p.loss, p.tokens_per_hour, p.steps_per_hour) for p in obs.steps],
        )
        write_losses(conn, sid, obs.losses)
        conn.executemany(
            "INSERT OR REPLACE INTO eval VALUES (?, ?, ?, ?, ?, ?)",
            [(sid, e.stage, e.name, e.step, e.at, e.value) for e in obs.evals],
        )
        # Same instant and kind: the newer wording wins (an error's repeat count goes up in place).
        # A repeated error is re-dated at each repeat: its earlier rows (same message, fewer) go, so a
        # miner writing one error every 10 s all night is one row with its count, not thousands.
        recounts = Recounts() if recounts is None else recounts
        for event in sorted(obs.events, key=lambda e: e.at):
            words = event.text[:500]
            message, count = repeat_of(words)
            if event.kind == "error" and count > 1:
                recounted = recounts.count(conn, sid, event.at, message, count)
                if recounted is None:
                    continue
                if recounted != count:
                    count, words = recounted, f"{message} (×{recounted})"
                conn.execute(
                    "DELETE FROM event WHERE source_id = ? AND kind = 'error' AND at < ? AND at >= ?"
                    " AND (text = ? OR substr(text, 1, ?) = ?)"
                    " AND CAST(substr(text, length(?) + 4, length(text) - length(?) - 4) AS INTEGER) < ?",
                    (sid, event.at, event.at - ERROR_FOLD_SECONDS, message, len(message) + 3, f"{message} (×",
                     message, message, count),
                )
            conn.execute("INSERT OR REPLACE INTO event VALUES (?, ?, ?, ?)", (sid, event.at, event.kind, words))
        conn.executemany("INSERT OR REPLACE INTO imported VALUES (?, ?, ?)", obs.imported)
        if first is not None:
            conn.execute(
                "UPDATE source SET first_at = min(coalesce(first_at, ?), ?) WHERE id = ?", (first, first, sid)
            )
        roll_up(conn, sid, obs.source.kind, dirty)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # SQLite has rolled back already after a full disk
            conn.execute("ROLLBACK")
        raise
    return new


def roll_up(conn: sqlite3.Connection, sid: int, kind: str, five_minute_buckets: Iterable[int]) -> None:
    """Recompute the given 5-min buckets from raw rows, then their hours from 5-min rows, their days from hours."""
    dirty = set(five_minute_buckets)
    for span, lower in ((FIVE_MINUTES, 0), (HOUR, FIVE_MINUTES), (DAY, HOUR)):
        above: set[int] = set()
        for bucket in sorted(dirty):
            if lower == 0:
                row = _from_raw(conn, sid, kind, bucket)
            else:
                row = _from_rollups(conn, sid, lower, bucket, span)
            if row is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO rollup VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (sid, span, bucket, *row),
                )
            if span != DAY:
                above.add(bucket - bucket % (HOUR if span == FIVE_MINUTES else DAY))
        dirty = above


def _most_common(values: list[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    if not known:
        return None
    counts = Counter(known)
    best = max(counts.values())
    return next(v for v in reversed(known) if counts[v] == best)  # a tie goes to the latest


RollupRow = tuple[int, int, int, float | None, float | None, float | None, int, float, int | None,
                  int | None, int | None, int | None, int | None]


def _from_raw(conn: sqlite3.Connection, sid: int, kind: str, bucket: int) -> RollupRow | None:
    rows = conn.execute(
        "SELECT tokens_per_hour, state, layer, tokens_per_pass, queue_position, step FROM sample"
        " WHERE source_id = ? AND t >= ? AND t < ? ORDER BY t",
        (sid, bucket, bucket + FIVE_MINUTES),
    ).fetchall()
    passes, pass_tokens = conn.execute(
        "SELECT count(*), coalesce(sum(tokens), 0) FROM pass WHERE source_id = ? AND t >= ? AND t < ?",
        (sid, bucket, bucket + FIVE_MINUTES),
    ).fetchone()
    if not rows and not passes:
        return None
    rates = [r[0] for r in rows if r[0] is not None]
    training = sum(1 for r in rows if r[1] == "training" or (r[1] is None and r[0] is not None))
    queue = [r[4] for r in rows if r[4] is not None]
    steps = [r[5] for r in rows if r[5] is not None]
    # A step trainer's tokens are its rate over the time sampled; the miner's are its passes'.
    tokens = float(pass_tokens) if kind == "miner" else sum(rates) * SAMPLE_SECONDS / HOUR
    return (
        len(rows),
        len(rates),
        training,
        min(rates) if rates else None,
        max(rates) if rates else None,
        sum(rates) if rates else None,
        int(passes),
        tokens,
        _most_common([r[2] for r in rows]),
        _most_common([r[3] for r in rows]),
        min(queue) if queue else None,
        max(queue) if queue else None,
        max(steps) if steps else None,
    )


def _from_rollups(conn: sqlite3.Connection, sid: int, lower: int, bucket: int, span: int) -> RollupRow | None:
    rows = conn.execute(
        "SELECT samples, measured, training, tph_min, tph_max, tph_sum, passes, tokens, layer,"
        " tokens_per_pass, queue_min, queue_max, step_max FROM rollup"
        " WHERE source_id = ? AND span = ? AND t >= ? AND t < ? ORDER BY t",
        (sid, lower, bucket, bucket + span),
    ).fetchall()
    if not rows:
        return None

    def known(i: int) -> list[float]:
        return [r[i] for r in rows if r[i] is not None]

    weighted_layer: list[int | None] = []
    weighted_tpp: list[int | None] = []
    for r in rows:
        weighted_layer += [r[8]] * max(r[0], 1)
        weighted_tpp += [r[9]] * max(r[0], 1)
    sums = known(5)
    steps = known(12)
    return (
        sum(r[0] for r in rows),
        sum(r[1] for r in rows),
        sum(r[2] for r in rows),
        min(known(3)) if known(3) else None,
        max(known(4)) if known(4) else None,
        sum(sums) if sums else None,
        sum(r[6] for r in rows),
        sum(r[7] for r in rows),
        _most_common(weighted_layer),
        _most_common(weighted_tpp),
        int(min(known(10))) if known(10) else None,
        int(max(known(11))) if known(11) else None,
        int(max(steps)) if steps else None,
    )


def _prune_runs(conn: sqlite3.Connection) -> None:
    """Drop the whole runs of the step sources past the :data:`RUN_SOURCES_KEPT` written most recently."""
    gone = [sid for (sid,) in conn.execute(
        "SELECT id FROM source WHERE kind = 'steps' ORDER BY coalesce(written_at, 0) DESC, id DESC LIMIT -1 OFFSET ?",
        (RUN_SOURCES_KEPT,))]
    for sid in gone:
        for table in _RUN_TABLES:
            conn.execute(f"DELETE FROM {table} WHERE source_id = ?", (sid,))


def prune(conn: sqlite3.Connection, now: float) -> None:
    """Drop what each tier no longer keeps (whole buckets only)."""
    raw_cut = int(now - RAW_KEEP_SECONDS)
    raw_cut -= raw_cut % FIVE_MINUTES
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("DELETE FROM sample WHERE t < ?", (raw_cut,))
        conn.execute("DELETE FROM pass WHERE t < ?", (raw_cut,))
        for span, keep in KEEP_SECONDS.items():
            conn.execute("DELETE FROM rollup WHERE span = ? AND t < ?", (span, now - keep))
        for tier, cut in ((0, raw_cut), (FIVE_MINUTES, now - KEEP_SECONDS[FIVE_MINUTES])):
            conn.execute(
                "INSERT INTO pruned VALUES (?, ?) ON CONFLICT (tier) DO UPDATE SET before = max(before, excluded.before)",
                (tier, cut),
            )
        steps = "SELECT id FROM source WHERE kind = 'steps'"
        conn.execute(f"DELETE FROM event WHERE at < ? AND source_id NOT IN ({steps})", (now - EVENT_KEEP_SECONDS,))
        for table in ("step", "eval"):  # (a step trainer's only, written by an older tokwatch)
            conn.execute(f"DELETE FROM {table} WHERE at < ? AND source_id NOT IN ({steps})", (now - EVENT_KEEP_SECONDS,))
        _prune_runs(conn)
        conn.execute(
            "DELETE FROM event WHERE (source_id, at) IN (SELECT source_id, at FROM ("
            " SELECT source_id, at, row_number() OVER (PARTITION BY source_id ORDER BY at DESC) AS n FROM event)"
            " WHERE n > ?)",
            (EVENTS_KEPT_PER_SOURCE,),
        )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # SQLite has rolled back already after a full disk
            conn.execute("ROLLBACK")
        raise
