"""Field readers shared by the step-trainer parsers, and the re-joining of wrapped lines.

Numbers arrive as ``1,000,264`` (thousands separators), ``'2.119'`` (HF's new quoted style),
``nan``, ``+nan``, ``inf``, ``-100.00`` (a "not measured" sentinel) or ``9.89e+14``
(research note §0.4). Nothing here raises on any input.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ...stats.events import EPOCH_STEP_SECONDS
from .paste import unescaped

# Colour codes and other CSI sequences (torchtitan colours every step line, bittensor and
# hivemind colour levels): research note §0.1.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
_DAYS = re.compile(r"(\d{1,6}) days?, (\d{1,2}:\d\d:\d\d)")
_THOUSANDS = re.compile(r"^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$")
# A line longer than this is no trainer's record: parse only its head (never slow, never raise).
MAX_LINE_CHARS = 16_384
# How a logger table's step time is worked out (stable-baselines' ``time_elapsed`` over its iterations): it prints
# no iteration's own time.
MEAN_SECONDS_NOTE = "the run's time over its iterations, as it prints both"
# … and where its position is its timesteps: one over the timesteps a second it prints (``fps``).
FPS_SECONDS_NOTE = "1 / the fps it prints"
# One over a rate of batches printed where no time is (OLMo's ``batches_per_second``): the step's time, worked out.
BATCHES_RATE_NOTE = "1 / the batches a second printed"


def logger_table_read(leaves: set[str]) -> bool:
    """Whether a Stable-Baselines table read in part (a batch ended inside it) holds what its record needs: its position,
    ``total_timesteps`` (printed after its counts of updates), and where its policy's loss is printed with no whole
    ``loss``, its value function's too (v2 prints it last): the loss's other part. Until then it is no record yet."""
    if "total_timesteps" not in leaves:
        return False
    return "loss" in leaves or "policy_loss" not in leaves or "value_loss" in leaves
# A rate named by its path (dreamerv3's ``fps/train``) is kept as a figure so named (``rate/fps/train``).
RATE_PART = "rate/"
# A count the run prints of what it has done so far, under its name (stable-baselines' ``total/timesteps``).
TOTAL_PART = "total/"
# An RL run's environment steps so far, as printed (stable-baselines' ``total_timesteps``).
ENV_TIMESTEPS = TOTAL_PART + "timesteps"
# A loss printed in its parts is kept as figures named so (``loss/box_loss``): none of them is the model's one loss.
LOSS_PART = "loss/"
# A step record's one figure under a name that is no loss's (a GAN's ``G``, ``entropy``, an RL loop's ``reward``) is
# kept as a figure so named (``figure/G``): shown beside the step under that name, never as its loss.
FIGURE_PART = "figure/"
# The one pattern for a printed number in every field of every format: a sign, thousands
# separators, decimals, an exponent, and the spellings of what is not finite (``nan``, ``-nan``,
# ``+nan``, ``inf``, ``-inf``, ``NaN``, ``Infinity``). Padding is the caller's: llm.c right-aligns
# its figures (``loss     nan (+nanz)``), so patterns put ``\s+`` before a number, never one space.
NUM = r"[-+]?(?:(?i:nan|inf(?:inity)?)|\d[\d,]*(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
# An evaluation's keys that describe the evaluation's own run (its time, speed, size), not the
# model: HF's ``eval_runtime``, ``eval_samples_per_second``, TRL's ``eval_num_tokens``, …
_EVAL_RUN_KEY = re.compile(
    r"(?:eval|test|predict)_(?:runtime|samples_per_second|steps_per_second|tokens_per_second|samples"
    r"|num_tokens|model_preparation_time|jit_compilation_time)"
)

# A progress bar's description that names a job beside the training loop: loading weights
# (``Loading checkpoint shards``), preparing data (datasets' ``Map``, ``Filter``, ``Generating train
# split``, ``Running tokenizer on dataset``), scanning or caching a data set (ultralytics' and YOLOv5's
# ``train: Scanning …/labels.cache... 597 images, 0 backgrounds, 0 corrupt``, ``Caching images``), fetching
# files, evaluating or generating. Its count is that job's, never the run's position.
_SIDE_JOB = re.compile(
    r"(?i)(?:^|[^\w])(?:load|map|filter|tokeni[sz]|download|fetch|resolv|generat|convert|preprocess"
    r"|extract|upload|sav|writ|shard|eval|valid|test|predict|infer|sampl|collat|packing|apply|creat"
    r"|encod|decod|scan|cach)\w*"
)


def side_job(description: str) -> bool:
    """True for a bar's description naming a job that is not the training loop (see ``_SIDE_JOB``)."""
    return bool(description.strip()) and _SIDE_JOB.search(description[-120:]) is not None


