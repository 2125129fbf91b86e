"""Crashes and skipped steps, read the same way for every step trainer, whatever its format.

A run dies the same way whoever wrote the training loop: Python prints a traceback and its last
line (``RuntimeError: CUDA out of memory…``), the kernel or an operator kills it (``Killed``,
``Signal 9 (SIGKILL)``), the launcher reports a failed child (torchrun's ``ChildFailedError`` and
its ``exitcode``, a ``non-zero exit status``) or takes its ranks down (DeepSpeed's ``Killing
subprocess``), NCCL's watchdog aborts a collective that timed out, or the process faults
(``Segmentation fault``, ``Fatal Python error``). And fp16 runs print the same few lines when the
loss scaler skips a step (DeepSpeed's ``[deepspeed] OVERFLOW!``, apex's ``Gradient overflow.
Skipping step``). None of that depends on the trainer, so it is read here, once, and not in each
parser:

* :class:`CrashWatch` is a small stateful line classifier: a line in, the events it adds out
  (:class:`~app.stats.events.RunCrashed`, :class:`~app.stats.events.StepSkipped`). It knows
  nothing of steps or losses.
* :class:`CrashAware` wraps any step parser: every line goes to the parser and to the watch, and
  the watch's events follow the parser's events of the same line, in log order. The registry
  (``create_parser``) wraps every format of kind ``steps``, so a new step parser gets crash and
  skipped-step detection without a line of its own. The step tracker decides what they mean
  (crashed until a later training step; a broken run when skips keep coming).

What is a crash, and what is not (a monitor that cries wolf is soon ignored):

* A traceback counts when its exception line is read (chained exceptions: the last one). A
  traceback that a logger prints for an error the program caught (the line before it says it
  will retry, skip, continue or ignore it, e.g. hivemind's ``Failed to load state from peers: …,
  retrying ...``) is not a crash; neither is asyncio's ``Task exception was never retrieved``.
* One-line fatal errors (NCCL watchdog, a killed process, a fault, a failed child, a cancelled
  Slurm job) count as soon as read, also glued to the end of a progress bar or behind a rank
  prefix. A line logged at warning level, or one that says it recovers (``skipping batch``,
  ``retrying``), never counts, save a signal that ends the run: torchrun's agent logs the death
  signal it received as a warning. A crash says whether the run was ended from outside (a signal,
  the OOM killer, the scheduler: ``killed``) or by an error of its own.
* An exception's line glued after a progress bar's end (the process died before the bar's line ended, its
  traceback's header on another stream) is the crash; so is Ray's report of a remote task's error
  (``ray.exceptions.RayTaskError(IndexError): ray::…``), read on through the remote traceback under it to the
  task's own exception line.
* A crash native code reports (a failed check, a record at glog's fatal level, C++'s ``terminate called…`` and its
  ``what():``, torch_xla's ``Exception in device=TPU:2: …``, glog's signal handler) is read by native_crash.py: its first
  native error line is said, the native stack under it skipped, the shell's notice after it the same death.
* A training step printed after a crash means the run was started again: the tracker clears it.
* torch's ``Non-finite norm encountered`` warning is no crash: it reads as a grad norm that is not
  a number, for the broken-run rule.

A log of these lines alone (a launcher's output, a traceback, the fp16 scaler's records) is read
by the generic reader (detect.py), so its run reads crashed, or its overflows counted.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ...stats.events import Event, RunCrashed, StepFigures, StepRun, StepSkipped, Tick, TrainStep
from .endings import MAYBE as ENDING_MAYBE
from .endings import ending
from .fields import clean, next_plain
from .native_crash import (
    NATIVE_WORDS,
    in_stack,
    native_error,
    starts_fatal_record,
    starts_stack,
    thrown_type,
    what_message,
)
from .paste import unpasted
from .pipeline import StepLines
from .prefix import PrefixReader
from .summaries import SummaryBlock

# Tracebacks are shown by their exception line: capped, as a detail line is.
MAX_ERROR_CHARS = 240
# A traceback never runs this long; past it, the lines were something else.
MAX_TRACEBACK_LINES = 400
RERAISE_LINES = 8  # a caught error raised again starts its traceback within these lines (hooks' last words)
# After an exception line, a launcher's failure table may say more (exit code, signal).
TABLE_LINES = 30

_TRACEBACK = "Traceback (most recent call last):"
# rich's traceback (``rich.traceback.install()``, as accelerate's and typer's users see it): a box whose top border
# is the header, ``╭──── Traceback (most recent call last) ────╮``; its frames are rows ``│ /path/train.py:261 in
# <module> │`` (``│ in main:12 │`` when the file is not on disk), between source rows; the error line comes under its
# closing ``╰──╯``, as under Python's frames. The border's ``╭`` may be glued to a progress bar, the rest on the next line;
# a console without those characters (Windows' legacy one) draws ``┌──┐`` and marks the line with ``>``.
_RICH_HEADER = re.compile(r"[╭┌]?─+ Traceback \(most recent call last\) ─+[╮┐]")
_RICH_FRAME = re.compile(r"^│ (?![\s│╭╰┌└❱>])(?:.+?:\d+ in(?: (\S+))?|in (\S+?):\d+)\s*│?$")
# A progress bar cut short at its rate, as a rich box glued to it leaves it (``50/2019 [24:10<16:05:58, 29.01s/it╭``).
_BAR_CUT = re.compile(r"\d+/\d+ \[[^\]]{0,80}(?:it/s|s/it)$")
_TOP_NAMES = ("<module>", "_run_module_as_main")
_FRAME = re.compile(r'^\s*File "[^"]*", line \d+')
# A tqdm bar's end, with only a launcher's rank prefix after it (``… 264.19s/it][rank1]:``).
_BAR_END = re.compile(r"\d+/\d+ \[[^\]]{0,80}(?:it/s|s/it)\]\s*(?:\[[\w/-]{1,20}\]:?|\d{1,4}:)?$")
# The first frame of an exception no code caught: the script's top or runpy's entry.
_TOP_FRAME = re.compile(r'^\s*File "[^"]*", line \d+, in (?:<module>|_run_module_as_main)$')
# IPython's and Jupyter's report of an uncaught exception: its name first, on the header's line, which has no colon
# (``KeyboardInterrupt                         Traceback (most recent call last)``), its frames in IPython's own form.
_IPYTHON_HEADER = re.compile(r"^((?:[A-Za-z_]\w*\.)*[A-Z]\w*)\s+Traceback \(most recent call last\)$")
_CHAIN = re.compile(r"^(?:During handling of the above exception|The above exception was the direct cause)")
# Python's last line of a traceback: ``pkg.mod.SomeError: message`` or a bare ``KeyboardInterrupt``.
# Ray names the error a remote task raised inside its own: ``ray.exceptions.RayTaskError(IndexError): ray::Runner.run() (pid=…)``.
_EXCEPTION = re.compile(r"^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:\((?:[A-Za-z_]\w*\.)*[A-Z]\w*\))?)(?::(?:\s(.*))?)?$")
# Ray's report of a remote task's or actor's death, its own exception line (``ray.exceptions.RayTaskError(IndexError): ray::…``,
# ``ray.exceptions.RayActorError: The actor died unexpectedly …``, since Ray 2.8 ``ActorDiedError``, a task's worker
# ``WorkerCrashedError``): the driver's ``ray.get`` raised it, and the remote
# traceback follows it, frames and the task's own exception line (each a Ray task error again when the task waited on another).
_RAY_ERROR = re.compile(
    r"^(?:ray\.exceptions\.)?(?:Ray(?:Task|Actor)Error|ActorDiedError|WorkerCrashedError)(?:\([\w.]{1,80}\))?: "
)
# Where a bar ends and what the process wrote after it begins, on the same line: its rate's closing bracket (with a postfix:
# ``1.9it/s, loss=0.4]``), a bar whose rate is not printed yet (``5.00/5.00 [00:12<00:00]``), or a carriage return.
_BAR_CLOSE = re.compile(r"(?:(?:s/it|it/s)(?:,[^\]\[]{0,400})?\]|\d/\d[\d.]*\s\[[\d:]{1,12}<[\d:?]{1,12}\]|\r)\s*")
# An exception's line as Python (or Ray) ends a traceback with it: a name that says it is an error, then its message.
_GLUED_EXCEPTION = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)(?:\((?:[A-Za-z_]\w*\.)*[A-Z]\w*\))?: \S")
_EXCEPTION_NAME_END = re.compile(
    r"(?:Error|Exception|Interrupt|Exit|Failure|Timeout|Abort|Aborted|Killed|Fault)$"
)
# The line before a traceback says the program caught the error and goes on.
_HANDLED = re.compile(
    r"retry|retrying|will retry|trying again|skipping|ignor(?:e|ed|ing)|continuing|recover|"
    r"never retrieved|Exception in callback|Exception ignored in|^future: <Task",
    re.IGNORECASE,
)
# A logger's error or warning record: a traceback right under one is the program logging an
# error it caught (``logger.exception``, ``exc_info=True``); Python's own report of an uncaught
# exception has no record above it.
_LOGGED = re.compile(
    r"(?:^|[\s|\[:])(?:ERROR|WARNING|WARN|EXCEPTION)(?:[\s|\]:]|$)|^\[?E\d{4} |^\[E "
)
# A logger's record that says the training itself failed, with the traceback under it: detectron2's
# ``ERROR [02/10 22:55:41 d2.engine.train_loop]: Exception during training:`` (it raises the error again),
# Blocks' ``ERROR:blocks.main_loop:Error occured during training.``, hydra's ``Error executing job with
# overrides: […]``, a record at a fatal level. The run died, though a
# logger wrote it.
_FAILED_RECORD = re.compile(
    r"(?i:\b(?:exception|error|failure)s?(?: occurr?ed| raised| happened)? (?:during|in|while) (?:the )?(?:training|train(?:ing)? loop|trainer\.fit|fit)\b"
    r"|\btraining (?:failed|crashed|aborted)\b|\berror executing job\b)|(?:^|[\s|\[:])(?:CRITICAL|FATAL)(?:[\s|\]:]|$)"
)
# A logger's record that says, as its whole message, that the training or the run failed, with no traceback needed under
# it (a script that catches the error, logs it and exits: ``ERROR - Training failed with error: default_collate: …``,
# ``CRITICAL - Run failed: …``, ``Training aborted due to …``): the run's end, when the record is at an error level or
# its words say it failed with an error. Never a failure to do something (``Training failed to converge``).
# (its words open the message, or follow the record's level where no prefix reader took the logger's name: ``__main__ -
# ERROR - Training failed …``)
_FAILURE_SAID = re.compile(
    r"(?i)(?:^|\b(?:ERROR|CRITICAL|FATAL)\]?\s?[-:|]?\s?)\W{0,4}(?P<words>(?:the )?(?:train(?:ing)?(?: run| job)?|run)(?: has| was)?"
    r" (?:failed|crashed|aborted)\b(?! to\b)(?P<with> with (?:an? )?(?:error|exception)\b)?.*)"
)
# The error levels a logger's record is written at (glog's ``E1208``, torch's ``[E …]``)
_ERROR_LEVEL = re.compile(r"(?:^|[\s|\[:])(?:ERROR|CRITICAL|FATAL)(?:[\s|\]:]|$)|^\[?E\d{4} |^\[E ")
# Warning-level lines never crash a run (glog ``W0219``, torch's ``[W …]``, python warnings).
_WARNING = re.compile(
    r"(?:^|[\s\[|:(])(?:WARNING|WARN)(?=[\s\]|:)]|$)|^\[?W\d{4} |^\[W |Warning[:\]]"
)
# One-line fatal errors, found anywhere in a line (after a bar, behind any prefix).
_FATAL = re.compile(
    r"Watchdog caught collective operation timeout"
    r"|Some NCCL operations have failed or timed out"
    r"|NCCL communicator was aborted"
    r"|\bNCCL error\b|ncclInternalError|ncclSystemError|ncclUnhandledCudaError|ncclRemoteError|ncclInvalidUsage"
    r"|DistBackendError"
    r"|terminate called after throwing an instance of"
    r"|ChildFailedError"
    r"|failed \(exitcode: -?[1-9]\d*\) local_rank"
    r"|exits with return code = -?[1-9]"
    r"|Segmentation fault|Fatal Python error|Bus error \(core dumped\)|Aborted \(core dumped\)|\(core dumped\)"
    # abseil's failure signal handler, which Ray's workers install: ``*** SIGSEGV received at time=1716… on cpu 3 ***``
    r"|\*\*\* SIG(?:SEGV|ABRT|BUS|FPE|ILL) received at time="
    r"|srun: error: .*Exited with exit code [1-9]"
    r"|Current loss scale already at minimum"
    r"|(?:CUDA|MPS backend|HIP|XPU) out of memory|OutOfMemoryError|device-side assert triggered"
    # torch's error for any failed CUDA call (``RuntimeError: CUDA error: unspecified launch failure``): sticky, the
    # process's CUDA context is lost, so a paste of the error line alone, its frames left out, is the run's end
    r"|\bCUDA error: \w"
    r"|CUDA driver error"
    # TensorFlow's NanTensorHook: it logs this, then raises NanLossDuringTrainingError (the run dies of its NaN loss)
    r"|\bModel diverged with loss = NaN\b"
    r"|libc\+\+abi: terminating|terminating due to uncaught exception"
    # a shell's notice of a signal's death, as macOS's bash writes it (``… line 266: 33498 Killed: 9  python …``)
    r"|\b(?:Killed: 9|Terminated: 15|Abort trap: 6|Segmentation fault: 11|Bus error: 10)\b"
    # and as Linux's bash writes it for a script's child (``jac-crun: line 6:  3305 Killed   $JACROOT/bin/jac-run``)
    r"|: line \d{1,6}: +\d{1,9} (?:Killed|Terminated|Aborted|Segmentation fault)(?:\s|$)"
    # hivemind's p2p daemon that did not start: the DHT cannot come up, nothing catches it; its exception line
    # alone (a paste that left the frames out) is the program's own end, whatever a shell says after it
    r"|^(?:[A-Za-z_]\w*\.)*P2PDaemonError: Daemon failed to start\b"
)
# A signal or a scheduler that ends the run: fatal whatever level it is logged at (torchrun's agent
# logs the death signal it received as a warning, ``W1229 … api.py:723] Received 1 death signal``).
_KILL = re.compile(
    r"Received \d+ death signal|got signal: \d+|Signal \d+ \(SIG[A-Z]+\) received by PID"
    r"|\*\*\* (?:JOB|STEP) \S+ ON \S+ CANCELLED AT|CANCELLED AT \S+ DUE TO|DUE TO (?:TIME LIMIT|NODE FAILURE|PREEMPTION)"
    r"|Out of memory: Kill(?:ed)? process|oom-kill|invoked oom-killer"
    # a trainer that caught the user's Ctrl-C and stops (Lightning: ``Detected KeyboardInterrupt, attempting
    # graceful shutdown...``, a UserWarning up to 2.0, info after)
    r"|(?:Detected|Caught|Received|Got) KeyboardInterrupt\b|\b[Tt]raining (?:was )?interrupted by (?:the )?user"
    # (safelife's ``CRITICAL Keyboard Interrupt. Ending early.``: caught, in words, and the run says it stops)
    r"|\bKeyboard ?Interrupt[.!:,]? (?:Ending|Stopping|Exiting|Shutting down)\b"
)
# Ray's word that a worker process died under a task or an actor, fatal whatever level it is logged at: the raylet's
# ``(raylet) A worker died or was killed while executing a task by an unexpected system error. … Worker exit type:
# SYSTEM_ERROR …`` (Ray 1's driver logs it as a warning, ``WARNING worker.py:1037 -- A worker died or was killed while
# executing task e36b…``), an actor's end (``The actor died unexpectedly before finishing this task``, ``The actor is
# dead because its worker process has died``), a task's worker (``The worker died unexpectedly while executing this
# task``), the memory monitor's kill (``1 Workers (tasks / actors) killed due to memory pressure (OOM)``). Ray may run the
# task again or restart the actor: a training step after it clears the crash, as after any (the tracker's rule).
_WORKER_DIED = re.compile(
    r"A worker died or was killed while executing (?:a |the )?task"
    r"|The actor (?:died unexpectedly before finishing this task|is dead because its worker process has died)"
    r"|The worker died unexpectedly while executing this task"
    r"|\d+ Workers? \(tasks / actors\) killed due to memory pressure \(OOM\)"
)
# A launcher ending the run it started, whatever level it logs that at (DeepSpeed's launcher logs its
# ``sigkill_handler`` at info, torchrun's agent its closing signals as a warning): it kills the other
# ranks once one died (``Killing subprocess 230``, ``Sending process 881 closing signal SIGTERM``), or
# reports its child's failure (accelerate's and DeepSpeed's runner: ``subprocess.CalledProcessError:
# Command '[…]' returned non-zero exit status -9.``; mpirun).
_LAUNCHER = re.compile(
    r"\bKilling subprocess \d+|Sending process \d+ closing signal SIG[A-Z]+"
    r"|returned non-zero exit status -?[1-9]\d*"
    r"|mpirun noticed that process rank \d+ .{0,80}exited on signal \d+"
    r"|mpirun detected that one or more processes exited with non-zero status"
)
# Of those, the ones that take the ranks down: after a death already read, they say nothing new.
_TEARDOWN = re.compile(r"Killing subprocess|Sending process")
# A launcher's line that says its child was killed by a signal (its own closing signals to the other
# ranks are not: they follow a death and say nothing of its cause).
_LAUNCHER_KILLED = re.compile(r"exit status -(?:9|15|1|2)\b|exited on signal (?:9|15|1|2)\b")
# A crash line that says the run was ended from outside (a signal, the OOM killer, the scheduler).
_KILLED = re.compile(
    _KILL.pattern + r"|^(?:Killed|Terminated|KeyboardInterrupt|\^C|已杀死|Getötet|強制終了|Убито|Processus arrêté"
    r"|已终止)|\b(?:Killed: 9|Terminated: 15)\b|\bSIG(?:KILL|TERM|HUP|INT)\b|SignalException"
    r"|^(?:zsh|bash|sh): .*(?:\b(?:killed|Killed|terminated)\b|已杀死|Getötet|強制終了|Убито|Processus arrêté|已终止)"
    r"|exit code -(?:9|15|1|2)\)|: line \d{1,6}: +\d{1,9} (?:Killed|Terminated)(?:\s|$)"
)
# A crash line that says someone stopped the run rather than that it died: by hand (Ctrl-C: SIGINT,
# ``KeyboardInterrupt``, a trainer that caught it) or by a signal or a scheduler that ends it on purpose
# (SIGTERM, SIGHUP from a closed terminal, a cancelled job, its time limit, a preemption). The OOM killer,
# SIGKILL and a node failure stay crashes; so does a launcher's ``closing signal`` to the other ranks (the
# teardown after a death).
_STOPPED_BY_HAND = re.compile(
    r"Keyboard ?Interrupt|^\^C|\bSIGINT\b|Signal 2 \(|Received 2 death signal|got signal: 2\b"
    r"|exit status -2\b|exited on signal 2\b|exit code (?:-2|130)\b|interrupted by (?:the )?user"
)
_STOPPED_BY_SIGNAL = re.compile(
    r"\bSIG(?:TERM|HUP)\b|^Terminated$|\bTerminated: 15\b|^(?:zsh|bash|sh): .*\b[Tt]erminated\b|Received (?:1|15) death signal"
    r"|got signal: (?:1|15)\b|exit status -(?:1|15)\b|exited on signal (?:1|15)\b|exit code (?:-15|143)\b"
    r"|CANCELLED AT (?!.*NODE FAILURE)|DUE TO (?:TIME LIMIT|PREEMPTION)|: line \d{1,6}: +\d{1,9} Terminated(?:\s|$)"
)
# A launcher's report that its child failed: the cause (a signal, an error) is in the lines that follow.
_WRAPPER = re.compile(r"ChildFailedError|CalledProcessError")


def stop_kind(text: str) -> str | None:
    """``hand`` or ``signal`` when a crash line says someone stopped the run, else None (it died)."""
    if "closing signal" in text:
        return None  # a launcher taking the other ranks down after a death
    if _STOPPED_BY_HAND.search(text):
        return "hand"
    if _STOPPED_BY_SIGNAL.search(text):
        return "signal"
    return None


# Python's warnings module: ``/path/to/call.py:53: UserWarning: `` before the message.
_PY_WARNING = re.compile(r"^\S+\.py:\d+: (?:\w+Warning: )?")
# torch's warning when clip_grad_norm_ meets a nan or inf gradient and goes on anyway.
_NONFINITE_NORM = re.compile(r"Non-finite (?:total )?norm encountered")
# A shell's word for a process killed (SIGKILL) in its locale's language (glibc's strsignal: ``Killed`` is
# ``已杀死`` in Chinese), and for one terminated (SIGTERM).
_KILLED_WORDS = r"已杀死|Getötet|強制終了|Убито|Processus arrêté"
_TERMINATED_WORDS = r"已终止"
# What a shell says when the process ended by a signal: the crash when nothing more telling was read.
_ALONE = re.compile(
    rf"^(?:Killed|KeyboardInterrupt|\^C.*|Terminated|Aborted|{_KILLED_WORDS}|{_TERMINATED_WORDS})$"
    r"|^Process finished with exit code (?!0$)-?\d+$"
    r"|^(?:zsh|bash|sh): (?:line \d+: )?(?:\d+ )?(?:abort|killed|Killed|Aborted|Segmentation fault|terminated|Terminated"
    rf"|{_KILLED_WORDS}|{_TERMINATED_WORDS})(?!\w)"
)
# The shell's ``Killed`` glued to the end of the line the process left unfinished (no newline before its death):
# Keras 1's bar ``165376/296960 [====>....] - ETA: 365s - loss: 2.1371Killed`` (keras-team/keras#3476).
_GLUED_KILLED = re.compile(r"\dKilled$")
# A launcher's own last words before it ends its process group (gensyn rl-swarm's exit trap: ``>> Shutting down
# trainer...`` then ``kill -- -$$``): the shell's ``terminated`` that follows is the script ending itself, no stop.
_OWN_SHUTDOWN = re.compile(r"\bShutting down\b")
# How telling a crash line is: a shell's notice < a one-line fatal error < native code's error < Python's exception
# line. Right after a crash, a less telling line of the same death (C++'s ``terminate called…`` under a RuntimeError,
# ``zsh: abort`` under libc++'s message, ``Aborted (core dumped)`` under a failed check) does not replace it; nor does
# a native error line under the first one (another device's, the signal glog's handler reports after a failed check):
# the first says what went wrong (native_crash.py).
NOTICE, FATAL, NATIVE, EXCEPTION = 0, 1, 2, 3
# torchrun's failure table: ``exitcode  : -9 (pid: 14750)``, ``traceback : Signal 9 (SIGKILL) …``.
_TABLE_EXIT = re.compile(r"^\s*exitcode\s*:\s*(-?\d+)")
_TABLE_CAUSE = re.compile(r"^\s*traceback\s*:\s*(\S.*)$")
# Where a one-line error glued after a progress bar starts (`` 16.31s/it]``, or any ``]`` closing the
# bar's text): the error is read from the last such end before it. Not the test for a traceback glued
# to a bar (``_BAR_END``): that one must be a bar's end, not any bracket (``[worker-3] Traceback``).
_GLUED_ERROR_START = re.compile(r"(?:s/it|it/s|/s)(?:,[^\]\[]{0,400})?\]|\]\s*$")  # (a bar's postfix: ``, loss=0.08]``)
# The loss scaler skipping a step (DeepSpeed's ZeRO and its fused/unfused fp16 optimizers, apex's
# FP16_Optimizer and amp; DeepSpeed's ``Grad overflow on iteration`` beside it is the same step).
_OVERFLOW = re.compile(
    r"\[deepspeed\] OVERFLOW!|Gradient overflow\.\s+Skipping step|OVERFLOW! (?:Rank \d+ )?Skipping step"
    r"|Skipping step, loss scaler \d+ reducing loss scale|loss scale overflow! Skipping step"
    r"|overflow detected, (?:ignoring gradient, )?setting loss scale to",  # fairseq, Megatron forks
    re.IGNORECASE,
)
# The scale tried, then the one it falls to (the last figure is the scale now).
_SCALE = re.compile(
    r"(?:loss scale|reducing to|reducing loss scale to|setting loss scale to)[:\s]+([\d.]+(?:e[+-]?\d+)?)", re.IGNORECASE
)
# Cheap test, on the lowered line: can it be anything the watch reads? (Literals only: an
# alternation of plain words is several times faster than the patterns above, on every line.)
_MAYBE = re.compile(
    "|".join(
        re.escape(word)
        for word in (
            "error", "exception", "traceback", 'file "', "interrupt", "nccl", "terminat", "exit", "kill",
            "已杀死", "getötet", "強制終了", "убито", "processus arrêté", "已终止",
            "fault", "fatal", "dumped", "cancelled", "due to", "overflow", "abort", "^c", "code", "loss scale",
            "out of memory", "assert", "signal", "non-finite", "model diverged", "received at time=", "died", "failed",
            *NATIVE_WORDS,
        )
    )
)


_QUOTE = re.compile(r"^(?:>[ \t]?)+")
_MARKS = ("**", "`")


# A comment line, as the generic reader takes it (no record): a header a script or a person wrote above the log (Kaldi's
# and ESPnet's run.pl open every log with ``# <command>`` and ``# Started at …``), whose words may quote a crash.
# (``#0 0x7f… in raise ()``, a native stack's frame, is no comment.)
_COMMENT = re.compile(r"\s*#(?!\d)")


def peel_markdown(line: str) -> str:
    """The line as printed, without the Markdown a paste into an issue or a notebook wrapped it in:
    ``> `` quote marks, and bold or code marks (``**…**``, backticks) opening the line. A run of asterisks before a
    space opens no bold (Markdown's rule): it is the program's own banner (``*** Begin stack trace ***``)."""
    if line[:1] in "*`>":
        line = _QUOTE.sub("", line)
        for mark in _MARKS:
            if line.startswith(mark) and not (mark == "**" and line.lstrip("*")[:1].isspace()):
                close = line.find(mark, len(mark))
                if close > len(mark):
                    line = line[len(mark) : close] + line[close + len(mark) :]
                    break
    return line


def _ending(message: str) -> list[Event]:
    """A stop message as the run's said end (app/ingest/formats/endings.py), or nothing."""
    end = ending(message)
    return [] if end is None else [end]


class CrashWatch:
    """Reads lines one by one and says when one ends the run or skips a step."""

    def __init__(self) -> None:
        self._prefixes = PrefixReader(dates=False)
        self._in_traceback = False
        self._handled = False  # the traceback under way was caught by the program
        self._logged_only = False  # and only a logger's record above it says so
        self._failed_record = False  # a logger's record above it says the training failed (``_FAILED_RECORD``)
        self._failed_error: str | None = None  # the error such a traceback ended in (its re-raise is the same news)
        self._traceback_lines = 0
        self._after_exception = 0  # lines left in which a failure table may follow
        self._exception: str | None = None
        self._exit_code: str | None = None
        self._rank = NOTICE  # of the crash line read last
        self._previous = ""  # the last non-blank line before this one
        self._opening = True  # every line read so far was a frame's source line: a paste cut inside a traceback
        self._begun_inside = False  # the lines read begin inside the log (see begin_inside)
        self._previous_fatal = False  # and it was a crash of its own
        self._frame: str | None = None  # the last frame of the traceback under way
        self._path_start = ""  # a rich frame's path begun in the row before (the box wrapped it)
        self._chained = False  # it goes on from an exception already said (``During handling of the above …``)
        self._cut_said = False  # its missing error line was already reported
        self._glued_said = False  # its header, glued to a progress bar, was already reported as a crash
        self._caught_error: str | None = None  # the error line of the caught traceback just read
        self._native_stack = False  # a native stack's frames under way (native_crash.py)
        self._thrown: str | None = None  # the C++ exception's type a crash said just now was thrown, its what() to come
        self._since_caught = 0  # lines read since it
        self._summary = SummaryBlock()  # a run's closing summary under way (summaries.py)
        self.seen = 0  # lines read so far (where a closing summary belongs is told by this count)
        self._summed: list[tuple[int, list[Event]]] = []  # closing summaries read, each where it belongs

    def see(self, raw: str) -> list[Event]:
        """The events this line adds (usually none). A closing summary it ends is kept for :meth:`summaries`."""
        self._since_caught += 1
        if _COMMENT.match(raw):
            self.seen += 1
            return []  # a comment: its words quote or describe a run, none is its end
        low = raw.lower()  # (the closing summary's look and the watch's own)
        closed = self._summary.see(self.seen, raw, low)
        self.seen += 1
        if closed is not None:
            self._summed.append((closed[0], [closed[1]]))
        if self._native_stack:
            inside = in_stack(self._prefixes.read(clean(raw)).message)
            if inside is not False:
                self._native_stack = inside is True
                return []  # a native frame: nothing of the run, and no line the next one's meaning depends on
            self._native_stack = False
        if not self._in_traceback and not self._after_exception and not _MAYBE.search(low) and not starts_fatal_record(raw):
            if raw.strip():
                self._previous, self._previous_fatal = raw, False
                self._note_unknown_before(raw)
                if ENDING_MAYBE.search(low):
                    return _ending(self._prefixes.read(clean(raw)).message.strip())
            return []
        line = peel_markdown(unpasted(clean(raw)))  # (what a paste or a log collector added: paste.py)
        message = self._prefixes.read(line).message.strip()
        events = self._read(line, message)
        if starts_stack(message):
            # A native stack under the error just read (or the signal this line reports): its frames are skipped,
            # and the line before the stack stays the one a traceback after it is read under.
            self._native_stack = True
            if events:
                self._previous, self._previous_fatal = line, True
            return events
        if not events and not self._in_traceback and ENDING_MAYBE.search(message.lower()):
            events = _ending(message)  # (a prefix's own words, ``[default0]:``, may look like a crash's)
        if message:
            self._previous = line
            self._previous_fatal = any(isinstance(event, RunCrashed) for event in events)
            self._note_unknown_before(line)
        return events

    def begin_inside(self) -> None:
        """The lines read next begin inside the log, not at its first line (a backlog's window of its newest lines).

        A traceback they open with, its header or inside it, follows lines not read: the record that said the error
        was caught and the run goes on, or nothing. Unknown, it is read as a logged one is: caught, unless its first
        frame is the program's top (nothing below caught it); never as the log's own opening (a paste that starts in
        the frames). A step after it would clear a crash, but the run's timeline would keep a crash it never had."""
        self._opening = False
        self._begun_inside = True
        self._previous = ""

    def _note_unknown_before(self, line: str) -> None:
        """A line read, not blank: what came before a traceback stays unknown (the log's opening, or a window's) only
        through a frame's source lines."""
        if self._opening or self._begun_inside:
            source = self._source_line(line)
            self._opening, self._begun_inside = self._opening and source, self._begun_inside and source

    def _source_line(self, line: str) -> bool:
        """True when the line, behind its prefixes, is a frame's source line (indented under its ``File`` line) or the
        carets under it: what a paste cut inside a traceback starts with. (Python indents a frame's line by two spaces and
        its source by four; a prefix reader may have taken one of them with a launcher's ``[rank0]: ``.)"""
        message = self._prefixes.read(clean(line)).message
        return message[:3] == "   " or message[:1] == "\t" or message.lstrip()[:1] in ("^", "~")

    def see_lines(self, lines: list[str], plain: Sequence[object]) -> list[tuple[int, list[Event]]]:
        """:meth:`see` each line; the events by line index. A line whose ``plain`` entry is not empty
        holds none of the watch's words (a parser's usual step line): outside a traceback and its
        table it is only noted as the line before the next."""
        marks: list[tuple[int, list[Event]]] = []
        see = self.see
        i, count = 0, len(lines)
        while i < count:
            if plain[i] and not self._in_traceback and not self._after_exception:
                end = next_plain(plain, i + 1)
                self._previous, self._previous_fatal = lines[end - 1], False  # (such a line is never blank)
                self._opening = self._begun_inside = False
                if self._summary.under_way:
                    self._close_summary()  # (a step line is no row of it)
                self.seen += end - i
                i = end
                continue
            found = see(lines[i])
            if found:
                marks.append((i, found))
            i += 1
        return marks

    def _read(self, line: str, message: str) -> list[Event]:
        ipython = _IPYTHON_HEADER.match(message) if "(most recent call last)" in message else None
        if ipython is not None and not self._caught(""):
            # The error named at once: the crash (its frames, in IPython's form, are no Python frames to follow)
            self._in_traceback = self._chained = False
            if self._after_exception and self._exception is not None and stop_kind(self._exception) == "hand":
                return []  # (raised while the run shut down after a stop by hand: the stop stands, SafeLife's KeyError)
            return self._crash(ipython.group(1), EXCEPTION)
        at = line.find(_TRACEBACK)
        rich = _RICH_HEADER.search(line) if at < 0 and "(most recent call last)" in line else None
        if rich is not None:
            at = rich.start()
        if at >= 0:
            # A chained exception goes on in the same traceback; a new one after a handled or
            # finished one starts over, caught or not by what the line before it says.
            glued = line[:at].strip()
            if not self._in_traceback:
                # (so is one under a native error just said: torch_xla's spawn prints the device's error, then its
                # traceback)
                fatal_above = self._previous_fatal or (
                    self._after_exception > 0 and self._exception is not None and self._rank == NATIVE)
                self._handled = self._caught(glued)
                if self._handled or self._since_caught > RERAISE_LINES:
                    self._caught_error = self._failed_error = None
                # (right under a fatal line just read, a traceback cut before its error line is that line's: the same
                # news, which the fatal line said better, as TensorFlow's ``Model diverged with loss = NaN.`` before
                # the NanLossDuringTrainingError it raises)
                self._frame, self._cut_said, self._glued_said, self._path_start = None, fatal_above, False, ""
                self._chained = False
            self._in_traceback, self._traceback_lines, self._after_exception = True, 0, 0
            if not self._handled and (_BAR_END.search(glued) or (rich is not None and _BAR_CUT.search(glued))):
                # Python's report of an uncaught exception glued to the progress bar: the run dies
                # now; its error line, when read, says what killed it.
                self._glued_said = True
                return [RunCrashed(None, "a traceback after the progress bar (its error line not read)", placeholder=True)]
            return []
        if not self._in_traceback and _FRAME.match(message) and not self._after_exception:
            # A traceback whose first line was not read (a cold start, a cut paste).
            self._in_traceback, self._traceback_lines = True, 0
            self._handled = self._caught("")
            # Without its header line, what came before it (a retry, a caught error) is unknown:
            # cut short too, it is no crash; unless its first frame is the program's top (``<module>``,
            # runpy): nothing below caught it, and the terminal lost or wrapped its header
            # (``…6.56MB/s]Traceb`` then ``l last):``): cut short, it is the run's end. So is one the
            # log starts with, nothing read before it (a paste of a traceback's last frames, each behind a
            # launcher's ``[rank0]:``, maybe cut inside a frame, its source lines first): no record above it says it was
            # caught, and the log is that report.
            top = _TOP_FRAME.match(message) is not None and not self._previous_fatal
            opens_log = self._opening
            if top or opens_log:
                self._handled = self._logged_only = False
            self._frame, self._cut_said = message, not (top or opens_log)
            return []
        if self._in_traceback:
            return self._traceback(message)
        if self._after_exception:
            self._after_exception -= 1
            if self._thrown is not None and message:
                thrown, self._thrown = self._thrown, None
                what = what_message(message)
                if what is not None:
                    # C++'s ``what():`` under its ``terminate called after throwing …``: the exception's message
                    return self._crash(f"{thrown}: {what}", NATIVE, again=True)
            refined = self._table(message)
            if refined is not None:
                return refined
            if _CHAIN.match(message):
                self._in_traceback, self._traceback_lines, self._after_exception = True, 0, 0
                self._chained = self._exception is not None and not self._handled
                return []
            if (_FRAME.match(message) or _GLUED_EXCEPTION.match(message)) and self._ray_error_said():
                # The remote task's traceback under Ray's error line (or its exception line alone, its frames hidden):
                # read on to the task's own exception line, which says more.
                self._in_traceback, self._traceback_lines, self._after_exception = True, 0, 0
                self._chained = True
                return self._traceback(message)
        return self._single(line, message)

    def _ray_error_said(self) -> bool:
        """Whether the crash just said is Ray's report of a remote task's error (``_RAY_ERROR``)."""
        error = self._caught_error if self._handled else self._exception
        return error is not None and _RAY_ERROR.match(error) is not None

    def summaries(self, base: int) -> list[tuple[int, list[Event]]]:
        """The closing summaries read since the last call, the one under way ended with what was read: each with
        the index (lines counted from ``base``, the count when the batch began) of the line after which it goes,
        the one before its first row (-1: before the batch's first line)."""
        self._close_summary()
        summed, self._summed = self._summed, []
        return [(index - base, events) for index, events in summed]

    def _close_summary(self) -> None:
        closed = self._summary.end()
        if closed is not None:
            self._summed.append((closed[0], [closed[1]]))

    def cut_traceback(self) -> list[Event]:
        """At the end of what was read: a traceback the program did not catch, whose header and
        frames were read but not its error line (the log, or the paste of it, ends inside it), is a crash too;
        its error line, if it comes after all, says what the error was.

        A header that is the last line read, no frame under it yet (rl-swarm's start-up pasted up to
        ``Traceback (most recent call last):``), is a crash the same way: Python writes an uncaught
        exception's report at once as the process dies, so a log that stops on its header lost the
        rest; read live, its frames and error line, when they come, say what the error was."""
        # A header alone, the last line read, under a logger's record that says nothing of catching it (fairseq's ``|
        # WARNING: overflow detected, setting loss scale to: …`` then ``Traceback (most recent call last):``): no frame
        # says a handler is below (a logged one is written whole, frames and all, in one record), so the record above
        # is only the last thing the run printed before it died, as a traceback from the program's top is (_traceback)
        header_only = self._frame is None and not self._traceback_lines and not self._glued_said
        logged_header = header_only and self._handled and self._logged_only and not self._failed_record
        if not self._in_traceback or (self._handled and not logged_header) or self._cut_said or self._chained:
            return []  # (a chained one cut short: its cause, the exception above it, was the crash said)
        if self._frame is None and (self._traceback_lines or self._glued_said):
            return []  # (lines under a header that are no frames: not a traceback cut at its header)
        self._cut_said = True
        if self._frame is None:
            return [RunCrashed(None, "a traceback begun, its frames and error line not in the log", placeholder=True)]
        if self._caught_error is None and self._failed_error is not None:
            return []  # the failure a logger's record announced, raised again (detectron2's train loop): already said
        if self._caught_error is not None:
            # A trainer that logs the error it caught and raises it again (detectron2's train loop):
            # the uncaught traceback, cut before its error line, ends in the error just read.
            return [RunCrashed(None, _clip(self._caught_error), killed=bool(_KILLED.search(self._caught_error)),
                               stopped=stop_kind(self._caught_error))]
        return [RunCrashed(None, _clip(f"a traceback without its error line; last frame: {self._frame}"), placeholder=True)]

    def _caught(self, glued: str) -> bool:
        """Whether the traceback starting now reports an error the program caught (see ``_LOGGED``)."""
        if not glued and self._begun_inside:
            self._failed_record, self._logged_only = False, True
            return True  # what came before it was not read (begin_inside)
        self._failed_record = _FAILED_RECORD.search(glued or self._previous) is not None
        if self._failed_record:
            self._logged_only = False
            return False  # the record says the training failed: its traceback is the run's end
        if glued:
            if not _BAR_END.search(glued) and _LOGGED.search(glued):
                # A logger's record whose message is the traceback (``ERROR:<time>:Traceback …``,
                # a rollout worker's caught error): logged, unless it starts at the program's top.
                self._logged_only = not _HANDLED.search(glued)
                return True
            self._logged_only = False
            return bool(_HANDLED.search(glued))  # printed right after a progress bar: nothing logged it
        if self._previous_fatal:  # the record above already said the run died
            return False
        self._logged_only = not _HANDLED.search(self._previous) and bool(_LOGGED.search(self._previous))
        return bool(_HANDLED.search(self._previous)) or self._logged_only

    def _traceback(self, message: str) -> list[Event]:
        self._traceback_lines += 1
        if self._traceback_lines > MAX_TRACEBACK_LINES:
            self._in_traceback = False
            return []
        if message[:1] == "│":
            row = _RICH_FRAME.match(message)
            text = message.strip("│ ")
            if row is None:
                # (a path too long for the box goes on in the next row: ``│ C:\…\train_netwo │`` ``│ rk.py:974 in <module> │``)
                self._path_start = text if text and " " not in text and ("/" in text or "\\" in text) else ""
                return []
            # A rich frame: read as Python's, shown as printed.
            if self._handled and self._logged_only and self._traceback_lines <= 2 and (row.group(1) or row.group(2)) in _TOP_NAMES:
                self._handled = self._logged_only = False
            self._frame, self._path_start = self._path_start + text, ""
            return []
        if self._handled and self._logged_only and self._traceback_lines == 1 and _TOP_FRAME.match(message):
            # The traceback starts at the program's top (``<module>``, runpy): nothing caught it
            # below, whatever record came just before (an unrelated warning at start-up).
            self._handled = self._logged_only = False
        if message and _FRAME.match(message):
            self._frame = message
        if not message or _FRAME.match(message) or _CHAIN.match(message) or message[0] in "^~":
            return []
        if _EXCEPTION.match(message) is None:
            message = _glued_exception(message) or message  # (an error line glued to a bar the dying run left unfinished)
        m = _EXCEPTION.match(message)
        if m is None or (m.group(2) is None and ":" not in message and not _EXCEPTION_NAME_END.search(m.group(1))):
            return []  # a source line of a frame (pasted without its indentation), or another rank's line
        self._in_traceback = False
        if self._handled:
            self._after_exception, self._exception, self._caught_error = TABLE_LINES, None, message
            self._since_caught = 0
            return []
        if self._failed_record:
            self._failed_error, self._since_caught = message, 0
        return self._crash(message, EXCEPTION)

    def _crash(self, text: str, rank: int, killed: bool | None = None, stopped: bool = True,
               again: bool = False) -> list[Event]:
        """A crash line of this rank: said, unless it echoes a more telling one just read, or a native error line
        just read (``NATIVE``) said the same death first (``stopped`` False: its words are no one's stop; ``again``:
        the line says more of the crash just said)."""
        if self._after_exception and self._exception is not None and (
                rank < self._rank or (rank == NATIVE == self._rank and not again)):
            return []
        self._exception, self._exit_code, self._rank = text, None, rank
        self._after_exception = TABLE_LINES
        return [RunCrashed(None, _clip(text), killed=bool(_KILLED.search(text)) if killed is None else killed,
                           stopped=stop_kind(text) if stopped else None, placeholder=bool(_WRAPPER.search(text)))]

    def _table(self, message: str) -> list[Event] | None:
        """A launcher's failure table under the exception: the exit code and the signal say more."""
        if self._handled or self._exception is None:
            return None
        m = _TABLE_EXIT.match(message)
        if m is not None:
            self._exit_code = m.group(1)
            return []
        m = _TABLE_CAUSE.match(message)
        if m is not None and m.group(1) != "<N/A>":
            name = self._exception.split(":")[0].rsplit(".", 1)[-1]
            code = f" (exit code {self._exit_code})" if self._exit_code is not None else ""
            return self._crash(f"{name}: {m.group(1)}{code}", EXCEPTION)
        return None

    def _native(self, line: str, message: str) -> list[Event] | None:
        """A native crash said on this line (native_crash.py), or None: never one logged at warning level or one the
        program says it goes on after."""
        found = native_error(line, message)
        if found is None:
            return None
        start, text, outright = found
        if text is None:
            # A failed check's line, from a progress bar's end glued before it, if any (``…66.35s/it]torch_xla/… : Check
            # failed: …``), else whole
            ends = [e.end() for e in _GLUED_ERROR_START.finditer(message, 0, start)]
            text = message[ends[-1] :].strip() if ends else message
        at = line.find(text[:40])
        if _HANDLED.search(text) or _WARNING.search(line[:at] if at >= 0 else line):
            return []
        events = self._crash(text, NATIVE if outright else FATAL)
        self._thrown = thrown_type(text) if events else None
        return events

    def _exception_line(self, message: str) -> list[Event]:
        """An exception's line outside a traceback that still says the run died: one glued after a progress bar (the
        process died before the bar's line ended; its header, on the other stream, did not land here), or Ray's report
        of a remote task's or actor's error (``_RAY_ERROR``), which the driver prints as the run ends."""
        error = _glued_exception(message)
        if error is None and _RAY_ERROR.match(message) is not None:
            error = message
        if error is None or _HANDLED.search(error):
            return []
        return self._crash(error, EXCEPTION)

    def _worker_died(self, message: str) -> list[Event]:
        """Ray's word that a worker process died (``_WORKER_DIED``), said from its first word (the raylet's own prefix
        and the driver's logging fields left out); the memory monitor's kill is the OOM killer's."""
        died = _WORKER_DIED.search(message)
        if died is None:
            return []
        return self._crash(message[died.start() :], FATAL, killed=died.group().endswith("(OOM)"))

    def _failure_said(self, line: str, message: str) -> list[Event]:
        """A logger's record that says the training or the run failed (``_FAILURE_SAID``), at an error level or in words
        that it failed with an error; never one at warning level or one the program says it goes on after (a retry)."""
        said = _FAILURE_SAID.search(message)
        if said is None or _HANDLED.search(message):
            return []
        text = said.group("words")
        at = line.find(text[:40])
        level = line[:at] if at > 0 else ""
        if _WARNING.search(level) or (said.group("with") is None and not _ERROR_LEVEL.search(level)):
            return []
        return self._crash(text, FATAL)

    def _single(self, line: str, message: str) -> list[Event]:
        skipped = _OVERFLOW.search(message)
        if skipped is not None:
            scales = [float(v) for v in _SCALE.findall(message)]
            return [StepSkipped(None, scales[-1] if scales else None)]
        if _ALONE.match(message):
            if _OWN_SHUTDOWN.search(self._previous) and stop_kind(message) == "signal":
                return self._crash(message, NOTICE, killed=False, stopped=False)
            return self._crash(message, NOTICE)
        if _GLUED_KILLED.search(message):
            return self._crash("Killed", NOTICE)
        if "non-finite" in message.lower() and _NONFINITE_NORM.search(message):
            # torch's clip_grad_norm_ warns and goes on: a non-finite grad norm, said once.
            return [StepFigures(None, grad_norm=math.nan)]
        native = self._native(line, message)
        if native is not None:
            return native
        killed = _KILL.search(message)
        launcher = _LAUNCHER.search(message) if killed is None else None
        m = killed or launcher or _FATAL.search(message)
        if m is None:
            return self._exception_line(message) or self._worker_died(message) or self._failure_said(line, message)
        if _HANDLED.search(message):
            return []  # (a handler that saves a checkpoint on a signal and goes on says so)
        if killed is not None and self._previous_fatal and self._exception is not None and killed.group() in self._exception:
            return []  # Python's warnings print the warning call's source line under it: the same news
        warned = _PY_WARNING.match(message)
        if killed is not None and warned is not None:
            message = message[warned.end() :]  # ``…/call.py:53: UserWarning: Detected KeyboardInterrupt…``
            m = _KILL.search(message) or m
        if killed is None and launcher is None:
            # The level is in the prefix (peeled off the message) or just before the error.
            logged = _FATAL.search(line)
            if _WARNING.search(line[: logged.start()] if logged is not None else line):
                return []
        text = message
        if m.start() > 0:
            # Glued to the end of a progress bar: the error starts after it, behind its own prefix.
            ends = [e.end() for e in _GLUED_ERROR_START.finditer(message, 0, m.start())]
            if ends:
                text = self._prefixes.read(message[ends[-1] :].strip()).message.strip()
        if launcher is not None:
            if self._after_exception and self._exception is not None and _TEARDOWN.match(launcher.group()):
                return []  # the launcher taking the ranks down after a death just read: the same news
            return self._crash(text, FATAL, killed=bool(_LAUNCHER_KILLED.search(text)))
        return self._crash(text, FATAL)


def _glued_exception(message: str) -> str | None:
    """The exception line glued after a progress bar's end (``…4.64s/it]ray.exceptions.RayTaskError(IndexError): …``,
    ``…it/s]\\rValueError: …``), or None: the process died with the bar unfinished, no newline between."""
    if "]" not in message and "\r" not in message:
        return None
    end = None
    for end in _BAR_CLOSE.finditer(message):
        pass
    tail = message[end.end() :] if end is not None else ""
    if _GLUED_EXCEPTION.match(tail) is None:
        return None
    if end is not None and end.group().startswith("\r") and _BAR_LOOK.search(message, 0, end.start()) is None:
        return None  # (a carriage return after anything but a bar)
    return tail


def _unless_survived(parser: StepLines[Any], found: list[Event]) -> list[Event]:
    """The watch's events of a line, without its crash when the parser says the trainer lives through it."""
    if any(isinstance(event, RunCrashed) for event in found) and parser.survives():
        return [event for event in found if not isinstance(event, RunCrashed)]
    return found


def _clip(text: str) -> str:
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"


def _with_summaries(marks: list[tuple[int, list[Event]]],
                    summed: list[tuple[int, list[Event]]]) -> list[tuple[int, list[Event]]]:
    """The watch's events by line, with the closing summaries where they belong (a line's own events first)."""
    if not summed:
        return marks
    return sorted([*marks, *summed], key=lambda mark: mark[0])


# A progress bar, or what is left of one (``63% 34/54 [00:42<00:25,  1.26s/it]``): what a dying run flushes last.
_BAR_LOOK = re.compile(r"\d%\||\d%\s+\d{1,12}/\d{1,12}\s\[|\d(?:it/s|s/it)\b")


def _last_state(events: list[Event]) -> bool:
    """Whether a line's events are a step and nothing else (its time aside): a bar's or a step line's state."""
    return any(isinstance(e, TrainStep) for e in events) and all(isinstance(e, (TrainStep, Tick)) for e in events)


class CrashAware:
    """A step parser whose lines also go through a :class:`CrashWatch` (see the module docstring)."""

    def __init__(self, parser: StepLines[Any]) -> None:
        self.parser = parser
        self.name = parser.name
        self.bad_lines = parser.bad_lines
        self._watch = CrashWatch()

    @property
    def reference_time(self) -> float | None:
        """The wrapped parser's reference time (see :class:`~app.ingest.formats.base.LogParser`)."""
        return self.parser.reference_time

    @reference_time.setter
    def reference_time(self, value: float | None) -> None:
        self.parser.reference_time = value

    def begin_inside(self) -> None:
        """The lines fed next begin inside the log, not at its first line (see :meth:`CrashWatch.begin_inside`)."""
        self._watch.begin_inside()

    def continue_watch(self, before: CrashAware) -> None:
        """Go on with ``before``'s crash watch: the same log, read by another format's parser since
        it switched (what the watch already read is not read, nor counted, again)."""
        self._watch = before._watch

    def read_again(self, lines: list[str]) -> list[Event]:
        """Lines the watch already read under the format before a switch: only the parser reads them."""
        events = self.parser.feed(lines)
        self.bad_lines = self.parser.bad_lines
        return events

    def feed_runs(self, lines: list[str]) -> list[Event | StepRun]:
        """:meth:`feed`, with the parser's bulk usual line in runs when it has one (``StepLines.in_runs``)."""
        parser = self.parser
        if not parser.in_runs:
            return list(self.feed(lines))
        marks = parser.usual_marks(lines)
        base = self._watch.seen
        found_marks = self._watch.see_lines(lines, marks)
        cut = self._watch.cut_traceback()
        if cut and lines:
            found_marks.append((len(lines) - 1, cut))
        found_marks = _with_summaries(found_marks, self._watch.summaries(base))
        items: list[Event | StepRun] = []
        start = 0
        for i, found in found_marks:
            items.extend(parser.feed_runs(lines[start : i + 1], marks[start : i + 1]))
            found = _unless_survived(parser, found)
            if any(isinstance(event, RunCrashed) for event in found):
                items.extend(parser.died())
            items.extend(found)
            start = i + 1
        if start < len(lines) or not found_marks:
            items.extend(parser.feed_runs(lines[start:], marks[start:]))
        self.bad_lines = parser.bad_lines
        return items

    def feed(self, lines: Iterable[str]) -> list[Event]:
        """The parser's events, with the watch's after those of the line that carried them."""
        batch = lines if isinstance(lines, list) else list(lines)
        see = self._watch.see
        base = self._watch.seen
        marks = [(i, found) for i, line in enumerate(batch) if (found := see(line))]
        cut = self._watch.cut_traceback()
        if cut and batch:
            marks.append((len(batch) - 1, cut))
        marks = _with_summaries(marks, self._watch.summaries(base))
        if not marks:
            events = self.parser.feed(batch)
            self.bad_lines = self.parser.bad_lines
            return events
        events = []
        start = 0
        marked = {i for i, _ in marks}
        for i, found in marks:
            events.extend(self.parser.feed(batch[start : i + 1]))
            found = _unless_survived(self.parser, found)
            start = i + 1
            if any(isinstance(event, RunCrashed) for event in found):
                events.extend(self.parser.died())  # what the parser held until the run's end said what it was
                if start < len(batch) and start not in marked and _BAR_LOOK.search(batch[start]) is not None:
                    after = self.parser.feed(batch[start : start + 1])  # (a line the watch found nothing in)
                    start += 1
                    if _last_state(after):
                        # The step line right after the error: the dying run's bar, flushed as the process went
                        # down (Colab prints yolov3's ``0/299 … 63% 34/54 [00:42<00:25,  1.26s/it]`` after the
                        # traceback): its last state before the crash, not a run training again after it.
                        events.extend(after)
                        events.extend(found)
                        continue
                    events.extend(found)
                    events.extend(after)
                    continue
            events.extend(found)
        if start < len(batch):
            events.extend(self.parser.feed(batch[start:]))
        self.bad_lines = self.parser.bad_lines
        return events


def begin_inside(parser: object) -> None:
    """Tell a step parser's crash watch that the lines fed next begin inside the log (a backlog's window)."""
    if isinstance(parser, CrashAware):
        parser.begin_inside()
