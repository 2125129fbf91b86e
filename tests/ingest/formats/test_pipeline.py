"""The line pipeline's fast path for the registry's usual step lines against the parser's general
reading alone: the same events, in the same order, with the same bad-line counts, whatever surrounds
the usual lines (wraps, glued lines, prefixes, a script preamble, evaluations, crashes) and however
they are batched; and the bulk path's columns against the lines read one by one."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.ingest.formats import FORMATS, create_parser, pipeline
from app.ingest.formats.crash import CrashAware
from app.ingest.formats.nanochat import NanochatParser
from app.ingest.formats.nanogpt import NanogptParser
from app.ingest.formats.registry import NANOGPT_USUAL, family_usual_lines
from app.stats.events import Event, RunCrashed, TrainStep

USUAL = [
    "iter 5: loss 10.9659, time 118.38ms, mfu 45.21%",
    "iter 0: loss 10.9838, time 43512.37ms, mfu -100.00%",
    "iter 12: loss 3.0000, time 0.00ms, mfu 0.00%",
    "step:10/20000 train_loss:3.2841 train_time:1234ms step_avg:123.40ms",
    "step:0/20000 val_loss:6.9469 train_time:0ms step_avg:nanms",
    "step:11/20000 train_time:1357ms",
    "step  149/190 | loss 3.412346 (+0.12z)| norm 0.3921 (-0.40z)| lr 3.00e-04 | 360.64 ms | 14.9% bf16 MFU | 1449806 tok/s",
    "step    1/18865 | loss 11.009384 (+nanz)| norm 15.0013 (+nanz)| lr 8.57e-07 | 2155.03 ms | -100.0% bf16 MFU | 243280 tok/s",
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
    "step  150/190 | loss 3.412346 (+0.12z)| norm 0.3921 (-0.40z)| lr 3.00e-04 | -1.00 ms | 14.9% bf16 MFU | 1450081 tok/s",
]
POOL = USUAL + OTHER


def read(lines: list[str], batch: int, fast: bool) -> tuple[list[Event], int]:
    # with the crash watch, as every step log is read; without usual lines, the general reading alone
    parser = create_parser("nanogpt") if fast else CrashAware(NanogptParser("nanogpt", ()))
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


def test_usual_lines_are_taken_by_the_fast_path_and_a_crash_among_them_is_still_read() -> None:
    taken: list[str] = []
    parser = create_parser("nanogpt")
    inner = parser.parser  # type: ignore[attr-defined]
    for shapes in inner._usual.values():
        for k, (pattern, reader) in enumerate(shapes):
            def counted(m: re.Match[str], reader: Callable[[re.Match[str]], list[Event]] = reader) -> list[Event]:
                taken.append(m.string)
                return reader(m)
            shapes[k] = (pattern, counted)
    lines = [*USUAL, "Traceback (most recent call last):", '  File "train.py", line 3, in <module>',
             "RuntimeError: CUDA out of memory", USUAL[0]]
    events = parser.feed(lines)
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
    run = pipeline._run(NANOGPT_USUAL, lines)
    read_line = pipeline.usual_reader(NANOGPT_USUAL)
    alone = [read_line(NANOGPT_USUAL.pattern.fullmatch(line))[0] for line in lines]  # type: ignore[arg-type]
    assert [run.step(i) for i in range(len(run))] == alone
    assert all(type(step) is int for step in run.steps)
    assert [math.copysign(1, loss) for loss in run.losses] == [math.copysign(1, s.loss) for s in alone]  # type: ignore[arg-type, attr-defined]


def test_a_run_is_read_the_same_without_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ["iter 0: loss 10.9185, time 2005.83ms, mfu -100.00%", "iter 007: loss -0.0, time 0.10ms, mfu 12.50%",
             "iter 8: loss 3.14159265358979323846264338327950288, time 116.58ms, mfu 45.21%"]
    with_orjson = pipeline._run(NANOGPT_USUAL, lines)
    monkeypatch.setattr(pipeline, "_JSON_LOADS", [None])  # as where orjson is not installed
    assert pipeline._run(NANOGPT_USUAL, lines) == with_orjson
    assert with_orjson.steps == (0, 7, 8) and with_orjson.losses == (10.9185, -0.0, 3.141592653589793)
    assert with_orjson.step_ms == (2005.83, 0.1, 116.58) and with_orjson.mfus == (-100.0, 12.5, 45.21)


USUAL_SHAPES = [(spec.name, usual) for spec in FORMATS for usual in spec.usual_lines]


@pytest.mark.parametrize(("name", "usual"), USUAL_SHAPES, ids=[f"{n}:{u.head}" for n, u in USUAL_SHAPES])
def test_a_usual_line_reads_as_its_parser_reads_it_alone(name: str, usual: object) -> None:
    """Each row's usual line, its example (a real line), read by the pipeline's column map and by the
    parser's own ``classify``: the same events, and whole (nothing can continue it)."""
    from app.ingest.formats.fields import Kind
    from app.ingest.formats.registry import BY_NAME

    spec = BY_NAME[name]
    line = usual.example  # type: ignore[attr-defined]
    fast = create_parser(name).feed([line])
    general = spec.parser(spec)
    general._usual = {}  # type: ignore[attr-defined]
    kind, emit = general.classify(line)  # type: ignore[attr-defined]
    assert kind is Kind.FULL and emit is not None
    assert fast == emit()
    assert family_usual_lines(spec)  # the family's parser reads it


