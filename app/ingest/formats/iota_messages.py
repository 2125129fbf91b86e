"""What one IOTA miner record's message means: the message templates and their reader.

The templates are research §2's; each runs only after a substring check proved it could match.
"""

from __future__ import annotations

import re
from typing import Literal

from ...stats.events import (
    ActivationShape,
    BackendError,
    EpochReset,
    Event,
    ForwardPass,
    ForwardUndelivered,
    GpuMemory,
    Heartbeat,
    LayerChanged,
    LayerSeen,
    MinerReset,
    OptimizationStep,
    P2PTransfer,
    PeerStatus,
    PhaseChanged,
    QueueUpdate,
    Registered,
    RequestRetry,
    builder,
)

_FORWARD_DONE = re.compile(r"FORWARD complete \| layer=(\d+) activation=(\S+)", re.ASCII)
_FORWARD_DONE_V241 = re.compile(r"completed FORWARD pass for activation (\S+) on layer (\d+)", re.ASCII)
_FORWARD_START = re.compile(r"Starting FORWARD pass (?:\| layer=|for layer )(\d+)", re.ASCII)
_FORWARD_BEGIN = re.compile(r"Forward pass for activation \S+ on layer (\d+)", re.ASCII)
_LAST_LAYER = re.compile(r"Last layer miner, performing backward pass for activation (\S+)", re.ASCII)
_INPUT_SHAPE = re.compile(r"Got (?:activation|sample) shape: torch\.Size\(\[(\d+), (\d+)[,\]]", re.ASCII)
_STEP = re.compile(r"ptimization step #(\d+)(?!\w)", re.ASCII)
_GPU_FULL = re.compile(r"GPU memory usage: (\d{1,6}(?:\.\d{1,6})?)GB / (\d{1,6}(?:\.\d{1,6})?)GB", re.ASCII)
_GPU_USED = re.compile(r"GPU memory(?: usage detected)?: (\d{1,6}(?:\.\d{1,6})?)GB", re.ASCII)
_TENSOR_BYTES = re.compile(r"tensor_bytes=(\d+)", re.ASCII)
_IN_STATE = re.compile(r"(?:in Layer (\d+) )?is in state: (?:LayerPhase\.)?(\w+)", re.ASCII)
_FINALLY_IN_STATE = re.compile(r"finally in state (?:LayerPhase\.)?(\w+)", re.ASCII)
_BANNER = re.compile(r"Miner in layer (\d+) (submitting weights|merging partitions) state!", re.ASCII)
_REGISTERED = re.compile(r"registered successfully in layer (\d+)(?: on training epoch (\d+))?", re.ASCII)
_NEW_LAYER = re.compile(r"is new to layer (\d+)(?: \(old: run=.*?, layer=(\w+)\))?", re.ASCII)
_MINER_ON_LAYER = re.compile(r"Starting miner \S+ on layer (\d+)", re.ASCII)
_REQUEST_ERROR = re.compile(r"request to endpoint (\S+): (\d{3})\b", re.ASCII)
_POST_FAILED = re.compile(r"POST (\S+) failed (\d{3})\b", re.ASCII)
# The community watchdog's patterns (oakvillechen/iota-train-at-home-watchdog v1.4.0, research
# iota-2026.md §c.2): the exact lines around them are not public, so the peer is whatever id
# follows "peer" (a libp2p id, or a hotkey), shortened to its last 6 characters.
_PEER = re.compile(r"peer(?:_id)?[\s=:]+['\"]?([A-Za-z0-9]{6,})", re.ASCII | re.IGNORECASE)
_PEER_STATUS = re.compile(r"Broadcast peer status:\s*(\d{1,6})/(\d{1,6})\s*ok", re.ASCII)
_RETRY = re.compile(r"Retrying request to endpoint (/[\w/.-]*)", re.ASCII)

# One top-level "'key': value" of a response dict printed with str(). A value counts only when
# it is complete: a quoted string with its closing quote, or a bare token followed by "," or "}".
# The miner prints str(response)[:100] (research §1.3.5), so "'position': 41" at the very end
# may be 412 cut short and is left out rather than read wrong.
_RESPONSE_FIELD = re.compile(
    r"'(\w+)': (?:'([^'\\]*)'(?=[,}]|$)|\"([^\"\\]*)\"(?=[,}]|$)|([\w.+-]+)(?=[,}]))",
    re.ASCII,
)

_WEIGHTS_BANNER_PHASE = {
    "submitting weights": "weights_uploading",
    "merging partitions": "merging_partitions",
}


# Far beyond any mini-batch or sequence length: a larger "dimension" is a corrupt line.
_MAX_SHAPE_DIM = 10_000_000


