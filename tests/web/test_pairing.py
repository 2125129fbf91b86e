"""The pairing QR code, decoded as a phone reads it: from the terminal's text drawn the way a light
and a dark terminal draw it (tests/web/qr.py), and as the SVG the page shows.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import segno

from app.config import Config
from app.web.pairing import dashboard_url, qr_svg, terminal_qr
from tests.web.qr import SGR, THEMES, read_qr, render_terminal

URL = "http://192.168.1.20:8765/#token=Zk3_q-9vX2mN8pQ4rT6wY1bC5dF7hJ0k"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_terminal_qr_reads_in_light_and_dark_terminals(theme: str) -> None:
    assert read_qr(render_terminal(terminal_qr(URL), theme)) == [URL]


def test_the_simulated_terminal_is_strict_enough_to_fail_a_theme_dependent_code() -> None:
    # segno's own compact output uses the theme's colours: a reader gets it in one theme only.
    out = io.StringIO()
    segno.make(URL, error="m").terminal(out=out, compact=True)
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


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", None),  # a loopback link in a message opens the phone itself: none at all
        ("::1", None),
        ("192.168.1.20", "http://192.168.1.20:8765/"),  # the LAN address, never the token
    ],
)
def test_the_link_in_messages_opens_where_they_are_read(tmp_path: Path, host: str, expected: str | None) -> None:
    config = Config(log_path=tmp_path / "x.log", host=host, port=8765, token="Zk3_q-9vX2mN8pQ4")
    assert dashboard_url(config) == expected
