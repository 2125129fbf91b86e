"""An exception's line glued to the end of a progress bar, and Ray's reports of a remote task's error.

A process that dies while a tqdm bar is drawn writes its error on the bar's line: the bar never got its newline
(``…5.00/5.00 [11:53<00:00, 4.64s/it]ray.exceptions.RayTaskError(IndexError): ray::Runner.run() …``). Ray's driver
raises a remote task's error wrapped in its own (``ray.exceptions.RayTaskError(XxxError): ray::Actor.method() (pid=…)``),
the task's traceback under it. The lines here are composed in those shapes; the expected crash is worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.crash import CrashWatch
from app.stats.events import RunCrashed
from tests.coldread import read_cold

BAR = "Epoch 1:  50%|█████     | 5/10 [00:03<00:03,  1.9it/s, loss=0.4]"
POLICY_BAR = "(pid=4242) Update policy 2: 100%|██████████| 5.00/5.00 [00:12<00:00]"
RAY_LINE = "ray.exceptions.RayTaskError(IndexError): ray::Runner.run() (pid=1607, ip=10.0.0.2)"


def crashes(lines: list[str]) -> list[str]:
    watch = CrashWatch()
    found = [e.error for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    found.extend(e.error for e in watch.cut_traceback() if isinstance(e, RunCrashed))
    return found


@pytest.mark.parametrize(("lines", "expected"), [
    # after the rate's bracket, its postfix and all
    ([BAR + "ValueError: bad batch"], "ValueError: bad batch"),
    # after a bar whose rate is not printed, behind Ray's process prefix
    ([POLICY_BAR + RAY_LINE], RAY_LINE),
    # after a carriage return that ends a bar cut before its bracket
    (["Epoch 1:  50%|#####     | 5/10 [00:03<00:03,  1.9it/s\rKeyError: 'labels'"], "KeyError: 'labels'"),
    # inside a traceback already under way: its error line, not a cut traceback
    (["Traceback (most recent call last):", '  File "train.py", line 9, in <module>', "    main()",
      "  3%|▎         | 3/100 [00:01<00:30,  3.20it/s]RuntimeError: boom"], "RuntimeError: boom"),
])  # fmt: skip
def test_an_exception_line_glued_after_a_bar_is_the_crash(lines: list[str], expected: str) -> None:
    assert crashes(lines) == [expected]


@pytest.mark.parametrize("lines", [
    [BAR + "UserWarning: the dataloader has few workers"],  # a warning, no error
    [BAR + "ValueError: bad sample, skipping batch"],  # the program says it goes on
    ["[worker 3] ready]ValueError: no bar before it"],  # a bracket that ends no bar
    ["loading shards\rValueError: no bar before it"],  # a carriage return after no bar
    ["ValueError: printed alone, no traceback, no bar"],  # as before: an exception line alone says nothing
])  # fmt: skip
def test_what_is_no_glued_exception_is_no_crash(lines: list[str]) -> None:
    assert crashes(lines) == []


def test_ray_s_error_line_is_the_crash_until_the_task_s_own_line_says_more() -> None:
    """The driver's traceback ends in Ray's line; the remote task's frames follow, then its own exception line (Ray
    hides the frames of a plain task: the task's line right under Ray's)."""
    head = ["Traceback (most recent call last):", '  File "main.py", line 80, in run', "    ray.get(runner.run.remote())",
            RAY_LINE]
    frames = ['  File "trainer.py", line 607, in fit', "    old = self.wg.compute_log_probs(batch)"]
    assert crashes(head) == [RAY_LINE]
    assert crashes(head + frames) == [RAY_LINE]  # (cut inside the task's traceback: Ray's line is its error)
    assert crashes([*head, *frames, "IndexError: list index out of range"])[-1] == "IndexError: list index out of range"
    assert crashes([*head, "IndexError: list index out of range"])[-1] == "IndexError: list index out of range"
    nested = "ray.exceptions.RayTaskError(IndexError): ray::WorkerDict.compute_log_probs() (pid=1702, ip=10.0.0.2)"
    assert crashes([*head, *frames, nested, '  File "worker.py", line 432, in func'])[-1] == nested


@pytest.mark.parametrize(("line", "expected"), [
    ("ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.",
     "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task."),
    ("(TaskRunner pid=2323) " + RAY_LINE, RAY_LINE),
    ("(WorkerDict pid=3311) *** SIGSEGV received at time=1716000000 on cpu 12 ***",
     "*** SIGSEGV received at time=1716000000 on cpu 12 ***"),
])  # fmt: skip
def test_ray_s_error_forms_alone_are_a_crash(line: str, expected: str) -> None:
    assert crashes([line]) == [expected]


def test_ray_s_error_in_a_traceback_a_logger_caught_is_no_crash() -> None:
    """Ray Tune logs a trial's failure and goes on with the other trials."""
    lines = ["2024-02-14 00:18:05,398\tERROR tune_controller.py:1374 -- Trial task failed for trial Train_00000",
             "Traceback (most recent call last):",
             '  File "ray/_private/worker.py", line 2624, in get', "    raise value.as_instanceof_cause()",
             "ray.exceptions.RayTaskError(AttributeError): ray::Train.train() (pid=35968, ip=127.0.0.1)",
             '  File "train.py", line 12, in step', "    self.model.fit()",
             "AttributeError: 'NoneType' object has no attribute 'fit'"]
    assert crashes(lines) == []


def test_a_training_bar_with_an_error_glued_reads_crashed_at_the_bar_s_step(tmp_path: Path) -> None:
    # The bar: epoch 1, batch 5 of 10, loss 0.4; the error glued to it ends the run there.
    data = read_cold(tmp_path, ["Epoch 1:  40%|████      | 4/10 [00:02<00:03,  1.9it/s, loss=0.5]",
                                BAR + "ValueError: bad batch"])
    assert (data["status_line"], data["state"]) == ("epoch 1 · 5/10 in the epoch · crashed", "crashed")
    assert data["training"]["loss"] == 0.4
    assert data["training"]["crash"]["error"] == "ValueError: bad batch"


def test_a_bar_that_is_no_training_step_with_ray_s_error_glued_reads_crashed_without_a_step(tmp_path: Path) -> None:
    # An RL trainer's policy-update bar (5 updates of step 2's batch) is no training step: no step, no loss, crashed.
    data = read_cold(tmp_path, [POLICY_BAR + RAY_LINE, '  File "main.py", line 94, in run', "    trainer.fit()"])
    assert (data["status_line"], data["state"]) == ("no step yet · crashed", "crashed")
    assert data["training"]["step"] is None
    assert data["training"]["crash"]["error"] == RAY_LINE
