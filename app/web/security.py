"""Who may talk to tokwatch: the Host rule, the websocket Origin rule, the LAN token, safe headers.

The layers, each against a different attack (research/anchors.md §3(d)):

* Host: every request must name ``localhost``, an IP literal, or a name given with
  ``--allow-host``; anything else is a DNS-rebinding page in the user's own browser (403).
* Origin: browsers let any page open a websocket anywhere, so the handshake must come from the
  dashboard's own page (``http://<same host>:<HTTP port>``) — checked before the socket is
  accepted, since flask-sock accepts every handshake itself (403).
* Token: off loopback, ``/api/*`` and ``/ws`` need the secret from the printed URL's
  ``#token=…`` fragment (401). The page and static files hold no figures and need none.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import re
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

from flask import Flask, Response, abort, g, jsonify, request

from ..config import Config, ConfigError, is_loopback
from ..errors import CommandError
from ..hub.keys import bearer_token

TOKEN_FILE_NAME = "token"
REPORT_PATH = "/hub/report"  # where agents post (app.web.hub); exempt from the Host rule only
HISTORY_PATH = "/hub/history"  # where agents post their own history; the same
RUNS_PATH = "/hub/runs"  # where agents post their trainer run's loss curve; the same
TOKEN_QUERY_PARAM = "token"
# Where a view leaves the hashes of the <style> elements its page carries, for the CSP (flask.g).
STYLE_HASHES_KEY = "tokwatch_style_hashes"
# The unreserved URL characters: a token must survive a URL fragment and a query string as is.
_TOKEN_PATTERN = re.compile(r"[A-Za-z0-9._~-]{8,256}")
_HOST_NAME_PATTERN = re.compile(r"(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?")
# RFC 6455 §4.1: the key is 16 random bytes, base64-encoded (24 characters).
_WEBSOCKET_KEY = re.compile(r"[A-Za-z0-9+/]{22}==")
_LOCALHOST_NAMES = frozenset({"localhost", "localhost."})

TOKEN_HINT = (
    "Open the link tokwatch printed when it started (it ends in #token=…), or scan the QR code "
    "printed next to it; this browser keeps the token afterwards."
)


class TokenStoreError(OSError, CommandError):
    """The token file cannot be read or written."""


# --- the rules, pure -----------------------------------------------------------


def split_host(value: str) -> tuple[str, int | None] | None:
    """Split a Host header (or an origin's netloc) into a lower-case name and a port; None if malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[: end + 1], value[end + 1 :]
    elif value.count(":") == 1:
        name, _, port_text = value.partition(":")
        rest = ":" + port_text
    elif ":" in value:
        return None  # a bare IPv6 address must be bracketed in a Host header
    else:
        name, rest = value, ""
    if not name:
        return None
    if not rest:
        return name, None
    port_text = rest[1:]
    if not rest.startswith(":") or not port_text.isdigit() or len(port_text) > 5 or int(port_text) > 65535:
        return None
    return name, int(port_text)


def is_ip_literal(name: str) -> bool:
    """True for a dotted IPv4 address or a bracketed IPv6 address (no DNS, so nothing to rebind)."""
    if name.startswith("[") and name.endswith("]"):
        try:
            ipaddress.IPv6Address(name[1:-1])
        except ValueError:
            return False
        return True
    try:
        ipaddress.IPv4Address(name)
    except ValueError:
        return False
    return True


def host_allowed(name: str, allow_hosts: Iterable[str]) -> bool:
    """True when a Host name is localhost, an IP literal or one of the allowed names."""
    name = name.lower()
    if name in _LOCALHOST_NAMES or is_ip_literal(name):
        return True
    return name in {host.lower() for host in allow_hosts}


def origin_allowed(origin: str, *, host_name: str, http_port: int, allow_hosts: Iterable[str]) -> bool:
    """True when a websocket's Origin is the dashboard's own page: http, the same host, the HTTP port."""
    parts = urlsplit(origin)
    if parts.scheme != "http" or "@" in parts.netloc or parts.path not in ("", "/"):
        return False
    split = split_host(parts.netloc)
    if split is None:
        return False
    name, port = split
    return (
        name == host_name.lower()
        and (port if port is not None else 80) == http_port
        and host_allowed(name, allow_hosts)
    )


def token_matches(presented: str | None, expected: str) -> bool:
    """Compare a presented token with the expected one in constant time."""
    if presented is None:
        return False
    return hmac.compare_digest(presented.encode(), expected.encode())


def content_security_policy(websocket_origin: str | None, style_hashes: Iterable[str] = ()) -> str:
    """The page's CSP: its own scripts and styles only, data: images (the favicon), the websocket.

    ``style_hashes``: the ``sha256-…`` of each ``<style>`` the response itself carries (the page's
    own sheets, inlined by the server; see app/web/static.py), and no other inline style.
    """
    connect = "'self'" if websocket_origin is None else f"'self' {websocket_origin}"
    styles = " ".join(["'self'", *(f"'{digest}'" for digest in style_hashes)])
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            f"style-src {styles}",
            "img-src 'self' data:",
            "manifest-src 'self'",
            f"connect-src {connect}",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        )
    )


