"""An evaluation's line that names the step it evaluated, before its scores (step_evals.py)."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.ingest.formats.step_evals import evaluated_at
from app.stats.events import EvalResult, TrainStep


@pytest.mark.parametrize(
    ("unknown", "losses", "read"),
    [
        ([("eval at step", None, "400", None), ("acc", None, "0.71", None)], False, (400, None, (("acc", 0.71),))),
        ([("Evaluation on global step", None, "2000", None), ("BLEU", None, "27.1", None), ("loss", None, "1.95", None)],
         False, (2000, None, (("BLEU", 27.1), ("loss", 1.95)))),
        ([("valid @ iter", None, "12", None)], True, (12, None, ())),  # (its loss read by the grammar already)
        ([("valid @ iter", None, "12", None)], False, None),  # (no figure: nothing evaluated)
        ([("eval at step", None, "400", None), ("samples", None, "1000", None)], False, None),  # (a count, no score)
        # (an evaluation's return, its word leading the line; an episode it names said so)
        ([("Eval at episode", None, "90", None), ("average reward", None, "40.0", None)], False,
         (90, "episode", (("average reward", 40.0),))),
        ([("eval at step", None, "400", None), ("acc", None, "71", "%")], False, None),  # (a unit: another rule's)
        ([("eval steps", None, "500", None), ("acc", None, "0.71", None)], False, None),  # (a setting's plural)
        ([("eval at step", None, "4.5", None), ("acc", None, "0.71", None)], False, None),  # (no count)
        ([("the eval at step", None, "400", None), ("acc", None, "0.71", None)], False, None),  # (prose)
    ],
)
def test_an_evaluation_s_step_leads_its_figures(
        unknown: list[tuple[str, str | None, str, str | None]], losses: bool,
        read: tuple[int, str | None, tuple[tuple[str, float], ...]] | None) -> None:
    assert evaluated_at(unknown, losses=losses) == read


# Composed: an evaluation run beside the training, its result for step 400 printed once the training logged step 600
# (hand-computed: the position stays at step 600 and then 700, the scores are step 400's; no step 400 record).
LATE = ["step 500 loss 1.90", "step 600 loss 1.85", "eval at step 400: acc 0.71, loss 1.95", "step 700 loss 1.80"]


def test_an_evaluation_printed_after_later_steps_is_its_own_step_s_and_no_step() -> None:
    events = GenericParser().feed(LATE)
    assert [(s.step, s.loss) for s in events if isinstance(s, TrainStep)] == [(500, 1.90), (600, 1.85), (700, 1.80)]
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [
        ("val_loss", 1.95, 400), ("acc", 0.71, 400)]


def test_such_a_line_before_any_step_is_left_to_the_other_rules() -> None:
    assert not [e for e in GenericParser().feed(["eval at step 400: acc 0.71"]) if isinstance(e, EvalResult | TrainStep)]


# Composed: an RL loop's line an episode, then its evaluation of episode 90 (hand-computed: the run stays at episode
# 102, the evaluation's return 40.0 is episode 90's, no episode 90 record).
EPISODES = ["Episode 100 | reward 35.0 | length 200", "Episode 101 | reward 36.0 | length 200",
            "Episode 102 | reward 31.0 | length 200", "Eval at episode 90: average reward 40.0"]


def test_an_episode_s_evaluation_is_that_episode_s_where_the_run_counts_episodes() -> None:
    events = GenericParser().feed(EPISODES)
    assert [(s.step, s.counter) for s in events if isinstance(s, TrainStep)] == [
        (100, "episode"), (101, "episode"), (102, "episode")]
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [("average_reward", 40.0, 90)]


def test_an_episode_s_evaluation_in_a_run_of_steps_is_no_figure() -> None:
    # (no step of the run's is that episode: never its count shown as a figure, never a step)
    events = GenericParser().feed(["step 500 loss 1.90", "step 600 loss 1.85", "eval at episode 4: reward 40.0"])
    assert [s.step for s in events if isinstance(s, TrainStep)] == [500, 600]
    assert not [e for e in events if isinstance(e, EvalResult)]


# Composed: a loop's step lines, each its loss and its running average, the last with its evaluation's loss beside
# (hand-computed: the run is at step 30, its loss the step's 2.12, never the average 2.33; eval_loss 2.50 is step 30's).
AVERAGED = ["Epoch 1 Step 10 | Loss: 2.31 | Avg Loss: 2.45", "Epoch 1 Step 20 | Loss: 2.20 | Avg Loss: 2.40",
            "Epoch 1 Step 30 | Loss: 2.12 | Avg Loss: 2.33 | eval_loss: 2.50"]


def test_a_step_line_with_its_evaluation_beside_is_the_step_and_its_evaluation() -> None:
    events = GenericParser().feed(AVERAGED)
    assert [(s.step, s.loss) for s in events if isinstance(s, TrainStep)] == [(10, 2.31), (20, 2.20), (30, 2.12)]
    assert [(e.name, e.value, e.step) for e in events if isinstance(e, EvalResult)] == [("eval_loss", 2.50, 30)]


def test_an_evaluation_under_another_counter_than_the_steps_stays_an_evaluation() -> None:
    # (nanoGPT's shape: ``iter`` lines train, a ``step`` line estimates the splits' losses; no step of its own)
    events = GenericParser().feed(["iter 480: loss 2.10, time 50.1ms", "iter 490: loss 2.08, time 50.3ms",
                                   "step 500: train loss 2.0049, val loss 2.0904"])
    assert [s.step for s in events if isinstance(s, TrainStep)] == [480, 490]
