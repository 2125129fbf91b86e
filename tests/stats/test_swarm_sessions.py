"""Composed SN38 and hivemind sessions, end to end (parser, tracker, snapshot as ``--json`` writes it).

The lines follow the templates the research documents (the miner's bittensor prefix and its
all-reduce messages, hivemind's optimizer and state averager); every figure expected below is worked
out by hand from the lines in the test, never taken from tokwatch's output.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import to_json


def local(text: str) -> float:
    """A local time ``YYYY-MM-DD HH:MM:SS.mmm`` as a unix time."""
    whole, _, ms = text.partition(".")
    return time.mktime(time.strptime(whole, "%Y-%m-%d %H:%M:%S")) + int(ms or 0) / 1000


def read(tmp_path: Path, lines: list[str], now: float, mtime: float | None = None) -> dict[str, Any]:
    log = tmp_path / "miner.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written = now if mtime is None else mtime
    os.utime(log, (written, written))
    monitor = Monitor(log, clock=lambda: written)
    monitor.backlog(read_backwards(log))
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(now)))
    return data


def bt(when: str, message: str, level: str = "INFO") -> str:
    """A line as the SN38 miner's bittensor logger prints it (colours stripped)."""
    return f"2025-06-27 {when} | {level.center(18)} | {message}"


def step(when: str, outer: int, inner: int, loss: float = 3.5) -> str:
    return bt(when, f"🏋️  Outer Step: {outer} | Inner Step: {inner} | Learning Rate: 0.00040000 | Average Loss: {loss:.2f}")


MAPPING_3 = ("PeerID to UID mapping: {'12D3KooWQyJ9xHk5...x7Q': 87, '12D3KooWBv2mXcT1...aB3': 12, "
             "'12D3KooWHp4nRt8e...k2P': 55}")
MAPPING_4 = ("PeerID to UID mapping: {'12D3KooWQyJ9xHk5...x7Q': 87, '12D3KooWBv2mXcT1...aB3': 12, "
             "'12D3KooWHp4nRt8e...k2P': 55, '12D3KooWZz8pLm3q...Qm9': 101}")
MAPPING_2 = "PeerID to UID mapping: {'12D3KooWBv2mXcT1...aB3': 12, '12D3KooWQyJ9xHk5...x7Q': 87}"

# Four rounds: ok with 3 peers (90 s); failed with 4, UID 55 failing (40.05 s); failed at checkpoint 2
# with 2 (the parts per peer), UID 55 failing and banned (31.5 s); ok with 2 (45 s).
SESSION = [
    step("09:55:00.000", 41, 0),
    step("09:57:00.000", 41, 1),
    bt("10:00:00.000", "Received All Reduce Call"),
    bt("10:00:00.010", "⚠️  Pausing continuous training."),
    bt("10:00:00.500", MAPPING_3),
    bt("10:00:01.000", "UID:12 - PeerID:aB3 - communicate_with_peer started"),
    bt("10:01:30.000", "Averaging Round Finished Succesfully", "SUCCESS"),
    bt("10:01:30.100", "AllReduce Operation Finished Succesfully"),
    bt("10:01:30.200", "✅ Resuming continuous training."),
    step("10:02:00.000", 42, 0),
    bt("10:10:00.000", "Received All Reduce Call"),
    bt("10:10:00.500", MAPPING_4),
    bt("10:10:40.000", "UID:55 - PeerID:k2P - Failed to communicate with peers due to error - peer k2P sent 0 parts,"
                       " but we expected 117"),
    bt("10:10:40.050", "All Reduce Runner failed with error peer k2P sent 0 parts, but we expected 117"),
    bt("10:10:45.000", "All Reduce Failed with error: AllReduce Failed, Loading Latest State"),
    step("10:11:00.000", 42, 1),
    bt("10:20:00.000", "Received Main All Reduce Call"),
    bt("10:20:00.400", "self.tensor_part_container.num_parts_by_peer (118, 117)"),
    bt("10:20:30.000", "UID:55 - PeerID:k2P - Failed to communicate with peers due to error - TimeoutError()"),
    bt("10:20:31.000", "UID:55 - PeerID:k2P - Banning Peer"),
    bt("10:20:31.500", "All Reduce Failed At Checkpoint 2"),
    step("10:21:00.000", 42, 2),
    bt("10:30:00.000", "Received Local All Reduce Call"),
    bt("10:30:00.300", MAPPING_2),
    bt("10:30:05.000", "UID:87 - PeerID:x7Q - communicate_with_peer started"),
    bt("10:30:30.000", "Outer Optimizer Step Started"),
    bt("10:30:45.000", "All Reduce Finish"),
    step("10:31:00.000", 43, 0),
    step("10:35:00.000", 43, 1),
]


