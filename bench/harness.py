"""tokwatch as a user runs it: ``run.py --log … --port 0`` in its own process, and real websocket viewers.

Shared by the live figures (latency, fan-out, CPU) and the websocket fault tests. Everything
talks to 127.0.0.1 only; ports come from the banner the server prints.
"""

from __future__ import annotations

import base64
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import simple_websocket

ROOT = Path(__file__).resolve().parent.parent
HTTP_PORT = re.compile(r"http://(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)/")
WS_PORT = re.compile(r"websocket on port (\d+)")
LINES_READ = re.compile(r'"lines_read":(\d+)')
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class ServerError(RuntimeError):
    """The server did not start, or died."""


class Server:
    """One ``run.py`` process (ephemeral ports unless ``port`` is given); stop() is safe to call twice."""

    def __init__(self, log: Path, *args: str, stderr_path: Path | None = None, port: int = 0) -> None:
        self.log = log
        self.args = args
        self.port = port
        self.stderr_path = stderr_path
        self.process: subprocess.Popen[str] | None = None
        self.http_port = 0
        self.ws_port = 0
        self.banner: list[str] = []
        self._stderr: IO[str] | None = None

    def start(self, timeout: float = 20.0) -> Server:
        """Start the process and wait for both ports in its banner."""
        if self.stderr_path is not None:
            self._stderr = open(self.stderr_path, "w", encoding="utf-8")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-u", str(ROOT / "run.py"), "--log", str(self.log), "--port", str(self.port), *self.args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=self._stderr if self._stderr is not None else subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        found: dict[str, int] = {}
        done = threading.Event()

        def read_banner() -> None:
            assert self.process is not None and self.process.stdout is not None
            for line in self.process.stdout:
                self.banner.append(line.rstrip("\n"))
                for key, pattern in (("http", HTTP_PORT), ("ws", WS_PORT)):
                    m = pattern.search(line)
                    if m is not None and key not in found:
                        found[key] = int(m.group(1))
                if len(found) == 2:
                    done.set()
            done.set()  # stdout closed: the process ended

        threading.Thread(target=read_banner, name="server-stdout", daemon=True).start()
        if not done.wait(timeout) or len(found) != 2:
            self.stop()
            raise ServerError(f"run.py printed no ports within {timeout:.0f} s; banner: {self.banner}")
        self.http_port, self.ws_port = found["http"], found["ws"]
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ws_url(self, path: str = "/ws") -> str:
        return f"ws://127.0.0.1:{self.ws_port}{path}"

    def cpu_seconds(self) -> float:
        """User + system CPU the server process has used (all its threads)."""
        return proc_cpu_seconds(self.pid)

    def rss_kb(self) -> int:
        return round(proc_rss_mb(self.pid) * 1024)

    def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM, then SIGKILL after ``timeout``; return the exit status."""
        process = self.process
        status: int | None = None
        if process is not None:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            status = process.returncode
            if process.stdout is not None:
                process.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        return status


class _Client(simple_websocket.Client):  # type: ignore[misc]
    """simple_websocket.Client without its handshake race.

    The server sends the first snapshot right after its 101; bytes of it read together with the
    101 would sit unparsed until the next message came. Parse them at once.
    """

    def handshake(self) -> None:
        try:
            super().handshake()
        except BaseException:
            self.sock.close()  # refused: simple-websocket would leave the socket open
            raise
        self.connected = self._handle_events()


class Viewer:
    """A websocket client that reads every push on its own thread and notes when each arrived."""

    def __init__(self, url: str, **options: Any) -> None:
        self.url = url
        self.client = _Client(url, **options)
        self._lock = threading.Lock()
        self.received: list[tuple[float, int]] = []  # (perf_counter, lines_read) per snapshot
        self.keepalives = 0
        self.last_text = ""
        self.closed = threading.Event()
        self._changed = threading.Condition(self._lock)
        self._thread = threading.Thread(target=self._run, name="viewer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while True:
                message = self.client.receive()
                now = time.perf_counter()
                if message is None:
                    continue
                text = message if isinstance(message, str) else message.decode("utf-8", "replace")
                found = LINES_READ.search(text)
                with self._changed:
                    self.last_text = text
                    if found is None:
                        self.keepalives += 1
                    else:
                        self.received.append((now, int(found.group(1))))
                    self._changed.notify_all()
        except (simple_websocket.ConnectionClosed, OSError):
            pass
        finally:
            self.closed.set()
            with self._changed:
                self._changed.notify_all()

    def lines_read(self) -> int:
        with self._lock:
            return self.received[-1][1] if self.received else -1

    def wait_for(self, done: Callable[[int], bool], timeout: float) -> int:
        """Wait until ``done(lines_read)`` holds for the newest snapshot; return it (or raise TimeoutError)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                newest = self.received[-1][1] if self.received else -1
                if done(newest):
                    return newest
                left = deadline - time.monotonic()
                if left <= 0 or self.closed.is_set():
                    raise TimeoutError(f"{self.url}: newest lines_read {newest}")
                self._changed.wait(left)

    def first_at_least(self, lines: int, after: float = 0.0) -> float | None:
        """perf_counter time of the first snapshot with ``lines_read >= lines`` received after ``after``."""
        with self._lock:
            for at, read in self.received:
                if at >= after and read >= lines:
                    return at
        return None

    def close(self) -> None:
        with contextlib.suppress(Exception):  # closing a dead socket has nothing left to report
            self.client.close()
        self._thread.join(2)


