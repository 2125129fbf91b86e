"""A machine's report to the hub: its wire shape, and validation field by field.

A report is JSON: ``{version, machine, stream, seq, sent_at, interval_seconds, snapshot}``.
``stream`` names the agent's spool (a new spool starts its numbers again), ``seq`` counts up
within it, so (machine, stream, seq) makes a resend harmless.

The hub shows what agents send, so everything is checked before it is kept: the size, each
known field's type and range, every string's length and every list's length. Only an unusable
envelope (not JSON, nested too deep, a lone surrogate, no machine, stream or number, no
snapshot object) is refused with the reason (HTTP 400). Inside the snapshot a field of the
wrong shape or out of range is set aside (null), a string too long is cut and a list too long
is shortened, each with a note the hub counts on the machine: an exploding loss or a clock in
the wrong year is exactly when a machine must stay on the page. Fields this hub does not know
are dropped, so an agent newer than its hub still reports; only what passed the checks is ever
stored, exported or shown.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from ..snapshot import (
    BackendErrorsView,
    CountsView,
    DeliveryView,
    EventView,
    GpuMemoryView,
    HardwareView,
    LostLayerView,
    NetworkView,
    QueueView,
    RateView,
    RunView,
    Snapshot,
    SourceView,
    TodayView,
    UsualView,
    WarmupView,
    training_from_dict,
)
from .keys import NAME_PATTERN

REPORT_VERSION = 1
# waitress and Flask refuse larger bodies anyway (app.MAX_REQUEST_BODY_BYTES); agents trim
# their events to fit (see app.hub.agent).
MAX_REPORT_BYTES = 16 * 1024
DEFAULT_INTERVAL_SECONDS = 15.0
_STREAM_PATTERN = re.compile(r"[0-9a-f]{16,64}")
_STATE_PATTERN = re.compile(r"[a-z_]{1,32}")
# Unix times a report may carry: 1970 to 2100 (old logs replayed are honest; the hub's own clock
# decides what is current, so a wrong one here only mislabels its own events).
_MIN_TIME, _MAX_TIME = 0.0, 4.1e9
# A \uD800-\uDFFF escape that is not half of a pair: JSON allows it, text cannot hold it.
_LONE_SURROGATE = re.compile(
    rb"(?<!\\)(?:\\\\)*\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})(?<!\\)(?:\\\\)*\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
# Any surrogate escape at all: a quick scan that spares most reports the look above (~0.2 ms a kB).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
MAX_NOTES = 20
# While a snapshot is checked: the notes on what was set aside (None: an envelope, strict).
_notes: ContextVar[list[str] | None] = ContextVar("report_notes", default=None)


class ReportError(ValueError):
    """A report the hub refuses; the message names the field and what is wrong (sent back in a 400)."""


Check = Callable[[Any, str], Any]


@contextmanager
def _lenient() -> Iterator[list[str]]:
    notes: list[str] = []
    token = _notes.set(notes)
    try:
        yield notes
    finally:
        _notes.reset(token)


def _aside(error: ReportError, fallback: Any = None) -> Any:
    """In a snapshot: note why a value was set aside and use ``fallback``; in an envelope: refuse."""
    notes = _notes.get()
    if notes is None:
        raise error
    if len(notes) < MAX_NOTES:
        notes.append(str(error)[:200])
    return fallback


def _fail(path: str, want: str, value: Any) -> ReportError:
    got = "null" if value is None else type(value).__name__
    return ReportError(f"{path}: expected {want}, got {got}")


def number(low: float = -math.inf, high: float = math.inf, *, null: bool = True) -> Check:
    """A finite number within [low, high] (bools are refused: JSON true is not 1)."""

    def check(value: Any, path: str) -> Any:
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise _fail(path, "a number", value)
        if not low <= value <= high:
            raise ReportError(f"{path}: {value} is out of range [{low}, {high}]")
        return value

    return check


def integer(low: int = 0, high: int = 2**53, *, null: bool = True) -> Check:
    """A whole number within [low, high]."""

    def check(value: Any, path: str) -> Any:
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(path, "an integer", value)
        if not low <= value <= high:
            raise ReportError(f"{path}: {value} is out of range [{low}, {high}]")
        return value

    return check


def text(max_chars: int, *, null: bool = True, pattern: re.Pattern[str] | None = None) -> Check:
    """A string of at most ``max_chars`` characters (and matching ``pattern`` when given)."""

    def check(value: Any, path: str) -> Any:
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise _fail(path, "a string", value)
        if len(value) > max_chars:
            value = _aside(ReportError(f"{path}: longer than {max_chars} characters; cut"),
                           value[: max_chars - 1] + "…")
        if pattern is not None and not pattern.fullmatch(value):
            raise ReportError(f"{path}: {value[:40]!r} is not of the expected form")
        return value

    return check


def boolean(*, null: bool = True) -> Check:
    def check(value: Any, path: str) -> Any:
        if value is None and null:
            return None
        if not isinstance(value, bool):
            raise _fail(path, "true or false", value)
        return value

    return check


def one_of(*choices: str, null: bool = True) -> Check:
    def check(value: Any, path: str) -> Any:
        if value is None and null:
            return None
        if value not in choices:
            raise ReportError(f"{path}: expected one of {', '.join(choices)}")
        return value

    return check


def obj(fields: Mapping[str, Check], *, null: bool = True, defaults: Mapping[str, Any] | None = None) -> Check:
    """An object: the known fields checked (a missing one reads as null), the others dropped.

    In a snapshot, a field that fails its check is set aside: null, or its entry in ``defaults``.
    """

    # Each field's path under a parent's (``snapshot.rate.tokens_per_hour``), written once per
    # parent path: a report checks a hundred fields. The paths are few (the fields are fixed, a
    # list's items at most its length), so this stays small.
    plans: dict[str, tuple[tuple[str, Check, str], ...]] = {}

    def check(value: Any, path: str) -> Any:
        if value is None and null:
            return None
        if not isinstance(value, dict):
            raise _fail(path, "an object", value)
        plan = plans.get(path)
        if plan is None:
            plan = plans[path] = tuple((key, checker, f"{path}.{key}") for key, checker in fields.items())
        out: dict[str, Any] = {}
        for key, checker, field_path in plan:
            try:
                out[key] = checker(value.get(key), field_path)
            except ReportError as e:
                out[key] = _aside(e, (defaults or {}).get(key))
        return out

    return check


def list_of(item: Check, max_items: int, *, null: bool = True) -> Check:
    def check(value: Any, path: str) -> Any:
        if value is None and null:
            return None
        if not isinstance(value, list):
            raise _fail(path, "a list", value)
        if len(value) > max_items:
            value = _aside(ReportError(f"{path}: more than {max_items} items; the first kept"), value[:max_items])
        out = []
        for i, entry in enumerate(value):
            try:
                out.append(item(entry, f"{path}[{i}]"))
            except ReportError as e:
                _aside(e)  # an item that cannot be read is left out
        return out

    return check


def counts_by_code(max_codes: int) -> Check:
    """``{"503": n, …}``: three-digit codes to counts."""

    def check(value: Any, path: str) -> Any:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise _fail(path, "an object", value)
        if len(value) > max_codes:
            raise ReportError(f"{path}: more than {max_codes} codes")  # set aside whole: a count is exact or absent
        out: dict[str, int] = {}
        for code, count in value.items():
            if not (isinstance(code, str) and len(code) == 3 and code.isdigit()):
                raise ReportError(f"{path}: {str(code)[:10]!r} is not an HTTP status code")
            out[code] = integer(null=False)(count, f"{path}.{code}")
        return out

    return check


TIME = number(_MIN_TIME, _MAX_TIME)
SECONDS = number(0, 10 * 365 * 86400)
COUNT = integer()
RATE = number(0, 1e15)

SNAPSHOT = obj(
    {
        "status_line": text(300, null=False),
        "state": text(32, null=False, pattern=_STATE_PATTERN),
        "level": one_of("ok", "waiting", "warning", "problem"),
        "state_since": TIME,
        "format": text(32),
        "layer": integer(0, 100_000),
        "queue": obj({
            "position": integer(0, 10_000_000), "status": text(64), "trend_per_hour": number(-1e7, 1e7),
            "eta_seconds": SECONDS, "resets_24h": COUNT, "last_reset_at": TIME,
            # The queue entry's forensics (app/stats/iota/queue.py).
            "trend_text": text(32), "since": TIME, "best_position": integer(0, 10_000_000),
            "positions_lost": integer(0, 10**12), "entry_resets": COUNT, "resets_7d": COUNT, "restarts_7d": COUNT,
            "growing_since": TIME, "last_poll_at": TIME,
        }),
        "rate": obj({
            "measured": boolean(), "tokens_per_hour": RATE, "passes_per_hour": RATE,
            "tokens_per_pass": integer(0, 10**12), "passes_in_window": COUNT, "observed_seconds": SECONDS,
            "window_seconds": SECONDS, "last_pass_at": TIME, "was_tokens_per_hour": RATE,
        }, null=False),
        "step": integer(0, 10**15),
        "lost_layer": obj({"layer": integer(0, 100_000), "at": TIME, "text": text(200)}),
        "run": obj({"id": text(80), "epoch": integer(0, 10**9), "phase": text(40)}),
        "gpu_memory": obj({"used_gb": number(0, 1e5), "total_gb": number(0, 1e5)}),
        "backend_errors": obj({"queue_state_503": COUNT, "not_found_404": COUNT, "window_seconds": SECONDS}),
        "network": obj({"bytes_per_second": number(0, 1e13), "window_seconds": SECONDS}),
        "hardware": obj({"watts": number(0, 1e6), "temperature_c": number(-100, 300), "throttled": boolean(),
                         "wh_per_million_tokens": number(0, 1e12), "wh_per_step": number(0, 1e12), "text": text(200)}),
        # The counts the hub's /metrics exports too; never the peers' names (no per-peer label).
        "delivery": obj({"level": one_of("ok", "warning", "problem"), "share_not_delivered": number(0, 1),
                         "text": text(200), "line": text(300), "window_seconds": SECONDS, "failed": COUNT,
                         "unreachable": COUNT, "forwards": COUNT, "peers_ok": COUNT, "peers_total": COUNT}),
        "counts": obj({"passes": COUNT, "tokens": integer(0, 10**18), "backend_errors": counts_by_code(16)}),
        "details": list_of(text(1000, null=False), 40, null=False),
        "events": list_of(obj({"at": TIME, "kind": text(32), "text": text(1000)}, null=False), 50),
        "ticking": list_of(obj({"line": integer(-1, 39), "at": TIME, "template": text(1000),
                                "style": one_of("duration", "ago")}, null=False), 41),
        "usual": obj({"tokens_per_hour": RATE, "basis_hours": number(0, 1e6), "delta_percent": number(-1e6, 1e6)}),
        "today": obj({
            "tokens": integer(0, 10**18), "passes": COUNT, "training_seconds": SECONDS, "observed_seconds": SECONDS,
        }),
        "alerts": obj({"active": list_of(obj({"rule": text(40), "since": TIME, "text": text(1000)}, null=False), 20)}),
        "source": obj({"last_event_at": TIME, "problem": text(1000), "demo": boolean(), "lines_read": COUNT,
                       "bad_lines": COUNT}),
        "as_of": number(_MIN_TIME, _MAX_TIME, null=False),
        "training": obj({
            "stage": text(80), "step": integer(0, 10**15), "total_steps": integer(0, 10**15),
            "loss": number(),  # any finite loss: an exploding one (1e13 before NaN) is news, not an error
            "tokens_per_second": RATE, "tokens_per_second_scope": text(20),
            "mfu": number(-1e4, 1e4), "tokens_per_hour": RATE, "steps_per_hour": RATE,
            "seconds_since_step": SECONDS, "eta_seconds": SECONDS, "stalled": boolean(), "finished": boolean(),
            # a collaborator's (SN38, hivemind) rounds, for its card's last round (its peers stay on its machine)
            "swarm": obj({
                "rounds_ok": COUNT, "rounds_failed": COUNT, "last_good_round_at": TIME,
                "rounds": list_of(obj({"started_at": TIME, "ended_at": TIME, "peers": integer(0, 10**6),
                                       "outcome": text(10)}, null=False), 24),
            }),
        }),
    },
    null=False,
    defaults={"status_line": "", "state": "unrecognised", "details": []},
)


@dataclass(frozen=True)
class Report:
    """A validated report: only checked fields, ready to keep and show."""

    machine: str
    stream: str
    seq: int
    sent_at: float | None  # the agent's clock when it sent the report (information, never trusted)
    interval_seconds: float
    snapshot: dict[str, Any]
    notes: tuple[str, ...] = ()  # what was set aside, cut or dropped (counted on the machine)


def _reject_constant(name: str) -> Any:
    raise ReportError(f"{name} is not a number JSON allows")


def _load(body: bytes) -> Any:
    """An agent's JSON, or ReportError saying why the hub cannot read it."""
    if _SURROGATE_ESCAPE.search(body) and _LONE_SURROGATE.search(body):
        raise ReportError("not JSON text: a lone surrogate escape (\\uD800-\\uDFFF without its pair)")
    try:
        return json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
    except ReportError:
        raise
    except RecursionError as e:
        raise ReportError("not JSON a hub reads: nested too deeply") from e
    except (UnicodeDecodeError, ValueError) as e:
        raise ReportError(f"not JSON: {e}") from e


