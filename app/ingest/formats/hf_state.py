"""The HF Trainer's ``trainer_state.json``: one JSON document, pretty-printed (``indent=2``,
sorted keys), that the Trainer writes whole at each checkpoint and at the end of training.

Read line by line as the rest of the log is: each ``log_history`` entry (an object at four
spaces, ``    {`` … ``    },``) is parsed on its own, and the top-level scalars (``global_step``,
``max_steps``, ``should_training_stop``) are noted, so a document read from its end (its opening
cut off) still gives its latest entries. The events wait for the document's closing ``}``: only
then is ``max_steps`` known (the keys are sorted, it comes after ``log_history``). A rewrite is a
new whole document: the tailer sees the file's bytes change and starts the stream again, with a
fresh parser.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from typing import cast

from ...stats.events import EvalResult, Event, RunInfo, StageEnd, TrainStep
from .fields import describes_eval_run, finite
from .shapes import STATE_KEY

_TOP_SCALAR = re.compile(r'^  "(\w{1,64})": (-?[\d.eE+-]{1,32}|true|false|null),?\s*$')
_NESTED_FLAG = re.compile(r'^\s{6,}"should_training_stop": (true|false),?\s*$')
_ENTRY_OPEN = "    {"
_ENTRY_CLOSE = re.compile(r"^    \},?\s*$")
# How a JSON document's lines begin (the first line of a log decides whether it is one).
DOCUMENT_LINE = re.compile(r'^\s+(?:"[^"]{1,80}": |[{}\]],?\s*$)')
# Any line of a pretty-printed JSON document: a key, a bracket, a bare value in an array.
JSON_LINE = re.compile(r'^\s*(?:"|(?:[{}\[\]]|-?\d[\d.eE+-]*|true|false|null),?\s*$)')
# An entry holds a dozen keys; past this many lines it was not an entry.
_ENTRY_LINES = 200


class TrainerState:
    """Lines of a ``trainer_state.json`` in, the run's events out when the document closes."""

    def __init__(self, after: int | None = None) -> None:
        # The global step of the last document read of this file: a rewrite that goes on from it
        # adds only its newer entries (a document that starts lower is another run: all of it).
        self.after = after
        self.seen = False  # a line only this document holds was read
        self._entry: list[str] | None = None
        self._entries: list[dict[str, object]] = []
        self._top: dict[str, str] = {}
        self._stop: bool | None = None
        self.bad = 0

    def take(self, line: str) -> list[Event]:
        """Take one line of the document: the run's events when it closes it, else none."""
        if self._entry is not None:
            self._entry.append(line)
            if _ENTRY_CLOSE.match(line):
                text = "\n".join(self._entry).rstrip().rstrip(",")
                self._entry = None
                try:
                    entry = json.loads(text)
                except ValueError:
                    self.bad += 1
                    return []
                if isinstance(entry, dict):
                    self._entries.append(entry)
            elif len(self._entry) > _ENTRY_LINES:
                self._entry = None
                self.bad += 1
            return []
        if line.rstrip() == _ENTRY_OPEN:
            # (A document read from its middle: its entries come before any key only it holds.)
            self._entry = [line]
            return []
        if STATE_KEY.match(line):
            self.seen = True
        m = _TOP_SCALAR.match(line)
        if m is not None:
            self._top[m.group(1)] = m.group(2)
            return []
        m = _NESTED_FLAG.match(line)
        if m is not None:
            self._stop = m.group(1) == "true"
            return []
        if line.rstrip() == "}" and (self.seen or self._entries):
            return self._close()
        return []

    def _close(self) -> list[Event]:
        """The whole document is read: the run as it stood when the Trainer saved it."""
        top, entries, stop = self._top, self._entries, self._stop
        self._top, self._entries, self._stop, self.seen = {}, [], None, False
        total = _int(top.get("max_steps"))
        total = total if total is not None and total > 0 else None
        global_step = _int(top.get("global_step"))
        events: list[Event] = []
        if total is not None:
            events.append(RunInfo(at=None, total_steps=total))
        after = self.after if self.after is not None and global_step is not None and global_step >= self.after else None
        if after is not None:
            entries = [entry for entry in entries if (_int(entry.get("step")) or 0) > after or "train_runtime" in entry]
        self.after = global_step
        last_step: int | None = None
        summary: dict[str, object] | None = None
        for entry in entries:
            step = _int(entry.get("step"))
            if "train_runtime" in entry and "loss" not in entry:
                summary = entry
            elif "loss" in entry and step is not None:
                last_step = step
                events.append(TrainStep(
                    at=None, stage="train", step=step, total_steps=total,
                    loss=_float(entry.get("loss")), loss_note="mean since the last log",
                    lr=finite(_float(entry.get("learning_rate"))), grad_norm=_float(entry.get("grad_norm")),
                    epoch=finite(_float(entry.get("epoch"))),
                ))
            elif any(k.startswith("eval_") for k in entry):
                events.extend(
                    EvalResult(at=None, name=k, value=_float(v), step=step)
                    for k, v in entry.items()
                    if k.startswith("eval_") and not describes_eval_run(k) and _float(v) is not None
                )
        done = global_step is not None and total is not None and global_step >= total
        runtime = _float(summary.get("train_runtime")) if summary is not None else None
        # The run's own time, in its end summary only: the mean step over the whole run.
        per_step = runtime / global_step if runtime is not None and runtime > 0 and global_step else None
        if global_step is not None and (last_step is None or global_step > last_step) and global_step != after:
            # The state's own step: beyond the last log (a checkpoint between logs, the run's end).
            events.append(TrainStep(at=None, stage="train", step=global_step, total_steps=total,
                                    step_seconds=per_step, elapsed_seconds=runtime))
        elif per_step is not None and last_step is not None:
            i = max(i for i, event in enumerate(events) if isinstance(event, TrainStep))
            events[i] = replace(cast(TrainStep, events[i]), step_seconds=per_step, elapsed_seconds=runtime)
        if done or stop:
            text = f"trainer_state.json: global_step {global_step} of max_steps {total}"
            if summary is not None:
                text += ", " + ", ".join(f"{k} {v}" for k, v in summary.items() if k.startswith("train_"))
            events.append(StageEnd(at=None, summary=text))
        return events


def _int(value: object) -> int | None:
    number = _float(value)
    return int(number) if number is not None and math.isfinite(number) and number == int(number) else None


def _float(value: object) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None
