"""Reading a log by repetition: its repeated records, and what each number in them does.

A person reads an unknown log by what it repeats. The lines printed again and again are its
records; with their numbers masked they share one *template*. Within a template's instances a
number that ticks up is the position, one that stays fixed after ``/`` or ``of`` is its total,
one that moves like a loss is a value, named by the words before it. A logger may print its
prefix on a line of its own, the record's body on the next (RTM3D's ``… logger.py - info(), at
Line 49:INFO:``, then ``Train - Epoch: [127/300][335/464]<TAB>Time …``): a dated line whose
template is always followed by one other template is that record's first half.

The generic reader hands this module the lines its word rules read nothing from (and its own
step lines, to check the position it chose), and reads the record given back as
``name: value`` text through its own grammar — words still name the figures; the series
decides only which number is the position, its total and the epoch. A counter that ticks with
no word and no total is no position here: the log does not say what it counts.

Single pass: only a bounded window is kept (the last ``INSTANCES`` instances of at most
``TEMPLATES`` templates), so a live log is read as it grows and an import reads the same.
"""

from __future__ import annotations

import re
from collections import OrderedDict, deque
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import pairwise

from .base import local_to_epoch
from .grammar import Field, episode_length, lookup, normalise
from .prefix import CTIME, ctime_date

# Instances of a template before its numbers' series are judged (two ticks of the position).
MIN_RECORDS = 3
INSTANCES = 8  # the window: instances kept per template
TEMPLATES = 64  # templates kept (the least recently seen goes first)
MAX_SLOTS = 48  # a record with more numbers is a table or a dump, not a step record

# A wall clock (an ISO date and time, or ``Wed Jun  6 16:01:01 2018``): one slot, the record's time.
_ISO_CLOCK = re.compile(r"(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,9}))?")
_CTIME_CLOCK = re.compile(CTIME)
# A number as printed (a glued unit kept with it: ``1.759s``, ``052ms``), or a value that is not one.
# A running clock (``Elapsed [8:37:01.056768]``) is one number, its seconds.
_NUMBER = re.compile(
    r"(?<![\w.])(?:(\d{1,3}):([0-5]\d):([0-5]\d(?:\.\d+)?)(?![\d:])"
    r"|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)([a-zA-Z%]{0,3})|(nan|inf|NaN|Inf))(?!\w|\.\d)")
# A value's running average or range printed after it, in parentheses or brackets (``0.738 ( 0.726)``,
# ``1.000 [1.000, 1.000]``): no figure of its own.
_AFTER = re.compile(r"\s*[(\[]\s*[-\d.eE+,\s]*[)\]]")
_WORDS = re.compile(r"[A-Za-z][A-Za-z_ ]*[A-Za-z_]|[A-Za-z]")
_TOTAL_LEAD = re.compile(r"(?:/|\bof)\s*$")
_SPACES = re.compile(r"\s+")
_PADDED = re.compile(r"([\[(])\s+")
# A loss named in a record's words (legacy PaddlePaddle prints ``Cost 2.26``): a training record, not a loader's counter.
_LOSS_WORD = re.compile(r"loss|\bcost\b", re.IGNORECASE)
# An epoch named in a record with no loss word (CycleGAN's ``(epoch: 1, iters: 900, time: 0.520, …) D_A: 0.120 G_A: …``):
# a training loop's own report where a named count ticks steadily under it (a loader's or a download's names no epoch).
_EPOCH_WORD = re.compile(r"\bepoch\b", re.IGNORECASE)
# A throughput named in a record (DeepSpeed's ``SamplesPerSec=36.18``, ``tokens/s``, ``fps``): an engine's own progress
# record, its count the loop it measured, not a loader's.
_THROUGHPUT = re.compile(r"(?i)(?:samples|examples|images|tokens|frames|sequences)\s?(?:/\s?s(?:ec)?\b|per\s?sec)|\bfps\b")
# An ASCII table's cells: a header's names (``Elapsed Time``), a row's numbers (``1.36s``).
_CELL_NAME = re.compile(r"[A-Za-z][A-Za-z_ /.-]{0,39}")
_CELL_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?:s|ms)?|nan|inf")
_TABLE_CELLS = 12
_UNITS = frozenset({"", "s", "ms", "h", "m", "min", "us", "%"})
# A time's unit printed after its figure with a space between (``Timer: 0.4567 sec.``): kept with it.
_SPACED_SECONDS = re.compile(r" (ms|s|secs?|seconds)\b\.?(?![\w/])")


