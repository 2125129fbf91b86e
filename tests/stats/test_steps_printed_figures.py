"""Figures printed beside a step under their own names are shown as printed, in the details' groups; a step time
worked out from the trainer's clock says so; an epoch's printed time is no "no time read".

Composed logs in the shapes of real ones (each named below) and real excerpts (tests/data/real, each file's source in
its header), their answers worked out here by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.stats.events import TrainStep
from app.stats.steps.stage import RunFacts, Stage
from app.stats.steps.text import figure_lines, speed_parts
from tests.coldread import read_cold
from tests.reallogs import body
from tests.stats.test_steps_evidence import read_at


def test_memory_and_unitless_times_show_under_their_printed_names_and_units() -> None:
    """``max_mem: 2372M`` (a YOLO row) is kept as ``memory/max_mem M``; vietocr's ``gpu time: 38.92`` as
    ``time/gpu time``: each shown as printed, the unit only where one was printed."""
    figures = {"memory/max_mem M": 2372.0, "memory/max mem": 8738.0, "time/gpu time": 38.92}
    assert figure_lines(figures) == [
        "Memory max_mem 2372 M · max mem 8738 (as printed)",
        "Times gpu time 38.92 (as printed, unit not printed)",
    ]
    # mmdet's ``memory: 4090`` (no unit printed): the group's name is its name.
    assert figure_lines({"memory/memory": 4090.0}) == ["Memory 4090 (as printed)"]


def test_a_metric_logger_s_max_mem_is_in_the_details(tmp_path: Path) -> None:
    """LaBraM #4's BEiT MetricLogger prints ``max mem: 8738`` (no unit) at the end of each line; the latest is shown:
    8740 here, the third line's."""
    lines = [f"Epoch: [0]  [{n}/100]  eta: 0:00:18  lr: 0.000100  loss: {loss} (2.0000)  time: 0.2000  data: 0.0001  "
             f"max mem: {mem}" for n, loss, mem in ((10, "2.0000", 8738), (20, "1.9000", 8738), (30, "1.8000", 8740))]
    data = read_at(tmp_path, lines)
    assert "Memory max mem 8740 (as printed)" in data["details"]


def test_styletts2_s_clock_under_each_step_gives_a_step_time_said_to_be_worked_out(tmp_path: Path) -> None:
    """StyleTTS2 #167 prints ``Time elasped: 196.28`` on the line after each step line, never a step's time. Here the
    clock reads 100 s at step 10 and 145 s at step 30 (step 40's clock not printed yet): 45 s over 20 steps, 2.25 s a
    step, worked out, never "as printed"."""
    lines = []
    for step, loss, clock in ((10, "0.50000", "100.0"), (20, "0.49000", "125.0"), (30, "0.48000", "145.0"),
                              (40, "0.47000", None)):
        lines.append(f"Epoch [1/75], Step [{step}/400], Loss: {loss}, Disc Loss: 3.00000")
        if clock is not None:
            lines.append(f"Time elasped: {clock}")
    data = read_at(tmp_path, lines)
    details = data["details"]
    assert "step 2.25 s (worked out: the trainer's clock, 45.00 s over 20 steps)" in details
    assert not any("as printed" in line and "2.25" in line for line in details)
    # (the snapshot carries the same figure, said the same way)
    assert data["training"]["step_seconds"] == pytest.approx(2.25)
    assert data["training"]["step_seconds_note"] == "worked out: the trainer's clock, 45.00 s over 20 steps"


def test_a_clock_that_goes_back_starts_its_span_again() -> None:
    """A restart's clock from 0 again: only the span since then counts (10 s over 10 steps, 1 s a step)."""
    stage = Stage(name="train", latest=TrainStep(at=None, stage="train", step=10), step_time=None)
    for step, clock in ((10, 100.0), (20, 300.0), (5, 2.0), (15, 12.0)):
        stage.note_clock(step, clock)
    assert speed_parts(stage, RunFacts()) == ["step 1.00 s (worked out: the trainer's clock, 10.00 s over 10 steps)"]


