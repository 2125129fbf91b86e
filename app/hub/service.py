"""The running hub: takes reports, knows when the fleet changed, and hands out its views.

The hub's counterpart of the dashboard's Monitor: one object the web layer asks (report intake,
the fleet, a machine's page and chart, the metrics of every machine online) and the fleet
page's broadcaster waits on (its ``changes``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client.core import GaugeMetricFamily, Metric

from .. import text
from ..changes import Changes
from ..snapshot import Snapshot
from . import fleet
from .keys import bearer_token
from .report import ReportError, parse_history, parse_report, reported_snapshot
from .store import RETENTION_SECONDS, SAMPLE_SECONDS, SKEW_SHOWN_SECONDS, HubStore, MachineRow

log = logging.getLogger(__name__)

# The machine page's chart: span name → (seconds shown, seconds per point).
CHART_SPANS: dict[str, tuple[int, int]] = {"6h": (6 * 3600, 60), "24h": (86400, 300), "7d": (7 * 86400, 1800)}
PRUNE_EVERY_SECONDS = 3600.0
# Looked at this long after a machine's last online moment: it is offline by then, not at its edge.
OFFLINE_MARGIN_SECONDS = 0.01
# A card's sparkline: the last 6 h, a point per 10 minutes.
SPARK_SECONDS = 6 * 3600
SPARK_STEP_SECONDS = 600
# Reports one key may send: a burst (a backlog after an outage goes in rounds) and a steady rate
# far above an agent's one per 15 s. Past it the hub answers 429 and the agent keeps the report.
RATE_BURST = 120
RATE_PER_SECOND = 2.0
# History batches one key may send: a week of the agent's own history and a week's spool after an
# outage (~50 batches of 300 minutes) go in one burst; past it one a second.
HISTORY_RATE_BURST = 60
HISTORY_RATE_PER_SECOND = 1.0


def local_day_start(now: float) -> float:
    """Unix time of this machine's last local midnight."""
    t = time.localtime(now)
    return time.mktime((t.tm_year, t.tm_mon, t.tm_mday, 0, 0, 0, 0, 0, -1))


def skew_text(skew_seconds: float | None) -> str | None:
    """What the machine's page says about its clock, when it is far from the hub's."""
    if skew_seconds is None or abs(skew_seconds) < SKEW_SHOWN_SECONDS:
        return None
    way = "ahead of" if skew_seconds > 0 else "behind"
    return f"this machine's clock is {text.duration(abs(skew_seconds))} {way} the hub's"


