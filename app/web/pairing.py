"""Pairing a phone: the dashboard's LAN link as a QR code, for a terminal and for the page.

A QR reader needs dark modules on a light ground with a light quiet zone around them. A terminal
draws "default" colours from its theme, so a code drawn with plain block characters comes out
inverted in every light (or every dark) terminal and reads as nothing. Here each cell names its
colours: black (xterm-256 index 16) and white (231), which themes leave alone, unlike the 16
base colours they remap.
"""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING

from ..config import Config, is_loopback

if TYPE_CHECKING:
    import segno

# A quiet zone of 4 modules is what the QR standard asks for (ISO/IEC 18004 §6.3.8).
QUIET_ZONE_MODULES = 4
_BLACK = 16
_WHITE = 231
_UPPER_HALF = "\u2580"
_RESET = "\x1b[0m"


def lan_address(host: str) -> str | None:
    """The address a phone on the LAN should use for ``host`` (the primary interface for 0.0.0.0/::)."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    family = socket.AF_INET6 if host == "::" else socket.AF_INET
    # Connecting a UDP socket sends nothing; it only asks the routing table which interface to use.
    probe = ("fd00::1", 9) if family == socket.AF_INET6 else ("10.255.255.255", 9)
    with socket.socket(family, socket.SOCK_DGRAM) as s:
        try:
            s.connect(probe)
            address: str = s.getsockname()[0]
        except OSError:
            address = ""
    if address and not is_loopback(address) and address not in ("0.0.0.0", "::"):
        return address
    return None


def page_url(host: str, port: int, token: str | None) -> str:
    """The page's URL on ``host``, with the token in the fragment (never sent in a request)."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    fragment = f"#token={token}" if token else ""
    return f"http://{shown}:{port}/{fragment}"


def local_url(config: Config) -> str:
    """The URL to open on this machine."""
    host = "127.0.0.1" if config.host in ("0.0.0.0", "") else "::1" if config.host == "::" else config.host
    return page_url(host, config.port, config.token)


def dashboard_url(config: Config) -> str | None:
    """The dashboard's address for a message read elsewhere (a phone), never with the token.

    None when it would not open there: a loopback-only dashboard, or no LAN address to give.
    """
    if config.loopback_only:
        return None
    address = lan_address(config.host)
    return None if address is None else page_url(address, config.port, None)


def phone_url(config: Config) -> str | None:
    """The URL a phone on the LAN opens (with the token), or None: loopback only, or no LAN address."""
    if config.loopback_only or config.token is None:
        return None
    address = lan_address(config.host)
    return None if address is None else page_url(address, config.port, config.token)


def _make(url: str) -> segno.QRCode:
    import segno  # only a dashboard on the LAN draws a code: a loopback one never loads it

    return segno.make(url, error="m", micro=False)


def terminal_qr(url: str) -> str:
    """The QR code as terminal text: two modules per character cell (▀), colours explicit.

    Each line ends with a reset, so nothing bleeds into the rest of the terminal.
    """
    rows = [list(row) for row in _make(url).matrix_iter(scale=1, border=QUIET_ZONE_MODULES)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))  # a light last half-row: part of the quiet zone
    lines = []
    for top, bottom in zip(rows[0::2], rows[1::2]):
        cells = []
        current: tuple[int, int] | None = None
        for upper, lower in zip(top, bottom):
            colours = (_BLACK if upper else _WHITE, _BLACK if lower else _WHITE)
            if colours != current:  # a code only where the colours change: a short line
                cells.append(f"\x1b[38;5;{colours[0]};48;5;{colours[1]}m")
                current = colours
            cells.append(_UPPER_HALF)
        lines.append("".join(cells) + _RESET)
    return "\n".join(lines) + "\n"


def qr_svg(url: str) -> str:
    """The QR code as a standalone SVG: black on white with its quiet zone, crisp at any size."""
    svg: str = _make(url).svg_inline(
        scale=1, border=QUIET_ZONE_MODULES, dark="#000", light="#fff", omitsize=True, svgclass=None, lineclass=None
    )
    # svg_inline leaves out the namespace an SVG served on its own needs.
    return svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges" ', 1)
