"""The generic reader on records under a rule naming their step, figures named by a path and joined by `` / ``.

Shapes from real logs: dreamerv3's terminal output (danijar/dreamerv3 ``embodied/core/logger.py``,
``TerminalOutput``: a Rich rule ``Step N``, the figures ``name value`` joined by `` / ``, a blank line; without Rich
``[N] name value / …``), as printed in thomasbi1/cyberrunner issue #5 (a rule ``Step 15104``, its lines wrapped at
the terminal's width after a ``/`` and padded) and danijar/dreamerv3 issue #19 (a line wrapped between a name and its
value: ``…_opt_loss`` then ``1.4e4 /``). The figures are composed; every answer below is computed by hand.
"""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep
from app.stats.steps.text import figure_lines

RULE = "─" * 40


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_a_ruled_step_s_wrapped_figures_are_one_record_with_its_loss_parts_and_rates() -> None:
    block = [f"{RULE} Step 15104 {RULE}",
             "episode/length 3000 / episode/score 0.09 / train/loss/image 61.08 /          ",
             "train/loss/rew 0.52 / fps/train 1253.7 / train/actor_opt_loss -8.29",
             "",
             f"{RULE} Step 16128 {RULE}",
             "episode/length 3000 / train/loss/image 58.4 / train/loss/rew",  # wrapped between a name and its value
             "0.49 / fps/policy 30.5 / fps/train 1260.1",
             ""]
    first, second = steps(block)
    assert (first.step, first.loss) == (15104, None)  # none of the parts is the model's one loss
    assert first.figures == (("loss/image", 61.08), ("loss/rew", 0.52), ("rate/fps/train", 1253.7))
    assert second.step == 16128
    assert second.figures == (("loss/image", 58.4), ("loss/rew", 0.49), ("rate/fps/policy", 30.5),
                              ("rate/fps/train", 1260.1))
    assert figure_lines(dict(second.figures)) == ["Losses image 58.4 · rew 0.49",
                                                  "Rates fps/policy 30.5 · fps/train 1260.1"]


def test_a_later_agent_step_rule_and_the_record_without_rich() -> None:
    # dreamerv3's later ``--------------------[Agent Step 558_096]--------------------`` (danijar/dreamerv3 issue #182)
    ruled = ["-" * 20 + "[Agent Step 558_096]" + "-" * 20,
             "train/loss/dyn 4.25 / train/loss/rep 4.25 / fps/train 98.2"]
    (got,) = steps(ruled)
    assert (got.step, got.figures) == (558096, (("loss/dyn", 4.25), ("loss/rep", 4.25), ("rate/fps/train", 98.2)))
    plain = ["[1000] train/loss/image 70.5 / train/loss/rew 1.25 / fps/train 12.5",
             "[2000] train/loss/image 65 / train/loss/rew 1 / fps/train 13"]
    assert [(s.step, s.figures) for s in steps(plain)] == [
        (1000, (("loss/image", 70.5), ("loss/rew", 1.25), ("rate/fps/train", 12.5))),
        (2000, (("loss/image", 65.0), ("loss/rew", 1.0), ("rate/fps/train", 13.0)))]


def test_a_rule_that_names_no_step_or_a_lone_loss_part_is_no_record() -> None:
    # a rule around another title holds nothing; one ``loss/`` figure alone is no loss in parts, and no other
    # figure there is one tokwatch knows: no step is made up of it
    assert steps([f"{RULE} Config {RULE}", "seed 0 / batch 16", ""]) == []
    assert steps([f"{RULE} Step 10 {RULE}", "train/loss/image 1.5 / episode/score 3", ""]) == []
