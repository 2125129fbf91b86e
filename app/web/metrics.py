"""``/metrics``: this tokwatch's figures (and, on a hub, every machine online) for Prometheus.

Token rules as ``/api/*``: off loopback a scrape needs ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Blueprint, Response, current_app

from app.config import Config
from app.hub.service import Hub
from app.metrics import CONTENT_TYPE, Labels, SnapshotCollector, exposition, registry_for
from app.monitor import Monitor
from app.snapshot import to_dict
from app.web import security

bp = Blueprint("metrics", __name__)
REGISTRY_KEY = "tokwatch.metrics"


def build_registry(config: Config, monitor: Monitor, hub: Hub | None) -> Any:
    """One registry per app: the collector asks the monitor (and the hub) afresh at every scrape."""
    own = monitor.log_path is not None or hub is None  # a hub that follows no log has no figures of its own
    name = config.resolved_machine_name

    def snapshots() -> Iterable[tuple[Labels, dict[str, Any]]]:
        found: list[tuple[Labels, dict[str, Any]]] = []
        if own:
            found.append(({"machine": name} if hub is not None else {}, to_dict(monitor.snapshot())))
        if hub is not None:
            # A machine reporting under this hub's own name would repeat its series: its own figures win.
            found.extend(item for item in hub.metric_snapshots() if not (own and item[0]["machine"] == name))
        return found

    labels = ("machine",) if hub is not None else ()
    return registry_for(SnapshotCollector(snapshots, labels, extra=hub.fleet_metrics if hub is not None else None))


@bp.get("/metrics")
def metrics() -> Response:
    """The Prometheus text format."""
    security.require_token(current_app.extensions["tokwatch"].config)
    response = Response(exposition(current_app.extensions[REGISTRY_KEY]), mimetype=None)
    response.headers["Content-Type"] = CONTENT_TYPE
    response.headers["Cache-Control"] = "no-store"
    return response
