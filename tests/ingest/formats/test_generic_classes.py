"""Figures no rule names, read beside a recognised step by the class their printed names fall in.

Real excerpts are quoted whole from the logs their comments cite (each the trainer's own lines, as the issue or file
printed them); the composed ones' answers are worked out by hand beside them.
"""

from __future__ import annotations

import pytest

from app.ingest.formats.classes import Kin, Named, beside, kin_of, planned_epochs, tied
from app.ingest.formats.detect import detect
from app.ingest.formats.endings import ending
from app.ingest.formats.generic import GenericParser
from app.stats.events import EvalResult, Event, TrainStep


def feed(lines: list[str]) -> list[Event]:
    return GenericParser().feed(lines)


def steps(events: list[Event]) -> list[TrainStep]:
    return [e for e in events if isinstance(e, TrainStep)]


def evals(events: list[Event]) -> list[tuple[str, float, int | None]]:
    return [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult) and e.value is not None]


# yl4579/StyleTTS2 issue #167: each step line, then the run's clock on a line of its own (``elasped`` sic).
STYLETTS2 = [
    ("Epoch [1/75], Step [110/464], Loss: 0.31109, Disc Loss: 3.86298, Dur Loss: 0.44024, CE Loss: 0.01998, Norm Loss:"
    " 0.78650, F0 Loss: 1.53839, LM Loss: 1.08086, Gen Loss: 6.44362, Sty Loss: 0.06960, Diff Loss: 0.84415, DiscLM"
    " Loss: 0.00000, GenLM Loss: 0.00000, SLoss: 0.00000, S2S Loss: 0.45653, Mono Loss: 0.04269"),
    "Time elasped: 196.28440475463867",
    ("Epoch [1/75], Step [120/464], Loss: 0.29428, Disc Loss: 3.88001, Dur Loss: 0.55192, CE Loss: 0.02498, Norm Loss:"
    " 0.78889, F0 Loss: 1.59587, LM Loss: 1.21582, Gen Loss: 6.79740, Sty Loss: 0.08331, Diff Loss: 0.60110, DiscLM"
    " Loss: 0.00000, GenLM Loss: 0.00000, SLoss: 0.00000, S2S Loss: 0.37315, Mono Loss: 0.13359"),
    "Time elasped: 218.4282636642456",
]

# SijingYu/GraphSAGE_MultiGPU, file loss.md (commit d1da384): DGL's GraphSAGE example, steps counted again each epoch,
# the epoch's time after it, an evaluation every 5 epochs, the run's average epoch time at its end (lines 10-28, 106-110).
GRAPHSAGE = [
    "Epoch 00004 | Step 00000 | Loss 0.6625 | Train Acc 0.8450 | Speed (samples/sec) 44332.6373 | GPU 403.4 MB",
    "Epoch 00004 | Step 00020 | Loss 0.6472 | Train Acc 0.8660 | Speed (samples/sec) 43850.2350 | GPU 403.4 MB",
    "Epoch Time(s): 7.1155",
    "Epoch 00005 | Step 00000 | Loss 0.6332 | Train Acc 0.8610 | Speed (samples/sec) 43519.3360 | GPU 403.4 MB",
    "Epoch 00005 | Step 00020 | Loss 0.5790 | Train Acc 0.8830 | Speed (samples/sec) 43407.1637 | GPU 403.4 MB",
    "Epoch Time(s): 7.0880",
    "Eval Acc 0.9248",
    "Test Acc: 0.9306",
    "Epoch 00006 | Step 00000 | Loss 0.4759 | Train Acc 0.8830 | Speed (samples/sec) 43415.6755 | GPU 467.6 MB",
]

# eriklindernoren/PyTorch-YOLOv3 issue #650: an epoch's closing bar, its evaluation's bars and AP table, then its mAP.
YOLOV3 = [
    "Training Epoch 13: 100% 101/101 [01:54<00:00,  1.14s/it]",
    "",
    "---- Evaluating Model ----",
    "Detecting objects: 100% 13/13 [00:04<00:00,  2.66it/s]",
    "Computing AP: 100% 1/1 [00:00<00:00, 1576.81it/s]",
    "+-------+------------+---------+",
    "| Index | Class name | AP      |",
    "+-------+------------+---------+",
    "| 0     | Box        | 0.92352 |",
    "+-------+------------+---------+",
    "---- mAP 0.9235236715367303",
]

# mlpc-ucsd/TESTR issue #7: detectron2's file log, an eta of days (its ``time`` beside ``data_time``; loss fields cut).
TESTR = (
    "[08/02 12:20:41] d2.utils.events INFO:  eta: 2 days, 12:32:45  iter: 9039  total_loss: 52.050  loss_ce: 0.728"
    "  loss_giou_enc: 0.763  time: 0.5181  data_time: 0.0028  lr: 0.000200  max_mem: 6231M"
)

