"""An evaluation's results printed as a block of ``key = value`` rows, as the generic step reader reads them.

The BERT fine-tuning scripts and the transformers examples copied from them (pytorch-pretrained-bert's and Google BERT's
``run_classifier``, ``run_glue``/``run_ner`` of 2019-20, JointBERT's trainer) log ``***** Eval results *****`` (or
``***** Eval results sst-2 *****``, ``***** Test results *****``) when an evaluation is over, then one ``  key = value``
row a figure, keys sorted, through the logger (``MM/DD/YYYY HH:MM:SS - INFO - __main__ -`` before each). The rows are
held until a line of another kind ends the block, so that the block's ``global_step`` (sorted among them) places every
figure of it.

What a ``loss`` row is depends on the script, told apart by what the block prints beside it:

- beside ``eval_loss`` it is never the evaluation's: pytorch-pretrained-bert's ``run_classifier.py`` prints ``loss =
  tr_loss/global_step``, the training's mean over the run (``None`` where nothing was trained), and Google BERT's
  ``run_classifier.py`` prints the Estimator's ``loss``, the same evaluation's loss again (``eval_loss`` = ``loss``): the
  block's evaluation loss is its ``eval_loss``, and its ``loss`` is no figure of the evaluation;
- with no ``eval_loss`` it is the evaluation's: JointBERT's ``evaluate`` returns ``{"loss": eval_loss, …}``, as the
  transformers ``run_ner.py`` of 2019-20 does (``***** Eval results  *****`` then ``  loss = 0.0718``).
"""

from __future__ import annotations

import re

from .fields import describes_eval_run, number

# The tail of a tqdm bar left on the line where a logger's line was printed over the bar (``***** Eval results
# *****█████| 4/4 [00:04<00:00,  1.07it/s]``): the bar's blocks, its count and its times, nothing after them.
REDRAWN_BAR_TAIL = re.compile(r"[█▉▊▋▌▍▎▏]{1,400}[ ▏▎▍▌▋▊▉█]{0,400}\|\s{0,4}\d{1,12}/\d{1,12} \[[^\]\[]{0,80}\]\s*$")
# A block's rows that are its bookkeeping, not figures of the model: the step or epoch of the checkpoint it evaluated
# (BERT's ``global_step = 343``, read as the block's step).
_BOOKKEEPING = frozenset({"global_step", "step", "epoch"})
# An evaluation's loss named so in a block: beside one, the block's ``loss`` is not the evaluation's (the module's docstring;
# ``dev_loss``: the same scripts' copies that name their split so).
_EVALUATION_LOSSES = frozenset({"eval_loss", "dev_loss"})
# The heading's split word for a test set's block (its figures named so where their names do not say it).
_TEST_SPLITS = frozenset({"test"})


class ResultsBlock:
    """One evaluation's results block under way: its figures and step so far."""

    def __init__(self) -> None:
        self.figures: list[tuple[str, float]] = []  # (name as read, value), in the block's order
        self.step: int | None = None  # the block's ``global_step``
        self.at: float | None = None  # the time of its first figure
        self._test = False  # the heading names a test set

    def begin(self, split: str) -> None:
        """A block headed by ``split`` (``eval``, ``dev``, ``test``…) begins."""
        self.figures, self.step, self.at = [], None, None
        self._test = split.lower() in _TEST_SPLITS

    def row(self, key: str, value: str, at: float | None) -> None:
        """Hold one ``key = value`` row (its step, a figure, or nothing: a count of the evaluation's own)."""
        if key == "global_step":
            step = number(value)
            self.step = int(step) if step is not None and step >= 0 and step == int(step) else None
            return
        figure = number(value)
        if figure is None or key in _BOOKKEEPING or describes_eval_run(key):
            return
        if self.at is None:
            self.at = at
        name = f"test_{key}" if self._test and not key.lower().startswith("test") else key
        self.figures.append((name, figure))

    def take(self) -> tuple[tuple[tuple[str, float], ...], int | None, float | None]:
        """The figures held (a ``loss`` beside an ``eval_loss`` left out: see the module's docstring), their step and
        time; the block held no more (rows read after this are held anew)."""
        names = {name.removeprefix("test_") for name, _ in self.figures}
        loss_beside = not names.isdisjoint(_EVALUATION_LOSSES)
        figures = tuple((name, value) for name, value in self.figures
                        if not (loss_beside and name in ("loss", "test_loss")))
        taken = figures, self.step, self.at
        self.figures, self.at = [], None
        return taken
