"""Figures of a recognised step log that read wrong until the log's own shape said what they are: a time printed
for the interval between records, ``tag value step`` scalars, an epoch said as it begins with the run's epochs and an
epoch's batch count, an older YOLO's row with no header, a tqdm description's epoch and loss, the dying run's bar
flushed after its traceback, a hand-drawn bar and its evaluation's ruled table. Composed lines in those shapes (each
cited), the answers worked out by hand."""

from __future__ import annotations

import math

import pytest

from app.ingest.formats import create_parser
from app.ingest.formats.drawn_bars import epoch_header
from app.ingest.formats.generic import GenericParser
from app.ingest.formats.interval_times import (
    UNITLESS_NOTE,
    day_gap,
    day_seconds,
    per_step_seconds,
    unitless_agrees,
)
from app.ingest.formats.tagged_scalars import TaggedScalars
from app.ingest.formats.yolo_rows import cut_row_columns, headerless_columns, whole_class_header
from app.stats.events import EvalResult, RunCrashed, StepFigures, TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


# --- a time printed for the interval since the line before ----------------------------------------------------------

def test_a_unitless_step_time_agrees_with_the_dates_within_an_order_of_magnitude() -> None:
    assert unitless_agrees(0.02, 10, 0.2)  # 10 steps in 0.2 s: 0.02 s each
    assert unitless_agrees(0.02, 10, 1.9)  # 0.19 s each: 9.5 times, within
    assert not unitless_agrees(0.02, 10, 2.1)  # 0.21 s each: 10.5 times
    assert not unitless_agrees(58.1, 1, 0.077)  # milliseconds printed with no unit: 755 times the dates' seconds
    assert not unitless_agrees(0.02, 0, 0.2) and not unitless_agrees(0.02, 10, 0.0)  # no steps, or one date for both


# ``[<date>][I][trainer:850] step=N loss=… dt=… dtf=… dtb=…``: ezpz's and wordplay's records (composed figures)
_DATED = "[2026-03-02 10:{}][I][train:12] step={} loss={} dt={} dtf=0.004 dtb=0.011"


def test_a_unitless_dt_is_the_step_s_seconds_once_the_dates_confirm_it() -> None:
    got = steps([_DATED.format("00:00,000000", 10, 3.5, 0.0501),
                 _DATED.format("00:00,500000", 20, 3.4, 0.0498),  # 0.5 s over 10 steps: 0.05 s each, dt agrees
                 "[2026-03-02 10:00:01,000000][I][train:40] Saving checkpoint to: out/ckpt",
                 _DATED.format("00:09,000000", 30, 3.3, 0.0512)])  # 8.5 s over 10 steps: the save's, not the step's
    # step 10: no date before it, no unit confirmed; step 20 and 30: as printed (0.0512, not 0.85 from the dates)
    assert [(s.step, s.step_seconds, s.step_seconds_note) for s in got] == [
        (10, None, None), (20, 0.0498, UNITLESS_NOTE), (30, 0.0512, UNITLESS_NOTE)]


def test_a_unitless_dt_the_dates_contradict_is_no_step_time() -> None:
    # dt=58.1 printed in milliseconds (an older wordplay's): 0.6 s over 10 steps is 0.06 s each, 968 times under 58.1 s
    got = steps([_DATED.format("00:00,000000", 10, 3.5, 58.1), _DATED.format("00:00,600000", 20, 3.4, 60.2)])
    assert [s.step_seconds for s in got] == [None, None]


def test_a_unitless_dt_without_dates_or_a_forward_part_alone_is_no_step_time() -> None:
    assert [s.step_seconds for s in steps(["step=10 loss=3.5 dt=0.05", "step=20 loss=3.4 dt=0.05"])] == [None, None]
    got = steps([("[2026-03-02 10:00:00,000000][I][train:12] step=10 loss=3.5 dtf=0.004 dtb=0.011"),
                 ("[2026-03-02 10:00:00,500000][I][train:12] step=20 loss=3.4 dtf=0.004 dtb=0.011")])
    assert [s.step_seconds for s in got] == [None, None]


