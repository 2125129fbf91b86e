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
from collections.abc import Sequence

from ...stats.events import WorkerCrashed
from .fields import clean
from .generic import step_line as generic_step_line
from .hf_state import STATE_KEY
from .hf_trainer import NOTEBOOK_LINE
from .prefix import PrefixReader
from .registry import FORMATS, create_parser

# (format, cheap substring that must be present, signature searched in the cleaned line)
_SIGNATURES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("nanochat", "step ", re.compile(r"^step \d+(?:/\d+)? \([\d.]+%\) \| loss: ")),
    (
        "nanochat",
        "Step ",
        re.compile(
            r"^Step \d+(?:/\d+)? \| (?:Validation bpb|CORE metric|ChatCORE|Average reward|Example step|"
            r"Training loss|Pass@1)"
        ),
    ),
    ("nanochat", "Peak FLOPS", re.compile(r"^GPU: .* \| Peak FLOPS \(BF16\): ")),
    # base_eval and base_train's end: a cold start may land in a long evaluation
    ("nanochat", "-shot, type: ", re.compile(r"^Evaluating: \S+ \(\d+-shot, type: ")),
    ("nanochat", "bpb", re.compile(r"^(?:train bpb|val bpb|Minimum validation bpb): [\d.]+$")),
    ("nanochat", "CORE", re.compile(r"^(?:Chat)?CORE metric: [\d.]+$")),
    # Its start-up records: a run that died or waits before its first step is nanochat's too
    # (its own logger's name, base_train's plan of the run, its device probe).
    ("nanochat", "nanochat.", re.compile(r"\bnanochat(?:\.\w+)+ - (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) - ")),
    (
        "nanochat",
        "iterations",
        re.compile(r"^(?:Calculated number of iterations from [^:]{1,80}|Using user-provided number of iterations): [\d,]+$"),
    ),
    ("nanochat", "Scaling params ratio", re.compile(r"^Tokens : Scaling params ratio: [\d.]+$")),
    ("nanochat", "Autodetected", re.compile(r"^Autodetected device type: \w+$")),
    ("nanogpt", "iter ", re.compile(r"^iter \d+: loss \S+, time ")),
    ("nanogpt", "train loss", re.compile(r"^step \d+: train loss \S+, val loss ")),
    ("nanogpt", "tokens per iteration", re.compile(r"^tokens per iteration will be: ")),
    ("llmc", "step ", re.compile(r"^step\s+\d+/\d+ \| (?:train )?loss ")),
    ("llmc", "s:", re.compile(r"^s:\d+ trl:")),
    ("llmc", "took", re.compile(r"^step \d+: train loss \S+ \(took [\d.]+ ms\)$")),
    ("modded-nanogpt", "step:", re.compile(r"^step:\s*\d+/\d+ (?:\| )?(?:train_loss:|val_loss:|train_time:)")),
    ("hf-trainer", "': ", re.compile(r"\{'(?:loss|eval_loss|train_runtime)': ")),
    ("hf-trainer", '": ', re.compile(r"^\{\"(?:loss|eval_loss|train_runtime)\": ")),
    ("hf-trainer", "*****", re.compile(r"\*\*\*\*\* Running training \*\*\*\*\*")),
    # trainer_state.json, read from either end: its own keys (hf_state.py)
    ("hf-trainer", '": ', STATE_KEY),
    # A bare tqdm bar with its rate (the Trainer's, or any loop's with nothing before the bar):
    # stderr captured without stdout is a log of bars alone. Bars behind a label (``Epoch 3: 45%|``)
    # are other trainers'.
    ("hf-trainer", "it", re.compile(r"^\s*\d{1,3}%\|[^|]{0,400}\| ?\d+/\d+ \[[\d:]+<[\d:?]+,\s*[\d.]+(?:s/it|it/s)\]")),
    # The Trainer's notebook progress line copied as text (``[ 22/290 02:50 < 38:04, 0.12 it/s, Epoch 0.36/5]``).
    ("hf-trainer", "Epoch ", NOTEBOOK_LINE),
    ("torchtitan", "[titan]", re.compile(r"\[titan\] \d{4}-\d\d-\d\d ")),
    ("torchtitan", "memory:", re.compile(r"step:\s*\d+\s+loss:\s*\S+\s.*memory:\s*[\d.]+GiB")),
    ("sn38", "Inner Step", re.compile(r"Inner Step: \d+ \| (?:Learning Rate|Average Loss)")),
    (
        "sn38",
        "ucces",
        re.compile(r"AllReduce Operation Finished Succesfully|Averaging Round Finished Succesfully"),
    ),
    ("sn38", "All Reduce", re.compile(r"Received (?:Main |Local )?All Reduce Call|All Reduce Failed")),
    # The miner's own lines of the hivemind.Optimizer era, and the errors its README lists as known
    # (a log may hold nothing else): the DHT peers it cannot reach, state downloads timing out,
    # rounds without a group, and tracebacks through hivemind.
    ("sn38", "Local epoch", re.compile(r"Local samples:\s+\d+ \| Local epoch:\s+\d+")),
    (
        "sn38",
        "ERROR",
        re.compile(
            r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.,]\d{3} \| +ERROR +\| .*(?:Attempt \d+ to init DHT using initial_peer"
            r"|Failed to (?:download|load) state from|Averaging step failed|Task exception was never retrieved)"
        ),
    ),
    ("hivemind", "could not find a group", re.compile(r"\] (?:\[\S+\] )?Averaging step failed: could not find a group")),
    ("hivemind", "[", re.compile(r"^[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d\.\d{3} \[(?:INFO|WARN|ERROR|DEBUG)\] ")),
    ("hivemind", "peers", re.compile(r"accumulated \d+ samples for epoch #\d+ from \d+ peers")),
    # A peer joining a collaboration: it downloads the state from another peer, or fails to and retries
    # (printed bare, through python logging, or in the 2021 examples' ``[date time][LEVEL][caller]``).
    (
        "hivemind",
        "from peer",
        re.compile(r"Failed to load state from peers|Downloading parameters from peer \S|Finished downloading state from \S"),
    ),
    ("hivemind", "][", re.compile(r"^\[\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{3}\]\[(?:INFO|WARN|WARNING|ERROR|DEBUG)\]\[")),
    (
        "iota",
        " - ",
        re.compile(r"\| *(?:TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL) *\| [\w.]+:[\w<>]+:\d+ - "),
    ),
)
# Formats one parser reads together: a line of one is no news for the other.
FAMILIES: dict[str, str] = {spec.name: spec.family for spec in FORMATS}
_PREFIXES = PrefixReader(dates=False)  # only the messages
# Lines read to sniff a log (from its end: the stage that runs now).
SNIFF_LINES = 4000
SNIFF_PIECE_LINES = 250
# Step lines the generic reader needs to take a log whose known format reads no step in it.
GENERIC_OVER_KNOWN = 3


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
                text = clean(line).lstrip()  # indentation (a README's or a Markdown copy) is no reason to differ
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
    """Name the format of these lines, or None when nothing recognises them."""
    counts = scores(lines)
    if counts:
        if counts["sn38"] and counts["hivemind"]:
            del counts["hivemind"]  # a miner's log with hivemind's lines in it is the miner's
        if counts["iota"] and len(counts) > 1 and not _miner_lines(lines):
            # Every line of a trainer printing through loguru has the miner's signature (a
            # loguru record): with no miner message among them, the trainer's lines decide.
            del counts["iota"]
        ranked = sorted(counts.items(), key=lambda item: (-item[1], _ORDER.index(item[0])))
        name = ranked[0][0]
        if name != "iota" and _steps_unread(name, lines, counts[name]):
            return "generic"
        return name
    if any(not isinstance(event, WorkerCrashed) for event in create_parser("iota").feed(list(lines))):
        return "iota"  # a crash's lines alone (a traceback) are any program's, not the miner's
    return "generic" if _generic_steps(lines) or _run_health(lines) else None


