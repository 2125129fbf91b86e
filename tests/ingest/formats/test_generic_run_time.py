"""A whole run's time printed as it ended: a duration beside a run-level word (app/ingest/formats/run_time.py).

The PyTorch transfer-learning tutorial's ``Training complete in 24m 31s`` (and its copies naming a model: ``Training
resnet-50 complete in 212m 9s``), ``Total training time: 0:10:28.642483``, ``Training time 5:16:14``, ``Training took
123.4 seconds``: the run's end, said in those words, and its whole time, kept as the figure ``run_seconds`` and shown as
printed where no step's or epoch's time is; never a step's or an epoch's time. Its mean over the epochs (or steps) the
run covered is shown only where the log shows them from the first, labelled as derived from the printed total. A line
that names an epoch (``Epoch 3 complete in 1m 2s``, MAE's ``Epoch: [251] Total time: 0:00:52``) is no run's time, and a
step after a run's time says it was not the run's end.

Real: costalferz/Leaf-Disease-Classification-Augment's README (the tutorial's prints), facebookresearch/AudioMAE's README
(``Training time 5:16:14``), tx2dl's detectron2 log (``Total training time: 0:06:14 (0:00:01 on hooks)``), Lightning-AI/
litgpt issue 1110 (``Training time: 583.36s``), n-waves/multifit's fastai log (``Total time: 7:54:45``) (tests/data/real,
their headers). Composed: lines whose reading is worked out by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats.run_time import run_seconds
from tests.coldread import read_cold

REAL = Path(__file__).resolve().parents[2] / "data" / "real"


@pytest.mark.parametrize(("line", "seconds"), [
    ("Training complete in 24m 31s", 24 * 60 + 31),
    ("Training resnet-50 complete in 212m 9s", 212 * 60 + 9),
    ("Total training time: 1:23:45", 3600 + 23 * 60 + 45),
    ("Total training Time: 0:10:28.642483", 10 * 60 + 28.642483),
    ("Total training time: 1 day, 2:03:04", 86400 + 2 * 3600 + 3 * 60 + 4),
    ("Training took 123.4 seconds", 123.4),
    ("Finished training in 2h 3m", 2 * 3600 + 3 * 60),
    ("training time: 94.78s", 94.78),
    ("Training complete in 2.3 minutes", 2.3 * 60),
    ("Training complete in 217,540.703 seconds", 217540.703),
    ("Total training time: 14.35m", 14.35 * 60),
    ("[01/29 06:25:28 d2.engine.hooks]: Total training time: 0:11:21 (0:00:02 on hooks)", 11 * 60 + 21),
    ("⏱️  Total training time: 0:09:15", 9 * 60 + 15),
    # an epoch's, a step's, a time without its unit, a bare elapsed clock (printed after every epoch by many scripts):
    # no run's time
    ("Epoch 3 complete in 1m 2s", None),
    ("Training epoch 3 complete in 1m", None),
    ("epoch time: 23.24s", None),
    ("Epoch: [251] Total time: 0:00:52 (0.1545 s / it)", None),
    ("Training step time 3s", None),
    ("Total Time: 94.78", None),
    ("Elapsed time: 5s", None),
    ("Training complete.", None),
])  # fmt: skip
def test_the_run_s_printed_time(line: str, seconds: float | None) -> None:
    took = run_seconds(line)
    assert took == pytest.approx(seconds) if seconds is not None else took is None


def _run_seconds(data: dict[str, Any]) -> float | None:
    return (data["training"]["figures"] or {}).get("run_seconds")


def _no_rate(data: dict[str, Any]) -> str:
    return next(line for line in data["details"] if line.startswith("no rate:"))


_TUTORIAL = ["Epoch {e}/{last}", "----------", "train Loss: 0.{l}000 Acc: 0.5000", "val Loss: 0.{l}500 Acc: 0.6000", ""]


def _tutorial(epochs: range, last: int) -> list[str]:
    return [row.format(e=e, last=last, l=9 - e) for e in epochs for row in _TUTORIAL]


def test_the_run_s_time_and_its_mean_over_the_epochs_the_log_shows(tmp_path: Path) -> None:
    # composed: epochs 1-3 of 3, then ``Training complete in 9m 30s``: the run took 570 s, 570 / 3 = 190 s = 3.17 min an
    # epoch, derived and said so; the line is the run's end
    data = read_cold(tmp_path, [*_tutorial(range(1, 4), 3), "Training complete in 9m 30s", "Best val Acc: 0.600000"])
    assert (data["status_line"], _run_seconds(data)) == ("done · epoch 3/3", 570.0)
    assert _no_rate(data) == ("no rate: only the whole run's time printed (9 min 30 s, as printed; ≈3.17 min an epoch "
                              "over its 3, from the printed total), no epoch's, for its 3 epoch lines")
    assert "Finished: Training complete in 9m 30s" in data["details"]


def test_epochs_counted_from_zero_are_one_more(tmp_path: Path) -> None:
    # composed: the tutorial's own count, ``Epoch 0/2`` to ``Epoch 2/2`` (3 epochs), then 9m 30s: 570 / 3 = 190 s again
    data = read_cold(tmp_path, [*_tutorial(range(3), 2), "Training complete in 9m 30s"])
    assert "≈3.17 min an epoch over its 3, from the printed total" in _no_rate(data)


def test_no_mean_where_the_log_begins_mid_run(tmp_path: Path) -> None:
    # composed: epochs 5-7 of 7 only (the first four not in the log), then the run's 9m 30s: shown, no mean an epoch
    data = read_cold(tmp_path, [*_tutorial(range(5, 8), 7), "Training complete in 9m 30s"])
    assert _run_seconds(data) == 570.0
    assert "(9 min 30 s, as printed)" in _no_rate(data) and "≈" not in _no_rate(data)


def test_a_step_after_it_says_it_was_not_the_run_s_end(tmp_path: Path) -> None:
    # composed: a run time printed after epoch 1, then epoch 2's lines: the time was no run's end; nor is an epoch's own
    # ``Epoch 2 complete in 1m 2s`` a run's time
    lines = [*_tutorial(range(1, 2), 3), "Total training time: 0:03:10", *_tutorial(range(2, 3), 3),
             "Epoch 2 complete in 1m 2s"]
    data = read_cold(tmp_path, lines)
    assert data["training"]["step"] == 2 and _run_seconds(data) is None and data["state"] != "done"


@pytest.mark.parametrize(("name", "seconds"), [
    # the tutorial's ``Training complete in 2m 43s`` after ``Epoch 74/74``: 163 s, the excerpt begun at epoch 73, no mean
    ("generic-transfer-learning-tutorial-costalferz-leaf-disease-readme-epochs-73-74-of-74-training-complete-in-2m-43s.log",
     2 * 60 + 43),
    # MAE's ``Training time 5:16:14`` behind misc.py's clock: 5 × 3600 + 16 × 60 + 14
    ("generic-metriclogger-audiomae-readme-epoch99-780-of-781-test-map-then-bracketed-clock-training-time-done.log",
     5 * 3600 + 16 * 60 + 14),
    # detectron2's ``Total training time: 0:06:14 (0:00:01 on hooks)`` behind its logger's prefix
    ("detectron2-tx2dl-r50-fpn-log-done-299-overall-training-speed.log", 6 * 60 + 14),
    # litgpt's ``Training time: 583.36s``
    ("generic-litgpt-issue1110-lora-finished.log", 583.36),
])  # fmt: skip
def test_real_runs_times(tmp_path: Path, name: str, seconds: float) -> None:
    lines = (REAL / name).read_text(encoding="utf-8").splitlines()
    data = read_cold(tmp_path, lines, name=name)
    assert data["state"] == "done" and _run_seconds(data) == pytest.approx(seconds)
    said = [line for line in data["details"] if "whole run's time" in line]
    assert all("≈" not in line for line in said)  # (none of them shows its run from its first step or epoch)
