"""The time a step takes, as shown beside the rate: composed logs whose answers are worked out by hand,
read cold as ``run.py once`` does. The step time shown and the rate beside it come from one measured
stretch (3600 / steps per hour), unless the trainer printed its own, which is then said to be its own."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.coldread import T0, read_cold


def read(tmp_path: Path, lines: list[str], mtime: float = T0) -> dict[str, Any]:
    """The snapshot of ``lines`` read cold, at the last line's time."""
    return read_cold(tmp_path, lines, mtime=mtime, dated=True)


def clock(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(1_750_000_000 + seconds))


def restarted_epochs() -> list[str]:
    """Epochs 37 min apart (2,220 s), a restart of 2 h 30 min between epochs 3 and 4, and an
    irregular stretch early on: the last epochs are what the rate measures."""
    lines, t = [], 0.0
    for n in range(15):
        lines.append(f"{clock(t)} Epoch {n}, loss {2.0 - n * 0.05:.3f}")
        t += 9000 if n == 3 else (1500 if n < 3 else 2220)
    return lines


def cumulative_clock() -> list[str]:
    """Undated lines every 10 epochs, each printing the run's clock so far (810 s an epoch)."""
    return [f"Epoch {n}, Time {n * 810.0:.1f}s, Loss {0.6 - n * 0.001:.4f}" for n in range(10, 130, 10)]


def doubled_lines() -> list[str]:
    """Dated step lines 30 s apart, each printed twice (two logging handlers), from step 101 (a resume)."""
    lines = []
    for n in range(101, 141):
        line = f"{clock((n - 101) * 30.0)} step {n} loss {3.0 - n * 0.001:.4f}"
        lines += [line, line]
    return lines


@pytest.mark.parametrize(
    ("lines", "step_seconds", "shown"),
    [
        # The window (20 min) holds part of the last epoch's 2,220 s: 1.62 steps/h, 37 min a step (the
        # restart's 2 h 30 min long gone from it, though among the recent lines).
        (restarted_epochs(), 2220.0, "epoch 37 min (measured from the lines' times)"),
        # 10 epochs in 8,100 s of the trainer's clock: 810 s an epoch (4.44 steps/h), never the clock itself;
        # 13.5 min said to the nearest minute, 14 (whole minutes above 10).
        (cumulative_clock(), 810.0, "epoch 14 min (measured from the trainer's own clock)"),  # (undated lines)
        # 39 steps over 39 × 30 s, each line twice: 30 s a step (120 steps/h), never 1,170 s over 140 steps.
        (doubled_lines(), 30.0, "step 30.00 s (measured from the lines' times)"),
    ],
    ids=["restart-gap", "cumulative-clock", "doubled-lines"],
)
def test_the_step_time_is_the_rate_s_own(tmp_path: Path, lines: list[str], step_seconds: float, shown: str) -> None:
    data = read(tmp_path, lines)
    training = data["training"]
    assert training["steps_per_hour"] == pytest.approx(3600 / step_seconds, rel=1e-3)
    assert training["step_seconds"] == pytest.approx(step_seconds, rel=1e-3)
    assert shown in data["details"]


