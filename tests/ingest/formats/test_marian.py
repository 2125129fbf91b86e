"""Marian NMT's display lines (a step every --disp-freq updates) and its [valid] lines (an evaluation at an update).

Real logs (tests/data/real/marian-*.log, each citing its source) and composed lines worked out by hand.
"""

from __future__ import annotations

import pytest

from app.ingest.formats import create_parser, detect
from app.stats.events import EvalResult, StageEnd, TrainStep
from tests.reallogs import body

V112 = "marian-marian-issue424-valid-stalled-update-5300-displays-5350-5400-gnorm-lr.log"
V17 = "marian-marian-dev-issue480-displays-576000-to-580000-lr-valid-translation-ce-stalled.log"


def events(lines: list[str]) -> list[object]:
    return [e for e in create_parser("marian").feed(lines) if type(e).__name__ != "Tick"]


def test_real_v1_12_display_lines_with_their_labels_gnorm_and_a_new_data_epoch() -> None:
    lines = body(V112)
    assert detect(lines) == "marian"
    got = events(lines)
    steps = [e for e in got if isinstance(e, TrainStep)]
    assert [(s.step, s.epoch, s.loss, s.grad_norm, s.lr, s.tokens_per_second) for s in steps] == [
        (5350, 3.0, 0.68636936, 0.89, 2.5e-06, 27242.83), (5400, 4.0, 0.69162977, 0.7633, 2.5e-06, 31317.39)]
    # the first display's Time is over updates no line before it says; the second's over 5400 - 5350 = 50 updates
    assert steps[0].step_seconds is None
    assert steps[1].step_seconds == pytest.approx(28.43 / 50)
    evals = {e.name: (e.value, e.step) for e in got if isinstance(e, EvalResult)}
    assert evals == {"valid/ce-mean-words": (0.813648, 5300), "valid/chrf": (66.2634, 5300),
                     "valid/bleu-detok": (41.2837, 5300)}
    # the checkpoint's saves say no more than a save (the end only if no step came after them in time)
    assert all(e.saved for e in got if isinstance(e, StageEnd))
    # each record is dated by Marian's own [date time]: 2025-01-27 14:01:36 (the log's zone) for update 5400
    assert steps[1].at is not None and steps[1].at - steps[0].at == 29.0


def test_real_v1_7_display_lines_without_gnorm_and_validations_before_and_after() -> None:
    lines = body(V17)
    assert detect(lines) == "marian"
    got = events(lines)
    steps = [e for e in got if isinstance(e, TrainStep)]
    assert [s.step for s in steps] == [576000, 577000, 578000, 579000, 580000]
    last = steps[-1]
    assert (last.epoch, last.loss, last.lr, last.grad_norm, last.tokens_per_second) == (2.0, 2.76903915, 4.9827e-05,
                                                                                        None, 28435.33)
    assert last.step_seconds == pytest.approx(338.60 / 1000)
    assert [(e.name, e.value, e.step) for e in got if isinstance(e, EvalResult)] == [
        ("valid/translation", 32.19, 575000), ("valid/ce-mean-words", 1.5692, 580000)]


def test_composed_lines_pasted_without_their_dates_and_behind_a_node_tag() -> None:
    # composed: a pasted log's lines with no time keep their [valid] tag; several nodes' lines carry mpi:N in the bracket
    lines = ["Ep. 1 : Up. 500 : Sen. 64,000 : Cost 5.12000000 : Time 60.00s : 20000.00 words/s",
             "[valid] Ep. 1 : Up. 500 : perplexity : 120.5 : new best",
             ("[2022-05-01 14:54:07 mpi:0] Ep. 1.5 : Up. 1000 : Sen. 128,000 : Cost 4.50000000 : Time 50.00s : "
              "24000.00 words/s : gNorm 1.2500 : L.r. 3.0000e-04")]
    assert detect(lines) == "marian"
    got = events(lines)
    steps = [e for e in got if isinstance(e, TrainStep)]
    assert [(s.step, s.epoch, s.loss, s.lr, s.grad_norm) for s in steps] == [(500, 1.0, 5.12, None, None),
                                                                            (1000, 1.5, 4.5, 3e-04, 1.25)]
    assert steps[0].at is None and steps[1].at is not None
    assert steps[1].step_seconds == pytest.approx(50.0 / 500)  # 50 s over the 1000 - 500 updates since
    assert [(e.name, e.value, e.step) for e in got if isinstance(e, EvalResult)] == [("valid/perplexity", 120.5, 500)]


@pytest.mark.parametrize("said", ["Training finished", "Training finshed"])
def test_its_closing_line_ends_the_run(said: str) -> None:
    # composed: Marian's closing line, spelled "finshed" by its first versions (src/training/training.h)
    got = events(["[2017-02-12 11:24:30] Ep. 1 : Up. 400 : Sen. 51200 : Cost 192.55 : Time 33.76s : 9576.24 words/s",
                  f"[2017-02-12 11:24:31] {said}"])
    (end,) = [e for e in got if isinstance(e, StageEnd)]
    assert end.summary == said and not end.saved


def test_a_sentence_that_names_an_update_is_no_line_of_marian() -> None:
    assert events(["Ep. 1 : Up. 500 : the run is going well", "[valid] Ep. 1 : Up. 500 : bleu : pending"]) == []
