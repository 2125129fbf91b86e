"""The page's files as a browser gets them: gzipped when it may, revalidated to a 304, never stale."""

from __future__ import annotations

import base64
import gzip
import hashlib
import http.client
import os
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.web import ASSETS_ROOT, static
from tests.conftest import RunningServer

GZIP = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what Chromium sends
STATIC = ASSETS_ROOT / "static"
# What a first visit may cost on the wire, compressed: the page, its styles, scripts and icon.
PAGE_BUDGET_BYTES = 100 * 1024


def test_text_files_are_gzipped_when_the_browser_takes_gzip(client: FlaskClient) -> None:
    source = (STATIC / "vendor" / "uplot" / "uPlot.iife.min.js").read_bytes()
    response = client.get("/static/vendor/uplot/uPlot.iife.min.js", headers=GZIP)

    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert response.headers["Vary"] == "Accept-Encoding"
    assert int(response.headers["Content-Length"]) == len(response.data) < len(source) / 2
    assert gzip.decompress(response.data) == source
    assert response.mimetype == "text/javascript"


@pytest.mark.parametrize("accept", [None, "identity", "gzip;q=0", "br"])
def test_the_file_as_is_when_gzip_is_not_accepted(client: FlaskClient, accept: str | None) -> None:
    headers = {} if accept is None else {"Accept-Encoding": accept}
    response = client.get("/static/style.css", headers=headers)

    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
    assert response.data == (STATIC / "style.css").read_bytes()
    assert int(response.headers["Content-Length"]) == len(response.data)
    assert response.headers["Vary"] == "Accept-Encoding"  # a cache must not hand it to a gzip client blindly


def test_images_that_do_not_shrink_are_sent_as_they_are(client: FlaskClient) -> None:
    response = client.get("/static/icon-192.png", headers=GZIP)
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
    assert "Vary" not in response.headers
    assert response.data == (STATIC / "icon-192.png").read_bytes()


@pytest.mark.parametrize("path", ["/static/app.js", "/static/icon-192.png", "/"])
def test_a_reload_costs_a_304_with_its_headers(client: FlaskClient, path: str) -> None:
    first = client.get(path, headers=GZIP)
    again = client.get(path, headers={**GZIP, "If-None-Match": first.headers["ETag"]})

    assert first.headers["Cache-Control"] == "no-cache"  # kept, but asked about before each use
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Cache-Control"] == "no-cache"
    # The security headers ride on the 304 too.
    assert again.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert again.headers["X-Content-Type-Options"] == "nosniff"


def test_an_etag_of_the_other_encoding_also_revalidates(client: FlaskClient) -> None:
    zipped = client.get("/static/app.js", headers=GZIP).headers["ETag"]
    plain = client.get("/static/app.js").headers["ETag"]
    assert zipped != plain  # two representations, two tags
    assert client.get("/static/app.js", headers={"If-None-Match": zipped}).status_code == 304
    assert client.get("/static/app.js", headers={**GZIP, "If-None-Match": plain}).status_code == 304
    assert client.get("/static/app.js", headers={"If-None-Match": '"something-else"'}).status_code == 200


def test_a_changed_file_is_served_afresh_and_an_old_etag_gets_the_new_body(tmp_path: Path) -> None:
    app = Flask(__name__, static_folder=None)
    static.init_app(app, tmp_path)
    script = tmp_path / "app.js"
    script.write_text("console.log('one');\n" * 50)
    client = app.test_client()
    first = client.get("/static/app.js", headers=GZIP)

    script.write_text("console.log('two');\n" * 50)
    os.utime(script, ns=(script.stat().st_atime_ns, script.stat().st_mtime_ns + 10**9))
    second = client.get("/static/app.js", headers={**GZIP, "If-None-Match": first.headers["ETag"]})

    assert second.status_code == 200
    assert gzip.decompress(second.data) == script.read_bytes()
    assert second.headers["ETag"] != first.headers["ETag"]


@pytest.mark.parametrize("path", ["/static/", "/static/vendor", "/static/../app/config.py", "/static/nowhere.js"])
def test_no_listing_no_escape_no_guess(client: FlaskClient, path: str) -> None:
    assert client.get(path, headers=GZIP).status_code == 404