@dataclass(frozen=True, slots=True)
class Slot:
    """One number of a record: its value, as printed, the words before it, and how it stands."""

    value: float
    printed: str
    name: str  # the words just before it (normalised), "" where none
    whole: bool  # printed as a whole number
    total_like: bool  # printed after ``/`` or ``of``
    clock: bool = False  # a running clock (``8:37:01``), its value in seconds


@dataclass(frozen=True, slots=True)
class Record:
    """A repeated record read by its series: text the grammar reads, and the record's clock."""

    text: str
    at: float | None
    step: int
    ticking: frozenset[int]  # the values of the numbers that tick (a position a word rule chose must be one)
    total: bool  # the position has a total
    epoch: bool  # … and an epoch
    clock: bool  # … and a running clock named beside it (``Elapsed [8:37:01]``)
    progress: bool = False  # an engine's progress record: its count beside a throughput, no loss
    looped: bool = False  # a loop's own report under its epoch, no loss word: its values named only as printed
    earlier: tuple[Record, ...] = ()  # the template's instances before it, read now its series is known (``catch_up``)


def masked(text: str) -> tuple[str, list[Slot], float | None]:
    """The line's template (numbers and clocks masked), its numbers, and the clock it prints."""
    at = None
    clock = _ISO_CLOCK.search(text)
    if clock is not None:
        y, mo, d, h, mi, s, frac = clock.groups()
        at = _unix(int(y), int(mo), int(d), int(h), int(mi), int(s), frac)
    else:
        clock = _CTIME_CLOCK.search(text)
        if clock is not None and (ctime := ctime_date(clock.groups())) is not None:
            at = _unix(*ctime)
    if clock is not None:
        text = text[: clock.start()] + "<clock>" + text[clock.end() :]
    text = _AFTER.sub(_keep_words, text) if "(" in text or "[" in text else text
    parts: list[str] = []
    slots: list[Slot] = []
    last = 0
    for m in _NUMBER.finditer(text):
        if len(slots) >= MAX_SLOTS:
            return "", [], at
        before = text[last : m.start()]
        parts.append(before)
        parts.append("#")
        hours, minutes, seconds, number, unit, word = m.groups()
        if hours is not None:
            slots.append(Slot(int(hours) * 3600 + int(minutes) * 60 + float(seconds), m.group(0), _name(before),
                              False, False, clock=True))
        elif number is None:
            slots.append(Slot(float("nan"), word, _name(before), False, False))
        else:
            whole = "." not in number and "e" not in number.lower() and unit == ""
            spaced = _SPACED_SECONDS.match(text, m.end()) if unit == "" and not whole else None
            printed = number + unit if unit in _UNITS else number
            if spaced is not None:
                printed = f"{number} {spaced.group(1)}"  # (``Timer: 0.4567 sec.``: its unit printed, a space before it)
            slots.append(Slot(float(number), printed, _name(before), whole, _TOTAL_LEAD.search(before) is not None))
            if unit not in _UNITS:
                parts.append(unit)
            if spaced is not None:
                parts.append(" " + spaced.group(1))
                last = spaced.end()
                continue
        last = m.end()
    parts.append(text[last:])
    # (a count padded to its total's width, ``[ 35/464]`` then ``[135/464]``, is the same record)
    return _SPACES.sub(" ", _PADDED.sub(r"\1", "".join(parts))).strip(), slots, at


def _keep_words(m: re.Match[str]) -> str:
    """A bracketed group of numbers right after a value goes; a bracketed position stays (``[ 35/464]``)."""
    group = m.group(0)
    return group if "/" in group else ""


def _name(before: str) -> str:
    """The words printed just before a number (``Depth Loss: `` → ``depth loss``), or ""."""
    words = _WORDS.findall(before[-48:])
    return normalise(words[-1]) if words else ""


def _unix(y: int, mo: int, d: int, h: int, mi: int, s: int, frac: str | None) -> float | None:
    """A zone-less clock is this machine's local time, as the prefixes read one (prefix.py)."""
    try:
        datetime(y, mo, d, h, mi, s)  # (a date that cannot exist: mktime would roll it over)
        when = local_to_epoch(y, mo, d, h, mi, s)
    except (OverflowError, ValueError, OSError):
        return None
    return when + (float("0." + frac) if frac else 0.0)


