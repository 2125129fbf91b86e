"""The DEMO log: a COMPOSED Train-at-Home miner log — not from a real miner — replayed to end now.

A seeded generator writes what the Train-at-Home app's CLI log looks like (the host wrapper
around loguru's default line, research/iota-log-format.md §1.2, with the templates of §2 and
the shapes of research/iota-sample.log): launch, a few registration-queue polls with their 503
``register.queue_state`` warnings and a 404, registration in layer 1, then a forward pass about
every 15 s with backward passes, optimization steps, heartbeats, GPU memory lines in all three
forms, one epoch change, and now and then another 503.

The composed history spans the last 55 minutes and ends at the moment it is written, so the
dashboard has a measured rate (20-minute window) and most of an hour of history at once;
:class:`DemoLog` then keeps appending passes in real time. Everything a snapshot shows is
marked DEMO (``source.demo``).
"""

from __future__ import annotations

import logging
import math
import os
import random
import tempfile
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

SEED = 2609
HOTKEY = "5DemoTw8"  # the log shows hotkey[:8]
RUN_ID = "4.12.16.5-tah"
LAYER = 1
FIRST_EPOCH = 48
SHAPE = "torch.Size([4, 800, 32])"  # 4 × 800 = 3,200 tokens a pass
TENSOR_BYTES = 206107
HISTORY_SECONDS = 55 * 60
# The epoch ends this long before the history's end: outside the 20-minute rate window, so the
# rate is measured at once, but inside the hour, so the sparkline shows the pause.
EPOCH_CHANGE_BEFORE_END_SECONDS = 32 * 60
PASS_SECONDS = 15.0
HEARTBEAT_SECONDS = 30.0
BACKWARDS_PER_STEP = 2
# A pass's lines run up to this long after its FORWARD complete (backward, step, heartbeat): a
# pass is written only once all of its lines are in the past.
PASS_TAIL_SECONDS = 1.5
# Roughly every 10 minutes of passes, as the queue_state push keeps failing in TAH 3.7.0.
STRAY_503_PER_PASS = 1 / 40

# The file's first line: whoever finds it in a temp folder knows what it is. Parsers skip it.
COMPOSED_HEADER = "# COMPOSED by tokwatch for its DEMO: a made-up Train-at-Home miner log, not a real miner's"

_WHERE_FORWARD = "miner.training.training:forward"
_WHERE_BACKWARD = "miner.training.training:backward"
_WHERE_REQUEST = "subnet.common_api_client:orchestrator_request"
_WHERE_GPU = "subnet.model.utils:log_gpu_memory_usage"
_WHERE_TICK = "miner.new_miner:training_loop_tick"
_QUEUE_503 = (
    "register_set_queue_state exhausted retries (3): POST /register/queue_state failed 503: "
    '{"detail":"unsupported: No handler for register.queue_state"}'
)
_NGINX_404 = (
    "<head><title>404 Not Found</title></head>",
    "<body>",
    "<center><h1>404 Not Found</h1></center>",
    "<hr><center>nginx</center>",
    "</body>",
    "</html>",
)