# hirotomusiker/CLRerNet issue #40: mmdet 2.x says its planned epochs on the runner's line, then its iterations.
CLRERNET = [
    "2024-05-22 21:07:18,021 - mmdet - INFO - workflow: [('train', 1)], max: 15 epochs",
    ("2024-05-22 21:44:11,176 - mmdet - INFO - Epoch [1][100/2321]    lr: 6.000e-04, eta: 8 days, 21:23:42, time: 22.129,"
    " data_time: 0.108, memory: 7316, loss_cls: 1.4577, loss_reg_xytl: 4.2272, loss_iou: 3.1644, loss_seg: 0.7483,"
    " loss: 9.5976"),
]

# hill-a/stable-baselines issue #339: one PPO2 logger table (the paste's ``//`` rules as printed).
SB2 = [
    "//-------------------------------------",
    "| approxkl           | 0.0          |",
    "| fps                | 49           |",
    "| nupdates           | 77746        |",
    "| policy_loss        | 0.0          |",
    "| time_elapsed       | 4.58e+04     |",
    "| total_timesteps    | 1166190      |",
    "| value_loss         | 278.51614    |",
    "//-------------------------------------",
]


def test_a_plain_loss_that_leads_its_parts_is_the_loss() -> None:
    got = steps(feed(STYLETTS2))
    # ``Loss: 0.31109`` first; ``LM Loss: 1.08086`` later on the line is one of its parts
    assert [(s.step, s.epoch, s.loss) for s in got] == [(110, 1.0, 0.31109), (120, 1.0, 0.29428)]


def test_the_run_s_clock_on_the_line_under_a_step_is_that_step_s() -> None:
    got = steps(feed(STYLETTS2))
    # (printed without a unit: Python's time() differences, in seconds; 218.43 - 196.28 = 22.14 s for 10 steps)
    assert [s.elapsed_seconds for s in got] == [196.28440475463867, 218.4282636642456]
    assert got[0].step_seconds is None  # (no step time is made up from them here)


def test_an_evaluation_on_its_own_lines_after_an_epoch_is_that_epoch_s() -> None:
    events = feed(GRAPHSAGE)
    assert evals(events) == [("eval_acc", 0.9248, 20), ("test_acc", 0.9306, 20)]
    got = steps(events)
    # the epoch's time amends its last step, under its name; samples a second beside each step as printed
    assert [dict(s.figures).get("epoch_seconds") for s in got] == [None, 7.1155, None, 7.088, None]
    assert [dict(s.figures)["samples_per_second"] for s in got] == [
        44332.6373, 43850.2350, 43519.3360, 43407.1637, 43415.6755]


def test_steps_that_go_back_as_the_epoch_goes_on_count_the_epoch_s_batches() -> None:
    got = steps(feed(GRAPHSAGE))
    # the first epoch read is not yet known to count its own batches; from the first step back, each line is so read
    assert [(s.step, s.epoch, s.ends_at_total) for s in got] == [
        (0, 4.0, True), (20, 4.0, True), (0, 5.0, False), (20, 5.0, False), (0, 6.0, False)]


def test_a_step_counted_on_across_epochs_stays_the_run_s() -> None:
    # Composed: a global step beside its epoch, never going back: the run's count (each line ends at no total).
    got = steps(feed(["Epoch 1 | Step 100 | Loss 2.0", "Epoch 2 | Step 200 | Loss 1.5", "Epoch 3 | Step 300 | Loss 1.2"]))
    assert [(s.step, s.ends_at_total) for s in got] == [(100, True), (200, True), (300, True)]


def test_a_detector_s_map_after_its_ap_table_is_the_epoch_s_evaluation() -> None:
    assert evals(feed(YOLOV3)) == [("mAP", 0.9235236715367303, 101)]


def test_a_bare_time_beside_the_loader_s_data_time_is_the_iteration_s() -> None:
    (step,) = steps(feed([TESTR]))
    assert (step.step, step.loss, step.step_seconds) == (9039, 52.05, 0.5181)


def test_the_planned_epochs_said_before_the_first_step_are_the_run_s() -> None:
    (step,) = steps(feed(CLRERNET))
    assert (step.epoch, step.epoch_total, step.step, step.total_steps) == (1.0, 15, 100, 2321)


def test_a_logger_table_s_timesteps_are_its_position_and_fps_its_rate() -> None:
    (step,) = steps(feed(SB2))
    figures = dict(step.figures)
    # the run's timesteps its position (its 77746 updates none), fps its rate; its policy's and value function's losses
    # the loss's two parts, neither the loss
    assert (step.step, step.loss, step.step_seconds) == (1166190, None, pytest.approx(1 / 49))
    assert figures == {"loss/policy": 0.0, "loss/value": 278.51614, "rate/fps": 49.0}


