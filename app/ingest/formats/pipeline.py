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
5. a record a logger wrapped onto lines indented under its message (rich's handler wraps at the
   terminal's width) is one line again (``continued``: bounded, and never a traceback's own
   indentation, which no prefix starts); the wrap joiner re-joins what a terminal wrapped and holds a record that may go on
   (``WrapJoiner``, fields.py); the parser's ``classify`` says what each piece is;
6. the batch's end releases a held record, adds a ``Tick`` at the latest time a line carried and
   counts the lines that could not be read.

For the history import, :meth:`StepLines.feed_runs` reads the same lines with each stretch of a
usual line that is all run columns as one ``StepRun`` (the bulk path).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import repeat
from typing import Any, Generic, TypeVar

from ...stats.events import EvalResult, Event, StepRun, Tick, TrainStep, builder, timed_step
from .fields import MAX_LINE_CHARS, Kind, WrapJoiner, clean, finite, next_plain, number, split_glued
from .prefix import LineTimes, PrefixReader, dated
from .shapes import RUN_COLUMNS, UsualLine

R = TypeVar("R")
Emit = Callable[[], list[Event]]
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
        bulk = [line for line in usual if line.in_columns]
        self._bulk: UsualLine | None = bulk[0] if bulk else None
        self._marks: re.Pattern[str] | None = None
        if self._bulk is not None:
            core = re.sub(r"\(\?P<(?!step>)\w+>", "(?:", self._bulk.pattern.pattern).replace("(?P<step>", "(")
            # One match a line, also for an empty one: its step's digits when it is the usual line, else "".
            self._marks = re.compile(rf"^(?:{core}$|.*$)", re.MULTILINE)

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
        self._read(continued(self.source_lines(lines)), events)
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
                        events.extend(read(m))
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
        """The general reading of one line: its events onto ``events``."""
        if self._whole_line is not None and self._whole_line(raw, events):
            return
        if len(raw) > MAX_LINE_CHARS and ("\r" in raw[-MAX_LINE_CHARS:] or "\b\b" in raw[-MAX_LINE_CHARS:]):
            # A bar redrawn with ``\r`` (or Keras' backspaces) thousands of times: its newest redraws are at
            # the end, and the first one kept may be cut (never read as a bar of its own).
            tail = raw[-MAX_LINE_CHARS:]
            mark = tail.find("\r")
            raw = tail[mark + 1 :] if mark >= 0 else tail[tail.index("\b\b") :].lstrip("\b")
        cleaned = clean(raw)
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
        for record in self._joiner.end_records():
            self.emit(record, events)
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
        return self._bulk is not None

    def usual_marks(self, lines: list[str]) -> list[str]:
        """For each line, its step's digits when it is the bulk usual line, else "" (one pattern over the batch).

        Such a line holds only its trainer's words, digits, signs and punctuation: none of the
        crash watch's words (crash.py), which skips them.
        """
        if self._marks is None:
            return [""] * len(lines)
        marks = self._marks.findall("\n".join(lines))
        if len(marks) != len(lines):
            return [""] * len(lines)  # a line with a newline: read alone
        if lines and max(map(len, lines)) > MAX_LINE_CHARS:  # an over-long line is read alone, as feed reads it
            marks = [mark if len(line) <= MAX_LINE_CHARS else "" for mark, line in zip(marks, lines)]
        return marks

    def feed_runs(self, lines: list[str], marks: list[str] | None = None) -> list[Event | StepRun]:
        """What :meth:`feed` reads, with each stretch of the bulk usual line as one :class:`StepRun`.

        The history import's reading of an every-step log: the usual lines (``marks``: their
        :meth:`usual_marks`) have their figures kept in columns, not made into events one by one.
        """
        if marks is None:
            marks = self.usual_marks(lines)
        items: list[Event | StepRun] = []
        self._begin()
        joiner, bulk = self._joiner, self._bulk
        i, count = 0, len(lines)
        while i < count:
            if bulk is None or not marks[i] or joiner.holding:
                end = i + 1
                while end < count and not marks[end] and lines[end][:1] == " " and end - i <= MAX_CONTINUED_LINES:
                    end += 1  # (what ``continued`` may join to it)
                events: list[Event] = []
                self._read(continued(lines[i:end]), events)
                items.extend(events)
                i = end
                continue
            end = next_plain(marks, i + 1)
            if self._times is not None:
                self._times.unprefixed()  # as feed's fast path notes a usual line
            joiner.took_record()
            items.append(_run(bulk, lines[i:end]))
            i = end
        items.extend(self._end([]))
        return items


# A record a logger wrapped: at most this many lines joined to its first, and this many characters.
MAX_CONTINUED_LINES = 4
MAX_CONTINUED_CHARS = 4096
_BACKSPACES = re.compile("\b{2,}")
_INDENT = " " * 8  # a continuation is indented at least this far (a message column past a prefix)
_COLUMNS = PrefixReader(dates=False)  # where a record's message starts (its prefix peeled)


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
    if usual.in_columns:
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
    """Lines of ``usual``'s shape (each taken whole by its pattern) as one run: the same figures, in columns."""
    columns = usual.columns
    width = len(columns)
    figures: list[Any] | None = None
    texts: list[Any] | None = None
    if usual.figures_only is not None:
        # Such a line is its figures between the pattern's words: all the lines' figures, a comma
        # between each, all at once; read as one JSON array where orjson is installed (a leading
        # zero, "007", is not JSON: read below).
        text = ",".join(lines).translate(usual.figures_only)
        loads = _json_loads()
        if loads is not None:
            try:
                figures = loads(f"[{text}]")
            except ValueError:
                figures = None
            if figures is not None and len(figures) != width * len(lines):
                figures = None
        if figures is None:
            texts = text.split(",")
            if len(texts) != width * len(lines):
                texts = None
    if figures is None:
        if texts is None:
            texts = [figure for line in lines for figure in _groups(usual.pattern, line, columns)]
        figures = texts
        for k, name in enumerate(columns):
            figures[k::width] = map(int if name == "step" else float, texts[k::width])
    at = {name: k for k, name in enumerate(columns)}
    return StepRun(usual.stage, usual.loss_note, usual.mfu_note, *(tuple(figures[at[name]::width]) for name in RUN_COLUMNS))


def _groups(pattern: re.Pattern[str], line: str, columns: tuple[str, ...]) -> Iterator[str]:
    m = pattern.fullmatch(line)
    assert m is not None  # (a marked line is taken whole by the pattern)
    return (m.group(name) for name in columns)
