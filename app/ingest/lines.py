"""Bytes to lines: split a stream, cut what is too long, decode UTF-8 with repairs counted."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class LineCounters:
    """Running totals of lines produced and of the repairs made to them."""

    lines: int = 0
    invalid_utf8_lines: int = 0
    long_lines_cut: int = 0


def cut_line(line: bytes, max_line_bytes: int) -> bytes:
    """Cut ``line`` to at most ``max_line_bytes``, not inside a multi-byte UTF-8 character."""
    # A character is at most 4 bytes, so back off at most 3 continuation bytes (0b10xxxxxx).
    for end in range(max_line_bytes, max(max_line_bytes - 4, 0), -1):
        if line[end] & 0xC0 != 0x80:
            return line[:end]
    return line[:max_line_bytes]


def decode(raw_lines: list[bytes]) -> tuple[list[str], int]:
    """Decode lines as UTF-8, replacing bad bytes; return them and how many needed replacing."""
    lines: list[str] = []
    invalid = 0
    for raw in raw_lines:
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(raw.decode("utf-8", errors="replace"))
            invalid += 1
    return lines, invalid


class LineSplitter:
    """Split a forward byte stream into lines, holding at most ``max_line_bytes`` of an unfinished one."""

    def __init__(self, max_line_bytes: int) -> None:
        self.max_line_bytes = max_line_bytes
        self._pending = bytearray()
        self._discarding = False  # inside a line already cut and delivered: drop up to its newline
        self._tail_given: bytes | None = None  # the unfinished line handed out by quiet_tail()

    def reset(self) -> None:
        """Forget any unfinished line."""
        self._pending.clear()
        self._discarding = False
        self._tail_given = None

    def quiet_tail(self) -> bytes | None:
        """The unfinished last line, once, when its writer has gone quiet (None: none, or given already).

        A run's last line often has no newline (a script's final ``print(..., end="")``, a killed
        process): it is read as it stands. If the line then goes on after all, the whole line is
        given again when it ends (readers take a step printed twice as the same step); if only its
        newline follows, it is not given twice.
        """
        if self._discarding or not self._pending or self._tail_given == bytes(self._pending):
            return None
        self._tail_given = bytes(self._pending)
        return self._tail_given

    def discard_line(self) -> None:
        """Drop whatever comes up to the next newline (the rest of a line already counted as cut)."""
        self._pending.clear()
        self._discarding = True

    def take_unfinished(self) -> bytes | None:
        """Return and forget the unfinished line, if any (its stream has ended)."""
        line = None if self._discarding or not self._pending else bytes(self._pending)
        self.reset()
        return line

    def feed_text(self, data: bytes) -> tuple[list[str], int, int]:
        """Return the lines ``data`` completes, decoded, how many were cut and how many needed repairs.

        The same lines as :meth:`feed` and :func:`decode`, but the usual block (valid UTF-8, no
        line over the limit) is split and decoded in two calls in C, not a decode per line in
        Python, which cost as much as parsing the line. Split as bytes first: decoding the whole
        block at once would widen all of it to four bytes a character for one emoji in it, and
        then narrow every line back.
        """
        end = data.rfind(b"\n")
        limit = self.max_line_bytes
        if end < 0 or self._discarding or self._tail_given is not None or len(data) - end - 1 > limit:
            return self._feed_decoding(data)
        block = bytes(self._pending) + data[:end] if self._pending else data[:end]
        raw = block.split(b"\n")
        if len(block) > limit and max(map(len, raw)) > limit:
            return self._feed_decoding(data)  # a line to cut
        try:
            lines = list(map(bytes.decode, raw))
        except UnicodeDecodeError:
            return self._feed_decoding(data)
        self._pending.clear()
        self._pending += data[end + 1 :]
        return lines, 0, 0

    def _feed_decoding(self, data: bytes) -> tuple[list[str], int, int]:
        raw, cut = self.feed(data)
        lines, invalid = decode(raw)
        return lines, cut, invalid

    def feed(self, data: bytes) -> tuple[list[bytes], int]:
        """Return the lines ``data`` completes (without b"\\n") and how many of them were cut."""
        limit = self.max_line_bytes
        lines: list[bytes] = []
        cut = 0
        parts = data.split(b"\n")
        tail = parts.pop()  # after the last newline: unfinished
        for i, body in enumerate(parts):
            if i == 0:
                if self._discarding:
                    self._discarding = False
                    continue
                if self._pending:
                    body = bytes(self._pending) + body
                    self._pending.clear()
                given, self._tail_given = self._tail_given, None
                if given is not None and body == given:
                    continue  # already given when its writer went quiet
            if len(body) > limit:
                body = cut_line(body, limit)
                cut += 1
            lines.append(body)
        if tail and not self._discarding:
            room = limit - len(self._pending)
            if len(tail) <= room:
                self._pending += tail
            else:
                # Too long already: deliver the cut line now, drop the rest until its newline
                # rather than hold an unbounded line in memory.
                self._pending += tail[: room + 1]
                lines.append(cut_line(bytes(self._pending), limit))
                cut += 1
                self._pending.clear()
                self._discarding = True
        return lines, cut
