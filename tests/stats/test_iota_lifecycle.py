"""The queue as miners live it: composed logs replayed through `tokwatch once`, answers worked out by hand.

COMPOSED, NOT REAL. The line templates are the TAH 3.7.0 worker's (research/iota-log-format.md
§2.6–2.7: `orchestrator_request:84 - Successfully completed request; response: {…}`, cut at 100
characters as the client prints it); the positions and statuses are those quoted in the IOTA
issues (research/iota-2026.md): #193's sample `position 74 at 10:53:04, position 1687 at
10:54:04`, #194's rule ("more than 200 above the previous"), the issue text's rising queue
(+25 a poll from #1460), `queued 12 → queued 4 → processing → confirmed`, #190's `confirmed` →
`failed`, #199's `status='initializing'`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
QID = "4462ebfc-5f91-4ef0-9cfb-ac6e7687a66e"
QID2 = "9b1de0a3-77c2-4d0e-8f3e-2a6c1f0e5d11"
DAY = "2026-09-10"


def stamp(seconds: int) -> str:
    """``seconds`` after midnight as the log's own time."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{DAY} {h:02d}:{m:02d}:{s:02d}.000"


def record(at: int, level: str, where: str, message: str) -> str:
    t = stamp(at)
    return f"[{t}] [info]  {t} | {level:<8} | {where} - {message}"


def response(at: int, body: str) -> str:
    # The client prints str(response_json)[:100] (research §2.7).
    return record(at, "DEBUG", "subnet.common_api_client:orchestrator_request:84",
                  f"Successfully completed request; response: {body[:100]}")


def poll(at: int, position: int, queue_id: str = QID) -> str:
    return response(at, f"{{'queue_id': '{queue_id}', 'status': 'queued', 'position': {position}, 'poll_after': 60}}")


def clock(seconds: int) -> str:
    return stamp(seconds)[:19]


def once_json(tmp_path: Path, lines: list[str], at: int) -> dict[str, Any]:
    log = tmp_path / "miner-cli.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "--once", "--json", "--log", str(log), "--at", clock(at)],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=False,
    )
    assert result.returncode == 0, result.stderr
    snap: dict[str, Any] = json.loads(result.stdout)
    return snap


def kinds(snap: dict[str, Any], kind: str) -> list[str]:
    return [e["text"] for e in snap["events"] if e["kind"] == kind]


H10 = 10 * 3600


def test_the_reset_193_sampled_is_one_reset_and_the_fall_around_it_is_movement(tmp_path: Path) -> None:
    # Polls every 60 s from 10:49:04 (#193 sampled by hand each minute): 412 318 231 140 74, then
    # 1687 at 10:54:04 (#193's own pair), then 1600 1513 1426 1339.
    positions = [412, 318, 231, 140, 74, 1687, 1600, 1513, 1426, 1339]
    start = H10 + 49 * 60 + 4
    lines = [poll(start + 60 * i, p) for i, p in enumerate(positions)]
    snap = once_json(tmp_path, lines, start + 60 * 9 + 10)
    # One reset: 74 → 1687 (+1613 > 200). Each fall is movement.
    assert kinds(snap, "queue_reset") == ["queue reset #74 → #1687"]
    q = snap["queue"]
    assert (q["resets_24h"], q["resets_7d"], q["entry_resets"]) == (1, 1, 1)
    assert q["positions_lost"] == 1687 - 74 and q["best_position"] == 74
    # Since the reset: 1687 → 1339 over 240 s = 348 / 240 × 3600 = 5220/h towards the front;
    # the front in 1339 / 5220 h = 923 s, "15 min".
    assert q["trend_text"] == "▼ −5220/h"
    assert snap["status_line"] == "Queue #1339 · ▼ −5220/h · front in ~15 min"
    assert q["since"] == snap["state_since"]


def test_a_steady_rise_is_a_trend_and_one_warning_not_a_reset_per_poll(tmp_path: Path) -> None:
    # The rising queue: +25 a poll from #1460, one poll every 75 s, 37 polls (45 min).
    start = H10
    lines = [poll(start + 75 * i, 1460 + 25 * i) for i in range(37)]
    last = start + 75 * 36  # #2360
    snap = once_json(tmp_path, lines, last + 5)
    assert kinds(snap, "queue_reset") == []
    q = snap["queue"]
    assert (q["resets_24h"], q["resets_7d"], q["positions_lost"]) == (0, 0, 0)
    # +25 per 75 s = +1200/h away from the front; no time to the front while it rises.
    assert q["trend_text"] == "▲ +1200/h" and q["eta_seconds"] is None
    assert snap["status_line"] == "Queue #2360 · ▲ +1200/h"
    # Grown since the first poll (10:00:00): at 10:45:05 that is 45 min.
    assert q["growing_since"] == snap["queue"]["since"]
    assert "the queue has grown for 45 min" in snap["details"]
    assert q["best_position"] == 1460


def test_a_small_queue_resets_by_doubling_and_a_moderate_rise_is_not_one(tmp_path: Path) -> None:
    # 40 → 20 → 8 → 120: +112 and 15× (a reset in a small queue); 110 → 200 (+90, under double)
    # and 200 → 320 (+120, under double): movement; 320 → 560 (+240 > 200): a reset.
    positions = [40, 20, 8, 120, 110, 200, 320, 560]
    lines = [poll(H10 + 75 * i, p) for i, p in enumerate(positions)]
    snap = once_json(tmp_path, lines, H10 + 75 * 7 + 5)
    assert kinds(snap, "queue_reset") == ["queue reset #320 → #560", "queue reset #8 → #120"]
    assert snap["queue"]["positions_lost"] == 112 + 240 and snap["queue"]["best_position"] == 8


