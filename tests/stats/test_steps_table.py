"""All training fields as labelled rows with units, from real step-trainer logs through the real tracker."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.live.monitor import Monitor
from app.snapshot import TrainingView, to_dict
from app.stats.steps.table import FieldRow, figure, training_table

DATA = Path(__file__).resolve().parents[1] / "data"


def rows_of(sample: str) -> list[tuple[str, str, str]]:
    from app.ingest.backwards import read_backwards

    monitor = Monitor(DATA / sample)
    try:
        monitor.backlog(read_backwards(DATA / sample))
        snapshot = to_dict(monitor.snapshot(monitor.last_event_at()))
    finally:
        monitor.stop()
    assert snapshot["history_unit"] == ("tok/h" if "nanogpt" in sample or "torchtitan" in sample else None)
    return [(row["label"], row["value"], row["unit"]) for row in snapshot["training_fields"]]


def table_of(sample: str) -> dict[str, tuple[str, str]]:
    return {label: (value, unit) for label, value, unit in rows_of(sample)}


def test_nanogpt_fields_carry_their_units() -> None:
    # sample-nanogpt.log's last line: "iter 1020: loss 3.3665, time 295.69ms, mfu 35.78%"
    rows = table_of("sample-nanogpt.log")
    assert rows["step"] == ("1020", "")
    assert rows["loss (last micro-batch)"] == ("3.3665", "")
    assert rows["MFU"] == ("35.78", "%")
    assert rows["step time"] == ("0.29569", "s")
    assert rows["eval val_loss (step 1000)"] == ("3.9947", "")


def test_torchtitan_per_gpu_throughput_and_its_own_figures() -> None:
    # sample-torchtitan.log: "tps: 7,834 … memory: 66.91GiB(37.51%) … tflops: 454.37"
    rows = rows_of("sample-torchtitan.log")
    assert ("throughput", "7834", "tok/s per GPU") in rows
    assert ("memory", "66.91", "GiB") in rows and ("memory", "37.51", "%") in rows
    assert ("tflops", "454.37", "TFLOPS") in rows


def test_sn38_all_reduce_rows() -> None:
    rows = table_of("sample-sn38.log")
    assert rows["outer step"] == ("42", "")
    assert rows["all-reduce failed"] == ("1", "")
    assert rows["last all-reduce error"] == ("peer k2P sent 0 parts, but we expected 117", "")


def test_a_miner_has_no_training_rows() -> None:
    assert training_table(None) == ()


@pytest.mark.parametrize(
    ("value", "text"),
    [(3, "3"), (3.0, "3"), (0.12916803359985352, "0.129168"), (4.266666666666666e-05, "4.26667e-05"), (True, "yes")],
)
def test_figures_keep_six_significant_digits(value: object, text: str) -> None:
    assert figure(value) == text


def test_durations_read_as_durations() -> None:
    rows = training_table(TrainingView(eta_seconds=7500.0, trainer_eta_seconds=None))
    assert rows == (FieldRow("time left (tokwatch)", "2 h 05 min", ""), FieldRow("stalled", "no", ""),
                    FieldRow("finished", "no", ""), FieldRow("logged steps", "no", ""))


def test_a_collaboration_reads_as_rows_not_as_a_python_dict() -> None:
    # The log's last progress line: "albert accumulated 4072 samples for epoch #0 from 2 peers. ETA 0.24 sec"
    rows = rows_of("real/hivemind-albert-readme-trainer.log")
    table = {label: (value, unit) for label, value, unit in rows}
    assert table["collaboration epoch"] == ("0", "")
    assert table["collaboration samples"] == ("4072", "")
    assert table["collaboration peers"] == ("2", "")
    assert table["next collaboration epoch in"] == ("0.24", "s")
    assert not [value for _, value, _ in rows if value.startswith("{")]


def test_the_trainers_errors_read_as_rows_not_as_a_python_dict() -> None:
    # Two "ERROR:hivemind.optim.optimizer:Failed to load state from peers: , retrying ..." lines.
    rows = rows_of("real/hivemind-issue653-load-state-timeout-retrying.log")
    table = {label: (value, unit) for label, value, unit in rows}
    assert table["trainer errors"] == ("2", "")
    assert table["last trainer error"] == ("Failed to load state from peers: , retrying ...", "")
    assert not [value for _, value, _ in rows if value.startswith("{")]
