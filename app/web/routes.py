"""The dashboard's routes: the page, the snapshot JSON, a health check and the live websocket.

Thin on purpose: figures come from the monitor through the one serializer
(:func:`app.snapshot.to_json`), pushing is :mod:`app.web.broadcast`'s job, and who may ask is
:mod:`app.web.security`'s.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import logging
import select
import socket
import time
from dataclasses import dataclass

from flask import Blueprint, Response, current_app, make_response, render_template, request
from flask_sock import Sock
from simple_websocket import Server
from wsproto.utilities import LocalProtocolError

from ..alerts import AlertService
from ..allocator import TRIMMER
from ..config import Config
from ..live.monitor import Monitor
from ..record.recorder import Recorder
from ..snapshot import to_json
from ..store import RANGES
from . import security
from .broadcast import CLOSE_POLICY_VIOLATION, Broadcaster, ClientClosed, WakingEvent, pump
from .pairing import phone_url, qr_svg
from .static import compress_page

log = logging.getLogger(__name__)

# The server that received a request, set by app.serve.command: waitress ("http") or Werkzeug ("ws").
# Requests without it (Flask's test client) may reach every route.
SERVER_ROLE_KEY = "tokwatch.server"
# Set by app.serve.wsserver: call it once a handshake passed every check.
ACCEPT_KEY = "tokwatch.accept"
CLOSE_NORMAL = 1000
# Ending a session: how long to wait for the client's close reply, and how much of whatever it
# still sends to read and drop before shutting the socket (see finish()).
CLOSE_HANDSHAKE_SECONDS = 1.0
DISCARD_SECONDS = 1.0
DISCARD_QUIET_SECONDS = 0.05
DISCARD_MAX_BYTES = 64 << 20
# Close code for a handshake that raced past the cap check: 1013, "try again later".
CLOSE_TRY_AGAIN_LATER = 1013

bp = Blueprint("web", __name__)
sock = Sock()
# The dashboard's websocket and the hub's fleet push, both on the websocket port.
WEBSOCKET_PATHS = frozenset({"/ws", "/ws/fleet"})
WEBSOCKET_ENDPOINTS = frozenset({"web.ws", "hub.fleet_socket"})


@dataclass(frozen=True)
class WebState:
    """What the routes work with, kept in ``app.extensions["tokwatch"]``."""

    config: Config
    monitor: Monitor
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
        security.require_token(state.config, query_param=True)
        security.require_websocket_origin(state.config)
        security.require_websocket_handshake()
        if state.broadcaster.is_full():
            security.refuse(503, "too many live dashboards open; close one and reload")
        # The handshake arrived in time and passed (app.serve.wsserver bounds it until now): a
        # live websocket may stay idle, and no longer counts as a pending connection.
        accept = request.environ.get(ACCEPT_KEY)
        if accept is not None:
            accept()


@bp.get("/")
def index() -> Response:
    """Render the page (gzipped when the browser takes it): no figures, only where to find them."""
    return compress_page(make_response(render_index()))


def render_index() -> str:
    """The page's HTML; a hub following no log shows the fleet instead."""
    state = web_state()
    if state.monitor.log_path is None and "tokwatch.hub" in current_app.extensions:
        from .hub import render_fleet_page

        return render_fleet_page()
    config = state.config
    pairing = None
    if security.from_this_machine(config):
        pairing = "loopback" if config.loopback_only else "qr" if pairing_link(config) else None
    return render_template(
        "index.html",
        ws_port=config.effective_ws_port,
        token_required=config.token is not None,
        keepalive_seconds=config.keepalive_seconds,
        token_file=str(config.token_file) if config.token_file is not None else None,
        pairing=pairing,
    )


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
    response = Response(to_json(state.monitor.snapshot()), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Tokwatch-WS-Port"] = str(state.config.effective_ws_port)
    return response


@bp.get("/api/report.txt")
def report() -> Response:
    """Return the queue report as plain text, for a miner to paste into a bug report."""
    response = Response(web_state().monitor.queue_report(), mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response


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
    response = Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


def _history_range() -> str:
    name = request.args.get("range", "24h")
    if name not in RANGES:
        security.refuse(400, f"range must be one of {', '.join(RANGES)}")
    return name


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
    client = state.broadcaster.join(abort=lambda: connection.sock.shutdown(socket.SHUT_RDWR))
    if client is None:  # the cap filled up between the guard and here
        finish(connection, CLOSE_TRY_AGAIN_LATER, "too many live dashboards open")
        return
    code, reason = CLOSE_NORMAL, ""
    # Incoming messages wake the client's thread, which drops them (and closes a flooder) at once.
    connection.event = WakingEvent(client.poke)
    if connection.input_buffer:
        client.poke()
    try:
        connection.send(to_json(state.monitor.snapshot()))
        pump(connection, client, keepalive_seconds=state.config.keepalive_seconds)
    except ClientClosed as closed:
        code, reason = closed.code, closed.reason
    except (OSError, LocalProtocolError) as e:
        # The peer vanished mid-send (reset, broken pipe, aborted as stalled), or simple-websocket's
        # reader closed the connection under us (a message over the size cap): it is over either way.
        log.debug("websocket client gone: %s", e)
    finally:
        state.broadcaster.leave(client)
        finish(connection, code, reason, linger=code != CLOSE_POLICY_VIOLATION)


def drop_unread(connection: Server) -> None:
    """Free what the client sent and no one will read, now rather than at the collector's full pass.

    flask-sock builds a response class per websocket request whose method closes over the
    connection: a reference cycle, so the connection (and every message its reader thread
    queued after the last drain: a flooding client's hundreds of KB) outlives its request until
    Python's rare full collection. Round after round of floods, that garbage was the ratchet.
    """
    connection.input_buffer.clear()
    connection.incoming_message = None
    connection.incoming_message_len = 0


def finish(connection: Server, code: int, reason: str, *, linger: bool = True) -> None:
    """Close the websocket, then free its socket within a second whatever the client does.

    After the view returns, Werkzeug drains what is left of the "request body" with a blocking
    ``rfile.read`` while the socket is readable: the unread rest of a refused oversized frame
    would hold the connection and its thread until the client left. So the rest is read here,
    for at most DISCARD_SECONDS, and the socket shut, which Werkzeug's drain reads as EOF.
    ``linger=False`` (a client flooding messages): the close frame goes out and the socket is
    shut at once, so nothing more it sends is read and queued.
    """
    try:
        if connection.connected:
            connection.close(code, reason or None)
    except (OSError, LocalProtocolError) as e:  # closed already, by the peer or the reader
        log.debug("closing a websocket: %s", e)
    sock = connection.sock
    if not linger:
        with contextlib.suppress(OSError, ValueError):
            sock.shutdown(socket.SHUT_RDWR)
        # Its reader thread sees the end at once; Werkzeug must not close the descriptor under
        # it first (a poll on a closed, reused descriptor waits for another client's bytes).
        connection.thread.join(CLOSE_HANDSHAKE_SECONDS)
        drop_unread(connection)
        return
    # Let the close handshake finish on simple-websocket's own reader thread.
    connection.thread.join(CLOSE_HANDSHAKE_SECONDS)
    drop_unread(connection)
    deadline = time.monotonic() + DISCARD_SECONDS
    discarded = 0
    try:
        while discarded < DISCARD_MAX_BYTES and time.monotonic() < deadline:
            readable, _, _ = select.select([sock], [], [], DISCARD_QUIET_SECONDS)
            chunk = sock.recv(1 << 16) if readable else b""
            if not chunk:
                break
            discarded += len(chunk)
        sock.shutdown(socket.SHUT_RDWR)
    except (OSError, ValueError):
        pass  # the socket is already gone
