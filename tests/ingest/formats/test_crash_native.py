"""Crashes native (C++) code reports: a failed check, glog's fatal record, C++'s terminate and its what(), torch_xla's
device report, glog's signal handler; the native stack under them says no more.

The real lines come from the cited excerpts in tests/data/real (each file's header says where); the composed ones are
in the same shapes, their answer worked out by hand: the crash said is the first native error line, whole.
"""

from __future__ import annotations

import pytest

from app.ingest.formats import detect
from app.ingest.formats.crash import CrashWatch
from app.stats.events import RunCrashed
from tests.reallogs import body

XLA_TPU1 = "crash-xla-issue2875-hf-trainer-setup-then-exception-in-device-tpu1-check-failed.log"
XLA_TPU7 = "crash-xla-issue2875-exception-in-device-tpu7-stack-trace-then-mp-start-fn-traceback-cut.log"
XLA_FATAL = "crash-xla-issue7138-bar-1-of-7800-glued-absl-fatal-record-stack-trace.log"
CAFFE = "crash-mobilenet-ssd-issue180-caffe-glog-fatal-check-failed-then-other-thread-setup-lines.log"
CAFFE2 = "crash-clustered-det-issue15-caffe2-terminate-what-enforce-fail-glog-sigabrt-core-dumped.log"
C10 = "crash-adelaidet-issue285-terminate-c10-error-what-cuda-error-frames.log"


def crashes(lines: list[str]) -> list[str]:
    watch = CrashWatch()
    found = [e.error for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    found.extend(e.error for e in watch.cut_traceback() if isinstance(e, RunCrashed))
    return found


def said(lines: list[str]) -> str | None:
    found = crashes(lines)
    return found[-1] if found else None


@pytest.mark.parametrize(("name", "expected"), [
    # torch_xla's report of device TPU:1's death, its failed check's message capped as a detail line is (240 characters)
    (XLA_TPU1, ("Exception in device=TPU:1: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:415 : Check failed: "
                "session->session()->Run(session_work->feed_inputs, session_work->outputs_handles, &outputs) == "
                "::tensorflow::Status::OK() (Cancelle…")),
    # … TPU:7's, then TensorFlow's stack and the Python traceback of the same error, cut in its frames: the device's line
    (XLA_TPU7, ("Exception in device=TPU:7: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:383 : Check failed: "
                "session->session()->Run( session_work->feed_inputs, session_work->outputs_handles, &outputs) == "
                "::tensorflow::Status::OK() (Cancell…")),
    # absl's fatal record glued to the bar at 1/7800: its message
    (XLA_FATAL, ("Non-OK-status: status status: INTERNAL: Core halted unexpectedly: INTERNAL: Accelerator device halted "
                 "prematurely, perhaps due to an on-device check-failure. Node 0 halted unexpectedly at tag:pc "
                 "TensorCoreSequencer:887:0x6f1 (from TensorCo…")),
    # Caffe's fatal record from another thread, the set-up thread's records after it: the check
    (CAFFE, "Check failed: a <= b (0 vs. -1.19209e-07)"),
    # C++'s terminate, its what() (glog's signal handler and the shell's "Aborted (core dumped)" after it are the same death)
    (CAFFE2, ("caffe2::EnforceNotMet: [enforce fail at conv_op_cudnn.cc:572] status == CUDNN_STATUS_SUCCESS. 8 vs 0. , "
              "Error at: /var/lib/jenkins/workspace/caffe2/operators/conv_op_cudnn.cc:572: CUDNN_STATUS_EXECUTION_FAILED "
              "Error from operator:")),
    (C10, "c10::Error: CUDA error: the launch timed out and was terminated"),
])  # fmt: skip
def test_a_native_crash_is_said_by_its_first_native_error_line(name: str, expected: str) -> None:
    assert said(body(name)) == expected


@pytest.mark.parametrize("name", [XLA_TPU7, CAFFE, CAFFE2, C10])
def test_a_log_of_a_native_crash_alone_is_the_generic_reader_s(name: str) -> None:
    assert detect(body(name)) == "generic"


BAR = "Epoch 1:  50%|█████     | 5/10 [00:03<00:03,  1.9it/s, loss=0.4]"
STACK = ["*** Begin stack trace ***", "\ttensorflow::CurrentStackTrace()", *["\tframe::Error::Error()"] * 40,
         "*** End stack trace ***"]


@pytest.mark.parametrize(("lines", "expected"), [
    # glog's fatal record whose message is no check (its level is in the prefix the watch reads behind)
    (["F1207 12:34:56.789012  1234 trainer.cc:97] Non-OK-status: INTERNAL: device lost"], "Non-OK-status: INTERNAL: device lost"),
    # TensorFlow's logger's fatal record, then the shell's notice of the abort
    (["2020-01-01 12:00:00.000000: F tensorflow/core/framework/tensor_shape.cc:44] Check failed: NDIMS == dims() (2 vs. 1)",
      "Aborted (core dumped)"], "Check failed: NDIMS == dims() (2 vs. 1)"),
    # a failed check glued to a bar's end: from the bar's end
    ([BAR + "torch_xla/csrc/helpers.cpp:97 : Check failed: dim <= 3"], "torch_xla/csrc/helpers.cpp:97 : Check failed: dim <= 3"),
    # every device reports; the first one said stays
    (["Exception in device=TPU:2: Check failed: a", "Exception in device=TPU:5: Check failed: a"],
     "Exception in device=TPU:2: Check failed: a"),
    # a native stack longer than a failure table, then the shell's notice: the error stays
    (["Exception in device=TPU:0: Check failed: a", *STACK, "Aborted (core dumped)"], "Exception in device=TPU:0: Check failed: a"),
    # glog's signal handler alone: its signal's line says more than its first line
    (["*** Aborted at 1592991226 (unix time) try \"date -d @1592991226\" if you are using GNU date ***",
      "PC: @     0x7fa86e494e97 gsignal",
      "*** SIGSEGV (@0x0) received by PID 20094 (TID 0x7fa86fc9df00) from PID 0; stack trace: ***",
      "    @     0x7fa86e494f20 (unknown)", "Segmentation fault (core dumped)"],
     "*** SIGSEGV (@0x0) received by PID 20094 (TID 0x7fa86fc9df00) from PID 0; stack trace: ***"),
    # Python's exception first: C++'s terminate and its what() under it are the same death, less telling
    (["Traceback (most recent call last):", '  File "train.py", line 9, in <module>', "RuntimeError: CUDA error: boom",
      "terminate called after throwing an instance of 'c10::Error'", "  what():  CUDA error: boom"],
     "RuntimeError: CUDA error: boom"),
])  # fmt: skip
def test_composed_native_crashes(lines: list[str], expected: str) -> None:
    assert said(lines) == expected


@pytest.mark.parametrize("lines", [
    ["W1207 12:34:56.789012  1234 cache.cc:12] Check failed: cache warm, rebuilding"],  # a warning's record
    ["I1207 12:34:56.789012  1234 health.cc:12] Health Check failed: peer 3 slow"],  # words, no failed CHECK
    ["Check failed: shard 3 unreadable, skipping it"],  # the program says it goes on
    ["*** Begin stack trace ***", "\ttensorflow::CurrentStackTrace()", "*** End stack trace ***"],  # a stack alone
    ["  what():  invalid map key"],  # a what() under no terminate (a CUDA error's words alone are one: crash.py)
    ["Fold 1 12:00: loss 0.3"],  # an F that starts no record
])  # fmt: skip
def test_what_is_no_native_crash(lines: list[str]) -> None:
    assert crashes(lines) == []
