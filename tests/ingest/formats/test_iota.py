"""Table tests for the IOTA Train-at-Home log parser: every line kind, both wordings, every line shape."""

from __future__ import annotations

import calendar
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.ingest.formats.base import LogParser
from app.ingest.formats.iota import IotaParser
from app.stats.events import (
    ActivationShape,
    BackendError,
    EpochReset,
    ErrorLogged,
    Event,
    ForwardPass,
    GpuMemory,
    Heartbeat,
    LayerChanged,
    LayerSeen,
    MinerReset,
    OptimizationStep,
    P2PTransfer,
    PhaseChanged,
    QueueUpdate,
    Registered,
    Tick,
    WorkerCrashed,
)

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "iota-sample.log"  # = research/iota-sample.log


def utc(year: int, month: int, day: int, hour: int, minute: int, second: int) -> float:
    """Read log times as UTC, so results do not depend on this machine's zone."""
    return float(calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)))


STAMP = "2026-09-13 21:09:01.304"
AT = utc(2026, 9, 13, 21, 9, 1) + 0.304
AID = "ad38835e-ddd6-4f55-afa7-3207237751aa"
HK = "5HmQx7Rc"
RUN = "4.12.16.5-tah"


def bare(message: str, stamp: str = STAMP, level: str = "INFO") -> str:
    """A bare loguru default-format line."""
    return f"{stamp} | {level:<8} | miner.new_miner:training_loop_tick:1089 - {message}"


def wrapped(message: str, stamp: str = STAMP, level: str = "INFO") -> str:
    """A Train-at-Home line: the Electron host's prefix around loguru's."""
    return f"[{stamp}] [info]  {bare(message, stamp, level)}"


def parse(lines: list[str]) -> tuple[list[Event], int]:
    parser = IotaParser(to_epoch=utc)
    return parser.feed(lines), parser.bad_lines


def events_of(message: str) -> list[Event]:
    """Parse one record and return its events, checking the closing Tick on the way."""
    events, bad = parse([wrapped(message)])
    assert bad == 0
    assert events[-1] == Tick(AT)
    return events[:-1]


def test_satisfies_the_log_parser_protocol() -> None:
    parser: LogParser = IotaParser()
    assert (parser.name, parser.bad_lines, parser.feed([])) == ("iota", 0, [])


# --- line shapes --------------------------------------------------------------

STEP = "✅ Optimization step #7 | hotkey=5HmQx7Rc"


@pytest.mark.parametrize(
    ("line", "at"),
    [
        pytest.param(wrapped(STEP, level="SUCCESS"), AT, id="wrapper"),
        pytest.param(
            f"[2026-09-13 21:09:02.999] [warning]  {bare(STEP, level='SUCCESS')}",
            AT,
            id="wrapper-any-host-level",
        ),
        pytest.param(bare(STEP, level="SUCCESS"), AT, id="bare-padded"),
        pytest.param(
            f"{STAMP} | SUCCESS | miner.training.training:backward:461 - {STEP}", AT, id="bare-unpadded"
        ),
        pytest.param(f"{STAMP} | INFO | __main__:<module>:12 - {STEP}", AT, id="bare-module-function"),
        pytest.param(wrapped(STEP) + "\r", AT, id="crlf"),
        pytest.param(
            "2026-09-13 21:09:01.304123 | SUCCESS  | miner.training.training:backward:427 | "
            f"✅ Miner {HK} completed local optimization step #7 | {{'activation_id': '{AID}', 'cache_size': 2}}",
            utc(2026, 9, 13, 21, 9, 1) + 0.304123,
            id="file-sink-v2.4.1-microseconds",
        ),
        pytest.param(
            f"{STAMP} | [MINER] | SUCCESS  | miner.training.training:461 | {STEP} | {{}}",
            AT,
            id="file-sink-miner-tag",
        ),
    ],
)
def test_every_line_shape_is_a_record(line: str, at: float) -> None:
    assert parse([line]) == ([OptimizationStep(at, 7), Tick(at)], 0)


@pytest.mark.parametrize("ending", ["", "\r"], ids=["lf", "crlf"])
def test_file_sink_extras_are_not_read_as_message(ending: str) -> None:
    extras = f"{{'note': '✅ FORWARD complete | layer=3 activation={AID}', 'shape': 'torch.Size([9, 9])'}}"
    line = f"{STAMP} | DEBUG    | miner.training.activation_queue:158 | Cache size: 2 | {extras}{ending}"
    assert parse([line]) == ([Tick(AT)], 0)


def test_file_sink_response_keeps_its_dict_and_drops_the_extras() -> None:
    response = f"{{'run_id': '{RUN}', 'layer': 2, 'epoch': 48, 'phase': 'training'}}"
    line = (
        f"{STAMP} | [MINER] | DEBUG    | subnet.common_api_client:84 | "
        f"Successfully completed request; response: {response} | {{'request_id': 'r-1', 'layer': 7}}"
    )
    assert parse([line])[0][0] == Heartbeat(AT, RUN, 2, 48, "training", None)