class Hub:
    """Report intake and the fleet's views over the hub's store; thread-safe."""

    def __init__(self, store: HubStore, *, clock: Callable[[], float] = time.time,
                 reserved_name: str | None = None) -> None:
        self.store = store
        self.clock = clock
        # Bumped on every report taken and whenever a machine goes offline or comes back.
        self.changes = Changes()
        self.reserved_name = reserved_name  # this hub's own machine name, when it follows a log
        self._buckets: dict[str, tuple[float, float]] = {}  # machine → (reports allowed, at)
        self._history_buckets: dict[str, tuple[float, float]] = {}  # machine → (history batches allowed, at)
        self.problem: str | None = None  # the hub cannot write its file (a full disk): for /healthz
        self.alerts_problem: str | None = None  # the fleet's alerts do not reach a URL: for the fleet page
        self._online: frozenset[str] = frozenset()
        # Per machine, what its card reads from its minute samples, kept until they change, the
        # sparkline's window moves or the day ends (every push builds the whole fleet; a report
        # changes one machine's samples): name → (its samples' version, sparkline, today's tokens).
        self._figures_lock = threading.Lock()
        self._figures: dict[str, tuple[int, list[float | None] | None, float]] = {}
        self._figures_basis: tuple[int, int, float] | None = None  # (prunes, sparkline's start, day start)
        self._pruned_at = 0.0
        self._cards = fleet.CardMemo()  # each push builds the whole fleet; a report changes one card

    def tick(self) -> float:
        """Look for machines gone offline (no report tells us that) and prune old samples now and then.

        Returns when to look again if no report comes first: just after the next online machine
        would go offline, or the next prune.
        """
        now = self.clock()
        names = []
        soonest = float("inf")  # the first online machine to go offline (one pass: a look a second at 1,000)
        for row in self.store.machines():
            if fleet.is_online(row, now):
                names.append(row.name)
                gone = fleet.offline_at(row)
                if gone is not None and gone < soonest:
                    soonest = gone
        online = frozenset(names)
        if online != self._online:
            self._online = online
            self.changes.bump()
        if now - self._pruned_at >= PRUNE_EVERY_SECONDS:
            self._pruned_at = now
            self.store.prune(now)
        due = min(self._pruned_at + PRUNE_EVERY_SECONDS, soonest)
        return max(due, now) + OFFLINE_MARGIN_SECONDS

    def note_alerts_problem(self, problem: str | None) -> None:
        """Say on the fleet page why the fleet's alerts do not get out (None: they do), pushed at once."""
        if problem != self.alerts_problem:
            self.alerts_problem = problem
            self.changes.bump()

    # --- intake ---------------------------------------------------------------

    def _reporter(self, authorization: str | None) -> str | tuple[int, dict[str, Any]]:
        """The machine an ``Authorization`` header's key belongs to, or the 401 answer to give."""
        key = bearer_token(authorization)
        if key is None:
            return 401, {"error": "missing report key (Authorization: Bearer <key from tokwatch hub enroll>)"}
        machine = self.store.machine_for_key(key)
        if machine is None:
            return 401, {"error": "unknown or revoked report key; enrol this machine again on the hub"}
        return machine

    def take(self, authorization: str | None, body: bytes) -> tuple[int, dict[str, Any]]:
        """Take one report: (HTTP status, JSON answer). The key is checked before the body is read."""
        machine = self._reporter(authorization)
        if not isinstance(machine, str):
            return machine
        now = self.clock()
        wait = self._spend(machine, now)
        if wait > 0:
            return 429, {"error": "too many reports from this key; keep them and try again", "retry_after": wait}
        try:
            report = parse_report(body)
        except ReportError as e:
            return 400, {"error": str(e)}
        if report.machine != machine:
            return 403, {"error": f"this key belongs to {machine}, not {report.machine}"}
        if report.machine == self.reserved_name:
            return 403, {"error": f"{machine} is this hub's own name; give the agent another --name"}
        try:
            taken = self.store.accept(report, now, report.notes)
        except sqlite3.Error as e:
            return self._cannot_write(e)
        self._can_write()
        if taken:
            self.changes.bump()
        answer: dict[str, Any] = {"taken": taken, "seq": report.seq}
        if report.notes:
            answer["notes"] = list(report.notes)  # the agent logs them: its hub set these aside
        return 200, answer

    def _cannot_write(self, error: sqlite3.Error) -> tuple[int, dict[str, Any]]:
        """The 503 for a write that failed (a full disk), said once in the log and kept for /healthz."""
        problem = f"the hub cannot write {self.store.path.name}: {error}"
        if problem != self.problem:
            log.error("%s; reports are refused (agents keep them) until it can", problem)
        self.problem = problem
        return 503, {"error": "the hub cannot keep reports right now; keep them and try again"}

    def _can_write(self) -> None:
        if self.problem is not None:
            log.info("the hub can write %s again", self.store.path.name)
            self.problem = None

    def _spend(self, machine: str, now: float, *, history: bool = False) -> float:
        """Take one request from the key's bucket; 0, or the seconds until one is allowed."""
        buckets = self._history_buckets if history else self._buckets
        burst, per_second = (HISTORY_RATE_BURST, HISTORY_RATE_PER_SECOND) if history else (RATE_BURST, RATE_PER_SECOND)
        allowed, at = buckets.get(machine, (float(burst), now))
        allowed = min(float(burst), allowed + max(0.0, now - at) * per_second)
        if allowed < 1.0:
            buckets[machine] = (allowed, now)
            return (1.0 - allowed) / per_second
        buckets[machine] = (allowed - 1.0, now)
        return 0.0

    def take_history(self, authorization: str | None, body: bytes) -> tuple[int, dict[str, Any]]:
        """Take minutes from a machine's own history (as :meth:`take`, the key checked first).

        Minutes older than the chart's 7 days (and a day) or in the future are left out; a minute
        the hub already has stays as it was, so an agent may send the same history again.
        """
        machine = self._reporter(authorization)
        if not isinstance(machine, str):
            return machine
        now = self.clock()
        wait = self._spend(machine, now, history=True)
        if wait > 0:
            return 429, {"error": "too many history batches from this key; try again", "retry_after": wait}
        try:
            batch = parse_history(body)
        except ReportError as e:
            return 400, {"error": str(e)}
        if batch.machine != machine:
            return 403, {"error": f"this key belongs to {machine}, not {batch.machine}"}
        # The agent's clock, whole minutes from the hub's, is set right as a report's is: a minute it
        # sent lands where the hub's own samples of that moment are.
        shift = 0 if batch.sent_at is None else round((now - batch.sent_at) / SAMPLE_SECONDS) * SAMPLE_SECONDS
        points = [(t + shift, tph, state, queue, layer) for t, tph, state, queue, layer in batch.points
                  if now - RETENTION_SECONDS <= t + shift <= now + SAMPLE_SECONDS]
        # As the agent made it (before the hub's clock set its minutes right): a resend is the same.
        # The store keeps the digests of the batches it counted, in the same transaction as the count.
        digest = hashlib.sha256(repr((batch.points, batch.reports)).encode()).digest()
        try:
            taken = self.store.take_history(machine, points, batch.set_aside, batch.last_note,
                                            reports=batch.reports, digest=digest)
        except sqlite3.Error as e:
            return self._cannot_write(e)
        self._can_write()
        if taken:
            self.changes.bump()
        answer: dict[str, Any] = {"taken": taken}
        if batch.set_aside:
            answer["set_aside"] = batch.set_aside
            answer["notes"] = [batch.last_note]
        return 200, answer

    # --- views ----------------------------------------------------------------

    def fleet(self) -> dict[str, Any]:
        """``GET /api/fleet``: every machine's card and the totals."""
        return self._fleet(fresh=True)

    def fleet_kept(self) -> dict[str, Any]:
        """The fleet as :meth:`fleet` has it, for a push: its cards the kept ones, shared and never to
        be changed, each the same object until more than its age changed (``last_seen_text`` as of
        when it was made; :func:`app.hub.fleet.with_clock_words` writes it at another moment)."""
        return self._fleet(fresh=False)

    def _fleet(self, *, fresh: bool) -> dict[str, Any]:
        now = self.clock()
        day_start = local_day_start(now)
        rows = self.store.machines()
        sparks, today_tokens = self._figures_of(rows, now, day_start)
        view = fleet.fleet_view(rows, now, day_start=day_start, today_tokens=today_tokens, memo=self._cards,
                                sparks=sparks, fresh=fresh)
        view["alerts_problem"] = self.alerts_problem
        return view

    def _figures_of(
        self, rows: list[MachineRow], now: float, day_start: float
    ) -> tuple[dict[str, list[float | None] | None], dict[str, float]]:
        """Each machine's sparkline and the hub's estimate of its tokens today, read again only where they changed."""
        start = int(now // SPARK_STEP_SECONDS * SPARK_STEP_SECONDS) + SPARK_STEP_SECONDS - SPARK_SECONDS
        pruned, written = self.store.samples_versions()  # read first: a write after it is seen next time
        sparks: dict[str, list[float | None] | None] = {}
        today: dict[str, float] = {}
        with self._figures_lock:
            # A prune, the sparkline's window moving or a new day: every machine's figures afresh.
            basis = (pruned, start, day_start)
            kept = self._figures if basis == self._figures_basis else {}
            fresh = {}
            for row in rows:
                name = row.name
                version = written.get(name, 0)
                entry = kept.get(name)
                if entry is None or entry[0] != version:
                    entry = (version, self._spark(name, start), self.store.tokens_since(name, day_start))
                fresh[name] = entry
                sparks[name] = entry[1]
                today[name] = entry[2]
            self._figures, self._figures_basis = fresh, basis  # a revoked machine is forgotten
        return sparks, today

    def _spark(self, name: str, start: int) -> list[float | None] | None:
        """A machine's 6 h of tok/h from ``start``, a mean per 10 minutes (null: no rate); None: no sample there."""
        points = dict(self.store.series(name, start, start + SPARK_SECONDS, SPARK_STEP_SECONDS))
        return [points.get(t) for t in range(start, start + SPARK_SECONDS, SPARK_STEP_SECONDS)] if points else None

    def fleet_json(self) -> str:
        """The fleet as compact JSON (the API and every push carry the same text)."""
        return json.dumps(self.fleet(), ensure_ascii=False, separators=(",", ":"), allow_nan=False)

    def _row(self, name: str) -> MachineRow | None:
        return next((row for row in self.store.machines() if row.name == name), None)

    def machine(self, name: str) -> dict[str, Any] | None:
        """A machine's page: its card, and its last report's details and events while it is online."""
        row = self._row(name)
        if row is None:
            return None
        now = self.clock()
        card = fleet.machine_card(row, now)
        snap = row.snapshot if card["online"] else None
        return {
            "card": card,
            "details": list((snap or {}).get("details") or []),
            "events": list((snap or {}).get("events") or []),
            # What the events panel says when the list is empty: why, in words.
            "events_empty_text": None if (snap or {}).get("events") else (
                "none in its last report" if snap is not None else
                "none while it does not report" if row.received_at is not None else "not reported yet"),
            # The ages in its status line and details, for the page to keep them ticking.
            "ticking": [t for t in (snap or {}).get("ticking") or [] if t and None not in t.values()],
            "alerts": ((snap or {}).get("alerts") or {}).get("active") or [],
            "reports": row.reports,
            "clock_skew_seconds": row.skew_seconds,
            "clock_skew_text": skew_text(row.skew_seconds),
            "notes": row.notes,  # fields the hub set aside (out of range, too long) since enrolment
            "notes_text": None if not row.notes else f"{row.notes:,} field(s) set aside; last: {row.last_note}",
            "as_of": now,
        }

    def chart(self, name: str, span: str) -> dict[str, Any] | None:
        """A machine's tok/h over 6 h, 24 h or 7 d, a point per bucket, null where it did not report.

        With it, per bucket: the highest queue position, the state most of its minutes had (null:
        no report, the machine was offline) and the layer; and the machine's usual rate (its own
        history's, from its last report, else the median of the minutes it trained here).
        """
        if span not in CHART_SPANS:
            return None
        row = self._row(name)
        if row is None:
            return None
        seconds, step = CHART_SPANS[span]
        now = self.clock()
        end = int(now // step * step) + step
        start = end - seconds
        buckets: dict[int, list[tuple[int, float | None, str, int | None, int | None]]] = {}
        for minute in self.store.minutes(name, start, end):
            buckets.setdefault(minute[0] - (minute[0] - start) % step, []).append(minute)
        points: list[list[Any]] = []
        queue: list[list[Any]] = []
        states: list[list[Any]] = []
        layers: list[list[Any]] = []
        for t in range(start, end, step):
            minutes = buckets.get(t, [])
            rates = [m[1] for m in minutes if m[1] is not None]
            positions = [m[3] for m in minutes if m[3] is not None]
            known_layers = [m[4] for m in minutes if m[4] is not None]
            points.append([t, sum(rates) / len(rates) if rates else None])
            queue.append([t, max(positions) if positions else None])
            states.append([t, Counter(m[2] for m in minutes).most_common(1)[0][0] if minutes else None])
            layers.append([t, Counter(known_layers).most_common(1)[0][0] if known_layers else None])
        values = [v for _, v in points if v is not None]
        high = max(values) if values else None
        usual = self._usual(name, row, now)
        # Before its first minute on the hub the chart has no data (a gap after it: offline).
        since = self.store.first_minute(name)
        return {"span": span, "step_seconds": step, "points": points, "queue": queue, "states": states,
                "since": since,
                "layers": layers, "high": high, "high_text": None if high is None else f"{text.compact(high)} tok/h",
                "usual": usual, "usual_text": None if usual is None else f"usual {text.compact(usual)} tok/h",
                "as_of": now}

    def _usual(self, name: str, row: MachineRow, now: float) -> float | None:
        usual = ((row.snapshot or {}).get("usual") or {}).get("tokens_per_hour")
        if isinstance(usual, (int, float)) and usual > 0:
            return float(usual)
        layer = (row.snapshot or {}).get("layer")
        rates = sorted(m[1] for m in self.store.minutes(name, now - 7 * 86400, now)
                       if m[1] is not None and m[2] == "training" and (layer is None or m[4] in (None, layer)))
        # Three hours of training at least, as the dashboard's own "vs your usual" asks.
        return rates[len(rates) // 2] if len(rates) >= 180 else None

    # --- metrics --------------------------------------------------------------

    def metric_snapshots(self) -> list[tuple[dict[str, str], Snapshot]]:
        """Every machine online with its last report, labelled by machine (offline ones export no figures)."""
        now = self.clock()
        return [({"machine": row.name}, reported_snapshot(row.snapshot)) for row in self.store.machines()
                if row.snapshot is not None and fleet.is_online(row, now)]

    def fleet_metrics(self) -> Iterator[Metric]:
        """Per machine: online or not, and when it last reported."""
        now = self.clock()
        online = GaugeMetricFamily("tokwatch_machine_online", "1 while the machine reports to the hub.",
                                   labels=["machine"])
        seen = GaugeMetricFamily("tokwatch_machine_last_report_timestamp_seconds",
                                 "Unix time the hub last heard from the machine.", labels=["machine"])
        for row in self.store.machines():
            online.add_metric([row.name], 1.0 if fleet.is_online(row, now) else 0.0)
            if row.received_at is not None:
                seen.add_metric([row.name], row.received_at)
        yield online
        yield seen

