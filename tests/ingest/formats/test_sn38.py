"""SN38 miner and hivemind parser: the step line's versions, prefixes, all-reduce rounds."""

from __future__ import annotations

import calendar
import time
from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats import create_parser
from app.ingest.formats.sn38 import Sn38Parser
from app.stats.events import (
    AllReduceResult,
    CollabProgress,
    PeerGroup,
    RoundPeer,
    StepFigures,
    SwarmNews,
    Tick,
    TrainerError,
    TrainingPause,
    TrainStep,
)
from tests.coldread import T0, read_cold
from tests.reallogs import body

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample-sn38.log"


def utc(year: int, month: int, day: int, hour: int, minute: int, second: int) -> float:
    return float(calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)))


def utc_date(t: float) -> tuple[int, int, int]:
    day = time.gmtime(t)
    return day.tm_year, day.tm_mon, day.tm_mday


def read(lines: list[str], parser: Sn38Parser | None = None) -> tuple[list[object], int]:
    parser = parser or Sn38Parser(to_epoch=utc)
    return list(parser.feed(lines)), parser.bad_lines


def bt(message: str, level: str = "INFO", stamp: str = "2025-06-27 14:03:11.482") -> str:
    return f"{stamp} | {level:^16} | {message}"


STEPS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "2025-03 → now",
        bt("🏋️  Outer Step: 41 | Inner Step: 17 | Learning Rate: 0.00040000 | Average Loss: 3.47"),
        {"at": utc(2025, 6, 27, 14, 3, 11) + 0.482, "outer_step": 41, "step": 17, "lr": 0.0004, "loss": 3.47},
    ),
    (
        "2025-02 micro batches",
        bt("🏋️ Outer Step: 7 | Inner Step: 12 | Average Loss: 4.1022 | Micro Batches: [512/512]"),
        {"outer_step": 7, "step": 12, "lr": None, "loss": 4.1022},
    ),
    ("2025-01 inner only", bt(":gear: Inner Step: 3 | Average Loss: 4.5000"), {"outer_step": None, "step": 3, "loss": 4.5}),
    ("2024 index", bt("Index: 1417 | Loss: 4.87"), {"step": 1417, "loss": 4.87}),
    ("2023 step", bt("Step 12 Loss: 5.123456789"), {"step": 12, "loss": 5.123456789}),
    (
        "2025-09 rank prefix, undated",
        "   \x1b[1mRank 0\x1b[0m    | 🏋️  Outer Step: 112 | Inner Step: 5 | Learning Rate: 0.00070000 | Average Loss: 3.02",
        {"at": None, "outer_step": 112, "step": 5},
    ),
    (
        "file handler",
        "2025-06-27 14:03:11,482 - distributed_training - INFO - Outer Step: 41 | Inner Step: 2 | Average Loss: 3.5",
        {"outer_step": 41, "step": 2},
    ),
    (
        "trace format",
        ("2025-06-27 14:03:11.482 |       INFO       | bittensor:miner.py:718 | Outer Step: 41 | Inner Step: 4 | "
        "Average Loss: 3.5"),
        {"outer_step": 41, "step": 4},
    ),
    ("pm2 prefix", "0|miner  | " + bt("Outer Step: 41 | Inner Step: 6 | Average Loss: 3.5"), {"step": 6}),
    ("hivemind example trainer", "Jun 27 14:12:30.700 [INFO] Step #42", {"at": None, "step": 42}),
]


@pytest.mark.parametrize(("version", "line", "expected"), STEPS, ids=[s[0] for s in STEPS])
def test_step_lines(version: str, line: str, expected: dict[str, Any]) -> None:
    events, bad = read([line])
    assert bad == 0
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    for key, value in expected.items():
        got = getattr(step, key)
        assert got == (pytest.approx(value) if isinstance(value, float) else value), key


def test_a_round_that_succeeds_counts_once_with_its_peers() -> None:
    events, _ = read(
        [
            bt("Received All Reduce Call"),
            bt("⚠️  Pausing continuous training."),
            bt("PeerID to UID mapping: {'12D3KooWQ...x7Q': 87, '12D3KooWB...aB3': 12, '12D3KooWH...k2P': 55}"),
            bt("self.tensor_part_container.num_parts_by_peer (118, 117, 117)"),
            bt("Averaging Round Finished Succesfully", "SUCCESS"),
            bt("AllReduce Operation Finished Succesfully"),
        ]
    )
    at = utc(2025, 6, 27, 14, 3, 11) + 0.482
    assert events == [
        TrainingPause(at, "all-reduce"),
        PeerGroup(at, 3),
        RoundPeer(at, "12D3KooWQ...x7Q", 87),  # each peer of the mapping, as the log shortens its id
        RoundPeer(at, "12D3KooWB...aB3", 12),
        RoundPeer(at, "12D3KooWH...k2P", 55),
        PeerGroup(at, 3),
        AllReduceResult(at, ok=True, peers=3),
        Tick(at),
    ]