# --- every message kind, both wordings --------------------------------------

KINDS = [
    # forward passes: completion only; the last layer's backward line stands for its forward
    (f"✅ FORWARD complete | layer=2 activation={AID} hotkey={HK}", [ForwardPass(AT, AID, 2)]),
    (
        f"✅ Successfully completed FORWARD pass for activation {AID} on layer 3 | Miner: {HK}",
        [ForwardPass(AT, AID, 3)],
    ),
    (f"Last layer miner, performing backward pass for activation {AID}", [ForwardPass(AT, AID, None)]),
    # forward starts name the layer but are not passes
    (f"Starting FORWARD pass | layer=2 activation={AID} hotkey={HK}", [LayerSeen(AT, 2)]),
    (f"🚀 Starting FORWARD pass for layer 4 | Processing activation {AID} | Miner: {HK}", [LayerSeen(AT, 4)]),
    (f"Forward pass for activation {AID} on layer 5", [LayerSeen(AT, 5)]),
    # backward lines are never passes
    (f"🔄 BACKWARD pass | layer=2 activation={AID} hotkey={HK}", []),
    (f"✅ BACKWARD complete | layer=2 activation={AID} hotkey={HK}", []),
    (f"🔄 Starting BACKWARD pass for activation {AID} | Layer: 2 | Miner: {HK}", []),
    (f"✅ Successfully completed BACKWARD pass for activation {AID} | Layer: 2 | Miner: {HK}", []),
    # input shapes only
    ("Got activation shape: torch.Size([4, 800, 32])", [ActivationShape(AT, 4, 800)]),
    ("Got sample shape: torch.Size([8, 1024])", [ActivationShape(AT, 8, 1024)]),
    ("Forwarding activation of size torch.Size([4, 800, 32])", []),
    ("Activation shape after forward: torch.Size([4, 800, 32])", []),
    # registration and layers
    (f"✅ Miner {HK} registered successfully in layer 2 on training epoch 48", [Registered(AT, 2, 48)]),
    (
        f"🆕 Miner {HK} is new to layer 2 (old: run=None, layer=None) - will download layer-specifc local optimizer state",
        [LayerChanged(AT, 2, None)],
    ),
    (
        f"🆕 Miner {HK} is new to layer 1 (old: run={RUN}, layer=2) - will download layer-specifc local optimizer state",
        [LayerChanged(AT, 1, 2)],
    ),
    (f"🚀 Starting miner {HK} on layer 3 | Timeout: 600s", [LayerSeen(AT, 3)]),
    (f"Deleted stale weight files from previous run/layer (old run={RUN}, layer=2)", []),
    # phases, both enum renderings
    (
        f"🔄 Miner {HK} in Layer 2 is in state: LayerPhase.TRAINING",
        [LayerSeen(AT, 2), PhaseChanged(AT, "training", 2)],
    ),
    (
        f"🔄 Miner {HK} in Layer 1 is in state: weights_uploading",
        [LayerSeen(AT, 1), PhaseChanged(AT, "weights_uploading", 1)],
    ),
    (
        "Orchestrator is finally in state LayerPhase.MERGING_PARTITIONS",
        [PhaseChanged(AT, "merging_partitions", None)],
    ),
    ("Orchestrator is finally in state training", [PhaseChanged(AT, "training", None)]),
    ("Waiting for state LayerPhase.TRAINING", []),
    (
        (
            "Layer state change: {'layer': 2, 'expected_status': 'training', 'actual_status': 'weights_uploading', "
            "'message': 'Layer 2 is not in the expected state training, actual: weights_uploading'}"
        ),
        [PhaseChanged(AT, "weights_uploading", 2)],
    ),
    ("Layer state change: {'layer': 2, 'expected_status': 'training'}", []),
    (" 🔄 Miner in layer 2 submitting weights state!", [PhaseChanged(AT, "weights_uploading", 2)]),
    (
        (
            f"🔄 Miner {HK} layer state change...: Miner is moving state from LayerPhase.TRAINING to "
            "LayerPhase.WEIGHTS_UPLOADING"
        ),
        [],
    ),
    # resets
    ("🚀 Starting miner 🚀", [MinerReset(AT, "launch")]),
    ("🔄 Resetting miner entire state!", [MinerReset(AT, "reset")]),
    (f"🔄 Miner {HK} miner not registered error: Miner not registered", [MinerReset(AT, "not_registered")]),
    ("Miner not registered error: {'message': 'Entity not registered', 'name': None}", []),
    (
        f"Miner {HK} hit 5 consecutive failures — resetting to re-register",
        [MinerReset(AT, "consecutive_failures")],
    ),
    ("🗑️ Resetting for new epoch", [EpochReset(AT, full=False)]),
    ("🗑️ Performing full reset of training", [EpochReset(AT, full=True)]),
    ("🗑️ Resetting after optimization step", []),
    # optimisation steps
    (f"✅ Optimization step #12 | hotkey={HK}", [OptimizationStep(AT, 12)]),
    (f"✅ Miner {HK} completed local optimization step #3", [OptimizationStep(AT, 3)]),
    (f"🔄 Local optimization step after 2 backward passes | hotkey={HK}", []),
    # GPU memory
    ("GPU memory usage: 2.91GB / 3.75GB -- starting training forward pass", [GpuMemory(AT, 2.91, 3.75)]),
    ("High GPU memory usage detected: 3.37GB -- after backward pass", [GpuMemory(AT, 3.37, None)]),
    ("💾 GPU memory: 2.84GB", [GpuMemory(AT, 2.84, None)]),
    # backend errors the menu counts, and neighbours it does not
    (
        (
            "register_set_queue_state exhausted retries (3): POST /register/queue_state failed 503: "
            '{"detail":"unsupported: No handler for register.queue_state"}'
        ),
        [BackendError(AT, "queue_state_503", "/register/queue_state")],
    ),
    ("register_set_queue_state exhausted retries (3): POST /register/queue_state failed 500: oops", []),
    ("register_set_status exhausted retries (3): POST /register/status failed 503: {}", []),
    (
        "Error making orchestrator request to endpoint /miner/register/status/q-1: 404 - <html>",
        [BackendError(AT, "not_found_404", "/miner/register/status/q-1")],
    ),
    (
        "Error making orchestrator request to endpoint /miner/heartbeat?expected_phase=training: 500 - Internal",
        [],
    ),
    # peer-to-peer pushes; ACK/NACK close a push already counted
    (
        (
            f"Activation push RECV | bridge mp_queue→async | id={AID} dir=forward src_layer=1 tgt_layer=2 "
            "tensor_bytes=206107"
        ),
        [P2PTransfer(AT, "recv", 206107)],
    ),
    (
        (
            f"Activation push SEND | start | id={AID} dir=forward src_layer=2 tgt_layer=3 peer=12D3KooWAbCdEfGh… "
            "tensor_bytes=4096"
        ),
        [P2PTransfer(AT, "send", 4096)],
    ),
    (f"Activation push SEND | ACK OK | id={AID} dir=forward peer=12D3KooWAbCdEfGh… elapsed_s=0.41", []),
    (
        f"Activation push SEND | NACK | id={AID} dir=forward peer=12D3KooWAbCdEfGh… status=BUSY elapsed_s=0.4",
        [],
    ),
    # the orchestrator keeps the miner initializing (#199; MinerInitializingError, research §2.4/§2.7)
    ("Miner is initializing: {'error_name': 'MinerInitializingError', 'error_dict': {}}",
     [Heartbeat(AT, None, None, None, None, "initializing")]),
    ("🔄Miner 5HmQx7Rc has been temporarily blocked (initializing) and cannot perform work: not ready",
     [Heartbeat(AT, None, None, None, None, "initializing")]),
    # noise
    ("Making orchestrator request | method: GET | path: /miner/heartbeat?expected_phase=training", []),
    ("Successfully completed request; response: training", []),
    ("", []),
]