def test_a_time_of_day_leading_undated_lines_shows_the_interval_too() -> None:
    # the VerSe issue's lines with their time of day in brackets (``[02:31:56] train iter: 100 …``), which no prefix
    # dates (a bare ``02:31:56:`` is a prefix the reading dates, and the tracker judges the dated times: the real log's
    # case in tests/live/test_real_logs.py): 02:31:56 -> 02:33:59 is 123 s, 123.053 printed
    got = steps([("[02:29:53] train iter: 0 loss_net: 0.9443 loss_scale: 32768.0000 norm: 21.8862 norm_average: 1.0100 "
                 "seconds: 445.463"),
                 ("[02:31:56] train iter: 100 loss_net: nan loss_scale: 785.4200 norm: nan norm_average: 0.8729 "
                 "seconds: 122.871"),
                 ("[02:33:59] train iter: 200 loss_net: nan loss_scale: 1.0000 norm: nan norm_average: 0.5793 "
                 "seconds: 123.053")])
    assert [round(s.step_seconds or 0, 5) for s in got] == [445.463, 1.22871, 1.23053]


@pytest.mark.parametrize("lines", [
    # a step's own time, printed every 100 steps 120 s apart: 1.2 s is no interval's (stays as printed)
    ["10:00:00: iter: 100 loss: 0.9 seconds: 1.2", "10:02:00: iter: 200 loss: 0.8 seconds: 1.2"],
    # one step a line: the time is the step's whatever the clock says
    ["10:00:00: iter: 1 loss: 0.9 seconds: 60.0", "10:01:00: iter: 2 loss: 0.8 seconds: 60.0"],
    # lines written in one burst (a buffered pipe's): the clock says nothing of the steps
    ["10:00:00: iter: 100 loss: 0.9 seconds: 2.0", "10:00:02: iter: 200 loss: 0.8 seconds: 2.0"],
    # dated lines: the tracker judges their printed time against the dates (timing.clock_contradicts)
    ["2024-05-01 10:00:00 iter: 100 loss: 0.9 seconds: 120.0", "2024-05-01 10:02:00 iter: 200 loss: 0.8 seconds: 120.0"],
])  # fmt: skip
def test_a_time_the_dates_do_not_show_to_be_the_interval_s_stays_as_printed(lines: list[str]) -> None:
    last = steps(lines)[-1]
    assert last.step_seconds == float(lines[-1].rsplit(" ", 1)[1]) and last.step_seconds_note is None


def test_a_printed_time_far_above_the_rate_beside_it_is_no_step_s_time() -> None:
    # ``seconds: 123.0`` beside ``it/s: 0.81``: a step takes 1 / 0.81 = 1.235 s, the 123 s is more than 3 steps' time
    got = steps(["iter: 100, loss: 2.5, seconds: 123.0, it/s: 0.81", "iter: 200, loss: 2.4, seconds: 2.0, it/s: 0.81"])
    assert got[0].step_seconds == pytest.approx(1 / 0.81) and got[0].step_seconds_note is not None
    assert (got[1].step_seconds, got[1].step_seconds_note) == (2.0, None)  # within three steps' time: as printed


def test_the_interval_rule_s_arithmetic() -> None:
    assert per_step_seconds(123.053, 100, 123.0) == pytest.approx(1.23053)
    assert per_step_seconds(123.0, 100, 60.0) is None  # twice the gap: another figure
    assert per_step_seconds(123.0, 1, 123.0) is None
    assert day_seconds("02:31:56: train iter: 100") == 9116 and day_seconds("train iter: 100") is None
    assert day_gap(day_seconds("23:59:30: a") or 0, day_seconds("00:01:30: b") or 0) == 120  # across midnight


# --- ``tag value step`` scalars --------------------------------------------------------------------------------------

def test_tag_value_step_lines_of_one_step_are_one_record() -> None:
    # rl-blox's SAC (flax.nnx) prints its TensorBoard scalars: five lines at step 195000 between cleanrl-style returns
    got = steps(["global_step=194999, episodic_return=-455.64290700207636",
                 "losses/q1_loss 51.155754 195000", "losses/q2_loss 52.79265 195000",
                 "losses/policy_loss 53.2737 195000", "losses/alpha [0.01439922] 195000",
                 "losses/alpha_loss 0.0030797184 195000",
                 "global_step=195199, episodic_return=-129.4296429245053"])
    records = [(s.step, s.loss) for s in got]
    assert records == [(194999, None), (195000, 53.2737), (195199, None)]  # the policy's loss is the run's one loss


