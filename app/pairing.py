"""Pairing a phone: the dashboard's LAN link as a QR code, for a terminal and for the page.

A QR reader needs dark modules on a light ground with a light quiet zone around them. A terminal
draws "default" colours from its theme, so a code drawn with plain block characters comes out
inverted in every light (or every dark) terminal and reads as nothing. Here each cell names its
colours: black (xterm-256 index 16) and white (231), which themes leave alone, unlike the 16
base colours they remap.
"""

from __future__ import annotations

import segno

# A quiet zone of 4 modules is what the QR standard asks for (ISO/IEC 18004 §6.3.8).
QUIET_ZONE_MODULES = 4
_BLACK = 16
_WHITE = 231
_UPPER_HALF = "\u2580"
_RESET = "\x1b[0m"


def _make(url: str) -> segno.QRCode:
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
