"""The running dashboard, owned as one thing: the monitor, the history, alerts, the fleet, both servers.

``start`` binds both ports and starts every thread; ``stop`` takes them down in the order that
loses nothing (servers first, then alerts and the fleet, the tailer, the history's last write,
the demo's file last).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from werkzeug.serving import BaseWSGIServer

from .. import supervise
from ..alerts import AlertService, alert_service
from ..config import Config, ConfigError
from ..demo import DemoLog
from ..hub.runtime import FleetError, FleetRuntime
from ..live.monitor import Monitor
from ..record.recorder import Recorder
from ..snapshot import Snapshot, to_dict
from ..web import create_app
from ..web.broadcast import Broadcaster
from ..web.hub import STATE_KEY as FLEET_STATE_KEY
from ..web.pairing import dashboard_url, lan_address, page_url
from .servers import (
    JOIN_SECONDS,
    ServeError,
    close_http,
    http_server,
    is_unspecified,
    listen,
    run_http,
    websocket_server,
)


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
        self._http_server: Any = None
        self._ws_server: BaseWSGIServer | None = None
        self._app: Any = None
        self._fleet: FleetRuntime | None = None
        self._started = False
        self.alerts: AlertService | None = None

    @property
    def broadcaster(self) -> Broadcaster:
        """The websocket client registry (exists once started)."""
        if self._app is None:
            raise RuntimeError("the Dashboard is not started")
        broadcaster: Broadcaster = self._app.extensions["tokwatch"].broadcaster
        return broadcaster

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
        try:
            self._fleet = open_fleet(self.config, self.monitor)
            self._app = create_app(self.config, self.monitor, self.recorder, alerts=self.alerts,
                                   hub=self._fleet.hub, hub_url=hub_url(self.config))
        except (ConfigError, ServeError):
            http_socket.close()
            ws_socket.close()
            raise

        self._http_server = http_server(self._app.wsgi_app, http_socket, self.config, self._http_map)
        self._ws_server = websocket_server(self._app.wsgi_app, bound_host, ws_socket, self.config)

        if self.demo is not None:
            self.demo.start()
        if self.recorder is not None:
            self.monitor.keep_passes()
        self.monitor.decorate = self._decorate
        self.monitor.start()
        if self.recorder is not None:
            self.recorder.start(self.monitor)  # its import runs on its own thread
        self.broadcaster.start()
        monitor = self.monitor
        self.alerts.start(lambda: to_dict(monitor.snapshot()), monitor.wait_for_change, monitor.touch,
                          interrupt=monitor.interrupt)
        if self._fleet.hub is not None:
            self._app.extensions[FLEET_STATE_KEY].broadcaster.start()
        self._fleet.start()
        self._spawn("tokwatch-http", self._run_http)
        self._spawn("tokwatch-ws", self._run_ws)
        return self.config

    def stop(self) -> None:
        """Stop everything within a few seconds; safe to call twice."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        if self._http_server is not None:
            self._http_server.pull_trigger()  # wake its loop to see the stop
        if self._app is not None:
            self.broadcaster.stop()
            if FLEET_STATE_KEY in self._app.extensions:
                self._app.extensions[FLEET_STATE_KEY].broadcaster.stop()
        if self._ws_server is not None:
            if any(thread.name == "tokwatch-ws" for thread in self._threads):
                self._ws_server.shutdown()  # waits for serve_forever: only once it was started
            self._ws_server.server_close()
        for thread in self._threads:
            thread.join(JOIN_SECONDS)
        if self._http_server is not None and not any(t.name == "tokwatch-http" for t in self._threads):
            # Built but never run (start failed half-way): close what _run_http would have.
            close_http(self._http_server, self._http_map)
        if self.alerts is not None:
            self.alerts.stop()
        if self._fleet is not None:
            self._fleet.stop()  # the servers are down: no request reads the hub's file any more
        self.monitor.stop()
        if self.recorder is not None:
            self.recorder.stop()  # after the tailer: its last observation has every line read
        if self.demo is not None:
            self.demo.stop()  # last: the tailer must not see its file vanish

    def _decorate(self, snapshot: Snapshot) -> Snapshot:
        """The wiring's sections of a snapshot: the history's (usual, today) and the alerts."""
        if self.recorder is not None:
            snapshot = self.recorder.decorate(snapshot)
        alerts = self.alerts
        snapshot = replace(snapshot, problems=tuple(supervise.problems()))
        return snapshot if alerts is None else replace(snapshot, alerts=alerts.status())

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _run_http(self) -> None:
        run_http(self._http_server, self._http_map, self._stopping)

    def _run_ws(self) -> None:
        assert self._ws_server is not None
        self._ws_server.serve_forever()


def open_fleet(config: Config, monitor: Monitor) -> FleetRuntime:
    """The hub and the agent the config asks for (neither: an empty runtime); raise ServeError."""
    try:
        return FleetRuntime.open(
            config,
            version=lambda: monitor.version,
            wait_for_change=monitor.wait_for_change,
            snapshot=lambda: to_dict(monitor.snapshot()),
            interrupt=monitor.interrupt,
            reserved_name=None if monitor.log_path is None else config.resolved_machine_name,
        )
    except FleetError as e:
        raise ServeError(str(e)) from e


def hub_url(config: Config) -> str:
    """What agents should --report-to: this hub's LAN address when it listens beyond loopback."""
    address = "127.0.0.1" if config.loopback_only else (lan_address(config.host) or "HUB")
    return page_url(address, config.port, None).rstrip("/")
