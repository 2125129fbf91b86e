"""The running dashboard, owned as one thing: the monitor, the history, alerts, the fleet, both servers.

The process builds every running part here — the live feed, the alert service, the fleet, the
broadcasters — and hands them to ``create_app``, which only routes over them. ``start`` binds
both ports and starts every thread; ``stop`` takes them down in the order that loses nothing
(servers first, then alerts and the fleet, the tailer, the history's last write, the demo's
file last).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from werkzeug.serving import BaseWSGIServer

from ..alerts import AlertService, alert_service
from ..changes import SnapshotSource
from ..config import Config, ConfigError
from ..hub.runtime import FleetError, FleetRuntime
from ..ingest.hardware import HardwareWatch
from ..live.feed import LiveFeed
from ..live.monitor import Monitor
from ..record.recorder import Recorder
from ..snapshot import to_json
from ..store import History
from ..web import create_app
from ..web.broadcast import Broadcaster
from ..web.pairing import dashboard_url, lan_address, page_url
from ..web.routes import AGENT_KEY
from .servers import (
    JOIN_SECONDS,
    HttpLoop,
    ServeError,
    http_server,
    is_unspecified,
    listen,
    websocket_server,
)

if TYPE_CHECKING:
    from flask import Flask

    from ..demo import DemoLog
    from ..hub.service import Hub
    from ..web.hub import HubState


@dataclass(frozen=True)
class Web:
    """The Flask app and the broadcasters it routes to, which the process starts and stops."""

    app: Flask
    broadcaster: Broadcaster
    fleet_broadcaster: Broadcaster | None = None

    @property
    def broadcasters(self) -> tuple[Broadcaster, ...]:
        """Every broadcaster: the dashboard's, and the fleet page's on a hub."""
        return (self.broadcaster,) if self.fleet_broadcaster is None else (self.broadcaster, self.fleet_broadcaster)


def build_web(
    config: Config, feed: LiveFeed, *, recorder: Recorder | None = None, hub: Hub | None = None, hub_url: str = ""
) -> Web:
    """The app over ``feed`` (and the hub's routes when given one), with its broadcasters; nothing starts.

    ``recorder``: the history behind /api/history (None: a history that keeps nothing).
    ``hub_url``: what the fleet page tells agents to report to.
    """
    log_path = feed.monitor.log_path
    if recorder is None:
        recorder = Recorder(History(None), log_path)
    broadcaster = Broadcaster(
        feed,
        payload=lambda: to_json(feed.snapshot()),
        max_clients=config.max_ws_clients,
        push_interval_seconds=config.push_interval_seconds,
    )
    fleet: HubState | None = None
    if hub is not None:
        # The hub's routes and their modules load only on a hub: a dashboard never serves them.
        from ..hub.fleet import with_clock_words
        from ..web.fleet_push import FleetFrames
        from ..web.hub import FLEET_PUSH_INTERVAL_SECONDS, HubState

        # The fleet page gets the fleet once, then what changed: the pushes compare kept cards.
        frames = FleetFrames(hub.fleet, kept=hub.fleet_kept, clock_words=with_clock_words)
        fleet_broadcaster = Broadcaster(
            hub.changes,
            payload=frames.next,
            max_clients=config.max_ws_clients,
            push_interval_seconds=max(config.push_interval_seconds, FLEET_PUSH_INTERVAL_SECONDS),
        )
        fleet = HubState(config=config, hub=hub, broadcaster=fleet_broadcaster, hub_url=hub_url,
                         has_log=log_path is not None, frames=frames)
    app = create_app(config, feed, broadcaster=broadcaster, recorder=recorder, alerts=feed.alerts, fleet=fleet)
    return Web(app, broadcaster, None if fleet is None else fleet.broadcaster)


class Dashboard:
    """The running parts, owned: monitor, broadcaster, both servers and the demo writer, if any."""

    def __init__(
        self, config: Config, monitor: Monitor, *, demo: DemoLog | None = None, recorder: Recorder | None = None
    ) -> None:
        self.requested = config
        self.config = config  # with the real ports once started
        self.monitor = monitor
        self.demo = demo
        self.recorder = recorder
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._http_map: dict[int, Any] = {}
        self._http: HttpLoop | None = None
        self._ws_server: BaseWSGIServer | None = None
        self._web: Web | None = None
        self._feed: LiveFeed | None = None
        self._fleet: FleetRuntime | None = None
        self._started = False
        self.alerts: AlertService | None = None
        self._hardware: HardwareWatch | None = None

    @property
    def feed(self) -> LiveFeed:
        """The live snapshot every viewer, the alerts and the agent read (exists once started)."""
        if self._feed is None:
            raise RuntimeError("the Dashboard is not started")
        return self._feed

    @property
    def broadcaster(self) -> Broadcaster:
        """The websocket client registry (exists once started)."""
        if self._web is None:
            raise RuntimeError("the Dashboard is not started")
        return self._web.broadcaster

    def start(self) -> Config:
        """Bind both ports, build the app, start every thread; return the config with the real ports."""
        if self._started:
            raise RuntimeError("a Dashboard can be started once")
        self._started = True
        config = self.requested
        http_socket = listen(config.host, config.port)
        try:
            ws_socket = listen(config.host, config.effective_ws_port)
        except ServeError:
            http_socket.close()
            raise
        bound_host = http_socket.getsockname()[0]
        self.config = replace(config, port=http_socket.getsockname()[1], ws_port=ws_socket.getsockname()[1])
        if is_unspecified(bound_host) and config.host != bound_host:
            # "--host 0" binds every address: say so as 0.0.0.0, never as "http://0:…".
            self.config = replace(self.config, host=bound_host)
        self.alerts = alert_service(self.config, dashboard_url(self.config))
        hardware = self._hardware = (None if config.hardware == "off"
                                     else HardwareWatch(config.hardware, on_change=self.monitor.changes.bump))
        feed = self._feed = LiveFeed(self.monitor, recorder=self.recorder, alerts=self.alerts, hardware=hardware)
        try:
            # A dashboard with a log shows its own figures under its name: no agent may report under it.
            own = None if self.monitor.log_path is None else self.config.resolved_machine_name
            self._fleet = open_fleet(self.config, feed, reserved_name=own)
            if self._fleet.agent is not None:  # a hub that cannot be reached shows here, not only in a log
                agent = self._fleet.agent
                self.alerts.watch_problem(lambda: agent.problem)
            web = self._web = build_web(self.config, feed, recorder=self.recorder, hub=self._fleet.hub,
                                        hub_url=hub_url(self.config))
            if self._fleet.agent is not None:  # /healthz says when its hub does not take its reports
                web.app.extensions[AGENT_KEY] = self._fleet.agent
        except (ConfigError, ServeError):
            http_socket.close()
            ws_socket.close()
            raise

        self._http = HttpLoop(http_server(web.app.wsgi_app, http_socket, self.config, self._http_map), self._http_map)
        self._ws_server = websocket_server(web.app.wsgi_app, bound_host, ws_socket, self.config)

        if self.demo is not None:
            self.demo.start()
        if self.recorder is not None:
            # With no history, the backlog's losses are the only ones the trainer's chart can have.
            self.monitor.keep_passes(backlog=self.recorder.history.status().mode == "off")
        self.monitor.start()
        if self._hardware is not None:
            self._hardware.start()
        if self.recorder is not None:
            self.recorder.start(self.monitor)  # its import runs on its own thread
        for broadcaster in web.broadcasters:
            broadcaster.start()
        self.alerts.start(feed)
        self._fleet.start()
        self._spawn("tokwatch-http", self._run_http)
        self._spawn("tokwatch-ws", self._run_ws)
        return self.config

    def stop(self) -> None:
        """Stop everything within a few seconds; safe to call twice."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        if self._http is not None:
            self._http.stop()  # wakes its loop to see the stop
        if self._web is not None:
            for broadcaster in self._web.broadcasters:
                broadcaster.stop()
        if self._ws_server is not None:
            if any(thread.name == "tokwatch-ws" for thread in self._threads):
                self._ws_server.shutdown()  # waits for serve_forever: only once it was started
            self._ws_server.server_close()
        for thread in self._threads:
            thread.join(JOIN_SECONDS)
        if self._http is not None and not any(t.name == "tokwatch-http" for t in self._threads):
            self._http.close()  # built but never run (start failed half-way)
        if self.alerts is not None:
            self.alerts.stop()
        if self._fleet is not None:
            self._fleet.stop()  # the servers are down: no request reads the hub's file any more
        self.monitor.stop()
        if self._hardware is not None:
            self._hardware.stop()
        if self.recorder is not None:
            self.recorder.stop()  # after the tailer: its last observation has every line read
        if self.demo is not None:
            self.demo.stop()  # last: the tailer must not see its file vanish

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _run_http(self) -> None:
        assert self._http is not None
        self._http.run()

    def _run_ws(self) -> None:
        assert self._ws_server is not None
        self._ws_server.serve_forever()


def open_fleet(config: Config, source: SnapshotSource, *, reserved_name: str | None = None) -> FleetRuntime:
    """The hub and the agent (reporting ``source``) the config asks for (neither: an empty runtime); raise ServeError.

    ``reserved_name``: this dashboard's own machine name, which no agent may report under.
    """
    try:
        return FleetRuntime.open(config, source, reserved_name=reserved_name)
    except FleetError as e:
        raise ServeError(str(e)) from e


def hub_url(config: Config) -> str:
    """What agents should --report-to: this hub's address on the LAN (``HUB`` when it has none)."""
    # A hub on loopback only is told to listen on the LAN (the banner and the page say so): the
    # address printed is the one that works from another machine then, never 127.0.0.1.
    address = lan_address("0.0.0.0" if config.loopback_only else config.host) or "HUB"
    return page_url(address, config.port, None).rstrip("/")