def _stamp(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + f".{int(t * 1000) % 1000:03d}"


def _line(t: float, level: str, where: str, message: str) -> str:
    """One Train-at-Home line: the host wrapper around loguru's default format."""
    stamp = _stamp(t)
    return f"[{stamp}] [info]  {stamp} | {level:<8} | {where} - {message}"


class ComposedMiner:
    """A composed miner's life, line by line, from seeded randomness (so every run reads the same)."""

    def __init__(self, seed: int = SEED) -> None:
        self._rng = random.Random(seed)
        self.epoch = FIRST_EPOCH
        self.step = 0
        self.global_step = 5120
        self._backwards = 0
        self._awaiting_backward: deque[str] = deque()
        self._last_heartbeat = float("-inf")
        self._gpu_base = 2.9

    def _id(self) -> str:
        return str(uuid.UUID(int=self._rng.getrandbits(128), version=4))

    def _gb(self, extra: float) -> str:
        return f"{self._gpu_base + extra + self._rng.uniform(-0.08, 0.08):.2f}"

    def pass_interval(self, t: float) -> float:
        """Seconds to the next forward pass: ~15 s, drifting slowly so the rate has a shape."""
        drift = 0.12 * math.sin(2 * math.pi * t / 1800)
        return PASS_SECONDS * (1 + drift) + self._rng.uniform(-1.5, 1.5)

    # --- phases --------------------------------------------------------------------

    def launch(self, t: float) -> list[str]:
        """Start-up, up to the registration request."""
        return [
            _line(t, "INFO", "miner.new_miner:run_miner:1723", "🚀 Starting miner 🚀"),
            _line(t + 1.8, "INFO", "miner.new_miner:run_miner:1730", "P2P communication started"),
            _line(t + 2.2, "INFO", "miner.new_miner:reset_miner_state:1566", "🔄 Resetting miner entire state!"),
            _line(t + 2.3, "INFO", "miner.new_miner:register:1372",
                  f"🔄 Attempting to fetch run info for miner {HOTKEY}..."),
            _line(t + 2.7, "INFO", "miner.new_miner:register:1378", f"✅ Best run for miner {HOTKEY} is {RUN_ID}"),
            _line(t + 2.7, "INFO", "miner.new_miner:register:1387",
                  f"Collecting system data (includes speedtest) for miner {HOTKEY}..."),
            _line(t + 6.8, "DEBUG", "miner.utils.utils:run_speedtest:84",
                  "Failed to run speedtest: Unable to connect to servers to test latency."),
            _line(t + 7.1, "WARNING", "miner.new_miner:register:1395",
                  f"No bandwidth in system data for miner {HOTKEY} (speedtest may have failed)"),
            _line(t + 7.2, "DEBUG", f"{_WHERE_REQUEST}:33", "Making orchestrator request | method: POST | path: /miner/register"),
        ]

    def queue_poll(self, t: float, queue_id: str, status: str, position: int, *, not_found_first: bool) -> list[str]:
        """One registration-queue poll: the position (after a 404 and a retry, sometimes), then the 503."""
        lines: list[str] = []
        if not_found_first:
            lines.append(_line(t, "ERROR", f"{_WHERE_REQUEST}:92",
                               f"Error making orchestrator request to endpoint /miner/register/status/{queue_id}: "
                               "404 - <html>"))
            lines.extend(_NGINX_404)
            lines.append(_line(t + 1.0, "WARNING", f"{_WHERE_REQUEST}:56",
                               f"Retrying request to endpoint /miner/register/status/{queue_id} (attempt 2)"))
            t += 2.1
        response = str({"queue_id": queue_id, "status": status, "position": position, "poll_after": 60})[:100]
        lines.append(_line(t, "DEBUG", f"{_WHERE_REQUEST}:84", f"Successfully completed request; response: {response}"))
        lines.append(_line(t + 12.0, "WARNING", "miner.utils.node_control_mixin:register_set_queue_state:221",
                           _QUEUE_503))
        return lines

    def register(self, t: float) -> list[str]:
        """Registration in the demo's layer and the start of training."""
        return [
            _line(t, "DEBUG", "miner.new_miner:_apply_registration_response:1316",
                  f"Number of partitions for miner {HOTKEY}: 80"),
            _line(t + 0.6, "SUCCESS", "miner.new_miner:_apply_registration_response:1369",
                  f"✅ Miner {HOTKEY} registered successfully in layer {LAYER} on training epoch {self.epoch}"),
            _line(t + 0.8, "INFO", "miner.new_miner:reset_miner_state:1593",
                  f"🆕 Miner {HOTKEY} is new to layer {LAYER} (old: run=None, layer=None) - will download "
                  "layer-specifc local optimizer state"),
            _line(t + 8.7, "SUCCESS", "miner.new_miner:reset_miner_state:1627", "✅ Successfully setup local model"),
            _line(t + 9.0, "INFO", "miner.new_miner:run:1262", f"🚀 Starting miner {HOTKEY} on layer {LAYER} | Timeout: 600s"),
            _line(t + 10.0, "INFO", "miner.utils.utils:wait_for_state:374",
                  "Orchestrator is finally in state LayerPhase.TRAINING"),
            _line(t + 10.4, "DEBUG", f"{_WHERE_TICK}:1087", f"💾 GPU memory: {self._gb(-0.3)}GB"),
            _line(t + 10.4, "INFO", f"{_WHERE_TICK}:1089",
                  f"🔄 Miner {HOTKEY} in Layer {LAYER} is in state: LayerPhase.TRAINING"),
            _line(t + 13.6, "DEBUG", "miner.training.activation_queue:start_activation_fetcher:158",
                  "Activation fetcher task started"),
        ]

    def forward_pass(self, t: float) -> list[str]:
        """One forward pass ending at ``t``, plus the backward, step and heartbeat lines due with it."""
        aid = self._id()
        start = t - 1.6
        lines = [
            _line(start - 0.03, "INFO", "miner.new_miner:_bridge_push_queue:402",
                  f"Activation push RECV | bridge mp_queue→async | id={aid} dir=forward src_layer={LAYER - 1} "
                  f"tgt_layer={LAYER} tensor_bytes={TENSOR_BYTES}"),
            _line(start - 0.01, "DEBUG", f"{_WHERE_FORWARD}:172", f"Forward pass for activation {aid} on layer {LAYER}"),
            _line(start, "DEBUG", f"{_WHERE_FORWARD}:185",
                  f"Starting FORWARD pass | layer={LAYER} activation={aid} hotkey={HOTKEY}"),
            _line(start + 0.01, "DEBUG", f"{_WHERE_GPU}:354",
                  f"GPU memory usage: {self._gb(0.1)}GB / {self._gb(0.95)}GB -- starting training forward pass"),
            _line(start + 0.02, "DEBUG", f"{_WHERE_FORWARD}:191", f"Got activation shape: {SHAPE}"),
            _line(start + 1.44, "DEBUG", f"{_WHERE_FORWARD}:216", f"Activation shape after forward: {SHAPE}"),
            _line(t, "SUCCESS", f"{_WHERE_FORWARD}:240", f"✅ FORWARD complete | layer={LAYER} activation={aid} hotkey={HOTKEY}"),
        ]
        self._awaiting_backward.append(aid)
        # Backwards arrive a pass or two later, from the next layer.
        if len(self._awaiting_backward) > 1 + self._rng.randrange(2):
            lines.extend(self._backward(t + 0.2, self._awaiting_backward.popleft()))
        if t - self._last_heartbeat >= HEARTBEAT_SECONDS:
            lines.extend(self._heartbeat(t + 0.5))
        if self._rng.random() < 0.25:
            lines.append(_line(t + 0.6, "DEBUG", f"{_WHERE_TICK}:1087", f"💾 GPU memory: {self._gb(0.0)}GB"))
        if self._rng.random() < STRAY_503_PER_PASS:
            lines.append(_line(t + 0.7, "WARNING", "miner.utils.node_control_mixin:register_set_queue_state:221",
                               _QUEUE_503))
        return lines

    def _backward(self, t: float, aid: str) -> list[str]:
        used = self._gb(0.48)
        lines = [
            _line(t, "INFO", f"{_WHERE_BACKWARD}:262", f"🔄 BACKWARD pass | layer={LAYER} activation={aid} hotkey={HOTKEY}"),
            _line(t + 0.35, "DEBUG", f"{_WHERE_GPU}:354",
                  f"GPU memory usage: {used}GB / {self._gb(1.05)}GB -- after backward pass"),
        ]
        if self._rng.random() < 0.5:
            lines.append(_line(t + 0.35, "WARNING", f"{_WHERE_GPU}:357",
                               f"High GPU memory usage detected: {used}GB -- after backward pass"))
        self._backwards += 1
        if self._backwards % BACKWARDS_PER_STEP == 0:
            self.step += 1
            self.global_step += 1
            lines += [
                _line(t + 0.4, "INFO", f"{_WHERE_BACKWARD}:446",
                      f"🔄 Local optimization step after {BACKWARDS_PER_STEP} backward passes | hotkey={HOTKEY}"),
                _line(t + 0.45, "DEBUG", f"{_WHERE_BACKWARD}:452", f"Global step for miner {HOTKEY}: {self.global_step}"),
                _line(t + 0.45, "DEBUG", f"{_WHERE_BACKWARD}:454", f"LR at global step {self.global_step}: 0.000286"),
                _line(t + 1.0, "SUCCESS", f"{_WHERE_BACKWARD}:461", f"✅ Optimization step #{self.step} | hotkey={HOTKEY}"),
            ]
        lines.append(_line(t + 1.05, "SUCCESS", f"{_WHERE_BACKWARD}:465",
                           f"✅ BACKWARD complete | layer={LAYER} activation={aid} hotkey={HOTKEY}"))
        return lines

    def _heartbeat(self, t: float) -> list[str]:
        self._last_heartbeat = t
        response = {"run_id": RUN_ID, "layer": LAYER, "epoch": self.epoch, "phase": "training"}
        return [
            _line(t, "DEBUG", f"{_WHERE_REQUEST}:33",
                  "Making orchestrator request | method: GET | path: /miner/heartbeat?expected_phase=training"),
            _line(t + 0.2, "DEBUG", f"{_WHERE_REQUEST}:84", f"Successfully completed request; response: {response}"),
        ]

    def epoch_change(self, t: float) -> tuple[list[str], float]:
        """The layer leaves training, uploads weights, merges, and trains the next epoch; return the end time."""
        self._awaiting_backward.clear()
        banner = [""] * 7
        lines = [
            _line(t, "DEBUG", f"{_WHERE_REQUEST}:84",
                  "Successfully completed request; response: {'error_name': 'LayerStateError', 'error_dict': "
                  f"{{'layer': {LAYER}, 'expected_status': 'training', 'act"),
            _line(t, "WARNING", "subnet.miner_api_client:parse_response:445",
                  f"Layer state change: {{'layer': {LAYER}, 'expected_status': 'training', "
                  "'actual_status': 'weights_uploading'}"),
            _line(t + 0.01, "INFO", "miner.training.training:run:147", "Finishing training phase"),
            _line(t + 0.4, "INFO", f"{_WHERE_TICK}:1089",
                  f"🔄 Miner {HOTKEY} in Layer {LAYER} is in state: LayerPhase.WEIGHTS_UPLOADING"),
            _line(t + 0.4, "INFO", f"{_WHERE_TICK}:1176", ""),
            *banner,
            f" 🔄 Miner in layer {LAYER} submitting weights state!",
            *banner,
            _line(t + 42.0, "INFO", f"{_WHERE_TICK}:1184", "🔄 Miner submitted weights, switching to merging partitions"),
            _line(t + 137.0, "INFO", "miner.utils.utils:wait_for_state:374",
                  "Orchestrator is finally in state LayerPhase.MERGING_PARTITIONS"),
            _line(t + 138.0, "INFO", f"{_WHERE_TICK}:1089",
                  f"🔄 Miner {HOTKEY} in Layer {LAYER} is in state: LayerPhase.MERGING_PARTITIONS"),
            _line(t + 139.3, "INFO", f"{_WHERE_TICK}:1209", "🔄 Miner starting merging partitions: [17, 58]"),
            _line(t + 200.3, "INFO", f"{_WHERE_TICK}:1214", "🔄 Miner finished merged partitions"),
            _line(t + 245.0, "INFO", "miner.utils.utils:wait_for_state:374",
                  "Orchestrator is finally in state LayerPhase.TRAINING"),
            _line(t + 245.1, "DEBUG", "miner.training.training:epoch_reset:566", "🗑️ Resetting for new epoch"),
            _line(t + 245.2, "DEBUG", f"{_WHERE_GPU}:354",
                  f"GPU memory usage: {self._gb(-0.3)}GB / {self._gb(0.6)}GB -- after epoch reset"),
            _line(t + 246.3, "INFO", f"{_WHERE_TICK}:1089",
                  f"🔄 Miner {HOTKEY} in Layer {LAYER} is in state: LayerPhase.TRAINING"),
        ]
        self.epoch += 1
        self.step = 0
        self._backwards = 0
        return lines, t + 246.3


def compose(end: float, miner: ComposedMiner | None = None) -> tuple[list[str], float]:
    """Compose the demo's history ending at ``end``; return its lines and the last pass's time."""
    miner = miner if miner is not None else ComposedMiner()
    start = end - HISTORY_SECONDS
    lines = [COMPOSED_HEADER, *miner.launch(start)]
    queue_id = str(uuid.UUID(int=random.Random(SEED + 1).getrandbits(128), version=4))
    t = start + 8.0
    polls = (("queued", 412, False), ("queued", 318, False), ("queued", 231, True), ("queued", 140, False),
             ("confirmed", 0, True))
    for status, position, not_found_first in polls:
        lines += miner.queue_poll(t, queue_id, status, position, not_found_first=not_found_first)
        t += 73.0
    lines += miner.register(t)
    t += 14.0
    epoch_change_at: float | None = end - EPOCH_CHANGE_BEFORE_END_SECONDS
    last_pass = t
    while True:
        t += miner.pass_interval(t)
        if t + PASS_TAIL_SECONDS > end:
            break
        if epoch_change_at is not None and t >= epoch_change_at:
            epoch_lines, t = miner.epoch_change(t)
            lines += epoch_lines
            epoch_change_at = None
            continue
        lines += miner.forward_pass(t)
        last_pass = t
    return lines, last_pass


def write_demo_log(path: Path | None = None, *, now: float | None = None) -> Path:
    """Write the composed history, ending now, to ``path`` (default: a per-user temp file); return it.

    The default file is replaced atomically, so concurrent one-shot runs each read a whole log.
    """
    end = time.time() if now is None else now
    lines, _ = compose(end)
    if path is None:
        path = Path(tempfile.gettempdir()) / f"tokwatch-demo-{_user_tag()}.log"
    scratch = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    scratch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(scratch, path)
    return path


def _user_tag() -> str:
    getuid: Callable[[], int] | None = getattr(os, "getuid", None)
    return str(getuid()) if getuid is not None else os.environ.get("USERNAME", "user")


class DemoLog:
    """A demo log file of its own, kept live: a writer thread appends a pass about every 15 s."""

    def __init__(self, path: Path, miner: ComposedMiner, last_pass: float, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self._miner = miner
        self._next_pass = last_pass + miner.pass_interval(last_pass)
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def create(cls, directory: Path | None = None, *, now: float | None = None,
               clock: Callable[[], float] = time.time) -> DemoLog:
        """Write the history, ending now, to a new temp file (one per running dashboard)."""
        end = clock() if now is None else now
        miner = ComposedMiner()
        lines, last_pass = compose(end, miner)
        fd, name = tempfile.mkstemp(prefix="tokwatch-demo-", suffix=".log", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        return cls(Path(name), miner, last_pass, clock=clock)

    def start(self) -> None:
        """Start appending passes in real time."""
        if self._thread is not None:
            raise RuntimeError("a DemoLog can be started once")
        self._thread = threading.Thread(target=self._run, name="tokwatch-demo-writer", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the writer and delete the file; safe to call twice."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError as e:
            log.warning("cannot delete the demo log %s: %s", self.path, e)

    def append_due(self) -> int:
        """Append every pass that is due by now; return how many were written."""
        now = self._clock()
        lines: list[str] = []
        written = 0
        while self._next_pass + PASS_TAIL_SECONDS <= now:
            lines += self._miner.forward_pass(self._next_pass)
            self._next_pass += self._miner.pass_interval(self._next_pass)
            written += 1
        if lines:
            with self.path.open("a", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
        return written

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.append_due()
            except OSError as e:  # the file vanished or the disk filled: keep the dashboard up
                log.warning("demo writer: %s", e)
            self._stop.wait(max(0.05, min(1.0, self._next_pass - self._clock())))
