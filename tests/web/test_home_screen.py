"""Adding the page to a home screen, and pairing a phone from the desktop page: the manifest and
icons as a phone fetches them, the pairing code only for this machine, decoded from the page."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from PIL import Image

from app.config import Config
from app.live.monitor import Monitor
from app.web import pairing
from tests.conftest import RunningServer, start_server, web_app
from tests.web.qr import read_qr

TOKEN = "home-screen-token-1"
LAN_ADDRESS = "192.168.1.20"


def fetch(client: Any, url: str) -> tuple[int, str, bytes]:
    """Status, media type and body of a GET, with the response closed (static files are streamed)."""
    with client.get(url) as response:
        return response.status_code, response.mimetype, response.get_data()


@pytest.fixture
def lan_app(config: Config, monitor: Monitor, tmp_path: Path) -> Flask:
    """The app as served on the LAN, with its token kept in a file."""
    return web_app(
        replace(config, host=LAN_ADDRESS, port=8765, token=TOKEN, token_file=tmp_path / "config" / "token"),
        monitor,
    )


def test_the_page_links_a_manifest_icons_and_a_theme_colour_per_scheme(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    assert '<link rel="apple-touch-icon" href="/static/apple-touch-icon.png">' in page
    themes = re.findall(r'<meta name="theme-color" content="(#[0-9a-f]{6})" media="\(prefers-color-scheme: (\w+)\)">', page)
    assert {scheme for _, scheme in themes} == {"light", "dark"}
    assert len({colour for colour, _ in themes}) == 2
    assert "serviceWorker" not in (Path(__file__).parents[2] / "static" / "app.js").read_text(encoding="utf-8")


def test_the_manifest_opens_the_live_page_with_real_icons(client: Any) -> None:
    status, _, body = fetch(client, "/static/manifest.webmanifest")
    assert status == 200
    manifest = json.loads(body)
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert 0 < len(manifest["short_name"]) <= 12
    sizes = {}
    for icon in manifest["icons"]:
        status, mimetype, data = fetch(client, icon["src"])
        assert status == 200, icon["src"]
        assert mimetype == icon["type"]
        if icon["type"] == "image/png":
            image = Image.open(io.BytesIO(data))
            assert f"{image.width}x{image.height}" == icon["sizes"]
            sizes[(icon["sizes"], icon["purpose"])] = image
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(sizes)
    # A maskable icon is cropped to a circle by the launcher: no transparent corners to show.
    assert sizes[("512x512", "maskable")].convert("RGBA").getpixel((0, 0))[3] == 255
    apple = Image.open(io.BytesIO(fetch(client, "/static/apple-touch-icon.png")[2]))
    assert apple.size == (180, 180) and apple.mode == "RGB"  # iOS draws transparency as black


def test_the_manifest_is_allowed_by_the_content_security_policy(client: Any) -> None:
    assert "manifest-src 'self'" in client.get("/").headers["Content-Security-Policy"]


def test_the_pairing_code_is_for_this_machine_only(lan_app: Flask) -> None:
    client = lan_app.test_client()
    page = client.get("/").get_data(as_text=True)
    assert "Open on your phone" in page and 'src="/pairing.svg"' in page
    svg = client.get("/pairing.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.headers["Cache-Control"] == "no-store"

    elsewhere = {"REMOTE_ADDR": "192.168.1.7"}
    assert "pairing.svg" not in client.get("/", environ_base=elsewhere).get_data(as_text=True)
    assert client.get("/pairing.svg", environ_base=elsewhere).status_code == 404
    # A proxy on this machine relaying a LAN request is not this machine.
    assert client.get("/pairing.svg", headers={"X-Forwarded-For": "192.168.1.7"}).status_code == 404
    assert client.get("/pairing.svg", headers={"Host": f"{LAN_ADDRESS}:8765"}).status_code == 404


def test_loopback_only_says_how_to_reach_a_phone(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "Open on your phone" in page and "--host 0.0.0.0" in page
    assert client.get("/pairing.svg").status_code == 404


def test_the_token_screen_says_where_the_token_is_without_its_path(lan_app: Flask, tmp_path: Path) -> None:
    # Anyone on the LAN sees this page: the file's path would show the user's home and name.
    page = lan_app.test_client().get("/").get_data(as_text=True)
    assert str(tmp_path) not in page
    assert "the token is in tokwatch's config folder on the computer" in page.lower()
    assert "--new-token" in page
    assert TOKEN not in page


# --- the page in Chromium: the code on the screen, read as a phone's camera would ----------------


@pytest.fixture
def lan_server(config: Config, monitor: Monitor, monkeypatch: pytest.MonkeyPatch) -> Iterator[RunningServer]:
    """A real server on this machine whose phone link names a LAN address."""
    monkeypatch.setattr(pairing, "lan_address", lambda host: LAN_ADDRESS)
    running = start_server(replace(config, host="0.0.0.0", token=TOKEN), monitor)
    yield running
    running.dashboard.stop()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_desktop_page_shows_a_code_a_phone_reads(browser: Any, lan_server: RunningServer, scheme: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(f"{lan_server.http_url}/#token={TOKEN}")
        qr = page.locator("#pairing-qr")
        qr.wait_for(state="visible")
        page.wait_for_function("() => document.getElementById('pairing-qr').complete")
        picture = Image.open(io.BytesIO(qr.screenshot()))
        assert read_qr(picture) == [f"http://{LAN_ADDRESS}:{lan_server.config.port}/#token={TOKEN}"]
        page.screenshot(path=str(Path(__file__).parents[2] / "test-artifacts" / f"pairing-{scheme}.png"))
    finally:
        context.close()


def test_the_hub_only_page_shows_the_code_its_banner_points_to(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A hub following no log: its "/" is the fleet, and the banner says to scan the code shown there.
    monkeypatch.setattr(pairing, "lan_address", lambda host: LAN_ADDRESS)
    config = Config(log_path=None, host="0.0.0.0", port=0, hub=True, token=TOKEN, data_dir=tmp_path / "data",
                    config_dir=tmp_path / "config")
    running = start_server(config, Monitor(None))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{running.http_url}/#token={TOKEN}")
        expect_title = page.locator("#pairing-title")
        expect_title.wait_for(state="visible")
        page.wait_for_function("() => document.getElementById('pairing-qr').complete")
        picture = Image.open(io.BytesIO(page.locator("#pairing-qr").screenshot()))
        assert read_qr(picture) == [f"http://{LAN_ADDRESS}:{running.config.port}/#token={TOKEN}"]
    finally:
        context.close()
        running.dashboard.stop()