def append_line(fd: int, line: bytes) -> float:
    """Append one line with a single write; return the perf_counter time just before it."""
    start = time.perf_counter()
    os.write(fd, line)
    return start


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def proc_rss_mb(pid: int) -> float:
    """A process's resident set size from /proc, in MB (MiB, as the other RSS figures)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class HandshakeRefused(Exception):
    """The server answered a websocket handshake with an HTTP status other than 101."""

    def __init__(self, status: int) -> None:
        super().__init__(f"refused with HTTP {status}")
        self.status = status


def raw_handshake(
    port: int, *, receive_buffer_bytes: int | None = None, timeout: float = 5.0, headers: dict[str, str] | None = None
) -> socket.socket:
    """Open a websocket by hand on 127.0.0.1:``port``; return the socket once the 101 arrived.

    The caller decides what the client then does (never read, send garbage, vanish).
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if receive_buffer_bytes is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer_bytes)
        sock.settimeout(timeout)
        sock.connect(("127.0.0.1", port))
        fields = {
            "Host": f"127.0.0.1:{port}",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
            "Sec-WebSocket-Version": "13",
            **(headers or {}),
        }
        request = "\r\n".join(["GET /ws HTTP/1.1", *(f"{k}: {v}" for k, v in fields.items())]) + "\r\n\r\n"
        sock.sendall(request.encode())
        # The response's head only, a byte at a time: the server's first frames may follow it in the same packet,
        # and they are the caller's to read whole (a frame cut here would be read as garbage after it).
        head = b""
        while b"\r\n\r\n" not in head:
            data = sock.recv(1)
            if not data:
                break
            head += data
        status_line = head.split(b"\r\n", 1)[0]
        if not status_line.strip():
            raise HandshakeRefused(0)
        if b" 101 " not in status_line:
            raise HandshakeRefused(int(status_line.split()[1]))
        if b"\r\n\r\n" not in head:
            raise HandshakeRefused(0)  # (the connection ended inside the 101's head)
        sock.settimeout(None)
        return sock
    except BaseException:
        sock.close()
        raise


def masked_frame(payload: bytes, opcode: int = 0x1, *, fin: bool = True) -> bytes:
    """One client-to-server websocket frame (clients must mask)."""
    mask = os.urandom(4)
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if n <= 4096 else _mask_fast(payload, mask)
    return head + mask + body


def close_code(sock: socket.socket, timeout: float) -> int | None:
    """Read server frames until a close frame; return its code (None: the stream ended or went quiet first)."""
    sock.settimeout(timeout)
    buffer = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            while len(buffer) >= 2:
                opcode, n = buffer[0] & 0x0F, buffer[1] & 0x7F
                at = 2
                if n == 126:
                    n, at = int.from_bytes(buffer[2:4], "big"), 4
                elif n == 127:
                    n, at = int.from_bytes(buffer[2:10], "big"), 10
                if len(buffer) < at + n:
                    break
                payload, buffer = buffer[at : at + n], buffer[at + n :]
                if opcode == 0x8:
                    return int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            data = sock.recv(65536)
            if not data:
                return None
            buffer += data
    except (TimeoutError, ConnectionResetError):
        return None
    return None


def _mask_fast(payload: bytes, mask: bytes) -> bytes:
    n = len(payload)
    key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
    return (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big")


class SteadyWriter:
    """Appends one line every ``interval`` seconds on its own thread and notes when each write began."""

    def __init__(self, fd: int, lines: list[bytes], interval: float = 0.15) -> None:
        self.fd = fd
        self.lines = lines
        self.interval = interval
        self.written: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="steady-writer", daemon=True)

    def start(self) -> SteadyWriter:
        self._thread.start()
        return self

    def _run(self) -> None:
        for line in self.lines:
            if self._stop.wait(self.interval):
                return
            self.written.append(append_line(self.fd, line))

    def stop(self) -> list[float]:
        self._stop.set()
        self._thread.join(5)
        return self.written


def late_arrivals(viewer: Viewer, base: int, written: list[float], within: float) -> list[tuple[int, float | None]]:
    """The appends ``viewer`` did not see within ``within`` seconds: (index, delay or None if never)."""
    late: list[tuple[int, float | None]] = []
    for i, at in enumerate(written):
        got = viewer.first_at_least(base + i + 1, at)
        if got is None or got - at > within:
            late.append((i, None if got is None else round(got - at, 3)))
    return late


def thread_wakeups(pid: int) -> dict[int, int]:
    """Voluntary context switches so far, per live thread of ``pid``."""
    counts: dict[int, int] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    counts[int(task.name)] = int(line.split()[1])
    return counts


def wakeups_per_second(before: dict[int, int], after: dict[int, int], seconds: float) -> list[float]:
    """Each thread's wake-ups a second between two counts, busiest first (threads alive at both)."""
    rates = [(after[tid] - before[tid]) / seconds for tid in after if tid in before]
    return sorted((round(rate, 2) for rate in rates if rate > 0), reverse=True)