@pytest.mark.parametrize(("message", "expected"), KINDS, ids=[m[:48] for m, _ in KINDS])
def test_message_kind(message: str, expected: list[Event]) -> None:
    assert events_of(message) == expected


# --- orchestrator responses, printed as str(response)[:100] -----------------

HEARTBEAT_PATH = "Successfully completed request to /miner/heartbeat?expected_phase=training; response: "
NO_PATH = "Successfully completed request; response: "
QUEUE_ID = "4462ebfc-5f91-4ef0-9cfb-ac6e7687a66e"

RESPONSES = [
    (
        HEARTBEAT_PATH + f"{{'run_id': '{RUN}', 'layer': 2, 'epoch': 48, 'phase': 'training'}}",
        [Heartbeat(AT, RUN, 2, 48, "training", None)],
    ),
    (
        NO_PATH
        + f"{{'run_id': '{RUN}', 'layer': 1, 'epoch': 49, 'phase': 'training', 'status': 'initializing'}}",
        [Heartbeat(AT, RUN, 1, 49, "training", "initializing")],
    ),
    (
        NO_PATH + f"{{'run_id': '{RUN}', 'layer': 2, 'epoch': 48, 'phase': 'training'",
        [Heartbeat(AT, RUN, 2, 48, "training", None)],
    ),
    (
        NO_PATH + f"{{'run_id': '{RUN}', 'layer': 2, 'epoch': 48, 'phase': 'trai",
        [Heartbeat(AT, RUN, 2, 48, None, None)],
    ),
    (
        NO_PATH + f"{{'run_id': '{RUN}', 'layer': 2, 'epoch': 48, 'pha",
        [Heartbeat(AT, RUN, 2, 48, None, None)],
    ),
    (NO_PATH + f"{{'run_id': '{RUN}', 'layer': 2, 'epoch': 4", [Heartbeat(AT, RUN, 2, None, None, None)]),
    (
        NO_PATH + f"{{'run_id': '{RUN}', 'layer': None, 'epoch': 48",
        [Heartbeat(AT, RUN, None, None, None, None)],
    ),
    (
        NO_PATH + "{'run_id': '4.12.16.5-tah-long', 'phase': 'training'}",
        [Heartbeat(AT, "4.12.16.5-tah-long", None, None, "training", None)],
    ),
    (NO_PATH + f"[{{'run_id': '{RUN}', 'is_default': True, 'num_miners': 212, 'layer': 2", []),
    (NO_PATH + "{'error_name': 'LayerStateError', 'error_dict': {'layer': 2, 'run_id': 'x', 'actual_", []),
    (
        (
            "Successfully completed request to /miner/register; response: "
            f"{{'run_id': '{RUN}', 'layer': 2, 'current_epoch': 48}}"
        ),
        [],
    ),
    (NO_PATH + "{'message': 'Weights submitted successfully', 'should_upload_optimizer_state': False}", []),
    (
        NO_PATH + f"{{'queue_id': '{QUEUE_ID}', 'status': 'queued', 'position': 412, 'poll_after': 60}}",
        [QueueUpdate(AT, "queued", 412, QUEUE_ID)],
    ),
    (
        NO_PATH + f"{{'queue_id': '{QUEUE_ID}', 'status': 'queued', 'position': 1613, 'poll_afte",
        [QueueUpdate(AT, "queued", 1613, QUEUE_ID)],
    ),
    (
        NO_PATH + f"{{'queue_id': '{QUEUE_ID}', 'status': 'queued', 'position': 16",
        [QueueUpdate(AT, "queued", None, QUEUE_ID)],
    ),
    (NO_PATH + f"{{'queue_id': '{QUEUE_ID}', 'status': 'queued', 'posit", [QueueUpdate(AT, "queued", None, QUEUE_ID)]),
    (NO_PATH + f"{{'queue_id': '{QUEUE_ID}', 'status': 'queu", []),
    (
        NO_PATH + f"{{'queue_id': '{QUEUE_ID}', 'status': 'confirmed', 'position': 0, 'poll_aft",
        [QueueUpdate(AT, "confirmed", 0, QUEUE_ID)],
    ),
    (
        (
            f"Successfully completed request to /miner/register/status/{QUEUE_ID}; response: "
            f"{{'queue_id': '{QUEUE_ID}', 'status': 'registered', 'position': 0}}"
        ),
        [QueueUpdate(AT, "registered", 0, QUEUE_ID)],
    ),
    (
        (
            "Successfully completed request to /common/get_merged_partitions; response: "
            "{'status': 'queued', 'position': 3}"
        ),
        [],
    ),
    # the lifecycle past the queue, its keys in any order, the id maybe missing
    (NO_PATH + f"{{'position': 12, 'status': 'queued', 'queue_id': '{QUEUE_ID}'}}", [QueueUpdate(AT, "queued", 12, QUEUE_ID)]),
    (NO_PATH + f"{{'poll_after': 60, 'status': 'processing', 'queue_id': '{QUEUE_ID}'}}",
     [QueueUpdate(AT, "processing", None, QUEUE_ID)]),
    (
        f"Successfully completed request to /miner/register/status/{QUEUE_ID}; response: {{'status': 'failed'}}",
        [QueueUpdate(AT, "failed", None, None)],
    ),
    (NO_PATH + "{'status': 'failed'}", []),  # no path, no id: not known to be the registration's
]