# --- configuration ---------------------------------------------------------------


def check_config(config: Config) -> None:
    """Refuse a configuration the security model cannot serve safely (raises ConfigError)."""
    if config.token is None and not config.loopback_only:
        raise ConfigError(f"host {config.host} is not loopback: a token is required")
    if config.token is not None and not _TOKEN_PATTERN.fullmatch(config.token):
        raise ConfigError("token must be 8 to 256 of A-Z a-z 0-9 . _ ~ -")
    for name in config.allow_hosts:
        if not _HOST_NAME_PATTERN.fullmatch(name.lower()):
            raise ConfigError(f"--allow-host wants a host name, not {name!r}")


def token_path(config_dir: Path) -> Path:
    """The file the LAN token is kept in."""
    return config_dir / TOKEN_FILE_NAME


def load_or_create_token(config_dir: Path, *, renew: bool = False) -> str:
    """Return the kept LAN token, creating it (mode 0600) on first use so bookmarks survive restarts.

    ``renew``: replace it with a new one, so every link and bookmark made with the old one stops working.
    """
    path = token_path(config_dir)
    try:
        kept = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        kept = ""
    except (OSError, UnicodeDecodeError) as e:
        raise TokenStoreError(f"{path}: cannot read the token ({e})") from e
    if _TOKEN_PATTERN.fullmatch(kept) and not renew:
        try:
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)
        except OSError as e:
            raise TokenStoreError(f"{path}: cannot restrict the token file ({e})") from e
        return kept
    token = secrets.token_urlsafe(24)
    try:
        config_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        scratch = path.with_name(f".{TOKEN_FILE_NAME}.{os.getpid()}")
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(token + "\n")
        os.replace(scratch, path)  # atomic: two starts at once never leave half a token
    except OSError as e:
        raise TokenStoreError(f"{path}: cannot write the token ({e})") from e
    return token


# --- Flask wiring -----------------------------------------------------------------


def refuse(status: int, error: str, hint: str | None = None) -> NoReturn:
    """Abort the request with a small JSON body saying what is wrong and what to do."""
    body: dict[str, str] = {"error": error}
    if hint:
        body["hint"] = hint
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="tokwatch"'
    abort(response)


def request_host_name(allow_hosts: Iterable[str]) -> str | None:
    """The request's Host name when it passes the Host rule, else None."""
    return allowed_host_name(request.environ.get("HTTP_HOST", ""), allow_hosts)


def allowed_host_name(host_header: str, allow_hosts: Iterable[str]) -> str | None:
    """A ``Host`` header's name when it passes the Host rule, else None."""
    split = split_host(host_header)
    if split is None or not host_allowed(split[0], allow_hosts):
        return None
    return split[0]


