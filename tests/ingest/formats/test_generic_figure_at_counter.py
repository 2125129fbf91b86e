"""A figure named before the counter it is of, the line ending in its value: ``<name> at <counter> N is|: <value>``.
Composed lines in the shapes real scripts print (each cited), the answers worked out by hand; DL4J's on a real log in
tests/data/real (its source in its header)."""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep
from tests.reallogs import body


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_a_loss_named_before_its_step_is_the_step_s_loss() -> None:
    # TensorFlow's word2vec tutorial (word2vec_basic.py: ``print('Average loss at step ', step, ': ', average_loss)``)
    # and the Udacity notebooks after it (``print('Average loss at step %d: %f' % (step, average_loss))``): step 2000,
    # loss 4.37; step 4000, loss 3.86
    got = steps(["Average loss at step  2000 :  4.37", "Average loss at step  4000 :  3.86"])
    assert [(s.step, s.loss) for s in got] == [(2000, 4.37), (4000, 3.86)]
    got = steps(["Average loss at step 2000: 4.372", "Average loss at step 4000: 3.861"])
    assert [(s.step, s.loss) for s in got] == [(2000, 4.372), (4000, 3.861)]


def test_dl4j_s_score_at_an_iteration_is_its_loss() -> None:
    # DL4J's ScoreIterationListener (``"Score at iteration {} is {}"``) logs the model's score, which DL4J documents
    # as the loss function's value on the minibatch: iteration 100, loss 0.5; iteration 200, loss 0.4 (composed in its
    # logback format)
    prefix = "10:00:0{}.000 [main] INFO org.deeplearning4j.optimize.listeners.ScoreIterationListener - "
    got = steps([prefix.format(1) + "Score at iteration 100 is 0.5", prefix.format(2) + "Score at iteration 200 is 0.4"])
    assert [(s.step, s.loss) for s in got] == [(100, 0.5), (200, 0.4)]
    assert all(not s.figures for s in got)  # (no figure named ``is``)


def test_dl4j_s_score_on_a_real_log() -> None:
    got = steps(body("generic-dl4j-houbb-lenet-mnist-score-iterations-880-930-starting-evaluation-nr-1-then-metrics.log"))
    # the last score line: ``Score at iteration 930 is 0.14243293480263844``
    assert (got[-1].step, got[-1].loss) == (930, 0.14243293480263844)
    assert [s.step for s in got] == [880, 890, 900, 910, 920, 930]


def test_a_score_named_so_elsewhere_is_not_a_loss() -> None:
    # only DL4J's listener's ``Score at iteration``: an evaluation's score at a step stays a figure of its own name
    got = steps(["Step 100 loss 0.9", "Step 200 loss 0.8", "BLEU at step 200: 31.4"])
    assert all(s.loss != 31.4 for s in got)
