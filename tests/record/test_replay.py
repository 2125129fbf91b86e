"""The import's replay places an undated step log in time exactly as a cold start does, from two
floats per line instead of the events themselves, and applies the events it parsed once."""

from __future__ import annotations

import math
import threading
from fractions import Fraction
from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.record.replay import placed_times, read_lines, replay_file
from app.record.spool import EventSpool
from app.stats.events import TrainStep
from app.stats.steps.placing import place_in_time
from app.store import Observation

REAL = Path(__file__).parents[1] / "data" / "real"
END = 1_795_000_000.0


@pytest.mark.parametrize("name", [
    "nanogpt-issue466-every-10.log", "nanogpt-issue110-every-iteration.log", "nanochat-pr147-a100.log",
    "llmc-anthonix-issue2-nan.log", "hf-zeehu-t5-bars-at-saves.log", "hf-llamafactory-issue3529-dicts-only.log",
    "modded-nanogpt-2024-10-10-muon.txt", "torchtitan-pr1287-rank0-every-10.log",
])
def test_placed_times_are_the_cold_starts_times(name: str) -> None:
    path = REAL / name
    lines = [line for batch in read_lines(path, threading.Event()) for line in batch]
    fmt = detect(lines[:2000])
    assert fmt is not None
    parser = create_parser(fmt)
    parser.reference_time = END
    expected = [event.at for event in place_in_time(parser.feed(lines), END)]
    got = placed_times(path, fmt, END, {}, threading.Event(), path.stat().st_size)
    assert len(got) == len(expected)
    assert [None if math.isnan(t) else t for t in got] == pytest.approx(expected)
    assert any(t is not None for t in expected)


def test_a_step_the_history_placed_keeps_its_time_and_places_those_before_it() -> None:
    path = REAL / "nanogpt-issue466-every-10.log"
    lines = [line for batch in read_lines(path, threading.Event()) for line in batch]
    parser = create_parser("nanogpt")
    events = parser.feed(lines)
    steps = [e for e in events if type(e).__name__ == "TrainStep"]
    middle = steps[len(steps) // 2]
    plain = placed_times(path, "nanogpt", END, {}, threading.Event(), path.stat().st_size)
    anchored = placed_times(path, "nanogpt", END, {(middle.stage, middle.step): END - 10_000}, threading.Event(),
                            path.stat().st_size)
    i = events.index(middle)
    assert anchored[i] == END - 10_000
    shift = anchored[i] - plain[i]
    assert all(anchored[k] == pytest.approx(plain[k] + shift) for k in range(i) if not math.isnan(plain[k]))
    assert all(anchored[k] == plain[k] for k in range(i + 1, len(plain)))


def test_the_spool_gives_back_the_events_the_first_pass_parsed() -> None:
    path = REAL / "torchtitan-pr1287-rank0-every-10.log"
    parser = create_parser("torchtitan")
    parser.reference_time = END
    parsed = [parser.feed(lines) for lines in read_lines(path, threading.Event())]
    spool = EventSpool()
    try:
        placed_times(path, "torchtitan", END, {}, threading.Event(), path.stat().st_size, spool)
        assert spool.usable
        assert [list(batch) for batch in spool.read()] == parsed  # equal field by field, of the same classes, in order
    finally:
        spool.close()
    assert sum(map(len, parsed)) >= 7


def test_an_event_the_spool_cannot_keep_leaves_the_second_pass_to_parse_again() -> None:
    spool = EventSpool()
    spool.write([TrainStep(at=None, stage="train", step=1)])
    spool.write([TrainStep(at=None, stage="train", step=2, figures=(("ratio", Fraction(1, 3)),))])  # type: ignore[arg-type]
    assert not spool.usable
    assert list(spool.read()) == []


@pytest.mark.parametrize("name", ["nanogpt-issue110-every-iteration.log", "hf-zeehu-t5-bars-at-saves.log"])
def test_an_import_from_the_spool_writes_what_parsing_twice_wrote(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REAL / name

    def replay() -> list[Observation]:
        kept: list[Observation] = []
        replay_file(path, "auto", END, threading.Event(), kept.append, {})
        return kept

    spooled = replay()
    monkeypatch.setattr(EventSpool, "usable", property(lambda self: False))
    parsed_twice = replay()
    assert spooled == parsed_twice
    assert sum(len(obs.losses) for obs in spooled) > 10


def test_lines_read_in_blocks_are_every_line_once_and_the_first_block_tells_the_format(tmp_path: Path) -> None:
    # 3.5 MiB of lines of many lengths: lines straddle every block's edge, later blocks being smaller
    # than the first; a usual log's first block still holds more than the 2000 lines detection reads.
    written = [f"line {i:06d} " + "x" * (i % 301) for i in range(22_000)]
    path = tmp_path / "blocks.log"
    path.write_bytes(("\n".join(written) + "\n").encode())
    assert path.stat().st_size > 3 << 20
    batches = list(read_lines(path, threading.Event()))
    assert [line for batch in batches for line in batch] == written
    assert len(batches[0]) > 2000
    assert len(batches) > 4  # read a block at a time, not the file at once


def test_a_block_holding_wide_and_malformed_text_reads_each_line_as_alone(tmp_path: Path) -> None:
    # The composed bytes' answers, by hand: a malformed sequence cut by its line's end is one
    # replacement character and never takes the newline or the next line's first bytes with it.
    path = tmp_path / "mixed.log"
    path.write_bytes(
        "🚀 Starting miner 🚀\r\n".encode()
        + b"cut \xe2\x82\n"  # the euro sign's first two bytes, then the line ends
        + b"\x82\xacnext\n"  # its last byte opens the next line
        + b"\xff\xfe bad\r\n"
        + b"\x00\x00plain\n"
        + "💾 GPU memory: 3.2GB".encode()  # the partial last line
    )
    lines = [line for batch in read_lines(path, threading.Event()) for line in batch]
    assert lines == ["🚀 Starting miner 🚀", "cut \ufffd", "\ufffd\ufffdnext", "\ufffd\ufffd bad", "\x00\x00plain",
                     "💾 GPU memory: 3.2GB"]
