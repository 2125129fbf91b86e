"""TensorBoard on the same run, when it is installed: the peer figure 17 is compared with.

TensorBoard is not a dependency (``pip install tensorboard`` into the bench's environment to have
it measured). The run's logged losses, read from the very nanoGPT log tokwatch opens, are written
as TensorBoard's own event file — its protobuf classes and its record framing with its masked
CRC, one event per step, as a trainer's ``SummaryWriter`` leaves them — and TensorBoard is
started on that folder as its users start it (``python -m tensorboard.main --logdir``, its fast
loader when installed). The clock runs from its process start until its scalars route answers
with the run's last step: its answer is the whole run's chart (a sample of 1,000 points, the last
step always among them), so one time stands for both of figure 17's (latest step, whole chart).
That is the data a page asks for, not the page drawn; tokwatch's times are likewise the
snapshot's and ``/api/history``'s answers.
"""

from __future__ import annotations

import importlib.util
import json
import re
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from bench.harness import proc_rss_mb

# nanoGPT's step line (bench.synth.nanogpt_log): "iter 12: loss 3.1234, time 120.00ms, mfu 45.00%".
_ITER = re.compile(r"^iter (\d+): loss ([0-9.]+), time ([0-9.]+)ms", re.MULTILINE)
_TAG = "loss"


def installed() -> str | None:
    """TensorBoard's version when it can be run here, else None."""
    if importlib.util.find_spec("tensorboard") is None:
        return None
    from importlib.metadata import version

    return version("tensorboard")


def write_events(log_text: str, folder: Path, *, start: float = 1.7e9) -> int:
    """The log's per-step losses as one TensorBoard event file in ``folder``; how many steps."""
    from tensorboard.compat.proto import event_pb2, summary_pb2
    from tensorboard.compat.tensorflow_stub.pywrap_tensorflow import masked_crc32c

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"events.out.tfevents.{int(start)}.bench"
    steps = 0
    wall = start
    with path.open("wb") as out:

        def record(event: Any) -> None:
            data = event.SerializeToString()
            header = struct.pack("<Q", len(data))
            out.write(header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data)))

        record(event_pb2.Event(wall_time=start, file_version="brain.Event:2"))
        for found in _ITER.finditer(log_text):
            step, loss, ms = int(found[1]), float(found[2]), float(found[3])
            wall += ms / 1000
            value = summary_pb2.Summary.Value(tag=_TAG, simple_value=loss)
            record(event_pb2.Event(wall_time=wall, step=step, summary=summary_pb2.Summary(value=[value])))
            steps += 1
    return steps


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def time_to_last_step(folder: Path, last_step: int, *, timeout: float, stderr: Path) -> dict[str, Any]:
    """Start TensorBoard on ``folder``; seconds until its scalars route holds ``last_step``, and its RSS then."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}/data/plugin/scalars/scalars?run=.&tag={_TAG}"
    began = time.perf_counter()
    found: dict[str, Any] = {}
    with stderr.open("w", encoding="utf-8") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "tensorboard.main", "--logdir", str(folder), "--host", "127.0.0.1",
             "--port", str(port)],
            stdout=subprocess.DEVNULL, stderr=errors,
        )
        try:
            while time.perf_counter() - began < timeout and process.poll() is None:
                try:
                    with urllib.request.urlopen(url, timeout=30) as answer:
                        points = json.loads(answer.read())
                except (urllib.error.URLError, OSError, ValueError):
                    points = None  # not listening yet, or the run not loaded yet (400)
                if points and points[-1][1] == last_step:
                    found["seconds"] = time.perf_counter() - began
                    found["points"] = len(points)
                    found["rss_mb"] = _rss_mb(process.pid)
                    break
                time.sleep(0.05)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return found


def _rss_mb(pid: int) -> float | None:
    """The process's resident memory with its children's (TensorBoard's fast loader is a child)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return sum(proc_rss_mb(each) for each in [pid, *map(int, children)])
    except (OSError, ValueError):
        return None
