"""Hugging Face ``transformers.Trainer`` (and TRL, Axolotl, … which print the same way).

Research note §3.1. The Trainer prints ``str(dict)`` of its logs through ``tqdm.write``: no
timestamps (``at=None`` unless a launcher's or logger's prefix gave the line a time:
app/ingest/formats/prefix.py), no step number. The step comes from the training bar
``  6%|▋         | 50/750 [00:32<07:28,  1.56it/s]``, which tqdm redraws with ``\\r`` and a
dict can be glued straight after. Values are floats (4.x), quoted ``.4g`` strings (2025/26),
bare ``nan``; very old versions print JSON with a ``step`` key.

Which bar is the training bar: the one whose total is ``Total optimization steps``, or that a
``{'loss': …}`` dict follows; any other bar is an evaluation's. Until one of those says, bar
positions are held, not guessed (a cold start can begin inside an evaluation).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Literal

from ...stats.events import (
    EvalResult,
    Event,
    RunInfo,
    StageEnd,
    StageStart,
    StepFigures,
    TrainingPause,
    TrainStep,
    builder,
)
from .bar_descriptions import described, epoch_begins
from .fields import Kind, clock_seconds, describes_eval_run, finite, integer, number, side_job
from .hf_state import DOCUMENT_LINE, JSON_LINE, TrainerState
from .pipeline import EmitLines
from .prefix import LineTimes
from .shapes import METRICS_HEADER, METRICS_ROW, NOTEBOOK_LINE

Emit = Callable[[], list[Event]]
_train_step = builder(TrainStep)  # one for every redraw of the bar

# A tqdm bar as far as the line holds it. A terminal copy cuts a wide bar at its width (no
# closing bracket, ``4/203 [00:37<30:55,  9.33s/i``): each figure is read only when what follows
# it shows it whole (the total before `` [``, the clock before ``<``, the rate before its unit).
# A bar cut right after its total (``  1%|▎     | 4/388`` as a copy's last line) holds it whole only where its
# percentage says so (a total cut short of its digits would be ten times too small for it).
_BAR = re.compile(
    r"(\d{1,3})%\|[^|]{0,400}\| ?(\d{1,12})/(\d{1,12})(?: \[|(?=\s*$))"
    r"(?:(\d[\d:]{0,11})(?=<))?(?:<([\d:?]{1,12})(?=,))?"
    r"(?:,\s*(\d{1,9}(?:\.\d+)?)(it/s|s/it|it/|it|i|s/i|s/|s))?"
)
# Lightning's validation bar (``Validating:``, ``Validation DataLoader 0:``), drawn beside the training's.
_VALIDATING = re.compile(r"\s*Validati(?:ng|on)\b")
# A bar's postfix pairs, up to its closing bracket: the loss and learning rate a script's bar prints.
_POSTFIX = re.compile(r"[,\s](loss|step_loss|lr)=(-?\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf)(?=[,\]\s])")
# The Trainer's notebook progress copied as text: NOTEBOOK_LINE (shapes.py, a signature too).
# The table the notebook draws under it, copied as text: ``Step  Training Loss  Validation Loss``
# (``Epoch …`` when it evaluates each epoch), then a row a log, ``500\t1.234500\t1.301200``, with
# ``No log`` before the first training log. The training loss of each row is read. Copied from a page that turned the
# HTML table into Markdown (a GitHub issue), its cells are ``|``-separated under a ``-- | -- | --`` rule
# (``Step | Training Loss | reward | …`` over ``11 | 0.000100 | -17.250000 | …``: TRL's GRPO under unsloth).
_NOTEBOOK_TABLE = re.compile(r"\s*(Step|Epoch)(?:\s+|\s*\|\s*)Training Loss\b")
_NOTEBOOK_ROW = re.compile(
    r"\s*(\d{1,12})(?:\s+|\s*\|\s*)(No log|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|nan|inf)(?:\s|\||$)")
_TABLE_RULE = re.compile(r"\s*\|?\s*:?-{2,}:?(?:\s*\|\s*:?-{2,}:?)*\s*\|?\s*$")
_PAIR = re.compile(r"(['\"])([^'\"]{1,200})\1: ('[^']{0,200}'|\"[^\"]{0,200}\"|[-+\w.]{1,64})")
# The Trainer's header (``Total optimization steps = 1,548``), unsloth's banner (``Total steps = 312``); the BERT scripts'
# block under the same heading (google-research/bert's ``run_classifier.py`` and its TF and PyTorch ports: ``Num steps =
# 8242``), read only under the training's heading (an evaluation's block counts its own pass's steps).
_TOTAL_STEPS = re.compile(r"(?:Total (?:optimization )?|Num )steps = ([\d,]+)")
# unsloth's banner as it loads the model names its version (``==((====))==  Unsloth 2025.6.4: Fast Qwen3 patching.``)
_UNSLOTH_VERSION = re.compile(r"^==\(\(====\)\)==\s+Unsloth \d{4}\.\d")
# unsloth_train prints ``<0-based step>, <loss>`` right after the bar: ``…12.21s/it]80, 2.0887``.
# A record glued after a bar that leads with its step and names its loss plainly (``step=100 loss=2.4075 dt=55.9 …``; a
# ``train_loss``/``val_loss`` beside it is an evaluation's estimate, not this step's loss)
_GLUED_RECORD = re.compile(r"(?:step|iter|iteration)\s?[=:]\s?\d{1,12}\b.{0,400}?(?<![\w/])(loss)\s?[=:]\s?"
                           r"(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|nan|inf)(?![\w.])")
# The Trainer's evaluation starting, glued after a bar's closing bracket behind its logger's prefix (PaddleNLP's)
_GLUED_EVALUATION = re.compile(r"\*{5} Running (?:Evaluation|Prediction) \*{5}")
_BAR_SUFFIX = re.compile(r"^\]?(\d{1,12}), (-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|nan|inf)\s*$")
# A bar redraw then tqdm's cursor-up (``ESC[A``): a bar drawn under another, its total before `` [``.
_NESTED_BAR = re.compile(r"\d/(\d{1,12}) \[[^\]\r\n]{0,80}\]\x1b\[A")
# Bars of one total that advance this many times with nothing else said are the training bar
# (a log of bars alone: stderr captured, stdout not; an evaluation bar comes and goes with a dict).
BARS_TO_TRUST = 2
# A traceback's frame (behind a rank's prefix or not): the line after it is source code.
_FRAME_LINE = re.compile(r'(?:^|\]:)\s*File "[^"]{1,400}", line \d+, in \S')
# A traceback's frame in the Trainer's training loop (``trainer.py", line 2237, in train``).
_TRAIN_FRAME = re.compile(r'trainer\.py", line \d+, in (?:train|_inner_training_loop|training_step)$')
_CHECKPOINT = re.compile(r"Saving model checkpoint to \S*checkpoint-(\d{1,12})\b")
_DICT_START = re.compile(r"\{['\"]")
# ``trainer.log_metrics``' blocks (shapes.py): the split names the job, ``train`` (the training's summary, its dict's
# figures again), ``eval``, ``test`` or ``predict``; a script's own split (``best``) is none of them.
_EVALUATED_SPLITS = frozenset({"eval", "test", "predict"})
# A row of the training's block read into its summary: the epoch and the ``train_…`` figures (the memory and flos rows
# are the run's bookkeeping).
_TRAIN_ROW = re.compile(r"\s{0,8}(epoch|train_\w{1,60})\s*=\s*(\d[\d:.]{0,30}|nan|inf)\s*")
_METRIC = re.compile(r"\s{1,8}((?:eval|test|predict)_\w{1,60}|perplexity)\s*=\s*(-?[\d.]+(?:[eE][-+]?\d+)?|nan|inf)\s*")
# ``Training completed. Do not forget to share your model on huggingface.co/models =)`` (the
# Trainer's end of ``train()``; printed alone, or as ``Training completed.`` by older copies).
_COMPLETED = re.compile(r"^\s*Training completed\.?(?: Do not forget to share your model\b.*)?\s*$")
_STEP_KEYS = {"loss", "learning_rate", "grad_norm", "epoch", "num_input_tokens_seen", "step", "global_step", "total_flos"}
# ms-swift's additions to the Trainer's dict (its ``ProgressCallbackNew``): the step and the run's total as one
# string (``'global_step/max_steps': '5/3766'``), the run's clock and the time left (``'1m 29s'``), and its speed
# over the whole run so far, in iterations a second or seconds an iteration.
_SWIFT_POSITION = re.compile(r"(\d{1,12})/(\d{1,12})")
_SWIFT_SPEED = {"train_speed(iter/s)": True, "train_speed(s/it)": False}  # (True: iterations a second)
_SWIFT_KEYS = {"global_step/max_steps", "percentage", "elapsed_time", "remaining_time", *_SWIFT_SPEED}
SWIFT_SPEED_NOTE = "train_speed as printed, the run's mean so far"
# A printed dict whose opening brace the paste left out (``'loss': -0.0, 'grad_norm': 0.0, …}``): its pairs, from
# its first key on.
_BRACELESS = re.compile(r"'[A-Za-z_][\w/()]{0,60}': (?:-?\d|'|nan\b|inf\b)")


class HfTrainerParser(EmitLines):
    """HF Trainer console lines in, step/eval events out (undated but for a prefix's time)."""

    name = "hf-trainer"

    def __init__(self) -> None:
        self._times = LineTimes()
        self._start_emitting()
        self._train_total: int | None = None
        self._bar_total: int | None = None  # total of the most recent bar
        self._nested_totals: set[int] = set()  # totals of bars drawn under another (the evaluation's: see whole_line)
        self._lines_read = 0
        self._line_bar = False  # the line under way drew a bar
        # An evaluation's dict glued after a bar on its line, held until the next line says its step (see _checkpoint)
        self._late_eval: tuple[int, list[EvalResult]] | None = None
        self._dict_steps = False  # the log dicts name their step
        self._step: int | None = None  # last training-bar position
        self._epochs: tuple[int, int, int] | None = None  # (epoch, the run's epochs, its batches) said as it began
        self._unconfirmed: TrainStep | None = None  # a bar position before the training bar is known
        self._confirmed = False  # a loss dict followed a bar of the training total
        self._rate_seconds: float | None = None  # the last step time a bar printed whole
        self._logged = 0  # loss dicts seen while no bar gives the step
        # The first loss dict after a bar it confirmed at its total, as a logged step: a second dict with no
        # bar between says that bar was some other work's (a dataset's preparation), not the training's.
        self._after_full_bar: TrainStep | None = None
        self._advancing: tuple[int, int, int] | None = None  # (total, position, bars) of bars alone
        # (loss, epoch, lr as printed; printed through a logger) of the last log record
        self._last_record: tuple[tuple[str | None, ...], bool, frozenset[str], bool] | None = None
        self._bar_since_record = False
        self._through_logger = False  # the line being read came through a logger's prefix
        self._evaluating = False  # an evaluation began and no training record followed yet
        self._in_training_block = False  # the last ``***** Running … *****`` heading read was the training's
        self._after_eval = False  # the last record was an evaluation's dict, no bar drawn since
        self._eval_seconds: float | None = None  # that dict's ``eval_runtime``
        # A ``trainer_state.json`` (the log's first line opens a JSON document), False: console lines.
        self._state: TrainerState | Literal[False] | None = None
        self._after_bar = False  # the last line (or piece of one) read was a bar
        self._bar_before = False  # the line before the one just read was a bar
        self._in_table = False  # the lines are the rows of the notebook's loss table
        self._table_steps = False  # and its first column is the step (not the epoch)
        self._frame_before = False  # the last line was a traceback's frame: its source line follows
        self._brace: str | None = None  # a first line ``{`` held until the next says what it opens
        # The text _split_record last searched for a bar and what it found: the same text is
        # classified next, and the bar pattern is the dearest part of a redraw.
        self._searched: tuple[str, re.Match[str] | None] | None = None
        # The end-of-training summary was read: what stdout and stderr flush after it (the closing
        # bar at its total, ``TrainOutput(global_step=N, …)``) gives the run's last position.
        self._summarised = False
        self._summary = ""
        self._summary_loss: float | None = None  # its ``train_loss``
        # The training's ``***** train metrics *****`` block under way, its rows so far (None: no such block under way).
        self._train_block: list[str] | None = None
        self._last_logged: tuple[float | None, float | None, float | None] = (None, None, None)  # loss, lr, epoch

    # --- the pipeline's hooks (pipeline.py) ------------------------------------------

    def source_lines(self, lines: Iterable[str]) -> Iterable[str]:
        """The lines, once the first has said whether the file is a ``trainer_state.json``."""
        return self._documents(lines)

    def joins_dicts(self) -> bool:
        """Not inside a ``trainer_state.json``: its document reader takes its lines as written."""
        return not self._state

    def whole_line(self, raw: str, events: list[Event]) -> bool:
        """A ``trainer_state.json``'s line, read by its document reader (hf_state.py); notes a bar drawn nested."""
        self._lines_read += 1
        self._line_bar = False
        if "\x1b[A" in raw:
            # tqdm draws a second bar under the first and moves the cursor back up after each redraw (``ESC[A``): the
            # Trainer's evaluation bar under its training bar. That total counts an evaluation's batches, whenever
            # it is drawn again (the final ``trainer.evaluate()`` after training, drawn alone, with no cursor-up).
            self._nested_totals.update(int(m.group(1)) for m in _NESTED_BAR.finditer(raw))
        if self._state and raw.strip() and not JSON_LINE.match(raw):
            self._state = False  # not a JSON document after all (a tail that began in a printed config)
        if self._state:
            events.extend(self._state.take(raw))
            return True
        return False

    def message(self, cleaned: str, line: str) -> str | None:
        """The message, unless it is a traceback frame's source line; notes whether a logger printed it."""
        if self._frame_before:
            # A traceback's source line (``_training_function(config={"args": args})``): code,
            # not a dict the Trainer printed.
            self._frame_before = False
            if not _FRAME_LINE.search(line):
                return None
        self._frame_before = _FRAME_LINE.search(line) is not None
        self._through_logger = len(line) < len(cleaned.strip())
        return line

    def read_part(self, part: str, events: list[Event]) -> bool:
        """A blank redraw is nothing; a bar redraw and nothing else is read without the joiner."""
        if not part.strip():
            return True
        bar = _bare_bar(part) if not self._joiner.holding else None
        if bar is None:
            return False
        # A redraw and nothing else: what the general reading does with it, without its splits
        # and joiner (see _bare_bar).
        self._times.unprefixed()
        self._joiner.took_record()
        self._after_bar = True
        events.extend(self._bar(bar))
        return True

    def pieces(self, part: str) -> Iterable[str]:
        """A bar and a dict glued together, as two; a record glued after a bar, as two."""
        texts = _split_dict(part)
        if len(texts) == 1:
            return self._split_record(texts[0])
        return [piece for text in texts for piece in self._split_record(text)]

    def line_read(self, events: list[Event], start: int) -> None:
        """One line's bar redraws: only the last position of each run of them."""
        if len(events) - start > 1:
            events[start:] = _last_position(events[start:])
        if self._late_eval is not None and self._late_eval[0] != self._lines_read:
            events.extend(self._late_eval[1])  # (the line after it said no step of its own: the bar's step stands)
            self._late_eval = None

    def batch_end(self, events: list[Event]) -> None:
        """An evaluation's dict held at the batch's end goes out at the step it was read at."""
        if self._late_eval is not None:
            events.extend(self._late_eval[1])
            self._late_eval = None

    def extra_bad(self) -> int:
        """A ``trainer_state.json``'s entries that could not be read."""
        return self._state.bad if self._state else 0

    def _documents(self, lines: Iterable[str]) -> Iterator[str]:
        """The lines, once the log's first lines have said whether it is a ``trainer_state.json``
        (hf_state.py): a JSON document's own lines, or a lone ``{`` and a document's key after it
        (a lone ``{`` before anything else is a dict wrapped after its brace)."""
        for raw in lines:
            if self._state is None and raw.strip():
                if self._brace is None and raw.strip() == "{":
                    self._brace = raw
                    continue
                document = DOCUMENT_LINE.match(raw) is not None and (self._brace is None or raw.startswith('  "'))
                self._state = TrainerState() if document else False
                if self._brace is not None and not document:
                    yield self._brace
            yield raw

    def renewed(self) -> HfTrainerParser:
        """A parser for the same file written again from its start: a ``trainer_state.json``
        rewritten at the next checkpoint goes on from the global step of the last one read."""
        fresh = HfTrainerParser()
        if self._state:
            fresh._state = TrainerState(after=self._state.after)
        return fresh

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """What a piece of a Trainer's console line is: a bar, a log dict, a header, a table row."""
        after_bar, self._after_bar = self._after_bar, False
        self._bar_before = after_bar
        if self._in_table:
            row = _NOTEBOOK_ROW.match(text)
            if row is not None:
                loss = None if row.group(2) == "No log" else number(row.group(2))
                if self._table_steps and self._step is None:
                    # A table with no progress line above it (the page's copy of the table alone): each row is
                    # the step its first cell names, with the mean loss since the row before
                    logged = TrainStep(at=None, stage="train", step=int(row.group(1)), loss=loss,
                                       loss_note=None if loss is None else "mean since the last log")
                    return Kind.FULL, lambda: [logged]
                return Kind.FULL, lambda: [] if loss is None else [
                    StepFigures(at=None, loss=loss, loss_note="mean since the last log")]
            if _TABLE_RULE.match(text):
                return Kind.OTHER, None  # (the Markdown rule under the header)
            self._in_table = False
        if "Training Loss" in text:
            header = _NOTEBOOK_TABLE.match(text)
            if header is not None:
                self._in_table, self._table_steps = True, header.group(1) == "Step"
                return Kind.OTHER, None
        stripped = text.lstrip()
        if after_bar and "loss" in text:
            record = _GLUED_RECORD.match(stripped)
            if record is not None:
                # A loop's own record glued after its bar (wordplay's ezpz ``… 99/100 [00:13<00:00, 12.82it/s][date][INFO]
                # [trainer:837] - step=100 loss=2.4075 dt=55.9236 …``): the loss of the step the bar is at, as printed
                loss = number(record.group(2))
                return Kind.FULL, lambda: [StepFigures(at=None, loss=loss)]
        if after_bar and stripped.startswith("Traceback (most recent call last)"):
            # Python's report of an uncaught exception right after a bar held until now (glued
            # to it, or on the next line): the run died at that bar.
            return Kind.FULL, self._died_training
        if stripped == "{":
            return Kind.PARTIAL, None  # a wrap right after the brace
        if (stripped.startswith("'") and not self._joiner.holding and text.rstrip().endswith(("}", ","))
                and "{" not in stripped and _BRACELESS.match(stripped)):
            stripped = "{" + stripped  # (the dict's pairs, whole or wrapped after a comma: only its brace was lost)
        if stripped.startswith(("{'", '{"')):
            if not stripped.rstrip().endswith("}"):
                return Kind.PARTIAL, None
            pairs = _pairs(stripped)
            if not pairs:
                return Kind.PARTIAL, None
            quoted = "': '" in stripped or '": "' in stripped
            return Kind.FULL, lambda: self._dict(pairs, quoted)
        if "|" in text and "/" in text:
            searched = self._searched
            m = searched[1] if searched is not None and searched[0] is text else _BAR.search(text)
            if m is not None and side_job(text[: m.start()]):
                # Loading the checkpoint's shards, mapping a data set, an evaluation's own bar: not
                # the training loop, whose position it must never take.
                if _VALIDATING.match(text):
                    # (Lightning's ``Validating:   0%|…| 0/10`` after the training's bar: a pause, and its batches)
                    batches = int(m.group(3))
                    return Kind.FULL, lambda: [TrainingPause(at=None, reason="evaluation", batches=batches)]
                return Kind.FULL, None
            if m is not None:
                self._after_bar = True
                begins = epoch_begins(text[m.end() :])
                if begins is not None:
                    self._epochs = begins  # (glued after the bar it follows: the next bar's epoch)
                if "Traceback (most recent call last)" in text[m.end() :]:
                    return Kind.FULL, lambda: self._bar(m) + self._died_training()
                suffix = _BAR_SUFFIX.match(text[m.end() :])
                if suffix is not None:
                    return Kind.FULL, lambda: self._bar(m, suffix)
                return Kind.FULL, lambda: self._bar(m)
        if "Epoch " in text and "/" in text:
            m = NOTEBOOK_LINE.search(text)
            if m is not None:
                return Kind.FULL, lambda: self._notebook(m)
        if 'File "' in text and self._unconfirmed is not None and self._train_total is None and _TRAIN_FRAME.search(text):
            # A traceback through the Trainer's training loop after a bar held until now: the
            # run died training, at that bar (a log of one bar and a crash).
            return Kind.FULL, self._died_training
        if text.startswith("TrainOutput(global_step=") and self._summarised:
            m = _TRAIN_OUTPUT.match(text)
            if m is not None:
                done = int(m.group(1))
                return Kind.FULL, lambda: self._train_output(done)
        if "Saving model checkpoint to" in text:
            m = _CHECKPOINT.search(text)
            if m is not None:
                saved = int(m.group(1))
                return Kind.FULL, lambda: self._checkpoint(saved)
        if "Training completed" in text and _COMPLETED.search(text):
            # The Trainer's last word after its last step: the run is over (a save and a final
            # evaluation may follow; the ``train_runtime`` summary, when printed, says more).
            summary = text.strip()
            return Kind.FULL, lambda: [StageEnd(at=None, summary=summary)]
        if "Beginning of Epoch" in text:
            begins = epoch_begins(text)
            if begins is not None:
                self._epochs = begins
                return Kind.FULL, None
        if self._train_block is not None:
            if " = " in text and METRICS_ROW.fullmatch(text):
                return Kind.FULL, lambda: self._train_row(text)
            self._train_block = None  # (any other line ends the block)
        if "*****" in text:
            self._in_training_block = "Running training" in text
            if self._in_training_block:
                return Kind.FULL, lambda: self._running(False, [StageStart(at=None)])
            if "Running Evaluation" in text or "Running Prediction" in text:
                return Kind.FULL, lambda: self._running(True, [TrainingPause(at=None, reason="evaluation")])
            header = METRICS_HEADER.search(text)
            if header is not None and header.group(1) in _EVALUATED_SPLITS:
                # The examples' ``trainer.log_metrics("eval", …)``: an evaluation job's results
                # (the end of the job when it trained nothing).
                return Kind.FULL, lambda: [StageEnd(at=None, summary=text.strip(), evaluation=True)]
            if header is not None and header.group(1) == "train":
                return Kind.FULL, lambda: self._train_metrics(text.strip())
        if " = " in text and text.startswith("  "):
            m = _METRIC.fullmatch(text)
            if m is not None and not describes_eval_run(m.group(1)):
                metric = EvalResult(at=None, name=m.group(1), value=number(m.group(2)))
                return Kind.OPEN, lambda: [metric]
        if text.startswith("==((====))==") and _UNSLOTH_VERSION.match(text):
            # unsloth's start-up, as it loads the model, before any step: the run known, waiting for its first step (the
            # banner its Trainer prints as the run starts says its steps on the rows under it)
            return Kind.FULL, lambda: [RunInfo(at=None)]
        if " steps = " in text and ("Total " in text or (self._in_training_block and "Num steps" in text)):
            m = _TOTAL_STEPS.search(text)
            if m is not None:
                total = integer(m.group(1))
                return Kind.OPEN, lambda: self._total(total)
        if text.rstrip().endswith("}") and "': " in text:
            return Kind.FRAGMENT, None
        return Kind.OTHER, None

    def _split_record(self, text: str) -> list[str]:
        """A bar cut at the terminal's width with a logging record glued after it: the bar, then
        the record's message (its prefix peeled and its time noted)."""
        if "|" not in text or "/" not in text:
            return [text]
        m = _BAR.search(text)
        self._searched = (text, m)
        if m is None or m.end() >= len(text) or not text[m.end() :].strip():
            return [text]
        end = m.end()
        if text[end : end + 2] == "][" and (_GLUED_RECORD.search(text, end) or _GLUED_EVALUATION.search(text, end)):
            # (a whole bar's closing bracket, then a record behind its logger's prefix: ezpz's step record ``…
            # 12.82it/s][2024-04-02 01:59:54][INFO][trainer:837] - step=100 loss=2.4075 …``, PaddleNLP's evaluation
            # starting ``… 3.37it/s][2022-03-25 16:41:50,060] [    INFO] - ***** Running Evaluation *****``)
            end += 1
        tail = self._times.message(text[end:], False)
        if tail is None or tail == text[end:]:
            return [text]  # no record after the bar, just the rest of it
        return [text[:end], tail]

    def died(self) -> list[Event]:
        """The line just read ended the run (a crash line, app/ingest/formats/crash.py): a bar held
        until now and glued to it, or on the line before it, was the training step it died at (a
        launcher's NCCL watchdog glued to the only bar drawn), unless an evaluation was under way."""
        return self._died_training() if (self._after_bar or self._bar_before) and not self._evaluating else []

    def _died_training(self) -> list[Event]:
        held = self._unconfirmed
        if held is None or self._train_total is not None:
            return []
        self._train_total, self._step, self._unconfirmed, self._confirmed = held.total_steps, held.step, None, True
        return [held]

    def _running(self, evaluating: bool, events: list[Event]) -> list[Event]:
        self._evaluating = evaluating
        return events

    def _checkpoint(self, saved: int) -> list[Event]:
        """The Trainer saves ``checkpoint-N`` at global step N: a held bar at that position trains; an evaluation's
        dict just before it, printed late after a later bar, was step N's (the Trainer evaluates, then saves)."""
        events: list[Event] = []
        if self._late_eval is not None:
            events.extend(replace(r, step=saved, late=True) if r.step is not None and r.step > saved else r
                          for r in self._late_eval[1])
            self._late_eval = None
        held = self._unconfirmed
        if held is not None and held.step == saved and held.total_steps is not None and not self._confirmed:
            self._train_total = held.total_steps
            self._step = held.step
            self._unconfirmed = None
            self._confirmed = True
            events.append(held)
        events.append(TrainingPause(at=None, reason="checkpoint"))
        return events

    def _train_metrics(self, header: str) -> list[Event]:
        """``***** train metrics *****``: the training is over. After the summary dict (the usual log) its rows are the
        dict's figures again, rounded: nothing new. Alone (a log that kept only the script's own prints) it is the
        summary, its rows read as they come (a live read may end inside the block), its ``epoch = 30.0`` the run's
        epoch beside the last step read."""
        if self._summarised:
            return []
        self._train_block = []
        return [StageEnd(at=None, summary=header)]

    def _train_row(self, text: str) -> list[Event]:
        """A row of the training's block: the block's summary so far, in place of what it said before."""
        row = _TRAIN_ROW.fullmatch(text)
        if row is None or self._train_block is None:
            return []
        self._train_block.append(f"{row.group(1)} {row.group(2)}")
        epoch = finite(number(row.group(2))) if row.group(1) == "epoch" else None
        return self._ended_at(StageEnd(at=None, summary=", ".join(self._train_block), amends=True), epoch)

    def _ended_at(self, ended: StageEnd, epoch: float | None) -> list[Event]:
        """The training's end, and before it the run's final epoch its summary names, said beside the last step once a
        training step was read (:meth:`_stepped`)."""
        return [StepFigures(at=None, epoch=epoch), ended] if epoch is not None and self._stepped() else [ended]

    def _stepped(self) -> bool:
        """True once a training step was read (a bar at 0 is none)."""
        return (self._step or 0) > 0 or self._logged > 0

    def _total(self, total: int | None) -> list[Event]:
        if total is None or total <= 0:
            return []
        self._train_total = total
        return [RunInfo(at=None, total_steps=total)]

    def _train_output(self, done: int) -> list[Event]:
        """``trainer.train()``'s return value printed after the summary: the run's last step."""
        if self._step is not None and done <= self._step:
            return []
        total = self._bar_total if self._bar_total == done else self._train_total
        self._step = done
        return self._closing(_train_step(at=None, stage="train", step=done, total_steps=total))

    def _closing(self, step: TrainStep, epoch: float | None = None) -> list[Event]:
        """The last position read after the summary, with the last logged figures, and the summary again
        (a step clears an end summary read before it)."""
        loss, lr, _ = self._last_logged
        note = "mean since the last log" if loss is not None else None
        if loss is None and self._summary_loss is not None:
            # (no loss dict read: the summary's ``train_loss``, the mean over the whole run, said as such)
            loss, note = self._summary_loss, "train_loss: the whole run's mean"
        # (Not the epoch: the position is the whole run's step, and the stage keeps the last epoch logged.)
        last = replace(step, loss=loss, loss_note=note, lr=lr)
        said = [] if epoch is None else [StepFigures(at=None, epoch=epoch)]  # (the summary's own epoch, the run's)
        return [last, *said, StageEnd(at=None, summary=self._summary)]

    def _bar(self, m: re.Match[str], suffix: re.Match[str] | None = None) -> list[Event]:
        n, total = int(m.group(2)), int(m.group(3))
        if m.string[m.end(3) : m.end(3) + 2] != " [" and not _whole_total(int(m.group(1)), n, total):
            return []  # cut inside its total
        if total in self._nested_totals and total != self._train_total:
            # (an evaluation's bar: see whole_line; a pause once the training bar is known)
            return [TrainingPause(at=None, reason="evaluation")] if self._train_total is not None and n > 0 else []
        after_eval, self._after_eval = self._after_eval, False
        self._line_bar = True
        self._bar_since_record = True
        self._bar_total = total
        before: list[Event] = []
        if self._train_total is None and not self._evaluating and after_eval and 0 < n < total:
            # The first bar after an evaluation's dict is training's again (the Trainer draws its evaluation's bar
            # before the dict): its total is the run's, its position the step (alpaca-lora's ``4/388`` after the
            # loss and eval dicts of steps 2 and 4). A full one may be the next evaluation set's bar: not taken.
            self._train_total, self._confirmed, resumed = total, True, True
        else:
            resumed = False
        elapsed = clock_seconds(m.group(4)) if m.group(4) else None
        if (self._train_total is None and not self._evaluating and after_eval and n == 0 and elapsed is not None
                and self._eval_seconds is not None and 1 <= math.floor(self._eval_seconds) <= elapsed):
            # A bar at 0 drawn again under an evaluation's dict, its clock already past that evaluation's runtime
            # (``0/6000 [00:06<?`` under ``'eval_runtime': 6.6494``): the Trainer writes the dict through the
            # training bar, which redraws itself below it (``ProgressCallback.on_log``); the evaluation's own bar was
            # closed before (``on_evaluate``) and a new one starts at 00:00. So the bar is training's and its total
            # the run's, though no step is done yet (an evaluation before training: Intel's distillation).
            self._train_total, self._confirmed, self._step = total, True, 0
            return [RunInfo(at=None, total_steps=total)]
        if self._train_total is None and not self._evaluating and self._trust_bars_alone(n, total):
            held = self._unconfirmed
            if held is not None and held.total_steps == total and held.step < n:
                before.append(held)  # the position held until now was a training step too
                self._step = held.step
        other = self._train_total is not None and total != self._train_total
        if n == 0 and not other:
            self._step = 0
            return [StageStart(at=None)] if self._train_total is not None else []
        same = n == self._step and not other
        if same and not (self._train_total is None and self._dict_steps and n > 0 and not self._evaluating):
            return []  # a redraw of the same position
        if same:
            # The bar at the step the dicts named last (PaddleNLP's ``'global_step': 200`` then ``200/600``): the
            # training bar, its total the run's, its rate the step's.
            self._train_total, self._confirmed = total, True
        rate, unit = number(m.group(6)), m.group(7)
        if rate is not None and rate > 0 and unit is not None:
            # tqdm's own smoothed rate: ``it/s`` (or what a cut left of it) or ``s/it``. Its
            # elapsed clock ticks in whole seconds, too coarse for a step of half a second.
            self._rate_seconds = 1 / rate if unit.startswith("i") else rate
        step_seconds = self._rate_seconds
        loss = None
        if suffix is not None and int(suffix.group(1)) == n - 1:
            loss = number(suffix.group(2))  # unsloth_train: the loss of the step the bar just counted
        lr = None
        if m.string[m.end() : m.end() + 1] == ",":
            # A script's bar with its postfix (diffusers' training scripts, under the Trainer's ``***** Running
            # training *****`` header: ``Steps:  50%|…| 1/2 [01:17<01:17, 77.90s/it, loss=0.0858, lr=5e-6]``)
            posted = dict(_POSTFIX.findall(m.string, m.end(), m.end() + 400))
            loss = number(posted.get("loss", posted.get("step_loss"))) if loss is None else loss
            lr = number(posted.get("lr"))
        said = described(m.string[: m.start()]) if loss is None and m.start() > 8 else None
        if said is not None:
            loss = said.loss  # (a custom loop's ``Epoch 2, Step 5, Loss: 1.1681:`` before its bar of the whole run)
        step = _train_step(
            at=None,
            stage="train",
            step=n,
            total_steps=total,
            elapsed_seconds=clock_seconds(m.group(4)),
            step_seconds=step_seconds,
            trainer_eta_seconds=clock_seconds(m.group(5)),
            loss=loss,
            lr=lr,
        )
        if said is not None and said.epoch is not None:
            epochs = self._epochs if self._epochs is not None and self._epochs[0] == said.epoch else None
            step = replace(step, epoch=said.epoch, epoch_total=epochs[1] if epochs is not None else None,
                           epoch_batch=said.step_in_epoch if epochs is not None else None,
                           epoch_batches=epochs[2] if epochs is not None else None)
        if self._summarised and self._train_total is None and n == total and not self._evaluating:
            self._train_total = total  # the training bar closing after the summary: the run's end
            self._step = n
            return self._closing(step)
        if self._train_total is None or other:
            # Which bar trains is not known yet (a cold start may begin inside an evaluation),
            # or this is another bar: hold the position until a loss dict says it trains.
            self._unconfirmed = step if n > 0 else None
            return [TrainingPause(at=None, reason="evaluation")] if other else []
        self._step = n
        if resumed and self._last_logged[0] is not None and step.loss is None:
            # (the dicts before it printed no step: their last loss is the latest, logged at or before this step)
            step = replace(step, loss=self._last_logged[0], loss_note="mean since the last log", lr=self._last_logged[1])
        return before + [step]

    def _notebook(self, m: re.Match[str]) -> list[Event]:
        """A notebook progress line: a training step (its epoch says so), with the Trainer's clocks."""
        n, total = int(m.group(1)), int(m.group(2))
        if n <= 0 or total <= 0 or n == self._step:
            return []
        rate = number(m.group(5))
        if rate is not None and math.isfinite(rate) and rate > 0:
            self._rate_seconds = 1 / rate
        self._train_total, self._bar_total, self._step, self._confirmed = total, total, n, True
        self._unconfirmed = None
        return [
            TrainStep(
                at=None,
                stage="train",
                step=n,
                total_steps=total,
                elapsed_seconds=clock_seconds(m.group(3)),
                step_seconds=self._rate_seconds,
                trainer_eta_seconds=clock_seconds(m.group(4)),
                epoch=finite(number(m.group(6))),
            )
        ]

    def _callback_record(self, pairs: dict[str, str], values: dict[str, float | None]) -> list[Event]:
        """LLaMA-Factory's callback record: the step, the total and the elapsed time, as printed."""
        step = integer(pairs.get("current_steps"))
        if step is None:
            return []
        total = integer(pairs.get("total_steps"))
        if total is not None and total > 0:
            self._train_total = total
        self._step = step
        return [
            TrainStep(
                at=None,
                stage="train",
                step=step,
                total_steps=total if total is not None and total > 0 else self._train_total,
                loss=values.get("loss"),
                loss_note="mean since the last log",
                lr=finite(values.get("lr", values.get("learning_rate"))),
                grad_norm=values.get("grad_norm"),
                epoch=finite(values.get("epoch")),
                elapsed_seconds=clock_seconds(pairs.get("elapsed_time")),
                trainer_eta_seconds=clock_seconds(pairs.get("remaining_time")),
            )
        ]

    def _echo_figures(self, values: dict[str, float | None]) -> list[Event]:
        """The figures of an echoed record that its first printing lacked, for the same log."""
        figures = tuple(
            (k, v) for k, v in values.items() if k not in _STEP_KEYS and v is not None and finite(v) is not None
        )
        tokens_seen = values.get("num_input_tokens_seen")
        if values.get("grad_norm") is None and not figures and tokens_seen is None:
            return []
        return [StepFigures(at=None, grad_norm=values.get("grad_norm"), figures=figures,
                            tokens_seen=int(tokens_seen) if tokens_seen is not None and finite(tokens_seen) else None)]

    def _trust_bars_alone(self, n: int, total: int) -> bool:
        """Bars of one total that keep advancing, with no header or dict to say: the training bar."""
        seen = self._advancing
        if seen is None or seen[0] != total or n <= seen[1]:
            self._advancing = (total, n, 1)
            return False
        bars = seen[2] + 1
        self._advancing = (total, n, bars)
        if bars >= BARS_TO_TRUST:
            self._train_total = total
            return True
        return False

    @staticmethod
    def _logged_step(logged: int, values: dict[str, float | None]) -> TrainStep:
        """A loss dict as the ``logged``-th step of a log that prints no step number."""
        figures = tuple(
            (k, v) for k, v in values.items() if k not in _STEP_KEYS and v is not None and finite(v) is not None
        )
        return TrainStep(
            at=None,
            stage="train",
            step=logged,
            loss=values.get("loss"),
            loss_note="mean since the last log",
            lr=finite(values.get("learning_rate")),
            grad_norm=values.get("grad_norm"),
            epoch=finite(values.get("epoch")),
            figures=figures,
            logged=True,
        )

    def _dict(self, pairs: dict[str, str], quoted: bool = False) -> list[Event]:
        first_record = self._last_record is None and not self._summarised
        if "lr" in pairs and "epoch" in pairs and "loss" not in pairs and "learning_rate" not in pairs:
            # TRL's on-policy trainers (PPO, RLOO) name the learning rate ``lr`` and the policy's loss, PPO's loss,
            # ``loss/policy_avg`` (its value loss stays a figure); their ``episode`` counts episodes, no step.
            pairs = {("learning_rate" if k == "lr" else k): v for k, v in pairs.items()}
            if "loss/policy_avg" in pairs:
                pairs["loss"] = pairs.pop("loss/policy_avg")
        values = {k: number(v) for k, v in pairs.items()}
        bar_between = self._bar_since_record
        self._after_eval = "eval_loss" in pairs and "loss" not in pairs
        self._eval_seconds = number(pairs.get("eval_runtime", "")) if self._after_eval else None
        if "loss" in pairs or "learning_rate" in pairs or "current_steps" in pairs:
            # The same record twice in a row, nothing between (LLaMA-Factory's callback logs the
            # Trainer's dict again, before or after it, rounded its own way: ``0.0000`` for
            # ``0.0``, ``4.9999e-02`` for ``0.04999871…``): one log, counted once.
            printed = (pairs.get("loss"), pairs.get("epoch"), pairs.get("learning_rate", pairs.get("lr")))
            last = self._last_record
            keys = frozenset(pairs)
            # Printed by another hand: one bare and one through a logger, other keys (the echo has
            # no grad norm), or other digits for the same figures (a fork prints its echo bare).
            # Two dicts printed alike are two logs (a broken run repeats itself exactly), and the
            # Trainer's quoted ``.4g`` strings round too coarsely to tell a log from its echo. Other
            # digits are an echo's only when one printing is rounded to fixed digits (``0.0000``,
            # ``4.9999e-02``): two of Python's own float printings that differ are two values (a
            # warm-up's ``0.0002`` after ``0.00019285714285714286``).
            echo = (last is not None and not self._bar_since_record
                    and all(_same_figure(a, b) for a, b in zip(printed, last[0]))
                    and (last[1] != self._through_logger or last[2] != keys
                         or (printed != last[0] and not quoted and not last[3]
                             and not (_as_python_prints(printed) and _as_python_prints(last[0])))))
            self._last_record = (printed, self._through_logger, keys, quoted)
            self._bar_since_record = self._evaluating = False
            if echo and "current_steps" not in pairs:
                # What only the second printing holds (the Trainer's grad norm beside a callback's
                # echo) belongs to the same log. (LLaMA-Factory's own record, with the step and
                # its clock, is read whichever comes first: it says more.)
                assert last is not None
                return self._echo_figures({k: v for k, v in values.items() if k not in last[2]})
        if "current_steps" in pairs:
            return self._callback_record(pairs, values)
        if "train_runtime" in pairs and "loss" not in pairs:
            # The end-of-training summary (``train_loss``, not ``loss``). unsloth Studio logs
            # ``train_runtime`` in every step's dict, next to the step's own ``loss``.
            summary = ", ".join(f"{k} {v.strip(chr(39))}" for k, v in pairs.items())
            self._summarised = True
            self._summary = summary
            self._summary_loss = finite(number(pairs.get("train_loss", "").strip("'")))
            # The run's epoch as it ended (``'epoch': 30.0``), said beside its last step, as a loss dict's epoch is
            epoch = finite(values.get("epoch"))
            held = self._unconfirmed
            if (held is not None and self._train_total is None and not self._evaluating
                    and held.total_steps is not None and held.step == held.total_steps):
                # A bar at its total held until now (no loss dict said which bar trains: a log cut after the last
                # one), then the Trainer's summary of the training: that bar was the training's, at its end.
                self._train_total, self._step, self._unconfirmed, self._confirmed = held.total_steps, held.step, None, True
                return self._closing(held, epoch)
            return self._ended_at(StageEnd(at=None, summary=summary), epoch)
        if any(k.startswith("eval_") for k in pairs):
            results = [
                EvalResult(at=None, name=k, value=v, step=self._step)
                for k, v in values.items()
                if k.startswith("eval_") and not describes_eval_run(k)
            ]
            if self._line_bar and self._step:
                # Glued after a bar redrawn on its line: the dict was printed late (stdout buffered, the bar on
                # stderr), the bar's step may be past the evaluation's. Held for the next line (see _checkpoint).
                self._late_eval = (self._lines_read, results)
                return []
            evaluated: list[Event] = list(results)
            return evaluated
        if "loss" not in pairs and "learning_rate" not in pairs:
            return []
        events: list[Event] = []
        held = self._unconfirmed
        # (a bar that counted all of its items within its first second, before the log's first dict, was something
        # else's: see below)
        full = (first_record and held is not None and held.total_steps is not None
                and held.total_steps == self._bar_total and held.step >= held.total_steps
                and held.elapsed_seconds is not None and held.elapsed_seconds < 1)
        if self._bar_total is not None and self._bar_total != self._train_total and not self._confirmed and not full:
            # The first training log dict follows the training bar (the Trainer logs, then
            # evaluates): its total is the number of steps, whatever a header said. (A bar full within its first
            # second, before the first dict, was something else's: a data set's preparation, ``7/7 [00:00<00:00,
            # 1809.34it/s]`` (Time-MoE); a run that logs loss dicts after it takes longer than that.)
            self._train_total = self._bar_total
            if held is not None and held.total_steps == self._bar_total:
                self._step = held.step
                events.append(held)
                if held.step == held.total_steps and "loss" in pairs and "step" not in pairs:
                    self._after_full_bar = self._logged_step(1, values)
        elif full and not self._confirmed and self._train_total is None and self._step is None:
            self._bar_total = None  # (its dicts are then logged steps, as in a log without a bar)
        elif self._after_full_bar is not None and "loss" in pairs and not bar_between and not self._summarised:
            # Two loss dicts after the bar's end, no bar redrawn between: training goes on past that bar's
            # total, so it counted something else; the dicts are the run's only record, its position their epoch.
            first, self._after_full_bar = self._after_full_bar, None
            self._train_total = self._bar_total = self._step = None
            self._confirmed = False
            self._logged = 1
            events.append(first)
        else:
            self._after_full_bar = None
        self._unconfirmed = None
        # (Confirmed only by a bar: a dict read before any bar confirms nothing, and the bars
        # after it must still be able to say which one trains.)
        self._confirmed = self._confirmed or (self._bar_total is not None and self._bar_total == self._train_total)
        figures = tuple(
            (k, v) for k, v in values.items()
            if k not in _STEP_KEYS and k not in _SWIFT_KEYS and v is not None and finite(v) is not None
        )
        tokens_seen = integer(pairs.get("num_input_tokens_seen"))
        if "loss" in pairs:
            self._last_logged = (values.get("loss"), finite(values.get("learning_rate")), finite(values.get("epoch")))
        # pre-4.x / TF trainer: JSON with the step in it; PaddleNLP's copy of the Trainer names it ``global_step``
        step_value = integer(pairs.get("step") if "step" in pairs else pairs.get("global_step"))
        total = self._train_total
        swift = _SWIFT_POSITION.fullmatch(pairs.get("global_step/max_steps", ""))
        if step_value is None and swift is not None:
            step_value, total = int(swift.group(1)), int(swift.group(2)) or total
        if step_value is not None:
            self._step = step_value
            self._dict_steps = True
            speed = _swift_seconds(pairs)
            return events + [
                TrainStep(
                    at=None,
                    stage="train",
                    step=step_value,
                    total_steps=total,
                    loss=values.get("loss"),
                    loss_note="mean since the last log",
                    lr=finite(values.get("learning_rate")),
                    grad_norm=values.get("grad_norm"),
                    step_seconds=speed,
                    elapsed_seconds=_clock_text(pairs.get("elapsed_time")),
                    trainer_eta_seconds=_clock_text(pairs.get("remaining_time")),
                    epoch=finite(values.get("epoch")),
                    figures=figures,
                    step_seconds_note=SWIFT_SPEED_NOTE if speed is not None else None,
                )
            ]
        if self._step is None and self._bar_total is None and "loss" in pairs:
            # No bar in this log (tqdm drew it on the terminal's stderr; ``> train.log`` keeps only
            # stdout): each loss dict is one logged step, and the epoch is the position.
            self._logged += 1
            events.append(self._logged_step(self._logged, values))
            if tokens_seen is None:
                return events
            return events + [StepFigures(at=None, tokens_seen=tokens_seen)]
        return events + [
            StepFigures(
                at=None,
                loss=values.get("loss"),
                loss_note="mean since the last log",
                lr=finite(values.get("learning_rate")),
                grad_norm=values.get("grad_norm"),
                epoch=finite(values.get("epoch")),
                tokens_seen=tokens_seen,
                figures=figures,
            )
        ]


_TRAIN_OUTPUT = re.compile(r"TrainOutput\(global_step=(\d{1,12}), ")


def _swift_seconds(pairs: dict[str, str]) -> float | None:
    """One step's time from ms-swift's ``train_speed`` (the run's mean so far), or None."""
    for key, per_second in _SWIFT_SPEED.items():
        speed = finite(number(pairs.get(key)))
        if speed is not None and speed > 0:
            return 1 / speed if per_second else speed
    return None


def _clock_text(text: str | None) -> float | None:
    """ms-swift's ``'1m 29s'``, ``'18h 37m 22s'``, ``'0s'`` in seconds, or None."""
    if not text or _CLOCK_TEXT.fullmatch(text) is None:
        return None
    return sum(float(figure) * _CLOCK_UNITS[unit] for figure, unit in _CLOCK_PART.findall(text))


_CLOCK_TEXT = re.compile(r"(?:\d{1,6}d ?)?(?:\d{1,6}h ?)?(?:\d{1,6}m ?)?(?:\d{1,6}(?:\.\d+)?s)?")
_CLOCK_PART = re.compile(r"(\d+(?:\.\d+)?)([dhms])")
_CLOCK_UNITS = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}