@pytest.mark.parametrize("ending", ["", "\r"], ids=["lf", "crlf"])
@pytest.mark.parametrize(("message", "expected"), RESPONSES, ids=[m[-40:] for m, _ in RESPONSES])
def test_response(message: str, expected: list[Event], ending: str) -> None:
    assert events_of(message + ending) == expected


# --- continuation lines -------------------------------------------------------

NGINX_BODY = [
    "<head><title>404 Not Found</title></head>",
    "<body>",
    "<center><h1>404 Not Found</h1></center>",
    "<hr><center>nginx</center>",
    "</body>",
    "</html>",
]
TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "/app/miner/training.py", line 240, in forward',
    f"    logger.success(f'✅ FORWARD complete | layer=2 activation={AID}')",
    "ValueError: Optimization step #abc | GPU memory usage: xGB",
]


def banner(text: str) -> list[str]:
    return [wrapped("")] + [""] * 7 + [f" 🔄 Miner in layer 2 {text} state!"] + [""] * 8


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        pytest.param(
            [wrapped("Error making orchestrator request to endpoint /miner/register/status/q: 404 - <html>")]
            + NGINX_BODY,
            [BackendError(AT, "not_found_404", "/miner/register/status/q"), Tick(AT)],
            id="nginx-body",
        ),
        # The traceback's lines are never read as records (its "FORWARD complete" is no pass); its
        # last line is the crash it tells of (read as a crash only once the log goes silent).
        pytest.param([wrapped("Task failed")] + TRACEBACK, [WorkerCrashed(AT, TRACEBACK[-1], False), Tick(AT)],
                     id="traceback"),
        pytest.param(
            banner("submitting weights"),
            [PhaseChanged(AT, "weights_uploading", 2), Tick(AT)],
            id="weights-banner",
        ),
        pytest.param(
            banner("merging partitions"),
            [PhaseChanged(AT, "merging_partitions", 2), Tick(AT)],
            id="merge-banner",
        ),
        pytest.param(
            [wrapped(""), f"[{STAMP}] [info]   🔄 Miner in layer 2 merging partitions state!"],
            [PhaseChanged(AT, "merging_partitions", 2), Tick(AT)],
            id="banner-with-host-prefix",
        ),
        pytest.param(NGINX_BODY + TRACEBACK + ["", "\r"], [WorkerCrashed(None, TRACEBACK[-1], False)],
                     id="tail-starts-mid-record"),
        pytest.param(
            ["", " 🔄 Miner in layer 3 submitting weights state!"],
            [PhaseChanged(None, "weights_uploading", 3)],
            id="banner-before-any-record",
        ),
    ],
)
def test_continuation_lines_never_stand_alone(lines: list[str], expected: list[Event]) -> None:
    assert parse(lines) == (expected, 0)