def dqn_table(exploring: int, episodes: int, reward: float, steps: int) -> list[str]:
    """A stable-baselines v2 DQN logger table (composed in its rows' words, 38 characters wide)."""
    rows = [("% time spent exploring", exploring), ("episodes", episodes), ("mean 100 episode reward", reward),
            ("steps", steps)]
    return ["-" * 38, *(f"| {name:<23} | {value:<8} |" for name, value in rows), "-" * 38]


def test_an_rl_table_s_episodes_so_far_are_its_total_never_its_step() -> None:
    """v2's DQN prints ``episodes`` (done so far) beside ``steps``: the steps are the position, the episodes a count of
    the run's, shown as such (one table every 100 episodes here: 100, 200, 300 over 1,200, 2,450, 3,600 steps)."""
    events = feed(dqn_table(10, 100, -20.5, 1200) + dqn_table(4, 200, -18.0, 2450) + dqn_table(2, 300, -12.25, 3600))
    step = steps(events)[-1]
    figures = dict(step.figures)
    assert (step.step, figures["total/episodes"], figures["reward"]) == (3600, 300.0, -12.25)


@pytest.mark.parametrize(("name", "kin"), [("episodes", Kin.EPISODES), ("total episodes", Kin.EPISODES),
                                          ("num episodes", Kin.EPISODES), ("episode", None)])
def test_only_a_plural_count_of_episodes_is_the_run_s_episodes(name: str, kin: Kin | None) -> None:
    """``episode: 570`` numbers one episode (a position, if anything): only the plural counts them."""
    assert kin_of(name, None) is kin


@pytest.mark.parametrize(("name", "kin"), [("val acc", Kin.EVAL), ("max val acc", None), ("min val loss", None),
                                          ("min val epoch", None)])
def test_a_running_extreme_is_no_evaluation_s_figure(name: str, kin: Kin | None) -> None:
    """DMRGCN prints ``Min_val_epoch: -1, Min_val_loss: 10000000000.0`` (no minimum yet) after each evaluation: the
    run's extreme so far, not this evaluation's figure."""
    assert kin_of(name, None) is kin


def test_the_dgl_run_s_average_epoch_time_is_its_end() -> None:
    end = ending("Avg epoch time: 7.1649203109741215")
    assert end is not None and end.said and not end.early


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Eval Acc 0.9248", [Named(Kin.EVAL, "eval acc", 0.9248, "Eval Acc")]),
        ("Test Acc: 0.9306", [Named(Kin.EVAL, "test acc", 0.9306, "Test Acc")]),
        ("---- mAP 0.9235", [Named(Kin.EVAL, "map", 0.9235, "mAP")]),
        ("Time elasped: 196.28", [Named(Kin.ELAPSED, "time elasped", 196.28, "Time elasped")]),
        ("elapsed=1500 ms", [Named(Kin.ELAPSED, "elapsed", 1.5, "elapsed")]),
        ("Epoch Time(s): 7.2513", [Named(Kin.EPOCH_TIME, "epoch time", 7.2513, "Epoch Time")]),
        # Composed: two figures of a class on one line, a comma between them
        ("val_acc: 0.91, val_f1: 0.88", [Named(Kin.EVAL, "val acc", 0.91, "val_acc"),
                                         Named(Kin.EVAL, "val f1", 0.88, "val_f1")]),
        # Not tied: a name of no class, an epoch's time with no unit, prose, a training figure, a number with no name
        ("Train Acc 0.9", None),
        ("Epoch Time: 7.25", None),
        ("The test accuracy went up by 3 points", None),
        ("Eval Acc 0.9248 and 12", None),
        ("GPU 401.2 MB", None),
    ],
)
def test_a_tied_line_is_one_of_classed_figures_only(text: str, named: list[Named] | None) -> None:
    assert tied(text) == named


def test_a_tied_line_with_no_step_before_it_is_nothing_but_an_evaluation_s_scores() -> None:
    # (scores alone: the evaluation a paste began with, at no step; a clock alone says nothing)
    assert feed(["Eval Acc 0.9248", "Time elasped: 196.28"]) == [EvalResult(None, "eval_acc", 0.9248, None)]


def test_figures_beside_a_step_are_classed_and_known_names_left_to_the_grammar() -> None:
    # Composed: ``loss`` and ``lr`` are the grammar's; ``fps`` a rate, ``val_acc`` an evaluation's, ``gpu`` nothing.
    got = beside("step: 10 | loss: 2.3 | lr: 0.001 | fps: 49 | val_acc: 0.91 | gpu: 3")
    assert [(n.kin, n.name, n.value) for n in got] == [(Kin.RATE, "fps", 49.0), (Kin.EVAL, "val acc", 0.91)]
    # an evaluation's loss the grammar does not name (a repeat of ``val_loss``) is not read again
    assert beside("iter 62 | loss train: 21.6, val_loss valid: 13.879") == []


