"""The web side: ``create_app`` builds the Flask app over one monitor; nothing starts here.

``routes`` (the page, the JSON, the websocket), ``broadcast`` (one push loop for every
viewer), ``security`` (Host, Origin, token) and ``serve`` (the two servers and their threads).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

    from ..alerts import AlertService
    from ..config import Config
    from ..hub.service import Hub
    from ..live.monitor import Monitor
    from ..record.recorder import Recorder

# A wheel carries templates/ and static/ inside the package; a checkout keeps them at the
# repository's root (the project layout), beside the package.
PACKAGE_DIR = Path(__file__).resolve().parent.parent
ASSETS_ROOT = PACKAGE_DIR if (PACKAGE_DIR / "static").is_dir() else PACKAGE_DIR.parent

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

    app.serve.command starts the threads. ``recorder``: the history behind /api/history (None: a
    history that keeps nothing). ``alerts``: the alert service /healthz reports on (None: none
    runs). ``hub_url``: what the fleet page tells agents to report to.
    """
    from flask import Flask

    from ..record.recorder import Recorder
    from ..snapshot import to_json
    from ..store import History
    from . import hub as hub_routes
    from . import metrics, routes, security, static
    from .broadcast import Broadcaster

    security.check_config(config)
    app = Flask(
        __name__,
        static_folder=None,  # app.web.static serves it: compressed, revalidated
        template_folder=str(ASSETS_ROOT / "templates"),
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
    static.init_app(app, ASSETS_ROOT / "static")
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
        app.extensions[hub_routes.STATE_KEY] = hub_routes.HubState(
            config=config, hub=hub, broadcaster=fleet_broadcaster, hub_url=hub_url, has_log=monitor.log_path is not None
        )
        app.register_blueprint(hub_routes.bp)
    routes.sock.init_app(app)
    return app
