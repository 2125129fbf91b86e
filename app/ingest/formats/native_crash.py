"""Crashes that native (C++) code reports, read for the crash watch (crash.py) whatever the trainer.

A run can die below Python: a failed ``CHECK`` in glog, TensorFlow, XLA or Caffe, a record logged at glog's fatal
level (the process aborts right after writing it), an uncaught C++ exception (``terminate called after throwing an
instance of 'c10::Error'``, its ``what():`` on the next line), a fatal signal glog's handler reports (``*** SIGABRT
(@0x2c3) received by PID 707 …``). torch_xla's ``xmp.spawn`` prints each device's death as ``Exception in device=TPU:2:
…`` before that process exits. Each is the run's end, said by its first native error line; the native stack printed
under it (``*** Begin stack trace ***`` … ``*** End stack trace ***``, glog's ``*** Check failure stack trace: ***`` and
its ``@ 0x…`` frames, c10's ``frame #0: …``) says no more, and the shell's ``Aborted (core dumped)`` after it is the
same death.

Only the text is read here (pure functions, no state): the watch decides what a line means where it stands.
"""

from __future__ import annotations

import re

# glog's and absl's record at the fatal level (``F0407 01:31:07.673615  5759 math_functions.cpp:250] Check failed: …``;
# absl's ``F0000 00:00:1717141650.890307    9276 pjrt_computation_client.cc:487] …``), and TensorFlow's own logger's
# (``2020-01-01 12:00:00.000000: F tensorflow/core/framework/tensor_shape.cc:44] …``): LOG(FATAL) aborts after writing
# it, so the record is the run's end, at the start of a line or glued to the progress bar it left unfinished.
_FATAL_RECORD = re.compile(
    r"(?:^|(?<=[^\w.:]))F\d{4} \d\d:\d\d:\d+(?:\.\d+)?\s+\d+ [^\]\s]{1,120}:\d+\] (\S.*)"
    r"|\d: F [^\]\s]{1,120}:\d+\] (\S.*)"
)
# A failed CHECK: glog's and TensorFlow's (``…] Check failed: NDIMS == dims() (2 vs. 1)``), torch_xla's XLA_CHECK
# (``torch_xla/csrc/helpers.cpp:97 : Check failed: …``), after a record's bracket, a source's ``: `` or alone.
_CHECK_FAILED = re.compile(r"(?:^|(?<=\] )|(?<=: ))Check failed: \S")
# torch_xla's xmp.spawn: a device's process reports the error that ends it, then exits with code 17.
_DEVICE_EXCEPTION = re.compile(r"\bException in device=[A-Za-z]+:\d+: \S")
# C++'s end for an uncaught exception; its ``what():`` line under it gives the message.
_TERMINATE = re.compile(r"\bterminate called after throwing an instance of '([^']{1,160})'")
_WHAT = re.compile(r"^\s*what\(\):\s+(\S.*?)\s*$")
# glog's failure signal handler: the signal (``*** SIGSEGV (@0x0) received by PID 12 (TID 0x7f…) from PID 0; stack
# trace: ***``), and the line it opens with (``*** Aborted at 1611921823 (unix time) try "date -d @…" …``).
_SIGNAL_REPORT = re.compile(r"\*\*\* SIG[A-Z]{2,6} \(@0x[0-9a-fA-F]+\) received by PID \d+")
_ABORTED_AT = re.compile(r"\*\*\* Aborted at \d+ \(unix time\)")
# Where a native stack starts: TensorFlow's and XLA's (``*** Begin stack trace ***``), glog's under a failed check or a
# signal, c10's under its error (``Exception raised from create_event_internal at …/CUDACachingAllocator.cpp:687 (most
# recent call first):``).
_STACK_START = re.compile(
    r"^\*\*\* (?:Begin stack trace|Check failure stack trace:) \*\*\*\s*$"
    r"|^\*\*\* SIG[A-Z]{2,6} \(@0x[0-9a-fA-F]+\) received by PID .*stack trace: \*\*\*\s*$"
    r"|^Exception raised from \S.* \(most recent call first\):\s*$"
)
_STACK_END = "*** End stack trace ***"
# A native frame (glog's ``@     0x7f6e2a9a8390 (unknown)``, c10's ``frame #0: c10::Error::Error(…) + 0x42 (…)``, a
# backward-cpp ``#6    Object "…/libc10.so", at 0x7faf…``) or a frame's wrapped rest, indented.
_NATIVE_FRAME = re.compile(r"^(?:\s|frame #\d+: |#\d+ +(?:Object|Source|0x)|PC: @ |@ +0x)")

# The words the watch's cheap test on the lowered line looks for (literals only, as its own): a fatal record glued to
# a bar's end or behind TensorFlow's date is found by them; one that starts the line, by ``starts_fatal_record``.
NATIVE_WORDS = ("check failed", "stack trace", "what():", "received by pid", "exception raised from", "aborted at",
                ": f ", "s/it]f", "it/s]f")
_RECORD_START = re.compile(r"F\d{4} \d\d:")


def starts_fatal_record(raw: str) -> bool:
    """True when the line may start with glog's fatal record (a cheap test: its level letter and date)."""
    return raw[:1] == "F" and _RECORD_START.match(raw) is not None


def native_error(line: str, message: str) -> tuple[int, str | None, bool] | None:
    """Where in the line a native crash is said, what it says, and whether it is said outright (True: a fatal record, a
    failed check, a device's or C++'s uncaught exception, a signal) or only as the handler's first line (``*** Aborted
    at …``, which the signal's line after it names); None when the line says none. A failed check's text is None: the
    line's own from its start, or from the end of a progress bar glued before it (the watch knows a bar's end). A fatal
    record is read on the ``line`` (its level is in the prefix the watch reads the ``message`` behind)."""
    record = _FATAL_RECORD.search(line)
    if record is not None:
        return record.start(), (record.group(1) or record.group(2)).strip(), True
    for pattern in (_DEVICE_EXCEPTION, _TERMINATE, _SIGNAL_REPORT):
        m = pattern.search(message)
        if m is not None:
            return m.start(), message[m.start() :].strip(), True
    m = _CHECK_FAILED.search(message)
    if m is not None:
        return m.start(), None, True
    m = _ABORTED_AT.search(message)
    if m is not None:
        return m.start(), message[m.start() :].strip(), False
    return None


def thrown_type(text: str) -> str | None:
    """The exception's type a ``terminate called after throwing`` line names, or None."""
    m = _TERMINATE.search(text)
    return m.group(1) if m is not None else None


def what_message(message: str) -> str | None:
    """The message of a ``what():`` line under C++'s terminate, or None."""
    m = _WHAT.match(message)
    return m.group(1) if m is not None else None


def starts_stack(message: str) -> bool:
    """True when the line opens a native stack trace (its frames say nothing of the run)."""
    return _STACK_START.match(message) is not None


def in_stack(message: str) -> bool | None:
    """Inside a native stack: True for a frame (or a blank or wrapped line) of it, None for its closing line, False for
    a line that is none of it (the stack ended unsaid, as glog's and c10's do)."""
    if message.strip() == _STACK_END:
        return None
    return not message.strip() or _NATIVE_FRAME.match(message) is not None
