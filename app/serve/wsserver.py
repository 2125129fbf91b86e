"""The websocket port's server: Werkzeug's threaded server, bounded before a handshake is accepted.

Werkzeug's own threaded server starts a thread per connection with no limit and no deadline,
and its handler reads up to 100 header lines of 64 KiB each before anything looks at them. Here
every connection has a deadline and a head cap until the websocket guard accepts it (app.web.websocket
calls ``environ[ACCEPT_KEY]``); connections still in their handshake share slots of their own,
capped per client address, so they never hold the slots accepted dashboards use.
"""

from __future__ import annotations

import contextlib
import http.client
import logging
import selectors
import socket
import socketserver
import threading
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler

from ..allocator import TRIMMER
from ..web.websocket import ACCEPT_KEY
from .limits import ERROR_HEADERS, HEAD_MAX_BYTES, SERVER_NAME, HeadReader, PendingHandshakes

log = logging.getLogger(__name__)

# Connections the websocket port holds beyond the client cap: refused handshakes, stray requests,
# and every handshake not yet accepted.
WS_CONNECTION_HEADROOM = 32
# Handshakes not yet accepted that one client address may hold on the websocket port.
WS_PENDING_PER_ADDRESS = 8
# Of the pending slots, those only loopback clients (the owner's browser, a reverse proxy) may take.
WS_PENDING_RESERVED_LOOPBACK = 8


