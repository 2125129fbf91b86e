"""The drift guard's shapes made a word at a time are the shapes of the whole line.

The guard masks a record's rest word by word when no quote can join words (``ShapeWatch._shape``),
remembering each word's mask; ``line_shape`` masks the whole rest at once. Held equal on every
line of the repository's logs and on texts built from the characters the masks care about.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from app.ingest.formats import drift
from app.ingest.formats.drift import ShapeWatch, line_shape
from bench.synth import DEFAULT_START, IotaSynth

DATA = Path(__file__).resolve().parents[2] / "data"

# What each mask looks at: hex digits, letters and digits mixed, underscores, word edges of every
# kind (punctuation, Unicode letters and digits, which are word characters to ``\b``), every
# whitespace ``str.split`` splits at, quotes, home folders, the ellipsis the masks write.
_PIECES = st.sampled_from([
    "a", "f", "F", "g", "Z", "_", "0", "7", "9", "-", "=", ":", ".", "/", "|", "…", "é", "²", "٣", "🔄",
    " ", "  ", "\t", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "'", '"',
    "/home/", "/Users/", "79ec55a3-74a4-4821-482a-52a256f3eef1", "5HmQx7Rc", "12D3KooWQx9fAb7TzK",
    "deadbeefcafe", "activation=", "layer=2", "BACKWARD", "'" + "q" * 24 + "'",
])


def _word_by_word(rest: str) -> str:
    return ShapeWatch()._shape(rest)


@settings(max_examples=3000, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_a_shape_made_word_by_word_is_the_whole_lines(rest: str) -> None:
    assert _word_by_word(rest) == line_shape(rest)


def test_the_words_remembered_give_the_same_shapes_on_every_log_line() -> None:
    watch = ShapeWatch()  # one watch over every line: its words' memo is used, filled and emptied
    lines = [line for path in sorted(DATA.rglob("*")) if path.is_file()
             for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]
    synth = IotaSynth(seed=3, start=DEFAULT_START, unique_noise=True)  # a miner's ids, hotkeys and noise
    lines += synth.text(4 * 3600.0).splitlines()
    assert len(lines) > 100_000
    for line in lines:
        assert watch._shape(line) == line_shape(line), line
    assert len(watch._words) <= drift.WORDS_KNOWN_MAX


def test_a_quote_joins_words_into_one_masked_value() -> None:
    # "'a private message of some length'": one quoted value over spaces, masked whole.
    rest = "| INFO | a:b:12 - said 'a private message of some length here' to 5HmQx7Rc"
    assert _word_by_word(rest) == line_shape(rest) == "INFO | a:b:N - said '…' to …"