def _run_health(lines: Sequence[str]) -> bool:
    """True when these lines say how a run ended or fares though no trainer's line is among them: a
    crash (a traceback, a launcher's failure, a kill) or the fp16 scaler skipping steps. Any step
    trainer can print them, so the generic reader takes such a log (a launcher's output alone)."""
    from ...stats.events import RunCrashed, StepSkipped
    from .crash import CrashWatch

    watch = CrashWatch()
    return any(isinstance(event, (RunCrashed, StepSkipped)) for line in lines[-SNIFF_LINES:] for event in watch.see(line))


def _steps_unread(name: str, lines: Sequence[str], signatures: int) -> bool:
    """True when a known format's few signature lines are all it reads and the generic reader
    reads the steps: llama2.c prints nanoGPT's evaluation line, not its step line. The generic
    reader needs ``GENERIC_OVER_KNOWN`` step lines, or as many as the known format's signature
    lines when they are fewer (a paste of llama2.c's last evaluation and step line)."""
    from ...stats.events import TrainStep

    tail = list(lines[-SNIFF_LINES:])
    known = create_parser(name)
    # In order, a few hundred lines at a time: the first step read answers (a long log's tail
    # holds thousands of its lines, each costly to parse).
    for i in range(0, len(tail), SNIFF_PIECE_LINES):
        if any(isinstance(event, TrainStep) for event in known.feed(tail[i : i + SNIFF_PIECE_LINES])):
            return False
    steps = [e for e in create_parser("generic").feed(tail) if isinstance(e, TrainStep)]
    return len(steps) >= min(GENERIC_OVER_KNOWN, signatures)