def test_a_round_that_fails_counts_once_with_the_first_error() -> None:
    events, _ = read(
        [
            bt("Received All Reduce Call"),
            bt("UID:55 - PeerID:k2P - Failed to communicate with peers due to error - peer k2P sent 0 parts"),
            bt("All Reduce Runner failed with error peer k2P sent 0 parts, but we expected 117"),
            bt("All Reduce Failed with error: AllReduce Failed, Loading Latest State"),
            bt("Unexpected error during Averaging Process: Averaging step failed: could not find a group", "ERROR"),
        ]
    )
    results = [e for e in events if isinstance(e, AllReduceResult)]
    assert results == [AllReduceResult(results[0].at, ok=False, error="peer k2P sent 0 parts, but we expected 117")]


def test_dstrbtd_checkpoint_failure() -> None:
    events, _ = read([bt("Received Main All Reduce Call"), bt("All Reduce Failed At Checkpoint 2")])
    failed = next(e for e in events if isinstance(e, AllReduceResult))
    assert (failed.ok, failed.checkpoint, failed.error) == (False, 2, None)  # the checkpoint is all it says


def test_hivemind_lines() -> None:
    events, _ = read(
        [
            "Jun 27 14:05:02.117 [INFO] my-run accumulated 3712 samples for epoch #41 from 6 peers. ETA 52.31 sec",
            "Jun 27 14:06:03.911 [INFO] Averaged gradients with 6 peers",
            "Jun 27 14:06:05.260 [INFO] Transitioning to epoch 42",
            "Jun 27 14:11:40.003 [INFO] Averaging gradients failed with AllreduceException('could not find a group')",
            "Jun 27 14:11:40.100 [INFO] Skipped averaging: there are no other peers",
            "Jun 27 14:12:30.701 [INFO] Performance: 41.337 samples/sec",
            "\x1b[1mJun 27 14:12:30.702 [INFO]\x1b[0m Local loss: 3.41872",
            "[2021/08/29 13:16:01.592][INFO][hivemind.optim] Averaged parameters with 5 peers",
        ]
    )
    assert events == [
        CollabProgress(None, epoch=41, samples=3712, peers=6, eta_seconds=52.31),
        AllReduceResult(None, ok=True, peers=6),
        TrainStep(None, "train", 42),
        AllReduceResult(None, ok=False, error="AllreduceException('could not find a group')"),
        SwarmNews(None, "alone", "Skipped averaging: there are no other peers"),  # alone, no round failed
        StepFigures(None, figures=(("samples_per_second", 41.337),)),
        StepFigures(None, loss=3.41872, loss_note="local"),
        AllReduceResult(utc(2021, 8, 29, 13, 16, 1) + 0.592, ok=True, peers=5),
        Tick(utc(2021, 8, 29, 13, 16, 1) + 0.592),
    ]


def test_only_one_local_rank_is_followed() -> None:
    events, _ = read(
        [
            "   Rank 1    | Outer Step: 1 | Inner Step: 0 | Average Loss: 3.00",
            "   Rank 0    | Outer Step: 1 | Inner Step: 0 | Average Loss: 3.01",
            "   Rank 1    | Outer Step: 1 | Inner Step: 1 | Average Loss: 3.00",
            "   Rank 0    | Outer Step: 1 | Inner Step: 1 | Average Loss: 3.01",
        ]
    )
    assert [(e.step, e.loss) for e in events if isinstance(e, TrainStep)] == [(0, 3.0), (0, 3.01), (1, 3.01)]


def test_a_loss_cut_by_a_wrap_is_joined() -> None:
    events, bad = read([bt("Outer Step: 41 | Inner Step: 2 | Average Loss: 3.5"), "6", bt("Received All Reduce Call")])
    assert [e.loss for e in events if isinstance(e, TrainStep)] == [3.56] and bad == 0


def test_the_sample_reads_whole() -> None:
    events, bad = read(SAMPLE.read_text(encoding="utf-8").splitlines())
    assert bad == 0
    assert [(e.outer_step, e.step) for e in events if isinstance(e, TrainStep)] == [
        (41, 0), (41, 1), (41, 2), (41, 3), (41, 4), (41, 5), (42, 0), (42, 1), (42, 2)
    ]
    results = [e for e in events if isinstance(e, AllReduceResult)]
    assert [(r.ok, r.peers) for r in results] == [(True, 3), (False, None)]


