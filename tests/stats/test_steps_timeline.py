"""One timeline for a run whose step counter restarts while it goes on (SN38's inner step at each outer step,
a count of batches at each epoch): the loss chart's x, the steps/h points and the round markers never fold.

Every global step below is counted by hand from the lines in the test (inner steps counted from 0, as the
miner prints them: KMFODA/DistributedTraining ``neurons/miner.py`` sets ``inner_step = 0`` when its outer
step is done or its state is loaded).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.ingest.backwards import read_backwards
from app.ingest.formats import create_parser
from app.live.monitor import Monitor
from app.record.logged import LoggedSteps
from app.snapshot import training_from_dict
from app.stats.events import StageStart, TrainStep
from app.stats.steps.timing import timeline_offset
from app.store.records import steps_from
from tests.stats.test_swarm_sessions import bt, local, read, step

REAL = Path(__file__).parent.parent / "data" / "real"


def sn38(outer: int | None, inner: int) -> TrainStep:
    return TrainStep(at=None, stage="train", step=inner, outer_step=outer)


def batch(epoch: float, count: int, total: int | None = None) -> TrainStep:
    return TrainStep(at=None, stage="train", step=count, total_steps=total, epoch=epoch, ends_at_total=False)


@pytest.mark.parametrize(
    ("previous", "offset", "step", "expected"),
    [
        (None, 0, sn38(41, 0), 0),  # the first step read: the log's own
        (sn38(41, 5), 0, sn38(41, 6), 0),  # the counter goes on
        (sn38(41, 5), 0, sn38(41, 5), 0),  # the same step printed again
        (sn38(41, 5), 0, sn38(42, 0), 6),  # outer step done: inner 0 is the 7th step (x 6)
        (sn38(42, 4), 6, sn38(43, 2), 11),  # lines missed: inner 0..2 after x 10 are x 11..13 (2 + 11 = 13)
        (sn38(42, 4), 6, sn38(42, 0), 11),  # the older miner: a failed round restarts the inner step, outer unchanged
        (batch(1, 2000), 0, batch(2, 1000), 2000),  # a count of batches with no total: epoch 2's 1000 is x 3000
        (batch(1, 499), 0, batch(2, 0), 500),  # and its first batch one step on (x 500)
        (batch(10, 8000, 8223), 0, batch(11, 1000, 8223), 8223),  # fairseq 301: epoch 10 ends at 8223, 11's 1000 at 9223
        (batch(1, 387, 388), 0, batch(2, 0, 388), 388),  # llama-recipes counts 0..387 of 388: epoch 2's step 0 at x 388
        (batch(2, 387, 388), 388, batch(3, 11, 388), 776),
        (batch(0, 58, 58), 0, batch(19, 3, 58), 1102),  # epochs 1..18 not shown, each 58 batches: 19 × 58 + 3 = 1105
        (batch(1, 388), 0, batch(2, 388), 388),  # a new epoch whose first line is its end (its bar at 388/388)
        (TrainStep(at=None, stage="train", step=5400), 0, TrainStep(at=None, stage="train", step=5000), 0),  # a resume
        (sn38(41, 5), 0, TrainStep(at=None, stage="sft", step=0), 0),  # another stage: its own steps
    ],
)
def test_a_counter_that_restarts_is_counted_on(previous: TrainStep | None, offset: int, step: TrainStep,
                                               expected: int) -> None:
    assert timeline_offset(previous, step, offset) == expected


# Three outer steps: a round ok at inner step 2 of outer 41; a round failing at checkpoint 3 in outer 42
# (the newer miner: no state loaded, the inner step goes on); a round ok at inner step 3 of outer 42.
# Timeline (x): outer 41 inner 0,1,2 → 0,1,2; outer 42 inner 0,1 → 3,4; inner 2,3 → 5,6; outer 43 inner 0,1,2 → 7,8,9.
SESSION = [
    step("09:55:00.000", 41, 0, 3.60),
    step("09:56:00.000", 41, 1, 3.58),
    step("09:57:00.000", 41, 2, 3.56),
    bt("09:58:00.000", "Received All Reduce Call"),
    bt("09:58:00.500", "PeerID to UID mapping: {'12D3KooWQyJ9xHk5...x7Q': 87, '12D3KooWBv2mXcT1...aB3': 12, "
                       "'12D3KooWHp4nRt8e...k2P': 55}"),
    bt("09:59:00.000", "Averaging Round Finished Succesfully", "SUCCESS"),
    step("10:00:00.000", 42, 0, 3.55),
    step("10:01:00.000", 42, 1, 3.54),
    bt("10:02:00.000", "Received Main All Reduce Call"),
    bt("10:02:00.400", "self.tensor_part_container.num_parts_by_peer (118, 117)"),
    bt("10:02:40.000", "All Reduce Failed At Checkpoint 3"),
    step("10:04:00.000", 42, 2, 3.53),
    step("10:05:00.000", 42, 3, 3.52),
    bt("10:06:00.000", "Received Main All Reduce Call"),
    bt("10:06:00.400", "PeerID to UID mapping: {'12D3KooWBv2mXcT1...aB3': 12, '12D3KooWQyJ9xHk5...x7Q': 87}"),
    bt("10:07:00.000", "All Reduce Finish"),
    step("10:08:00.000", 43, 0, 3.50),
    step("10:09:00.000", 43, 1, 3.49),
    step("10:10:00.000", 43, 2, 3.48),
]


def test_an_sn38_session_reads_one_timeline_in_json(tmp_path: Path) -> None:
    """The headline says what the log says (outer 43, step 2); the run's timeline is at 9 and the rounds are
    each at the step its call came (2, 4, 6), not at inner steps that repeat (2, 1, 3)."""
    data = read(tmp_path, SESSION, now=local("2025-06-27 10:10:30.000"))
    training = data["training"]
    assert data["status_line"].startswith("outer 43 · step 2 · ")
    assert (training["outer_step"], training["step"], training["chart_x"]) == (43, 2, 9)
    assert "global_step" not in training  # (9 is a place on this log's chart, no step the log or the run has)
    rounds = [(r["step"], r["outcome"], r["peers"], r["checkpoint"]) for r in training["swarm"]["rounds"]]
    assert rounds == [(6, "ok", 2, None), (4, "failed", 2, 3), (2, "ok", 3, None)]
    fields = {row["label"]: row["value"] for row in data["training_fields"]}
    assert fields["outer step"] == "43" and fields["step"] == "2"
    # The timeline is counted from the log's first line (outer 41 here), not the run's: the chart's x, no row.
    assert not any("timeline" in label for label in fields) and "9" not in fields.values()


def test_the_losses_and_the_steps_per_hour_point_are_kept_on_the_timeline(tmp_path: Path) -> None:
    """What the history keeps for the loss chart (every logged loss) and its steps/h points: at 0..9, in order."""
    parser = create_parser("sn38")
    losses, _ = LoggedSteps().feed(parser.feed(SESSION), 0.0)
    assert [(p.step, p.value) for p in losses] == [
        (0, 3.60), (1, 3.58), (2, 3.56), (3, 3.55), (4, 3.54), (5, 3.53), (6, 3.52), (7, 3.50), (8, 3.49), (9, 3.48)]
    log = tmp_path / "miner.log"
    log.write_text("\n".join(SESSION) + "\n", encoding="utf-8")
    monitor = Monitor(log, clock=lambda: local("2025-06-27 10:10:30.000"))
    monitor.backlog(read_backwards(log))
    points, _ = steps_from(monitor.snapshot(local("2025-06-27 10:10:30.000")))
    assert [p.step for p in points] == [9]


def test_a_new_run_in_the_same_log_starts_its_own_timeline() -> None:
    """After a new run's start the log's steps are the new run's: nothing is counted on."""
    logged = LoggedSteps()
    losses, _ = logged.feed([sn38(41, 0), TrainStep(at=None, stage="train", step=0, outer_step=41, loss=1.0)], 0.0)
    assert [p.step for p in losses] == [0]  # the same step printed again (its loss)
    losses, _ = logged.feed([TrainStep(at=None, stage="train", step=1, outer_step=42, loss=2.0),
                             StageStart(at=None, stage="train"),
                             TrainStep(at=None, stage="train", step=0, outer_step=7, loss=3.0)], 0.0)
    assert [(p.step, p.value) for p in losses] == [(2, 2.0), (0, 3.0)]