class SeriesWindow:
    """The recent records of a log, by template; a record read once its template repeats."""

    def __init__(self) -> None:
        self._records: OrderedDict[str, deque[tuple[int, list[Slot], float | None]]] = OrderedDict()
        self._epochs_said = 0  # epoch lines read so far: a record's count may start again after one
        self._pending: dict[str, deque[tuple[int, str]]] = {}  # lines kept unmasked, by shape (see ``keep``)
        self._prefix: tuple[str, float] | None = None  # a dated line of its own just read: (template, clock)
        self._follows: dict[str, str | None] = {}  # a dated line's template → the one template after it (None: several)
        self._epoch: tuple[str, str | None] | None = None  # an epoch said on a line of its own: (as printed, total)
        self._columns: list[str] = []  # an ASCII table's header row (``| Iteration | Loss |``), for the rows under it
        self._judged: set[str] = set()  # templates whose series gave a record (their earlier instances read with it)

    def keep(self, shape: str, text: str) -> None:
        """Keep a line of a shape (its text, digits dropped) that needs no judging now, unmasked: it is masked
        only if a later line of its shape is judged (cheap for the many lines that never are)."""
        self._prefix = None
        pending = self._pending.get(shape)
        if pending is None:
            if len(self._pending) >= TEMPLATES:
                self._pending.clear()
            pending = self._pending[shape] = deque(maxlen=INSTANCES)
        pending.append((self._epochs_said, text))

    def see(self, text: str, judge: bool = True, shape: str = "", when: float | None = None,
            catch_up: bool = False) -> Record | None:
        """Take one line (``when``: its time, where the text prints none); the record it completes once its template
        has repeated, else None (always None when not ``judge``: the line is only kept, for the records after it). The
        lines kept unmasked for its ``shape`` are masked first, in order. With ``catch_up``, the first record of a
        template carries its instances before it (``earlier``): lines read as nothing until the series was known."""
        pending = self._pending.pop(shape, None) if shape else None
        if pending:
            epochs_said = self._epochs_said
            for self._epochs_said, kept in pending:
                self.see(kept, judge=False)
            self._epochs_said = epochs_said
        if text[:1] == "|" or text.lstrip()[:1] == "|":
            text = self._named_row(text)
        template, slots, at = masked(text)
        if not template:
            self._prefix = None
            return None
        prefix, self._prefix = self._prefix, None
        said = _said_epoch(template, slots)
        if said is not None:
            self._epoch = said
            self._epochs_said += 1
        if at is not None and not _LOSS_WORD.search(template) and all(slot.whole for slot in slots):
            self._prefix = (template, at)  # a logger's prefix alone (``… at Line 49:INFO:``): its body may follow
            return None
        if prefix is not None and at is None:
            if len(self._follows) > TEMPLATES:
                self._follows.clear()
            follows = self._follows.setdefault(prefix[0], template)
            if follows != template:
                self._follows[prefix[0]] = None
            elif follows is not None:
                template, at = prefix[0] + "\n" + template, prefix[1]
        if not slots:
            return None
        instances = self._records.get(template)
        if instances is None:
            instances = self._records[template] = deque(maxlen=INSTANCES)
            if len(self._records) > TEMPLATES:
                self._records.popitem(last=False)
        else:
            self._records.move_to_end(template)
        instances.append((self._epochs_said, slots, at if at is not None else when))
        if not judge or len(instances) < MIN_RECORDS:
            return None
        looped = False
        if _LOSS_WORD.search(template):
            progress = False
        elif _THROUGHPUT.search(template):
            progress = True
        elif _EPOCH_WORD.search(template):
            progress, looped = False, True
        else:
            return None  # (no loss, no throughput: a download's or a loader's counter, not a training record)
        seen = list(instances)
        record = _read(seen, at, self._epoch, progress, looped=looped)
        if record is None or not catch_up or template in self._judged:
            return record
        if len(self._judged) >= TEMPLATES:
            self._judged.clear()
        self._judged.add(template)
        earlier = [_read(seen, seen[i][2], self._epoch, progress, shown=i, looped=looped) for i in range(len(seen) - 1)]
        return replace(record, earlier=tuple(r for r in earlier if r is not None))

    def _named_row(self, text: str) -> str:
        """A row of an ASCII table under its header (turicreate's ``| Iteration | Loss | Elapsed Time |`` over
        ``| 1 | 5.2557 | 1.36s |``): each cell named by its column (``Iteration 1 | Loss 5.2557 | …``). A header row
        is remembered; a row of as many cells, every one a number, is named by it; any other row is left as it is."""
        cells = [cell.strip() for cell in text.strip().strip("|").split("|")]
        columns = self._columns
        if columns and len(cells) == len(columns) and all(_CELL_NUMBER.fullmatch(cell) for cell in cells):
            # (an elapsed time with no unit is in seconds: turicreate prints ``9.7`` as the table's clock)
            return " | ".join(f"{name} {cell}{'s' if cell[-1:].isdigit() and _timed(name) else ''}"
                              for name, cell in zip(columns, cells, strict=True))
        if 2 <= len(cells) <= _TABLE_CELLS and all(_CELL_NAME.fullmatch(cell) for cell in cells):
            self._columns = cells
        return text