def test_an_evaluation_a_step_line_repeats_is_counted_when_it_changes() -> None:
    # Composed: Keras-like epochs with ``val_acc`` beside the losses: 0.8 at epoch 1 and 2, 0.9 at epoch 3.
    events = feed(["Epoch 1 | loss: 0.5 | val_acc: 0.8", "Epoch 2 | loss: 0.4 | val_acc: 0.8",
                   "Epoch 3 | loss: 0.3 | val_acc: 0.9"])
    assert [(s.step, s.loss) for s in steps(events)] == [(1, 0.5), (2, 0.4), (3, 0.3)]
    assert evals(events) == [("val_acc", 0.8, 1), ("val_acc", 0.9, 3)]


@pytest.mark.parametrize(
    ("text", "epochs"),
    [("workflow: [('train', 1)], max: 15 epochs", 15), ("max_epochs=30 epochs", 30), ("epoch 3 of 15 epochs", None),
     ("max: 0 epochs", None)],
)
def test_planned_epochs_need_their_unit(text: str, epochs: int | None) -> None:
    assert planned_epochs(text) == epochs


# pbcquoc/vietocr issue #46: step lines with two times printed without a unit, then an evaluation with its scores.
VIETOCR = [
    "iter: 002800 - train loss: 0.836 - lr: 2.40e-04 - load time: 0.03 - gpu time: 36.86",
    "iter: 003000 - train loss: 0.814 - lr: 2.38e-04 - load time: 0.03 - gpu time: 38.69",
    "iter: 003000 - valid loss: 0.729 - acc full seq: 0.8856 - acc per char: 0.9896",
]


def test_a_time_without_its_unit_is_kept_as_printed_never_a_step_s_duration() -> None:
    got = steps(feed(VIETOCR))
    assert [(s.step, s.step_seconds, dict(s.figures)) for s in got] == [
        (2800, None, {"time/load time": 0.03, "time/gpu time": 36.86}),
        (3000, None, {"time/load time": 0.03, "time/gpu time": 38.69})]


def test_an_evaluation_s_scores_beside_its_loss_are_its_figures() -> None:
    assert evals(feed(VIETOCR)) == [("val_loss", 0.729, 3000), ("acc_full_seq", 0.8856, 3000),
                                    ("acc_per_char", 0.9896, 3000)]


def test_a_figure_glued_to_a_unit_the_grammar_does_not_know_is_not_read_bare() -> None:
    # Composed: nanochat-like ``total time: 6.56m`` (minutes, as ``m``): never 6.56 of no unit.
    assert beside("step 00100/01000 | loss: 3.2 | total time: 6.56m") == []
    assert [n.value for n in beside("step 00100/01000 | loss: 3.2 | total time: 6.56")] == [6.56]


def test_a_timing_line_under_a_step_is_that_step_s_where_its_line_printed_none() -> None:
    # Composed: a step line without a time, then its time alone; a step line with its own time keeps it.
    got = steps(feed(["Epoch 1 | Step 100 | Loss 2.30", "Step time: 0.52s", "Epoch 1 | Step 200 | Loss 2.10",
                      "elapsed: 0:12:30", "step 300 | loss 2.0 | time: 400ms", "iter time: 250 ms"]))
    assert [(s.step, s.step_seconds, s.elapsed_seconds) for s in got] == [
        (100, 0.52, None), (200, None, 750.0), (300, 0.4, None)]


def test_a_timing_line_with_no_step_before_it_or_in_prose_is_nothing() -> None:
    assert feed(["Step time: 0.52s"]) == []
    got = steps(feed(["step 100 | loss 2.3", "The step time was 3 s, which is slow for this GPU"]))
    assert [(s.step, s.step_seconds) for s in got] == [(100, None)]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("Time elapsed: 0:12:30", 750.0), ("Epoch time: 0:01:05", 65.0), ("Eval acc: 0:12", None)],
)
def test_a_clock_is_its_own_unit_for_a_time_only(text: str, seconds: float | None) -> None:
    named = tied(text)
    assert (named[0].value if named else None) == seconds


def test_the_pytorch_examples_test_set_line_is_an_evaluation() -> None:
    # Composed in the shape pytorch/examples' mnist/main.py prints (``Test set: Average loss: {:.4f}, Accuracy: …``).
    events = feed(["Train Epoch: 1 [59520/60000 (99%)]\tLoss: 0.046468", "",
                   "Test set: Average loss: 0.0335, Accuracy: 9890/10000 (99%)", ""])
    assert evals(events) == [("test_loss", 0.0335, None), ("test_accuracy", 99.0, None)]  # (its share, as printed)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Validation Accuracy: 91.2%", [("validation accuracy", 91.2)]),  # (a share, as printed)
        ("val_acc=0.91 val_f1=0.88", [("val acc", 0.91), ("val f1", 0.88)]),  # one space between the pairs
        ("mAP 0.5 mAP50 0.7", [("map", 0.5), ("map50", 0.7)]),
        ("Time elapsed: 12%", None),  # a share is no time
        ("Eval acc 0.9 and then 3", None),
    ],
)
def test_tied_shares_and_pairs_one_space_apart(text: str, named: list[tuple[str, float]] | None) -> None:
    got = tied(text)
    assert ([(n.name, n.value) for n in got] if got is not None else None) == named