def test_the_tag_lines_that_end_a_batch_are_their_step_s_record() -> None:
    got = steps(["losses/value_loss 0.25 3000", "losses/policy_loss 0.125 3000"])
    assert [(s.step, s.loss) for s in got] == [(3000, 0.125)]


def test_a_tagged_record_s_names_and_values() -> None:
    held = TaggedScalars()
    assert held.line("train/loss 2.5 10") == (True, None)
    assert held.line("val/loss 2.75 10") == (True, None)
    assert held.line("losses/alpha [0.5] 10") == (True, None)  # an array's print: no figure
    assert held.line("train/loss 2.25 20") == (True, "step: 10 | train_loss: 2.5 | val_loss: 2.75")
    assert held.line("Epoch 3 done") == (False, "step: 20 | train_loss: 2.25")
    assert held.line("loss 2.5 10") == (False, None)  # no path: not a TensorBoard tag


# --- an epoch said as it begins, and the epoch's batch count -------------------------------------------------------

PCCAI = [  # PccAI's (InterDigitalInc/PccAI) ``batch count: N/M`` lines, its epoch summary and its next epoch's banner
    "[2023-03-10 19:57:34,952]     batch count: 280/308, iter: 280, bpp_loss: 0.018800, loss: 0.105480, aux_loss: 523.56",
    "[2023-03-10 19:57:36,863]     batch count: 300/308, iter: 300, bpp_loss: 0.018857, loss: 0.104935, aux_loss: 541.03",
    "[2023-03-10 19:57:37,438] Epoch: 3/3 --- time: 1134.979267, lr: 0.000800, avg_bpp_loss: 0.021141, avg_loss: 0.106102",
    "[2023-03-10 19:57:38,214] Current checkpoint saved to results/train_mdlnet/epoch_3.pth.",
    "[2023-03-10 19:57:38,241] Training at epoch 4 (total 4) with lr 0.0008 and aux_lr 0.005",
    "[2023-03-10 19:57:38,442]     batch count: 0/308, iter: 0, bpp_loss: 0.018429, loss: 0.098760, aux_loss: 546.08",
]


def test_a_batch_count_is_the_epoch_s_and_the_epochs_are_said_around_it() -> None:
    got = steps(PCCAI)
    assert [(s.step, s.total_steps, s.ends_at_total, s.epoch, s.epoch_total, s.loss) for s in got] == [
        (280, 308, False, None, None, 0.10548),  # no epoch said yet
        (300, 308, False, 3.0, 3, 0.104935),  # the summary said its epoch as it ended
        (0, 308, False, 4.0, 4, 0.09876),  # the banner's epoch and the run's epochs
    ]


def test_a_batch_count_without_its_total_is_no_position() -> None:
    assert steps(["batch count: 32, loss: 0.5"]) == []


# --- an older YOLO's row with no header -----------------------------------------------------------------------------

def test_a_yolov3_row_whose_fourth_figure_sums_the_three_before_is_read_under_its_header_s_names() -> None:
    # ultralytics/yolov3's ``%10s %10s %10.3g×6`` row, its header not copied: 3.99 + 0.358 + 0 = 4.348 ~ 4.35
    got = steps([("     0/299     15.8G      3.99     0.358         0      4.35        22       608:  63% 34/54 "
                 "[00:42<00:25,  1.26s/it]")])
    assert [(s.step, s.total_steps, s.epoch, s.loss, s.step_seconds) for s in got] == [(34, 54, 0.0, 4.35, 1.26)]
    assert {"loss/GIoU_loss": 3.99, "loss/obj_loss": 0.358}.items() <= dict(got[0].figures).items()