def test_a_clock_of_whole_seconds_that_has_not_moved_times_no_step(tmp_path: Path) -> None:
    """Composed in Lightning's non-terminal bars (SageMaker's capture): two epochs of 2 batches within the bar's first
    second, ``[00:00<…``. The clock's 0 s over the steps says they took under a second, not 0 ms: no step time is
    worked out from it, and no 0 ms is measured."""
    lines = ["Epoch 0:  50% 1/2 [00:00<00:00,  6.54it/s, loss=2.29]",
             "Epoch 0: 100% 2/2 [00:00<00:00, 12.05it/s, loss=2.29]",
             "Epoch 1:   0% 0/2 [00:00<?, ?it/s, loss=2.29]"]
    details = read_at(tmp_path, lines)["details"]
    assert not any(" 0 ms" in line for line in details), details
    stage = Stage(name="train", latest=TrainStep(at=None, stage="train", step=2), step_time=None)
    for step, clock in ((1, 0.0), (2, 0.0)):
        stage.note_clock(step, clock)
    assert speed_parts(stage, RunFacts()) == []


def test_an_epoch_s_time_holds_the_evaluation_after_it_where_every_epoch_has_one(tmp_path: Path) -> None:
    """Composed in the end-to-end ASR trainer's dated shape (gentaiscool/end2end-asr-pytorch): an epoch a line, each
    followed by its validation. Epoch 1's line at 10:00:00, its validation, then epoch 2's at 12:00:00: 7,200 s, an
    epoch's time with its evaluation in it, said so (the rate, which leaves that pause out, has no stretch yet)."""
    lines = ["2024-01-01 10:00:00,000 - (Epoch 1) TRAIN LOSS:0.5000 LR:0.0001",
             "2024-01-01 10:00:00,050 - VALID",
             "2024-01-01 10:01:00,000 - VALID SET 0 LOSS:0.4000",
             "2024-01-01 10:01:00,500 - TRAIN",
             "2024-01-01 12:00:00,000 - (Epoch 2) TRAIN LOSS:0.4500 LR:0.0001"]
    details = read_cold(tmp_path, lines, name="run.log", dated=True)["details"]
    assert "epoch 2 h 00 min (from the lines' times, its evaluation included)" in details, details
    # no evaluation between them: no such time (the wait is no epoch's)
    quiet = [line for line in lines if "VALID" not in line]
    details = read_cold(tmp_path, quiet, name="quiet.log", dated=True)["details"]
    assert not any("its evaluation included" in line for line in details), details


def test_an_epoch_s_printed_time_is_no_log_without_time(tmp_path: Path) -> None:
    """DGL's GraphSAGE example (SijingYu/GraphSAGE_MultiGPU, loss.md): two step lines an epoch, each epoch's
    ``Epoch Time(s):`` after its last, then ``Avg epoch time``. No step's time is printed: the rate line says the
    epoch's time is, and the epoch's last printed time (7.1155 s) shows as printed."""
    lines = []
    for epoch, seconds in enumerate(("8.7072", "7.2513", "7.1966", "7.1390", "7.1155")):
        for step, loss in ((0, 2.0 - epoch / 10), (20, 1.9 - epoch / 10)):
            lines.append(f"Epoch {epoch:05d} | Step {step:05d} | Loss {loss:.4f} | Train Acc 0.5000 | "
                         f"Speed (samples/sec) 43000.0000 | GPU 401.2 MB")
        lines.append(f"Epoch Time(s): {seconds}")
    lines.append("Avg epoch time: 7.4819")
    details = read_at(tmp_path, lines)["details"]
    assert "no rate: each epoch's time printed, no step's, for its 10 step lines" in details
    assert not any("no duration or time read" in line for line in details)
    assert any("epoch 7.12 s (as printed)" in line for line in details)


def test_a_closing_bar_s_rate_is_kept_when_the_next_bar_has_none_before_a_crash(tmp_path: Path) -> None:
    """PyTorch-YOLOv3 #650: epoch 13's bar closes at ``101/101 [01:54<00:00,  1.14s/it]``, epoch 14's opens at
    ``0/101 [00:00<?, ?it/s]`` and the DataLoader dies: the step time shown is the closing bar's, said where it was
    printed."""
    lines = ["Training Epoch 13: 100% 101/101 [01:54<00:00,  1.14s/it]", "---- mAP 0.9235236715367303",
             "Training Epoch 14:   0% 0/101 [00:00<?, ?it/s]", "Traceback (most recent call last):",
             '  File "train.py", line 1, in <module>',
             "RuntimeError: DataLoader worker (pid 2256) is killed by signal: Aborted. "]
    details = read_at(tmp_path, lines)["details"]
    assert "step 1.14 s (as printed at epoch 13)" in details


