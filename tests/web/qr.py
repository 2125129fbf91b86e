"""Reading QR codes as a phone would: a terminal's text drawn as a light or dark terminal draws it,
then zbar. The terminal is simulated independently of app/web/pairing.py: ANSI SGR colours are
applied, "default" colours come from the theme, and each character cell is two pixels tall
(▀ ▄ █ and space) before the picture is scaled up.
"""

from __future__ import annotations

import os
import re

import pytest
from PIL import Image

# Themes: (default foreground, default background, the 16 base colours' black and white).
# A light theme's "white" is often grey and its "black" a dark grey; themes remap 0–15 freely.
THEMES = {
    "dark": ((229, 229, 229), (24, 24, 24)),
    "light": ((30, 30, 30), (255, 255, 255)),
}
CUBE = {16: (0, 0, 0), 231: (255, 255, 255)}
SGR = re.compile(r"\x1b\[([\d;]*)m")
RGBColour = tuple[int, int, int]


def xterm_256(index: int) -> RGBColour:
    """The xterm-256 palette outside the themeable 0–15: the 6×6×6 cube and the grey ramp."""
    if 16 <= index <= 231:
        steps = [0, 95, 135, 175, 215, 255]
        index -= 16
        return steps[index // 36], steps[(index // 6) % 6], steps[index % 6]
    if 232 <= index <= 255:
        level = 8 + 10 * (index - 232)
        return level, level, level
    raise ValueError(f"palette index {index} is the theme's to choose")


def render_terminal(text: str, theme: str, scale: int = 6, margin_cells: int = 3) -> Image.Image:
    """Draw terminal text as a terminal with this theme would: one cell = 1×2 pixels before scaling."""
    default_fg, default_bg = THEMES[theme]
    rows: list[list[tuple[RGBColour, RGBColour]]] = []
    for line in text.splitlines():
        fg, bg = default_fg, default_bg
        cells: list[tuple[RGBColour, RGBColour]] = []
        position = 0
        for match in [*SGR.finditer(line), None]:
            chunk = line[position : match.start() if match else len(line)]
            for char in chunk:
                top, bottom = {"▀": (fg, bg), "▄": (bg, fg), "█": (fg, fg), " ": (bg, bg)}[char]
                cells.append((top, bottom))
            if match is None:
                break
            position = match.end()
            codes = [int(c) for c in match.group(1).split(";") if c] or [0]
            i = 0
            while i < len(codes):
                code = codes[i]
                if code == 0:
                    fg, bg = default_fg, default_bg
                elif code in (38, 48) and codes[i + 1] == 5:
                    colour = xterm_256(codes[i + 2])
                    fg, bg = (colour, bg) if code == 38 else (fg, colour)
                    i += 2
                i += 1
        rows.append(cells)
    width = max(len(r) for r in rows) + 2 * margin_cells
    height = 2 * (len(rows) + 2 * margin_cells)
    image = Image.new("RGB", (width, height), default_bg)  # the terminal around the code
    for y, cells in enumerate(rows):
        for x, (top, bottom) in enumerate(cells):
            image.putpixel((x + margin_cells, 2 * (y + margin_cells)), top)
            image.putpixel((x + margin_cells, 2 * (y + margin_cells) + 1), bottom)
    return image.resize((width * scale, height * scale), Image.Resampling.NEAREST)


def read_qr(image: Image.Image) -> list[str]:
    """What a QR reader finds in the picture (zbar, through pyzbar)."""
    try:
        from pyzbar.pyzbar import decode
    except ImportError as e:  # pyzbar is installed but zbar itself is not
        reason = f"no zbar library to read QR codes ({e}); apt-get install libzbar0"
        if os.environ.get("TOKWATCH_REQUIRE_BROWSER") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return [found.data.decode() for found in decode(image.convert("L"))]
