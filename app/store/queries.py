"""Reading the history: chart points per range, the CSV rows, "vs your usual", "today" and totals.

Every bucket of a range is present; one with no data is null, never zero.
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import repeat
from typing import Any

from .happened import what_happened
from .losses import BUCKET_STEPS, losses
from .records import SAMPLE_SECONDS, SourceKey
from .write import FIVE_MINUTES, HOUR, RAW_KEEP_SECONDS

# range name → (span, bucket, tier it is read from: 0 the raw samples, else a rollup span), in
# seconds. 300 to 720 points a range: about what a chart has pixels for.
RANGES: dict[str, tuple[int, int, int]] = {
    "1h": (HOUR, SAMPLE_SECONDS, 0),
    "6h": (6 * HOUR, SAMPLE_SECONDS, 0),
    "24h": (24 * HOUR, FIVE_MINUTES, FIVE_MINUTES),
    "7d": (7 * 24 * HOUR, 3 * FIVE_MINUTES, FIVE_MINUTES),
    "30d": (30 * 24 * HOUR, HOUR, HOUR),
}
# A step trainer's longest range is its whole run (the page calls it "run"), read by the run, not the clock.
WHOLE_RUN_RANGE = "30d"
EVER = 1e15  # later than any time a log could carry
USUAL_WINDOW_SECONDS = 7 * 24 * HOUR
USUAL_MIN_BASIS_HOURS = 3.0
MINER_SERIES = (
    "tokens_per_hour", "tokens_per_hour_min", "tokens_per_hour_max", "passes", "training_fraction",
    "layer", "queue_position",
)
RATE_POINTS = 1500  # a step trainer's rate points drawn over a range, at most
STEP_SERIES = ("tokens_per_hour", "tokens_per_hour_min", "tokens_per_hour_max", "training_fraction", "step")


class UnknownRange(ValueError):
    """A range name not in :data:`RANGES`."""


@dataclass(frozen=True, slots=True)
class Usual:
    tokens_per_hour: float
    basis_hours: float


def find_source(conn: sqlite3.Connection, source: SourceKey) -> int | None:
    """The stored source's id, or None if nothing was kept for it.

    A log kept under another name of this machine's (see app/store/write.py ``source_id``) is
    the same history until the next write renames it.
    """
    row = conn.execute("SELECT id FROM source WHERE machine = ? AND key = ?", (source.machine, source.key)).fetchone()
    if row is not None:
        return int(row[0])
    try:
        row = conn.execute(
            "SELECT id FROM source WHERE key = ? AND machine IN (SELECT name FROM local_machine)"
            " ORDER BY (SELECT max(t) FROM rollup WHERE source_id = source.id) DESC, id DESC LIMIT 1",
            (source.key,),
        ).fetchone()
    except sqlite3.OperationalError:
        # A file from before machine names were kept, read as it is: every name in it is a host
        # name this machine wrote under.
        row = conn.execute(
            "SELECT id FROM source WHERE key = ?"
            " ORDER BY (SELECT max(t) FROM rollup WHERE source_id = source.id) DESC, id DESC LIMIT 1",
            (source.key,),
        ).fetchone()
    return int(row[0]) if row else None


def step_anchors(conn: sqlite3.Connection, source: SourceKey) -> dict[tuple[str, int], float]:
    """When each step the history holds for this source was placed: ``(stage, step) → time``."""
    sid = find_source(conn, source)
    if sid is None:
        return {}
    return {(str(stage), int(step)): float(at)
            for stage, step, at in conn.execute("SELECT stage, step, at FROM step WHERE source_id = ?", (sid,))}


def _grid(range_name: str, now: float) -> tuple[int, int, int]:
    if range_name not in RANGES:
        raise UnknownRange(f"range must be one of {', '.join(RANGES)}, not {range_name!r}")
    span, bucket, _ = RANGES[range_name]
    last = int(now) - int(now) % bucket
    return last - span + bucket, last, bucket


def _buckets(
    conn: sqlite3.Connection, sid: int, first: int, last: int, bucket: int, tier: int
) -> dict[int, dict[str, Any]]:
    """Each bucket's figures by start time (only buckets with data), from the raw tier or a rollup."""
    found: dict[int, dict[str, Any]] = {}
    if tier == 0:
        for t, tph, state, layer, queue, step in conn.execute(
            "SELECT t, tokens_per_hour, state, layer, queue_position, step FROM sample"
            " WHERE source_id = ? AND t >= ? AND t <= ?",
            (sid, first, last),
        ):
            training = state == "training" or (state is None and tph is not None)
            found[t] = {
                "tokens_per_hour": tph, "tokens_per_hour_min": tph, "tokens_per_hour_max": tph,
                "passes": 0, "training_fraction": 1.0 if training else 0.0, "layer": layer,
                "queue_position": queue, "step": step, "state": state,
            }
        for t, n in conn.execute(
            "SELECT CAST(t AS INTEGER) / ? * ? AS b, count(*) FROM pass WHERE source_id = ? AND t >= ? AND t < ?"
            " GROUP BY b",
            (SAMPLE_SECONDS, SAMPLE_SECONDS, sid, first, last + bucket),
        ):
            found.setdefault(t, {"passes": 0})["passes"] = n
        return found
    # Rollup rows grouped into the range's buckets; the layer is the one of the fullest row
    # (SQLite takes a bare column from the row that max() picked).
    for t, samples, measured, training, lo, hi, total, passes, layer, queue_max, step, _ in conn.execute(
        "SELECT t - t % ? AS b, sum(samples), sum(measured), sum(training), min(tph_min), max(tph_max),"
        " sum(tph_sum), sum(passes), layer, max(queue_max), max(step_max), max(samples)"
        " FROM rollup WHERE source_id = ? AND span = ? AND t >= ? AND t < ? GROUP BY b",
        (bucket, sid, tier, first, last + bucket),
    ):
        found[t] = {
            "tokens_per_hour": round(total / measured, 1) if measured and total is not None else None,
            "tokens_per_hour_min": lo, "tokens_per_hour_max": hi, "passes": passes,
            "training_fraction": round(training / samples, 3) if samples else None, "layer": layer,
            "queue_position": queue_max, "step": step,
            "state": "training" if (samples and training * 2 >= samples) or passes else "queued" if queue_max is not None else "idle",
        }
    return found