def require_token(config: Config, *, query_param: bool = False) -> None:
    """Refuse (401) a request without the configured token; no-op when none is configured."""
    if config.token is None:
        return
    presented = bearer_token(request.headers.get("Authorization"))
    if presented is None and query_param:
        presented = request.args.get(TOKEN_QUERY_PARAM)
    if not token_matches(presented, config.token):
        refuse(401, "missing or wrong token", TOKEN_HINT)


def from_this_machine(config: Config) -> bool:
    """True for a request made on this machine to a loopback name, not relayed by a proxy.

    What only this machine may see (the pairing code, which holds the token) asks for all
    three: a proxy on this machine relaying a LAN request would pass the first alone.
    """
    if not is_loopback(request.remote_addr or ""):
        return False
    if any(request.headers.get(name) for name in ("Forwarded", "X-Forwarded-For", "X-Real-IP")):
        return False
    name = request_host_name(config.allow_hosts)
    return name is not None and (name in _LOCALHOST_NAMES or is_loopback(name))


def require_websocket_origin(config: Config) -> None:
    """Refuse (403) a websocket handshake from any page but the dashboard's own.

    A handshake without Origin comes from a non-browser client (a browser always sends one):
    it is let through only when a token guards the server (and was checked already) or it
    comes from this machine.
    """
    origin = request.headers.get("Origin")
    if origin is None:
        if config.token is None and not is_loopback(request.remote_addr or ""):
            refuse(403, "a websocket without Origin is accepted only from this machine or with the token")
        return
    host_name = request_host_name(config.allow_hosts)
    if host_name is None or not origin_allowed(
        origin, host_name=host_name, http_port=config.port, allow_hosts=config.allow_hosts
    ):
        refuse(403, "websocket refused: it must come from the dashboard's own page")


def require_websocket_handshake() -> None:
    """Refuse (400) a request to /ws that is not a well-formed websocket handshake.

    Without this, a GET /ws without ``Sec-WebSocket-Key`` reached simple-websocket, which
    failed with a 500 and a 31-line traceback in the log each time.
    """
    headers = request.headers
    if (
        headers.get("Upgrade", "").lower() != "websocket"
        or "upgrade" not in headers.get("Connection", "").lower()
        or headers.get("Sec-WebSocket-Version") != "13"
        or not _WEBSOCKET_KEY.fullmatch(headers.get("Sec-WebSocket-Key", ""))
    ):
        refuse(400, "not a websocket handshake (Upgrade, Sec-WebSocket-Key and Sec-WebSocket-Version: 13 needed)")


def init_app(app: Flask, config: Config) -> None:
    """Check every request's Host and give every response the safe headers."""

    @app.before_request
    def check_host() -> None:
        # A machine's report carries its own key and reads nothing back: a hub reached by any
        # name (hub.local, a VPN name) takes it. Everything a browser reads keeps the Host rule.
        if request.path in (REPORT_PATH, HISTORY_PATH, RUNS_PATH) and request.method == "POST":
            return
        # The fleet's runs, read by an agent for its page: a report key in the header, which no
        # page a browser was lured to can send, so a rebound name gains nothing.
        if request.path == RUNS_PATH and request.method == "GET" and request.headers.get("Authorization"):
            return
        if request_host_name(config.allow_hosts) is None:
            refuse(
                403,
                "unknown Host",
                "open the dashboard by IP address or localhost, or start tokwatch with --allow-host NAME",
            )

    @app.after_request
    def add_headers(response: Response) -> Response:
        style_hashes = g.get(STYLE_HASHES_KEY, ())
        for name, value in safe_headers(config, request_host_name(config.allow_hosts), style_hashes):
            response.headers[name] = value
        return response


def safe_headers(config: Config, host_name: str | None, style_hashes: Iterable[str] = ()) -> list[tuple[str, str]]:
    """The headers every response carries, for a request whose allowed Host name is ``host_name`` (None: not allowed)."""
    websocket_origin = None if host_name is None else f"ws://{host_name}:{config.effective_ws_port}"
    return [
        ("Content-Security-Policy", content_security_policy(websocket_origin, style_hashes)),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]
