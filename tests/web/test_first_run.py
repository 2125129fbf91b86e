"""A first run as a new user makes it: the browser opened (only where it can be), a new token
that really retires the old one, the terminal's QR code readable in light and dark terminals,
no DEMO log left behind, `make run LOG=…` with spaces, and the `tokwatch` command declared."""

from __future__ import annotations

import io
import os
import re
import shlex
import signal
import stat
import subprocess
import sys
import urllib.error
from pathlib import Path

import pytest

from app.config import Config
from app.serve.console import has_display, print_banner
from app.web import pairing
from tests.web.qr import read_qr, render_terminal
from tests.web.test_serve import ROOT, get_json, start_run_py


def browser_spy(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """Environment in which Python's webbrowser "opens" a URL by writing it to a file."""
    seen = tmp_path / "opened.txt"
    script = tmp_path / "fake-browser"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> {shlex.quote(str(seen))}\n', encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {"BROWSER": str(script)}, seen


def run_with(tmp_path: Path, env: dict[str, str], *args: str) -> tuple[str, int]:
    """Start run.py with this environment (and no display unless it names one), stop it, return
    its banner and exit status."""
    extra: dict[str, str | None] = {"DISPLAY": None, "WAYLAND_DISPLAY": None, **env}
    running = start_run_py(tmp_path, *args, extra_env=extra)
    status, _ = running.stop()
    return running.banner, status


def wait_for(path: Path) -> str:
    import time

    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if path.exists() and path.read_text(encoding="utf-8").strip():
            return path.read_text(encoding="utf-8")
        time.sleep(0.05)
    return ""


def test_open_starts_the_browser_on_the_dashboard(tmp_path: Path, log_file: Path) -> None:
    env, seen = browser_spy(tmp_path)
    banner, status = run_with(tmp_path, {**env, "DISPLAY": ":0"}, "--open", "--log", str(log_file))
    assert status == 0
    port = re.search(r"open http://127\.0\.0\.1:(\d+)/", banner).group(1)  # type: ignore[union-attr]
    assert wait_for(seen).splitlines() == [f"http://127.0.0.1:{port}/"]


def test_no_display_or_no_open_means_no_browser(tmp_path: Path, log_file: Path) -> None:
    env, seen = browser_spy(tmp_path)
    banner, _ = run_with(tmp_path, env, "--open", "--log", str(log_file))
    assert "no display here" in banner
    run_with(tmp_path, {**env, "DISPLAY": ":0"}, "--open", "--no-open", "--log", str(log_file))
    run_with(tmp_path, {**env, "DISPLAY": ":0"}, "--log", str(log_file))  # the default is not to
    assert not seen.exists()


@pytest.mark.parametrize(
    ("environ", "platform", "shown"),
    [({}, "linux", False), ({"DISPLAY": ":0"}, "linux", True), ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
     ({}, "darwin", True), ({}, "win32", True), ({"DISPLAY": ""}, "freebsd14", False)],
)
def test_a_display_is_where_a_browser_can_show(environ: dict[str, str], platform: str, shown: bool) -> None:
    assert has_display(environ, platform) is shown


def test_new_token_retires_the_old_one_and_says_so(tmp_path: Path, log_file: Path) -> None:
    first = start_run_py(tmp_path, "--host", "0.0.0.0", "--log", str(log_file))
    old = re.search(r"#token=([A-Za-z0-9_-]+)", first.banner).group(1)  # type: ignore[union-attr]
    first.stop()

    second = start_run_py(tmp_path, "--host", "0.0.0.0", "--new-token", "--log", str(log_file))
    try:
        token_file = tmp_path / "config" / "tokwatch" / "token"
        assert f"a new token is kept in {token_file}" in second.banner
        assert "stops working" in second.banner
        new = re.search(r"#token=([A-Za-z0-9_-]+)", second.banner).group(1)  # type: ignore[union-attr]
        assert new != old and token_file.read_text(encoding="ascii").strip() == new
        base = f"http://127.0.0.1:{second.http_port}"
        with pytest.raises(urllib.error.HTTPError) as refused:
            get_json(f"{base}/api/snapshot", old)
        assert refused.value.code == 401
        refused.value.close()
        assert get_json(f"{base}/api/snapshot", new)["status_line"] == "waiting for log"
    finally:
        second.stop()


def test_new_token_does_not_go_with_a_given_token(tmp_path: Path) -> None:
    from app.cli.main import main

    assert main(["--new-token", "--token", "abcdefgh12"]) == 2


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_banners_qr_code_reads_in_light_and_dark_terminals(
    log_file: Path, theme: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pairing, "lan_address", lambda host: "192.168.1.20")
    out = Terminal()
    print_banner(Config(host="0.0.0.0", port=8765, token="Zk3_q-9vX2mN8pQ4"), log_file, demo=False,
                 given_demo=False, out=out)
    phone = re.search(r"on your phone:\s+(\S+)", out.getvalue())
    assert phone is not None and phone.group(1) == "http://192.168.1.20:8765/#token=Zk3_q-9vX2mN8pQ4"
    code = "\n".join(line for line in out.getvalue().splitlines() if "\x1b[" in line)
    assert read_qr(render_terminal(code, theme)) == [phone.group(1)]


def test_a_banner_written_to_a_file_or_pipe_has_no_colour_codes(tmp_path: Path, log_file: Path) -> None:
    running = start_run_py(tmp_path, "--host", "0.0.0.0", "--log", str(log_file))
    running.stop()
    assert "on your phone:" in running.banner
    assert "\x1b" not in running.banner


def test_once_with_the_demo_leaves_nothing_behind(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "--once", "--demo"],
        cwd=ROOT, env={**os.environ, "TMPDIR": str(scratch)},
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert re.match(r"L1 · \d+k tok/h", result.stdout)
    assert list(scratch.iterdir()) == []


def test_closing_the_terminal_stops_the_demo_and_deletes_its_log(tmp_path: Path) -> None:
    running = start_run_py(tmp_path)
    source = get_json(f"http://127.0.0.1:{running.http_port}/api/snapshot")["source"]
    demo_file = Path(str(source["path"]))  # type: ignore[index]
    assert demo_file.exists()
    status, stderr = running.stop(signal.SIGHUP)
    assert status == 0, stderr
    assert not demo_file.exists()


def test_make_run_passes_a_log_folder_with_spaces_as_one_argument() -> None:
    folder = "/Users/me/Library/Logs/IOTA Train at Home/"
    result = subprocess.run(
        ["make", "-n", "run", f"LOG={folder}", "ARGS=--port 0"],
        cwd=ROOT, capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    command = next(line for line in result.stdout.splitlines() if "tokwatch" in line and "--open" in line)
    argv = shlex.split(command)
    assert argv[0].endswith(".venv/bin/tokwatch")
    assert argv[1:] == ["--open", "--log", folder, "--port", "0"]