def events_between(conn: sqlite3.Connection, source: SourceKey, start: float, end: float) -> list[dict[str, Any]]:
    """The stored events with ``start <= at < end``, oldest first."""
    sid = find_source(conn, source)
    if sid is None:
        return []
    return [{"at": at, "kind": kind, "text": words} for at, kind, words in conn.execute(
        "SELECT at, kind, text FROM event WHERE source_id = ? AND at >= ? AND at < ? ORDER BY at", (sid, start, end))]


# The state band: each sample's state as one of four strips; no record at all is offline (no strip).
_STRIPS = {
    "training": "training", "measuring": "training", "evaluating": "training",
    "queued": "queued", "processing": "queued", "confirmed": "queued", "registering": "queued", "failed": "queued",
    "silent": "silent",
}


def state_bands(found: dict[int, dict[str, Any]], events: list[dict[str, Any]], first: int, last: int,
                bucket: int) -> list[dict[str, Any]]:
    """Runs of buckets in one state (training, idle, queued, silent), oldest first; none where nothing was recorded.

    A bucket's state is its samples' (a rollup's: training when most of it trained, queued when
    it logged a queue position, else idle); a log silence the timeline dated (its `silent` entry
    to the `log lines again` that ended it) is silent whatever was written inside it, so the band
    reads the same for an imported night (no rows while the log was quiet) as for a live one.
    """
    strips: dict[int, str] = {}
    for t, row in found.items():
        state = row.get("state")
        if state is None and "tokens_per_hour" not in row:
            continue  # passes only
        strips[t] = _STRIPS.get(state or "", "training" if state is None and row.get("tokens_per_hour") is not None else "idle")
    newest = max(strips, default=None)
    # The pauses the timeline dated: idle from the last pass to "passes resumed", silent from the
    # last line to "log lines again" (silence wins where both are said).
    # (A silence's end shares its instant with "passes resumed" when a pass is its first line.)
    for kind, ended_by in (("idle", "passes resumed"), ("silent", "")):
        since: float | None = None
        spans: list[tuple[float, float]] = []
        for event in events:
            if event["kind"] == kind:
                since = event["at"] if since is None else since
            elif event["kind"] == "resumed" and since is not None and str(event["text"]).startswith(ended_by):
                spans.append((since, event["at"]))
                since = None
            elif kind == "idle" and event["kind"] in ("silent", "registered", "queued", "restarted"):
                since = None  # the idle spell ended another way
        if since is not None and newest is not None:
            spans.append((since, newest + bucket))
        for start, end in spans:
            t = max(first, int(start) - int(start) % bucket)
            while t <= min(last, end):
                if start <= t + bucket / 2 < end and (t in strips or kind == "silent"):
                    strips[t] = kind
                t += bucket
    bands: list[dict[str, Any]] = []
    for t in sorted(strips):
        strip = strips[t]
        if bands and bands[-1]["state"] == strip and bands[-1]["to"] == t:
            bands[-1]["to"] = t + bucket
        else:
            bands.append({"from": t, "to": t + bucket, "state": strip})
    return bands