def test_the_miners_own_success_line_ends_a_round() -> None:
    events, _ = read([bt("Received All Reduce Call"), bt("AllReduce Operation Finished Succesfully")])
    assert [e.ok for e in events if isinstance(e, AllReduceResult)] == [True]


def dated(reference: float) -> Sn38Parser:
    """A parser whose year-less hivemind times take their year from ``reference`` (in UTC)."""
    parser = Sn38Parser(to_epoch=utc, to_date=utc_date)
    parser.reference_time = reference
    return parser


def test_hivemind_monitor_steps_with_spaces_for_the_tab_and_the_files_year() -> None:
    """hivemind's albert README: "Step #1  loss = 11.05164"; the year comes from the file's mtime."""
    events, bad = read(body("hivemind-albert-readme-monitor.log"), dated(utc(2021, 10, 14, 16, 41, 0)))
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert bad == 0
    assert [(s.step, s.loss) for s in steps] == [(1, 11.05164), (2, 11.03771), (3, 11.02886)]
    assert [s.at for s in steps] == [
        utc(2021, 10, 14, 16, 37, 37) + 0.246,
        utc(2021, 10, 14, 16, 39, 37) + 0.441,
        utc(2021, 10, 14, 16, 40, 37) + 0.541,
    ]


def test_a_december_line_in_a_january_file_is_last_years() -> None:
    lines = body("hivemind-albert-readme-trainer.log")  # Dec 28
    events, _ = read(lines, dated(utc(2022, 1, 3, 9, 0, 0)))
    step = next(e for e in events if isinstance(e, TrainStep))
    assert step.at == utc(2021, 12, 28, 0, 15, 32) + 0.857
    events, _ = read(lines, dated(utc(2021, 12, 28, 0, 16, 0)))
    assert next(e for e in events if isinstance(e, TrainStep)).at == utc(2021, 12, 28, 0, 15, 32) + 0.857


def test_without_a_reference_time_hivemind_lines_stay_undated() -> None:
    events, _ = read(body("hivemind-albert-readme-monitor.log"))
    assert all(e.at is None for e in events if isinstance(e, TrainStep))


def test_hivemind_trainer_lines() -> None:
    events, bad = read(body("hivemind-albert-readme-trainer.log"), dated(utc(2021, 12, 28, 0, 16, 0)))
    assert bad == 0
    assert [e.step for e in events if isinstance(e, TrainStep)] == [1]
    assert [(e.ok, e.peers) for e in events if isinstance(e, AllReduceResult)] == [(True, 2), (True, 2)]
    assert StepFigures(utc(2021, 12, 28, 0, 15, 32) + 0.857, loss=11.06709, loss_note="local") in events


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("hivemind-issue519-could-not-find-a-group.log", "Averaging step failed: could not find a group"),
        ("sn38-readme-could-not-find-a-group.log", "Averaging step failed: could not find a group"),
    ],
)
def test_one_failed_round_reported_by_several_lines_counts_once(name: str, error: str) -> None:
    events, bad = read(body(name), dated(utc(2022, 11, 13, 0, 0, 0)))
    failures = [e for e in events if isinstance(e, AllReduceResult)]
    assert bad == 0
    assert [(f.ok, f.error) for f in failures] == [(False, error)]


def test_failures_far_apart_are_two() -> None:
    events, _ = read(
        [
            bt("Averaging step failed: could not find a group", "ERROR", "2024-07-03 16:18:34.005"),
            bt("Averaging step failed: could not find a group", "ERROR", "2024-07-03 16:28:34.005"),
        ]
    )
    assert len([e for e in events if isinstance(e, AllReduceResult)]) == 2


@pytest.mark.parametrize(
    ("name", "count", "last"),
    [
        ("sn38-readme-dht-connect.log", 8, "Attempt 9 to init DHT using initial_peer as /ip4/195.60.167.43/tcp/14761/"),
        ("sn38-readme-load-state-timeout.log", 1, "Failed to download state from 12D3KooWENY26mRiRdYeonJAwgUCrhNqteLUHf6CHbwnHXhC5GJ3 - TimeoutError()"),
        ("sn38-readme-asyncio-timeout.log", 1, "Task exception was never retrieved"),
    ],
)
def test_the_readmes_known_errors_are_counted(name: str, count: int, last: str) -> None:
    events, bad = read(body(name))
    errors = [e for e in events if isinstance(e, TrainerError)]
    assert bad == 0
    assert len(errors) == count and errors[-1].error.startswith(last)
    assert not [e for e in events if isinstance(e, AllReduceResult)]