def test_four_rounds_read_as_records_with_their_groups_lengths_and_peers(tmp_path: Path) -> None:
    end = local("2025-06-27 10:35:00.000")
    data = read(tmp_path, SESSION, end)
    swarm = data["training"]["swarm"]
    assert data["state"] == "training"
    assert (swarm["rounds_ok"], swarm["rounds_failed"]) == (2, 2)
    assert swarm["last_good_round_at"] == local("2025-06-27 10:30:45.000")
    # 90 + 40.05 + 31.5 + 45 = 206.55 s paused in the 40 min the log covers (09:55 → 10:35)
    assert swarm["averaging_share_last_hour"] == pytest.approx(206.55 / 2400)
    assert swarm["averaging_share_seconds"] == 2400.0
    rounds = [(r["started_at"], round(r["seconds"], 3), r["peers"], r["outcome"], r["error"], r["checkpoint"],
               r["failed_peers"], r["banned_peers"]) for r in swarm["rounds"]]
    assert rounds == [
        (local("2025-06-27 10:30:00.000"), 45.0, 2, "ok", None, None, [], []),
        (local("2025-06-27 10:20:00.000"), 31.5, 2, "failed", None, 2,
         ["UID 55"], ["UID 55"]),
        (local("2025-06-27 10:10:00.000"), 40.05, 4, "failed", "peer k2P sent 0 parts, but we expected 117", None,
         ["UID 55"], []),
        (local("2025-06-27 10:00:00.000"), 90.0, 3, "ok", None, None, [], []),
    ]
    # UID 55: in rounds 1 to 3, failed in 2 and 3, banned in 3: first. Then the most recently seen: UID 87
    # (10:30:05), UID 12 (10:30:00.3), UID 101 (round 2 only).
    peers = [(p["uid"], p["peer"], p["rounds"], p["failures"], p["banned"], p["last_seen"]) for p in swarm["peers"]]
    assert peers == [
        (55, "12D3KooWHp4nRt8e...k2P", 3, 2, True, local("2025-06-27 10:20:31.000")),
        (87, "12D3KooWQyJ9xHk5...x7Q", 3, 0, False, local("2025-06-27 10:30:05.000")),
        (12, "12D3KooWBv2mXcT1...aB3", 3, 0, False, local("2025-06-27 10:30:00.300")),
        (101, "12D3KooWZz8pLm3q...Qm9", 1, 0, False, local("2025-06-27 10:10:00.500")),
    ]
    assert "Rounds: 2 ok · 2 failed · last good round 4 min ago · 9% of the last 40 min averaging" in data["details"]
    assert {"label": "rounds failed", "value": "2", "unit": ""} in data["training_fields"]
    assert not any(row["label"].startswith("failed DHT joins") for row in data["training_fields"])


def test_a_round_under_way_reads_averaging_with_how_long_so_far(tmp_path: Path) -> None:
    lines = SESSION[:5]  # the first round called at 10:00:00, its mapping read
    now = local("2025-06-27 10:02:00.000")
    data = read(tmp_path, lines, now)
    assert data["state"] == "averaging" and data["level"] == "ok"
    assert data["state_since"] == local("2025-06-27 10:00:00.000")
    assert data["status_line"].endswith(" · averaging 2m")
    assert "Averaging with its peers: training paused for a round for 2 min" in data["details"]
    assert not any(line.startswith("Paused:") for line in data["details"])  # said once
    assert data["training"]["swarm"]["round_since"] == local("2025-06-27 10:00:00.000")
    assert data["training"]["swarm"]["rounds"][0]["outcome"] == "running"
    assert data["training"]["swarm"]["rounds"][0]["peers"] == 3