def _bare_bar(part: str) -> re.Match[str] | None:
    """The bar of a piece of a line that is one bar redraw and nothing else (spaces, the bar, its ``]``).

    Such a piece reads the same without the general reading's steps: it holds no dict to split
    off (no ``{``), nothing after the bar (no record, no traceback, no unsloth loss), so it is one
    FULL record; the text after the bar (``]``) is read as a message without a prefix, which
    leaves the line undated, as :meth:`LineTimes.unprefixed` does.
    """
    if "{" in part or "|" not in part or "/" not in part or not part.endswith("]"):
        return None
    m = _BAR.search(part)
    if m is None or m.end() != len(part) - 1 or (m.start() and not part[: m.start()].isspace()):
        return None
    return m


def _last_position(events: list[Event]) -> list[Event]:
    """One physical line's bar redraws: keep only the last position of each run of them.

    In a file tqdm redraws with ``\\r`` and no newline, so a line arrives only when a dict is
    written: it is one step line covering every step since the previous one.
    """
    kept: list[Event] = []
    for event in events:
        if isinstance(event, TrainStep) and kept and isinstance(kept[-1], TrainStep) and not kept[-1].logged:
            kept[-1] = event
        else:
            kept.append(event)
    return kept


def _pairs(text: str) -> dict[str, str]:
    """``'key': value`` pairs of a printed dict (no ``literal_eval``: it fails on bare nan)."""
    return {m.group(2): m.group(3).strip("'\"") for m in _PAIR.finditer(text)}