def test_a_bar_s_evaluation_figures_by_their_names() -> None:
    # Composed: Keras' closing bars with ``val_accuracy`` (its ``accuracy`` is training's), a tqdm postfix's ``val_acc``.
    keras = feed(["Epoch 1/10", ("1875/1875 [==============================] - 5s 3ms/step - loss: 0.2600 - accuracy:"
                  " 0.9250 - val_loss: 0.1400 - val_accuracy: 0.9590")])
    assert evals(keras) == [("val_loss", 0.14, None), ("val_accuracy", 0.959, None)]
    tqdm = feed([" 45%|████▌     | 450/1000 [01:58<02:10, 3.46it/s, loss=2.3, val_acc=0.91]"])
    assert evals(tqdm) == [("val_acc", 0.91, None)]


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        # detectron2 issue 1831 (facebookresearch/detectron2): ``max_mem: 2372M`` as printed, its unit kept by its name
        (("[07/28 14:14:38 d2.utils.events]:  iter: 0  total_loss: 21944.058  data_time: 0.2953  lr: 0.000001"
         "  max_mem: 2372M"), {"memory/max_mem M": 2372.0}),
        # mmdetection issue 8063 (open-mmlab/mmdetection): ``memory: 4090`` (no unit printed: none given); its ``time``
        (("2022-05-26 20:18:24,973 - mmdet - INFO - Epoch [3][40/86]\tlr: 5.282e-04, eta: 0:07:52, time: 0.297,"
         " data_time: 0.005, memory: 4090, loss_rpn_cls: 0.0169, loss: 0.8668"),
     {"memory/memory": 4090.0, "figure/loss_rpn_cls": 0.0169}),  # (the loss's part under its name: record_figures.py)
        # mlx-examples PR 1209 (ml-explore/mlx-examples): ``Peak mem 2.334 GB``
        (("Iter 37: Train loss 0.001, Chosen reward -7.159, Rejected reward -14.403, Learning Rate 1.000e-05, It/sec"
         " 1.042, Tokens/sec 563.799, Trained Tokens 20080.0, Peak mem 2.334 GB"),
         {"memory/Peak mem GB": 2.334, "total/trained tokens": 20080.0}),  # (and its running count, as printed)
        # Barber0/LLM-pretrain's committed train.log (commit 04a92e1): a bare ``time`` without a unit, kept as printed
        ("ep: 0, batch: 260, time: 8.56, ntokens: 413.40/513, loss: 8.390625", {"time/time": 8.56}),
    ],
)
def test_memory_and_unitless_times_beside_a_step_as_printed(text: str, figures: dict[str, float]) -> None:
    (step,) = steps(feed([text]))
    assert dict(step.figures) == figures


def test_a_time_named_by_its_unit_is_the_step_s() -> None:
    # MaxText issue 8 (AI-Hypercomputer/maxtext): ``seconds: 2.166`` beside the step
    (step,) = steps(feed(["completed step: 15109, seconds: 2.166, TFLOP/s: 36.739, loss: 2.191"]))
    assert (step.step, step.step_seconds, step.loss) == (15109, 2.166, 2.191)


# BasicSR issue 269 (XPixelGroup/BasicSR): the record's position in brackets right after the logger's level, its lr a
# tuple of groups, its time and the loader's share as ``time (data): 0.365 (0.002)``, its losses in parts.
BASICSR = [
    ("2020-08-15 15:50:30,390 INFO: [My_ES..][epoch:207, iter:  20,100, lr:(1.000e-04,)] [eta: 1 day, 18:13:17, time"
    " (data): 0.365 (0.002)] l_g_pix: 3.1516e-04 l_g_percep: 5.2308e-01 l_g_gan: 4.2322e-02 l_d_real: 2.6469e-04"
    " l_d_fake: 2.4991e-04 out_d_real: 9.1384e+01 out_d_fake: 8.2920e+01"),
]


def test_a_bracketed_position_after_the_level_is_the_record_not_a_logger_s_field() -> None:
    (step,) = steps(feed(BASICSR))
    assert (step.step, step.epoch, step.lr, step.step_seconds, step.loss) == (20100, 207.0, 1e-4, 0.365, None)
    assert dict(step.figures)["loss/l_g_percep"] == 0.52308


# ultralytics/ultralytics issue 20590: one epoch's row (its losses in parts, its GPU memory) and its validation's row.
YOLO_ROWS = [
    "Starting training for 4 epochs...",
    "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
    ("        1/4     0.545G       1.58          2      1.126        256        224: 100%|██████████| 54/54 [00:03<00:00,"
    " 14.92it/s]"),
    ("                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95): 100%|██████████| 3/3"
    " [00:00<00:00,  5.99it/s]"),
    "                   all         93       1127      0.769      0.668      0.711      0.331",
]


