"""A run TensorFlow stopped on a NaN loss (crash.py): ``Model diverged with loss = NaN.`` is its crash, and the
traceback cut after it is the same news.

A real log (tests/data/real/, citing its source) and real lines quoted inline (cited).
"""

from __future__ import annotations

from pathlib import Path

from app.ingest.formats import detect
from app.ingest.formats.crash import CrashWatch
from app.stats.events import RunCrashed
from tests.coldread import read_cold
from tests.reallogs import body

DEEPLAB = "crash-mobile-deeplab-issue17-tf-estimator-model-diverged-with-loss-nan-traceback-cut.log"


def test_a_run_tensorflow_stopped_on_a_nan_loss_crashed_of_it(tmp_path: Path) -> None:
    lines = body(DEEPLAB)
    assert detect(lines) == "generic"
    snapshot = read_cold(tmp_path, lines, name=DEEPLAB)
    assert snapshot["state"] == "crashed"
    # the NaN divergence is the crash said, not the cut traceback's last frame
    assert snapshot["training"]["crash"]["error"] == "Model diverged with loss = NaN."
    # step 0's loss 1.0444846 was a number; the NaN the guard caught came after it, at a step the log did not print
    assert (snapshot["training"]["step"], snapshot["training"]["loss"]) == (0, None)
    assert snapshot["training"]["loss_note"] == "said after the last step line"
    assert "Loss not a number after step 0 (its loss 1.0445)" in snapshot["details"]


def test_glog_s_divergence_line_then_the_error_it_raised() -> None:
    # tensorflow/models issue 8549: the Object Detection API's glog lines, the divergence, then the error's own line
    watch = CrashWatch()
    lines = [
        "I0521 14:43:59.269938 140033274427136 basic_session_run_hooks.py:260] loss = 1.3336712, step = 400 (85.220 sec)",
        "E0521 14:44:30.800493 140033274427136 basic_session_run_hooks.py:760] Model diverged with loss = NaN.",
        "",
        "tensorflow.python.training.basic_session_run_hooks.NanLossDuringTrainingError: NaN loss during training.",
    ]
    crashes = [e for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    assert crashes and crashes[0].error == "Model diverged with loss = NaN."
