"""Which server runs what: waitress for HTTP, Werkzeug for /ws, each on its own bound socket.

Why two servers: waitress cannot upgrade a connection to a websocket — simple-websocket needs
the raw socket, which only Werkzeug, Gunicorn, eventlet and gevent put in the WSGI environ, and
waitress's maintainers declined to expose it ("the channel object is not an api", waitress PR
#389). So /ws gets its own port, served by Werkzeug's threaded server in this same process over
the same Monitor, and waitress serves everything else.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Callable, Iterable
from typing import Any

from waitress import wasyncore
from waitress.server import BaseWSGIServer as WaitressServer
from waitress.server import create_server

from ..allocator import TRIMMER
from ..config import Config
from ..errors import CommandError
from ..web.websocket import SERVER_ROLE_KEY
from .limits import HEAD_MAX_BYTES, SERVER_NAME, AddressSlots, limited_channels
from .wsserver import WS_CONNECTION_HEADROOM, WS_PENDING_PER_ADDRESS, QuietHandler, WebsocketServer

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
JOIN_SECONDS = 3.0


class ServeError(CommandError):
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


def is_unspecified(address: str) -> bool:
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


def http_server(app: WSGIApp, sock: socket.socket, config: Config, channels: dict[int, Any]) -> Any:
    """waitress on the bound HTTP socket; ``channels`` is its map (its loop runs in :class:`HttpLoop`).

    One client address may hold only so many of waitress's connections; waitress's own errors
    get the safe headers.
    """
    server = create_server(_with_role(app, "http"), map=channels, sockets=[sock], **HTTP_OPTIONS)
    limited = limited_channels(AddressSlots(per_address=config.max_connections_per_address))
    for dispatcher in list(channels.values()):
        if isinstance(dispatcher, WaitressServer):
            dispatcher.channel_class = limited
    return server


class HttpLoop:
    """waitress's loop, stepped until stopped and then closed; stopped from another thread.

    waitress's own run() loops until the process ends; stepping its loop here lets the owner
    stop it without closing sockets under a running select. The stop wakes the loop through its
    trigger (a pipe) only while the loop has not closed it: a write to a closed descriptor fails,
    or lands in whatever file has since taken its number.
    """

    def __init__(self, server: Any, channels: dict[int, Any]) -> None:
        self.server = server
        self.channels = channels
        self._lock = threading.Lock()
        self._stopping = False
        self._closed = False

    def run(self) -> None:
        """Serve until :meth:`stop`, then close."""
        try:
            while not self._stopping:
                wasyncore.loop(timeout=HTTP_LOOP_SECONDS, map=self.channels, use_poll=True, count=1)
                TRIMMER.due()
        finally:
            self.close()

    def stop(self) -> None:
        """Ask the loop to end and wake it (safe before, during or after :meth:`run`, and twice)."""
        with self._lock:
            self._stopping = True
            if not self._closed:
                self.server.pull_trigger()

    def close(self) -> None:
        """Stop waitress's workers and close its sockets (once; also for a loop never run)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True  # from here on no stop writes to the trigger
        self.server.task_dispatcher.shutdown(timeout=JOIN_SECONDS)
        wasyncore.close_all(self.channels)


def websocket_server(app: WSGIApp, host: str, sock: socket.socket, config: Config) -> WebsocketServer:
    """Werkzeug's threaded server, bounded, on the bound websocket socket (closed here: it keeps a copy).

    Werkzeug takes the bound socket by descriptor (it duplicates it), so both ports were
    reserved before the app had to know them.
    """
    try:
        return WebsocketServer(
            host,
            config.effective_ws_port,
            _with_role(app, "ws"),
            handler=QuietHandler,
            fd=sock.fileno(),
            # Room past the client cap so the refusals (503) still get through; handshakes not
            # yet accepted may hold only that room, and only a few of it per client address.
            max_connections=config.max_ws_clients + WS_CONNECTION_HEADROOM,
            max_pending=WS_CONNECTION_HEADROOM,
            max_per_address=WS_PENDING_PER_ADDRESS,
            handshake_timeout_seconds=config.handshake_timeout_seconds,
        )
    finally:
        sock.close()