@pytest.mark.parametrize("row", [
    "     0/299     15.8G      3.99     0.358         0      9.35        22       608:  63% 34/54 [00:42<00:25,  1.26s/it]",
    "     0/299     15.8G      3.99     0.358         0        22       608:  63% 34/54 [00:42<00:25,  1.26s/it]",
])  # fmt: skip
def test_a_row_that_does_not_sum_is_not_given_a_header(row: str) -> None:
    assert headerless_columns(row.strip()) is None and steps([row]) == []


YOLO_HEADER = ["Epoch", "GPU_mem", "box_loss", "cls_loss", "dfl_loss", "Instances", "Size"]


@pytest.mark.parametrize(("header", "whole"), [
    # ultralytics/ultralytics#17862 and #21123, aakashvardhan/s15-yolov9-project's README: cut after R, inside
    # ``mAP50-95`` and after mAP50
    ("Class     Images  Instances      Box(P          R", "Box(P R mAP50 mAP50-95)"),
    ("Class     Images  Instances      Box(P          R      mAP50  m", "Box(P R mAP50 mAP50-95)"),
    ("Class     Images  Instances          P          R      mAP50   ", "P R mAP50 mAP50-95"),
    # earthtoolsmaker/coralreef-conservation's logbook: a segment model's, cut at the mask group's first name
    ("Class     Images  Instances      Box(P          R      mAP50  mAP50-95)     Mask(P",
     "Box(P R mAP50 mAP50-95) Mask(P R mAP50 mAP50-95)"),
    ("Class      Images      Labels           P           R      mAP@.5", "P R mAP@.5 mAP@.5:.95"),  # (YOLOv5's older)
])  # fmt: skip
def test_a_yolo_validation_header_cut_at_the_width_is_completed_in_its_fixed_order(header: str, whole: str) -> None:
    assert whole_class_header(header.split()) == header.split()[:3] + whole.split()


@pytest.mark.parametrize("header", [
    "Class     Images  Instances      Bo",  # (cut before any metric: no group to complete)
    "Class     Images  Instances      Box(P          mAP50",  # (names out of YOLO's order)
    "Class     Images  Instances      Box(P          R      mAP50  mAP50-95)  extra",
    "Class     Count      Box(P          R",  # (not YOLO's counts)
])  # fmt: skip
def test_a_header_not_in_yolo_s_order_is_not_completed(header: str) -> None:
    assert whole_class_header(header.split()) is None


@pytest.mark.parametrize(("row", "names"), [
    # ultralytics/ultralytics#17862: cut before Size; its last cell (127) may be cut in its digits and is left out
    ("1/10       2.8G      1.158       1.23      1.214        127", YOLO_HEADER[:5]),
    ("1/10       2.8G      1.158       1.2", YOLO_HEADER[:3]),
    ("1/10       2.8G      1.158", None),  # (no figure whole)
    ("1/10       2.8       1.158       1.23      1.214        127", None),  # (no memory in G)
    ("1          2.8G      1.158       1.23      1.214        127", None),  # (no epoch of the epochs)
    ("1/10       2.8G      1.158       1.23      1.214        127        640: 100%", None),  # (a whole row)
])  # fmt: skip
def test_a_yolo_training_row_cut_at_the_width_keeps_its_whole_cells(row: str, names: list[str] | None) -> None:
    assert cut_row_columns(YOLO_HEADER, row.split()) == names
    assert cut_row_columns(["epoch", "time", "loss", "acc", "val_loss", "val_acc", "lr"], row.split()) is None


# --- the dying run's bar, flushed after its traceback ---------------------------------------------------------------

YOLO_CRASH = [  # ultralytics/yolov3 (issue 1503's shape): the traceback's end, then the bar Colab printed as it died
    '  File "/usr/local/lib/python3.6/dist-packages/torch/nn/functional.py", line 2540, in binary_cross_entropy',
    "    return torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction_enum)",
    "RuntimeError: CUDA out of memory. Tried to allocate 2.00 MiB (GPU 0; 15.90 GiB total capacity)",
    "     0/299     15.8G      3.99     0.358         0      4.35        22       608:  63% 34/54 [00:42<00:25,  1.26s/it]",
]