def dht(when: str, attempt: int, error: str) -> str:
    return bt(when, f" - Attempt {attempt} to init DHT using initial_peer as /ip4/1.2.3.4/tcp/1/p2p/12D3KooWX failed"
                    f" with error: {error} -", "ERROR")


def test_a_dht_that_never_joins_reads_joining_then_cannot_join(tmp_path: Path) -> None:
    closed = "Daemon failed to start: 2025/06/27 10:00:01 failed to connect to bootstrap peers"
    first = [dht("10:00:01.000", 1, closed)]
    data = read(tmp_path, first, local("2025-06-27 10:00:02.000"))
    assert (data["state"], data["level"]) == ("joining", "waiting")
    assert data["status_line"] == "joining the swarm · 1 failed attempt"
    # one attempt, then five minutes with no peer: locked out
    data = read(tmp_path, first, local("2025-06-27 10:05:01.000"))
    assert (data["state"], data["level"]) == ("cannot_join", "problem")
    three = [*first, dht("10:00:07.000", 2, closed), dht("10:00:13.000", 3, "local time must be within 3 seconds")]
    data = read(tmp_path, three, local("2025-06-27 10:00:14.000"))
    assert (data["state"], data["status_line"]) == ("cannot_join", "cannot join the swarm · 3 failed attempts")
    assert data["state_since"] == local("2025-06-27 10:00:01.000")
    swarm = data["training"]["swarm"]
    assert swarm["join_failures"] == 3
    assert swarm["join_error"] == "local time must be within 3 seconds"
    assert "clock is out of step" in swarm["join_cause"]
    assert any(line.startswith("Cannot join the swarm: 3 failed attempts") for line in data["details"])


def hm(when: str, message: str, level: str = "INFO") -> str:
    """A line as hivemind's own logger prints it (INFO without its caller)."""
    return f"Jun 27 {when} [{level}] {message}"


OUT_OF_SYNC = [
    hm("14:00:00.000", "my-run accumulated 64 samples for epoch #15040 from 4 peers. ETA 16.79 sec (refresh in 9.59 sec)"),
    hm("14:00:01.000", "Peer is out of sync"),
    hm("14:00:01.100", "Downloading parameters from peer QmAbc"),
    hm("14:00:31.100", "Failed to download state from QmAbc - TimeoutError()", "ERROR"),
    hm("14:00:32.000", "Downloading parameters from peer QmDef"),
]


def test_an_out_of_sync_peer_catches_up(tmp_path: Path) -> None:
    written = local("2025-06-27 14:02:00.000")
    data = read(tmp_path, OUT_OF_SYNC, local("2025-06-27 14:00:40.000"), written)
    assert (data["state"], data["level"]) == ("out_of_sync", "warning")
    assert data["state_since"] == local("2025-06-27 14:00:01.000")
    assert data["training"]["swarm"]["download_failures"] == 1
    caught_up = [*OUT_OF_SYNC, hm("14:01:02.000", "Finished downloading state in 30.000s from QmDef"),
                 hm("14:01:02.100", "Catching up with collaboration step 15040"), hm("14:01:10.000", "Step #15041")]
    data = read(tmp_path, caught_up, local("2025-06-27 14:01:20.000"), written)
    assert data["state"] not in ("out_of_sync", "sync_failing", "working")
    assert data["training"]["swarm"]["out_of_sync_since"] is None
    assert data["training"]["swarm"]["download_failures"] == 0


def test_a_state_download_that_keeps_failing_is_a_problem(tmp_path: Path) -> None:
    failing = [*OUT_OF_SYNC, hm("14:01:02.000", "Failed to download state from QmDef - TimeoutError()", "ERROR")]
    data = read(tmp_path, failing, local("2025-06-27 14:01:10.000"), local("2025-06-27 14:02:00.000"))
    assert (data["state"], data["level"]) == ("sync_failing", "problem")
    assert data["status_line"] == "out of sync · state download failed 2×"


