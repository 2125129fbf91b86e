"""The HTTP side in-process: the page, the snapshot API, health, Host / Origin / token refusals, headers."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.config import Config, ConfigError
from app.live.monitor import Monitor
from app.snapshot import to_json
from app.web.security import (
    content_security_policy,
    load_or_create_token,
    origin_allowed,
    split_host,
)
from app.web.websocket import SERVER_ROLE_KEY
from tests.conftest import LogWriter, web_app

TOKEN = "s3cret-token_for.tests"
WS_HANDSHAKE = {
    "Upgrade": "websocket",
    "Connection": "Upgrade",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version": "13",
}


@pytest.fixture
def lan_app(config: Config, monitor: Monitor) -> Flask:
    """The app as served on the LAN: all interfaces, a token."""
    return web_app(replace(config, host="0.0.0.0", port=8765, token=TOKEN), monitor)


# --- the page, the API, health -----------------------------------------------------------


def test_page_carries_the_websocket_port_and_no_inline_script(client: FlaskClient) -> None:
    response = client.get("/")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    # On the root element: the websocket is opened from the head, before the body exists.
    assert re.search(r'<html [^>]*data-ws-port="8766"', page)
    assert re.search(r'<html [^>]*data-token-required="false"', page)
    # The early websocket first; our module, and the vendored chart library it draws with; every
    # script from a file of ours.
    assert re.findall(r"<script[^>]*>", page) == [
        '<script type="module" async src="/static/early.js">',
        '<script defer src="/static/vendor/uplot/uPlot.iife.min.js">',
        '<script type="module" src="/static/app.js">',
    ]
    assert all(not body.strip() for body in re.findall(r"<script[^>]*>(.*?)</script>", page, re.DOTALL))  # nothing inline
    assert "http://" not in page.replace('xmlns="http://www.w3.org', "")  # no external origin at all


def test_api_snapshot_is_the_one_serializer(config: Config, log_writer: LogWriter) -> None:
    now = 1_790_000_000.0
    monitor = Monitor(config.log_path, clock=lambda: now)
    monitor.lines(log_writer.registered(2, t=now - 60))
    client = web_app(config, monitor).test_client()

    response = client.get("/api/snapshot")

    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.get_data(as_text=True) == to_json(monitor.snapshot())
    assert response.get_json()["status_line"] == "L2 · …"


def test_healthz_needs_no_token(lan_app: Flask) -> None:
    response = lan_app.test_client().get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "history": {"mode": "off", "problem": None, "importing": None},
                                   "problems": []}


def test_static_files_are_served_without_a_directory_listing(client: FlaskClient) -> None:
    with client.get("/static/app.js") as script:  # a file response: close it
        assert script.status_code == 200
        assert script.mimetype in ("text/javascript", "application/javascript")
    assert client.get("/static/").status_code == 404
    assert client.get("/static/../app/config.py").status_code == 404


# --- Host (DNS rebinding) -----------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    ["localhost", "localhost:8765", "127.0.0.1", "127.0.0.1:1", "[::1]:8765", "192.168.1.20", "10.0.0.5:80",
     "[fe80::1]"],
)
def test_host_literals_and_localhost_pass(client: FlaskClient, host: str) -> None:
    assert client.get("/healthz", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize(
    "host",
    ["evil.example", "evil.example:8765", "localhost.evil.example", "127.0.0.1.nip.io", "[::1", "::1",
     "127.0.0.1:99999", "1.2.3.4:port", "miner.local"],
)
def test_other_hosts_are_refused_everywhere(client: FlaskClient, host: str) -> None:
    for path in ("/", "/api/snapshot", "/healthz", "/static/app.js"):
        with client.get(path, headers={"Host": host}) as response:
            assert response.status_code == 403, path
            assert "--allow-host" in response.get_json()["hint"]


def test_allow_host_adds_a_name(config: Config, monitor: Monitor) -> None:
    client = web_app(replace(config, allow_hosts=("Miner.local",)), monitor).test_client()
    assert client.get("/healthz", headers={"Host": "miner.local:8765"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "other.local"}).status_code == 403


# --- token (LAN) ---------------------------------------------------------------------------


def test_lan_api_needs_the_token(lan_app: Flask) -> None:
    client = lan_app.test_client()
    missing = client.get("/api/snapshot")
    wrong = client.get("/api/snapshot", headers={"Authorization": "Bearer nope-nope-nope"})
    right = client.get("/api/snapshot", headers={"Authorization": f"Bearer {TOKEN}"})

    assert missing.status_code == 401
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert "#token=" in missing.get_json()["hint"]
    assert wrong.status_code == 401
    assert right.status_code == 200
    assert client.get("/api/snapshot", query_string={"token": TOKEN}).status_code == 401  # header only


def test_lan_page_and_static_files_load_without_the_token(lan_app: Flask) -> None:
    client = lan_app.test_client()
    page = client.get("/", headers={"Host": "192.168.1.20:8765"})
    assert page.status_code == 200
    assert 'data-token-required="true"' in page.get_data(as_text=True)
    assert TOKEN not in page.get_data(as_text=True)
    with client.get("/static/style.css") as style:
        assert style.status_code == 200


def test_a_non_loopback_host_without_a_token_does_not_start(config: Config, monitor: Monitor) -> None:
    with pytest.raises(ConfigError, match="token is required"):
        web_app(replace(config, host="0.0.0.0"), monitor)


@pytest.mark.parametrize("token", ["short", "has space in it", "has#fragment", "ünïcode-token"])
def test_a_token_that_cannot_travel_in_a_url_is_refused(config: Config, monitor: Monitor, token: str) -> None:
    with pytest.raises(ConfigError, match="token"):
        web_app(replace(config, token=token), monitor)


def test_a_bad_allow_host_is_refused(config: Config, monitor: Monitor) -> None:
    with pytest.raises(ConfigError, match="allow-host"):
        web_app(replace(config, allow_hosts=("evil.example/x",)), monitor)


def test_token_is_created_once_private_and_kept(tmp_path: Path) -> None:
    folder = tmp_path / "cfg" / "tokwatch"
    first = load_or_create_token(folder)
    second = load_or_create_token(folder)
    token_file = folder / "token"
    assert first == second
    assert len(first) >= 32
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    token_file.chmod(0o644)
    assert load_or_create_token(folder) == first
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600


def test_a_garbled_token_file_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "token").write_text("not a token\n")
    token = load_or_create_token(tmp_path)
    assert (tmp_path / "token").read_text().strip() == token != "not a token"


# --- the websocket handshake, refused before it is accepted ----------------------------------


def ws_get(client: FlaskClient, **headers: str) -> tuple[int, dict[str, str]]:
    response = client.get("/ws", headers={**WS_HANDSHAKE, "Host": "127.0.0.1:8766", **headers})
    return response.status_code, response.get_json() or {}


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "http://127.0.0.1:8766", "https://127.0.0.1:8765", "http://localhost:8765",
     "http://127.0.0.1:8765.evil.example", "http://user@127.0.0.1:8765", "null", "http://127.0.0.1:87650"],
)
def test_a_foreign_origin_is_refused_before_the_upgrade(client: FlaskClient, origin: str) -> None:
    status, body = ws_get(client, Origin=origin)
    assert status == 403
    assert "own page" in body["error"]


def test_lan_websocket_needs_the_token_before_anything_else(lan_app: Flask) -> None:
    status, _ = ws_get(lan_app.test_client(), Origin="http://127.0.0.1:8765")
    assert status == 401


def test_a_missing_origin_is_refused_off_this_machine_without_a_token(client: FlaskClient) -> None:
    response = client.get(
        "/ws",
        headers={**WS_HANDSHAKE, "Host": "127.0.0.1:8766"},
        environ_base={"REMOTE_ADDR": "192.168.1.9"},
    )
    assert response.status_code == 403


def test_the_client_cap_refuses_with_503_before_the_upgrade(app: Flask) -> None:
    broadcaster = app.extensions["tokwatch"].broadcaster
    clients = [broadcaster.join() for _ in range(broadcaster.max_clients)]
    assert all(clients)
    status, body = ws_get(app.test_client(), Origin="http://127.0.0.1:8765")
    assert status == 503
    assert "too many" in body["error"]


def test_each_server_keeps_to_its_role(client: FlaskClient) -> None:
    on_ws_port = client.get("/", environ_overrides={SERVER_ROLE_KEY: "ws"})
    on_http_port = client.get(
        "/ws", headers={**WS_HANDSHAKE, "Origin": "http://localhost:8765"}, environ_overrides={SERVER_ROLE_KEY: "http"}
    )
    assert on_ws_port.status_code == 404
    assert on_http_port.status_code == 400
    assert "port 8766" in on_http_port.get_json()["error"]


# --- headers ------------------------------------------------------------------------------


def test_every_response_carries_the_safe_headers(client: FlaskClient) -> None:
    for path in ("/", "/api/snapshot", "/static/app.js", "/nowhere"):
        with client.get(path, headers={"Host": "192.168.1.20:8765"}) as response:
            headers = response.headers
            body = response.get_data(as_text=True)
        # The page allows its own inlined sheets by their hash, and no other inline style; nothing else any.
        styles = re.findall(r"<style>(.*?)</style>", body, re.DOTALL) if path == "/" else []
        hashes = [f"sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}" for text in styles]
        assert len(hashes) == (1 if path == "/" else 0), path
        expected = content_security_policy("ws://192.168.1.20:8766", hashes)
        assert headers["Content-Security-Policy"] == expected, path
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"


def test_the_csp_allows_only_this_origin_and_its_websocket() -> None:
    csp = content_security_policy("ws://[::1]:8766")
    assert "default-src 'none'" in csp
    assert "script-src 'self';" in csp
    assert "connect-src 'self' ws://[::1]:8766;" in csp
    assert "unsafe" not in csp and "http" not in csp


def test_no_request_body_is_accepted(app: Flask) -> None:
    assert app.config["MAX_CONTENT_LENGTH"] <= 64 * 1024
    assert app.test_client().post("/api/snapshot", data=b"x" * 100).status_code == 405


# --- the rules, as tables ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("localhost", ("localhost", None)),
        ("LocalHost:8765", ("localhost", 8765)),
        ("[::1]:80", ("[::1]", 80)),
        ("[::1]", ("[::1]", None)),
        ("::1", None),
        ("host:", None),
        ("host:-1", None),
        ("", None),
    ],
)
def test_split_host(value: str, expected: tuple[str, int | None] | None) -> None:
    assert split_host(value) == expected


@pytest.mark.parametrize(
    ("origin", "host_name", "allowed"),
    [
        ("http://127.0.0.1:8765", "127.0.0.1", True),
        ("http://[::1]:8765", "[::1]", True),
        ("http://miner.local:8765", "miner.local", True),  # allowed by name below
        ("http://miner.local:8765", "127.0.0.1", False),  # not the host the page came from
        ("http://127.0.0.1", "127.0.0.1", False),  # port 80
        ("http://127.0.0.1:8765/path", "127.0.0.1", False),
    ],
)
def test_origin_allowed(origin: str, host_name: str, allowed: bool) -> None:
    assert origin_allowed(origin, host_name=host_name, http_port=8765, allow_hosts=("miner.local",)) is allowed


def test_nothing_starts_at_import() -> None:
    import threading

    import app.web  # noqa: F401

    names = {thread.name for thread in threading.enumerate()}
    assert not any(name.startswith("tokwatch") for name in names)
    assert os.environ.get("TOKWATCH_NEVER_SET") is None


def test_the_page_loads_without_its_headline_when_the_snapshot_fails(
        client: FlaskClient, monitor: Monitor, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A page that could not carry the live headline still loads, and draws it from the websocket."""
    def broken(*_args: object, **_kwargs: object) -> object:
        raise RuntimeError("a snapshot that fails")

    monkeypatch.setattr(monitor, "snapshot", broken)
    response = client.get("/")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r'<html [^>]*data-ws-port="8766"', page)  # the page, to draw itself from the websocket
    assert "a snapshot that fails" not in page
    assert "served without its headline: RuntimeError" in caplog.text
