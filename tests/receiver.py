"""A small real HTTP receiver for notifications and heartbeats: 127.0.0.1 on port 0, nothing leaves the machine.

``mode`` decides the answer: ``ok`` (200), ``fail`` (500) or ``hang`` (no answer until closed).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Received:
    def __init__(self, method: str, path: str, body: bytes) -> None:
        self.method, self.path, self.body, self.at = method, path, body, time.time()

    @property
    def json(self) -> Any:
        return json.loads(self.body)


class Receiver:
    """Records every request; answers as ``mode`` says (changeable while running)."""

    def __init__(self, mode: str = "ok") -> None:
        self.mode = mode
        self.fail_first = 0  # answer 500 to this many requests first, then as mode says
        self.received: list[Received] = []
        self._changed = threading.Condition()
        self._release = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with receiver._changed:
                    receiver.received.append(Received(self.command, self.path, body))
                    fail = receiver.fail_first > 0
                    receiver.fail_first -= 1 if fail else 0
                    receiver._changed.notify_all()
                mode = "fail" if fail else receiver.mode
                if mode == "hang":
                    receiver._release.wait(30)
                    return
                code = 500 if mode == "fail" else 200
                # A hub's answer to a report (an agent drops a report only on its "taken").
                answer = b"{}"
                if self.path.endswith("/hub/report") and code == 200:
                    answer = b'{"taken":true}'
                elif self.path.endswith("/hub/history") and code == 200:
                    answer = b'{"taken":0}'  # a history batch's: how many minutes were new
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_GET = do_POST = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    def json_url(self, path: str = "/") -> str:
        """An Apprise URL that posts JSON here."""
        return f"json://127.0.0.1:{self.port}{path}"

    def http_url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def wait_for(self, count: int, timeout: float = 20.0) -> list[Received]:
        """Block until ``count`` requests arrived (or fail the test)."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.received) >= count, timeout=timeout):
                raise AssertionError(f"{len(self.received)} requests arrived, expected {count}")
            return list(self.received)

    def close(self) -> None:
        self._release.set()
        self.server.shutdown()
        self.server.server_close()
