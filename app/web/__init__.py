"""The web side: ``create_app`` builds the Flask app over one monitor; nothing starts here.

``routes`` (the page, the JSON, the websocket), ``broadcast`` (one push loop for every
viewer), ``security`` (Host, Origin, token) and ``serve`` (the two servers and their threads).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

    from app.alerts import AlertService
    from app.config import Config
    from app.hub.service import Hub
    from app.monitor import Monitor
    from app.recorder import Recorder

# templates/ and static/ sit at the repo root (the project layout), not inside the package.
PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent

# tokwatch takes no uploads: a request body has nothing to carry.
MAX_REQUEST_BODY_BYTES = 16 * 1024
# simple-websocket's pings find dead clients (its docstring recommends 25 s); the page never
# sends anything, so any message larger than this is a misbehaving client.
WS_PING_INTERVAL_SECONDS = 25
WS_MAX_MESSAGE_BYTES = 1024


def create_app(
    config: Config,
    monitor: Monitor,
    recorder: Recorder | None = None,
    *,
    alerts: AlertService | None = None,
    hub: Hub | None = None,
    hub_url: str = "",
) -> Flask:
    """Build the dashboard app over one monitor (and the hub's routes when given one); nothing starts.

    app.web.serve starts the threads. ``recorder``: the history behind /api/history (None: a
    history that keeps nothing). ``alerts``: the alert service /healthz reports on (None: none
    runs). ``hub_url``: what the fleet page tells agents to report to.
    """
    from flask import Flask

    from app.recorder import Recorder
    from app.snapshot import to_json
    from app.store import History
    from app.web import fleet, metrics, routes, security, static
    from app.web.broadcast import Broadcaster

    security.check_config(config)
    app = Flask(
        __name__,
        static_folder=None,  # app.web.static serves it: compressed, revalidated
        template_folder=str(PROJECT_ROOT / "templates"),
    )
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_REQUEST_BODY_BYTES,
        SOCK_SERVER_OPTIONS={
            "ping_interval": WS_PING_INTERVAL_SECONDS,
            "max_message_size": WS_MAX_MESSAGE_BYTES,
        },
    )
    broadcaster = Broadcaster(
        monitor,
        payload=lambda: to_json(monitor.snapshot()),
        max_clients=config.max_ws_clients,
        push_interval_seconds=config.push_interval_seconds,
    )
    if recorder is None:
        recorder = Recorder(History(None), monitor.log_path)
    app.extensions["tokwatch"] = routes.WebState(
        config=config, monitor=monitor, broadcaster=broadcaster, recorder=recorder, alerts=alerts
    )
    security.init_app(app, config)
    static.init_app(app, PROJECT_ROOT / "static")
    app.extensions[metrics.REGISTRY_KEY] = metrics.build_registry(config, monitor, hub)
    app.register_blueprint(routes.bp)
    app.register_blueprint(metrics.bp)
    if hub is not None:
        fleet_broadcaster = Broadcaster(
            hub,
            payload=hub.fleet_json,
            max_clients=config.max_ws_clients,
            push_interval_seconds=config.push_interval_seconds,
        )
        app.extensions[fleet.STATE_KEY] = fleet.HubState(
            config=config, hub=hub, broadcaster=fleet_broadcaster, hub_url=hub_url, has_log=monitor.log_path is not None
        )
        app.register_blueprint(fleet.bp)
    routes.sock.init_app(app)
    return app