def _timed(column: str) -> bool:
    """True when a table's column is a time (``Elapsed Time``), not a count or a value."""
    return lookup(normalise(column))[0] in (Field.ELAPSED, Field.STEP_TIME)


def _said_epoch(template: str, slots: list[Slot]) -> tuple[str, str | None] | None:
    """An epoch said on a line of its own (``Training epoch: 80``, ``Training at epoch 4 (total 4) with lr …``):
    the epoch as printed and its total, or None."""
    if not slots or len(slots) > 4 or not slots[0].whole or not slots[0].name.endswith("epoch") or "loss" in template.lower():
        return None
    total = slots[1] if len(slots) > 1 and slots[1].whole and (slots[1].total_like or slots[1].name == "total") else None
    return slots[0].printed, None if total is None else total.printed


def _read(said: list[tuple[int, list[Slot], float | None]], at: float | None,
          said_epoch: tuple[str, str | None] | None, progress: bool = False, shown: int = -1,
          looped: bool = False) -> Record | None:
    """The last instance read by the series of its template's numbers, or None where no position ticks. A ``progress``
    record (a throughput beside its count, no loss) has a position only where a count named a step, or else the one whole
    number, ticks at a steady cadence: the loop its throughput measured (DeepSpeed's ``0/240, SamplesPerSec=…``, its
    epoch then its step; later ``epoch=0/micro_step=34/global_step=34, RunningAvgSamplesPerSec=…``). The
    instance read is the last one, or ``shown`` (an earlier one, judged by the same series). A ``looped`` record (an
    epoch named, no loss word) is a step record only where its own epoch stands before a named count that ticks steadily
    (CycleGAN's ``(epoch: 1, iters: 100, …)`` every 100 iterations, its losses named ``D_A``, ``G_A``)."""
    instances = [slots for _, slots, _ in said]
    starts = [b[0] > a[0] for a, b in pairwise(said)]  # an epoch line was said between two instances
    last = instances[-1]
    this = instances[shown]
    ticking = [j for j in range(len(last)) if _ticks(instances, j, starts)]
    totals = {j: j + 1 for j in ticking if j + 1 < len(last) and _fixed_total(instances, j + 1)}
    named = [j for j in ticking if _position_word(last[j].name)]
    if progress:
        whole = [j for j in ticking if last[j].whole]
        counts = named or (whole if len(whole) == 1 else [])  # (a count named a step, else the one that ticks)
        if not counts or not _steady(instances, counts[-1]):
            return None
        position = counts[-1]
    elif totals:
        position = max(totals)  # the innermost counter with a total (an epoch's counter comes before)
    elif named:
        position = named[-1]
    else:
        return None  # a number ticks but no word and no total says what it counts
    if looped and (not any("epoch" in last[j].name and last[j].whole for j in range(position))
                   or position not in named or not _steady(instances, position, rises=True)):
        return None
    if not progress and not looped and not any("loss" in slot.name or slot.name == "cost" for slot in last):
        return None  # no loss: a download's or a loader's counter, not a training record
    used = {position, totals.get(position, -1)}
    if last[position].total_like:
        used.add(position - 1)  # (``0/240``: the outer count the position is printed after, unnamed)
    epoch: tuple[str, str | None] | None = None
    for j in range(position):
        # (legacy Paddle's ``Pass 1, Batch 200``; torch-rnn's ``Epoch 1.06 / 50, i = 60 / 47800``: the run's share of its
        # epochs beside its iteration)
        if ((("epoch" in last[j].name or last[j].name == "pass") and last[j].whole)
                or (last[j].name.endswith("epoch") and not last[j].total_like)):
            total = j + 1 if j + 1 < len(last) and last[j + 1].total_like and _fixed(instances, j + 1) else None
            epoch = (this[j].printed, None if total is None else this[total].printed)
            used |= {j, -1 if total is None else total}
    if epoch is None and said_epoch is not None:
        epoch = said_epoch
    step = int(this[position].value)
    total_text = "" if position not in totals else "/" + this[totals[position]].printed
    if epoch is not None and epoch[1] is not None:
        parts = [f"epoch: {epoch[0]}/{epoch[1]}", f"iter: {step}{total_text}"]
    elif epoch is not None and total_text:
        parts = [f"Epoch: [{epoch[0]}][{step}{total_text}]"]
    elif epoch is not None and epoch is not said_epoch:
        parts = [f"epoch: {epoch[0]}", f"iter: {step}"]  # (a count with no total under the record's own epoch)
    elif progress and last[position].name.endswith("epoch"):
        parts = [f"epoch: {step}{total_text}"]  # (an engine's count of its epochs: rl_games' ``epoch: 14/1000``)
    else:
        parts = [f"iter: {step}{total_text}"]
    for j, slot in enumerate(last):
        if j in used or slot.total_like or not slot.name:
            continue
        field, _ = lookup(slot.name)
        if field in (Field.STEP, Field.TOTAL, Field.EPOCH) or episode_length(slot.name):
            continue  # another count (``episode steps: 393``): the series chose the position
        parts.append(f"{slot.name}: {this[j].printed}")
    return Record(", ".join(parts), at, step, frozenset(int(last[j].value) for j in ticking),
                  position in totals, epoch is not None, any(slot.clock and slot.name for slot in last), progress, looped)