def test_the_bulk_path_is_declared_by_the_usual_line_not_probed() -> None:
    """Every row's usual line with a loss makes runs (its declaration, not four fast paths): a stretch
    of one shape is one run, a line of it without its loss or with an evaluation is read alone, and
    a format with no usual line reads as feed reads."""
    declared = [u for spec in FORMATS for u in spec.usual_lines]
    assert {spec.name for spec in FORMATS if spec.usual_lines} == {"nanochat", "nanogpt", "llmc", "modded-nanogpt"}
    assert all(u.in_columns for u in declared)
    lines = [USUAL[3], USUAL[3].replace("step:10/", "step:11/"), USUAL[4], USUAL[5], USUAL[6],
             USUAL[6].replace("step  149/", "step  150/")]
    items = create_parser("modded-nanogpt").feed_runs(lines)  # type: ignore[attr-defined]
    runs = [item for item in items if isinstance(item, pipeline.StepRun)]
    assert [run.steps for run in runs] == [(10, 11), (149, 150)]
    assert [item.step for item in items if isinstance(item, TrainStep)] == [0, 11]  # (val_loss; no train_loss)
    assert create_parser("nanochat").parser.in_runs  # type: ignore[attr-defined]
    assert not create_parser("hf-trainer").parser.in_runs  # type: ignore[attr-defined]


# nanochat's step lines (tests/data/real/nanochat-rtx4070-core-then-steps-with-epoch-eta.log and the sample):
# the usual shape (with its eta), the older shape that ends at total time (held a line), and others.
NANOCHAT_USUAL = [
    ("step 20000/200000 (10.00%) | loss: 3.251535 | lrm: 0.20 | dt: 38797.89ms | tok/sec: 422 | mfu: 0.00 | epoch: 2 | "
     "total time: 753.25m | eta: 6782.7m"),
    ("step 00001/05568 (0.02%) | loss: 9.857588 | lrm: 0.05 | dt: 7904.31ms | tok/sec: 132,658 | bf16_mfu: 8.01 | "
     "epoch: 1 pq: 0 rg: 11 | total time: 0.00m | eta: 733.1m"),
]
NANOCHAT_OTHER = [
    "step 00004/21400 (0.02%) | loss: 8.893647 | lrm: 1.00 | dt: 989.44ms | tok/sec: 529,882 | mfu: 74.13 | total time: 0.00m",
    "Step 00250 | Validation bpb: 0.8123",
    ("[rank0]: step 00005/21400 (0.02%) | loss: 8.530593 | lrm: 1.00 | dt: 991.09ms | tok/sec: 529,000 | mfu: 74.00 | "
     "epoch: 1 | total time: 0.01m | eta: 350.0m"),
    "| eta: 12.5m",
    "Evaluating: hellaswag (10-shot, type: multiple_choice)... ",
    "Traceback (most recent call last):",
    "RuntimeError: CUDA out of memory",
    "",
]
NANOCHAT_POOL = NANOCHAT_USUAL + NANOCHAT_OTHER
nanochat_piece = st.one_of(
    st.sampled_from(NANOCHAT_POOL).map(lambda line: [line]),
    st.tuples(st.sampled_from(NANOCHAT_POOL), st.integers(1, 120)).map(lambda p: [p[0][: p[1]], p[0][p[1] :]]),
    st.tuples(st.sampled_from(NANOCHAT_POOL), st.sampled_from(NANOCHAT_USUAL)).map(lambda p: [p[0] + p[1]]),
)


