"""Which of a log's numbered series is the run's training step: a validation pass's, an engine's own progress, a user's
print beside it (app/ingest/formats/step_source.py, over series.py and the generic reader).

Real excerpts are quoted from the sources their comments cite; the composed logs' answers are worked out by hand
beside them.
"""

from __future__ import annotations

import pytest

from app.ingest.formats.detect import detect
from app.ingest.formats.generic import GenericParser
from app.ingest.formats.step_source import StepSource, evaluation_stage, shares
from app.stats.events import EvalResult, Event, StepFigures, TrainingPause, TrainStep


def feed(lines: list[str]) -> list[Event]:
    return GenericParser().feed(lines)


def steps(events: list[Event]) -> list[TrainStep]:
    return [e for e in events if isinstance(e, TrainStep)]


def evals(events: list[Event]) -> list[tuple[str, float | None, int | None]]:
    return [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)]


@pytest.mark.parametrize(
    ("head", "evaluating"),
    [("Epoch(val)  [2][ 3100/21046]", True), ("Epoch(test) [1][50/500]", True), ("Iter(val) [50/500]", True),
     ("Epoch(train)  [1][ 50/500]", False), ("Epoch [1][50/1000]", False), ("Epoch(valley) [1][5/9]", False)],
)
def test_a_record_s_stage_tag_names_an_evaluation(head: str, evaluating: bool) -> None:
    assert evaluation_stage(head) is evaluating


@pytest.mark.parametrize(
    ("text", "got"),
    [("Test Epoch: 33\tAccuracy: 9466/11005 (86%)", [("accuracy", 86.0)]),
     ("Test set: Average loss: 0.0004, Accuracy: 8955/10000 (89.55%)", [("accuracy", 89.55)]),
     ("Train Epoch: 1 [20000/60000 (33%)] Loss: 1.797833", []),  # (a position: no name and colon before it)
     ("Accuracy: 12/10 (120%)", [])],  # (a count past its total is no score)
)
def test_a_score_printed_as_a_count_of_a_total_is_its_share(text: str, got: list[tuple[str, float]]) -> None:
    assert shares(text) == got


def test_the_source_takes_no_position_behind_the_series_it_chose() -> None:
    source = StepSource()
    assert not source.figures_only("[] Loss : .", 200)  # (no series chosen yet: every record is its own)
    source.chosen("[timer.py::stop] /, SamplesPerSec=.", 200)
    assert source.figures_only("[] Loss : .", 200)
    assert source.figures_only("[] Loss : .", 190)
    assert not source.figures_only("[] Loss : .", 210)  # (past the position: a step of its own)
    assert not source.figures_only("[timer.py::stop] /, SamplesPerSec=.", 200)


# AILab-CVC/YOLO-World issue #396 ("Evaluating bbox... stopped training afterwards"): mmengine's validation lines after
# epoch 10's training, every 50 of the pass's 4809 batches (the issue's first lines, as printed, trailing spaces kept).
YOLO_WORLD_VAL = [
    "2024/06/16 20:02:03 - mmengine - INFO - Epoch(val) [10][4000/4809]    eta: 0:06:54  time: 0.5256  data_time: 0.0006  memory: 979  ",
    "2024/06/16 20:02:28 - mmengine - INFO - Epoch(val) [10][4050/4809]    eta: 0:06:29  time: 0.5140  data_time: 0.0006  memory: 979  ",
    "2024/06/16 20:02:55 - mmengine - INFO - Epoch(val) [10][4100/4809]    eta: 0:06:03  time: 0.5386  data_time: 0.0006  memory: 979  ",
    "2024/06/16 20:03:21 - mmengine - INFO - Epoch(val) [10][4150/4809]    eta: 0:05:38  time: 0.5079  data_time: 0.0006  memory: 979  ",
    "2024/06/16 20:03:45 - mmengine - INFO - Epoch(val) [10][4200/4809]    eta: 0:05:12  time: 0.4873  data_time: 0.0006  memory: 979  ",
]


def test_mmengine_validation_lines_are_an_evaluation_under_way_never_steps() -> None:
    events = feed(YOLO_WORLD_VAL)
    assert steps(events) == []
    pauses = [e for e in events if isinstance(e, TrainingPause)]
    assert [(p.reason, p.batches) for p in pauses] == [("evaluation", 4809)] * 5
    assert detect(YOLO_WORLD_VAL) == "generic"  # (a run caught validating is still a run the reader reads)


