"""An evaluation's figures printed on a line of their own after ``cur metric`` (PaddleOCR's trainer and PaddleX's models
built on it): that evaluation's, at the step just logged, under the names printed; its ``fps`` (the evaluation's images a
second) none of them, nor a ``best metric`` line (the best so far, an older epoch's).

Real: Light-Towers/noctilucent-lamp's PaddleX seal-detection notes, PaddlePaddle/PaddleOCR's docs/ppocr/model_train/kie.en.md
(tests/data/real, their headers; their snapshots in tests/live/test_real_logs.py). Composed: lines worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.classes import Kin, Named
from app.ingest.formats.metric_lines import current_metric
from tests.coldread import read_cold

# PaddleOCR's step record as its trainer prints it (tools/program.py), one every 10 steps
STEP = ("[2022/08/08 16:28:{s:02d}] ppocr INFO: epoch: [1/200], global_step: {step}, lr: 0.000018, loss: {loss}, "
        "avg_reader_cost: 0.00042 s, avg_batch_cost: 0.32037 s, avg_samples: 6.9, ips: 21.53773 samples/s, eta: 0:37:55")


@pytest.mark.parametrize(("line", "figures"), [
    # real: PaddleX 3.1.4's seal detection after its last step (Light-Towers/noctilucent-lamp)
    ("cur metric, precision: 0.9986105597459309, recall: 0.9968297998811175, hmean: 0.9977193852255826, fps: 19.991583695711522",
     [Named(Kin.EVAL, "precision", 0.9986105597459309, "precision"), Named(Kin.EVAL, "recall", 0.9968297998811175, "recall"),
      Named(Kin.EVAL, "hmean", 0.9977193852255826, "hmean")]),
    # real: PaddleOCR's KIE doc, the SER model's evaluation at step 19
    ("cur metric, precision: 0.11526348939743859, recall: 0.19776657060518732, hmean: 0.14564265817747712, fps: 34.008392345050055",
     [Named(Kin.EVAL, "precision", 0.11526348939743859, "precision"), Named(Kin.EVAL, "recall", 0.19776657060518732, "recall"),
      Named(Kin.EVAL, "hmean", 0.14564265817747712, "hmean")]),
    # composed: a recogniser's names, its word's value left out
    ("cur metric, acc: 0.8125, norm_edit_dis: 0.9531, fps: 2917.6",
     [Named(Kin.EVAL, "acc", 0.8125, "acc"), Named(Kin.EVAL, "norm edit dis", 0.9531, "norm_edit_dis")]),
    ("current metrics: acc: 0.5, is_float16: False", [Named(Kin.EVAL, "acc", 0.5, "acc")]),
    # not such a line: the best so far, a sentence, a lead with nothing after it but its pace
    ("best metric, hmean: 0.9998018624925699, is_float16: False, precision: 0.9998, best_epoch: 7", None),
    ("cur metric is better than the best, saving", None),
    ("cur metric, fps: 19.99", None),
    ("metric eval ***************", None),
])  # fmt: skip
def test_a_current_metric_line_s_figures(line: str, figures: list[Named] | None) -> None:
    assert current_metric(line) == figures


def test_the_evaluation_is_the_step_just_logged_s(tmp_path: Path) -> None:
    # composed: steps 10 and 20, the evaluation after step 20, then the best so far (an older epoch's) and step 30
    lines = [STEP.format(s=10, step=10, loss="1.5"), STEP.format(s=20, step=20, loss="1.25"),
             "[2022/08/08 16:28:25] ppocr INFO: cur metric, precision: 0.5, recall: 0.25, hmean: 0.3333, fps: 34.0",
             "[2022/08/08 16:28:26] ppocr INFO: best metric, hmean: 0.75, precision: 0.75, recall: 0.75, fps: 30.0, best_epoch: 7",
             STEP.format(s=30, step=30, loss="1.0")]
    data = read_cold(tmp_path, lines, dated=True)
    training = data["training"]
    assert (training["step"], training["loss"]) == (30, 1.0)
    assert training["eval"] == {"precision": {"value": 0.5, "step": 20}, "recall": {"value": 0.25, "step": 20},
                                "hmean": {"value": 0.3333, "step": 20}}
    assert "Eval precision 0.5 · recall 0.25 · hmean 0.3333 (step 20)" in data["details"]


def test_no_evaluation_before_a_step(tmp_path: Path) -> None:
    # composed: a resumed run's metric before its first step is no evaluation tokwatch can place
    lines = ["[2022/08/08 16:28:05] ppocr INFO: cur metric, precision: 0.5, recall: 0.25, hmean: 0.3333, fps: 34.0",
             STEP.format(s=10, step=10, loss="1.5"), STEP.format(s=20, step=20, loss="1.25"),
             STEP.format(s=30, step=30, loss="1.0")]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["training"]["step"] == 30 and data["training"]["eval"] is None