def test_the_local_epoch_of_the_optimizer_era_miner_is_its_step() -> None:
    events, _ = read(body("sn38-readme-could-not-find-a-group.log"))
    assert [e.step for e in events if isinstance(e, TrainStep)] == [756]


SWARM_LINES: list[tuple[str, list[object]]] = [
    (bt(" - Attempt 3 to init DHT using initial_peer as /ip4/1.2.3.4/tcp/1/p2p/12D3KooWK failed with error: local time"
        " must be within 3 seconds  of others(local: 1721389737.68453, peer: 1721389707.40126) -", "ERROR"),
     [TrainerError(utc(2025, 6, 27, 14, 3, 11) + 0.482, "Attempt 3 to init DHT using initial_peer as /ip4/1.2.3.4/tcp/1/"
                   "p2p/12D3KooWK failed with error: local time must be within 3 seconds  of others(local: "
                   "1721389737.68453, peer: 1721389707.40126)"),
      SwarmNews(utc(2025, 6, 27, 14, 3, 11) + 0.482, "join_failed", "local time must be within 3 seconds  of "
                "others(local: 1721389737.68453, peer: 1721389707.40126)",
                "this machine's clock is out of step with the other peers (sync it: NTP)")]),
    ("Peer is out of sync", [SwarmNews(None, "out_of_sync")]),
    ("Jun 27 14:00:01.000 [INFO] Found peer with newer epoch (15041)",
     [SwarmNews(None, "out_of_sync", "Found peer with newer epoch (15041)")]),
    ("Jun 27 14:00:01.000 [INFO] Downloading parameters from peer QmAbc", [SwarmNews(None, "downloading", "QmAbc")]),
    ("Jun 27 14:00:31.000 [INFO] Finished downloading state in 30.000s from QmAbc",
     [SwarmNews(None, "downloaded", "Finished downloading state in 30.000s from QmAbc")]),
    ("Jun 27 14:00:32.000 [INFO] Catching up with collaboration step 15041",
     [SwarmNews(None, "catching_up", "Catching up with collaboration step 15041")]),
    (bt("UID:55 - PeerID:k2P - Banning Peer"), [RoundPeer(utc(2025, 6, 27, 14, 3, 11) + 0.482, "k2P", 55, "banned")]),
    (bt("UID:12 - PeerID:aB3 - sending tensors finished"), [RoundPeer(utc(2025, 6, 27, 14, 3, 11) + 0.482, "aB3", 12)]),
    ("Jun 27 14:05:54.430 [INFO] Beginning optimizer step #41", [TrainingPause(None, "all-reduce")]),
    ("Jun 27 14:05:54.430 [INFO] Finished averaging round in with 2 peers.", [AllReduceResult(None, ok=True, peers=2)]),
    # genrl (the newer rl-swarm) logs through hydra's format; its game manager's words, from
    # rl-swarm's rgym_exp/vendor/genrl/game/game_manager.py (``Starting round: {round}/{max_round}.``, and what
    # ``logger.exception`` writes when the game run fails)
    ("[2025-07-28 22:10:26,975][genrl.logging_utils.global_defs][INFO] - Starting round: 1234/1000000.",
     [SwarmNews(utc(2025, 7, 28, 22, 10, 26) + 0.975, "round", "starting round 1234 of 1,000,000")]),
    ("[2025-07-28 22:10:26,975][genrl.logging_utils.global_defs][INFO] - Starting round: 0/None.",
     [SwarmNews(utc(2025, 7, 28, 22, 10, 26) + 0.975, "round", "starting round 0")]),
    ("[2025-07-28 22:12:01,100][genrl.logging_utils.global_defs][ERROR] - Exception occurred during game run.",
     [TrainerError(utc(2025, 7, 28, 22, 12, 1) + 0.1, "Exception occurred during game run.")]),
]


@pytest.mark.parametrize(("line", "expected"), SWARM_LINES)
def test_a_collaborators_place_in_its_swarm(line: str, expected: list[object]) -> None:
    events, bad = read([line])
    assert [e for e in events if not isinstance(e, Tick)] == expected and bad == 0


