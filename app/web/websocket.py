"""One websocket session, for /ws and /ws/fleet alike: vet the handshake, push, close, free the socket.

Also the two environ keys the servers (app.serve) set on a request, so they need nothing of the
routes: which server received it, and the call that accepts a handshake.
"""

from __future__ import annotations

import contextlib
import logging
import select
import socket
import time
from collections.abc import Callable

from flask import request
from flask_sock import Sock
from simple_websocket import Server
from wsproto.utilities import LocalProtocolError

from ..config import Config
from . import security
from .broadcast import CLOSE_POLICY_VIOLATION, Broadcaster, ClientClosed, Payload, WakingEvent, pump, text_of

log = logging.getLogger(__name__)

# The server that received a request, set by app.serve.servers: waitress ("http") or Werkzeug ("ws").
# Requests without it (Flask's test client) may reach every route.
SERVER_ROLE_KEY = "tokwatch.server"
# Set by app.serve.wsserver: call it once a handshake passed every check.
ACCEPT_KEY = "tokwatch.accept"
CLOSE_NORMAL = 1000
# Close code for a handshake that raced past the cap check: 1013, "try again later".
CLOSE_TRY_AGAIN_LATER = 1013
# Ending a session: how long to wait for the client's close reply, and how much of whatever it
# still sends to read and drop before shutting the socket (see finish()).
CLOSE_HANDSHAKE_SECONDS = 1.0
DISCARD_SECONDS = 1.0
DISCARD_QUIET_SECONDS = 0.05
DISCARD_MAX_BYTES = 64 << 20

sock = Sock()


def vet_handshake(config: Config, broadcaster: Broadcaster, *, full: str) -> None:
    """Refuse a handshake without the token, from another page's origin, malformed, or past the cap; accept the rest.

    ``full``: what a client turned away by the cap is told (503).
    """
    security.require_token(config, query_param=True)
    security.require_websocket_origin(config)
    security.require_websocket_handshake()
    if broadcaster.is_full():
        security.refuse(503, full)
    # The handshake arrived in time and passed (app.serve.wsserver bounds it until now): a live
    # websocket may stay idle, and no longer counts as a pending connection.
    accept = request.environ.get(ACCEPT_KEY)
    if accept is not None:
        accept()


def session(
    connection: Server, broadcaster: Broadcaster, first: Callable[[], Payload], *, keepalive_seconds: float, full: str
) -> None:
    """Send ``first()`` now, then every change the broadcaster offers (coalesced) and a keepalive when idle."""
    client = broadcaster.join(abort=lambda: connection.sock.shutdown(socket.SHUT_RDWR))
    if client is None:  # the cap filled up between the handshake's check and here
        finish(connection, CLOSE_TRY_AGAIN_LATER, full)
        return
    code, reason = CLOSE_NORMAL, ""
    # Incoming messages wake the client's thread, which drops them (and closes a flooder) at once.
    connection.event = WakingEvent(client.poke)
    if connection.input_buffer:
        client.poke()
    try:
        text, sent = text_of(first(), None)
        connection.send(text)
        client.window.went(time.monotonic())  # the first snapshot counts towards the page's pushes a second
        pump(connection, client, keepalive_seconds=keepalive_seconds, sent=sent)
    except ClientClosed as closed:
        code, reason = closed.code, closed.reason
    except (OSError, LocalProtocolError) as e:
        # The peer vanished mid-send (reset, broken pipe, aborted as stalled), or simple-websocket's
        # reader closed the connection under us (a message over the size cap): it is over either way.
        log.debug("websocket client gone: %s", e)
    finally:
        broadcaster.leave(client)
        finish(connection, code, reason, linger=code != CLOSE_POLICY_VIOLATION)


def drop_unread(connection: Server) -> None:
    """Free what the client sent and no one will read, now rather than at the collector's full pass.

    flask-sock builds a response class per websocket request whose method closes over the
    connection: a reference cycle, so the connection (and every message its reader thread
    queued after the last drain: a flooding client's hundreds of KB) outlives its request until
    Python's rare full collection. Round after round of floods, that garbage was the ratchet.
    """
    connection.input_buffer.clear()
    connection.incoming_message = None
    connection.incoming_message_len = 0


def finish(connection: Server, code: int, reason: str, *, linger: bool = True) -> None:
    """Close the websocket, then free its socket within a second whatever the client does.

    After the view returns, Werkzeug drains what is left of the "request body" with a blocking
    ``rfile.read`` while the socket is readable: the unread rest of a refused oversized frame
    would hold the connection and its thread until the client left. So the rest is read here,
    for at most DISCARD_SECONDS, and the socket shut, which Werkzeug's drain reads as EOF.
    ``linger=False`` (a client flooding messages): the close frame goes out and the socket is
    shut at once, so nothing more it sends is read and queued.
    """
    try:
        if connection.connected:
            connection.close(code, reason or None)
    except (OSError, LocalProtocolError) as e:  # closed already, by the peer or the reader
        log.debug("closing a websocket: %s", e)
    sock = connection.sock
    if not linger:
        with contextlib.suppress(OSError, ValueError):
            sock.shutdown(socket.SHUT_RDWR)
        # Its reader thread sees the end at once; Werkzeug must not close the descriptor under
        # it first (a poll on a closed, reused descriptor waits for another client's bytes).
        connection.thread.join(CLOSE_HANDSHAKE_SECONDS)
        drop_unread(connection)
        return
    # Let the close handshake finish on simple-websocket's own reader thread.
    connection.thread.join(CLOSE_HANDSHAKE_SECONDS)
    drop_unread(connection)
    deadline = time.monotonic() + DISCARD_SECONDS
    discarded = 0
    try:
        while discarded < DISCARD_MAX_BYTES and time.monotonic() < deadline:
            readable, _, _ = select.select([sock], [], [], DISCARD_QUIET_SECONDS)
            chunk = sock.recv(1 << 16) if readable else b""
            if not chunk:
                break
            discarded += len(chunk)
        sock.shutdown(socket.SHUT_RDWR)
    except (OSError, ValueError):
        pass  # the socket is already gone
