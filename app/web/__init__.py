"""The web side: ``create_app`` registers routes over what it is handed; nothing is built or started here.

``routes`` (the page, the JSON, the websocket), ``hub`` (the hub's routes), ``websocket`` (one
session for /ws and /ws/fleet), ``broadcast`` (one push loop for every viewer), ``security``
(Host, Origin, token). The process (app.serve) builds the feed, the broadcasters and the rest.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

    from ..alerts import AlertService
    from ..config import Config
    from ..live.feed import LiveFeed
    from ..record.recorder import Recorder
    from .broadcast import Broadcaster
    from .hub import HubState

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
    feed: LiveFeed,
    *,
    broadcaster: Broadcaster,
    recorder: Recorder,
    alerts: AlertService | None = None,
    fleet: HubState | None = None,
) -> Flask:
    """Build the dashboard app over what it is handed (and the hub's routes given ``fleet``); nothing starts.

    ``feed``: the live snapshot the page, the JSON and /metrics show; ``broadcaster``: the /ws
    push (the process starts it); ``recorder``: the history behind /api/history; ``alerts``: the
    alert service /healthz reports on (None: none runs).
    """
    from flask import Flask

    from . import compare, metrics, routes, security, static, websocket

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
    app.extensions["tokwatch"] = routes.WebState(
        config=config, feed=feed, broadcaster=broadcaster, recorder=recorder, alerts=alerts
    )
    security.init_app(app, config)
    static.init_app(app, ASSETS_ROOT / "static")
    app.extensions[metrics.REGISTRY_KEY] = metrics.build_registry(config, feed, fleet.hub if fleet else None)
    # The page; a hub following no log shows the fleet instead.
    if fleet is None:
        app.add_url_rule("/", "index", routes.index)
    else:
        # The hub's routes (and the fleet's store and runs under them) load only on a hub.
        from . import hub as hub_routes
        from . import hub_runs as _hub_runs  # noqa: F401  (its routes join the hub's blueprint before it is registered)

        app.add_url_rule("/", "index", routes.index if fleet.has_log else hub_routes.fleet_index)
    app.register_blueprint(routes.bp)
    compare.init_app(app, app.extensions["tokwatch"])
    app.register_blueprint(metrics.bp)
    if fleet is not None:
        app.extensions[hub_routes.STATE_KEY] = fleet
        app.register_blueprint(hub_routes.bp)
        app.wsgi_app = hub_routes.AgentIntake(app.wsgi_app, fleet.hub, config)  # type: ignore[method-assign]
    websocket.sock.init_app(app)
    return app
