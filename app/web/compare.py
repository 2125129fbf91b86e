"""Runs side by side: ``/api/runs`` (what may be compared) and ``/api/compare`` (runs on one axis).

Same token rules as ``/api/snapshot``; which logs may be opened is
:class:`app.compare.catalogue.Catalogue`'s rule (the history's runs, the logs given with
``--compare``, the followed folder's logs), the same for every client.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Flask, Response, current_app, request

from ..record.encode import chart_json
from ..store.queries import find_source
from ..store.spans import Span, span_figures, weeks
from ..text import clock_time
from . import security
from .routes import WebState, web_state
from .static import compress_page

if TYPE_CHECKING:
    from ..compare.catalogue import Catalogue, Followed
    from ..compare.view import RunFigures

bp = Blueprint("compare", __name__)
STATE_KEY = "tokwatch.compare"
READER_KEY = "tokwatch.compare.fleet"


def init_app(app: Flask, state: WebState) -> None:
    """Register the routes over a catalogue of the state's history, followed log and --compare logs.

    The catalogue (and the compare code under it) is built on the first request that needs it:
    a server nobody compares on never loads it.
    """
    app.extensions[STATE_KEY] = None
    app.register_blueprint(bp)


def _build_catalogue(state: WebState) -> Catalogue:
    from ..compare.catalogue import Catalogue, Followed

    config, recorder, feed = state.config, state.recorder, state.feed

    def followed() -> Followed:
        current = feed.snapshot().source.path
        return Followed(config.log_path, Path(current) if current else None)

    def live_source() -> tuple[str, str] | None:
        source = recorder.source
        return (source.machine, source.key) if source.kind == "steps" else None

    history = recorder.history
    reader = history.read if history.path is not None else None
    return Catalogue(reader, followed, config.compare_paths, live_source, config.format_name)


_BUILD_LOCK = threading.Lock()


def catalogue() -> Catalogue:
    found: Catalogue | None = current_app.extensions[STATE_KEY]
    if found is None:
        with _BUILD_LOCK:  # one catalogue per app, however many requests ask at once
            found = current_app.extensions[STATE_KEY]
            if found is None:
                found = current_app.extensions[STATE_KEY] = _build_catalogue(web_state())
    return found


@bp.before_request
def guard() -> None:
    security.require_token(web_state().config)


def _json(body: object) -> Response:
    response = Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return compress_page(response)


@bp.get("/api/runs")
def runs() -> Response:
    """The runs a comparison may show: the history's, the --compare logs', and the live run's id."""
    listing = catalogue().listing()
    listing["fleet"] = _fleet_runs()
    return _json(listing)


def _reader() -> Any:
    """An agent's reader of its hub's runs (made on first use), or None on a dashboard with no hub."""
    config = web_state().config
    if config.report_to is None or config.report_key is None:
        return None
    found = current_app.extensions.get(READER_KEY)
    if found is None:
        from ..hub.agent import report_url
        from ..hub.run_sender import FleetRunsReader, runs_url

        found = current_app.extensions.setdefault(
            READER_KEY, FleetRunsReader(url=runs_url(report_url(config.report_to)), key=config.report_key))
    return found


def _fleet_runs() -> list[dict[str, Any]]:
    """The trainer runs the fleet's machines reported (``m:MACHINE:RUN``): a hub's own, or an agent's
    hub's, read through it; else none."""
    if "tokwatch.hub" in current_app.extensions:
        from .hub_runs import machine_runs

        return machine_runs().listing()
    reader = _reader()
    return [] if reader is None else list(reader.listing())


def _fleet_run(run_id: str) -> RunFigures:
    """A run a fleet machine reported, as any run is drawn; a 404 when there is none, a 502 when the
    agent's hub cannot be read."""
    from ..hub.runs import split_key
    from ..outgoing import DeadlineExceeded
    from .hub_runs import figures, machine_runs

    parts = split_key(run_id)
    if parts is not None and "tokwatch.hub" in current_app.extensions:
        run = machine_runs().run(*parts)
        if run is not None:
            return figures(parts[0], run)
    elif parts is not None and (reader := _reader()) is not None:
        try:
            found = reader.run(run_id)
        except (OSError, DeadlineExceeded, ValueError, KeyError, TypeError) as e:
            security.refuse(502, f"{run_id}: the hub could not be read ({type(e).__name__})")
        if found is not None:
            return figures(*found)
    security.refuse(404, f"{run_id}: no such run reported to the hub")


@bp.get("/api/compare")
def compare() -> Response:
    """Two or more runs (``run=ID``, repeated) on one axis (``x=step``, the default, or ``time``)."""
    from ..compare.catalogue import MAX_RUNS, RunNotFound, RunRefused
    from ..compare.view import AXES, comparison

    axis = request.args.get("x", "step")
    if axis not in AXES:
        security.refuse(400, f"x must be one of {', '.join(AXES)}")
    ids = list(dict.fromkeys(request.args.getlist("run")))
    if not ids:
        security.refuse(400, "name the runs: run=ID, repeated (GET /api/runs lists them)")
    if len(ids) > MAX_RUNS:
        security.refuse(400, f"at most {MAX_RUNS} runs at once")
    found = []
    for run_id in ids:
        if run_id.startswith("m:"):
            if axis == "time":
                security.refuse(400, "a fleet machine's run is compared by step (its times stay on the machine)")
            found.append(_fleet_run(run_id))
            continue
        try:
            found.append(catalogue().figures(run_id, with_times=axis == "time"))
        except RunRefused as e:
            security.refuse(403, str(e))
        except RunNotFound as e:
            security.refuse(404, str(e))
    return _body(chart_json(comparison(found, "time" if axis == "time" else "step")))


def _body(text: str) -> Response:
    response = Response(text, mimetype="application/json")
    return compress_page(response)


def _span(name: str, default: Span, now: float) -> Span:
    """``a=START,END`` (unix seconds) as a span, or ``default``; a 400 when it does not read."""
    given = request.args.get(name)
    if not given:
        return default
    try:
        start, end = (float(part) for part in given.split(","))
    except ValueError:
        security.refuse(400, f"{name} is START,END in unix seconds")
    if not 0 < start < end:
        security.refuse(400, f"{name}: START must come before END")
    return Span(start, end, f"{clock_time(start, now)}–{clock_time(end, now)}")


@bp.get("/api/compare/spans")
def spans() -> Response:
    """A miner's tok/h over two spans (``a``, ``b``: START,END; default this week and last week), per layer."""
    from ..compare.view import span_lines

    state = web_state()
    recorder = state.recorder
    now = recorder.history.clock()
    this_week, last_week = weeks(now)
    chosen = (_span("a", this_week, now), _span("b", last_week, now))
    source = recorder.source

    def read(conn: sqlite3.Connection) -> list[dict[str, Any]] | None:
        sid = find_source(conn, source)
        return None if sid is None else [span_figures(conn, sid, span, now) for span in chosen]

    found = recorder.history.read(read)
    figures = found or [{"label": span.label, "from": span.start, "to": span.end, "layers": {}, "points": []}
                        for span in chosen]
    return _json({"kind": source.kind, "spans": figures, "lines": span_lines(figures),
                  "problem": None if found is not None else "no history kept for this log yet"})
