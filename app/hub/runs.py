"""A trainer's run as its machine's agent reports it to a hub: the run's whole-run loss curve, so a
run on one machine can be overlaid with a run on another ("compare with… rig-b: <run name>").

Bounded at every step. An agent sends what the whole-run chart reads (every loss up to
:data:`app.store.losses.LOSS_POINTS`, else each bucket's lowest and highest), never every step of
a long run; the hub keeps the newest :data:`MAX_RUNS_PER_MACHINE` runs of each machine, one row
each, in its own table of ``hub.sqlite3`` (the machines' reports and minutes are not touched).
A body is checked whole before anything is kept: a bad one is a 400 with the reason in words.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..store.losses import LOSS_POINTS
from .keys import bearer_token
from .store import HubStore

if TYPE_CHECKING:
    from ..compare.view import RunFigures

RUNS_PATH = "/hub/runs"
# A run's curve, the whole-run chart's points (6,400 [step, loss] pairs are about 150 kB as JSON),
# goes in parts each under the servers' cap on a request body (16 KiB), at most MAX_PARTS of them.
MAX_PART_BYTES = 16 * 1024
MAX_PARTS = 64
MAX_LOSS_POINTS = LOSS_POINTS
MAX_EVALS = 8  # evaluation names a run carries
MAX_EVAL_POINTS = 2000  # points each
MAX_RUNS_PER_MACHINE = 8  # the newest runs kept per machine; an older one goes
MAX_TEXT = 200  # a run's id and name, at most
MAX_STEP = 10**12
# Parts one key may send: an agent sends its run when it has moved on, every few minutes at most.
RATE_BURST = 2 * MAX_PARTS  # two whole runs at once
RATE_PER_SECOND = 0.5
_UPLOAD = re.compile(r"[A-Za-z0-9_-]{8,32}")
_EVAL_NAME = re.compile(r"[A-Za-z0-9_.:/ -]{1,40}")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS machine_run (
    name TEXT NOT NULL,
    run_id TEXT NOT NULL,
    received_at REAL NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (name, run_id)
) WITHOUT ROWID;
"""
Point = tuple[int, float]


class RunReportError(ValueError):
    """A run body the hub does not keep; the message says why."""


@dataclass(frozen=True, slots=True)
class ReportedRun:
    """One run as an agent reported it, checked."""

    run_id: str
    name: str
    stage: str
    started_at: float | None
    first_step: int
    last_step: int
    loss_bucket_steps: int
    loss: list[Point]
    evals: dict[str, list[Point]]
    final_loss: Point | None
    best_loss: Point | None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.run_id, "name": self.name, "stage": self.stage, "started_at": self.started_at,
                "first_step": self.first_step, "last_step": self.last_step,
                "loss_bucket_steps": self.loss_bucket_steps, "loss": [list(p) for p in self.loss],
                "evals": {name: [list(p) for p in points] for name, points in self.evals.items()},
                "final_loss": None if self.final_loss is None else list(self.final_loss),
                "best_loss": None if self.best_loss is None else list(self.best_loss)}


def _text(value: Any, what: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str) or not value or len(value) > limit or not value.isprintable():
        raise RunReportError(f"{what} must be printable text of 1 to {limit} characters")
    return value