def test_processing_and_confirmed_are_waiting_not_idle_then_training(tmp_path: Path) -> None:
    # queued 12 → queued 4 → processing → confirmed (the lifecycle), fields in any order.
    lines = [
        poll(H10, 12),
        response(H10 + 75, f"{{'status': 'queued', 'position': 4, 'queue_id': '{QID}', 'poll_after': 60}}"),
        response(H10 + 150, f"{{'queue_id': '{QID}', 'status': 'processing', 'poll_after': 60}}"),
        response(H10 + 225, f"{{'poll_after': 60, 'status': 'confirmed', 'queue_id': '{QID}'}}"),
        response(H10 + 300, f"{{'poll_after': 60, 'status': 'confirmed', 'queue_id': '{QID}'}}"),
    ]
    processing = once_json(tmp_path, lines[:3], H10 + 160)
    assert (processing["state"], processing["status_line"], processing["level"]) == (
        "processing", "registration processing", "waiting")
    assert processing["state_since"] is not None and processing["queue"]["position"] is None
    assert processing["queue"]["best_position"] == 4  # the entry's forensics stay
    # Two minutes after the last answer, 7 min into the registration with no pass: confirmed and
    # waiting, not idle (a miner waiting to be placed does no pass) nor working.
    confirmed = once_json(tmp_path, lines, H10 + 300 + 120)
    assert (confirmed["state"], confirmed["status_line"], confirmed["level"]) == (
        "confirmed", "confirmed · waiting for a layer", "waiting")
    assert kinds(confirmed, "registration") == ["registration confirmed", "registration processing"]
    placed = lines + [record(H10 + 330, "SUCCESS", "miner.new_miner:_apply_registration_response:1369",
                             "✅ Miner 5HmQx7Rc registered successfully in layer 1 on training epoch 49")]
    after = once_json(tmp_path, placed, H10 + 340)
    assert after["state"] == "measuring" and after["queue"] is None and after["layer"] == 1


def test_confirmed_then_failed_is_a_problem(tmp_path: Path) -> None:
    lines = [
        poll(H10, 4),
        response(H10 + 75, f"{{'queue_id': '{QID}', 'status': 'confirmed', 'poll_after': 60}}"),
        response(H10 + 150, f"{{'queue_id': '{QID}', 'status': 'failed', 'poll_after': 60}}"),
    ]
    snap = once_json(tmp_path, lines, H10 + 160)
    assert (snap["state"], snap["status_line"], snap["level"]) == ("failed", "registration failed", "problem")
    assert snap["state_since"] == snap["queue"]["last_poll_at"]


def test_an_unknown_status_is_shown_as_written_never_as_working(tmp_path: Path) -> None:
    lines = [poll(H10, 30), response(H10 + 75, f"{{'queue_id': '{QID}', 'status': 'waitlisted', 'poll_after': 60}}")]
    snap = once_json(tmp_path, lines, H10 + 80)
    assert (snap["state"], snap["status_line"]) == ("registering", "registration: waitlisted")


def test_initializing_for_long_is_a_warning_with_its_since(tmp_path: Path) -> None:
    heartbeat = ("Successfully completed request to /miner/heartbeat?expected_phase=training; response: "
                 "{'run_id': '4.12.16.5-tah', 'layer': 2, 'epoch': 48, 'phase': 'training', 'status': 'initializing'}")
    lines = [
        record(H10, "SUCCESS", "miner.new_miner:_apply_registration_response:1369",
               "✅ Miner 5HmQx7Rc registered successfully in layer 2 on training epoch 48"),
        *[record(H10 + 60 + 30 * i, "DEBUG", "subnet.common_api_client:orchestrator_request:89", heartbeat)
          for i in range(40)],  # to 10:20:30
    ]
    early = once_json(tmp_path, lines[:10], H10 + 60 + 30 * 8 + 5)  # 10:05:05, initializing since 10:01:00
    assert (early["state"], early["status_line"], early["level"]) == ("initializing", "L2 · initializing 4 min", "waiting")
    late = once_json(tmp_path, lines, H10 + 60 + 30 * 39 + 5)  # 10:20:35: 19 min > 15 min
    assert (late["state"], late["level"]) == ("initializing", "warning")
    assert late["state_since"] == early["state_since"]


def test_a_restart_while_queued_is_a_new_queue_id_at_the_back_with_advice(tmp_path: Path) -> None:
    # Queued down to #360, the app restarted, joined again at #1500 under a new id.
    lines = [poll(H10 + 75 * i, p) for i, p in enumerate([600, 520, 440, 360])]
    lines.append(record(H10 + 400, "INFO", "miner.new_miner:run_miner:1723", "🚀 Starting miner 🚀"))
    lines.append(poll(H10 + 420, 1500, QID2))
    snap = once_json(tmp_path, lines, H10 + 430)
    assert kinds(snap, "queue_reset") == []  # a new id is a new queue, not a reset
    assert kinds(snap, "queue_rejoined") == [
        "new queue id after a restart: back to #1500 (was #360) — restarting the app sends the miner to the back of the queue"]
    assert snap["queue"]["restarts_7d"] == 1 and snap["queue"]["best_position"] == 1500