def test_the_page_itself_is_gzipped_and_keeps_its_policy(client: FlaskClient) -> None:
    plain = client.get("/")
    zipped = client.get("/", headers=GZIP)

    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.data) == plain.data
    assert zipped.headers["Content-Security-Policy"] == plain.headers["Content-Security-Policy"]
    assert "script-src 'self'" in zipped.headers["Content-Security-Policy"]


def test_the_first_paint_waits_for_no_stylesheet(client: FlaskClient) -> None:
    """The page's sheets are in its head as they are on disk, allowed by their hash, and none is fetched."""
    response = client.get("/")
    html = response.get_data(as_text=True)
    head = html.split("</head>")[0]
    outside_noscript = re.sub(r"<noscript>.*?</noscript>", "", head, flags=re.DOTALL)
    assert 'rel="stylesheet"' not in outside_noscript
    (style,) = re.findall(r"<style>(.*?)</style>", head, re.DOTALL)
    sheets = ("vendor/uplot/uPlot.min.css", "base.css", "style.css")
    assert style == "\n".join((STATIC / name).read_text(encoding="utf-8") for name in sheets)
    digest = base64.b64encode(hashlib.sha256(style.encode("utf-8")).digest()).decode("ascii")
    assert f"style-src 'self' 'sha256-{digest}';" in response.headers["Content-Security-Policy"]


def page_files(html: str) -> list[str]:
    """Every static file the page fetches at load: its links and scripts, and the modules they import."""
    found = [m for m in re.findall(r'(?:href|src)="(/static/[^"]+)"', html) if not m.endswith(".png")]
    modules = [m for m in found if m.endswith(".js")]
    while modules:
        module = modules.pop()
        text = (ASSETS_ROOT / module.lstrip("/")).read_text(encoding="utf-8")
        for name in re.findall(r'^import [^;]*? from "\./([^"]+)";', text, re.MULTILINE | re.DOTALL):
            path = f"/static/{name}"
            if path not in found:
                found.append(path)
                modules.append(path)
    return found


def test_every_module_the_page_imports_is_preloaded_and_nothing_else(client: FlaskClient) -> None:
    """The module graph is fetched in one round, not level by level (app.js → chart.js → chart-plot.js)."""
    html = client.get("/").get_data(as_text=True)
    preloaded = re.findall(r'<link rel="modulepreload" href="(/static/[^"]+)">', html)
    imported = [path for path in page_files(html) if path.endswith(".js") and path not in (
        "/static/app.js", "/static/early.js", "/static/vendor/uplot/uPlot.iife.min.js")]
    assert len(preloaded) == len(set(preloaded))
    assert sorted(preloaded) == sorted(imported)


def test_a_first_visit_stays_within_its_byte_budget(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    files = page_files(html)
    assert {"/static/app.js", "/static/chart-plot.js", "/static/vendor/uplot/uPlot.iife.min.js"} <= set(files)

    sizes = {path: len(client.get(path, headers=GZIP).data) for path in ["/", *files]}

    assert sum(sizes.values()) <= PAGE_BUDGET_BYTES, sorted(sizes.items(), key=lambda kv: -kv[1])


def test_waitress_sends_the_gzip_body_and_its_length_as_is(server: RunningServer) -> None:
    """Through the real HTTP server: nothing re-encodes the body or loses its length."""
    connection = http.client.HTTPConnection("127.0.0.1", server.config.port, timeout=10)
    try:
        connection.request("GET", "/static/chart.js", headers=GZIP)
        response = connection.getresponse()
        body = response.read()
        etag = response.getheader("ETag")
        connection.request("GET", "/static/chart.js", headers={**GZIP, "If-None-Match": etag or ""})
        again = connection.getresponse()
        again_body = again.read()
    finally:
        connection.close()

    assert response.status == 200
    assert response.getheader("Content-Encoding") == "gzip"
    assert int(response.getheader("Content-Length") or -1) == len(body)
    assert gzip.decompress(body) == (STATIC / "chart.js").read_bytes()
    assert again.status == 304 and again_body == b""
