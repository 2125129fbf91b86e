"""Parsed events kept on disk between the import's two passes over a step trainer's log.

A step log is placed in time back from its end (app/record/replay.py), so its events are applied
only once the whole file is read. Parsing is most of an import's cost; a spool lets the second
pass read back the events the first pass parsed instead of parsing every line again, without
holding them in memory (a trainer that logs every step writes a million lines).

Each batch is written as ``marshal`` records of ``(class index, field values)`` pairs, each
after its length: read back whole and unmarshalled from bytes (``marshal.load`` on the file reads
it a few bytes at a time, ten times slower), each event rebuilt by :func:`~app.stats.events.builder`.
A run of usual step lines (:class:`~app.stats.events.StepRun`) is one such event, its columns
tuples of numbers. An event that ``marshal`` cannot write (a field of another type) makes the spool unusable, and the
second pass parses the file again, as it did before there was a spool.

Beside the events, each event's place in time: its duration while the first pass places the
events back from the file's end (:class:`DiskDoubles`), then its placed time for the second pass
(:class:`PlacedTimes`), a double an event in a file of its own, a window of them in memory: an
every-step log's hundreds of thousands of doubles were megabytes held beside the child's peak.
"""

from __future__ import annotations

import marshal
import operator
import struct
import tempfile
from array import array
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from dataclasses import fields
from typing import IO, Any, overload

from ..stats.events import Event, StepRun, builder

RECORD_EVENTS = 1024  # events per marshal record: what is held at once beyond the events themselves
_LENGTH = struct.Struct("<I")  # a record's length in bytes, before it


