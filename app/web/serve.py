"""Run the dashboard: the watcher, waitress for HTTP, Werkzeug for /ws, until Ctrl-C or SIGTERM.

Why two servers: waitress cannot upgrade a connection to a websocket — simple-websocket needs
the raw socket, which only Werkzeug, Gunicorn, eventlet and gevent put in the WSGI environ, and
waitress's maintainers declined to expose it ("the channel object is not an api", waitress PR
#389). So /ws gets its own port, served by Werkzeug's threaded server in this same process over
the same Monitor, and waitress serves everything else.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from waitress import wasyncore
from waitress.server import BaseWSGIServer as WaitressServer
from waitress.server import create_server
from werkzeug.serving import BaseWSGIServer

from app.alerts import AlertService, alert_service, describe_alerts
from app.allocator import TRIMMER
from app.config import Config, ConfigError
from app.demo import DemoLog
from app.hub.runtime import FleetError, FleetRuntime
from app.monitor import Monitor
from app.recorder import Recorder
from app.snapshot import Snapshot, to_dict
from app.web import create_app
from app.web.broadcast import Broadcaster
from app.web.fleet import STATE_KEY as FLEET_STATE_KEY
from app.web.limits import HEAD_MAX_BYTES, SERVER_NAME, AddressSlots, limited_channels
from app.web.pairing import dashboard_url, lan_address, local_url, page_url, phone_url, terminal_qr
from app.web.routes import SERVER_ROLE_KEY
from app.web.security import default_config_dir, is_ip_literal, load_or_create_token, token_path
from app.web.wsserver import WS_CONNECTION_HEADROOM, WS_PENDING_PER_ADDRESS, QuietHandler, WebsocketServer

log = logging.getLogger(__name__)

WSGIApp = Callable[[dict[str, Any], Any], Iterable[bytes]]

# waitress serves only short requests (the page, static files, a poll every 5 s per viewer);
# websockets never hold one of its threads. Eight covers a handful of devices with room.
HTTP_THREADS = 8
HTTP_OPTIONS: dict[str, Any] = {
    "threads": HTTP_THREADS,
    "max_request_body_size": 16 * 1024,  # no uploads (default 1 GiB)
    "max_request_header_size": HEAD_MAX_BYTES,  # default 256 KiB
    "connection_limit": 100,
    "channel_timeout": 60,  # idle keep-alive connections; a poll comes every 5 s
    "asyncore_use_poll": True,  # select() caps descriptors at 1024
    "ident": SERVER_NAME,
}
# waitress's loop sleeps in poll() until a socket or its trigger (pulled by stop()) wakes it; at
# least this often it wakes anyway, as its own run() does, to close idle keep-alive connections.
HTTP_LOOP_SECONDS = 30.0
# The main thread sleeps until a signal; where a signal cannot cut a wait short (Windows), it
# looks up this often.
MAIN_WAIT_SECONDS: float | None = None if os.name == "posix" else 0.5
JOIN_SECONDS = 3.0
BACKLOG_WAIT_SECONDS = 3.0


class ServeError(Exception):
    """The dashboard cannot start (a port in use, an address that does not exist)."""


def listen(host: str, port: int) -> socket.socket:
    """Bind a listening TCP socket (port 0: an ephemeral one); raise ServeError when it cannot."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, _, _, _, address = infos[0]
        dual_stack = family == socket.AF_INET6 and host in ("::", "") and socket.has_dualstack_ipv6()
        return socket.create_server(address[:2], family=family, dualstack_ipv6=dual_stack, backlog=128)
    except OSError as e:
        reason = e.strerror or str(e)
        if port and getattr(e, "errno", None) in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
            reason = f"port {port} is already in use (pick another with --port / --ws-port)"
        raise ServeError(f"cannot listen on {host}:{port}: {reason}") from e