def test_hivemind_rounds_pace_and_a_lone_peer(tmp_path: Path) -> None:
    lines = [
        hm("14:00:00.000", "my-run accumulated 1000 samples for epoch #41 from 3 peers. ETA 60.00 sec (refresh in 5.00 sec)"),
        hm("14:00:10.000", "my-run accumulated 1500 samples for epoch #41 from 3 peers. ETA 50.00 sec (refresh in 5.00 sec)"),
        hm("14:00:20.000", "Beginning optimizer step #41"),
        hm("14:00:30.000", "Averaged gradients with 3 peers"),
        hm("14:00:31.000", "Transitioning to epoch 42"),
        hm("14:00:40.000", "Step #42"),
        hm("14:00:40.001", "Performance: 41.5 samples/sec"),
        hm("14:00:40.002", "Local loss: 3.41872"),
    ]
    written = local("2025-06-27 14:05:00.000")
    # its swarm's progress lines alone, 3 peers: it trains with them, no step of its own printed yet
    data = read(tmp_path, lines[:2], local("2025-06-27 14:00:11.000"), written)
    assert (data["state"], data["status_line"]) == ("training", "epoch #41 · 3 peers")
    data = read(tmp_path, lines, local("2025-06-27 14:00:41.000"), written)
    swarm = data["training"]["swarm"]
    # (1500 − 1000) samples in 10 s; this peer's own 41.5; one round 14:00:20 → 14:00:30 with 3 peers
    assert swarm["samples_per_second"] == 50.0 and swarm["local_samples_per_second"] == 41.5
    assert [(r["seconds"], r["peers"], r["outcome"]) for r in swarm["rounds"]] == [(10.0, 3, "ok")]
    assert data["training"]["collaboration"]["eta_seconds"] == 50.0
    alone = [*lines, hm("14:01:19.000", "Beginning optimizer step #42"),
             hm("14:01:20.000", "Skipped averaging: there are no other peers")]
    data = read(tmp_path, alone, local("2025-06-27 14:01:21.000"), written)
    assert (data["state"], data["level"]) == ("alone", "warning")  # not averaging: its round was skipped
    assert [r["outcome"] for r in data["training"]["swarm"]["rounds"]] == ["ok"]
    assert data["state_since"] == local("2025-06-27 14:01:20.000")


def test_the_pre_2021_hivemind_format_and_the_multi_gpu_rank_prefix(tmp_path: Path) -> None:
    old = ["[2021/08/29 13:16:01.592][INFO][hivemind.client.averaging.step:208] Averaged gradients with 5 peers"]
    data = read(tmp_path, old, local("2021-08-29 13:16:02.000"))
    assert data["training"]["swarm"]["rounds"][0]["peers"] == 5
    ranked = ["   Rank 0    | 🏋️  Outer Step: 112 | Inner Step: 5 | Learning Rate: 0.00070000 | Average Loss: 3.02",
              "   Rank 1    | 🏋️  Outer Step: 112 | Inner Step: 5 | Learning Rate: 0.00070000 | Average Loss: 3.05",
              "   Rank 0    | Received Main All Reduce Call",
              "   Rank 0    | All Reduce Failed At Checkpoint 3"]
    data = read(tmp_path, ranked, 1_800_000_000.0, 1_800_000_000.0)
    swarm = data["training"]["swarm"]
    assert data["training"]["outer_step"] == 112 and data["training"]["loss"] == 3.02  # rank 0's
    assert (swarm["rounds_failed"], swarm["rounds"][0]["checkpoint"]) == (1, 3)


def test_metrics_carry_the_rounds_as_aggregates_never_a_series_per_peer(tmp_path: Path) -> None:
    from tests.test_metrics import scrape

    data = read(tmp_path, SESSION, local("2025-06-27 10:35:00.000"))
    samples = scrape(({}, data))
    assert samples[("tokwatch_swarm_rounds_ok_total", ())] == 2
    assert samples[("tokwatch_swarm_rounds_failed_total", ())] == 2
    assert samples[("tokwatch_swarm_group_peers", ())] == 2  # the last round's
    assert samples[("tokwatch_swarm_peers_known", ())] == 4
    assert samples[("tokwatch_swarm_peers_banned", ())] == 1
    assert samples[("tokwatch_state", (("state", "training"),))] == 1
    assert not any("peer" in dict(labels) or "uid" in dict(labels)
                   for key, labels in (k for k in samples if isinstance(k, tuple)))