def _ticks(instances: list[list[Slot]], j: int, starts: list[bool]) -> bool:
    """True when slot ``j`` counts up across the instances, back down only where an epoch line was said between or
    a count before it moved on that stays put while this one rises (an epoch's batches: the epoch is the outer count)."""
    rising: list[int] = []
    resets: list[int] = []
    for i, ((before, after), start) in enumerate(zip(pairwise(instances), starts, strict=True)):
        a, b = before[j], after[j]
        if not (a.whole and b.whole) or (a.total_like and not _outer_fixed(instances, j)):
            return False
        if b.value > a.value:
            rising.append(i)
        elif b.value < a.value and not start:
            resets.append(i)
        elif b.value == a.value:
            return False
    for i in resets:
        if not any(_moves(instances, k, i) and not any(_moves(instances, k, r) for r in rising) for k in range(j)):
            return False
    return len(rising) >= MIN_RECORDS - 1


def _outer_fixed(instances: list[list[Slot]], j: int) -> bool:
    """True when the number printed before slot ``j``'s ``/`` stays put: ``0/130``, ``0/140`` is an outer count and a
    count within it, not a count of a total (a total stays put itself)."""
    return j > 0 and instances[-1][j - 1].whole and _fixed(instances, j - 1)


def _steady(instances: list[list[Slot]], j: int, rises: bool = False) -> bool:
    """True when slot ``j`` goes up by the same amount from each instance to the next (a loop reporting every N); with
    ``rises``, from each to the next where it goes up (its count starts again each epoch: pix2pix's ``iters: 478``, then
    ``iters: 56`` in the next)."""
    gaps = {after[j].value - before[j].value for before, after in pairwise(instances)
            if not rises or after[j].value > before[j].value}
    return len(gaps) == 1 and next(iter(gaps)) > 0


def _moves(instances: list[list[Slot]], k: int, i: int) -> bool:
    """True when slot ``k``, a whole number, goes up from instance ``i`` to the next."""
    return instances[i + 1][k].whole and instances[i + 1][k].value > instances[i][k].value


def _fixed(instances: list[list[Slot]], j: int) -> bool:
    return all(inst[j].value == instances[-1][j].value for inst in instances)


def _fixed_total(instances: list[list[Slot]], j: int) -> bool:
    """True when slot ``j`` follows a ``/`` or ``of``, stays fixed, and is never below the count before it."""
    return (instances[-1][j].total_like and instances[-1][j].whole and _fixed(instances, j)
            and all(inst[j].value >= inst[j - 1].value for inst in instances))


def _position_word(name: str) -> bool:
    """True when the words before a count name a position (``iter``, ``batch``, ``global step``)."""
    field, _ = lookup(name)
    # (a plural count that ticks is a position, CycleGAN's ``iters: 100``, ``iters: 200``: a planned total is said once)
    return field is Field.STEP or name.split(" ")[-1:] in (["batch"], ["iters"])
