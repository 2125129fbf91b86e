"""The hub's routes: report intake, the fleet page and API, a machine's page, and the fleet's live push.

Thin: :class:`app.hub.service.Hub` does the work. Reports authenticate with their machine's key
(not the dashboard token); everything a person reads needs the dashboard token off loopback,
as ``/api/snapshot`` does.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, abort, current_app, make_response, render_template, request
from simple_websocket import Server

from ..config import Config
from ..hub.join import agent_command, enroll_command, listen_on_lan_command, revoke_command, save_key_command
from ..hub.keys import NAME_PATTERN
from . import security
from .broadcast import Broadcaster
from .fleet_push import FleetFrames
from .routes import pairing_card
from .static import compress_page
from .websocket import SERVER_ROLE_KEY, session, sock, vet_handshake

if TYPE_CHECKING:
    from ..hub.service import Hub

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
REPORT_PATH = security.REPORT_PATH
HISTORY_PATH = security.HISTORY_PATH
# The fleet page gets at most two pushes a second (a report shows within about half a second):
# a fleet reports several times a second, and each push is every changed card's changed fields.
FLEET_PUSH_INTERVAL_SECONDS = 0.5
STATE_KEY = "tokwatch.hub"
bp = Blueprint("hub", __name__)


@dataclass(frozen=True)
class HubState:
    """What the hub's routes work with, kept in ``app.extensions["tokwatch.hub"]``."""

    config: Config
    hub: Hub
    broadcaster: Broadcaster
    hub_url: str  # what agents are told to --report-to (the help on the fleet page)
    has_log: bool  # this process is also a machine's dashboard
    frames: FleetFrames | None = None  # the push's frames (the fleet once, then what changed)


def hub_state() -> HubState:
    """The current app's HubState."""
    state: HubState = current_app.extensions[STATE_KEY]
    return state


def _json(data: object, status: int = 200) -> Response:
    response = Response(json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False),
                        status=status, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.before_request
def guard() -> None:
    """The fleet's figures need the dashboard token off loopback; a fleet websocket is vetted like /ws."""
    state = hub_state()
    if request.path.startswith("/api/"):
        security.require_token(state.config)
    elif request.endpoint == "hub.fleet_socket":
        vet_handshake(state.config, state.broadcaster, full="too many live pages open; close one and reload")


@bp.post(REPORT_PATH)
def report() -> Response:
    """Take one machine's report (its key in ``Authorization: Bearer``)."""
    from ..hub.report import MAX_REPORT_BYTES  # the report's code: loaded by a hub, on its first report

    return _intake(hub_state().hub.take, MAX_REPORT_BYTES, "report")


@bp.post(HISTORY_PATH)
def history() -> Response:
    """Take minutes from a machine's own history (its key in ``Authorization: Bearer``)."""
    from ..hub.report import MAX_HISTORY_BYTES

    return _intake(hub_state().hub.take_history, MAX_HISTORY_BYTES, "history")


def _intake(take: Callable[[str | None, bytes], tuple[int, dict[str, Any]]], max_bytes: int, what: str) -> Response:
    """An agent's POST, bounded before it is read, answered with the hub's status and words."""
    length = request.content_length
    if length is not None and length > max_bytes:
        return _json({"error": f"{what} larger than {max_bytes} bytes"}, 413)
    status, answer = take(request.headers.get("Authorization"), request.get_data(cache=False))
    response = _json(answer, status)
    for name, value in _answer_headers(status, answer):
        response.headers[name] = value
    return response


class AgentIntake:
    """WSGI in front of the app: an agent's ``POST /hub/report`` (or ``/hub/history``) goes straight
    to the hub, past Flask's routing, hooks and request and response objects.

    At a thousand machines the hub takes 67 reports a second, and Flask's machinery cost about as
    much CPU as taking the report itself. The answer is the route's, byte for byte: the same
    status, JSON and headers (the Host rule does not apply to reports, as in the app; every other
    request, and these on the websocket port, go to the app).
    """

    def __init__(self, app: WSGIApp, hub: Hub, config: Config) -> None:
        from ..hub.report import MAX_HISTORY_BYTES, MAX_REPORT_BYTES

        self.app = app
        self.config = config
        # The safe headers by Host header: the same few hosts send every report (a bounded memo).
        self._safe_headers: dict[str, list[tuple[str, str]]] = {}
        self._routes: dict[str, tuple[Callable[[str | None, bytes], tuple[int, dict[str, Any]]], int, str]] = {
            REPORT_PATH: (hub.take, MAX_REPORT_BYTES, "report"),
            HISTORY_PATH: (hub.take_history, MAX_HISTORY_BYTES, "history"),
        }

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        route = self._routes.get(environ.get("PATH_INFO", ""))
        if route is None or environ.get("REQUEST_METHOD") != "POST" or environ.get(SERVER_ROLE_KEY) == "ws":
            return self.app(environ, start_response)
        take, max_bytes, what = route
        try:
            length: int | None = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            length = None
        if length is not None and length > max_bytes:
            status, answer = 413, {"error": f"{what} larger than {max_bytes} bytes"}
        else:
            # The server has the whole body (waitress buffers it, at most its request cap).
            stream = environ["wsgi.input"]
            body = stream.read(length) if length is not None else stream.read(max_bytes + 1)
            if len(body) > max_bytes:
                status, answer = 413, {"error": f"{what} larger than {max_bytes} bytes"}
            else:
                status, answer = take(environ.get("HTTP_AUTHORIZATION"), body)
        data = json.dumps(answer, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(data))),
                   ("Cache-Control", "no-store"), *_answer_headers(status, answer),
                   *self._safe_headers_for(environ.get("HTTP_HOST", ""))]
        start_response(f"{status} {HTTPStatus(status).phrase}", headers)
        return [data]

    def _safe_headers_for(self, host: str) -> list[tuple[str, str]]:
        headers = self._safe_headers.get(host)
        if headers is None:
            headers = security.safe_headers(self.config, security.allowed_host_name(host, self.config.allow_hosts))
            if len(self._safe_headers) >= 64:  # any Host a client makes up: never a growing memo
                self._safe_headers.clear()
            self._safe_headers[host] = headers
        return headers


