"""The dashboard's routes: the page, the snapshot JSON, a health check and the live websocket.

Thin on purpose: figures come from the monitor through the one serializer
(:func:`app.snapshot.to_json`), pushing is :mod:`app.web.broadcast`'s job, and who may ask is
:mod:`app.web.security`'s.
"""

from __future__ import annotations

import csv
import io
import json
import logging
from dataclasses import dataclass

from flask import Blueprint, Response, current_app, g, make_response, render_template, request
from markupsafe import Markup
from simple_websocket import Server

from ..alerts import AlertService
from ..allocator import TRIMMER
from ..config import Config
from ..live.feed import LiveFeed
from ..record.recorder import Recorder
from ..snapshot import to_dict, to_json
from ..states import OVER_STATES, STATE_EXPLANATIONS, STATE_WORDS
from ..store import RANGES
from ..supervise import problems as thread_problems
from ..text import visible
from . import security
from .broadcast import Broadcaster
from .headline import Headline, headline
from .pairing import phone_url, qr_svg
from .static import StaticFiles, compress_page, inline_style
from .websocket import SERVER_ROLE_KEY, session, sock, vet_handshake

log = logging.getLogger(__name__)

bp = Blueprint("web", __name__)
# The page's stylesheets, in the order they apply: inlined in its head, so its first paint needs nothing else.
PAGE_STYLES = ("vendor/uplot/uPlot.min.css", "base.css", "style.css")
# The dashboard's websocket and the hub's fleet push, both on the websocket port.
WEBSOCKET_PATHS = frozenset({"/ws", "/ws/fleet"})
WEBSOCKET_ENDPOINTS = frozenset({"web.ws", "hub.fleet_socket"})


@dataclass(frozen=True)
class WebState:
    """What the routes work with, kept in ``app.extensions["tokwatch"]``."""

    config: Config
    feed: LiveFeed
    broadcaster: Broadcaster
    recorder: Recorder
    alerts: AlertService | None = None


def web_state() -> WebState:
    """The current app's WebState."""
    state: WebState = current_app.extensions["tokwatch"]
    return state


@bp.before_app_request
def keep_servers_to_their_roles() -> None:
    """The websocket port serves only the websockets, and the HTTP port says where they are."""
    role = request.environ.get(SERVER_ROLE_KEY)
    if role == "ws" and request.path not in WEBSOCKET_PATHS:
        security.refuse(404, "this port serves only the websockets (/ws, /ws/fleet)")
    if role == "http" and request.endpoint in WEBSOCKET_ENDPOINTS:
        port = web_state().config.effective_ws_port
        security.refuse(400, f"the websocket is served on port {port}, not on this one")


@bp.before_request
def guard() -> None:
    """Ask for the token on the API and the websocket; vet a websocket handshake before it is accepted."""
    state = web_state()
    if request.path.startswith("/api/"):
        security.require_token(state.config)
    elif request.endpoint == "web.ws":  # Werkzeug routes here only a websocket handshake
        vet_handshake(state.config, state.broadcaster, full="too many live dashboards open; close one and reload")


def index() -> Response:
    """Render the page (gzipped when the browser takes it), with the headline when no token guards the figures.

    create_app registers it at ``/``, unless this is a hub following no log (its index is the fleet).
    """
    return compress_page(make_response(render_index()))


def render_index() -> str:
    """The page's HTML.

    Where ``/api/snapshot`` answers without a token (a server on loopback only), the page carries the
    live snapshot's headline (app/web/headline.py), so its first paint reads the state; where a token
    guards the figures, the page holds none and needs none.
    """
    state = web_state()
    config = state.config
    top = page_headline(state.feed) if config.token is None else None
    files: StaticFiles = current_app.extensions["tokwatch.static"]
    styles = inline_style(files, PAGE_STYLES)
    g.setdefault(security.STYLE_HASHES_KEY, []).append(styles.csp_hash)
    return render_template(
        "index.html",
        headline=top,
        styles=Markup(styles.text),  # our own sheets, checked to hold no </style
        ws_port=config.effective_ws_port,
        token_required=config.token is not None,
        keepalive_seconds=config.keepalive_seconds,
        pairing=pairing_card(config),
        state_words=STATE_WORDS,
        state_explanations=STATE_EXPLANATIONS,
        over_states=OVER_STATES,
    )


def page_headline(feed: LiveFeed) -> Headline | None:
    """The live headline for the page's HTML, or None where the snapshot fails: the page then draws
    it from its first live snapshot, as a page behind a token does, instead of answering 500."""
    try:
        return headline(to_dict(feed.snapshot()))
    except Exception as exc:  # noqa: BLE001 — the page must load whatever the snapshot does
        log.warning("the page is served without its headline: %s", type(exc).__name__)
        return None