def test_one_epoch_row_with_its_loss_parts_and_validation_is_a_training_log() -> None:
    from app.ingest.formats import detect

    assert detect(YOLO_ROWS) == "generic"
    (step,) = steps(feed(YOLO_ROWS))
    figures = dict(step.figures)
    assert (step.step, step.epoch, figures["loss/box_loss"], figures["memory/GPU_mem G"]) == (54, 1.0, 1.58, 0.545)


def test_espnet2_s_record_of_a_batch_range_is_its_last_batch_in_its_epoch() -> None:
    # ESPnet issue 2183 (espnet/espnet): ESPnet2's trainer lines behind a launcher's field and a date, in backticks
    got = steps(feed([
        ("`[gpu01:0/2] 2020-07-19 08:59:15,042 (trainer:464) INFO: 1epoch:train:1365-2046batch: iter_time=5.663e-05,"
        " forward_time=0.134, loss=61.936, loss_att=59.201, loss_ctc=68.318, acc=0.134, backward_time=0.111,"
        " optim_step_time=0.030, lr_0=1.710e-05, train_time=1.793`")]))
    assert [(s.step, s.epoch, s.loss, s.step_seconds, dict(s.figures)["time/train_time"]) for s in got] == [
        (2046, 1.0, 61.936, None, 1.793)]


@pytest.mark.parametrize(
    ("text", "step", "loss"),
    [
        # ESPnet issue 3370 (espnet/espnet): a user's loop prints its position as ``iterations``
        ("iterations:16337, train acc:0.288, train loss:459.261, train loss ctc:834.635, train loss att:83.887,",
         16337, 459.261),
        # sd-scripts issue 2137 (kohya-ss/sd-scripts): the bar's ``avr_loss`` is the loss it shows (nan here)
        ("steps:   6%|███▌      | 205/3280 [04:07<1:01:47,  1.21s/it, avr_loss=nan]", 205, "nan"),
    ],
)
def test_a_position_and_a_loss_under_other_names(text: str, step: int, loss: float | str) -> None:
    (got,) = steps(feed([text]))
    assert got.step == step
    assert str(got.loss) == "nan" if loss == "nan" else got.loss == loss


def test_a_record_pasted_into_html_reads_as_printed() -> None:
    # fairseq issue 2201 (facebookresearch/fairseq): the JSON log line inside ``<pre>`` with its quotes as entities
    text = ("<pre>{&quot;epoch&quot;: 27, &quot;update&quot;: 26.267, &quot;loss&quot;: &quot;8.206&quot;,"
            " &quot;ups&quot;: &quot;1.62&quot;, &quot;num_updates&quot;: &quot;33700&quot;}</pre>")
    (step,) = steps(feed([text]))
    assert (step.step, step.epoch, step.loss) == (33700, 27.0, 8.206)


def test_figures_printed_before_their_names_after_a_leading_step() -> None:
    # tinygrad PR 13803 (tinygrad/tinygrad): MLPerf llama's step lines, each figure before its name
    got = steps(feed(["    9 4.36 s run, 11.8750 loss, 0.000000000005 LR, 1454.57 GB used, 397832.61 GFLOPS",
                      "   10 4.40 s run, 11.8750 loss, 0.000000000005 LR, 1454.57 GB used, 394520.83 GFLOPS"]))
    assert [(s.step, s.loss, s.lr, s.step_seconds, dict(s.figures)) for s in got] == [
        (9, 11.875, 5e-12, 4.36, {"memory/GB used": 1454.57}), (10, 11.875, 5e-12, 4.40, {"memory/GB used": 1454.57})]
    # prose that leads with a number is no such record
    assert steps(feed(["3 runs, 2 losses, 1 winner"])) == []


# facebookresearch/fairseq-lua issue #89 (stefan-it's log): the Lua trainer's records, each ``| name value |`` piece
# glued to its stage (``trainloss``), its update count printed before its name; a checkpoint's records after each epoch.
FAIRSEQ_LUA = [
    "| IndexedDataset: loaded model-data with 1000 examples",
    "| epoch 000 | 0001000 updates | words/s   47490| trainloss    10.35 | train ppl  1305.63",
    "| checkpoint 001 | epoch 001 | 0001413 updates | s/checkpnt     112 | words/s   51424 | lr 0.100000",
    "| checkpoint 001 | epoch 001 | 0001413 updates | trainloss    10.09 | train ppl  1086.95",
    ("| checkpoint 001 | epoch 001 | 0001413 updates | validloss     9.44 | valid ppl   693.66 | testloss     9.44 | test"
     " ppl   693.27"),
    "| checkpoint 001 | epoch 001 | 0001413 updates | saved model to model-conv/model_epoch1.th7",
    "| epoch 001 | 0001413 updates | 0000000 epoch updates | path model-conv/state_epoch1.th7",
    "| epoch 001 | 0002413 updates | words/s   63231| trainloss     8.99 | train ppl   508.90",
]
# fairseq-lua issue #26 (ozancaglayan's log): a BLEU evaluated at the checkpoint, then the epoch the trainer jumped to.
FAIRSEQ_LUA_BLEU = [
    "| epoch 019 | 0161676 updates | words/s   14300| trainloss     2.45 | train ppl     5.46",
    "| checkpoint 020 | epoch 020 | 0161680 updates | s/checkpnt     632 | words/s   14126 | lr 0.000313",
    "| checkpoint 020 | epoch 020 | 0161680 updates | trainloss     2.10 | train ppl     4.30",
    "| checkpoint 020 | epoch 020 | 0161680 updates | validbleu    17.67 | valid BP      0.90",
    "| epoch 100 | 0161680 updates | 0000000 epoch updates | path blstm/state_epoch100.th7",
]