def test_a_count_of_batches_at_each_epoch_is_counted_on() -> None:
    """fairseq's ``epoch 002: 1000 / 2000`` after ``epoch 001: 2000 / 2000`` (a real shape, composed figures;
    the file cites its source): the run's timeline is at 3000 while the headline keeps the epoch's count."""
    done = subprocess.run(
        [sys.executable, "run.py", "once", "--log", str(REAL / "generic-fairseq-composed-simple-progress-epoch-rollover.log"),
         "--json", "--at", "end", "--no-history"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).parent.parent.parent, timeout=60)
    data = json.loads(done.stdout)
    assert data["status_line"].startswith("epoch 2 · 1000/2000 in the epoch")
    assert (data["training"]["step"], data["training"]["chart_x"]) == (1000, 3000)


@pytest.mark.parametrize(("name", "position", "step", "chart_x"), [
    # epoch 10 printed up to 8000 of 8223, then epoch 11 to 3000: 8223 + 3000
    ("generic-fairseq-issue301-legacy-epoch-progress-valid.log", "epoch 11 · 3000/8223 in the epoch", 3000, 11223),
    # three epochs of 388 steps, each bar at 388/388 when its epoch ends (epoch 2 printed only so): 3 × 388
    ("generic-llama-recipes-hpcaub-userguide-file-octopus-llm-rst-done.log", "done · epoch 3/3 · 388/388 in the epoch", 388, 1164),
    # Lightning's bar at epoch 0 (58 batches), then at epoch 19 batch 3: 19 × 58 + 3
    ("generic-lightning-delve-s18-file-readme-keyboardinterrupt-epoch19.log", "epoch 19 · 3/58 in the epoch", 3, 1105),
])
def test_real_logs_whose_count_restarts_at_each_epoch(name: str, position: str, step: int, chart_x: int) -> None:
    done = subprocess.run([sys.executable, "run.py", "once", "--log", str(REAL / name), "--json", "--at", "end",
                           "--no-history"], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).parent.parent.parent, timeout=60)
    data = json.loads(done.stdout)
    assert data["status_line"].startswith(position)
    assert (data["training"]["step"], data["training"]["chart_x"]) == (step, chart_x)
    assert "global_step" not in data["training"]  # (the log prints no run-wide step: the x is the chart's own)