def test_training_then_validation_keeps_the_training_position() -> None:
    # Composed in mmengine's shape: two training records of epoch 1's 500 iterations, then its validation over 200
    # batches. The run is at iteration 500/500 of epoch 1 (loss 0.52, 0.25 s an iteration); the validation's 0.06 s
    # and its 100/200 are the evaluation's.
    events = feed([
        ("2024/06/16 20:00:00 - mmengine - INFO - Epoch(train)  [1][450/500]  lr: 1.0000e-02  eta: 0:00:12  time: 0.2500"
        "  data_time: 0.0100  memory: 979  loss: 0.6100"),
        ("2024/06/16 20:00:12 - mmengine - INFO - Epoch(train)  [1][500/500]  lr: 1.0000e-02  eta: 0:00:00  time: 0.2500"
        "  data_time: 0.0100  memory: 979  loss: 0.5200"),
        ("2024/06/16 20:00:20 - mmengine - INFO - Epoch(val)  [1][ 50/200]    eta: 0:00:09  time: 0.0600  data_time: 0.0010"
        "  memory: 979  "),
        ("2024/06/16 20:00:23 - mmengine - INFO - Epoch(val)  [1][100/200]    eta: 0:00:06  time: 0.0600  data_time: 0.0010"
        "  memory: 979  "),
    ])
    assert [(s.step, s.epoch, s.loss, s.step_seconds) for s in steps(events)] == [
        (450, 1.0, 0.61, 0.25), (500, 1.0, 0.52, 0.25)]
    assert [p.batches for p in events if isinstance(p, TrainingPause)] == [200, 200]


# deepspeedai/DeepSpeed issue #2629 (pacman100): DeepSpeed's ThroughputTimer lines, one a step, as printed through
# ``stdout: `` (``{epoch}/{step}``, the running average throughput, then the last step's).
DEEPSPEED_TIMER = [
    ("stdout: [2022-12-20 08:26:32,177] [INFO] [timer.py:197:stop] 0/46, RunningAvgSamplesPerSec=156.20362211863042, "
     "CurrSamplesPerSec=155.4959491820163, MemAllocated=1.75GB, MaxMemAllocated=2.62GB"),
    ("stdout: [2022-12-20 08:26:32,517] [INFO] [timer.py:197:stop] 0/47, RunningAvgSamplesPerSec=153.9908514133315, "
     "CurrSamplesPerSec=94.8627696552738, MemAllocated=1.75GB, MaxMemAllocated=2.62GB"),
    ("stdout: [2022-12-20 08:26:32,723] [INFO] [timer.py:197:stop] 0/48, RunningAvgSamplesPerSec=154.07246743143548, "
     "CurrSamplesPerSec=157.83691790624408, MemAllocated=1.75GB, MaxMemAllocated=2.62GB"),
    ("stdout: [2022-12-20 08:26:33,073] [INFO] [timer.py:197:stop] 0/49, RunningAvgSamplesPerSec=151.91666239005446, "
     "CurrSamplesPerSec=92.42703085360445, MemAllocated=1.75GB, MaxMemAllocated=2.62GB"),
    ("stdout: [2022-12-20 08:26:33,281] [INFO] [timer.py:197:stop] 0/50, RunningAvgSamplesPerSec=152.00080576966184, "
     "CurrSamplesPerSec=156.06349619776284, MemAllocated=1.75GB, MaxMemAllocated=2.62GB"),
]


def test_an_engine_s_progress_record_is_the_position_its_throughput_beside_it() -> None:
    # The step after ``0/`` ticks by one; the series knows it at the third line, and the first two are read with it
    # (each at its own time). The throughput is the running average, as printed (the first one named).
    got = steps(feed(DEEPSPEED_TIMER))
    assert [(s.step, s.loss, s.figures) for s in got] == [
        (46, None, (("samples_per_second", 156.20362211863042),)),
        (47, None, (("samples_per_second", 153.9908514133315),)),
        (48, None, (("samples_per_second", 154.07246743143548),)),
        (49, None, (("samples_per_second", 151.91666239005446),)),
        (50, None, (("samples_per_second", 152.00080576966184),))]
    assert all(s.at is not None for s in got)
    assert got[-1].at - got[0].at == pytest.approx(1.104)  # type: ignore[operator]  # (08:26:32.177 → 33.281)


def test_a_counter_with_no_throughput_or_an_uneven_cadence_is_no_progress() -> None:
    # Composed: the same records without a throughput (a loader's ``0/N``), and with one but counts that do not go up
    # evenly (10, 20, 35, 40: no loop reporting every N steps).
    assert steps(feed([f"[INFO] [loader.py:12:next] 0/{n}, shards=4" for n in (10, 20, 30, 40)])) == []
    assert steps(feed([f"[INFO] [timer.py:12:stop] 0/{n}, SamplesPerSec=36.5" for n in (10, 20, 35, 40)])) == []