def read_nanochat(lines: list[str], batch: int, fast: bool) -> tuple[list[Event], int]:
    parser = create_parser("nanochat") if fast else CrashAware(NanochatParser(()))
    events: list[Event] = []
    for at in range(0, len(lines), batch):
        events.extend(parser.feed(lines[at : at + batch]))
    return events, parser.bad_lines


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(nanochat_piece, max_size=25), batch=st.integers(1, 6))
def test_nanochat_s_usual_line_reads_as_its_general_reading(pieces: list[list[str]], batch: int) -> None:
    lines = [line for p in pieces for line in p]
    assert read_nanochat(lines, batch, True) == read_nanochat(lines, batch, False)


# --- capture quirks, fixed once for every trainer -----------------------------------------------------


def _steps(name: str, lines: list[str]) -> list[int]:
    return [e.step for e in create_parser(name).feed(lines) if isinstance(e, TrainStep)]


def test_a_bar_redrawn_thousands_of_times_on_one_line_reads_its_newest_redraw() -> None:
    """tqdm redirected to a file redraws with ``\\r`` and no newline: one line of 3,000 redraws
    (over the line cap) is read from its end, for the HF Trainer as for the generic reader."""
    total = 6000
    redraws = "".join(f"\r{k * 100 // total:3d}%|#         | {k}/{total} [00:{k % 60:02d}<10:00,  2.00it/s]"
                      for k in range(1, 3001))
    lines = ["***** Running training *****", f"  Total optimization steps = {total:,}", redraws]
    assert _steps("hf-trainer", lines)[-1:] == [3000]


def test_a_carriage_return_pasted_from_a_pager_splits_the_records_for_every_trainer() -> None:
    """``less`` shows a ``\\r`` as ``^M``; pasted, it is two characters: two nanoGPT steps, not one cut line."""
    line = "iter 1: loss 3.2100, time 120.00ms, mfu 45.00%^Miter 2: loss 3.2000, time 121.00ms, mfu 45.10%"
    assert _steps("nanogpt", [line]) == [1, 2]


def test_a_carriage_return_syslog_escaped_splits_the_records_for_every_trainer() -> None:
    """syslog (and SageMaker's MPI capture through it) writes a ``\r`` as ``#015`` and tqdm's cursor-up as
    ``#033[A``: the records they separate, as if printed raw (composed nanoGPT lines)."""
    line = "iter 1: loss 3.2100, time 120.00ms, mfu 45.00%#033[A#015iter 2: loss 3.2000, time 121.00ms, mfu 45.10%"
    assert _steps("nanogpt", [line]) == [1, 2]
    bars = ["#015Epoch 0: 100% 2/2 [00:00<00:00, 12.05it/s, loss=2.29]#015Epoch 1:   0% 0/2 [00:00<?, ?it/s, loss=2.29]"]
    assert _steps("generic", bars) == _steps("generic", [bars[0].replace("#015", "\r")])


@pytest.mark.parametrize(("name", "line", "step"), [
    ("nanogpt", "    [rank0]: iter 7: loss 3.2100, time 120.00ms, mfu 45.00%", 7),
    ("nanochat", ("    [rank0]: step 00005/21400 (0.02%) | loss: 8.530593 | lrm: 1.00 | dt: 991.09ms | tok/sec: 529,000 | "
                  "mfu: 74.00 | epoch: 1 | total time: 0.01m | eta: 350.0m"), 5),
])  # fmt: skip
def test_an_indented_copy_of_a_prefixed_line_reads_as_printed(name: str, line: str, step: int) -> None:
    """A README or a Markdown quote indents the launcher's line: the prefix is still a prefix."""
    assert _steps(name, [line]) == [step]


# ColossalAI's rich logger, verbatim (hpcaitech/FastFold pull request 138, a comment by Gy-Lu, 2023-01-15):
# the time column is blank while the time repeats, and a long message wraps onto a line indented under it.
FASTFOLD = [
    "[01/15/23 18:11:55] INFO     colossalai - colossalai - INFO: train.py:230 main",
    ("                    INFO     colossalai - colossalai - INFO: Training, Epoch: 0, Step: 1, Global_Step: 1, Loss: "
    "distogram=4.159 experimentally_resolved=0.693 fape=1.682"),
    ("                             lddt=3.912 masked_msa=3.135 supervised_chi=0.937 violation=404.925 "
    "unscaled_loss=10.176 loss=162.822 lddt_ca=0.010 drmsd_ca=26.113"),
    "[01/15/23 18:12:07] INFO     colossalai - colossalai - INFO: train.py:230 main",
    ("                    INFO     colossalai - colossalai - INFO: Training, Epoch: 0, Step: 2, Global_Step: 2, Loss: "
    "distogram=4.159 experimentally_resolved=0.693 fape=1.543"),
    ("                             lddt=3.912 masked_msa=3.135 supervised_chi=0.961 violation=393.072 "
    "unscaled_loss=10.062 loss=160.364 lddt_ca=0.009 drmsd_ca=22.707"),
]


