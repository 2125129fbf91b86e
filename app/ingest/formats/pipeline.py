"""The one line pipeline every step parser runs in; a parser keeps only what is its trainer's.

A batch of lines goes through the same steps whoever printed them:

1. a line in a usual shape of the parser's formats (its rows' ``usual_lines``, registry.py), while
   no record waits for a wrapped rest, is read straight into its step (``UsualLine``: why that
   reads the same);
2. capture quirks, once for every trainer: a bar redrawn with ``\\r`` thousands of times on one
   line keeps its newest redraws (its end), colour codes and NULs go (``clean``), a line indented
   from a README or a Markdown quote is read as printed when its prefix follows the indentation,
   and ``^M`` pasted from a pager is the carriage return it stands for, as is Keras' run of backspaces
   over its last bar;
3. a launcher's or logger's prefix gives the line its time and rank (``LineTimes``, prefix.py);
4. each ``\\r`` redraw is read on its own; two records run into one line are split (the parser's
   ``glued`` starts, or its own ``pieces``);
5. a dict of figures printed one key a line is the one line it prints (``joined_dicts``, spread_dicts.py:
   bounded and exact, else every line as printed); a record a logger wrapped onto lines indented under its message (rich's handler wraps at the
   terminal's width) is one line again (``continued``: bounded, and never a traceback's own
   indentation, which no prefix starts); the wrap joiner re-joins what a terminal wrapped and holds a record that may go on
   (``WrapJoiner``, fields.py); the parser's ``classify`` says what each piece is;
6. the batch's end releases a held record, adds a ``Tick`` at the latest time a line carried and
   counts the lines that could not be read.

For the history import, :meth:`StepLines.feed_runs` reads the same lines with each stretch of a
usual line that is all run columns as one ``StepRun`` (the bulk path).
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, compress, islice, pairwise, repeat
from typing import Any, Generic, Literal, TypeVar, cast

from ...stats.events import EvalResult, Event, StepRun, Tick, TrainStep, builder, timed_step
from .fields import MAX_LINE_CHARS, Kind, WrapJoiner, clean, finite, next_plain, number, split_glued
from .paste import maybe_pasted, unpasted
from .prefix import LineTimes, PrefixReader, dated
from .shapes import RUN_COLUMNS, UsualLine
from .spread_dicts import dict_end, joined_dicts

R = TypeVar("R")
Emit = Callable[[], list[Event]]
# A line's mark in a batch read for the bulk path: its row of groups when it is of a usual shape, else "".
Mark = str | tuple[str, ...]
_train_step = builder(TrainStep)  # a usual line's step, made by the hundred thousand


_JSON_LOADS: list[Callable[[str], Any] | None] = []


def _json_loads() -> Callable[[str], Any] | None:
    """orjson's ``loads``: a run's figures read at once (app/record/encode.py: why it is optional).

    Imported at the first run, not with the parsers: a miner log's import child never reads one
    (orjson is 2.3 MB of its memory)."""
    if not _JSON_LOADS:
        try:
            _JSON_LOADS.append(importlib.import_module("orjson").loads)
        except ImportError:
            _JSON_LOADS.append(None)
    return _JSON_LOADS[0]


class StepLines(Generic[R]):
    """A step parser's feed loop (the module's docstring): the parser says what a piece of text is.

    A parser sets, in its ``__init__``, ``self._times`` (None when its records read their own
    prefixes) and calls :meth:`_start`; it defines :meth:`classify` and, where its records are not
    closures of events, :meth:`emit`. The hooks below default to nothing.
    """

    name: str
    bad_lines: int
    # Where a second record starts in a line that two ran into (None: never split), and the
    # substrings a line must hold to be looked at for that.
    glued: re.Pattern[str] | None = None
    glued_needles: tuple[str, ...] = ()
    # A line indented before its prefix is a copy (a README's, a Markdown quote): read as printed.
    # False: the parser reads such a copy's prefix as text (its dates are the copy's, not the run's).
    unindent: bool = True
    _times: LineTimes | None
    _reference_time: float | None
    # The run's planned steps its trainer printed apart from its step lines (nanoGPT's ``Overriding: max_iters =
    # 5000``), set by the parser as it reads that line: a step read after it that prints no total of its own is
    # at that total, one by one and in bulk alike.
    planned_total: int | None

    @property
    def reference_time(self) -> float | None:
        """When the lines fed next were written, at the latest (a prefix's time without a year needs it)."""
        return self._times.reader.reference_time if self._times is not None else self._reference_time

    @reference_time.setter
    def reference_time(self, value: float | None) -> None:
        if self._times is not None:
            self._times.reader.reference_time = value
        self._reference_time = value

    def _start(self, classify: Callable[[str], tuple[Kind, R | None]], usual: tuple[UsualLine, ...] = ()) -> None:
        """Set up the joiner over ``classify`` and the usual lines read without the general reading."""
        self._joiner: WrapJoiner[R] = WrapJoiner(classify)
        self.bad_lines = 0
        self._reference_time = None
        self.planned_total = None
        self._latest: float | None = None  # the latest time a record carried (for a parser that dates its own)
        self._usual: dict[str, list[tuple[re.Pattern[str], Callable[[re.Match[str]], list[Event]]]]] = {}
        for line in usual:
            self._usual.setdefault(line.head, []).append((line.pattern, usual_reader(line)))
        # The hooks a parser defines, bound once (None: the default, which does nothing, is skipped).
        cls = type(self)
        self._whole_line = self.whole_line if cls.whole_line is not StepLines.whole_line else None
        self._message = self.message if cls.message is not StepLines.message else None
        self._read_part = self.read_part if cls.read_part is not StepLines.read_part else None
        self._line_read = self.line_read if cls.line_read is not StepLines.line_read else None
        self._pieces = self.pieces if cls.pieces is not StepLines.pieces else None
        self._emit = None if cls.emit is EmitLines.emit else self.emit
        self._bulk: tuple[UsualLine, ...] = tuple(line for line in usual if line.in_columns)
        self._marks: re.Pattern[str] | None = None
        self._firsts: list[int] = []  # where each usual shape's groups start in a line's row
        if self._bulk:
            # One match a line, also for an empty one: the groups of every usual shape, the shape that
            # took the line with its figures, every other group "" (a shape read by ``figures_only``:
            # its step alone).
            marked = [_marked(line) for line in self._bulk]
            self._marks = re.compile("^(?:" + "".join(f"(?:{core})$|" for core in marked) + ".*$)", re.MULTILINE)
            for core in marked:
                self._firsts.append(sum(re.compile(other).groups for other in marked[:len(self._firsts)]))
        # Where a shape is read by ``figures_only`` (nanoGPT's, beside llm.c's and modded-nanogpt's in one
        # parser), a batch after one of that shape is marked by that shape's steps alone, the other
        # shapes' lines read one by one: taking every shape's groups costs nanoGPT's lines a tenth more.
        self._light: re.Pattern[str] | None = None
        self._light_shape = 0  # (which of the usual lines it marks)
        self._lightly = False  # the next batch is marked so (the last one's stretches were of that shape)
        self._marked_lightly = False  # the batch being read was
        figured = [k for k, line in enumerate(self._bulk) if line.figures_only is not None]
        if figured and len(self._bulk) > 1:
            self._light_shape = figured[0]
            self._light = re.compile(f"^(?:{_marked(self._bulk[figured[0]])}$|.*$)", re.MULTILINE)
            self._lightly = True  # (a batch mostly of other lines is marked again, at once, with every shape's groups)
        # Likewise, where a parser reads several shapes, a batch after a stretch of one shape read by
        # its groups (llm.c's, modded-nanogpt's) is marked by that shape's groups alone: every shape's
        # groups cost such a log's lines a third more (and their columns as much again).
        self._shape_next: int | None = None  # (the shape that marks the next batch)
        self._marked_by: int | None = None  # the shape that marked the batch being read

    # --- what a parser declares -------------------------------------------------------------------

    def classify(self, text: str) -> tuple[Kind, R | None]:
        """What a piece of text is to this trainer (the parser's own reading)."""
        raise NotImplementedError

    def emit(self, record: R, events: list[Event]) -> None:
        """Put what a whole record says onto ``events``."""
        raise NotImplementedError

    def pieces(self, part: str) -> Iterable[str]:
        """The records a line (one ``\\r`` redraw of it) holds: split where a second one starts."""
        if self.glued is not None and (not self.glued_needles or any(n in part for n in self.glued_needles)):
            return split_glued(part, self.glued)
        return (part,)

    def whole_line(self, raw: str, events: list[Event]) -> bool:
        """Read a line outside the pipeline (a JSON document's); True when it was."""
        return False

    def message(self, cleaned: str, line: str) -> str | None:
        """The message of a line once its prefix is read (``cleaned``: the whole line); None to skip it."""
        return line

    def read_part(self, part: str, events: list[Event]) -> bool:
        """Read one ``\\r`` part of a line on the parser's own fast path; True when it was."""
        return False

    def line_read(self, events: list[Event], start: int) -> None:
        """A whole line was read: its events are ``events[start:]``."""

    def batch_end(self, events: list[Event]) -> None:
        """The batch ends: what the parser still holds goes out."""

    def batch_latest(self) -> float | None:
        """The time of the batch's ``Tick``: the latest a line carried."""
        return self._times.latest if self._times is not None else self._latest

    def extra_bad(self) -> int:
        """Lines the parser could not read outside the joiner."""
        return 0

    def source_lines(self, lines: Iterable[str]) -> Iterable[str]:
        """The lines as the parser reads them (a first line may say what the file is)."""
        return lines

    def joins_dicts(self) -> bool:
        """Whether a dict printed one key a line is read as the one line it prints (spread_dicts.py)."""
        return True

    def died(self) -> list[Event]:
        """The line just read ended the run (crash.py): what the parser held until it knew."""
        return []

    def survives(self) -> bool:
        """Whether the crash the line just read reports is one the trainer lives through (crash.py): an
        error of a library's own background worker, which the parser reads as what it is instead."""
        return False

    # --- the loop -----------------------------------------------------------------------------------

    def feed(self, lines: Iterable[str]) -> list[Event]:
        """Parse lines in log order; end with a ``Tick`` when a line carried a time."""
        events: list[Event] = []
        self._begin()
        if self._times is not None and isinstance(lines, list):
            self._times.reader.ahead(lines)  # (a date printed without a year before any with one: prefix.py)
        self._read(continued(joined_dicts(self.source_lines(lines), self.joins_dicts)), events)
        return self._end(events)

    def _read(self, lines: Iterable[str], events: list[Event]) -> None:
        """Read lines into ``events``: a usual line at once, any other by the general reading."""
        joiner, usual, times, line = self._joiner, self._usual, self._times, self._line
        noted = False  # the readers already know a usual line was read last
        for raw in lines:
            shapes = usual.get(raw[:5]) if usual and not joiner.holding and len(raw) <= MAX_LINE_CHARS else None
            if shapes is not None:
                for pattern, read in shapes:
                    m = pattern.fullmatch(raw)
                    if m is not None:
                        if not noted:
                            if times is not None:
                                times.unprefixed()
                            joiner.took_record()
                            noted = True
                        events.extend(read(m) if self.planned_total is None else _totalled(read(m), self.planned_total))
                        break
                else:
                    noted = False
                    line(raw, events)
                continue
            noted = False
            line(raw, events)

    def _begin(self) -> None:
        if self._times is not None:
            self._times.latest = None
        self._latest = None

    def _usual_events(self, text: str) -> list[Event] | None:
        """The events of a line in a usual shape (``text`` whole), or None."""
        shapes = self._usual.get(text[:5])
        if shapes is not None:
            for pattern, read in shapes:
                m = pattern.fullmatch(text)
                if m is not None:
                    return read(m)
        return None

    def _line(self, raw: str, events: list[Event]) -> None:
        """The general reading of one line: its events onto ``events``, a planned total on its steps that print none."""
        planned, start = self.planned_total, len(events)
        self._read_line(raw, events)
        if planned is not None and len(events) > start:
            events[start:] = _totalled(events[start:], planned)

    def _read_line(self, raw: str, events: list[Event]) -> None:
        if self._whole_line is not None and self._whole_line(raw, events):
            return
        if len(raw) > MAX_LINE_CHARS and ("\r" in raw[-MAX_LINE_CHARS:] or "\b\b" in raw[-MAX_LINE_CHARS:]):
            # A bar redrawn with ``\r`` (or Keras' backspaces) thousands of times: its newest redraws are at
            # the end, and the first one kept may be cut (never read as a bar of its own).
            tail = raw[-MAX_LINE_CHARS:]
            mark = tail.find("\r")
            raw = tail[mark + 1 :] if mark >= 0 else tail[tail.index("\b\b") :].lstrip("\b")
        cleaned = clean(raw)
        if maybe_pasted(cleaned):
            cleaned = unpasted(cleaned)  # what a paste added around the line (paste.py), for every trainer alike
        if self.unindent and cleaned[:1] in " \t" and cleaned.lstrip()[:1] == "[":
            cleaned = cleaned.lstrip()  # an indented copy (a README, a Markdown quote): the line as printed
        joiner = self._joiner
        read: str | None = cleaned
        if self._times is not None:
            read = self._times.message(cleaned, joiner.holding)
        if read is not None and self._message is not None:
            read = self._message(cleaned, read)
        if read is None:
            return
        line = read
        if "^M" in line:
            line = line.replace("^M", "\r")  # a log viewed in a pager and pasted: "^M" for \r
        if "#0" in line:
            # syslog's (rsyslog's, SageMaker's MPI capture's) escape of a control character as ``#`` and its octal
            # code: ``#015`` is the carriage return tqdm redraws with, ``#033[A`` its cursor moving up (no text)
            line = _SYSLOG_ESCAPE.sub("", line).replace("#015", "\r")
        if "\b" in line:
            # Keras' interactive bar redraws itself by backspacing over the last one (``\b`` × its width):
            # a redraw, as ``\r`` is; a lone backspace is dropped.
            line = _BACKSPACES.sub("\r", line).replace("\b", "")
        start = len(events)
        read_part, pieces, glued, emit = self._read_part, self._pieces, self.glued, self._emit
        for part in line.split("\r") if "\r" in line else (line,):
            if not part or (read_part is not None and read_part(part, events)):
                continue
            if pieces is not None:
                texts: Iterable[str] = pieces(part)
            elif glued is not None and (not self.glued_needles or any(n in part for n in self.glued_needles)):
                texts = split_glued(part, glued)
            else:
                texts = (part,)
            for text in texts:
                if emit is None:  # (records that are closures of events: the usual case, inline)
                    for record in joiner.records(text):
                        events.extend(record())  # type: ignore[operator]
                else:
                    for record in joiner.records(text):
                        emit(record, events)
        if self._line_read is not None:
            self._line_read(events, start)

    def _end(self, events: list[Event]) -> list[Event]:
        """A batch's end: what the joiner held, the parser's own, then a ``Tick`` when a line carried a time."""
        start = len(events)
        for record in self._joiner.end_records():
            self.emit(record, events)
        if self.planned_total is not None and len(events) > start:
            events[start:] = _totalled(events[start:], self.planned_total)
        self.batch_end(events)
        latest = self.batch_latest()
        if latest is not None:
            events.append(Tick(at=latest))
        self.bad_lines = self._joiner.bad + self.extra_bad()
        return events

    # --- the bulk path (the history import) ------------------------------------------------------

    @property
    def in_runs(self) -> bool:
        """True when one of this parser's usual lines is read in bulk (``feed_runs``)."""
        return bool(self._bulk)

    def usual_marks(self, lines: list[str]) -> list[Mark]:
        """For each line of a usual shape, its row: every shape's groups, its own with its figures (one
        pattern over the batch); "" for any other line.

        Such a line holds only its trainer's words, digits, signs and punctuation: none of the
        crash watch's words (crash.py), which skips them.
        """
        if self._marks is None:
            return [""] * len(lines)
        text = "\n".join(lines)
        rows: list[tuple[str, ...]] = []
        self._marked_lightly = False  # (how this batch is marked)
        if self._lightly and self._light is not None:
            rows = self._light.findall(text)
            if rows.count("") * 2 <= len(rows):  # type: ignore[arg-type]
                self._marked_lightly = True
            else:
                self._lightly = False  # (most lines of another shape, or none usual: every shape's groups)
        self._marked_by = None
        if not self._marked_lightly and self._shape_next is not None:
            own = _own_pattern(self._bulk[self._shape_next])
            rows = own.findall(text)
            if rows.count(("",) * own.groups) * 2 <= len(rows):
                self._marked_by = self._shape_next
            else:
                self._shape_next = None  # (most lines of another shape, or none usual: every shape's groups)
        if not self._marked_lightly and self._marked_by is None:
            rows = self._marks.findall(text)
        if len(rows) != len(lines):
            return [""] * len(lines)  # a line with a newline: read alone
        marks: list[Mark]
        if self._marked_lightly:
            marks = rows  # type: ignore[assignment]  # (the figures_only shape's steps, "" for any other line)
        elif rows and not isinstance(rows[0], tuple):
            marks = [(step,) if step else "" for step in rows]  # (one shape, its step alone)
        elif all(map(any, rows)):
            marks = rows  # type: ignore[assignment]  # (every line of a usual shape: the usual batch)
        else:
            marks = [row if any(row) else "" for row in rows]  # (a line of a usual shape has its step)
        if lines and max(map(len, lines)) > MAX_LINE_CHARS:  # an over-long line is read alone, as feed reads it
            marks = [mark if len(line) <= MAX_LINE_CHARS else "" for mark, line in zip(marks, lines)]
        return marks

    def feed_runs(self, lines: list[str], marks: list[Mark] | None = None) -> list[Event | StepRun]:
        """What :meth:`feed` reads, with each stretch of the bulk usual line as one :class:`StepRun`.

        The history import's reading of an every-step log: the usual lines (``marks``: their
        :meth:`usual_marks`) have their figures kept in columns, not made into events one by one.
        """
        if marks is None:
            marks = self.usual_marks(lines)
        items: list[Event | StepRun] = []
        self._begin()
        if self._times is not None:
            self._times.reader.ahead(lines)
        joiner, bulk = self._joiner, self._bulk
        i, count = 0, len(lines)
        while i < count:
            if not bulk or not marks[i] or joiner.holding:
                end = i + 1
                while end < count and not marks[end] and lines[end][:1] == " " and end - i <= MAX_CONTINUED_LINES:
                    end += 1  # (what ``continued`` may join to it)
                if self.joins_dicts():
                    end = max(end, dict_end(lines, i))  # (a dict printed one key a line: ``joined_dicts``)
                events: list[Event] = []
                self._read(continued(joined_dicts(lines[i:end], self.joins_dicts)), events)
                items.extend(events)
                i = end
                continue
            end = next_plain(marks, i + 1)
            self._stretch(lines[i:end], cast("list[tuple[str, ...]]", marks[i:end]), items)
            i = end
        items.extend(self._end([]))
        return items

    def _stretch(self, lines: list[str], rows: list[tuple[str, ...]], items: list[Event | StepRun]) -> None:
        """Read lines each of a usual shape (``rows``: their marks): a run of each stretch of one shape
        (each line with its loss and none of its evaluations), any other line as feed's fast path reads it."""
        lightly = self._marked_lightly
        if lightly:  # (rows: the steps of lines of the figures_only shape)
            k = self._light_shape
            usual, at = self._bulk[k], 0
        elif self._marked_by is not None:  # (rows: the groups of that shape alone)
            k = self._marked_by
            usual, at = self._bulk[k], 0
        else:
            k = next(k for k, (at, line) in enumerate(zip(self._firsts, self._bulk)) if rows[0][at + _step_at(line)])
            usual, at = self._bulk[k], self._firsts[k]
        own = rows
        if usual.figures_only is not None:
            self._lightly = self._light is not None  # (the next batch: of this shape, most likely)
            if lightly or all(map(operator.itemgetter(at), rows)):
                run = _figures_run(usual, lines)
                if run is not None:
                    self._took_usual()
                    items.append(self._with_total(run))
                    return
            own, at = _own_rows(usual, lines), 0
        elif len(self._bulk) > 1:
            self._shape_next = k  # (the next batch: of this shape, most likely)
        for start, end, part in _runs(usual, lines, own, at):
            if isinstance(part, StepRun):
                self._took_usual()
                items.append(self._with_total(part))
            elif part == "other":  # (lines of another of the parser's usual shapes)
                self._stretch(lines[start:end], rows[start:end], items)
            else:
                events: list[Event] = []
                self._read(lines[start:end], events)
                items.extend(events)

    def _with_total(self, run: StepRun) -> StepRun:
        """``run`` with the planned total as its column where its lines print none (as :meth:`_line` reads them)."""
        total = self.planned_total
        if total is None or run.column("total_steps") is not None:
            return run
        return dataclasses.replace(run, columns=(*run.columns, ("total_steps", (total,) * len(run.steps))))

    def _took_usual(self) -> None:
        if self._times is not None:
            self._times.unprefixed()  # as feed's fast path notes a usual line
        self._joiner.took_record()


# A record a logger wrapped: at most this many lines joined to its first, and this many characters.
MAX_CONTINUED_LINES = 4
MAX_CONTINUED_CHARS = 4096
_SYSLOG_ESCAPE = re.compile(r"#033\[[0-9;?]*[ -/]*[@-~]")
_BACKSPACES = re.compile("\b{2,}")
_INDENT = " " * 8  # a continuation is indented at least this far (a message column past a prefix)
_COLUMNS = PrefixReader(dates=False)  # where a record's message starts (its prefix peeled)


def _totalled(events: list[Event], total: int) -> list[Event]:
    """``events`` with ``total`` as the planned total of each step that prints none."""
    return [dataclasses.replace(event, total_steps=total) if isinstance(event, TrainStep) and event.total_steps is None
            else event for event in events]


def continued(lines: Iterable[str]) -> Iterable[str]:
    """The lines with each record a logger wrapped joined into one (held one line to see its rest).

    rich's log handler (ColossalAI's logger, and any ``RichHandler``) wraps a long message at the
    terminal's width and indents the rest under the message, past the time and level columns
    (FastFold pull request 138). A line is such a rest only when it is indented deeper than the line
    above and no deeper than where that line's message starts after a prefix: an unprefixed line
    (a traceback's ``File "…"`` frames and source lines) is never continued, and a new record has
    its own prefix.
    """
    if isinstance(lines, list) and not any(map(str.startswith, lines, repeat(_INDENT))):
        return lines  # no line that could continue another (the usual batch: one pass in C)
    return _joined(lines)


def _joined(lines: Iterable[str]) -> Iterator[str]:
    held: str | None = None
    column = -1  # the held record's message column once computed (0: it has no prefix)
    joined = 0
    for raw in lines:
        if held is not None and raw.startswith(_INDENT):
            if column < 0:
                column = _message_column(held)
            stripped = raw.lstrip(" ")
            indent = len(raw) - len(stripped)
            if (column >= len(_INDENT) and len(held) - len(held.lstrip(" ")) < indent <= column
                    and joined < MAX_CONTINUED_LINES
                    and len(held) + len(raw) <= MAX_CONTINUED_CHARS and stripped[:1] not in ("", "\r")
                    and not _message_column(raw)):  # (a line with a prefix of its own begins a record)
                held = held.rstrip("\r\n") + " " + stripped
                joined += 1
                continue
        if held is not None:
            yield held
        held, column, joined = raw, -1, 0
    if held is not None:
        yield held


def _message_column(line: str) -> int:
    """Where a line's message starts once a logger's or launcher's prefix is peeled (0: no prefix)."""
    if len(line) > MAX_CONTINUED_CHARS:
        return 0
    cleaned = clean(line)
    message = _COLUMNS.read(cleaned).message
    return len(cleaned) - len(message) if message is not cleaned else 0


class EmitLines(StepLines[Emit]):
    """A step parser whose records are closures of undated events: the line's prefix dates them."""

    _times: LineTimes

    def _start_emitting(self, usual: tuple[UsualLine, ...] = ()) -> None:
        self._start(self._classify_dated, usual)

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """What a piece of text is to this trainer, as a closure of its events."""
        raise NotImplementedError

    def emit(self, record: Emit, events: list[Event]) -> None:
        """The record's events."""
        events.extend(record())

    def _classify_dated(self, text: str) -> tuple[Kind, Emit | None]:
        usual = self._usual_events(text) if self._usual else None
        emit: Emit | None
        if usual is not None:
            kind, emit = Kind.FULL, _constant(usual)
        else:
            kind, emit = self.classify(text)
        at = self._times.at
        if emit is None or at is None:
            return kind, emit
        undated: Emit = emit
        return kind, lambda: dated(undated(), at)


def _constant(events: list[Event]) -> Emit:
    return lambda: events


# --- a usual line's columns, read -----------------------------------------------------------------


def usual_reader(usual: UsualLine) -> Callable[[re.Match[str]], list[Event]]:
    """The events of a line of ``usual``'s shape from its match: its step, then its evaluations."""
    columns = usual.columns
    stage, loss_note, mfu_note = usual.stage, usual.loss_note, usual.mfu_note
    if not usual.evals and sorted(columns) == sorted(RUN_COLUMNS):  # (nanoGPT's: the run's columns alone)
        index = [usual.pattern.groupindex[name] for name in RUN_COLUMNS]

        def read_run_line(m: re.Match[str]) -> list[Event]:
            step, loss, step_ms, mfu = m.group(*index)
            return [timed_step(stage, int(step), float(loss), loss_note, float(step_ms), float(mfu), mfu_note)]

        return read_run_line
    evals = usual.evals
    zero_unmeasured = usual.mfu_unmeasured == "zero"

    def read(m: re.Match[str]) -> list[Event]:
        g = m.groupdict()
        step = int(g["step"])
        fields: dict[str, Any] = {"at": None, "stage": stage, "step": step, "loss_note": loss_note}
        for name in columns:
            text = g[name]
            if name == "step" or text is None:
                continue
            if name == "total_steps":
                fields["total_steps"] = int(text)
            elif name in ("loss", "grad_norm"):
                fields[name] = number(text)
            elif name in ("lr", "tokens_per_second"):
                fields[name] = finite(number(text))
            elif name == "step_ms":
                ms = number(text)
                fields["step_seconds"] = ms / 1000 if ms is not None and ms > 0 else None
            elif name == "avg_ms":
                avg = finite(number(text))
                fields["step_seconds"] = avg / 1000 if avg is not None and avg > 0 else None
            elif name == "elapsed_ms":
                ms = number(text)
                fields["elapsed_seconds"] = ms / 1000 if ms is not None and ms >= 0 else None
                fields["elapsed_training_only"] = True  # (modded-nanogpt's ``train_time``: stopped while it evaluates)
            elif name == "mfu":
                mfu = number(text)
                if mfu is not None and (mfu == 0.0 if zero_unmeasured else mfu < 0):
                    fields["mfu"], fields["mfu_note"] = None, mfu_note
                else:
                    fields["mfu"] = finite(mfu)
            elif name in ("progress_percent", "lr_multiplier"):
                fields[name] = finite(number(text))
            elif name == "eta_minutes":
                minutes = number(text)
                fields["trainer_eta_seconds"] = minutes * 60 if minutes is not None else None
            elif name in ("epoch", "parquet_index", "row_group"):
                fields[name] = int(text)
        events: list[Event] = [_train_step(**fields)]
        events.extend(EvalResult(at=None, name=name, value=number(g[name]), step=step)
                      for name in evals if g[name] is not None)
        return events

    return read


def _run(usual: UsualLine, lines: list[str]) -> StepRun:
    """Lines of ``usual``'s shape (each taken whole by its pattern, each with its loss and none of its
    evaluations) as one run: the same figures, in columns."""
    run = _figures_run(usual, lines) if usual.figures_only is not None else None
    if run is not None:
        return run
    rows = _own_rows(usual, lines)
    parts = _runs(usual, lines, rows, 0) if len(rows) == len(lines) else []
    if len(parts) != 1 or not isinstance(parts[0][2], StepRun):
        raise ValueError("not a run of usual lines")
    return parts[0][2]


def _marked(usual: UsualLine, *, alone: bool = False) -> str:
    """``usual``'s pattern as a line's mark reads it: its named groups unnamed (still groups, in the same
    order); a shape read by ``figures_only`` (or ``alone``), its step's alone."""
    if usual.figures_only is not None or alone:
        return re.sub(r"\(\?P<(?!step>)\w+>", "(?:", usual.pattern.pattern).replace("(?P<step>", "(")
    return re.sub(r"\(\?P<\w+>", "(", usual.pattern.pattern)


def _step_at(usual: UsualLine) -> int:
    """Where the step is among the groups of ``usual``'s mark."""
    return 0 if usual.figures_only is not None else usual.pattern.groupindex["step"] - 1


_OWN: dict[re.Pattern[str], re.Pattern[str]] = {}


def _own_pattern(usual: UsualLine) -> re.Pattern[str]:
    """One match a line: ``usual``'s groups (unnamed, in the same order), all "" for a line of another shape."""
    own = _OWN.get(usual.pattern)
    if own is None:
        own = _OWN[usual.pattern] = re.compile(rf"^(?:(?:{re.sub(r'[(][?]P<[a-z_]+>', '(', usual.pattern.pattern)})$|.*$)",
                                               re.MULTILINE)
    return own


def _own_rows(usual: UsualLine, lines: list[str]) -> list[tuple[str, ...]]:
    """Each line's groups of ``usual``'s pattern, all "" for a line of another shape (one pattern over them)."""
    rows: list[tuple[str, ...]] = _own_pattern(usual).findall("\n".join(lines))
    return rows


def _figures_run(usual: UsualLine, lines: list[str]) -> StepRun | None:
    """The run of lines whose figures are the run columns, read all at once (``figures_only``); None
    when they do not read as that many figures."""
    columns = usual.columns
    width = len(columns)
    figures: list[Any] | None = None
    texts: list[Any] | None = None
    # Such a line is its figures between the pattern's words: all the lines' figures, a comma
    # between each, all at once; read as one JSON array where orjson is installed (a leading
    # zero, "007", is not JSON: read below).
    text = ",".join(lines).translate(usual.figures_only or {})
    loads = _json_loads()
    if loads is not None:
        try:
            figures = loads(f"[{text}]")
        except ValueError:
            figures = None
        if figures is not None and len(figures) != width * len(lines):
            figures = None
    if figures is None:
        texts = cast("list[Any]", text.split(","))
        if len(texts) != width * len(lines):
            return None
        figures = texts
        try:
            for k, name in enumerate(columns):
                figures[k::width] = map(int if name == "step" else float, texts[k::width])
        except ValueError:
            return None
    at = {name: k for k, name in enumerate(columns)}
    return StepRun(usual.stage, usual.loss_note, usual.mfu_note, *(tuple(figures[at[name]::width]) for name in RUN_COLUMNS))


# How each column's printed figure reads, as the line alone reads it (``usual_reader``): the step
# field it fills, from the figures' texts ("" where the line has none).
def _ints(texts: Sequence[str]) -> list[Any]:
    first = texts[0] if texts else ""
    if first.isascii() and first.isdigit() and texts.count(first) == len(texts):
        return [int(first)] * len(texts)  # (one figure the whole stretch: a run's planned total)
    read = _json_figures(texts)
    if read is not None and _kinds(read) <= {int}:
        return read
    return list(map(int, texts)) if all(texts) else [int(text) if text else None for text in texts]


_NULL = {"": "null"}


def _json_text(texts: Sequence[str]) -> str:
    """The figures joined by commas, ``null`` for each empty one (a line that printed none: an
    evaluation's line among the steps has no loss)."""
    joined = ",".join(texts)  # (a figure a line printed in each: joined as they are)
    if "" not in texts:
        return joined
    if joined.count(",") == len(texts) - 1:
        # No figure holds a comma: each empty one sits between two commas of the line joined with
        # commas at both ends, and two replaces fill every run of them (the first takes every
        # other), in C rather than a lookup a figure.
        return f",{joined},".replace(",,", ",null,").replace(",,", ",null,")[1:-1]
    return ",".join(map(_NULL.get, texts, texts))


def _json_figures(texts: Sequence[str]) -> list[Any] | None:
    """A column's figures read at once as one JSON array (None for an empty one), where orjson is
    installed; None when they do not read as one number each (a leading zero, ``nan``, a thousands
    separator…)."""
    loads = _json_loads()
    if loads is None or "-0" in texts or "null" in texts:  # (JSON's -0 is the integer 0: float("-0") is -0.0)
        return None
    try:
        values = loads(f"[{_json_text(texts)}]")
    except ValueError:
        return None
    return values if len(values) == len(texts) else None


def _kinds(values: list[Any]) -> set[type]:
    """The types of ``values`` other than None's."""
    return set(map(type, values)) - {type(None)}


_GROUPED = re.compile(r"[-+]?\d{1,3}(?:,\d{3})*(?:\.\d*)?")  # (a figure ``number`` reads with its commas gone)


_ALL_GROUPED = re.compile(rf"(?:{_GROUPED.pattern}\n)*{_GROUPED.pattern}")


def _numbers(texts: Sequence[str]) -> list[float | None]:
    if texts and max(map(len, texts)) <= 64:
        read = _json_figures(texts)
        if read is not None:
            kinds = _kinds(read)
            if kinds <= {float}:
                return read
            if kinds == {int} and None not in read:
                return list(map(float, read))  # (an integer below 2**64 reads as the same double)
        try:  # (what ``number`` reads a plain figure as)
            return list(map(float, texts)) if all(texts) else [float(text) if text else None for text in texts]
        except ValueError:
            pass
        if all(texts):  # thousands separated: tok/sec 13,390 (each figure so, checked at once)
            joined = "\n".join(texts)
            if _ALL_GROUPED.fullmatch(joined):
                return list(map(float, joined.replace(",", "").split("\n")))
    return [number(text) if text else None for text in texts]


def _all_finite(values: Sequence[float | None]) -> bool:
    """True when every value is a finite number (none None): the columns' usual case, checked at once."""
    return None not in values and math.isfinite(sum(values))  # type: ignore[arg-type]  # (a sum past a double's range: looked at one by one)


def _finite(texts: Sequence[str]) -> list[float | None]:
    values = _numbers(texts)
    if _all_finite(values):
        return values
    return [value if value is not None and math.isfinite(value) else None for value in values]


def _elapsed(texts: Sequence[str]) -> list[float | None]:
    read = _json_figures(texts) if texts and max(map(len, texts)) <= 15 else None
    if read is not None and _kinds(read) == {int} and None not in read and min(read) >= 0:
        return list(map(operator.truediv, read, repeat(1000)))  # (whole ms below 2**53: each as a double, exactly)
    values = _numbers(texts)
    if values and _all_finite(values) and min(cast("list[float]", values)) >= 0:
        return list(map(operator.truediv, values, repeat(1000)))
    return [ms / 1000 if ms is not None and ms >= 0 else None for ms in values]


def _eta(texts: Sequence[str]) -> list[float | None]:
    values = _numbers(texts)
    if None not in values:
        return list(map(operator.mul, values, repeat(60)))
    return [minutes * 60 if minutes is not None else None for minutes in values]


_FIELDS: dict[str, tuple[str, Callable[[Sequence[str]], list[Any]]]] = {
    "total_steps": ("total_steps", _ints), "epoch": ("epoch", _ints), "parquet_index": ("parquet_index", _ints),
    "row_group": ("row_group", _ints), "grad_norm": ("grad_norm", _numbers), "lr": ("lr", _finite),
    "tokens_per_second": ("tokens_per_second", _finite), "progress_percent": ("progress_percent", _finite),
    "lr_multiplier": ("lr_multiplier", _finite), "elapsed_ms": ("elapsed_seconds", _elapsed),
    "eta_minutes": ("trainer_eta_seconds", _eta),
}


def _columns(rows: Sequence[tuple[str, ...]]) -> list[list[str]]:
    """The rows' columns (every row as wide as the first): one flat list sliced, a sixth of what
    ``zip(*rows)`` costs over a batch of thousands of rows."""
    width = len(rows[0]) if rows else 0
    cells = list(chain.from_iterable(rows))
    return [cells[k::width] for k in range(width)]


def _runs(usual: UsualLine, lines: list[str], rows: Sequence[tuple[str, ...]],
          first: int) -> list[tuple[int, int, StepRun | Literal["alone", "other"]]]:
    """``lines`` (``rows``: each line's groups, ``usual``'s from ``first``) in parts, ``(start, end, what)``:
    each stretch that reads as a run, as one ``StepRun``; each stretch of another shape, ``"other"``;
    each other stretch (no loss, an evaluation, a figure the run's columns cannot say), ``"alone"``:
    read line by line."""
    index = {name: first + at - 1 for name, at in usual.pattern.groupindex.items()}
    columns = _columns(rows)
    losses = _numbers(columns[index["loss"]])
    steps = columns[index["step"]]
    # Each list below is made at once where every line is of the shape and its figures are numbers
    # (the usual batch), else a line at a time.
    count = len(lines)
    # The lines of this shape that are no run's (no loss, an evaluation), by where they are, when every
    # line is of the shape (a log's evaluation lines are a few among its thousands of steps).
    apart: list[int] | None = None
    carried: dict[int, list[tuple[str, float | None]]] = {}  # evaluation lines taken inside a run: their figures
    if all(steps):
        shaped = [True] * count
        bad = set(compress(range(count), map(operator.is_, losses, repeat(None)))) if None in losses else set()
        for name in usual.evals:
            if any(columns[index[name]]):
                bad.update(compress(range(count), columns[index[name]]))  # (no evaluation)
        if bad and usual.evals and "mfu" not in index:  # (a line alone for its MFU may not end a run before one)
            carried = _carried(usual, columns, index, bad)
            bad.difference_update(carried)
        ok = [True] * count
        for at in bad:
            ok[at] = False
        apart = sorted(bad)
    else:
        shaped = list(map(bool, steps))  # (a line of another shape has none of this one's groups)
        ok = list(map(operator.and_, shaped, map(operator.is_not, losses, repeat(None))))  # (a step and its loss)
        for name in usual.evals:
            if any(columns[index[name]]):
                ok = list(map(operator.and_, ok, map(operator.not_, columns[index[name]])))  # (no evaluation)
    step_ms: list[float] = [0.0] * count
    if "step_ms" in index:
        read = _numbers(columns[index["step_ms"]])
        step_ms = read if None not in read else [0.0 if ms is None else ms for ms in read]  # type: ignore[assignment]
    elif "avg_ms" in index:
        read = _numbers(columns[index["avg_ms"]])
        if read and _all_finite(read) and min(cast("list[float]", read)) > 0:
            step_ms = read  # type: ignore[assignment]
        else:
            step_ms = [ms if ms is not None and math.isfinite(ms) and ms > 0 else 0.0 for ms in read]
    mfus: list[float] = [-1.0] * count  # (no MFU printed: none, and nothing said of it)
    mfu_note = usual.mfu_note if "mfu" in index else None
    if "mfu" in index:
        zero = usual.mfu_unmeasured == "zero"
        read = _numbers(columns[index["mfu"]])
        # Not measured: negative, as the run's step says it; a figure it cannot say is read line by line.
        if not (read and _all_finite(read) and (not zero or min(cast("list[float]", read)) >= 0)):
            ok = [good and mfu is not None and math.isfinite(mfu) and (mfu >= 0 or not zero)
                  for good, mfu in zip(ok, read, strict=True)]
            apart = None
        mfus = cast("list[float]", [-1.0 if zero and mfu == 0.0 else mfu for mfu in read] if zero and 0.0 in read else read)
    extra = [(field, read(columns[index[name]])) for name in usual.columns
             if name in _FIELDS for field, read in (_FIELDS[name],)]
    parts: list[tuple[int, int, StepRun | Literal["alone", "other"]]] = []
    bounds = [0, count] if count else []
    if apart:  # (every line of this shape: a stretch ends on each side of a line apart)
        bounds[1:1] = sorted({at for b in apart for at in (b, b + 1) if 0 < at < count and ok[at] != ok[at - 1]})
    elif apart is None and not all(ok):  # where a stretch ends: a line of another kind (2: another shape, 1: a run's, 0: alone)
        kinds = list(map(operator.add, ok, map(operator.mul, map(operator.not_, shaped), repeat(2))))
        bounds[1:1] = compress(range(1, count), map(operator.ne, islice(kinds, 1, None), kinds))
    for start, end in pairwise(bounds):
        if ok[start]:
            figures = tuple((field, tuple(values[start:end])) for field, values in extra
                            if values[start:end].count(None) < end - start)  # (any figure printed)
            inside = [at for at in carried if start < at < end] if carried else []
            if inside:
                parts.append((start, end, _evaluated_run(
                    usual, mfu_note, start, end, {at: carried[at] for at in inside},
                    [list(map(int, steps[start:end])), losses[start:end], step_ms[start:end], mfus[start:end]],
                    figures)))
                continue
            parts.append((start, end, StepRun(
                usual.stage, usual.loss_note, mfu_note, tuple(map(int, steps[start:end])),
                tuple(losses[start:end]), tuple(step_ms[start:end]), tuple(mfus[start:end]),
                figures)))
        else:
            parts.append((start, end, "alone" if shaped[start] else "other"))
    return parts


def _carried(usual: UsualLine, columns: list[list[str]], index: dict[str, int],
             apart: set[int]) -> dict[int, list[tuple[str, float | None]]]:
    """The evaluation lines among ``apart`` (the lines no run's) that a run carries: each line that prints
    no loss, only evaluations, at the step of the line before it, which is a run's (modded-nanogpt's
    ``step:N/M val_loss:…`` after the step just trained); their figures as the line alone reads them."""
    loss, step = columns[index["loss"]], columns[index["step"]]
    carried: dict[int, list[tuple[str, float | None]]] = {}
    for at in sorted(apart):
        if at == 0 or at - 1 in apart or loss[at] or step[at] != step[at - 1]:
            continue
        figures = [(name, number(columns[index[name]][at])) for name in usual.evals if columns[index[name]][at]]
        if figures:
            carried[at] = figures
    return carried


def _evaluated_run(usual: UsualLine, mfu_note: str | None, start: int, end: int,
                   inside: dict[int, list[tuple[str, float | None]]], run_columns: list[list[Any]],
                   figures: tuple[tuple[str, tuple[Any, ...]], ...]) -> StepRun:
    """The run of lines ``start`` to ``end`` with the evaluation lines ``inside`` it (their figures): each
    such line's columns once for its step, then once more for each of its figures' ``EvalResult``."""
    pieces: list[tuple[int, int, int]] = []  # (first line, after, the last line's copies after it), from start
    evals: list[tuple[int, str, float | None]] = []
    first = events = 0
    for at, carried in sorted(inside.items()):
        line = at - start
        events += line + 1 - first
        for name, value in carried:
            evals.append((events, name, value))
            events += 1
        pieces.append((first, line + 1, len(carried)))
        first = line + 1
    pieces.append((first, end - start, 0))

    def taken_of(values: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(chain.from_iterable(
            chain(values[first:after], repeat(values[after - 1], copies)) for first, after, copies in pieces))

    taken = [taken_of(column) for column in run_columns]
    return StepRun(usual.stage, usual.loss_note, mfu_note, taken[0], taken[1], taken[2], taken[3],
                   tuple((name, taken_of(values)) for name, values in figures), tuple(evals))


def not_again(events: list[Event], released: list[Event]) -> list[Event]:
    """The events of a record held over a batch's end, now whole, less what it already gave (``released``: its part,
    handed on at that end, as a live read may end inside a record that spans lines): a step already given is given again as the same step, its record now whole (``amends``: the tracker takes
    its figures in place of the part's, no step counted twice), without the loss or grad norm it gave (each is
    counted where it is read); an event given already (an evaluation, a figure) is not given again."""
    steps = {(event.stage, event.step): event for event in released if isinstance(event, TrainStep)}
    given = [dataclasses.replace(event, at=None) for event in released if not isinstance(event, TrainStep)]
    kept: list[Event] = []
    for event in events:
        if isinstance(event, TrainStep):
            before = steps.get((event.stage, event.step))
            if before is not None:
                loss_given = _same_figure(before.loss, event.loss)
                event = dataclasses.replace(
                    event, loss=None if loss_given else event.loss, loss_note=None if loss_given else event.loss_note,
                    grad_norm=None if _same_figure(before.grad_norm, event.grad_norm) else event.grad_norm, amends=True)
        elif dataclasses.replace(event, at=None) in given:
            continue
        kept.append(event)
    return kept


def _same_figure(given: float | None, value: float | None) -> bool:
    """Whether a figure already given (not None) is this one (nan is nan)."""
    return given is not None and value is not None and (given == value or (math.isnan(given) and math.isnan(value)))
