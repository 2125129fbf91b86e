"""Which format a log is in: line signatures, counted; and noticing when a log switches.

Each format has a few signatures: lines only that trainer prints (``step 00383/29000 (1.32%) |
loss:`` for nanochat, ``iter N: loss …, time`` for nanoGPT, …). ``detect`` names the format
with the most signature lines; a log none of them match falls back to asking the IOTA parser
(the original rule: IOTA if its parser finds any event). ``FormatWatch`` follows a live log and
names a new format when a new stage starts printing another trainer's lines (``--format auto``
may change its mind when a new stage begins).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Sequence

from .banner import (
    header_epochs,
    header_without_rows,
    is_row,
    may_say_start,
    planned_run,
    started_run,
    whole_echo,
)
from .fields import clean
from .paste import unpasted
from .prefix import PrefixReader
from .registry import BY_NAME, FAMILIES, FORMATS, SNIFF_LINES, create_parser

# (format, needle, pattern), every row's signatures, in sniff order; a format whose signature is also other
# programs' (``own_messages``: the miner's loguru record) is tried last, so a line behind such a
# prefix is read as its trainer's first.
_SIGNATURES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (spec.name, signature.needle, signature.pattern)
    for spec in sorted(FORMATS, key=lambda spec: spec.own_messages is not None)
    for signature in spec.signatures
)
_PREFIXES = PrefixReader(dates=False)  # only the messages
SNIFF_PIECE_LINES = 250
# Step lines the fallback reader needs to take a log whose known format reads no step in it.
GENERIC_OVER_KNOWN = 3
# The fallback reader's row (the generic reader's): the one row that claims what no other does.
_FALLBACK = next(spec for spec in FORMATS if spec.fallback)


def signature(line: str, prefer: str | None = None) -> str | None:
    """The format whose signature this one line carries (``prefer``'s family first), or None.

    A step line printed through a launcher or a logger (``[rank0]:``, ``2024-05-01 12:00:00,123
    - INFO - ``) carries its trainer's signature after the prefix; the IOTA miner's comes last,
    since its signature is no more than a loguru record, which such a prefix can be.
    """
    if len(line) > 4096:
        line = line[:4096]
    text: str | None = None
    message: str | None = None
    for name, needle, pattern in _preferring(prefer):
        if needle in line:
            if text is None:
                # indentation (a README's or a Markdown copy) is no reason to differ, nor what a paste added (paste.py)
                text = unpasted(clean(line).lstrip())
            if pattern.search(text):
                return name
            if message is None:
                message = _PREFIXES.read(text).message
            if message is not text and pattern.search(message):
                return name
    return None


@functools.cache
def _preferring(prefer: str | None) -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """The signatures with ``prefer``'s family first (its own lines are never foreign)."""
    if prefer is None:
        return _SIGNATURES
    family = FAMILIES.get(prefer, prefer)
    return tuple(sorted(_SIGNATURES, key=lambda s: FAMILIES.get(s[0], s[0]) != family))


def scores(lines: Sequence[str]) -> Counter[str]:
    """How many signature lines each format has among the last ``SNIFF_LINES`` lines."""
    counts: Counter[str] = Counter()
    for raw in lines[-SNIFF_LINES:]:
        for part in raw.split("\r") if "\r" in raw else (raw,):
            name = signature(part)
            if name is not None:
                counts[name] += 1
    return counts


def detect(lines: Sequence[str]) -> str | None:
    """Name the format of these lines, or None when nothing recognises them.

    The format with most signature lines, once the rows' ties are applied: a format that
    ``yields_to`` another present drops out, and one whose signature is also other programs'
    (``own_messages``) drops out beside another unless its own messages are there. The winner's
    own reader must read a step where the fallback reader reads several (``_steps_unread``). With no
    signature at all, a format that ``reads_unsigned`` takes the log when its parser reads any event,
    and the fallback reader when it holds steps or a crash.
    """
    counts = scores(lines)
    if counts:
        for name in list(counts):
            spec = BY_NAME[name]
            if any(counts[other] for other in spec.yields_to):
                del counts[name]
        for name in list(counts):
            own = BY_NAME[name].own_messages
            if own is not None and len(counts) > 1 and not own(lines):
                # Every line of a trainer printing through loguru has the miner's signature (a
                # loguru record): with no miner message among them, the trainer's lines decide.
                del counts[name]
        ranked = sorted(counts.items(), key=lambda item: (-item[1], _ORDER.index(item[0])))
        name = ranked[0][0]
        if BY_NAME[name].kind == _FALLBACK.kind and _steps_unread(name, lines, counts[name]):
            return _FALLBACK.name
        own = BY_NAME[name].own_messages
        if own is not None and not own(lines):
            # A signature that is also other programs' with none of its own messages is no sign of that program: the
            # log is some trainer's printed through loguru, which the fallback reader takes, whether it reads a run
            # in it (cvpods' evaluation tables) or none yet (YOLOX's and ByteTrack's start-up: ranks initialised,
            # its arguments, no iteration yet): never the miner's
            return _FALLBACK.name
        return name
    for spec in FORMATS:
        if spec.reads_unsigned and any(not isinstance(event, spec.unsigned_ignores)
                                       for event in create_parser(spec.name).feed(list(lines))):
            return spec.name
    return (_FALLBACK.name if _holds_steps(lines) or _run_health(lines) or _plans_run(lines) or _table_begun(lines)
            or _starts_run(lines) or _epoch_begun(lines) or _args_plan(lines) else None)


def _holds_steps(lines: Sequence[str]) -> bool:
    """True when the fallback reader finds training steps in these lines (its row's ``holds_steps``)."""
    return _FALLBACK.holds_steps is not None and _FALLBACK.holds_steps(lines)


def _plans_run(lines: Sequence[str]) -> bool:
    """True when a start banner among these lines says the run's planned length (banner.py): a run about to
    start, whichever trainer prints it, which the fallback reader reads. A banner with rows after it (a YOLO epoch's
    row cut short, which no reader reads) is no run that waits for its first step."""
    return _said_with_no_row_after(lines, lambda line: (
        ("step" in line or "epoch" in line or "iter" in line or "Step" in line or "Epoch" in line or "Iter" in line)
        and planned_run(_message(line)) is not None))


def _starts_run(lines: Sequence[str]) -> bool:
    """True when a trainer's word that training starts is among these lines, with no row after it (banner.py:
    accelerate's state before its loop, detectron2's ``Starting training from iteration 16000``): a run started, which
    the fallback reader reads, whichever trainer prints it."""
    return _said_with_no_row_after(lines, lambda line: may_say_start(line) and started_run(_message(line)) is not None)


def _epoch_begun(lines: Sequence[str]) -> bool:
    """True when an epoch's header with the run's epochs (banner.py: Keras' ``Epoch 1/50``) is among these lines with no
    row after it: a run begun, waiting for the epoch's first step, which the fallback reader reads."""
    return _said_with_no_row_after(lines, lambda line: ("poch" in line or "POCH" in line)
                                   and header_epochs(_message(line)) is not None)


def _said_with_no_row_after(lines: Sequence[str], says: Callable[[str], bool]) -> bool:
    """True when a line among the last lines ``says`` so and no row (banner.py's ``is_row``) comes after it; where the
    last row is is found once, at the first such line."""
    tail = lines[-SNIFF_LINES:]
    last_row: int | None = None  # (-1 for none)
    for i, line in enumerate(tail):
        if says(line):
            if last_row is None:
                last_row = next((k for k in range(len(tail) - 1, -1, -1) if is_row(_message(tail[k]))), -1)
            if last_row <= i:
                return True
    return False


# An echo that says its script evaluates or tests, no training run (``Namespace(…, task='test', …)``, ``evaluate=True``)
_EVALUATES = re.compile(r"(?i)(?:^|[\s(,{'\"])(?:task|mode|phase|split)['\"]?\s*[:=]\s*['\"](?:val|valid|eval|evaluate|test|"
                        r"predict|inference|infer)['\"]|(?:^|[\s(,{'\"])(?:evaluate|eval_only|test_only|do_eval_only|eval)['\"]?"
                        r"\s*[:=]\s*True\b|do_train['\"]?\s*[:=]\s*False\b")


# A date and time a library's record leads with (TensorFlow's ``2020-08-11 13:11:57.526967: I tensorflow/…``): no row's count
_DATED = re.compile(r"^\s*\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?:?")


# A line of a configuration's dump, one key a line (YAML's, OmegaConf's, a script's own print): ``key: value`` or a
# section's ``key:``
_CONFIG_LINE = re.compile(r"\s*[A-Za-z_][\w.-]{0,60}\s*:(?:\s+[^\s:][^:]*)?\s*$")
_CONFIG_EVALUATES = re.compile(r"(?i)^\s*(?:(?:task|mode|phase|split)\s*:\s*['\"]?(?:val|valid|eval|evaluate|test|predict|"
                               r"inference|infer)['\"]?|(?:evaluate|eval_only|test_only)\s*:\s*true|do_train\s*:\s*false)\s*$")
# How many lines of a dump, at least, hold a key of the run's length for it to be a configuration printed as a run starts
DUMP_LINES = 3


def _dumped_plan(tail: Sequence[str], i: int) -> bool:
    """True when line ``i`` is a run-length key alone (``  epochs: 90``) inside a configuration's dump of at least
    ``DUMP_LINES`` lines, one key a line, none of which says the script evaluates or tests (``mode: test``)."""
    from ...stats.events import RunInfo

    message = _message(tail[i])
    if ":" not in message or not _CONFIG_LINE.fullmatch(message) or not any(
            isinstance(event, RunInfo) and (event.total_epochs is not None or event.total_steps is not None)
            for event in create_parser(_FALLBACK.name).feed([tail[i]])):
        return False
    start = end = i
    while start > 0 and _CONFIG_LINE.fullmatch(_message(tail[start - 1])):
        start -= 1
    while end + 1 < len(tail) and _CONFIG_LINE.fullmatch(_message(tail[end + 1])):
        end += 1
    block = [_message(line) for line in tail[start : end + 1]]
    return len(block) >= DUMP_LINES and not any(_CONFIG_EVALUATES.match(line) for line in block)


def _args_plan(lines: Sequence[str]) -> bool:
    """True when a training script's echo of its arguments says the run's length (banner.py, as the fallback reader reads
    it: ``Namespace(…, epochs=3, …)``) and no row follows it: a run started, its plan said, no step yet, which the
    fallback reader reads. An evaluation's or a test's arguments (``task='test'``, ``evaluate=True``) plan no run."""
    from ...stats.events import RunInfo

    tail = lines[-SNIFF_LINES:]
    for i in range(len(tail) - 1, -1, -1):
        message = _message(tail[i])
        if is_row(_DATED.sub("", message, count=1)):
            return False
        if ("poch" in message or "ter" in message or "tep" in message or "update" in message) and _dumped_plan(tail, i):
            return True
        if whole_echo(message) and _EVALUATES.search(message) is None and any(
                isinstance(event, RunInfo) and (event.total_epochs is not None or event.total_steps is not None)
                for event in create_parser(_FALLBACK.name).feed([tail[i]])):
            return True
    return False


def _message(line: str) -> str:
    """The line cleaned, behind no launcher's or logger's prefix."""
    return _PREFIXES.read(unpasted(clean(line).strip())).message


def _table_begun(lines: Sequence[str]) -> bool:
    """True when a table's header ends these lines with no row under it (banner.py): a run that started and made no
    step yet, whichever trainer prints it, which the fallback reader reads."""
    return header_without_rows(lines[-SNIFF_LINES:], _message)


def _run_health(lines: Sequence[str]) -> bool:
    """True when these lines say how a run ended or fares though no trainer's line is among them: a
    crash (a traceback, a launcher's failure, a kill), the fp16 scaler skipping steps, or the run's own
    words that its training stopped (AllenNLP's ``Ran out of patience.  Stopping training.`` and its
    metrics, with no epoch line left in the paste). Any step trainer can print them, so the generic
    reader takes such a log (a launcher's output alone). So do a run's closing summary that names its final figures
    (``Final train loss: 3.076997``, wandb's run summary with its losses: summaries.py), a finished run's paste, and
    closing lines that name the run's last step (wandb's ``uploading history steps 54-54``, its summary's
    ``global_step``)."""
    from ...stats.events import RunCrashed, StageEnd, StepSkipped
    from .crash import CrashWatch
    from .endings import stops_training
    from .summaries import names_figures

    watch = CrashWatch()
    for line in lines[-SNIFF_LINES:]:
        for event in watch.see(line):
            if isinstance(event, (RunCrashed, StepSkipped)) or (
                isinstance(event, StageEnd) and event.said and event.summary is not None
                and (stops_training(event.summary) or event.step is not None)
            ):
                return True
    if any(isinstance(event, RunCrashed) for event in watch.cut_traceback()):  # (a caught error raised again)
        return True
    return any(isinstance(event, StageEnd) and event.summary is not None
               and (names_figures(event.summary) or event.step is not None)
               for _, events in watch.summaries(0) for event in events)


def _steps_unread(name: str, lines: Sequence[str], signatures: int) -> bool:
    """True when a known format's few signature lines are all it reads and the generic reader
    reads the steps: llama2.c prints nanoGPT's evaluation line, not its step line. The generic
    reader needs ``GENERIC_OVER_KNOWN`` step lines, or as many as the known format's signature
    lines when they are fewer (a paste of llama2.c's last evaluation and step line)."""
    from ...stats.events import Tick, TrainStep

    tail = list(lines[-SNIFF_LINES:])
    known = create_parser(name)
    read_any = False  # the known format read anything at all (a banner, a bar, an evaluation)
    # In order, a few hundred lines at a time: the first step read answers (a long log's tail
    # holds thousands of its lines, each costly to parse).
    for i in range(0, len(tail), SNIFF_PIECE_LINES):
        events = known.feed(tail[i : i + SNIFF_PIECE_LINES])
        if any(isinstance(event, TrainStep) for event in events):
            return False
        read_any = read_any or any(not isinstance(event, Tick) for event in events)
    if not read_any and _plans_run(tail):
        # Its signature was a line it reads nothing from (a cache check's bar, kohya's), and a start banner
        # says the run's planned length: the fallback reader reads that banner.
        return True
    # A step 0 is no step read: the run's position before its first step, which the known format's
    # own line (verl's ``Training Progress: 0/58`` bar) says too, as its start.
    steps = [e for e in create_parser(_FALLBACK.name).feed(tail) if isinstance(e, TrainStep) and e.step > 0]
    return len(steps) >= min(GENERIC_OVER_KNOWN, signatures)


# A tie in signature counts goes to the format registered first.
_ORDER = [spec.name for spec in FORMATS]


def same_family(a: str | None, b: str | None) -> bool:
    """True when one parser reads both formats."""
    if a is None or b is None:
        return a == b
    return FAMILIES.get(a, a) == FAMILIES.get(b, b)


def family(name: str) -> str:
    """The parser family a format belongs to (nanoGPT, llm.c and modded-nanogpt are one)."""
    return FAMILIES.get(name, name)


def log_kind(lines: Sequence[str], format_name: str = "auto") -> str | None:
    """The family of log these lines are (to pick the file to follow in a folder), or None.

    With a named format only that format's lines count: its signatures, or any event its
    parser reads from them. The IOTA app's own shell log (``main.log``: dated lines with no
    miner record in them) is no kind at all.
    """
    if format_name == "auto":
        name = detect(lines)
        if name == _FALLBACK.name and not _holds_steps(lines) and _run_health(lines):
            return None  # crash lines alone (an app's error log): no run's log to follow
        return None if name is None else family(name)
    wanted = family(format_name)
    if any(family(name) == wanted for name in scores(lines)):
        return wanted
    from ...stats.events import Tick

    events = create_parser(format_name).feed(list(lines))
    return wanted if any(not isinstance(event, Tick) for event in events) else None


class FormatWatch:
    """Follow a live log in ``--format auto`` and notice when another trainer takes over.

    A switch needs ``needed`` signature lines of one other format with none of the current
    one's in between (a stray line that merely looks foreign never switches). The lines since
    the first foreign signature are kept, so the new parser reads the new stage from its start.
    A format whose signature is also other programs' (``own_messages``: the miner's loguru record)
    needs its own messages among those lines too, as ``detect`` does: a trainer printing through
    loguru (YOLOX's start-up, DAMO-YOLO's save and evaluation records) never becomes the miner,
    whether its lines come one at a time or all at once.
    """

    KEEP_LINES = 500

    def __init__(self, current: str | None, needed: int = 3) -> None:
        self.current = current
        self.needed = needed
        self._counts: Counter[str] = Counter()
        self._since_first: list[str] = []
        # Per format with ``own_messages``: how many of ``_since_first``'s lines were asked for its messages (each
        # line is asked once), and the formats whose messages were found among them.
        self._asked: Counter[str] = Counter()
        self._heard: set[str] = set()

    def see(self, lines: Sequence[str]) -> list[str] | None:
        """Take new lines; on a switch set ``current`` and return the lines to read again.

        A new stage goes on printing its own lines: a batch that ends with one of the current
        format's lines holds no switch (foreign lines before it were not another trainer taking
        over), so only its last line is looked at. A signature a line costs as much as parsing it.
        """
        lines = list(lines)
        spec = BY_NAME.get(self.current) if self.current is not None else None
        own_line = spec.own_line if spec is not None else None
        if lines:
            last = signature(lines[-1], self.current)
            if last is not None and same_family(last, self.current):
                self._forget()
                return None
        for i, line in enumerate(lines):
            name = signature(line, self.current)
            if (name is not None and same_family(name, self.current)) or (
                name is None and own_line is not None and self._counts and own_line(line)
            ):
                # The current format's own line (the fallback reader's: a step line it reads).
                self._forget()
                continue
            if name is not None:
                self._counts[name] += 1
            if self._counts:
                self._since_first.append(line)
                if len(self._since_first) > self.KEEP_LINES:
                    dropped = len(self._since_first) - self.KEEP_LINES
                    self._since_first = self._since_first[-self.KEEP_LINES :]
                    for other in self._asked:
                        self._asked[other] = max(0, self._asked[other] - dropped)
            if name is not None and self._counts[name] >= self.needed and self._speaks(name):
                self.current = name
                replay = self._since_first + lines[i + 1 :]
                self._forget()
                return replay
        return None

    def _speaks(self, name: str) -> bool:
        """True when format ``name``'s own messages are among the lines since the first foreign signature, or its
        signature is its own (no ``own_messages``). The lines not asked yet are asked, once each."""
        own = BY_NAME[name].own_messages
        if own is None or name in self._heard:
            return True
        start = self._asked[name]
        self._asked[name] = len(self._since_first)
        if start < len(self._since_first) and own(self._since_first[start:]):
            self._heard.add(name)
        return name in self._heard

    def _forget(self) -> None:
        """The current format's line: no other is taking over."""
        self._counts.clear()
        self._since_first = []
        self._asked.clear()
        self._heard.clear()
