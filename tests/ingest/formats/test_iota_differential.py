"""The IOTA parser against its reference (the per-line loop it replaced): the same events, in the
same order, with the same bad-line counts, on real-shaped logs, odd lines and arbitrary text.

Also: every message that means something holds one of ``MEANINGFUL_TEXTS`` (the scan reads no
other), and the memo of quiet rests is used only while it pays.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.ingest.formats import iota
from app.ingest.formats.iota import IotaParser
from app.ingest.formats.iota_messages import MEANINGFUL_TEXTS
from app.stats.events import (
    BackendError,
    ErrorLogged,
    Event,
    GpuMemory,
    LineShapeNew,
    PhaseChanged,
    WorkerCrashed,
)
from bench.synth import DEFAULT_START, IotaSynth
from tests.ingest.formats.iota_reference import ReferenceIotaParser
from tests.ingest.formats.test_iota import (
    FRAGMENTS,
    KINDS,
    NGINX_BODY,
    RESPONSES,
    STAMP,
    STEP,
    TRACEBACK,
    bare,
    utc,
    wrapped,
)

ToEpoch = Callable[[int, int, int, int, int, int], float]


def fall_back(*wall: int) -> float:
    """A zone that turns its clocks back an hour at 21:10 every day (later stamps, earlier times)."""
    return utc(*wall) - (3600 if wall[3:5] >= (21, 10) else 0)


def both(lines: list[str], batch: int, to_epoch: ToEpoch = utc) -> tuple[tuple[list[Event], int], ...]:
    """Feed the same batches to the parser and the reference; return (events, bad lines) of each."""
    results = []
    for parser in (IotaParser(to_epoch=to_epoch), ReferenceIotaParser(to_epoch=to_epoch)):
        events: list[Event] = []
        for at in range(0, len(lines), batch):
            # The drift guard's shapes come from the memo's misses only: not the reference's business.
            events.extend(e for e in parser.feed(lines[at : at + batch]) if not isinstance(e, LineShapeNew))
        results.append((events, parser.bad_lines))
    return tuple(results)


# Lines the fault suite and real miners produce besides the usual records.
ODD = [
    *NGINX_BODY,
    *TRACEBACK,
    "",
    "\r",
    " 🔄 Miner in layer 2 submitting weights state!",
    " 🔄 Miner in layer 3 merging partitions state!",
    "\x00" * 40 + wrapped(STEP),  # a crash's NUL padding, then the restart's first record
    wrapped(STEP) + "\r",
    wrapped("Cache size: 3") + "\r\r",
    wrapped("") + "\r",
    wrapped(STEP, stamp="2026-13-01 00:00:00.000"),
    wrapped(STEP, stamp="2026-02-29 10:00:00.000"),
    wrapped("Cache size: 1", stamp="2026-09-13 21:09:60.000"),
    wrapped("Cache size: 1", stamp="2026-09-13 21:09:61.5"),
    wrapped("GPU memory usage: lotsGB / 3.75GB -- x"),
    wrapped("Activation push RECV " + "tensor_bytes=" * 800),
    wrapped("x" * 10_000),
    wrapped("Error getting activation from queue: timed out", level="ERROR"),
    wrapped("everything is on fire", level="CRITICAL"),
    wrapped("plural", level="ERRORS"),
    f"{STAMP} | [MINER] | SUCCESS  | miner.training.training:461 | {STEP} | {{}}",
    f"2026-09-13 21:09:01.304123 | ERROR    | a.b:backward:427 | {STEP} | {{'note': 'GPU memory: 9GB'}}",
    "2026-09-13 21:09:01.304123 | INFO     | a.b:c:1 | Cache size: 4 | {'activation_id': 'FORWARD complete'}",
    f"{STAMP} | INFO | a:b:12 -",
    f"{STAMP} | INFO | a:b:12x - {STEP}",
    f"{STAMP} | INFO | a:b:12 - is in state: ",
    f"{STAMP} | INFO | a:b:12 -\r",
    f"\x00\x00[{STAMP}] [warning] \t {bare(STEP)}",
    bare("🔄 Miner 5HmQx7Rc in Layer 2 is in state: LayerPhase.TRAINING", stamp="2026-09-13 21:10:30.000"),
    bare("Cache size: 2", stamp="2026-09-13 21:09:59.999"),  # the clock goes back across the zone's change
]


def real_shaped(hours: float, seed: int, *, unique_noise: bool) -> list[str]:
    synth = IotaSynth(seed=seed, start=DEFAULT_START, unique_noise=unique_noise, epoch_seconds=1800.0,
                      requeue_seconds=5400.0, error_seconds=300.0)
    return synth.run(hours * 3600)


@pytest.mark.parametrize("unique_noise", [False, True], ids=["usual-noise", "no-two-noise-lines-alike"])
@pytest.mark.parametrize("batch", [1, 7, 256, 257, 5000, 1 << 30])
def test_real_shaped_logs_with_odd_lines_parse_the_same(unique_noise: bool, batch: int) -> None:
    lines = real_shaped(0.25 if batch < 256 else 2.0, seed=5, unique_noise=unique_noise)
    rng = random.Random(batch)
    for odd in ODD * 3:
        lines.insert(rng.randrange(len(lines) + 1), odd)
    (events, bad), (expected, expected_bad) = both(lines, batch)
    assert (len(events), bad) == (len(expected), expected_bad)
    assert events == expected
    assert bad >= 2 * 3  # the impossible times above were counted, not skipped


def test_times_in_a_zone_that_turns_its_clocks_back() -> None:
    lines = [bare("Cache size: 2", stamp=f"2026-09-13 21:{m:02d}:{s:02d}.500") for m in (9, 10, 11) for s in (0, 30)]
    lines += [bare(STEP, stamp="2026-09-13 21:09:45.000")]
    for batch in (1, 2, 300):
        assert both(lines * 60, batch, fall_back)[0] == both(lines * 60, batch, fall_back)[1]


PIECES = [*FRAGMENTS, *ODD, *MEANINGFUL_TEXTS, " | ", " - ", ":12 ", "| INFO | ", "| ERROR | ", "\n", "\r"]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(),
            st.builds(lambda a, b, c: a + b + c, st.sampled_from(PIECES), st.text(max_size=12), st.sampled_from(PIECES)),
            st.builds(lambda m, t: wrapped(m + t), st.sampled_from(PIECES), st.text(max_size=12)),
        ),
        max_size=40,
    ),
    st.sampled_from([1, 3, 300]),
)
def test_arbitrary_lines_parse_the_same(lines: list[str], batch: int) -> None:
    assert both(lines, batch)[0] == both(lines, batch)[1]


# --- what the scan may skip ------------------------------------------------------------


MESSAGES = [message for message, _ in KINDS + RESPONSES]


def acts(message: str) -> bool:
    """Whether the message reader does anything with ``message``: an event or a bad line."""
    parser = IotaParser(to_epoch=utc)
    events: list[Event] = []
    parser._read_message(message, 0.0, events)
    return bool(events) or parser.bad_lines > 0


def test_every_message_that_means_something_holds_a_meaningful_text() -> None:
    acting = [message for message in MESSAGES if acts(message)]
    assert len(acting) >= 30  # the table's messages, all but the few that mean nothing
    for message in acting:
        assert any(text in message for text in MEANINGFUL_TEXTS), message


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from(MESSAGES),
    st.integers(min_value=0, max_value=200),
    st.integers(min_value=0, max_value=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=6),
)
def test_no_message_acts_without_a_meaningful_text(message: str, at: int, cut: int, inserted: str) -> None:
    """Damaged messages (a piece cut out, text put in) act only when one of the texts survived."""
    at = min(at, len(message))
    damaged = message[:at] + inserted + message[at + cut :]
    if acts(damaged):
        assert any(text in damaged for text in MEANINGFUL_TEXTS), damaged


def test_each_meaningful_text_is_found_anywhere_in_a_message() -> None:
    scan = iota._compile(iota._LINE_SCAN_PATTERN)
    for text in MEANINGFUL_TEXTS:
        for before, after in [("", ""), ("x: y ", " z"), ("exhausted retrie", "!"), ("is in state:", "#")]:
            found = scan.match(bare(before + text + after))
            assert found is not None and found.group(6) is not None, (before, text, after)
    assert scan.match(bare("Cache size: 12, queue: 3, state:1 layer y g v")).group(6) is None


# --- the memo of quiet rests -----------------------------------------------------------------


def test_the_memo_is_kept_while_noise_repeats_and_left_when_it_does_not() -> None:
    # Counters and times are digits: lines that differ only there have one shape, kept once.
    counters = [wrapped(f"Cache size: {n:04d}", stamp=f"2026-09-13 21:{n // 100 % 60:02d}:{n % 60:02d}.{n % 1000:03d}")
                for n in range(5000)]
    parser = IotaParser(to_epoch=utc)
    reference = ReferenceIotaParser(to_epoch=utc)
    assert parser.feed(counters) == reference.feed(counters)
    assert list(parser._quiet) == [counters[0].encode().translate(iota._DIGITS_AS_ZERO)]
    # Ids spelled with letters make every line's shape differ: the memo is left after the probe.
    ids = [wrapped("Activation " + f"{n:04d}".translate(str.maketrans("0123456789", "abcdefghij"))) for n in range(5000)]
    parser = IotaParser(to_epoch=utc)
    parser.feed(ids)
    assert len(parser._quiet) == iota._PROBE_LINES  # only the probe's lines were remembered
    assert parser.feed(ids[:3] + [wrapped(STEP)])[:-1] == parse_step()


def test_no_text_the_scan_looks_for_holds_a_digit() -> None:
    """A line's shape reads every digit as 0: a meaningful text or level with a digit in it
    ("HTTP 503") would make two lines of one shape differ in meaning, and the memo wrong."""
    for text in (*MEANINGFUL_TEXTS, *iota._ERROR_LEVELS):
        assert not any(c in "0123456789" for c in text), text


def test_a_shape_remembers_only_lines_that_mean_nothing_whatever_their_digits() -> None:
    """A meaningful record is read every time, even when one like it (other digits) meant nothing."""
    lines = [
        bare("Error making orchestrator request to endpoint /miner/heartbeat: 500 oops"),
        bare("Error making orchestrator request to endpoint /miner/heartbeat: 404 oops"),
        bare("Cache size: 1"),
        bare("Cache size: 2", stamp="2026-09-13 21:09:61.000"),  # the same shape, an impossible time
        "Traceback line 1",
        " 🔄 Miner in layer 2 submitting weights state!",  # a banner: read, though no record
    ] * 3
    (events, bad), expected = both(lines, 1 << 30)
    assert (events, bad) == expected
    assert [e.kind for e in events if isinstance(e, BackendError)] == ["not_found_404"] * 3
    assert sum(isinstance(e, PhaseChanged) for e in events) == 3
    assert bad == 3


def test_a_record_worth_reading_is_known_by_its_shape_and_read_for_its_own_figures() -> None:
    """A reading printed again with other figures (and times) has the first one's shape: known by
    it, without the pattern, and read for its own figures at its own time; an impossible time of
    that shape is still a bad line, an ERROR record of a known shape still the timeline's error."""
    gpu = "GPU memory usage: {}GB / {}GB -- after backward pass"
    lines = [
        wrapped(gpu.format("3.22", "3.77"), stamp="2026-09-13 21:09:01.000"),
        wrapped(gpu.format("4.50", "5.00"), stamp="2026-09-13 21:09:02.500"),
        wrapped(gpu.format("1.00", "2.00"), stamp="2026-09-13 21:09:61.000"),
        wrapped(gpu.format("9.99", "9.99"), stamp="2026-09-13 21:19:07.125"),
        bare("Error making orchestrator request to endpoint /miner/heartbeat: 404 oops", level="ERROR"),
        bare("Error making orchestrator request to endpoint /miner/heartbeat: 500 oops", level="ERROR"),
    ]
    (events, bad), expected = both(lines, 1 << 30)
    assert (events, bad) == expected
    assert [(e.at, e.used_gb, e.total_gb) for e in events if isinstance(e, GpuMemory)] == [
        (utc(2026, 9, 13, 21, 9, 1), 3.22, 3.77), (utc(2026, 9, 13, 21, 9, 2) + 0.5, 4.5, 5.0),
        (utc(2026, 9, 13, 21, 19, 7) + 0.125, 9.99, 9.99)]
    assert bad == 1
    assert [e.message[-8:] for e in events if isinstance(e, ErrorLogged)] == ["404 oops", "500 oops"]
    parser = IotaParser(to_epoch=utc)
    parser.feed(lines)
    assert set(parser._read_shapes) == {lines[0].encode().translate(iota._DIGITS_AS_ZERO),
                                        lines[4].encode().translate(iota._DIGITS_AS_ZERO)}


def parse_step() -> list[Event]:
    return ReferenceIotaParser(to_epoch=utc).feed([wrapped(STEP)])[:-1]


def test_a_panics_message_is_read_though_its_shape_was_seen_outside_any_record() -> None:
    """Newer Rust prints a panic's message on the line after "panicked at …:"; that line is read for
    it even when a line of the same shape, outside any record, was remembered as meaning nothing."""
    said = "peer connection reset by remote"
    lines = [
        wrapped("Cache size: 1"),
        said,  # outside any record, meaning nothing here: remembered by its shape
        wrapped("Cache size: 2"),
        "thread 'tokio-runtime-worker' panicked at src/p2p.rs:10:5:",
        said,
        wrapped("Cache size: 3"),
    ]
    (events, bad), expected = both(lines, 1 << 30)
    assert (events, bad) == expected
    crashes = [e for e in events if isinstance(e, WorkerCrashed)]
    assert [e.line for e in crashes] == [f"thread 'tokio-runtime-worker' panicked at src/p2p.rs:10:5: {said}"]