@bp.get("/pairing.svg")
def pairing_qr() -> Response:
    """The phone's link (with the token) as a QR code, for the page on this machine only."""
    config = web_state().config
    link = pairing_link(config)
    if link is None or not security.from_this_machine(config):
        security.refuse(404, "the pairing code is shown only on the machine running tokwatch, in LAN mode")
    response = Response(qr_svg(link), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


def pairing_card(config: Config) -> str | None:
    """Which "Open on your phone" card a page shows: "qr", "loopback", or none (not this machine)."""
    if not security.from_this_machine(config):
        return None
    return "loopback" if config.loopback_only else "qr" if pairing_link(config) else None


def pairing_link(config: Config) -> str | None:
    """The phone's URL, found once per app (the LAN address does not change under a running server)."""
    cache: dict[str, str | None] = current_app.extensions.setdefault("tokwatch.pairing", {})
    if "link" not in cache:
        cache["link"] = phone_url(config)
    return cache["link"]


@bp.get("/api/snapshot")
def snapshot() -> Response:
    """Return the current snapshot as JSON (the same text a websocket message carries).

    The header says where /ws is now: a page loaded before a restart on another websocket port
    reloads (its CSP names the old port) instead of knocking at the old one forever.
    """
    state = web_state()
    response = Response(to_json(state.feed.snapshot()), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Tokwatch-WS-Port"] = str(state.config.effective_ws_port)
    return response


@bp.get("/api/report.txt")
def report() -> Response:
    """Return the queue report as plain text, for a miner to paste into a bug report."""
    # A log path in bytes that are not UTF-8 shows as \xff escapes (the text cannot be encoded otherwise).
    response = Response(visible(web_state().feed.queue_report()), mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response


# Where the process keeps this machine's agent (app.hub.agent.Agent), when it reports to a hub.
AGENT_KEY = "tokwatch.agent"


@bp.get("/healthz")
def healthz() -> Response:
    """Say the server is up, whether its history is kept and alerts get through (no figures, no URL)."""
    state = web_state()
    history = state.recorder.status()
    body: dict[str, object] = {
        "status": "ok",
        "history": {"mode": history["mode"], "problem": history["problem"], "importing": history["importing"]},
    }
    if state.alerts is not None:
        body["alerts"] = state.alerts.health()
    body["problems"] = problems = thread_problems()
    fleet = current_app.extensions.get("tokwatch.hub")  # app.web.hub.STATE_KEY, when this is a hub
    if fleet is not None:
        body["hub"] = {"problem": fleet.hub.problem, "alerts_problem": fleet.hub.alerts_problem}
        problems = problems + ([fleet.hub.problem] if fleet.hub.problem else [])
    agent = current_app.extensions.get(AGENT_KEY)  # this machine reports to a hub
    if agent is not None:
        body["report"] = {"problem": agent.problem}  # unreachable, or its key refused; never the key
        problems = problems + ([agent.problem] if agent.problem else [])
        body["problems"] = problems
    if problems:
        body["status"] = "degraded"
    response = Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


def _history_range() -> str:
    name = request.args.get("range", "24h")
    if name not in RANGES:
        security.refuse(400, f"range must be one of {', '.join(RANGES)}")
    return name


@bp.get("/api/events")
def events() -> Response:
    """The last 24 hours' events, stored and live, errors folded and pauses as spans, newest first."""
    state = web_state()
    snapshot = to_dict(state.feed.monitor.snapshot())  # the log's own events, without the stored ones
    body = state.recorder.what_happened(list(snapshot.get("events") or []), snapshot["as_of"])
    response = Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/history")
def history() -> Response:
    """The history of one range as JSON: a point per bucket per series (null: no data), and the events.

    Gzipped when the client takes it, and revalidated by ETag (a week is ~270 KB of JSON, a
    phone's reload of an unchanged range a bodyless 304).
    """
    response = Response(web_state().recorder.chart_json(_history_range()), mimetype="application/json")
    TRIMMER.request()  # a long range's rows and JSON were megabytes of transient objects
    return compress_page(response)


@bp.get("/api/history.csv")
def history_csv() -> Response:
    """The same range as a spreadsheet: one row per bucket, an empty cell for a gap."""
    recorder = web_state().recorder
    range_name = _history_range()
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(recorder.history.csv_rows(recorder.source, range_name))
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Disposition"] = f'attachment; filename="tokwatch-history-{range_name}.csv"'
    return response


@sock.route("/ws", bp=bp)
def ws(connection: Server) -> None:
    """Send the snapshot now, then every change (coalesced) and a keepalive when idle."""
    state = web_state()
    session(connection, state.broadcaster, lambda: to_json(state.feed.snapshot()),
            keepalive_seconds=state.config.keepalive_seconds, full="too many live dashboards open")