def test_banner_continues_a_record_from_an_earlier_feed() -> None:
    parser = IotaParser(to_epoch=utc)
    lines = banner("submitting weights")
    assert parser.feed(lines[:3]) == [Tick(AT)]
    assert parser.feed(lines[3:]) == [PhaseChanged(AT, "weights_uploading", 2)]


# --- malformed input ------------------------------------------------------------

IMPOSSIBLE_TIMES = [
    "2026-13-01 10:00:00.000",
    "2026-00-01 10:00:00.000",
    "2026-02-29 10:00:00.000",
    "2026-04-31 10:00:00.000",
    "2026-09-00 10:00:00.000",
    "2026-09-13 24:00:00.000",
    "2026-09-13 10:60:00.000",
    "2026-09-13 10:00:60.000",
    "0000-01-01 10:00:00.000",
]


@pytest.mark.parametrize("stamp", IMPOSSIBLE_TIMES)
def test_impossible_time_is_a_bad_line_without_events(stamp: str) -> None:
    assert parse([wrapped(STEP, stamp=stamp)]) == ([], 1)


def test_leap_day_is_a_real_day() -> None:
    assert parse([bare(STEP, stamp="2028-02-29 00:00:00.000")]) == (
        [OptimizationStep(utc(2028, 2, 29, 0, 0, 0), 7), Tick(utc(2028, 2, 29, 0, 0, 0))],
        0,
    )


@pytest.mark.parametrize(
    "message",
    [
        "✅ Optimization step #abc | hotkey=5HmQx7Rc",
        "✅ Optimization step #12abc | hotkey=5HmQx7Rc",
        "✅ Optimization step #" + "9" * 5000,  # more digits than int() reads
        f"✅ FORWARD complete | layer=x activation={AID} hotkey={HK}",
        f"✅ Successfully completed FORWARD pass for activation {AID} on layer ? | Miner: {HK}",
        f"Starting FORWARD pass | layer=None activation={AID} hotkey={HK}",
        f"Forward pass for activation {AID} on layer",
        "Last layer miner, performing backward pass for activation ",
        "Got activation shape: torch.Size([3200])",
        "Got sample shape: torch.Size([a, b])",
        "Got activation shape: torch.Size([4, 10000001, 32])",  # no real sequence is that long
        "Got activation shape: torch.Size([" + "9" * 400 + ", 800, 32])",
        "GPU memory usage: lotsGB / 3.75GB -- x",
        "GPU memory usage: 1234567.0GB / 3.75GB -- x",
        "💾 GPU memory: ?GB",
        "Activation push RECV | bridge mp_queue→async | id=x dir=forward",
        f"✅ Miner {HK} registered successfully in layer None on training epoch 48",
        f"🆕 Miner {HK} is new to layer ? (old: run=None, layer=None)",
        f"🚀 Starting miner {HK} on layer None | Timeout: 600s",
        f"🔄 Miner {HK} in Layer 2 is in state: ",
        "Orchestrator is finally in state ",
    ],
)
def test_recognised_kind_with_unreadable_numbers_is_a_bad_line(message: str) -> None:
    assert parse([wrapped(message)]) == ([Tick(AT)], 1)


TEN_MIB = 10 * 1024 * 1024