def parse_report(body: bytes) -> Report:
    """Validate a report's bytes; raise ReportError with the reason when the envelope is unusable."""
    if len(body) > MAX_REPORT_BYTES:
        raise ReportError(f"report larger than {MAX_REPORT_BYTES} bytes")
    data = _load(body)
    if not isinstance(data, dict):
        raise ReportError("a report is a JSON object")
    if data.get("version") != REPORT_VERSION:
        raise ReportError(f"version: this hub takes version {REPORT_VERSION}")
    machine = text(63, null=False, pattern=NAME_PATTERN)(data.get("machine"), "machine")
    stream = text(64, null=False, pattern=_STREAM_PATTERN)(data.get("stream"), "stream")
    seq = integer(1, 2**53, null=False)(data.get("seq"), "seq")
    with _lenient() as notes:
        unknown = sorted(set(data) - {"version", "machine", "stream", "seq", "sent_at", "interval_seconds",
                                      "snapshot"})
        if unknown:
            _aside(ReportError(f"unknown field {unknown[0][:40]!r} dropped"))
        try:
            sent_at = number(_MIN_TIME, _MAX_TIME)(data.get("sent_at"), "sent_at")
        except ReportError as e:
            sent_at = _aside(e)
        try:
            interval = number(0.1, 3600.0, null=False)(data.get("interval_seconds", DEFAULT_INTERVAL_SECONDS),
                                                     "interval_seconds")
        except ReportError as e:
            interval = _aside(e, DEFAULT_INTERVAL_SECONDS)
        if not isinstance(data.get("snapshot"), dict):
            raise _fail("snapshot", "an object", data.get("snapshot"))
        snapshot = SNAPSHOT(data.get("snapshot"), "snapshot")
    return Report(machine=machine, stream=stream, seq=seq, sent_at=None if sent_at is None else float(sent_at),
                  interval_seconds=float(interval), snapshot=snapshot, notes=tuple(notes))