def _same_figure(a: str | None, b: str | None) -> bool:
    """Two printings of one figure: equal once each is rounded to the other's printed digits."""
    if a is None or b is None:
        return a is b
    x, y = number(a), number(b)
    if x is None or y is None or not (math.isfinite(x) and math.isfinite(y)):
        return x is not None and y is not None and (x == y or (math.isnan(x) and math.isnan(y)))
    return abs(x - y) <= max(_half_unit(a), _half_unit(b)) * (1 + 1e-9)


def _as_python_prints(figures: tuple[str | None, ...]) -> bool:
    """True when every figure is printed as Python prints a float (its shortest form), not
    rounded to fixed digits by another hand."""
    for text in figures:
        if text is None:
            continue
        value = number(text)
        if value is None or (repr(value) != text.strip() and str(integer(text)) != text.strip()):
            return False
    return True


def _half_unit(text: str) -> float:
    """Half the unit of the last digit printed: ``0.0000`` → 5e-05, ``4.9999e-02`` → 5e-07."""
    mantissa, _, exponent = text.strip("'\" ").lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    power = integer(exponent.lstrip("+")) if exponent else 0
    return 0.5 * 10.0 ** ((power or 0) - decimals)


def _split_dict(part: str) -> list[str]:
    """A bar with a dict glued after it: the bar, then the dict; a dict with a bar glued after
    it: the dict, then the bar."""
    if "{" not in part:
        return [part]
    head = part.lstrip()
    if head.startswith(("{'", '{"')):
        close = part.find("}")
        rest = part[close + 1 :] if close >= 0 else ""
        if rest.strip() and "|" in rest and _BAR.search(rest) is not None:
            return [part[: close + 1], rest]
        return [part]
    m = _DICT_START.search(part)
    if m is None or m.start() == 0 or not part[: m.start()].strip():
        return [part]
    return [part[: m.start()], part[m.start() :]]


def _whole_total(percent: int, n: int, total: int) -> bool:
    """A bar's percentage is its count over this total, rounded or floored as tqdm prints it."""
    if total <= 0:
        return False
    exact = 100 * n / total
    return percent in (math.floor(exact), math.floor(exact + 0.5))