def _is_unspecified(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_unspecified
    except ValueError:
        return False


def _with_role(app: WSGIApp, role: str) -> WSGIApp:
    """Tell the app which server a request came through (the ws port serves /ws only)."""

    def tagged(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        environ[SERVER_ROLE_KEY] = role
        return app(environ, start_response)

    return tagged


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
        if _is_unspecified(bound_host) and config.host != bound_host:
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

        self._http_server = create_server(
            _with_role(self._app.wsgi_app, "http"), map=self._http_map, sockets=[http_socket], **HTTP_OPTIONS
        )
        # One client address may hold only so many of waitress's connections; waitress's own
        # errors get the safe headers.
        channels = limited_channels(AddressSlots(per_address=self.config.max_connections_per_address))
        for dispatcher in list(self._http_map.values()):
            if isinstance(dispatcher, WaitressServer):
                dispatcher.channel_class = channels
        # Werkzeug takes the bound socket by descriptor (it duplicates it), so both ports were
        # reserved before the app had to know them.
        self._ws_server = WebsocketServer(
            bound_host,
            self.config.effective_ws_port,
            _with_role(self._app.wsgi_app, "ws"),
            handler=QuietHandler,
            fd=ws_socket.fileno(),
            # Room past the client cap so the refusals (503) still get through; handshakes not
            # yet accepted may hold only that room, and only a few of it per client address.
            max_connections=self.config.max_ws_clients + WS_CONNECTION_HEADROOM,
            max_pending=WS_CONNECTION_HEADROOM,
            max_per_address=WS_PENDING_PER_ADDRESS,
            handshake_timeout_seconds=self.config.handshake_timeout_seconds,
        )
        ws_socket.close()

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
        self.alerts.start(lambda: to_dict(monitor.snapshot()), monitor.wait_for_change, monitor.touch)
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
            self._http_server.task_dispatcher.shutdown(timeout=JOIN_SECONDS)
            wasyncore.close_all(self._http_map)
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
        return snapshot if alerts is None else replace(snapshot, alerts=alerts.status())

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _run_http(self) -> None:
        # waitress's own run() loops until the process ends; stepping its loop here lets the
        # owner stop it from another thread without closing sockets under a running select.
        server = self._http_server
        try:
            while not self._stopping.is_set():
                wasyncore.loop(timeout=HTTP_LOOP_SECONDS, map=self._http_map, use_poll=True, count=1)
                TRIMMER.due()
        finally:
            server.task_dispatcher.shutdown(timeout=JOIN_SECONDS)
            wasyncore.close_all(self._http_map)

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
        )
    except FleetError as e:
        raise ServeError(str(e)) from e


def hub_url(config: Config) -> str:
    """What agents should --report-to: this hub's LAN address when it listens beyond loopback."""
    address = "127.0.0.1" if config.loopback_only else (lan_address(config.host) or "HUB")
    return page_url(address, config.port, None).rstrip("/")


# --- the command --------------------------------------------------------------------


def serve(config: Config, *, out: TextIO | None = None) -> int:
    """Run the dashboard until Ctrl-C or SIGTERM; return the exit status.

    Raises ServeError (a port in use), TokenStoreError or ConfigError (a bad token): run.py
    turns them into a message.
    """
    from app.ingest.files import default_log_path

    out = out if out is not None else sys.stdout
    log_path = config.log_path
    hub_only = config.hub and log_path is None and not config.demo  # a hub follows no log unless given one
    if log_path is None and not config.demo and not hub_only:
        log_path = default_log_path()
    config = with_token(config)
    demo: DemoLog | None = None
    if not hub_only and (config.demo or log_path is None):
        demo = DemoLog.create()
        log_path = demo.path

    monitor = Monitor(log_path, format_name=config.format_name, demo=demo is not None)
    recorder = None if log_path is None else build_recorder(config, log_path, demo=demo is not None)
    dashboard = Dashboard(config, monitor, demo=demo, recorder=recorder)
    try:
        config = dashboard.start()
    except BaseException:
        dashboard.stop()  # also deletes the demo file
        raise

    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    # SIGHUP too: closing the terminal window must still stop cleanly (and delete a DEMO log).
    stopping = [signal.SIGINT, signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {sig: signal.signal(sig, on_signal) for sig in stopping}
    try:
        # Print the URL once the backlog is in, so the first page shows figures, not "waiting".
        if log_path is not None and log_path.exists():
            monitor.wait_for_change(0, timeout=BACKLOG_WAIT_SECONDS)
        if not stop.is_set():
            print_banner(config, log_path, demo=demo is not None, given_demo=config.demo, out=out)
            if config.open_browser:
                open_in_browser(local_url(config), out=out)
            print("  Ctrl-C to stop", file=out, flush=True)
        while not stop.wait(MAIN_WAIT_SECONDS):
            pass
        print("tokwatch: stopping…", file=out, flush=True)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        dashboard.stop()
    return 0


def build_recorder(config: Config, log_path: Path, *, demo: bool) -> Recorder:
    """The history for this log: in ``--data-dir`` or the user's data dir; none with ``--no-history``.

    The demo's made-up figures are kept only where ``--data-dir`` says, never in the user's history.
    """
    from app.store import History, default_data_dir

    data_dir = config.data_dir if config.data_dir is not None else default_data_dir()
    keep = config.history and (not demo or config.data_dir is not None)
    return Recorder(History(data_dir if keep else None), log_path, format_name=config.format_name, machine=config.name)


def has_display(environ: Mapping[str, str], platform: str) -> bool:
    """True where a browser can show a window: macOS and Windows always, elsewhere X11 or Wayland."""
    if platform == "darwin" or platform.startswith("win"):
        return True
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def open_in_browser(url: str, *, out: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Open the dashboard in the user's browser, unless there is no display to show it on."""
    if not has_display(environ, sys.platform):
        print("  (no display here: open the link above in a browser yourself)", file=out, flush=True)
        return False
    import webbrowser

    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        print("  (could not start a browser: open the link above yourself)", file=out, flush=True)
    return opened


def with_token(config: Config) -> Config:
    """Give a non-loopback config its token: ``--token``, else the one kept in the config dir."""
    if config.token is not None or config.loopback_only:
        return config
    directory = config.config_dir if config.config_dir is not None else default_config_dir()
    return replace(config, token=load_or_create_token(directory), token_file=token_path(directory))


def print_hub_banner(config: Config, *, out: TextIO) -> None:
    """Say where the fleet is and how machines join it."""
    print(f"  fleet: /fleet on the URL above; machines report to {hub_url(config)}", file=out)
    print("  add a machine: python run.py --enroll NAME (here), then start its tokwatch with the printed key",
          file=out)
    if config.loopback_only:
        print("  note: this hub listens on this machine only; for machines on the LAN start it with --host 0.0.0.0",
              file=out)


def print_banner(config: Config, log_path: Path | None, *, demo: bool, given_demo: bool, out: TextIO) -> None:
    """Say what is watched and which URL(s) to open (with a QR code for a phone on the LAN)."""
    if log_path is None:
        print("tokwatch: hub — every enrolled machine on one page", file=out)
    elif demo:
        why = "" if given_demo else " (no Train at Home log found; pass --log PATH for yours)"
        print(f"tokwatch: DEMO — replaying a composed Train-at-Home log{why}", file=out)
    else:
        print(f"tokwatch: following {log_path}", file=out)
    if config.loopback_only:
        print(f"  open {local_url(config)}", file=out)
    else:
        print(f"  on this machine: {local_url(config)}", file=out)
        phone = phone_url(config)
        if phone is None:
            print("  on your phone:   http://<this machine's LAN address>:"
                  f"{config.port}/#token={config.token}", file=out)
        else:
            print(f"  on your phone:   {phone}", file=out)
            # Black on white with its quiet zone, whatever the terminal's theme.
            out.write(terminal_qr(phone))
            print("  (or scan the code the dashboard shows on this machine, under \"Open on your phone\")", file=out)
        if not is_ip_literal(config.host) and config.host not in ("0.0.0.0", "::", "localhost") \
                and config.host.lower() not in (h.lower() for h in config.allow_hosts):
            print(f"  note: browsers asking for {config.host} by name need --allow-host {config.host}", file=out)
        print("  the token is kept in the config folder; anyone who has it can read these figures,", file=out)
        print("  and plain HTTP carries it in clear: a home LAN is fine, public Wi-Fi is not.", file=out)
    if config.hub:
        print_hub_banner(config, out=out)
    print(f"  websocket on port {config.effective_ws_port} (the page finds it; polls /api/snapshot if blocked)",
          file=out, flush=True)
    if config.notify_urls or config.heartbeat_url:
        print(f"  {describe_alerts(config)}", file=out, flush=True)
