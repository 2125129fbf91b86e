"""A run's closing summary, whoever wrote the trainer: the block of final figures printed once training ended.

A run that ends sums itself up in a few lines, and a paste of a finished run is often those lines alone: its own
words (``Total training time: 14.35m``, ``Final train loss: 3.076997``, ``Min val Loss: 3.410783``, a timestamp line
between them when copied from W&B's logs page) or wandb's block (``wandb: Run summary:`` over right-aligned
``wandb:   train_loss 3.07697`` rows). :class:`SummaryBlock` gathers such a block's rows and reads it as one
:class:`~app.stats.events.StageEnd` that says the run ended, its summary the final figures named as the log names
them. The block is placed before its first row (the run ended there, whatever the rows after it say), so the end
the page shows is the whole block's, not only its first line's (a step after it means the run went on after all).

A block is a run's end only where it says so: a ``Final …`` figure, the training's total time, or wandb's run
summary. ``Min …``/``Best …`` figures alone are what many runs print at every evaluation, so they only join a block.
"""

from __future__ import annotations

import re

from ...stats.events import StageEnd
from .fields import clean
from .paste import unpasted
from .prefix import PrefixReader

MAX_SUMMARY_CHARS = 240
MAX_ROWS = 64  # a block is never longer (wandb prints a row a logged key: its first rows are kept)

# The words a final figure's name holds: a loss, an evaluation's metric, a score.
_FIGURE = r"(?:loss|acc(?:uracy)?|bpb|ppl|perplexity|score|reward|return|error|f1|bleu|rouge\w*|wer|cer|auc|iou|map|psnr|ssim|metric)"
_NUMBER = r"[-+]?(?:(?i:nan|inf)|\d[\d,]*(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+)"
# ``Final train loss: 3.076997``, ``final_val_acc = 0.91``, ``Final perplexity 12.3``: a final figure, the run's end.
_FINAL = re.compile(rf"(?i)^final[ _](?:[\w./-]{{1,30}}[ _]){{0,3}}?{_FIGURE}\b[\w./-]{{0,20}}\s*(?:[:=]\s*|\s)\s*{_NUMBER}%?$")
# ``Min val Loss: 3.410783``, ``Best validation accuracy: 0.93``: a best figure, in a block only.
_BEST = re.compile(
    rf"(?i)^(?:min(?:imum)?|max(?:imum)?|best|lowest|highest)[ _](?:[\w./-]{{1,30}}[ _]){{0,3}}?{_FIGURE}\b[\w./-]{{0,20}}"
    rf"\s*(?:[:=]\s*|\s)\s*{_NUMBER}%?(?: \(?(?:at )?(?:step|epoch|iter\w*) \d+\)?)?$"
)
# ``Total training time: 14.35m``, ``Training time: 0:12:03``, ``Training took 861.2 s``: the training's own total.
_TIME = re.compile(r"(?i)^(?:total )?train(?:ing)? (?:time|took)\s*[:=]?\s*\d[\d:.,]*\s?(?:[a-z]{1,7})?\.?$")
# What a script prints before its words to dress them (``📊 Final training loss: 1.1465``, ``✓``, ``==>``, ``***``,
# ``>>>``, ``•``): up to four marks that are no word, number, bracket or quote, then spaces. The line reads as the
# undecorated one does.
_DECORATION = re.compile(r"^[^\w\s\[\](){}'\"`<]{1,4}\s*")
# (the marks: ASCII's arrows, stars and dashes, bullets, the dingbats and symbols blocks, emoji)
_DECORATION_MARKS = frozenset("=*>-•·→⇒") | frozenset(chr(c) for c in range(0x2190, 0x2C00))


def undecorated(message: str) -> str:
    """``message`` without the marks a script dresses it in (``📊 ``, ``==> ``); itself when it has none."""
    head = message[:1]
    if not head or head.isalnum() or (head not in _DECORATION_MARKS and ord(head) < 0x1F000):
        return message
    match = _DECORATION.match(message)
    return message[match.end():] if match is not None and match.end() < len(message) else message


# wandb's closing block: its header, its rows (a key, its last value), and the empty ``wandb:`` line that ends it.
_WANDB_SUMMARY = re.compile(r"^(?:wandb:\s+)?Run summary:\s*$")  # (its ``wandb:`` may be lost in a paste)
_WANDB_ROW = re.compile(r"^wandb:\s+(\S{1,120})\s+(\S{1,60})\s*$")
_WANDB_EMPTY = re.compile(r"^wandb:\s*$")
# The trainer's own step among the rows (verl's ``training/global_step``, HF's ``train/global_step``): the run's last
# step. (wandb's own ``_step`` counts its log calls, no training step.)
_STEP_ROW = re.compile(r"(?:[\w-]{1,40}/)?(?:global_step|step)")
# A line copied between the rows that holds no figure: a timestamp alone (W&B's logs page puts one above each line),
# an empty line.
_STAMP_ALONE = re.compile(r"^`{0,3}\s*\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]?\s*$")
# The lowered line's words a row may hold (the cheap test, before any prefix is peeled).
_MAYBE = re.compile(r"final|min|max|best|lowest|highest|train|wandb|run summary")


