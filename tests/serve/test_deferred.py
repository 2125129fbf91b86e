"""A server never loads asyncio (simple-websocket's asyncio half, which tokwatch does not use),
yet anything that asks for asyncio gets the real module."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.web.test_serve import start_run_py

ROOT = Path(__file__).resolve().parents[2]


def _mapped(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text()


def test_a_running_server_has_not_loaded_asyncio(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("step 1: train loss 2.5000, val loss 2.6000\n", encoding="utf-8")
    running = start_run_py(tmp_path, "--log", str(log), "--data-dir", str(tmp_path / "data"))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{running.http_port}/healthz", timeout=30) as answer:
            assert json.loads(answer.read())["status"] == "ok"
        maps = _mapped(running.process.pid)
        assert "_ssl" in maps  # the reading works: a library the server does load is listed
        assert "_asyncio" not in maps
    finally:
        running.stop()


def test_asyncio_is_the_real_module_for_whoever_asks_afterwards() -> None:
    script = """
import sys
from app.serve.deferred import websocket_without_asyncio
left_out = websocket_without_asyncio()
import app.cli.main, app.serve.command  # the server's own modules
loaded_by_server = "asyncio" in sys.modules
import simple_websocket.aiows as aiows
event = aiows.asyncio.Event  # simple-websocket's own name for it loads the real module
import asyncio
print(left_out, loaded_by_server, asyncio is sys.modules["asyncio"], type(asyncio).__name__,
      event is asyncio.Event, asyncio.run(asyncio.sleep(0, "ran")))
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=True)
    assert done.stdout.split() == ["True", "False", "True", "module", "True", "ran"]


def test_where_asyncio_is_loaded_already_nothing_is_deferred() -> None:
    script = """
import asyncio, sys
from app.serve.deferred import websocket_without_asyncio
print(websocket_without_asyncio(), sys.modules["asyncio"] is asyncio, "simple_websocket" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=True)
    assert done.stdout.split() == ["False", "True", "True"]