def test_fairseq_lua_records_are_updates_with_their_loss_and_checkpoints_their_evaluation() -> None:
    events = feed(FAIRSEQ_LUA)
    # The update count is the step, the epoch beside it, words/s (fairseq's wps) the tokens a second; the checkpoint
    # ends epoch 1 at its update count: its summary's rate and lr, then its trainloss with them.
    assert [(s.step, s.epoch, s.loss, s.lr, s.tokens_per_second) for s in steps(events)] == [
        (1000, 0.0, 10.35, None, 47490.0),
        (1413, 1.0, None, 0.1, 51424.0),
        (1413, 1.0, 10.09, 0.1, 51424.0),
        (2413, 1.0, 8.99, None, 63231.0),
    ]
    assert evals(events) == [("val_loss", 9.44, 1413), ("test_loss", 9.44, 1413), ("valid_ppl", 693.66, 1413),
                             ("test_ppl", 693.27, 1413)]


def test_fairseq_lua_checkpoint_is_the_epochs_last_step_and_path_records_are_no_steps() -> None:
    # Checkpoint 020 is the last step: update 161680 of epoch 20, its trainloss 2.10, its words/s and lr; the jump to
    # epoch 100 is a record of paths, no step; s/checkpnt (the epoch's 632 s) is no step's time.
    events = feed(FAIRSEQ_LUA_BLEU)
    assert [(s.step, s.epoch, s.loss, s.lr, s.tokens_per_second, s.step_seconds) for s in steps(events)] == [
        (161676, 19.0, 2.45, None, 14300.0, None),
        (161680, 20.0, None, 0.000313, 14126.0, None),
        (161680, 20.0, 2.10, 0.000313, 14126.0, None),
    ]


# fairseq-lua issue #125 (patrik-lambert's fconv run): the last checkpoint's records, padded with trailing spaces, its
# summary with one more figure (``avg_dict_size``) after the lr.
FAIRSEQ_LUA_LAST_CHECKPOINT = [
    ("| checkpoint 018 | epoch 018 | 1004778 updates | s/checkpnt    5190 | words/s    4001 | lr 0.000025 |"
     " avg_dict_size 8692.39     "),
    "| checkpoint 018 | epoch 018 | 1004778 updates | trainloss     1.09 | train ppl     2.13        ",
    ("| checkpoint 018 | epoch 018 | 1004778 updates | validloss     1.43 | valid ppl     2.69 | testloss     3.06 |"
     " test ppl     8.32"),
]


def test_fairseq_lua_last_checkpoint_carries_its_rate_lr_and_train_loss() -> None:
    events = feed(FAIRSEQ_LUA_LAST_CHECKPOINT)
    last = steps(events)[-1]
    assert (last.step, last.epoch, last.loss, last.lr, last.tokens_per_second, last.step_seconds) == (
        1004778, 18.0, 1.09, 0.000025, 4001.0, None)
    assert evals(events) == [("val_loss", 1.43, 1004778), ("test_loss", 3.06, 1004778), ("valid_ppl", 2.69, 1004778),
                             ("test_ppl", 8.32, 1004778)]


def test_fairseq_lua_checkpoint_summary_is_kept_for_its_own_checkpoint_only() -> None:
    # Composed: checkpoint 002's trainloss record follows checkpoint 001's summary with none of its own: its rate and
    # lr are not checkpoint 001's (the step's loss 4.50, no rate, no lr).
    events = feed(["| checkpoint 001 | epoch 001 | 0000500 updates | s/checkpnt      60 | words/s    1000 | lr 0.250000",
                   "| checkpoint 001 | epoch 001 | 0000500 updates | trainloss     5.00 | train ppl    32.00",
                   "| checkpoint 002 | epoch 002 | 0001000 updates | trainloss     4.50 | train ppl    22.63"])
    assert [(s.step, s.epoch, s.loss, s.lr, s.tokens_per_second) for s in steps(events)] == [
        (500, 1.0, None, 0.25, 1000.0), (500, 1.0, 5.00, 0.25, 1000.0), (1000, 2.0, 4.50, None, None)]