class SummaryBlock:
    """The closing summary under way, read a line at a time (its rows, where it began)."""

    def __init__(self) -> None:
        self._prefixes = PrefixReader(dates=False)
        self._rows: list[str] = []
        self._first = -1  # the index of its first row (the caller's count of lines)
        self._ends = False  # a row says the run ended (a final figure, the training's time, wandb's run summary)
        self._wandb = False  # inside wandb's run summary block
        self._step: int | None = None  # the trainer's own step among its rows

    def see(self, index: int, raw: str, low: str | None = None) -> tuple[int, StageEnd] | None:
        """Take the line at ``index`` (``low``: the line lowered, where the caller has it already); when it ends a
        block, the block's end and the index of the line before its first row (where the end belongs)."""
        low = raw.lower() if low is None else low
        if not self._rows and _MAYBE.search(low) is None:
            return None  # (the usual line: no block under way, no word a row holds)
        message = self._prefixes.read(unpasted(clean(raw).strip())).message.strip() if raw.strip() else ""
        if self._row(message):
            if self._first < 0:
                self._first = index
            return None
        if not self._rows:
            return None
        if not message or _STAMP_ALONE.match(message) or (self._wandb and _WANDB_EMPTY.match(message)):
            if self._wandb and _WANDB_EMPTY.match(message):
                self._wandb = False  # (wandb's block ends at its empty line; what follows is no row of it)
            return None  # (between rows: the block goes on, or ends with the next line that is no row)
        return self.end()

    def end(self) -> tuple[int, StageEnd] | None:
        """The block under way, ended (the lines read so far end with it): its end and where it belongs."""
        rows, first, ends, step = self._rows, self._first, self._ends, self._step
        self._rows, self._first, self._ends, self._wandb, self._step = [], -1, False, False, None
        if not ends or not rows:
            return None
        shown = [row for row in rows if not row.startswith("wandb: Run summary")]
        header = "wandb run summary: " if len(shown) < len(rows) else ""
        if header:  # (wandb lists its keys alphabetically: the losses first, then the other figures, then the rest)
            shown.sort(key=_rank)
        summary = header + " · ".join(shown)
        if len(summary) > MAX_SUMMARY_CHARS:
            summary = summary[: MAX_SUMMARY_CHARS - 1] + "…"
        return first - 1, StageEnd(None, summary=summary, said=True, step=step, figures=not header)

    @property
    def under_way(self) -> bool:
        """True while a block's rows are being read."""
        return bool(self._rows)

    def _row(self, message: str) -> bool:
        """Take ``message`` into the block when it is one of its rows."""
        if len(self._rows) >= MAX_ROWS:
            # (wandb's block goes on past the rows kept: its rows are still read for the trainer's step, not shown)
            row = _WANDB_ROW.match(message) if self._wandb and message.startswith("wandb:") else None
            if row is not None:
                self._take_step(row.group(1), row.group(2))
            return row is not None
        if message[:1] in "wR" and _WANDB_SUMMARY.match(message):
            self._wandb = self._ends = True
            self._rows.append("wandb: Run summary")
            return True
        if message.startswith("wandb:"):
            if self._wandb:
                row = _WANDB_ROW.match(message)
                if row is not None and not row.group(1).startswith("_"):  # (``_runtime``, ``_step``: wandb's own)
                    self._rows.append(f"{row.group(1)} {row.group(2)}")
                    self._take_step(row.group(1), row.group(2))
                return row is not None
            return False
        if message[:1] and not message[:1].isalnum():
            message = undecorated(message)
        if _FINAL.match(message) or _TIME.match(message):
            self._ends = True
            self._rows.append(message)
            return True
        if _BEST.match(message):
            self._rows.append(message)
            return True
        return False

    def _take_step(self, name: str, value: str) -> None:
        """Keep the trainer's own step when this row of wandb's summary is it."""
        if _STEP_ROW.fullmatch(name) and value.isdigit():
            self._step = int(value)


def _rank(row: str) -> int:
    name = row.partition(" ")[0].lower()
    return 0 if "loss" in name else 1 if re.search(_FIGURE, name) else 2


def names_figures(summary: str) -> bool:
    """True when a block's summary names a training figure (a loss, an evaluation's metric): a training run's."""
    return re.search(_FIGURE, summary, re.IGNORECASE) is not None