def describes_eval_run(key: str) -> bool:
    """True for an evaluation key that is its run's bookkeeping rather than a figure of the model."""
    return _EVAL_RUN_KEY.fullmatch(key) is not None


# A line of Python source: modded-nanogpt and its forks print their whole training script at the
# top of the log (its f-strings hold every record key), and a rule of ``=`` around it.
_SOURCE = re.compile(
    r"(?:\s|import |from \S+ import |def |class |@|#|\"\"\"|'''|if |elif |else:|for |while |try:|except"
    r"|finally:|with |return|raise |assert |print\(|[A-Za-z_][\w.\[\]'\"]*\s*[-+*/|&]?=[^=]|[)\]}]|={20,})"
)


def clean(line: str) -> str:
    """Drop colour codes, a trailing carriage return, NULs and a glued Markdown fence; cap the length."""
    if len(line) > MAX_LINE_CHARS:
        line = line[:MAX_LINE_CHARS]
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    if "\x00" in line:
        line = line.replace("\x00", "")
    line = line.rstrip("\r\n")
    if line.startswith("```") or line.endswith("```"):
        line = line.strip("`")  # a Markdown code fence glued to a pasted record: ```{'loss': 0.0133, …}```
    if "&" in line:
        # a line pasted into HTML (an issue's ``<pre>{&quot;epoch&quot;: 27, …}</pre>``, a bar's ``[02:53&lt;01:18``):
        # as printed, where the line shows it was escaped (paste.py)
        line = unescaped(line)
    return line


def number(text: str | None) -> float | None:
    """Read a printed number (separators, quotes, nan/inf allowed); None when it is not one."""
    if text is None:
        return None
    text = text.strip().strip("'\"")
    if not text or len(text) > 64:
        return None
    if "," in text:
        if not _THOUSANDS.match(text):
            return None
        text = text.replace(",", "")
    try:
        return float(text)
    except ValueError:
        return None


def looks_like_source(line: str) -> bool:
    """True for a line of Python source (or the ``====`` rule modded-nanogpt puts around it)."""
    return bool(line) and _SOURCE.match(line) is not None


def finite(value: float | None) -> float | None:
    """The value when it is a finite number, else None."""
    return value if value is not None and math.isfinite(value) else None


def integer(text: str | None) -> int | None:
    """Read a printed whole number (``1,048,576`` allowed); None otherwise."""
    value = number(text)
    if value is None or not math.isfinite(value) or value != int(value) or abs(value) > 1e18:
        return None
    return int(value)


def clock_seconds(text: str | None) -> float | None:
    """``07:54`` or ``1:02:03`` (tqdm's elapsed/remaining) in seconds; None for ``?``, garbage or none.

    A clock past a day may lead with Python's ``str(timedelta)`` days: ``4 days, 7:19:52``
    (LLaMA-Factory's ``elapsed_time`` and ``remaining_time``).
    """
    if text is None:
        return None
    days = 0
    if "day" in text:
        m = _DAYS.fullmatch(text.strip())
        if m is None:
            return None
        days, text = int(m.group(1)), m.group(2)
    parts = text.split(":")
    if not 2 <= len(parts) <= 3:
        return None
    total = 0
    for part in parts:  # (a loop, not all(…): a Trainer's bar prints two clocks at every redraw)
        if not part.isdigit() or len(part) > 6:
            return None
        total = total * 60 + int(part)
    return float(days * 86400 + total)


