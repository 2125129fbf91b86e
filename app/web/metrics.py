"""``/metrics``: this tokwatch's figures (and, on a hub, every machine online) for Prometheus.

Token rules as ``/api/*``: off loopback a scrape needs ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app

from ..config import Config
from ..snapshot import Snapshot
from . import security

if TYPE_CHECKING:
    from ..hub.service import Hub
    from ..live.feed import LiveFeed
    from ..prometheus import Labels

bp = Blueprint("metrics", __name__)
REGISTRY_KEY = "tokwatch.metrics"


class LazyRegistry:
    """The app's Prometheus registry, built at the first scrape (a dashboard nobody scrapes never loads the client)."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._registry: Any = None
        self._lock = threading.Lock()

    def get(self) -> Any:
        """The registry, built once."""
        with self._lock:
            if self._registry is None:
                self._registry = self._build()
            return self._registry


def build_registry(config: Config, feed: LiveFeed, hub: Hub | None) -> LazyRegistry:
    """One registry per app: the collector asks the live feed (and the hub) afresh at every scrape."""
    own = feed.monitor.log_path is not None or hub is None  # a hub that follows no log has no figures of its own
    name = config.resolved_machine_name

    def snapshots() -> Iterable[tuple[Labels, Snapshot]]:
        found: list[tuple[Labels, Snapshot]] = []
        if own:
            found.append(({"machine": name} if hub is not None else {}, feed.snapshot()))
        if hub is not None:
            # A machine reporting under this hub's own name would repeat its series: its own figures win.
            found.extend(item for item in hub.metric_snapshots() if not (own and item[0]["machine"] == name))
        return found

    labels = ("machine",) if hub is not None else ()

    def build() -> Any:
        from ..prometheus import SnapshotCollector, registry_for

        return registry_for(SnapshotCollector(snapshots, labels, extra=hub.fleet_metrics if hub is not None else None))

    return LazyRegistry(build)


@bp.get("/metrics")
def metrics() -> Response:
    """The Prometheus text format."""
    from ..prometheus import CONTENT_TYPE, exposition

    security.require_token(current_app.extensions["tokwatch"].config)
    registry: LazyRegistry = current_app.extensions[REGISTRY_KEY]
    response = Response(exposition(registry.get()), mimetype=None)
    response.headers["Content-Type"] = CONTENT_TYPE
    response.headers["Cache-Control"] = "no-store"
    return response