def report_body(*, machine: str, stream: str, seq: int, sent_at: float, interval_seconds: float,
                snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """The report an agent sends (the inverse of :func:`parse_report`)."""
    return {
        "version": REPORT_VERSION,
        "machine": machine,
        "stream": stream,
        "seq": seq,
        "sent_at": sent_at,
        "interval_seconds": interval_seconds,
        "snapshot": dict(snapshot),
    }


def reported_snapshot(snapshot: Mapping[str, Any]) -> Snapshot:
    """A checked report's snapshot (``Report.snapshot``, as kept) as the typed Snapshot the exporter reads.

    The one place a reported dict becomes typed: what a report does not carry (the history, the
    warm-up, the source's path) reads as unknown or empty, never as a figure.
    """
    rate = snapshot.get("rate") or {}
    queue = snapshot.get("queue")
    run = snapshot.get("run")
    gpu = snapshot.get("gpu_memory")
    backend = snapshot.get("backend_errors") or {}
    network = snapshot.get("network")
    counts = snapshot.get("counts")
    usual = snapshot.get("usual")
    today = snapshot.get("today")
    source = snapshot.get("source") or {}
    lost = snapshot.get("lost_layer")
    warmup = snapshot.get("warmup") or {}
    training = snapshot.get("training")
    delivery = snapshot.get("delivery")
    hardware = snapshot.get("hardware")
    return Snapshot(
        status_line=snapshot["status_line"],
        state=snapshot["state"],
        format=snapshot.get("format"),
        layer=snapshot.get("layer"),
        queue=None if queue is None else QueueView(
            position=queue.get("position"), status=queue.get("status") or "", trend_per_hour=queue.get("trend_per_hour"),
            eta_seconds=queue.get("eta_seconds"), resets_24h=queue.get("resets_24h") or 0,
            last_reset_at=queue.get("last_reset_at"),
            trend_text=queue.get("trend_text"), since=queue.get("since"), best_position=queue.get("best_position"),
            positions_lost=queue.get("positions_lost") or 0, entry_resets=queue.get("entry_resets") or 0,
            resets_7d=queue.get("resets_7d") or 0, restarts_7d=queue.get("restarts_7d") or 0,
            growing_since=queue.get("growing_since"), last_poll_at=queue.get("last_poll_at"),
        ),
        rate=RateView(
            measured=rate.get("measured") is True, tokens_per_hour=rate.get("tokens_per_hour"),
            passes_per_hour=rate.get("passes_per_hour"), tokens_per_pass=rate.get("tokens_per_pass"),
            passes_in_window=rate.get("passes_in_window") or 0, observed_seconds=rate.get("observed_seconds") or 0.0,
            window_seconds=rate.get("window_seconds") or 0.0, last_pass_at=rate.get("last_pass_at"),
            was_tokens_per_hour=rate.get("was_tokens_per_hour"),
        ),
        warmup=WarmupView(passes=warmup.get("passes") or 0, passes_needed=warmup.get("passes_needed") or 0,
                          observed_seconds=warmup.get("observed_seconds") or 0.0,
                          seconds_needed=warmup.get("seconds_needed") or 0.0,
                          done=rate.get("measured") is True if warmup.get("done") is None else warmup["done"] is True),
        step=snapshot.get("step"),
        run=None if run is None else RunView(id=run.get("id"), epoch=run.get("epoch"), phase=run.get("phase")),
        gpu_memory=None if gpu is None or gpu.get("used_gb") is None else GpuMemoryView(
            used_gb=gpu.get("used_gb"), total_gb=gpu.get("total_gb")),
        backend_errors=BackendErrorsView(
            queue_state_503=backend.get("queue_state_503") or 0, not_found_404=backend.get("not_found_404") or 0,
            window_seconds=backend.get("window_seconds") or 0.0,
        ),
        details=tuple(snapshot.get("details") or ()),
        history=(),
        source=SourceView(
            path=None, size_bytes=None, lines_read=source.get("lines_read") or 0,
            bad_lines=source.get("bad_lines") or 0, last_event_at=source.get("last_event_at"),
            problem=source.get("problem"), demo=source.get("demo") is True,
        ),
        as_of=snapshot["as_of"],
        training=None if training is None else training_from_dict(training),
        state_since=snapshot.get("state_since"),
        events=tuple(EventView(at=e.get("at"), kind=e.get("kind"), text=e.get("text") or e.get("kind"))
                     for e in snapshot.get("events") or () if e.get("at") is not None and e.get("kind") is not None),
        network=None if network is None or network.get("bytes_per_second") is None else NetworkView(
            bytes_per_second=network.get("bytes_per_second"), window_seconds=network.get("window_seconds") or 0.0),
        usual=None if usual is None or usual.get("tokens_per_hour") is None else UsualView(
            tokens_per_hour=usual.get("tokens_per_hour"), basis_hours=usual.get("basis_hours") or 0.0,
            delta_percent=usual.get("delta_percent")),
        today=None if today is None else TodayView(
            tokens=today.get("tokens") or 0, passes=today.get("passes") or 0,
            training_seconds=today.get("training_seconds") or 0.0, observed_seconds=today.get("observed_seconds") or 0.0),
        alerts=snapshot.get("alerts"),
        counts=None if counts is None else CountsView(
            passes=counts.get("passes") or 0, tokens=counts.get("tokens") or 0,
            backend_errors=dict(counts.get("backend_errors") or {})),
        lost_layer=None if lost is None or lost.get("layer") is None or lost.get("at") is None else LostLayerView(
            layer=lost["layer"], at=lost["at"], text=lost.get("text") or ""),
        # An older agent's delivery carries no counts: none is exported rather than a 0 it never said.
        delivery=None if delivery is None or delivery.get("failed") is None or delivery.get("unreachable") is None
        else DeliveryView(
            window_seconds=delivery.get("window_seconds") or 0.0, failed=delivery["failed"],
            unreachable=delivery["unreachable"], forwards=delivery.get("forwards") or 0,
            share_not_delivered=delivery.get("share_not_delivered"), peers_ok=delivery.get("peers_ok"),
            peers_total=delivery.get("peers_total"), peers_named=(), level=delivery.get("level") or "ok",
            text=delivery.get("text"), line=delivery.get("line") or ""),
        hardware=None if hardware is None else HardwareView(
            tool=None, watts=hardware.get("watts"), temperature_c=hardware.get("temperature_c"),
            throttled=hardware.get("throttled"), throttle_reasons=(), at=None, mean_watts=None,
            wh_per_million_tokens=hardware.get("wh_per_million_tokens"), wh_per_step=hardware.get("wh_per_step"),
            strip=(), text=hardware.get("text"), problem=None),
    )


# --- a machine's own history, sent once it enrols and after it was offline ----------------------

HISTORY_PATH = "/hub/history"
# A batch fits the hub's request cap (app.web's MAX_REQUEST_BODY_BYTES); the hub keeps each in one
# transaction. A week of an agent's history (a minute each for 48 h, 5 minutes before) is 15 batches.
MAX_HISTORY_POINTS = 300
MAX_HISTORY_BYTES = MAX_REPORT_BYTES
_POINT = (
    integer(int(_MIN_TIME), int(_MAX_TIME), null=False),  # the minute (unix seconds)
    number(0, 1e15),  # tok/h, null while not measured
    text(32, null=False, pattern=_STATE_PATTERN),  # the state
    integer(0, 10**7),  # queue position
    integer(0, 100_000),  # layer, as a report's
)


@dataclass(frozen=True)
class HistoryBatch:
    """Minutes from an agent's own history: ``[t, tokens_per_hour, state, queue_position, layer]`` each.

    ``set_aside``: the points that failed their checks (left out, the rest kept); ``sent_at``: the
    agent's clock when it sent the batch (None from an older agent).
    """

    machine: str
    points: list[tuple[int, float | None, str, int | None, int | None]]
    set_aside: int = 0
    last_note: str | None = None
    sent_at: float | None = None
    reports: int = 0  # the spooled reports these minutes stand for (a backlog after an outage), else 0


def parse_history(body: bytes) -> HistoryBatch:
    """Validate a history batch's bytes (``{machine, points}``); raise ReportError with the reason."""
    if len(body) > MAX_HISTORY_BYTES:
        raise ReportError(f"history larger than {MAX_HISTORY_BYTES} bytes")
    data = _load(body)
    if not isinstance(data, dict) or not {"machine", "points"} <= set(data):
        raise ReportError("a history batch is a JSON object with machine and points")
    machine = text(63, null=False, pattern=NAME_PATTERN)(data.get("machine"), "machine")
    try:
        sent_at = number(_MIN_TIME, _MAX_TIME)(data.get("sent_at"), "sent_at")
    except ReportError:
        sent_at = None  # then the points are taken on the agent's clock, as from an older agent
    reports = integer(0, MAX_HISTORY_POINTS)(data.get("reports"), "reports") or 0
    raw = data.get("points")
    if not isinstance(raw, list) or len(raw) > MAX_HISTORY_POINTS:
        raise ReportError(f"points: expected a list of at most {MAX_HISTORY_POINTS}")
    points = []
    set_aside, last_note = 0, None
    for i, point in enumerate(raw):
        # One point that fails is left out and counted; the batch's other minutes are kept.
        try:
            if not isinstance(point, list) or len(point) != len(_POINT):
                raise ReportError(f"points[{i}]: expected [t, tokens_per_hour, state, queue_position, layer]")
            t, tph, state, queue, layer = (check(value, f"points[{i}][{j}]")
                                           for j, (check, value) in enumerate(zip(_POINT, point, strict=True)))
        except ReportError as e:
            set_aside, last_note = set_aside + 1, str(e)
            continue
        points.append((int(t), None if tph is None else float(tph), str(state), queue, layer))
    return HistoryBatch(machine=machine, points=points, set_aside=set_aside, last_note=last_note,
                        sent_at=None if sent_at is None else float(sent_at), reports=reports)