class Kind(enum.Enum):
    """How complete a piece of text is as a record of its format."""

    FULL = "full"  # a record with a definite end (a unit, a closing brace): emit now
    OPEN = "open"  # a record that ends in a bare number: the next line may still continue it
    PARTIAL = "partial"  # the start of a record that does not parse yet
    FRAGMENT = "fragment"  # a torn-off tail of a record: unreadable on its own
    OTHER = "other"  # anything else (free text, lines no rule is about)


R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Piece(Generic[R]):
    """A piece of text, how complete it is, and what reading it gave."""

    text: str
    kind: Kind
    record: R | None


class WrapJoiner(Generic[R]):
    """Re-join what a terminal copy wrapped; hold a number-terminated record one line.

    A terminal copy breaks one long line into two (seed 004: ``h: 1`` is the tail of
    ``epoch: 1``) or runs two into one. A record is only emitted once it is certainly whole:
    a PARTIAL start waits for its continuation; an OPEN record (ending in a bare number a wrap
    could have cut) waits for the next line, and is released at the end of a batch (a file
    written live is never wrapped, so nothing later continues it). What cannot be read is
    counted in ``bad``, never guessed at.
    """

    MAX_JOINED_CHARS = 4096
    # A ~250-character record wrapped at 80 columns or wider comes in at most four pieces.
    MAX_PIECES = 4

    def __init__(self, classify: Callable[[str], tuple[Kind, R | None]]) -> None:
        self._classify = classify
        self._pending: Piece[R] | None = None
        self._pieces = 0
        self.bad = 0
        # Before the first record, a line of Python source starts a preamble (a trainer that
        # prints its own script first): until the first record nothing in it is a bad line.
        self._records_seen = False
        self._preamble = False

    @property
    def holding(self) -> bool:
        """True while a record waits for the line that may continue it."""
        return self._pending is not None

    def took_record(self) -> None:
        """A whole record was read around :meth:`push` while nothing was held (a parser's fast path
        for its usual line): no preamble any more, as :meth:`push` would have noted."""
        self._records_seen = True
        self._preamble = False

    def push(self, text: str) -> Iterator[Piece[R]]:
        """Take the next piece of text; yield the pieces that are now ready, in order."""
        kind, record = self._classify(text)
        if not self._records_seen and self._pending is None:
            if kind in (Kind.FULL, Kind.OPEN) and record is not None:
                self._records_seen = True
                self._preamble = False
            elif self._preamble or looks_like_source(text):
                self._preamble = True
                return
        pending = self._pending
        if pending is not None:
            self._pending = None
            if (
                kind in (Kind.FRAGMENT, Kind.OTHER)
                and self._pieces < self.MAX_PIECES
                and len(pending.text) + len(text) <= self.MAX_JOINED_CHARS
            ):
                joined = pending.text + text
                joined_kind, joined_record = self._classify(joined)
                if joined_kind is Kind.FULL:
                    yield Piece(joined, joined_kind, joined_record)
                    return
                # An OPEN record only grows by the rest of its number; a PARTIAL start by
                # anything that keeps it a record.
                if joined_kind is Kind.OPEN or (joined_kind is Kind.PARTIAL and pending.kind is Kind.PARTIAL):
                    self._pending = Piece(joined, joined_kind, joined_record)
                    self._pieces += 1
                    return
            if pending.kind is Kind.OPEN:
                yield pending
            else:
                self.bad += 1
        if kind in (Kind.OPEN, Kind.PARTIAL):
            self._pending = Piece(text, kind, record)
            self._pieces = 1
        elif kind is Kind.FRAGMENT:
            self.bad += 1
        else:
            yield Piece(text, kind, record)

    def records(self, text: str) -> Iterator[R]:
        """Take the next piece of text; yield what the pieces now ready read as, in order."""
        for piece in self.push(text):
            if piece.record is not None:
                yield piece.record

    def end_records(self) -> Iterator[R]:
        """End a batch: yield the reading of a held OPEN record, if any."""
        for piece in self.end_batch():
            if piece.record is not None:
                yield piece.record

    def end_batch(self) -> Iterator[Piece[R]]:
        """Release a held OPEN record (a PARTIAL start keeps waiting for its continuation)."""
        pending = self._pending
        if pending is not None and pending.kind is Kind.OPEN:
            self._pending = None
            yield pending