def _generic_steps(lines: Sequence[str]) -> bool:
    """True when the generic step reader finds training steps in lines no known format claims.

    Two step lines, or one that cannot be a sentence that happens to say "step" and "loss": it
    gives its position as N/M (a bar, ``iteration 10/ 10``) or two training figures.
    """
    from ...stats.events import TrainStep

    steps = [e for e in create_parser("generic").feed(list(lines[-SNIFF_LINES:])) if isinstance(e, TrainStep)]
    if len(steps) >= 2:
        return True
    return any(
        step.total_steps is not None
        or sum(f is not None for f in (step.loss, step.lr, step.step_seconds, step.tokens_per_second, step.grad_norm)) >= 2
        for step in steps
    )


def _miner_lines(lines: Sequence[str]) -> bool:
    """True when the IOTA parser reads a miner's own message (not just errors) in these lines."""
    from ...stats.events import ErrorLogged, Tick

    events = create_parser("iota").feed(list(lines[-SNIFF_LINES:]))
    return any(not isinstance(event, (Tick, ErrorLogged)) for event in events)


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
        if name == "generic" and not _generic_steps(lines) and _run_health(lines):
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
    """

    KEEP_LINES = 500

    def __init__(self, current: str | None, needed: int = 3) -> None:
        self.current = current
        self.needed = needed
        self._counts: Counter[str] = Counter()
        self._since_first: list[str] = []

    def see(self, lines: Sequence[str]) -> list[str] | None:
        """Take new lines; on a switch set ``current`` and return the lines to read again.

        A new stage goes on printing its own lines: a batch that ends with one of the current
        format's lines holds no switch (foreign lines before it were not another trainer taking
        over), so only its last line is looked at. A signature a line costs as much as parsing it.
        """
        lines = list(lines)
        if lines:
            last = signature(lines[-1], self.current)
            if last is not None and same_family(last, self.current):
                self._counts.clear()
                self._since_first = []
                return None
        for i, line in enumerate(lines):
            name = signature(line, self.current)
            if (name is not None and same_family(name, self.current)) or (
                name is None and self.current == "generic" and self._counts and generic_step_line(line)
            ):
                # The current format's own line (the generic reader's: a step line it reads).
                self._counts.clear()
                self._since_first = []
                continue
            if name is not None:
                self._counts[name] += 1
            if self._counts:
                self._since_first.append(line)
                if len(self._since_first) > self.KEEP_LINES:
                    self._since_first = self._since_first[-self.KEEP_LINES :]
            if name is not None and self._counts[name] >= self.needed:
                self.current = name
                replay = self._since_first + lines[i + 1 :]
                self._counts.clear()
                self._since_first = []
                return replay
        return None
