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
    config: Config, monitor: Monitor, recorder: Recorder | None = None, *, alerts: AlertService | None = None
) -> Flask:
    """Build the dashboard app over one monitor; nothing starts (app.web.serve starts the threads).

    ``recorder``: the history behind /api/history (None: a history that keeps nothing).
    ``alerts``: the alert service /healthz reports on (None: none runs).
    """
    from flask import Flask

    from app.recorder import Recorder
    from app.store import History
    from app.web import routes, security
    from app.web.broadcast import Broadcaster

    security.check_config(config)
    app = Flask(
        __name__,
        static_folder=str(PROJECT_ROOT / "static"),
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
        max_clients=config.max_ws_clients,
        push_interval_seconds=config.push_interval_seconds,
    )
    if recorder is None:
        recorder = Recorder(History(None), monitor.log_path)
    app.extensions["tokwatch"] = routes.WebState(
        config=config, monitor=monitor, broadcaster=broadcaster, recorder=recorder, alerts=alerts
    )
    security.init_app(app, config)
    app.register_blueprint(routes.bp)
    routes.sock.init_app(app)
    return app
