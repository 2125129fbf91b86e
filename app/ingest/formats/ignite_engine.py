"""PyTorch-Ignite's Engine lines, as the generic step reader reads them: its runs, its epochs' times, its launcher's end.

Ignite's Engine logs each of its runs and epochs: ``Engine run starting with max_epochs=5.``, ``Epoch[2] Complete.
Time taken: 00:00:09`` (``00:00:01.491`` since 0.4.8), ``Engine run complete. Time taken: 00:01:03``. An evaluator is an
Engine too, run for one epoch inside the trainer's (its runs nest: started, ``Epoch[1] Complete``, complete).
MONAI's evaluators resume each time for the trainer's epoch alone: ``Engine run resuming from iteration 0, epoch 45 until
46 epochs``, then ``Epoch[46] Complete`` (MONAILabel's SupervisedEvaluator): a run of one epoch, an evaluator's.
Ignite's examples print each epoch's time from the engine's own timer, and its launcher says when the training function
has returned (``End of run``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .fields import NUM, number

_ENGINE_START = re.compile(r"(?:^|\s)Engine run (?:starting with max_epochs=(\d{1,9})\.?"
                           r"|resuming from iteration \d{1,12}, epoch (\d{1,9}) until (\d{1,9}) epochs)\s*$")
_ENGINE_EPOCH_DONE = re.compile(r"(?:^|\s)Epoch\[(\d{1,6})\] Complete\. Time taken: (\d{1,4}):(\d\d):(\d\d(?:\.\d{1,6})?)\s*$")
# Ignite's examples print each epoch's time from the engine's own timer (``trainer.state.times["EPOCH_COMPLETED"]``, in
# seconds): ``Epoch 1, Time Taken : 31.877371549606323`` (the time-profiling how-to guide).
_EXAMPLES_EPOCH_TIME = re.compile(rf"Epoch (\d{{1,6}}), Time Taken : ({NUM})\s*$")
_ENGINE_RUN_DONE = re.compile(r"(?:^|\s)Engine run complete\. Time taken:? (\d{1,4}):(\d\d):(\d\d(?:\.\d{1,6})?)\s*$")
# Ignite's launcher once the training function has returned: the engine run that completed right before it was the
# trainer's, an evaluator's inside it having completed before the trainer's did.
_LAUNCHER_END = re.compile(r"End of run[.!]*$")


def run_started(s: str) -> int | None:
    """The epochs an Engine run ``s`` says it starts (or resumes) for, or None where ``s`` starts none."""
    if "Engine run " not in s or (m := _ENGINE_START.search(s)) is None:
        return None
    planned, resumed, until = m.groups()
    return int(planned) if planned is not None else int(until) - int(resumed)


def run_completed(s: str) -> float | None:
    """The seconds of the Engine run ``s`` says is complete, or None where ``s`` completes none."""
    if "Engine run complete" not in s or (m := _ENGINE_RUN_DONE.search(s)) is None:
        return None
    return _time_taken(*m.group(1, 2, 3))


def epoch_completed(s: str) -> tuple[int, float] | None:
    """The epoch ``s`` says an Engine completed and its seconds (``Epoch[2] Complete. Time taken: 00:00:09``), or None."""
    if "] Complete. Time taken: " not in s or (m := _ENGINE_EPOCH_DONE.search(s)) is None:
        return None
    return int(m.group(1)), _time_taken(*m.group(2, 3, 4))


def trainers_epoch(epoch: int, runs: Sequence[int]) -> bool:
    """Whether a completed ``epoch`` is the trainer's, the Engine runs under way (``runs``, each by the epochs it was
    started for, innermost last) as they are. An evaluator's engine runs one epoch each time it is run (Ignite's own: its
    epoch 1; MONAI's resumes at the trainer's epoch), so an epoch inside a run of one epoch is an evaluator's, and an
    epoch 1 is the trainer's only inside a run started for more (``Engine run starting with max_epochs=5.``, no
    evaluator's begun since). A later epoch where the log says no run (an excerpt begun mid-run) is taken as the
    trainer's: MONAI's evaluator's own ``Epoch[45] Complete`` without its resuming line is then read until the
    trainer's, printed right after it."""
    return not (epoch < 1 or (runs and runs[-1] <= 1) or (epoch == 1 and not runs))


def examples_epoch_time(s: str) -> tuple[int, float | None] | None:
    """The epoch and its seconds (None: no number) of Ignite's examples' ``Epoch 1, Time Taken : 31.87``, or None."""
    if s[:6] != "Epoch " or ", Time Taken : " not in s or (m := _EXAMPLES_EPOCH_TIME.match(s)) is None:
        return None
    return int(m.group(1)), number(m.group(2))


def launcher_end(s: str) -> bool:
    """Whether ``s`` is Ignite's launcher's ``End of run``."""
    return s[:3] == "End" and _LAUNCHER_END.match(s) is not None


def _time_taken(hours: str, minutes: str, seconds: str) -> float:
    """An Ignite engine's ``Time taken: 00:00:01.491`` in seconds, its milliseconds kept."""
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)