def test_a_record_a_logger_wrapped_under_its_message_is_one_record() -> None:
    from app.ingest.formats.generic import GenericParser
    from app.ingest.formats.pipeline import continued

    assert len(list(continued(FASTFOLD))) == 4
    steps = [e for e in GenericParser().feed(FASTFOLD) if isinstance(e, TrainStep)]
    # Two steps, not four; the loss is ``loss=`` on the wrapped rest, not the first sub-term or unscaled_loss.
    assert [(s.step, s.loss) for s in steps] == [(1, 162.822), (2, 160.364)]
    # rich's blank time column: the time printed above (2023-01-15 18:11:55 and 18:12:07, local = UTC here).
    assert steps[1].at is not None and steps[0].at is not None and steps[1].at - steps[0].at == 12


@pytest.mark.parametrize("lines", [
    # a traceback's frames and source lines: no prefix above them, so never joined
    ["Traceback (most recent call last):", '  File "train.py", line 3, in <module>',
     "            loss = model(x)", "                   ^^^^^^^^", "RuntimeError: boom"],
    # a composed loguru record and an unrelated deeper indentation (past its message column)
    ["2024-05-01 12:00:00.123 | INFO     | __main__:main:42 - step 1 loss 2.5",
     "                                                                              indented far past the message"],
    # an indented line under an unprefixed line
    ["step 1 loss 2.5", "            lr 0.1"],
])  # fmt: skip
def test_a_line_that_is_no_wrapped_rest_is_left_alone(lines: list[str]) -> None:
    from app.ingest.formats.pipeline import continued

    assert list(continued(lines)) == lines


def test_a_wrapped_record_joins_a_bounded_number_of_lines() -> None:
    from app.ingest.formats.pipeline import MAX_CONTINUED_LINES, continued

    head = "2024-05-01 12:00:00 - INFO - step 1"
    rest = [" " * 20 + f"part{k}" for k in range(MAX_CONTINUED_LINES + 2)]
    out = list(continued([head, *rest]))
    assert out[0] == head + "".join(f" part{k}" for k in range(MAX_CONTINUED_LINES))
    assert out[1:] == rest[MAX_CONTINUED_LINES:]


@pytest.mark.parametrize(("name", "usual"), USUAL_SHAPES, ids=[f"{n}:{u.head}" for n, u in USUAL_SHAPES])
def test_a_row_s_usual_line_read_in_bulk_is_the_line_read_alone(name: str, usual: object) -> None:
    """Every row that declares a usual line: its example in a stretch is one run whose steps are the
    events the lines read as one by one (a new row's declaration is held to this as it is added)."""
    line = usual.example  # type: ignore[attr-defined]
    lines = ["starting", line, line, line, "", line]
    items = create_parser(name).feed_runs(lines)  # type: ignore[attr-defined]
    assert any(isinstance(item, pipeline.StepRun) for item in items)
    read = [step for item in items
            for step in ([item.step(i) for i in range(len(item))] if isinstance(item, pipeline.StepRun) else [item])]
    assert read == create_parser(name).feed(lines)


figure_text = st.one_of(st.text("0123456789,.-+eE", max_size=12), st.sampled_from(["nan", "inf", "-inf", "1" * 70, ""]))


@settings(max_examples=500, deadline=None)
@given(texts=st.lists(figure_text, min_size=1, max_size=8))
def test_a_column_of_figures_reads_as_each_figure_alone(texts: list[str]) -> None:
    from app.ingest.formats.fields import number

    assert repr(pipeline._numbers(texts)) == repr([number(text) if text else None for text in texts])


@settings(max_examples=2000, deadline=None)
@given(texts=st.lists(st.sampled_from(["", "", "3.21", "0", ",", "1,000", ",5", "7,"]), max_size=12))
def test_a_column_joined_for_json_says_null_for_each_line_that_printed_none(texts: list[str]) -> None:
    """Runs of empty figures (evaluation lines among the steps), at either end, and figures holding a comma."""
    assert pipeline._json_text(texts) == ",".join("null" if text == "" else text for text in texts)