def test_a_step_line_right_after_the_error_is_the_dying_run_s_last_state() -> None:
    events = create_parser("generic").feed(YOLO_CRASH)
    order = [(type(e).__name__, getattr(e, "step", None)) for e in events if isinstance(e, (TrainStep, RunCrashed))]
    assert order == [("TrainStep", 34), ("RunCrashed", None)]  # before the crash: the crash stays the state


def test_a_step_line_after_a_line_between_is_training_again() -> None:
    events = create_parser("generic").feed([*YOLO_CRASH[:3], "Restarting with batch size 8", YOLO_CRASH[3]])
    order = [type(e).__name__ for e in events if isinstance(e, (TrainStep, RunCrashed))]
    assert order == ["RunCrashed", "TrainStep"]


# --- a tqdm description's epoch, step and loss ----------------------------------------------------------------------

TRACE = [  # a DeepSpeed-Chat-style loop (BeyonderXX/TRACE): one bar of the run, the epoch's start glued after a bar
    "***** Running training *****",
    "  0%|          | 0/144 [00:00<?, ?it/s]Beginning of Epoch 1/18, Total Micro Batches 8",
    "  1%|          | 1/144 [00:01<02:35,  1.09s/it]",
    "Epoch 1, Step 0, Loss: 0.9741:   1%|▏         | 2/144 [00:02<02:20,  1.01it/s]",
    ("Epoch 1, Step 6, Loss: 1.2240:   6%|▌         | 8/144 [00:12<03:45,  1.66s/it]Beginning of Epoch 2/18, Total "
    "Micro Batches 8"),
    "Epoch 1, Step 7, Loss: 0.9610:   6%|▋         | 9/144 [00:13<03:00,  1.33s/it]",
    "Epoch 2, Step 5, Loss: 1.1681:  10%|█         | 15/144 [00:23<03:58,  1.85s/it]",
]


def test_a_bar_s_description_gives_its_loss_and_epoch_and_the_banner_the_epochs() -> None:
    got = [e for e in create_parser("hf-trainer").feed(TRACE) if isinstance(e, TrainStep)]
    last = got[-1]
    assert (last.step, last.total_steps, last.loss, last.epoch, last.epoch_total) == (15, 144, 1.1681, 2.0, 18)
    assert (last.epoch_batch, last.epoch_batches) == (5, 8)
    assert [(s.step, s.loss, s.epoch) for s in got[1:3]] == [(2, 0.9741, 1.0), (8, 1.224, 1.0)]


# --- a hand-drawn bar under its epoch's header, and a ruled table of scores -----------------------------------------

GLPDEPTH = [  # vinvino02/GLPDepth's ``utils/logging.py`` bar and its evaluation's table, as its issue 13 shows them
    "Epoch: 010 - 025",
    " [=============================>]  St 6057/6057  Tot: 41m50s | Rem: 10h28s | Depth Loss: 0.1365 (0.0447)9)",
    " [=========== 654/654 =========>]  Step: 052ms | Tot: 35s649ms | Rem: 08m34s",
    "",
    "=" * 100,
    "        d1         d2         d3    abs_rel",
    "    0.6693     0.9548     0.9930     0.2220 ",
    "=" * 100,
    "Epoch: 011 - 025",
    " [============================ 6057/6057 404ms | Tot: 40m47s | Rem: 9h31m | Depth Loss: nan (nan)n))n)31)2)",
    "WARNING:root:NaN or Inf found in input tensor.",
]


def test_a_drawn_bar_is_its_epoch_s_batches_with_its_loss_and_time() -> None:
    events = GenericParser().feed(GLPDEPTH)
    got = [e for e in events if isinstance(e, TrainStep)]
    # epoch 10: 41 min 50 s so far (2,510 s); epoch 11: 404 ms a step as drawn, the loss nan; no ``Rem``, no ``9)``
    assert [(s.step, s.ends_at_total, s.epoch, s.epoch_total, s.elapsed_seconds, s.trainer_eta_seconds) for s in got] \
        == [(6057, False, 10.0, 25, 2510.0, None), (6057, False, 11.0, 25, 2447.0, None)]
    assert got[0].loss == 0.1365 and got[1].step_seconds == 0.404 and got[1].loss != got[1].loss  # nan
    scores = {(e.name, e.value) for e in events if isinstance(e, EvalResult)}
    assert scores == {("d1", 0.6693), ("d2", 0.9548), ("d3", 0.993), ("abs_rel", 0.222)}