def test_a_printed_step_time_is_said_to_be_the_trainer_s(tmp_path: Path) -> None:
    """The trainer prints its own time of a step (``dt``): it is shown as printed, and said so."""
    lines = [f"{clock(n * 4.0)} step {n} loss {3.0 - n * 0.001:.4f} dt 3500.00ms" for n in range(1, 60)]
    data = read(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(3.5)
    assert "step 3.50 s (as printed)" in data["details"]


@pytest.mark.parametrize(
    ("said", "step_seconds", "shown"),
    [("12.3 seconds/step", 12.3, "step 12.30 s (as printed)"),
     ("12.3 seconds per step", 12.3, "step 12.30 s (as printed)"),
     ("(12.3 sec/it)", 12.3, "step 12.30 s (as printed)"),
     ("850 ms per iteration", 0.85, "step 850 ms (as printed)")],
)
def test_a_step_time_printed_in_words_is_timing(tmp_path: Path, said: str, step_seconds: float, shown: str) -> None:
    """Undated ``Step N loss X <time a step>`` lines, 300 of them: placed by the printed time, so the rate
    is 3600 / that time (292.7 steps/h at 12.3 s; 4,235 at 850 ms), never "no timing read from this log"."""
    lines = [f"Step {n} loss {3.0 - n * 0.001:.4f} {said}" for n in range(1, 301)]
    data = read(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(step_seconds)
    assert data["training"]["steps_per_hour"] == pytest.approx(3600 / step_seconds, rel=1e-3)
    assert shown in data["details"]
    assert not any("no timing" in line for line in data["details"])


def test_mlx_lm_s_tokens_an_hour_are_the_ones_it_prints(tmp_path: Path) -> None:
    """MLX-LM's ``It/sec`` and ``Tokens/sec`` are its report's averages over 10 iterations. Reports alternate
    40 s (0.25 it/s, 4,000 tokens at 100 tok/s) and 20 s (0.5 it/s, 4,000 tokens at 200 tok/s). By hand:
    the first report counts as its last iteration (2 s at 200 tok/s: 400 tokens), then 40,000 tokens in
    300 s from iter 10 to 110: 40,400 tokens and 101 steps in 302 s, 481.6k tok/h (between the printed
    360k and 720k) and 1,204 steps/h; never the 686k of each report's time taken as its fastest
    iteration's."""
    lines = ["Trainable parameters: 0.5% (4.2M/800M)", "Starting training..., iters: 1000"]
    for n in range(10, 120, 10):
        its, rate = (0.25, 100.0) if n % 20 == 0 else (0.5, 200.0)
        lines.append(f"Iter {n}: Train loss {2.0 - n * 0.001:.3f}, Learning Rate 1.000e-05, It/sec {its:.3f}, "
                     f"Tokens/sec {rate:.3f}, Trained Tokens {n * 400}, Peak mem 20.000 GB")
    data = read(tmp_path, lines)
    training = data["training"]
    assert training["tokens_per_hour"] == pytest.approx(40_400 / 302 * 3600)
    assert training["steps_per_hour"] == pytest.approx(101 / 302 * 3600)


def test_an_epoch_s_elapsed_seconds_are_no_step_s_time(tmp_path: Path) -> None:
    """flair's ``iter N/M - loss X - time (sec): T``: T is the epoch's time so far, not a step's. 43
    iterations a line at 0.37 s each (T grows by 15.91 s a line, and starts again with the next epoch, whose
    20 lines span 318 s): 0.37 s a step, 9,730 steps/h."""
    lines = []
    for epoch_number in (1, 2):
        for k in range(1, 21):
            lines.append(f"epoch {epoch_number} - iter {43 * k}/864 - loss {1.5 - 0.01 * k - epoch_number * 0.1:.8f}"
                         f" - time (sec): {43 * k * 0.37:.2f} - samples/sec: 86.49 - lr: 0.100000")
        lines += ["-" * 100, f"EPOCH {epoch_number} done: loss 1.2000 - lr 0.100000"]
    data = read(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(0.37, rel=1e-3)
    assert data["training"]["steps_per_hour"] == pytest.approx(3600 / 0.37, rel=1e-3)
    assert "step 370 ms (measured from the trainer's own clock)" in data["details"]  # (undated: no lines' times)
    # (the count is the epoch's, back at 43 as epoch 2 began: no run's end 4 iterations on, its undated summary no step)
    assert data["status_line"] == "epoch 2 · 860/864 in the epoch · 9.7k steps/h"
    assert not any(line.startswith("ETA") for line in data["details"])


# Real logs (excerpts kept whole, as the issues posted them), with the figures worked out by hand.
# Kyakaka/DySPN issue #4 (https://github.com/Kyakaka/DySPN/issues/4), PatrickZoo, 2025-04-08: one row an
# epoch, its finish time; a restart after epoch 7 (2 h 29 min) and 5 h between epochs 1 and 2.
DYSPN = [
    'Epoch ,FinishTime     ,LR    ,RMSE_Train ,RMSE_Val',
    '    0 ,04.29_01:45:54 ,0.001 , 1434.0919 ,1103.956',
    '    1 ,04.29_02:22:17 ,0.001 ,  873.6441 , 921.05',
    '    2 ,04.29_07:19:17 ,0.001 ,  812.9779 ,888.2791',
    '    3 ,04.29_07:55:45 ,0.001 ,  782.1296 ,876.3623',
    '    4 ,04.29_08:32:11 ,0.001 ,  762.124  ,866.5053',
    '    5 ,04.29_09:08:37 ,0.001 ,  751.2291 ,848.9873',
    '    6 ,04.29_09:45:01 ,0.001 ,  744.2525 ,839.5559',
    '    7 ,04.29_10:21:29 ,0.001 ,  731.0956 ,',
    '    8 ,04.29_12:50:13 ,[0.001]    ,   635.966 , 810.576',
    '    9 ,04.29_13:27:46 ,[0.001]    ,   627.821 , 806.243',
    '   10 ,04.29_14:04:57 ,[0.001]    ,   623.321 , 807.758',
    '   11 ,04.29_14:42:08 ,[0.001]    ,   622.183 , 799.256',
    '   12 ,04.29_15:19:17 ,[0.001]    ,   614.954 , 795.146',
    '   13 ,04.29_15:59:26 ,[0.001]    ,   613.452 , 791.363',
    '   14 ,04.29_16:36:42 ,[0.001]    ,   609.09  , 798.256',
    '   15 ,04.29_17:13:53 ,[0.001]    ,   606.183 , 791.335',
    '   16 ,04.29_17:51:04 ,[0.001]    ,   605.787 , 788.47',
    '   17 ,04.29_18:28:15 ,[0.001]    ,   601.356 , 796.352',
    '   18 ,04.29_19:05:25 ,[0.001]    ,   605.934 , 787.014',
    '   19 ,04.29_19:42:36 ,[0.001]    ,   600.915 , 792.738',
    '   20 ,04.29_20:19:51 ,[0.001]    ,   595.852 , 785.399',
    '   21 ,04.29_20:57:06 ,[0.001]    ,   596.054 , 781.927',
    '   22 ,04.29_21:34:20 ,[0.001]    ,   594.111 , 781.308',
    '   23 ,04.29_22:11:35 ,[0.001]    ,   595.1   , 776.926',
    '   24 ,04.29_22:48:50 ,[0.001]    ,   590.087 , 782.814',
]
# MouseLand/cellpose issue #450 (https://github.com/MouseLand/cellpose/issues/450), JunMa11, 2022-02-22: a line
# every 10 epochs with the run's clock so far (``Time T s``), 18,955 s between epochs 10 and 20.
CELLPOSE = [
    '2022-02-18 00:38:30,706 [INFO] Epoch 5, Time 4981.4s, Loss 0.5731, LR 0.1111',
    '2022-02-18 01:46:44,126 [INFO] Epoch 10, Time 9074.8s, Loss 0.5035, LR 0.2000',
    '2022-02-18 07:02:39,069 [INFO] Epoch 20, Time 28029.8s, Loss 0.4754, LR 0.2000',
    '2022-02-18 09:17:43,068 [INFO] Epoch 30, Time 36133.8s, Loss 0.4614, LR 0.2000',
    '2022-02-18 11:33:53,086 [INFO] Epoch 40, Time 44303.8s, Loss 0.4555, LR 0.2000',
    '2022-02-18 13:50:18,865 [INFO] Epoch 50, Time 52489.6s, Loss 0.4517, LR 0.2000',
    '2022-02-18 16:07:27,867 [INFO] Epoch 60, Time 60718.6s, Loss 0.4492, LR 0.2000',
    '2022-02-18 18:24:40,832 [INFO] Epoch 70, Time 68951.5s, Loss 0.4469, LR 0.2000',
    '2022-02-18 20:38:58,425 [INFO] Epoch 80, Time 77009.1s, Loss 0.4453, LR 0.2000',
    '2022-02-18 22:53:14,748 [INFO] Epoch 90, Time 85065.4s, Loss 0.4434, LR 0.2000',
    '2022-02-19 01:07:37,048 [INFO] Epoch 100, Time 93127.7s, Loss 0.4425, LR 0.2000',
    '2022-02-19 03:21:51,037 [INFO] Epoch 110, Time 101181.7s, Loss 0.4417, LR 0.2000',
]
# ml-explore/mlx-examples issue #724 (https://github.com/ml-explore/mlx-examples/issues/724), mzbac, 2024-04-28: an
# MLX-LM LoRA run's reports every 10 iterations.
MLX_724 = [
    'Trainable parameters: 4.178% (335.544M/8030.261M)',
    'Loading datasets',
    'Training',
    'Starting training..., iters: 113000',
    'Iter 1: Val loss 1.343, Val took 29.293s',
    'Iter 10: Train loss 0.986, Learning Rate 1.000e-06, It/sec 0.381, Tokens/sec 174.114, Trained Tokens 4568, Peak mem 28.349 GB',
    'Iter 20: Train loss 0.490, Learning Rate 1.000e-06, It/sec 0.368, Tokens/sec 144.697, Trained Tokens 8495, Peak mem 29.992 GB',
    'Iter 30: Train loss 0.637, Learning Rate 1.000e-06, It/sec 0.262, Tokens/sec 164.795, Trained Tokens 14794, Peak mem 45.742 GB',
    'Iter 40: Train loss 0.586, Learning Rate 1.000e-06, It/sec 0.218, Tokens/sec 171.634, Trained Tokens 22678, Peak mem 45.742 GB',
    'Iter 50: Train loss 0.554, Learning Rate 1.000e-06, It/sec 0.276, Tokens/sec 157.820, Trained Tokens 28397, Peak mem 45.742 GB',
    'Iter 60: Train loss 0.496, Learning Rate 1.000e-06, It/sec 0.260, Tokens/sec 159.653, Trained Tokens 34543, Peak mem 45.742 GB',
    'Iter 70: Train loss 0.509, Learning Rate 1.000e-06, It/sec 0.275, Tokens/sec 163.460, Trained Tokens 40495, Peak mem 45.742 GB',
]


@pytest.mark.parametrize(
    ("lines", "steps_per_hour", "step_seconds", "shown"),
    [
        # The last row took 22:11:35 -> 22:48:50, 2,235 s; the window's 1,200 s hold 1,200/2,235 of its epoch:
        # 1.611 epochs/h, 2,235 s (37 min) an epoch; never 42 min, the restart averaged in.
        (DYSPN, 3600 / 2235, 2235.0, "epoch 37 min (measured from the lines' times)"),
        # The last line's 10 epochs took 01:07:37.048 -> 03:21:51.037, 8,053.989 s: 4.470 epochs/h, 805.4 s
        # (13 min) an epoch; never 19 min.
        (CELLPOSE, 36000 / 8053.989, 805.4, "epoch 13 min (measured from the lines' times)"),
    ],
    ids=["dyspn-restart", "cellpose-clock"],
)
def test_real_logs_step_time_is_the_rate_s_own(
    tmp_path: Path, lines: list[str], steps_per_hour: float, step_seconds: float, shown: str
) -> None:
    data = read(tmp_path, lines)
    assert data["training"]["steps_per_hour"] == pytest.approx(steps_per_hour, rel=1e-4)
    assert data["training"]["step_seconds"] == pytest.approx(step_seconds, rel=1e-4)
    assert shown in data["details"]


def test_mlx_examples_724_tokens_an_hour_follow_its_tokens_a_second(tmp_path: Path) -> None:
    """Iter 10 counts as its last iteration (1/0.381 s at 174.114 tok/s: 457 tokens); iters 20 to 70 add
    40,495 - 4,568 = 35,927 tokens in the sum of each report's tokens over its Tokens/sec (222.44 s): 36,384
    tokens and 61 iterations in 225.07 s, 582.0k tok/h (between the printed 520.9k and 626.8k) and 975.7
    steps/h; never 638k, above every Tokens/sec printed."""
    data = read(tmp_path, MLX_724)
    training = data["training"]
    assert training["tokens_per_hour"] == pytest.approx(581_967, rel=1e-4)
    assert training["steps_per_hour"] == pytest.approx(975.70, rel=1e-4)
    assert 144.697 * 3600 <= training["tokens_per_hour"] <= 174.114 * 3600
