"""An evaluation's line that names the step it evaluated, before its scores.

A loop that evaluates every so many steps, or an evaluation run beside the training, may print its result led by the
step it scored, the evaluation's word, a linking word and the step's counter in one name::

    eval at step 400: acc 0.71
    Eval on step 2000 | BLEU 27.1 | loss 1.95

The grammar reads no position from ``eval … step`` (``eval_steps: 500`` is a setting), so the line reads as no record.
Each figure after it is that step's evaluation, under its name as printed: a score's word (``acc``, ``bleu``; a
return or a reward too, the evaluation's own where its word leads the line: ``Eval at episode 90: average reward 40.0``)
or a loss. An episode it names is that episode's evaluation only where the run counts episodes. The step is the one it names, whether the run has passed it or
not; it is never the run's position (docs/figures.md, "Evaluation figures shown").
"""

from __future__ import annotations

from .fields import number
from .grammar import EVAL_WORDS, SCORED_WORDS, normalise

# ``eval at step``, ``evaluation on global step``, ``valid @ iter``: the evaluation's word, then these, then the counter.
_LINKS = frozenset({"at", "@", "on", "for", "of", "after", "global"})
_COUNTERS = frozenset({"step", "iter", "iteration", "it", "update", "updates"})
# … or an RL loop's episode, said as such (TrainStep.counter): that episode's evaluation where the run counts episodes
_EPISODES = frozenset({"episode", "ep"})
EPISODE = "episode"
# Where a name gathers more than these words it is prose, not a counter's name.
_MAX_NAME_WORDS = 5


def evaluated_at(unknown: list[tuple[str, str | None, str, str | None]],
                 losses: bool = False) -> tuple[int, str | None, tuple[tuple[str, float], ...]] | None:
    """The step an evaluation's line names, what it counts (``episode``; None: steps) and its figures as printed (the
    module's docstring), or None: the first pair ``<eval word> [at] step N`` with a whole number, every other a score
    (the evaluation's return or reward too: the line is the evaluation's) or a loss with a number and no unit; one at
    least, unless the line's ``losses`` were read already (``eval at step 400: loss 1.95``)."""
    if len(unknown) < (1 if losses else 2):
        return None
    raw, paren, step_text, unit = unknown[0]
    words = normalise(raw).split(" ")
    if (paren is not None or unit is not None or not step_text.isdigit() or len(words) > _MAX_NAME_WORDS
            or words[0] not in EVAL_WORDS or words[-1] not in _COUNTERS | _EPISODES or not set(words[1:-1]) <= _LINKS):
        return None
    figures: list[tuple[str, float]] = []
    for raw, paren, value_text, unit in unknown[1:]:
        named = set(normalise(raw).split(" "))
        value = number(value_text)
        if paren is not None or unit is not None or value is None or not (named & SCORED_WORDS or "loss" in named):
            return None
        figures.append((raw.strip(), value))
    return int(step_text), EPISODE if words[-1] in _EPISODES else None, tuple(figures)
