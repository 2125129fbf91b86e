"""Logs that hold an evaluation's report and no training line: read as that evaluation, with its figures.

Real reports (tests/data/real/eval-deepspeech-*.log, each citing its source) and composed lines whose
figures are worked out by hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.stats.events import EvalResult, TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body

DS_1425 = "eval-deepspeech-issue1425-indented-code-command-then-w-and-i-lines-test-of-epoch-77263-wer-loss-samples.log"
DS_1643 = "eval-deepspeech-issue1643-backticked-i-test-of-epoch-7593-wer-loss-mean-edit-distance-samples.log"


def evaluations(lines: list[str]) -> dict[str, float | None]:
    events = create_parser("generic").feed(lines)
    assert not [e for e in events if isinstance(e, TrainStep)]
    return {e.name: e.value for e in events if isinstance(e, EvalResult)}


@pytest.mark.parametrize(
    "line",
    [
        "Test of Epoch 3 - WER: 0.500000, loss: 40.5, mean edit distance: 0.25",
        "I Test of Epoch 3 - WER: 0.500000, loss: 40.5, mean edit distance: 0.25",  # DeepSpeech's level letter
        "    I Test of Epoch 3 - WER: 0.500000, loss: 40.5, mean edit distance: 0.25",  # … indented as a code block
        "`I Test of Epoch 3 - WER: 0.500000, loss: 40.5, mean edit distance: 0.25`",  # … in a code span
        "I1203 12:34:56.789 1234 evaluate.py:88] Test of Epoch 3 - WER: 0.500000, loss: 40.5, mean edit distance: 0.25",
    ],
)
def test_a_test_report_gives_its_loss_and_scores_and_no_position_as_a_score(line: str) -> None:
    assert evaluations([line]) == {"test_loss": 40.5, "wer": 0.5}  # (``Epoch 3`` is the report's counter)


@pytest.mark.parametrize(("name", "loss", "wer"), [(DS_1425, 60.50202560424805, 1.0), (DS_1643, 0.06935515210205888, 0.001493)])
def test_a_log_of_test_reports_alone_is_an_evaluation_with_its_figures(tmp_path: Path, name: str, loss: float,
                                                                        wer: float) -> None:
    lines = body(name)
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, name=name, at=T0)
    training = data["training"]
    assert data["state"] != "unrecognised"
    assert {key: value["value"] for key, value in training["eval"].items()} == {"test_loss": loss, "wer": wer}
    # no step, epoch, rate or time invented: the per-sample ``I WER: …, loss: …`` lines are no step either
    assert (training["step"], training["step_seconds"], training["steps_per_hour"], training["data"]) == (None,) * 4


def test_a_level_letter_is_no_word_of_a_sentence() -> None:
    assert evaluations(["I have the same problem: loss: 40.5 at the test"]) == {}
