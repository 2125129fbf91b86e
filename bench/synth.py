"""A synthetic IOTA Train-at-Home miner log: real-shaped, DEBUG-heavy, deterministic.

Shapes follow ``research/iota-log-format.md`` and the composed sample: the Electron host wrapper
around loguru's default line, multi-line phase banners and nginx 404 bodies as continuation
lines. Volume follows §1.3 item 6: the activation fetcher logs 5 DEBUG lines every 0.51 s, so
the log runs at about 10 lines a second, with a forward pass every ~15 s.

Over a long run the generator also produces what a week of mining brings: epoch changes (weights
upload, merge, step counter back to #1), lost registrations with a queue spell and a layer
change, heartbeat 500s and 404 bodies. ``Truth`` counts what was written, so a reader can be
checked against it: every ``FORWARD complete`` line is one pass with a fresh activation id.
"""

from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass, field

# Monday 2026-09-14 09:00:00 local time is far enough in the past for any "now" in a test.
DEFAULT_START = time.mktime((2026, 9, 14, 9, 0, 0, 0, 0, -1))
HOTKEY = "5HmQx7Rc"
RUN_ID = "4.12.16.5-tah"
FETCH_PERIOD_SECONDS = 0.51  # research §1.3 item 6
NGINX_404 = (
    "<head><title>404 Not Found</title></head>",
    "<body>",
    "<center><h1>404 Not Found</h1></center>",
    "<hr><center>nginx</center>",
    "</body>",
    "</html>",
)


@dataclass
class Truth:
    """What the generator wrote so far, for checking a reader against it."""

    lines: int = 0  # physical lines
    records: int = 0  # lines that start a record (wrapper prefix)
    passes: int = 0  # FORWARD complete lines, one per fresh activation id
    stretch_passes: int = 0  # passes since the last registration in a layer
    layer: int | None = None
    epoch: int = 48
    step: int | None = None
    epochs_changed: int = 0
    requeues: int = 0
    errors_404: int = 0
    errors_503: int = 0
    last_at: float = 0.0
    pass_times: list[float] = field(default_factory=list)


