"""A step's record printed on two lines, its second line's counter the epoch's data (TFLearn's TermLogger):
``Training Step: 8  | total loss: 2.03040`` then ``| Adam | epoch: 001 | loss: 2.03040 - acc: 0.2720 -- iter:
00512/55000``. The same loss printed again, right under it, under another counter whose count is not the step's: that
line is the step's record going on, its counter the samples the epoch has gone through (no step, its total no run's
length), its epoch and its evaluation's figures the step's.

The first two tests' lines are real, as printed in tflearn/tflearn#486 (steps 8–10 of a TermLogger run); the
others are composed in the TermLogger's words. Every reading is worked out by hand; more real excerpts are in
tests/data/real.
"""

from __future__ import annotations

from app.ingest.formats import create_parser
from app.stats.events import EvalResult, Event, TrainStep


def _read(lines: list[str]) -> list[Event]:
    return create_parser("generic").feed(lines)


def _steps(events: list[Event]) -> list[tuple[int, int | None, float | None, float | None]]:
    return [(e.step, e.total_steps, e.loss, e.epoch) for e in events if isinstance(e, TrainStep)]


def test_the_second_line_s_samples_are_no_step_and_its_epoch_is_the_step_s() -> None:
    events = _read(["Training Step: 8  | total loss: 2.03040 | time: 0.275s",
                    "| Adam | epoch: 001 | loss: 2.03040 - acc: 0.2720 -- iter: 00512/55000",
                    "Training Step: 9  | total loss: 1.94953 | time: 0.186s",
                    "| Adam | epoch: 001 | loss: 1.94953 - acc: 0.2935 -- iter: 00576/55000"])
    # two steps (8 and 9, no total printed), each in epoch 1; 512 and 576 are samples, 55000 the epoch's
    assert _steps(events) == [(8, None, 2.0304, 1.0), (9, None, 1.94953, 1.0)]
    assert not any(isinstance(e, EvalResult) for e in events)  # (``acc`` is the training's)


def test_the_second_line_s_validation_figures_are_the_step_s() -> None:
    events = _read(["Training Step: 10  | total loss: 1.87821 | time: 8.900s",
                    ("| Adam | epoch: 001 | loss: 1.87821 - acc: 0.3264 | val_loss: 1.42485 - val_acc: 0.5097 -- iter: "
                     "00640/55000")])
    assert _steps(events) == [(10, None, 1.87821, 1.0)]
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        ("val_loss", 1.42485, 10), ("val_acc", 0.5097, 10)]


def test_a_line_that_is_not_right_under_the_step_is_a_record_of_its_own() -> None:
    # a line between them: the counter's line is read as it was before, its own position
    events = _read(["Training Step: 8  | total loss: 2.03040", "Saving a snapshot",
                    "| Adam | epoch: 001 | loss: 2.03040 - acc: 0.2720 -- iter: 00512/55000"])
    assert [step for step, *_ in _steps(events)] == [8, 512]


def test_another_loss_under_the_counter_is_a_record_of_its_own() -> None:
    # the loss differs: no record going on, but another one (as before)
    events = _read(["Training Step: 8  | total loss: 2.03040",
                    "| Adam | epoch: 001 | loss: 1.90000 - acc: 0.2720 -- iter: 00512/55000"])
    assert [step for step, *_ in _steps(events)] == [8, 512]


def test_the_same_step_counted_under_two_names_stays_the_run_s() -> None:
    # composed in DeepSpeed's and Megatron's words: both lines count the run's steps (the same 100), the total is the run's
    events = _read(["steps: 100 loss: 7.1000 iter time (s): 1.200", "iteration      100/    5000 | lm loss: 7.1000 |"])
    assert [(step, total) for step, total, *_ in _steps(events)] == [(100, None), (100, 5000)]


def test_one_record_on_two_lines_is_a_run_s_log() -> None:
    # one step alone could be a sentence; its record going on to a second line under its own counter is no sentence
    from app.ingest.formats import detect

    assert detect(["Training Step: 544  | total loss: 0.15866",
                   "| Adam | epoch: 034 | loss: 0.15866 - acc: 0.9818 -- iter: 0000/1000"]) == "generic"
    assert detect(["Training Step: 544  | total loss: 0.15866"]) is None
