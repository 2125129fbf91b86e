"""Crash evidence in the shapes a notebook and a chained traceback print it.

IPython (Jupyter) names the error first, on its traceback's header line, which has no colon, and prints its frames in
its own form: the header is the crash, and ``KeyboardInterrupt`` there is a stop by hand. A traceback raised while
handling an error already read (TensorFlow's ``ResourceExhaustedError`` then ``During handling of the above exception``),
cut before its own error line, says nothing new: the error read is the crash.
"""

from __future__ import annotations

from pathlib import Path

from app.ingest.formats.crash import CrashWatch
from app.stats.events import RunCrashed
from tests.coldread import read_cold
from tests.reallogs import body


def stops(lines: list[str]) -> list[tuple[str, str | None]]:
    watch = CrashWatch()
    found = [(e.error, e.stopped) for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    return found + [(e.error, e.stopped) for e in watch.cut_traceback() if isinstance(e, RunCrashed)]


DASHES = "-" * 75

# Composed after IPython's report: a Keras cell stopped with the kernel's interrupt while fitting.
KERAS_CELL = [
    "Epoch 1/10",
    "100/100 [==============================] - 12s 120ms/step - loss: 0.6931",
    "Epoch 2/10",
    " 37/100 [==========>...................] - ETA: 7s - loss: 0.6512",
    DASHES,
    "KeyboardInterrupt                         Traceback (most recent call last)",
    "<ipython-input-7-5b2c1d0e9f3a> in <module>",
    "----> 1 model.fit(x, y, epochs=10)",
    "",
    "KeyboardInterrupt: ",
]


def test_a_notebook_s_traceback_names_its_error_first_and_is_the_crash() -> None:
    said = stops(KERAS_CELL)
    assert said and said[0] == ("KeyboardInterrupt", "hand")
    assert all(stopped == "hand" for _, stopped in said)


def test_a_notebook_s_interrupt_reads_stopped_by_hand(tmp_path: Path) -> None:
    data = read_cold(tmp_path, KERAS_CELL)
    assert data["state"] == "stopped" and data["status_line"].endswith("stopped by hand")


def test_a_real_notebook_traceback_names_its_error(tmp_path: Path) -> None:
    # LipNet issue #23: ``StopIteration                             Traceback (most recent call last)``, then ``Cell In[47]``
    name = "crash-jupyter-lipnet-issue23-keras-fit-cell-stopiteration-ipython-traceback-name-first.log"
    assert stops(body(name))[0] == ("StopIteration", None)
    data = read_cold(tmp_path, body(name))
    assert data["state"] == "crashed" and data["training"]["crash"]["error"] == "StopIteration"


def test_the_header_s_words_in_a_sentence_are_no_crash() -> None:
    assert stops(["Printing the stack: Traceback (most recent call last) follows below"]) == []


# Composed after the TensorFlow 1 CIFAR-10 tutorial's lines (tensorflow/models issue #1993 prints the same step line and
# error): the session's OOM, then the traceback raised while handling it, cut before its own error line.
OOM_CHAINED = [
    "2017-07-20 13:58:20.441224: step 941580, loss = 0.14 (3076.2 examples/sec; 0.042 sec/batch)",
    "Traceback (most recent call last):",
    '  File "session.py", line 1139, in _do_call',
    "    return fn(*args)",
    "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[2304,384]",
    "\t [[Node: ExponentialMovingAverage/AssignMovingAvg_4/sub_1 = Sub[T=DT_FLOAT]()]]",
    "",
    "During handling of the above exception, another exception occurred:",
    "",
    "Traceback (most recent call last):",
    '  File "cifar10_train.py", line 127, in <module>',
    "    tf.app.run()",
    '  File "cifar10_train.py", line 123, in main',
]
OOM = "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[2304,384]"


def test_a_chained_traceback_cut_short_leaves_the_error_read_as_the_crash() -> None:
    assert stops(OOM_CHAINED) == [(OOM, None)]


def test_a_chained_traceback_s_own_error_line_is_said_when_read() -> None:
    said = stops([*OOM_CHAINED, "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM (see above)"])
    assert said[-1] == ("tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM (see above)", None)


def test_a_traceback_cut_short_with_no_error_before_it_still_says_so() -> None:
    said = stops(OOM_CHAINED[:1] + OOM_CHAINED[9:])
    assert said == [('a traceback without its error line; last frame: File "cifar10_train.py", line 123, in main', None)]


def test_a_notebook_s_traceback_during_the_shutdown_after_a_stop_by_hand_leaves_the_stop() -> None:
    # SafeLife issue #23: ``CRITICAL Keyboard Interrupt. Ending early.``, then the run summary's ``KeyError
    # Traceback (most recent call last)`` as it shut down: the interrupt stopped the run, the KeyError came after
    said = stops(body("stopped-safelife-issue23-keyboard-interrupt-in-words.log"))
    assert said == [("CRITICAL Keyboard Interrupt. Ending early.", "hand")]