# A run's column of figures read at once (one JSON array where orjson is installed): each figure as
# ``float`` or ``int`` reads it alone, bit for bit — a leading zero, -0, nan, inf, thousands
# separators, exponents and empty groups among them.
COLUMNS = [
    ["3.2100", "10.4414", "0.000123"], ["2475", "43", "0"], ["6.00e-04", "1E5", "2.5e+01"],
    ["-0", "2"], ["-0.0", "2"], ["007", "12"], ["nan", "3.1"], ["inf", "-inf"], ["1.5", "", "3"],
    ["", ""], ["13,390", "1,000"], ["1.", ".5"], ["+1.0", "2.0"], ["18446744073709551617", "1"],
    ["12345678901234567890123", "1.0"], ["0.1", "0.30000000000000004", "1e-320"],
    ["902724", "902724", "902724"], ["007", "007"], ["0", "0"], ["12", "12", ""],
    ["5430", "43", "0"], ["9007199254740993", "1"], ["999999999999999", "1"], ["-5", "3"],
]


@pytest.mark.parametrize("texts", COLUMNS)
def test_a_column_read_at_once_is_each_figure_read_alone(texts: list[str]) -> None:
    from app.ingest.formats.fields import number

    alone = [number(text) if text else None for text in texts]
    assert repr(pipeline._numbers(texts)) == repr(alone)
    if all(text.isdigit() or not text for text in texts):
        assert pipeline._ints(texts) == [int(text) if text else None for text in texts]
    from app.ingest.formats.fields import number

    assert repr(pipeline._elapsed(texts)) == repr(
        [None if ms is None or not ms >= 0 else ms / 1000 for ms in (number(text) if text else None for text in texts)])


@settings(max_examples=2000, deadline=None)
@given(figure=st.text("0123456789,.eE+-nafiNAFIty", min_size=1, max_size=10), after=st.sampled_from([" ", "ms", ""]))
def test_modded_nanogpt_s_figures_never_given_back_take_what_a_figure_takes(figure: str, after: str) -> None:
    """Its line's figures are matched whole and never given back (fast): each is followed by a space,
    ``ms`` or the line's end, none of which a figure holds, so the line reads as with NUM itself."""
    from app.ingest.formats.fields import NUM
    from app.ingest.formats.registry import _NUM_WHOLE

    def taken(pattern: str) -> str | None:
        m = re.fullmatch(f"({pattern}){re.escape(after)}", figure + after)
        return m.group(1) if m else None

    assert taken(_NUM_WHOLE) == taken(NUM)


def test_a_batch_s_columns_are_its_rows_read_down() -> None:
    rows = [("1", "2.5", ""), ("2", "", "x"), ("3", "2.4", "")]
    assert pipeline._columns(rows) == [list(column) for column in zip(*rows, strict=True)]
    assert pipeline._columns([]) == []


# modded-nanogpt's lines (tests/data/real's modded-nanogpt logs): a training step, an evaluation at the
# step (no training loss), a step with no loss; each kind anywhere in a batch, runs of evaluations too.
_MODDED = st.one_of(
    st.just("step:{s}/20000 train_loss:3.2841 train_time:1234ms step_avg:123.40ms"),
    st.just("step:{s}/20000 val_loss:6.9469 train_time:1234ms step_avg:123.40ms"),
    st.just("step:{s}/20000 train_time:1357ms"),
    st.just("step:{s}/20000 train_loss:inf train_time:1234ms step_avg:123.40ms"),
)


@settings(max_examples=300, deadline=None)
@given(shapes=st.lists(_MODDED, max_size=40), batch=st.integers(1, 45))
def test_evaluations_among_a_batch_of_steps_break_its_runs_where_feed_reads_them_alone(
        shapes: list[str], batch: int) -> None:
    lines = [shape.format(s=step) for step, shape in enumerate(shapes)]
    bulk, alone = create_parser("modded-nanogpt"), create_parser("modded-nanogpt")
    for at in range(0, len(lines), batch):
        items = bulk.feed_runs(lines[at : at + batch])  # type: ignore[attr-defined]
        read = [step for item in items
                for step in ([item.step(i) for i in range(len(item))] if isinstance(item, pipeline.StepRun) else [item])]
        assert read == alone.feed(lines[at : at + batch])
        runs = [item for item in items if isinstance(item, pipeline.StepRun)]
        taken = {step for run in runs for step in run.steps}
        assert taken == {step for step, line in enumerate(lines) if at <= step < at + batch and "train_loss:" in line}