class IotaSynth:
    """Emit a miner's log, simulated time advancing only as lines are asked for."""

    def __init__(
        self,
        *,
        seed: int = 0,
        start: float = DEFAULT_START,
        layer: int = 2,
        epoch: int = 48,
        pass_seconds: float = 15.0,
        accumulation: int = 2,
        fetcher: bool = True,
        epoch_seconds: float | None = 3600.0,
        requeue_seconds: float | None = 86400.0,
        error_seconds: float | None = 900.0,
        record_pass_times: bool = False,
        unique_noise: bool = False,
    ) -> None:
        self._rng = random.Random(seed)
        self.t = start
        self.truth = Truth(layer=None, epoch=epoch)
        self._layer = layer
        self._pass_seconds = pass_seconds
        self._accumulation = accumulation
        self._fetcher = fetcher
        self._epoch_seconds = epoch_seconds
        self._requeue_seconds = requeue_seconds
        self._error_seconds = error_seconds
        self._record_pass_times = record_pass_times
        # Every fetcher line's numbers drawn from a million: no two noise lines alike (the worst
        # case for a parser that remembers noise it has seen).
        self._noise_range = 1_000_000 if unique_noise else 4
        self._out: list[str] = []
        self._second = -1
        self._second_text = ""
        self._backward_queue: deque[tuple[float, str]] = deque()
        self._backwards_since_step = 0
        self._queue_id_n = 0
        self._started = False
        self._next_fetch = start
        self._next_forward = start
        self._next_heartbeat = start
        self._next_tick = start
        self._next_epoch = start + epoch_seconds if epoch_seconds else float("inf")
        self._next_requeue = start + requeue_seconds if requeue_seconds else float("inf")
        self._next_error = start + error_seconds / 2 if error_seconds else float("inf")

    # --- public -------------------------------------------------------------

    def run(self, seconds: float) -> list[str]:
        """Return the lines of the next ``seconds`` of simulated time (no newlines)."""
        out = self._out = []
        if not self._started:
            self._started = True
            self._startup()
        until = self.t + seconds
        while True:
            nxt = min(
                self._next_fetch if self._fetcher else float("inf"),
                self._next_forward,
                self._backward_queue[0][0] if self._backward_queue else float("inf"),
                self._next_heartbeat,
                self._next_tick,
                self._next_epoch,
                self._next_requeue,
                self._next_error,
            )
            if nxt > until:
                break
            self.t = max(self.t, nxt)
            if self._fetcher and nxt == self._next_fetch:
                self._fetch()
            elif nxt == self._next_forward:
                self._forward()
            elif self._backward_queue and nxt == self._backward_queue[0][0]:
                self._backward()
            elif nxt == self._next_heartbeat:
                self._heartbeat()
            elif nxt == self._next_tick:
                self._tick()
            elif nxt == self._next_epoch:
                self._epoch_change()
            elif nxt == self._next_requeue:
                self._requeue()
            else:
                self._error()
        self.t = until
        self.truth.lines += len(out)
        return out

    def text(self, seconds: float) -> str:
        """The next ``seconds`` as text, each line ending in a newline."""
        lines = self.run(seconds)
        return "".join(line + "\n" for line in lines)

    # --- line shapes ----------------------------------------------------------

    def _stamp(self, t: float) -> str:
        second = int(t)
        if second != self._second:
            self._second = second
            self._second_text = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(second))
        return f"{self._second_text}.{int((t - second) * 1000):03d}"

    def _line(self, level: str, where: str, message: str, dt: float = 0.0) -> None:
        self.t += dt
        s = self._stamp(self.t)
        self._out.append(f"[{s}] [info]  {s} | {level:<8} | {where} - {message}")
        self.truth.records += 1
        self.truth.last_at = self.t

    def _raw(self, text: str) -> None:
        self._out.append(text)

    def _aid(self) -> str:
        bits = self._rng.getrandbits(128)
        h = f"{bits:032x}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{h[16:20]}-{h[20:]}"

    def _request(self, method: str, path: str, response: str, dt: float = 0.2) -> None:
        self._line("DEBUG", "subnet.common_api_client:orchestrator_request:33",
                   f"Making orchestrator request | method: {method} | path: {path}", 0.05)
        self._line("DEBUG", "subnet.common_api_client:orchestrator_request:84",
                   f"Successfully completed request; response: {response[:100]}", dt)

    def _error_404(self, path: str) -> None:
        self._line("ERROR", "subnet.common_api_client:orchestrator_request:92",
                   f"Error making orchestrator request to endpoint {path}: 404 - <html>", 0.12)
        for body in NGINX_404:
            self._raw(body)
        self.truth.errors_404 += 1
        self._line("WARNING", "subnet.common_api_client:orchestrator_request:56",
                   f"Retrying request to endpoint {path} (attempt 2)", 1.0)

    def _gpu(self, note: str, dt: float = 0.01) -> None:
        used = 2.6 + self._rng.random() * 0.9
        total = used + 0.55
        self._line("DEBUG", "subnet.model.utils:log_gpu_memory_usage:354",
                   f"GPU memory usage: {used:.2f}GB / {total:.2f}GB -- {note}", dt)
        if used > 0.8 * total:
            self._line("WARNING", "subnet.model.utils:log_gpu_memory_usage:357",
                       f"High GPU memory usage detected: {used:.2f}GB -- {note}")

    def _banner(self, where: str, text: str) -> None:
        self._line("INFO", where, "")
        for _ in range(7):
            self._raw("")
        self._raw(f" 🔄 {text}")
        for _ in range(8):
            self._raw("")

    # --- activities -----------------------------------------------------------

    def _startup(self) -> None:
        self._line("INFO", "miner.new_miner:run_miner:1723", "🚀 Starting miner 🚀")
        self._line("INFO", "miner.new_miner:run_miner:1730", "P2P communication started", 1.8)
        self._register(queue_polls=1)

    def _register(self, queue_polls: int) -> None:
        """Register (through the 3.7.0 queue) in ``self._layer`` and start training there."""
        old_layer = self.truth.layer
        self._line("INFO", "miner.new_miner:reset_miner_state:1566", "🔄 Resetting miner entire state!", 0.4)
        self._line("INFO", "miner.new_miner:register:1372",
                   f"🔄 Attempting to fetch run info for miner {HOTKEY}...")
        self._request("GET", "/common/get_run_info",
                      f"[{{'run_id': '{RUN_ID}', 'is_default': True, 'num_miners': 212, 'whitelisted': False}}]")
        self._line("INFO", "miner.new_miner:register:1378", f"✅ Best run for miner {HOTKEY} is {RUN_ID}")
        self._line("INFO", "miner.new_miner:register:1387",
                   f"Collecting system data (includes speedtest) for miner {HOTKEY}...")
        self._line("DEBUG", "miner.utils.utils:run_speedtest:84",
                   "Failed to run speedtest: Unable to connect to servers to test latency.", 4.1)
        self._line("WARNING", "miner.new_miner:register:1395",
                   f"No bandwidth in system data for miner {HOTKEY} (speedtest may have failed)", 0.3)
        self._queue_id_n += 1
        queue_id = f"{self._queue_id_n:08x}-5f91-4ef0-9cfb-ac6e7687a66e"
        position = 80 * queue_polls + self._rng.randrange(40)
        for poll in range(queue_polls + 1):
            status = "queued" if poll < queue_polls else "confirmed"
            path = "/miner/register" if poll == 0 else f"/miner/register/status/{queue_id}"
            if poll and self._rng.random() < 0.2:
                self._line("DEBUG", "subnet.common_api_client:orchestrator_request:33",
                           f"Making orchestrator request | method: GET | path: {path}", 0.05)
                self._error_404(path)
            body = f"{{'queue_id': '{queue_id}', 'status': '{status}', 'position': {position}, 'poll_after': 60}}"
            self._request("POST" if poll == 0 else "GET", path, body, 0.8)
            self._line("WARNING", "miner.utils.node_control_mixin:register_set_queue_state:221",
                       "register_set_queue_state exhausted retries (3): POST /register/queue_state failed 503: "
                       '{"detail":"unsupported: No handler for register.queue_state"}', 12.0)
            self.truth.errors_503 += 1
            if poll < queue_polls:
                self.t += 60.0
            position = 0 if poll + 1 >= queue_polls else max(1, position - 80 - self._rng.randrange(40))
        self._line("DEBUG", "miner.new_miner:_apply_registration_response:1316",
                   f"Number of partitions for miner {HOTKEY}: 80", 2.0)
        self._line("SUCCESS", "miner.new_miner:_apply_registration_response:1369",
                   f"✅ Miner {HOTKEY} registered successfully in layer {self._layer} "
                   f"on training epoch {self.truth.epoch}", 0.6)
        truth = self.truth
        truth.layer = self._layer
        truth.stretch_passes = 0
        truth.step = None
        old = "run=None, layer=None" if old_layer is None else f"run={RUN_ID}, layer={old_layer}"
        self._line("INFO", "miner.new_miner:reset_miner_state:1593",
                   f"🆕 Miner {HOTKEY} is new to layer {self._layer} ({old}) - "
                   "will download layer-specifc local optimizer state", 0.2)
        self._line("SUCCESS", "miner.new_miner:reset_miner_state:1627", "✅ Successfully setup local model", 7.9)
        self._line("INFO", "miner.new_miner:run:1262",
                   f"🚀 Starting miner {HOTKEY} on layer {self._layer} | Timeout: 600s", 0.3)
        self._wait_for("TRAINING", 1)
        self._start_training()

    def _wait_for(self, state: str, seconds: int) -> None:
        for _ in range(seconds):
            self._line("INFO", "miner.utils.utils:wait_for_state:371", f"Waiting for state LayerPhase.{state}", 1.0)
        self._request("GET", "/miner/layer_state", state.lower())
        self._line("INFO", "miner.utils.utils:wait_for_state:374",
                   f"Orchestrator is finally in state LayerPhase.{state}")

    def _start_training(self) -> None:
        self._line("DEBUG", "miner.new_miner:training_loop_tick:1087", "💾 GPU memory: 2.84GB", 0.4)
        self._line("INFO", "miner.new_miner:training_loop_tick:1089",
                   f"🔄 Miner {HOTKEY} in Layer {self._layer} is in state: LayerPhase.TRAINING")
        self._line("INFO", "miner.new_miner:training_loop_tick:1171",
                   f"Saved current model weights and optimizer state for miner {HOTKEY}", 3.2)
        self._line("DEBUG", "miner.training.activation_queue:start_activation_fetcher:158",
                   "Activation fetcher task started")
        t = self.t
        self._next_fetch = t + FETCH_PERIOD_SECONDS
        self._next_forward = t + self._rng.uniform(3.0, 8.0)
        self._next_heartbeat = t + self._rng.uniform(5.0, 30.0)
        self._next_tick = t + 20.0
        self._backward_queue.clear()

    def _stop_training(self) -> None:
        never = float("inf")
        self._next_fetch = self._next_forward = self._next_heartbeat = self._next_tick = never
        self._backward_queue.clear()

    def _fetch(self) -> None:
        # The layer-0 style fetcher loop: 5 DEBUG lines every 0.51 s (research §1.3 item 6).
        where = "miner.training.activation_queue:_fetch_activations:"
        n = self._noise_range
        unique = n > 4
        cache = self._rng.randrange(n)
        backlog = self._rng.randrange(n) if unique else len(self._backward_queue)
        forwards = self._rng.randrange(n) if unique else 4
        self._line("DEBUG", where + "211", f"Cache size: {cache}")
        self._line("DEBUG", where + "214", f"Backward activations in queue: {backlog}", 0.001)
        self._line("DEBUG", where + "219",
                   f"Queue status: {{'forward': {self._rng.randrange(min(n, 3) if not unique else n)}, "
                   f"'backward': {backlog}}}", 0.001)
        self._line("DEBUG", where + "223", f"Max allowed forwards: {forwards}", 0.001)
        self._line("DEBUG", where + "231", f"Waiting for activations (cache {cache}/{forwards})", 0.001)
        self._next_fetch += FETCH_PERIOD_SECONDS

    def _forward(self) -> None:
        aid = self._aid()
        layer = self._layer
        self._line("INFO", "miner.new_miner:_bridge_push_queue:402",
                   f"Activation push RECV | bridge mp_queue→async | id={aid} dir=forward "
                   f"src_layer={max(layer - 1, 0)} tgt_layer={layer} tensor_bytes=206107")
        self._line("DEBUG", "miner.training.training:forward:172",
                   f"Forward pass for activation {aid} on layer {layer}", 0.02)
        self._line("DEBUG", "miner.training.training:forward:185",
                   f"Starting FORWARD pass | layer={layer} activation={aid} hotkey={HOTKEY}", 0.01)
        self._gpu("starting training forward pass")
        self._line("DEBUG", "miner.training.training:forward:191",
                   "Got activation shape: torch.Size([4, 800, 32])", 0.01)
        self._line("DEBUG", "miner.training.training:forward:216",
                   "Activation shape after forward: torch.Size([4, 800, 32])", 1.42)
        self._line("SUCCESS", "miner.training.training:forward:240",
                   f"✅ FORWARD complete | layer={layer} activation={aid} hotkey={HOTKEY}", 0.09)
        truth = self.truth
        truth.passes += 1
        truth.stretch_passes += 1
        if self._record_pass_times:
            truth.pass_times.append(self.t)
        self._backward_queue.append((self.t + self._rng.uniform(6.0, 9.0), aid))
        self._next_forward = self.t + self._rng.uniform(self._pass_seconds - 2, self._pass_seconds + 2)

    def _backward(self) -> None:
        _, aid = self._backward_queue.popleft()
        layer = self._layer
        self._line("INFO", "miner.training.training:backward:262",
                   f"🔄 BACKWARD pass | layer={layer} activation={aid} hotkey={HOTKEY}")
        self._gpu("after backward pass", 2.35)
        self._backwards_since_step += 1
        if self._backwards_since_step >= self._accumulation:
            self._backwards_since_step = 0
            step = (self.truth.step or 0) + 1
            self.truth.step = step
            self._line("INFO", "miner.training.training:backward:446",
                       f"🔄 Local optimization step after {self._accumulation} backward passes | hotkey={HOTKEY}",
                       0.04)
            self._line("DEBUG", "miner.training.training:backward:452", f"Global step for miner {HOTKEY}: 5121",
                       0.08)
            self._line("SUCCESS", "miner.training.training:backward:461", f"✅ Optimization step #{step} | "
                       f"hotkey={HOTKEY}", 0.6)
        self._line("SUCCESS", "miner.training.training:backward:465",
                   f"✅ BACKWARD complete | layer={layer} activation={aid} hotkey={HOTKEY}", 0.01)

    def _heartbeat(self) -> None:
        body = f"{{'run_id': '{RUN_ID}', 'layer': {self._layer}, 'epoch': {self.truth.epoch}, 'phase': 'training'}}"
        self._request("GET", "/miner/heartbeat?expected_phase=training", body)
        self._next_heartbeat = self.t + 30.0

    def _tick(self) -> None:
        self._line("DEBUG", "miner.new_miner:training_loop_tick:1087",
                   f"💾 GPU memory: {2.6 + self._rng.random():.2f}GB")
        self._next_tick = self.t + 20.0

    def _error(self) -> None:
        path = "/miner/heartbeat?expected_phase=training"
        if self._rng.random() < 0.5:
            self._line("DEBUG", "subnet.common_api_client:orchestrator_request:33",
                       f"Making orchestrator request | method: GET | path: {path}", 0.05)
            self._line("ERROR", "subnet.common_api_client:orchestrator_request:92",
                       f"Error making orchestrator request to endpoint {path}: 500 - Internal Server Error", 0.3)
            self._line("WARNING", "subnet.common_api_client:orchestrator_request:56",
                       f"Retrying request to endpoint {path} (attempt 2)", 1.0)
            self._heartbeat()
        else:
            self._line("DEBUG", "subnet.common_api_client:orchestrator_request:33",
                       "Making orchestrator request | method: GET | path: /miner/layer_state", 0.05)
            self._error_404("/miner/layer_state")
        assert self._error_seconds is not None
        self._next_error = self.t + self._rng.uniform(0.5, 1.5) * self._error_seconds

    def _epoch_change(self) -> None:
        """Weights upload, merge, then a new epoch whose step counter starts again at #1."""
        layer, epoch = self._layer, self.truth.epoch
        self._stop_training()
        error = {'layer': layer, 'expected_status': 'training', 'actual_status': 'weights_uploading',
                 'message': f'Layer {layer} is not in the expected state training, actual: weights_uploading'}
        self._request("GET", "/miner/heartbeat?expected_phase=training",
                      str({'error_name': 'LayerStateError', 'error_dict': error}))
        self._line("WARNING", "subnet.miner_api_client:parse_response:445", f"Layer state change: {error}")
        moving = "Miner is moving state from LayerPhase.TRAINING to LayerPhase.WEIGHTS_UPLOADING"
        self._line("WARNING", "miner.training.activation_queue:stop_activation_fetcher:175",
                   f"Activation fetcher task returned an exception: {moving}", 0.01)
        self._line("ERROR", "miner.training.activation_queue:get_activation:151",
                   f"Error getting activation from queue: {moving}")
        self._line("INFO", "miner.training.training:run:147", "Finishing training phase")
        self._line("DEBUG", "miner.training.training:optimization_reset:585", "🗑️ Resetting after optimization step")
        self._gpu("after cache reset")
        self._line("INFO", "miner.new_miner:training_loop:1212", f"🔄 Miner {HOTKEY} layer state change...: {moving}",
                   0.02)
        self._line("INFO", "miner.new_miner:training_loop_tick:1089",
                   f"🔄 Miner {HOTKEY} in Layer {layer} is in state: LayerPhase.WEIGHTS_UPLOADING", 0.4)
        self._banner("miner.new_miner:training_loop_tick:1176", f"Miner in layer {layer} submitting weights state!")
        self._line("INFO", "miner.new_miner:submit_weights:1487",
                   f"Pseudo gradients for miner {HOTKEY} have mean -0.000001 and std 0.000413", 3.1)
        self._request("POST", "/miner/submit_weights",
                      "{'message': 'Weights submitted successfully', 'should_upload': True}", 38.0)
        self._line("INFO", "miner.new_miner:training_loop_tick:1184",
                   "🔄 Miner submitted weights, switching to merging partitions", 0.7)
        self._wait_for("MERGING_PARTITIONS", 30)
        self._line("INFO", "miner.new_miner:training_loop_tick:1089",
                   f"🔄 Miner {HOTKEY} in Layer {layer} is in state: LayerPhase.MERGING_PARTITIONS", 1.1)
        self._banner("miner.new_miner:training_loop_tick:1190", f"Miner in layer {layer} merging partitions state!")
        self._line("INFO", "miner.new_miner:training_loop_tick:1199",
                   "🔄 Miner got weight partition info: 2 partitions assigned, 41 miners submitted weights", 1.3)
        self._line("INFO", "miner.new_miner:training_loop_tick:1214", "🔄 Miner finished merged partitions", 61.0)
        self._wait_for("TRAINING", 20)
        self.truth.epoch = epoch + 1
        self.truth.epochs_changed += 1
        self.truth.step = None
        self._backwards_since_step = 0
        self._line("DEBUG", "miner.training.training:epoch_reset:566", "🗑️ Resetting for new epoch", 0.1)
        self._line("INFO", "miner.training.training:epoch_reset:567",
                   "epoch_reset clearing: publishing_tasks=0 outbound_qsize=0 removal_tasks=0 "
                   "forward_queue=1 backward_queue=0")
        self._gpu("after epoch reset")
        self._start_training()
        assert self._epoch_seconds is not None
        self._next_epoch = self.t + self._epoch_seconds

    def _requeue(self) -> None:
        """The orchestrator forgets the miner: a queue spell, then a new layer."""
        self._stop_training()
        body = str({'error_name': 'EntityNotRegisteredError',
                    'error_dict': {'message': 'Entity not registered', 'name': None}})
        self._request("GET", "/miner/heartbeat?expected_phase=training", body)
        self._line("ERROR", "subnet.miner_api_client:parse_response:452",
                   "Miner not registered error: {'message': 'Entity not registered', 'name': None}")
        self._line("WARNING", "miner.training.activation_queue:stop_activation_fetcher:175",
                   "Activation fetcher task returned an exception: Miner not registered", 0.01)
        self._line("INFO", "miner.training.training:run:147", "Finishing training phase")
        self._line("INFO", "miner.new_miner:training_loop:1224",
                   f"🔄 Miner {HOTKEY} miner not registered error: Miner not registered", 0.03)
        self.truth.requeues += 1
        self._layer = (self._layer + 1 + self._rng.randrange(2)) % 4
        self._register(queue_polls=3 + self._rng.randrange(4))
        assert self._requeue_seconds is not None
        self._next_requeue = self.t + self._requeue_seconds
        self._next_epoch = max(self._next_epoch, self.t + 600.0)