def test_a_header_without_its_rule_or_a_row_that_does_not_fit_is_no_table() -> None:
    assert [e for e in GenericParser().feed(GLPDEPTH[5:7]) if isinstance(e, EvalResult)] == []  # no rule above
    table = ["=" * 40, "d1 d2 d3 abs_rel", "0.6693 0.9548 0.9930"]  # a figure short
    assert [e for e in GenericParser().feed(table) if isinstance(e, EvalResult)] == []


def test_an_epoch_header_s_two_numbers_must_read_as_one_of_the_other() -> None:
    assert epoch_header("Epoch: 010 - 025") == (10, 25)
    assert epoch_header("Epoch: 10 - 025") is None and epoch_header("Epoch: 030 - 025") is None


# --- a classifier's validation table, a trainer's ``Epoch #N`` bar and its test reward, a bar with no rate ----------

def test_a_classifier_s_all_row_is_its_top1_and_top5_accuracy() -> None:
    # ultralytics' classify validation prints ``classes  top1_acc  top5_acc`` over its ``all`` row (composed figures)
    events = GenericParser().feed([
        "      Epoch    GPU_mem       loss  Instances       Size",
        "        4/10     0.512G     0.2500         16        224: 100%|██████████| 8/8 [00:02<00:00,  4.00it/s]",
        "               classes   top1_acc   top5_acc: 100%|██████████| 2/2 [00:00<00:00, 20.00it/s]",
        "                   all       0.75      0.875",
    ])
    assert {(e.name, e.value) for e in events if isinstance(e, EvalResult)} == {("top1_acc", 0.75), ("top5_acc", 0.875)}


def test_an_epoch_numbered_with_a_hash_names_its_bar_s_epoch_and_its_test_reward_is_its_score() -> None:
    # tianshou's trainer: ``Epoch #N: Mit [elapsed, rate, env_step=…, loss=…]`` then ``Epoch #N: test_reward: m ± s``
    events = GenericParser().feed([
        "Epoch #2: 1001it [00:04, 250.25it/s, env_step=2000, len=50, loss=0.250, n/ep=4, rew=50.00]",
        "Epoch #2: test_reward: 75.500000 ± 3.250000, best_reward: 80.000000 ± 0.000000 in #1",
    ])
    step = next(e for e in events if isinstance(e, TrainStep))
    assert (step.step, step.epoch, step.loss, dict(step.figures).get("total/timesteps")) == (1001, 2.0, 0.25, 2000.0)
    assert [(e.name, e.value) for e in events if isinstance(e, EvalResult)] == [("test_reward", 75.5)]


def test_a_bar_that_prints_its_elapsed_time_alone_gives_its_mean_step() -> None:
    # YOLOv5's bar format ``{l_bar}{bar:10}| {n_fmt}/{total_fmt} {elapsed}``: 10:00 over 1500 batches is 0.4 s each
    got = steps(["      Epoch    GPU_mem   box_loss   obj_loss   cls_loss  Instances       Size",
                 ("        3/9      10.2G    0.05000    0.04000    0.01000        120        640: 100%|██████████| "
                 "1500/1500 10:00")])
    assert [(s.step, s.total_steps, s.epoch, s.step_seconds, s.step_seconds_note) for s in got] == [
        (1500, None, 3.0, 0.4, "the bar's elapsed time over its count")]


def test_tensorflow_s_model_diverged_message_is_a_nan_loss_after_the_last_step() -> None:
    # tf.estimator's NanTensorHook: ``ERROR:tensorflow:Model diverged with loss = NaN.`` after its ``loss = …, step = …``
    events = GenericParser().feed(["INFO:tensorflow:loss = 2.5, step = 1200 (30.000 sec)",
                                   "ERROR:tensorflow:Model diverged with loss = NaN."])
    figures = [e for e in events if isinstance(e, StepFigures)]
    assert len(figures) == 1 and math.isnan(figures[0].loss or 0.0)
    assert not [e for e in GenericParser().feed(["ERROR:tensorflow:Model diverged with loss = NaN."])
                if isinstance(e, StepFigures)]  # (no step before it: nothing diverged that tokwatch saw train)