def test_a_header_s_later_epoch_is_the_data_epoch_beside_a_run_s_count(tmp_path: Path) -> None:
    """kohya sd-scripts #2137: one bar over the run's 3280 steps, ``epoch N/80`` headers between its lines. After the
    bar at step 82 (epoch 2, its header above it) the header ``epoch 3/80``: the run is in epoch 3 now, still at step
    82 of 3280."""
    lines = ["epoch 1/80", "steps:   1%|▋      | 41/3280 [00:50<1:06:54,  1.24s/it, avr_loss=0.1]",
             "epoch 2/80", "steps:   2%|█▍     | 82/3280 [01:40<1:05:00,  1.22s/it, avr_loss=0.1]", "epoch 3/80"]
    data = read_at(tmp_path, lines)
    assert "Data epoch 3/80" in data["details"]  # (of the same run's epochs, as its header printed)
    assert data["training"]["data"]["epoch"] == 3  # the page's figures say what the details say
    assert "Stage train · step 82/3280 (2.5%)" in data["details"]


# --- real excerpts (tests/data/real, each file's source in its header) -------------------------------------------


def test_mlx_s_peak_memory_and_yolo_s_gpu_mem_show_as_printed(tmp_path: Path) -> None:
    """MLX-LM PR #330's last report ends ``Peak mem 10.588 GB``; ultralytics #21765's epoch-22 row prints ``9.87G``
    under ``GPU_mem``: both shown with their printed names and units."""
    mlx = read_at(tmp_path, body("generic-mlx-lm-pr330-cuda-backend.log"))["details"]
    assert "Memory Peak mem 10.588 GB (as printed)" in mlx
    yolo = read_at(tmp_path, body("generic-ultralytics-issue21765-yolo-epoch-22-of-55-negative-box-loss-9min-epochs.log"))
    assert "Memory GPU_mem 9.87 G (as printed)" in yolo["details"]


def test_chainer_s_elapsed_time_column_gives_a_step_time_worked_out(tmp_path: Path) -> None:
    """ESPnet PR #1138 (Chainer's PrintReport): ``elapsed_time`` 113.983 s at iteration 100 and 152.658 s at 200, 300's
    cut off: 38.675 s over 100 iterations, 387 ms an iteration, worked out from the clock."""
    details = read_at(tmp_path, body(
        "chainer-espnet-pr1138-asr-train-printreport-iterations-100-to-300-progressbar-escapes.log"))["details"]
    assert "step 387 ms (worked out: the trainer's clock, 38.67 s over 100 steps)" in details


def test_keras_s_last_printed_step_time_is_kept_under_a_bar_that_prints_only_its_eta(tmp_path: Path) -> None:
    """Keras PR #8169: epoch 2 closes at ``77us/step``, epoch 3's bar mid-way prints only ``ETA: 2s``: the step time
    shown is epoch 2's, as printed there."""
    details = read_at(tmp_path, body("generic-keras-pr8169-epoch-of-12-samples-bar-mid-epoch-eta.log"))["details"]
    assert "step 0.077 ms (as printed at epoch 2 of 12)" in details


# MST #7 (https://github.com/caiyuanhao1998/MST/issues/7), the authors' training log: each epoch's line, as printed.
MST = [
    "2022-07-20 12:39:08,576 - INFO: ===> Epoch 136: testing psnr = 34.21, ssim = 0.936, time: 0.02",
    "2022-07-20 12:50:07,866 - INFO: ===> Epoch 137 Complete: Avg. Loss: 0.014780 time: 659.29",
    "2022-07-20 12:50:08,380 - INFO: ===> Epoch 137: testing psnr = 34.29, ssim = 0.936, time: 0.03",
    "2022-07-20 13:01:06,319 - INFO: ===> Epoch 138 Complete: Avg. Loss: 0.014816 time: 657.94",
]


def test_a_bare_time_alone_says_it_was_printed_beside_a_step_and_no_unit(tmp_path: Path) -> None:
    """MST prints ``time: 657.94`` on each epoch's line and no unit: the dates from epoch 137's line (12:50:07.866) to
    epoch 138's (13:01:06.319), 658.45 s for one epoch, say it is that epoch's seconds (interval_times.bare_time_reading):
    the epoch's time as printed, no figure apart. Alone, with no record before it dated, it stays a figure as printed."""
    details = read_at(tmp_path, MST)["details"]
    assert "epoch 11 min (time as printed, in seconds as the log's dates show)" in details
    assert not any(line.startswith("Times time") for line in details)
    alone = read_at(tmp_path, MST[-1:])["details"]
    assert "Times time 657.94 (printed beside a step, unit not printed)" in alone
    # (with another time beside it, the group is as printed: neither is said to be the step's)
    assert figure_lines({"time/time": 657.94, "time/gpu time": 38.92}) == [
        "Times time 657.94 · gpu time 38.92 (as printed, unit not printed)"]