def test_a_user_print_beside_the_engine_s_progress_is_that_step_s_loss_not_the_position() -> None:
    # Composed in the shape of DeepSpeed's timer lines every 10 steps and a script's own ``[step] Loss : …`` print from
    # three ranks at step 200: the position is the timer's (130 … 220), the prints give step 200's loss (the last of
    # them, 6.3836, is the loss now), and no step goes back to 200 after 220.
    timer = [f"[2021-01-26 21:57:{s:02d},000] [INFO] [timer.py:166:stop] 0/{n}, SamplesPerSec=36.5"
             for s, n in zip(range(0, 60, 3), range(130, 230, 10), strict=False)]
    prints = ["[200] Loss : 6.800840377807617", "[200] Loss : 6.5157470703125", "[200] Loss : 6.383593559265137"]
    events = feed(timer[:8] + prints + timer[8:])
    assert [s.step for s in steps(events)] == [130, 140, 150, 160, 170, 180, 190, 200, 210, 220]
    assert [f.loss for f in events if isinstance(f, StepFigures)] == [6.800840377807617, 6.5157470703125,
                                                                     6.383593559265137]
    # (the same prints with no engine progress beside them are the run's steps, as before)
    assert [s.step for s in steps(feed(["[100] Loss : 6.9", "[200] Loss : 6.8", "[300] Loss : 6.7"]))] == [100, 200, 300]


# pytorch/tutorials PR #1204's speech-command tutorial prints ``Test Epoch: N<TAB>Accuracy: …``; this is the same
# PyTorch-examples shape from another project: guillaume-chevalier/Spiking-Neural-Network-SNN-with-PyTorch-where-
# Backpropagation-engenders-STDP, README.md (the spiking model's training output, indented as a notebook cell's).
SNN_README = [
    "    Train Epoch: 1 [40000/60000 (67%)] Loss: 0.522837 Accuracy: 83.50%",
    "    Train Epoch: 1 [50000/60000 (83%)] Loss: 0.528960 Accuracy: 81.80%",
    "",
    "    Test set: Average loss: 0.0004, Accuracy: 8955/10000 (89.55%)",
    "",
    "    Train Epoch: 2 [0/60000 (0%)] Loss: 0.405339 Accuracy: 87.80%",
]


def test_a_test_pass_s_accuracy_is_its_share_beside_its_loss() -> None:
    events = feed(SNN_README)
    assert evals(events) == [("test_loss", 0.0004, None), ("test_accuracy", 89.55, None)]
    assert [(s.step, s.epoch) for s in steps(events)] == [(40000, 1.0), (50000, 1.0), (0, 2.0)]


def test_a_test_epoch_line_with_only_its_accuracy_is_an_evaluation_not_a_step() -> None:
    # Composed in pytorch/tutorials' speech-command shape: epoch 33's last record, its test accuracy 9466 of 11005
    # (86 % as printed), then epoch 34's first record.
    events = feed(["Train Epoch: 33 [81920/84843 (96%)]\tLoss: 0.279120", "", "Test Epoch: 33\tAccuracy: 9466/11005 (86%)",
                   "", "Train Epoch: 34 [0/84843 (0%)]\tLoss: 0.259293"])
    assert evals(events) == [("test_accuracy", 86.0, None)]
    assert [(s.step, s.epoch) for s in steps(events)] == [(81920, 33.0), (0, 34.0)]


def test_a_series_first_two_records_are_steps_once_it_is_known() -> None:
    # Composed in the shape of a callback's prints between a logger's lines: batches 1 … 4, every loss NaN. The series
    # is known at the third record; the first two are read with it, so the run's first NaN is at batch 1, not 3.
    lines: list[str] = []
    for batch in range(1, 5):
        lines += [f"Training batch {batch} begins.", f"Training batch {batch} ends with loss NaN."]
    got = steps(feed(lines))
    assert [s.step for s in got] == [1, 2, 3, 4]
    assert all(s.loss is not None and s.loss != s.loss for s in got)  # (NaN from the first)


def test_a_step_said_as_it_begins_is_no_step_done() -> None:
    # Composed in the same callback's shape, cut as batch 5 begins: batch 4 is the last step done, its record the last;
    # batch 5 has begun and printed nothing of its own (no loss, no end), so the position stays at 4.
    lines: list[str] = []
    for batch in range(1, 5):
        lines += [f"Training batch {batch} begins.", f"Training batch {batch} ends with loss 0.{batch}5."]
    lines.append("Training batch 5 begins.")
    got = steps(feed(lines))
    assert [(s.step, s.loss) for s in got] == [(1, 0.15), (2, 0.25), (3, 0.35), (4, 0.45)]