# Polls further apart than this (or than a bucket) are a silence: the queue line breaks there.
QUEUE_GAP_SECONDS = 5 * 60


def queue_points(points: Iterable[tuple[int, Any]], bucket: int) -> list[tuple[int, Any]]:
    """The queue's logged positions only, joined while the polls come, broken by a null where they stopped."""
    out: list[tuple[int, Any]] = []
    previous: int | None = None
    for t, position in points:
        if position is None:
            continue
        if previous is not None and t - previous > max(QUEUE_GAP_SECONDS, bucket):
            out.append((previous + bucket, None))
        out.append((t, position))
        previous = t
    return out


def history(conn: sqlite3.Connection, source: SourceKey, range_name: str, now: float) -> dict[str, Any]:
    """The chart's data for one range: a point per bucket per series, the events, and step-trainer points.

    Each point is a ``(x, y)`` tuple, as SQLite gives its rows (:func:`listed` makes them lists).
    """
    first, last, bucket = _grid(range_name, now)
    sid = find_source(conn, source)
    found = _buckets(conn, sid, first, last, bucket, RANGES[range_name][2]) if sid is not None else {}
    names = STEP_SERIES if source.kind == "steps" else MINER_SERIES
    grid = range(first, last + 1, bucket)
    # Every bucket null, then the few with data filled in: a month of hours is 720 points a
    # series, and a run seldom fills many of them.
    blank: list[tuple[int, Any]] = list(zip(grid, repeat(None)))
    filled = [(i, t, found[t]) for i, t in enumerate(grid) if t in found]
    series: dict[str, list[tuple[int, Any]]] = {}
    for name in names:
        points = blank.copy()
        for i, t, row in filled:
            points[i] = (t, row.get(name))
        series[name] = points
    if "passes" in series:  # a bucket with data and no pass has 0 passes
        points = series["passes"]
        for i, t, row in filled:
            if row.get("passes") is None:
                points[i] = (t, 0)
    events: list[dict[str, Any]] = []
    steps: dict[str, Any] | None = None
    bands: list[dict[str, Any]] = []
    if sid is not None:
        # A repeated error is one marker with its count, however many rows an older store kept.
        events = what_happened(events_between(conn, source, first, last + bucket), (), spans=False)[::-1]
        if source.kind != "steps":
            bands = state_bands(found, events, first, last, bucket)
        if source.kind == "steps":
            steps = _steps(conn, sid, first, last + bucket)
            if steps is None and range_name == WHOLE_RUN_RANGE:
                # The longest range is the run's, whatever its dates: a log of a run months ago (read
                # today, its lines dated then) still has its curve, evaluations and markers.
                steps = _steps(conn, sid, 0.0, EVER)
                if steps is not None:
                    events = what_happened(events_between(conn, source, 0.0, EVER), (), spans=False)[::-1]
    return {
        "range": range_name,
        "from": first,
        "to": last,
        "bucket_seconds": bucket,
        "series": series,
        "queue": queue_points(series.get("queue_position", ()), bucket),
        "bands": bands,
        "events": events,
        "steps": steps,
        "totals": totals(conn, sid, source.kind) if sid is not None else None,
    }