def test_the_sample_sn38_log_reads_its_rounds_on_the_timeline() -> None:
    """tests/data/sample-sn38.log: outer 41 inner 0..5 (x 0..5), a round ok called at x 5; outer 42 inner 0..2
    (x 6..8), a round failed called at x 8 (its inner step 2 would put it before the first round's)."""
    done = subprocess.run([sys.executable, "run.py", "once", "--log", str(REAL.parent / "sample-sn38.log"), "--json",
                           "--at", "end", "--no-history"], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).parent.parent.parent, timeout=60)
    training = json.loads(done.stdout)["training"]
    assert (training["outer_step"], training["step"], training["chart_x"]) == (42, 2, 8)
    assert [(r["step"], r["outcome"]) for r in training["swarm"]["rounds"]] == [(8, "failed"), (5, "ok")]


def test_a_loss_spike_is_marked_at_its_place_on_the_timeline(tmp_path: Path) -> None:
    """Outer 41 inner 0..11, outer 42 inner 0..11, the loss 3.0/3.1 alternating but 9.0 at outer 42 inner 5:
    the spike is at 12 + 5 = 17 on the timeline, where the loss chart has that loss (not at 5, in outer 41)."""
    lines = []
    second = 0  # a step a second from 10:00:00
    for outer in (41, 42):
        for inner in range(12):
            loss = 9.0 if (outer, inner) == (42, 5) else (3.0 if inner % 2 else 3.1)
            lines.append(step(f"10:00:{second:02d}.000", outer, inner, loss))
            second += 1
    data = read(tmp_path, lines, now=local("2025-06-27 10:00:30.000"))
    assert data["training"]["loss_spike_steps"] == [17]
    losses, _ = LoggedSteps().feed(create_parser("sn38").feed(lines), 0.0)
    assert next(p.step for p in losses if p.value == 9.0) == 17


def test_the_older_miner_restarting_its_inner_step_after_a_failed_round_is_counted_on(tmp_path: Path) -> None:
    """The 2025 miner reset its inner step in ``finally`` whether the round worked or not (its outer step only
    moves on success): outer 7 inner 0..3 (x 0..3), a failed round called at x 3, outer 7 inner 0, 1 (x 4, 5)."""
    lines = [step(f"10:0{i}:00.000", 7, i) for i in range(4)] + [
        bt("10:04:00.000", "Received All Reduce Call"),
        bt("10:04:30.000", "All Reduce Failed with error: AllReduce Failed, Loading Latest State"),
        step("10:05:00.000", 7, 0),
        step("10:06:00.000", 7, 1),
    ]
    training = read(tmp_path, lines, now=local("2025-06-27 10:06:30.000"))["training"]
    assert (training["outer_step"], training["step"], training["chart_x"]) == (7, 1, 5)
    assert [(r["step"], r["outcome"]) for r in training["swarm"]["rounds"]] == [(3, "failed")]
    losses, _ = LoggedSteps().feed(create_parser("sn38").feed(lines), 0.0)
    assert [p.step for p in losses] == [0, 1, 2, 3, 4, 5]


def test_an_older_agents_report_keeps_its_chart_x() -> None:
    # Reports from before the field was named for the chart: their ``global_step`` is the same x.
    assert training_from_dict({"step": 2, "global_step": 9}).chart_x == 9
    assert training_from_dict({"step": 2, "chart_x": 9}).chart_x == 9
    assert training_from_dict({"step": 2}).chart_x is None
