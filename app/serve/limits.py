"""What a client may make the servers hold before it is authenticated, and the servers' own errors.

Before a request is checked (Host, Origin, token) its bytes and its connection are all a
stranger needs to cost us memory and slots. So on both ports:

* the request head (request line and headers) is capped at ``HEAD_MAX_BYTES`` — Werkzeug's
  handler would read 100 header lines of 64 KiB each (6.4 MB) per connection before anything
  looked at them;
* one client address may hold at most ``per_address`` connections at once;
* on the websocket port, connections still in their handshake share ``pending`` slots of their
  own, so strangers' half-open connections can never hold the slots of accepted dashboards;
  a share of those is kept for this machine's own programs (loopback: the owner's browser, or
  the reverse proxy every viewer comes through), and when the rest is full the oldest
  stranger's handshake makes way for a new one, so strangers on many addresses cannot keep the
  owner's page from connecting.

Errors that waitress or Werkzeug answer themselves (a malformed request, a head too large, an
unknown method) carry the same safe headers as the app's responses, and no server version.
"""

from __future__ import annotations

import http.client
import ipaddress
import threading
from collections.abc import Callable
from typing import Any

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask

from ..config import is_loopback

# Browsers send a few hundred bytes to a few KiB (cookies set by other localhost apps count:
# cookies ignore the port). 32 KiB matches waitress's cap on the HTTP port.
HEAD_MAX_BYTES = 32 * 1024
SERVER_NAME = "tokwatch"

# The safe headers for responses no page is built from: errors the servers make themselves.
ERROR_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Cache-Control", "no-store"),
)


class AddressSlots:
    """Connections held per client address, and in all, under caps; thread-safe.

    Loopback addresses share the total but have no cap of their own: they are this machine's
    own programs, or a reverse proxy in front of tokwatch through which every viewer comes.
    ``reserved`` of the total are theirs alone: other addresses together hold at most the rest.
    ``trusted`` says which addresses those are (default: loopback).
    """

    def __init__(
        self,
        *,
        per_address: int,
        total: int | None = None,
        exempt_loopback: bool = True,
        reserved: int = 0,
        trusted: Callable[[str], bool] | None = None,
    ) -> None:
        self.per_address = per_address
        self.total = total
        self.reserved = reserved
        self.trusted: Callable[[str], bool] = (
            trusted if trusted is not None else (_is_loopback_peer if exempt_loopback else _nobody)
        )
        self._lock = threading.Lock()
        self._held: dict[str, int] = {}
        self._count = 0
        self._others = 0  # held by addresses not trusted

    def acquire(self, address: str) -> bool:
        """Take a slot for ``address``; False when it (or everyone) holds too many already."""
        return self.why_not(address) is None

    def why_not(self, address: str) -> str | None:
        """Take a slot for ``address`` and return None, or say which cap refused it.

        ``"address"``: this address holds its share; ``"others"``: the addresses not trusted
        hold theirs (the reserved slots are left); ``"total"``: every slot is taken.
        """
        trusted = self.trusted(address)
        with self._lock:
            held = self._held.get(address, 0)
            if not trusted and held >= self.per_address:
                return "address"
            if self.total is not None and self._count >= self.total:
                return "total"
            if not trusted and self.total is not None and self._others >= self.total - self.reserved:
                return "others"
            self._held[address] = held + 1
            self._count += 1
            self._others += not trusted
            return None

    def release(self, address: str) -> None:
        """Give back a slot taken for ``address``."""
        with self._lock:
            held = self._held.get(address, 0)
            if held <= 1:
                self._held.pop(address, None)
            else:
                self._held[address] = held - 1
            if held:
                self._count -= 1
                self._others -= not self.trusted(address)

    def held(self, address: str | None = None) -> int:
        """Slots held by ``address``, or by everyone."""
        with self._lock:
            return self._count if address is None else self._held.get(address, 0)