def _step(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_STEP:
        raise RunReportError(f"{what} must be a step from 0 to {MAX_STEP}")
    return value


def _point(value: Any, what: str) -> Point:
    if not isinstance(value, list) or len(value) != 2:
        raise RunReportError(f"{what} must be [step, value]")
    step, loss = value
    if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not math.isfinite(loss):
        raise RunReportError(f"{what}: the value must be a finite number")
    return _step(step, what), float(loss)


def _points(value: Any, what: str, limit: int) -> list[Point]:
    if not isinstance(value, list) or len(value) > limit:
        raise RunReportError(f"{what} must be a list of at most {limit} [step, value] points")
    points = [_point(p, what) for p in value]
    if any(b[0] < a[0] for a, b in itertools.pairwise(points)):
        raise RunReportError(f"{what} must be in step order")
    return points


def _json_object(body: bytes) -> dict[str, Any]:
    if len(body) > MAX_PART_BYTES:
        raise RunReportError(f"a part larger than {MAX_PART_BYTES} bytes")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as e:
        raise RunReportError("a run's part is a JSON object") from e
    if not isinstance(data, dict) or not isinstance(data.get("run"), dict):
        raise RunReportError('a run\'s part is {"machine": NAME, "upload": ID, "part": K, "parts": N, "run": {...}}')
    return data


def check_run(run: dict[str, Any]) -> ReportedRun:
    """A run put together from its parts, checked whole (raises RunReportError)."""
    evals = run.get("evals", {})
    if not isinstance(evals, dict) or len(evals) > MAX_EVALS:
        raise RunReportError(f"evals must be an object of at most {MAX_EVALS} names")
    for name in evals:
        if not _EVAL_NAME.fullmatch(name):
            raise RunReportError("an evaluation's name is 1 to 40 letters, digits and _ . : / - or spaces")
    started = run.get("started_at")
    if started is not None and (isinstance(started, bool) or not isinstance(started, (int, float))
                                or not math.isfinite(started) or started < 0):
        raise RunReportError("started_at must be unix seconds or null")
    width = run.get("loss_bucket_steps", 1)
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_STEP:
        raise RunReportError("loss_bucket_steps must be a whole number of steps, 1 or more")
    first, last = _step(run.get("first_step"), "first_step"), _step(run.get("last_step"), "last_step")
    if last < first:
        raise RunReportError("last_step comes before first_step")
    return ReportedRun(
        run_id=_text(run.get("id"), "id"), name=_text(run.get("name"), "name"),
        stage=_text(run.get("stage", "train"), "stage", 40),
        started_at=None if started is None else float(started), first_step=first, last_step=last,
        loss_bucket_steps=width, loss=_points(run.get("loss"), "loss", MAX_LOSS_POINTS),
        evals={name: _points(points, f"evals.{name}", MAX_EVAL_POINTS) for name, points in evals.items()},
        final_loss=None if run.get("final_loss") is None else _point(run["final_loss"], "final_loss"),
        best_loss=None if run.get("best_loss") is None else _point(run["best_loss"], "best_loss"),
    )


def run_parts(machine: str, run: RunFigures, upload: str, max_bytes: int = MAX_PART_BYTES - 512) -> list[bytes]:
    """What an agent sends of its run (``POST /hub/runs``, one request a part): the points its
    whole-run chart draws (already bucketed past :data:`LOSS_POINTS`), its evaluations, and its
    final and best loss as computed from every loss logged, cut into parts under the hub's cap on
    a request body."""
    def finite(points: list[tuple[int, float | None]], limit: int) -> list[list[Any]]:
        kept = [[s, v] for s, v in points if v is not None and math.isfinite(v)]
        return kept[-limit:]

    header = {"id": run.run_id[:MAX_TEXT], "name": run.name[:MAX_TEXT], "stage": run.stage[:40] or "train",
              "started_at": run.started_at, "first_step": run.first_step or 0,
              "last_step": max(run.last_step or 0, run.first_step or 0), "loss_bucket_steps": run.loss_bucket_steps,
              "final_loss": None if run.final_loss is None else list(run.final_loss),
              "best_loss": None if run.best_loss is None else list(run.best_loss)}
    series = [("loss", finite(list(run.loss), MAX_LOSS_POINTS))] + [
        (name, finite(points, MAX_EVAL_POINTS)) for name, points in sorted(run.evals.items())[:MAX_EVALS]
        if _EVAL_NAME.fullmatch(name)]
    pieces: list[dict[str, Any]] = []
    room = max_bytes - len(json.dumps({"machine": machine, "upload": upload, "part": MAX_PARTS,
                                       "parts": MAX_PARTS, "run": header}, ensure_ascii=False)) - 64
    piece: dict[str, list[list[Any]]] = {}
    used = 0
    for name, points in series:
        piece.setdefault(name, [])
        used += len(name) + 8
        for point in points:
            size = len(json.dumps(point)) + 2
            if used + size > room and any(piece.values()):
                pieces.append(piece)
                piece, used = {name: []}, len(name) + 8
            piece[name].append(point)
            used += size
    pieces.append(piece)
    bodies = []
    for k, part in enumerate(pieces):
        body = {"machine": machine, "upload": upload, "part": k, "parts": len(pieces),
                "run": {**header, "loss": part.get("loss", []),
                        "evals": {name: points for name, points in part.items() if name != "loss"}}}
        bodies.append(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode())
    return bodies


def run_from_json(data: dict[str, Any]) -> ReportedRun:
    """A kept run's row back as a run (it was checked when it came in)."""
    def pair(p: list[Any] | None) -> Point | None:
        return None if p is None else (int(p[0]), float(p[1]))

    return ReportedRun(
        run_id=data["id"], name=data["name"], stage=data["stage"], started_at=data["started_at"],
        first_step=data["first_step"], last_step=data["last_step"], loss_bucket_steps=data["loss_bucket_steps"],
        loss=[(int(s), float(v)) for s, v in data["loss"]],
        evals={name: [(int(s), float(v)) for s, v in points] for name, points in data["evals"].items()},
        final_loss=pair(data["final_loss"]), best_loss=pair(data["best_loss"]),
    )


class MachineRuns:
    """The runs agents reported, in ``machine_run`` of the hub's file; a connection per call, so
    nothing is held open between requests and the hub's own store is not touched."""

    def __init__(self, store: HubStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        # machine → (upload, parts, the run's header, part → its loss and evals): one upload held each.
        self._pending: dict[str, tuple[str, int, str, dict[int, tuple[list[Any], dict[str, Any]]]]] = {}
        self._lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.store.path, isolation_level=None, timeout=5.0)
        conn.execute("PRAGMA busy_timeout=5000")
        conn.executescript(_SCHEMA)
        return conn

    def _spend(self, machine: str, now: float) -> float:
        with self._lock:
            allowed, at = self._buckets.get(machine, (float(RATE_BURST), now))
            allowed = min(float(RATE_BURST), allowed + max(0.0, now - at) * RATE_PER_SECOND)
            if allowed < 1.0:
                self._buckets[machine] = (allowed, now)
                return (1.0 - allowed) / RATE_PER_SECOND
            self._buckets[machine] = (allowed - 1.0, now)
            return 0.0

    def check_key(self, authorization: str | None) -> tuple[int, dict[str, Any]]:
        """(200, {"machine": NAME}) for an enrolled machine's key within its rate, else the refusal."""
        key = bearer_token(authorization)
        machine = None if key is None else self.store.machine_for_key(key)
        if key is None:
            return 401, {"error": "missing report key (Authorization: Bearer <key from tokwatch hub enroll>)"}
        if machine is None:
            return 401, {"error": "unknown or revoked report key; enrol this machine again on the hub"}
        wait = self._spend(machine, self.clock())
        if wait > 0:
            return 429, {"error": "too many runs from this key; try again", "retry_after": wait}
        return 200, {"machine": machine}

    def take(self, authorization: str | None, body: bytes) -> tuple[int, dict[str, Any]]:
        """Keep one run a machine reported: (HTTP status, JSON answer). The key is checked first."""
        status, checked = self.check_key(authorization)
        if status != 200:
            return status, checked
        machine: str = checked["machine"]
        now = self.clock()
        try:
            data = _json_object(body)
            named = _text(data.get("machine"), "machine", 64)
            if named != machine:
                return 403, {"error": f"this key belongs to {machine}, not {named}"}
            run = self._put_together(machine, data)
        except RunReportError as e:
            return 400, {"error": str(e)}
        if run is None:
            return 200, {"part": data["part"], "parts": data["parts"]}
        text = json.dumps(run.as_json(), ensure_ascii=False, separators=(",", ":"))
        try:
            with closing(self._connect()) as conn:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT OR REPLACE INTO machine_run VALUES (?, ?, ?, ?)", (machine, run.run_id, now, text))
                conn.execute(
                    "DELETE FROM machine_run WHERE name = ? AND run_id NOT IN (SELECT run_id FROM machine_run"
                    " WHERE name = ? ORDER BY received_at DESC LIMIT ?)", (machine, machine, MAX_RUNS_PER_MACHINE))
                conn.execute("COMMIT")
        except sqlite3.Error:
            return 503, {"error": "the hub cannot keep runs right now; try again"}
        return 200, {"taken": run.run_id, "points": len(run.loss)}

    def _put_together(self, machine: str, data: dict[str, Any]) -> ReportedRun | None:
        """Hold one part of a machine's run; the run checked whole once its last part is in, else None.

        One upload a machine at a time: a part of a new upload drops the parts of the one before
        (an agent that gave up on it), so a machine holds at most MAX_PARTS parts of 16 KiB."""
        upload, part, parts = data.get("upload"), data.get("part"), data.get("parts")
        if not isinstance(upload, str) or not _UPLOAD.fullmatch(upload):
            raise RunReportError("upload is 8 to 32 letters, digits, _ or -")
        if isinstance(parts, bool) or not isinstance(parts, int) or not 1 <= parts <= MAX_PARTS:
            raise RunReportError(f"parts is a whole number from 1 to {MAX_PARTS}")
        if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < parts:
            raise RunReportError("part is a whole number from 0 to parts - 1")
        run = data["run"]
        loss, evals = run.get("loss", []), run.get("evals", {})
        if not isinstance(loss, list) or not isinstance(evals, dict):
            raise RunReportError("a part's loss is a list and its evals an object")
        header = json.dumps({k: v for k, v in run.items() if k not in ("loss", "evals")}, sort_keys=True)
        with self._lock:
            held = self._pending.get(machine)
            if held is None or held[0] != upload:
                held = (upload, parts, header, {})
                self._pending[machine] = held
            if (held[1], held[2]) != (parts, header):
                raise RunReportError("a part that does not match the upload's other parts")
            held[3][part] = (loss, evals)
            if len(held[3]) < parts:
                return None
            del self._pending[machine]
        whole: dict[str, Any] = {**json.loads(header), "loss": [], "evals": {}}
        for k in range(parts):
            piece_loss, piece_evals = held[3][k]
            whole["loss"] += piece_loss
            for name, points in piece_evals.items():
                if not isinstance(points, list):
                    raise RunReportError(f"evals.{name} must be a list")
                whole["evals"].setdefault(name, []).extend(points)
        return check_run(whole)

    def listing(self) -> list[dict[str, Any]]:
        """Every enrolled machine's reported runs, newest first: what ``compare with…`` offers."""
        with closing(self._connect()) as conn:
            rows = conn.execute(
                "SELECT r.name, r.received_at, r.body FROM machine_run r JOIN machine m ON m.name = r.name"
                " WHERE m.revoked_at IS NULL ORDER BY r.received_at DESC, r.name").fetchall()
        listed = []
        for name, received_at, body in rows:
            data = json.loads(body)
            listed.append({"id": run_key(name, data["id"]), "machine": name, "name": f"{name}: {data['name']}",
                           "stage": data["stage"], "first_step": data["first_step"],
                           "last_step": data["last_step"], "received_at": received_at})
        return listed

    def run(self, machine: str, run_id: str) -> ReportedRun | None:
        """One reported run of an enrolled machine, or None."""
        with closing(self._connect()) as conn:
            row = conn.execute(
                "SELECT r.body FROM machine_run r JOIN machine m ON m.name = r.name"
                " WHERE r.name = ? AND r.run_id = ? AND m.revoked_at IS NULL", (machine, run_id)).fetchone()
        return None if row is None else run_from_json(json.loads(row[0]))


def run_key(machine: str, run_id: str) -> str:
    """A reported run's id in a comparison: ``m:MACHINE:RUN`` (a machine's name has no colon)."""
    return f"m:{machine}:{run_id}"


def split_key(key: str) -> tuple[str, str] | None:
    """``m:MACHINE:RUN`` back as (machine, run), or None."""
    if not key.startswith("m:"):
        return None
    machine, sep, run_id = key[2:].partition(":")
    return (machine, run_id) if sep and machine and run_id else None