class QuietHandler(WSGIRequestHandler):
    """Werkzeug's handler, bounded before authentication, quiet, and without version banners.

    No line on stderr per request (a websocket is one long request); a request head of at most
    ``HEAD_MAX_BYTES`` within the handshake deadline; errors it makes itself carry the safe
    headers; ``Server: tokwatch`` instead of Werkzeug's and Python's versions.
    """

    server: WebsocketServer
    _head: HeadReader
    _error_headers = False

    def setup(self) -> None:
        """Give the request line and headers a deadline and a size cap, lifted once accepted.

        A socket timeout alone bounds each read, so a client trickling a byte at a time would
        never meet it: a timer shuts the connection at the deadline unless it was accepted.
        """
        super().setup()
        self._head = HeadReader(self.rfile, HEAD_MAX_BYTES)
        self.rfile = self._head  # type: ignore[assignment]  # reads like the file it wraps
        seconds = self.server.handshake_timeout_seconds
        self.connection.settimeout(seconds)
        self._accepted = False
        self._deadline = threading.Timer(seconds, self._expire)
        self._deadline.daemon = True
        self._deadline.start()

    def make_environ(self) -> dict[str, Any]:
        """Werkzeug's environ, plus the call the /ws guard makes once it accepts the handshake."""
        environ = super().make_environ()
        environ[ACCEPT_KEY] = self._accept
        return environ

    def _accept(self) -> None:
        """The handshake passed every check: lift its deadline and leave the pending slots."""
        self._accepted = True
        self.connection.settimeout(None)
        self._deadline.cancel()
        self.server.accepted(self.client_address)

    def _expire(self) -> None:
        if not self._accepted:
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)

    def handle_one_request(self) -> None:
        """Serve one request; a request line over the head cap gets 414, not a traceback."""
        self._head.new_request()
        try:
            super().handle_one_request()
        except http.client.LineTooLong:
            self.requestline = self.request_version = self.command = ""
            self.send_error(414)
            self.close_connection = True

    def finish(self) -> None:
        """Cancel the deadline of a connection that is over."""
        self._deadline.cancel()
        super().finish()

    def version_string(self) -> str:
        """Say ``tokwatch``, not Werkzeug's and Python's versions."""
        return SERVER_NAME

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own error page, with the safe headers."""
        self._error_headers = True
        try:
            super().send_error(code, message, explain)
        finally:
            self._error_headers = False

    def end_headers(self) -> None:
        """End the headers, adding the safe ones to an error the server made itself."""
        if self._error_headers:
            for name, value in ERROR_HEADERS:
                self.send_header(name, value)
        super().end_headers()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass  # the request line carries the LAN token (?token=…): never write it anywhere

    def log(self, type: str, message: str, *args: Any) -> None:
        log.debug("ws server: " + message.rstrip(), *args)


class WebsocketServer(socketserver.ThreadingMixIn, BaseWSGIServer):
    """Werkzeug's threaded server with a cap on open connections.

    Werkzeug's own threaded server starts a thread for every connection with no limit and no
    socket timeout, so clients that trickle half a request (slowloris) would each hold a thread
    for as long as they like. Here a request must arrive within the handshake timeout, and past
    ``max_connections`` a new connection is closed at once.
    """

    multithread = True
    daemon_threads = True

    def __init__(
        self,
        *args: Any,
        max_connections: int,
        max_pending: int,
        max_per_address: int,
        handshake_timeout_seconds: float,
        **kwargs: Any,
    ) -> None:
        # serve_forever sleeps in select on the listening socket and a socket pair of its own
        # that shutdown() writes to, so no poll interval is needed to notice a stop.
        self._wake_lock = threading.Lock()
        self._wake: tuple[socket.socket, socket.socket] | None = None
        self._shutdown_request = False
        self._is_shut_down = threading.Event()
        super().__init__(*args, **kwargs)
        self.handshake_timeout_seconds = handshake_timeout_seconds
        self.max_connections = max_connections
        self._slots = threading.BoundedSemaphore(max_connections)
        # Connections not yet accepted as a dashboard: capped in all and per client address, so
        # strangers' half-open connections never hold the slots accepted dashboards use, with a
        # share kept for loopback and the oldest stranger evicted when the rest is full.
        self.pending = PendingHandshakes(
            per_address=max_per_address, total=max_pending, reserved=min(WS_PENDING_RESERVED_LOOPBACK, max_pending // 4)
        )

    def serve_forever(self, poll_interval: float | None = None) -> None:
        """Accept connections until :meth:`shutdown`, asleep in between (``poll_interval``: ignored).

        socketserver's own loop wakes every ``poll_interval`` to look for a shutdown request;
        this one is woken by the request itself.
        """
        self._is_shut_down.clear()
        wake_read, wake_write = socket.socketpair()
        try:
            with self._wake_lock:
                self._wake = (wake_read, wake_write)
            with selectors.DefaultSelector() as selector:
                selector.register(self, selectors.EVENT_READ)
                selector.register(wake_read, selectors.EVENT_READ)
                while not self._shutdown_request:
                    ready = selector.select()
                    if self._shutdown_request:
                        break
                    if any(key.fileobj is self for key, _ in ready):
                        self._handle_request_noblock()  # type: ignore[attr-defined]  # socketserver's own step
                    self.service_actions()
        finally:
            with self._wake_lock:
                self._wake = None
            wake_read.close()
            wake_write.close()
            self._shutdown_request = False
            self._is_shut_down.set()
            self.server_close()

    def shutdown(self) -> None:
        """Stop serve_forever (running on another thread) and wait until it has."""
        with self._wake_lock:
            self._shutdown_request = True
            if self._wake is not None:
                with contextlib.suppress(OSError):  # a wake-up already waits in the pair
                    self._wake[1].send(b"\0")
        self._is_shut_down.wait()

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection on a thread of its own, or close it when its slots are taken."""
        address = str(client_address[0])

        def evict() -> None:
            with contextlib.suppress(OSError):
                request.shutdown(socket.SHUT_RDWR)  # its handler reads the end and frees its thread

        if not self.pending.admit(tuple(client_address), address, evict):
            log.debug("websocket port: too many pending connections (from %s), refusing one more", address)
            self.shutdown_request(request)
            return
        if not self._slots.acquire(blocking=False):
            self.pending.leave(tuple(client_address))
            log.debug("websocket port: %d connections open, refusing one more", self.max_connections)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(client_address)
            raise

    def accepted(self, client_address: Any) -> None:
        """A connection became a dashboard: it no longer counts as pending."""
        self._leave_pending(client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        """Serve one connection, then free its slots."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(client_address)
            TRIMMER.request()  # what its messages and buffers took is free now: give it back

    def service_actions(self) -> None:
        """Each turn of the accept loop: run a trim that was asked for within its interval."""
        super().service_actions()
        TRIMMER.due()

    def _release(self, client_address: Any) -> None:
        self._leave_pending(client_address)
        self._slots.release()

    def _leave_pending(self, client_address: Any) -> None:
        self.pending.leave(tuple(client_address))