class EventSpool:
    """Batches of events written once and read back once, in order, from a temporary file."""

    def __init__(self) -> None:
        self._file: IO[bytes] | None = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self._classes: list[Callable[..., Any]] = []  # how each class index is rebuilt
        self._getters: dict[type[Any], tuple[int, Callable[[Any], Any]]] = {}
        self._records: list[int] = []  # marshal records per batch

    @property
    def usable(self) -> bool:
        """True while every batch written so far can be read back."""
        return self._file is not None

    def write(self, events: Sequence[Event | StepRun]) -> None:
        """Append one batch (an event marshal cannot write makes the spool unusable)."""
        if self._file is None:
            return
        try:
            for first in range(0, len(events), RECORD_EVENTS):
                record = marshal.dumps([self._row(event) for event in events[first:first + RECORD_EVENTS]])
                self._file.write(_LENGTH.pack(len(record)) + record)
        except (ValueError, TypeError):
            self.close()
            return
        self._records.append((len(events) + RECORD_EVENTS - 1) // RECORD_EVENTS)

    def _row(self, event: Event | StepRun) -> tuple[int, Any]:
        cls = type(event)
        known = self._getters.get(cls)
        if known is None:
            names = [f.name for f in fields(cls) if f.init]
            if len(names) != len(fields(cls)):
                raise TypeError(f"{cls.__name__} has fields not given to its constructor")
            getter = operator.attrgetter(*names) if len(names) > 1 else (lambda e, n=names[0]: (getattr(e, n),))
            known = self._getters[cls] = (len(self._classes), getter)
            self._classes.append(builder(cls))
        return known[0], known[1](event)

    def read(self) -> Iterator[Iterator[Event | StepRun]]:
        """The batches, in the order they were written, each read as it is iterated (once, in order)."""
        f = self._file
        if f is None:
            return
        f.seek(0)
        for records in self._records:
            yield self._batch(f, records)

    def _batch(self, f: IO[bytes], records: int) -> Iterator[Event | StepRun]:
        classes = self._classes
        for _ in range(records):
            (length,) = _LENGTH.unpack(f.read(_LENGTH.size))
            for index, values in marshal.loads(f.read(length)):
                yield classes[index](*values)

    def close(self) -> None:
        """Delete the file."""
        if self._file is not None:
            self._file.close()
            self._file = None


class _DoublesFile:
    """Doubles in a temporary file of their own, read a stretch at a time."""

    _SIZE = 8  # bytes a double

    def __init__(self, file: IO[bytes] | None = None) -> None:
        """``file``: one holding the doubles already (else a new, empty one)."""
        if file is None:
            file = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self._file: IO[bytes] | None = file

    def _read(self, start: int, stop: int) -> array[float]:
        assert self._file is not None
        values = array("d")
        self._file.seek(start * self._SIZE)
        values.fromfile(self._file, stop - start)
        return values

    def close(self) -> None:
        """Delete the file."""
        if self._file is not None:
            self._file.close()
            self._file = None


class DiskDoubles(_DoublesFile, MutableSequence[float]):
    """Doubles appended in order and kept in a temporary file, read and rewritten in place through
    a window of ``WINDOW`` of them held in memory (a step log's durations while its events are
    placed back from its end: a double an event, hundreds of thousands of them)."""

    WINDOW = 1 << 13

    def __init__(self) -> None:
        super().__init__()
        self._stored = 0  # doubles in the file
        self._window = array("d")  # the doubles from _first on (appends go to it while it ends the file)
        self._first = 0
        self._dirty = False

    def __len__(self) -> int:
        return max(self._stored, self._first + len(self._window))

    def append(self, value: float) -> None:
        self._at_end()
        self._window.append(value)
        self._dirty = True
        if len(self._window) >= self.WINDOW:
            self._flush()

    def extend(self, values: Iterable[float]) -> None:
        self._at_end()
        self._window.extend(values)
        self._dirty = True
        if len(self._window) >= self.WINDOW:
            self._flush()

    def _at_end(self) -> None:
        """Make the window the file's end, where appends go."""
        if self._first + len(self._window) != len(self) or len(self._window) >= self.WINDOW:
            self._flush()
            self._first, self._window = len(self), array("d")

    def _flush(self) -> None:
        if self._dirty:
            assert self._file is not None
            self._file.seek(self._first * self._SIZE)
            self._window.tofile(self._file)
            self._stored = max(self._stored, self._first + len(self._window))
            self._dirty = False

    def _holds(self, start: int, stop: int) -> bool:
        return self._first <= start and stop <= self._first + len(self._window)

    def _hold(self, i: int) -> None:
        """Make the window the aligned stretch that holds index ``i``."""
        if self._first <= i < self._first + len(self._window):
            return
        self._flush()
        count = len(self)
        self._first = i - i % self.WINDOW
        self._window = self._read(self._first, min(count, self._first + self.WINDOW))

    @overload
    def __getitem__(self, index: int) -> float: ...
    @overload
    def __getitem__(self, index: slice) -> array[float]: ...
    def __getitem__(self, index: int | slice) -> float | array[float]:
        if isinstance(index, slice):
            start, stop = self._stretch(index)
            if self._holds(start, stop):
                return self._window[start - self._first : stop - self._first]
            self._flush()
            return self._read(start, stop)
        i = range(len(self))[index]  # (an IndexError past the end)
        self._hold(i)
        return self._window[i - self._first]

    @overload
    def __setitem__(self, index: int, value: float) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[float]) -> None: ...
    def __setitem__(self, index: int | slice, value: float | Iterable[float]) -> None:
        if isinstance(index, slice):
            start, stop = self._stretch(index)
            values = array("d", value)  # type: ignore[arg-type]
            if len(values) != stop - start:
                raise ValueError("a stretch is rewritten with as many doubles as it holds")
            first = self._first
            if self._holds(start, stop):  # (a dated log re-anchors often: short stretches, one window)
                self._window[start - first : stop - first] = values
                self._dirty = True
                return
            self._flush()
            assert self._file is not None
            self._file.seek(start * self._SIZE)
            values.tofile(self._file)
            low, high = max(start, first), min(stop, first + len(self._window))
            if low < high:  # the window holds part of it: as the file has it now
                self._window[low - first : high - first] = values[low - start : high - start]
            return
        i = range(len(self))[index]
        self._hold(i)
        self._window[i - self._first] = value  # type: ignore[assignment]
        self._dirty = True

    def _stretch(self, index: slice) -> tuple[int, int]:
        start, stop, step = index.indices(len(self))
        if step != 1:
            raise ValueError("doubles on disk are read a stretch at a time")
        return start, max(start, stop)

    def __delitem__(self, index: int | slice) -> None:
        raise TypeError("doubles on disk are only appended and rewritten")

    def insert(self, index: int, value: float) -> None:
        raise TypeError("doubles on disk are only appended and rewritten")

    def __del__(self) -> None:
        self.close()  # a caller that only read the doubles leaves no file behind

    def hand_over(self) -> tuple[IO[bytes], int]:
        """The file, every double written to it, and how many; this object holds it no more."""
        self._flush()
        assert self._file is not None
        file, count, self._file = self._file, len(self), None
        self._window = array("d")
        return file, count


class PlacedTimes(_DoublesFile, Sequence[float]):
    """Each event's placed time, kept on disk for the pass that applies them in order.

    A trainer that logs every step has hundreds of thousands of events: their times, a double
    each, were megabytes held for the whole second pass, beside the tracker and every batch. Read
    back a window at a time as that pass asks for them, in order (an index or a slice, as the
    array gave them).
    """

    WINDOW = 1 << 13  # doubles read at once

    def __init__(self, times: MutableSequence[float]) -> None:
        if isinstance(times, DiskDoubles):
            file, self._count = times.hand_over()  # already on disk: its file is read as it is
            super().__init__(file)
        else:
            super().__init__()
            assert self._file is not None
            (times if isinstance(times, array) else array("d", times)).tofile(self._file)
            self._count = len(times)
        self._window = array("d")
        self._first = 0  # the index of the window's first time

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> float: ...
    @overload
    def __getitem__(self, index: slice) -> array[float]: ...
    def __getitem__(self, index: int | slice) -> float | array[float]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._count)
            if step != 1:
                raise ValueError("placed times are read in order, a stretch at a time")
            return self._windowed(start, max(start, stop))
        i = range(self._count)[index]  # (an IndexError past the end)
        return self._windowed(i, i + 1)[0]

    def _windowed(self, start: int, stop: int) -> array[float]:
        window, first = self._window, self._first
        if not (first <= start and stop <= first + len(window)):
            window = self._window = self._read(start, min(self._count, start + max(stop - start, self.WINDOW)))
            first = self._first = start
        return window[start - first : stop - first]
