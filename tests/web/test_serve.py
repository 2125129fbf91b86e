"""`run.py` as a user runs it: ephemeral ports printed, the DEMO by default, LAN token and QR code,
a clean stop on SIGTERM or Ctrl-C, and clear errors."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.cli.main import main
from app.config import Config, ConfigError
from app.serve.command import ServeError, serve
from app.serve.console import print_banner
from app.serve.servers import listen
from app.web.pairing import page_url
from tests.launched import printed_until_ready

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class RunningProcess:
    """A ``run.py`` subprocess and what it printed up to its ready line."""

    process: subprocess.Popen[str]
    banner: str

    @property
    def http_port(self) -> int:
        return int(re.search(r"http://[^/\s]+:(\d+)/", self.banner).group(1))  # type: ignore[union-attr]

    @property
    def ws_port(self) -> int:
        return int(re.search(r"websocket on port (\d+)", self.banner).group(1))  # type: ignore[union-attr]

    def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 10) -> tuple[int, str]:
        """Send a signal; return the exit status and whatever it wrote on stderr."""
        self.process.send_signal(sig)
        _, stderr = self.process.communicate(timeout=timeout)
        return self.process.returncode, stderr


def start_run_py(home: Path, *args: str, extra_env: Mapping[str, str | None] | None = None) -> RunningProcess:
    """Run ``run.py`` with a home and config folder of its own; return once it printed its URLs.

    ``extra_env``: variables to set, or (None) to remove.
    """
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "PYTHONUNBUFFERED": "1",
    }
    for key, value in (extra_env or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "run.py"), "--port", "0", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    printed, started = printed_until_ready(process, 15)
    if started:
        return RunningProcess(process, printed)
    process.kill()
    _, stderr = process.communicate()
    raise AssertionError(f"run.py did not start:\n{printed}\n{stderr}")


@pytest.fixture
def demo_process(tmp_path: Path) -> Iterator[RunningProcess]:
    """``run.py --port 0`` with no log anywhere: the DEMO."""
    running = start_run_py(tmp_path)
    yield running
    if running.process.poll() is None:
        running.process.kill()
        running.process.communicate()


def get_json(url: str, token: str | None = None) -> dict[str, object]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5) as response:
        data: dict[str, object] = json.load(response)
        return data


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_no_log_means_the_demo_and_a_signal_stops_it_cleanly(demo_process: RunningProcess, sig: signal.Signals) -> None:
    banner = demo_process.banner
    assert "DEMO" in banner and "no Train at Home log found" in banner
    assert demo_process.ws_port != demo_process.http_port
    snapshot = get_json(f"http://127.0.0.1:{demo_process.http_port}/api/snapshot")
    source = snapshot["source"]
    assert isinstance(source, dict) and source["demo"] is True
    assert re.fullmatch(r"L1 · \d+k tok/h", str(snapshot["status_line"]))  # measured at once
    demo_file = Path(str(source["path"]))
    assert demo_file.read_text(encoding="utf-8").startswith("# COMPOSED")

    started = time.monotonic()
    status, stderr = demo_process.stop(sig)

    assert status == 0
    assert time.monotonic() - started < 5
    assert "Traceback" not in stderr
    assert not demo_file.exists()  # the dashboard's own temp file goes with it


def test_lan_mode_prints_a_token_url_and_keeps_the_token(tmp_path: Path, log_file: Path) -> None:
    first = start_run_py(tmp_path, "--host", "0.0.0.0", "--log", str(log_file))
    try:
        token = re.search(r"#token=([A-Za-z0-9_-]+)", first.banner).group(1)  # type: ignore[union-attr]
        # The QR code is drawn only on a terminal (tests/web/test_first_run.py reads it there).
        base = f"http://127.0.0.1:{first.http_port}"
        with pytest.raises(urllib.error.HTTPError) as refused:
            get_json(f"{base}/api/snapshot")
        assert refused.value.code == 401
        refused.value.close()
        assert get_json(f"{base}/api/snapshot", token)["status_line"] == "waiting for log"
    finally:
        status, stderr = first.stop()
    assert status == 0, stderr
    token_file = tmp_path / "config" / "tokwatch" / "token"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600

    second = start_run_py(tmp_path, "--host", "0.0.0.0", "--log", str(log_file))
    try:
        assert f"#token={token}" in second.banner  # a bookmark survives the restart
    finally:
        second.stop()


def test_a_port_in_use_is_a_one_line_error(tmp_path: Path, log_file: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, str(ROOT / "run.py"), "--log", str(log_file), "--port", str(port)],
            cwd=ROOT,
            env={**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    assert result.returncode == 1
    assert f"port {port} is already in use" in result.stderr
    assert "Traceback" not in result.stderr


def test_listen_on_port_zero_gets_a_real_port() -> None:
    with listen("127.0.0.1", 0) as sock:
        assert sock.getsockname()[1] > 0
    with pytest.raises(ServeError, match="cannot listen"):
        listen("no-such-host.invalid", 0)


def test_a_stop_after_the_http_loop_closed_writes_to_no_descriptor(tmp_path: Path) -> None:
    """The loop may see the stop and close its trigger before the stop pulls it: nothing is written then.

    A write to the closed trigger failed with EBADF, or went into whatever file had since taken
    its descriptor's number (here a pipe opened right after the close, as the history's file could be).
    """
    import threading

    from app.serve.servers import HttpLoop, http_server

    channels: dict[int, object] = {}
    loop = HttpLoop(http_server(lambda environ, start: [], listen("127.0.0.1", 0), Config(log_path=None), channels),
                    channels)
    thread = threading.Thread(target=loop.run)
    thread.start()
    loop.stop()
    thread.join(5)
    assert not thread.is_alive()
    read_end, write_end = os.pipe()  # takes the lowest free numbers: the trigger's, just closed
    try:
        os.set_blocking(read_end, False)
        loop.stop()  # a second stop, after the close: no error, no byte anywhere
        loop.close()
        with pytest.raises(BlockingIOError):
            os.read(read_end, 1)
    finally:
        os.close(read_end)
        os.close(write_end)


def test_serve_refuses_a_bad_token_before_binding(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match="token must be"):
        serve(Config(log_path=log_file, port=0, token="bad token"))
    # run.py turns it into one line and status 2
    assert main(["--log", str(log_file), "--port", "0", "--token", "bad token"]) == 2
    err = capsys.readouterr().err
    assert "token must be" in err and len(err.strip().splitlines()) == 1


def test_the_banner_names_the_url_to_open(log_file: Path) -> None:
    out = io.StringIO()
    print_banner(Config(port=8765), log_file, demo=False, given_demo=False, out=out)
    assert f"following {log_file}" in out.getvalue()
    assert "open http://127.0.0.1:8765/\n" in out.getvalue()
    assert "websocket on port 8766" in out.getvalue()


def test_urls_bracket_ipv6_and_carry_the_token() -> None:
    assert page_url("::1", 8765, None) == "http://[::1]:8765/"
    assert page_url("192.168.1.20", 8765, "abc") == "http://192.168.1.20:8765/#token=abc"


def test_a_start_that_fails_half_way_still_stops_at_once(log_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.live.monitor import Monitor
    from app.serve.process import Dashboard

    monitor = Monitor(log_file)

    def broken_start() -> None:
        raise KeyboardInterrupt  # Ctrl-C while starting, before any server thread runs

    monkeypatch.setattr(monitor, "start", broken_start)
    dashboard = Dashboard(Config(log_path=log_file, port=0), monitor)
    with pytest.raises(KeyboardInterrupt):
        dashboard.start()
    started = time.monotonic()
    dashboard.stop()
    assert time.monotonic() - started < 2.0


LOADED_PROBE = """
import sys
from pathlib import Path
from app.config import Config
from app.live.monitor import Monitor
from app.live.feed import LiveFeed
from app.serve.process import build_web, open_fleet
config = Config(log_path=Path(sys.argv[1]), port=0, history=False)
feed = LiveFeed(Monitor(config.log_path))
open_fleet(config, feed)
app = build_web(config, feed).app
watched = ("segno", "prometheus_client", "app.hub.service", "app.hub.agent")
print(" ".join(m for m in watched if m in sys.modules))
response = app.test_client().get("/metrics", headers={"Host": "127.0.0.1"})
print(response.status_code, "prometheus_client" in sys.modules, b"tokwatch_" in response.data)
"""


def test_a_loopback_dashboard_without_a_fleet_loads_neither_qr_nor_prometheus_until_asked(tmp_path: Path) -> None:
    """Each module a feature needs costs resident memory for weeks: loaded when the feature is used."""
    log = tmp_path / "miner.log"
    log.write_text("")
    result = subprocess.run(
        [sys.executable, "-c", LOADED_PROBE, str(log)], check=False, cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    loaded, scraped = result.stdout.splitlines()
    assert loaded.split() == []
    assert scraped == "200 True True"  # the first scrape loads the client and answers