def _int(text: str | None) -> int | None:
    """Read a decimal integer, or None when absent or unreadable."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:  # not digits, or too many digits for int() (CPython's 4300-digit limit)
        return None


def _short_peer(peer: str) -> str:
    """A peer id as a person tells peers apart: libp2p ids all begin ``12D3KooW``, so their end."""
    return peer if len(peer) <= 8 else "…" + peer[-6:]


def _phase(text: str | None) -> str | None:
    """Lower-case a phase name: ``TRAINING`` (the regexes drop ``LayerPhase.``) or ``training``."""
    return text.lower() if text else None


def _response_fields(body: str) -> dict[str, str]:
    """Return the complete top-level values of a printed (maybe cut) response dict."""
    fields: dict[str, str] = {}
    for field in _RESPONSE_FIELD.finditer(body):
        key, single, double, bare = field.groups()
        fields[key] = single if single is not None else double if double is not None else bare
    return fields


# A message can mean something (an event, or a bad line) only when it holds one of these: every
# branch of MessageReader._read_message acts only after one of them is found in the message. The
# record loop reads a message only when it holds one, or when its level is ERROR or CRITICAL,
# so a text the reader starts to act on must be added here too (tests/ingest/formats check it).
MEANINGFUL_TEXTS = (
    "GPU memory",
    "FORWARD",
    "Forward pass for activation ",
    "Last layer miner",
    "Got activation shape: ",
    "Got sample shape: ",
    "Successfully completed request",
    "ptimization step #",
    "Activation push RECV",
    "Activation push SEND | start",
    "Layer state change: ",
    "is in state: ",
    "finally in state ",
    "Resetting miner entire state!",
    "Miner in layer ",  # the weights/merge banner, when it is the record's own message
    "registered successfully in layer ",
    "is new to layer ",
    "Starting miner ",
    "Resetting for new epoch",
    "full reset of training",
    "consecutive failures",
    "miner not registered error",
    "Error making orchestrator request to endpoint ",
    "exhausted retries",
    "forward activation",
    "Broadcast peer status",
    "Retrying request to endpoint ",
    "initializing",  # "Miner is initializing: {…}" and "has been temporarily blocked (initializing)"
)


# The events a miner's log yields by the hundred thousand (a GPU reading twice a pass, a layer
# named at each pass), made as their classes make them, without a frozen dataclass's per-field
# ``object.__setattr__`` (events.py, ``builder``).
_gpu_memory = builder(GpuMemory)
_forward_pass = builder(ForwardPass)
_activation_shape = builder(ActivationShape)
_optimization_step = builder(OptimizationStep)
_p2p_transfer = builder(P2PTransfer)
_layer_seen_event = builder(LayerSeen)
_heartbeat = builder(Heartbeat)


class MessageReader:
    """The message half of the IOTA parser: appends events, counts ``bad_lines``."""

    bad_lines: int

    def _read_message(self, message: str, at: float, events: list[Event]) -> None:
        """Append the events one record's message (first line) stands for.

        Ordered roughly by how often each kind occurs. A group whose specific wordings all
        miss falls through to the next checks.
        """
        # One function on purpose: it runs for every record not known quiet, and a call per group costs.
        if "GPU memory" in message:
            if "GPU memory usage: " in message:
                gpu = _GPU_FULL.search(message)
                if gpu is None:
                    self.bad_lines += 1
                else:
                    events.append(_gpu_memory(at, float(gpu.group(1)), float(gpu.group(2))))
                return
            if "GPU memory usage detected: " in message or "GPU memory: " in message:
                gpu = _GPU_USED.search(message)
                if gpu is None:
                    self.bad_lines += 1
                else:
                    events.append(_gpu_memory(at, float(gpu.group(1)), None))
                return
        if "FORWARD" in message:
            if "FORWARD complete" in message:
                done = _FORWARD_DONE.search(message)
                layer = None if done is None else _int(done.group(1))
                if done is None or layer is None:
                    self.bad_lines += 1
                else:
                    events.append(_forward_pass(at, done.group(2), layer))
                return
            if "completed FORWARD pass for activation " in message:
                done = _FORWARD_DONE_V241.search(message)
                layer = None if done is None else _int(done.group(2))
                if done is None or layer is None:
                    self.bad_lines += 1
                else:
                    events.append(_forward_pass(at, done.group(1), layer))
                return
            if "Starting FORWARD pass" in message:
                # The start of a pass names the layer, but only its completion is a pass.
                self._layer_seen(_FORWARD_START.search(message), at, events)
                return
        if "pass for activation " in message:
            if "Forward pass for activation " in message:
                self._layer_seen(_FORWARD_BEGIN.search(message), at, events)
                return
            if "Last layer miner" in message:
                # The last layer never prints "FORWARD complete": its forward turns into
                # the backward pass, announced by this line (research §2.1).
                last = _LAST_LAYER.search(message)
                if last is None:
                    self.bad_lines += 1
                else:
                    events.append(_forward_pass(at, last.group(1), None))
                return
        if " shape: " in message and ("Got activation shape: " in message or "Got sample shape: " in message):
            # Only the forward's input: "Got activation shape" (layer > 0) and "Got sample
            # shape" (layer 0, token ids [batch, seq]) come once per pass, dims 0 and 1 being
            # batch and sequence. "Forwarding activation of size" and "Activation shape after
            # forward" describe the same pass again around the layer's forward, so they would
            # only repeat it (research §2.1).
            shape = _INPUT_SHAPE.search(message)
            batch = None if shape is None else _int(shape.group(1))
            sequence = None if shape is None else _int(shape.group(2))
            if batch is None or sequence is None or batch > _MAX_SHAPE_DIM or sequence > _MAX_SHAPE_DIM:
                # A dimension no real batch or sequence has is garbage, not a rate to multiply.
                self.bad_lines += 1
            else:
                events.append(_activation_shape(at, batch, sequence))
            return
        if "; response: " in message and "Successfully completed request" in message:
            self._read_response(message, at, events)
            return
        if "ptimization step #" in message:
            # "✅ Optimization step #N" (new) and "completed local optimization step #N" (v2.4.1).
            step = _STEP.search(message)
            number = None if step is None else _int(step.group(1))
            if number is None:
                self.bad_lines += 1
            else:
                events.append(_optimization_step(at, number))
            return
        if "Activation push " in message:
            if "Activation push RECV" in message or "Activation push SEND | start" in message:
                sent = _TENSOR_BYTES.search(message)
                size = None if sent is None else _int(sent.group(1))
                if size is None:
                    self.bad_lines += 1
                else:
                    direction: Literal["recv", "send"] = "recv" if "push RECV" in message else "send"
                    events.append(_p2p_transfer(at, direction, size))
            return  # ACK OK / NACK lines: the transfer was already counted at its start
        if "state change: " in message and "Layer state change: " in message:
            # The server's LayerStateError dict; its text is only read when the keys are there.
            fields = _response_fields(message)
            phase = _phase(fields.get("actual_status"))
            if phase is not None:
                events.append(PhaseChanged(at, phase, _int(fields.get("layer"))))
            return
        if "in state" in message:
            if "is in state: " in message:
                state = _IN_STATE.search(message)
                phase = None if state is None else _phase(state.group(2))
                if state is None or phase is None:
                    self.bad_lines += 1
                    return
                layer = _int(state.group(1))
                if layer is not None:
                    events.append(_layer_seen_event(at, layer))
                events.append(PhaseChanged(at, phase, layer))
                return
            if "finally in state " in message:
                state = _FINALLY_IN_STATE.search(message)
                phase = None if state is None else _phase(state.group(1))
                if phase is None:
                    self.bad_lines += 1
                else:
                    events.append(PhaseChanged(at, phase, None))
                return
        if "state!" in message:
            if "Resetting miner entire state!" in message:
                events.append(MinerReset(at, "reset"))
                return
            if self._read_banner(message, at, events):
                return
        if " layer " in message:
            if "registered successfully in layer " in message:
                registered = _REGISTERED.search(message)
                layer = None if registered is None else _int(registered.group(1))
                if registered is None or layer is None:
                    self.bad_lines += 1
                else:
                    events.append(Registered(at, layer, _int(registered.group(2))))
                return
            if "is new to layer " in message:
                moved = _NEW_LAYER.search(message)
                layer = None if moved is None else _int(moved.group(1))
                if moved is None or layer is None:
                    self.bad_lines += 1
                else:  # "layer=None" on a first start
                    events.append(LayerChanged(at, layer, _int(moved.group(2))))
                return
            if "Starting miner " in message:
                self._layer_seen(_MINER_ON_LAYER.search(message), at, events)
                return
        if "Starting miner 🚀" in message:
            events.append(MinerReset(at, "launch"))
            return
        if "eset" in message:
            if "Resetting for new epoch" in message:
                events.append(EpochReset(at, full=False))
                return
            if "full reset of training" in message:
                events.append(EpochReset(at, full=True))
                return
            if "consecutive failures" in message and "re-register" in message:
                events.append(MinerReset(at, "consecutive_failures"))
                return
        if "miner not registered error" in message:
            # The miner's own INFO line ("🔄 Miner <hk> miner not registered error: …"), not the
            # API client's "Miner not registered error: {…}" that precedes it.
            events.append(MinerReset(at, "not_registered"))
            return
        if "Error making orchestrator request to endpoint " in message:
            failed = _REQUEST_ERROR.search(message)
            if failed is not None and failed.group(2) == "404":
                events.append(BackendError(at, "not_found_404", failed.group(1)))
            return
        if self._read_delivery(message, at, events):
            return
        if "initializing" in message and (
            "Miner is initializing" in message or "temporarily blocked (initializing)" in message
        ):
            # MinerInitializingError (research §2.7), the status #199's heartbeat answered for hours.
            events.append(_heartbeat(at, None, None, None, None, "initializing"))
            return
        if "exhausted retries" in message:
            # The local control server's 503 when the Electron host has no handler for
            # register.queue_state (research §2.6); other paths and codes are not counted.
            failed = _POST_FAILED.search(message)
            if failed is not None and failed.group(1) == "/register/queue_state" and failed.group(2) == "503":
                events.append(BackendError(at, "queue_state_503", failed.group(1)))
            return

    def _read_delivery(self, message: str, at: float, events: list[Event]) -> bool:
        """Append a forward not delivered, a peer status or a retry; return whether the message was one."""
        if "forward activation" in message:
            if "Failed to send forward activation" in message:
                reason: Literal["failed", "unreachable"] = "failed"
            elif "Peer unreachable for forward activation" in message:
                reason = "unreachable"
            else:
                return False
            peer = _PEER.search(message.replace("Peer unreachable", ""))
            events.append(ForwardUndelivered(at, reason, None if peer is None else _short_peer(peer.group(1))))
            return True
        if "Broadcast peer status" in message:
            status = _PEER_STATUS.search(message)
            ok = None if status is None else _int(status.group(1))
            total = None if status is None else _int(status.group(2))
            if ok is None or total is None or ok > total:
                self.bad_lines += 1
            else:
                events.append(PeerStatus(at, ok, total))
            return True
        if "Retrying request to endpoint " in message:
            retry = _RETRY.search(message)
            if retry is None:
                self.bad_lines += 1
            else:
                events.append(RequestRetry(at, retry.group(1).split("?")[0]))
            return True
        return False

    def _layer_seen(self, found: re.Match[str] | None, at: float, events: list[Event]) -> None:
        """Append ``LayerSeen`` from a match whose group 1 is the layer, or count a bad line."""
        layer = None if found is None else _int(found.group(1))
        if layer is None:
            self.bad_lines += 1
        else:
            events.append(_layer_seen_event(at, layer))

    def _read_banner(self, text: str, at: float | None, events: list[Event]) -> bool:
        """Append the phase a weights/merge banner announces; return whether there was one."""
        banner = _BANNER.search(text)
        if banner is None:
            return False
        layer = _int(banner.group(1))
        events.append(PhaseChanged(at, _WEIGHTS_BANNER_PHASE[banner.group(2)], layer))
        return True

    def _read_response(self, message: str, at: float, events: list[Event]) -> None:
        """Append a ``Heartbeat`` or ``QueueUpdate`` read from an orchestrator success line."""
        head, _, body = message.partition("; response: ")
        # New code names the path ("request to /miner/heartbeat?…"); TAH 3.7.0 does not.
        path_at = head.find("request to ")
        path = head[path_at + len("request to ") :] if path_at >= 0 else None
        # A dict only: "[{'run_id': …" is get_run_info, and {'error_name': …} (HTTP 200 with
        # an API error, e.g. LayerStateError on the heartbeat) nests the keys we look for.
        if not body.startswith("{") or "'error_name'" in body:
            return
        if "'run_id'" in body and ("'layer'" in body or "'epoch'" in body or "'phase'" in body):
            if path is None or path.startswith("/miner/heartbeat"):
                fields = _response_fields(body)
                events.append(
                    _heartbeat(
                        at,
                        run_id=fields.get("run_id"),
                        layer=_int(fields.get("layer")),
                        epoch=_int(fields.get("epoch")),
                        phase=_phase(fields.get("phase")),
                        status=fields.get("status"),
                    )
                )
            return
        # POST /miner/register and GET /miner/register/status/<queue_id> (TAH 3.7.0).
        # The status answer may come without the id or the position (processing, confirmed,
        # failed carry no position); the keys are read in any order.
        register = path is not None and path.startswith("/miner/register")
        is_queue = "'queue_id'" in body or "'position'" in body or (register and "'status'" in body)
        if is_queue and (path is None or register):
            fields = _response_fields(body)
            status = fields.get("status")
            if status:
                events.append(QueueUpdate(at, status, _int(fields.get("position")), fields.get("queue_id")))
