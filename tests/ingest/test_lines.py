"""The line splitter's decoded path gives exactly the lines, cuts and repairs of its byte path."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.ingest.lines import LineSplitter, decode

# Bytes a log can hold: ASCII, newlines, carriage returns, multi-byte characters and bytes that
# are no UTF-8 at all (a lone continuation byte, a truncated sequence).
_PIECES = st.sampled_from([b"a", b"step 1 loss 2.0", b"\n", b"\r", "é".encode(), "█".encode(), "🚀".encode(),
                           b"\x80", b"\xe2\x96", b"\xff", b" " * 9])


def _reference(chunks: list[bytes], limit: int) -> tuple[list[str], int, int]:
    splitter = LineSplitter(limit)
    lines: list[str] = []
    cut = invalid = 0
    for chunk in chunks:
        raw, c = splitter.feed(chunk)
        text, bad = decode(raw)
        lines += text
        cut += c
        invalid += bad
    return lines, cut, invalid


@settings(max_examples=300, deadline=None)
@given(chunks=st.lists(st.lists(_PIECES, max_size=30).map(b"".join), max_size=12), limit=st.sampled_from([8, 16, 40, 1 << 20]))
def test_feed_text_gives_what_feed_and_decode_give(chunks: list[bytes], limit: int) -> None:
    splitter = LineSplitter(limit)
    lines: list[str] = []
    cut = invalid = 0
    for chunk in chunks:
        text, c, bad = splitter.feed_text(chunk)
        lines += text
        cut += c
        invalid += bad
    assert (lines, cut, invalid) == _reference(chunks, limit)


def test_a_block_of_valid_lines_is_decoded_whole_and_keeps_its_unfinished_line() -> None:
    splitter = LineSplitter(1 << 20)
    assert splitter.feed_text("première\nseconde\ntroi".encode()) == (["première", "seconde"], 0, 0)
    assert splitter.feed_text(b"sieme\n") == (["troisieme"], 0, 0)


def test_a_line_too_long_in_a_valid_block_is_still_cut_by_bytes() -> None:
    splitter = LineSplitter(10)
    # 12 bytes of "é": cut to 10 bytes, never inside a character.
    assert splitter.feed_text("éééééé\nok\n".encode()) == (["ééééé", "ok"], 1, 0)


def test_a_block_with_a_bad_byte_counts_only_its_bad_line() -> None:
    splitter = LineSplitter(1 << 20)
    assert splitter.feed_text(b"good\nbad \xff byte\nfine\n") == (["good", "bad \ufffd byte", "fine"], 0, 1)
