"""A step's record completed by a later read (``TrainStep.amends``): the same step, its figures the whole record's.

A live read that ends inside a record spanning lines (a logger's table, a one-figure-a-line block) gives that step with
the rows read so far; the next read gives the same step again with the whole record (app/ingest/formats/generic.py
``_not_again``). Composed events, figures by hand.
"""

from __future__ import annotations

from app.stats.events import TrainStep
from app.stats.steps.progress import StepProgress

T0 = 1_800_000_000.0


def _progress(*steps: tuple[TrainStep, float]) -> StepProgress:
    progress = StepProgress()
    for event, t in steps:
        progress.apply(event, t)
    return progress


def test_the_whole_record_s_figures_take_the_place_of_its_part_s() -> None:
    # step 65 whole at T0; step 66's part (its value loss read as the loss, a reward) at T0 + 10 s; its whole record at
    # T0 + 70 s (the surrogate loss the loss, the reward, the timesteps): one step 66, its loss -0.12, no q figure left
    part = TrainStep(at=None, stage="train", step=66, loss=0.44, figures=(("value_loss", 0.44), ("reward", -7.9)))
    whole = TrainStep(at=None, stage="train", step=66, loss=-0.12, figures=(("reward", -7.9), ("timesteps", 1608.0)),
                      amends=True)
    progress = _progress((TrainStep(at=None, stage="train", step=65, loss=-0.1), T0), (part, T0 + 10), (whole, T0 + 70))
    stage = progress.stage
    assert stage is not None and stage.latest is whole
    assert stage.loss == -0.12 and stage.figures == {"reward": -7.9, "timesteps": 1608.0}
    assert list(stage.spikes.recent) == [-0.1, 0.44]  # (one loss a step: the whole record's is shown, not counted again)
    assert progress.steps_total == 1 and stage.step_time == T0 + 10  # (step 66 counted once, seen when its part was)


def test_a_loss_the_part_did_not_give_is_counted_once() -> None:
    part = TrainStep(at=None, stage="train", step=48, figures=(("reward", 7020.0),))
    whole = TrainStep(at=None, stage="train", step=48, loss=2.81e-08, figures=(("reward", 7020.0),), amends=True)
    stage = _progress((TrainStep(at=None, stage="train", step=47, loss=1e-07), T0), (part, T0 + 5), (whole, T0 + 9)).stage
    assert stage is not None and stage.loss == 2.81e-08 and list(stage.spikes.recent) == [1e-07, 2.81e-08]


def test_a_step_printed_again_without_amends_is_taken_as_before() -> None:
    # (the same step printed again by the trainer itself: its time is the later line's, its figures added to the step's)
    first = TrainStep(at=None, stage="train", step=10, loss=1.0, figures=(("a", 1.0),))
    again = TrainStep(at=None, stage="train", step=10, loss=1.0, figures=(("b", 2.0),))
    stage = _progress((first, T0), (again, T0 + 30)).stage
    assert stage is not None and stage.figures == {"a": 1.0, "b": 2.0} and stage.step_time == T0 + 30