def test_copy_report_carries_the_rounds_and_the_peer_table(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    log.write_text("\n".join(SESSION) + "\n", encoding="utf-8")
    end = local("2025-06-27 10:35:00.000")
    os.utime(log, (end, end))
    monitor = Monitor(log, clock=lambda: end)
    monitor.backlog(read_backwards(log))
    report = monitor.queue_report(end)
    assert "Swarm: training — outer 43 · step 1 · " in report
    assert "Rounds: 2 ok · 2 failed · last good round 4 min ago · 9% of the last 40 min averaging" in report
    assert "  2025-06-27 10:20:00  round 15 min ago · 31.50 s · 2 peers · failed at checkpoint 2" in report
    assert "     55  12D3KooWHp4nRt8e...k2P  3  2  banned  2025-06-27 10:20:31" in report
    assert "    101  12D3KooWZz8pLm3q...Qm9  1  0  -  2025-06-27 10:10:00" in report


def test_steps_after_a_failed_state_download_are_training_again(tmp_path: Path) -> None:
    lines = [hm("14:00:01.000", "Downloading parameters from peer QmAbc"),
             hm("14:00:31.000", "Failed to download state from QmAbc - TimeoutError()", "ERROR"),
             step("14:01:00.000", 41, 0), step("14:01:47.000", 41, 1)]
    data = read(tmp_path, lines, local("2025-06-27 14:01:48.000"), local("2025-06-27 14:01:48.000"))
    assert data["state"] not in ("out_of_sync", "sync_failing")
    assert data["training"]["swarm"]["out_of_sync_since"] is None


def test_a_round_that_failed_is_no_pause_and_its_wait_no_stall(tmp_path: Path) -> None:
    """The second round of the session fails at 10:10:45 and no step follows: over, not a pause; the 45 s
    it took are averaging, so the wait for the next step counts from its end."""
    lines = SESSION[:15]  # up to "All Reduce Failed with error: AllReduce Failed, Loading Latest State"
    assert lines[-1].endswith("All Reduce Failed with error: AllReduce Failed, Loading Latest State")
    now = local("2025-06-27 10:12:00.000")
    data = read(tmp_path, lines, now)
    assert data["training"]["paused"] is None
    assert not any(line.startswith("Paused:") for line in data["details"])
    assert data["state"] not in ("averaging", "stalled")
    assert data["training"]["swarm"]["rounds"][0]["outcome"] == "failed"


def test_a_dht_daemon_that_fails_and_stops_the_trainer_cannot_join(tmp_path: Path) -> None:
    """A collaborator over hivemind whose p2p daemon cannot start: Python's report of the uncaught error,
    then the launcher's shutdown. One attempt, and the trainer is gone: cannot join (how it ended, a crash, a detail)."""
    lines = [
        "INFO:hivemind_exp.runner.gensyn.testnet_grpo_runner:Retrieved initial peers from chain: ['/ip4/1.2.3.4/tcp/1']",
        "Jun 27 10:00:00.000 [INFO] Checking that identity from `swarm.pem` is not used by other peers",
        "Traceback (most recent call last):",
        '  File "/srv/rl-swarm/hivemind_exp/runner/grpo_runner.py", line 130, in run',
        "    dht = self.setup_dht(grpo_args)",
        '  File "/venv/lib/python3.12/site-packages/hivemind/dht/dht.py", line 87, in __init__',
        "    self.run_in_background(await_ready=await_ready)",
        ("hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start: 2025/06/27 10:00:10 failed "
        "to connect to bootstrap peers"),
        ">> Shutting down trainer...",
        "Terminated",
    ]
    now = local("2025-06-27 10:00:10.000")
    data = read(tmp_path, lines, now)
    assert (data["format"], data["state"], data["level"]) == ("hivemind", "cannot_join", "problem")
    assert data["status_line"] == "cannot join the swarm · crashed"
    swarm = data["training"]["swarm"]
    assert swarm["join_failures"] == 1  # the traceback and its error line are one failure
    assert "the bootstrap peers cannot be reached" in swarm["join_cause"]
    assert data["training"]["crash"]["error"].startswith("hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError")


def test_the_daemon_s_error_alone_then_the_script_s_shutdown_and_a_shell_s_terminated_is_a_crash(tmp_path: Path) -> None:
    """rl-swarm issue 373's console (retyped by its author, prose lines kept): the p2p daemon's error line with no
    traceback above it, run_rl_swarm.sh's own shutdown, then zsh's ``terminated`` for the script it killed. The
    trainer's own error ended it: crashed, not stopped from outside."""
    lines = [
        "✅ Connected to Gensyn Testnet",
        "INFO: Retrieved initial peers from chain:",
        "  ['/ip4/38.101.215.14/tcp/31111/p2p/QmQ2gEXoPJg6iMBSUFWGzAabS2VhnzuS782Y637hGjfsRJ',",
        "Then it fails with this error:",
        ("hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start: 2025/07/01 02:07:38 failed "
         "to connect to bootstrap peers"),
        "Followed by automatic shutdown:",
        ">> An error was detected while running rl-swarm. See ~/gensyn/test/rl-swarm/logs for full logs.",
        ">> Shutting down trainer...",
        "zsh: terminated  ./run_rl_swarm.sh",
    ]
    now = local("2025-07-01 02:08:00.000")
    data = read(tmp_path, lines, now)
    assert (data["format"], data["state"]) == ("hivemind", "cannot_join")
    assert data["status_line"] == "cannot join the swarm · crashed"
    crash = data["training"]["crash"]
    assert crash["error"].startswith("hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start")
    assert [e["kind"] for e in data["events"]] == ["crashed"]


def test_a_signal_after_the_daemon_came_up_is_still_a_stop(tmp_path: Path) -> None:
    """A shell's ``terminated`` with no error of the trainer's before it: someone ended it (no crash words)."""
    lines = [
        "Jun 27 10:00:00.000 [INFO] Checking that identity from `swarm.pem` is not used by other peers",
        "Traceback (most recent call last):",
        '  File "/venv/lib/python3.12/site-packages/hivemind/dht/dht.py", line 87, in __init__',
        "KeyboardInterrupt",
    ]
    data = read(tmp_path, lines, local("2025-06-27 10:00:10.000"))
    assert data["status_line"] == "cannot join the swarm · stopped by hand"
    sentence = next(line for line in data["details"] if line.startswith("Cannot join the swarm: "))
    assert sentence.endswith("; the trainer was stopped by hand")


def test_a_petals_server_behind_a_container_s_glued_stamp_is_read(tmp_path: Path) -> None:
    """petals issue 511 (a TrueNAS container UI's export): every line starts with the container's stamp glued to
    Petals' own clock, the warnings and the traceback too; the paste stops after its first frame. Petals, crashed at
    start-up, the error not in the lines (none invented)."""
    lines = [
        "2023-09-16 10:15:31.031074+00:00Sep 16 10:15:31.030 [INFO] Running Petals 2.2.0",
        ("2023-09-16 10:15:31.349212+00:00/opt/conda/lib/python3.10/site-packages/transformers/models/auto/"
         "configuration_auto.py:1006: FutureWarning: The `use_auth_token` argument is deprecated and will be removed "
         "in v5 of Transformers."),
        "2023-09-16 10:15:31.349257+00:00warnings.warn(",
        "2023-09-16 10:15:33.021283+00:00Sep 16 10:15:33.021 [INFO] Using DHT prefix: Llama-2-70b-hf",
        "2023-09-16 10:15:43.745860+00:00Traceback (most recent call last):",
        '2023-09-16 10:15:43.745925+00:00File "/opt/conda/lib/python3.10/runpy.py", line 196, in _run_module_as_main',
    ]
    data = read(tmp_path, lines, local("2023-09-16 10:16:00.000"))
    assert (data["format"], data["state"]) == ("hivemind", "crashed")
    assert data["status_line"] == "no step yet · crashed"
    assert data["training"]["crash"]["error"] == (
        'a traceback without its error line; last frame: File "/opt/conda/lib/python3.10/runpy.py", line 196, '
        "in _run_module_as_main")
    assert data["step"] is None


def test_rl_swarm_s_launcher_setting_the_node_up_is_waiting_not_unrecognised(tmp_path: Path) -> None:
    """rl-swarm issue 406's console up to ``[1/4] Resolving packages...``: the banner (indented, a Markdown code
    block), the login prompt, Node.js and yarn's install. No hivemind line yet: a hivemind node setting up, waiting
    for its first step; no error, no round, no clock."""
    lines = [
        "    ██████  ██            ███████ ██     ██  █████  ██████  ███    ███",
        "",
        "    From Gensyn",
        "",
        "Please login to create an Ethereum Server Wallet",
        "Node.js is already installed: v24.2.0",
        "yarn install v1.22.22",
        "warning ../../package.json: No license field",
        "[1/4] Resolving packages...",
    ]
    data = read(tmp_path, lines, local("2025-07-22 10:00:00.000"))
    assert (data["format"], data["state"], data["status_line"]) == (
        "hivemind", "working", "setting up · installing the login server's packages")
    assert data["training"]["swarm"]["swarm_round"] == "setting up · installing the login server's packages"
    assert "waiting for the first training step" not in data["details"]
    assert data["training"]["crash"] is None and data["training"]["errors"] is None
    assert data["step"] is None
    assert "Swarm: setting up · installing the login server's packages" in data["details"]


def test_the_older_launcher_waiting_for_the_browser_login_is_waiting_not_an_error(tmp_path: Path) -> None:
    """gensyn-ai/rl-swarm issue 71 (2025-04-03): the older run_rl_swarm.sh asks about the testnet, installs the login
    server's packages, cannot open a browser (``open: command not found``) and waits for the login's file. No hivemind
    line: a node setting up, waiting for the login; no crash."""
    lines = [
        "Would you like to connect to the Testnet? [Y/n] y",
        "Please login to create an Ethereum Server Wallet",
        "yarn install v1.22.22",
        "[1/4] Resolving packages...",
        "success Already up-to-date.",
        "Done in 0.31s.",
        "./run_rl_swarm.sh: line 67: open: command not found",
        "Waiting for userData.json to be created...",
        "Waiting for userData.json to be created...",
        "Waiting for userData.json to be created...",
    ]
    data = read(tmp_path, lines, local("2025-04-03 10:00:00.000"))
    assert (data["format"], data["state"], data["status_line"]) == (
        "hivemind", "working", "setting up · waiting for the login at http://localhost:3000")
    swarm = data["training"]["swarm"]
    assert (swarm["swarm_round"], swarm["swarm_round_said"]) == (
        "setting up · waiting for the login at http://localhost:3000", 3)
    assert data["training"]["crash"] is None


def test_the_launcher_s_login_wait_then_the_trainer_s_round_replaces_the_set_up(tmp_path: Path) -> None:
    """run_rl_swarm.sh's own words while the login waits, then the trainer's first round: the round is the news."""
    lines = [
        "Please login to create an Ethereum Server Wallet",
        ">> Waiting for modal userData.json to be created...",
    ]
    data = read(tmp_path, lines, local("2025-06-09 07:10:00.000"))
    assert data["training"]["swarm"]["swarm_round"] == "setting up · waiting for the login at http://localhost:3000"
    lines += [("2025-06-09 07:10:43,736 - INFO - hivemind_exp.trainer.hivemind_grpo_trainer:302 - 🐝 Joining round: "
               "107 starting at stage: 2")]
    data = read(tmp_path, lines, local("2025-06-09 07:11:00.000"))
    assert data["training"]["swarm"]["swarm_round"] == "joining round 107 at stage 2"
    assert not data["status_line"].startswith("setting up")


def test_a_petals_server_s_lone_warning_is_shown_as_said(tmp_path: Path) -> None:
    """bigscience-workshop/petals PR 437: a running server's one line, hivemind's ``[WARN]`` that declaring its blocks
    takes longer than its update period. Nothing ended, no step, no error: the warning is shown, as printed."""
    warned = "Declaring blocs to DHT takes more than --update_period, consider increasing it"
    lines = [f"Aug 06 09:43:07.287 [WARN] [petals.server.server.run:701] {warned}"]
    data = read(tmp_path, lines, local("2023-08-06 09:44:00.000"))
    assert (data["format"], data["state"]) == ("hivemind", "working")
    swarm = data["training"]["swarm"]
    assert (swarm["warnings"], swarm["last_warning"]) == (1, warned)
    assert f"Warning: {warned}" in data["details"]
    assert data["training"]["crash"] is None and data["training"]["errors"] is None
    # a second one: counted, the last shown; an INFO record is no warning
    lines += ["Aug 06 09:44:07.287 [INFO] [petals.server.server.run:690] Announced that blocks [0, 1] are online",
              "Aug 06 09:45:07.287 [WARN] [petals.server.server.run:701] Slow peer"]
    data = read(tmp_path, lines, local("2023-08-06 09:46:00.000"))
    assert (data["training"]["swarm"]["warnings"], data["training"]["swarm"]["last_warning"]) == (2, "Slow peer")
    assert "Warning (the last of 2): Slow peer" in data["details"]


def test_the_miner_s_failed_training_loop_logged_as_a_warning_is_shown(tmp_path: Path) -> None:
    """The SN38 miner logs ``Training Loop Failed with error: …`` at WARN (miner.py, research §4) and goes on: shown
    as its warning, under the steps, no crash."""
    lines = [step("14:00:00.000", 42, 1), bt("14:00:30.000", "Training Loop Failed with error: CUDA out of memory. "
                                              "Tried to allocate 1.53 GiB", "WARN"), step("14:01:00.000", 42, 2)]
    data = read(tmp_path, lines, local("2025-06-27 14:01:10.000"))
    assert data["training"]["crash"] is None
    assert "Warning: Training Loop Failed with error: CUDA out of memory. Tried to allocate 1.53 GiB" in data["details"]


def test_a_failed_round_s_time_is_no_pause(tmp_path: Path) -> None:
    """Steps a minute apart; a round called at 10:02:10 fails at 10:07:00; the next step at 10:08:00. The
    step time is the rate's own, over the same stretch: 4 steps from 10:00 to 10:09, 540 s (26.67 steps/h,
    135 s a step), never a minute beside a rate that says otherwise; nor is the run paused."""
    lines = [
        step("10:00:00.000", 41, 0), step("10:01:00.000", 41, 1), step("10:02:00.000", 41, 2),
        bt("10:02:10.000", "Received All Reduce Call"),
        bt("10:07:00.000", "All Reduce Failed with error: AllReduce Failed, Loading Latest State"),
        step("10:08:00.000", 41, 3), step("10:09:00.000", 41, 4),
    ]
    data = read(tmp_path, lines, local("2025-06-27 10:09:10.000"))
    assert data["training"]["steps_per_hour"] == pytest.approx(4 * 3600 / 540)
    assert data["training"]["step_seconds"] == pytest.approx(135.0)
    assert data["training"]["paused"] is None


def test_a_shell_s_terminated_after_its_own_join_failure_is_no_stop(tmp_path: Path) -> None:
    """rl-swarm's daemon error stands alone (gensyn-ai/rl-swarm issue #373), then the launcher shuts the
    trainer down (``>> Shutting down trainer...``) and the shell says ``zsh: terminated``: it died of its own failure to
    join, so crashed, never "stopped from outside"; the same signal with no failure before it is a stop."""
    failed = [
        "Jun 27 10:00:00.000 [INFO] Checking that identity from `swarm.pem` is not used by other peers",
        ("hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start: 2025/06/27 10:00:10 failed "
         "to connect to bootstrap peers"),
        ">> An error was detected while running rl-swarm. See ~/rl-swarm/logs for full logs.",
        ">> Shutting down trainer...",
        "zsh: terminated  ./run_rl_swarm.sh",
    ]
    data = read(tmp_path, failed, local("2025-06-27 10:00:10.000"))
    assert (data["state"], data["status_line"]) == ("cannot_join", "cannot join the swarm · crashed")
    assert data["details"][0].startswith("Crashed") and not any("Stopped" in line for line in data["details"])
    assert not any(event["kind"] == "stopped" for event in data["events"])