class PendingHandshakes:
    """Connections still in their handshake, in slots of their own; the oldest stranger makes way.

    A connection is admitted with a key (its client address and port) and a way to close it.
    When the slots strangers may hold are full (or all are), the oldest pending handshake from
    another untrusted address is closed to admit the new one: strangers who keep half-sent
    requests open, from however many addresses, delay a new page by one eviction, never deny
    it. Trusted (loopback) handshakes are never evicted and keep ``reserved`` slots.
    """

    def __init__(
        self, *, per_address: int, total: int, reserved: int, trusted: Callable[[str], bool] | None = None
    ) -> None:
        self.slots = AddressSlots(per_address=per_address, total=total, reserved=reserved, trusted=trusted)
        self._lock = threading.Lock()
        self._open: dict[tuple[Any, ...], tuple[str, Callable[[], None]]] = {}  # oldest first
        self.evicted = 0

    def admit(self, key: tuple[Any, ...], address: str, close: Callable[[], None]) -> bool:
        """Count this connection as pending (evicting the oldest stranger if need be); False: refuse it."""
        why = self.slots.why_not(address)
        if why in ("others", "total") and self._evict_oldest_stranger(besides=address):
            why = self.slots.why_not(address)
        if why is not None:
            return False
        with self._lock:
            self._open[key] = (address, close)
        return True

    def leave(self, key: tuple[Any, ...]) -> None:
        """The connection was accepted as a dashboard, or ended; safe to call twice."""
        with self._lock:
            entry = self._open.pop(key, None)
        if entry is not None:
            self.slots.release(entry[0])

    def held(self, address: str | None = None) -> int:
        """Pending handshakes of ``address``, or of everyone."""
        return self.slots.held(address)

    def _evict_oldest_stranger(self, *, besides: str) -> bool:
        with self._lock:
            for key, (address, close) in self._open.items():
                if address != besides and not self.slots.trusted(address):
                    del self._open[key]
                    break
            else:
                return False
        self.slots.release(address)
        self.evicted += 1
        close()
        return True


def _nobody(address: str) -> bool:
    return False


def _is_loopback_peer(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return is_loopback(address)
    mapped = getattr(ip, "ipv4_mapped", None)  # 127.0.0.1 as seen by a dual-stack socket
    return (mapped or ip).is_loopback


class HeadReader:
    """A request handler's ``rfile`` that reads at most ``budget`` bytes of request head by lines.

    ``http.server`` reads the request line and each header with ``readline``; past the budget
    a line reads as too long (``LineTooLong``), which ``parse_request`` answers with 431. Other
    reads pass through untouched.
    """

    def __init__(self, raw: Any, budget: int) -> None:
        self._raw = raw
        self.budget = budget
        self._left = budget

    def new_request(self) -> None:
        """A new request on the connection: a fresh budget for its head."""
        self._left = self.budget

    def readline(self, size: int | None = -1) -> bytes:
        """Read one line within what is left of the budget."""
        if self._left <= 0:
            raise http.client.LineTooLong(f"request head over {self.budget} bytes")
        want = self._left + 1 if size is None or size < 0 else min(size, self._left + 1)
        line: bytes = self._raw.readline(want)
        self._left -= len(line)
        if self._left < 0:
            raise http.client.LineTooLong(f"request head over {self.budget} bytes")
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


# --- waitress ---------------------------------------------------------------------------


class _SafeErrorTask(ErrorTask):  # type: ignore[misc]
    """waitress's own error response (400, 413, 431, 501…) with the safe headers."""

    def execute(self) -> None:
        self.response_headers.extend(ERROR_HEADERS)
        super().execute()


class _Channel(HTTPChannel):  # type: ignore[misc]
    """waitress's connection, counted against its client address until it closes."""

    error_task_class = _SafeErrorTask
    slots: AddressSlots
    slot_address: str | None = None

    def del_channel(self, map: Any = None) -> None:
        """Free the address's slot when waitress forgets the connection."""
        super().del_channel(map)
        address, self.slot_address = self.slot_address, None
        if address is not None:
            self.slots.release(address)


def limited_channels(slots: AddressSlots) -> Any:
    """A waitress ``channel_class`` that refuses a connection over its address's cap (closes it)."""

    def make(server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> _Channel | None:
        address = str(addr[0]) if isinstance(addr, tuple) and addr else ""
        if not slots.acquire(address):
            sock.close()
            return None
        channel = _Channel(server, sock, addr, adj, map=map)
        channel.slots = slots
        channel.slot_address = address
        return channel

    return make