def next_plain(marks: Sequence[object], start: int) -> int:
    """The index of the first empty mark from ``start`` (``len(marks)``: none), found in C, not a line at a time."""
    try:
        return marks.index("", start)
    except ValueError:
        return len(marks)


def split_glued(line: str, starts: re.Pattern[str]) -> list[str]:
    """Split a line where a record start appears after position 0 (two lines run into one)."""
    cuts = [m.start() for m in starts.finditer(line) if m.start() > 0]
    if not cuts:
        return [line]
    pieces: list[str] = []
    prev = 0
    for cut in cuts:
        pieces.append(line[prev:cut])
        prev = cut
    pieces.append(line[prev:])
    return [p for p in pieces if p]


MONTHS = {name: i for i, name in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}


def year_of(month: int, day: int, reference: tuple[int, int, int]) -> int:
    """The year of a month and day printed without one, seen by the reference date at the latest.

    hivemind prints ``Jan 15 10:30:14.734``: a line cannot be later than when the file was last
    written, so a December line in a file written in January is last year's (a day's slack for
    zones and clocks).
    """
    ref_year, ref_month, ref_day = reference
    return ref_year - 1 if (month, day) > (ref_month, ref_day + 1) else ref_year


_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


class LocalTimes:
    """Zone-less local wall times to unix seconds, one ``to_epoch`` call per minute."""

    def __init__(self, to_epoch: Callable[[int, int, int, int, int, int], float]) -> None:
        self._to_epoch = to_epoch
        self._minute: tuple[int, int, int, int, int] | None = None
        self._minute_epoch: float | None = None

    def epoch(self, year: int, month: int, day: int, hour: int, minute: int, seconds: float) -> float | None:
        """Unix seconds of that local time; None for a time that cannot exist."""
        key = (year, month, day, hour, minute)
        if key != self._minute:
            self._minute = key
            self._minute_epoch = self._convert(*key)
        if self._minute_epoch is None or not 0.0 <= seconds < 60.0:
            return None
        return self._minute_epoch + seconds

    def _convert(self, year: int, month: int, day: int, hour: int, minute: int) -> float | None:
        if not (1 <= year and 1 <= month <= 12 and 1 <= day and hour < 24 and minute < 60):
            return None
        leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        if day > _DAYS_IN_MONTH[month - 1] + leap:
            return None
        try:
            return float(self._to_epoch(year, month, day, hour, minute, 0))
        except (OverflowError, ValueError, OSError):  # mktime outside the platform's range
            return None


# A MetricLogger's epoch summary (torchvision's ``references/classification/utils.py``, DeiT's, MAE's, BEiT's copies):
# ``{header} Total time: {total_time_str} ({total_time / len(iterable):.4f} s / it)``, the epoch's wall time over its
# iterations, its slow first (data-loading) iteration included, where each line's ``time:`` is a window of the latest.
_EPOCH_AVERAGE = re.compile(r"Total time: (?:\d+ days?, )?\d{1,6}:\d\d:\d\d \((\d{1,6}(?:\.\d{1,9})?) s / it\)")


def epoch_average(text: str) -> tuple[tuple[str, float], ...]:
    """The seconds an iteration a MetricLogger's epoch summary prints (``Total time: 0:00:06 (0.2151 s / it)``), as
    its epoch's figure; none where the line prints none."""
    if "s / it)" not in text:
        return ()
    found = _EPOCH_AVERAGE.search(text)
    return ((EPOCH_STEP_SECONDS, float(found.group(1))),) if found is not None else ()


# A data split a tag's path may lead with (``val/loss``): kept in the figure's name.
_TAG_SPLITS = frozenset({"train", "training", "val", "valid", "validation", "eval", "test"})


def tag_name(tag: str) -> str:
    """A tag's figure by its last part, a data split before it kept (``losses/q1_loss`` is ``q1_loss``, ``val/loss``
    is ``val_loss``)."""
    parts = tag.split("/")
    first, last = parts[0].lower(), parts[-1]
    return f"{first}_{last}" if first in _TAG_SPLITS and not last.lower().startswith(first) else last
