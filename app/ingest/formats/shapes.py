"""Line shapes that a format's row in the registry and its parser both read: one pattern, one place.

A row's signature is usually a pattern only the sniffer needs (registry.py). A few are also what
the parser reads the line with; those live here, where both can import them without the registry
importing a parser.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

# trainer_state.json's own keys, as the Trainer writes them (hf_state.py; a signature too).
STATE_KEY = re.compile(r'^\s*"(?:log_history|trial_params|is_world_process_zero|should_training_stop)": ')
# unsloth's banner (a signature of the HF Trainer's row), which opens its start-up as it loads the model (``==((====))==  Unsloth
# 2025.6.4: Fast Qwen3 patching.``) and its Trainer's run (``==((====))==  Unsloth - 2x faster free finetuning | Num GPUs = 1``).
UNSLOTH_BANNER = re.compile(r"^==\(\(====\)\)==\s+Unsloth\b")
# The HF Trainer's notebook progress (NotebookProgressCallback) copied as text: ``[ 22/290 02:50 < 38:04,
# 0.12 it/s, Epoch 0.36/5]`` -- the step right-aligned to the total's width, elapsed < remaining, the
# rate (``it/s`` only, two decimals), and the epoch, which only the training bar carries (an
# evaluation's is ``[ 5/10 00:02 < 00:03]``). Before its first timing it reads ``[ 1/290 : < :, …``.
NOTEBOOK_LINE = re.compile(
    r"\[ *(\d{1,12})/(\d{1,12}) (?:(\d[\d:]{0,11})(?: < (\d[\d:]{0,11}), (\+?inf|\d{1,9}(?:\.\d+)?) it/s)?| ?: < :)"
    r", Epoch (\d{1,6}(?:\.\d+)?)/\d{1,6}\]"
)

# ``trainer.log_metrics(split, metrics)`` (the HF Trainer's example scripts, once a job is over): a header naming the job's
# split through the logger (``***** train metrics *****``, ``eval``, ``test``, ``predict``, or a script's own: ``best``), then
# one ``  key = value`` line a metric, printed bare, keys sorted and ``=``-aligned (``  train_runtime            =
# 0:12:34.56``, ``  total_flos = 123GF``). The word ``metrics`` tells such a block from the ``***** Running training *****``
# banner that opens the run (its ``  Num Epochs = 3`` lines are the plan, hf_trainer.py and banner.py).
METRICS_HEADER = re.compile(r"\*{5} (\w{1,40}) metrics \*{5}")
METRICS_ROW = re.compile(r"\s{0,8}(\w{1,80})\s*=\s*(\S{1,40})\s*")
# The same kind of block from the scripts before ``log_metrics``: BERT's run_classifier and run_pretraining, the HF
# examples of 2019-20 (``***** Eval results *****``, ``***** Eval results checkpoint-500 *****``), then ``  key = value``
# rows through the logger: an evaluation's results once it is over.
# (A script's own copy may name the epoch or step it evaluated and its split as a set: ``***** [epoch 3] devset eval
# results *****``, ``***** [step 500] dev set results *****``.)
RESULTS_HEADER = re.compile(r"(?i)\*{5} (?:\[(?:epoch|step) \d{1,9}\] )?(eval|evaluation|test|dev|valid|validation)"
                            r"(?: ?set)?(?: eval(?:uation)?)? results(?: [^*]{0,80})? ?\*{5}")

# nanoGPT's notes, said of every usual line (nanogpt.py reads the general line with the same words).
NANOGPT_LOSS_NOTE = "last micro-batch"
NANOGPT_MFU_NOTE = "not measured yet: nanoGPT printed -100% (its first iterations)"
LLMC_MFU_NOTE = "unknown: llm.c printed -100% (GPU not in its table)"
# nanochat's MFU is 0.00 when its peak-FLOPS table lacks the GPU (research §1.3).
MFU_ZERO_NOTE = "unknown: nanochat printed 0.00 (GPU not in its peak-FLOPS table)"
NANOCHAT_LOSS_NOTE = "smoothed (EMA, debiased)"


# What a usual line's column reads as: the TrainStep field it fills and how (pipeline.py converts).
COLUMNS = frozenset({"step", "total_steps", "progress_percent", "loss", "grad_norm", "lr", "lr_multiplier",
                     "tokens_per_second", "step_ms", "mfu", "elapsed_ms", "avg_ms", "eta_minutes", "epoch",
                     "parquet_index", "row_group"})
# The columns a run of usual lines keeps for the history import's bulk path (StepRun's).
RUN_COLUMNS = ("step", "loss", "step_ms", "mfu")


@dataclass(frozen=True)
class UsualLine:
    """A trainer's usual step line: what an every-step log is made of, read whole by one pattern.

    The line pipeline reads a line that ``pattern`` takes whole (``fullmatch``) straight into its
    step, without the general reading (prefix, ``\\r``, glued records, wraps): the pattern must hold
    only the trainer's own words, digits, signs and dots, start as no prefix starts, hold no second
    record's start after position 0 and end so that nothing can continue it (a unit, a closing
    bracket). Its named groups are ``columns`` (COLUMNS) and ``evals`` (an evaluation's figure,
    named by its group). ``example`` is a real line of this shape: the parser's general reading of
    it must give the same events (tests/ingest/formats/test_pipeline.py).

    A usual line with a loss is also read in bulk by the history import: a stretch of such lines
    (each with its loss and none of its evaluations) is one ``StepRun``, its figures in columns,
    found by one pattern over the whole batch (pipeline.py). ``figures_only`` (optional, for a
    line whose groups are exactly the run columns: step, loss, step_ms, mfu) maps every character
    of the line that is not a figure away and the separators to ``,``: the stretch's figures then
    read in one pass.
    """

    pattern: re.Pattern[str]
    example: str
    stage: str = "train"
    loss_note: str | None = None
    mfu_note: str | None = None  # said of a step whose MFU the trainer printed as unmeasured
    mfu_unmeasured: Literal["negative", "zero"] = "negative"  # how it prints an MFU it could not measure
    evals: tuple[str, ...] = ()
    figures_only: Mapping[int, str | None] | None = None

    @property
    def head(self) -> str:
        """The line's first five characters: the cheap test before the pattern."""
        return self.example[:5]

    @property
    def columns(self) -> tuple[str, ...]:
        """The pattern's column groups, in the order the line prints them."""
        order = sorted(self.pattern.groupindex.items(), key=lambda item: item[1])
        return tuple(name for name, _ in order if name not in self.evals)

    @property
    def in_columns(self) -> bool:
        """True when a stretch of these lines is read in bulk as one ``StepRun`` (the line has a loss)."""
        return "loss" in self.columns


