"""A record that spans lines, split by a live read: read the same as in one read.

A trainer whose stdout is a pipe or a file flushes every 8 KB (block buffering), wherever that falls: a live read can end
inside a key/value table (Spinning Up's ``| Epoch | 48 |`` rows), a one-figure-a-line block (rsl_rl's
``Learning iteration 66/30000``, deeprm's ``Iteration: \t 3``), a run of ``tag value step`` lines (rl-blox's
``losses/q1_loss 65.3581 193000``), Caffe's test of its net, or between a step line and a line tied to it (TF Estimator's
``global_step/sec``, PccAI's epoch summary after its batches), a Stable-Baselines logger table or an RLlib result
block. The readers hand on at the batch's end what they hold (a log may end there), and complete it with the rest the
next read brings: the same step, its record now whole, never a second step, a second loss or a second evaluation.

What is compared: what the reader gives the trackers, step by step (its figures, the later print of a step in place of
the earlier where the record was completed), how many losses each step gives the loss watch (one), and each evaluation
(once) - for every cut of each real excerpt into two reads, and random cuts into several. Times measured from the
reads' arrivals are not compared: two reads of an undated log arrive apart, one read at once.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ingest.formats.generic import GenericParser
from app.live.monitor import Monitor
from app.snapshot import to_json
from app.stats.events import EvalResult, Event, StepFigures, TrainStep
from tests.ingest.formats.test_generic_records import RULE, _table
from tests.reallogs import body

# Real excerpts of records that span lines (tests/data/real; each file's header cites its source).
SPLIT = [
    # openai/spinningup#37: an EpochLogger table between rules of dashes
    "generic-spinningup-issue37-epochlogger-table-epoch-48-cut-before-closing-rule.log",
    # isaac-sim/IsaacLab#5084, mujocolab/mjlab#1021, NVlabs/HOVER#45: rsl_rl's iteration blocks, one figure a line
    "generic-isaaclab-issue5084-rsl-rl-learning-iteration-1-of-10-blocks.log",
    "generic-rsl-rl-mjlab-pr1021-learning-iteration-66-of-30000-one-block.log",
    "generic-rsl-rl-hover-issue45-learning-iteration-156025-computation-steps-s.log",
    # hongzimao/deeprm#10: ``Iteration: \t 3`` blocks, a name, a tab, a figure a line
    "generic-deeprm-issue10-iteration-blocks-elapsed-time-seconds-tabs.log",
    # mlaux1/rl-blox#53: ``losses/q1_loss 65.3581 193000`` lines, one step's figures one a line
    "generic-jax-flax-rl-blox-pr53-sac-global-step-episodic-return-lines-losses-every-1000-to-195599.log",
    # Wal8800's blog (a committed post): ``Epoch: 6`` then ``Policy Loss: …`` a line, behind em-dash prefixes
    "generic-card-games-wal8800-blog-em-dash-logger-epoch-6-7-policy-loss-return-lines.log",
    # kevinlin311tw/Caffe-DeepBinaryCode's README, senlinuc/caffe_ocr#55: Caffe's ``Testing net`` and its outputs
    "generic-caffe-deepbinarycode-readme-iteration-50000-testing-net-accuracy-then-optimization-done.log",
    "generic-caffe-ocr-issue55-iteration-2500-testing-net-two-acc-outputs.log",
    # tensorflow/tensorflow#43014, Vincent131499/TextSim_cn_finetune#2: ``global_step/sec`` tied to the step line above
    "generic-tf-estimator-issue43014-loss-step-0-100-global-step-per-sec-glog.log",
    "generic-textsim-issue2-tpu-estimator-global-step-sec-doubled-absl-glog-lines.log",
    # google/automl#59, google-research/tapas#91: ``examples/sec`` tied to the ``global_step/sec`` report above, no step
    "generic-automl-issue59-tpu-estimator-global-step-sec-examples-sec-only-no-step-doubled.log",
    "generic-tapas-issue91-tpu-estimator-global-step-sec-examples-sec-only-printed-total-loss-tensor.log",
    # InterDigitalInc/PccAI#1: the epoch's summary after its ``batch count: N/308`` lines names their epoch
    "generic-pccai-issue1-batch-count-220-to-300-of-308-epoch-3-of-3-summary-checkpoint-saved-then-training-at-epoch-4-total-4.log",
    # yamatokataoka/reinforcement-learning-replications#7: figures in prose one a line, no step: logged records of them
    "generic-rl-replications-pr7-vpg-epoch-summary-then-update-losses-em-dash.log",
    # FX-STAR/Optim_Hopenet#3: the epoch's ``train: …, Cost=229 sec`` line tied to its last batch
    "generic-optim-hopenet-issue3-epochs-86-87-batch-speed-loss-tuples-mae.log",
    # Azure/kubeflow-labs, elezar/dcos-tensorflow-demos: TensorFlow 1's retrain records, a step's scores a line each (the
    # second through two handlers, each line twice)
    "generic-kubeflow-labs-file-5-tfjob-readme-tf1-retrain-steps-480-499-cross-entropy-validation-accuracy-final-test.log",
    "generic-dcos-tensorflow-demos-file-poets-readme-tf1-retrain-step-499-two-handlers-each-line-twice.log",
    # yvr1037/fenghuo-project-of-mmdet, open-mmlab/mmaction#199: mmcv's ProgressBar, a record glued to it, ``Epoch(val)``
    "generic-mmdet-fenghuo-file-mm-md-epoch-1-900-of-930-glued-progressbar-coco-then-epoch-val-map-then-epoch-2-100.log",
    "generic-mmaction-issue199-epoch-14-1700-1720-of-1730-progressbar-then-epoch-val-top1-top5-acc.log",
]
# Stable-Baselines' own logger tables, read by the stable-baselines reader (its ``iterations`` row mid-table, its
# ``train/`` figures after it): DLR-RM/rl-baselines3-zoo#521, hill-a/stable-baselines#121 (v2) and #1204 (v3), and
# AlanXiangYuWu/REINFORCEMENT-LEARNING-homework3-4's committed train.log (four tables, one a PPO iteration)
TABLES = [
    "stable-baselines-rl-baselines3-zoo-pr521-sb3-ppo-table-iterations-18-timesteps-73728.log",
    "stable-baselines-sb2-stable-baselines-issue121-ppo2-table-nupdates-782-ep-rewmean-nan.log",
    "stable-baselines-sb3-stable-baselines-issue1204-ppo-table-iterations-7-time-elapsed-136.log",
    "stable-baselines-sb3-ppo-minigrid-tables-iterations-19529-to-19532.log",
]
# RLlib's result blocks (``pretty_print``'s YAML, its ``training_iteration`` last), read by the rllib reader:
# ray-project/ray#3908 (bare blocks), #27093 (indented under ``Result for``), #3498 (a status line, then a block) and
# #36790 (Ray 2.5's rounded result box)
BLOCKS = [
    "rllib-ray-issue3908-ppo-bare-results-iteration-5-tail-then-6-then-7-begun.log",
    "rllib-ray-pr27093-result-for-ppo-cartpole-indented-block-iteration-1-cut.log",
    "rllib-ray-pr3498-ddpg-status-line-then-result-iter-8-cut-before-timesteps-total.log",
    "rllib-tune-ray-issue36790-air-output-trial-completed-20-iterations-result-box.log",
]
FORMAT = {**dict.fromkeys(SPLIT, "generic"), **dict.fromkeys(TABLES, "stable-baselines"), **dict.fromkeys(BLOCKS, "rllib")}


def _figure(value: object) -> object:
    return "nan" if isinstance(value, float) and math.isnan(value) else value


def given_steps(events: list[Event]) -> tuple[dict[Any, dict[str, Any]], dict[Any, list[Any]], dict[Any, int]]:
    """What the reader gives the trackers: each step's figures (a later print's over an earlier's; a step's record
    completed, ``amends``, in place of its part's figures), each evaluation's values, and the losses each step gives
    the loss watch (a completed record's loss is the step's, not one more)."""
    steps: dict[Any, dict[str, Any]] = {}
    evals: dict[Any, list[Any]] = {}
    losses: dict[Any, int] = {}
    key = None
    for event in events:
        if isinstance(event, TrainStep):
            key = (event.stage, event.step)
            figures = steps.setdefault(key, {})
            if event.amends:
                for name in [name for name in figures if name.startswith("figure ")]:
                    del figures[name]
            for f in dataclasses.fields(event):
                value = getattr(event, f.name)
                if f.name in ("at", "amends") or value is None or value == () or value is False:
                    continue
                if f.name == "figures":
                    figures.update((f"figure {name}", _figure(v)) for name, v in value)
                else:
                    figures[f.name] = _figure(value)
            if event.loss is not None and not (event.amends and key in losses):
                losses[key] = losses.get(key, 0) + 1
        elif isinstance(event, StepFigures) and key is not None:
            steps[key].update((f"said {f.name}", _figure(getattr(event, f.name))) for f in dataclasses.fields(event)
                              if f.name != "at" and getattr(event, f.name) not in (None, ()))
            if event.loss is not None:
                losses[key] = losses.get(key, 0) + 1
        elif isinstance(event, EvalResult):
            evals.setdefault((event.name, event.step), []).append(_figure(event.value))
    return steps, evals, losses


def read(reads: list[list[str]], format_name: str = "generic") -> tuple[dict[Any, dict[str, Any]], dict[Any, list[Any]],
                                                                         dict[Any, int]]:
    parser = Monitor(None, format_name=format_name).parser
    assert parser is not None
    return given_steps([event for lines in reads for event in parser.feed(lines)])


@pytest.mark.parametrize("name", SPLIT + TABLES + BLOCKS)
def test_every_cut_into_two_reads_gives_the_one_read_s_records(name: str) -> None:
    lines = body(name)
    whole = read([lines], FORMAT[name])
    assert whole[0], "the excerpt gives steps"
    for cut in range(1, len(lines)):
        assert read([lines[:cut], lines[cut:]], FORMAT[name]) == whole, f"cut before line {cut}: {lines[cut]!r}"


@pytest.mark.parametrize("name", SPLIT + TABLES + BLOCKS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_cuts_into_several_reads_give_the_one_read_s_records(name: str, data: st.DataObject) -> None:
    lines = body(name)
    cuts = sorted(data.draw(st.sets(st.integers(1, len(lines) - 1), max_size=8), label="cuts"))
    reads = [lines[a:b] for a, b in zip([0, *cuts], [*cuts, len(lines)], strict=True)]
    assert read(reads, FORMAT[name]) == read([lines], FORMAT[name])


T = 1_800_000_000.0


def _snapshot(reads: list[list[str]], format_name: str = "generic") -> tuple[dict[str, Any], Monitor]:
    monitor = Monitor(None, format_name=format_name, clock=lambda: T)
    for lines in reads:
        monitor.lines(lines)
    return json.loads(to_json(monitor.snapshot(T))), monitor


def _shown(data: dict[str, Any]) -> tuple[object, ...]:
    training = data["training"]
    return data["step"], training["loss"], training["figures"], training["eval"], training["data"], training["total_steps"]


@pytest.mark.parametrize("name", [SPLIT[0], SPLIT[2], SPLIT[5], TABLES[0], BLOCKS[1]])
def test_a_live_read_that_falls_inside_a_record_shows_the_one_read_s_figures(name: str) -> None:
    lines = body(name)
    whole, _ = _snapshot([lines], FORMAT[name])
    for cut in range(1, len(lines)):
        split, _ = _snapshot([lines[:cut], lines[cut:]], FORMAT[name])
        assert _shown(split) == _shown(whole), f"cut before line {cut}: {lines[cut]!r}"


def test_a_table_split_by_every_read_counts_each_epoch_s_loss_once(tmp_path: Path) -> None:
    # composed: twelve EpochLogger tables, epochs 0-11, LossPi 0.5 - epoch/100 (0.50 … 0.39), AverageEpRet -20 + epoch,
    # TotalEnvInteracts 4000 (epoch + 1); each read ends inside a table, after its TotalEnvInteracts row: its LossPi,
    # LossV, KL and Time rows come with the next read
    tables = [_table(e, str(-20 + e), str(4000 * (e + 1)), f"{0.5 - e / 100:.2f}", str(30 * (e + 1))) for e in range(12)]
    reads, carry = [], []
    for table in tables:
        cut = next(i for i, row in enumerate(table) if "TotalEnvInteracts" in row) + 1
        reads.append(carry + table[:cut])
        carry = table[cut:]
    reads.append(carry)
    data, monitor = _snapshot(reads)
    assert data["step"] == 11 and data["training"]["loss"] == 0.39
    assert data["training"]["figures"] == {"reward": -9.0, "total/timesteps": 48000.0}
    stage = monitor.tracker.progress.stage  # type: ignore[attr-defined]
    assert stage is not None and list(stage.spikes.recent) == [round(0.5 - e / 100, 2) for e in range(12)]
    assert monitor.tracker.progress.steps_total == 11  # type: ignore[attr-defined]  # (epochs 0 → 11, none twice)
    assert read(reads) == read([[row for table in tables for row in table]])


def test_a_read_that_ends_in_a_table_s_last_row_gives_nothing_more_when_its_rule_comes() -> None:
    # composed: the read ends after epoch 34's Time row; the next brings the closing rule alone: nothing new to give
    parser = GenericParser()
    first = parser.feed(_table(33, "-12.5", "1.36e+05", "-0.0123", "812") + _table(34, "-11", "1.4e+05", "-0.01", "836")[:-1])
    second = parser.feed([RULE])
    assert [e.step for e in first if isinstance(e, TrainStep)] == [33, 34]
    assert not [e for e in second if isinstance(e, TrainStep)]
