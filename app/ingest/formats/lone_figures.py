"""A step record's figures under names of their own, none of them the loss it trains by, as the generic reader reads them.

A record that prints nothing beside its position but a figure or a few, each under a name no rule knows: steppy's
``epoch 0 batch 418 sum: 2.32141`` and TEACH's ``Epoch 69: Train_rf 4.856e-01`` print the loss (its usual letters or
names, ``LOSS_NAMES``, or a training split's own); PyMC's ADVI ``Iteration 2000 [10%]: ELBO = -294.57`` and a GAN's
``Epoch [1/50] D: 0.6718, G: 2.3379`` figures under their own names, none a loss. A name that says it is no such figure
(a count, a size, a setting, a rate, a time, memory) makes the line no record.

An evolutionary search's line a generation prints its fitness the same way, under its own name, beside its position
(``Generation 12, Best Fitness: 0.93``): never a loss, a search raises its fitness.
"""

from __future__ import annotations

from .classes import NOT_LONE, kin_of
from .fields import number
from .grammar import EVAL_WORDS, SCORED_WORDS, Field, Reading, normalise

# The names under which a step record's one figure is the loss it trains by (docs/figures.md, "A step's own figures";
# ``loss`` itself and ``*_loss`` are the grammar's and the headed rules'): the usual letters for a loss or a cost
# (``L``, ``J``), a named criterion (``nll``, ``ce``, ``bce``, ``xent``), a cost or an error the run minimises
# (``cost``, ``err``, ``error``, ``objective``; k-means' ``inertia``, the within-cluster sum of squares scikit-learn's
# KMeans lowers each iteration), and steppy's TrainingMonitor's ``sum`` of the losses. Any other name (a GAN's ``G:``,
# ``entropy``, ``kl``, ``value``, an ``ELBO`` raised, ``fitness``, a reward) is a figure under its own name.
LOSS_NAMES = frozenset({"l", "j", "nll", "ce", "bce", "xent", "cost", "err", "error", "objective", "obj", "inertia",
                        "sum"})
# The most figures such a record prints under names of their own (a GAN's two networks', a few more): beyond, a table.
LONE_FIGURES_MAX = 4


def lone_figure(unknown: list[tuple[str, str | None, str, str | None]],
                readings: list[Reading]) -> tuple[tuple[tuple[str, float], ...], bool] | None:
    """The figures of a step record that prints nothing else beside its position, each under a name no rule knows,
    and whether the one it prints is the loss it trains by: steppy's ``epoch 0 batch 418 sum: 2.32141`` (its
    TrainingMonitor's ``epoch {} batch {} {name}: {loss}`` of the summed losses) and TEACH's ``Epoch 69: Train_rf
    4.856e-01   Memory 10.0%`` (its progress callback's ``Train_{loss}``) print the loss; PyMC's ADVI ``Iteration 2000
    [10%]: ELBO = -294.57`` and a GAN's ``Epoch [1/50] D: 0.6718, G: 2.3379`` figures under their own names, none a
    loss. One figure is the loss where its name is one of ``LOSS_NAMES`` or a training split's own (``Train_rf``),
    never a score's; any other, and each of several (none a loss's name), is shown under its own name. None where the
    record prints anything else but its position (a figure with its unit, memory's ``10.0%``, aside), several figures
    one of which is named as a loss, a whole number, or a name that says it is no such figure (prose, an evaluation's,
    a count, a rate, a setting)."""
    if (not all(r.field in (Field.STEP, Field.EPOCH, Field.TOTAL) for r in readings)
            or not any(r.field in (Field.STEP, Field.EPOCH) for r in readings)
            or any(r.name == "episode" for r in readings)):
        return None  # (an RL loop's episode line: its score is its return, read by _episode_line)
    unitless = [entry for entry in unknown if entry[3] is None]
    if not 1 <= len(unitless) <= LONE_FIGURES_MAX:
        return None
    figures: list[tuple[str, float]] = []
    lossy = False
    for raw, paren, value_text, _ in unitless:
        name = normalise(raw)
        words = name.split(" ")
        if (" " in raw.strip() or "-" in raw or paren is not None or "loss" in words
                or set(words) & (EVAL_WORDS | NOT_LONE)):
            # (prose, ``the loss was 2.3``; a loss's own name is the headed rules', ``load_balancing_loss``; a data
            # set's metric, ``train-rmse``, the boosting rounds')
            return None
        if kin_of(name, None) is not None:
            return None
        if value_text.lstrip("+-").isdigit():
            return None  # a whole number counts something (DeepSpeed's ``step=3, skipped=0``): no loss so printed
        value = number(value_text)
        if value is None:
            return None
        scored = bool(set(words) & SCORED_WORDS)
        lossy = lossy or (not scored and (name in LOSS_NAMES or "loss" in name  # (glued: ``lossD``)
                                          or (len(words) == 2 and words[0] == "train")))
        figures.append((raw.strip(), value))
    if lossy and len(figures) > 1:
        return None  # (a loss beside other figures: which is the model's, the line does not say; a GAN's ``lossD:
        # 0.45 lossG: 1.21`` its networks' losses, the generic reader's _part_losses')
    return tuple(figures), lossy


# What an evolutionary search's generation line prints beside its fitness that is no figure of the search's progress:
# a count, a size, a setting, a rate, a time (``Best Size: 4``, the best individual's own size, not read).
_NOT_GENERATION_FIGURE = NOT_LONE - {"best", "min", "max"}


def generation_figures(unknown: list[tuple[str, str | None, str, str | None]],
                       readings: list[Reading]) -> tuple[tuple[tuple[str, float], ...], bool] | None:
    """The figures of an evolutionary search's line a generation (``Generation 12, Best Fitness: 0.93``, ``Generation 10
    | Best Fitness: -5 | Best Size: 5``): its position the generation (said so, TrainStep.counter), its fitness, best or
    mean, a figure under its own name, never a loss (a search raises its fitness; a loss printed so is the grammar's);
    a count or a size beside it (``Best Size``) no figure. None for any other line, or one whose figures are none of
    these (a line of prose)."""
    if (not all(r.field in (Field.STEP, Field.TOTAL) for r in readings)
            or not any(r.field is Field.STEP and r.name == "generation" for r in readings)):
        return None
    figures: list[tuple[str, float]] = []
    for raw, paren, value_text, unit in unknown:
        words = normalise(raw).split(" ")
        if unit is not None or paren is not None or len(words) > 3 or set(words) & (EVAL_WORDS | _NOT_GENERATION_FIGURE):
            continue
        value = number(value_text)
        if value is not None:
            figures.append((raw.strip(), value))
    return (tuple(figures), False) if 1 <= len(figures) <= LONE_FIGURES_MAX else None
