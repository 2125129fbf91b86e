"""The pairing QR code, decoded as a phone would read it: from the terminal's text drawn the way a
light and a dark terminal draw it, and from the SVG the page shows (tests/test_page_pairing.py).

The terminal is simulated here, independently of app/pairing.py: ANSI SGR colours are applied,
"default" colours come from the theme, and each character cell is two pixels tall (▀ ▄ █ and
space), then the picture is scaled up and read with zbar.
"""

from __future__ import annotations

import re

import pytest
import segno
from PIL import Image
from pyzbar.pyzbar import decode

from app.pairing import qr_svg, terminal_qr

URL = "http://192.168.1.20:8765/#token=Zk3_q-9vX2mN8pQ4rT6wY1bC5dF7hJ0k"

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
    return [found.data.decode() for found in decode(image.convert("L"))]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_terminal_qr_reads_in_light_and_dark_terminals(theme: str) -> None:
    assert read_qr(render_terminal(terminal_qr(URL), theme)) == [URL]


def test_the_simulated_terminal_is_strict_enough_to_fail_a_theme_dependent_code() -> None:
    # segno's own compact output uses the theme's colours: a reader gets it in one theme only.
    plain = segno.make(URL, error="m").terminal  # writes to a stream
    import io

    out = io.StringIO()
    plain(out=out, compact=True)
    results = {theme: read_qr(render_terminal(out.getvalue(), theme)) for theme in THEMES}
    assert sorted(len(found) for found in results.values()) == [0, 1], results


def test_the_terminal_qr_keeps_its_quiet_zone_and_resets_colours() -> None:
    text = terminal_qr(URL)
    lines = text.splitlines()
    assert all(line.endswith("\x1b[0m") for line in lines)
    plain_first = SGR.sub("", lines[0])
    assert set(plain_first) == {"▀"}  # the top line is all quiet zone…
    assert lines[0].startswith("\x1b[38;5;231;48;5;231m")  # …drawn white on white, not "default"


def test_the_svg_is_black_on_white_with_a_quiet_zone() -> None:
    svg = qr_svg(URL)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    matrix_size = len(segno.make(URL, error="m").matrix)
    assert f'viewBox="0 0 {matrix_size + 8} {matrix_size + 8}"' in svg
    assert 'fill="#fff"' in svg and 'stroke="#000"' in svg
