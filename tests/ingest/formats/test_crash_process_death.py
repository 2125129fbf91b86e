"""A run's process reported dead without a Python traceback of its own: Ray's word that a worker or an actor died, and
torch's CUDA error pasted without its frames.

Real excerpts (tests/data/real/, each citing its source): verl-project/verl#4921 and ray-project/ray#47461 (the raylet's
``A worker died or was killed while executing a task``), Unakar/Logic-RL#18 (``The actor is dead because its worker
process has died``), open-mmlab/mmdetection#11265 and huanngzh/ComfyUI-MVAdapter#52 (``CUDA error: …`` alone). The
composed lines below follow Ray's own messages (ray/_private/worker.py, src/ray/raylet), their answers worked out by
hand: a crash only while no training step follows it (Ray may run the task again, or restart the actor).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import detect
from app.ingest.formats.crash import CrashWatch
from app.stats.events import RunCrashed
from tests.coldread import T0, read_cold
from tests.reallogs import body

RAYLET = ("(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot"
          " the problem, check the logs for the dead worker. RayTask ID: ffffffffffffffffd64cd47551eaad41428b1a6802000000"
          " Worker exit type: SYSTEM_ERROR")

RAY1 = "A worker died or was killed while executing task e36ba8830369ffffffff01000000."
UNRECOVERABLE = ("A worker died or was killed while executing a task by an unexpected system error. Worker exit detail:"
                 " The leased worker has unrecoverable failure.")
MEMORY = ("1 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at"
          " node (ID: 1f2, IP: 10.0.0.1)")
WORKER_CRASHED = ("The worker died unexpectedly while executing this task. Check python-core-worker-*.log files for"
                  " more information.")


def crashes(lines: list[str]) -> list[RunCrashed]:
    watch = CrashWatch()
    return [e for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]


@pytest.mark.parametrize(
    ("line", "error", "killed"),
    [
        (RAYLET, RAYLET[len("(raylet) "):], False),
        # Ray 1's driver logs the death as a warning: it ends the run all the same
        (f"2019-11-15 13:44:10,711 WARNING worker.py:1037 -- {RAY1}", RAY1, False),
        # Ray 2's words for it can say the failure is beyond repair: no handler's "recover"
        (f"2023-10-09 23:04:29,519\tWARNING worker.py:2058 -- {UNRECOVERABLE}", UNRECOVERABLE, False),
        # the memory monitor's kill: the OOM killer's, from outside
        (f"(raylet) [2024-01-01 10:00:00,000 E 1234 1234] (raylet) node_manager.cc:3007: {MEMORY}", MEMORY, True),
        # an actor's and a task's worker's end, behind a Ray process prefix
        ("(TaskRunner pid=4237) The actor died unexpectedly before finishing this task.",
         "The actor died unexpectedly before finishing this task.", False),
        (WORKER_CRASHED, WORKER_CRASHED, False),
        # Ray 2.8's name for an actor's death, its exception line alone: said with its name
        ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.",
         "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.", False),
        ("ray.exceptions.WorkerCrashedError: The worker died unexpectedly while executing this task.",
         "ray.exceptions.WorkerCrashedError: The worker died unexpectedly while executing this task.", False),
        # torch's CUDA error without its frames
        ("RuntimeError: CUDA error: an illegal instruction was encountered",
         "RuntimeError: CUDA error: an illegal instruction was encountered", False),
        ("[rank1]: RuntimeError: CUDA error: unspecified launch failure",
         "RuntimeError: CUDA error: unspecified launch failure", False),
    ],
)
def test_a_process_reported_dead_is_a_crash(line: str, error: str, killed: bool) -> None:
    found = crashes([line])
    assert [(c.error, c.killed, c.stopped) for c in found] == [(error, killed, None)]


@pytest.mark.parametrize(
    "line",
    [
        "[W CUDAGuardImpl.h:119] Warning: CUDA warning: an illegal memory access was encountered (function destroyEvent)",
        "The actor is alive and its worker process is healthy.",
        "Worker 3 died in the game; respawning",  # no Ray words
    ],
)
def test_what_is_no_process_death(line: str) -> None:
    assert crashes([line]) == []


def test_ray_s_error_line_then_its_death_report_is_one_crash_said_by_the_error() -> None:
    # ActorDiedError's message: its exception line, the actor's fields, then why it died (the same death)
    lines = ["ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.",
             "\tclass_name: WorkerDict", "\tactor_id: 11af29bb9fed89a5977131d901000000",
             "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR"]
    assert [c.error for c in crashes(lines)] == [lines[0]]


STEPS = ["step 10 | loss 2.3141 | lr 3.0e-04", "step 20 | loss 2.2974 | lr 3.0e-04"]


def test_a_worker_death_with_no_step_after_it_ends_the_run(tmp_path: Path) -> None:
    data = read_cold(tmp_path, [*STEPS, RAYLET])
    assert (data["status_line"], data["state"]) == ("step 20 · crashed", "crashed")
    assert data["training"]["crash"]["error"] == RAYLET[len("(raylet) "):]


def test_a_worker_ray_ran_again_is_alive_at_the_next_step(tmp_path: Path) -> None:
    # Ray retried the task (or restarted the actor): step 30 after the report says the run goes on
    data = read_cold(tmp_path, [*STEPS, RAYLET, "step 30 | loss 2.2810 | lr 3.0e-04"])
    assert data["state"] != "crashed" and data["training"]["crash"] is None
    assert data["training"]["step"] == 30


@pytest.mark.parametrize(
    "name",
    ["crash-verl-issue4921-raylet-worker-died-system-error-no-step-lines.log",
     "crash-ray-issue47461-raylet-worker-died-then-torchtrainer-worker-0-failed.log",
     "crash-logic-rl-issue18-actor-dead-worker-process-died-system-error.log",
     "crash-mmdetection-issue11265-cuda-error-unspecified-launch-failure-no-frames.log",
     "crash-comfyui-mvadapter-issue52-cuda-error-misaligned-address-no-frames.log"],
)
def test_a_real_report_of_a_dead_process_alone_is_read_as_a_crash(tmp_path: Path, name: str) -> None:
    lines = body(name)
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, name=name)
    assert (data["status_line"], data["state"]) == ("no step yet · crashed", "crashed")
    assert data["training"]["crash"]["at"] == T0