@pytest.mark.parametrize("line", [
    ("ERROR:hivemind_exp.runner.grpo_runner:P2PDaemonError: Daemon failed to start: 2025/06/27 10:00:01 failed to "
    "connect to bootstrap peers"),
    ("Jun 27 10:00:01.000 [ERROR] [hivemind.dht.dht.run:120] Daemon failed to start: 2025/06/27 10:00:01 failed to "
    "connect to bootstrap peers"),
])  # fmt: skip
def test_a_logged_daemon_failure_is_a_failed_join_with_its_cause(line: str) -> None:
    events, bad = read([line])
    joins = [e for e in events if isinstance(e, SwarmNews) and e.kind == "join_failed"]
    assert bad == 0 and len(joins) == 1 and not joins[0].again
    assert joins[0].cause is not None and "bootstrap peers cannot be reached" in joins[0].cause
    assert [e for e in events if isinstance(e, TrainerError)]


def test_a_cancelled_all_reduce_and_its_never_retrieved_task_are_one_failed_round() -> None:
    """hivemind #351's shape, composed: a traceback starting inside hivemind's averaging, then asyncio's report
    of the averager's task. One failed round (the most telling error), no crash."""
    from app.ingest.formats.registry import create_parser
    from app.stats.events import RunCrashed

    lines = [
        "[2021/08/29 13:16:00.100][INFO][optim.collaborative.step:229] Beginning global optimizer step 9",
        '  File "/env/hivemind/averaging/partition.py", line 134, in iterate_output_tensors',
        "    await self._output_part_available[peer_index].wait()",
        '  File "/usr/lib/python3.8/asyncio/locks.py", line 309, in wait',
        "    await fut",
        "asyncio.exceptions.CancelledError",
        "[2021/08/29 13:16:01.592][ERROR][asyncio._accumulate_parts_streaming:227] Task exception was never retrieved",
        ("future: <Task finished name='Task-15594' coro=<DecentralizedAverager._run_allreduce() done, defined at "
        "/env/hivemind/averaging/averager.py:397> exception=MatchmakingException('Unable to run All-Reduce: ')>"),
        "Traceback (most recent call last):",
        '  File "/env/hivemind/averaging/averager.py", line 430, in _run_allreduce',
        "hivemind.averaging.matchmaking.MatchmakingException: Unable to run All-Reduce: ",
    ]
    events = create_parser("hivemind").feed(lines)
    results = [e for e in events if isinstance(e, AllReduceResult)]
    assert not [e for e in events if isinstance(e, RunCrashed)]
    assert results and results[0].again is False and all(r.again for r in results[1:])
    assert results[-1].error == "MatchmakingException('Unable to run All-Reduce: ')"
    assert not results[-1].ok


def test_genrl_s_start_up_records_date_the_log_and_claim_nothing() -> None:
    """rl-swarm issue 421's start-up: hydra records with a date, no round, no step, no error; the dataset's
    "1000 samples" and "Train samples: 2" are no step total."""
    lines = body("hivemind-rlswarm-issue421-genrl-bracketed-startup-no-steps.log")
    events, bad = read(lines)
    assert bad == 0
    # (run_rl_swarm.sh's questions and its good-luck line: the node set up; the trainer's first record ends that)
    said = [e for e in events if not isinstance(e, Tick)]
    assert all(isinstance(e, SwarmNews) and e.kind == "setting_up" for e in said)
    assert [e.detail for e in said][-2:] == ["starting the trainer", None]
    assert [e.at for e in events if isinstance(e, Tick)] == [utc(2025, 7, 28, 22, 9, 26) + 0.975]


PETALS_389 = "hivemind-petals-issue389-server-loading-blocks-72-to-76-adapters-terminal-escape-junk-glued.log"


def test_a_petals_server_loading_its_blocks_says_so_in_the_swarm_s_words() -> None:
    news = [e.detail for e in create_parser("hivemind").feed(body(PETALS_389)) if isinstance(e, SwarmNews)]
    # ``Loaded enoch/llama-65b-hf block 73``, …, ``block 76``; ``Loaded adapter … for block 72`` first (caret junk glued
    # before two records' time is read past): blocks 72 to 76, no training step
    assert news[0] == "a server starting: loading its blocks (block 72 loaded)"
    assert news[-1] == "a server starting: loading its blocks (blocks 72→76 loaded)"
    assert not [e for e in create_parser("hivemind").feed(body(PETALS_389)) if isinstance(e, TrainStep)]


def test_a_server_s_start_up_is_shown_as_the_swarm_s_news(tmp_path: Path) -> None:
    data = read_cold(tmp_path, body(PETALS_389), name=PETALS_389, at=T0)
    assert "Swarm: setting up · a server starting: loading its blocks (blocks 72→76 loaded)" in data["details"]
    assert data["training"]["step"] is None