# facebookresearch/detectron2 pull request #380 (botcs): COCOEvaluator's table, then the per-category table under it.
DETECTRON2_COCO = [
    "[11/23 08:14:47 d2.evaluation.coco_evaluation]: Evaluation results for bbox: ",
    "|   AP   |  AP50  |  AP75  |  APs  |  APm   |  APl   |",
    "|:------:|:------:|:------:|:-----:|:------:|:------:|",
    "| 27.391 | 45.042 | 27.990 | 8.468 | 27.076 | 49.926 |",
    "[11/23 08:14:47 d2.evaluation.coco_evaluation]: Per-category bbox AP: ",
    "| category          | AP     | category         | AP     | category",
]
# Megvii-BaseDetection/DenseTeacher issue #31 (zranwang): cvpods' fork of the same table, through loguru, with no
# training line among them (the run evaluates every ~27 min).
CVPODS_COCO = [
    ("2023-02-24 18:28:40.685 | INFO     | cvpods.evaluation.coco_evaluation:_derive_coco_results:318 - Evaluation"
     " results for bbox: "),
    "|   AP   |  AP50  |  AP75  |  APs   |  APm   |  APl   |",
    "|:------:|:------:|:------:|:------:|:------:|:------:|",
    "| 34.545 | 53.247 | 37.217 | 19.433 | 37.776 | 43.942 |",
    "",
    ("2023-02-24 18:55:17.708 | INFO     | cvpods.evaluation.coco_evaluation:_derive_coco_results:318 - Evaluation"
     " results for bbox: "),
    "|   AP   |  AP50  |  AP75  |  APs   |  APm   |  APl   |",
    "|:------:|:------:|:------:|:------:|:------:|:------:|",
    "| 34.448 | 53.053 | 36.976 | 19.301 | 37.662 | 44.103 |",
]


def test_detectron2_coco_table_is_its_evaluation_and_the_per_category_table_no_figure() -> None:
    assert evals(feed(DETECTRON2_COCO)) == [
        ("bbox_AP", 27.391, None), ("bbox_AP50", 45.042, None), ("bbox_AP75", 27.99, None),
        ("bbox_APs", 8.468, None), ("bbox_APm", 27.076, None), ("bbox_APl", 49.926, None),
    ]


def test_cvpods_coco_tables_alone_are_a_run_evaluating_read_by_the_generic_reader() -> None:
    assert [(name, value) for name, value, _ in evals(feed(CVPODS_COCO)) if name == "bbox_AP"] == [
        ("bbox_AP", 34.545), ("bbox_AP", 34.448)]
    # Its loguru prefix is the miner's signature, but no miner message is among these lines.
    assert detect(CVPODS_COCO) == "generic"


def test_a_nan_cell_of_the_coco_table_is_left_out() -> None:
    # detectron2's table prints ``nan`` for an area with no object (the ``APl`` of a data set of small ones).
    table = ["Evaluation results for bbox: ", "|   AP   |  AP50  |  APl  |", "|:------:|:------:|:-----:|",
             "| 35.738 | 75.887 |  nan  |"]
    assert evals(feed(table)) == [("bbox_AP", 35.738, None), ("bbox_AP50", 75.887, None)]


@pytest.mark.parametrize(("line", "parts"), [
    # dcgan.torch (soumith/dcgan.torch issue #9; robbiebarrat/art-DCGAN issue #4, tests/data/real): the generator's and
    # the discriminator's losses named ``Err_`` and their network, after the epoch and the batch of its batches
    ("Epoch: [2][      58 /      237]\t Time: 0.128  DataTime: 0.000    Err_G: 1.9118  Err_D: 0.3386\t",
     {"loss/Err_G": 1.9118, "loss/Err_D": 0.3386}),
    # pix2pix's Torch7 trainer adds its L1 term: ``ErrL1`` (composed in its words)
    ("Epoch: [1][      50 /      400]\t Time: 0.237  DataTime: 0.001    Err_G: 12.9453  Err_D: 0.5290  ErrL1: 0.1263",
     {"loss/Err_G": 12.9453, "loss/Err_D": 0.529, "loss/ErrL1": 0.1263}),
])  # fmt: skip
def test_torch7_gan_losses_are_parts_of_a_step(line: str, parts: dict[str, float]) -> None:
    """Each ``Err_X`` is a network's loss: kept under its printed name, none made the one loss."""
    step = steps(feed([line]))[-1]
    losses = {name: value for name, value in step.figures if name.startswith("loss/")}
    assert (step.loss, losses) == (None, parts)


def test_an_error_rate_is_no_gan_loss() -> None:
    """``Error`` names a rate of mistakes (composed): no part is read from it, so no step either."""
    assert steps(feed(["Epoch: [2][      58 /      237]\t Train Error: 0.1200  Test Error: 0.1500"])) == []