def training_log(seconds: float, *, seed: int = 0, start: float = DEFAULT_START, **options: object) -> tuple[str, Truth]:
    """A whole log of ``seconds`` simulated seconds as text, and what it holds."""
    synth = IotaSynth(seed=seed, start=start, **options)  # type: ignore[arg-type]
    text = synth.text(seconds)
    return text, synth.truth


def nanogpt_log(steps: int, *, seed: int = 0, log_interval: int = 1, eval_interval: int = 2000) -> str:
    """A nanoGPT run of ``steps`` iterations as its ``train.py`` prints it (every ``log_interval``).

    The lines follow nanoGPT's own prints (``iter N: loss X, time Yms, mfu Z%``, the evaluation's
    ``step N: train loss X, val loss Y``); an iteration takes about 120 ms, the one after an
    evaluation longer. About 52 bytes a line: a million steps is a ~52 MB log.
    """
    rng = random.Random(seed)
    out = ["tokens per iteration will be: 491,520", "found vocab_size = 50304 (inside data/openwebtext/meta.pkl)",
           "Initializing a new model from scratch", "number of parameters: 123.59M"]
    loss = 10.9
    for step in range(steps + 1):
        loss = max(2.8, loss * 0.99999 + rng.uniform(-0.02, 0.02))
        if step % eval_interval == 0:
            out.append(f"step {step}: train loss {loss:.4f}, val loss {loss + 0.05:.4f}")
            if step:
                out.append("saving checkpoint to out")
        if step % log_interval == 0:
            ms = rng.uniform(115.0, 125.0) if step % eval_interval else rng.uniform(2000.0, 2500.0)
            mfu = -100.0 if step < 5 else 45.0 + rng.uniform(-0.5, 0.5)
            out.append(f"iter {step}: loss {loss:.4f}, time {ms:.2f}ms, mfu {mfu:.2f}%")
    return "\n".join(out) + "\n"