def test_keras_s_epoch_line_after_a_full_bar_that_named_none_says_the_bar_was_the_epoch_before() -> None:
    # Keras' ``fit``: a log that begins at epoch 1's closing bar, then ``Epoch 2/30`` and epoch 2's bar
    events = GenericParser().feed(["120/120 [==============================] - 600s 5s/step - loss: 3.5000 - val_loss: 2.2500",
                                   "Epoch 2/30",
                                   " 60/120 [==============>...............] - ETA: 5:00 - loss: 3.0000"])
    got = [(s.step, s.epoch, s.epoch_total, s.per_pass, s.step_seconds) for s in events if isinstance(s, TrainStep)]
    assert got == [(120, 1.0, 30, False, 5.0), (60, 2.0, 30, False, None)]


def test_paddledetection_s_epoch_and_iteration_brackets_apart_and_its_batch_cost() -> None:
    # PaddleDetection's callbacks: ``Epoch: [E] [n/N] learning_rate: … loss: … batch_cost: s data_cost: s`` (composed)
    got = steps([("[02/04 10:00:00] ppdet.engine.callbacks INFO: Epoch: [3] [100/500] learning_rate: 0.000100 "
                 "loss: 2.500000 batch_cost: 0.2500 data_cost: 0.0050 ips: 64.0000 images/s")])
    assert [(s.step, s.total_steps, s.ends_at_total, s.epoch, s.loss, s.step_seconds) for s in got] == [
        (100, 500, False, 3.0, 2.5, 0.25)]


def test_a_validation_s_all_row_printed_after_the_next_training_header_is_still_its_evaluation() -> None:
    # YOLOv7: the ``Class … mAP@.5  mAP@.5:.95`` bar on stderr, the next epoch's header on stdout, then the ``all`` row
    events = GenericParser().feed([
        "     Epoch   gpu_mem       box       obj       cls     total    labels  img_size",
        ("     5/99     10.0G   0.05000   0.01000   0.03000   0.09000        20       640: 100%|██████████| 100/100 "
        "[01:40<00:00,  1.00s/it]"),
        ("               Class      Images      Labels           P           R      mAP@.5  mAP@.5:.95: 100%|██████████| "
        "10/10 [00:10<00:00,  1.00s/it]"),
        "",
        "     Epoch   gpu_mem       box       obj       cls     total    labels  img_size",
        "                 all         500        1000       0.500      0.2500      0.1250     0.06250",
    ])
    assert {(e.name, e.value) for e in events if isinstance(e, EvalResult)} == {
        ("precision", 0.5), ("recall", 0.25), ("mAP50", 0.125), ("mAP50-95", 0.0625)}


def test_a_keras_step_time_in_whole_seconds_is_the_epoch_s_time_over_its_steps() -> None:
    # ``100/100 [====] - 143s 1s/step``: 1 s a step as rounded, 143 / 100 = 1.43 s by the epoch's own time; a step time
    # printed finer (``71ms/step``) or an epoch under ten seconds (``9s 1s/step``: its rounding says too little) stays
    got = steps(["Epoch 3/10", "100/100 [==============================] - 143s 1s/step - loss: 1.2000",
                 "Epoch 4/10", "100/100 [==============================] - 7s 71ms/step - loss: 1.1000",
                 "Epoch 5/10", "100/100 [==============================] - 9s 1s/step - loss: 1.0000"])
    assert [(s.epoch, s.step_seconds) for s in got] == [(3.0, 1.43), (4.0, 0.071), (5.0, 1.0)]


def test_a_line_after_the_error_that_is_no_bar_is_not_the_dying_run_s_state() -> None:
    # a step record (no bar) printed after the error: another run's, or a later one's; the crash comes first
    events = create_parser("generic").feed([*YOLO_CRASH[:3], "iter: 10, loss: 2.5000, lr: 0.001"])
    order = [type(e).__name__ for e in events if isinstance(e, (TrainStep, RunCrashed))]
    assert order == ["RunCrashed", "TrainStep"]
