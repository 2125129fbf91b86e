"""Push the newest snapshot to every websocket client; a slow client never holds up the others.

One broadcaster thread sleeps until the monitor changes, serialises once per change and drops the
payload into each client's one-slot mailbox; each client's own thread (its websocket handler, see
:func:`pump`) sends whatever is newest when it is ready. A client whose send blocks skips the
versions it missed: no backlog, no delay for the broadcaster, the tailer or anyone else. A send
stuck for ``stall_seconds`` gets the client's socket shut.

When pushes go is the :class:`Pacer`'s business: a change after a quiet spell goes out as soon as
the log has been quiet for a moment (the rest of a burst of lines rides along), and never more
than ``1 / push_interval_seconds`` pushes in any second. Each client's thread holds the same
limit over its own sends (a :class:`PushWindow`): a send the scheduler delayed cannot bunch up
with the next ones, and whatever is offered while a send is held replaces it, so the newest
always goes. Nothing here wakes on a timer while the log is quiet except the periodic refresh
(ages, the chart's hour) and the keepalive.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

from ..changes import ChangeSource
from ..supervise import supervised
from .pacing import Pacer, PushWindow

log = logging.getLogger(__name__)

# Sent when a client has had nothing for keepalive_seconds: the page's proof the link is alive.
KEEPALIVE_JSON = '{"keepalive":true}'
# Messages a client may send before it is closed (the page sends none).
MAX_CLIENT_MESSAGES = 8
CLOSE_POLICY_VIOLATION = 1008
# A look for stuck sends comes this long after the first could be stuck, so it finds it stuck.
STALL_CHECK_MARGIN_SECONDS = 0.05


class Frame(Protocol):
    """A payload each client is sent relative to what it has (the fleet page's deltas)."""

    def text_after(self, sent: Frame | None) -> str: ...


Payload = str | Frame


def text_of(payload: Payload, sent: Frame | None) -> tuple[str, Frame | None]:
    """The text to send for ``payload`` to a client holding ``sent``, and what it holds then."""
    if isinstance(payload, str):
        return payload, sent
    return payload.text_after(sent), payload


class WebSocketLike(Protocol):
    """The part of ``simple_websocket.Server`` that :func:`pump` uses."""

    connected: bool

    def send(self, data: str) -> None: ...

    def receive(self, timeout: float | None = None) -> str | bytes | None: ...


class WakingEvent(threading.Event):
    """A websocket's "message arrived" event that also wakes the client's thread to drain it.

    simple-websocket queues every incoming message until someone calls ``receive``; the page
    sends nothing, so the client's thread (which sleeps on its mailbox) drains them as they come
    instead of letting a flood pile up between its looks.
    """

    def __init__(self, wake: Callable[[], None]) -> None:
        super().__init__()
        self._wake = wake

    def set(self) -> None:
        """Set the event and wake the client's thread."""
        super().set()
        self._wake()


class ClientClosed(Exception):
    """The broadcaster closed this client (shutdown); ``code`` and ``reason`` go to its close frame."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class Client:
    """One websocket viewer: a one-slot mailbox holding the newest payload, and its send state.

    ``window``: the limit on how many pushes its thread sends in any second (None: none).
    """

    def __init__(self, abort: Callable[[], None] | None = None, window: PushWindow | None = None) -> None:
        self.window = window if window is not None else PushWindow(0)  # read and fed by the client's thread only
        self._changed = threading.Condition()
        self._payload: Payload | None = None
        self._poked = False
        self._closed: ClientClosed | None = None
        self._abort = abort
        self._aborted = False
        self.sending_since: float | None = None  # monotonic time a send began, None when idle

    def offer(self, payload: Payload) -> None:
        """Replace whatever is waiting with the newest payload (never blocks on the network)."""
        with self._changed:
            self._payload = payload
            self._changed.notify_all()

    def poke(self) -> None:
        """Wake the client's thread without a payload (the peer sent something to drain)."""
        with self._changed:
            self._poked = True
            self._changed.notify_all()

    def take(self, timeout: float) -> Payload | None:
        """Return the newest payload and empty the slot, or None after ``timeout`` or a poke; raise ClientClosed."""
        with self._changed:
            self._changed.wait_for(
                lambda: self._payload is not None or self._closed is not None or self._poked, timeout
            )
            self._poked = False
            if self._closed is not None:
                raise self._closed
            payload, self._payload = self._payload, None
            return payload

    def close(self, code: int, reason: str) -> None:
        """Make the client's thread stop at its next look (its close frame carries code and reason)."""
        with self._changed:
            if self._closed is None:
                self._closed = ClientClosed(code, reason)
            self._changed.notify_all()

    @property
    def aborted(self) -> bool:
        """True once the client's socket was shut under a stuck send."""
        return self._aborted

    def abort(self) -> None:
        """Shut the client's socket under a stuck send; called at most once."""
        if self._aborted or self._abort is None:
            return
        self._aborted = True
        try:
            self._abort()
        except OSError as e:  # already closed: nothing left to free
            log.debug("aborting a websocket client: %s", e)


def pump(
    ws: WebSocketLike,
    client: Client,
    *,
    keepalive_seconds: float,
    clock: Callable[[], float] = time.monotonic,
    sent: Frame | None = None,
) -> None:
    """Send the client the newest payload whenever there is one, a keepalive when idle, until it goes.

    ``sent``: the frame the client was sent first, when the payloads are frames (sent as deltas).

    A payload that would exceed the client's :class:`PushWindow` is held until the window allows
    it; whatever arrives meanwhile replaces it. The thread sleeps until a payload, a close, the
    end of a hold or the keepalive is due: the peer's messages and its going away wake it through
    ``ws.event`` (see :class:`WakingEvent`), so nothing polls. Raises ClientClosed when the
    broadcaster closes the client; returns when the peer leaves.
    """
    last_sent = clock()
    received = 0
    held: Payload | None = None
    while ws.connected:
        due = last_sent + keepalive_seconds if held is None else client.window.allowed_at()
        payload = client.take(max(0.0, due - clock()))
        # The page sends nothing. Whatever arrives is dropped, and a client that keeps sending
        # is closed: each message waits in simple-websocket's unbounded queue until drained
        # here, so a flood from many clients would otherwise grow the server's memory.
        while ws.connected and ws.receive(timeout=0) is not None:
            received += 1
            if received > MAX_CLIENT_MESSAGES:
                raise ClientClosed(CLOSE_POLICY_VIOLATION, "the dashboard sends nothing to the server")
        if payload is not None:
            held = payload  # the newest replaces whatever was held
        if held is not None:
            if clock() < client.window.allowed_at():
                continue
            payload, held = held, None
        elif clock() - last_sent < keepalive_seconds:
            continue
        if not ws.connected:
            return
        text, sent = (KEEPALIVE_JSON, sent) if payload is None else text_of(payload, sent)
        client.sending_since = clock()
        try:
            ws.send(text)
        finally:
            client.sending_since = None
        last_sent = clock()
        if payload is not None:  # a keepalive is no push
            client.window.went(last_sent)


class Broadcaster:
    """The websocket client registry (behind one lock) and the thread that feeds it."""

    def __init__(
        self,
        source: ChangeSource,
        *,
        payload: Callable[[], Payload],
        max_clients: int,
        push_interval_seconds: float,
        refresh_seconds: float = 30.0,
        stall_seconds: float = 20.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._source = source
        self._payload = payload  # the text every client gets: the snapshot's JSON, the fleet's
        self.max_clients = max_clients
        self.push_interval_seconds = push_interval_seconds
        self.refresh_seconds = refresh_seconds
        self.stall_seconds = stall_seconds
        self._clock = clock
        self._lock = threading.Lock()  # guards _clients and _closing
        self._clients: set[Client] = set()
        self._closing = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pacer = Pacer(push_interval_seconds)
        self.pushes = 0  # payloads published since start, for tests and curiosity

    # --- registry -----------------------------------------------------------

    def join(self, abort: Callable[[], None] | None = None) -> Client | None:
        """Register a new client, or return None when the cap is reached or the server is stopping."""
        with self._lock:
            if self._closing or len(self._clients) >= self.max_clients:
                return None
            client = Client(abort, PushWindow(self._pacer.per_second))
            self._clients.add(client)
            return client

    def leave(self, client: Client) -> None:
        """Forget a client; safe to call twice."""
        with self._lock:
            self._clients.discard(client)

    @property
    def client_count(self) -> int:
        """How many clients are registered."""
        with self._lock:
            return len(self._clients)

    def is_full(self) -> bool:
        """True when no further client may join."""
        with self._lock:
            return self._closing or len(self._clients) >= self.max_clients

    # --- lifecycle ------------------------------------------------------------

    def start(self) -> None:
        """Start the broadcaster thread."""
        if self._thread is not None:
            raise RuntimeError("a Broadcaster can be started once")
        self._thread = threading.Thread(target=supervised("tokwatch-broadcaster", self._run, self._stop.is_set),
                                        name="tokwatch-broadcaster", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        """Stop the thread and close every client (code 1001, going away); safe to call twice."""
        self._stop.set()
        self._source.interrupt()
        with self._lock:
            self._closing = True
            clients = list(self._clients)
        for client in clients:
            client.close(1001, "tokwatch is shutting down")
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        # A client stuck in a send would never see its close: free its thread.
        for client in clients:
            if client.sending_since is not None:
                client.abort()

    # --- the thread -------------------------------------------------------------

    def _run(self) -> None:
        published_version: int | None = None
        published_at = float("-inf")
        while not self._stop.is_set():
            # Asleep until a change, the next refresh or the next look for a stuck send.
            now = self._clock()
            timeout = min(published_at + self.refresh_seconds - now, self._until_stall_check(now))
            version = self._source.wait_for_change(
                -1 if published_version is None else published_version, max(0.0, timeout)
            )
            self._abort_stalled()
            if self._stop.is_set():
                break
            seen_at = self._clock()
            burst: tuple[float, float] | None = None
            if version != published_version:
                burst = self._gather(version, seen_at)
                if burst is None:
                    break  # stopping
            elif seen_at < published_at + self.refresh_seconds:
                continue
            try:
                published_version = self._source.version
                payload = self._payload()
            except Exception:  # a bad snapshot must not end live updates for everyone
                log.exception("cannot serialise a snapshot; retrying on the next change")
                published_at = self._clock()
                continue
            published_at = self._clock()
            self._publish(payload)
            if burst is None:
                self._pacer.pushed(published_at)
            else:
                self._pacer.pushed(published_at, *burst)

    def _gather(self, version: int, first: float) -> tuple[float, float] | None:
        """Wait until the burst that began at ``first`` is complete and the pacer lets it go.

        Returns (first, last change seen), or None when stopping.
        """
        last = first
        while True:
            now = self._clock()
            ready = self._pacer.ready_at(first, last)
            if now < ready:
                seen = self._source.wait_for_change(version, ready - now)
                if self._stop.is_set():
                    return None
                if seen != version:
                    version, last = seen, self._clock()
                continue
            # Whatever changes while the rate limit holds goes out in this push too.
            wait = self._pacer.allowed_at(first) - now
            if wait > 0 and self._stop.wait(wait):
                return None
            return first, last

    def _until_stall_check(self, now: float) -> float:
        """Seconds until a send in progress would be stuck; ``stall_seconds`` when none is.

        A send a client's thread begins while this thread sleeps (a keepalive) is looked at
        within two ``stall_seconds``.
        """
        with self._lock:
            started = [c.sending_since for c in self._clients if c.sending_since is not None and not c.aborted]
        if not started:
            return self.stall_seconds
        return max(0.0, min(started) + self.stall_seconds - now) + STALL_CHECK_MARGIN_SECONDS

    def _publish(self, payload: Payload) -> None:
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            client.offer(payload)
        self.pushes += 1

    def _abort_stalled(self) -> None:
        now = self._clock()
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            since = client.sending_since
            if since is not None and now - since > self.stall_seconds:
                log.info("dropping a websocket client stuck in a send for %.0f s", now - since)
                client.abort()
