"""A log that opens inside a traceback: the crash class behind any per-line prefix, with no header line.

A paste of a crash often starts at the frames a person thought worth copying, each behind the launcher's or Ray's
prefix (``[rank0]:``, ``(TaskRunner pid=N)``), maybe inside a frame (its source line first), and is cut before the
error line. Nothing read before the first frame says the error was caught, and the log is that report: a crash, said
as the traceback without its error line, by its last frame. A headerless traceback after other lines (a step, a line
that says it retries) is still no crash when cut short: what came before it is unknown.
"""

from __future__ import annotations

import pytest

from app.ingest.formats.crash import CrashWatch
from app.stats.events import RunCrashed
from tests.reallogs import body


def crashes(lines: list[str]) -> list[str]:
    watch = CrashWatch()
    found = [e.error for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    return found + [e.error for e in watch.cut_traceback() if isinstance(e, RunCrashed)]


CUT = "a traceback without its error line; last frame: "
# Composed: the last frames of a Trainer's crash, their source and caret lines, the error line not printed yet.
FRAMES = [
    '  File "/venv/lib/python3.11/site-packages/transformers/trainer.py", line 3740, in training_step',
    "    loss = self.compute_loss(model, inputs)",
    "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    '  File "/venv/lib/python3.11/site-packages/torch/nn/functional.py", line 3504, in cross_entropy',
    "    return torch._C._nn.cross_entropy_loss(",
]
LAST = 'File "/venv/lib/python3.11/site-packages/torch/nn/functional.py", line 3504, in cross_entropy'


@pytest.mark.parametrize(
    "prefix",
    ["", "[rank0]: ", "[rank0]:", "[default3]:", "(TaskRunner pid=4237) ", "(WorkerDict pid=26234, ip=10.0.0.2) "],
)
def test_a_log_that_opens_inside_a_traceback_cut_before_its_error_line_crashed(prefix: str) -> None:
    assert crashes([prefix + line for line in FRAMES]) == [CUT + LAST]
    # cut inside a frame: its source line first
    assert crashes([prefix + line for line in FRAMES[1:]]) == [CUT + LAST]
    # a blank line before it says nothing
    assert crashes(["", *(prefix + line for line in FRAMES)]) == [CUT + LAST]


def test_the_error_line_when_read_is_the_crash() -> None:
    lines = [*("[rank0]: " + line for line in FRAMES), "[rank0]:             ^^^^^^^^^^^^^^",
             "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"]
    assert crashes(lines) == ["torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"]


@pytest.mark.parametrize(
    "before",
    [
        "step 120 | loss 2.3141 | lr 3.0e-04",  # a run's line: the header may have been a caught error's
        "Failed to fetch the batch, retrying ...",  # the program says it goes on
        "some words a person wrote above the paste",
    ],
)
def test_a_headerless_traceback_after_other_lines_cut_short_is_no_crash(before: str) -> None:
    assert crashes([before, *FRAMES]) == []


def test_real_pastes_that_open_inside_a_traceback_crashed() -> None:
    verl = body("crash-verl-intuitor-ray-taskrunner-prefixed-frames-paste-cut-mid-frame-no-header-no-error-line.log")
    assert crashes(verl) == [
        CUT + 'File "/root/Intuitor/verl-intuitor/verl/workers/fsdp_workers.py", line 488, in _build_rollout']
    rank2 = body("crash-videoscore2-issue6-rank2-prefixed-frames-no-header-cut-before-error-line.log")
    assert crashes(rank2) == [
        CUT + 'File "/data/miniconda3/envs/video_r1/lib/python3.11/site-packages/deepspeed/utils/nvtx.py", line 18, in'
        " wrapped_fn"]


def window(lines: list[str]) -> list[str]:
    """The crashes read from lines that begin inside the log (a backlog's window of its newest lines)."""
    watch = CrashWatch()
    watch.begin_inside()
    found = [e.error for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    return found + [e.error for e in watch.cut_traceback() if isinstance(e, RunCrashed)]


CAUGHT_ERROR = "OSError: [Errno 28] No space left on device"
STEP = "step 121 | loss 2.3098 | lr 3.0e-04"


@pytest.mark.parametrize("start", [0, 1, 2])
def test_a_window_that_opens_inside_a_traceback_does_not_know_it_was_uncaught(start: int) -> None:
    # What came before it is not read: the record that said the error was caught (``… retrying``) may be there. Its frames
    # (from the first, inside one, from its second), its error line and the steps after it: no crash, no restart after one.
    assert window([*FRAMES[start:], CAUGHT_ERROR, STEP]) == []
    assert window(["Traceback (most recent call last):", *FRAMES, CAUGHT_ERROR]) == []  # its header the window's first line
    # … the same lines from the log's first line are a paste of a crash, its error line read
    assert crashes([*FRAMES[start:], CAUGHT_ERROR]) == [CAUGHT_ERROR]


def test_a_window_s_traceback_from_the_program_s_top_is_uncaught() -> None:
    top = '  File "/work/train.py", line 12, in <module>'
    assert window(["Traceback (most recent call last):", top, *FRAMES, CAUGHT_ERROR]) == [CAUGHT_ERROR]
    assert window([top, *FRAMES, CAUGHT_ERROR]) == [CAUGHT_ERROR]


def test_a_window_s_traceback_after_lines_read_is_judged_by_them() -> None:
    # a step line then a traceback with its header: Python's report of an uncaught error, as anywhere in a log
    assert window([STEP, "Traceback (most recent call last):", *FRAMES, CAUGHT_ERROR]) == [CAUGHT_ERROR]
    # a record that says the program goes on: caught
    assert window(["WARNING failed to save, retrying", "Traceback (most recent call last):", *FRAMES, CAUGHT_ERROR]) == []
