"""The nanoGPT parser's fast path for its usual step lines against its general reading alone: the
same events, in the same order, with the same bad-line counts, whatever surrounds the usual lines
(wraps, glued lines, prefixes, a script preamble, evaluations, crashes) and however they are batched."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.ingest.formats import create_parser, nanogpt
from app.stats.events import Event, RunCrashed, TrainStep

USUAL = [
    "iter 5: loss 10.9659, time 118.38ms, mfu 45.21%",
    "iter 0: loss 10.9838, time 43512.37ms, mfu -100.00%",
    "iter 12: loss 3.0000, time 0.00ms, mfu 0.00%",
    "step:10/20000 train_loss:3.2841 train_time:1234ms step_avg:123.40ms",
    "step:0/20000 val_loss:6.9469 train_time:0ms step_avg:nanms",
    "step:11/20000 train_time:1357ms",
]
OTHER = [
    "step 2000: train loss 9.7171, val loss 9.7671",
    "tokens per iteration will be: 491,520",
    "saving checkpoint to out",
    "iter 9: loss 1.0000, time 2.00ms, mfu 3.00%, lr 1.0e-04",
    "[rank0]: iter 6: loss 4.0000, time 5.00ms, mfu 6.00%",
    "[rank1]: iter 6: loss 4.5000, time 5.00ms, mfu 6.00%",
    "0: iter 7: loss 4.0000, time 5.00ms, mfu 6.00%",
    "2024-05-01 12:00:00,123 - INFO - iter 8: loss 4.0000, time 5.00ms, mfu 6.00%",
    "import os",
    "x = 1",
    "",
    "   ",
    "Traceback (most recent call last):",
    '  File "train.py", line 3, in <module>',
    "RuntimeError: CUDA out of memory",
    "Killed",
    "iter 5: loss 10.9659, time 118.38ms, mfu 45.21%\r",
    "\x1b[32miter 5: loss 10.9659, time 118.38ms, mfu 45.21%\x1b[0m",
    "iter ",
    "step:",
]
POOL = USUAL + OTHER


def read(lines: list[str], batch: int, fast: bool) -> tuple[list[Event], int]:
    with pytest.MonkeyPatch.context() as patch:
        if not fast:
            patch.setattr(nanogpt, "_FAST", {})
        parser = create_parser("nanogpt")  # with the crash watch, as every step log is read
        events: list[Event] = []
        for at in range(0, len(lines), batch):
            events.extend(parser.feed(lines[at : at + batch]))
        return events, parser.bad_lines


# A log of pool lines, some cut in two where a terminal wrapped them, some run together.
piece = st.one_of(
    st.sampled_from(POOL).map(lambda line: [line]),
    st.tuples(st.sampled_from(POOL), st.integers(1, 60)).map(lambda p: [p[0][: p[1]], p[0][p[1] :]]),
    st.tuples(st.sampled_from(POOL), st.sampled_from(USUAL)).map(lambda p: [p[0] + p[1]]),
)


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(piece, max_size=30), batch=st.integers(1, 8))
def test_the_fast_path_reads_what_the_general_reading_reads(pieces: list[list[str]], batch: int) -> None:
    lines = [line for p in pieces for line in p]
    assert read(lines, batch, True) == read(lines, batch, False)


def test_usual_lines_are_taken_by_the_fast_path_and_a_crash_among_them_is_still_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken: list[str] = []
    for key, (pattern, reader) in list(nanogpt._FAST.items()):
        def counted(m: object, reader: object = reader) -> list[Event]:
            taken.append(m.string)  # type: ignore[attr-defined]
            return reader(m)  # type: ignore[operator, no-any-return]
        monkeypatch.setitem(nanogpt._FAST, key, (pattern, counted))
    lines = [*USUAL, "Traceback (most recent call last):", '  File "train.py", line 3, in <module>',
             "RuntimeError: CUDA out of memory", USUAL[0]]
    events = create_parser("nanogpt").feed(lines)
    assert taken == [*USUAL, USUAL[0]]
    crash = [e for e in events if isinstance(e, RunCrashed)]
    assert len(crash) == 1 and "CUDA out of memory" in crash[0].error
    # the crash comes after the steps before it and before the step after it
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("RunCrashed") == len(kinds) - 2 and isinstance(events[-1], TrainStep)


# A usual line's figures as a trainer may print them: leading zeros, many digits, signs, zeros.
digits = st.text("0123456789", min_size=1, max_size=25)
figure = st.tuples(st.sampled_from(["", "-"]), digits, digits).map(lambda p: f"{p[0]}{p[1]}.{p[2]}")
usual_line = st.tuples(st.text("0123456789", min_size=1, max_size=12), figure, figure.map(lambda f: f.lstrip("-")),
                       figure).map(lambda p: f"iter {p[0]}: loss {p[1]}, time {p[2]}ms, mfu {p[3]}%")


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(usual_line, min_size=1, max_size=20))
def test_a_run_of_usual_lines_holds_each_line_s_figures_as_the_line_alone_reads_them(lines: list[str]) -> None:
    run = nanogpt._nanogpt_run(lines)
    alone = [nanogpt._nanogpt_usual(nanogpt._NANOGPT_USUAL.fullmatch(line))[0] for line in lines]  # type: ignore[arg-type]
    assert [run.step(i) for i in range(len(run))] == alone
    assert all(type(step) is int for step in run.steps)
    assert [math.copysign(1, loss) for loss in run.losses] == [math.copysign(1, s.loss) for s in alone]  # type: ignore[arg-type, attr-defined]


def test_a_run_is_read_the_same_without_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ["iter 0: loss 10.9185, time 2005.83ms, mfu -100.00%", "iter 007: loss -0.0, time 0.10ms, mfu 12.50%",
             "iter 8: loss 3.14159265358979323846264338327950288, time 116.58ms, mfu 45.21%"]
    with_orjson = nanogpt._nanogpt_run(lines)
    monkeypatch.setattr(nanogpt, "_JSON_LOADS", None)
    assert nanogpt._nanogpt_run(lines) == with_orjson
    assert with_orjson.steps == (0, 7, 8) and with_orjson.losses == (10.9185, -0.0, 3.141592653589793)
    assert with_orjson.step_ms == (2005.83, 0.1, 116.58) and with_orjson.mfus == (-100.0, 12.5, 45.21)