def test_a_test_pass_led_by_its_stage_and_position_is_an_evaluation_under_way() -> None:
    # Composed in the shape of torchvision's detection reference (MetricLogger): epoch 0's last training records, the
    # epoch's closing line, then the test pass over 5000 images, its ``time`` the evaluation's (0.1035 s), no figure of
    # its own yet. The run stays at 3695/3696 of epoch 0 (0.401 s a step), paused for the evaluation of 5000 batches.
    lines = [f"Epoch: [0]  [{n}/3696]  eta: 0:00:0{k}  lr: 0.020000  loss: {loss} (0.6432)  time: 0.4010  data: 0.0101"
             f"  max mem: 3952" for k, (n, loss) in enumerate([(3680, "0.6012"), (3690, "0.5912"), (3695, "0.5812")])]
    lines.append("Epoch: [0] Total time: 0:24:41 (0.4008 s / it)")
    lines += [f"Test:  [{n:4d}/5000]  eta: 0:08:23  model_time: 0.0912 (0.0921)  evaluator_time: 0.0052 (0.0061)"
              f"  time: 0.1035  data: 0.0049  max mem: 3952" for n in (0, 100, 200)]
    events = feed(lines)
    assert [(s.step, s.total_steps, s.step_seconds) for s in steps(events)] == [
        (3680, 3696, 0.401), (3690, 3696, 0.401), (3695, 3696, 0.401)]
    assert [(p.reason, p.batches) for p in events if isinstance(p, TrainingPause)] == [("evaluation", 5000)] * 3
    assert evals(events) == []
    # (a test pass's line that prints its running loss is that pass under way too, its figures no result: DeiT's result
    # is the starred summary after its last batch)
    scored = feed(["Test:  [ 100/1563]  eta: 0:01:49  loss: 1.1036 (0.8832)  acc1: 65.6250 (77.2896)  time: 0.0459"])
    assert [(p.reason, p.done, p.batches) for p in scored if isinstance(p, TrainingPause)] == [("evaluation", 100, 1563)]
    assert evals(scored) == []


def test_an_engine_s_progress_record_naming_its_step_beside_other_counts() -> None:
    # Composed in the shape of DeepSpeed's later timer line (``epoch=E/micro_step=M/global_step=G``, two throughputs):
    # the count named a step ticks by one, the epoch stays 0; steps 34 … 37, one second apart, at the running average.
    lines = [f"[2023-07-25 21:03:{10 + i:02d},269] [INFO] [timer.py:215:stop] epoch=0/micro_step={34 + i}/global_step="
             f"{34 + i}, RunningAvgSamplesPerSec=7.86, CurrSamplesPerSec=8.01, MemAllocated=59.65GB" for i in range(4)]
    got = steps(feed(lines))
    assert [(s.step, s.epoch, s.figures) for s in got] == [
        (n, 0.0, (("samples_per_second", 7.86),)) for n in (34, 35, 36, 37)]


def test_a_record_with_its_own_total_beside_the_engine_s_progress_stays_a_step() -> None:
    # Composed: the timer's progress at 10 … 40, then a trainer's own line at step 40 that prints its total (40/100)
    # and its time: it is no user's print of a loss, it stays a step record (with its total), not figures only.
    timer = [f"[2021-01-26 21:57:{n:02d},000] [INFO] [timer.py:166:stop] 0/{n}, SamplesPerSec=36.5" for n in (10, 20, 30, 40)]
    events = feed([*timer, "step 40/100 | loss 2.5 | step time 0.3s"])
    assert [(s.step, s.total_steps, s.loss) for s in steps(events)][-1] == (40, 100, 2.5)
    assert not any(isinstance(e, StepFigures) for e in events)


def test_a_finished_validation_pass_names_its_epoch_never_as_its_loss() -> None:
    # mmengine's validation pass at its last batch (21/21) prints no loss: no evaluation result is made of the epoch
    # the line names (2); a validation bar that prints its loss at its total gives that loss.
    lines = ["2024/01/01 10:00:00 - mmengine - INFO - Epoch(val) [2][20/21]    eta: 0:00:01  time: 0.0640  data_time: 0.0020",
             "2024/01/01 10:00:01 - mmengine - INFO - Epoch(val) [2][21/21]    eta: 0:00:00  time: 0.0640  data_time: 0.0020"]
    got = feed(lines)
    assert evals(got) == []
    assert [(e.reason, e.epoch, e.done) for e in got if isinstance(e, TrainingPause)][-1] == ("evaluation", 2, 21)
