"""The end of a run read from a tail that holds only the end, and logs of validation lines alone."""

from __future__ import annotations

from app.ingest.formats import detect
from app.live.monitor import Monitor
from tests.reallogs import body

NOW = 1_800_000_000.0

# nanochat base_train's end, in its templates (scripts/base_train.py: ``Step {step:05d} | …``,
# ``Peak memory usage: {:.2f}MiB``, ``Total training time: {:.2f}m``, ``Minimum validation bpb: {:.6f}``).
END_SUMMARY = [
    "Step 16704 | Validation bpb: 0.725103",
    "Step 16704 | CORE metric: 0.2219",
    "Peak memory usage: 52311.47MiB",
    "Total training time: 97.21m",
    "Minimum validation bpb: 0.725103",
]


def read(lines: list[str]) -> Monitor:
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.lines(lines)
    return monitor


def test_a_tail_of_the_end_summary_alone_reads_done_with_its_figures() -> None:
    snapshot = read(END_SUMMARY).snapshot(NOW + 3600)
    assert (snapshot.state, snapshot.status_line) == ("done", "done · step 16704")
    assert snapshot.training is not None
    assert snapshot.training["eval"] == {"val_bpb": {"value": 0.725103, "step": 16704},
                                         "core": {"value": 0.2219, "step": 16704},
                                         "min_val_bpb": {"value": 0.725103, "step": 16704}}
    assert "Finished: Total training time: 97.21m" in snapshot.details


def test_validation_lines_alone_say_so() -> None:
    snapshot = read(["Step 05250 | Validation bpb: 0.731544", "Step 05500 | Validation bpb: 0.726118"]).snapshot(NOW)
    assert snapshot.status_line == "validation only · step 5500"
    assert snapshot.details[0] == "Only validation lines so far, no training step: val_bpb 0.7261"
    assert snapshot.training is not None
    assert snapshot.training["eval"] == {"val_bpb": {"value": 0.726118, "step": 5500}}


def test_indentation_is_no_reason_to_read_a_log_differently() -> None:
    """A README or a Markdown quote indents every line: the same format, the same steps."""
    for name in ("torchtitan-pr1287-rank0-every-10.log", "sn38-readme-could-not-find-a-group.log",
                 "llmc-issue796-mfu-unknown-gpu.log", "hivemind-albert-readme-monitor.log", "nanochat-pr147-a100.log"):
        lines = body(name)
        indented = ["      " + line for line in lines]
        assert detect(indented) == detect(lines), name
        plain, quoted = read(lines).snapshot(NOW), read(indented).snapshot(NOW)
        assert quoted.step == plain.step and quoted.step is not None, name
