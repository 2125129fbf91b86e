"""`run.py --once` for each miner state, on composed logs whose answers are worked out in their headers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parents[1] / "data"
RESUMES = DATA / "iota-stops-and-resumes.log"
QUEUE = DATA / "iota-queue-resets.log"
REQUEUE = DATA / "iota-requeue.log"


def once(*args: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "--once", *args],
        capture_output=True, text=True, timeout=30, cwd=ROOT, check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize(
    ("at", "first", "second", "state"),
    [
        # 80 passes to 10:20:00; at 10:24:59 the window (10:04:59, 10:24:59] holds 61 → 183/h
        ("2026-09-20 10:24:59", "L1 · 585k tok/h", "585k tok/h · 183 passes/h (over 20 min)",
         "State: training (ok) · last log line 9 s ago"),  # an ERROR line at 10:24:50
        ("2026-09-20 10:25:01", "L1 · idle 5 min", "was 768k tok/h", "State: idle (warning) · last log line 1 s ago"),
        ("2026-09-20 10:32:00", "L1 · idle 12 min", "was 768k tok/h", "State: idle (warning) · last log line 0 s ago"),
        # passes again from 10:40:00, measured afresh from that first pass: the 40 after it over
        # 10 min → 240/h → 768,000 (the 20-minute window's blend would say 393k)
        ("2026-09-20 10:50:00", "L1 · 768k tok/h", "768k tok/h · 240 passes/h (over 10 min)",
         "State: training (ok) · last log line 0 s ago"),
        # the last line is a heartbeat at 10:50:05
        ("2026-09-20 10:53:05", "L1 · log silent 3 min", "was 768k tok/h",
         "State: silent (problem) · last log line 3 min ago"),
    ],
)
def test_once_reads_training_idle_and_silent(at: str, first: str, second: str, state: str) -> None:
    lines = once("--log", str(RESUMES), "--at", at)
    assert lines[0] == first
    assert lines[1] == f"  {second}"
    assert lines[-1] == f"  {state}"


def test_once_on_an_idle_miner_shows_its_last_pass_and_no_network() -> None:
    lines = once("--log", str(RESUMES), "--at", "2026-09-20 10:32:00")
    assert "  last pass 12 min ago" in lines
    # RECVs 2 s before passes 49..80 are still in (10:12:00, 10:32:00], but an idle miner moves
    # nothing now: no network rate (the window's 5.4 kB/s would be the past passing for the present).
    assert not any(line.startswith("  Network") for line in lines)
    training = once("--log", str(RESUMES), "--at", "2026-09-20 10:24:59")
    # While training: RECVs of passes 21..80 in (10:04:59, 10:24:59] are 60 × 206,107 B / 1200 s = 10,305 B/s
    assert "  Network 10 kB/s" in training


def test_once_in_the_queue_shows_trend_eta_and_resets() -> None:
    lines = once("--log", str(QUEUE), "--at", "2026-09-21 08:26:30")
    assert lines == [
        # 1650 → 1286 over the 525 s of polls in the last 10 min: −2496/h; 1286 / 2496 h = 31 min.
        "Queue #1286 · ▼ −2496/h · front in ~30 min",
        "  Queue ▼ −2496/h (10 min) · front in ~30 min",
        # 57 → 1613 and 1093 → 1702: 1556 + 609 = 2165 positions given back.
        "  in the queue 26 min · best #57 · 2,165 positions lost to 2 resets",
        "  2 queue resets in 24 h, 2 in 7 days, last 10 min ago",
        "  Backend: 21×503 queue_state, 0×404",
        "  State: queued (waiting) · last log line 10 s ago",
    ]


def test_once_after_re_registration_shows_facts_from_before_with_their_age() -> None:
    lines = once("--log", str(REQUEUE), "--at", "2026-09-22 12:21:00")
    assert lines[:2] == ["Queue #29 (lost layer 2) · ▼ −288/h · front in ~6 min", "  Queue ▼ −288/h (10 min) · front in ~6 min"]
    assert "  Epoch 49 · training · 10 min ago" in lines
    assert "  GPU mem 3.00 / 3.86 GB · 11 min ago" in lines
    assert "  last pass 11 min ago" in lines
    assert not any(line.startswith("  Step") for line in lines)


def test_once_report_lists_resets_with_times_and_positions() -> None:
    lines = once("--report", "--log", str(QUEUE), "--at", "2026-09-21 08:26:30")
    assert lines[0] == "tokwatch queue report"
    assert "Status: Queue #1286 · ▼ −2496/h · front in ~30 min (queued)" in lines
    assert "Best position reached: #57" in lines
    # The shape of macrocosm-os/iota#193's own words ("80 resets … in 33.8 h, best position 8, same queue_id").
    assert "Summary: 2 resets to the back in 26 min in the queue, best position 57, same queue_id, 2,165 positions lost" in lines
    assert "This queue: 2 resets, 2,165 positions lost to them" in lines
    assert "Trend (last 10 min): ▼ −2496/h; front in ~30 min" in lines
    assert ("Queue resets (same queue id, position up by more than 200, or by more than 50 while doubling): "
            "2 in the last 24 h, 2 in the last 7 days" in lines)
    resets = [line for line in lines if line.startswith("  2026-")]
    assert resets == [
        "  2026-09-21 08:16:20  #1093 → #1702  queue 4462ebfc-5f91-4ef0-9cfb-ac6e7687a66e",
        "  2026-09-21 08:06:20  #57 → #1613  queue 4462ebfc-5f91-4ef0-9cfb-ac6e7687a66e",
    ]


def test_an_unrecognised_log_says_what_to_do_and_shows_its_lines_shape_not_text(tmp_path: Path) -> None:
    log = tmp_path / "mystery.log"
    log.write_text("2026-12-01 14:23:30 epoch=3 /home/alice/run/ckpt.pt saved\n\n"
                   "key sk-abcdefghijklmnopqrstuvwxyz0123 ok\nthird line\n", encoding="utf-8")
    assert once("--log", str(log), "--at", "2026-12-01 14:25:30") == [
        "log format not recognised",
        ("  tokwatch reads these formats: iota, nanochat, nanogpt, llmc, modded-nanogpt, hf-trainer, torchtitan, "
         "sn38, hivemind, verl, rllib, espnet, maxtext, tinygrad, stable-baselines, chainer, marian, generic; if this log is "
         "one of them, start tokwatch with --format NAME"),
        "  line 1 looks like: N-N-N N:N:N epoch=N … saved",  # the path is the user's, not the format's
        "  line 2 looks like: key … ok",  # a long token may be a secret
        # no format reads it, but its first line's own time (14:23:30) says when it last wrote: 2 min before 14:25:30
        "  State: unrecognised (problem) · last log line 2 min ago",
        "  (4 lines read, none in a format tokwatch reads)",
    ]


def test_an_unrecognised_log_is_dated_by_its_lines_own_bracketed_times_or_said_undated(tmp_path: Path) -> None:
    # composed: a bracketed full date before each line ([2022-12-14 14:41:34], a logger's style no format reads)
    log = tmp_path / "dated.log"
    log.write_text("[2022-12-14 14:40:55] Seen 12,500 pairs\n[2022-12-14 14:40:56] [io] Reading shards\n",
                   encoding="utf-8")
    # 14:40:56 the newest: 4 s before 14:41:00
    assert once("--log", str(log), "--at", "2022-12-14 14:41:00")[-2:] == [
        "  State: unrecognised (problem) · last log line 4 s ago", "  (2 lines read, none in a format tokwatch reads)"]
    bare = tmp_path / "bare.log"
    bare.write_text("[worker] ready\nsome note\n", encoding="utf-8")  # a bracket with no time in it
    assert once("--log", str(bare))[-2:] == ["  State: unrecognised (problem) · 2 lines read, none dated",
                                             "  (2 lines read, none in a format tokwatch reads)"]


def test_a_wrong_format_says_what_it_read(tmp_path: Path) -> None:
    # The nanochat sample has 81 lines; none is an IOTA miner line.
    lines = once("--log", str(DATA / "sample-nanochat.log"), "--format", "iota")
    assert lines == [
        "log format not recognised",
        "  State: unrecognised (problem) · 81 lines read, none dated",
        "  (81 lines read, none looks like an IOTA miner log; without --format, tokwatch tries every format)",
    ]
    empty = tmp_path / "empty.log"
    empty.write_text("", encoding="utf-8")
    assert once("--log", str(empty), "--format", "iota") == ["waiting for log", "  State: waiting (waiting) · nothing read yet"]


def test_once_on_a_miner_starting_up_reads_working_then_idle(tmp_path: Path) -> None:
    # A launch at 09:00:00, then heartbeats every 30 s and no layer: working for 5 minutes.
    launch = ("[2026-09-20 09:00:00.000] [info]  2026-09-20 09:00:00.000 | INFO     | "
              "miner.new_miner:run_miner:1723 - 🚀 Starting miner 🚀")
    lines = [launch]
    for i in range(1, 21):
        stamp = f"2026-09-20 09:{i * 30 // 60:02d}:{i * 30 % 60:02d}.000"
        lines.append(f"[{stamp}] [info]  {stamp} | DEBUG    | subnet.common_api_client:orchestrator_request:84 - "
                     "Successfully completed request to /miner/heartbeat?expected_phase=training; response: "
                     "{'run_id': '4.12.16.5-tah', 'layer': 1, 'epoch': 48, 'phase': 'training'}")
    log = tmp_path / "starting.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    working = once("--log", str(log), "--at", "2026-09-20 09:05:00")
    assert (working[0], working[-1]) == ("working", "  State: working (waiting) · last log line 0 s ago")
    idle = once("--log", str(log), "--at", "2026-09-20 09:05:01")  # still talking (last line 09:05:00)
    assert (idle[0], idle[-1]) == ("idle 5 min", "  State: idle (warning) · last log line 1 s ago")


def test_once_while_measuring(tmp_path: Path) -> None:
    # The composed sample ends 65 s after registering in layer 1, two passes in.
    lines = once("--log", str(DATA / "iota-sample.log"), "--at", "end")
    # 65 s of 180 observed, 2 passes at 32.5 s each: the time is what is missing (115 s).
    assert lines[:2] == ["L1 · …", "  measuring… (2 passes so far) · rate in about 2 min"]
    assert lines[-1] == "  State: measuring (ok) · last log line 0 s ago"


def test_a_lost_layer_is_an_event_a_sentence_and_a_warning_while_back_in_the_queue() -> None:
    import json

    from app.alerts.rules import Queued
    from app.hub.report import reported_snapshot

    # The log's header: training in layer 2 until 12:10:00, 'Miner not registered' at 12:10:30,
    # queued #77 at 12:10:40, polls down to #29 at 12:20:40.
    snap = json.loads("\n".join(once("--json", "--log", str(REQUEUE), "--at", "2026-09-22 12:21:00")))
    assert (snap["state"], snap["status_line"], snap["level"]) == ("queued", "Queue #29 (lost layer 2) · ▼ −288/h · front in ~6 min", "warning")
    lost = snap["lost_layer"]
    assert (lost["layer"], lost["text"]) == (2, "lost layer 2 at 12:10 — back in the queue")
    events = [(e["kind"], e["text"]) for e in snap["events"]]
    assert ("layer_lost", "lost layer 2 — back in the queue") in events
    at = next(e["at"] for e in snap["events"] if e["kind"] == "layer_lost")
    assert at == lost["at"]  # dated at the deregistration (12:10:30), not at the first poll
    # The alert rule 'queued after training' names the loss.
    finding = Queued().observe(reported_snapshot(snap), snap["as_of"])
    assert finding is not None
    assert (finding.headline, finding.text) == (
        "lost layer 2", "lost layer 2 at 12:10 — back in the queue, queue position 29")
    # A first registration queue is only waiting: no loss, no warning.
    before = json.loads("\n".join(once("--json", "--log", str(REQUEUE), "--at", "2026-09-22 11:59:50")))
    assert before["lost_layer"] is None and before["level"] != "warning"
