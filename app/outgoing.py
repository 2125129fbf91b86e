"""Outgoing requests with a total deadline: connect, headers and body together, not each read alone.

A socket timeout bounds each wait for a byte, so a receiver that trickles one byte a second
held the agent, a heartbeat or ``--notify-test`` without end. Here the connection is cut when
the deadline passes, whatever stage the exchange is in. Redirects are followed only when asked:
the agent must never carry its report key to whatever host a redirect names.
"""

from __future__ import annotations

import contextlib
import http.client
import io
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")


class DeadlineExceeded(TimeoutError):
    """The exchange did not finish within its total deadline."""


class _Cut:
    """Shuts a connection's socket down at the deadline (its reads then end at once)."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.fired = False
        self._timer: threading.Timer | None = None

    def arm(self, sock: socket.socket) -> None:
        def cut() -> None:
            self.fired = True
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

        self._timer = threading.Timer(max(0.0, self.deadline - time.monotonic()), cut)
        self._timer.daemon = True
        self._timer.start()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()


class _Armed:
    """A connection whose socket the deadline's timer may cut once it is open."""

    sock: Any

    def __init__(self, *args: Any, cut: _Cut, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cut = cut

    def connect(self) -> None:
        super().connect()  # type: ignore[misc]
        self._cut.arm(self.sock)


class _HTTPConnection(_Armed, http.client.HTTPConnection):
    pass


class _HTTPSConnection(_Armed, http.client.HTTPSConnection):
    pass


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, cut: _Cut) -> None:
        super().__init__()
        self._cut = cut

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(partial(_HTTPConnection, cut=self._cut), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, cut: _Cut) -> None:
        super().__init__()
        self._cut = cut

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(partial(_HTTPSConnection, cut=self._cut), req)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # urllib then raises the 3xx as an HTTPError, with its Location header


def fetch(request: urllib.request.Request, total_seconds: float, *, follow_redirects: bool = True,
          max_bytes: int = 65536) -> tuple[int, bytes]:
    """Do one request; return (status, up to ``max_bytes`` of the body).

    Raises urllib's errors (HTTPError for 4xx/5xx, and for 3xx unless ``follow_redirects``), or
    DeadlineExceeded when the whole exchange took longer than ``total_seconds``.
    """
    started = time.monotonic()
    cut = _Cut(started + total_seconds)
    handlers: list[urllib.request.BaseHandler] = [_HTTPHandler(cut), _HTTPSHandler(cut)]
    if not follow_redirects:
        handlers.append(_NoRedirects())
    opener = urllib.request.build_opener(*handlers)
    try:
        try:
            with opener.open(request, timeout=total_seconds) as response:
                body: bytes = response.read(max_bytes)
                status = int(response.status)
        except urllib.error.HTTPError as e:
            raise _read_and_closed(e, max_bytes) from None
        if cut.fired:
            raise DeadlineExceeded(f"no full answer within {total_seconds:g} s")
        return status, body
    except (OSError, http.client.HTTPException) as e:
        if cut.fired or time.monotonic() - started >= total_seconds:
            raise DeadlineExceeded(f"no full answer within {total_seconds:g} s") from e
        raise
    finally:
        cut.cancel()


def _read_and_closed(error: urllib.error.HTTPError, max_bytes: int) -> urllib.error.HTTPError:
    """The same error with its body (up to ``max_bytes``) read, its connection closed.

    urllib hands the 4xx/5xx answer over open inside the error; a caller that only reads its code
    would leave the socket to the garbage collector, whenever that runs.
    """
    with error:
        body = error.read(max_bytes) if error.fp is not None else b""
    return urllib.error.HTTPError(error.url, error.code, error.msg, error.headers, io.BytesIO(body))


def within(total_seconds: float, work: Callable[[], T], name: str = "tokwatch-outgoing", *,
           one_at_a_time: threading.Lock | None = None) -> T:
    """Run ``work`` (a library's send we cannot cut inside) and give up on it after ``total_seconds``.

    The work goes on in a daemon thread when abandoned; its result is dropped. With ``one_at_a_time``,
    an abandoned work holds that lock until it ends and the next one waits for it inside its own
    deadline: a receiver that hangs keeps one thread, not one more for every try.
    """
    deadline = time.monotonic() + total_seconds
    if one_at_a_time is not None and not one_at_a_time.acquire(timeout=total_seconds):
        raise DeadlineExceeded(f"no answer within {total_seconds:g} s (the previous one still waits)")
    result: list[T] = []
    error: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as e:  # noqa: BLE001 - handed to the caller below
            error.append(e)
        finally:
            if one_at_a_time is not None:
                one_at_a_time.release()

    thread = threading.Thread(target=run, name=name, daemon=True)
    try:
        thread.start()
    except BaseException:
        if one_at_a_time is not None:
            one_at_a_time.release()
        raise
    thread.join(max(0.0, deadline - time.monotonic()))
    if thread.is_alive():
        raise DeadlineExceeded(f"no answer within {total_seconds:g} s")
    if error:
        raise error[0]
    return result[0]