def _answer_headers(status: int, answer: dict[str, Any]) -> list[tuple[str, str]]:
    """An intake answer's own headers: the scheme a 401 asks for, when to try again after a 429."""
    headers = []
    if status == 401:
        headers.append(("WWW-Authenticate", 'Bearer realm="tokwatch hub"'))
    if "retry_after" in answer:
        headers.append(("Retry-After", str(max(1, math.ceil(answer["retry_after"])))))
    return headers


def render_fleet_page() -> str:
    """The fleet page: no figures, only where to find them and how to add a machine."""
    state = hub_state()
    config = state.config
    here = security.from_this_machine(config)
    return render_template(
        "fleet.html",
        ws_port=config.effective_ws_port,
        token_required=config.token is not None,
        # The hub's data folder names the user's home: shown on this computer only, never over the LAN.
        enroll_command=enroll_command("NAME", config.data_dir if here else None),
        data_dir_hidden=config.data_dir is not None and not here,
        save_key_command=save_key_command(),
        agent_command=agent_command(state.hub_url, "NAME"),
        # A hub on loopback only: the command that lets other machines reach it (the address above works then).
        loopback_fix=listen_on_lan_command(config.data_dir if here else None) if config.loopback_only else None,
        revoke_command=revoke_command("NAME", config.data_dir if here else None),
        has_log=state.has_log,
        pairing=pairing_card(config),
    )


@bp.get("/fleet")
def fleet_page() -> str:
    """Every machine on one page."""
    return render_fleet_page()


def fleet_index() -> Response:
    """A hub following no log: its ``/`` is the fleet page (gzipped when the browser takes it)."""
    return compress_page(make_response(render_fleet_page()))


def _machine_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        abort(404)
    return name


@bp.get("/fleet/<name>")
def machine_page(name: str) -> str:
    """One machine's page from the hub's data."""
    return render_template("machine.html", name=_machine_name(name),
                           token_required=hub_state().config.token is not None)


@bp.get("/api/fleet")
def fleet_api() -> Response:
    """The fleet: every machine's card and the totals."""
    response = Response(hub_state().hub.fleet_json(), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/fleet/<name>")
def machine_api(name: str) -> Response:
    """A machine's card, details and events."""
    page = hub_state().hub.machine(_machine_name(name))
    if page is None:
        return _json({"error": f"no enrolled machine is called {name}"}, 404)
    return _json(page)


@bp.get("/api/fleet/<name>/chart")
def chart_api(name: str) -> Response:
    """A machine's tok/h over ``span`` (6h, 24h or 7d)."""
    span = request.args.get("span", "24h")
    chart = hub_state().hub.chart(_machine_name(name), span)
    if chart is None:
        return _json({"error": "no such machine, or span is not one of 6h, 24h, 7d"}, 404)
    return _json(chart)


@bp.get("/api/compare/machines")
def compare_api() -> Response:
    """Two or more machines' tok/h over one ``span`` on one chart (``machine=NAME``, repeated), each
    with the layers it ran on in the span, for the legend."""
    span = request.args.get("span", "24h")
    names = list(dict.fromkeys(request.args.getlist("machine")))
    if not 1 <= len(names) <= 6:
        return _json({"error": "name one to six machines: machine=NAME, repeated"}, 400)
    machines = []
    for name in names:
        chart = hub_state().hub.chart(_machine_name(name), span)
        if chart is None:
            return _json({"error": f"no machine {name}, or span is not one of 6h, 24h, 7d"}, 404)
        machines.append({"name": name, "points": chart["points"], "layers": chart["layers"],
                         "legend": f"{name} · {layer_words(chart['layers'])}", "usual_text": chart["usual_text"]})
    return _json({"span": span, "machines": machines})


def layer_words(layers: list[list[Any]]) -> str:
    """The layers a machine ran on over a span, in order: ``L1``, ``L1 → L2``, or ``layer not reported``."""
    seen = [layer for _, layer in layers if layer is not None]
    ordered = [layer for i, layer in enumerate(seen) if i == 0 or layer != seen[i - 1]]
    return " → ".join(f"L{layer}" for layer in ordered) if ordered else "layer not reported"


@sock.route("/ws/fleet", bp=bp)
def fleet_socket(connection: Server) -> None:
    """Send the fleet now, then what changed on every change (coalesced) and a keepalive when idle."""
    state = hub_state()
    session(connection, state.broadcaster, state.frames.first if state.frames is not None else state.hub.fleet_json,
            keepalive_seconds=state.config.keepalive_seconds, full="too many live pages open")