@pytest.mark.parametrize(
    "line",
    [
        "",
        "\r",
        "\x00" * 100,
        "\ud800 lone surrogate | 🔄 state!",
        "x" * TEN_MIB,
        "[" + "x" * TEN_MIB,
        f"[{STAMP}] [info]  " + " " * TEN_MIB,
        wrapped("GPU memory usage: " + "9" * TEN_MIB + "GB"),
        wrapped("✅ Optimization step #" + "1" * TEN_MIB),
        wrapped("Forward pass for activation " + "a" * TEN_MIB),
        wrapped("is new to layer 1 (old: run=" + "x" * TEN_MIB),
        wrapped(NO_PATH + "{'run_id': 'r', 'layer': " + "'a': 1, " * (TEN_MIB // 8)),
        wrapped(NO_PATH + "{'queue_id': " + "'" * TEN_MIB),
        wrapped("Activation push RECV " + "tensor_bytes=" * (TEN_MIB // 13)),
        wrapped("\x00" * TEN_MIB),
    ],
    ids=lambda line: repr(line[:40]),
)
def test_never_raises_on_hostile_lines(line: str) -> None:
    parser = IotaParser(to_epoch=utc)
    parser.feed([line])
    assert parser.bad_lines <= 1


FRAGMENTS = [
    wrapped(""),
    bare(""),
    STEP,
    *(m for m, _ in KINDS),
    *(m for m, _ in RESPONSES),
    "\x00",
    "\r",
    " | {",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(),
            st.builds(
                lambda a, b, c: a + b + c,
                st.sampled_from(FRAGMENTS),
                st.text(max_size=20),
                st.sampled_from(FRAGMENTS),
            ),
        ),
        max_size=8,
    )
)
def test_never_raises_on_arbitrary_text(lines: list[str]) -> None:
    parser = IotaParser(to_epoch=utc)
    events = parser.feed(lines)
    assert all(not isinstance(event, Tick) for event in events[:-1])
    assert 0 <= parser.bad_lines <= len(lines)


# --- Tick and time --------------------------------------------------------------


def test_one_tick_per_feed_at_the_latest_time() -> None:
    later = "2026-09-13 21:09:05.500"
    lines = [
        wrapped("noise", stamp=later),
        wrapped("Cache size: 2"),
        "</html>",
        wrapped(STEP, stamp="2026-13-01 00:00:00.000"),
    ]
    events, bad = parse(lines)
    assert (events, bad) == ([Tick(utc(2026, 9, 13, 21, 9, 5) + 0.5)], 1)


def test_no_tick_without_a_timed_record() -> None:
    assert parse(NGINX_BODY + [wrapped(STEP, stamp="2026-13-01 00:00:00.000")]) == ([], 1)


def test_each_feed_ends_with_its_own_tick() -> None:
    parser = IotaParser(to_epoch=utc)
    assert parser.feed([wrapped(STEP)]) == [OptimizationStep(AT, 7), Tick(AT)]
    second = "2026-09-13 21:09:16.044"
    assert parser.feed([wrapped("Cache size: 1", stamp=second)]) == [
        Tick(utc(2026, 9, 13, 21, 9, 16) + 0.044)
    ]
    assert parser.feed([]) == []


def test_to_epoch_runs_once_per_distinct_minute() -> None:
    walls: list[tuple[int, ...]] = []

    def counting(*wall: int) -> float:
        walls.append(wall)
        return utc(*wall)

    parser = IotaParser(to_epoch=counting)
    stamps = ["21:09:01.304", "21:09:01.304", "21:09:01.500", "21:09:59.999", "21:10:00.001", "21:10:02.5"]
    events = parser.feed([wrapped("🗑️ Resetting for new epoch", stamp=f"2026-09-13 {s}") for s in stamps])
    assert walls == [(2026, 9, 13, 21, 9, 0), (2026, 9, 13, 21, 10, 0)]
    minute = utc(2026, 9, 13, 21, 9, 0)
    assert [event.at for event in events] == [
        minute + 1.304,
        minute + 1.304,
        minute + 1.5,
        minute + 59.999,
        minute + 60.001,
        minute + 62.5,
        minute + 62.5,  # the Tick
    ]


@pytest.mark.parametrize(
    "stamps",
    [
        ["21:09:05.5", "21:09:01.304", "21:08:59.999", "21:09:05.45"],  # ".5" is later than ".45"
        ["21:09:05.45", "21:09:05.5", "21:09:05.500", "21:09:02.0"],
        ["21:08:59.999", "21:09:05.5", "21:07:00.0"],
    ],
)
def test_tick_is_the_latest_time_whichever_line_has_it(stamps: list[str]) -> None:
    lines = [wrapped("Cache size: 2", stamp=f"2026-09-13 {s}") for s in stamps]
    assert parse(lines) == ([Tick(utc(2026, 9, 13, 21, 9, 5) + 0.5)], 0)


def test_tick_compares_times_not_stamps() -> None:
    # A zone that turns its clocks back an hour at 21:10: the later stamp is the earlier time.
    def fall_back(*wall: int) -> float:
        return utc(*wall) - (3600 if wall[3:5] >= (21, 10) else 0)

    parser = IotaParser(to_epoch=fall_back)
    lines = [wrapped("Cache size: 2", stamp=s) for s in ("2026-09-13 21:09:30.000", "2026-09-13 21:10:10.000")]
    assert parser.feed(lines) == [Tick(utc(2026, 9, 13, 21, 9, 30))]


def test_known_noise_still_counts_impossible_times_and_moves_the_clock() -> None:
    parser = IotaParser(to_epoch=utc)
    noise = "Cache size: 2"
    lines = [
        wrapped(noise),
        wrapped(noise, stamp="2026-09-13 21:09:60.000"),
        wrapped(noise, stamp="2026-13-01 00:00:00.000"),
        wrapped(noise),
        " 🔄 Miner in layer 2 submitting weights state!",  # continues the record with no time
    ]
    assert parser.feed(lines) == [
        PhaseChanged(AT, "weights_uploading", 2),
        Tick(AT),
    ]
    assert parser.bad_lines == 2
    later = "2026-09-13 21:09:16.044"
    assert parser.feed([wrapped(noise, stamp=later), bare(noise, stamp="2026-09-13 21:09:61.0")]) == [
        Tick(utc(2026, 9, 13, 21, 9, 16) + 0.044)
    ]
    assert parser.bad_lines == 3
    assert parser.feed([lines[-1]]) == [PhaseChanged(None, "weights_uploading", 2)]


def test_a_bad_message_is_counted_every_time() -> None:
    line = wrapped("GPU memory usage: lotsGB / 3.75GB -- x")
    assert parse([line] * 3) == ([Tick(AT)], 3)


def test_known_noise_memory_is_bounded() -> None:
    from app.ingest.formats import iota

    parser = IotaParser(to_epoch=utc)
    quiet = [wrapped(f"Cache size: {n}") for n in range(3 * iota._QUIET_SIZE)]
    assert parser.feed(quiet + [wrapped("x" * 10_000), wrapped(STEP)]) == [OptimizationStep(AT, 7), Tick(AT)]
    assert 0 < len(parser._quiet) <= iota._QUIET_SIZE
    assert all(len(rest) <= iota._QUIET_LENGTH for rest in parser._quiet)
    assert parser.feed(quiet[:3] + [wrapped(STEP)]) == [OptimizationStep(AT, 7), Tick(AT)]


def test_python_3_10_spelling_matches_the_same(sample_lines: list[str]) -> None:
    """Python 3.10 has no possessive quantifiers; its spelling of the patterns must match the same."""
    import re

    from app.ingest.formats import iota

    shapes = [
        f"{STAMP} | [MINER] | SUCCESS  | miner.training.training:461 | {STEP} | {{}}",
        f"2026-09-13 21:09:01.304123 | SUCCESS  | a.b:backward:427 | {STEP} | {{'a': 1}}",
        f"{STAMP}123456 | INFO | a:1 - x",  # nine digits of fraction, then ten
        f"{STAMP}1234567 | INFO | a:1 - x",
        f"\x00\x00[{STAMP}] [warning] \t {bare(STEP)}",
        f"{STAMP} | INFO | a:b:12 -",
        f"{STAMP} | INFO | a:b:12x - x",
    ]
    lines = sample_lines + shapes + FRAGMENTS + NGINX_BODY + TRACEBACK + [wrapped(m) for m, _ in KINDS]
    for pattern in (iota._STAMP_PATTERN, iota._SCAN_PATTERN, iota._LINE_SCAN_PATTERN):
        plain = iota._without_possessive(pattern)
        assert "*+" not in plain and "++" not in plain and "}+" not in plain
        fast, slow = re.compile(pattern, re.ASCII | re.DOTALL), re.compile(plain, re.ASCII | re.DOTALL)
        for line in lines:
            for text in (line, line[line.find(" | ") :]):
                one, other = fast.match(text), slow.match(text)
                assert (one and one.groups()) == (other and other.groups()), text


@pytest.fixture
def zone_utc_plus_3(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "XXX-3")  # POSIX: three hours east of UTC, no tz database needed
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("zone_utc_plus_3")
def test_default_reads_time_in_the_local_zone() -> None:
    assert IotaParser().feed([wrapped(STEP)])[-1] == Tick(AT - 3 * 3600)


# --- the composed sample log (research/iota-sample.log) --------------------------


@pytest.fixture(scope="module")
def sample_lines() -> list[str]:
    return SAMPLE.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def sample(sample_lines: list[str]) -> list[Event]:
    parser = IotaParser(to_epoch=utc)
    events = parser.feed(sample_lines)
    assert parser.bad_lines == 0
    return events


def of(events: list[Event], kind: type[Event]) -> list[Event]:
    return [event for event in events if isinstance(event, kind)]


def test_sample_counts_every_kind(sample: list[Event]) -> None:
    assert Counter(type(event).__name__ for event in sample) == {
        "GpuMemory": 28,
        "LayerSeen": 24,
        "PhaseChanged": 11,
        "BackendError": 10,
        "P2PTransfer": 9,
        "ActivationShape": 9,
        "ForwardPass": 9,
        "QueueUpdate": 8,
        "Heartbeat": 5,
        "MinerReset": 4,
        "OptimizationStep": 3,
        "Registered": 2,
        "LayerChanged": 2,
        "EpochReset": 1,
        "ErrorLogged": 5,
        "RequestRetry": 3,  # lines 26, 43 (register/status) and 97 (heartbeat) of the sample
        "Tick": 1,
    }
    assert sample[-1] == Tick(utc(2026, 9, 13, 21, 18, 30) + 0.994)


def test_sample_passes_layers_and_steps(sample: list[Event]) -> None:
    passes = [event for event in sample if isinstance(event, ForwardPass)]
    assert len({p.activation_id for p in passes}) == 9
    assert [p.layer for p in passes] == [2] * 7 + [1] * 2
    assert {(s.batch, s.sequence) for s in sample if isinstance(s, ActivationShape)} == {(4, 800)}
    assert [s.number for s in sample if isinstance(s, OptimizationStep)] == [1, 2, 1]
    assert of(sample, Registered) == [
        Registered(utc(2026, 9, 13, 21, 8, 40) + 0.494, 2, 48),
        Registered(utc(2026, 9, 13, 21, 17, 25) + 0.264, 1, 49),
    ]
    assert [(c.layer, c.old_layer) for c in sample if isinstance(c, LayerChanged)] == [(2, None), (1, 2)]
    assert [r.reason for r in sample if isinstance(r, MinerReset)] == [
        "launch",
        "reset",
        "not_registered",
        "reset",
    ]
    assert of(sample, EpochReset) == [EpochReset(utc(2026, 9, 13, 21, 14, 22) + 0.864, full=False)]


def test_sample_queue_heartbeats_phases_and_errors(sample: list[Event]) -> None:
    queue = [(q.status, q.position) for q in sample if isinstance(q, QueueUpdate)]
    assert queue == [("queued", 412), ("queued", 318), ("queued", 231), ("queued", 140), ("queued", 57),
                     ("confirmed", 0), ("queued", 6), ("confirmed", 0)]  # fmt: skip
    beats = [(h.run_id, h.layer, h.epoch, h.phase) for h in sample if isinstance(h, Heartbeat)]
    assert beats == [(RUN, 2, 48, "training")] * 2 + [(RUN, 2, 49, "training")] * 2 + [
        (RUN, 1, 49, "training")
    ]
    phases = [(p.phase, p.layer) for p in sample if isinstance(p, PhaseChanged)]
    assert phases == [
        ("training", None), ("training", 2),
        ("weights_uploading", 2), ("weights_uploading", 2), ("weights_uploading", 2),  # 409, tick, banner
        ("merging_partitions", None), ("merging_partitions", 2), ("merging_partitions", 2),
        ("training", None), ("training", 2), ("training", 1),
    ]  # fmt: skip
    errors = Counter(e.kind for e in sample if isinstance(e, BackendError))
    assert errors == {"queue_state_503": 8, "not_found_404": 2}
    assert sum(t.tensor_bytes for t in sample if isinstance(t, P2PTransfer)) == 9 * 206107


def test_sample_read_line_by_line_or_with_crlf_gives_the_same_events(
    sample_lines: list[str], sample: list[Event]
) -> None:
    whole = [event for event in sample if not isinstance(event, Tick)]
    parser = IotaParser(to_epoch=utc)
    one_by_one = [
        event for line in sample_lines for event in parser.feed([line]) if not isinstance(event, Tick)
    ]
    crlf = [
        event for event in parse([line + "\r" for line in sample_lines])[0] if not isinstance(event, Tick)
    ]
    assert one_by_one == whole
    assert crlf == whole


# --- ERROR lines: the timeline shows the latest one -------------------------------------

GET_ACTIVATION = "Error getting activation from queue: Timed out waiting for activations"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (wrapped(GET_ACTIVATION, level="ERROR"), [ErrorLogged(AT, GET_ACTIVATION)]),
        (bare(GET_ACTIVATION, level="CRITICAL"), [ErrorLogged(AT, GET_ACTIVATION)]),
        (f"{STAMP} | ERROR | miner.training.activation_queue:get_activation:151 - {GET_ACTIVATION}",
         [ErrorLogged(AT, GET_ACTIVATION)]),  # the level column collapsed
        (f"{STAMP} | [MINER] | ERROR    | miner.training.activation_queue:151 | {GET_ACTIVATION} | {{'cache_size': 2}}",
         [ErrorLogged(AT, GET_ACTIVATION)]),  # file sink: the extras are not the message
        (wrapped(GET_ACTIVATION, level="WARNING"), []),
        (wrapped("Error making orchestrator request to endpoint /miner/register/status/abc: 404 - <html>",
                 level="ERROR"),
         [BackendError(AT, "not_found_404", "/miner/register/status/abc"),
          ErrorLogged(AT, "Error making orchestrator request to endpoint /miner/register/status/abc: 404 - <html>")]),
    ],
)
def test_error_lines_are_events(line: str, expected: list[Event]) -> None:
    events, bad = parse([line])
    assert bad == 0 and events[:-1] == expected


def test_a_repeated_error_line_is_never_taken_for_known_noise() -> None:
    # The parser remembers rests of lines that meant nothing; an ERROR line always means something.
    line = wrapped(GET_ACTIVATION, level="ERROR")
    events, _ = parse([line] * 5)
    assert [e for e in events if isinstance(e, ErrorLogged)] == [ErrorLogged(AT, GET_ACTIVATION)] * 5
