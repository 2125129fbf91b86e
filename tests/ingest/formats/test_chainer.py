"""Chainer's PrintReport table (ESPnet1 and any Chainer script): a row a report, its cells under the header's names.

Real logs (tests/data/real/chainer-*.log, each citing its source) and composed rows worked out by hand.
"""

from __future__ import annotations

from app.ingest.formats import create_parser, detect
from app.stats.events import EvalResult, TrainStep
from tests.reallogs import body

ESPNET = "chainer-espnet-pr1138-asr-train-printreport-iterations-100-to-300-progressbar-escapes.log"
WRAPPED = "chainer-chainer-issue7591-printreport-wrapped-header-epoch-1-iteration-356-val-losses.log"


def events(lines: list[str]) -> list[object]:
    return [e for e in create_parser("chainer").feed(lines) if type(e).__name__ != "Tick"]


def test_real_espnet1_rows_under_progress_bars_redrawn_with_escapes() -> None:
    lines = body(ESPNET)
    assert detect(lines) == "chainer"
    got = events(lines)
    steps = [e for e in got if isinstance(e, TrainStep)]
    assert [(s.step, s.loss, s.elapsed_seconds) for s in steps] == [(100, 626.687, 113.983), (200, 674.456, 152.658),
                                                                    (300, 585.188, None)]
    # the epochs come from the progress bar under the first row; the blank validation cells are no evaluation
    assert (steps[-1].epoch, steps[-1].epoch_total, steps[0].epoch_total) == (0.0, 100, None)
    assert dict(steps[-1].figures) == {"loss/loss_ctc": 1401.03, "loss/loss_att": 235.544}
    assert not [e for e in got if isinstance(e, EvalResult)]


def test_real_header_wrapped_inside_its_last_name_still_names_the_clock() -> None:
    lines = body(WRAPPED)
    assert detect(lines) == "chainer"
    got = events(lines)
    (step,) = [e for e in got if isinstance(e, TrainStep)]
    assert (step.step, step.epoch, step.loss, step.elapsed_seconds) == (356, 1.0, 31.2785, 114.618)
    evals = {e.name: (e.value, e.step) for e in got if isinstance(e, EvalResult)}
    assert evals == {"validation/main/loss": (26.5542, 356), "validation/main/mae": (1.27629, 356),
                     "validation/main/weighted": (23.1902, 356), "validation/main/VAE": (0.32403, 356)}


def test_a_line_whose_cells_do_not_line_up_is_no_row() -> None:
    header = "epoch       iteration   main/loss   elapsed_time"
    assert [e for e in events([header, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"]) if isinstance(e, TrainStep)] == []
    (row,) = [e for e in events([header, "3           1200        0.5123      300.5"]) if isinstance(e, TrainStep)]
    assert (row.step, row.epoch, row.loss, row.elapsed_seconds) == (1200, 3.0, 0.5123, 300.5)


def test_a_row_is_not_read_again_with_the_next_line_glued_on() -> None:
    # the joiner tries a row (ending in a number a wrap could cut) with the next line: "300.5done" is no clock
    header = "epoch       iteration   main/loss   elapsed_time"
    (row,) = [e for e in events([header, "3           1200        0.5123      300.5", "done"]) if isinstance(e, TrainStep)]
    assert row.elapsed_seconds == 300.5


BY_EPOCH_LR = "chainer-jpegcomp-readme-printreport-by-epoch-no-iteration-lr-epochs-1-to-10.log"
BY_EPOCH_ACCURACY = "chainer-notmnist-readme-printreport-by-epoch-accuracy-epochs-1-to-20.log"


def test_real_report_made_once_an_epoch_counts_its_epochs_under_a_script_own_prints() -> None:
    # ka10ryu1/jpegcomp: no iteration column, an lr column; the header after the script's argument dump
    lines = body(BY_EPOCH_LR)
    assert detect(lines) == "chainer"
    steps = [e for e in events(lines) if isinstance(e, TrainStep)]
    assert [s.step for s in steps] == list(range(1, 11))
    last = steps[-1]
    assert (last.step, last.epoch, last.loss, last.lr, last.elapsed_seconds) == (10, 10.0, 0.065501, 0.000716535, 481.537)
    evals = {e.name: (e.value, e.step) for e in events(lines) if isinstance(e, EvalResult) and e.step == 10}
    assert evals == {"validation/main/loss": (0.0604349, 10)}


def test_real_report_made_once_an_epoch_with_accuracies_is_read_by_its_names() -> None:
    # aidiary/chainer-notmnist: main/accuracy is no loss, validation/main/* the epoch's evaluation
    lines = body(BY_EPOCH_ACCURACY)
    assert detect(lines) == "chainer"
    got = events(lines)
    last = [e for e in got if isinstance(e, TrainStep)][-1]
    assert (last.step, last.epoch, last.loss, last.elapsed_seconds, last.epoch_total) == (20, 20.0, 0.618446, 68.9314, None)
    evals = {e.name: e.value for e in got if isinstance(e, EvalResult) and e.step == 20}
    assert evals == {"validation/main/loss": 0.397801, "validation/main/accuracy": 0.895195}


def test_a_gap_mark_under_the_header_is_no_row_and_the_rows_after_it_are_read() -> None:
    # composed: a person's "..." between the header and the last epochs' rows
    lines = ["epoch       main/loss   validation/main/loss  main/accuracy  validation/main/accuracy  elapsed_time",
             "...",
             "41          0.2501      0.2602                0.91           0.905                     82.5",
             "42          0.2499      0.2598                0.9105         0.9052                    84.5"]
    assert detect(lines) == "chainer"
    got = events(lines)
    steps = [e for e in got if isinstance(e, TrainStep)]
    assert [(s.step, s.epoch, s.loss, s.elapsed_seconds) for s in steps] == [(41, 41.0, 0.2501, 82.5),
                                                                             (42, 42.0, 0.2499, 84.5)]
    assert {e.name: e.value for e in got if isinstance(e, EvalResult) and e.step == 42} == {
        "validation/main/loss": 0.2598, "validation/main/accuracy": 0.9052}


def test_a_header_of_plain_words_alone_is_no_report() -> None:
    # no name a reporter's observation carries: any script's table, not Chainer's
    header = "epoch       loss        accuracy    elapsed_time"
    assert [e for e in events([header, "3           0.5123      0.9         300.5"]) if isinstance(e, TrainStep)] == []