def listed(chart: Any) -> Any:
    """``chart`` with every tuple in it a list, as its JSON reads back (for callers that compare)."""
    if isinstance(chart, dict):
        return {key: listed(value) for key, value in chart.items()}
    if isinstance(chart, (list, tuple)):
        return [listed(value) for value in chart]
    return chart


def _steps(conn: sqlite3.Connection, sid: int, start: float, end: float) -> dict[str, Any] | None:
    """The latest stage's points against step, with its evaluation figures.

    ``loss`` has every logged loss, or each bucket's lowest and highest (``loss_bucket_steps``
    says how many steps a bucket holds: 1 when every loss is there; app/store/losses.py);
    ``not_finite`` the steps whose loss was not a number; the rates are the points taken every
    30 s of training.
    """
    row = conn.execute(
        "SELECT stage FROM step WHERE source_id = ? AND at >= ? AND at < ? ORDER BY at DESC LIMIT 1",
        (sid, start, end),
    ).fetchone() or conn.execute(
        "SELECT stage FROM loss_bucket WHERE source_id = ? AND last_at >= ? AND first_at < ? ORDER BY last_at DESC LIMIT 1",
        (sid, start, end),
    ).fetchone()
    if row is None:
        return None
    stage = row[0]
    logged = losses(conn, sid, stage, start, end)
    where = "source_id = ? AND stage = ? AND at >= ? AND at < ?"
    args = (sid, stage, start, end)
    if not logged["loss"] and not logged["not_finite"]:
        logged["lr"] = []
        # Kept before every logged loss was: the 30-s points' losses.
        logged["loss"] = conn.execute(
            f"SELECT step, loss FROM step WHERE {where} AND loss IS NOT NULL ORDER BY step", args).fetchall()
    # The 30-s rate points, every one up to RATE_POINTS, else every k-th (and the last) across the
    # run: read in the key's order and thinned here (a window over them in SQL cost several times more).
    points = conn.execute(f"SELECT step, tokens_per_hour, steps_per_hour FROM step WHERE {where} ORDER BY step",
                          args).fetchall()
    every = -(-len(points) // RATE_POINTS)
    if every > 1:
        points = points[::every] + ([points[-1]] if (len(points) - 1) % every else [])
    steps, rate, steps_rate = list(zip(*points)) or [(), (), ()]  # columns: each pair made in C
    # Each name's evaluations, the names found one after another in the key (reading every row's
    # name instead costs more than its step and value together).
    evals: dict[str, list[tuple[int, float | None]]] = {}
    name_after = "SELECT name FROM eval WHERE source_id = ? AND stage = ?{} ORDER BY name LIMIT 1"
    found = conn.execute(name_after.format(""), (sid, stage)).fetchone()
    while found is not None:
        name = found[0]
        rows = conn.execute(
            "SELECT step, value FROM eval WHERE source_id = ? AND stage = ? AND name = ? AND at >= ? AND at < ?"
            " ORDER BY step", (sid, stage, name, start, end)).fetchall()
        if rows:
            evals[name] = rows
        found = conn.execute(name_after.format(" AND name > ?"), (sid, stage, name)).fetchone()
    return {"stage": stage, **logged, "tokens_per_hour": list(zip(steps, rate)),
            "steps_per_hour": list(zip(steps, steps_rate)), "evals": evals}


def csv_rows(conn: sqlite3.Connection, source: SourceKey, range_name: str, now: float) -> list[list[Any]]:
    """The range as spreadsheet rows (header first): one row per bucket, empty cells for gaps."""
    data = history(conn, source, range_name, now)
    names = list(data["series"])
    header = ["time_utc", "unix", *names]
    rows: list[list[Any]] = [header]
    columns = [data["series"][name] for name in names]
    for i, (t, _) in enumerate(columns[0]):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
        rows.append([stamp, t, *("" if col[i][1] is None else col[i][1] for col in columns)])
    return rows


def _weighted_median(values: list[tuple[float, float]]) -> float:
    values.sort()
    half = sum(w for _, w in values) / 2
    seen = 0.0
    for value, weight in values:
        seen += weight
        if seen >= half:
            return value
    return values[-1][0]


def usual(conn: sqlite3.Connection, sid: int, layer: int, tokens_per_pass: int, now: float) -> Usual | None:
    """Median tok/h while training on this layer and tokens per pass over the last 7 days, or None under 3 h of basis.

    The last 48 h count sample by sample; before that each 5-min bucket that was all training
    counts as its mean, weighed by its samples.
    """
    raw_from = now - RAW_KEEP_SECONDS
    window_from = now - USUAL_WINDOW_SECONDS
    values: list[tuple[float, float]] = [
        (tph, 1.0)
        for (tph,) in conn.execute(
            "SELECT tokens_per_hour FROM sample WHERE source_id = ? AND t >= ? AND t <= ?"
            " AND tokens_per_hour IS NOT NULL AND (state = 'training' OR state IS NULL)"
            " AND layer = ? AND tokens_per_pass = ?",
            (sid, max(raw_from, window_from), now, layer, tokens_per_pass),
        )
    ]
    raw_start = min((t for (t,) in conn.execute(
        "SELECT min(t) FROM sample WHERE source_id = ?", (sid,)) if t is not None), default=now)
    for total, measured in conn.execute(
        "SELECT tph_sum, measured FROM rollup WHERE source_id = ? AND span = ? AND t >= ? AND t + ? <= ?"
        " AND measured > 0 AND training = samples AND layer = ? AND tokens_per_pass = ?",
        (sid, FIVE_MINUTES, window_from, FIVE_MINUTES, max(raw_start, raw_from), layer, tokens_per_pass),
    ):
        values.append((total / measured, float(measured)))
    basis_hours = sum(w for _, w in values) * SAMPLE_SECONDS / HOUR
    if not values or basis_hours < USUAL_MIN_BASIS_HOURS:
        return None
    return Usual(tokens_per_hour=_weighted_median(values), basis_hours=basis_hours)


def local_midnight(now: float) -> float:
    """The start of ``now``'s local day."""
    tm = time.localtime(now)
    return time.mktime((tm.tm_year, tm.tm_mon, tm.tm_mday, 0, 0, 0, 0, 0, -1))


def today(conn: sqlite3.Connection, sid: int, kind: str, now: float) -> dict[str, Any]:
    """Tokens, passes (steps for a step trainer), training and observed seconds since local midnight."""
    start = local_midnight(now)
    samples, training = conn.execute(
        "SELECT count(*), coalesce(sum(state = 'training' OR (state IS NULL AND tokens_per_hour IS NOT NULL)), 0)"
        " FROM sample WHERE source_id = ? AND t >= ? AND t <= ?",
        (sid, start, now),
    ).fetchone()
    if kind == "miner":
        passes, tokens = conn.execute(
            "SELECT count(*), coalesce(sum(tokens), 0) FROM pass WHERE source_id = ? AND t >= ? AND t <= ?",
            (sid, start, now),
        ).fetchone()
    else:
        # A step trainer's tokens are its steps today × the tokens a step, never its rate over the
        # time sampled: the rate is held between sparse lines and sampled again after a restart,
        # which would count tokens of steps that never ran (or ran once) over and over.
        passes = _steps_today(conn, sid, start, now)
        tokens = passes * (_tokens_per_step(conn, sid, start, now) or 0)
    return {
        "tokens": int(tokens),
        "passes": int(passes),
        "training_seconds": float(training * SAMPLE_SECONDS),
        "observed_seconds": float(samples * SAMPLE_SECONDS),
    }


def _tokens_per_step(conn: sqlite3.Connection, sid: int, start: float, now: float) -> float | None:
    """The tokens a step, as the newest sample (else step point) between ``start`` and ``now`` had them."""
    row = conn.execute(
        "SELECT tokens_per_pass FROM sample WHERE source_id = ? AND t >= ? AND t <= ? AND tokens_per_pass > 0"
        " ORDER BY t DESC LIMIT 1", (sid, start, now),
    ).fetchone()
    if row is not None:
        return float(row[0])
    row = conn.execute(
        "SELECT tokens_per_hour / steps_per_hour FROM step WHERE source_id = ? AND at >= ? AND at <= ?"
        " AND tokens_per_hour > 0 AND steps_per_hour > 0 ORDER BY at DESC LIMIT 1", (sid, start, now),
    ).fetchone()
    return float(row[0]) if row is not None else None


def _steps_today(conn: sqlite3.Connection, sid: int, start: float, now: float) -> int:
    """The steps that ran since ``start``: per stage, the last step today less the last before
    today (or the step before today's first), read from every logged loss when there are some."""
    # Today's losses are found from their 64-step buckets: no scan of a long run's every row.
    stages = conn.execute(
        "SELECT stage, min(bucket) FROM loss_bucket WHERE source_id = ? AND last_at >= ? GROUP BY stage", (sid, start)
    ).fetchall()
    table, lowest = ("loss", {stage: bucket * BUCKET_STEPS for stage, bucket in stages}) if stages else ("step", {})
    if not stages:
        stages = conn.execute("SELECT DISTINCT stage, 0 FROM step WHERE source_id = ? AND at >= ?", (sid, start)).fetchall()
    total = 0
    for stage, _ in stages:
        first, last = conn.execute(
            f"SELECT min(step), max(step) FROM {table} WHERE source_id = ? AND stage = ? AND step >= ? AND at >= ? AND at <= ?",
            (sid, stage, lowest.get(stage, 0), start, now),
        ).fetchone()
        if first is None:
            continue
        before = conn.execute(
            f"SELECT step FROM {table} WHERE source_id = ? AND stage = ? AND step <= ? AND at < ? ORDER BY step DESC LIMIT 1",
            (sid, stage, first, start),
        ).fetchone()
        # A run that began today began at its first logged step less one (step 1 is one step).
        total += last - (before[0] if before is not None else max(first - 1, 0))
    return total


def totals(conn: sqlite3.Connection, sid: int, kind: str) -> dict[str, Any]:
    """Tokens and passes (steps for a step trainer) since the first record kept for the source."""
    first_at, = conn.execute("SELECT first_at FROM source WHERE id = ?", (sid,)).fetchone()
    if kind == "miner":
        passes, tokens = conn.execute(
            "SELECT coalesce(sum(passes), 0), coalesce(sum(tokens), 0) FROM rollup WHERE source_id = ? AND span = ?",
            (sid, 86400),
        ).fetchone()
    else:
        # As for today: the steps kept × the tokens a step, never the rate summed over the samples,
        # which a held rate and each restart's re-sampling grew with no step run.
        passes = _steps_kept(conn, sid)
        tokens = round(passes * (_tokens_per_step(conn, sid, 0.0, math.inf) or 0))
    return {"since": first_at, "tokens": int(tokens), "passes": int(passes)}


def _steps_kept(conn: sqlite3.Connection, sid: int) -> int:
    """The steps the history holds: per stage, its last step less the one before its first (as
    ``_steps_today`` with no day), read from every logged loss when there are some. Each stage's
    ends are two index look-ups, so a run of a million steps costs no scan."""
    stages = _stages(conn, "loss_bucket", sid)
    table = "loss" if stages else "step"
    if not stages:
        stages = _stages(conn, "step", sid)
    total = 0
    for stage in stages:
        first, = conn.execute(f"SELECT min(step) FROM {table} WHERE source_id = ? AND stage = ?", (sid, stage)).fetchone()
        last, = conn.execute(f"SELECT max(step) FROM {table} WHERE source_id = ? AND stage = ?", (sid, stage)).fetchone()
        if first is not None:
            total += last - max(first - 1, 0)
    return total


def _stages(conn: sqlite3.Connection, table: str, sid: int) -> list[str]:
    """The source's stages in ``table`` (keyed by source, stage, …), each found by a seek in the key:
    ``DISTINCT`` read every row of a long run's (15,625 buckets for a million steps: 2–4 ms)."""
    stages: list[str] = []
    after = f"SELECT stage FROM {table} WHERE source_id = ?{{}} ORDER BY stage LIMIT 1"
    found = conn.execute(after.format(""), (sid,)).fetchone()
    while found is not None:
        stages.append(found[0])
        found = conn.execute(after.format(" AND stage > ?"), (sid, found[0])).fetchone()
    return stages


def imported(conn: sqlite3.Connection, path: str) -> tuple[int, str] | None:
    """The size and head digest a log file had when it was imported whole, or None."""
    row = conn.execute("SELECT size_bytes, head FROM imported WHERE path = ?", (path,)).fetchone()
    return (int(row[0]), str(row[1])) if row else None
